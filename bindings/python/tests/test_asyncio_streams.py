"""fastspawn.asyncio's piped streams: the request of the streams, cwd and
env made in one native call (``Spawner.submit_std``), and the outputs read
by fastspawn's own pipe transport (``_PipeReadTransport``), which feeds
each ``StreamReader`` from the loop's reader callback. Side by side with
asyncio's create_subprocess_*, as in test_asyncio.py."""

import asyncio
import itertools
import os

import pytest
from test_asyncio import both

import fastspawn.asyncio as fa
from conftest import PY, children

PIPE, DEVNULL, STDOUT = (
    asyncio.subprocess.PIPE,
    asyncio.subprocess.DEVNULL,
    asyncio.subprocess.STDOUT,
)

# Echoes its stdin (when told to) to stdout, writes a line to stderr, exits 5.
CHILD = (
    "import sys\n"
    "data = sys.stdin.buffer.read() if sys.argv[1] == 'read' else b''\n"
    "sys.stdout.buffer.write(b'out:' + data)\n"
    "sys.stderr.buffer.write(b'err\\n')\n"
    "sys.exit(5)\n"
)


class Recording:
    """Stands in for a loop's native Spawner and records what
    ``submit_std`` did: True when it took the call, False when it left it
    to the general path."""

    def __init__(self, spawner):
        self._inner = spawner
        self.took = []

    def submit_std(self, *args, **kwargs):
        made = self._inner.submit_std(*args, **kwargs)
        self.took.append(made is not None)
        return made

    def __getattr__(self, name):
        return getattr(self._inner, name)


def recording(loop):
    spawner = fa._spawner(loop)
    if not isinstance(spawner._spawner, Recording):
        spawner._spawner = Recording(spawner._spawner)
    return spawner._spawner


STREAM_CASES = [
    dict(zip(("stdin", "stdout", "stderr"), streams))
    for streams in itertools.product(
        (None, PIPE, DEVNULL), (None, PIPE, DEVNULL), (None, PIPE, DEVNULL, STDOUT)
    )  # fmt: skip
]


def case_id(kwargs):
    return ",".join(f"{k}={v!r}" for k, v in kwargs.items())


@pytest.mark.parametrize("kwargs", STREAM_CASES, ids=case_id)
def test_the_streams_are_one_native_call(kwargs, no_leaks):
    took = []

    async def run(m):
        if m is fa:
            took.append(recording(asyncio.get_running_loop()).took)
        mode = "read" if kwargs["stdin"] == PIPE else "-"
        p = await m.create_subprocess_exec(PY, "-c", CHILD, mode, **kwargs)
        transports = [type(p._transport.get_pipe_transport(fd)).__name__ for fd in (1, 2)]
        out = await p.communicate(b"in" if kwargs["stdin"] == PIPE else None)
        return out, p.returncode, [s is None for s in (p.stdin, p.stdout, p.stderr)], transports

    a, b = both(run)
    assert a[:3] == b[:3]
    assert a[1] == 5
    # Each piped output is read by fastspawn's transport.
    for fd, name in ((1, "stdout"), (2, "stderr")):
        expected = "_PipeReadTransport" if kwargs[name] == PIPE else "NoneType"
        assert b[3][fd - 1] == expected
    # (With no stream at all, the call of the program alone: submit_args.)
    assert took == ([[True]] if any(v is not None for v in kwargs.values()) else [[]])


def test_cwd_env_and_the_shell_are_one_native_call(tmp_path, no_leaks):
    took = []

    async def run(m):
        if m is fa:
            took.append(recording(asyncio.get_running_loop()).took)
        env = {"PATH": os.environ["PATH"], "WHO": "x"}
        p = await m.create_subprocess_shell("echo $WHO; pwd; exit 2", stdout=PIPE,
                                            cwd=str(tmp_path), env=env)  # fmt: skip
        q = await m.create_subprocess_exec("pwd", stdout=PIPE, stderr=STDOUT, cwd=tmp_path)
        return await p.communicate(), p.returncode, await q.communicate(), q.returncode

    a, b = both(run)
    assert a == b == ((f"x\n{tmp_path}\n".encode(), None), 2, (f"{tmp_path}\n".encode(), None), 0)
    assert took == [[True, True]]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"stdout": 1},  # an fd: the general path
        {"stdout": PIPE, "env": os.environ},  # a mapping, not a dict
        {"stdout": PIPE, "cwd": b"/"},
        {"stdout": PIPE, "start_new_session": True},
    ],
    ids=case_id,
)
def test_what_submit_std_does_not_take_goes_the_general_way(kwargs, no_leaks):
    took = []

    async def run(m):
        if m is fa:
            took.append(recording(asyncio.get_running_loop()).took)
        p = await m.create_subprocess_exec("echo", "x", **kwargs)
        return await p.communicate(), p.returncode

    a, b = both(run)
    assert a == b
    assert True not in took[0]


