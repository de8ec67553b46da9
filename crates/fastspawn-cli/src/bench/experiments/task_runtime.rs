//! `task-runtime`: the HyperQueue worker's task loop (issue 14): a
//! current-thread tokio runtime runs short tasks, at most 64 at once, each
//! in a new session with a parent-death signal and its stdout and stderr
//! in files, from a parent holding 0 and 2 GiB; `tokio::process` with a
//! `pre_exec` closure against `fastspawn::tokio`, with and without
//! `contain`.

use crate::bench::experiment::{Cell, Experiment, Extra, Options, Plan, params};
use crate::bench::peer::{PeerRun, Peers};
use crate::bench::record::Measurement;
use crate::bench::stats::Summary;
use crate::bench::table::{
    find, fmt_ratio, gib, largest, per_spawn, reduced_note, reps_note, stall_header, stall_row,
    values,
};
use crate::export::{Chart, ChartKind, Table};

pub struct TaskRuntime;

/// Tasks asked for per cell (fewer when the budget runs out).
const TASKS: u64 = 20_000;

/// The runners and their labels in the tables.
const RUNNERS: [(&str, &str); 3] = [
    ("rust-tokio", "tokio::process + pre_exec(setsid, pdeathsig)"),
    ("fastspawn-auto", "fastspawn::tokio setsid + pdeathsig"),
    (
        "fastspawn-contained",
        "fastspawn::tokio setsid + pdeathsig + contain",
    ),
];

/// Parent sizes in MiB: 0 and 2 GiB (64 MiB with `--quick`), the second
/// within `--max-rss-gib`.
fn sizes(opts: &Options) -> Vec<u64> {
    let big = if opts.quick { 64 } else { 2048 };
    [0, big]
        .into_iter()
        .filter(|&mib| mib <= opts.max_rss_gib * 1024)
        .collect()
}

/// Why contained children cannot be measured here, if they cannot.
fn cgroup_missing(peers: &Peers) -> Option<String> {
    let mut cmd = fastspawn::Command::new(peers.noop());
    cmd.contain(true).require_contained(true);
    match cmd.status() {
        Ok(s) if s.success() => None,
        Ok(s) => Some(format!("a contained spawn exited with {s}")),
        Err(e) => Some(format!("no writable cgroup v2: {e}")),
    }
}

/// Tasks per second from a median time per task (µs).
fn per_s(s: Option<Summary>) -> Option<f64> {
    s.map(|s| 1e6 / s.median)
}

/// The throughput cells (not the stall cells).
fn throughput(ms: &[Measurement]) -> Vec<Measurement> {
    ms.iter()
        .filter(|m| m.param("stall").is_none())
        .cloned()
        .collect()
}

/// A runner's tasks/s at the largest size over its tasks/s at the smallest.
fn rss_change(ms: &[Measurement], runner: &str) -> Option<f64> {
    let sizes = values(ms, "rss_mib");
    let (lo, hi) = (sizes.first()?, sizes.last()?);
    if lo == hi {
        return None;
    }
    let at = |mib: &str| per_s(per_spawn(find(ms, runner, &[("rss_mib", mib)])));
    Some(at(hi)? / at(lo)?)
}

/// A runner's tasks/s over the pre_exec runtime's, at the largest size.
fn over_tokio(ms: &[Measurement], runner: &str) -> Option<f64> {
    let big = largest(ms, "rss_mib")?;
    let at = |r: &str| per_s(per_spawn(find(ms, r, &[("rss_mib", &big)])));
    Some(at(runner)? / at("rust-tokio")?)
}

