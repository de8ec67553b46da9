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
Session 15). Session 16: ``PKG:linger=US``, ``PKG:threads=N`` and
``PKG:spin=US`` and ``PKG:linked=0|1`` set the extension's
``set_spawn_linger``, ``set_spawner_threads``, ``set_pool_spin`` and
``set_ring_linked_timeout`` at each spawn call, and
modes join with ``+`` (``fastspawn:ring+linger=0``): every setter named
runs at each call of that API.
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
    module); or ``PKG:MODE[+MODE...]``, that package's with the switches
    the modes name set at each spawn call: ``wake``, ``defer`` or
    ``defer=US`` (``set_defer_spawn_wake`` at 0, 200 or US µs), ``ring``
    or ``pidfd`` (``set_exit_ring``), ``linger=US``, ``threads=N``,
    ``spin=US``, ``linked=0|1``."""
    if name == "asyncio":
        return asyncio
    package, _, modes = name.partition(":")
    module = importlib.import_module(package + ".asyncio")
    if not modes:
        return module
    switches = []
    for mode in modes.split("+"):
        key, _, value = mode.partition("=")
        if mode == "wake":
            switches.append(("set_defer_spawn_wake", 0))
        elif mode == "defer":
            switches.append(("set_defer_spawn_wake", 200))
        elif mode in ("ring", "pidfd"):
            if mode == "ring" and not module._fastspawn.exit_ring_in_use():
                raise SystemExit(f"{name}: no exit ring here (io_uring waitid, FASTSPAWN_IO_URING)")
            switches.append(("set_exit_ring", mode == "ring"))
        elif key in SETTERS and value.isdigit():
            switches.append((SETTERS[key], bool(int(value)) if key == "linked" else int(value)))
        else:
            raise SystemExit(
                f"{name}: a mode after ':' is wake, defer, defer=US, ring, pidfd, linger=US,"
                " threads=N, spin=US or linked=0|1 (joined with '+')"
            )
    return Switched(module, switches)


SETTERS = {
    "defer": "set_defer_spawn_wake",
    "linger": "set_spawn_linger",
    "threads": "set_spawner_threads",
    "spin": "set_pool_spin",
    "linked": "set_ring_linked_timeout",
}


class Switched:
    """A fastspawn package's ``asyncio`` module with each of ``switches``
    (``(setter, value)``: an extension function and its argument) set at
    each spawn call (a swap of a global value; every side of an A/B that
    names a mode pays it), so APIs of one package with the switches at
    different values can be interleaved in one process."""

    def __init__(self, module, switches):
        self._module = module
        self._set = [(getattr(module._fastspawn, setter), value) for setter, value in switches]

    def create_subprocess_exec(self, *args, **kwds):
        for setter, value in self._set:
            setter(value)
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