def test_a_failed_spawn_with_pipes_raises_alike_and_leaks_nothing(no_leaks):
    async def run(m):
        try:
            await m.create_subprocess_exec("/nonexistent/program", stdin=PIPE, stdout=PIPE,
                                           stderr=PIPE)  # fmt: skip
        except OSError as e:
            return type(e), e.errno, e.filename

    a, b = both(run)
    assert a == b and a[0] is FileNotFoundError


def test_a_spawn_with_pipes_cancelled_leaves_no_fd_and_no_child(no_leaks):
    async def run():
        task = asyncio.ensure_future(
            fa.create_subprocess_exec("sleep", "10", stdin=PIPE, stdout=PIPE, stderr=PIPE)
        )
        await asyncio.sleep(0)  # the request is queued, its pipes made
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(run())
    # (no_leaks waits for the spawn's job and checks the fds and children)


def test_a_large_output_pauses_and_resumes_the_transport(monkeypatch, no_leaks):
    calls = []
    for name in ("pause_reading", "resume_reading"):
        real = getattr(fa._PipeReadTransport, name)

        def spy(self, real=real, name=name):
            calls.append(name)
            return real(self)

        monkeypatch.setattr(fa._PipeReadTransport, name, spy)
    size = 3 << 20

    async def run(m):
        p = await m.create_subprocess_exec(
            PY, "-c", f"import sys; sys.stdout.buffer.write(b'x' * {size})", stdout=PIPE,
            limit=1024,
        )  # fmt: skip
        first = await p.stdout.readexactly(10)
        await asyncio.sleep(0.05)  # the reader fills past its limit and pauses
        rest = await p.stdout.read()
        return len(first + rest), await p.wait()

    a, b = both(run)
    assert a == b == (size, 0)
    assert calls[:2] == ["pause_reading", "resume_reading"], calls[:4]


def test_closing_the_transport_ends_the_stream_and_the_fd(no_leaks):
    async def run(m):
        p = await m.create_subprocess_exec("sleep", "10", stdout=PIPE)
        transport = p._transport.get_pipe_transport(1)
        pipe = transport.get_extra_info("pipe")
        same_fd = pipe.fileno() == transport.get_extra_info("pipe").fileno()
        transport.close()
        await asyncio.sleep(0)  # asyncio's transport ends its stream in a callback
        closing = transport.is_closing()
        data = await p.stdout.read()
        p.kill()
        code = await p.wait()
        with pytest.raises(ProcessLookupError):
            p.kill()  # exited, its pipe closed: asyncio raises
        return same_fd, closing, data, code

    a, b = both(run)
    assert a == b == (True, True, b"", -9)


def test_a_loop_s_own_connect_read_pipe_is_used(monkeypatch, no_leaks):
    # A loop whose connect_read_pipe is not asyncio's (uvloop's, a mock
    # put on the loop object) connects the outputs itself.
    used = []

    async def run():
        loop = asyncio.get_running_loop()
        real = loop.connect_read_pipe

        async def connect_read_pipe(*args):
            used.append(True)
            return await real(*args)

        loop.connect_read_pipe = connect_read_pipe
        p = await fa.create_subprocess_exec("sh", "-c", "echo o; echo e >&2", stdout=PIPE,
                                            stderr=PIPE)  # fmt: skip
        return await p.communicate(), type(p._transport.get_pipe_transport(1)).__name__

    out, transport = asyncio.run(run())
    assert out == (b"o\n", b"e\n")
    assert used == [True, True]
    assert transport == "_UnixReadPipeTransport"


