"""Why running Python between two spawns makes the spawn call slower.

The extension's spawn of a request encoded once, then ``Child.wait()``, in
a loop; between one wait and the next spawn, one of:

- ``nothing``;
- ``python``: encoding a request again (``_start``, ~4 µs of Python that
  allocates, what ``Popen`` does before its spawn);
- ``spin N``: a loop on ``perf_counter_ns`` for N µs (the CPU busy in the
  interpreter's eval loop, almost nothing allocated or touched);
- ``sleep N``: ``time.sleep`` for N µs (the CPU idle, the thread off it);
- ``touch K``: writing one byte per 64 in a K KiB buffer (the caches and
  TLB filled with other lines, little time);

Each spawn call (``_fastspawn.spawn``, GIL released inside) and each
``wait()`` is timed on its own; the cells run interleaved, round by round.
With ``--cpu``, the process is pinned to one CPU first (the children
inherit it), so the parent and the child share one core. With ``--c
PROGRAM`` (``between_spawns_c.c``, compiled), each round also runs that C
control (vfork + execve + waitpid, the same gaps), pinned alike.

  python bench/between_spawns.py [--rounds 7] [--n 300] [--peers target/peers] [--cpu] [--c PROGRAM]
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

import fastspawn.subprocess as fs
from fastspawn import _fastspawn

sys.path.insert(0, os.path.dirname(__file__))
from popen_steps import encoded_request, start_args  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--peers", default="target/peers")
    parser.add_argument("--cpu", action="store_true")
    parser.add_argument("--c")
    args = parser.parse_args()
    if args.cpu:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    child = os.path.join(args.peers, "noop")
    request = encoded_request(child)
    sargs = start_args(child)
    clock = time.perf_counter_ns
    buf = bytearray(4 << 20)

    def nothing(request):
        return None

    def spin(us):
        end = clock() + us * 1000
        while clock() < end:
            pass

    def touch(kib):
        for i in range(0, kib * 1024, 64):
            buf[i] = 1

    cells = {
        "nothing": lambda: None,
        "python (_start, no spawn)": lambda: fs._start(nothing, *sargs),
        "spin 5 µs": lambda: spin(5),
        "spin 50 µs": lambda: spin(50),
        "sleep 50 µs": lambda: time.sleep(50e-6),
        "touch 256 KiB": lambda: touch(256),
        "touch 2048 KiB": lambda: touch(2048),
    }
    spawn_ns = {name: [] for name in cells}
    wait_ns = {name: [] for name in cells}
    for between in cells.values():
        for _ in range(20):
            _fastspawn.spawn(request).wait()
            between()
    c_ns = {}
    for i in range(args.rounds):
        if args.c:
            cmd = [args.c, child, str(args.n), "1"] + (["pin"] if args.cpu else [])
            out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
            for line in out.splitlines():
                name, value = line.split(" vfork call ")
                c_ns.setdefault(name.strip(), []).append(float(value.split()[0]))
        order = list(cells.items())
        if i % 2:
            order.reverse()
        for name, between in order:
            s, w = [], []
            for _ in range(args.n):
                t0 = clock()
                c = _fastspawn.spawn(request)
                t1 = clock()
                c.wait()
                t2 = clock()
                del c
                between()
                s.append(t1 - t0)
                w.append(t2 - t1)
            spawn_ns[name].append(statistics.median(s) / 1e3)
            wait_ns[name].append(statistics.median(w) / 1e3)
    pinned = " (pinned to one CPU)" if args.cpu else ""
    print(f"noop, medians of {args.rounds} interleaved rounds of {args.n}{pinned}, "
          f"load {os.getloadavg()[0]:.2f}")  # fmt: skip
    print(f"  {'between wait and the next spawn':32} {'spawn call':>10} {'wait()':>8} (µs)")
    for name in cells:
        print(f"  {name:32} {statistics.median(spawn_ns[name]):10.1f} "
              f"{statistics.median(wait_ns[name]):8.1f}")  # fmt: skip
    if c_ns:
        cells_c = [f"{name} {statistics.median(v):.1f}" for name, v in c_ns.items()]
        print("  C control (vfork call, µs): " + ", ".join(cells_c))


if __name__ == "__main__":
    main()
