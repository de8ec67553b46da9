"""run(args, input=b'x' * N, timeout=5, capture_output=True) three ways, in
this process, interleaved round by round (the order rotated each round):
the standard library's subprocess.run, fastspawn.subprocess.run (the
native path: the core's Child::communicate, Session 17) and the package's
previous path for that call (its Popen + communicate, what run() did
before Session 17, written out here). Per call: wall time and CPU of this
process plus its children; the ratios are the medians of the per-round
ratios.

  python bench/run_input_bench.py [--rounds 5] [--n 300] [--sizes 1,65536,1048576]
                                  [--child target/peers/noop] [--child /bin/cat]
"""

import argparse
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


def popen_path(args, input, timeout):
    """fastspawn.subprocess.run's code for this call before Session 17."""
    with fs.Popen(args, stdin=fs.PIPE, stdout=fs.PIPE, stderr=fs.PIPE) as process:
        try:
            stdout, stderr = process.communicate(input, timeout=timeout)
        except fs.TimeoutExpired:
            process.kill()
            process.wait()
            raise
        except BaseException:
            process.kill()
            raise
        retcode = process.poll()
    return subprocess.CompletedProcess(process.args, retcode, stdout, stderr)


def loop(call, child, data, n):
    c0, t0 = cpu(), time.perf_counter()
    for _ in range(n):
        r = call([child], data)
        assert r.returncode == 0
    return (time.perf_counter() - t0) / n * 1e6, (cpu() - c0) / n * 1e6


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--sizes", default="1,65536,1048576")
    parser.add_argument("--child", action="append")
    args = parser.parse_args()
    children = args.child or ["target/peers/noop", "/bin/cat"]
    cells = {
        "subprocess.run": lambda c, d: subprocess.run(c, input=d, timeout=5, capture_output=True),
        "fastspawn run, before (Popen)": lambda c, d: popen_path(c, d, 5),
        "fastspawn run (native)": lambda c, d: fs.run(c, input=d, timeout=5, capture_output=True),
    }
    names = list(cells)
    print(f"load average before: {os.getloadavg()}")
    for child in children:
        for size in (int(s) for s in args.sizes.split(",")):
            data = b"x" * size
            # Fewer calls for the large inputs (each moves N bytes).
            n = max(20, min(args.n, args.n * 65536 // max(size, 1)))
            results = {name: [] for name in names}
            for r in range(args.rounds):
                order = names[r % 3 :] + names[: r % 3]
                for name in order:
                    results[name].append(loop(cells[name], child, data, n))
            print(f"\n{child}, input {size} B, {args.rounds} interleaved rounds of {n} calls")
            for name in names:
                wall = statistics.median(v[0] for v in results[name])
                used = statistics.median(v[1] for v in results[name])
                print(f"  {name:32} {wall:9.1f} µs wall {used:9.1f} µs CPU (parent + child)")
            native = results["fastspawn run (native)"]
            for peer in ("subprocess.run", "fastspawn run, before (Popen)"):
                wall = statistics.median(p[0] / m[0] for p, m in zip(results[peer], native))
                used = statistics.median(p[1] / m[1] for p, m in zip(results[peer], native))
                print(f"  {peer} / native: wall {wall:.2f}x, CPU {used:.2f}x")
    print(f"\nload average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
