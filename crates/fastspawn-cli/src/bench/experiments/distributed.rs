//! `distributed`: fastspawn as the process launcher inside Dask's workers
//! (`bench/distributed/`).
//!
//! `bench/distributed/cluster.py` starts a Dask scheduler and two workers
//! with the `dask scheduler` / `dask worker tcp://...` commands, each worker
//! holding 0 or 2 GiB, submits short tasks that each run the static `echo`
//! peer and return its output (checked), per variant, and then kills one
//! worker with SIGKILL in the middle of a run of every variant. It prints
//! one JSON document, which this module turns into measurements. It runs in
//! the benchmark's own venv (`make bench-venv`: `dask[distributed]` and the
//! fastspawn wheel from bindings/python).

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use serde::Deserialize;

use crate::bench::experiment::{
    Cell, Experiment, Extra, Measuring, Options, Plan, params, repo_root, run_script,
};
use crate::bench::peer::{PeerRun, Peers};
use crate::bench::record::{KillRep, Measurement, Repetition, TasksRep};
use crate::bench::stats;
use crate::bench::table::{self, gib, values};
use crate::export::{Chart, ChartKind, Table};

pub struct Distributed;

const ABOUT: &str = "fastspawn inside a real distributed engine: a Dask scheduler and 2 Dask workers started with `dask scheduler` and `dask worker tcp://...` as on separate machines, each worker holding data in memory, run short tasks that each start a small program (the static `echo`) and return its output, checked. Variants: how Python task code starts that program. Throughput is tasks per second through the whole cluster on this 2-core machine (scheduler, workers and children share the cores); latency is the time a task spent running its program, not Dask's queueing.";

/// The variants, their label, and whether the task's program dies with its
/// worker.
const VARIANTS: [(&str, &str, bool); 5] = [
    (
        "subprocess-preexec",
        "`subprocess.run` + `preexec_fn` setting pdeathsig (fork)",
        true,
    ),
    (
        "subprocess",
        "`subprocess.run` (vfork), no pdeathsig",
        false,
    ),
    (
        "fastspawn",
        "`fastspawn.subprocess.run(..., pdeathsig=SIGKILL)`",
        true,
    ),
    (
        "asyncio",
        "async task: `asyncio.create_subprocess_exec`, no pdeathsig",
        false,
    ),
    (
        "fastspawn-asyncio",
        "async task: `fastspawn.asyncio.create_subprocess_exec(..., pdeathsig=SIGKILL)`",
        true,
    ),
];

/// The figure the goals are read at: workers holding 2 GiB.
const BIG_MIB: u64 = 2048;

struct Settings {
    holds: Vec<u64>,
    tasks: u64,
    budget_s: f64,
    kill_tasks: u64,
    kill_sleep_ms: u64,
}

fn settings(opts: &Options) -> Settings {
    if opts.quick {
        Settings {
            holds: vec![0],
            tasks: 200,
            budget_s: 3.0,
            kill_tasks: 8,
            kill_sleep_ms: 500,
        }
    } else {
        Settings {
            holds: vec![0, BIG_MIB],
            tasks: 20_000,
            // Three rounds of 10 s cells rather than one of 25 s: the
            // flatness goal (within 5% from 0 to 2 GiB) is read on medians
            // and round-by-round ratios, and one round of 25 s swung by 17%.
            budget_s: 10.0,
            kill_tasks: 40,
            kill_sleep_ms: 1500,
        }
    }
}

/// Where the driver script and the venv's Python are.
struct Paths {
    script: PathBuf,
    python: PathBuf,
}

impl Paths {
    fn find() -> Paths {
        let dir = repo_root("bench/distributed/cluster.py").join("bench/distributed");
        let python = std::env::var_os("FASTSPAWN_BENCH_PYTHON")
            .map(PathBuf::from)
            .unwrap_or_else(|| dir.join("../../target/bench-venv/bin/python"));
        Paths {
            script: dir.join("cluster.py"),
            python,
        }
    }

    /// Why the experiment cannot run here, if it cannot.
    fn missing(&self) -> Option<String> {
        if !self.script.exists() {
            return Some(format!("{} is missing", self.script.display()));
        }
        if !self.python.exists() {
            return Some(format!(
                "the benchmark's venv ({}) is missing: `make bench-venv` installs dask[distributed] and the fastspawn wheel into it",
                self.python.display()
            ));
        }
        None
    }
}

