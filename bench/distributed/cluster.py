#!/usr/bin/env python3
"""The `distributed` benchmark: fastspawn inside Dask's distributed workers.

Starts a real Dask cluster on this machine with the commands one runs on
separate machines (`dask scheduler`, then `dask worker tcp://...` twice, each
worker a separate process holding --hold-mib of data), submits short tasks
that each run a small program and return its output (tasks.py), and prints
one JSON document: per variant and data size, tasks per second, the task's
own latency (p50/p99 of the time the task spent running its program), and
the workers' CPU per task; then, with --kill-test, kills one worker with
SIGKILL in the middle of a run, checks that every task still completes
(rescheduled by the scheduler) and counts the retried tasks and the killed
worker's children left running (none where pdeathsig is set).

Every task's output is checked; a task that did not run its program fails
the run. Every process started (scheduler, workers, their children) is gone
when the script exits, which it checks by scanning /proc for the run's
token.

    python cluster.py --program target/peers/echo --hold-mib 0,2048 \
        --tasks 20000 --budget 60 --kill-test
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import tasks  # noqa: E402  (the workers import the same module)

TICK = os.sysconf("SC_CLK_TCK")


def log(msg):
    print(f"distributed: {msg}", file=sys.stderr, flush=True)


def proc_stat(pid):
    """(ppid, state, utime+stime, cutime+cstime, starttime) in ticks, or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read()
    except OSError:
        return None
    rest = raw[raw.rindex(b")") + 2 :].split()
    # rest[0] is field 3 (state); fields 14-17 are rest[11:15]; 22 is rest[19].
    return (
        int(rest[1]),
        rest[0].decode(),
        int(rest[11]) + int(rest[12]),
        int(rest[13]) + int(rest[14]),
        int(rest[19]),
    )


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    return 0


def children_of(pid):
    """The live (non-zombie) children of pid, as {pid: starttime}."""
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = proc_stat(int(entry))
            if st and st[0] == pid and st[1] != "Z":
                out[int(entry)] = st[4]
    return out


def processes_with(token):
    """Pids of the live processes whose command line contains token."""
    needle = token.encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        st = proc_stat(int(entry))
        if needle in cmd and st and st[1] != "Z":
            found.append(int(entry))
    return found


def percentile(sorted_values, q):
    if not sorted_values:
        return None
    k = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[k]


