"""run() with bytes ``input=`` and ``timeout=`` on the native path (the
core's Child::communicate, no Popen object), side by side with the standard
library's run(): the same calls, the same results and exceptions."""

import os
import signal
import subprocess as std
import time

import pytest

import fastspawn.subprocess as fs
from conftest import children, outcome


@pytest.fixture
def native(monkeypatch):
    """fastspawn's run() must not build a Popen for these calls."""

    def fail(*args, **kwargs):
        raise AssertionError("Popen used")

    monkeypatch.setattr(fs, "Popen", fail)


def both(call):
    """``call(module)`` through the standard library and through fastspawn
    (whose Popen is patched to fail); each result, or the exception raised."""
    out = []
    for module in (std, fs):
        try:
            out.append(call(module))
        except std.SubprocessError as e:
            out.append(e)
    return out


def timeout_fields(e):
    assert type(e) is std.TimeoutExpired, repr(e)
    return e.cmd, e.output, e.stderr


def test_input_is_written_and_closed(native, no_leaks):
    for data in (b"hello", b"", b"\0" * 70000):
        a, b = both(lambda m, d=data: m.run(["cat"], input=d, capture_output=True, timeout=60))
        assert (a.args, a.returncode, a.stdout, a.stderr) == (
            b.args, b.returncode, b.stdout, b.stderr)  # fmt: skip
        assert b.stdout == data
    # Without capture: the child's output goes where ours goes.
    a, b = both(lambda m: m.run(["sh", "-c", "cat >/dev/null; exit 5"], input=b"x").returncode)
    assert a == b == 5


def test_several_mib_both_ways_do_not_deadlock(native, no_leaks):
    # 8 MiB in, 8 MiB out on stdout and the same on stderr: every pipe
    # fills up many times over in both directions.
    data = bytes(range(256)) * (32 * 1024)
    a, b = both(
        lambda m: m.run(["tee", "/dev/stderr"], input=data, capture_output=True, timeout=120)
    )
    assert a.returncode == b.returncode == 0
    assert a.stdout == b.stdout == data
    assert a.stderr == b.stderr == data


def test_a_child_that_does_not_read_its_input_is_no_error(native, no_leaks):
    # More than a pipe holds: the write meets EPIPE once the child is gone.
    data = b"x" * (4 << 20)
    a, b = both(lambda m: m.run(["sh", "-c", "echo done; exit 3"], input=data, capture_output=True))
    assert (a.returncode, a.stdout) == (b.returncode, b.stdout) == (3, b"done\n")


def test_a_timeout_keeps_the_output_read_so_far(native, no_leaks):
    # Read before the time-out: stdout's line; stderr nothing (None, as
    # CPython's communicate says of a pipe it never read).
    a, b = both(
        lambda m: m.run(["sh", "-c", "echo before; exec sleep 30"], capture_output=True, timeout=1)
    )
    assert timeout_fields(a) == timeout_fields(b)
    assert (b.output, b.stderr, b.timeout) == (b"before\n", None, 1)
    assert str(a) == str(b)
    # Nothing read at all: both None.
    a, b = both(lambda m: m.run(["sleep", "30"], capture_output=True, timeout=0.2))
    assert timeout_fields(a) == timeout_fields(b) == (["sleep", "30"], None, None)
    # A deadline already passed: nothing is read or written.
    a, b = both(lambda m: m.run(["cat"], input=b"x", capture_output=True, timeout=0))
    assert timeout_fields(a) == timeout_fields(b) == (["cat"], None, None)


def test_a_timeout_in_the_wait_for_the_exit_has_no_output(native, no_leaks):
    # The outputs ended (closed by the child), the child lives on: CPython's
    # run() times out in its wait(), whose exception has no output and the
    # time that was left then as its timeout.
    script = "echo out; echo err >&2; exec >&- 2>&-; exec sleep 30"
    a, b = both(lambda m: m.run(["sh", "-c", script], capture_output=True, timeout=1))
    assert timeout_fields(a) == timeout_fields(b) == (["sh", "-c", script], None, None)
    assert 0 < a.timeout <= 1 and 0 < b.timeout <= 1


def test_a_grandchild_holding_the_output_does_not_hang_a_timed_out_run(native, no_leaks):
    # The child is killed at the deadline; its background grandchild keeps
    # stdout open. Both run()s return once the child is reaped.
    script = "sleep 30 & echo $!; exec sleep 30"
    grandchildren = []
    try:
        a, b = both(lambda m: m.run(["sh", "-c", script], stdout=m.PIPE, timeout=1))
        for e in (a, b):
            assert type(e) is std.TimeoutExpired
            grandchildren.append(int(e.output))
        assert a.stderr is b.stderr is None
    finally:
        for pid in grandchildren:
            os.kill(pid, 9)


def test_the_timed_out_child_is_reaped(native, no_leaks):
    before = children()
    with pytest.raises(std.TimeoutExpired):
        fs.run(["sleep", "30"], timeout=0.2)
    # No zombie, nothing running: the run killed and reaped it.
    assert children() == before


