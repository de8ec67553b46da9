"""fastspawn.subprocess side by side with the standard library's subprocess:
the same call through both, the results compared."""

import os
import pathlib
import resource
import shutil
import signal
import subprocess as std
import sys
import threading
import time

import pytest

import fastspawn.subprocess as fs
from conftest import PY, TEXT_MODES, both, children, open_fds, outcome, pidfds_open, raised


def py(code):
    return [PY, "-c", code]


def test_names_are_the_standard_librarys():
    assert set(fs.__all__) == set(std.__all__)
    for name in ("PIPE", "STDOUT", "DEVNULL", "CalledProcessError", "TimeoutExpired",
                 "SubprocessError", "CompletedProcess"):  # fmt: skip
        assert getattr(fs, name) is getattr(std, name)
    assert issubclass(fs.Popen, std.Popen)


def test_output_and_return_codes(no_leaks):
    a, b = both(lambda m: m.run(["sh", "-c", "echo out; echo err >&2; exit 7"],
                                capture_output=True))  # fmt: skip
    assert (a.args, a.returncode, a.stdout, a.stderr) == (b.args, b.returncode, b.stdout, b.stderr)
    assert b.returncode == 7 and b.stdout == b"out\n" and b.stderr == b"err\n"
    assert repr(a) == repr(b)


def test_killed_by_a_signal(no_leaks):
    a, b = both(lambda m: m.run(["sh", "-c", "kill -TERM $$"]).returncode)
    assert a == b == -signal.SIGTERM


@pytest.mark.parametrize("kwargs", TEXT_MODES)
def test_text_modes(kwargs, no_leaks):
    code = "import sys; sys.stdout.buffer.write(b'a\\r\\nb\\rc\\n\\xc3\\xa9\\xff')"
    a, b = outcome(lambda m: m.run(py(code), stdout=m.PIPE, **kwargs).stdout)
    assert a == b
    assert type(a) is type(b)


def test_input_and_large_output(no_leaks):
    data = os.urandom(1 << 20)
    a, b = both(lambda m: m.run(["cat"], input=data, capture_output=True).stdout)
    assert a == b == data


def test_communicate_with_stdin_stdout_stderr(no_leaks):
    def call(m):
        p = m.Popen(py("import sys; d = sys.stdin.read(); print(d.upper()); "
                       "print(len(d), file=sys.stderr)"),
                    stdin=m.PIPE, stdout=m.PIPE, stderr=m.PIPE, text=True)  # fmt: skip
        out = p.communicate("hello")
        return out, p.returncode

    a, b = both(call)
    assert a == b == (("HELLO\n", "5\n"), 0)


def test_stderr_to_stdout_and_devnull(no_leaks):
    a, b = both(lambda m: m.run(["sh", "-c", "echo 1; echo 2 >&2"], stdout=m.PIPE,
                                stderr=m.STDOUT, stdin=m.DEVNULL).stdout)  # fmt: skip
    assert a == b == b"1\n2\n"
    a, b = both(lambda m: m.run(["sh", "-c", "echo 1; echo 2 >&2"], stdout=m.DEVNULL,
                                stderr=m.PIPE).stdout)  # fmt: skip
    assert a is None and b is None


def test_file_objects_and_fds_as_stdio(tmp_path, no_leaks):
    def call(m):
        path = tmp_path / f"out-{m.__name__}"
        with open(path, "wb") as f:
            m.run(["sh", "-c", "echo to-file; echo to-fd >&2"], stdout=f, stderr=f.fileno())
        return path.read_bytes()

    a, b = both(call)
    assert a == b and b"to-file" in b and b"to-fd" in b


def test_timeout_expired_attributes(no_leaks):
    def call(m):
        with pytest.raises(m.TimeoutExpired) as info:
            m.run(["sh", "-c", "echo partial; exec sleep 10"], capture_output=True, timeout=0.5)
        e = info.value
        return e.cmd, e.timeout, e.output, e.stderr, type(e)

    a, b = both(call)
    assert a == b
    assert b[2] == b"partial\n"


