"""Where the loop thread's CPU goes per spawn at K in flight: the
throughput load of ``asyncio_bench.py`` (M spawns of CHILD, each awaited
with ``wait()``), with every loop callback timed on the loop thread's CPU
clock (``time.thread_time_ns``) and grouped by kind, plus the selector's
``select`` (``epoll_wait``), the extension's ``submit_args`` inside the
first task step, and the last task step's tail (the semaphore's release and
the ``Process``'s free, its pidfd's close). One timer read's cost is
subtracted per read; the per-callback wrapper itself is not, and shows in
"rest of _run_once" (more callbacks, more of it).

  python bench/loop_cpu_parts.py IMPL [M] [K] -- CHILD

IMPL: ``floor`` (the same coroutine with the spawn and the wait replaced by
two futures resolved by ``call_soon`` callbacks, as in ``asyncio_bench.py``),
``asyncio``, or the name of a package with fastspawn's layout
(``fastspawn``; an older copy of the package installed under another name,
found through PYTHONPATH, for a before/after).
"""

import asyncio
import collections
import importlib
import statistics
import sys
import time

clock = time.thread_time_ns
acc = collections.defaultdict(int)
cnt = collections.defaultdict(int)


def timer_read_ns():
    xs = []
    for _ in range(2001):
        a = clock()
        b = clock()
        xs.append(b - a)
    return statistics.median(xs)


OH = timer_read_ns()


async def one(m, child, sem, floor):
    async with sem:
        if floor:
            loop = asyncio.get_running_loop()
            for _ in range(2):
                f = loop.create_future()
                loop.call_soon(f.set_result, 0)
                await f
            rc = 0
        else:
            p = await m.create_subprocess_exec(*child)
            rc = await p.wait()
            del p
        t0 = clock()
    acc["last task step's tail: semaphore release, Process freed"] += clock() - t0 - OH
    if rc != 0:
        raise SystemExit("child failed")


class TimedSubmit:
    """Stands in for a loop spawner's extension object: times its
    ``submit_args``, forwards the rest."""

    def __init__(self, native):
        self.native = native

    def submit_args(self, *args):
        t0 = clock()
        r = self.native.submit_args(*args)
        acc["submit_args (the extension), in the first task step"] += clock() - t0 - OH
        return r

    def __getattr__(self, name):
        return getattr(self.native, name)


async def run(m, child, n, k, floor):
    sem = asyncio.Semaphore(k)
    loop = asyncio.get_running_loop()
    original_run = asyncio.events.Handle._run
    selector = loop._selector
    original_select = selector.select

    def timed_select(timeout=None):
        t0 = clock()
        r = original_select(timeout)
        acc["select (epoll_wait, the event list)"] += clock() - t0 - OH
        cnt["select (epoll_wait, the event list)"] += 1
        return r

    def timed_run(handle):
        cb = handle._callback
        owner = getattr(cb, "__self__", None)
        name = "task step" if isinstance(owner, asyncio.Task) else getattr(cb, "__qualname__", "?")
        t0 = clock()
        original_run(handle)
        acc["callback: " + name] += clock() - t0 - OH
        cnt["callback: " + name] += 1

    if not floor and hasattr(m, "_spawner"):
        spawner = m._spawner(loop)
        if not isinstance(spawner._spawner, TimedSubmit):
            spawner._spawner = TimedSubmit(spawner._spawner)
    coros = [one(m, child, sem, floor) for _ in range(n)]
    acc.clear()
    cnt.clear()
    selector.select = timed_select
    asyncio.events.Handle._run = timed_run
    t0 = clock()
    try:
        await asyncio.gather(*coros)
    finally:
        asyncio.events.Handle._run = original_run
        selector.select = original_select
    return clock() - t0


async def main(impl, n, k, child):
    floor = impl == "floor"
    if floor or impl == "asyncio":
        m = asyncio
    else:
        m = importlib.import_module(impl + ".asyncio")
    await run(m, child, 300, k, floor)
    total = await run(m, child, n, k, floor)
    print(f"{impl}: loop thread CPU {total / n / 1e3:.1f} µs per spawn, {k} in flight"
          f" (timer read {OH:.0f} ns, subtracted per read)")  # fmt: skip
    callbacks = sum(v for key, v in acc.items() if key.startswith("callback: "))
    for key in sorted(acc):
        calls = f"  {cnt[key] / n:.2f} per spawn" if cnt.get(key) else ""
        print(f"  {key:58s} {acc[key] / n / 1e3:6.2f}{calls}")
    select = acc["select (epoll_wait, the event list)"]
    print(f"  {'rest of _run_once (and the timing wrapper)':58s}"
          f" {(total - callbacks - select) / n / 1e3:6.2f}")  # fmt: skip


if __name__ == "__main__":
    argv = sys.argv[1:]
    child = argv[argv.index("--") + 1 :] if "--" in argv else ["true"]
    argv = argv[: argv.index("--")] if "--" in argv else argv
    asyncio.run(
        main(
            argv[0],
            int(argv[1]) if len(argv) > 1 else 6000,
            int(argv[2]) if len(argv) > 2 else 16,
            child,
        )  # fmt: skip
    )
