"""asyncio.create_subprocess_exec against fastspawn.asyncio, interleaved.

- throughput: M spawns of CHILD, at most K in flight (each awaits exit),
  spawns per second and CPU per spawn (this process and its children),
  split: the loop thread (RUSAGE_THREAD), the process's other threads
  (fastspawn's spawner and waiter threads, asyncio's watcher threads), the
  reaped children (RUSAGE_CHILDREN), with how busy the machine's CPUs
  were (/proc/stat, all of them) and this process's share of that; and once per round the
  loop thread's floor: its CPU per "spawn" of the same coroutine with the
  spawn and the wait replaced by two futures resolved by callbacks. The
  floor with fastspawn's threads and children gives the best throughput the
  package could reach on these CPUs if its loop-thread Python cost nothing
  more (the "limit" line);
- loop hold: one spawn at a time (create_subprocess_exec, then wait), with
  every callback the loop runs timed on its own (task steps, the callbacks
  of add_reader and call_soon): the synchronous part of the spawn call and
  each callback the loop then runs for that spawn. Per spawn, its longest
  callback is the time the spawn held the loop; p50 and p99 over all
  spawns, and p99 over the spawns none of whose callbacks was preempted
  (the loop thread's involuntary context switch count, RUSAGE_THREAD, did
  not move during it). The time the loop spends in epoll between callbacks
  is not a hold: other tasks could run then.

  python bench/asyncio_bench.py [--rounds 5] [--m 2000] [--k 16] [--hold 500] [--json]
                                [--linger US] [--spawner-threads N] [--spin US] -- CHILD

Without --json it also prints, per implementation, every kind of callback
one spawn makes the loop run, with its p50/p99 (not preempted).

The control (--control, on by default): the machine's own p99 for
callbacks of that length. In each round, after fastspawn.asyncio's hold
test, a pure-Python callback (a counting loop: no syscall, no object the
cyclic collector tracks) calibrated to the p50 of fastspawn.asyncio's
callbacks of that round (the count set by pilots in the control's own
conditions) runs as many times as those callbacks ran, timed by
the same timer, in groups of as many callbacks as one spawn made, each woken
like a spawn's: a helper thread sleeps ~30 µs (time.sleep) and hands the
callback to the loop with call_soon_threadsafe, so the loop thread goes
idle in epoll_wait before each, as between a spawn's callbacks. Per group,
its longest callback is the control's "hold": p50, p99 and p99 not
preempted, next to the real ones. If the control's p99 not preempted is
above a goal, no spawn made of that many callbacks of that length meets it
on this machine.

With --json it prints one JSON document instead of the text (read by the
benchmark CLI's `python-async` experiment): per implementation, the figures
of every round (throughput, CPU per spawn and its split under "cpu", loop
hold p50/p99/max, p99 and max not preempted, preempted spawns), the
control's figures of every round, the loop floor of every round
("loop_floor_us"), the CPUs ("cpus"), plus the settings and the interpreter.
"""

import argparse
import array
import asyncio
import json
import os
import platform
import resource
import statistics
import sys
import threading
import time

import fastspawn.asyncio as fa

IMPLS = {"asyncio": asyncio, "fastspawn.asyncio": fa}


def cpus():
    """The CPUs this process may run on."""
    return len(os.sched_getaffinity(0))


def machine_busy_s():
    """The CPU time the whole machine spent busy so far (``/proc/stat``:
    every state but idle and iowait; ticks of 10 ms) and its CPU count, or
    None."""
    try:
        with open("/proc/stat") as f:
            lines = f.read().splitlines()
        ticks = [int(v) for v in lines[0].split()[1:]]
    except (OSError, ValueError, IndexError):
        return None
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
    count = sum(1 for line in lines[1:] if line.startswith("cpu"))
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK"), max(1, count)


