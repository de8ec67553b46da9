//! `fds`: p10/p50/p90 of one spawn() call with and without two extra fds
//! passed to the child (the command-fds benchmark's table).

use crate::bench::experiment::{Cell, Experiment, Extra, Options, Plan, params};
use crate::bench::peer::{PeerRun, Peers};
use crate::bench::record::Measurement;
use crate::bench::stats;
use crate::bench::table::{self, fmt_ratio, values};
use crate::export::{Chart, ChartKind, Table};

pub struct Fds;

fn at<'a>(ms: &'a [Measurement], mib: &str, column: &str) -> Option<&'a Measurement> {
    ms.iter()
        .find(|m| m.param("rss_mib") == Some(mib) && m.param("column") == Some(column))
}

/// The p50 of one cell's spawn() samples, µs.
fn p50(ms: &[Measurement], mib: &str, column: &str) -> Option<f64> {
    stats::quantile(&at(ms, mib, column)?.samples_us(), 0.5)
}

impl Experiment for Fds {
    fn name(&self) -> &'static str {
        "fds"
    }

    fn about(&self) -> &'static str {
        "p10/p50/p90 of one spawn() call, without and with two extra fds passed to the child, at 0, 32 and 512 MB of extra memory (the command-fds benchmark's table)."
    }

    fn plan(&self, opts: &Options, peers: &Peers) -> Plan {
        let sizes: Vec<u64> = if opts.quick {
            vec![0, 32]
        } else {
            vec![0, 32, 512]
        };
        let mut cells = Vec::new();
        for mib in sizes {
            for (runner, extra, label) in [
                ("rust-std", 0, "std"),
                ("rust-command-fds", 2, "command-fds"),
                ("fastspawn-auto", 0, "fastspawn"),
                ("fastspawn-auto", 2, "fastspawn fd()"),
            ] {
                let mut run = PeerRun::new(runner, "spawn", 1_000, vec![peers.noop()]);
                run.rss_mib = mib;
                run.extra_fds = extra;
                run.samples = true;
                cells.push(Cell {
                    extra: Extra::default(),
                    runner: runner.to_string(),
                    params: params(&[
                        ("rss_mib", mib.to_string()),
                        ("extra_fds", extra.to_string()),
                        ("column", label.to_string()),
                    ]),
                    run,
                    budget_s: opts.budget(0.4),
                });
            }
        }
        Plan {
            reps: opts.reps(2),
            cells,
            notes: Vec::new(),
        }
    }

    fn tables(&self, ms: &[Measurement]) -> Vec<Table> {
        let columns = values(ms, "column");
        let mut header = vec!["Extra memory".to_string()];
        header.extend(columns.iter().map(|c| format!("{c}: p10, p50, p90")));
        header.push("command-fds / fastspawn fd() (p50)".into());
        let rows = values(ms, "rss_mib")
            .iter()
            .map(|mib| {
                let mut row = vec![format!("{mib} MB")];
                for col in &columns {
                    let samples = at(ms, mib, col).map(|m| m.samples_us()).unwrap_or_default();
                    row.push(
                        match (
                            stats::quantile(&samples, 0.1),
                            stats::quantile(&samples, 0.5),
                            stats::quantile(&samples, 0.9),
                        ) {
                            (Some(a), Some(b), Some(c)) => {
                                format!("{a:.1}µs, **{b:.1}µs**, {c:.1}µs")
                            }
                            _ => "–".into(),
                        },
                    );
                }
                row.push(fmt_ratio(
                    p50(ms, mib, "command-fds")
                        .zip(p50(ms, mib, "fastspawn fd()"))
                        .map(|(a, b)| a / b),
                ));
                row
            })
            .collect();
        let table = Table {
            title: "fds: spawn() with and without two extra fds (the command-fds table)".into(),
            header,
            rows,
            notes: vec!["Percentiles over every spawn() call of every repetition.".into()],
            ..Table::default()
        };
        table::with_common_notes(table, self.about(), ms)
    }

    fn charts(&self, ms: &[Measurement]) -> Vec<Chart> {
        let xs = values(ms, "rss_mib");
        let series = values(ms, "column")
            .iter()
            .map(|col| {
                let ys = xs.iter().map(|x| p50(ms, x, col).unwrap_or(0.0)).collect();
                (col.clone(), ys)
            })
            .collect();
        vec![Chart {
            title: "spawn() p50 (µs) by extra memory".into(),
            kind: ChartKind::Bar,
            x: xs.iter().map(|x| format!("{x} MB")).collect(),
            series,
            y_unit: "µs".into(),
        }]
    }
}
