"""Does a child cloned with no exit signal keep it across ``execve``?

  python bench/exit_signal_exec.py

Session 14 weighed reaping ``fastspawn.asyncio``'s children without a
pidfd: clone them with ``exit_signal`` 0 (no ``SIGCHLD``, invisible to
``waitpid(-1)`` and to the kernel's auto-reap when ``SIGCHLD`` is ignored)
and reap them with one ``waitid(P_ALL, WEXITED | WNOWAIT | __WCLONE)``
thread. This checks the premise on the running kernel: ``clone3`` (a plain
fork-like clone, through ctypes) with ``exit_signal`` 0, the child sleeping
0.3 s before it execs ``sleep 0.3``; the parent reads the child's exit
signal (field 38 of ``/proc/PID/stat``) before and after the exec, and asks
``waitid(P_ALL, WEXITED | WNOHANG | WNOWAIT | __WCLONE)`` whether the
zombie is a "clone" child. Prints what it saw; exits 1 if the exit signal
is no longer 0 after the exec (Linux resets it to ``SIGCHLD`` in
``de_thread``).
"""

import ctypes
import os
import sys
import time

SYS_CLONE3 = 435  # x86_64 and aarch64
WCLONE = -0x80000000  # __WCLONE, as a signed int


class CloneArgs(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_uint64)
        for name in (
            "flags",
            "pidfd",
            "child_tid",
            "parent_tid",
            "exit_signal",
            "stack",
            "stack_size",
            "tls",
        )
    ]


def exit_signal(pid):
    with open(f"/proc/{pid}/stat") as f:
        stat = f.read()
    # Fields after the command name (which may hold spaces): field 3 on.
    return int(stat[stat.rindex(")") + 2 :].split()[35])


def main():
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    args = CloneArgs(exit_signal=0)
    pid = libc.syscall(SYS_CLONE3, ctypes.byref(args), ctypes.sizeof(args))
    if pid == 0:
        # The child: a full copy of this process; it only sleeps and execs.
        try:
            time.sleep(0.3)
            os.execv("/bin/sleep", ["sleep", "0.3"])
        finally:
            os._exit(127)
    if pid < 0:
        err = ctypes.get_errno()
        sys.exit(f"exit_signal_exec: clone3 failed: {os.strerror(err)}")
    time.sleep(0.15)
    before = exit_signal(pid)
    time.sleep(0.3)
    after = exit_signal(pid)
    time.sleep(0.4)
    try:
        seen = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT | WCLONE)
    except ChildProcessError:
        seen = None
    _, status = os.waitpid(pid, 0)
    print(f"child {pid}: exit signal before its execve {before}, after {after}")
    print(f"waitid(P_ALL, __WCLONE) on its zombie: {'sees it' if seen else 'does not see it'}")
    print(f"waitpid({pid}) without __WALL: status {status:#x}")
    sys.exit(0 if after == 0 else 1)


if __name__ == "__main__":
    main()
