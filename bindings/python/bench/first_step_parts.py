"""The parts of fastspawn.asyncio's first callback per spawn (the
synchronous part of create_subprocess_exec), one spawn at a time.

  python bench/first_step_parts.py CHILD [N]

Per spawn, each timed on its own (perf_counter_ns; p50 and p99 over N):
the whole first step (create_subprocess_exec's coroutine run to its first
suspension), the spawner lookup, loop.create_future(), the extension's
submit_args alone, its flush alone (the hand-over to the pool, which the
package runs in a call_soon callback of its own). Each measured spawn is
waited for before the next.
"""

import asyncio
import sys
import time

import fastspawn.asyncio as fa

ns = time.perf_counter_ns


def pct(xs):
    xs = sorted(xs)
    return f"p50 {xs[len(xs) // 2] / 1000:6.2f}  p99 {xs[int(len(xs) * 0.99)] / 1000:6.2f}"


async def main(child, n):
    loop = asyncio.get_running_loop()
    sp = fa._spawner(loop)
    native = sp._spawner
    args = (child,)
    res = {}

    def rec(name, t0, t1):
        res.setdefault(name, []).append(t1 - t0)

    for _ in range(n):
        t0 = ns()
        fa._spawner(loop)
        rec("_spawner(loop)", t0, ns())
        t0 = ns()
        loop.create_future()
        rec("loop.create_future()", t0, ns())
        t0 = ns()
        tok = abs(native.submit_args(args))
        rec("Spawner.submit_args (extension)", t0, ns())
        t0 = ns()
        native.flush()
        rec("Spawner.flush (extension, own callback)", t0, ns())
        fut = sp._pending[tok] = loop.create_future()
        await (await fut).wait()

        coro = fa.create_subprocess_exec(child)
        t0 = ns()
        future = coro.send(None)
        rec("first step: create_subprocess_exec to its first await", t0, ns())
        await asyncio.wait({future})
        try:
            coro.send(None)
        except StopIteration as stop:
            await stop.value.wait()
    for name, xs in res.items():
        print(f"  {name:55s} {pct(xs)}")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 2000))
