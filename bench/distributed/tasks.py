"""The tasks of the `distributed` benchmark, imported by the Dask workers.

Each task runs one small command-line program (the static `echo` of
bench/peers/c) and returns its output, which the driver checks, so no task
is counted that did not run its program. The variants are the ways a Python
user runs that program from a Dask task:

- `subprocess-preexec`: `subprocess.run` with a `preexec_fn` that sets
  PR_SET_PDEATHSIG, the idiom that makes a task's process die with its
  worker. CPython must fork for any `preexec_fn`.
- `subprocess`: plain `subprocess.run` (vfork), no pdeathsig: a killed
  worker leaves its running children behind.
- `fastspawn`: `fastspawn.subprocess.run(..., pdeathsig=SIGKILL)`: the same
  guarantee as the first, on the vfork path.
- `asyncio` / `fastspawn-asyncio`: async Dask tasks spawning through
  `asyncio.create_subprocess_exec` and `fastspawn.asyncio`'s.
"""

import asyncio
import ctypes
import os
import signal
import subprocess
import time

PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True)


def _set_pdeathsig():
    # Runs in the forked child, before exec.
    if _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG)")


def _log_start(log, i):
    """Append the task's index to the run's execution log (kill test only):
    a task started twice was retried after its worker died."""
    if log:
        fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, b"%d\n" % i)
        finally:
            os.close(fd)


def _argv(program, token, i, sleep_ms):
    argv = [program]
    if sleep_ms:
        argv += ["-s", str(sleep_ms)]
    return argv + [f"{token}-{i}"]


def _sync(variant):
    if variant == "subprocess-preexec":
        return lambda argv: (
            subprocess.run(
                argv, stdout=subprocess.PIPE, check=True, preexec_fn=_set_pdeathsig
            ).stdout
        )
    if variant == "subprocess":
        return lambda argv: subprocess.run(argv, stdout=subprocess.PIPE, check=True).stdout
    if variant == "fastspawn":
        import fastspawn.subprocess as fsp

        return lambda argv: (
            fsp.run(argv, stdout=fsp.PIPE, check=True, pdeathsig=signal.SIGKILL).stdout
        )
    raise ValueError(f"unknown variant {variant!r}")


def run_task(variant, program, token, i, sleep_ms=0, log=None):
    """One task: run the program, return (index, its stdout, seconds spent)."""
    _log_start(log, i)
    run = _sync(variant)
    t0 = time.perf_counter()
    out = run(_argv(program, token, i, sleep_ms))
    return i, out, time.perf_counter() - t0


def run_task_here(variant, program, token, i):
    """`run_task`, also saying which worker ran it (its pid): the mixed
    cluster compares a worker holding data with one holding none."""
    i, out, secs = run_task(variant, program, token, i)
    return i, out, secs, os.getpid()


async def run_task_async(variant, program, token, i, sleep_ms=0, log=None):
    """The async form, for Dask's coroutine tasks (run on the worker's loop)."""
    _log_start(log, i)
    if variant == "asyncio":
        create = asyncio.create_subprocess_exec
        extra = {}
    elif variant == "fastspawn-asyncio":
        import fastspawn.asyncio as fsa

        create = fsa.create_subprocess_exec
        extra = {"pdeathsig": signal.SIGKILL}
    else:
        raise ValueError(f"unknown variant {variant!r}")
    t0 = time.perf_counter()
    proc = await create(
        *_argv(program, token, i, sleep_ms), stdout=asyncio.subprocess.PIPE, **extra
    )
    out, _ = await proc.communicate()
    if proc.returncode != 0:
        raise subprocess.CalledProcessError(proc.returncode, program, out)
    return i, out, time.perf_counter() - t0


ASYNC_VARIANTS = ("asyncio", "fastspawn-asyncio")
SYNC_VARIANTS = ("subprocess-preexec", "subprocess", "fastspawn")