impl Experiment for Distributed {
    fn name(&self) -> &'static str {
        "distributed"
    }

    fn about(&self) -> &'static str {
        ABOUT
    }

    fn plan(&self, opts: &Options, peers: &Peers) -> Plan {
        let s = settings(opts);
        let echo = peers.path("echo").display().to_string();
        let mut cells = Vec::new();
        let cell = |variant: &str, hold: u64, test: &str, n: u64, budget_s: f64| Cell {
            extra: Extra::default(),
            runner: variant.to_string(),
            params: params(&[("hold_mib", hold.to_string()), ("test", test.to_string())]),
            run: PeerRun::new(variant, "tasks", n, vec![echo.clone()]),
            budget_s,
        };
        for &hold in &s.holds {
            for (variant, _, _) in VARIANTS {
                cells.push(cell(variant, hold, "throughput", s.tasks, s.budget_s));
            }
        }
        let kill_hold = *s.holds.iter().max().unwrap_or(&0);
        if s.holds.len() > 1 {
            for (variant, _, _) in VARIANTS.iter().filter(|v| SYNC.contains(&v.0)) {
                cells.push(cell(variant, kill_hold, "mixed", s.tasks, s.budget_s));
            }
        }
        for (variant, _, _) in VARIANTS {
            cells.push(cell(
                variant,
                kill_hold,
                "kill",
                s.kill_tasks,
                s.kill_sleep_ms as f64 / 1e3 * 3.0,
            ));
        }
        let mut notes = vec![
            format!(
                "At most {} tasks per cell, fewer when {:.0} s run out (the count is in the table); 2 workers × 2 threads, 256 tasks in flight.",
                s.tasks, s.budget_s
            ),
            "Each worker holds its data as written memory (a worker preload, bench/distributed/hold.py), standing for the datasets and results a Dask worker keeps.".to_string(),
        ];
        if let Some(why) = Paths::find().missing() {
            notes.push(format!("distributed skipped: {why}"));
        }
        Plan {
            reps: if opts.quick {
                1
            } else if opts.full {
                5
            } else {
                3
            },
            cells,
            notes,
        }
    }

    /// The whole cluster run is one driver process; its cells are weighed
    /// by their budget, plus the cluster's start per data size.
    fn expected_s(&self, cell: &Cell) -> f64 {
        if Paths::find().missing().is_some() {
            return 0.0;
        }
        cell.budget_s + 1.0
    }

    fn measure(&self, plan: &Plan, ctx: &mut Measuring) -> Vec<Measurement> {
        let paths = Paths::find();
        if let Some(why) = paths.missing() {
            return ctx.skip(self.name(), plan, why);
        }
        let s = settings(ctx.opts);
        match run_cluster(&paths, plan, &s, ctx) {
            Ok(ms) => ms,
            Err(err) => {
                ctx.failures.push(format!("distributed: {err:#}"));
                Vec::new()
            }
        }
    }

    fn tables(&self, ms: &[Measurement]) -> Vec<Table> {
        let mut tables = vec![throughput_table(ms), kill_table(ms)];
        tables.extend(mixed_table(ms));
        tables
    }

    fn charts(&self, ms: &[Measurement]) -> Vec<Chart> {
        let holds = values(ms, "hold_mib");
        let series = VARIANTS
            .iter()
            .filter_map(|(variant, _, _)| {
                let ys: Vec<f64> = holds
                    .iter()
                    .map(|h| figure(ms, variant, h, |t| t.tasks_per_s).unwrap_or(0.0))
                    .collect();
                ys.iter()
                    .any(|y| *y > 0.0)
                    .then(|| (variant.to_string(), ys))
            })
            .collect();
        vec![Chart {
            title: "Dask tasks per second, by the data each worker holds".into(),
            kind: ChartKind::Bar,
            x: holds.iter().map(|h| gib(h)).collect(),
            series,
            y_unit: "tasks/s".into(),
        }]
    }

    fn headline(&self, ms: &[Measurement]) -> Vec<String> {
        let big = BIG_MIB.to_string();
        let tps = |variant: &str, hold: &str| figure(ms, variant, hold, |t| t.tasks_per_s);
        let mut out = Vec::new();
        if let (Some(fs), Some(pre), Some(plain)) = (
            tps("fastspawn", &big),
            tps("subprocess-preexec", &big),
            tps("subprocess", &big),
        ) {
            let rounds = per_round(ms, "fastspawn", &big)
                .zip(per_round(ms, "fastspawn", "0"))
                .map(|(big, small)| {
                    let each: Vec<String> = big
                        .iter()
                        .zip(&small)
                        .map(|(b, s)| format!("{:+.1}%", (b / s - 1.0) * 100.0))
                        .collect();
                    format!(", round by round {}", each.join(" "))
                })
                .unwrap_or_default();
            let flat = tps("fastspawn", "0")
                .map(|small| {
                    format!(
                        "; fastspawn at 0 GiB: {small:.0} tasks/s ({:+.1}%{rounds})",
                        (fs / small - 1.0) * 100.0
                    )
                })
                .unwrap_or_default();
            out.push(format!(
                "Dask workers holding 2 GiB: fastspawn with pdeathsig {fs:.0} tasks/s, {:.1}x `subprocess.run` + a pdeathsig `preexec_fn` ({pre:.0}/s; goal >= 5x) and {:.2}x plain `subprocess.run` without pdeathsig ({plain:.0}/s; goal >= 1x){flat} (goal: within 5%)",
                fs / pre,
                fs / plain
            ));
        }
        let mixed: Vec<String> = SYNC
            .iter()
            .rev()
            .filter_map(|variant| {
                let tps = mixed_ratio(ms, variant, &big, |t| t.tasks_per_s)?;
                let p50 = mixed_ratio(ms, variant, &big, |t| t.latency_p50_us)?;
                Some(format!(
                    "{variant}: tasks/s {}, task p50 {}",
                    fmt_change(tps),
                    fmt_change(p50)
                ))
            })
            .collect();
        if !mixed.is_empty() {
            out.push(format!(
                "Dask, one cluster, a worker holding 2 GiB beside an empty one at the same time, the 2 GiB worker against the empty one: {} (goal: fastspawn within 5%)",
                mixed.join("; ")
            ));
        }
        let kills: Vec<String> = VARIANTS
            .iter()
            .filter_map(|(variant, _, _)| {
                let k = kill_of(ms, variant)?;
                Some(format!("{variant} {}", k.children_left_running))
            })
            .collect();
        if !kills.is_empty() {
            out.push(format!(
                "Dask worker killed with SIGKILL mid-run: its tasks' programs left running: {} (every task completed, rerun by the scheduler)",
                kills.join(", ")
            ));
        }
        out
    }
}

