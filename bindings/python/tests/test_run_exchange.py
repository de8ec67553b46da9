"""run() with bytes ``input=`` and ``timeout=`` on the native path (the
core's Child::communicate, no Popen object), side by side with the standard
library's run(): the same calls, the same results and exceptions."""

import asyncio
import gc
import os
import signal
import socket
import subprocess as std
import sys
import threading
import time

import pytest

import fastspawn.subprocess as fs
from conftest import TEXT_MODES, children, open_fds, outcome, raised


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


def recording_run_std(monkeypatch, name="run_std"):
    """Records each call of the native run of the streams alone
    (``_fastspawn.run_std``, or another of the extension's one-call paths):
    True when it ran the call, False when it left it to the general path."""
    took = []
    native_call = getattr(fs._fastspawn, name)

    def recording(*args, **kwargs):
        ran = native_call(*args, **kwargs)
        took.append(ran is not None)
        return ran

    monkeypatch.setattr(fs._fastspawn, name, recording)
    return took


def fields(result):
    """What the standard library and the package must agree on."""
    if isinstance(result, std.CompletedProcess):
        return type(result), result.args, result.returncode, result.stdout, result.stderr
    if isinstance(result, std.SubprocessError):
        return type(result), result.cmd, getattr(result, "returncode", None), result.output, (
            result.stderr)  # fmt: skip
    return result


@pytest.mark.parametrize("stdin", [None, std.PIPE, std.DEVNULL], ids=["in", "in-pipe", "in-null"])
def test_the_streams_alone_are_one_native_call(monkeypatch, native, no_leaks, stdin):
    # Every combination of None, PIPE, DEVNULL and (stderr) STDOUT, with and
    # without input and a timeout: the standard library's results, each in
    # one native call (run_std).
    took = recording_run_std(monkeypatch)
    # An inherited stdin is not read (it may be a terminal).
    script = ("" if stdin is None else "cat; ") + "echo out; echo err >&2; exit 3"
    calls = 0
    for stdout in (None, std.PIPE, std.DEVNULL):
        for stderr in (None, std.PIPE, std.DEVNULL, std.STDOUT):
            variants = [{"stdin": stdin}, {"stdin": stdin, "timeout": 60}]
            if stdin is std.PIPE:
                variants += [{"input": b"in\n"}, {"input": b"in\n", "timeout": 60}]
            for extra in variants:
                kwargs = {"stdout": stdout, "stderr": stderr, **extra}
                a, b = both(lambda m, kw=kwargs: m.run(["sh", "-c", script], **kw))
                assert fields(a) == fields(b), kwargs
                assert b.returncode == 3
                calls += 1
    assert took == [True] * calls


def test_capture_and_check_are_one_native_call(monkeypatch, native, no_leaks):
    took = recording_run_std(monkeypatch)
    fails = ["sh", "-c", "echo out; echo err >&2; exit 3"]
    cases = [
        lambda m: m.run(fails, capture_output=True),
        lambda m: m.run(fails, capture_output=True, check=True),
        lambda m: m.run(fails, stdout=m.PIPE, stderr=m.STDOUT, check=True),
        lambda m: m.check_output(["sh", "-c", "echo out; echo err >&2"], stderr=m.STDOUT),
        lambda m: m.check_output(["cat"], input=b"abc"),
        lambda m: m.check_output(fails, stderr=m.DEVNULL),
        lambda m: m.check_output((b"sh", b"-c", b"kill -TERM $$")),
        lambda m: m.call(fails, stdout=m.DEVNULL, stderr=m.DEVNULL),
        lambda m: m.call(fails, stdin=m.DEVNULL, stdout=m.DEVNULL, stderr=m.STDOUT),
        lambda m: m.check_call(fails, stdout=m.DEVNULL, stderr=m.DEVNULL),
        lambda m: m.run(["sh", "-c", "echo early; exec sleep 30"], stdout=m.PIPE, timeout=1),
        # Text mode's time-out keeps the output read as bytes, as CPython's.
        lambda m: m.run(
            ["sh", "-c", "echo early; exec sleep 30"], stdout=m.PIPE, timeout=1, text=True
        ),  # fmt: skip
        lambda m: m.run(["/nonexistent/program"], capture_output=True),
    ]
    for call in cases:
        a, b = outcome(lambda m, call=call: fields(call(m)))
        assert a == b
    # The missing program fails in the spawn: run_std raised, so it is not
    # recorded.
    assert took == [True] * (len(cases) - 1)


