"""The forms of a run that programs write (run alone, with captured output,
check_output in bytes and text mode, call with DEVNULL, Popen with pipes
and communicate()...), each through
fastspawn.subprocess and the standard library's subprocess, in this
process, interleaved round by round. Per form: the median time per call,
and the median of the per-round ratios against fastspawn's run(args) of
the same round (the one-call path that the other forms are measured
against) and against the standard library's same form.

  python bench/run_forms.py CHILD [--rounds 8] [--n 400]

CHILD is a program that exits at once and writes nothing (the benchmark
peers' static noop: make -C bench/peers OUT=$PWD/target/peers noop).
"""

import argparse
import os
import statistics
import subprocess as std
import time

import fastspawn.subprocess as fs


def forms(child):
    """(name, call(module)) for each form."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
    # The shell starts the child: its time counts in both sides alike.
    shell = f"exec {child[0]}"
    return [
        ("run(args)", lambda m: m.run(child)),
        ("Popen(args).wait()", lambda m: m.Popen(child).wait()),
        ("call(args)", lambda m: m.call(child)),
        ("call(args, stdout=DEVNULL, stderr=DEVNULL)",
         lambda m: m.call(child, stdout=m.DEVNULL, stderr=m.DEVNULL)),
        ("run(args, check=True)", lambda m: m.run(child, check=True)),
        ("run(args, capture_output=True)", lambda m: m.run(child, capture_output=True)),
        ("run(args, stdout=PIPE, stderr=STDOUT)",
         lambda m: m.run(child, stdout=m.PIPE, stderr=m.STDOUT)),
        ("check_output(args)", lambda m: m.check_output(child)),
        ("check_output(args, text=True)", lambda m: m.check_output(child, text=True)),
        ("run(args, capture_output=True, text=True)",
         lambda m: m.run(child, capture_output=True, text=True)),
        ("run(args, input=b'x', capture_output=True, timeout=5)",
         lambda m: m.run(child, input=b"x", capture_output=True, timeout=5)),
        ("run(args, capture_output=True, cwd='/')",
         lambda m: m.run(child, capture_output=True, cwd="/")),
        ("run(args, capture_output=True, env={...})",
         lambda m: m.run(child, capture_output=True, env=env)),
        ("run(str, shell=True, capture_output=True)",
         lambda m: m.run(shell, shell=True, capture_output=True)),
        ("run(args, capture_output=True, start_new_session=True)",
         lambda m: m.run(child, capture_output=True, start_new_session=True)),
        ("Popen(args, stdout=PIPE).communicate()",
         lambda m: m.Popen(child, stdout=m.PIPE).communicate()),
        ("Popen(args, stdout=PIPE, stderr=PIPE).communicate()",
         lambda m: m.Popen(child, stdout=m.PIPE, stderr=m.PIPE).communicate()),
        ("Popen(args, stdin=PIPE, stdout=PIPE).communicate(b'x')",
         lambda m: m.Popen(child, stdin=m.PIPE, stdout=m.PIPE).communicate(b"x")),
        ("with Popen(args, stdout=PIPE) as p: p.stdout.read()", lambda m: read_with(m, child)),
        ("Popen(args, stdout=PIPE, text=True).communicate(timeout=5)",
         lambda m: m.Popen(child, stdout=m.PIPE, text=True).communicate(timeout=5)),
        ("Popen(args, cwd='/').wait()", lambda m: m.Popen(child, cwd="/").wait()),
    ]  # fmt: skip


def read_with(module, child):
    with module.Popen(child, stdout=module.PIPE) as p:
        p.stdout.read()


def per_call(call, module, n):
    start = time.perf_counter()
    for _ in range(n):
        call(module)
    return (time.perf_counter() - start) / n * 1e6


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("child")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--n", type=int, default=400)
    opts = parser.parse_args()
    child = os.path.abspath(opts.child)  # one form runs in cwd="/"
    cases = forms([child])
    for _, call in cases:
        for module in (fs, std):
            per_call(call, module, 20)
    times = {(name, m): [] for name, _ in cases for m in (fs, std)}
    for _ in range(opts.rounds):
        for name, call in cases:
            for module in (fs, std):
                times[name, module].append(per_call(call, module, opts.n))
    base = times["run(args)", fs]
    print(f"{opts.rounds} rounds of {opts.n} calls of each; child {child}")
    print(f"{'form':55} {'fastspawn':>10} {'x run(args)':>12} {'subprocess':>11} {'std/fs':>7}")
    for name, _ in cases:
        ours, theirs = times[name, fs], times[name, std]
        to_base = statistics.median(a / b for a, b in zip(ours, base))
        speedup = statistics.median(b / a for a, b in zip(ours, theirs))
        print(
            f"{name:55} {statistics.median(ours):8.1f}us {to_base:11.3f}x "
            f"{statistics.median(theirs):9.1f}us {speedup:6.2f}x"
        )


if __name__ == "__main__":
    main()
