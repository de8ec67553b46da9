"""``asyncio.create_subprocess_exec`` and ``create_subprocess_shell`` on fastspawn.

The returned object has ``asyncio.subprocess.Process``'s API (``pid``,
``returncode``, ``stdin``/``stdout``/``stderr`` streams, ``wait``,
``communicate``, ``send_signal``, ``terminate``, ``kill``), but:

- the event loop never runs a clone or an exec: it encodes the request and
  hands it to one of fastspawn's spawner threads;
- the exit of a child arrives through io_uring's ``waitid`` (Linux 6.7+,
  fastspawn's exit ring; ``FASTSPAWN_IO_URING=0`` turns it off) or else its
  pidfd: no SIGCHLD handler, no child watcher, no thread per child, and no
  other library's children are reaped by mistake. One waiter thread for the
  process sleeps on the ring and the pidfds of every loop's children and
  reaps each child as it exits; finished
  spawns and reaped exits are queued per loop behind one eventfd, the only
  fd the loop watches (``add_reader``), so they share the loop's wake-ups,
  a spawn costs the loop no selector update, and the loop makes no
  syscall per child.

It works on any loop with ``add_reader`` (the default selector loops,
uvloop). The keywords are those of ``asyncio.create_subprocess_exec`` (the
``subprocess.Popen`` arguments asyncio accepts) plus fastspawn's
``pdeathsig``, ``rlimits``, ``cgroup``, ``fds``, ``require_vfork``,
``contain`` and ``require_contained``. A contained ``Process`` has
``kill_tree(sig)``, an awaitable ``wait_tree()``, ``tree_pids()``,
``freeze()``/``thaw()`` and ``usage()`` (see ``fastspawn.subprocess``).
``preexec_fn`` is refused: it needs a fork, and a fork here would run on a
spawner thread.
"""

import asyncio
import collections
import os
import select
import selectors
import subprocess as _std
import sys
import types
import warnings
import weakref
from asyncio import get_running_loop as _get_running_loop
from asyncio import streams

from . import _fastspawn
from .subprocess import (
    TreeUsage,
    _check_contain,
    _check_extras,
    _check_signal,
    _resolve_ids,
    _start,
)

PIPE = _std.PIPE
STDOUT = _std.STDOUT
DEVNULL = _std.DEVNULL

__all__ = ["create_subprocess_exec", "create_subprocess_shell", "Process", "PIPE", "STDOUT",
           "DEVNULL"]  # fmt: skip

_DEFAULT_LIMIT = 2**16
# asyncio's own connect_read_pipe (its Unix loops'): where a loop has it,
# the outputs' pipes get fastspawn's transport (_PipeReadTransport).
_CONNECT_READ_PIPE = asyncio.BaseEventLoop.connect_read_pipe
_CONNECT_WRITE_PIPE = asyncio.BaseEventLoop.connect_write_pipe
# The keywords besides the streams that the one native call takes.
_STD_KEYS = frozenset(("cwd", "env"))

# Where asyncio changed between the versions the package runs on:
# 3.9's create_subprocess_* take the loop as an argument (deprecated there,
# removed in 3.10); so do this module's on 3.9. From 3.12, communicate()
# closes a piped stdin even without input.
_TAKES_LOOP = sys.version_info < (3, 10)
_COMMUNICATE_CLOSES_STDIN = sys.version_info >= (3, 12)

# asyncio's own loops make a future as Future(loop=loop): called directly,
# without create_future's Python frame (~1.5 µs of each spawn call).
_Future = asyncio.Future
_base_create_future = asyncio.BaseEventLoop.create_future
_base_call_soon = asyncio.BaseEventLoop.call_soon


