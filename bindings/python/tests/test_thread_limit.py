"""A spawner pool whose threads cannot start (a thread limit): the spawn
that needs it fails as the standard library's spawn fails at that limit
(`BlockingIOError`, EAGAIN), leaves no thread behind, and the next spawn
works once threads are free. Made real in a child interpreter put in a
cgroup v1 `pids` group capped at the tasks it has."""

import json
import os
import subprocess
import uuid

import pytest

from conftest import PY

PIDS = "/sys/fs/cgroup/pids"

CHILD = r"""
import asyncio, json, os, signal, subprocess, sys, time
import fastspawn.asyncio
import fastspawn.subprocess

group = sys.argv[1]
os.sys.stdout.reconfigure(line_buffering=True)

def cap(value):
    with open(os.path.join(group, "pids.max"), "w") as f:
        f.write(str(value))

def tasks():
    return len(os.listdir("/proc/self/task"))

messages = []

def outcome(call):
    try:
        call()
        return "ran"
    except OSError as e:
        messages.append(str(e))
        return [type(e).__name__, e.errno]

def settled_tasks(expected):
    # A joined thread leaves /proc/self/task just after its join returns.
    for _ in range(5000):
        if tasks() == expected:
            break
        time.sleep(0.001)
    return tasks()

async def std_async():
    p = await asyncio.create_subprocess_exec("true")
    await p.wait()

async def ours_async():
    p = await fastspawn.asyncio.create_subprocess_exec("true")
    return await p.wait()

with open(os.path.join(group, "cgroup.procs"), "w") as f:
    f.write(str(os.getpid()))
loop = asyncio.new_event_loop()
result = {"before": tasks()}
cap(result["before"])
result["std"] = outcome(lambda: subprocess.run(["true"]))
result["std_async"] = outcome(lambda: loop.run_until_complete(std_async()))
# Room for one thread: pools of two or more fail part-way, and the
# threads they started must be joined.
cap(result["before"] + 1)
result["pdeathsig"] = outcome(
    lambda: fastspawn.subprocess.run(["true"], pdeathsig=signal.SIGTERM))
result["Popen_pdeathsig"] = outcome(
    lambda: fastspawn.subprocess.Popen(["true"], pdeathsig=signal.SIGTERM).wait())
result["asyncio"] = outcome(lambda: loop.run_until_complete(ours_async()))
result["after"] = settled_tasks(result["before"])
result["messages"] = messages[2:]
cap("max")
result["next_pdeathsig"] = fastspawn.subprocess.run(
    ["sh", "-c", "exit 3"], pdeathsig=signal.SIGTERM).returncode
result["next_asyncio"] = loop.run_until_complete(ours_async())
print(json.dumps(result))
"""


def pids_usable():
    return os.access(PIDS, os.W_OK) and os.path.exists(os.path.join(PIDS, "cgroup.procs"))


@pytest.mark.skipif(
    not pids_usable(),
    reason=f"no writable cgroup v1 pids controller at {PIDS} (needs root and that mount): "
    "cannot make a thread start fail",
)
def test_a_pool_that_cannot_start_fails_the_spawn_as_the_standard_library_does():
    group = os.path.join(PIDS, f"fastspawn-pytest-{uuid.uuid4().hex[:12]}")
    os.mkdir(group)
    try:
        out = subprocess.run([PY, "-c", CHILD, group], capture_output=True, text=True, timeout=60)
    finally:
        os.rmdir(group)
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    eagain = ["BlockingIOError", 11]
    assert r["std"] == eagain, "the standard library's spawn failed at the cap"
    assert r["std_async"] == eagain
    assert r["pdeathsig"] == eagain, "fastspawn.subprocess.run on the pool"
    assert r["Popen_pdeathsig"] == eagain
    assert r["asyncio"] == eagain, "fastspawn.asyncio's spawner pool"
    assert r["after"] == r["before"], "no spawner thread is left after the failed starts"
    assert [m.split(":")[0] for m in r["messages"]] == ["[Errno 11] fastspawn"] * 2 + [
        "[Errno 11] fastspawn.asyncio"
    ], r["messages"]
    assert all("cannot start the spawner threads" in m for m in r["messages"]), r["messages"]
    assert r["next_pdeathsig"] == 3
    assert r["next_asyncio"] == 0
