"""fastspawn.subprocess's keywords in place of preexec_fn: pdeathsig,
rlimits, cgroup, fds, require_vfork. Where the standard library can do the
same through preexec_fn, both are run and compared."""

import ctypes
import os
import resource
import signal
import sys
import threading
import time
import uuid

import pytest

import fastspawn.subprocess as fs
from conftest import PY

PR_SET_PDEATHSIG = 1
PR_GET_PDEATHSIG = 2

PRINT_PDEATHSIG = (
    "import ctypes; v = ctypes.c_int(); "
    "ctypes.CDLL(None, use_errno=True).prctl(2, ctypes.byref(v), 0, 0, 0); print(v.value)"
)


def set_pdeathsig_in_child():
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def test_pdeathsig_as_preexec_fn_sets_it(no_leaks):
    std_out = fs.run([PY, "-c", PRINT_PDEATHSIG], capture_output=True,
                     preexec_fn=set_pdeathsig_in_child).stdout  # fmt: skip
    fs_out = fs.run([PY, "-c", PRINT_PDEATHSIG], capture_output=True,
                    pdeathsig=signal.SIGTERM).stdout  # fmt: skip
    assert std_out == fs_out == b"15\n"


def test_pdeathsig_outlives_the_spawning_thread(no_leaks):
    # The kernel signals when the thread that created the child exits;
    # fastspawn creates it on a spawner thread that lives as long as the
    # process, so a short-lived Python thread does not kill the child.
    box = []
    t = threading.Thread(target=lambda: box.append(fs.Popen(["sleep", "10"], pdeathsig=9)))
    t.start()
    t.join()
    p = box[0]
    time.sleep(0.2)
    assert p.poll() is None, "the child died with the thread that spawned it"
    p.kill()
    assert p.wait() == -signal.SIGKILL


def test_pdeathsig_fires_when_the_process_exits(tmp_path):
    code = (
        "import fastspawn.subprocess as fs, sys; "
        "p = fs.Popen(['sleep', '30'], pdeathsig=9); print(p.pid, flush=True)"
    )
    out = fs.run([PY, "-c", code], capture_output=True, text=True, check=True).stdout
    pid = int(out)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
            if state == "Z":
                break
        except FileNotFoundError:
            break
        time.sleep(0.01)
    else:
        os.kill(pid, 9)
        pytest.fail("the orphan did not get its pdeathsig")


def test_rlimits_match_setrlimit_in_preexec_fn(no_leaks):
    code = (
        "import resource as r; "
        "print(r.getrlimit(r.RLIMIT_NOFILE), r.getrlimit(r.RLIMIT_CORE), "
        "r.getrlimit(r.RLIMIT_CPU))"
    )

    def preexec():
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 128))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_CPU, (100, resource.RLIM_INFINITY))

    std_out = fs.run([PY, "-c", code], capture_output=True, preexec_fn=preexec).stdout
    limits = {
        resource.RLIMIT_NOFILE: (64, 128),
        resource.RLIMIT_CORE: 0,
        resource.RLIMIT_CPU: (100, resource.RLIM_INFINITY),
    }
    p = fs.Popen([PY, "-c", code], stdout=fs.PIPE, rlimits=limits, require_vfork=True)
    assert p.communicate()[0] == std_out
    assert p.engine != "fork"
    # A sequence of pairs works too.
    out = fs.run([PY, "-c", code], capture_output=True, rlimits=list(limits.items())).stdout
    assert out == std_out


@pytest.mark.parametrize(
    "rlimits, error",
    [
        ({resource.RLIMIT_NOFILE: (10, 5)}, ValueError),
        ({9999: 1}, ValueError),
        ({resource.RLIMIT_NOFILE: "x"}, TypeError),
        ({resource.RLIMIT_NOFILE: (1, 2, 3)}, TypeError),
    ],
)
def test_bad_rlimits(rlimits, error, no_leaks):
    with pytest.raises(error):
        fs.run(["true"], rlimits=rlimits)


def test_fds_mapping_with_a_swap(no_leaks):
    ra, wa = os.pipe()
    rb, wb = os.pipe()
    code = "import os; os.write(3, b'three'); os.write(4, b'four')"
    try:
        # child 3 <- wb, child 4 <- wa: if wa and wb happen to be 3 and 4, this is a swap.
        with open(wb, "wb", closefd=False) as wb_file:
            p = fs.Popen([PY, "-c", code], fds={3: wb_file, 4: wa}, require_vfork=True)
            assert p.wait() == 0
        assert os.read(rb, 100) == b"three"
        assert os.read(ra, 100) == b"four"
    finally:
        for fd in (ra, wa, rb, wb):
            os.close(fd)