class _LoopSpawner:
    """The spawner of one event loop: submits requests, makes the ``Process``
    of each finished spawn (its future's result), and hands exits to their
    ``Process``."""

    def __init__(self, loop):
        self._spawner = _fastspawn.Spawner()
        self._pending = {}  # token -> the future of its spawn
        # token -> a weak reference to its Process, until it exits (a strong
        # one would keep the Process, hence the loop, alive from here). A
        # Process is made by the drain that brings its spawn, so an exit
        # that comes in a later drain always finds it here.
        self._processes = {}
        self._flush = self._spawner.flush  # scheduled with call_soon, no frame of ours
        self._plain_futures = type(loop).create_future is _base_create_future
        # On asyncio's own loops a flush is scheduled by appending one
        # Handle, made here, to the loop's ready queue: what call_soon does
        # (its Handle run once, in the next iteration), without its frames
        # and a Handle made per batch (~1.5 µs of the spawn call). The
        # Handle refers to the loop through a weak proxy, so that this object
        # does not keep the loop alive (see below); the queue is looked up
        # on the loop each time, for the same reason. Not in debug mode,
        # where call_soon checks the thread and the callback.
        self._flush_handle = None
        ready = getattr(loop, "_ready", None)
        if type(loop).call_soon is _base_call_soon and type(ready) is collections.deque:
            self._flush_handle = asyncio.Handle(self._flush, (), weakref.proxy(loop))
        # The extension's drain is the reader callback itself, with its
        # arguments: no frame of ours. (The loop, not this object, holds
        # them: this object is the value of a WeakKeyDictionary keyed by
        # the loop, so it must not refer to the loop.)
        deliver = None
        if self._flush_handle is not None:
            deliver = asyncio.Handle(self._spawner.deliver, (), weakref.proxy(loop))
        self._watch(loop, self._spawner.drain, self._pending, self._processes, Process, loop,
                    deliver)  # fmt: skip

    def _watch(self, loop, callback, *args):
        """Makes ``callback(*args)`` the loop's reader of the eventfd (the
        extension's drain, or, in tests and tools, a callback that calls
        ``_drain``). On asyncio's epoll loops the eventfd is watched
        edge-triggered and the drain makes no syscall; elsewhere the drain
        reads it. Whoever registers the reader goes through here, so the
        drain's reading always matches the registration: a fresh
        ``add_reader`` of its own (after ``remove_reader``) would watch it
        level-triggered while the drain no longer reads it, and the loop
        would call it without end."""
        fd = self._spawner.fileno()
        loop.add_reader(fd, callback, *args)
        edge = False
        selector = getattr(loop, "_selector", None)
        if isinstance(selector, selectors.EpollSelector):
            try:
                selector._selector.modify(fd, select.EPOLLIN | select.EPOLLET)
            except (AttributeError, OSError):
                pass
            else:
                edge = True
        self._spawner.edge_triggered(edge)

    # A submitted request waits in the extension for _flush, a callback of
    # its own (call_soon, once per batch), which hands it to the spawner
    # threads: the hand-over's futex wake is then not part of the spawn
    # call's hold of the loop. The extension gives out the tokens: negated
    # when the caller must schedule that _flush.

    def submit(self, loop, start_args):
        return self.queued(loop, _start(self._spawner.submit, *start_args))

    def queued(self, loop, token):
        """The token (as the extension gave it, not 0) and future of a
        request just queued; schedules the _flush it asks for."""
        if token < 0:
            token = -token
            if self._flush_handle is not None and not loop._debug:
                loop._ready.append(self._flush_handle)
            else:
                loop.call_soon(self._flush)
        if self._plain_futures:
            future = _Future(loop=loop)
        else:
            future = loop.create_future()
        self._pending[token] = future
        return token, future

    def cancel(self, token, future):
        """The caller stopped waiting for ``future``: its child, if it gets
        one, is killed and reaped."""
        self._pending.pop(token, None)
        if future.done() and not future.cancelled() and future.exception() is None:
            process = future.result()
            self._processes.pop(token, None)
            if process.returncode is None:
                _abandon(process._child)
        else:
            self._spawner.cancel(token)

    def _drain(self, loop):
        """What the loop's reader callback does (for tests and tools, which
        may register it in place of the extension's drain): the extension
        makes each finished spawn's Process and resolves its future, and
        hands each exit to its Process (see Spawner.drain)."""
        self._spawner.drain(self._pending, self._processes, Process, loop, None)


_spawners = weakref.WeakKeyDictionary()
# The last loop asked for and its spawner, by weak references: a lookup in
# _spawners costs ~1.5 µs of the spawn call, these two calls ~0.2.
_last = (lambda: None, lambda: None)