impl Experiment for TaskRuntime {
    fn name(&self) -> &'static str {
        "task-runtime"
    }

    fn about(&self) -> &'static str {
        "The HyperQueue worker's task loop (issue 14): a current-thread tokio runtime runs 20,000 short tasks, at most 64 at once, each spawned in a new session with SIGKILL as parent-death signal and its stdout and stderr in files of its own, from a parent holding 0 and 2 GiB: tokio::process with pre_exec(setsid + prctl(PR_SET_PDEATHSIG)) as HyperQueue does (so every spawn forks) against fastspawn::tokio with setsid and pdeathsig, and the same with contain."
    }

    fn plan(&self, opts: &Options, peers: &Peers) -> Plan {
        let mut notes = vec![
            "Each task builds its command, creates its two output files, spawns and awaits the exit, as a task runner does per task; the clock covers every task of the run. Tasks/s is the median over repetitions.".to_string(),
            "The output files are written under /dev/shm (tmpfs) when it exists: on an ext4 disk mounted with `discard` (this project's VMs) creating and removing the 40,000 files of a run cost 190-740 µs of system time per task and varied 3x between runs, which hid the spawn costs being compared.".to_string(),
        ];
        let missing = cgroup_missing(peers);
        let runners: Vec<&str> = RUNNERS
            .iter()
            .map(|(r, _)| *r)
            .filter(|r| *r != "fastspawn-contained" || missing.is_none())
            .collect();
        if let Some(why) = &missing {
            notes.push(format!("fastspawn-contained not measured: {why}"));
        }
        let sizes = sizes(opts);
        let mut cells = Vec::new();
        for &mib in &sizes {
            for runner in &runners {
                let mut run = PeerRun::new(runner, "tasks", TASKS, vec![peers.noop()]);
                run.rss_mib = mib;
                run.warmup = 64;
                cells.push(Cell {
                    extra: Extra::default(),
                    runner: runner.to_string(),
                    params: params(&[("rss_mib", mib.to_string())]),
                    run,
                    budget_s: opts.budget(4.0),
                });
            }
        }
        // The loop's stall, measured apart (the ticker task keeps the
        // runtime busy, which changes the throughput), at the largest size.
        if let Some(&mib) = sizes.last() {
            for runner in &runners {
                let mut run = PeerRun::new(runner, "tasks", 3_000, vec![peers.noop()]);
                run.rss_mib = mib;
                run.warmup = 64;
                run.measure_stall = true;
                cells.push(Cell {
                    extra: Extra::default(),
                    runner: runner.to_string(),
                    params: params(&[("rss_mib", mib.to_string()), ("stall", "true".to_string())]),
                    run,
                    budget_s: opts.budget(1.0),
                });
            }
        }
        Plan {
            reps: opts.reps(3),
            cells,
            notes,
        }
    }

    /// The budget, plus making the parent's memory resident (~0.5 s/GiB).
    fn expected_s(&self, cell: &Cell) -> f64 {
        cell.budget_s + cell.run.rss_mib as f64 / 2048.0
    }

    fn tables(&self, ms: &[Measurement]) -> Vec<Table> {
        let mut tables = vec![tasks_table(ms), stall_table(ms)];
        for t in &mut tables {
            t.about = self.about().to_string();
            t.notes.push(reps_note(ms));
        }
        tables[0].notes.extend(reduced_note(ms));
        tables
    }

    fn charts(&self, ms: &[Measurement]) -> Vec<Chart> {
        let plain = throughput(ms);
        let xs = values(&plain, "rss_mib");
        let series = RUNNERS
            .iter()
            .filter(|(r, _)| plain.iter().any(|m| m.runner == *r))
            .map(|(r, _)| {
                let ys = xs
                    .iter()
                    .map(|x| per_s(per_spawn(find(&plain, r, &[("rss_mib", x)]))).unwrap_or(0.0))
                    .collect();
                (r.to_string(), ys)
            })
            .collect();
        vec![Chart {
            title: "Tasks per second from a current-thread tokio runtime".into(),
            kind: ChartKind::Bar,
            x: xs.iter().map(|x| gib(x)).collect(),
            series,
            y_unit: "tasks/s".into(),
        }]
    }

    fn headline(&self, ms: &[Measurement]) -> Vec<String> {
        let plain = throughput(ms);
        let mut lines = Vec::new();
        let Some(big) = largest(&plain, "rss_mib") else {
            return lines;
        };
        let change = |r| rss_change(&plain, r).map(|c| format!("{r} {:+.1}%", (c - 1.0) * 100.0));
        let changes: Vec<String> = ["fastspawn-auto", "fastspawn-contained"]
            .into_iter()
            .filter_map(change)
            .collect();
        if !changes.is_empty() {
            lines.push(format!(
                "task-runtime tasks/s with a {} parent against an empty one: {} (goal: fastspawn within 5%)",
                gib(&big),
                changes.join(", ")
            ));
        }
        let ratios: Vec<String> = ["fastspawn-auto", "fastspawn-contained"]
            .into_iter()
            .filter_map(|r| over_tokio(&plain, r).map(|x| format!("{r} {x:.2}x")))
            .collect();
        if !ratios.is_empty() {
            lines.push(format!(
                "task-runtime at {}: tasks/s over tokio::process with pre_exec (HyperQueue): {} (goal >= 3x)",
                gib(&big),
                ratios.join(", ")
            ));
        }
        lines
    }
}

