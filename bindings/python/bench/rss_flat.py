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
those medians (1.0 for 0 MiB itself). The same for the parent's CPU time
per spawn (RUSAGE_SELF, spawner threads included), which waiting for a
core under load does not inflate as it does the wall time: a fork's page
table copy would show in it.

With --in-process, one process instead: per round, N spawns+waits at 0,
then with --sizes' largest size allocated and touched, then at 0 again
(freed); the ratio is the middle run over the mean of the two around it
(A-B-A, the same process, interpreter and CPU placement throughout).

  python bench/rss_flat.py [--rounds 9] [--n 2000] [--sizes 0,1024,2048] [--peers target/peers]
  python bench/rss_flat.py --in-process [--rounds 10] [--n 1500] [--sizes 0,2048]
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


def in_process(rounds, n, mib):
    """The A-B-A rounds of --in-process: (wall ratios, CPU ratios)."""
    import resource
    import signal
    import time

    import fastspawn.subprocess as fs

    nofile = resource.getrlimit(resource.RLIMIT_NOFILE)
    extra = {"pdeathsig": signal.SIGTERM, "rlimits": {resource.RLIMIT_NOFILE: nofile},
             "user": os.geteuid()}  # fmt: skip

    def measure(count):
        r0, t0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        for _ in range(count):
            fs.Popen([NOOP], **extra).wait()
        t1, r1 = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
        used = r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime
        return (t1 - t0) / count * 1e6, used / count * 1e6

    measure(200)
    walls, cpus = [], []
    for _ in range(rounds):
        before = measure(n)
        keep = bytearray(mib << 20)
        keep[::4096] = b"\x01" * len(range(0, len(keep), 4096))
        held = measure(n)
        del keep
        after = measure(n)
        walls.append(held[0] / ((before[0] + after[0]) / 2))
        cpus.append(held[1] / ((before[1] + after[1]) / 2))
    return walls, cpus


def main():
    global PEERS, NOOP
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--sizes", default="0,1024,2048")
    parser.add_argument("--peers", default="target/peers")
    parser.add_argument("--in-process", action="store_true")
    args = parser.parse_args()
    PEERS = args.peers
    NOOP = os.path.join(args.peers, "noop")
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.in_process:
        walls, cpus = in_process(args.rounds, args.n, max(sizes))
        print(f"Popen + wait with pdeathsig, an rlimit and user=, {max(sizes)} MiB held / none, "
              f"A-B-A in one process, {args.rounds} rounds of {args.n} "
              f"(load average {os.getloadavg()[0]:.2f})")  # fmt: skip
        for what, ratios in (("wall", walls), ("parent CPU", cpus)):
            print(f"  {what}: median {statistics.median(ratios):.3f}, rounds "
                  f"{min(ratios):.3f}-{max(ratios):.3f}")  # fmt: skip
        return
    cells = {"python-fastspawn (pdeathsig, rlimit, user=)": python_cell, "c-clone": c_cell}
    times = {(name, mib): [] for name in cells for mib in sizes}
    cpu = {(name, mib): [] for name in cells for mib in sizes}
    for r in range(args.rounds):
        order = sizes[r % len(sizes) :] + sizes[: r % len(sizes)]
        for mib in order:
            for name, cell in cells.items():
                doc = cell(args.n, mib)
                times[(name, mib)].append(doc["total_ns"] / doc["n"] / 1e3)
                used = doc["cpu_user_ns"] + doc["cpu_sys_ns"]
                cpu[(name, mib)].append(used / doc["n"] / 1e3)
    print(f"spawn+wait of noop by parent RSS: {args.rounds} interleaved rounds of {args.n} "
          f"(load average {os.getloadavg()[0]:.2f})")  # fmt: skip
    for name in cells:
        print(f"  {name}")
        for what, table in (("wall", times), ("parent CPU", cpu)):
            base = table[(name, sizes[0])]
            slow = {}
            cols = []
            for mib in sizes:
                t = table[(name, mib)]
                ratio = statistics.median(a / b for a, b in zip(t, base))
                slow[mib] = ratio
                spread = (max(t) - min(t)) / 2 / statistics.median(t) * 100
                cols.append(
                    f"{mib} MiB {statistics.median(t):6.1f} µs ±{spread:.0f}% ({ratio:.3f})"
                )
            flat = max(slow.values()) / min(slow.values())
            print(f"    {what}: " + "; ".join(cols))
            print(f"    {what}, slowest / fastest size, medians of per-round ratios: {flat:.3f}")


if __name__ == "__main__":
    main()