def test_wait_timeout_then_wait(no_leaks):
    def call(m):
        p = m.Popen(["sleep", "0.3"])
        with pytest.raises(m.TimeoutExpired):
            p.wait(timeout=0.05)
        assert p.poll() is None
        return p.wait(timeout=10)

    assert both(call) == (0, 0)


def test_timeouts_wait_on_the_pidfd_not_a_sleep_loop(monkeypatch, no_leaks):
    # The standard library sleeps in a loop (time.sleep) for wait(timeout=);
    # fastspawn must not call it at all.
    def no_sleep(_):
        raise AssertionError("time.sleep called while waiting")

    p = fs.Popen(["sleep", "0.2"])
    monkeypatch.setattr(time, "sleep", no_sleep)
    start = time.monotonic()
    assert p.wait(timeout=5) == 0
    assert time.monotonic() - start < 4
    with pytest.raises(AssertionError):
        std.Popen(["sleep", "0.05"]).wait(timeout=5)
    monkeypatch.undo()
    while children():
        os.waitpid(-1, 0)


def test_communicate_timeout_keeps_the_output(no_leaks):
    def call(m):
        p = m.Popen(["sh", "-c", "echo a; sleep 0.5; echo b"], stdout=m.PIPE)
        with pytest.raises(m.TimeoutExpired):
            p.communicate(timeout=0.2)
        out, _ = p.communicate()
        return out, p.returncode

    assert both(call) == ((b"a\nb\n", 0), (b"a\nb\n", 0))


def test_signals_terminate_kill_poll(no_leaks):
    def call(m):
        codes = []
        for method in ("terminate", "kill"):
            p = m.Popen(["sleep", "10"])
            assert p.poll() is None
            getattr(p, method)()
            codes.append(p.wait())
            getattr(p, method)()  # a finished child: no error
        p = m.Popen(["sleep", "10"])
        # SIGUSR1, not SIGINT: a shell starts background jobs with SIGINT
        # ignored, and the child would inherit that (both implementations).
        p.send_signal(signal.SIGUSR1)
        codes.append(p.wait())
        return codes

    a, b = both(call)
    assert a == b == [-signal.SIGTERM, -signal.SIGKILL, -signal.SIGUSR1]


def test_check_functions(no_leaks):
    a, b = raised(lambda m: m.check_call(["sh", "-c", "exit 3"]))
    assert (type(a), a.returncode, a.cmd) == (type(b), b.returncode, b.cmd)
    a, b = raised(lambda m: m.check_output(["sh", "-c", "echo x; exit 4"], stderr=m.STDOUT))
    assert (a.returncode, a.output, a.cmd, str(a)) == (b.returncode, b.output, b.cmd, str(b))
    a, b = raised(lambda m: m.run(["false"], check=True))
    assert str(a) == str(b)
    assert both(lambda m: m.check_output(["echo", "ok"], text=True)) == ("ok\n", "ok\n")
    assert both(lambda m: m.call(["sh", "-c", "exit 5"])) == (5, 5)
    assert both(lambda m: m.check_call(["true"])) == (0, 0)
    assert both(lambda m: m.getoutput("echo hi; exit 2")) == ("hi", "hi")
    assert both(lambda m: m.getstatusoutput("echo hi >&2; exit 2")) == ((2, "hi"), (2, "hi"))
    assert both(lambda m: m.check_output(["cat"], input=None)) == (b"", b"")


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.run(["/nonexistent/program"]),
        lambda m: m.run(["fastspawn-no-such-program"]),
        lambda m: m.run(["true"], cwd="/nonexistent/dir"),
        lambda m: m.run(["fastspawn-no-such-program"], cwd="/nonexistent/dir"),
        lambda m: m.run(["true"], cwd="/etc/passwd"),
        lambda m: m.run(["/etc/passwd"]),
        lambda m: m.run(["/etc"]),
        lambda m: m.run(["/etc/passwd/x"]),
        lambda m: m.run(["true"], executable="/nonexistent/exe"),
        lambda m: m.run(["tr\0ue"]),
        lambda m: m.run(["true", "a\0b"]),
        lambda m: m.run(["true"], env={"A": "b\0c"}),
        lambda m: m.run(["true"], env={"A=B": "c"}),
        lambda m: m.run(["true"], cwd="/tmp\0x"),
        lambda m: m.run([1]),
        lambda m: m.run(["true", None]),
        lambda m: m.run(["true"], env={1: "a"}),
        lambda m: m.run(["true"], cwd=3.5),
        lambda m: m.run(["true"], bufsize="1"),
        lambda m: m.run(["true"], stdin=m.PIPE, input=b"x"),
        lambda m: m.run(["true"], capture_output=True, stdout=m.PIPE),
        lambda m: m.check_output(["true"], stdout=None),
        lambda m: m.Popen(["true"], startupinfo=object()),
        lambda m: m.Popen(["true"], creationflags=1),
        lambda m: m.Popen(pathlib.Path("/bin/true"), shell=True),
        lambda m: m.run(["true"], user=-1),
        lambda m: m.run(["true"], user=2**64),
        lambda m: m.run(["true"], extra_groups=[-1]),
        lambda m: m.run(["true"], group="fastspawn-no-such-group"),
        lambda m: m.run(["true"], user="fastspawn-no-such-user"),
        lambda m: m.run(["true"], nonsense=1),
    ],
)
def test_bad_input_raises_what_the_standard_library_raises(call, no_leaks):
    a, b = raised(call)
    assert type(a) is type(b), (a, b)
    if isinstance(a, OSError):
        assert (a.errno, a.filename, a.strerror) == (b.errno, b.filename, b.strerror)


