"""Popen with its streams among None, PIPE, DEVNULL and STDOUT, cwd, env,
shell, bufsize and text mode: one native call (``_fastspawn.popen_std``)
in place of the standard library's ``__init__``, ``_get_handles`` and
``_execute_child``. The object it leaves, its file objects and what they
exchange with the child are compared with the standard library's."""

import builtins
import io
import itertools
import os
import subprocess as std
import sys
import warnings

import pytest
from test_run_exchange import recording_run_std

import fastspawn.subprocess as fs
from conftest import PY, TEXT_MODES, outcome, raised

# Reads its stdin when told to, writes CR LF, a lone CR and a byte that is
# not UTF-8 to stdout and a line to stderr, exits 3.
CHILD = (
    "import sys\n"
    "data = sys.stdin.buffer.read() if sys.argv[1] == 'read' else b''\n"
    "sys.stdout.buffer.write(b'out ' + data + b' a\\r\\nb\\rc\\n\\xe9\\n')\n"
    "sys.stderr.buffer.write(b'err\\n')\n"
    "sys.exit(3)\n"
)
OWN = ("_fs_child", "_fs_extras", "engine")
STREAMS = ("stdin", "stdout", "stderr")


def describe(stream):
    """What the standard library's file object and the package's must share."""
    if stream is None:
        return None
    parts = [type(stream)]
    if isinstance(stream, io.TextIOWrapper):
        parts += [stream.encoding, stream.errors, stream.line_buffering, stream.write_through]
        stream = stream.buffer
        parts.append(type(stream))
    parts += [stream.mode, stream.closed]
    if hasattr(stream, "raw"):
        parts += [type(stream.raw), stream.raw.mode]
    return parts


def state(popen):
    """The object's attributes, with its file objects described. Without
    ``_devnull``: the number of the /dev/null fd that CPython's ``__init__``
    opened and closed again (up to 3.12 it keeps the stale number; the
    native path opens none in Python)."""
    skip = ("_waitpid_lock", "pid", "_devnull", *OWN)
    attrs = {k: v for k, v in vars(popen).items() if k not in skip}
    for name in STREAMS:
        attrs[name] = describe(attrs[name])
    if "_fileobj2output" in attrs:  # communicate()'s output so far, by stream
        named = {id(getattr(popen, name)): name for name in STREAMS}
        attrs["_fileobj2output"] = {named[id(k)]: v for k, v in attrs["_fileobj2output"].items()}
    return attrs


def popen_and_exchange(module, kwargs):
    """Popen(CHILD) with ``kwargs``, its state, then communicate()'s result,
    the return code and the warnings raised along the way."""
    args = [PY, "-c", CHILD, "read" if kwargs.get("stdin") == std.PIPE else "-"]
    text = bool(
        kwargs.get("text") or kwargs.get("universal_newlines") or kwargs.get("encoding")
        or kwargs.get("errors")
    )  # fmt: skip
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with module.Popen(args, **kwargs) as p:
            made = state(p)
            data = "in" if text else b"in"
            try:
                out = p.communicate(data if p.stdin is not None else None)
            except UnicodeDecodeError as e:  # the byte that is not UTF-8, strictly decoded
                out = type(e), str(e)
            code = p.wait()
    return made, out, code, [(w.category, str(w.message)) for w in caught]


BYTES_CASES = [
    dict(zip(STREAMS, streams))
    for streams in itertools.product(
        (None, std.PIPE, std.DEVNULL),
        (None, std.PIPE, std.DEVNULL),
        (None, std.PIPE, std.DEVNULL, std.STDOUT),
    )  # fmt: skip
]
ALL_PIPES = {"stdin": std.PIPE, "stdout": std.PIPE, "stderr": std.PIPE}
OTHER_CASES = [
    *({**ALL_PIPES, **mode} for mode in TEXT_MODES),
    {**ALL_PIPES, "text": True, "bufsize": 1},
    {**ALL_PIPES, "bufsize": 1},  # line buffering in binary mode: a RuntimeWarning
    {**ALL_PIPES, "bufsize": 0},
    {**ALL_PIPES, "bufsize": None},
    {**ALL_PIPES, "bufsize": 4096, "universal_newlines": False},
    {**ALL_PIPES, "text": False, "encoding": None, "errors": None},
    {"stdout": std.PIPE, "stderr": std.STDOUT, "text": True},
    {"stdout": std.PIPE, "cwd": "/", "env": {"PATH": "/bin:/usr/bin", "A": "1"}},
    {"stdout": std.PIPE, "close_fds": True},
]


def case_id(kwargs):
    return ",".join(f"{k}={v!r}" for k, v in kwargs.items()) or "none"


@pytest.mark.parametrize("kwargs", BYTES_CASES + OTHER_CASES, ids=case_id)
def test_the_streams_are_one_native_call(monkeypatch, no_leaks, kwargs):
    took = recording_run_std(monkeypatch, "popen_std")
    expected = popen_and_exchange(std, kwargs)
    got = popen_and_exchange(fs, kwargs)
    assert got == expected
    assert expected[2] == 3
    assert took == [True]