/// The median over repetitions of one figure of one throughput cell.
fn figure(
    ms: &[Measurement],
    variant: &str,
    hold: &str,
    f: impl Fn(&TasksRep) -> f64,
) -> Option<f64> {
    let m = table::find(ms, variant, &[("hold_mib", hold), ("test", "throughput")])?;
    stats::median(&m.tasks(f))
}

/// Tasks per second of one throughput cell, repetition by repetition.
fn per_round(ms: &[Measurement], variant: &str, hold: &str) -> Option<Vec<f64>> {
    let m = table::find(ms, variant, &[("hold_mib", hold), ("test", "throughput")])?;
    Some(m.tasks(|t| t.tasks_per_s))
}

/// The variants a mixed cluster runs (tasks that say which worker ran them).
const SYNC: [&str; 3] = ["subprocess-preexec", "subprocess", "fastspawn"];

/// Round by round in the mixed cluster, `f` of the worker holding `big`
/// over `f` of the worker holding none: the median and every round's.
fn mixed_ratio(
    ms: &[Measurement],
    variant: &str,
    big: &str,
    f: fn(&TasksRep) -> f64,
) -> Option<(f64, Vec<f64>)> {
    let get = |hold: &str| -> Option<Vec<f64>> {
        let m = table::find(ms, variant, &[("hold_mib", hold), ("test", "mixed")])?;
        Some(m.tasks(f))
    };
    let ratios: Vec<f64> = get(big)?
        .iter()
        .zip(&get("0")?)
        .filter(|(_, s)| **s > 0.0)
        .map(|(b, s)| b / s)
        .collect();
    Some((stats::median(&ratios)?, ratios))
}

/// `+1.2% (rounds +1.0% +3.1% -0.4%)`.
fn fmt_change((median, rounds): (f64, Vec<f64>)) -> String {
    let each: Vec<String> = rounds
        .iter()
        .map(|r| format!("{:+.1}%", (r - 1.0) * 100.0))
        .collect();
    format!(
        "{:+.1}% (rounds {})",
        (median - 1.0) * 100.0,
        each.join(" ")
    )
}