class Cluster:
    """A scheduler and two workers, each started as its own session (so that
    whatever they leave is found and killed at the end)."""

    def __init__(self, dask, workdir, token, hold_mib, nthreads):
        self.dask = dask
        self.workdir = workdir
        self.token = token
        # One size for both workers, or one per worker (the mixed cluster).
        self.holds = list(hold_mib) if isinstance(hold_mib, (list, tuple)) else [hold_mib] * 2
        self.nthreads = nthreads
        self.procs = []
        self.workers = {}
        self.address = None

    def _env(self, hold_mib):
        # Every process of the cluster imports tasks.py: the scheduler
        # deserializes the task graph, the workers run it (on a real cluster,
        # the module is installed on every node).
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(HERE)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
        )
        env["FASTSPAWN_BENCH_HOLD_MIB"] = str(hold_mib)
        return env

    def _start(self, argv, name, hold_mib=0):
        logf = open(self.workdir / f"{name}.log", "ab")
        # The token in argv[0]'s environment-free tail makes every process of
        # this run findable in /proc (dask keeps sys.argv in the cmdline).
        p = subprocess.Popen(
            argv + [f"--name={name}-{self.token}"] if name.startswith("w") else argv,
            stdout=logf,
            stderr=logf,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            env=self._env(hold_mib),
        )
        logf.close()
        self.procs.append(p)
        return p

    def start(self):
        sched_file = self.workdir / "scheduler.json"
        self._start(
            [
                self.dask,
                "scheduler",
                "--host=127.0.0.1",
                "--port=0",
                "--no-dashboard",
                f"--scheduler-file={sched_file}",
                f"--pid-file={self.workdir / ('scheduler-' + self.token + '.pid')}",
            ],
            "scheduler",
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                self.address = json.loads(sched_file.read_text())["address"]
                break
            except (OSError, ValueError, KeyError):
                time.sleep(0.1)
        else:
            raise RuntimeError("dask scheduler did not write its address in 60 s")
        for k in range(2):
            self.start_worker(f"w{k}")

    def start_worker(self, name):
        p = self._start(
            [
                self.dask,
                "worker",
                self.address,
                "--host=127.0.0.1",
                f"--nthreads={self.nthreads}",
                "--no-nanny",
                "--no-dashboard",
                "--memory-limit=0",
                f"--local-directory={self.workdir}",
                f"--preload={HERE / 'hold.py'}",
            ],
            name,
            self.holds[int(name[1:])],
        )
        self.workers[name] = p

    def stop(self):
        for p in self.procs:
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for p in self.procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
            # Whatever the session still holds (a task's child) goes too.
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def worker_pids(client):
    """{address: pid} of the workers the scheduler knows."""
    return client.run(os.getpid)


def cpu_ticks(pids):
    own = kids = 0
    for pid in pids:
        st = proc_stat(pid)
        if st:
            own += st[2]
            kids += st[3]
    return own, kids


def drive(client, fn, variant, program, token, n, budget, window):
    """Runs up to n tasks `fn(variant, program, token, i)` (fewer when
    `budget` seconds run out), keeping `window` tasks in flight, and yields
    each task's result once its output is checked: the program's echo of
    `token-i`, once per i."""
    from distributed import as_completed

    submitted = 0

    def submit(count):
        nonlocal submitted
        idx = list(range(submitted, submitted + count))
        submitted += count
        return client.map(
            fn, [variant] * count, [program] * count, [token] * count, idx, pure=False
        )

    t0 = time.perf_counter()
    ac = as_completed(submit(min(window, n)), with_results=True)
    seen = set()
    in_flight = min(window, n)
    for _fut, result in ac:
        i, out = result[0], result[1]
        expected = f"{token}-{i}\n".encode()
        if out != expected or i in seen:
            raise RuntimeError(f"{variant}: task {i} returned {out!r}, not {expected!r}")
        seen.add(i)
        yield result
        in_flight -= 1
        if in_flight <= window // 2 and submitted < n and time.perf_counter() - t0 < budget:
            more = min(window - in_flight, n - submitted)
            ac.update(submit(more))
            in_flight += more


def run_cell(client, variant, program, token, n, budget, window, pids):
    """Runs up to n tasks of one variant (see `drive`); tasks per second,
    their latency, and the workers' CPU per task."""
    fn = tasks.run_task_async if variant in tasks.ASYNC_VARIANTS else tasks.run_task
    cpu0 = cpu_ticks(pids)
    t0 = time.perf_counter()
    latencies = [
        secs for _i, _out, secs in drive(client, fn, variant, program, token, n, budget, window)
    ]
    wall = time.perf_counter() - t0
    cpu1 = cpu_ticks(pids)
    done = len(latencies)
    latencies.sort()
    per_task = lambda ticks: ticks * 1e6 / TICK / done  # noqa: E731
    return {
        "variant": variant,
        "tasks": done,
        "requested": n,
        "wall_s": wall,
        "tasks_per_s": done / wall,
        "latency_p50_us": percentile(latencies, 0.5) * 1e6,
        "latency_p99_us": percentile(latencies, 0.99) * 1e6,
        "worker_cpu_us_per_task": per_task(cpu1[0] - cpu0[0]),
        "children_cpu_us_per_task": per_task(cpu1[1] - cpu0[1]),
    }


def run_mixed(client, variant, program, token, n, budget, window, holds):
    """Runs tasks of one variant on a cluster whose two workers hold
    different amounts of data (`holds`: {worker pid: MiB}), at the same time
    and under the same load, and reports each worker's share: tasks done,
    their latency (the time a task spent running its program) and the
    worker's CPU per task."""
    cpu0 = {pid: proc_stat(pid) for pid in holds}
    t0 = time.perf_counter()
    latencies = {pid: [] for pid in holds}
    run = drive(client, tasks.run_task_here, variant, program, token, n, budget, window)
    for i, _out, secs, pid in run:
        if pid not in latencies:
            raise RuntimeError(f"{variant}: task {i} ran on {pid}, not a worker of the cluster")
        latencies[pid].append(secs)
    wall = time.perf_counter() - t0
    workers = []
    for pid, hold in holds.items():
        done = len(latencies[pid])
        lat = sorted(latencies[pid])
        st0, st1 = cpu0[pid], proc_stat(pid)
        ticks = (st1[2] + st1[3]) - (st0[2] + st0[3])
        workers.append(
            {
                "hold_mib": hold,
                "tasks": done,
                "tasks_per_s": done / wall,
                "latency_p50_us": percentile(lat, 0.5) * 1e6 if lat else 0.0,
                "latency_p99_us": percentile(lat, 0.99) * 1e6 if lat else 0.0,
                "worker_cpu_us_per_task": ticks * 1e6 / TICK / max(done, 1),
            }
        )
    return {"variant": variant, "requested": n, "wall_s": wall, "workers": workers}


def kill_test(cluster, client, variant, program, token, m, sleep_ms):
    """Kills worker w0 with SIGKILL while it runs tasks of `variant`."""
    fn = tasks.run_task_async if variant in tasks.ASYNC_VARIANTS else tasks.run_task
    logfile = cluster.workdir / f"executions-{variant}.log"
    futures = client.map(
        fn,
        [variant] * m,
        [program] * m,
        [token] * m,
        list(range(m)),
        [sleep_ms] * m,
        [str(logfile)] * m,
        pure=False,
    )
    victim = cluster.workers["w0"]
    deadline = time.monotonic() + 30
    kids = {}
    while time.monotonic() < deadline:
        kids = children_of(victim.pid)
        if len(kids) >= min(cluster.nthreads, 2):
            break
        time.sleep(0.01)
    if not kids:
        raise RuntimeError(f"{variant}: worker w0 never ran a task's program")
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait()
    time.sleep(0.2)  # pdeathsig is delivered at once; leave the kernel time
    orphans = [
        pid
        for pid, start in kids.items()
        if (st := proc_stat(pid)) and st[4] == start and st[1] != "Z"
    ]
    results = client.gather(futures)
    for i, out, _secs in results:
        if out != f"{token}-{i}\n".encode():
            raise RuntimeError(f"{variant}: task {i} returned {out!r} after the kill")
    executions = len(logfile.read_text().split())
    for pid in orphans:  # measured; now clean up
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    cluster.start_worker("w0")
    client.wait_for_workers(2, timeout=120)
    return {
        "variant": variant,
        "tasks": m,
        "completed": len(results),
        "executions": executions,
        "retried": executions - m,
        "children_at_kill": len(kids),
        "children_left_running": len(orphans),
    }


def available(variant):
    try:
        if variant.startswith("fastspawn"):
            __import__("fastspawn.asyncio" if "asyncio" in variant else "fastspawn.subprocess")
        return None
    except ImportError as e:
        return f"fastspawn is not importable here ({e})"


def run_mixed_cluster(dask, workdir, token, holds, args, variants, program):
    """The mixed cluster: worker w0 holds holds[0], w1 holds[1]; every
    variant runs `args.reps` times, interleaved."""
    cluster = Cluster(dask, workdir, token, holds, args.nthreads)
    cells = []
    try:
        cluster.start()
        from distributed import Client

        with Client(cluster.address, timeout=60) as client:
            client.wait_for_workers(2, timeout=120)
            by_pid = {}
            for name, p in cluster.workers.items():
                by_pid[p.pid] = cluster.holds[int(name[1:])]
            log(f"mixed cluster up, workers hold {sorted(by_pid.values())} MiB")
            for v in variants:  # warm-up
                run_mixed(client, v, program, token, 50, 60, 50, by_pid)
            for rep in range(args.reps):
                for v in variants:
                    cell = run_mixed(
                        client, v, program, token, args.tasks, args.budget, args.window, by_pid
                    )
                    cell["rep"] = rep
                    shares = ", ".join(
                        f"{w['hold_mib']} MiB {w['tasks']} tasks p50 {w['latency_p50_us']:.0f} µs"
                        for w in cell["workers"]
                    )
                    log(f"mixed {v}: {shares}")
                    cells.append(cell)
    finally:
        cluster.stop()
    return cells


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--program", required=True, help="the task's program (static echo)")
    ap.add_argument("--hold-mib", default="0,2048", help="data each worker holds, comma-separated")
    ap.add_argument("--tasks", type=int, default=20000, help="tasks per cell")
    ap.add_argument(
        "--budget", type=float, default=60, help="seconds per cell before it stops submitting"
    )
    ap.add_argument("--reps", type=int, default=1, help="interleaved repetitions of each cell")
    ap.add_argument("--window", type=int, default=256, help="tasks in flight")
    ap.add_argument("--nthreads", type=int, default=2, help="threads per worker")
    ap.add_argument(
        "--variants",
        default=",".join(tasks.SYNC_VARIANTS + tasks.ASYNC_VARIANTS),
        help="comma-separated",
    )
    ap.add_argument(
        "--mixed",
        action="store_true",
        help="also one cluster whose workers hold the smallest and the largest size, side by side",
    )
    ap.add_argument("--kill-test", action="store_true", help="kill a worker mid-run, per variant")
    ap.add_argument("--kill-tasks", type=int, default=40)
    ap.add_argument("--kill-sleep-ms", type=int, default=1500)
    ap.add_argument(
        "--workdir",
        default=None,
        help="where the cluster's logs go, kept (default: a directory of the run's own, "
        "removed after a clean run)",
    )
    args = ap.parse_args()

    from distributed import Client

    dask = str(Path(sys.executable).parent / "dask")
    program = str(Path(args.program).resolve())
    token = "fsdist" + uuid.uuid4().hex[:10]
    workdir = Path(args.workdir or f"/tmp/{token}")
    workdir.mkdir(parents=True, exist_ok=True)
    variants, skipped = [], {}
    for v in args.variants.split(","):
        why = available(v)
        if why:
            skipped[v] = why
            log(f"skipping {v}: {why}")
        else:
            variants.append(v)

    doc = {"token": token, "skipped": skipped, "cells": [], "kill": [], "mixed": [], "setup": {}}
    try:
        for hold in [int(h) for h in args.hold_mib.split(",")]:
            cluster = Cluster(dask, workdir, token, hold, args.nthreads)
            try:
                cluster.start()
                with Client(cluster.address, timeout=60) as client:
                    client.wait_for_workers(2, timeout=120)
                    pids = list(worker_pids(client).values())
                    rss = [rss_mib(p) for p in pids]
                    log(f"cluster up at {cluster.address}, workers {pids} hold {rss} MiB")
                    for v in variants:  # warm-up: imports, first spawns
                        run_cell(client, v, program, token, 50, 60, 50, pids)
                    for rep in range(args.reps):
                        for v in variants:
                            cell = run_cell(
                                client,
                                v,
                                program,
                                token,
                                args.tasks,
                                args.budget,
                                args.window,
                                pids,
                            )
                            cell.update(hold_mib=hold, rep=rep, worker_rss_mib=rss)
                            log(
                                f"{hold} MiB {v}: {cell['tasks']} tasks, "
                                f"{cell['tasks_per_s']:.0f}/s, p50 {cell['latency_p50_us']:.0f} µs"
                            )
                            doc["cells"].append(cell)
                    if args.kill_test and hold == max(int(h) for h in args.hold_mib.split(",")):
                        for v in variants:
                            k = kill_test(
                                cluster,
                                client,
                                v,
                                program,
                                token,
                                args.kill_tasks,
                                args.kill_sleep_ms,
                            )
                            k["hold_mib"] = hold
                            log(f"kill test {v}: {k}")
                            doc["kill"].append(k)
                            pids = list(worker_pids(client).values())
            finally:
                cluster.stop()
        sizes = [int(h) for h in args.hold_mib.split(",")]
        sync = [v for v in variants if v in tasks.SYNC_VARIANTS]
        if args.mixed and len(set(sizes)) > 1 and sync:
            doc["mixed"] = run_mixed_cluster(
                dask, workdir, token, [min(sizes), max(sizes)], args, sync, program
            )
    finally:
        time.sleep(0.2)
        left = processes_with(token)
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        doc["left_after_run"] = len(left)
    json.dump(doc, sys.stdout, indent=1)
    print()
    if doc["left_after_run"]:
        log(f"processes were left behind; the cluster's logs are in {workdir}")
        return 1
    if not args.workdir:  # the run's own directory: logs and Dask's scratch space
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
