"""The forms of an asyncio spawn that programs write (wait alone, piped
stdout or both outputs with communicate(), input and output, a line at a
time), each through fastspawn.asyncio and asyncio's create_subprocess_exec,
K in flight, interleaved round by round in this process. Per form: the
median spawns per second of each, the median of the per-round ratios
(fastspawn / asyncio), and the loop thread's CPU per spawn (RUSAGE_THREAD)
of each.

  python bench/asyncio_forms.py CHILD [--rounds 5] [--m 2000] [--k 16]

CHILD is a program that exits at once and writes nothing (the benchmark
peers' static noop: make -C bench/peers OUT=$PWD/target/peers noop).
"""

import argparse
import asyncio
import os
import resource
import statistics
import time

import fastspawn.asyncio as fa

PIPE = asyncio.subprocess.PIPE


def forms(child):
    """(name, coroutine function of the module) for each form."""

    async def wait(m):
        p = await m.create_subprocess_exec(child)
        await p.wait()

    async def stdout(m):
        p = await m.create_subprocess_exec(child, stdout=PIPE)
        await p.communicate()

    async def both(m):
        p = await m.create_subprocess_exec(child, stdout=PIPE, stderr=PIPE)
        await p.communicate()

    async def exchange(m):
        p = await m.create_subprocess_exec(child, stdin=PIPE, stdout=PIPE)
        await p.communicate(b"x")

    async def lines(m):
        p = await m.create_subprocess_exec(child, stdout=PIPE)
        async for _ in p.stdout:
            pass
        await p.wait()

    async def shell(m):
        p = await m.create_subprocess_shell(f"exec {child}", stdout=PIPE, stderr=PIPE)
        await p.communicate()

    return [
        ("create_subprocess_exec(args); wait()", wait),
        ("stdout=PIPE; communicate()", stdout),
        ("stdout=PIPE, stderr=PIPE; communicate()", both),
        ("stdin=PIPE, stdout=PIPE; communicate(b'x')", exchange),
        ("stdout=PIPE; async for line in p.stdout; wait()", lines),
        ("create_subprocess_shell(exec CHILD), both piped; communicate()", shell),
    ]


def thread_cpu():
    usage = resource.getrusage(resource.RUSAGE_THREAD)
    return usage.ru_utime + usage.ru_stime


async def batch(one, module, m, k):
    """M spawns of ``one``, at most K in flight: (spawns/s, loop µs per spawn)."""
    gate = asyncio.Semaphore(k)

    async def gated():
        async with gate:
            await one(module)

    cpu, start = thread_cpu(), time.perf_counter()
    await asyncio.gather(*(gated() for _ in range(m)))
    wall, cpu = time.perf_counter() - start, thread_cpu() - cpu
    return m / wall, cpu / m * 1e6


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("child")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--m", type=int, default=2000)
    parser.add_argument("--k", type=int, default=16)
    opts = parser.parse_args()
    cases = forms(os.path.abspath(opts.child))
    for _, one in cases:
        for module in (fa, asyncio):
            await batch(one, module, 100, opts.k)
    got = {(name, mod): [] for name, _ in cases for mod in (fa, asyncio)}
    for _ in range(opts.rounds):
        for name, one in cases:
            for module in (fa, asyncio):
                got[name, module].append(await batch(one, module, opts.m, opts.k))
    print(f"{opts.rounds} rounds of {opts.m} spawns of each, {opts.k} in flight; {opts.child}")
    print(
        f"{'form':64} {'fastspawn/s':>11} {'asyncio/s':>9} {'ratio':>6} "
        f"{'loop µs fs':>10} {'asyncio':>8}"
    )
    for name, _ in cases:
        ours, theirs = got[name, fa], got[name, asyncio]
        ratio = statistics.median(a[0] / b[0] for a, b in zip(ours, theirs))
        print(
            f"{name:64} {statistics.median(a for a, _ in ours):11.0f} "
            f"{statistics.median(a for a, _ in theirs):9.0f} {ratio:5.2f}x "
            f"{statistics.median(c for _, c in ours):10.1f} "
            f"{statistics.median(c for _, c in theirs):8.1f}"
        )


if __name__ == "__main__":
    asyncio.run(main())