def test_many_piped_children_in_flight(no_leaks):
    async def run(m):
        async def one(i):
            p = await m.create_subprocess_exec("sh", "-c", f"echo {i}; echo {i} >&2",
                                               stdout=PIPE, stderr=PIPE)  # fmt: skip
            return await p.communicate(), p.returncode

        return await asyncio.gather(*(one(i) for i in range(64)))

    a, b = both(run)
    assert a == b
    assert a[7] == ((b"7\n", b"7\n"), 0)
    assert children() == []


@pytest.mark.parametrize("loop_s_own", [False, True], ids=["made-at-once", "connect_write_pipe"])
def test_stdin_s_wait_closed_drain_and_a_child_that_stopped_reading(loop_s_own, no_leaks):
    # stdin's transport is asyncio's, made before the spawn finished (or by
    # a connect_write_pipe of the loop's own); its protocol gives
    # StreamWriter.wait_closed() and drain() what asyncio's does.
    used = []

    async def run(m):
        if m is fa and loop_s_own:
            loop = asyncio.get_running_loop()
            real = loop.connect_write_pipe

            async def connect_write_pipe(*args):
                used.append(True)
                return await real(*args)

            loop.connect_write_pipe = connect_write_pipe  # not asyncio's own any more
        p = await m.create_subprocess_exec("cat", stdin=PIPE, stdout=PIPE)
        kind = type(p._transport.get_pipe_transport(0)).__name__
        p.stdin.write(b"hi")
        await p.stdin.drain()
        p.stdin.close()
        await p.stdin.wait_closed()
        echoed = await p.stdout.read()
        code = await p.wait()
        # A child that exits without reading: the writes end in an error.
        q = await m.create_subprocess_exec("true", stdin=PIPE)
        await q.wait()
        failed = None
        try:
            for _ in range(64):
                q.stdin.write(b"x" * 65536)
                await q.stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as e:
            failed = "pipe error"
            assert isinstance(e, OSError)
        q.stdin.close()
        try:
            await q.stdin.wait_closed()
        except (BrokenPipeError, ConnectionResetError):
            pass
        return kind, echoed, code, failed

    a, b = both(run)
    assert a == b == ("_UnixWritePipeTransport", b"hi", 0, "pipe error")
    assert used == ([True, True] if loop_s_own else [])


def test_a_failed_spawn_with_stdin_piped_closes_its_transport(no_leaks):
    async def run():
        with pytest.raises(FileNotFoundError):
            await fa.create_subprocess_exec("/nonexistent/program", stdin=PIPE)
        await asyncio.sleep(0)  # the transport's close ends in a callback

    asyncio.run(run())


def test_communicate_reads_large_outputs_one_after_the_other_without_a_deadlock(no_leaks):
    # The child writes 2 MiB to stderr before stdout while its 2 MiB of
    # input is written: with a small limit, a stream whose transport
    # paused would block it. communicate() reads with no limit instead.
    code = (
        "import sys\n"
        "data = sys.stdin.buffer.read()\n"
        "sys.stderr.buffer.write(b'e' * (2 << 20)); sys.stderr.flush()\n"
        "sys.stdout.buffer.write(data[::-1])\n"
    )
    data = os.urandom(2 << 20)

    async def run(m):
        p = await m.create_subprocess_exec(PY, "-c", code, stdin=PIPE, stdout=PIPE, stderr=PIPE,
                                           limit=1024)  # fmt: skip
        out, err = await asyncio.wait_for(p.communicate(data), 60)
        paused = [getattr(p._transport.get_pipe_transport(fd), "_whole", None) for fd in (1, 2)]
        return out == data[::-1], err == b"e" * (2 << 20), p.returncode, paused

    a, b = both(run)
    assert a[:3] == b[:3] == (True, True, 0)
    assert b[3] == [False, False]  # the limit holds again once communicate() is done


def test_a_transport_left_open_closes_its_fd_when_freed(no_leaks):
    # Its loop closed while it still watched the pipe (or it was paused and
    # dropped): freed, it closes the fd with a ResourceWarning, as
    # asyncio's pipe transports do.
    import gc
    import warnings

    r, w = os.pipe()
    loop = asyncio.new_event_loop()
    transport = fa._PipeReadTransport(loop, r, 1024)
    transport.taken()
    loop.close()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        del transport
        gc.collect()
    os.close(w)
    assert [w.category for w in caught] == [ResourceWarning]
    assert "unclosed transport" in str(caught[0].message)
    with pytest.raises(OSError):
        os.fstat(r)
