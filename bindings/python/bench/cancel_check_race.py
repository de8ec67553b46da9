"""Why tests/test_asyncio.py::test_cancelled_spawn_leaves_no_child was flaky.

A spawn cancelled right after `create_subprocess_exec` was called is killed
and reaped in its own job on a spawner thread, which may run after
`asyncio.run` returned. The old check polled `children()` until it matched
the list taken before; it could match before the job ran, and the child
then appeared in the assert after the loop or in the next round's list
(which then never matched again). The new check waits for
`_fastspawn.unfinished_spawns()` to reach 0 first.

Each round cancels one spawn and runs one check, the two alternating:
"poll" (the old one; "early" = it passed while the spawn's job had not
finished, "failed" = the old test's assert after it saw a child, "stuck" =
it never matched in 2 s) and "finished" (the new one; "left" = a child
left once the jobs finished). Run it beside a busy machine, e.g. 4-8
`python3 -c 'while 1: pass' &`.
"""

import argparse
import asyncio
import os
import time

import fastspawn.asyncio as fa
from fastspawn import _fastspawn


def children():
    pids = []
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/children") as f:
                pids += [int(p) for p in f.read().split()]
        except FileNotFoundError:
            pass
    return sorted(pids)


async def cancelled_spawn():
    task = asyncio.ensure_future(fa.create_subprocess_exec("sleep", "10"))
    await asyncio.sleep(0)
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass


def finished(timeout):
    deadline = time.monotonic() + timeout
    while _fastspawn.unfinished_spawns():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    counts = {"poll": 0, "early": 0, "failed": 0, "stuck": 0, "finished": 0, "left": 0}
    lives = []
    for i in range(args.rounds):
        check = "poll" if i % 2 == 0 else "finished"
        counts[check] += 1
        kids = children()
        asyncio.run(cancelled_spawn())
        if check == "poll":
            deadline = time.monotonic() + 2.0
            while children() != kids and time.monotonic() < deadline:
                time.sleep(0.01)
            if time.monotonic() >= deadline:
                counts["stuck"] += 1
            else:
                counts["early"] += _fastspawn.unfinished_spawns() != 0
                counts["failed"] += children() != kids
        else:
            t0 = time.monotonic()
            if not finished(10.0) or children() != kids:
                counts["left"] += 1
            lives.append(time.monotonic() - t0)
        # Either way, the next round starts from no job and no child.
        finished(10.0)
        for pid in set(children()) - set(kids):
            os.kill(pid, 9)
            os.waitpid(pid, 0)
    lives.sort()
    print(
        counts,
        f"jobs finished after asyncio.run in max {lives[-1] * 1000:.1f} ms,",
        f"median {lives[len(lives) // 2] * 1000:.2f} ms",
        "| loadavg",
        open("/proc/loadavg").read().split()[0],
    )


if __name__ == "__main__":
    main()
