"""fastspawn.asyncio with several spawner pools (thread count and watch
window, `_fastspawn.set_spawner_threads` and `set_pool_spin`), against
asyncio, interleaved in one process, with where each thread's time goes.

  python bench/asyncio_spin.py CHILD [ROUNDS] [K] [M] [POOLS]

POOLS: comma-separated THREADS/SPIN (spin in µs, 50 if left out; threads
0 for the core's global pool, one thread per core), default 0/50,0/150,0/300.
Per round, in rotating order: M spawn+wait of CHILD with at most K in
flight through asyncio and through fastspawn.asyncio with each pool. Per
variant, the medians over the rounds of: spawns per second, the throughput
over asyncio's and over the first pool's of the same round, the loop
thread's CPU over the first pool's, the CPU per spawn (the loop thread, the other
threads, the children), how idle the machine's CPUs were (/proc/stat: idle
CPU time per spawn, and the share), and per thread kind (the loop thread,
fastspawn's spawner threads `fastspawn-N`, the waiter `fastspawn-py-waiter`)
per spawn: the time it ran, the time it waited runnable on a run queue
and the time it slept (schedstat: wall less those two), and its voluntary
context switches (the times it went to sleep).
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

CPUS = os.cpu_count() or 1


def machine():
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    # total, idle + iowait, irq + softirq, steal (ticks)
    return sum(fields[:8]), fields[3] + fields[4], fields[5] + fields[6], fields[7]


def kind(comm):
    if comm.startswith("fastspawn-py-w"):
        return "waiter"
    if comm.startswith("fastspawn-"):
        return "spawners"
    return None


def threads(loop_tid):
    """Per thread: (kind, run ns, run-queue wait ns, voluntary switches)."""
    out = {}
    for tid in os.listdir("/proc/self/task"):
        base = f"/proc/self/task/{tid}"
        try:
            with open(f"{base}/comm") as f:
                comm = f.read().strip()
            with open(f"{base}/schedstat") as f:
                run, wait, _ = (int(x) for x in f.read().split())
            with open(f"{base}/status") as f:
                vol = next(int(line.split()[1]) for line in f if line.startswith("voluntary_"))
        except (OSError, StopIteration):
            continue
        name = "loop" if int(tid) == loop_tid else kind(comm)
        if name is not None:
            out[tid] = (name, run, wait, vol)
    return out


async def throughput(m, child, k, n):
    sem = asyncio.Semaphore(k)

    loop_tid = threading_tid()
    s0, c0, m0 = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
        machine(),
    )
    l0, th0, t0 = resource.getrusage(resource.RUSAGE_THREAD), threads(loop_tid), time.perf_counter()
    await asyncio.gather(*[spawn_and_wait(m, child, sem) for _ in range(n)])
    dt = time.perf_counter() - t0
    l1, th1 = resource.getrusage(resource.RUSAGE_THREAD), threads(loop_tid)
    s1, c1, m1 = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
        machine(),
    )

    def cpu(a, b):
        return b.ru_utime + b.ru_stime - a.ru_utime - a.ru_stime

    loop = cpu(l0, l1)
    total, idle = m1[0] - m0[0], m1[1] - m0[1]
    r = {
        "rate": n / dt,
        "loop": loop / n * 1e6,
        "others": (cpu(s0, s1) - loop) / n * 1e6,
        "children": cpu(c0, c1) / n * 1e6,
        "idle_share": idle / total if total else float("nan"),
        "idle_us": (idle / total if total else 0) * CPUS * dt / n * 1e6,
        "irq_share": (m1[2] - m0[2]) / total if total else float("nan"),
        "steal_share": (m1[3] - m0[3]) / total if total else float("nan"),
    }
    # Per kind, the threads that ran during the load (other pools' idle
    # threads left out): per spawn, run, run-queue wait, sleep (wall less
    # those), times it went to sleep.
    acc = {}
    for tid, (name, *b) in th1.items():
        a = th0.get(tid, (name, 0, 0, 0))[1:]
        d = [b[i] - a[i] for i in range(3)]
        if d[0] == 0:
            continue
        t = acc.setdefault(name, [0, 0, 0, 0])
        for i in range(3):
            t[i] += d[i]
        t[3] += 1
    for name, (run, wait, vol, count) in acc.items():
        r["t_" + name] = (
            run / n / 1e3,
            wait / n / 1e3,
            (dt * 1e9 * count - run - wait) / n / 1e3,
            vol / n,
        )
    return r


def threading_tid():
    import threading

    return threading.get_native_id()


def main():
    args = sys.argv[1:]
    child = [args[0]]
    rounds, k, m = (int(a) for a in (args[1:4] + ["7", "16", "2000"][len(args[1:4]) :]))
    pools = [
        tuple(int(x) for x in (p + "/50").split("/")[:2])
        for p in (args[4] if len(args) > 4 else "0/50,0/150,0/300").split(",")
    ]
    variants = {"asyncio": None} | {f"{t} threads, {s} µs": (t, s) for t, s in pools}
    res = {name: [] for name in variants}
    first_threads = []
    spins = {}  # each pool's own window before this run

    def set_spin(pool):
        first_threads[:] = first_threads or [_fastspawn.set_spawner_threads(pool[0])]
        _fastspawn.set_spawner_threads(pool[0])
        spins.setdefault(pool[0], _fastspawn.set_pool_spin(pool[1]))
        _fastspawn.set_pool_spin(pool[1])

    async def run():
        for spin in variants.values():  # warm-up
            if spin is not None:
                set_spin(spin)
            await throughput(asyncio if spin is None else fa, child, k, 200)
        for i in range(rounds):
            # Each variant takes each place in turn (a variant run just
            # after asyncio's load can differ from one run after another).
            order = list(variants.items())
            order = order[i % len(order) :] + order[: i % len(order)]
            for name, spin in order:
                if spin is not None:
                    set_spin(spin)
                res[name].append(await throughput(asyncio if spin is None else fa, child, k, m))

    load = os.getloadavg()[0]
    try:
        asyncio.run(run())
    finally:
        for threads, spin in spins.items():
            _fastspawn.set_spawner_threads(threads)
            _fastspawn.set_pool_spin(spin)
        if first_threads:
            _fastspawn.set_spawner_threads(first_threads[0])
    print(
        f"k={k} m={m} rounds={rounds} CPUs={CPUS} load before {load:.2f},"
        f" after {os.getloadavg()[0]:.2f}"
    )
    base = res["asyncio"]
    first = res[list(variants)[1]]
    for name, rs in res.items():

        def med(key, rs=rs):
            return st.median(r[key] for r in rs)

        print(
            f"  {name:20s} {med('rate'):6.0f}/s"
            f"  x asyncio {st.median(r['rate'] / b['rate'] for r, b in zip(rs, base)):5.2f}"
            f" x first {st.median(r['rate'] / b['rate'] for r, b in zip(rs, first)):5.2f}"
            f" (loop CPU {st.median(r['loop'] / b['loop'] for r, b in zip(rs, first)):4.2f})"
            f"  CPU/spawn loop {med('loop'):6.1f} others {med('others'):6.1f}"
            f" children {med('children'):6.1f}"
            f"  idle {med('idle_share') * 100:4.1f}% ({med('idle_us'):5.1f} µs/spawn)"
            f" irq {med('irq_share') * 100:4.1f}% steal {med('steal_share') * 100:4.1f}%"
        )
        for t in ("loop", "spawners", "waiter"):
            if all("t_" + t in r for r in rs):
                run_, wait, sleep, vol = (st.median(r["t_" + t][i] for r in rs) for i in range(4))
                print(
                    f"      {t:9s} per spawn: ran {run_:6.1f} µs, waited runnable {wait:5.1f},"
                    f" slept {sleep:6.1f}, went to sleep {vol:4.2f} times"
                )


if __name__ == "__main__":
    main()
