"""Shared helpers: the two implementations compared side by side, and
checks for leaked fds and zombie children."""

import gc
import os
import subprocess as std
import sys
import time

import pytest

import fastspawn.subprocess as fs
from fastspawn import _fastspawn

PY = sys.executable

#: The spellings of text mode the side-by-side tests run (each decoded with
#: Popen's encoding and errors for them).
TEXT_MODES = [
    {"text": True},
    {"universal_newlines": True},
    {"encoding": "utf-8"},
    {"encoding": "latin-1", "errors": "strict"},
    {"encoding": "ascii", "errors": "replace"},
    {"errors": "surrogateescape"},
]
IMPLS = {"std": std, "fastspawn": fs}

# fastspawn's PATH cache opens one inotify fd per process on its first
# lookup of a bare program name; made now, before any test counts fds.
fs.run(["true"])

# fastspawn.asyncio's waiter thread (which reaps the children of every loop)
# holds one epoll fd for the life of the process, made with the first
# spawner; made now too.
_fastspawn.Spawner()

# The core's exit ring (io_uring, where the kernel has it) is one fd for the
# life of the process, made with the first question about it; each spawner
# thread's own small ring (its linger's bounded wait) lives as long as the
# thread, made at its first linger. Neither is made per spawn: the fd check
# below leaves io_uring fds out.
_fastspawn.exit_ring_in_use()


def _is_io_uring(fd):
    try:
        return os.readlink(f"/proc/self/fd/{fd}") == "anon_inode:[io_uring]"
    except OSError:
        return False


def both(call):
    """Runs ``call(module)`` with the standard library's subprocess and with
    fastspawn's; returns (std's result, fastspawn's result)."""
    return call(std), call(fs)


def outcome(call):
    """Like ``both``, but an exception counts as a result: (its type, its message)."""

    def one(module):
        try:
            return call(module)
        except Exception as e:  # compared, not swallowed
            return type(e), str(e)

    return one(std), one(fs)


def raised(call):
    """``call(module)`` through both; each must raise. Returns both exceptions."""
    out = []
    for module in (std, fs):
        with pytest.raises(BaseException) as info:
            call(module)
        out.append(info.value)
    return tuple(out)


def open_fds():
    """This process's open fds, without io_uring rings (see above)."""
    fds = (int(fd) for fd in os.listdir("/proc/self/fd"))
    return sorted(fd for fd in fds if not _is_io_uring(fd))


def pidfds_open():
    """How many pidfds this process holds."""
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            count += os.readlink(f"/proc/self/fd/{fd}") == "anon_inode:[pidfd]"
        except OSError:
            pass
    return count


def children():
    """Pids of this process's children (live or zombie), from /proc."""
    pids = []
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/children") as f:
                pids += [int(p) for p in f.read().split()]
        except FileNotFoundError:
            pass
    return sorted(pids)


def spawns_finished(timeout=10.0):
    """Waits until every spawn handed to fastspawn's spawner threads has
    finished (the child of a cancelled one killed and reaped); false after
    ``timeout`` s. Until then a child check is early: the job of a spawn
    cancelled by the loop may not have run yet, and its child appears (and
    goes) later."""
    deadline = time.monotonic() + timeout
    while _fastspawn.unfinished_spawns():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True


@pytest.fixture
def no_leaks():
    """Fails the test if it leaves an fd open or a child behind."""
    gc.collect()  # garbage of earlier tests closes its fds now, not during this one
    assert spawns_finished(), "an earlier test's spawn did not finish"
    before_fds = open_fds()
    before_children = children()
    yield
    gc.collect()  # exceptions kept by pytest.raises hold Popen objects in cycles
    assert spawns_finished(), "a spawn did not finish"
    after_fds = open_fds()
    if after_fds != before_fds:
        diff = set(after_fds) ^ set(before_fds)
        names = {fd: os.path.realpath(f"/proc/self/fd/{fd}") for fd in diff if fd in after_fds}
        raise AssertionError(f"fds changed: {sorted(diff)} {names}")
    assert children() == before_children, "a child was left behind (zombie or running)"
