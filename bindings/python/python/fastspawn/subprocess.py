"""The standard library's ``subprocess``, with every child started by fastspawn.

``import fastspawn.subprocess as subprocess`` keeps a program's behaviour:
the names, arguments, return values and exceptions are the standard
library's (the exceptions and ``CompletedProcess`` *are* its classes, and
``Popen`` is a subclass of its ``Popen``), but the child is created with
``clone3(CLONE_VM|CLONE_VFORK)`` with the GIL released, also when ``user=``,
``group=`` or ``extra_groups=`` is given (CPython forks for those), and
waits with a timeout sleep on the child's pidfd instead of polling.

What ``preexec_fn`` is mostly used for has a keyword of its own that stays
on the vfork path:

- ``pdeathsig=signal.SIGTERM``: the child gets the signal when this process
  exits (the spawn runs on a fastspawn spawner thread, which lives as long
  as the process, so it is not the exit of the calling thread that counts);
- ``rlimits={resource.RLIMIT_NOFILE: (soft, hard)}`` (or a single limit for
  both);
- ``cgroup="/sys/fs/cgroup/job"`` (a cgroup2 directory, or an fd open on
  one): the child starts inside it;
- ``fds={3: some_file, 4: 7}``: the child's fd 3 and 4 are the given file
  objects or fds; any mapping works, swaps included;
- ``require_vfork=True``: refuse to fork (a ``preexec_fn``).

Process trees: ``contain=True`` starts the child in a cgroup v2 of its own
(made by fastspawn under this process's cgroup, the child placed there by
``CLONE_INTO_CGROUP``), so everything it starts, daemons that called
``setsid()`` included, can be signalled, waited for, frozen and measured:
``p.kill_tree(sig=signal.SIGKILL)``, ``p.wait_tree(timeout=None)``,
``p.tree_pids()``, ``p.freeze()``/``p.thaw()``, ``p.usage()`` (a
``TreeUsage``). Where no cgroup v2 is writable, the child gets a new session
with this process as child subreaper instead (``p.containment`` says which;
freeze, thaw and usage need the cgroup); ``require_contained=True`` makes
that an error. The cgroup is removed once the tree is empty and the
``Popen`` is gone.

``preexec_fn`` itself still works, through the standard library's own fork
path, as before. ``Popen.engine`` says how the child was made (``"clone3"``,
``"fork"``...), and ``Popen.pidfd`` is the child's pidfd (``None`` on the
fork path), made on first use and valid while the ``Popen`` lives.
"""

import codecs as _codecs
import collections
import io
import math as _math
import os
import signal as _signal
import subprocess as _std
import sys
import threading as _threading
from subprocess import (
    DEVNULL,
    PIPE,
    STDOUT,
    CalledProcessError,
    CompletedProcess,
    SubprocessError,
    TimeoutExpired,
)

from . import _fastspawn

__all__ = [
    "Popen",
    "PIPE",
    "STDOUT",
    "call",
    "check_call",
    "getstatusoutput",
    "getoutput",
    "check_output",
    "run",
    "CalledProcessError",
    "DEVNULL",
    "SubprocessError",
    "TimeoutExpired",
    "CompletedProcess",
]

#: What a contained tree used (``Popen.usage()``): CPU times in seconds
#: (``cpu.stat``; every process that ever ran in the tree counts), and,
#: where the cgroup's memory and pids controllers are enabled, bytes and
#: process counts (else None).
TreeUsage = collections.namedtuple(
    "TreeUsage",
    "cpu user system memory_peak memory_current pids_current pids_peak",
)

_HAS_PROCESS_GROUP = sys.version_info >= (3, 11)
_SHELL = "/bin/sh"


def _fsencode(value, what):
    """``os.fsencode`` with CPython's checks: a TypeError for other types and
    a ValueError for an embedded NUL byte."""
    encoded = os.fsencode(value)
    if b"\0" in encoded:
        raise ValueError(f"embedded null byte in {what}")
    return encoded


_ID_MAX = 2**32 - 2  # (uid_t)-1 means "unchanged" to the kernel


def _check_id(value, what, too_big=OverflowError):
    """CPython's errors for ids: ValueError below 0, OverflowError above
    uid_t (ValueError for extra_groups)."""
    if value is None:
        return
    if value < 0:
        raise ValueError(f"{what} {value} is negative")
    if value > _ID_MAX:
        raise too_big(f"{what} {value} is too large for an id")


def _fileno(obj, what):
    if isinstance(obj, bool):
        raise TypeError(f"{what}: expected an fd or an object with fileno(), not bool")
    if isinstance(obj, int):
        return obj
    fileno = getattr(obj, "fileno", None)
    if fileno is None:
        raise TypeError(
            f"{what}: expected an fd or an object with fileno(), not {type(obj).__name__}"
        )
    return fileno()


def _check_contain(contain, require_contained):
    """Checks ``contain`` and ``require_contained`` (the latter implies the
    former); returns them as the ``(contain, require_contained)`` pair
    ``_start`` expects."""
    for name, value in (("contain", contain), ("require_contained", require_contained)):
        if not isinstance(value, (bool, int)):
            raise TypeError(f"{name} must be a bool, not {type(value).__name__}")
    return bool(contain or require_contained), bool(require_contained)