def test_streams_given_as_fds_or_files_go_the_general_way(monkeypatch, tmp_path, no_leaks):
    took = recording_run_std(monkeypatch)
    out = []
    for m in (std, fs):
        path = tmp_path / m.__name__
        with open(path, "wb") as f:
            m.run(["sh", "-c", "echo file; echo fd >&2"], stdout=f, stderr=f.fileno())
        out.append(path.read_bytes())
    assert out[0] == out[1] == b"file\nfd\n"
    # Not PIPE, STDOUT or DEVNULL: an fd (bad ones as the standard library
    # reports them), a bool, a float.
    for kwargs in (
        {"stdout": std.STDOUT},
        {"stdin": std.STDOUT},
        {"stderr": -4},
        {"stdout": True, "stderr": std.DEVNULL},
        {"stdout": 1.0},
    ):
        a, b = outcome(lambda m, kw=kwargs: fields(m.run(["true"], **kw)))
        assert a == b, kwargs
    assert took == [False] * 6


def test_cwd_env_and_shell_are_one_native_call(monkeypatch, tmp_path, native, no_leaks):
    took = recording_run_std(monkeypatch)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    hello = bin_dir / "hello"
    hello.write_text("#!/bin/sh\necho hello from $0\n")
    hello.chmod(0o755)
    path = os.environ["PATH"]
    cases = [
        lambda m: m.run(["pwd"], cwd=tmp_path, capture_output=True),
        lambda m: m.run(["pwd"], cwd=str(bin_dir), stdout=m.PIPE),
        lambda m: m.check_output("echo $X; pwd", shell=True, cwd=tmp_path, env={"X": "1"}),
        lambda m: m.run(["echo $0 $1", "zero", "one"], shell=True, capture_output=True),
        lambda m: m.run((b"echo", b"tuple"), shell=1, stdout=m.PIPE),
        lambda m: m.check_output("exit 3", shell=True),
        lambda m: m.run(["env"], env={}, capture_output=True),
        lambda m: m.check_output(["env"], env={b"A": b"1", "B": "\u00e9"}),
        # A bare name is looked up in the PATH of env= when it is given.
        lambda m: m.check_output(["hello"], env={"PATH": str(bin_dir)}),
        lambda m: m.run("", shell=True, capture_output=True),
        lambda m: m.run([], shell=True, capture_output=True),  # sh: -c requires an argument
        lambda m: m.call("exit 4", shell=True),
        lambda m: m.call(["pwd"], cwd="/", stdout=m.DEVNULL),
        lambda m: m.check_call(["true"], env={"PATH": path}),
        lambda m: m.run("echo x; exec sleep 30", shell=True, stdout=m.PIPE, timeout=1),
    ]
    for call in cases:
        a, b = outcome(lambda m, call=call: fields(call(m)))
        assert a == b
    assert took == [True] * len(cases)
    # Failures of the spawn: run_std raises them, with CPython's exception.
    for call in (
        lambda m: m.run(["true"], cwd=tmp_path / "missing"),
        lambda m: m.run(["true"], cwd=""),
        lambda m: m.run(["missing-program"], cwd=tmp_path / "missing", capture_output=True),
        lambda m: m.run(["hello"], env={"PATH": str(tmp_path)}),
        # Not looked up in cwd either.
        lambda m: m.check_output(["hello"], env={"PATH": path}, cwd=bin_dir),
        lambda m: m.run(["true"], cwd=hello),
    ):
        a, b = raised(call)
        assert (type(a), a.errno, a.filename) == (type(b), b.errno, b.filename)
    assert took == [True] * len(cases)


def test_one_str_or_bytes_program_is_one_native_call(monkeypatch, native, no_leaks):
    # A str or bytes args is one program without arguments, as CPython
    # reads it: the native paths take it too.
    took = recording_run_std(monkeypatch)
    took_args = recording_run_std(monkeypatch, "run_args")
    cases = [
        lambda m: m.run("true"),
        lambda m: m.run(b"false", check=True),
        lambda m: m.run("pwd", capture_output=True, cwd="/"),
        lambda m: m.check_output(b"pwd", cwd="/"),
        lambda m: m.call("false", stdout=m.DEVNULL),
        lambda m: m.run("no-such-program-anywhere"),
    ]
    for call in cases:
        a, b = outcome(lambda m, call=call: fields(call(m)))
        assert a == b
    # run_args: the first two; the missing program raised in it.
    assert (took, took_args) == ([True] * 3, [True] * 2)
    monkeypatch.undo()
    for args in ("true", b"true"):
        a, b = both(lambda m, args=args: m.Popen(args))
        assert (a.wait(), a.args) == (b.wait(), b.args) == (0, args)
        assert b.engine is not None


