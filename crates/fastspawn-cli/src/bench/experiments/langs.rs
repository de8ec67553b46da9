//! `langs`: spawn+wait throughput of the same child from every runtime,
//! as a ratio to the raw C clone(CLONE_VM|CLONE_VFORK) loop.

use crate::bench::experiment::{Cell, Experiment, Extra, Options, Plan};
use crate::bench::peer::{PeerRun, Peers};
use crate::bench::record::Measurement;
use crate::bench::table::{self, find, fmt_ratio, fmt_us, per_spawn, ratio};
use crate::export::{Chart, ChartKind, Table};

pub struct Langs;

/// The runners, in the order of the table.
const RUNNERS: [&str; 10] = [
    "c-clone",
    "c-posix-spawn",
    "fastspawn-auto",
    "rust-std",
    "go-os-exec",
    "python-popen",
    "python-fastspawn",
    "node-spawn",
    "node-fastspawn",
    "c-fork",
];

/// The runners the goals compare (issue 10: fastspawn-auto >= 0.97x the
/// C loop's throughput; issue 12: Python + fastspawn <= 1.3x its time).
const HEADLINE: [&str; 3] = ["c-clone", "fastspawn-auto", "python-fastspawn"];

impl Experiment for Langs {
    fn name(&self) -> &'static str {
        "langs"
    }

    fn about(&self) -> &'static str {
        "Spawn+wait throughput of the same child from every runtime, as a ratio to the raw C clone(CLONE_VM|CLONE_VFORK) loop."
    }

    fn plan(&self, opts: &Options, peers: &Peers) -> Plan {
        let cells = RUNNERS
            .iter()
            .map(|runner| Cell {
                // The goals' sides, read round by round: more rounds, the
                // same count.
                extra: if HEADLINE.contains(runner) && !opts.quick {
                    Extra {
                        reps: 8,
                        same_n: Some("headline".into()),
                    }
                } else {
                    Extra::default()
                },
                runner: runner.to_string(),
                params: Default::default(),
                run: PeerRun::new(runner, "wait", 5_000, vec![peers.noop()]),
                budget_s: opts.budget(0.6),
            })
            .collect();
        Plan {
            reps: opts.reps(7),
            cells,
            notes: if opts.quick {
                Vec::new()
            } else {
                vec![format!(
                    "{} run 8 more rounds than the others (interleaved with each other), with the same count.",
                    HEADLINE.join(", ")
                )]
            },
        }
    }

    fn tables(&self, ms: &[Measurement]) -> Vec<Table> {
        let header = vec![
            "runner".into(),
            "spawn+wait".into(),
            "spawns/s".into(),
            "throughput vs c-clone".into(),
        ];
        let base = per_spawn(find(ms, "c-clone", &[]));
        let rows = RUNNERS
            .iter()
            .filter_map(|r| {
                let s = per_spawn(find(ms, r, &[]))?;
                Some(vec![
                    r.to_string(),
                    fmt_us(Some(s)),
                    format!("{:.0}", 1e6 / s.median),
                    fmt_ratio(ratio(base, Some(s))),
                ])
            })
            .collect();
        let table = Table {
            title: "langs: spawn+wait throughput by runtime".into(),
            header,
            rows,
            notes: vec!["Throughput ratio: c-clone's time per spawn / the runner's (1.00 = as fast as the raw C clone loop). Goal for fastspawn-auto: at least 0.97.".into()],
            ..Table::default()
        };
        table::with_common_notes(table, self.about(), ms)
    }

    fn charts(&self, ms: &[Measurement]) -> Vec<Chart> {
        let base = per_spawn(find(ms, "c-clone", &[]));
        let present: Vec<&str> = RUNNERS
            .iter()
            .copied()
            .filter(|r| ms.iter().any(|m| m.runner == *r))
            .collect();
        let ys = present
            .iter()
            .map(|r| ratio(base, per_spawn(find(ms, r, &[]))).unwrap_or(0.0))
            .collect();
        vec![Chart {
            title: "Spawn+wait throughput vs the raw C clone loop".into(),
            kind: ChartKind::Bar,
            x: present.iter().map(|s| s.to_string()).collect(),
            series: vec![("throughput ratio".into(), ys)],
            y_unit: "x".into(),
        }]
    }

    fn headline(&self, ms: &[Measurement]) -> Vec<String> {
        let mut lines = Vec::new();
        let fs = per_spawn(find(ms, "fastspawn-auto", &[]));
        if let Some(r) = ratio(per_spawn(find(ms, "c-clone", &[])), fs) {
            let rounds = table::paired(ms, "fastspawn-auto", "c-clone", &[]).map_or(
                String::new(),
                |(median, lo, hi)| {
                    format!("; round by round {median:.3}x (median, {lo:.2}x to {hi:.2}x)")
                },
            );
            lines.push(format!(
                "fastspawn-auto throughput vs raw C clone loop: {r:.3}x of the medians{rounds} (goal >= 0.97)"
            ));
        }
        if let Some(r) = ratio(per_spawn(find(ms, "rust-std", &[])), fs) {
            lines.push(format!(
                "fastspawn-auto vs Rust std (spawn+wait): {r:.2}x faster"
            ));
        }
        let c = per_spawn(find(ms, "c-clone", &[]));
        if let Some(r) = ratio(per_spawn(find(ms, "python-fastspawn", &[])), c) {
            let popen = ratio(per_spawn(find(ms, "python-popen", &[])), c)
                .map_or(String::new(), |p| format!("; subprocess.Popen: {p:.2}x"));
            let rounds = table::paired_with(ms, "python-fastspawn", "c-clone", &[], |py, c| py / c)
                .map_or(String::new(), |(median, lo, hi)| {
                    format!("; round by round {median:.2}x ({lo:.2}x to {hi:.2}x)")
                });
            lines.push(format!(
                "Python + fastspawn spawn+wait: {r:.2}x the raw C clone loop's time{rounds} (goal <= 1.3x{popen})"
            ));
        }
        lines
    }
}