def _check_signal(sig, what):
    if isinstance(sig, bool) or not isinstance(sig, int):
        raise TypeError(f"{what}: the signal must be an int, not {type(sig).__name__}")
    if not 1 <= int(sig) <= 64:
        raise ValueError(f"{what}: {int(sig)} is not a signal number")
    return int(sig)


def _check_extras(pdeathsig, rlimits, cgroup, fds):
    """Checks fastspawn's own keywords; returns them normalised."""
    if pdeathsig is not None:
        if isinstance(pdeathsig, bool) or not isinstance(pdeathsig, int):
            raise TypeError(f"pdeathsig must be a signal number, not {type(pdeathsig).__name__}")
        if not 1 <= int(pdeathsig) <= 64:
            raise ValueError(f"pdeathsig: {int(pdeathsig)} is not a signal number")
        pdeathsig = int(pdeathsig)
    limits = []
    if rlimits:
        items = rlimits.items() if hasattr(rlimits, "items") else rlimits
        for entry in items:
            res, value = entry
            if isinstance(value, int):
                soft = hard = value
            elif isinstance(value, (tuple, list)) and len(value) == 2:
                soft, hard = value
            else:
                raise TypeError(f"rlimits: expected a limit or (soft, hard), got {value!r}")
            for number in (res, soft, hard):
                if isinstance(number, bool) or not isinstance(number, int):
                    raise TypeError(f"rlimits: expected ints, got {entry!r}")
            # Negative means infinity (resource.RLIM_INFINITY is -1).
            if (hard >= 0 and soft < 0) or (0 <= hard < soft):
                raise ValueError(f"rlimits: soft limit {soft} is above the hard limit {hard}")
            limits.append((int(res), int(soft), int(hard)))
    mapping = []
    if fds:
        if not hasattr(fds, "items"):
            raise TypeError(f"fds must be a mapping of child fd to fd, not {type(fds).__name__}")
        for child_fd, parent in fds.items():
            if isinstance(child_fd, bool) or not isinstance(child_fd, int):
                raise TypeError(f"fds: child fd {child_fd!r} is not an int")
            if child_fd < 0:
                raise ValueError(f"fds: child fd {child_fd} is negative")
            mapping.append((child_fd, _fileno(parent, f"fds[{child_fd}]")))
    if cgroup is not None and not isinstance(cgroup, int):
        cgroup = os.fspath(cgroup)
    return pdeathsig, limits, cgroup, mapping


