//! `python-async`: `asyncio.create_subprocess_exec` against
//! `fastspawn.asyncio` (issue 12's asyncio goals).
//!
//! `bindings/python/bench/asyncio_bench.py --json` does the measuring, in
//! the benchmark's venv (`target/bench-venv`, or `FASTSPAWN_BENCH_PYTHON`):
//! per round, both implementations in turn (the order alternates), each
//! spawning the static noop child M times with 16 in flight, then one at a
//! time with every loop callback timed on its own (how long each spawn held
//! the loop). Each round is one repetition here.

use std::path::PathBuf;
use std::sync::OnceLock;

use anyhow::{Context, Result};
use serde::Deserialize;

use crate::bench::experiment::{
    Cell, Experiment, Extra, Measuring, Options, Plan, params, repo_root, run_script,
};
use crate::bench::peer::{PeerRun, Peers};
use crate::bench::record::{LoopCpu, Measurement, Repetition, TasksRep};
use crate::bench::stats::{self, Summary};
use crate::bench::table::{self, fmt_us, micros, stall_header, stall_row};
use crate::export::{Chart, ChartKind, Table};

pub struct PythonAsync;

const ABOUT: &str = "Python asyncio (issue 12): `asyncio.create_subprocess_exec` (the standard library: clone and exec on the loop thread, a watcher thread per child) against `fastspawn.asyncio.create_subprocess_exec` (the spawn runs on fastspawn's spawner threads, one waiter thread reaps the children as their io_uring `waitid` requests complete (Linux 6.7+; else as their pidfds become readable), and finished spawns and exits reach the loop through one eventfd it watches), on the static noop child, run in the benchmark venv's CPython. Throughput: spawn + wait with 16 in flight. Loop hold: one spawn at a time, every callback the loop runs timed on its own; per spawn, its longest callback (the synchronous part of the spawn call, or a callback run for that spawn) is the time the spawn held the loop.";

/// The runners: the label used in the JSON document and its description.
const IMPLS: [(&str, &str, &str); 2] = [
    (
        "asyncio",
        "asyncio",
        "`asyncio.create_subprocess_exec` (standard library)",
    ),
    (
        "fastspawn-asyncio",
        "fastspawn.asyncio",
        "`fastspawn.asyncio.create_subprocess_exec`",
    ),
];

/// The control's runner: pure-Python callbacks of the p50 of
/// fastspawn.asyncio's, in groups of as many as one spawn makes (the
/// machine's own p99 for a "spawn" of such callbacks).
const CONTROL: &str = "control-pure-python";

/// Spawns in flight in the throughput test (the issue's figure).
const IN_FLIGHT: u64 = 16;

/// The throughput goal: fastspawn.asyncio's spawns/s over asyncio's.
const GOAL: f64 = 4.0;

struct Settings {
    /// Spawns per throughput test, and spawns timed in the hold test.
    m: u64,
    hold: u64,
}

fn settings(opts: &Options) -> Settings {
    if opts.quick {
        Settings { m: 200, hold: 100 }
    } else {
        Settings { m: 2000, hold: 500 }
    }
}

/// Where the driver script and the venv's Python are.
struct Paths {
    script: PathBuf,
    python: PathBuf,
}

impl Paths {
    fn find() -> Paths {
        let root = repo_root("bindings/python/bench/asyncio_bench.py");
        let python = std::env::var_os("FASTSPAWN_BENCH_PYTHON")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("target/bench-venv/bin/python"));
        Paths {
            script: root.join("bindings/python/bench/asyncio_bench.py"),
            python,
        }
    }

    /// Why the experiment cannot run here, if it cannot (checked once).
    fn missing(&self) -> Option<String> {
        static MISSING: OnceLock<Option<String>> = OnceLock::new();
        MISSING.get_or_init(|| self.check()).clone()
    }

    fn check(&self) -> Option<String> {
        if !self.script.exists() {
            return Some(format!("{} is missing", self.script.display()));
        }
        if !self.python.exists() {
            return Some(format!(
                "the benchmark's venv ({}) is missing: `make bench-venv` makes it with the fastspawn wheel",
                self.python.display()
            ));
        }
        let imported = std::process::Command::new(&self.python)
            .args(["-c", "import fastspawn.asyncio"])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status();
        match imported {
            Ok(s) if s.success() => None,
            Ok(_) => Some(format!(
                "{} cannot import fastspawn.asyncio: install the package into it (`make bench-venv`, or `{} -m pip install ./bindings/python`)",
                self.python.display(),
                self.python.display()
            )),
            Err(err) => Some(format!("{} cannot run: {err}", self.python.display())),
        }
    }
}