def test_a_shell_command_with_pipes(monkeypatch, no_leaks):
    took = recording_run_std(monkeypatch, "popen_std")

    def exchange(m):
        with m.Popen("read x; echo \"$x$A\"; exit 4", shell=True, stdin=m.PIPE,
                     stdout=m.PIPE, env={"A": "!"}, text=True) as p:  # fmt: skip
            return p.communicate("hi\n"), p.returncode, state(p)

    a, b = exchange(std), exchange(fs)
    assert a == b
    assert a[:2] == (("hi!\n", None), 4)
    assert took == [True]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"stdout": 1},  # an fd
        {"stdout": std.PIPE, "bufsize": "1"},
        {"stdout": std.PIPE, "bufsize": 1.5},
        {"stdout": std.PIPE, "close_fds": False},
        {"stdout": std.PIPE, "env": os.environ},  # a mapping, not a dict
        {"stdout": std.PIPE, "cwd": b"/"},
        {"stdout": std.PIPE, "text": True, "universal_newlines": False},
        {"stdout": std.PIPE, "encoding": "rot13"},  # not a text encoding
        {"stdout": std.PIPE, "encoding": "no-such-codec"},
        {"stdout": std.PIPE, "umask": 0o22},
        {"stdin": std.STDOUT},
    ],
    ids=case_id,
)
def test_what_popen_std_does_not_take_goes_the_general_way(monkeypatch, no_leaks, kwargs):
    took = recording_run_std(monkeypatch, "popen_std")

    def exchange(m):
        with m.Popen(["echo", "x"], **kwargs) as p:
            return p.communicate(), p.returncode

    a, b = outcome(exchange)
    assert a == b
    # Not called, or called and declined, before any pipe or audit event.
    assert True not in took, took


def test_a_failed_spawn_with_pipes_raises_alike_and_leaks_nothing(no_leaks):
    for args in (["/nonexistent/program"], ["/"], "/etc/passwd"):
        a, b = raised(lambda m, args=args: m.Popen(args, stdin=m.PIPE, stdout=m.PIPE,
                                                   stderr=m.STDOUT))  # fmt: skip
        assert (type(a), a.errno, a.filename) == (type(b), b.errno, b.filename)


def test_a_failed_wrap_kills_the_child_and_closes_every_end(monkeypatch, no_leaks):
    # The pipes are wrapped after the spawn: if that fails (here open() on
    # the third stream), the child is killed and reaped and no end is left.
    real_open = builtins.open
    opened = []

    def failing(file, *args, **kwargs):
        if isinstance(file, int):
            opened.append(file)
            if len(opened) == 3:
                raise MemoryError("no memory for the third stream")
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", failing)
    closes = []
    real_close = os.close

    def counting_close(fd):
        closes.append(fd)
        real_close(fd)

    monkeypatch.setattr(os, "close", counting_close)
    with pytest.raises(MemoryError):
        fs.Popen(["sleep", "100"], stdin=fs.PIPE, stdout=fs.PIPE, stderr=fs.PIPE)
    assert len(opened) == 3
    # The two ends already wrapped are closed by their file objects only
    # (a second close could hit a number reused meanwhile); the third by
    # os.close.
    assert closes == [opened[2]]


class Recorded(fs.Popen):
    """A subclass that overrides the steps the native paths skip."""

    calls = []

    def _get_handles(self, *args):
        self.calls.append("_get_handles")
        return super()._get_handles(*args)

    def _execute_child(self, *args):
        self.calls.append("_execute_child")
        return super()._execute_child(*args)


@pytest.mark.parametrize(
    "kwargs", [{}, {"cwd": "/"}, {"stdout": std.PIPE}, {"stdout": std.PIPE, "text": True}],
    ids=case_id,
)  # fmt: skip
def test_a_subclass_s_overrides_are_called(monkeypatch, no_leaks, kwargs):
    # CPython's own tests make _execute_child raise in a subclass; such a
    # subclass gets the standard library's steps, not a native path.
    took = recording_run_std(monkeypatch, "popen_std")
    Recorded.calls = []
    with Recorded(["echo", "x"], **kwargs) as p:
        p.communicate()
    assert Recorded.calls == ["_get_handles", "_execute_child"]
    assert p.engine != "fork" and p.returncode == 0
    assert took == []


AUDITED = """
import sys, subprocess as std, fastspawn.subprocess as fs
events = []
sys.addaudithook(lambda event, args: events.append(args) if event == "subprocess.Popen" else None)
for m in (std, fs):
    with m.Popen(["true"], cwd="/", env={"A": "1"}, stdout=m.PIPE) as p:
        p.communicate()
    with m.Popen("exit 0", shell=True, stdout=m.DEVNULL, text=True) as p:
        p.wait()
half = len(events) // 2
print(repr(events[:half]) == repr(events[half:]), len(events))
"""


def test_the_audit_events_are_the_standard_library_s():
    out = std.run([sys.executable, "-c", AUDITED], capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stdout, out.stderr) == (0, "True 4\n", "")


def test_streams_work_from_many_threads_at_once(no_leaks):
    import threading

    results = []

    def worker(n):
        for i in range(20):
            with fs.Popen(["sh", "-c", f"echo {n}-{i}"], stdout=fs.PIPE, text=True) as p:
                results.append(p.communicate()[0] == f"{n}-{i}\n" and p.returncode == 0)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [True] * 160