fn mixed_table(ms: &[Measurement]) -> Option<Table> {
    let big = ms
        .iter()
        .filter(|m| m.param("test") == Some("mixed"))
        .filter_map(|m| m.param("hold_mib")?.parse::<u64>().ok())
        .max()
        .filter(|h| *h > 0)?
        .to_string();
    let g = gib(&big);
    let header = vec![
        "variant".to_string(),
        "tasks/s, worker holding 0".to_string(),
        format!("tasks/s, worker holding {g}"),
        format!("task p50, 0 / {g}"),
        format!("worker CPU per task, 0 / {g}"),
        format!("{g} against 0: tasks/s"),
        format!("{g} against 0: task p50"),
    ];
    let mut rows = Vec::new();
    for (variant, label, _) in VARIANTS.iter().filter(|v| SYNC.contains(&v.0)) {
        let at = |hold: &str, f: fn(&TasksRep) -> f64| -> Option<f64> {
            let m = table::find(ms, variant, &[("hold_mib", hold), ("test", "mixed")])?;
            stats::median(&m.tasks(f))
        };
        let (Some(small), Some(large)) = (at("0", |t| t.tasks_per_s), at(&big, |t| t.tasks_per_s))
        else {
            continue;
        };
        let us = |v: Option<f64>| match v {
            Some(v) if v >= 10_000.0 => format!("{:.1} ms", v / 1e3),
            Some(v) => format!("{v:.0} µs"),
            None => "–".into(),
        };
        rows.push(vec![
            format!("{variant}: {label}"),
            format!("{small:.0}"),
            format!("{large:.0}"),
            format!(
                "{} / {}",
                us(at("0", |t| t.latency_p50_us)),
                us(at(&big, |t| t.latency_p50_us))
            ),
            format!(
                "{} / {}",
                us(at("0", |t| t.worker_cpu_us_per_task)),
                us(at(&big, |t| t.worker_cpu_us_per_task))
            ),
            mixed_ratio(ms, variant, &big, |t| t.tasks_per_s).map_or("–".into(), fmt_change),
            mixed_ratio(ms, variant, &big, |t| t.latency_p50_us).map_or("–".into(), fmt_change),
        ]);
    }
    Some(Table {
        title: format!("Dask: one worker holding {g} beside one holding none, at the same time"),
        about: "The same cluster, the same moment, the same load: worker w0 holds nothing and w1 holds the largest size; tasks go to whichever worker the scheduler picks, and each reports which worker ran it. Sizes measured in separate clusters (the first table) meet whatever the machine did in between; here both sizes share every round.".into(),
        header,
        rows,
        notes: vec![
            table::reps_note(ms),
            "Task p50: the time a task spent running its program (spawn, wait, read its output). Worker CPU per task: the worker process's and its reaped children's. Goal for fastspawn: the worker holding data within 5% of the empty one.".into(),
        ],
    })
}

fn kill_of<'a>(ms: &'a [Measurement], variant: &str) -> Option<&'a KillRep> {
    let m = ms
        .iter()
        .find(|m| m.runner == variant && m.param("test") == Some("kill"))?;
    m.repetitions
        .iter()
        .rev()
        .find_map(|r| r.tasks.as_ref()?.kill.as_ref())
}