fn tasks_table(ms: &[Measurement]) -> Table {
    let plain = throughput(ms);
    let sizes = values(&plain, "rss_mib");
    let mut header = vec!["runner".to_string()];
    header.extend(sizes.iter().map(|s| format!("tasks/s, {} parent", gib(s))));
    header.push("largest / empty parent".into());
    header.push("over pre_exec, largest parent".into());
    header.push("tasks per repetition".into());
    let rows = RUNNERS
        .iter()
        .filter(|(r, _)| plain.iter().any(|m| m.runner == *r))
        .map(|(r, l)| {
            let mut row = vec![l.to_string()];
            for s in &sizes {
                let summary = per_spawn(find(&plain, r, &[("rss_mib", s)]));
                row.push(summary.map_or("–".into(), |s| {
                    format!("{:.0} ±{:.0}%", 1e6 / s.median, s.spread_pct)
                }));
            }
            row.push(fmt_ratio(rss_change(&plain, r)));
            row.push(if *r == "rust-tokio" {
                "1.00x".into()
            } else {
                fmt_ratio(over_tokio(&plain, r))
            });
            row.push(
                sizes
                    .iter()
                    .filter_map(|s| find(&plain, r, &[("rss_mib", s)]).map(|m| m.n.to_string()))
                    .collect::<Vec<_>>()
                    .join(" / "),
            );
            row
        })
        .collect();
    Table {
        title: "task-runtime: tasks per second, 64 at once on a current-thread runtime".into(),
        header,
        rows,
        notes: vec![
            "Goals: fastspawn's tasks/s flat within 5% as the parent grows (\"largest / empty parent\" between 0.95x and 1.05x), and at least 3x the pre_exec runtime's at 2 GiB.".into(),
            "Tasks per repetition: at each parent size, how many tasks ran (20,000 asked; fewer when the cell's time budget ran out).".into(),
        ],
        ..Table::default()
    }
}

fn stall_table(ms: &[Measurement]) -> Table {
    let stalled: Vec<&Measurement> = ms
        .iter()
        .filter(|m| m.param("stall") == Some("true"))
        .collect();
    let rows = RUNNERS
        .iter()
        .filter_map(|(r, l)| Some(stall_row(l, stalled.iter().find(|m| m.runner == *r)?)))
        .collect();
    let size = stalled
        .first()
        .and_then(|m| m.param("rss_mib"))
        .map_or("–".into(), gib);
    Table {
        title: format!("task-runtime: how long a spawn holds the runtime, {size} parent"),
        header: stall_header("runner"),
        rows,
        notes: vec![
            "Spawn poll: per task, the longest single poll of its spawn future (tokio::process forks inside it; fastspawn::tokio hands the spawn to its spawner threads). \"Not preempted\": over the spawns whose longest poll the kernel did not interrupt (the runtime thread's involuntary context switches did not move).".into(),
            "Loop gap: a ticker task on the same runtime records the time between its polls while the tasks run; measured in cells of their own, since the ticker keeps the runtime busy.".into(),
        ],
        ..Table::default()
    }
}
