"""Two or more asyncio spawn APIs in one process, interleaved round by
round (the order rotating): the loop thread's CPU per spawn
(``time.thread_time``) and spawns/s at K in flight, each round's figures
paired with the first API's. For a before/after of fastspawn.asyncio, an
older copy of the package installed under another name (a directory
``fastspawn_base`` with the old ``asyncio.py``, ``subprocess.py``,
``__init__.py`` and ``_fastspawn*.so``, on PYTHONPATH): its extension
loads beside the new one.

  python bench/loop_cpu_ab.py ROUNDS M fastspawn_base,fastspawn[,asyncio] [K] -- CHILD

A name ``PKG:wake``, ``PKG:defer`` or ``PKG:defer=US`` is PKG's
``asyncio`` with the extension's ``set_defer_spawn_wake`` at 0 (off), 200
or US µs for its rounds (Session 12), in this script and those that share
its arguments (``cpu_split.py``, ``hold_ab.py``, ``switches.py``);
``PKG:ring`` / ``PKG:pidfd``, PKG's with its exits watched on the core's
exit ring (io_uring's waitid) or through pidfds (``set_exit_ring``,
Session 15).
"""

import asyncio
import importlib
import statistics
import sys
import time

from asyncio_bench import spawn_and_wait


async def run(m, child, n, k):
    sem = asyncio.Semaphore(k)
    t0 = time.thread_time()
    w0 = time.perf_counter()
    await asyncio.gather(*[spawn_and_wait(m, child, sem) for _ in range(n)])
    return (time.thread_time() - t0) / n * 1e6, n / (time.perf_counter() - w0)


def parse_args(argv):
    """``ROUNDS M NAMES [K] -- CHILD``, the command line of this script and
    ``cpu_split.py``: the rounds, spawns per round, spawns in flight, the
    child's argv, and each API's module by name (``asyncio`` or a package
    with an ``asyncio`` module)."""
    child = argv[argv.index("--") + 1 :] if "--" in argv else ["true"]
    argv = argv[: argv.index("--")] if "--" in argv else argv
    rounds, n, names = int(argv[0]), int(argv[1]), argv[2].split(",")
    k = int(argv[3]) if len(argv) > 3 else 16
    impls = {name: api(name) for name in names}
    return rounds, n, k, child, impls


def api(name):
    """``asyncio``; a package with fastspawn's layout (its ``asyncio``
    module); or ``PKG:wake``, ``PKG:defer`` or ``PKG:defer=US``, that
    package's with the extension's ``set_defer_spawn_wake`` at 0 (off),
    200 or US µs for its spawns."""
    if name == "asyncio":
        return asyncio
    package, _, mode = name.partition(":")
    module = importlib.import_module(package + ".asyncio")
    if not mode:
        return module
    if mode == "wake":
        return Switched(module, 0)
    if mode == "defer":
        return Switched(module, 200)
    if mode.startswith("defer=") and mode[6:].isdigit():
        return Switched(module, int(mode[6:]))
    if mode in ("ring", "pidfd"):
        if mode == "ring" and not module._fastspawn.exit_ring_in_use():
            raise SystemExit(f"{name}: no exit ring here (io_uring waitid, FASTSPAWN_IO_URING)")
        return Switched(module, mode == "ring", "set_exit_ring")
    raise SystemExit(f"{name}: the mode after ':' is wake, defer, defer=US, ring or pidfd")


class Switched:
    """A fastspawn package's ``asyncio`` module with
    ``set_defer_spawn_wake(us)`` (or ``setter``'s) set at each spawn call
    (a swap of a global value; both sides of an A/B pay it), so APIs of one
    package with the switch at different values can be interleaved in one
    process."""

    def __init__(self, module, us, setter="set_defer_spawn_wake"):
        self._module, self._us = module, us
        self._set = getattr(module._fastspawn, setter)

    def create_subprocess_exec(self, *args, **kwds):
        self._set(self._us)
        return self._module.create_subprocess_exec(*args, **kwds)


def interleaved(rounds, n, impls, measure):
    """``measure(module, spawns)`` of each API once with 300 spawns to warm
    up, then with ``n`` once per round, the order rotating by round: each
    API's results by name, in round order."""
    names = list(impls)
    for module in impls.values():
        measure(module, 300)
    res = {name: [] for name in names}
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            res[name].append(measure(impls[name], n))
    return res


def main():
    rounds, n, k, child, impls = parse_args(sys.argv[1:])
    names = list(impls)
    res = interleaved(rounds, n, impls, lambda m, spawns: asyncio.run(run(m, child, spawns, k)))
    for name in names:
        cpu = statistics.median(c for c, _ in res[name])
        rate = statistics.median(s for _, s in res[name])
        print(f"{name:16} loop thread CPU {cpu:6.1f} µs per spawn, {rate:7.0f} spawns/s (medians)")
    base = names[0]
    for name in names[1:]:
        d = sorted(b[0] - a[0] for a, b in zip(res[base], res[name]))
        print(f"{name} - {base}: loop thread CPU, paired by round:"
              f" median {statistics.median(d):+.1f} µs"
              f" (quartiles {d[len(d) // 4]:+.1f} {d[3 * len(d) // 4]:+.1f})")  # fmt: skip
    if "asyncio" in res:
        for name in names:
            if name != "asyncio":
                ratio = statistics.median(b[1] / a[1] for a, b in zip(res["asyncio"], res[name]))
                print(f"{name} / asyncio: {ratio:.2f}x (median of the rounds' ratios)")


if __name__ == "__main__":
    main()
