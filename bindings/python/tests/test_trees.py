"""Process trees: ``contain=True`` and the tree methods of ``Popen`` and of
``fastspawn.asyncio``'s ``Process`` (thin calls into fastspawn's core).

The daemonizing script is also run through the standard library with
``start_new_session=True`` and killed with ``os.killpg``, the usual idiom:
the grandchildren that called ``setsid()`` survive it (counted, then killed
by hand), and none survive ``kill_tree``."""

import asyncio
import contextlib
import gc
import json
import os
import resource
import signal
import subprocess as std
import sys
import threading
import time
import uuid

import pytest

import fastspawn.asyncio as fa
import fastspawn.subprocess as fs
from conftest import PY

# A daemonizing script: a child in a new session that double-forks a
# sleeper, a double-forked sleeper in the script's own session, a plain
# background sleeper, and the script itself. 6 processes once started:
# sh, setsid'd sh, its sleep and the backgrounded sleep, the
# double-forked sleep, the plain background sleep.
DAEMONIZE = """
setsid sh -c '(sleep 1000 &); sleep 1000' &
( (sleep 1000 &) & )
sleep 1000 &
echo started
wait
"""
TREE_SIZE = 6


def cgroup_or_skip():
    """Skips (saying why) unless a contained child gets a cgroup here."""
    with fs.Popen(["true"], contain=True) as p:
        p.wait()
        if p.containment != "cgroup":
            reason = f"no writable cgroup v2 here (containment is {p.containment!r})"
            print(f"SKIP: {reason}", file=sys.stderr)
            pytest.skip(reason)
        return os.path.dirname(p.cgroup_path)


@pytest.fixture
def cgroup_parent():
    return cgroup_or_skip()