fn throughput_table(ms: &[Measurement]) -> Table {
    let holds: Vec<String> = values(ms, "hold_mib");
    let mut header = vec!["variant".to_string(), "dies with its worker".to_string()];
    for h in &holds {
        let g = gib(h);
        header.extend([
            format!("{g}: tasks/s"),
            format!("{g}: task p50 / p99"),
            format!("{g}: worker CPU / task"),
            format!("{g}: tasks"),
        ]);
    }
    let mut rows = Vec::new();
    for (variant, label, dies) in VARIANTS {
        let mut row = vec![
            format!("{variant}: {label}"),
            if dies { "yes" } else { "no" }.to_string(),
        ];
        let mut any = false;
        for h in &holds {
            let m = table::find(ms, variant, &[("hold_mib", h), ("test", "throughput")]);
            let Some(m) = m else {
                row.extend([
                    "–".to_string(),
                    "–".to_string(),
                    "–".to_string(),
                    "–".to_string(),
                ]);
                continue;
            };
            any = true;
            let f = |g: fn(&TasksRep) -> f64| figure(ms, variant, h, g);
            let us = |v: Option<f64>| match v {
                Some(v) if v >= 10_000.0 => format!("{:.1} ms", v / 1e3),
                Some(v) => format!("{v:.0} µs"),
                None => "–".into(),
            };
            row.push(f(|t| t.tasks_per_s).map_or("–".into(), |v| format!("{v:.0}")));
            row.push(format!(
                "{} / {}",
                us(f(|t| t.latency_p50_us)),
                us(f(|t| t.latency_p99_us))
            ));
            row.push(us(f(|t| {
                t.worker_cpu_us_per_task + t.children_cpu_us_per_task
            })));
            row.push(format!("{} of {}", m.n, m.n_requested));
        }
        if any {
            rows.push(row);
        }
    }
    let mut notes = vec![table::reps_note(ms)];
    let big = BIG_MIB.to_string();
    if let (Some(fs), Some(pre)) = (
        figure(ms, "fastspawn", &big, |t| t.tasks_per_s),
        figure(ms, "subprocess-preexec", &big, |t| t.tasks_per_s),
    ) {
        notes.push(format!(
            "At 2 GiB per worker, fastspawn with pdeathsig runs {:.1}x the tasks per second of the `preexec_fn` idiom, which forks the whole worker for every task.",
            fs / pre
        ));
    }
    notes.push("Worker CPU per task counts the worker processes' own CPU and their reaped children's (the task programs).".to_string());
    Table {
        title: "Short tasks through a Dask cluster (2 workers)".into(),
        about: ABOUT.into(),
        header,
        rows,
        notes,
    }
}

fn kill_table(ms: &[Measurement]) -> Table {
    let mut rows = Vec::new();
    let mut hold = String::new();
    for (variant, label, dies) in VARIANTS {
        let Some(m) = ms
            .iter()
            .find(|m| m.runner == variant && m.param("test") == Some("kill"))
        else {
            continue;
        };
        hold = m.param("hold_mib").unwrap_or("0").to_string();
        let Some(k) = kill_of(ms, variant) else {
            continue;
        };
        rows.push(vec![
            format!("{variant}: {label}"),
            if dies { "yes" } else { "no" }.to_string(),
            m.n.to_string(),
            k.retried.to_string(),
            k.children_at_kill.to_string(),
            k.children_left_running.to_string(),
        ]);
    }
    Table {
        title: "Killing a Dask worker with SIGKILL in the middle of a run".into(),
        about: format!(
            "Each task's program sleeps before it answers (`echo -s MS`); worker w0 (holding {}) is killed while its programs run; every task must still complete (the scheduler reruns the lost ones on the other worker), and the killed worker's children are counted 0.2 s later.",
            gib(&hold)
        ),
        header: vec![
            "variant".into(),
            "pdeathsig".into(),
            "tasks (all completed, outputs checked)".into(),
            "retried".into(),
            "its programs running at the kill".into(),
            "left running after it".into(),
        ],
        rows,
        notes: vec!["Every process the run started is gone when it ends (checked by the run's token in /proc; a leftover fails the run).".to_string()],
    }
}

/// The driver's JSON document (bench/distributed/cluster.py).
#[derive(Debug, Deserialize)]
struct Doc {
    cells: Vec<DocCell>,
    kill: Vec<DocKill>,
    /// The mixed cluster: one worker holding data beside one holding none.
    #[serde(default)]
    mixed: Vec<DocMixed>,
    #[serde(default)]
    skipped: BTreeMap<String, String>,
    left_after_run: u64,
}

#[derive(Debug, Deserialize)]
struct DocCell {
    variant: String,
    hold_mib: u64,
    tasks: u64,
    requested: u64,
    wall_s: f64,
    tasks_per_s: f64,
    latency_p50_us: f64,
    latency_p99_us: f64,
    worker_cpu_us_per_task: f64,
    children_cpu_us_per_task: f64,
    #[serde(default)]
    worker_rss_mib: Vec<u64>,
}

#[derive(Debug, Deserialize)]
struct DocMixed {
    variant: String,
    requested: u64,
    wall_s: f64,
    workers: Vec<DocMixedWorker>,
}

/// One worker's share of a mixed cell (its CPU includes its children's).
#[derive(Debug, Deserialize)]
struct DocMixedWorker {
    hold_mib: u64,
    tasks: u64,
    tasks_per_s: f64,
    latency_p50_us: f64,
    latency_p99_us: f64,
    worker_cpu_us_per_task: f64,
}