def test_fds_swap_of_3_and_4(no_leaks):
    # Put two pipes' write ends exactly at 3 and 4 in a child process of
    # our own, then ask fastspawn there to swap them.
    code = r"""
import fcntl, os, fastspawn.subprocess as fs
ends = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for pair in (os.pipe(), os.pipe()) for fd in pair]
for fd in range(3, 10):
    try: os.close(fd)
    except OSError: pass
r1, w1, r2, w2 = ends
os.dup2(w1, 3); os.dup2(w2, 4)
p = fs.Popen(["sh", "-c", "echo to3 >&3; echo to4 >&4"], fds={3: 4, 4: 3})
assert p.wait() == 0
for fd in (3, 4, w1, w2): os.close(fd)
print(os.read(r1, 10), os.read(r2, 10))
"""
    out = fs.run([PY, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out == "b'to4\\n' b'to3\\n'\n"


@pytest.mark.parametrize(
    "fds, error",
    [
        ({3: "x"}, TypeError),
        ({3: 9999}, OSError),
        ({-1: 0}, ValueError),
        ([(3, 0)], TypeError),
        ({"3": 0}, TypeError),
    ],
)
def test_bad_fds(fds, error, no_leaks):
    with pytest.raises(error):
        fs.run(["true"], fds=fds)


def test_preexec_fn_runs_on_the_fork_path_and_require_vfork_refuses_it(no_leaks):
    p = fs.Popen(["true"], preexec_fn=os.getpid)
    assert p.wait() == 0 and p.engine == "fork"
    with pytest.raises(ValueError, match="require_vfork"):
        fs.Popen(["true"], preexec_fn=os.getpid, require_vfork=True)
    with pytest.raises(ValueError, match="preexec_fn"):
        fs.Popen(["true"], preexec_fn=os.getpid, rlimits={resource.RLIMIT_CORE: 0})
    if sys.version_info >= (3, 11):
        out = fs.run([PY, "-c", "import os; print(os.getpgid(0) == os.getpid())"],
                     preexec_fn=os.getpid, process_group=0, capture_output=True).stdout  # fmt: skip
        assert out == b"True\n"


@pytest.mark.parametrize("bad, error", [(0, ValueError), (65, ValueError), ("TERM", TypeError)])
def test_bad_pdeathsig(bad, error):
    with pytest.raises(error):
        fs.run(["true"], pdeathsig=bad)


def cgroup_parent():
    """A writable cgroup2 directory to make test cgroups in (this process's
    own cgroup2 directory), or None."""
    mount = None
    with open("/proc/self/mountinfo") as f:
        for line in f:
            fields = line.split()
            if fields[fields.index("-") + 1] == "cgroup2":
                mount = fields[4]
                break
    if mount is None:
        return None
    with open("/proc/self/cgroup") as f:
        own = next((x[3:] for x in f.read().splitlines() if x.startswith("0::")), "/")
    path = os.path.join(mount, own.lstrip("/"))
    return path if os.access(path, os.W_OK) else None


def test_cgroup_places_the_child(no_leaks):
    parent = cgroup_parent()
    if parent is None:
        pytest.skip("no writable cgroup2 directory here (needs root and cgroup2)")
    path = os.path.join(parent, f"fastspawn-test-{uuid.uuid4().hex[:8]}")
    try:
        os.mkdir(path)
    except OSError as e:
        pytest.skip(f"cannot make a cgroup under {parent}: {e}")
    try:
        out = fs.run(["cat", "/proc/self/cgroup"], cgroup=path, capture_output=True,
                     text=True, require_vfork=True).stdout  # fmt: skip
        assert out.splitlines()[-1].endswith("/" + os.path.basename(path)), out
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        try:
            out2 = fs.run(["cat", "/proc/self/cgroup"], cgroup=fd, capture_output=True,
                          text=True).stdout  # fmt: skip
        finally:
            os.close(fd)
        assert out2 == out
    finally:
        os.rmdir(path)
    with pytest.raises(FileNotFoundError):
        fs.run(["true"], cgroup=path)
