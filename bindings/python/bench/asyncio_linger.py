"""fastspawn.asyncio with and without the spawner threads' linger, against
asyncio, interleaved in one process.

  python bench/asyncio_linger.py CHILD [ROUNDS] [K] [M]

Per round, in alternating order: M spawn+wait of CHILD with at most K in
flight through asyncio, fastspawn.asyncio with the linger 0 and with 200
µs. Per variant, the medians over the rounds of: spawns per second, the
throughput over asyncio's of the same round, the loop thread's CPU per
spawn (RUSAGE_THREAD, its system part apart), fastspawn's drain callbacks
per spawn, and the loop's CPU over the linger-0 variant's of the round.
"""

import asyncio
import os
import resource
import statistics as st
import sys
import time

from asyncio_bench import spawn_and_wait

import fastspawn.asyncio as fa
from fastspawn import _fastspawn

drains = [0]
_init = fa._LoopSpawner.__init__


def counted_init(self, loop):
    # The loop's reader callback is the extension's drain: replaced by one
    # that counts, then drains the same way.
    _init(self, loop)

    def counted_drain():
        drains[0] += 1
        self._drain(loop)

    self._watch(loop, counted_drain)


fa._LoopSpawner.__init__ = counted_init


async def throughput(m, child, k, n):
    sem = asyncio.Semaphore(k)

    d0, r0, t0 = drains[0], resource.getrusage(resource.RUSAGE_THREAD), time.perf_counter()
    await asyncio.gather(*[spawn_and_wait(m, child, sem) for _ in range(n)])
    dt, r1 = time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_THREAD)
    loop_cpu = r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime
    return n / dt, loop_cpu / n * 1e6, (r1.ru_stime - r0.ru_stime) / n * 1e6, (drains[0] - d0) / n


def main():
    child = [sys.argv[1]]
    rounds, k, m = (int(a) for a in (sys.argv[2:] + ["9", "16", "1500"][len(sys.argv) - 2 :]))
    variants = {"asyncio": (asyncio, None), "linger 0": (fa, 0), "linger 200 µs": (fa, 200)}
    res = {name: [] for name in variants}
    previous = _fastspawn.set_spawn_linger(200)

    async def run():
        for impl, linger in variants.values():  # warm-up
            if linger is not None:
                _fastspawn.set_spawn_linger(linger)
            await throughput(impl, child, k, 200)
        for i in range(rounds):
            order = list(variants.items())
            for name, (impl, linger) in order if i % 2 == 0 else order[::-1]:
                if linger is not None:
                    _fastspawn.set_spawn_linger(linger)
                res[name].append(await throughput(impl, child, k, m))

    try:
        asyncio.run(run())
    finally:
        _fastspawn.set_spawn_linger(previous)
    print(f"k={k} m={m} rounds={rounds} load after {os.getloadavg()[0]:.2f}")
    base, no_linger = res["asyncio"], res["linger 0"]
    for name, rs in res.items():
        print(
            f"  {name:14s} {st.median(r[0] for r in rs):6.0f}/s"
            f"  x asyncio {st.median(r[0] / b[0] for r, b in zip(rs, base)):5.2f}"
            f"  loop thread {st.median(r[1] for r in rs):6.1f} µs/spawn"
            f" (sys {st.median(r[2] for r in rs):5.1f})"
            f"  drains/spawn {st.median(r[3] for r in rs):.2f}"
            f"  loop CPU / linger 0 {st.median(r[1] / x[1] for r, x in zip(rs, no_linger)):.3f}"
        )


if __name__ == "__main__":
    main()