def _spawner(loop):
    global _last
    last_loop, last_spawner = _last
    if last_loop() is loop:
        spawner = last_spawner()
        if spawner is not None:
            return spawner
    spawner = _spawners.get(loop)
    if spawner is None:
        spawner = _spawners[loop] = _LoopSpawner(loop)
    _last = (weakref.ref(loop), weakref.ref(spawner))
    return spawner


def _abandon(child):
    """Kills a child nobody will own, and reaps it (a killed child exits at
    once: this rare path may block the loop that long)."""
    try:
        child.send_signal(9)
        child.wait(5.0)
    except OSError:
        pass


# The pipes' protocols reach their Process through a weak reference: the
# Process holds its streams, which hold the protocols, and a strong
# reference back would make a cycle.


class _TellsProcess:
    """Tells the Process when its pipe is lost (mixed in before the
    protocol class, whose ``__init__`` and ``connection_lost`` run first).
    ``process`` may be None, for a pipe connected before its spawn has
    finished: ``_process`` is set when the Process is made."""

    def __init__(self, process, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._process = None if process is None else weakref.ref(process)

    def connection_lost(self, exc):
        super().connection_lost(exc)
        process = self._process and self._process()
        if process is not None:
            process._pipe_closed()


class _PipeReadTransport(asyncio.ReadTransport):
    """The read end of a child's stdout or stderr pipe, feeding its
    ``StreamReader`` (``Process.stdout``/``stderr``) straight from the
    loop's reader callback: what asyncio's pipe transport and its
    ``StreamReaderProtocol`` do, without their three callbacks scheduled
    at connection and one at close (each costs the loop more than the read
    itself), and without a coroutine to await. It watches the fd from the
    moment it is made (before the spawn has finished: the end of the pipe
    comes only once the child has run and exited), and closes it at the
    pipe's end, on a read error, or on ``close()``. Flow control is the
    ``StreamReader``'s: it pauses and resumes reading past its limit."""

    max_size = 256 * 1024  # at most this many bytes per read, as asyncio's

    def __init__(self, loop, fd, limit):
        super().__init__()
        self._loop = loop
        self._fd = fd
        self._closing = False
        self._paused = False
        self._whole = False  # see read_whole
        self._process = None  # a weak reference, once the Process exists
        self._file = None
        os.set_blocking(fd, False)
        reader = streams.StreamReader(limit=limit, loop=loop)
        reader.set_transport(self)
        # The reader holds this transport (for its flow control); this
        # holds the reader weakly, so that a finished Process, its streams
        # and their transports are freed without the cyclic collector.
        # Strongly only until the Process takes it (taken()).
        self._reader = weakref.ref(reader)
        self._keep = reader
        loop.add_reader(fd, self._read_ready)

    def _read_ready(self):
        try:
            data = os.read(self._fd, self.max_size)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as exc:
            self._close(exc)
            return
        if data:
            reader = self._reader()
            if reader is not None:
                reader.feed_data(data)
            # else nobody can read it any more: drained to the pipe's end
            # and dropped, as asyncio's unreachable reader would keep it.
        else:
            self._close(None)

    def taken(self):
        """The StreamReader, for the Process that keeps it from now on."""
        reader, self._keep = self._keep, None
        return reader

    def _close(self, exc):
        if self._closing:
            return
        self._closing = True
        if not self._paused:
            self._loop.remove_reader(self._fd)
        os.close(self._fd)
        reader = self._reader()
        if reader is not None:
            if exc is None:
                reader.feed_eof()
            else:
                reader.set_exception(exc)
        process = self._process and self._process()
        if process is not None:
            process._pipe_closed()

    def close(self):
        self._close(None)

    def is_closing(self):
        return self._closing

    def is_reading(self):
        return not self._paused and not self._closing

    def pause_reading(self):
        if self.is_reading() and not self._whole:
            self._paused = True
            self._loop.remove_reader(self._fd)

    def read_whole(self, whole):
        """While ``whole``, the stream's limit pauses nothing: everything
        is read as it comes (``communicate()``, which keeps all of it
        anyway, so that it can read its streams one after the other)."""
        self._whole = whole
        if whole:
            self.resume_reading()

    def resume_reading(self):
        if self._paused and not self._closing:
            self._paused = False
            self._loop.add_reader(self._fd, self._read_ready)

    def get_extra_info(self, name, default=None):
        if name == "pipe":
            # asyncio's transport has the pipe's file object: made on
            # demand, not owning the fd (the transport closes it).
            if self._file is None and not self._closing:
                self._file = os.fdopen(self._fd, "rb", 0, closefd=False)
            return self._file if self._file is not None else default
        return super().get_extra_info(name, default)

    def __del__(self, _warn=warnings.warn, _close=os.close):
        # As asyncio's pipe transports: one left open (its loop closed
        # while it was watched, or it was paused and dropped) closes its fd.
        if not self._closing:
            self._closing = True
            _warn(f"unclosed transport {self!r}", ResourceWarning, source=self)
            _close(self._fd)

    def set_protocol(self, protocol):
        raise NotImplementedError("fastspawn's pipe transport feeds its StreamReader directly")

    def get_protocol(self):
        return None

    def __repr__(self):
        state = "closed" if self._closing else "idle" if self._paused else "polling"
        return f"<{self.__class__.__name__} fd={self._fd} {state}>"


class _PipeReader(_TellsProcess, streams.StreamReaderProtocol):
    def __init__(self, reader, loop, process):
        super().__init__(process, reader, loop=loop)


class _PipeWriter(_TellsProcess, streams.FlowControlMixin):
    """The protocol of a child's stdin pipe, with what ``StreamWriter``
    asks of it: flow control (``drain()``) and, for ``wait_closed()``, a
    future resolved when the pipe is lost (made when first asked for)."""

    _lost = None  # connection_lost's exception, or True once lost without one
    _closed = None

    def __init__(self, loop, process):
        super().__init__(process, loop=loop)

    def connection_lost(self, exc):
        super().connection_lost(exc)
        self._lost = True if exc is None else exc
        if self._closed is not None and not self._closed.done():
            self._tell_closed()

    def _tell_closed(self):
        if self._lost is True:
            self._closed.set_result(None)
        else:
            self._closed.set_exception(self._lost)
            self._closed._log_traceback = False  # as asyncio's: not an unretrieved error

    def _get_close_waiter(self, stream):
        if self._closed is None:
            self._closed = self._loop.create_future()
            if self._lost is not None:
                self._tell_closed()
        return self._closed


class _Transport:
    """The few methods of asyncio's subprocess transport that code reaches
    through ``Process._transport`` (asyncio's own tests do)."""

    def __init__(self, process):
        self._process = process

    def get_pid(self):
        return self._process.pid

    def get_returncode(self):
        return self._process.returncode

    def get_pipe_transport(self, fd):
        return self._process._transports.get(fd)


class Process:
    """A child started by ``create_subprocess_exec``/``_shell``, with
    ``asyncio.subprocess.Process``'s API, plus ``pidfd`` and ``engine``."""

    # The extension's drain makes each Process and sets its slots (its
    # _waiters to (); pidfd and engine are read from _child when asked). A
    # Process of the common call (no pipe) gets no dict of its own: the rest
    # are defaults for the instances (immutable values only), and __dict__
    # is made on the first attribute set outside them.
    __slots__ = ("_child", "pid", "_loop", "returncode", "_waiters", "__dict__", "__weakref__")
    stdin = stdout = stderr = None
    _pipes_open = 0
    _transports = types.MappingProxyType({})

    @property
    def pidfd(self):
        """The child's pidfd (owned by the ``Process``, made on first use
        for a child watched on the exit ring; None without pidfds, or once
        the child was reaped without one)."""
        return self._child.pidfd

    @property
    def engine(self):
        """Which engine made the child: ``"clone3"``, ``"clone-vfork"``,
        ``"posix-spawn"`` or ``"fork"``."""
        return self._child.engine

    def _watch_on_thread(self):
        # No pidfds (Linux < 5.3): a thread of the default executor waits.
        waiting = self._loop.run_in_executor(None, self._child.wait)
        waiting.add_done_callback(lambda _: self._check_exit())

    def __repr__(self):
        return f"<{self.__class__.__name__} {self.pid}>"

    @property
    def _transport(self):
        # Made on access, not kept: a kept one would make a reference cycle
        # (Process <-> _Transport) that only the cyclic garbage collector
        # frees, in one pause of the loop per few dozen spawns.
        return _Transport(self)

    def _check_exit(self):
        """Reaps the child if it has exited (the waiter thread does it
        too; both see the same status)."""
        try:
            status = self._child.poll()
        except ChildProcessError:
            # Something else in the process reaped it (a waitpid(-1) loop,
            # one of asyncio's child watchers): its status is lost. asyncio
            # reports 255 then.
            status = 255 << 8
        if status is not None:
            self._exited(status)

    def _exited(self, status):
        if self.returncode is not None:
            return
        self.returncode = os.waitstatus_to_exitcode(status)
        waiters, self._waiters = self._waiters, ()
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(self.returncode)

    def _pipe_closed(self):
        self._pipes_open -= 1

    def _attach(self, readers, writer):
        """Makes the read transports of the child's stdout and stderr
        (``{1: transport, 2: transport}``) and the transport and protocol
        of its stdin (``writer``, or None), made before the spawn finished,
        this Process's."""
        self._transports = {}
        if writer is not None:
            transport, protocol = writer
            protocol._process = weakref.ref(self)
            if protocol._lost is None:
                self._pipes_open += 1
            self._transports[0] = transport
            self.stdin = streams.StreamWriter(transport, protocol, None, self._loop)
        for fd, transport in readers.items():
            transport._process = weakref.ref(self)
            if not transport._closing:
                self._pipes_open += 1
            self._transports[fd] = transport
            if fd == 1:
                self.stdout = transport.taken()
            else:
                self.stderr = transport.taken()

    async def _connect_outputs(self, limit, loose):
        """Connects the outputs' ends in ``loose`` (``{1: fd, 2: fd}``)
        through the loop's own ``connect_read_pipe``: for a loop that has
        its own (uvloop's), or one replaced on the loop object (asyncio's
        tests put a mock there). Each end leaves ``loose`` once a file
        object owns it."""
        loop = self._loop
        for fd, end in list(loose.items()):
            reader = streams.StreamReader(limit=limit, loop=loop)
            file = os.fdopen(end, "rb", 0)
            del loose[fd]
            try:
                transport, _ = await loop.connect_read_pipe(
                    lambda r=reader: _PipeReader(r, loop, self), file
                )
            except BaseException:
                file.close()
                raise
            self._pipes_open += 1
            self._transports[fd] = transport
            if fd == 1:
                self.stdout = reader
            else:
                self.stderr = reader

    async def _connect_stdin(self, stdin):
        loop = self._loop
        file = os.fdopen(stdin, "wb", 0)  # which owns the fd from here
        try:
            transport, protocol = await loop.connect_write_pipe(
                lambda: _PipeWriter(loop, self), file
            )
        except BaseException:
            file.close()
            raise
        self._pipes_open += 1
        self._transports[0] = transport
        self.stdin = streams.StreamWriter(transport, protocol, None, loop)

    async def wait(self):
        """Waits for the child to exit; returns its return code."""
        if self.returncode is not None:
            return self.returncode
        waiter = self._loop.create_future()
        if self._waiters:
            self._waiters.append(waiter)
        else:
            self._waiters = [waiter]
        return await waiter

    def _check_alive(self):
        # asyncio raises ProcessLookupError once the child has exited and
        # its pipes are closed (its transport is then closed).
        if self.returncode is not None and self._pipes_open <= 0:
            raise ProcessLookupError()

    def send_signal(self, sig):
        """Sends ``sig`` through the pidfd."""
        self._check_alive()
        if self.returncode is None:
            self._check_exit()
        if self.returncode is None:
            self._child.send_signal(sig)

    def terminate(self):
        self.send_signal(15)

    def kill(self):
        self.send_signal(9)

    # Process trees (contain=True): thin calls into fastspawn's core.

    def _tree(self, what):
        if self._child.containment is None:
            raise ValueError(f"{what}: process {self.pid} was not started with contain=True")
        return self._child

    @property
    def containment(self):
        """``"cgroup"``, ``"session"`` (the fallback) or None."""
        return self._child.containment

    def kill_tree(self, sig=9):
        """Sends ``sig`` (SIGKILL by default) to every process of the tree."""
        self._tree("kill_tree").kill_tree(_check_signal(sig, "kill_tree"))

    async def wait_tree(self):
        """Waits until every process of the tree has exited; returns the
        child's return code. The wait runs on the loop's default executor
        (one thread sleeping on ``cgroup.events``); cancelling this
        coroutine leaves that thread until the tree is empty."""
        child = self._tree("wait_tree")
        await self._loop.run_in_executor(None, child.wait_tree_empty)
        return await self.wait()

    def tree_pids(self):
        """The pids of the tree's live processes, sorted."""
        return self._tree("tree_pids").tree_pids()

    def freeze(self):
        """Freezes the tree (blocks the loop until the kernel reports it frozen)."""
        self._tree("freeze").freeze()

    def thaw(self):
        """Lets a frozen tree run again."""
        self._tree("thaw").thaw()

    def usage(self):
        """The tree's ``TreeUsage``."""
        return TreeUsage(*self._tree("usage").usage())

    async def _feed_stdin(self, input):
        try:
            if input is not None:
                self.stdin.write(input)
            await self.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            pass  # as asyncio: communicate() ignores a child that stopped reading
        self.stdin.close()

    async def _noop(self):
        return None

    async def _read_stream(self, fd):
        stream = self.stdout if fd == 1 else self.stderr
        output = await stream.read()
        self._transports[fd].close()
        return output

    async def communicate(self, input=None):
        """Sends ``input``, reads stdout and stderr to their ends, waits.
        As asyncio's: from Python 3.12 a piped stdin is closed even without
        ``input`` (and ``input`` without one is ignored); before 3.12 it is
        left open then."""
        if _COMMUNICATE_CLOSES_STDIN:
            feed = self.stdin is not None
        else:
            feed = input is not None
        outputs = [t for t in (self._transports.get(1), self._transports.get(2)) if t is not None]
        if all(type(t) is _PipeReadTransport for t in outputs):
            # The package's transports read the outputs as they come, with
            # no limit while this runs: the child never waits for its
            # outputs to be read, so the input can be written first and
            # the outputs read one after the other, in this task (each
            # task of asyncio's gather costs the loop more than a pipe's
            # whole read).
            for transport in outputs:
                transport.read_whole(True)
            try:
                if feed:
                    await self._feed_stdin(input)
                stdout = await self._read_stream(1) if self.stdout is not None else None
                stderr = await self._read_stream(2) if self.stderr is not None else None
            finally:
                for transport in outputs:
                    transport.read_whole(False)
            await self.wait()
            return (stdout, stderr)
        # Outputs on the loop's own transports: at once, in tasks (gather's)
        # when there is more than one (asyncio's gather always makes three).
        steps = []
        if feed:
            steps.append(self._feed_stdin(input))
        if self.stdout is not None:
            steps.append(self._read_stream(1))
        if self.stderr is not None:
            steps.append(self._read_stream(2))
        if len(steps) == 1:
            results = [await steps[0]]
        elif steps:
            results = await asyncio.gather(*steps)
        stdout = results[feed] if self.stdout is not None else None
        stderr = results[-1] if self.stderr is not None else None
        await self.wait()
        return (stdout, stderr)


def _fileno(obj):
    return obj if isinstance(obj, int) else obj.fileno()


# _start's arguments past args and shell for a call with no keywords and
# inherited stdio (what the slow path below computes for that call).
_DEFAULTS = (None, None, (-1, -1, -1), (), True, False, None, None, None, None, -1, True,
             (None, [], None, [], False, (False, False)))  # fmt: skip


def _given_loop(kwds):
    """On 3.9, the ``loop=`` argument (with asyncio's DeprecationWarning),
    else None."""
    loop = kwds.pop("loop", None) if _TAKES_LOOP else None
    if loop is not None:
        warnings.warn(
            "The loop argument is deprecated since Python 3.8 and scheduled for removal in "
            "Python 3.10.",
            DeprecationWarning,
            stacklevel=3,
        )
    return loop


async def _create(args, shell, stdin, stdout, stderr, limit, kwds, loop=None):
    if loop is None:
        loop = asyncio.get_running_loop()
    if not kwds and stdin is None and stdout is None and stderr is None:
        # The common call: no argument to check, no pipe to make or connect.
        spawner = _spawner(loop)
        token, future = spawner.submit(loop, (args, None, shell, *_DEFAULTS))
        try:
            return await future
        except BaseException:
            spawner.cancel(token, future)
            raise
    if _STD_KEYS.issuperset(kwds):
        # The streams among None, PIPE, DEVNULL and STDOUT, cwd and env:
        # the pipes, the checks and the request made in one native call.
        spawner = _spawner(loop)
        made = spawner._spawner.submit_std(
            args, stdin=stdin, stdout=stdout, stderr=stderr, shell=shell, **kwds
        )
        if made is not None:
            token, *ends = made
            try:
                token, future = spawner.queued(loop, token)
            except BaseException:
                spawner._spawner.cancel(abs(token))
                for fd in ends:
                    if fd != -1:
                        os.close(fd)
                raise
            return await _connected(loop, spawner, token, future, limit, *ends)
    for name, wrong in (("universal_newlines", lambda v: v), ("text", lambda v: v),
                        ("encoding", lambda v: v is not None),
                        ("errors", lambda v: v is not None)):  # fmt: skip
        if wrong(kwds.pop(name, None)):
            raise ValueError(
                f"{name} must be {'None' if name in ('encoding', 'errors') else 'False'}"
            )
    if kwds.pop("bufsize", 0) != 0:
        raise ValueError("bufsize must be 0")
    if kwds.pop("preexec_fn", None) is not None:
        raise ValueError("fastspawn.asyncio does not run preexec_fn (it needs a fork)")
    executable = kwds.pop("executable", None)
    close_fds = kwds.pop("close_fds", True)
    pass_fds = kwds.pop("pass_fds", ())
    if pass_fds:
        close_fds = True
    cwd = kwds.pop("cwd", None)
    env = kwds.pop("env", None)
    restore_signals = kwds.pop("restore_signals", True)
    start_new_session = kwds.pop("start_new_session", False)
    process_group = kwds.pop("process_group", None)
    umask = kwds.pop("umask", -1)
    uid, gid, gids = _resolve_ids(kwds.pop("user", None), kwds.pop("group", None),
                                  kwds.pop("extra_groups", None))  # fmt: skip
    extras = _check_extras(kwds.pop("pdeathsig", None), kwds.pop("rlimits", None),
                           kwds.pop("cgroup", None), kwds.pop("fds", None))  # fmt: skip
    contained = _check_contain(kwds.pop("contain", False), kwds.pop("require_contained", False))
    extras = (*extras, bool(kwds.pop("require_vfork", False)), contained)
    for name in ("startupinfo", "creationflags", "pipesize"):
        kwds.pop(name, None)
    if kwds:
        name = next(iter(kwds))
        raise TypeError(f"create_subprocess_exec() got an unexpected keyword argument {name!r}")

    parent_ends = []  # closed if the spawn fails
    child_ends = []  # always closed once the request is submitted
    devnull = None

    def end(spec, fd):
        nonlocal devnull
        if spec is None:
            return -1
        if spec == PIPE:
            r, w = os.pipe()
            parent, child = (w, r) if fd == 0 else (r, w)
            parent_ends.append(parent)
            child_ends.append(child)
            return child
        if spec == DEVNULL:
            if devnull is None:
                devnull = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
                child_ends.append(devnull)
            return devnull
        return _fileno(spec)

    try:
        child_in = end(stdin, 0)
        child_out = end(stdout, 1)
        if stderr == STDOUT:
            child_err = child_out if child_out != -1 else 1
        else:
            child_err = end(stderr, 2)
        start_args = (
            args, executable, shell, cwd, env, (child_in, child_out, child_err), pass_fds,
            close_fds, start_new_session, process_group, uid, gid, gids, umask,
            restore_signals, extras,
        )  # fmt: skip
        spawner = _spawner(loop)
        token, future = spawner.submit(loop, start_args)
    except BaseException:
        for fd in parent_ends:
            os.close(fd)
        raise
    finally:
        for fd in child_ends:
            os.close(fd)

    ends = iter(parent_ends)
    parent_in = next(ends) if stdin == PIPE else -1
    parent_out = next(ends) if stdout == PIPE else -1
    parent_err = next(ends) if stderr == PIPE else -1
    return await _connected(loop, spawner, token, future, limit, parent_in, parent_out, parent_err)


async def _connected(loop, spawner, token, future, limit, stdin, stdout, stderr):
    """Waits for the spawn of ``token`` (its ``future``) and connects the
    parent's ends of the child's pipes (-1: not piped), which it owns, to
    the ``Process``: its output streams at once (see
    ``_PipeReadTransport``), its input once the child runs."""
    # The outputs' transports (each owning its end once made), or, for a
    # loop with pipe transports of its own, their ends (``loose``: the
    # loop connects them once the Process exists); stdin's transport and
    # protocol, made at once where the loop's connect_write_pipe is
    # asyncio's (whose coroutine and waiter would cost another step).
    readers = {}
    loose = {}
    writer = None
    own_pipes = (stdout != -1 or stderr != -1) and getattr(
        loop.connect_read_pipe, "__func__", None
    ) is _CONNECT_READ_PIPE
    own_write = (
        stdin != -1
        and getattr(loop.connect_write_pipe, "__func__", None) is _CONNECT_WRITE_PIPE
        and hasattr(loop, "_make_write_pipe_transport")
    )
    try:
        if own_write:
            protocol = _PipeWriter(loop, None)
            file = os.fdopen(stdin, "wb", 0)
            stdin = -1  # file's now
            try:
                transport = loop._make_write_pipe_transport(file, protocol)
            except BaseException:
                file.close()
                raise
            writer = (transport, protocol)
        for fd, end in ((1, stdout), (2, stderr)):
            if end == -1:
                continue
            if own_pipes:
                readers[fd] = _PipeReadTransport(loop, end, limit)
            else:
                loose[fd] = end
        process = await future
    except BaseException:
        if writer is not None:
            writer[0].close()
        for transport in readers.values():
            transport.close()
            transport.taken()  # dropped: no cycle left with its reader
        for fd, end in ((1, stdout), (2, stderr)):
            if end != -1 and fd not in readers:
                os.close(end)
        if stdin != -1:
            os.close(stdin)
        spawner.cancel(token, future)
        raise
    process._attach(readers, writer)
    try:
        if loose:
            await process._connect_outputs(limit, loose)
        if stdin != -1:
            end, stdin = stdin, -1
            await process._connect_stdin(end)  # which owns it (and closes it on failure)
    except BaseException:
        for end in (stdin, *loose.values()):
            if end != -1:
                os.close(end)
        process.kill()
        raise
    return process


async def create_subprocess_exec(program, *args, stdin=None, stdout=None, stderr=None,
                                 limit=_DEFAULT_LIMIT, **kwds):  # fmt: skip
    """``asyncio.create_subprocess_exec``, spawned by fastspawn."""
    if not kwds and stdin is None and stdout is None and stderr is None:
        # The common call, here rather than in _create: one coroutine less.
        loop = _get_running_loop()
        spawner = _spawner(loop)
        token = spawner._spawner.submit_args((program, *args))
        if token:
            token, future = spawner.queued(loop, token)
            try:
                return await future
            except BaseException:
                spawner.cancel(token, future)
                raise
    loop = _given_loop(kwds)
    if kwds.get("shell"):
        raise ValueError("shell must be False")
    kwds.pop("shell", None)
    return await _create((program, *args), False, stdin, stdout, stderr, limit, kwds, loop)


async def create_subprocess_shell(cmd, stdin=None, stdout=None, stderr=None,
                                  limit=_DEFAULT_LIMIT, **kwds):  # fmt: skip
    """``asyncio.create_subprocess_shell``, spawned by fastspawn."""
    if not isinstance(cmd, (bytes, str)):
        raise ValueError("cmd must be a string")
    loop = _given_loop(kwds)
    if kwds.pop("shell", True) is not True:
        raise ValueError("shell must be True")
    return await _create(cmd, True, stdin, stdout, stderr, limit, kwds, loop)
