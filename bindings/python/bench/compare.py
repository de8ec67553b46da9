"""Spawn+wait with fastspawn.subprocess against subprocess and a C clone loop.

Runs the bench peers (docs/peer-protocol.md) the way `fastspawn bench` does,
one process per measurement, all runners interleaved round by round so that
load from other work on the machine hits them alike; prints the median wall
time and the peer's own CPU time per spawn+wait, and ratios.

  python bench/compare.py --peers target/peers [--rounds 5] [--n 500] [--rss 0,2048]

The Python peer is run with this interpreter, which must have the package
installed (make -C bindings/python install). Needs target/peers/noop and
target/peers/c-peer (make -C bench/peers OUT=$PWD/target/peers noop c-peer).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PEER_PY = os.path.join(HERE, "..", "..", "..", "bench", "peers", "python", "peer.py")

COUNT = [("c-clone", ()), ("python-popen", ()), ("python-fastspawn", ())]
RSS = [
    ("python-popen", ()),
    ("python-popen-preexec", ()),
    ("python-popen-user", ()),
    ("python-fastspawn", ()),
    ("python-fastspawn", ("--with-options",)),
]


def run(peers, runner, extra, n, rss):
    if runner.startswith("c-"):
        cmd = [os.path.join(peers, "c-peer")]
    else:
        cmd = [sys.executable, PEER_PY]
    cmd += ["--runner", runner, "--mode", "wait", "--n", str(n), "--rss-mib", str(rss), *extra]
    cmd += ["--", os.path.join(peers, "noop")]
    out = json.loads(subprocess.run(cmd, check=True, capture_output=True).stdout)
    return out["total_ns"] / n / 1000, (out["cpu_user_ns"] + out["cpu_sys_ns"]) / n / 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--peers", default="target/peers")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--rss", default="0,2048", help="parent RSS in MiB for the rss table")
    args = parser.parse_args()

    def table(title, cells):
        results = {cell: [] for cell in cells}
        for _ in range(args.rounds):
            for cell in cells:
                runner, extra, rss = cell
                # fork at 2 GiB costs ~0.1 s per spawn: fewer spawns there.
                n = args.n if rss == 0 or runner in ("python-fastspawn", "c-clone") else 20
                results[cell].append(run(args.peers, runner, extra, n, rss))
        print(f"\n{title} (median of {args.rounds} interleaved rounds; µs per spawn+wait)")
        print(f"{'runner':42} {'RSS MiB':>8} {'wall':>10} {'peer CPU':>10}")
        medians = {}
        for cell, values in results.items():
            runner, extra, rss = cell
            wall = statistics.median(v[0] for v in values)
            cpu = statistics.median(v[1] for v in values)
            medians[cell] = (wall, cpu)
            name = runner + (" " + " ".join(extra) if extra else "")
            print(f"{name:42} {rss:>8} {wall:>10.1f} {cpu:>10.1f}")
        return medians

    count = table("count", [(r, e, 0) for r, e in COUNT])
    c = count[("c-clone", (), 0)][0]
    for runner in ("python-popen", "python-fastspawn"):
        print(f"{runner} / c-clone (wall): {count[(runner, (), 0)][0] / c:.2f}x")
    sizes = [int(x) for x in args.rss.split(",")]
    rss = table("rss", [(r, e, s) for s in sizes for r, e in RSS])
    lo, hi = sizes[0], sizes[-1]
    for runner, extra in RSS:
        key = (runner, extra)
        a, b = rss[(*key, lo)][0], rss[(*key, hi)][0]
        name = runner + (" " + " ".join(extra) if extra else "")
        print(f"{name}: {hi} MiB / {lo} MiB = {b / a:.2f}x")


if __name__ == "__main__":
    main()