#[derive(Debug, Deserialize)]
struct DocKill {
    variant: String,
    hold_mib: u64,
    tasks: u64,
    completed: u64,
    executions: u64,
    retried: u64,
    children_at_kill: u64,
    children_left_running: u64,
}

fn run_cluster(
    paths: &Paths,
    plan: &Plan,
    s: &Settings,
    ctx: &mut Measuring,
) -> Result<Vec<Measurement>> {
    let echo = plan
        .cells
        .first()
        .and_then(|c| c.run.child.first())
        .context("no cells")?
        .clone();
    let holds: Vec<String> = s.holds.iter().map(u64::to_string).collect();
    let variants: Vec<&str> = VARIANTS.iter().map(|v| v.0).collect();
    let mut cmd = std::process::Command::new(&paths.python);
    cmd.arg(&paths.script)
        .args(["--program", &echo])
        .args(["--hold-mib", &holds.join(",")])
        .args(["--tasks", &s.tasks.to_string()])
        .args(["--budget", &s.budget_s.to_string()])
        .args(["--reps", &plan.reps.to_string()])
        .args(["--variants", &variants.join(",")])
        .arg("--mixed")
        .arg("--kill-test")
        .args(["--kill-tasks", &s.kill_tasks.to_string()])
        .args(["--kill-sleep-ms", &s.kill_sleep_ms.to_string()]);
    // The driver says "distributed: ..." once per cell and kill test: each
    // is a step of the progress bar; the rest is kept for the error.
    let (stdout, tail) = run_script(cmd, &paths.script, ctx.bar, |line| {
        let msg = line.strip_prefix("distributed: ")?;
        let step = line.contains(" tasks, ")
            || line.contains("kill test")
            || msg.starts_with("mixed ") && line.contains(" tasks p50");
        step.then(|| (1, msg.chars().take(60).collect()))
    })?;
    let doc: Doc = serde_json::from_str(&stdout)
        .with_context(|| format!("reading the driver's report: {tail}"))?;
    if doc.left_after_run > 0 {
        bail!(
            "{} processes of the run were left behind",
            doc.left_after_run
        );
    }
    for (variant, why) in &doc.skipped {
        ctx.bar
            .suspend(|| eprintln!("distributed: skipped {variant}: {why}"));
        if !ctx.opts.quick {
            ctx.failures.push(format!("distributed {variant}: {why}"));
        }
    }
    measurements(&doc, &echo)
}

/// The driver's report as measurements: one per variant, data size and
/// test, a repetition per cell of the report.
fn measurements(doc: &Doc, echo: &str) -> Result<Vec<Measurement>> {
    let mut out: Vec<Measurement> = Vec::new();
    for c in &doc.cells {
        let i = slot(
            &mut out,
            echo,
            &c.variant,
            c.hold_mib,
            "throughput",
            c.requested,
        );
        let m = &mut out[i];
        m.n = m.n.min(c.tasks);
        m.repetitions.push(Repetition {
            total_ns: (c.wall_s * 1e9) as u64,
            tasks: Some(TasksRep {
                tasks: c.tasks,
                tasks_per_s: c.tasks_per_s,
                latency_p50_us: c.latency_p50_us,
                latency_p99_us: c.latency_p99_us,
                worker_cpu_us_per_task: c.worker_cpu_us_per_task,
                children_cpu_us_per_task: c.children_cpu_us_per_task,
                worker_rss_mib: c.worker_rss_mib.clone(),
                kill: None,
            }),
            ..Repetition::default()
        });
    }
    for c in &doc.mixed {
        for w in &c.workers {
            let i = slot(&mut out, echo, &c.variant, w.hold_mib, "mixed", c.requested);
            let m = &mut out[i];
            m.n = m.n.min(w.tasks);
            m.repetitions.push(Repetition {
                total_ns: (c.wall_s * 1e9) as u64,
                tasks: Some(TasksRep {
                    tasks: w.tasks,
                    tasks_per_s: w.tasks_per_s,
                    latency_p50_us: w.latency_p50_us,
                    latency_p99_us: w.latency_p99_us,
                    worker_cpu_us_per_task: w.worker_cpu_us_per_task,
                    children_cpu_us_per_task: 0.0,
                    worker_rss_mib: Vec::new(),
                    kill: None,
                }),
                ..Repetition::default()
            });
        }
    }
    for k in &doc.kill {
        if k.completed != k.tasks {
            bail!(
                "kill test {}: {} of {} tasks completed",
                k.variant,
                k.completed,
                k.tasks
            );
        }
        let i = slot(&mut out, echo, &k.variant, k.hold_mib, "kill", k.tasks);
        let m = &mut out[i];
        m.n = k.tasks;
        m.repetitions.push(Repetition {
            tasks: Some(TasksRep {
                tasks: k.completed,
                kill: Some(KillRep {
                    executions: k.executions,
                    retried: k.retried,
                    children_at_kill: k.children_at_kill,
                    children_left_running: k.children_left_running,
                }),
                ..TasksRep::default()
            }),
            ..Repetition::default()
        });
    }
    Ok(out)
}