@pytest.mark.parametrize(
    "kwargs",
    [
        {"env": {"A=B": "1"}},
        {"env": {"": "1"}},
        {"env": {"A": "x\0y"}},
        {"env": {"A": 1}},
        {"env": os.environ},  # a mapping, not a dict
        {"cwd": b"/"},
        {"cwd": "/\0"},
        {"cwd": 5},
        {"shell": True, "args": __import__("pathlib").Path("/bin/true")},
        {"shell": True, "args": "true\0"},
    ],
    ids=lambda kw: ",".join(f"{k}={v!r}"[:30] for k, v in kw.items()),
)
def test_what_run_std_does_not_take_goes_the_general_way(monkeypatch, no_leaks, kwargs):
    took = recording_run_std(monkeypatch)
    kwargs = dict(kwargs)
    args = kwargs.pop("args", ["true"])
    a, b = outcome(lambda m: fields(m.run(args, capture_output=True, **kwargs)))
    if a[0] is ValueError:
        # The package's message names the argument ("embedded null byte in env").
        assert b[0] is ValueError and b[1].startswith(a[1]), (a, b)
    else:
        assert a == b
    assert took == [False]


AUDITED = """
import sys, subprocess as std, fastspawn.subprocess as fs
events = []
sys.addaudithook(lambda event, args: events.append(args) if event == "subprocess.Popen" else None)
for m in (std, fs):
    m.run(["true"], cwd="/", env={"A": "1"}, capture_output=True)
    m.run("exit 0", shell=True, stdout=m.DEVNULL)
    m.call(("echo", "x"), shell=True, stdout=m.DEVNULL)
half = len(events) // 2
print(repr(events[:half]) == repr(events[half:]), len(events))
"""


def test_the_audit_event_names_the_shell_cwd_and_env():
    out = std.run([sys.executable, "-c", AUDITED], capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stdout, out.stderr) == (0, "True 6\n", "")


# CR LF, a lone CR and a byte that is not UTF-8 (latin-1's e acute).
TEXT_OUT = r"printf 'a\r\nb\rc\n\351t\351\n'; printf 'e\r\n' >&2; exit 1"


@pytest.mark.parametrize(
    "kwargs",
    [
        *TEXT_MODES,
        {"errors": "replace"},
        {"text": True, "errors": "surrogateescape"},
        {"text": True, "universal_newlines": True},
        {"text": False, "encoding": "latin-1"},
        {"text": False},
    ],
    ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()),
)
def test_text_mode_is_decoded_as_popen_decodes_it(monkeypatch, native, no_leaks, kwargs):
    # Text mode on the native run: the output decoded with Popen's encoding
    # and errors and its newlines translated, str input encoded; a byte the
    # encoding refuses raises the same UnicodeDecodeError.
    took = recording_run_std(monkeypatch)
    text = kwargs.get("text", True) or "encoding" in kwargs
    data = "in\u00e9\r\n" if text else b"in\xc3\xa9\r\n"
    cases = [
        lambda m: m.run(["sh", "-c", TEXT_OUT], capture_output=True, **kwargs),
        lambda m: m.run(["sh", "-c", TEXT_OUT], stdout=m.PIPE, stderr=m.STDOUT, **kwargs),
        lambda m: m.run(["sh", "-c", TEXT_OUT], capture_output=True, timeout=60, **kwargs),
        lambda m: m.check_output(["sh", "-c", "printf 'x\r\n'; cat"], input=data, **kwargs),
        lambda m: m.check_output(["sh", "-c", "printf 'x\r\n'; exit 3"], **kwargs),
        lambda m: m.run(["sh", "-c", "printf 'x\r\n'"], **kwargs),
    ]
    for call in cases:
        a, b = outcome(lambda m, call=call: fields(call(m)))
        assert a == b
    assert took == [True] * len(cases)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"encoding": "bogus", "capture_output": True},
        {"encoding": "hex", "capture_output": True},  # a codec, not a text encoding
        {"encoding": "bogus"},  # no stream wrapped: runs in CPython
        {"text": True, "universal_newlines": False, "capture_output": True},
        {"text": True, "input": b"bytes", "capture_output": True},
        {"encoding": "ascii", "input": "\u00e9", "capture_output": True},
        {"text": True, "errors": 5, "capture_output": True},
        {"encoding": b"utf-8", "capture_output": True},
    ],
    ids=lambda kw: ",".join(f"{k}={v!r}" for k, v in kw.items()),
)
def test_text_arguments_popen_refuses_are_refused_alike(monkeypatch, kwargs):
    # Raised as Popen raises them (from the general path, or, for an
    # encoding Popen cannot wrap a pipe with, before any pipe is made); the
    # standard library's Popen leaves a pipe open after that LookupError,
    # the package does not.
    def result(module):
        try:
            return fields(module.run(["true"], **kwargs))
        except Exception as e:
            return type(e), str(e)

    took = recording_run_std(monkeypatch)
    expected = result(std)
    gc.collect()
    before = open_fds(), children()
    assert result(fs) == expected
    gc.collect()
    assert (open_fds(), children()) == before
    assert took == []