def test_spawn_errors_name_program_and_step():
    with pytest.raises(FileNotFoundError) as info:
        fs.run(["true"], cwd="/nonexistent/dir")
    notes = getattr(info.value, "__notes__", None)
    if sys.version_info >= (3, 11):
        assert notes == ['spawning "true": chdir to "/nonexistent/dir" failed']
    # A step without a filename: the strerror itself names program and step.
    # (No file limit may exceed fs.nr_open, not even root's.)
    with pytest.raises(PermissionError) as info:
        fs.run(["true"], rlimits={resource.RLIMIT_NOFILE: 2**40})
    assert info.value.strerror == (
        'Operation not permitted (spawning "true": setting an rlimit failed)'
    )


def test_failed_spawns_leak_no_fd_and_no_child():
    before, kids = open_fds(), children()
    for _ in range(50):
        for kwargs in ({}, {"stdout": fs.PIPE, "stderr": fs.PIPE, "stdin": fs.PIPE},
                       {"cwd": "/nonexistent"}, {"pass_fds": [0]}):  # fmt: skip
            with pytest.raises(OSError):
                fs.Popen(["/nonexistent/program"], **kwargs)
    assert open_fds() == before
    assert children() == kids


def fd_listing(m, **kwargs):
    code = "import os; print(sorted(int(f) for f in os.listdir('/proc/self/fd')))"
    return m.run(py(code), capture_output=True, text=True, **kwargs).stdout


def test_close_fds_and_pass_fds(no_leaks):
    r1, w1 = os.pipe()
    r2, w2 = os.pipe()
    os.set_inheritable(r1, True)
    try:
        for kwargs in ({}, {"close_fds": False}, {"pass_fds": [w2]},
                       {"pass_fds": [w2, r2], "close_fds": True}):  # fmt: skip
            a, b = both(lambda m, kw=kwargs: fd_listing(m, **kw))
            assert a == b, kwargs
    finally:
        for fd in (r1, w1, r2, w2):
            os.close(fd)


def test_env_cwd_executable_shell(tmp_path, no_leaks):
    code = "import os, sys; print(os.getcwd(), sorted(os.environ.items()), sys.argv)"
    a, b = both(lambda m: m.run(py(code) + ["x"], cwd=tmp_path, env={"A": "1", "B": ""},
                                capture_output=True).stdout)  # fmt: skip
    assert a == b
    script = tmp_path / "script"
    script.write_text("#!/bin/sh\necho $0 $1\n")
    script.chmod(0o755)
    a, b = both(lambda m: m.run(["./script", "arg"], cwd=tmp_path, capture_output=True).stdout)
    assert a == b
    a, b = both(lambda m: m.run(["argv0", "-c", "echo $0"], executable="/bin/sh",
                                capture_output=True).stdout)  # fmt: skip
    assert a == b == b"argv0\n"
    a, b = both(lambda m: m.run("echo $0 $FOO", shell=True, env={"FOO": "bar"},
                                capture_output=True).stdout)  # fmt: skip
    assert a == b
    a, b = both(lambda m: m.run(b"echo bytes", shell=True, capture_output=True).stdout)
    assert a == b == b"bytes\n"
    a, b = both(lambda m: m.run("echo $0", shell=True, executable="/bin/bash",
                                capture_output=True).stdout)  # fmt: skip
    assert a == b


