//! `tlpi`: The Linux Programming Interface, table 28-3 (fork, vfork,
//! clone, and fork/vfork + exec at three process sizes).

use crate::bench::experiment::{Cell, Experiment, Extra, Options, Plan, params};
use crate::bench::peer::{PeerRun, Peers};
use crate::bench::record::Measurement;
use crate::bench::stats;
use crate::bench::table::{self, per_spawn, values};
use crate::export::{Chart, ChartKind, Table};

pub struct Tlpi;

/// Extra MiB that give the TLPI table's three process sizes their 1 MB and
/// 10 MB steps.
const SIZES: [(u64, &str); 3] = [(0, "1.70 MB"), (1, "2.70 MB"), (10, "11.70 MB")];

fn at<'a>(ms: &'a [Measurement], row: &str, size: &str) -> Option<&'a Measurement> {
    ms.iter()
        .find(|m| m.param("row") == Some(row) && m.param("size") == Some(size))
}

impl Experiment for Tlpi {
    fn name(&self) -> &'static str {
        "tlpi"
    }

    fn about(&self) -> &'static str {
        "The Linux Programming Interface, table 28-3: creating processes with fork(), vfork(), clone() (child exits at once) and fork()/vfork() + exec of /bin/true, at three process sizes. Times are for 100,000 processes, extrapolated from the count measured; parent CPU seconds in parentheses."
    }

    fn plan(&self, opts: &Options, _peers: &Peers) -> Plan {
        let rows = [
            ("c-fork-exit", "fork()"),
            ("c-vfork-exit", "vfork()"),
            ("c-clone-exit", "clone()"),
            ("c-fork", "fork()+exec()"),
            ("c-vfork", "vfork()+exec()"),
            ("fastspawn-auto", "fastspawn+exec()"),
        ];
        let n = if opts.full { 100_000 } else { 20_000 };
        let mut cells = Vec::new();
        for (mib, size) in SIZES {
            for (runner, label) in rows {
                let mut run = PeerRun::new(runner, "wait", n, vec!["/bin/true".to_string()]);
                run.rss_mib = mib;
                cells.push(Cell {
                    extra: Extra::default(),
                    runner: runner.to_string(),
                    params: params(&[("size", size.to_string()), ("row", label.to_string())]),
                    run,
                    budget_s: if opts.full {
                        f64::INFINITY
                    } else {
                        opts.budget(1.2)
                    },
                });
            }
        }
        let notes = vec![
            "The book measured on x86-32 with Linux 2.6.27 and 1.70 MB of total virtual memory at its smallest; each peer here starts from its own size and adds 0, 1 and 10 MiB, the book's steps between columns.".to_string(),
            "Run with `--full` to measure all 100,000 processes per cell.".to_string(),
        ];
        Plan {
            reps: opts.reps(2),
            cells,
            notes,
        }
    }

    fn tables(&self, ms: &[Measurement]) -> Vec<Table> {
        let mut header = vec!["Method of process creation".to_string()];
        for (_, size) in SIZES {
            header.push(format!("{size}: time (s)"));
            header.push("rate".into());
        }
        let mut rows = Vec::new();
        for row_label in values(ms, "row") {
            let mut row = vec![row_label.clone()];
            for (_, size) in SIZES {
                let m = at(ms, &row_label, size);
                match (m, per_spawn(m)) {
                    (Some(m), Some(s)) => {
                        let cpu: Vec<f64> = m
                            .repetitions
                            .iter()
                            .map(|r| r.cpu_s() / m.n as f64)
                            .collect();
                        let cpu = stats::median(&cpu).unwrap_or(0.0);
                        row.push(format!(
                            "{:.2} ({:.2})",
                            s.median * 100_000.0 / 1e6,
                            cpu * 100_000.0
                        ));
                        row.push(format!("{:.0}", 1e6 / s.median));
                    }
                    _ => row.extend(["–".to_string(), "–".to_string()]),
                }
            }
            rows.push(row);
        }
        let table = Table {
            title: "tlpi: time to create 100,000 processes (table 28-3)".into(),
            header,
            rows,
            notes: vec!["Elapsed seconds for 100,000 processes, parent CPU seconds in parentheses, and processes per second; the book's columns are total virtual memory, here the peer's own size plus 0, 1 and 10 MiB.".into()],
            ..Table::default()
        };
        table::with_common_notes(table, self.about(), ms)
    }

    fn charts(&self, ms: &[Measurement]) -> Vec<Chart> {
        let series = values(ms, "row")
            .iter()
            .map(|row| {
                let ys = SIZES
                    .iter()
                    .map(|(_, size)| per_spawn(at(ms, row, size)).map_or(0.0, |s| 1e6 / s.median))
                    .collect();
                (row.clone(), ys)
            })
            .collect();
        vec![Chart {
            title: "Processes per second (TLPI 28-3)".into(),
            kind: ChartKind::Bar,
            x: SIZES.iter().map(|(_, s)| s.to_string()).collect(),
            series,
            y_unit: "/s".into(),
        }]
    }
}