STDERR_TO_STDOUT = """
import M as m
m.run(["sh", "-c", "echo run >&2"], stderr=m.STDOUT)
m.call(["sh", "-c", "echo call >&2"], stderr=m.STDOUT, stdout=None)
m.run(["sh", "-c", "echo null >&2"], stderr=m.STDOUT, stdout=m.DEVNULL)
"""


def test_stderr_to_an_inherited_stdout_is_the_parent_s_stdout():
    # stderr=STDOUT with stdout inherited: the child's stderr is our stdout.
    for name in ("subprocess", "fastspawn.subprocess"):
        code = STDERR_TO_STDOUT.replace("M", name)
        out = std.run([sys.executable, "-c", code], capture_output=True, timeout=60)
        assert (out.returncode, out.stdout, out.stderr) == (0, b"run\ncall\n", b""), name


EMFILE = """
import os, resource, fastspawn.subprocess as fs
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
def count():
    return len(os.listdir("/proc/self/fd"))
base = count()  # with the listing's own fd
seen = set()
for spare in range(6):
    for kwargs in (
        {"capture_output": True},
        {"stdout": fs.PIPE, "stderr": fs.STDOUT},
        {"input": b"x", "stdout": fs.PIPE, "timeout": 60},
    ):
        resource.setrlimit(resource.RLIMIT_NOFILE, (base - 1 + spare, hard))
        try:
            seen.add(str(fs.run(["true"], **kwargs).returncode))
        except OSError as e:
            seen.add(f"{type(e).__name__} {e.errno} {e.strerror}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        assert count() == base, (spare, kwargs)
print(sorted(seen))
"""


def test_no_fd_for_a_pipe_is_os_pipe_s_error():
    # With fewer fds to spare than the pipes need, the run fails as
    # os.pipe() does (EMFILE) and leaves no fd open; with enough, it runs.
    out = std.run([sys.executable, "-c", EMFILE], capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stderr) == (0, "")
    assert out.stdout == "['0', 'OSError 24 Too many open files']\n"


class Raised(Exception):
    pass


@pytest.mark.parametrize(
    "kwargs",
    [
        {"input": b"", "capture_output": True, "timeout": 30},
        {"capture_output": True},
        {},  # run(args) alone: the one-call path
        {"capture_output": True, "cwd": "/"},  # the request's path (_fastspawn.run)
    ],
    ids=["input+timeout", "capture", "args-only", "request"],
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
    [
        {"input": b"", "capture_output": True, "timeout": 30},
        {"capture_output": True},
        {},
        {"capture_output": True, "cwd": "/"},
    ],
    ids=["input+timeout", "capture", "args-only", "request"],
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


@pytest.mark.parametrize("kwargs", [{}, {"stdout": std.DEVNULL}], ids=["args-only", "devnull"])
def test_a_signal_to_another_thread_during_the_exit_wait_is_handled_at_once(
    tmp_path, native, no_leaks, kwargs
):
    # A run with no pipe waits for the exit alone. Here the signal goes to
    # another thread (the main thread blocks it), so it interrupts no system
    # call of the run; only the wakeup fd its C handler writes to tells the
    # run, whose wait polls it with the child's pidfd. (The standard
    # library's run() blocks in waitpid: its handler runs at the child's
    # end. A run with pipes, once the child closed them and went on
    # running, waits so too: see the README.)
    class Raised(Exception):
        pass

    def handler(signo, frame):
        raise Raised

    mark = tmp_path / "done"
    script = f"exec >&- 2>&-; sleep 0.3; kill -USR1 $PPID; sleep 3; echo done > {mark}"
    # A thread that does not block the signal, made before the main thread
    # blocks it (threads inherit the mask).
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    old = signal.signal(signal.SIGUSR1, handler)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
    started = time.monotonic()
    try:
        with pytest.raises(Raised):
            fs.run(["sh", "-c", script], **kwargs)
        took = time.monotonic() - started
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1})
        signal.signal(signal.SIGUSR1, old)
        stop.set()
        other.join()
    assert took < 2.5, f"the handler ran at the child's end ({took:.1f} s)"
    time.sleep(3.5)
    assert not mark.exists(), "the child was not killed"