# glibc's own signals (32, SIGCANCEL; 33, SIGSETXID), bits 31 and 32 of
# /proc's signal masks: glibc's posix_spawn leaves them ignored in its
# child, which the standard library uses with close_fds=False, and on 3.13+
# by default. fastspawn's child has them at their default (see the next
# test and the README's differences).
GLIBC_SIGNALS = (1 << 31) | (1 << 32)


def test_sessions_groups_umask_signals(no_leaks):
    code = (
        "import os; print(os.getsid(0) == os.getpid(), os.getpgid(0) == os.getpid(), "
        "oct(os.umask(0))); "
        f"print([hex(int(l.split()[1], 16) & ~{GLIBC_SIGNALS}) for l in open('/proc/self/status') "
        "if l.startswith('SigIgn')])"
    )
    for kwargs in ({}, {"start_new_session": True}, {"umask": 0o27},
                   {"restore_signals": False}):  # fmt: skip
        a, b = both(lambda m, kw=kwargs: m.run(py(code), capture_output=True, **kw).stdout)
        assert a == b, kwargs
    if sys.version_info >= (3, 11):
        a, b = both(lambda m: m.run(py(code), capture_output=True, process_group=0).stdout)
        assert a == b


def ignored_here():
    """This process's ignored signals (/proc's SigIgn mask)."""
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("SigIgn:"))
    return int(line.split()[1], 16)


def test_glibc_s_own_signals_are_not_left_ignored(no_leaks):
    # The standard library's posix_spawn path (close_fds=False; every call
    # on 3.13+) starts its child with signals 32 and 33 ignored, an artefact
    # of glibc's posix_spawn that a program not linked with glibc keeps.
    # fastspawn's child, like the standard library's vfork path, has every
    # signal the parent did not ignore at its default, and the ones it
    # ignores ignored. (This process may ignore them itself: GNU make, say,
    # starts its recipes with posix_spawn, so under `make` they are.)
    grep = ["grep", "SigIgn", "/proc/self/status"]
    inherited = ignored_here() & GLIBC_SIGNALS
    for kwargs in ({}, {"close_fds": False}, {"restore_signals": False}):
        a, b = both(lambda m, kw=kwargs: m.run(grep, capture_output=True, **kw).stdout)
        ours = int(b.split()[1], 16)
        assert ours & GLIBC_SIGNALS == inherited, kwargs
        assert int(a.split()[1], 16) & ~GLIBC_SIGNALS == ours & ~GLIBC_SIGNALS, kwargs


# rt_sigaction's number, for a child that resets glibc's own signals with
# the system call (glibc's sigaction refuses them).
RT_SIGACTION = {"x86_64": 13, "aarch64": 134}.get(os.uname().machine)


@pytest.mark.skipif(RT_SIGACTION is None, reason="rt_sigaction's number not known here")
def test_glibc_s_own_signals_from_a_parent_that_does_not_ignore_them(no_leaks):
    # The difference itself, from a parent with signals 32 and 33 at their
    # default (a child interpreter that resets them, since this process may
    # ignore them, see above): the standard library's posix_spawn child
    # ignores them, fastspawn's does not.
    code = f"""
import ctypes, subprocess, fastspawn.subprocess as fs
libc = ctypes.CDLL(None, use_errno=True)
default = (ctypes.c_ulong * 4)()  # SIG_DFL, no flags, no restorer, empty mask
for signal in (32, 33):
    assert libc.syscall({RT_SIGACTION}, signal, default, None, 8) == 0, ctypes.get_errno()
# A program named with its directory: the standard library's posix_spawn
# path needs one.
grep = ["{shutil.which("grep")}", "SigIgn", "/proc/self/status"]
for m in (subprocess, fs):
    print(int(m.run(grep, close_fds=False, capture_output=True).stdout.split()[1], 16))
"""
    out = fs.run(py(code), capture_output=True, check=True).stdout.split()
    theirs, ours = (int(v) for v in out)
    assert theirs & GLIBC_SIGNALS == GLIBC_SIGNALS  # glibc's artefact
    assert ours & GLIBC_SIGNALS == 0
    assert theirs & ~GLIBC_SIGNALS == ours