impl Experiment for PythonAsync {
    fn name(&self) -> &'static str {
        "python-async"
    }

    fn about(&self) -> &'static str {
        ABOUT
    }

    fn plan(&self, opts: &Options, peers: &Peers) -> Plan {
        let s = settings(opts);
        let noop = vec![peers.noop()];
        let mut cells = Vec::new();
        for (test, n) in [("throughput", s.m), ("hold", s.hold)] {
            for (runner, _, _) in IMPLS {
                cells.push(Cell {
                    extra: Extra::default(),
                    runner: runner.to_string(),
                    params: params(&[("test", test.to_string())]),
                    run: PeerRun::new(runner, "wait", n, noop.clone()),
                    // One driver process sizes nothing: no pilot.
                    budget_s: f64::INFINITY,
                });
            }
        }
        let mut notes = vec![format!(
            "Throughput: {} spawn+wait of the noop child per repetition, {IN_FLIGHT} in flight; loop hold: {} spawns one at a time. Both implementations in the same Python process per repetition, in alternating order.",
            s.m, s.hold
        )];
        if let Some(why) = Paths::find().missing() {
            notes.push(format!("python-async skipped: {why}"));
        }
        Plan {
            reps: opts.reps(5),
            cells,
            notes,
        }
    }

    /// Rough figures of this machine: ~600 spawns/s for asyncio and a few
    /// ms of loop hold per spawn, ~3,000/s and ~1 ms for fastspawn.
    fn expected_s(&self, cell: &Cell) -> f64 {
        if Paths::find().missing().is_some() {
            return 0.0;
        }
        let per_spawn = match (cell.runner.as_str(), cell.params.get("test")) {
            ("asyncio", Some(t)) if t == "hold" => 10e-3,
            ("asyncio", _) => 1.7e-3,
            (_, Some(t)) if t == "hold" => 1e-3,
            _ => 0.4e-3,
        };
        cell.run.n as f64 * per_spawn
    }

    fn measure(&self, plan: &Plan, ctx: &mut Measuring) -> Vec<Measurement> {
        let paths = Paths::find();
        if let Some(why) = paths.missing() {
            return ctx.skip(self.name(), plan, why);
        }
        let s = settings(ctx.opts);
        match run_driver(&paths, plan, &s, ctx) {
            Ok(ms) => ms,
            Err(err) => {
                ctx.failures.push(format!("python-async: {err:#}"));
                Vec::new()
            }
        }
    }

    fn tables(&self, ms: &[Measurement]) -> Vec<Table> {
        let mut out = vec![throughput_table(ms)];
        out.extend(cpu_table(ms));
        out.push(hold_table(ms));
        out
    }

    fn charts(&self, ms: &[Measurement]) -> Vec<Chart> {
        let series = IMPLS
            .iter()
            .filter_map(|(runner, _, _)| Some((runner.to_string(), vec![rate(ms, runner)?])))
            .collect();
        vec![Chart {
            title: format!("Python asyncio: spawn+wait per second, {IN_FLIGHT} in flight"),
            kind: ChartKind::Bar,
            x: vec![format!("{IN_FLIGHT} in flight")],
            series,
            y_unit: "spawns/s".into(),
        }]
    }

    fn headline(&self, ms: &[Measurement]) -> Vec<String> {
        let mut out = Vec::new();
        if let (Some(fs), Some(std)) = (rate(ms, "fastspawn-asyncio"), rate(ms, "asyncio")) {
            out.push(format!(
                "Python asyncio, {IN_FLIGHT} in flight: fastspawn.asyncio {fs:.0} spawns/s, {:.1}x asyncio.create_subprocess_exec ({std:.0}/s; goal >= 4x)",
                fs / std
            ));
        }
        if let Some(l) = limit(ms) {
            out.push(limit_line(&l));
        }
        let hold = |runner: &str, get| {
            stats::median(&micros(table::find(ms, runner, &[("test", "hold")])?, get))
        };
        let p50 = |r: &Repetition| r.spawn_poll_p50_ns;
        let p99 = |r: &Repetition| r.spawn_poll_p99_unpreempted_ns;
        if let (Some(fs99), Some(std99)) = (hold("fastspawn-asyncio", p99), hold("asyncio", p99)) {
            let p50s = match (hold("fastspawn-asyncio", p50), hold("asyncio", p50)) {
                (Some(fs), Some(std)) => format!("; p50 {fs:.1} µs vs {std:.1} µs"),
                _ => String::new(),
            };
            out.push(format!(
                "time one Python spawn holds the asyncio loop, p99 not preempted: fastspawn.asyncio {fs99:.1} µs, asyncio.create_subprocess_exec {std99:.1} µs (goal <= 20 µs){p50s}"
            ));
        }
        if let Some(c99) = hold(CONTROL, p99) {
            let verdict = if c99 > 20.0 {
                "above the goal: on this machine, that many callbacks of that length with no syscall already exceed 20 µs at p99"
            } else {
                "within the goal: the rest is the spawn's own"
            };
            out.push(format!(
                "control, the same number of pure-Python callbacks of the same p50 (no syscall): p99 not preempted {c99:.1} µs ({verdict})"
            ));
        }
        out
    }
}

