"""The loop hold of two or more asyncio spawn APIs in one process,
interleaved round by round (the order rotating): ``asyncio_bench.py``'s
hold test (one spawn at a time, every loop callback timed, a spawn's hold
its longest callback) for each API in turn.

  python bench/hold_ab.py ROUNDS N fastspawn_base,fastspawn[,asyncio] -- CHILD

Per API, over all rounds (µs): the hold's p50, p99, and p99 of the spawns
none of whose callbacks was preempted (with how many were), then each kind
of callback a spawn makes the loop run (not preempted): calls per spawn,
p50, p99; last, per API after the first, the hold's p50 and p99 (not
preempted) of each round against the first API's of the same round
(medians of the paired differences). ``fastspawn_base``: an older copy of
the package on PYTHONPATH (see ``loop_cpu_ab.py``).
"""

import asyncio
import statistics
import sys

from asyncio_bench import hold, pct
from loop_cpu_ab import interleaved, parse_args


def measure(module, child, n):
    steps = []
    per_spawn, _, _ = asyncio.run(hold(module, child, n, steps))
    return per_spawn, steps


def main():
    rounds, n, _, child, impls = parse_args(sys.argv[1:])
    names = list(impls)
    res = interleaved(rounds, n, impls, lambda m, spawns: measure(m, child, spawns))
    per_round = {}
    for name in names:
        gaps = [g for spawns, _ in res[name] for g in spawns]
        every = [g for g, _ in gaps]
        calm = [g for g, pre in gaps if not pre]
        print(f"{name}: hold p50 {pct(every, 0.5) * 1e6:6.1f}  p99 {pct(every, 0.99) * 1e6:7.1f}"
              f"  p99 not preempted {pct(calm, 0.99) * 1e6:6.1f}"
              f"  ({len(every) - len(calm)} of {len(every)} preempted)")  # fmt: skip
        kinds = {}
        for _, steps in res[name]:
            for kind, ns, pre in steps:
                kinds.setdefault(kind, []).append(None if pre else ns / 1e3)
        for kind, values in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
            calm_cb = [v for v in values if v is not None]
            print(f"    {kind[:58]:58} {len(values) / len(every):5.2f}"
                  f" {pct(calm_cb, 0.5):7.1f} {pct(calm_cb, 0.99):7.1f}")  # fmt: skip
        per_round[name] = [
            (
                pct([g for g, _ in spawns], 0.5) * 1e6,
                pct([g for g, pre in spawns if not pre], 0.99) * 1e6,
            )
            for spawns, _ in res[name]
        ]
    base = names[0]
    for name in names[1:]:
        for i, what in enumerate(("p50", "p99 not preempted")):
            d = sorted(b[i] - a[i] for a, b in zip(per_round[base], per_round[name]))
            print(f"{name} - {base}: hold {what}, paired by round:"
                  f" median {statistics.median(d):+.1f} µs"
                  f" (quartiles {d[len(d) // 4]:+.1f} {d[3 * len(d) // 4]:+.1f})")  # fmt: skip


if __name__ == "__main__":
    main()