@pytest.mark.skipif(os.geteuid() != 0, reason="user=, group= and extra_groups= need root")
def test_user_group_extra_groups_stay_on_vfork(no_leaks):
    code = ["sh", "-c", "echo $(id -u) $(id -g) $(id -G)"]
    for kwargs in ({"user": 65534}, {"user": "nobody", "group": 65534},
                   {"user": 65534, "extra_groups": []}, {"group": 65534, "extra_groups": [1, 2]},
                   {"extra_groups": ["nogroup"]}):  # fmt: skip
        a, b = both(lambda m, kw=kwargs: m.run(code, capture_output=True, **kw).stdout)
        assert a == b, kwargs
        p = fs.Popen(["true"], **kwargs)
        p.wait()
        assert p.engine in ("clone3", "clone-vfork"), p.engine


def test_pidfd_and_engine(no_leaks):
    p = fs.Popen(["sh", "-c", "exit 3"])
    assert p.engine in ("clone3", "clone-vfork")
    assert isinstance(p.pidfd, int)
    os.fstat(p.pidfd)  # an open fd
    assert p.wait() == 3
    os.fstat(p.pidfd)  # still open after the reap, while the Popen lives
    del p

    q = fs.Popen(["true"], preexec_fn=lambda: None)
    assert q.engine == "fork" and q.pidfd is None
    assert q.wait() == 0


def test_the_pidfd_is_made_on_first_need(no_leaks):
    # A child that is only waited for gets no pidfd (it would cost
    # pidfd_open, a check and a close per spawn); a timed wait, a signal or
    # the attribute make one, which then lives as long as the Popen.
    before = pidfds_open()
    p = fs.Popen(["sh", "-c", "exit 4"])
    assert pidfds_open() == before
    assert p.wait() == 4
    assert pidfds_open() == before
    assert p.pidfd is None  # reaped before anyone asked for one

    def timed_wait(p):
        with pytest.raises(fs.TimeoutExpired):
            p.wait(timeout=0.01)

    for make in (timed_wait, lambda p: p.send_signal(0), lambda p: p.pidfd):
        p = fs.Popen(["sleep", "5"])
        make(p)
        assert pidfds_open() == before + 1
        p.kill()
        assert p.wait() == -signal.SIGKILL
        os.fstat(p.pidfd)  # made before the reap: still open
        del p
        assert pidfds_open() == before


