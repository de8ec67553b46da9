"""A child forked after the package ran: ``os.fork()`` and
``multiprocessing``'s fork start method (the default on Linux before 3.14),
as pre-forking servers and worker pools use them.

The package keeps process-wide state made on first use: spawner threads,
``fastspawn.asyncio``'s waiter thread and epoll, the exit ring (io_uring,
whose queues are memory shared with whoever holds its mapping), the PATH
cache's inotify fd. A forked child has none of the parent's threads and
shares its fds: before the fix, a ``run(..., pdeathsig=...)`` or an asyncio
spawn in such a child waited for ever. Each test does the same work through
the standard library and through the package, in the parent, in a forked
child and in the parent again, and compares.
"""

import asyncio
import gc
import json
import multiprocessing
import os
import signal
import subprocess as std
import sys

import pytest

import fastspawn.asyncio as fa
import fastspawn.subprocess as fs

PY = sys.executable
CHILD_TIMEOUT = 30


def sync_work(mod):
    """One of each path with process-wide state: a bare run, a run with
    pipes and a time-out (the pidfd), a ``Popen``, and for the package the
    spawner pool's path (``pdeathsig``) and a name looked up in PATH."""
    out = [
        mod.run(["true"]).returncode,
        mod.run(
            ["sh", "-c", "echo out; echo err >&2; exit 3"], capture_output=True, timeout=30
        ).stdout,
        mod.Popen(["sh", "-c", "exit 5"]).wait(),
        mod.run(
            [PY, "-c", "import sys; print(sys.argv[1])", "arg"], stdout=mod.PIPE, text=True
        ).stdout,
    ]
    if mod is fs:
        out.append(fs.run(["sh", "-c", "exit 4"], pdeathsig=signal.SIGKILL).returncode)
    else:
        out.append(4)
    return [o.decode() if isinstance(o, bytes) else o for o in out]


async def async_work(aio):
    procs = [await aio.create_subprocess_exec("sh", "-c", f"exit {i}") for i in range(4)]
    codes = [await p.wait() for p in procs]
    p = await aio.create_subprocess_shell(
        "echo piped; cat", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await p.communicate(b"in")
    return codes + [out.decode(), p.returncode]


def work(kind):
    mod = {"std": std, "fastspawn": fs}[kind]
    aio = {"std": asyncio, "fastspawn": fa}[kind]
    return [sync_work(mod), asyncio.run(asyncio.wait_for(async_work(aio), CHILD_TIMEOUT))]


def start_in_forked_child(fn, *args):
    """Starts ``fn(*args)`` in a child made by ``os.fork()``, killed by an
    alarm if it hangs; returns what :func:`child_result` takes."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        code = 0
        try:
            signal.alarm(CHILD_TIMEOUT)
            result = {"ok": fn(*args)}
        except BaseException as e:  # reported to the parent
            result = {"error": repr(e)}
            code = 1
        with os.fdopen(w, "w") as f:
            json.dump(result, f)
        os._exit(code)
    os.close(w)
    return pid, r


def child_result(started):
    """The forked child's result (through a pipe, as JSON), or its error."""
    pid, r = started
    with os.fdopen(r) as f:
        text = f.read()
    _, status = os.waitpid(pid, 0)
    assert text, f"the forked child printed nothing (wait status {status:#x}: killed by its alarm?)"
    return json.loads(text)


def in_forked_child(fn, *args):
    """``fn(*args)`` in a forked child: its result, or its error."""
    return child_result(start_in_forked_child(fn, *args))


@pytest.mark.parametrize("kind", ["std", "fastspawn"])
def test_a_forked_child_spawns_as_its_parent_did(kind, no_leaks):
    before = work(kind)
    child = in_forked_child(work, kind)
    assert child == {"ok": before}
    # The parent's threads, rings and fds are its own still.
    assert work(kind) == before
    assert before == work("std")


def pool_task(i):
    return work("fastspawn")[0] + [i]


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(),
    reason="this platform's multiprocessing has no fork start method",
)
def test_a_multiprocessing_fork_pool_spawns_with_the_package(no_leaks):
    # The parent made its threads first (the package's state exists when the
    # workers are forked).
    expected = work("fastspawn")[0]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        results = pool.map_async(pool_task, range(4)).get(timeout=CHILD_TIMEOUT * 2)
    assert results == [expected + [i] for i in range(4)]


def test_a_forked_child_has_its_own_exit_ring_and_waiter(no_leaks):
    # Both processes spawn through fastspawn.asyncio at the same time: a
    # ring or an epoll shared between them would mix up their children.
    fa_work = lambda: asyncio.run(asyncio.wait_for(async_work(fa), CHILD_TIMEOUT))  # noqa: E731
    expected = fa_work()
    started = start_in_forked_child(lambda: [fa_work() for _ in range(20)])
    assert [fa_work() for _ in range(20)] == [expected] * 20
    assert child_result(started) == {"ok": [expected] * 20}


def test_a_forked_child_leaves_its_parent_s_cgroups_alone(no_leaks):
    # A contained child's emptied cgroup is kept (a spare) for the next
    # contained spawn while a command or child of the same parent lives.
    # A forked child's copies of those objects, freed there, must not
    # remove or reuse the parent's directories.
    with fs.Popen(["true"], contain=True) as p:
        if p.containment != "cgroup":
            pytest.skip(f"no writable cgroup v2 here (containment is {p.containment!r})")
    del p
    # An exited child still held (its cgroup, empty, is the parent's until
    # the object goes), and one let go (its cgroup a spare).
    held = [fs.Popen(["true"], contain=True)]
    held[0].wait()
    done = fs.Popen(["true"], contain=True)
    done.wait()
    spare = done.cgroup_path
    del done
    gc.collect()
    assert os.path.isdir(spare), "the emptied cgroup was kept as a spare"

    def free_them():
        held.clear()  # the child's copies of the parent's objects, freed
        gc.collect()
        return True

    assert in_forked_child(free_them) == {"ok": True}
    assert os.path.isdir(spare), "the forked child removed its parent's spare cgroup"
    assert os.path.isdir(held[0].cgroup_path), "the forked child removed a held cgroup"
    # The parent reuses its spare as before.
    with fs.Popen(["true"], contain=True) as again:
        assert again.cgroup_path == spare
    held.clear()
