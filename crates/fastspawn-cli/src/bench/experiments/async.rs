//! `async`: 20,000 spawns from tokio in the HyperQueue post's modes, and
//! how long one spawn holds a current-thread runtime.

use crate::bench::experiment::{Cell, Experiment, Extra, Options, Plan, params};
use crate::bench::peer::{PeerRun, Peers};
use crate::bench::record::{Measurement, Repetition};
use crate::bench::stats::{self, Summary};
use crate::bench::table::{
    find, fmt_ratio, micros, peer_ratios, per_spawn, ratio, reduced_note, reps_note, stall_header,
    stall_row,
};
use crate::export::{Chart, ChartKind, Table};

pub struct Async;

const MODES: [&str; 5] = [
    "current",
    "current-blocking",
    "multi-2",
    "multi-4",
    "multi-8",
];

impl Experiment for Async {
    fn name(&self) -> &'static str {
        "async"
    }

    fn about(&self) -> &'static str {
        "20,000 spawns from tokio in the HyperQueue post's modes: current-thread, current-thread with spawn_blocking, multi-thread with 2, 4 and 8 workers."
    }

    fn plan(&self, opts: &Options, peers: &Peers) -> Plan {
        let noop = vec![peers.noop()];
        let mut cells = Vec::new();
        for mode in MODES {
            for runner in ["rust-tokio", "fastspawn-auto"] {
                let mut run = PeerRun::new(runner, "spawn", 20_000, noop.clone());
                run.async_mode = Some(mode.to_string());
                cells.push(Cell {
                    extra: Extra::default(),
                    runner: runner.to_string(),
                    params: params(&[("async_mode", mode.to_string())]),
                    run,
                    budget_s: opts.budget(1.0),
                });
            }
        }
        for runner in ["rust-tokio", "fastspawn-auto"] {
            let mut run = PeerRun::new(runner, "spawn", 3_000, noop.clone());
            run.async_mode = Some("current".to_string());
            run.measure_stall = true;
            cells.push(Cell {
                extra: Extra::default(),
                runner: runner.to_string(),
                params: params(&[
                    ("async_mode", "current".to_string()),
                    ("stall", "true".to_string()),
                ]),
                run,
                budget_s: opts.budget(0.5),
            });
        }
        let notes = vec![
            "fastspawn runs with its tokio API (fastspawn::tokio::Command): spawn().await hands the spawn to the spawner threads, so the runtime thread never spawns and current-blocking behaves like current.".to_string(),
            "This machine has 2 cores; the post's cluster node had 128.".to_string(),
        ];
        Plan {
            reps: opts.reps(2),
            cells,
            notes,
        }
    }

    fn tables(&self, ms: &[Measurement]) -> Vec<Table> {
        let mut tables = vec![spawns(ms), stalls(ms)];
        for t in &mut tables {
            t.about = self.about().to_string();
            t.notes.push(reps_note(ms));
        }
        tables[0].notes.extend(peer_ratios(ms));
        tables[0].notes.extend(reduced_note(ms));
        tables
    }

    fn charts(&self, ms: &[Measurement]) -> Vec<Chart> {
        let (xs, series) = crate::bench::table::series_over(
            ms,
            "async_mode",
            &["rust-tokio", "fastspawn-auto"],
            &|_, us| us * 20_000.0 / 1e6,
        );
        vec![Chart {
            title: "Seconds for 20,000 spawns from tokio".into(),
            kind: ChartKind::Bar,
            x: xs,
            series,
            y_unit: "s".into(),
        }]
    }

    fn headline(&self, ms: &[Measurement]) -> Vec<String> {
        let stall = |r: &str, get| stats::median(&micros(find(ms, r, &[("stall", "true")])?, get));
        let p50 = |r: &Repetition| r.spawn_poll_p50_ns;
        let p99 = |r: &Repetition| r.spawn_poll_p99_unpreempted_ns;
        let mut lines = Vec::new();
        if let (Some(fs), Some(tokio), Some(fs99), Some(tokio99)) = (
            stall("fastspawn-auto", p50),
            stall("rust-tokio", p50),
            stall("fastspawn-auto", p99),
            stall("rust-tokio", p99),
        ) {
            lines.push(format!(
                "time one spawn holds a current-thread runtime: fastspawn {fs:.1} µs, tokio::process {tokio:.1} µs at p50; {fs99:.1} µs vs {tokio99:.1} µs at p99 without preemption (goal <= 5 µs)"
            ));
        }
        lines
    }
}

fn spawns(ms: &[Measurement]) -> Table {
    let header = vec![
        "mode".into(),
        "tokio::process (s for 20,000)".into(),
        "fastspawn (s for 20,000)".into(),
        "tokio / fastspawn".into(),
    ];
    let plain: Vec<Measurement> = ms
        .iter()
        .filter(|m| m.param("stall").is_none())
        .cloned()
        .collect();
    let rows = MODES
        .iter()
        .filter(|mode| ms.iter().any(|m| m.param("async_mode") == Some(mode)))
        .map(|mode| {
            let tokio = per_spawn(find(&plain, "rust-tokio", &[("async_mode", mode)]));
            let fs = per_spawn(find(&plain, "fastspawn-auto", &[("async_mode", mode)]));
            let secs = |s: Option<Summary>| {
                s.map_or("–".into(), |s| {
                    format!("{:.2} s ±{:.0}%", s.median * 20_000.0 / 1e6, s.spread_pct)
                })
            };
            vec![
                mode.to_string(),
                secs(tokio),
                secs(fs),
                fmt_ratio(ratio(tokio, fs)),
            ]
        })
        .collect();
    Table {
        title: "async: 20,000 spawns from tokio".into(),
        header,
        rows,
        notes: vec![
            "Spawn calls only; seconds for 20,000 extrapolated from the count measured.".into(),
        ],
        ..Table::default()
    }
}

fn stalls(ms: &[Measurement]) -> Table {
    let header = stall_header("runner");
    let rows = ["rust-tokio", "fastspawn-auto"]
        .iter()
        .filter_map(|r| Some(stall_row(r, find(ms, r, &[("stall", "true")])?)))
        .collect();
    Table {
        title: "async: how long a spawn stalls a current-thread runtime".into(),
        header,
        rows,
        notes: vec![
            "Spawn poll: per spawn, the longest single poll of its spawn future, i.e. the time the spawn itself kept the runtime's thread (tokio::process runs clone and exec inside it). Goal for fastspawn: at most 5 µs.".into(),
            "\"Not preempted\": over the spawns during whose longest poll the kernel did not switch the runtime thread out (its involuntary context-switch count did not move). On 2 cores the children and the spawner threads compete with the runtime thread, and a preempted poll measures the scheduler, not the spawn.".into(),
            "Loop gap: a ticker task yields in a loop and records the time between its polls while another task spawns (yielding after each spawn); most gaps contain no spawn.".into(),
        ],
        ..Table::default()
    }
}
