"""Where the CPU of a spawn goes at K in flight: every thread of the
process and the children, per spawn, for two or more asyncio spawn APIs in
one process, interleaved round by round (the order rotating).

  python bench/cpu_split.py ROUNDS M asyncio,fastspawn[,fastspawn_base] [K] -- CHILD

Per round and API, M spawn+wait of CHILD with at most K in flight
(``asyncio_bench.spawn_and_wait``), and per spawn, medians over the rounds
(µs): the loop thread, fastspawn's spawner threads (``fastspawn-N``), its
waiter (``fastspawn-py-waiter``) -- each from ``/proc/self/task/*/schedstat``
(time run) before and after --, the process's other threads
(``RUSAGE_SELF`` less those: asyncio's child-watcher threads, which end
before they can be read), the reaped children's user and system time
(``RUSAGE_CHILDREN``), the time the CPUs gave to everything else
(``/proc/stat``'s busy time less this process and its children) and the
idle time, which add up to CPUs x wall time per spawn; then each API's
total and loop thread CPU against the first's, paired by round. ``fastspawn_base``:
an older copy of the package on PYTHONPATH (see ``loop_cpu_ab.py``).
"""

import asyncio
import os
import resource
import statistics
import sys
import threading
import time

from asyncio_bench import spawn_and_wait
from loop_cpu_ab import interleaved, parse_args

CPUS = os.cpu_count() or 1
TICK = os.sysconf("SC_CLK_TCK")
ROWS = ("loop", "spawners", "waiter", "others", "child user", "child sys", "not ours", "idle")


def machine():
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    return sum(fields[:8]), fields[3] + fields[4]  # total, idle + iowait (ticks)


def threads(loop_tid):
    """Run ns per thread kind, summed over the process's threads."""
    out = {"loop": 0, "spawners": 0, "waiter": 0}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/comm") as f:
                comm = f.read().strip()
            with open(f"/proc/self/task/{tid}/schedstat") as f:
                run = int(f.read().split()[0])
        except OSError:
            continue
        if int(tid) == loop_tid:
            out["loop"] += run
        elif comm.startswith("fastspawn-py-w"):
            out["waiter"] += run
        elif comm.startswith("fastspawn-"):
            out["spawners"] += run
    return out


def cpu(a, b, user=True, sys_=True):
    return (b.ru_utime - a.ru_utime) * user + (b.ru_stime - a.ru_stime) * sys_


async def one(m, child, n, k):
    sem = asyncio.Semaphore(k)
    tid = threading.get_native_id()
    s0, c0, m0, t0 = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
        machine(),
        threads(tid),
    )
    w0 = time.perf_counter()
    await asyncio.gather(*[spawn_and_wait(m, child, sem) for _ in range(n)])
    dt = time.perf_counter() - w0
    t1, s1, c1, m1 = (
        threads(tid),
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
        machine(),
    )
    per = 1e6 / n
    r = {kind: (t1[kind] - t0[kind]) / 1e3 / n for kind in t0}
    ours = cpu(s0, s1) * per
    r["others"] = ours - r["loop"] - r["spawners"] - r["waiter"]
    r["child user"] = cpu(c0, c1, sys_=False) * per
    r["child sys"] = cpu(c0, c1, user=False) * per
    total, idle = m1[0] - m0[0], m1[1] - m0[1]
    wall = CPUS * dt * per  # CPU time the machine had per spawn
    r["idle"] = idle / total * wall if total else float("nan")
    r["not ours"] = wall - r["idle"] - ours - r["child user"] - r["child sys"]
    r["rate"] = n / dt
    return r


def main():
    rounds, n, k, child, impls = parse_args(sys.argv[1:])
    names = list(impls)
    load = os.getloadavg()[0]
    res = interleaved(rounds, n, impls, lambda m, spawns: asyncio.run(one(m, child, spawns, k)))
    print(
        f"{rounds} rounds of {n} spawns of {' '.join(child)}, {k} in flight, {CPUS} CPUs;"
        f" load before {load:.2f}, after {os.getloadavg()[0]:.2f}"
    )
    print("| µs per spawn (median of rounds) | " + " | ".join(names) + " |")
    print("| --- |" + " --- |" * len(names))

    def med(name, key):
        return statistics.median(x[key] for x in res[name])

    for row in ROWS:
        print(f"| {row} | " + " | ".join(f"{med(name, row):.1f}" for name in names) + " |")
    ours = ROWS[:6]
    print(
        "| total of the process and its children | "
        + " | ".join(
            f"{statistics.median(sum(x[key] for key in ours) for x in res[name]):.1f}"
            for name in names
        )
        + " |"
    )
    print("| spawns/s | " + " | ".join(f"{med(name, 'rate'):.0f}" for name in names) + " |")
    base = names[0]
    for name in names[1:]:
        for what, keys in (
            ("total CPU", ours),
            ("loop thread CPU", ("loop",)),
            ("other threads' CPU", ("spawners", "waiter", "others")),
        ):
            d = sorted(
                sum(b[r] for r in keys) - sum(a[r] for r in keys)
                for a, b in zip(res[base], res[name])
            )
            print(
                f"{name} - {base}: {what} per spawn, paired by round: median"
                f" {statistics.median(d):+.1f} µs"
                f" (quartiles {d[len(d) // 4]:+.1f} {d[3 * len(d) // 4]:+.1f})"
            )
        ratio = statistics.median(b["rate"] / a["rate"] for a, b in zip(res[base], res[name]))
        print(f"{name} / {base}: {ratio:.3f}x the spawns/s (median of the rounds' ratios)")
    if "asyncio" in res:
        for name in names:
            if name != "asyncio":
                ratio = statistics.median(
                    b["rate"] / a["rate"] for a, b in zip(res["asyncio"], res[name])
                )
                print(f"{name} / asyncio: {ratio:.2f}x (median of the rounds' ratios)")


if __name__ == "__main__":
    main()