def tagged(tag):
    """Live (not zombie) processes whose environment holds ``tag``."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                if tag.encode() not in f.read():
                    continue
            with open(f"/proc/{name}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            found.append(int(name))
    return sorted(found)


def wait_for(predicate, what, timeout=10.0):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def daemonize(module, tag, **kwargs):
    env = {"PATH": os.environ["PATH"], "FS_TREE_TAG": tag}
    p = module.Popen(["sh", "-c", DAEMONIZE], env=env, stdout=std.PIPE, **kwargs)
    assert p.stdout.readline() == b"started\n"
    # Exactly: the short-lived subshells of the double fork come and go.
    wait_for(lambda: len(tagged(tag)) == TREE_SIZE, f"{TREE_SIZE} processes of the script")
    return p


@contextlib.contextmanager
def killing(p):
    """``with p``, but a tree a failed test leaves is killed first (the
    script's ``wait`` would otherwise keep ``Popen.__exit__`` waiting)."""
    try:
        yield p
    finally:
        if getattr(p, "containment", None):
            p.kill_tree()
        with p:
            pass


def test_kill_tree_leaves_nothing_where_killpg_leaves_setsid_grandchildren(cgroup_parent):
    # The standard library's idiom: a session of its own, killpg.
    tag = f"std-{uuid.uuid4()}"
    with daemonize(std, tag, start_new_session=True) as p:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
    time.sleep(0.2)
    escaped = tagged(tag)
    for pid in escaped:
        os.kill(pid, signal.SIGKILL)
    print(f"os.killpg left {len(escaped)} of {TREE_SIZE} processes running")
    # The setsid'd sh and its double-forked sleep are in another session.
    assert len(escaped) >= 2

    tag = f"fs-{uuid.uuid4()}"
    with killing(daemonize(fs, tag, contain=True)) as p:
        assert p.containment == "cgroup"

        def members():
            # Until the double fork's short-lived subshells are gone, the
            # two may each catch one of them at a different moment.
            pids = sorted(p.tree_pids())
            return len(pids) == TREE_SIZE and pids == tagged(tag)

        wait_for(members, "the cgroup's members to be the script's processes")
        p.kill_tree()
        assert p.wait_tree(timeout=10) == -signal.SIGKILL
        assert p.returncode == -signal.SIGKILL
        assert p.tree_pids() == []
    assert tagged(tag) == []


def test_kill_tree_other_signal_and_wait_tree_timeout(cgroup_parent):
    tag = f"fs-{uuid.uuid4()}"
    with killing(daemonize(fs, tag, contain=True)) as p:
        started = time.monotonic()
        with pytest.raises(fs.TimeoutExpired) as info:
            p.wait_tree(timeout=0.2)
        assert time.monotonic() - started >= 0.2
        assert info.value.timeout == 0.2
        assert p.returncode is None
        p.kill_tree(signal.SIGTERM)
        assert p.wait_tree(timeout=10) == -signal.SIGTERM
    assert tagged(tag) == []


def test_wait_tree_outlives_the_child(cgroup_parent):
    # The child exits at once; its backgrounded grandchild keeps the tree.
    with fs.Popen(["sh", "-c", "sleep 0.3 & exit 3"], contain=True) as p:
        assert p.wait() == 3
        assert len(p.tree_pids()) == 1
        started = time.monotonic()
        assert p.wait_tree() == 3
        assert time.monotonic() - started >= 0.1
        assert p.tree_pids() == []


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def test_freeze_thaw_seen_in_proc_stat(cgroup_parent):
    burn = "while :; do :; done"
    script = f"setsid sh -c '{burn}' & {burn}"
    with fs.Popen(["sh", "-c", script], contain=True) as p:
        pids = wait_for(lambda: len(p.tree_pids()) == 2 and p.tree_pids(), "the burners")
        p.freeze()
        frozen = [cpu_ticks(pid) for pid in pids]
        time.sleep(0.3)
        assert [cpu_ticks(pid) for pid in pids] == frozen, "a frozen process used CPU"
        p.thaw()
        wait_for(
            lambda: all(cpu_ticks(pid) > before for pid, before in zip(pids, frozen)),
            "both burners to run again",
        )
        p.kill_tree()
        p.wait_tree()


def test_usage_against_a_cpu_burning_child(cgroup_parent):
    burn = "import time\nwhile time.process_time() < 0.4: pass"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with fs.Popen([PY, "-c", burn], contain=True) as p:
        p.wait_tree()
        usage = p.usage()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    reaped = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert isinstance(usage, fs.TreeUsage)
    assert usage.cpu >= 0.4
    # The same child, measured by the kernel's rusage of reaped children.
    assert abs(usage.cpu - reaped) < 0.05 + 0.1 * reaped, (usage, reaped)
    assert abs(usage.cpu - (usage.user + usage.system)) < 0.01


def test_usage_counts_grandchildren(cgroup_parent):
    burn = f"{PY} -c 'import time\nwhile time.process_time() < 0.3: pass'"
    # Two grandchildren burn; the shell does not wait for them.
    with fs.Popen(["sh", "-c", f"({burn} &); ({burn} &)"], contain=True) as p:
        p.wait_tree()
        assert p.usage().cpu >= 0.6


def own_cgroups(parent):
    prefix = f"fastspawn-{os.getpid()}-"
    return sorted(n for n in os.listdir(parent) if n.startswith(prefix))


def contained_spawns():
    for _ in range(800):
        assert fs.run(["true"], contain=True).returncode == 0
    for _ in range(200):
        with fs.Popen(["sh", "-c", "exit 0"], contain=True) as p:
            assert p.wait_tree() == 0
    for _ in range(20):  # trees that outlive their Popen
        fs.Popen(["sh", "-c", "sleep 0.05 &"], contain=True).wait()


def test_no_cgroup_left_after_many_contained_spawns(cgroup_parent):
    gc.collect()
    before = own_cgroups(cgroup_parent)
    contained_spawns()
    gc.collect()
    wait_for(lambda: own_cgroups(cgroup_parent) == before, "the cgroups to be removed")
    print(f"1,020 contained spawns: {own_cgroups(cgroup_parent)} left (before: {before})")


def test_require_contained_and_run_call_pass_it_through(cgroup_parent):
    with fs.Popen(["true"], require_contained=True) as p:
        assert p.containment == "cgroup"
        assert p.wait_tree() == 0
    assert fs.call(["sh", "-c", "exit 4"], contain=True) == 4
    assert fs.check_call(["true"], contain=True, require_contained=True) == 0
    out = fs.check_output(["sh", "-c", "echo hi"], contain=True)
    assert out == b"hi\n"
    done = fs.run(["sh", "-c", "echo x; exit 2"], contain=True, capture_output=True, timeout=10)
    assert (done.returncode, done.stdout) == (2, b"x\n")


def test_uncontained_and_bad_arguments():
    with fs.Popen(["true"]) as p:
        assert p.containment is None and p.cgroup_path is None
        for method in ("kill_tree", "wait_tree", "tree_pids", "freeze", "thaw", "usage"):
            with pytest.raises(ValueError, match=f"{method}: .*not started with contain=True"):
                getattr(p, method)()
    with pytest.raises(TypeError, match="contain must be a bool"):
        fs.Popen(["true"], contain="yes")
    with pytest.raises(TypeError, match="require_contained must be a bool"):
        fs.run(["true"], require_contained=None)
    with pytest.raises(ValueError, match="preexec_fn cannot be combined"):
        fs.Popen(["true"], contain=True, preexec_fn=lambda: None)
    with fs.Popen(["sleep", "10"], contain=True) as p:
        with pytest.raises(ValueError, match="kill_tree: 0 is not a signal number"):
            p.kill_tree(0)
        with pytest.raises(TypeError, match="kill_tree: the signal must be an int"):
            p.kill_tree("KILL")
        with pytest.raises(ValueError, match="NaN"):
            p.wait_tree(timeout=float("nan"))
        p.kill_tree()
        assert p.wait_tree() == -signal.SIGKILL


def test_asyncio_kill_tree_and_wait_tree(cgroup_parent):
    tag = f"aio-{uuid.uuid4()}"

    async def main():
        env = {"PATH": os.environ["PATH"], "FS_TREE_TAG": tag}
        proc = await fa.create_subprocess_exec(
            "sh", "-c", DAEMONIZE, env=env, stdout=std.PIPE, contain=True
        )
        assert proc.containment == "cgroup"
        assert await proc.stdout.readline() == b"started\n"
        try:
            settled = False
            for _ in range(1000):  # the double fork's subshells come and go
                pids = proc.tree_pids()
                if len(pids) == TREE_SIZE and pids == tagged(tag):
                    settled = True
                    break
                await asyncio.sleep(0.01)
            assert settled, (proc.tree_pids(), tagged(tag))
        finally:
            proc.kill_tree()
        assert await asyncio.wait_for(proc.wait_tree(), 10) == -signal.SIGKILL
        assert proc.tree_pids() == []
        plain = await fa.create_subprocess_exec("true")
        await plain.wait()
        with pytest.raises(ValueError, match="not started with contain=True"):
            plain.kill_tree()

    asyncio.run(main())
    assert tagged(tag) == []


FALLBACK = """
import json, signal, time
import fastspawn.subprocess as fs
out = {}
with fs.Popen(["sh", "-c", "sleep 100 & sleep 100 & wait"], contain=True) as p:
    while len(p.tree_pids()) < 3:
        time.sleep(0.01)
    out["containment"] = p.containment
    out["members"] = len(p.tree_pids())
    try:
        p.freeze()
    except OSError as e:
        out["freeze"] = str(e)
    p.kill_tree()
    out["status"] = p.wait_tree(timeout=10)
    out["left"] = p.tree_pids()
try:
    fs.Popen(["true"], require_contained=True)
except OSError as e:
    out["required"] = [e.errno, str(e)]
print(json.dumps(out))
"""


def cgroup2_mounts():
    with open("/proc/self/mountinfo") as f:
        return [line.split()[4] for line in f if " - cgroup2 " in line]


def read_only(mount):
    with open("/proc/self/mountinfo") as f:
        for line in f:
            fields = line.split()
            if fields[4] == mount:
                return "ro" in fields[5].split(",")
    return False


def test_session_fallback_where_cgroup2_is_read_only():
    # The fallback, made real: a mount namespace of its own whose cgroup2
    # mounts are read-only (a bind remount: the mount's flag, not the
    # superblock's, so this namespace's mounts stay writable), so the core
    # cannot make a cgroup.
    mounts = cgroup2_mounts()
    remount = " && ".join(f"mount -o remount,bind,ro {m}" for m in mounts) or "true"
    try:
        probe = std.run(
            ["unshare", "-m", "--propagation", "private", "sh", "-c", remount],
            capture_output=True,
            text=True,
        )
    except FileNotFoundError:
        probe = None
    if probe is None or probe.returncode != 0:
        why = "no unshare" if probe is None else probe.stderr.strip()
        reason = f"cannot make a mount namespace with cgroup2 read-only here ({why})"
        print(f"SKIP: {reason}", file=sys.stderr)
        pytest.skip(reason)
    done = std.run(
        [
            "unshare",
            "-m",
            "--propagation",
            "private",
            "sh",
            "-c",
            f'{remount} && exec "$0" -c "$1"',
            PY,
            FALLBACK,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert cgroup2_mounts() == mounts and not any(read_only(m) for m in mounts)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["containment"] == "session"
    assert out["members"] == 3
    assert "freeze failed" in out["freeze"] and "session fallback" in out["freeze"]
    assert out["status"] == -signal.SIGKILL
    assert out["left"] == []
    if mounts:
        errno_, message = out["required"]
        assert errno_ == 30  # EROFS
        assert 'spawning "true": creating the cgroup' in message


def test_wait_tree_in_a_thread_while_another_kills_the_tree(cgroup_parent):
    # wait_tree releases the GIL and holds no lock of the child: the main
    # thread runs Python and kills the tree meanwhile.
    tag = f"thread-{uuid.uuid4()}"
    with killing(daemonize(fs, tag, contain=True)) as p:
        result = []
        waiter = threading.Thread(target=lambda: result.append(p.wait_tree(timeout=30)))
        waiter.start()
        time.sleep(0.1)
        # (More while a short-lived subshell of the double fork lingers.)
        assert waiter.is_alive() and len(p.tree_pids()) >= TREE_SIZE
        p.kill_tree()
        waiter.join(10)
        assert result == [-signal.SIGKILL]
    assert tagged(tag) == []