RUNS = pytest.mark.parametrize(
    "kwargs",
    [
        {"input": b"", "capture_output": True, "timeout": 30},
        {"capture_output": True},
        {},
        {"capture_output": True, "cwd": "/"},
    ],
    ids=["input+timeout", "capture", "args-only", "request"],
)


@RUNS
def test_the_signal_wakeup_fd_is_left_as_it_was(native, no_leaks, kwargs):
    # On the main thread a native run points Python's signal wakeup fd at a
    # pipe of its own while it runs (so that no signal is missed between a
    # look for handlers and its wait), and sets it back after: to none, or
    # to the fd that was set, which still gets each signal's number.
    ran = []
    old = signal.signal(signal.SIGUSR2, lambda signo, frame: ran.append(signo))
    r, w = socket.socketpair()
    r.setblocking(False)
    w.setblocking(False)
    script = ["sh", "-c", "kill -USR2 $PPID; sleep 0.2"]
    try:
        assert fs.run(script, **kwargs).returncode == 0
        assert ran == [signal.SIGUSR2]
        assert signal.set_wakeup_fd(-1) == -1
        ran.clear()
        signal.set_wakeup_fd(w.fileno(), warn_on_full_buffer=False)
        assert fs.run(script, **kwargs).returncode == 0
        assert ran == [signal.SIGUSR2]
        assert signal.set_wakeup_fd(-1) == w.fileno()
        assert r.recv(16) == bytes([signal.SIGUSR2])
    finally:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGUSR2, old)
        r.close()
        w.close()


PIPE_REPLACED = r"""
import os, signal, sys
def fds():
    return {fd for fd in os.listdir("/proc/self/fd") if os.path.exists(f"/proc/self/fd/{fd}")}
before = fds()
import fastspawn.subprocess as fs
made = sorted(int(fd) for fd in fds() - before)
assert len(made) == 2, made  # the wakeup pipe, made at import
ran = []
signal.signal(signal.SIGUSR1, lambda signo, frame: ran.append(signo))
script = ["sh", "-c", "kill -USR1 $PPID; sleep 0.2"]
def check():
    assert fs.run(script, **KWARGS).returncode == 0
    assert ran == [signal.SIGUSR1], ran
    assert signal.set_wakeup_fd(-1) == -1
    ran.clear()
check()
# Code that closes fds it does not own, then reuses their numbers for a
# non-blocking pipe of its own: the run makes a new pipe and neither
# reads nor writes nor closes the numbers' new files.
for fd in made:
    os.close(fd)
r, w = os.pipe2(os.O_NONBLOCK)
assert sorted((r, w)) == made, (r, w, made)
os.write(w, b"mine")
check()
assert os.read(r, 16) == b"mine"
# A forked child shares its parent's pipe: it makes its own.
pid = os.fork()
if pid == 0:
    try:
        check()
        check()
    except BaseException as e:
        print("child:", repr(e), flush=True)
        os._exit(1)
    os._exit(0)
check()
assert os.waitpid(pid, 0)[1] == 0
print("ok")
"""


@RUNS
def test_the_wakeup_pipe_is_made_again_when_its_fds_are_not_its_own(kwargs):
    code = PIPE_REPLACED.replace("KWARGS", repr(kwargs))
    out = std.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stdout, out.stderr) == (0, "ok\n", "")


@RUNS
def test_an_event_loop_s_signal_handler_sees_a_signal_during_a_run(native, no_leaks, kwargs):
    # asyncio's loop.add_signal_handler learns of signals from the wakeup
    # fd it set: a blocking run() called on the loop's thread must leave
    # that in place, so the callback runs once the loop runs again.
    got = []

    async def main():
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGUSR2, got.append, "usr2")
        try:
            fs.run(["sh", "-c", "kill -USR2 $PPID; sleep 0.2"], **kwargs)
            for _ in range(100):
                if got:
                    break
                await asyncio.sleep(0.01)
        finally:
            loop.remove_signal_handler(signal.SIGUSR2)

    asyncio.run(main())
    assert got == ["usr2"]