def test_threads_waiting_on_one_child_without_a_pidfd_see_one_status(no_leaks):
    # Every thread blocks without reaping (waitid WNOWAIT), then one reaps
    # under the lock; the others read the status it stored.
    p = fs.Popen(["sh", "-c", "sleep 0.2; exit 5"])
    child = p._fs_child
    results = []
    threads = [threading.Thread(target=lambda: results.append(child.wait())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [5 << 8] * 4
    assert p.wait() == 5 and p.pidfd is None


def test_context_manager_and_streams(no_leaks):
    def call(m):
        with m.Popen(["cat"], stdin=m.PIPE, stdout=m.PIPE) as p:
            p.stdin.write(b"abc")
            p.stdin.close()
            out = p.stdout.read()
        return out, p.returncode, p.stdin.closed, p.stdout.closed

    assert both(call) == ((b"abc", 0, True, True),) * 2


def test_many_threads_spawn_at_once(no_leaks):
    results = []

    def worker(i):
        out = fs.run(["echo", str(i)], capture_output=True).stdout
        results.append(int(out))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(16) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == sorted(i for i in range(16) for _ in range(5))


def test_gil_is_released_while_waiting(no_leaks):
    ticks = 0
    stop = threading.Event()

    def count():
        nonlocal ticks
        while not stop.is_set():
            ticks += 1

    t = threading.Thread(target=count)
    t.start()
    try:
        time.sleep(0.01)
        before = ticks
        fs.Popen(["sleep", "0.3"]).wait()
        during = ticks - before
    finally:
        stop.set()
        t.join()
    # The counting thread ran while the main thread waited.
    assert during > 1000


def test_reaped_elsewhere_reads_as_zero_like_the_standard_library():
    def call(m):
        p = m.Popen(["sh", "-c", "exit 9"])
        os.waitpid(p.pid, 0)
        return p.wait()

    assert both(call) == (0, 0)


def test_recycled_pid_is_not_signalled_after_the_reap(no_leaks):
    p = fs.Popen(["true"])
    p.wait()
    p.send_signal(signal.SIGKILL)  # the child is gone: nothing is sent, no error
    assert p.returncode == 0


def test_run_and_call_skip_popen_when_they_can(monkeypatch, no_leaks):
    # run()/call() without text mode (run() with bytes input and a timeout too:
    # tests/test_run_exchange.py) spawn, read and wait
    # in one call to the extension; the results stay the standard library's.
    def fail(*args, **kwargs):
        raise AssertionError("Popen used")

    code = "import sys; sys.stdout.write('o' * 300000); sys.stderr.write('e' * 300000)"
    expected = std.run(py(code), capture_output=True)
    monkeypatch.setattr(fs, "Popen", fail)
    got = fs.run(py(code), capture_output=True)
    assert (got.args, got.returncode, got.stdout, got.stderr) == (
        expected.args, expected.returncode, expected.stdout, expected.stderr)  # fmt: skip
    merged = fs.run(py(code), stdout=fs.PIPE, stderr=fs.STDOUT).stdout
    assert sorted(merged) == sorted(std.run(py(code), stdout=std.PIPE, stderr=std.STDOUT).stdout)
    assert fs.call(["sh", "-c", "exit 6"], stdout=fs.DEVNULL) == 6
    with pytest.raises(fs.CalledProcessError) as info:
        fs.check_output(["sh", "-c", "echo x; exit 2"])
    assert (info.value.returncode, info.value.output) == (2, b"x\n")
    with pytest.raises(FileNotFoundError):
        fs.run(["/nonexistent/program"], capture_output=True)


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"close_fds": False}, {"env": {"A": "1"}, "cwd": "/"}, {"user": os.geteuid()},
     {"pass_fds": (), "start_new_session": True, "restore_signals": False}],
)  # fmt: skip
def test_popen_fast_path_leaves_the_object_as_the_standard_library(kwargs, monkeypatch, no_leaks):
    # Popen's fast path (common arguments: no stdio, no text mode) skips
    # the standard library's __init__; the object must still look the same
    # as one made by that __init__, and as one made by fastspawn's slow path.
    def state(p):
        return {k: v for k, v in vars(p).items() if k not in ("_waitpid_lock", "pid")}

    argv = ["sh", "-c", "exit 3"]
    with std.Popen(argv, **kwargs) as s:
        s.wait()
    with fs.Popen(argv, **kwargs) as f:
        assert f.engine != "fork"
        assert f.wait() == 3
    with fs.Popen(argv, umask=-1, **kwargs) as slow:  # umask: not a fast-path keyword
        slow.wait()
    assert type(f._waitpid_lock) is type(s._waitpid_lock)
    with fs.Popen(["true"]) as other:
        other.wait()
    assert other._waitpid_lock is not f._waitpid_lock  # a lock of its own
    own = ("_fs_child", "_fs_extras", "engine", "pidfd")
    expected = state(s)
    assert {k: v for k, v in state(f).items() if k not in own} == expected
    assert state(slow).keys() == state(f).keys()
    assert {k: v for k, v in state(slow).items() if k not in own} == expected
    # The slow path stays in use for what the fast path does not take.
    used = []
    monkeypatch.setattr(fs.Popen, "_fs_fast_init", lambda *a, **k: used.append(a))
    for other in ({"stdout": fs.DEVNULL}, {"text": True}, {"user": -1}, {"bufsize": 0},
                  {"stdout": 1}, {"cwd": "/", "umask": 0o22}):  # fmt: skip
        try:
            with fs.Popen(["true"], **other) as p:
                p.wait()
        except ValueError:
            assert other == {"user": -1}
    assert used == []
    fs.Popen(["true"], restore_signals=True)  # the patched fast path: no child
    assert len(used) == 1