/// The median spawns per second of a runner's throughput cell.
fn rate(ms: &[Measurement], runner: &str) -> Option<f64> {
    tasks_figure(ms, runner, |t| t.tasks_per_s).map(|s| s.median)
}

fn tasks_figure(ms: &[Measurement], runner: &str, f: fn(&TasksRep) -> f64) -> Option<Summary> {
    let m = table::find(ms, runner, &[("test", "throughput")])?;
    stats::summarize(&m.tasks(f))
}

fn throughput_table(ms: &[Measurement]) -> Table {
    let header = vec![
        "runner".to_string(),
        "spawns/s".to_string(),
        "CPU per spawn (process + children)".to_string(),
        "spawns per repetition".to_string(),
    ];
    let mut rows = Vec::new();
    for (runner, _, label) in IMPLS {
        let Some(m) = table::find(ms, runner, &[("test", "throughput")]) else {
            continue;
        };
        let per_s = tasks_figure(ms, runner, |t| t.tasks_per_s);
        rows.push(vec![
            format!("{runner}: {label}"),
            per_s.map_or("–".into(), |s| {
                format!("{:.0} ±{:.0}%", s.median, s.spread_pct)
            }),
            fmt_us(tasks_figure(ms, runner, |t| t.worker_cpu_us_per_task)),
            m.n.to_string(),
        ]);
    }
    let mut notes = vec![rounds_note(ms)];
    if let (Some(fs), Some(std)) = (rate(ms, "fastspawn-asyncio"), rate(ms, "asyncio")) {
        notes.push(format!(
            "fastspawn.asyncio runs {:.2}x the spawns per second of asyncio.create_subprocess_exec (goal: at least 4x).",
            fs / std
        ));
    }
    notes.push("CPU per spawn: the Python process's user+system time and its reaped children's, over the throughput test.".into());
    Table {
        title: format!("python-async: spawn+wait throughput, {IN_FLIGHT} in flight"),
        about: ABOUT.into(),
        header,
        rows,
        notes,
    }
}

/// One figure of a throughput cell's CPU split, per repetition (finite
/// values only).
fn cpu_values(ms: &[Measurement], runner: &str, f: fn(&LoopCpu) -> Option<f64>) -> Vec<f64> {
    table::find(ms, runner, &[("test", "throughput")]).map_or_else(Vec::new, |m| {
        (m.repetitions.iter())
            .filter_map(|r| f(r.loop_cpu.as_ref()?))
            .filter(|v| v.is_finite())
            .collect()
    })
}

/// The median over a throughput cell's repetitions of one part of its CPU
/// split.
fn cpu_part(ms: &[Measurement], runner: &str, f: fn(&LoopCpu) -> Option<f64>) -> Option<f64> {
    stats::median(&cpu_values(ms, runner, f))
}

/// The least over a throughput cell's repetitions of one figure of its
/// CPU split.
fn cpu_least(ms: &[Measurement], runner: &str, f: fn(&LoopCpu) -> Option<f64>) -> Option<f64> {
    cpu_values(ms, runner, f).into_iter().reduce(f64::min)
}

