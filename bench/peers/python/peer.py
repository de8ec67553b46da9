#!/usr/bin/env python3
"""fastspawn bench peer for CPython (see docs/peer-protocol.md).

Runner python-popen measures subprocess.Popen as Python programs use it:
one Popen per spawn with the defaults (close_fds=True, stdio inherited),
then Popen.wait(). CPython >= 3.10 spawns with vfork in _posixsubprocess
unless preexec_fn, user, group or extra_groups is given (none is here).
python-popen-preexec adds a preexec_fn that sets PR_SET_PDEATHSIG and
RLIMIT_NOFILE (how Python programs set those today: CPython forks for it);
python-popen-user adds user=<own uid> (CPython forks for it too).
python-fastspawn makes the same call with fastspawn.subprocess.Popen (the
package in bindings/python, which must be installed in the interpreter that
runs the peer); with --with-options it also sets pdeathsig=SIGTERM, the
same RLIMIT_NOFILE and user=<own uid>, on fastspawn's vfork path.
python-run and python-fastspawn-run make one subprocess.run([child]) (the
standard library's, and fastspawn.subprocess.run: one native call that
spawns and waits) per spawn+wait; they take --mode wait only.

--extra-fds K: Popen has no fd remapping, only pass_fds, which keeps each
fd's number; so K pipe read ends are placed at fds 3..3+K in the peer once
before timing and passed with pass_fds. --set-env: env=dict(os.environ,
FASTSPAWN_BENCH="1"), built once before timing (Popen still encodes it on
every spawn). Wall time: CLOCK_MONOTONIC; CPU: resource.getrusage(RUSAGE_SELF).
"""

import argparse
import fcntl
import json
import os
import resource
import signal
import subprocess
import sys
import time

RUNNERS = (
    "python-popen",
    "python-popen-preexec",
    "python-popen-user",
    "python-fastspawn",
    "python-run",
    "python-fastspawn-run",
)
FASTSPAWN_RUNNERS = ("python-fastspawn", "python-fastspawn-run")
RUN_RUNNERS = ("python-run", "python-fastspawn-run")
RUNNER = "python-popen"  # the one being measured, set by main()


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def usage(parser, why):
    sys.stderr.write(f"python-peer: {why}\n")
    parser.print_usage(sys.stderr)
    sys.exit(2)


def fail(step, err):
    """Report a failure and exit 1, after reaping every child still around."""
    sys.stderr.write(f"{RUNNER}: {step}: {err}\n")
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break
    sys.exit(1)


def now_ns():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def cpu_ns():
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return round(ru.ru_utime * 1e9), round(ru.ru_stime * 1e9)


def place_extra_fds(k):
    """Open k pipe read ends and move them to fds 3..3+k of this process."""
    targets = tuple(range(3, 3 + k))
    for fd in targets:
        try:
            os.fstat(fd)
        except OSError:
            continue
        fail("extra-fds", f"fd {fd} is already open in the peer")
    parked = []
    for _ in range(k):
        r, w = os.pipe()
        parked.append(fcntl.fcntl(r, fcntl.F_DUPFD_CLOEXEC, 3 + k))
        os.close(r)
        os.close(w)
    for fd, r in zip(targets, parked):
        os.dup2(r, fd, inheritable=False)
        os.close(r)
    return targets


