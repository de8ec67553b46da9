"""Is Python + fastspawn with pdeathsig, an rlimit and user= flat in the
parent's RSS? The python peer (bench/peers/python/peer.py, runner
python-fastspawn --with-options, the `rss` experiment's cell) at each size,
a fresh process per cell, all sizes interleaved round by round (the order
rotating per round), and the C clone loop holding the same memory in the
same rounds as the control (the kernel's own part of any slope).

Per round, each size's time per spawn+wait is divided by the same round's
0 MiB time; the median of those per-round ratios is each size's slowdown
(robust against the load of a shared machine moving between rounds, which
medians of whole cells are not). Flatness: the largest over the smallest of
those medians (1.0 for 0 MiB itself).

  python bench/rss_flat.py [--rounds 9] [--n 2000] [--sizes 0,1024,2048] [--peers target/peers]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PEER = os.path.join(HERE, "..", "..", "..", "bench", "peers", "python", "peer.py")


def python_cell(n, mib):
    argv = [sys.executable, PEER, "--runner", "python-fastspawn", "--with-options", "--mode",
            "wait", "--n", str(n), "--warmup", "20", "--rss-mib", str(mib), "--", NOOP]  # fmt: skip
    return json.loads(subprocess.run(argv, capture_output=True, check=True).stdout)


def c_cell(n, mib):
    argv = [os.path.join(PEERS, "c-peer"), "--runner", "c-clone", "--mode", "wait", "--n", str(n),
            "--warmup", "20", "--rss-mib", str(mib), "--", NOOP]  # fmt: skip
    return json.loads(subprocess.run(argv, capture_output=True, check=True).stdout)


def main():
    global PEERS, NOOP
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--sizes", default="0,1024,2048")
    parser.add_argument("--peers", default="target/peers")
    args = parser.parse_args()
    PEERS = args.peers
    NOOP = os.path.join(args.peers, "noop")
    sizes = [int(s) for s in args.sizes.split(",")]
    cells = {"python-fastspawn (pdeathsig, rlimit, user=)": python_cell, "c-clone": c_cell}
    times = {(name, mib): [] for name in cells for mib in sizes}
    for r in range(args.rounds):
        order = sizes[r % len(sizes) :] + sizes[: r % len(sizes)]
        for mib in order:
            for name, cell in cells.items():
                doc = cell(args.n, mib)
                times[(name, mib)].append(doc["total_ns"] / doc["n"] / 1e3)
    print(f"spawn+wait of noop by parent RSS: {args.rounds} interleaved rounds of {args.n} "
          f"(load average {os.getloadavg()[0]:.2f})")  # fmt: skip
    for name in cells:
        base = times[(name, sizes[0])]
        slow = {}
        cols = []
        for mib in sizes:
            t = times[(name, mib)]
            ratio = statistics.median(a / b for a, b in zip(t, base))
            slow[mib] = ratio
            spread = (max(t) - min(t)) / 2 / statistics.median(t) * 100
            cols.append(f"{mib} MiB {statistics.median(t):6.1f} µs ±{spread:.0f}% ({ratio:.3f})")
        flat = max(slow.values()) / min(slow.values())
        print(f"  {name}")
        print("    " + "; ".join(cols))
        print(f"    slowest / fastest size, medians of per-round ratios: {flat:.3f}")


if __name__ == "__main__":
    main()
