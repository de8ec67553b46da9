//! `env`: spawn cost against the size of the environment, without and
//! with one variable set on the command (the HyperQueue post's env charts).

use crate::bench::experiment::{Cell, Experiment, Extra, Options, Plan, params};
use crate::bench::peer::{PeerRun, Peers};
use crate::bench::record::Measurement;
use crate::bench::table::{self, find, fmt_us, per_spawn, ratio, runners, values};
use crate::export::{Chart, ChartKind, Table};

pub struct Env;

/// An environment with exactly `count` variables: PATH, HOME, then filler
/// of a realistic size (the post's cluster had ~180 variables, ~30 KiB).
pub fn synthetic_env(count: usize) -> Vec<(String, String)> {
    let mut env = vec![
        (
            "PATH".to_string(),
            std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into()),
        ),
        ("HOME".to_string(), "/root".to_string()),
    ];
    for i in env.len()..count {
        env.push((
            format!("FASTSPAWN_FILLER_{i:03}"),
            format!("/opt/site/module-{i}/lib:{}", "x".repeat(120)),
        ));
    }
    env.truncate(count.max(2));
    env
}

/// A runner's time with one variable set over without, at the most
/// variables.
fn overhead(ms: &[Measurement], runner: &str) -> Option<f64> {
    let most = table::largest(ms, "env_vars")?;
    ratio(
        per_spawn(find(
            ms,
            runner,
            &[("env_vars", &most), ("set_env", "true")],
        )),
        per_spawn(find(
            ms,
            runner,
            &[("env_vars", &most), ("set_env", "false")],
        )),
    )
}

impl Experiment for Env {
    fn name(&self) -> &'static str {
        "env"
    }

    fn about(&self) -> &'static str {
        "Spawn cost against the number of environment variables, without and with one variable set on the command (the HyperQueue post's two env charts)."
    }

    fn plan(&self, opts: &Options, peers: &Peers) -> Plan {
        let counts: Vec<usize> = if opts.quick {
            vec![50, 250]
        } else {
            vec![50, 100, 150, 200, 250]
        };
        let mut cells = Vec::new();
        for &count in &counts {
            for set_env in [false, true] {
                for runner in ["rust-std", "fastspawn-auto", "c-posix-spawn"] {
                    let mut run = PeerRun::new(runner, "spawn", 10_000, vec![peers.noop()]);
                    run.set_env = set_env;
                    run.env = Some(synthetic_env(count));
                    cells.push(Cell {
                        extra: Extra::default(),
                        runner: runner.to_string(),
                        params: params(&[
                            ("env_vars", count.to_string()),
                            ("set_env", set_env.to_string()),
                        ]),
                        run,
                        budget_s: opts.budget(0.5),
                    });
                }
            }
        }
        Plan {
            reps: opts.reps(3),
            cells,
            notes: Vec::new(),
        }
    }

    fn tables(&self, ms: &[Measurement]) -> Vec<Table> {
        let counts = values(ms, "env_vars");
        let mut header = vec!["runner".to_string()];
        header.extend(counts.iter().map(|n| format!("{n} vars")));
        let mut rows = Vec::new();
        for r in runners(ms) {
            for set in ["false", "true"] {
                let mut row = vec![format!(
                    "{r}, {}",
                    if set == "true" {
                        "one var set"
                    } else {
                        "no var set"
                    }
                )];
                row.extend(counts.iter().map(|n| {
                    fmt_us(per_spawn(find(
                        ms,
                        &r,
                        &[("env_vars", n), ("set_env", set)],
                    )))
                }));
                rows.push(row);
            }
        }
        let mut notes = vec![
            "Spawn calls only (children reaped after the clock stops), per spawn.".to_string(),
        ];
        if let Some(r) = overhead(ms, "fastspawn-auto") {
            notes.push(format!("fastspawn-auto with one variable set / without, at the most variables: {r:.3} (goal: at most 1.05)."));
        }
        if let Some(r) = overhead(ms, "rust-std") {
            notes.push(format!(
                "rust-std with one variable set / without, at the most variables: {r:.3}."
            ));
        }
        let table = Table {
            title: "env: spawn cost and the size of the environment".into(),
            header,
            rows,
            notes,
            ..Table::default()
        };
        table::with_common_notes(table, self.about(), ms)
    }

    fn charts(&self, ms: &[Measurement]) -> Vec<Chart> {
        let xs = values(ms, "env_vars");
        let series = ["rust-std", "fastspawn-auto", "c-posix-spawn"]
            .iter()
            .flat_map(|r| ["false", "true"].map(|set| (*r, set)))
            .filter(|(r, _)| ms.iter().any(|m| m.runner == *r))
            .map(|(r, set)| {
                let ys = xs
                    .iter()
                    .map(|x| {
                        per_spawn(find(ms, r, &[("env_vars", x), ("set_env", set)]))
                            .map_or(0.0, |s| s.median)
                    })
                    .collect();
                (
                    format!("{r}{}", if set == "true" { " +set" } else { "" }),
                    ys,
                )
            })
            .collect();
        vec![Chart {
            title: "Spawn (µs) by environment size".into(),
            kind: ChartKind::Line,
            x: xs,
            series,
            y_unit: "µs".into(),
        }]
    }

    fn headline(&self, ms: &[Measurement]) -> Vec<String> {
        overhead(ms, "fastspawn-auto")
            .map(|r| {
                format!("fastspawn-auto, 250 vars + one set vs none set: {r:.3} (goal <= 1.05)")
            })
            .into_iter()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthetic_env_has_the_asked_size_and_a_path() {
        for count in [2, 50, 250] {
            let env = synthetic_env(count);
            assert_eq!(env.len(), count);
            assert_eq!(env[0].0, "PATH");
        }
    }
}