def test_no_timeout_reached_is_a_plain_run(native, no_leaks):
    a, b = both(lambda m: m.run(["sh", "-c", "echo $0; exit 4"], capture_output=True, timeout=60))
    assert (a.returncode, a.stdout) == (b.returncode, b.stdout) == (4, b"sh\n")
    a, b = both(lambda m: m.run(["true"], timeout=60))
    assert (a.args, a.returncode) == (b.args, b.returncode) == (["true"], 0)
    with pytest.raises(std.CalledProcessError) as info:
        fs.run(["sh", "-c", "cat; exit 2"], input=b"in", capture_output=True, timeout=60,
               check=True)  # fmt: skip
    assert (info.value.returncode, info.value.output) == (2, b"in")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"input": bytearray(b"abc")},
        {"input": memoryview(b"abc")},
        {"input": "abc", "text": True},
        {"input": b"abc", "timeout": float("inf")},
        {"input": b"abc", "timeout": True},
    ],
)
def test_what_the_native_path_does_not_take_goes_through_popen(kwargs, no_leaks):
    # Mutable or text input, an infinite or bool timeout: Popen's path,
    # with its results and its errors (inf: OverflowError in select).
    a, b = outcome(lambda m: m.run(["cat"], capture_output=True, **kwargs))
    if isinstance(a, tuple):
        assert a == b
    else:
        assert (a.args, a.returncode, a.stdout) == (b.args, b.returncode, b.stdout)


class Raised(Exception):
    pass


@pytest.mark.parametrize(
    "kwargs",
    [
        {"input": b"", "capture_output": True, "timeout": 30},
        {"capture_output": True},
        {},  # run(args) alone: the one-call path
    ],
    ids=["input+timeout", "capture", "args-only"],
)
@pytest.mark.parametrize(
    "signum, raises, made",
    [
        # A handler that raises: run() kills the child at once.
        (signal.SIGUSR1, Raised, False),
        # KeyboardInterrupt: the child gets 0.25 s first (it ends in 0.1).
        (signal.SIGINT, KeyboardInterrupt, True),
        # A handler that returns: the run goes on to the child's end.
        (signal.SIGUSR2, None, True),
    ],
    ids=["raises", "keyboard-interrupt", "returns"],
)
def test_a_signal_handler_runs_during_the_native_run(
    tmp_path, native, no_leaks, kwargs, signum, raises, made
):
    # As CPython's waits (PEP 475): the handler runs when the signal comes,
    # and an exception it raises ends run() as the standard library's does.
    ran = []

    def handler(signo, frame):
        ran.append(signo)
        if signo == signal.SIGUSR1:
            raise Raised
        if signo == signal.SIGINT:
            raise KeyboardInterrupt

    old = signal.signal(signum, handler)
    try:
        for m in (std, fs):
            ran.clear()
            mark = tmp_path / f"{m.__name__}-{signum}"
            pause = "0.1" if signum == signal.SIGINT else "0.5"
            # The signal comes once run() waits (0.3 s in): one that comes
            # while the standard library's Popen is still being made is
            # raised from its constructor, before run() can kill the child
            # (see the test below for that window).
            script = f"sleep 0.3; kill -{signum} $PPID; sleep {pause}; echo done > {mark}"
            if raises is None:
                assert m.run(["sh", "-c", script], **kwargs).returncode == 0
            else:
                with pytest.raises(raises):
                    m.run(["sh", "-c", script], **kwargs)
            assert ran == [signum], m.__name__
            # The child was killed before its end, or not.
            time.sleep(0.7 if not made else 0)
            assert mark.exists() == made, m.__name__
    finally:
        signal.signal(signum, old)


@pytest.mark.parametrize(
    "kwargs",
    [{"input": b"", "capture_output": True, "timeout": 30}, {"capture_output": True}, {}],
    ids=["input+timeout", "capture", "args-only"],
)
def test_a_signal_during_the_spawn_is_handled_before_the_wait(tmp_path, native, no_leaks, kwargs):
    # The child signals at once, often while the spawn is still under way
    # (its clone blocks signals, and the wait for the child's execve is not
    # interrupted): the handler must still run at once, not when the child
    # ends, and its exception kill the child. (The standard library raises
    # such an exception from Popen's constructor and leaves the child
    # running; see the README's differences.)
    class Raised(Exception):
        pass

    def handler(signo, frame):
        raise Raised

    old = signal.signal(signal.SIGUSR1, handler)
    try:
        for i in range(40):
            mark = tmp_path / str(i)
            # A handler run only at the child's end finds the mark made.
            script = f"kill -USR1 $PPID; sleep 1; echo done > {mark}"
            with pytest.raises(Raised):
                fs.run(["sh", "-c", script], **kwargs)
    finally:
        signal.signal(signal.SIGUSR1, old)
    time.sleep(1.5)
    assert sorted(p.name for p in tmp_path.iterdir()) == [], "a handler ran at the child's end"