def main():
    argv = sys.argv[1:]
    child = []
    if "--" in argv:
        i = argv.index("--")
        argv, child = argv[:i], argv[i + 1 :]
    parser = Parser(
        prog="python-peer",
        add_help=False,
        allow_abbrev=False,
        usage="python-peer --runner RUNNER --mode wait|spawn --n N "
        "[--warmup W] [--rss-mib M] [--set-env] [--extra-fds K] "
        "[--samples] [--with-options] -- CHILD [CHILD_ARGS...]",
    )
    parser.add_argument("--runner", required=True)
    parser.add_argument("--mode", required=True, choices=("wait", "spawn"))
    parser.add_argument("--n", required=True, type=int)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--rss-mib", type=int, default=0)
    parser.add_argument("--set-env", action="store_true")
    parser.add_argument("--extra-fds", type=int, default=0)
    parser.add_argument("--samples", action="store_true")
    parser.add_argument("--async-mode")
    parser.add_argument("--with-options", action="store_true")
    try:
        args = parser.parse_args(argv)
    except UsageError as e:
        usage(parser, e)
    global RUNNER
    if args.runner not in RUNNERS:
        usage(parser, f"unknown runner '{args.runner}'")
    RUNNER = args.runner
    if args.with_options and RUNNER not in FASTSPAWN_RUNNERS:
        usage(parser, "--with-options applies only to " + " and ".join(FASTSPAWN_RUNNERS))
    if RUNNER in RUN_RUNNERS and args.mode != "wait":
        usage(parser, f"{RUNNER} spawns and waits in one call: --mode wait only")
    if args.n < 1 or args.warmup < 0 or args.rss_mib < 0 or args.extra_fds < 0:
        usage(parser, "--n must be >= 1; --warmup, --rss-mib and --extra-fds >= 0")
    if args.async_mode is not None:
        usage(parser, "--async-mode applies only to async runners")
    if not child:
        usage(parser, "missing -- CHILD [CHILD_ARGS...]")

    # --rss-mib: make M MiB resident before anything else.
    keep = bytearray(args.rss_mib << 20)
    if keep:
        keep[::4096] = b"\x01" * len(range(0, len(keep), 4096))

    env = dict(os.environ, FASTSPAWN_BENCH="1") if args.set_env else None
    pass_fds = place_extra_fds(args.extra_fds)

    popen, run, extra = subprocess.Popen, subprocess.run, {}
    nofile = resource.getrlimit(resource.RLIMIT_NOFILE)
    if RUNNER == "python-popen-preexec":
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl

        def preexec():
            prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
            resource.setrlimit(resource.RLIMIT_NOFILE, nofile)

        extra = {"preexec_fn": preexec}
    elif RUNNER == "python-popen-user":
        extra = {"user": os.geteuid()}
    elif RUNNER in FASTSPAWN_RUNNERS:
        try:
            import fastspawn.subprocess
        except ImportError as e:
            fail("import", f"{e} (install the package: pip install ./bindings/python)")
        popen, run = fastspawn.subprocess.Popen, fastspawn.subprocess.run
        if args.with_options:
            extra = {
                "pdeathsig": signal.SIGTERM,
                "rlimits": {resource.RLIMIT_NOFILE: nofile},
                "user": os.geteuid(),
            }

    # Only the arguments that are set: Popen([child]) as programs write it
    # (fastspawn's Popen(args) and run(args) alone take one native call).
    if env is not None:
        extra["env"] = env
    if pass_fds:
        extra["pass_fds"] = pass_fds

    def spawn():
        try:
            return popen(child, **extra)
        except OSError as e:
            fail("spawn", e)

    def wait(p):
        status = p.wait()
        if status != 0:
            fail("wait", f"child exited with status {status}")

    if RUNNER in RUN_RUNNERS:
        # spawn+wait in one call: spawn() returns the finished run's
        # CompletedProcess and wait() only checks it.
        def spawn():  # noqa: F811
            try:
                return run(child, **extra)
            except OSError as e:
                fail("spawn", e)

        def wait(done):  # noqa: F811
            if done.returncode != 0:
                fail("wait", f"child exited with status {done.returncode}")

    for _ in range(args.warmup):
        wait(spawn())

    spawn_mode = args.mode == "spawn"
    procs = []
    samples = [] if args.samples else None

    u0, s0 = cpu_ns()
    t0 = t = now_ns()
    for _ in range(args.n):
        p = spawn()
        if spawn_mode:
            procs.append(p)
        else:
            wait(p)
        if samples is not None:
            t1 = now_ns()
            samples.append(t1 - t)
            t = t1
    total = now_ns() - t0
    u1, s1 = cpu_ns()

    for p in procs:
        wait(p)

    out = {
        "runner": RUNNER,
        "mode": args.mode,
        "n": args.n,
        "total_ns": total,
        "cpu_user_ns": u1 - u0,
        "cpu_sys_ns": s1 - s0,
    }
    if samples is not None:
        out["samples_ns"] = samples
    sys.stdout.write(json.dumps(out, separators=(",", ":")) + "\n")
    sys.stdout.flush()
    del keep


if __name__ == "__main__":
    main()