class CpuSplit:
    """Where the CPU of a stretch of the loop thread's work goes: the loop
    thread (RUSAGE_THREAD; it must be entered and left on that thread), the
    process's other threads (RUSAGE_SELF minus the loop thread: fastspawn's
    spawner and waiter threads, asyncio's watcher threads, exited ones
    included), the children reaped meanwhile (RUSAGE_CHILDREN), and how
    busy the machine's CPUs were (``/proc/stat``), with the share of that
    which this process and its children account for."""

    @staticmethod
    def _now():
        t = resource.getrusage(resource.RUSAGE_THREAD)
        s = resource.getrusage(resource.RUSAGE_SELF)
        c = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (
            t.ru_utime + t.ru_stime,
            s.ru_utime + s.ru_stime,
            c.ru_utime + c.ru_stime,
            machine_busy_s(),
            time.perf_counter(),
        )

    def __enter__(self):
        self._start = self._now()
        return self

    def __exit__(self, *exc):
        end = self._now()
        (t0, s0, c0, m0, w0), (t1, s1, c1, m1, w1) = self._start, end
        self.wall_s = w1 - w0
        self.loop_s = t1 - t0
        self.threads_s = max(0.0, (s1 - s0) - self.loop_s)
        self.children_s = c1 - c0
        own = (s1 - s0) + self.children_s
        if m0 is None or m1 is None or self.wall_s <= 0:
            self.busy = self.own = None
        else:
            machine = m1[0] - m0[0]
            self.busy = min(1.0, machine / (self.wall_s * m1[1]))
            self.own = min(1.0, own / machine) if machine > 0 else None

    def per_spawn(self, n):
        """The split per spawn (µs) and the machine's figures, for --json."""
        return {
            "loop_us": self.loop_s / n * 1e6,
            "threads_us": self.threads_s / n * 1e6,
            "children_us": self.children_s / n * 1e6,
            "busy": self.busy,
            "own": self.own,
        }


async def spawn_and_wait(m, child, sem):
    """One spawn + wait of CHILD through M (asyncio or fastspawn.asyncio),
    at most SEM's count at once: the unit of the throughput tests."""
    async with sem:
        p = await m.create_subprocess_exec(*child)
        if await p.wait() != 0:
            raise SystemExit("child failed")


async def throughput(m, child, k, n):
    """Spawns per second, CPU per spawn (process and children, µs) and the
    CPU split (``CpuSplit.per_spawn``)."""
    sem = asyncio.Semaphore(k)

    with CpuSplit() as split:
        await asyncio.gather(*[spawn_and_wait(m, child, sem) for _ in range(n)])
    cpu_us = (split.loop_s + split.threads_s + split.children_s) / n * 1e6
    return n / split.wall_s, cpu_us, split.per_spawn(n)


async def loop_floor(k, n):
    """The loop thread's CPU per "spawn" (µs) of the same coroutine with
    the spawn and the wait replaced by two futures, each resolved by a
    callback of its own (as a spawn's result and its exit reach the loop):
    the semaphore, the task steps, the futures and callbacks that any
    asyncio spawn API awaited twice costs this bench, with no spawn."""
    loop = asyncio.get_running_loop()
    sem = asyncio.Semaphore(k)

    async def one():
        async with sem:
            for _ in range(2):
                f = loop.create_future()
                loop.call_soon(f.set_result, 0)
                await f

    with CpuSplit() as split:
        await asyncio.gather(*[one() for _ in range(n)])
    return split.loop_s / n * 1e6


def callback_name(cb):
    """What a loop callback is: a task step names its coroutine."""
    owner = getattr(cb, "__self__", None)
    if isinstance(owner, asyncio.Task):
        return f"task step: {owner.get_coro().__qualname__}"
    return getattr(cb, "__qualname__", repr(cb))


class CallbackTimer:
    """Times every callback the loop runs (asyncio's ``Handle._run``: task
    steps, ``call_soon`` callbacks and ``add_reader`` callbacks alike), each
    with whether the kernel preempted the loop thread during it (its
    involuntary context switch count, RUSAGE_THREAD, moved). Only for the
    loops of this module (pure-Python handles; not uvloop).

    The records go to an ``array`` and a ``bytearray`` (plus, with
    ``names``, a list of existing strings): no object that the cyclic
    garbage collector tracks is made per callback, so the measuring itself
    does not bring the collector's pauses sooner."""

    def __init__(self, names=False):
        self.ns = array.array("q")
        self.preempted = bytearray()
        self.names = [] if names else None

    def __len__(self):
        return len(self.ns)

    def __enter__(self):
        run = self._original = asyncio.events.Handle._run
        ns, preempted, names = self.ns.append, self.preempted.append, self.names
        clock = time.perf_counter_ns
        usage = resource.getrusage
        thread = resource.RUSAGE_THREAD

        def timed(handle):
            callback = handle._callback  # (None once cancelled)
            before = usage(thread).ru_nivcsw
            t0 = clock()
            run(handle)
            t1 = clock()
            preempted(usage(thread).ru_nivcsw != before)
            ns(t1 - t0)
            if names is not None:
                names.append(callback_name(callback))

        asyncio.events.Handle._run = timed
        return self

    def __exit__(self, *exc):
        asyncio.events.Handle._run = self._original


