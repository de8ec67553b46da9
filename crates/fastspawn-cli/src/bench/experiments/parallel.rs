//! `parallel`: spawn throughput of one fastspawn Pool by spawner threads,
//! next to C threads each running a raw clone loop.

use crate::bench::experiment::{Cell, Experiment, Extra, Options, Plan, params};
use crate::bench::peer::{PeerRun, Peers};
use crate::bench::record::Measurement;
use crate::bench::stats::Summary;
use crate::bench::table::{self, find, fmt_ratio, fmt_us, per_spawn, ratio, values};
use crate::export::{Chart, ChartKind, Table};

pub struct Parallel;

/// The three runners: (label, runner, pidfd param).
const RUNNERS: [(&str, &str, &str); 3] = [
    ("fastspawn", "fastspawn-pool", "on"),
    ("fastspawn, pidfd(false)", "fastspawn-pool", "off"),
    ("C clone threads", "c-clone", "none"),
];

fn at(ms: &[Measurement], runner: &str, pidfd: &str, threads: &str) -> Option<Summary> {
    per_spawn(find(ms, runner, &[("threads", threads), ("pidfd", pidfd)]))
}

impl Experiment for Parallel {
    fn name(&self) -> &'static str {
        "parallel"
    }

    fn about(&self) -> &'static str {
        "Spawn throughput of one fastspawn Pool with 1, 2 and 4 spawner threads starting a batch with Pool::spawn_many (with pidfds, the default, and with Command::pidfd(false)), next to the same number of C threads each running a raw clone(CLONE_VM|CLONE_VFORK) loop: the kernel's own scaling on this machine."
    }

    fn plan(&self, opts: &Options, peers: &Peers) -> Plan {
        let cells = [1usize, 2, 4]
            .iter()
            .flat_map(|&threads| {
                [
                    ("fastspawn-pool", false),
                    ("fastspawn-pool", true),
                    ("c-clone", false),
                ]
                .map(|(runner, no_pidfd)| {
                    let mut run = PeerRun::new(runner, "spawn", 10_000, vec![peers.noop()]);
                    run.pool_threads = Some(threads);
                    run.no_pidfd = no_pidfd;
                    // The C threads make no pidfd: "none", not "off" (no option).
                    let pidfd = match (runner, no_pidfd) {
                        ("c-clone", _) => "none",
                        (_, true) => "off",
                        (_, false) => "on",
                    };
                    let p = [
                        ("threads", threads.to_string()),
                        ("pidfd", pidfd.to_string()),
                    ];
                    Cell {
                        extra: Extra::default(),
                        runner: runner.to_string(),
                        params: params(&p),
                        run,
                        budget_s: opts.budget(1.0),
                    }
                })
            })
            .collect();
        let notes = vec![format!(
            "This machine has {} cores; a spawn keeps a core busy in the parent (clone) and another in the child (execve, exit).",
            std::thread::available_parallelism().map_or(0, |n| n.get())
        )];
        Plan {
            reps: opts.reps(5),
            cells,
            notes,
        }
    }

    fn tables(&self, ms: &[Measurement]) -> Vec<Table> {
        let mut header = vec!["spawner threads".to_string()];
        for (label, _, _) in RUNNERS {
            header.push(format!("{label}: per spawn"));
            header.push("vs 1 thread".into());
        }
        let rows = values(ms, "threads")
            .iter()
            .map(|t| {
                let mut row = vec![t.clone()];
                for (_, runner, pidfd) in RUNNERS {
                    let s = at(ms, runner, pidfd, t);
                    row.push(fmt_us(s));
                    row.push(fmt_ratio(ratio(at(ms, runner, pidfd, "1"), s)));
                }
                row
            })
            .collect();
        let table = Table {
            title: "parallel: spawn throughput by spawner threads".into(),
            header,
            rows,
            notes: vec![
                "Spawn calls only (Pool::spawn_many of the static child); goal: at least 1.7x with two threads.".into(),
                "pidfd(false): the same pool with Command::pidfd(false). Every child of the default gets a pidfd from clone3, which the kernel creates partly one at a time; this row shows what that costs the scaling.".into(),
                "C clone threads: K pthreads each running a raw clone(CLONE_VM|CLONE_VFORK) + execve loop over its share (no pidfd), measured in the same run: how far the kernel and this machine let concurrent spawns scale.".into(),
            ],
            ..Table::default()
        };
        table::with_common_notes(table, self.about(), ms)
    }

    fn charts(&self, ms: &[Measurement]) -> Vec<Chart> {
        let xs = values(ms, "threads");
        let series = RUNNERS
            .iter()
            .filter(|(_, runner, pidfd)| at(ms, runner, pidfd, "1").is_some())
            .map(|(label, runner, pidfd)| {
                let ys = xs
                    .iter()
                    .map(|t| at(ms, runner, pidfd, t).map_or(0.0, |s| 1e6 / s.median))
                    .collect();
                (label.to_string(), ys)
            })
            .collect();
        vec![Chart {
            title: "Spawns per second by spawner threads".into(),
            kind: ChartKind::Bar,
            x: xs,
            series,
            y_unit: "/s".into(),
        }]
    }

    fn headline(&self, ms: &[Measurement]) -> Vec<String> {
        let scaling = |runner: &str, pidfd: &str| {
            ratio(at(ms, runner, pidfd, "1"), at(ms, runner, pidfd, "2"))
        };
        let mut lines = Vec::new();
        if let Some(r) = scaling("fastspawn-pool", "on") {
            let others = [
                ("with pidfd(false)", "fastspawn-pool", "off"),
                ("raw C clone threads", "c-clone", "none"),
            ]
            .iter()
            .filter_map(|(label, runner, pidfd)| {
                scaling(runner, pidfd).map(|x| format!("; {label}: {x:.2}x"))
            })
            .collect::<String>();
            lines.push(format!(
                "spawn throughput with 2 spawner threads vs 1: {r:.2}x (goal >= 1.7){others}"
            ));
        }
        lines
    }
}