def _start(
    start, args, executable, shell, cwd, env, stdio, pass_fds, close_fds,
    start_new_session, process_group, uid, gid, gids, umask, restore_signals, extras,
):  # fmt: skip
    """Checks and encodes a spawn as CPython's ``_execute_child`` would, and
    hands the request to ``start`` (``_fastspawn.spawn``, or a ``Spawner``'s
    ``submit``). ``stdio`` is the fds of the child's stdin, stdout and
    stderr (-1: inherit); ``extras`` comes from ``_check_extras``."""
    if isinstance(args, (str, bytes)):
        args = [args]
    elif isinstance(args, os.PathLike):
        if shell:
            raise TypeError("path-like args is not allowed when shell is true")
        args = [args]
    else:
        args = list(args)
    if shell:
        args = [_SHELL, "-c", *args]
        if executable:
            args[0] = executable
    if executable is None:
        executable = args[0]
    sys.audit("subprocess.Popen", executable, args, cwd, env)

    argv = [_fsencode(arg, "args") for arg in args]
    env_list = None
    if env is not None:
        env_list = []
        for key, value in env.items():
            key = _fsencode(key, "env")
            if b"=" in key:
                raise ValueError("illegal environment variable name")
            env_list.append((key, _fsencode(value, "env")))
    exe = _fsencode(executable, "executable")
    cwd_bytes = None if cwd is None else _fsencode(cwd, "cwd")
    pdeathsig, rlimits, cgroup, fds, require_vfork, contain = extras
    mapped = [(fd, fd) for fd in sorted(map(int, pass_fds))]
    taken = {child for child, _ in fds}
    mapped = [m for m in mapped if m[0] not in taken] + fds
    _check_id(uid, "user")
    _check_id(gid, "group")
    for group in gids or ():
        _check_id(group, "extra_groups: group", ValueError)
    if gids is None and uid is not None and os.geteuid() == 0:
        # CPython leaves the supplementary groups alone when only user= is
        # given; fastspawn would drop them, so it is told to keep them.
        gids = os.getgroups()
    cgroup_fd, own_cgroup = cgroup, False
    if cgroup is not None and not isinstance(cgroup, int):
        cgroup_fd = os.open(cgroup, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        own_cgroup = True
    options = (
        bool(start_new_session),
        None if process_group is None or process_group < 0 else process_group,
        uid,
        gid,
        None if gids is None else list(gids),
        None if umask is None or umask < 0 else umask,
        bool(restore_signals),
        pdeathsig,
        rlimits,
        cgroup_fd,
        require_vfork,
        contain,
    )
    try:
        return start(
            (
                exe,
                argv,
                env_list,
                cwd_bytes,
                stdio,
                mapped,
                bool(close_fds),
                options,
                executable,
                cwd,
            )
        )
    finally:
        if own_cgroup:
            os.close(cgroup_fd)


def _resolve_ids(user, group, extra_groups):
    """user=, group= and extra_groups= as CPython's Popen resolves them:
    names through pwd and grp, ints as they are."""
    uid = gid = gids = None
    if extra_groups is not None:
        import grp

        gids = []
        for g in extra_groups:
            if isinstance(g, str):
                try:
                    gids.append(grp.getgrnam(g).gr_gid)
                except KeyError:
                    raise ValueError(f"Group {g!r} not found.") from None
            elif isinstance(g, int):
                gids.append(g)
            else:
                raise TypeError(f"Items in extra_groups must be a str or int, not {type(g)}")
    if group is not None:
        import grp

        if isinstance(group, str):
            gid = grp.getgrnam(group).gr_gid
        elif isinstance(group, int):
            gid = group
        else:
            raise TypeError(f"Group must be a string or an integer, not {type(group)}")
    if user is not None:
        import pwd

        if isinstance(user, str):
            uid = pwd.getpwnam(user).pw_uid
        elif isinstance(user, int):
            uid = user
        else:
            raise TypeError("User must be a string or an integer")
    return uid, gid, gids


class Popen(_std.Popen):
    """``subprocess.Popen``, started by fastspawn.

    Takes every argument of the standard library's ``Popen`` and, as
    keywords, ``pdeathsig``, ``rlimits``, ``cgroup``, ``fds``,
    ``require_vfork``, ``contain`` and ``require_contained`` (see the
    module's documentation).
    """

    #: How the child was created: "clone3", "clone-vfork", "posix-spawn" or "fork".
    engine = None
    _fs_child = None
    # Whether __init__ may skip _get_handles and _execute_child (its native
    # paths): not for a subclass that overrides either, which expects them
    # called (CPython's tests make one raise).
    _fs_plain = True

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._fs_plain = (
            cls._execute_child is Popen._execute_child
            and cls._get_handles is _std.Popen._get_handles
        )

    @property
    def pidfd(self):
        """The child's pidfd (an int owned by this object, valid while it
        lives), made on first use: None on the fork path, on kernels
        without pidfds, or when the child was reaped before one was made."""
        child = self._fs_child
        return None if child is None else child.pidfd

    def __init__(
        self,
        args,
        *positional,
        pdeathsig=None,
        rlimits=None,
        cgroup=None,
        fds=None,
        require_vfork=False,
        contain=False,
        require_contained=False,
        **kwargs,
    ):
        if (
            not kwargs
            and not positional
            and _FAST_INIT is not None
            and self._fs_plain
            and pdeathsig is None
            and rlimits is None
            and cgroup is None
            and fds is None
            and require_vfork is False
            and contain is False
            and require_contained is False
        ):
            # Popen(args) alone: the whole spawn in one native call.
            attrs = self.__dict__
            attrs.update(_FAST_INIT)
            attrs["_fs_extras"] = _NO_EXTRAS
            attrs["_waitpid_lock"] = _threading.Lock()
            attrs["args"] = args
            _std._cleanup()
            child = _fastspawn.spawn_args(args)
            if child is not None:
                attrs["pid"] = child.pid
                attrs["_child_created"] = True
                attrs["_closed_child_pipe_fds"] = True
                attrs["_fs_child"] = child
                attrs["engine"] = child.engine
                return
            # Arguments the general path must check (and raise about).
            attrs.clear()
        pdeathsig, rlimits, cgroup, fds = _check_extras(pdeathsig, rlimits, cgroup, fds)
        contained = _check_contain(contain, require_contained)
        preexec_fn = positional[5] if len(positional) > 5 else kwargs.get("preexec_fn")
        if preexec_fn is not None:
            if require_vfork:
                raise ValueError(
                    "preexec_fn runs only in a forked child, and require_vfork=True refuses fork"
                )
            if pdeathsig is not None or rlimits or cgroup is not None or fds or contained[0]:
                raise ValueError(
                    "preexec_fn cannot be combined with pdeathsig, rlimits, cgroup, fds or "
                    "contain (they are applied by fastspawn's vfork child; drop preexec_fn "
                    "to use them)"
                )
        if (
            _FAST_INIT is not None
            and self._fs_plain
            and not positional
            and _POPEN_STD_KEYS.issuperset(kwargs)
            and pdeathsig is None
            and not rlimits
            and cgroup is None
            and not fds
            and not contained[0]
            and self._fs_std_init(args, **kwargs)
        ):
            return
        self._fs_extras = (pdeathsig, rlimits, cgroup, fds, bool(require_vfork), contained)
        if (
            _FAST_INIT is not None
            and self._fs_plain
            and not positional
            and _FAST_POPEN_KEYS.issuperset(kwargs)
        ):
            user = kwargs.get("user")
            if (
                (user is None or (type(user) is int and user >= 0))
                and (kwargs.get("close_fds", True) is True or not kwargs.get("pass_fds"))
                and kwargs.get("stdin") is None
                and kwargs.get("stdout") is None
                and kwargs.get("stderr") is None
            ):
                self._fs_fast_init(args, user, **kwargs)
                return
        if not _HAS_PROCESS_GROUP:
            group = kwargs.pop("process_group", None)
            if group is not None:
                # (Set only when given: the object keeps the standard library's attributes.)
                if isinstance(group, bool) or not isinstance(group, int):
                    raise TypeError("process_group must be an int")
                self._fs_process_group = group
        super().__init__(args, *positional, **kwargs)

    def _fs_std_init(self, args, stdin=None, stdout=None, stderr=None, cwd=None, env=None,
                     shell=False, bufsize=-1, close_fds=True, text=None,
                     universal_newlines=None, encoding=None, errors=None):  # fmt: skip
        """``__init__`` for the streams among None, PIPE, DEVNULL and STDOUT,
        ``cwd``, ``env``, ``shell`` and text mode, in bytes or text mode: the
        pipes, the spawn and the child's ends closed in one native call
        (``_fastspawn.popen_std``), then the parent's ends wrapped in file
        objects as the standard library's ``__init__`` wraps them. It leaves
        the object as that ``__init__`` would. False (nothing done) when the
        arguments need the general path, which raises what CPython raises."""
        if bufsize is None:
            bufsize = -1
        elif type(bufsize) is not int or close_fds is not True:
            return False
        text_mode = encoding or errors or text or universal_newlines
        if text_mode:
            piped = PIPE in (stdin, stdout, stderr)
            if _text_codec(text, universal_newlines, encoding, errors, piped) is None:
                return False
        _std._cleanup()
        opened = _fastspawn.popen_std(
            args, stdin=stdin, stdout=stdout, stderr=stderr, cwd=cwd, env=env, shell=shell
        )
        if opened is None:
            return False
        child, p2cwrite, c2pread, errread = opened
        attrs = self.__dict__
        attrs.update(_FAST_INIT)
        attrs["_waitpid_lock"] = _threading.Lock()
        attrs["args"] = args
        attrs["pid"] = child.pid
        attrs["_child_created"] = True
        attrs["_closed_child_pipe_fds"] = True
        attrs["_fs_child"] = child
        attrs["_fs_extras"] = _NO_EXTRAS
        attrs["engine"] = child.engine
        attrs["text_mode"] = text_mode
        if text_mode and encoding is None:
            encoding = _popen_encoding()
        attrs["encoding"] = encoding
        attrs["errors"] = errors
        try:
            _wrap_pipes(self, p2cwrite, c2pread, errread, bufsize, text_mode, encoding, errors)
        except BaseException:
            # Each fd is closed once: by its file object if it has one.
            owned = set()
            for stream in (self.stdin, self.stdout, self.stderr):
                if stream is not None:
                    owned.add(stream.fileno())
                    try:
                        stream.close()
                    except OSError:
                        pass
            for end in (p2cwrite, c2pread, errread):
                if end >= 0 and end not in owned:
                    os.close(end)
            child.send_signal(_signal.SIGKILL)
            child.wait(None)
            raise
        return True

    def _fs_fast_init(self, args, uid, executable=None, close_fds=True, pass_fds=(), cwd=None,
                      env=None, restore_signals=True, start_new_session=False, user=None,
                      stdin=None, stdout=None, stderr=None):  # fmt: skip
        """``__init__`` for the common call: inherited stdio, no text mode,
        none of the arguments the standard library's ``__init__`` checks
        itself. It leaves the object as that ``__init__`` would (the same
        attributes, copied from ``_FAST_INIT``), minus its argument
        handling, ``_get_handles`` and ``_close_pipe_fds``, which have
        nothing to do for these arguments."""
        _std._cleanup()
        attrs = self.__dict__
        attrs.update(_FAST_INIT)
        attrs["_waitpid_lock"] = _threading.Lock()
        attrs["args"] = args
        child = _start(
            _fastspawn.spawn,
            args, executable, False, cwd, env, _INHERIT,
            pass_fds, close_fds, start_new_session, -1,
            uid, None, None, -1, restore_signals, self._fs_extras,
        )  # fmt: skip
        attrs["pid"] = child.pid
        attrs["_child_created"] = True
        attrs["_closed_child_pipe_fds"] = True
        attrs["_fs_child"] = child
        attrs["engine"] = child.engine

    def _execute_child(
        self,
        args,
        executable,
        preexec_fn,
        close_fds,
        pass_fds,
        cwd,
        env,
        startupinfo,
        creationflags,
        shell,
        p2cread,
        p2cwrite,
        c2pread,
        c2pwrite,
        errread,
        errwrite,
        restore_signals,
        gid,
        gids,
        uid,
        umask,
        start_new_session,
        process_group=None,
    ):
        if process_group is None:
            process_group = getattr(self, "_fs_process_group", -1)
        if preexec_fn is not None:
            self._fork_child(
                args, executable, preexec_fn, close_fds, pass_fds, cwd, env,
                startupinfo, creationflags, shell,
                p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite,
                restore_signals, gid, gids, uid, umask, start_new_session, process_group,
            )  # fmt: skip
            return

        try:
            child = _start(
                _fastspawn.spawn,
                args, executable, shell, cwd, env, (p2cread, c2pwrite, errwrite),
                pass_fds, close_fds, start_new_session, process_group,
                uid, gid, gids, umask, restore_signals, self._fs_extras,
            )  # fmt: skip
        finally:
            self._close_pipe_fds(p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite)
        self.pid = child.pid
        self._child_created = True
        self._fs_child = child
        self.engine = child.engine

    def _fork_child(self, *args):
        """The standard library's own path, for ``preexec_fn``."""
        process_group = args[-1]
        if _HAS_PROCESS_GROUP:
            super()._execute_child(*args)
        else:
            preexec_fn = args[2]
            if process_group >= 0:

                def preexec_with_group(fn=preexec_fn, group=process_group):
                    os.setpgid(0, group)
                    fn()

                args = (*args[:2], preexec_with_group, *args[3:])
            super()._execute_child(*args[:-1])
        self.engine = "fork"

    def _internal_poll(self, _deadstate=None, **ignored):
        child = self._fs_child
        if child is None:
            return super()._internal_poll(_deadstate)
        if self.returncode is None:
            try:
                status = child.poll()
            except ChildProcessError:
                # Reaped elsewhere (SIGCHLD ignored, a waitpid(-1)): like
                # CPython, nothing is known but that it is gone.
                self.returncode = 0 if _deadstate is None else _deadstate
            except OSError:
                if _deadstate is not None:
                    self.returncode = _deadstate
            else:
                if status is not None:
                    self._handle_exitstatus(status)
        return self.returncode

    def _wait(self, timeout):
        child = self._fs_child
        if child is None:
            return super()._wait(timeout)
        if self.returncode is not None:
            return self.returncode
        try:
            status = child.wait(timeout)
        except ChildProcessError:
            self.returncode = 0
            return self.returncode
        if status is None:
            raise TimeoutExpired(self.args, timeout)
        if self.returncode is None:
            self._handle_exitstatus(status)
        return self.returncode

    def send_signal(self, sig):
        """Sends ``sig`` through the pidfd, unless the child is known to have exited."""
        child = self._fs_child
        if child is None:
            return super().send_signal(sig)
        self.poll()
        if self.returncode is not None:
            return
        try:
            child.send_signal(sig)
        except ProcessLookupError:
            pass

    def terminate(self):
        """Sends SIGTERM."""
        self.send_signal(15)

    def kill(self):
        """Sends SIGKILL."""
        self.send_signal(9)

    # Process trees (contain=True): thin calls into fastspawn's core.

    def _tree(self, what):
        child = self._fs_child
        if child is None or child.containment is None:
            raise ValueError(f"{what}: {self.args!r} was not started with contain=True")
        return child

    @property
    def containment(self):
        """``"cgroup"``, ``"session"`` (the fallback) or None (not contained)."""
        child = self._fs_child
        return None if child is None else child.containment

    @property
    def cgroup_path(self):
        """The directory of the child's own cgroup, or None."""
        child = self._fs_child
        return None if child is None else child.cgroup_path

    def kill_tree(self, sig=_signal.SIGKILL):
        """Sends ``sig`` to every process of the tree, grandchildren that
        changed session or process group included (SIGKILL: one write to
        ``cgroup.kill``; other signals: each member through a pidfd).
        Returns once all were signalled; ``wait_tree`` waits for them."""
        sig = _check_signal(sig, "kill_tree")
        self._tree("kill_tree").kill_tree(sig)

    def wait_tree(self, timeout=None):
        """Waits until every process of the tree has exited (sleeping on
        ``cgroup.events``, GIL released), reaps the child and returns its
        return code; raises TimeoutExpired after ``timeout`` seconds."""
        child = self._tree("wait_tree")
        if timeout is not None:
            timeout = float(timeout)
        if not child.wait_tree_empty(timeout):
            raise TimeoutExpired(self.args, timeout)
        return self.wait()

    def tree_pids(self):
        """The pids of the tree's live processes, sorted."""
        return self._tree("tree_pids").tree_pids()

    def freeze(self):
        """Freezes every process of the tree (``cgroup.freeze``); returns
        once the kernel reports it frozen. Needs the cgroup."""
        self._tree("freeze").freeze()

    def thaw(self):
        """Lets a frozen tree run again."""
        self._tree("thaw").thaw()

    def usage(self):
        """The tree's ``TreeUsage``. Needs the cgroup."""
        return TreeUsage(*self._tree("usage").usage())


def _wrap_pipes(popen, p2cwrite, c2pread, errread, bufsize, text_mode, encoding, errors):
    """The parent's ends of a child's pipes (-1: not piped) as the standard
    library's ``Popen`` wraps them. Each fd is owned by its file object as
    soon as it is made; the caller closes those that were not reached."""
    line_buffering = False
    if text_mode and bufsize == 1:
        line_buffering = True
        bufsize = -1
    if p2cwrite != -1:
        stdin = open(p2cwrite, "wb", bufsize)
        popen.stdin = stdin
        if text_mode:
            popen.stdin = io.TextIOWrapper(
                stdin, write_through=True, line_buffering=line_buffering, encoding=encoding,
                errors=errors,
            )  # fmt: skip
    if c2pread != -1:
        stdout = open(c2pread, "rb", bufsize)
        popen.stdout = stdout
        if text_mode:
            popen.stdout = io.TextIOWrapper(stdout, encoding=encoding, errors=errors)
    if errread != -1:
        stderr = open(errread, "rb", bufsize)
        popen.stderr = stderr
        if text_mode:
            popen.stderr = io.TextIOWrapper(stderr, encoding=encoding, errors=errors)


# The keywords of Popen's native path for the streams (_fs_std_init).
_POPEN_STD_KEYS = frozenset((
    "stdin", "stdout", "stderr", "cwd", "env", "shell", "bufsize", "close_fds", "text",
    "universal_newlines", "encoding", "errors",
))  # fmt: skip

# The keywords Popen's fast path takes (with stdin/stdout/stderr None only).
_FAST_POPEN_KEYS = frozenset((
    "executable", "close_fds", "pass_fds", "cwd", "env", "restore_signals", "start_new_session",
    "user", "stdin", "stdout", "stderr",
))  # fmt: skip
_INHERIT = (-1, -1, -1)
# Popen's _fs_extras with none of fastspawn's keywords.
_NO_EXTRAS = (None, [], None, [], False, (False, False))


def _fast_init_attrs():
    """The attributes the standard library's ``Popen.__init__`` gives an
    object made with default arguments, before ``_execute_child`` adds its
    own (this interpreter's version, read by running that ``__init__`` with
    the spawn left out). ``None`` (no fast path) if any of them is not a
    plain immutable value that objects can share."""

    class Probe(_std.Popen):
        def _execute_child(self, *args):
            pass

        def __del__(self):
            pass

    try:
        attrs = dict(Probe(["probe"]).__dict__)
    except Exception:
        return None
    for name in ("args", "_waitpid_lock"):
        if attrs.pop(name, None) is None:
            return None
    for value in attrs.values():
        if value is not None and type(value) not in (bool, int, float, str):
            return None
    return attrs


_FAST_INIT = _fast_init_attrs()


def call(*popenargs, timeout=None, **kwargs):
    """Runs a command and returns its return code (``subprocess.call``)."""
    if timeout is None and len(popenargs) == 1:
        # No pipe to read (a child may fill one and wait, as with CPython's).
        if not kwargs:
            status = _fastspawn.run_args(popenargs[0])
        elif _STD_KEYS.issuperset(kwargs) and PIPE not in (
            kwargs.get("stdin"),
            kwargs.get("stdout"),
            kwargs.get("stderr"),
        ):
            ran = _fastspawn.run_std(popenargs[0], **kwargs)
            status = None if ran is None else ran[1]
        else:
            status = None
        if status is not None:
            return os.waitstatus_to_exitcode(status)
        if _fast(popenargs, kwargs) and PIPE not in (kwargs.get("stdout"), kwargs.get("stderr")):
            return os.waitstatus_to_exitcode(_run_fast(popenargs[0], **kwargs)[1])
    with Popen(*popenargs, **kwargs) as p:
        try:
            return p.wait(timeout=timeout)
        except BaseException:
            p.kill()
            raise


def check_call(*popenargs, **kwargs):
    """``subprocess.check_call``: ``call`` that raises CalledProcessError on failure."""
    retcode = call(*popenargs, **kwargs)
    if retcode:
        cmd = kwargs.get("args")
        if cmd is None:
            cmd = popenargs[0]
        raise CalledProcessError(retcode, cmd)
    return 0


def check_output(*popenargs, timeout=None, **kwargs):
    """``subprocess.check_output``: the command's stdout, or CalledProcessError."""
    for name in ("stdout", "check"):
        if name in kwargs:
            raise ValueError(f"{name} argument not allowed, it will be overridden.")
    if "input" in kwargs and kwargs["input"] is None:
        textual = kwargs.get("universal_newlines") or kwargs.get("text")
        textual = textual or kwargs.get("encoding") or kwargs.get("errors")
        kwargs["input"] = "" if textual else b""
    return run(*popenargs, stdout=PIPE, timeout=timeout, check=True, **kwargs).stdout


# The keywords of the native run of the streams, the working directory,
# the environment and the shell (_fastspawn.run_std), and with text mode's.
_STD_KEYS = frozenset(("stdin", "stdout", "stderr", "cwd", "env", "shell"))
_TEXT_KEYS = _STD_KEYS | {"text", "universal_newlines", "encoding", "errors"}

# In text mode without an encoding: the codec Popen's streams use
# (_default_text_encoding) and the value its ``encoding`` attribute gets
# (_popen_encoding), as each version has them.
if sys.version_info >= (3, 11):
    _default_text_encoding = _popen_encoding = _std._text_encoding
else:

    def _default_text_encoding():
        # What io.TextIOWrapper takes for no encoding on 3.9 and 3.10.
        import locale

        return locale.getpreferredencoding(False)

    def _popen_encoding():
        return "locale" if sys.version_info >= (3, 10) else None


def _text_codec(text, universal_newlines, encoding, errors, piped):
    """How Popen's text streams would encode the input and decode the
    output for these arguments: ``()`` in bytes mode, ``(encoding,
    errors)`` in text mode, None when the general path must decide (an
    error to raise). An encoding that is not a text codec raises Popen's
    LookupError when a stream is ``piped`` (Popen wraps those before its
    spawn), and is no error otherwise."""
    if (
        text is not None
        and universal_newlines is not None
        and bool(text) != bool(universal_newlines)
    ):
        return None
    if not (encoding or errors or text or universal_newlines):
        return ()
    if encoding is None:
        encoding = _default_text_encoding()
    try:
        usable = type(encoding) is str and (errors is None or type(errors) is str)
        usable = usable and getattr(_codecs.lookup(encoding), "_is_text_encoding", True)
    except LookupError:
        usable = False
    if not usable:
        if piped:
            # The error of Popen's stream (LookupError, TypeError), without
            # the pipe that CPython's Popen leaves open when it raises it.
            io.TextIOWrapper(io.BytesIO(), encoding=encoding, errors=errors)
        return None
    return encoding, "strict" if errors is None else errors


def _decode(data, codec):
    """Popen.communicate()'s output in text mode: decoded, universal newlines."""
    if data is None:
        return None
    return data.decode(*codec).replace("\r\n", "\n").replace("\r", "\n")


def _run_std(args, kwargs, input, timeout):
    """run() of the streams (None, PIPE, DEVNULL, STDOUT), ``cwd``, ``env``
    and ``shell``, in bytes or text mode, with bytes or str input and a
    finite timeout: the native run (_fastspawn.run_std), then text mode's
    decoding. Returns run.rs's ``Ran``, or None when the call needs the
    general path."""
    if _STD_KEYS.issuperset(kwargs):
        codec = ()
    elif _TEXT_KEYS.issuperset(kwargs):
        codec = _text_codec(
            kwargs.get("text"), kwargs.get("universal_newlines"), kwargs.get("encoding"),
            kwargs.get("errors"), PIPE in (kwargs.get("stdin"), kwargs.get("stdout"),
            kwargs.get("stderr")),
        )  # fmt: skip
        if codec is None:
            return None
        kwargs = {key: value for key, value in kwargs.items() if key in _STD_KEYS}
    else:
        return None
    if codec:
        if type(input) is str:
            try:
                input = input.encode(*codec)
            except Exception:
                # Popen's path raises it once its child runs, as CPython.
                return None
        elif input is not None:
            return None
    elif input is not None and type(input) is not bytes:
        return None
    if not _finite(timeout):
        return None
    ran = _fastspawn.run_std(args, input, timeout, **kwargs)
    if ran is None or not codec or ran[4]:
        # After a time-out the output stays bytes, as in CPython's TimeoutExpired.
        return ran
    pid, status, stdout, stderr, timed_out, left = ran
    return pid, status, _decode(stdout, codec), _decode(stderr, codec), timed_out, left


# The keywords run() and call() handle without a Popen object.
_FAST_KEYS = frozenset((
    "stdin", "stdout", "stderr", "executable", "cwd", "env", "shell", "close_fds", "pass_fds",
    "restore_signals", "start_new_session", "process_group", "umask", "user", "group",
    "extra_groups", "pdeathsig", "rlimits", "cgroup", "fds", "require_vfork",
    "contain", "require_contained",
))  # fmt: skip


def _fast(popenargs, kwargs, stdin_pipe=False):
    """Whether a run()/call() can skip Popen: no text mode, stdio that is
    inherited, DEVNULL or a pipe read to its end, and stdin a pipe only
    when ``stdin_pipe`` (run()'s bytes input; the callers check the input
    and the timeout, see _fast_exchange)."""
    return (
        len(popenargs) == 1
        and _FAST_KEYS.issuperset(kwargs)
        and kwargs.get("stdin") in ((None, DEVNULL, PIPE) if stdin_pipe else (None, DEVNULL))
        and kwargs.get("stdout") in (None, PIPE, DEVNULL)
        and kwargs.get("stderr") in (None, PIPE, DEVNULL, STDOUT)
    )


def _fast_exchange(input, timeout):
    """Whether run()'s input and timeout can be handed to the native run:
    bytes (immutable, so it can be read with the GIL released) or none, a
    finite number of seconds or none."""
    return (input is None or type(input) is bytes) and _finite(timeout)


def _finite(timeout):
    """Whether a native run takes ``timeout``: none, or a finite number of
    seconds (an int or a float; anything else is Popen's to refuse)."""
    return timeout is None or (type(timeout) in (int, float) and _math.isfinite(timeout))


def _run_fast(args, stdin=None, stdout=None, stderr=None, executable=None, cwd=None, env=None,
              shell=False, close_fds=True, pass_fds=(), restore_signals=True,
              start_new_session=False, process_group=None, umask=-1, user=None, group=None,
              extra_groups=None, pdeathsig=None, rlimits=None, cgroup=None, fds=None,
              require_vfork=False, contain=False, require_contained=False, input=None,
              timeout=None):  # fmt: skip
    """Spawn, write ``input`` (bytes) to a piped stdin, read the pipes to
    their ends and wait, within ``timeout`` seconds, in one call with the
    GIL released (the core's Child::communicate). Returns (pid, wait
    status, stdout, stderr, timed out, time left): see run.rs's ``Ran``."""
    if pass_fds and not close_fds:
        import warnings

        warnings.warn("pass_fds overriding close_fds.", RuntimeWarning, stacklevel=3)
        close_fds = True
    extras = (
        *_check_extras(pdeathsig, rlimits, cgroup, fds),
        bool(require_vfork),
        _check_contain(contain, require_contained),
    )
    uid, gid, gids = _resolve_ids(user, group, extra_groups)
    keep, give = [], []  # our fds to close; fds handed over to the extension
    handed = False
    try:
        devnull = -1
        if DEVNULL in (stdin, stdout, stderr):
            devnull = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
            keep.append(devnull)
        ends = {}
        for fd, spec in ((0, stdin), (1, stdout), (2, stderr)):
            if spec == PIPE:
                r, w = os.pipe()
                # The child's end is handed over (closed after the spawn);
                # stdin's write end too (closed by the run when the input
                # is written); the outputs' read ends are read from a copy.
                if fd == 0:
                    give += (r, w)
                else:
                    keep.append(r)
                    give.append(w)
                ends[fd] = (r, w)
        child_in = ends[0][0] if 0 in ends else devnull if stdin == DEVNULL else -1
        child_out = ends[1][1] if 1 in ends else devnull if stdout == DEVNULL else -1
        if stderr == STDOUT:
            child_err = child_out if child_out != -1 else 1
        else:
            child_err = ends[2][1] if 2 in ends else devnull if stderr == DEVNULL else -1
        parent_in = ends[0][1] if 0 in ends else -1
        child_ends = [fd for fd in give if fd != parent_in]

        def start(request):
            nonlocal handed
            handed = True
            return _fastspawn.run(
                request, child_ends, ends.get(1, (-1,))[0], ends.get(2, (-1,))[0], parent_in,
                input, timeout,
            )  # fmt: skip

        return _start(
            start, args, executable, shell, cwd, env, (child_in, child_out, child_err),
            pass_fds, close_fds, start_new_session, process_group, uid, gid, gids, umask,
            restore_signals, extras,
        )  # fmt: skip
    finally:
        for fd in keep if handed else keep + give:
            os.close(fd)


def run(*popenargs, input=None, capture_output=False, timeout=None, check=False, **kwargs):
    """``subprocess.run``: runs a command, waits, returns a CompletedProcess."""
    if (
        not kwargs
        and len(popenargs) == 1
        and input is None
        and timeout is None
        and not capture_output
    ):
        # run(args) alone: spawn and wait in one native call.
        args = popenargs[0]
        status = _fastspawn.run_args(args)
        if status is not None:
            retcode = os.waitstatus_to_exitcode(status)
            if check and retcode:
                raise CalledProcessError(retcode, args)
            return CompletedProcess(args, retcode)
    if input is not None:
        if kwargs.get("stdin") is not None:
            raise ValueError("stdin and input arguments may not both be used.")
        kwargs["stdin"] = PIPE
    if capture_output:
        if kwargs.get("stdout") is not None or kwargs.get("stderr") is not None:
            raise ValueError("stdout and stderr arguments may not be used with capture_output.")
        kwargs["stdout"] = PIPE
        kwargs["stderr"] = PIPE
    ran = None
    if len(popenargs) == 1:
        ran = _run_std(popenargs[0], kwargs, input, timeout)
        if (
            ran is None
            and _fast_exchange(input, timeout)
            and _fast(popenargs, kwargs, input is not None)
        ):
            ran = _run_fast(popenargs[0], input=input, timeout=timeout, **kwargs)
    if ran is not None:
        _pid, status, stdout, stderr, timed_out, left = ran
        retcode = os.waitstatus_to_exitcode(status)
        if timed_out:
            # As CPython's run(): the child killed and reaped; the output
            # read before the time-out (communicate's), or none when it came
            # in the wait for the exit (wait's, with the time then left).
            raise TimeoutExpired(
                popenargs[0], timeout if timed_out == 1 else left, output=stdout, stderr=stderr
            )
        if check and retcode:
            raise CalledProcessError(retcode, popenargs[0], output=stdout, stderr=stderr)
        return CompletedProcess(popenargs[0], retcode, stdout, stderr)
    with Popen(*popenargs, **kwargs) as process:
        try:
            stdout, stderr = process.communicate(input, timeout=timeout)
        except TimeoutExpired:
            # communicate() put the output read so far into the exception.
            process.kill()
            process.wait()
            raise
        except BaseException:
            process.kill()
            raise
        retcode = process.poll()
        if check and retcode:
            raise CalledProcessError(retcode, process.args, output=stdout, stderr=stderr)
    return CompletedProcess(process.args, retcode, stdout, stderr)


def getstatusoutput(cmd, **kwargs):
    """``subprocess.getstatusoutput``: (exit code, output) of a shell command."""
    try:
        data = check_output(cmd, shell=True, text=True, stderr=STDOUT, **kwargs)
        exitcode = 0
    except CalledProcessError as ex:
        data = ex.output
        exitcode = ex.returncode
    if data[-1:] == "\n":
        data = data[:-1]
    return exitcode, data


def getoutput(cmd, **kwargs):
    """``subprocess.getoutput``: the output of a shell command."""
    return getstatusoutput(cmd, **kwargs)[1]
