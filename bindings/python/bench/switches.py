"""How often each thread sleeps and is preempted per spawn at K in flight,
and how many spawns reach their caller with the child already exited, for
two or more asyncio spawn APIs in one process, interleaved round by round
(the order rotating).

  python bench/switches.py ROUNDS M fastspawn[,fastspawn_base][,asyncio] [K] -- CHILD

Per round and API, M spawn+wait of CHILD with at most K in flight (the
unit of ``asyncio_bench.py``'s throughput test), and per spawn, medians over
the rounds: each thread kind's voluntary context switches (it slept: a
blocking ``epoll_wait``, a ``futex`` wait, the vfork wait of a spawner
thread's clone) and involuntary ones (it was preempted), from
``/proc/self/task/*/status`` before and after (the loop thread; the
spawner threads ``fastspawn-N``; the waiter ``fastspawn-py-waiter``;
asyncio's watcher threads end before they can be read and are not
counted); and the share of spawns whose ``Process`` had a ``returncode``
when the spawn call returned (its exit came in the same drain as its
spawn: the spawner thread's linger reaped it, or the waiter did before the
loop drained), for which ``wait()`` makes no future. ``fastspawn_base``: an
older copy of the package on PYTHONPATH (see ``loop_cpu_ab.py``).
"""

import asyncio
import os
import statistics
import sys

from loop_cpu_ab import interleaved, parse_args


def switches():
    """(voluntary, involuntary) context switches per thread kind, summed
    over the process's live threads."""
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/comm") as f:
                comm = f.read().strip()
            with open(f"/proc/self/task/{tid}/status") as f:
                lines = f.read().splitlines()
        except OSError:
            continue
        counts = [int(line.split()[1]) for line in lines if "ctxt_switches" in line]
        if int(tid) == os.getpid():
            kind = "loop"
        elif comm.startswith("fastspawn-py-w"):
            kind = "waiter"
        elif comm.startswith("fastspawn-"):
            kind = "spawners"
        else:
            kind = "others"
        total = out.setdefault(kind, [0, 0])
        total[0] += counts[0]
        total[1] += counts[1]
    return out


async def run(m, child, n, k):
    sem = asyncio.Semaphore(k)
    exited = 0

    async def one():
        nonlocal exited
        async with sem:
            p = await m.create_subprocess_exec(*child)
            exited += p.returncode is not None
            if await p.wait() != 0:
                raise SystemExit("child failed")

    before = switches()
    await asyncio.gather(*[one() for _ in range(n)])
    after = switches()
    per_spawn = {
        kind: ((after[kind][0] - b[0]) / n, (after[kind][1] - b[1]) / n)
        for kind, b in before.items()
        if kind in after
    }
    return per_spawn, exited / n


def main():
    rounds, n, k, child, impls = parse_args(sys.argv[1:])
    res = interleaved(rounds, n, impls, lambda m, spawns: asyncio.run(run(m, child, spawns, k)))
    print(f"{k} in flight, {n} spawns a round, {rounds} rounds; per spawn, medians of the rounds")
    for name, rows in res.items():
        print(f"{name}: exited when the spawn call returned: "
              f"{statistics.median(share for _, share in rows):.1%}")  # fmt: skip
        kinds = sorted({kind for per_spawn, _ in rows for kind in per_spawn})
        for kind in kinds:
            vol = statistics.median(p[kind][0] for p, _ in rows if kind in p)
            inv = statistics.median(p[kind][1] for p, _ in rows if kind in p)
            print(f"    {kind:10} slept {vol:5.2f}  preempted {inv:5.2f}")


if __name__ == "__main__":
    main()