fn cpu_table(ms: &[Measurement]) -> Option<Table> {
    let header = [
        "runner",
        "loop thread",
        "other threads",
        "children",
        "total",
        "machine busy (least)",
        "of it this process's (least)",
    ]
    .map(String::from)
    .to_vec();
    let us = |v: Option<f64>| v.map_or("–".into(), |v| format!("{v:.1} µs"));
    let share = |v: Option<f64>| v.map_or("–".into(), |v| format!("{:.0}%", v * 100.0));
    let rows: Vec<Vec<String>> = IMPLS
        .iter()
        .filter(|(runner, _, _)| cpu_part(ms, runner, |c| Some(c.loop_us)).is_some())
        .map(|(runner, _, _)| {
            vec![
                runner.to_string(),
                us(cpu_part(ms, runner, |c| Some(c.loop_us))),
                us(cpu_part(ms, runner, |c| Some(c.threads_us))),
                us(cpu_part(ms, runner, |c| Some(c.children_us))),
                us(cpu_part(ms, runner, |c| Some(c.total_us()))),
                share(cpu_least(ms, runner, |c| c.busy)),
                share(cpu_least(ms, runner, |c| c.own)),
            ]
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    let mut notes = vec![
        "CPU per spawn of the throughput test (medians over the rounds): the loop thread (RUSAGE_THREAD), the process's other threads (RUSAGE_SELF less the loop thread: fastspawn's spawner and waiter threads; asyncio's child-watcher threads), the reaped children (RUSAGE_CHILDREN: the noop child's exec and exit). Machine busy: the share of the CPUs' time that was not idle during the test (/proc/stat, anyone's work, 10 ms ticks); of it this process's: the share of that busy time the process and its children account for (below 100%: others worked on the machine too).".into(),
    ];
    if let Some(floor) = cpu_part(ms, "fastspawn-asyncio", |c| c.floor_us) {
        notes.push(format!(
            "The loop thread's floor: {floor:.1} µs per spawn, the same coroutine with the spawn and the wait replaced by two futures each resolved by a callback (semaphore, task steps, futures; no spawn), measured in each round."
        ));
    }
    if let Some(l) = limit(ms) {
        notes.push(limit_line(&l));
    }
    Some(Table {
        title: format!("python-async: where the CPU per spawn goes, {IN_FLIGHT} in flight"),
        about: ABOUT.into(),
        header,
        rows,
        notes,
    })
}

/// What the CPU split says of the throughput goal. With the machine busy
/// throughout with this load, spawns/s is at most the CPUs over the CPU
/// per spawn, and at most one over the loop thread's (it runs on one CPU).
/// The bound: fastspawn.asyncio with its loop thread at the floor and the
/// same other threads and children, against asyncio's measured spawns/s.
#[derive(Debug, Clone, Copy)]
struct Limit {
    /// fastspawn.asyncio / asyncio spawns/s, measured (medians).
    measured: f64,
    /// fastspawn.asyncio's spawns/s, measured and as the CPU predicts.
    fs_rate: f64,
    model_rate: f64,
    /// asyncio's spawns/s, measured.
    std_rate: f64,
    /// fastspawn.asyncio's best spawns/s with the loop at the floor, and
    /// that over asyncio's.
    bound_rate: f64,
    bound: f64,
    loop_us: f64,
    floor_us: f64,
    threads_us: f64,
    children_us: f64,
    cpus: f64,
    /// The least busy of fastspawn.asyncio's rounds.
    busy: f64,
    /// The least share of the busy CPU that the two loads' own process
    /// accounts for.
    own: f64,
}

/// The most spawns per second `cpus` CPUs can make when a spawn costs
/// `total_us` of CPU of which `serial_us` on one thread.
fn cpu_bound_rate(cpus: f64, total_us: f64, serial_us: f64) -> f64 {
    1e6 / (total_us / cpus).max(serial_us)
}

impl Limit {
    /// The bound is a bound only when the machine was busy during
    /// fastspawn.asyncio's load with the loads' own work (else the CPU does
    /// not bound spawns/s, or others took a share of it) and the CPU model
    /// explains the measured spawns/s within 10%.
    fn holds(&self) -> bool {
        self.busy >= 0.95
            && self.own >= 0.90
            && (self.model_rate / self.fs_rate - 1.0).abs() <= 0.10
    }

    fn out_of_reach(&self) -> bool {
        self.holds() && self.bound < GOAL
    }
}

fn limit(ms: &[Measurement]) -> Option<Limit> {
    let fs = "fastspawn-asyncio";
    let part = |f| cpu_part(ms, fs, f);
    let loop_us = part(|c| Some(c.loop_us))?;
    let threads_us = part(|c| Some(c.threads_us))?;
    let children_us = part(|c| Some(c.children_us))?;
    let floor_us = part(|c| c.floor_us)?;
    let cpus = part(|c| Some(c.cpus as f64))?;
    let (fs_rate, std_rate) = (rate(ms, fs)?, rate(ms, "asyncio")?);
    let bound_rate = cpu_bound_rate(cpus, floor_us + threads_us + children_us, floor_us);
    Some(Limit {
        measured: fs_rate / std_rate,
        fs_rate,
        model_rate: cpu_bound_rate(cpus, loop_us + threads_us + children_us, loop_us),
        std_rate,
        bound_rate,
        bound: bound_rate / std_rate,
        loop_us,
        floor_us,
        threads_us,
        children_us,
        cpus,
        busy: cpu_least(ms, fs, |c| c.busy)?,
        own: cpu_least(ms, fs, |c| c.own)?.min(cpu_least(ms, "asyncio", |c| c.own)?),
    })
}

fn limit_line(l: &Limit) -> String {
    let verdict = if l.out_of_reach() {
        "so the goal (>= 4x) is out of reach on this machine for any asyncio spawn API with these spawner threads and children"
    } else if l.bound < GOAL {
        "the bound is below the goal, but the CPU model does not hold in this run (the machine not busy throughout, or busy with other work, or the model more than 10% off the measured spawns/s): not proven out of reach"
    } else {
        "so the goal (>= 4x) is not proven out of reach"
    };
    format!(
        "fastspawn.asyncio's limit, {IN_FLIGHT} in flight: measured {:.2}x asyncio ({:.0} against {:.0} spawns/s); the CPU per spawn (loop thread {:.1} + other threads {:.1} + children {:.1} µs on {:.0} CPUs) predicts {:.0} spawns/s; with the loop thread at its floor ({:.1} µs, no spawn) and the same threads and children, at best {:.0} spawns/s, {:.2}x asyncio; machine busy >= {:.0}% during fastspawn.asyncio's load, >= {:.0}% of it the loads' own: {verdict}",
        l.measured,
        l.fs_rate,
        l.std_rate,
        l.loop_us,
        l.threads_us,
        l.children_us,
        l.cpus,
        l.model_rate,
        l.floor_us,
        l.bound_rate,
        l.bound,
        l.busy * 100.0,
        l.own * 100.0,
    )
}

/// The stall table's columns without the loop-gap ones (the driver times
/// the loop per spawn only).
const HOLD_COLUMNS: usize = 7;

fn hold_table(ms: &[Measurement]) -> Table {
    let mut header = stall_header("runner");
    header.truncate(HOLD_COLUMNS);
    header[1] = "loop hold p50".into();
    header.push("spawns measured".into());
    let rows = IMPLS
        .iter()
        .map(|(runner, _, label)| (*runner, *label))
        .chain([(
            CONTROL,
            "the same number of pure-Python callbacks of the same p50, no syscall",
        )])
        .filter_map(|(runner, label)| {
            let m = table::find(ms, runner, &[("test", "hold")])?;
            let mut row = stall_row(&format!("{runner}: {label}"), m);
            row.truncate(HOLD_COLUMNS);
            row.push(m.n.to_string());
            Some(row)
        })
        .collect();
    Table {
        title: "python-async: how long one spawn holds the asyncio loop".into(),
        about: ABOUT.into(),
        header,
        rows,
        notes: vec![
            "Loop hold: per spawn (create_subprocess_exec then wait, one at a time, a loop turn between spawns), the longest single loop callback: the synchronous part of create_subprocess_exec, or a callback the loop ran for that spawn (task steps, reader and call_soon callbacks; asyncio's Handle._run timed). The loop's epoll_wait between callbacks is not counted: other tasks can run then. Goal for fastspawn.asyncio: at most 20 µs at p99 when not preempted.".into(),
            "\"Not preempted\": over the spawns none of whose callbacks saw an involuntary context switch of the loop thread (RUSAGE_THREAD). On 2 cores the child and the spawner threads compete with the loop thread; a preempted callback measures the scheduler, not the spawn.".into(),
            "The standard library's figure includes waiting for the GIL while its watcher thread runs.".into(),
            "control-pure-python: in each round, after fastspawn.asyncio's hold test, a pure-Python callback (a counting loop: no syscall, no object the cyclic collector tracks) calibrated to the p50 of fastspawn.asyncio's callbacks of that round, run as many times as they ran, in groups of as many callbacks as one spawn made, each handed to the loop by a helper thread after a ~30 µs sleep (the loop idle in epoll_wait before each, as between a spawn's callbacks); per group, its longest callback. Its p99 not preempted is this machine's floor for a spawn made of that many callbacks of that length: above 20 µs, the goal cannot be met by shortening nothing but the syscalls.".into(),
            rounds_note(ms),
        ],
    }
}

/// How many rounds the medians are over (one Python process runs them
/// all, so the shared "fresh process each" note would not be true).
fn rounds_note(ms: &[Measurement]) -> String {
    let rounds = ms.iter().map(|m| m.repetitions.len()).min().unwrap_or(0);
    format!(
        "Median of {rounds} rounds in one Python process, both implementations in each, in alternating order; ± is half the range."
    )
}

/// The driver's JSON document (asyncio_bench.py --json).
#[derive(Debug, Deserialize)]
struct Doc {
    m: u64,
    hold: u64,
    impls: std::collections::BTreeMap<String, Vec<Round>>,
    /// The control's rounds (absent with --no-control).
    #[serde(default)]
    /// Per round: per group of callbacks, its longest.
    control: Vec<Hold>,
    /// The CPUs the driver could run on.
    #[serde(default)]
    cpus: Option<u32>,
    /// Per round: the loop thread's floor per spawn, µs.
    #[serde(default)]
    loop_floor_us: Vec<f64>,
}

#[derive(Debug, Deserialize)]
struct Round {
    spawns_per_s: f64,
    cpu_us_per_spawn: f64,
    /// The throughput test's CPU split.
    #[serde(default)]
    cpu: Option<RoundCpu>,
    #[serde(flatten)]
    hold: Hold,
}

/// One throughput test's CPU per spawn by where it ran (µs), and the
/// machine's busy share and this process's share of it.
#[derive(Debug, Deserialize)]
struct RoundCpu {
    loop_us: f64,
    threads_us: f64,
    children_us: f64,
    busy: Option<f64>,
    own: Option<f64>,
}

/// How long the loop was held, per spawn (or per group of the control's
/// callbacks), in one round.
#[derive(Debug, Deserialize)]
struct Hold {
    hold_p50_ns: Option<u64>,
    hold_p99_ns: Option<u64>,
    hold_max_ns: Option<u64>,
    hold_p99_unpreempted_ns: Option<u64>,
    hold_max_unpreempted_ns: Option<u64>,
    hold_preempted: u64,
    hold_spawns: u64,
}

impl Hold {
    fn repetition(&self) -> Repetition {
        Repetition {
            spawn_poll_p50_ns: self.hold_p50_ns,
            spawn_poll_p99_ns: self.hold_p99_ns,
            spawn_poll_max_ns: self.hold_max_ns,
            spawn_poll_p99_unpreempted_ns: self.hold_p99_unpreempted_ns,
            spawn_poll_max_unpreempted_ns: self.hold_max_unpreempted_ns,
            spawn_polls_preempted: Some(self.hold_preempted),
            ..Repetition::default()
        }
    }
}

fn run_driver(
    paths: &Paths,
    plan: &Plan,
    s: &Settings,
    ctx: &mut Measuring,
) -> Result<Vec<Measurement>> {
    let noop = plan
        .cells
        .first()
        .map(|c| c.run.child.clone())
        .context("no cells")?;
    let mut cmd = std::process::Command::new(&paths.python);
    cmd.arg(&paths.script)
        .args(["--rounds", &plan.reps.to_string()])
        .args(["--m", &s.m.to_string()])
        .args(["--k", &IN_FLIGHT.to_string()])
        .args(["--hold", &s.hold.to_string()])
        .arg("--json")
        .arg("--")
        .args(&noop);
    // One "python-async: <impl> round N" line per implementation and
    // round: its throughput and hold cells, two progress steps.
    let (stdout, tail) = run_script(cmd, &paths.script, ctx.bar, |line| {
        line.strip_prefix("python-async: ")
            .map(|msg| (2, format!("python-async {msg}")))
    })?;
    let doc: Doc = serde_json::from_str(&stdout)
        .with_context(|| format!("reading the driver's report: {tail}"))?;
    measurements(&doc, &noop)
}

/// The measurements of a driver report: per implementation, a throughput
/// and a hold cell with one repetition per round.
fn measurements(doc: &Doc, child: &[String]) -> Result<Vec<Measurement>> {
    let mut out = Vec::new();
    for (runner, key, _) in IMPLS {
        let rounds = doc
            .impls
            .get(key)
            .with_context(|| format!("the driver's report has no {key}"))?;
        let cell = |test: &str, n: u64, repetitions: Vec<Repetition>| Measurement {
            experiment: "python-async".into(),
            runner: runner.to_string(),
            params: params(&[("test", test.to_string())]),
            mode: "wait".into(),
            n,
            n_requested: n,
            child: child.to_vec(),
            repetitions,
        };
        let throughput = rounds
            .iter()
            .enumerate()
            .map(|(i, r)| Repetition {
                total_ns: (doc.m as f64 / r.spawns_per_s * 1e9) as u64,
                tasks: Some(TasksRep {
                    tasks: doc.m,
                    tasks_per_s: r.spawns_per_s,
                    worker_cpu_us_per_task: r.cpu_us_per_spawn,
                    ..TasksRep::default()
                }),
                loop_cpu: r.cpu.as_ref().map(|c| LoopCpu {
                    loop_us: c.loop_us,
                    threads_us: c.threads_us,
                    children_us: c.children_us,
                    floor_us: doc.loop_floor_us.get(i).copied(),
                    cpus: doc.cpus.unwrap_or(1),
                    busy: c.busy,
                    own: c.own,
                }),
                ..Repetition::default()
            })
            .collect();
        let hold = rounds.iter().map(|r| r.hold.repetition()).collect();
        let hold_n = rounds.iter().map(|r| r.hold.hold_spawns).min().unwrap_or(0);
        out.push(cell("throughput", doc.m, throughput));
        let mut h = cell("hold", doc.hold, hold);
        h.n = hold_n;
        out.push(h);
    }
    if !doc.control.is_empty() {
        let repetitions = doc.control.iter().map(Hold::repetition).collect();
        out.push(Measurement {
            experiment: "python-async".into(),
            runner: CONTROL.into(),
            params: params(&[("test", "hold".to_string())]),
            mode: "wait".into(),
            n: doc.control.iter().map(|r| r.hold_spawns).min().unwrap_or(0),
            n_requested: doc.hold,
            child: Vec::new(),
            repetitions,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A driver report as asyncio_bench.py --json prints it (2 rounds),
    /// laid out: the ratio and the hold figures are the rounds' medians.
    #[test]
    fn a_driver_report_becomes_tables_and_a_headline() {
        let round = |rate: f64, p50: u64, p99: u64, calm99: u64| {
            format!(
                r#"{{"spawns_per_s":{rate},"cpu_us_per_spawn":300.0,"throughput_wall_s":1.0,"hold_p50_ns":{p50},"hold_p99_ns":{p99},"hold_max_ns":{p99},"hold_p99_unpreempted_ns":{calm99},"hold_max_unpreempted_ns":{calm99},"hold_preempted":3,"hold_spawns":500}}"#
            )
        };
        let doc = format!(
            r#"{{"python":"3.11.7","implementation":"CPython","k":16,"m":2000,"hold":500,"rounds":2,"child":["noop"],
              "impls":{{"asyncio":[{},{}],"fastspawn.asyncio":[{},{}]}},
              "control":[{},{}]}}"#,
            round(500.0, 300_000, 900_000, 800_000),
            round(700.0, 500_000, 1_100_000, 1_000_000),
            round(2400.0, 8_000, 30_000, 14_000),
            round(2600.0, 10_000, 50_000, 16_000),
            round(0.0, 7_000, 40_000, 30_000),
            round(0.0, 9_000, 44_000, 34_000),
        );
        let doc: Doc = serde_json::from_str(&doc).unwrap();
        let ms = measurements(&doc, &["noop".to_string()]).unwrap();
        assert_eq!(ms.len(), 5);
        let exp = PythonAsync;
        let tables = exp.tables(&ms);
        let fs = tables[0]
            .rows
            .iter()
            .find(|r| r[0].starts_with("fastspawn-asyncio:"))
            .unwrap();
        assert_eq!(fs[1], "2500 ±4%");
        assert_eq!(fs[2], "300.0 µs ±0%");
        assert!(
            tables[0].notes.iter().any(|n| n.contains("4.17x")),
            "{:?}",
            tables[0].notes
        );
        let hold = &tables[1];
        assert!(
            hold.notes.iter().any(|n| n.contains("Median of 2 rounds")),
            "{:?}",
            hold.notes
        );
        assert_eq!(hold.header.len(), hold.rows[0].len());
        let std = hold
            .rows
            .iter()
            .find(|r| r[0].starts_with("asyncio:"))
            .unwrap();
        assert_eq!(std[1], "400.0 µs ±25%");
        assert_eq!(std[3], "900.0 µs ±11%");
        assert_eq!(std[6], "3");
        assert_eq!(std[7], "500");
        let head = exp.headline(&ms);
        assert!(
            head[0].contains("2500 spawns/s") && head[0].contains("4.2x"),
            "{head:?}"
        );
        assert!(
            head[1].contains("fastspawn.asyncio 15.0 µs")
                && head[1].contains("900.0 µs")
                && head[1].contains("p50 9.0 µs"),
            "{head:?}"
        );
        // The control: a row of the hold table, and its p99 next to the goal.
        let control = hold
            .rows
            .iter()
            .find(|r| r[0].starts_with("control-pure-python:"))
            .unwrap();
        assert_eq!(control[1], "8.0 µs ±12%");
        assert_eq!(control[3], "32.0 µs ±6%");
        assert!(
            head[2].contains("p99 not preempted 32.0 µs") && head[2].contains("above the goal"),
            "{head:?}"
        );
    }

    /// A driver report with the CPU split: per round, fastspawn.asyncio's
    /// and asyncio's rates and splits, the loop floor and the machine.
    fn split_doc(
        fs_rate: f64,
        fs_cpu: [f64; 3],
        floor: f64,
        busy: f64,
        own: f64,
    ) -> Vec<Measurement> {
        let round = |rate: f64, [l, t, c]: [f64; 3], busy: f64, own: f64| {
            format!(
                r#"{{"spawns_per_s":{rate},"cpu_us_per_spawn":{},"cpu":{{"loop_us":{l},"threads_us":{t},"children_us":{c},"busy":{busy},"own":{own}}},"hold_p50_ns":9000,"hold_p99_ns":9000,"hold_max_ns":9000,"hold_p99_unpreempted_ns":9000,"hold_max_unpreempted_ns":9000,"hold_preempted":0,"hold_spawns":10}}"#,
                l + t + c
            )
        };
        let std = round(1000.0, [500.0, 200.0, 300.0], 0.99, 0.97);
        let fs = round(fs_rate, fs_cpu, busy, own);
        let doc = format!(
            r#"{{"m":10,"hold":10,"cpus":2,"loop_floor_us":[{floor},{floor}],"impls":{{"asyncio":[{std},{std}],"fastspawn.asyncio":[{fs},{fs}]}}}}"#
        );
        let doc: Doc = serde_json::from_str(&doc).unwrap();
        measurements(&doc, &[]).unwrap()
    }

    /// The limit line: the CPU model's spawns/s next to the measured, the
    /// bound with the loop thread at its floor, and "out of reach" only
    /// when that bound is below 4x on a machine busy with this load whose
    /// CPU model explains the measurement.
    #[test]
    fn limit_lines_bound_fastspawn_by_the_loop_floor() {
        // 2 CPUs; loop 60 + threads 100 + children 500 µs: 330 µs per spawn
        // per CPU, 3,030/s predicted for 3,000 measured; the loop at its
        // floor of 20 µs: 310 µs, 3,226/s, 3.23x asyncio's 1,000/s.
        let ms = split_doc(3000.0, [60.0, 100.0, 500.0], 20.0, 0.99, 0.95);
        let l = limit(&ms).unwrap();
        assert!((l.measured - 3.0).abs() < 1e-9, "{l:?}");
        assert!((l.model_rate - 1e6 / 330.0).abs() < 1e-6, "{l:?}");
        assert!((l.bound_rate - 1e6 / 310.0).abs() < 1e-6, "{l:?}");
        assert!((l.bound - 1e3 / 310.0).abs() < 1e-9, "{l:?}");
        assert!(l.holds() && l.out_of_reach(), "{l:?}");
        let line = PythonAsync
            .headline(&ms)
            .into_iter()
            .find(|h| h.starts_with("fastspawn.asyncio's limit"))
            .unwrap();
        assert!(
            line.contains("measured 3.00x asyncio (3000 against 1000"),
            "{line}"
        );
        assert!(line.contains("predicts 3030 spawns/s"), "{line}");
        assert!(line.contains("floor (20.0 µs"), "{line}");
        assert!(line.contains("at best 3226 spawns/s, 3.23x"), "{line}");
        assert!(line.ends_with("is out of reach on this machine for any asyncio spawn API with these spawner threads and children"), "{line}");
        // The CPU table: one row per implementation, the limit in its notes.
        let tables = PythonAsync.tables(&ms);
        assert_eq!(tables.len(), 3, "throughput, CPU split, hold");
        let cpu = &tables[1];
        assert_eq!(
            cpu.rows[1],
            [
                "fastspawn-asyncio",
                "60.0 µs",
                "100.0 µs",
                "500.0 µs",
                "660.0 µs",
                "99%",
                "95%"
            ]
        );
        assert_eq!(cpu.rows[0][4], "1000.0 µs");
        assert!(cpu.notes.iter().any(|n| n == &line), "{:?}", cpu.notes);

        // Not busy throughout: the CPU does not bound spawns/s.
        let idle = limit(&split_doc(3000.0, [60.0, 100.0, 500.0], 20.0, 0.80, 0.95)).unwrap();
        assert!(idle.bound < GOAL && !idle.out_of_reach(), "{idle:?}");
        assert!(limit_line(&idle).ends_with(": not proven out of reach"));
        // Busy with others' work.
        let shared = limit(&split_doc(3000.0, [60.0, 100.0, 500.0], 20.0, 0.99, 0.50)).unwrap();
        assert!(
            (shared.own - 0.50).abs() < 1e-9 && !shared.out_of_reach(),
            "{shared:?}"
        );
        // The model 10% or more off the measured spawns/s.
        let off = limit(&split_doc(2500.0, [60.0, 100.0, 500.0], 20.0, 0.99, 0.95)).unwrap();
        assert!(!off.holds(), "{off:?}");
        // Cheap children: the bound is above the goal.
        let cheap = limit(&split_doc(5500.0, [60.0, 100.0, 200.0], 20.0, 0.99, 0.95)).unwrap();
        assert!(
            cheap.holds() && cheap.bound > GOAL && !cheap.out_of_reach(),
            "{cheap:?}"
        );
        assert!(limit_line(&cheap).ends_with("so the goal (>= 4x) is not proven out of reach"));
        // Without the floor there is no limit.
        let mut no_floor = split_doc(3000.0, [60.0, 100.0, 500.0], 20.0, 0.99, 0.95);
        for m in &mut no_floor {
            for r in &mut m.repetitions {
                if let Some(c) = r.loop_cpu.as_mut() {
                    c.floor_us = None;
                }
            }
        }
        assert!(limit(&no_floor).is_none());
    }

    /// One thread bounds spawns/s too: the loop thread's CPU per spawn,
    /// when it is more than the total over the CPUs.
    #[test]
    fn limit_lines_a_serial_loop_bounds_the_rate() {
        assert!((cpu_bound_rate(2.0, 420.0, 400.0) - 2500.0).abs() < 1e-9);
        assert!((cpu_bound_rate(2.0, 420.0, 100.0) - 1e6 / 210.0).abs() < 1e-9);
    }

    /// Without the control (--no-control), no control row or line.
    #[test]
    fn a_report_without_the_control_has_no_control_row() {
        let round = r#"{"spawns_per_s":100.0,"cpu_us_per_spawn":300.0,"throughput_wall_s":1.0,"hold_p50_ns":9000,"hold_p99_ns":9000,"hold_max_ns":9000,"hold_p99_unpreempted_ns":9000,"hold_max_unpreempted_ns":9000,"hold_preempted":0,"hold_spawns":10}"#;
        let doc = format!(
            r#"{{"m":10,"hold":10,"impls":{{"asyncio":[{round}],"fastspawn.asyncio":[{round}]}}}}"#
        );
        let doc: Doc = serde_json::from_str(&doc).unwrap();
        let ms = measurements(&doc, &[]).unwrap();
        assert_eq!(ms.len(), 4);
        let exp = PythonAsync;
        assert_eq!(exp.tables(&ms)[1].rows.len(), 2);
        assert_eq!(exp.headline(&ms).len(), 2);
    }

    /// A report that lacks one implementation is an error, not a half table.
    #[test]
    fn a_report_without_fastspawn_is_an_error() {
        let doc: Doc =
            serde_json::from_str(r#"{"m":10,"hold":10,"impls":{"asyncio":[]}}"#).unwrap();
        let err = measurements(&doc, &[]).unwrap_err();
        assert!(format!("{err:#}").contains("fastspawn.asyncio"), "{err:#}");
    }
}