async def hold(m, child, n, steps=None):
    """One spawn at a time: per spawn, its longest loop callback (the
    synchronous part of create_subprocess_exec and every callback the loop
    then runs for that spawn, each timed on its own) and whether that
    spawn had a preempted callback. ``steps``, if given, collects every
    callback's (name, ns, preempted)."""
    # Per spawn, its callbacks are timer[start:end]: start and end kept in
    # an array, not as a tuple per spawn, which the cyclic collector tracks
    # (a gen-0 collection, 20-500 µs, inside a timed callback every ~350
    # spawns, as the timer's records would without their arrays).
    bounds = array.array("q")
    timer = CallbackTimer(names=steps is not None)
    with timer:
        for _ in range(n):
            start = len(timer)
            p = await m.create_subprocess_exec(*child)
            await p.wait()
            del p
            # A turn of the loop of its own between two spawns, so that no
            # callback does the end of one and the start of the next.
            await asyncio.sleep(0)
            # The step that resumes here (and starts the next spawn) is
            # counted with the next spawn; the last one is not timed. The
            # figures are worked out after the loop, not in a timed step.
            bounds.append(start)
            bounds.append(len(timer))
    spans = list(zip(bounds[::2], bounds[1::2]))
    per_spawn = []
    for start, end in spans:
        if end == start:
            per_spawn.append((0.0, False))
            continue
        longest = max(timer.ns[start:end])
        per_spawn.append((longest / 1e9, any(timer.preempted[start:end])))
        if steps is not None:
            seen = {}
            for i in range(start, end):
                name = timer.names[i]
                seen[name] = seen.get(name, 0) + 1
                nth = seen[name]
                label = f"{name} #{nth}" if nth < 4 else f"{name} #4+"
                steps.append((label, timer.ns[i], bool(timer.preempted[i])))
    return per_spawn, timer, spans


def burn(n):
    """The control's work: a counting loop (small ints, no syscall, no
    object the cyclic collector tracks)."""
    x = 0
    for i in range(n):
        x += i
    return x


def calibrate(target_ns):
    """The count for which ``burn`` takes ``target_ns`` (median of runs)."""
    n, clock = 2000, time.perf_counter_ns
    for _ in range(3):
        runs = []
        for _ in range(101):
            t0 = clock()
            burn(n)
            runs.append(clock() - t0)
        n = max(1, round(n * target_ns / statistics.median(runs)))
    return n


async def control(groups, per_group, count, gap_s=30e-6):
    """``groups`` groups of ``per_group`` calls of ``burn(count)``, each
    handed to the loop by a helper thread after a ``gap_s`` sleep (the loop
    thread idle in epoll_wait meanwhile), timed by the same timer as the
    spawns' callbacks. Returns per group (longest callback in s, preempted)
    and the timer."""
    loop = asyncio.get_running_loop()
    done = loop.create_future()
    work = []  # the timer's index of each control callback

    def one():
        burn(count)

    def feeder():
        # A one-slot handshake: each callback is handed over after the
        # previous one ran, so they come one at a time like a spawn's.
        for _ in range(groups * per_group):
            time.sleep(gap_s)
            ran.acquire()
            loop.call_soon_threadsafe(one)
        loop.call_soon_threadsafe(done.set_result, None)

    ran = threading.Semaphore(1)
    timer = CallbackTimer()
    with timer:
        original = asyncio.events.Handle._run

        def released(handle):
            original(handle)
            if handle._callback is one:
                work.append(len(timer.ns))
                ran.release()

        asyncio.events.Handle._run = released
        try:
            thread = threading.Thread(target=feeder, daemon=True)
            thread.start()
            await done
        finally:
            asyncio.events.Handle._run = original
        thread.join()
    # ``released`` wraps the timer's function: the timer's entry for a
    # control callback is the one recorded just before its index was kept.
    idx = [i - 1 for i in work if i >= 1]
    ns = [timer.ns[i] for i in idx]
    pre = [bool(timer.preempted[i]) for i in idx]
    out = []
    for g in range(0, len(ns) - per_group + 1, per_group):
        out.append((max(ns[g : g + per_group]) / 1e9, any(pre[g : g + per_group])))
    calm_cb = [v for v, p in zip(ns, pre) if not p]
    return out, calm_cb


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def round_figures(rate, cpu_us, wall_s, gaps):
    """One round of one implementation, for --json (times in ns)."""
    all_gaps = [g for g, _ in gaps]
    calm = [g for g, pre in gaps if not pre]

    def ns(v):
        return None if v != v else int(v * 1e9)  # NaN: no such spawn

    return {
        "spawns_per_s": rate,
        "cpu_us_per_spawn": cpu_us,
        "throughput_wall_s": wall_s,
        "hold_p50_ns": ns(pct(all_gaps, 0.5)),
        "hold_p99_ns": ns(pct(all_gaps, 0.99)),
        "hold_max_ns": ns(max(all_gaps, default=float("nan"))),
        "hold_p99_unpreempted_ns": ns(pct(calm, 0.99)),
        "hold_max_unpreempted_ns": ns(max(calm, default=float("nan"))),
        "hold_preempted": len(all_gaps) - len(calm),
        "hold_spawns": len(all_gaps),
    }