_audited = None  # a list while a test records audit events


def _audit_hook(event, args):
    if _audited is not None and event == "subprocess.Popen":
        _audited.append(args)


sys.addaudithook(_audit_hook)  # (a hook cannot be removed: it records only when asked)


def test_popen_args_alone_is_one_native_call(monkeypatch, no_leaks):
    # Popen(args) with no other argument spawns in one native call
    # (spawn_args), a str or bytes args too (one program); arguments it
    # does not take (not str or bytes, a NUL byte, an empty list) go the
    # general way, with the standard library's results, exceptions and
    # audit events either way.
    global _audited
    native = []
    spawn_args = fs._fastspawn.spawn_args

    def recording(args):
        try:
            child = spawn_args(args)
        except OSError:
            native.append("raised")
            raise
        native.append(child is not None)
        return child

    monkeypatch.setattr(fs._fastspawn, "spawn_args", recording)
    script = "import sys; sys.exit(len(sys.argv))"
    calls = [
        [PY, "-c", script, "a b", "\u00e9t\u00e9", "\udcff"],  # \udcff: surrogateescape
        (PY, "-c", script, ""),
        [PY.encode(), b"-c", script.encode(), b"\xff"],
        [pathlib.Path(PY), "-c", script, pathlib.Path("x/y")],
        [PY, "-c", script, 7],
        [PY, "-c", script, "nul\0"],
        ["/nonexistent/program"],
        [],
        "/",
    ]

    def run(m):
        global _audited
        _audited = []
        out = []
        for args in calls:
            try:
                with m.Popen(args) as p:
                    out.append(p.wait())
            except Exception as e:
                out.append((type(e), getattr(e, "filename", None)))
        events, _audited = _audited, None
        return out, [(str(exe), [str(a) for a in argv], cwd, env) for exe, argv, cwd, env in events]

    try:
        expected = run(std)
        native.clear()
        got = run(fs)
    finally:
        _audited = None
    assert got == expected
    assert expected[0][:4] == [4, 2, 2, 2]
    # The calls of str and bytes only (and the missing program and "/",
    # which fail in the spawn itself) went through the one native call.
    assert native == [True, True, True, False, False, False, "raised", False, "raised"], native


def test_popen_fast_path_errors_match_the_standard_library(no_leaks):
    for argv in (["/nonexistent/program"], ["sh\0x"], [], "/"):
        a, b = raised(lambda m, argv=argv: m.Popen(argv))
        assert type(a) is type(b), argv
        assert getattr(a, "filename", None) == getattr(b, "filename", None)


def test_run_args_alone_is_one_native_call(monkeypatch, no_leaks):
    # run(args) with no other argument spawns and waits in one native call
    # (run_args); what it does not take goes the general way, with the
    # standard library's results and exceptions either way.
    native = []
    run_args = fs._fastspawn.run_args

    def recording(args):
        try:
            status = run_args(args)
        except OSError:
            native.append("raised")
            raise
        native.append(status is not None)
        return status

    monkeypatch.setattr(fs._fastspawn, "run_args", recording)
    calls = [
        ["sh", "-c", "exit 3"],
        (b"sh", b"-c", b"kill -TERM $$"),
        [pathlib.Path("/bin/sh"), "-c", "exit 4"],
        ["sh", "-c", 5],
        ["/nonexistent/program"],
        [],
    ]

    def run(m, **kwargs):
        out = []
        for args in calls:
            try:
                done = m.run(args, **kwargs)
                out.append((type(done), done.args, done.returncode, done.stdout, done.stderr))
            except Exception as e:
                out.append((type(e), getattr(e, "filename", None), getattr(e, "returncode", None)))
        return out

    for kwargs in ({}, {"check": True}):
        expected = run(std, **kwargs)
        native.clear()
        assert run(fs, **kwargs) == expected
        assert native == [True, True, False, False, "raised", False], native
    assert [r[2] for r in expected[:3]] == [3, -signal.SIGTERM, 4]
