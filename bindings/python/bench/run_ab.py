"""``fastspawn.subprocess.run([child])`` of two builds of the package, each
in its own interpreter (a venv with the other build's wheel installed),
alternated round by round: the median time per call of each, and the
median of the paired ratios (new / base), for ``run(args)`` alone and
with ``capture_output=True``.

  python bench/run_ab.py BASE_PYTHON NEW_PYTHON CHILD [--rounds 16] [--n 2000]
"""

import argparse
import statistics
import subprocess

LOOP = """
import sys, time
import fastspawn.subprocess as fs
n, args, kwargs = int(sys.argv[1]), [sys.argv[2]], eval(sys.argv[3])
for _ in range(200):
    fs.run(args, **kwargs)
t = time.perf_counter()
for _ in range(n):
    fs.run(args, **kwargs)
print((time.perf_counter() - t) / n * 1e6)
"""


def per_call(python, child, n, kwargs):
    out = subprocess.run(
        [python, "-c", LOOP, str(n), child, repr(kwargs)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return float(out.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("new")
    parser.add_argument("child")
    parser.add_argument("--rounds", type=int, default=16)
    parser.add_argument("--n", type=int, default=2000)
    opts = parser.parse_args()
    for name, kwargs in (("run(args)", {}), ("capture_output", {"capture_output": True})):
        base, new = [], []
        for _ in range(opts.rounds):
            base.append(per_call(opts.base, opts.child, opts.n, kwargs))
            new.append(per_call(opts.new, opts.child, opts.n, kwargs))
        ratio = statistics.median(b / a for a, b in zip(base, new))
        print(
            f"{name}: base {statistics.median(base):.1f} us, "
            f"new {statistics.median(new):.1f} us, paired ratio {ratio:.3f}"
        )


if __name__ == "__main__":
    main()