def main():
    argv = sys.argv[1:]
    child = argv[argv.index("--") + 1 :] if "--" in argv else ["true"]
    argv = argv[: argv.index("--")] if "--" in argv else argv
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--m", type=int, default=2000)
    parser.add_argument("--k", type=int, default=16)
    parser.add_argument("--hold", type=int, default=500)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-control", dest="control", action="store_false")
    # How long fastspawn's spawner threads wait for a short child's exit
    # before the spawn reaches the loop (µs; the package's default if not set).
    parser.add_argument("--linger", type=int, default=None)
    # fastspawn.asyncio's spawner pool: its thread count (0: the core's
    # global pool, one thread per core) and its watch window (µs); the
    # package's defaults if not set.
    parser.add_argument("--spawner-threads", type=int, default=None)
    parser.add_argument("--spin", type=int, default=None)
    args = parser.parse_args(argv)
    from fastspawn import _fastspawn

    if args.linger is not None:
        _fastspawn.set_spawn_linger(args.linger)
    if args.spawner_threads is not None:
        _fastspawn.set_spawner_threads(args.spawner_threads)
    if args.spin is not None:
        _fastspawn.set_pool_spin(args.spin)
    rates = {name: [] for name in IMPLS}
    holds = {name: [] for name in IMPLS}
    rounds = {name: [] for name in IMPLS}
    steps = {name: [] for name in IMPLS}
    controls = []  # per round: the control's figures
    control_holds = []
    callbacks = {"fastspawn.asyncio": [], "control": []}
    splits = {name: [] for name in IMPLS}
    floors = []  # per round: the loop thread's floor per spawn, µs
    for i in range(args.rounds):
        floors.append(asyncio.run(loop_floor(args.k, args.m)))
        # Interleaved, and each round starts with the other implementation.
        order = list(IMPLS.items()) if i % 2 == 0 else list(reversed(IMPLS.items()))
        for name, m in order:
            t0 = time.perf_counter()
            rate, cpu_us, split = asyncio.run(throughput(m, child, args.k, args.m))
            wall = time.perf_counter() - t0
            gaps, timer, spans = asyncio.run(
                hold(m, child, args.hold, None if args.json else steps[name])
            )
            rates[name].append((rate, cpu_us))
            holds[name] += gaps
            figures = round_figures(rate, cpu_us, wall, gaps)
            figures["cpu"] = split
            rounds[name].append(figures)
            splits[name].append(split)
            if args.json:
                print(f"python-async: {name} round {i + 1}: {rate:.0f} spawns/s", file=sys.stderr)
            if name == "fastspawn.asyncio" and args.control:
                first, last = spans[0][0], spans[-1][1]
                calm = [timer.ns[j] for j in range(first, last) if not timer.preempted[j]]
                callbacks[name] += calm
                target = statistics.median(calm)
                per_group = max(1, round((last - first) / len(spans)))
                count = calibrate(target)
                # A callback woken after the loop idled runs slower than in
                # a tight loop: a pilot in the control's own conditions sets
                # the count, so that its p50 is the spawns' callbacks'.
                for _ in range(2):
                    _, pilot = asyncio.run(control(50, per_group, count))
                    if pilot:
                        count = max(1, round(count * target / statistics.median(pilot)))
                cgaps, ccalm = asyncio.run(control(len(spans), per_group, count))
                control_holds.extend(cgaps)
                callbacks["control"] += ccalm
                figures = round_figures(0.0, 0.0, 0.0, cgaps)
                figures.update(
                    target_ns=int(target),
                    callbacks_per_group=per_group,
                    burn_count=count,
                    callback_p50_ns=int(pct(ccalm, 0.5)),
                    callback_p99_unpreempted_ns=int(pct(ccalm, 0.99)),
                    spawn_callback_p99_unpreempted_ns=int(pct(calm, 0.99)),
                )
                for key in ("spawns_per_s", "cpu_us_per_spawn", "throughput_wall_s"):
                    del figures[key]
                controls.append(figures)
    if args.json:
        doc = {
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "k": args.k,
            "m": args.m,
            "hold": args.hold,
            "rounds": args.rounds,
            "child": child,
            "cpus": cpus(),
            "impls": rounds,
            "control": controls,
            "loop_floor_us": floors,
        }
        print(json.dumps(doc))
        return
    print(f"throughput, {args.k} in flight, {args.m} spawns x {args.rounds} rounds (median)")
    for name in IMPLS:
        rate = statistics.median(r for r, _ in rates[name])
        cpu_us = statistics.median(c for _, c in rates[name])
        print(f"  {name:20} {rate:8.0f} spawns/s  {cpu_us:7.0f} µs CPU per spawn")
    a = statistics.median(r for r, _ in rates["asyncio"])
    f = statistics.median(r for r, _ in rates["fastspawn.asyncio"])
    print(f"  fastspawn.asyncio / asyncio: {f / a:.2f}x")
    print("CPU per spawn (µs, median): loop thread, other threads, children;")
    print("machine busy, this process's share of it (least)")
    for name in IMPLS:
        med = {
            key: statistics.median(s[key] for s in splits[name])
            for key in ("loop_us", "threads_us", "children_us")
        }
        least = {
            key: min((s[key] for s in splits[name] if s[key] is not None), default=float("nan"))
            for key in ("busy", "own")
        }
        print(
            f"  {name:20} {med['loop_us']:7.1f} {med['threads_us']:7.1f} {med['children_us']:7.1f}"
            f"   {least['busy'] * 100:5.1f}% {least['own'] * 100:5.1f}%"
        )
    floor = statistics.median(floors)
    fs = splits["fastspawn.asyncio"]
    rest = statistics.median(s["threads_us"] + s["children_us"] for s in fs)
    bound = 1e6 / max((rest + floor) / cpus(), floor)
    print(
        f"  limit: the loop thread at its floor ({floor:.1f} µs, no spawn), the same threads"
        f" and children ({rest:.1f} µs), {cpus()} CPUs:"
        f" at best {bound:.0f} spawns/s, {bound / a:.2f}x asyncio"
    )
    print("loop held per spawn (µs): p50, p99, p99 not preempted (preempted spawns)")
    for name in IMPLS:
        all_gaps = [g for g, _ in holds[name]]
        calm = [g for g, pre in holds[name] if not pre]
        print(
            f"  {name:20} {pct(all_gaps, 0.5) * 1e6:8.1f} {pct(all_gaps, 0.99) * 1e6:8.1f} "
            f"{pct(calm, 0.99) * 1e6:8.1f}  ({len(all_gaps) - len(calm)} of {len(all_gaps)})"
        )
    if control_holds:
        calm = [g for g, pre in control_holds if not pre]
        every = [g for g, _ in control_holds]
        print(
            f"  {'control':20} {pct(every, 0.5) * 1e6:8.1f} {pct(every, 0.99) * 1e6:8.1f} "
            f"{pct(calm, 0.99) * 1e6:8.1f}  ({len(every) - len(calm)} of {len(every)})"
        )
        print("  (control: pure-Python callbacks of the p50 of fastspawn.asyncio's, in groups")
        print("   of as many as one spawn makes, each after the loop idled ~30 µs)")
        print("single callbacks, not preempted (µs): p50, p99")
        for name, values in callbacks.items():
            print(f"  {name:20} {pct(values, 0.5) / 1e3:8.1f} {pct(values, 0.99) / 1e3:8.1f}")
    print("loop callbacks per spawn (µs, not preempted): calls per spawn, p50, p99")
    for name in IMPLS:
        print(f"  {name}")
        spawns = len(holds[name]) or 1
        kinds = {}
        for kind, ns, pre in steps[name]:
            kinds.setdefault(kind, []).append(None if pre else ns / 1e3)
        for kind, values in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
            calm = [v for v in values if v is not None]
            print(f"    {kind[:60]:60} {len(values) / spawns:5.2f} "
                  f"{pct(calm, 0.5):7.1f} {pct(calm, 0.99):7.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