/// The index of the measurement of one variant, data size and test in
/// `out`, added if new.
fn slot(
    out: &mut Vec<Measurement>,
    echo: &str,
    variant: &str,
    hold: u64,
    test: &str,
    n_requested: u64,
) -> usize {
    let params = params(&[("hold_mib", hold.to_string()), ("test", test.to_string())]);
    if let Some(i) = out
        .iter()
        .position(|m| m.runner == variant && m.params == params)
    {
        return i;
    }
    out.push(Measurement {
        experiment: "distributed".into(),
        runner: variant.to_string(),
        params,
        mode: "tasks".into(),
        n: u64::MAX,
        n_requested,
        child: vec![echo.to_string()],
        repetitions: Vec::new(),
    });
    out.len() - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A driver report as cluster.py prints it, laid out: the goal's
    /// ratios come from the 2 GiB cells, the kill table from the kill runs.
    #[test]
    fn a_driver_report_becomes_tables_and_a_headline() {
        let doc = r#"{"token":"t","skipped":{},"left_after_run":0,"setup":{},
          "cells":[
            {"variant":"subprocess-preexec","hold_mib":2048,"tasks":300,"requested":20000,"wall_s":10,"tasks_per_s":30,"latency_p50_us":70000,"latency_p99_us":90000,"worker_cpu_us_per_task":60000,"children_cpu_us_per_task":100,"worker_rss_mib":[2100,2100]},
            {"variant":"subprocess","hold_mib":2048,"tasks":20000,"requested":20000,"wall_s":100,"tasks_per_s":200,"latency_p50_us":900,"latency_p99_us":5000,"worker_cpu_us_per_task":2800,"children_cpu_us_per_task":200},
            {"variant":"fastspawn","hold_mib":2048,"tasks":20000,"requested":20000,"wall_s":90,"tasks_per_s":220,"latency_p50_us":400,"latency_p99_us":3000,"worker_cpu_us_per_task":2500,"children_cpu_us_per_task":150},
            {"variant":"fastspawn","hold_mib":0,"tasks":20000,"requested":20000,"wall_s":88,"tasks_per_s":225,"latency_p50_us":390,"latency_p99_us":2900,"worker_cpu_us_per_task":2400,"children_cpu_us_per_task":150}],
          "kill":[
            {"variant":"subprocess","hold_mib":2048,"tasks":40,"completed":40,"executions":42,"retried":2,"children_at_kill":2,"children_left_running":2},
            {"variant":"fastspawn","hold_mib":2048,"tasks":40,"completed":40,"executions":43,"retried":3,"children_at_kill":2,"children_left_running":0}]}"#;
        let doc: Doc = serde_json::from_str(doc).unwrap();
        let ms = measurements(&doc, "echo").unwrap();
        let exp = Distributed;
        let tables = exp.tables(&ms);
        let t = &tables[0];
        let fs = t
            .rows
            .iter()
            .find(|r| r[0].starts_with("fastspawn:"))
            .unwrap();
        assert_eq!(fs[1], "yes");
        // 0 MiB first (first seen in the cells is 2048: values keep that order).
        assert!(fs.iter().any(|c| c == "220"), "{fs:?}");
        assert!(t.notes.iter().any(|n| n.contains("7.3x")), "{:?}", t.notes);
        let kill = &tables[1];
        assert_eq!(kill.rows.len(), 2);
        let plain = kill
            .rows
            .iter()
            .find(|r| r[0].starts_with("subprocess:"))
            .unwrap();
        assert_eq!(plain[5], "2");
        let head = exp.headline(&ms);
        assert!(
            head[0].contains("220 tasks/s")
                && head[0].contains("7.3x")
                && head[0].contains("1.10x"),
            "{head:?}"
        );
        assert!(head[0].contains("-2.2%, round by round -2.2%)"), "{head:?}");
        assert!(
            head[1].contains("subprocess 2") && head[1].contains("fastspawn 0"),
            "{head:?}"
        );
    }

    /// With several rounds, the flatness is given round by round as well
    /// as on the medians (each round's 2 GiB cell against its 0 GiB cell).
    #[test]
    fn rounds_give_the_flatness_round_by_round() {
        let cell = |variant: &str, hold: u64, tps: f64| {
            format!(
                r#"{{"variant":"{variant}","hold_mib":{hold},"tasks":1000,"requested":20000,"wall_s":5,"tasks_per_s":{tps},"latency_p50_us":400,"latency_p99_us":3000,"worker_cpu_us_per_task":2500,"children_cpu_us_per_task":150}}"#
            )
        };
        let cells = [
            cell("fastspawn", 0, 225.0),
            cell("subprocess-preexec", 0, 100.0),
            cell("subprocess", 0, 200.0),
            cell("fastspawn", 0, 210.0),
            cell("subprocess-preexec", 0, 100.0),
            cell("subprocess", 0, 200.0),
            cell("fastspawn", 2048, 220.0),
            cell("subprocess-preexec", 2048, 30.0),
            cell("subprocess", 2048, 200.0),
            cell("fastspawn", 2048, 200.0),
            cell("subprocess-preexec", 2048, 30.0),
            cell("subprocess", 2048, 200.0),
        ];
        let doc = format!(
            r#"{{"token":"t","skipped":{{}},"left_after_run":0,"setup":{{}},"cells":[{}],"kill":[]}}"#,
            cells.join(",")
        );
        let doc: Doc = serde_json::from_str(&doc).unwrap();
        let ms = measurements(&doc, "echo").unwrap();
        let head = Distributed.headline(&ms);
        // Medians 210 against 217.5: -3.4%; rounds 220/225 and 200/210.
        assert!(
            head[0].contains("(-3.4%, round by round -2.2% -4.8%)"),
            "{head:?}"
        );
    }

    /// The mixed cluster's report: each worker's share becomes a cell of
    /// its own, and the table and headline compare the worker holding data
    /// with the empty one round by round.
    #[test]
    fn a_mixed_cluster_compares_its_workers_round_by_round() {
        let worker = |hold: u64, tps: f64, p50: f64| {
            format!(
                r#"{{"hold_mib":{hold},"tasks":100,"tasks_per_s":{tps},"latency_p50_us":{p50},"latency_p99_us":9000,"worker_cpu_us_per_task":2000}}"#
            )
        };
        let cell = |variant: &str, small: (f64, f64), big: (f64, f64)| {
            format!(
                r#"{{"variant":"{variant}","requested":20000,"wall_s":10,"workers":[{},{}]}}"#,
                worker(0, small.0, small.1),
                worker(2048, big.0, big.1)
            )
        };
        let mixed = [
            cell("fastspawn", (200.0, 800.0), (204.0, 820.0)),
            cell("subprocess-preexec", (300.0, 900.0), (10.0, 90_000.0)),
            cell("fastspawn", (210.0, 800.0), (205.0, 840.0)),
            cell("subprocess-preexec", (300.0, 900.0), (12.0, 80_000.0)),
        ];
        let doc = format!(
            r#"{{"token":"t","skipped":{{}},"left_after_run":0,"setup":{{}},"cells":[],"kill":[],"mixed":[{}]}}"#,
            mixed.join(",")
        );
        let doc: Doc = serde_json::from_str(&doc).unwrap();
        let ms = measurements(&doc, "echo").unwrap();
        let table = mixed_table(&ms).unwrap();
        let fs = table
            .rows
            .iter()
            .find(|r| r[0].starts_with("fastspawn:"))
            .unwrap();
        // 204/200 = +2.0%, 205/210 = -2.4%: median -0.2%.
        assert_eq!(fs[5], "-0.2% (rounds +2.0% -2.4%)", "{fs:?}");
        assert_eq!(fs[6], "+3.8% (rounds +2.5% +5.0%)", "{fs:?}");
        let head = Distributed.headline(&ms);
        assert!(
            head.iter().any(|l| l.contains("fastspawn: tasks/s -0.2%")
                && l.contains("subprocess-preexec: tasks/s -96.3%")),
            "{head:?}"
        );
    }
}
