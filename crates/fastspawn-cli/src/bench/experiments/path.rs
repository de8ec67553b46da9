//! `path`: a bare program name looked up in a long PATH against its
//! absolute path (the HyperQueue post's bonus).

use super::env::synthetic_env;
use crate::bench::experiment::{Cell, Experiment, Extra, Options, Plan, params};
use crate::bench::peer::{PeerRun, Peers};
use crate::bench::record::Measurement;
use crate::bench::table::{self, find, fmt_ratio, fmt_us, per_spawn, ratio, runners};
use crate::export::{Chart, ChartKind, Table};

pub struct Path;

/// A PATH of 14 entries, `/usr/bin` (which holds `sleep`) last.
fn long_path() -> String {
    let mut dirs: Vec<String> = [
        "/usr/local/sbin",
        "/usr/local/bin",
        "/usr/sbin",
        "/sbin",
        "/opt/fastspawn/bin",
        "/root/.local/bin",
        "/root/.cargo/bin",
        "/usr/local/go/bin",
        "/opt/tools/bin",
        "/opt/site/bin",
        "/usr/games",
        "/usr/local/games",
        "/snap/bin",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    dirs.push("/usr/bin".into());
    dirs.join(":")
}

impl Experiment for Path {
    fn name(&self) -> &'static str {
        "path"
    }

    fn about(&self) -> &'static str {
        "`sleep 0` by bare name against `/usr/bin/sleep 0`, with a PATH of 14 entries whose last one holds sleep (the HyperQueue post's bonus)."
    }

    fn plan(&self, opts: &Options, _peers: &Peers) -> Plan {
        let mut env = synthetic_env(30);
        env[0].1 = long_path();
        let mut cells = Vec::new();
        for (program, label) in [("sleep", "sleep"), ("/usr/bin/sleep", "/usr/bin/sleep")] {
            for runner in ["rust-std", "fastspawn-auto"] {
                let mut run = PeerRun::new(
                    runner,
                    "spawn",
                    5_000,
                    vec![program.to_string(), "0".to_string()],
                );
                run.env = Some(env.clone());
                cells.push(Cell {
                    extra: Extra::default(),
                    runner: runner.to_string(),
                    params: params(&[("program", label.to_string())]),
                    run,
                    budget_s: opts.budget(0.8),
                });
            }
        }
        Plan {
            reps: opts.reps(7),
            cells,
            notes: Vec::new(),
        }
    }

    fn tables(&self, ms: &[Measurement]) -> Vec<Table> {
        let header = vec![
            "runner".into(),
            "sleep".into(),
            "/usr/bin/sleep".into(),
            "bare / absolute".into(),
        ];
        let rows = runners(ms)
            .iter()
            .map(|r| {
                let bare = per_spawn(find(ms, r, &[("program", "sleep")]));
                let abs = per_spawn(find(ms, r, &[("program", "/usr/bin/sleep")]));
                vec![
                    r.clone(),
                    fmt_us(bare),
                    fmt_us(abs),
                    fmt_ratio(ratio(bare, abs)),
                ]
            })
            .collect();
        let table = Table {
            title: "path: a bare name against an absolute path (PATH of 14 entries)".into(),
            header,
            rows,
            notes: vec![
                "Spawn calls only, per spawn; goal for fastspawn: bare / absolute at most 1.02."
                    .into(),
            ],
            ..Table::default()
        };
        table::with_common_notes(table, self.about(), ms)
    }

    fn charts(&self, ms: &[Measurement]) -> Vec<Chart> {
        let (xs, series) =
            table::series_over(ms, "program", &["rust-std", "fastspawn-auto"], &|_, us| us);
        vec![Chart {
            title: "Spawn (µs): sleep vs /usr/bin/sleep".into(),
            kind: ChartKind::Bar,
            x: xs,
            series,
            y_unit: "µs".into(),
        }]
    }

    fn headline(&self, ms: &[Measurement]) -> Vec<String> {
        ratio(
            per_spawn(find(ms, "fastspawn-auto", &[("program", "sleep")])),
            per_spawn(find(ms, "fastspawn-auto", &[("program", "/usr/bin/sleep")])),
        )
        .map(|r| format!("fastspawn-auto, bare name vs absolute path: {r:.3} (goal <= 1.02)"))
        .into_iter()
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_path_has_14_entries_and_ends_with_usr_bin() {
        let path = long_path();
        assert_eq!(path.split(':').count(), 14);
        assert!(path.ends_with(":/usr/bin"));
        assert!(
            !path.split(':').any(|d| d == "/bin"),
            "/bin would find sleep early"
        );
    }
}
