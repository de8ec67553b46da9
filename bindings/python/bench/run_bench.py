"""subprocess.run against fastspawn.subprocess.run (which skips Popen when it
can), in this process, interleaved round by round; and the C clone loop of
bench/peers in the same rounds. Per spawn+wait: wall time and CPU of this
process plus its children (the C loop: its own CPU plus its children's).

  python bench/run_bench.py [--rounds 7] [--n 500] [--peers target/peers]
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import time

import fastspawn.subprocess as fs


def cpu():
    s = resource.getrusage(resource.RUSAGE_SELF)
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def python_loop(run, child, n):
    c0, t0 = cpu(), time.perf_counter()
    for _ in range(n):
        run([child])
    return (time.perf_counter() - t0) / n * 1e6, (cpu() - c0) / n * 1e6


def c_loop(peers, child, n):
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([os.path.join(peers, "c-peer"), "--runner", "c-clone", "--mode", "wait",
                          "--n", str(n), "--warmup", "0", "--", child],
                         capture_output=True, check=True).stdout  # fmt: skip
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = json.loads(out)["total_ns"] / 1000
    # CPU of the peer and its children over the whole run (startup included).
    used = (c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime) * 1e6
    return total / n, used / n


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--peers", default="target/peers")
    args = parser.parse_args()
    child = os.path.join(args.peers, "noop")
    cells = {
        "C clone loop (c-clone)": lambda: c_loop(args.peers, child, args.n),
        "subprocess.run": lambda: python_loop(subprocess.run, child, args.n),
        "fastspawn.subprocess.run": lambda: python_loop(fs.run, child, args.n),
    }
    results = {name: [] for name in cells}
    for _ in range(args.rounds):
        for name, cell in cells.items():
            results[name].append(cell())
    print(f"spawn+wait of noop, median of {args.rounds} interleaved rounds of {args.n}")
    medians = {}
    for name, values in results.items():
        wall = statistics.median(v[0] for v in values)
        cpu_us = statistics.median(v[1] for v in values)
        medians[name] = wall
        print(f"  {name:28} {wall:8.1f} µs wall {cpu_us:8.1f} µs CPU (parent + child)")
    c = medians["C clone loop (c-clone)"]
    for name in ("subprocess.run", "fastspawn.subprocess.run"):
        print(f"  {name} / C clone loop: {medians[name] / c:.2f}x")


if __name__ == "__main__":
    main()
