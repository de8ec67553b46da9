//! `count`: the HyperQueue post's first chart, seconds to spawn N
//! processes without waiting.

use crate::bench::experiment::{Cell, Experiment, Extra, Options, Plan, params};
use crate::bench::peer::{PeerRun, Peers};
use crate::bench::record::Measurement;
use crate::bench::table::{self, find, fmt_ratio, per_spawn, ratio, runners, values};
use crate::export::{Chart, ChartKind, Table};

pub struct Count;

const C_EXEC: [&str; 6] = [
    "c-fork",
    "c-vfork",
    "c-clone",
    "c-posix-spawn",
    "c-posix-spawn-usevfork",
    "c-clone3-same-work",
];

/// The cells read round by round: the goal's two sides, and the C loop
/// whose child does the kernel work of fastspawn's default child
/// (CLONE_FILES + close_range, SIGPIPE reset, CLONE_CLEAR_SIGHAND), which
/// splits the gap into what std's semantics cost and what fastspawn's own
/// code costs.
const HEADLINE: [&str; 3] = ["c-clone", "fastspawn-auto", "c-clone3-same-work"];
const RUST: [&str; 4] = [
    "rust-std",
    "rust-std-pre-exec",
    "rust-command-fds",
    "rust-tokio",
];
const FASTSPAWN: [&str; 5] = [
    "fastspawn-auto",
    "fastspawn-clone3",
    "fastspawn-clone-vfork",
    "fastspawn-posix-spawn",
    "fastspawn-fork",
];
const OTHERS: [&str; 5] = [
    "go-os-exec",
    "python-popen",
    "python-fastspawn",
    "node-spawn",
    "node-fastspawn",
];

/// Rounds of fastspawn-auto and c-clone beyond the table's five: their
/// ratio is read round by round, and single rounds spread by +-20% on a
/// shared VM (2026-11-23: 0.82x to 1.25x), so five rounds leave the
/// median a few percent uncertain; with 25, the sign test's 90% interval
/// of the median spans about the 8th to the 18th round.
const HEADLINE_EXTRA_REPS: usize = 20;

/// fastspawn-auto's throughput against the C clone loop's, at every N.
const COUNT_GOAL: f64 = 0.97;

impl Experiment for Count {
    fn name(&self) -> &'static str {
        "count"
    }

    fn about(&self) -> &'static str {
        "Time to spawn N processes without waiting (children reaped after the clock stops), as in the HyperQueue post's first chart."
    }

    fn plan(&self, opts: &Options, peers: &Peers) -> Plan {
        let mut notes = vec![
            "The post spawned `sleep 0`; this uses the static do-nothing child so that 25,000 children fit the time budget (`sleep 0` adds its own dynamic loading, the same for every runner).".to_string(),
        ];
        let pid_max: u64 = std::fs::read_to_string("/proc/sys/kernel/pid_max")
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(32768);
        let running = std::fs::read_dir("/proc")
            .map(|d| {
                d.filter(|e| {
                    e.as_ref()
                        .is_ok_and(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
                })
                .count() as u64
            })
            .unwrap_or(0);
        // Children stay zombies until the clock stops: leave room for the system.
        let cap = (pid_max.saturating_sub(running)).saturating_mul(3) / 4;
        let mut counts: Vec<u64> = if opts.quick {
            vec![100, 400]
        } else {
            vec![1_000, 5_000, 10_000, 25_000]
        };
        if counts.iter().any(|&n| n > cap) {
            notes.push(format!(
                "pid_max is {pid_max} with {running} processes running: N is capped at {cap} to leave the system headroom."
            ));
            counts = counts.into_iter().map(|n| n.min(cap)).collect();
            counts.dedup();
        }
        if !opts.quick {
            notes.push(format!(
                "c-clone and fastspawn-auto, the two sides of the goal, and c-clone3-same-work run {} more rounds than the others (interleaved with each other) and the same count at each N (the smallest of their counts that fit the budget). c-clone3-same-work is a raw C clone3 loop whose child does the kernel work of fastspawn's default child: CLONE_FILES then close_range(3, ~0, CLOSE_RANGE_UNSHARE) (every fd but stdio closed), SIGPIPE back to its default (the peer ignores it, as Rust's runtime does), CLONE_CLEAR_SIGHAND.",
                HEADLINE_EXTRA_REPS
            ));
        }
        let runners: Vec<&str> = C_EXEC
            .iter()
            .chain(&RUST)
            .chain(&OTHERS)
            .chain(&FASTSPAWN)
            .copied()
            .collect();
        let mut cells = Vec::new();
        for &n in &counts {
            for runner in &runners {
                // The goal's two sides: more rounds, the same count.
                let headline = HEADLINE.contains(runner);
                cells.push(Cell {
                    extra: if headline {
                        Extra {
                            reps: if opts.quick { 0 } else { HEADLINE_EXTRA_REPS },
                            same_n: Some(format!("count={n}")),
                        }
                    } else {
                        Extra::default()
                    },
                    runner: runner.to_string(),
                    params: params(&[("count", n.to_string())]),
                    run: PeerRun::new(runner, "spawn", n, vec![peers.noop()]),
                    budget_s: opts.budget(0.8),
                });
            }
        }
        Plan {
            // Five rounds: at N = 1,000 a repetition lasts 0.1 s, and the
            // goal (fastspawn within 3% of the C loop) is read round by round.
            reps: opts.reps(5),
            cells,
            notes,
        }
    }

    fn tables(&self, ms: &[Measurement]) -> Vec<Table> {
        let counts = values(ms, "count");
        let mut header = vec!["runner".to_string()];
        header.extend(counts.iter().map(|n| format!("N = {n}")));
        header.push("vs fastspawn-auto".into());
        let last = counts.last().cloned().unwrap_or_default();
        let fs = per_spawn(find(ms, "fastspawn-auto", &[("count", &last)]));
        let rows = runners(ms)
            .iter()
            .map(|r| {
                let mut row = vec![r.clone()];
                for n in &counts {
                    let m = find(ms, r, &[("count", n)]);
                    let count: f64 = n.parse().unwrap_or(0.0);
                    row.push(match per_spawn(m) {
                        Some(s) => format!(
                            "{:.3} s{}",
                            s.median * count / 1e6,
                            if m.is_some_and(|m| m.n < m.n_requested) {
                                "*"
                            } else {
                                ""
                            }
                        ),
                        None => "–".into(),
                    });
                }
                row.push(fmt_ratio(ratio(
                    per_spawn(find(ms, r, &[("count", &last)])),
                    fs,
                )));
                row
            })
            .collect();
        let table = Table {
            title: "count: seconds to spawn N processes".into(),
            header,
            rows,
            notes: vec!["* extrapolated from fewer spawns (see below). The last column is the time ratio to fastspawn-auto at the largest N (above 1: slower than fastspawn).".into()],
            ..Table::default()
        };
        table::with_common_notes(table, self.about(), ms)
    }

    fn headline(&self, ms: &[Measurement]) -> Vec<String> {
        let per_n: Vec<(String, table::Rounds)> = values(ms, "count")
            .iter()
            .filter_map(|n| {
                let rounds = table::paired_rounds(
                    ms,
                    "fastspawn-auto",
                    "c-clone",
                    &[("count", n)],
                    |side, base| base / side,
                )?;
                Some((n.clone(), rounds))
            })
            .collect();
        if per_n.is_empty() {
            return Vec::new();
        }
        let missed: Vec<&str> = per_n
            .iter()
            .filter(|(_, r)| r.median < COUNT_GOAL)
            .map(|(n, _)| n.as_str())
            .collect();
        let verdict = if missed.is_empty() {
            "met at every N".to_string()
        } else {
            format!("missed at N = {}", missed.join(", "))
        };
        let mut lines = vec![format!(
            "count, fastspawn-auto throughput vs the raw C clone loop, round by round: {} (goal >= {COUNT_GOAL} at every N: {verdict})",
            per_n
                .iter()
                .map(|(n, r)| format!("N={n} {r}"))
                .collect::<Vec<_>>()
                .join(", ")
        )];
        lines.extend(same_work_line(ms));
        lines
    }

    fn charts(&self, ms: &[Measurement]) -> Vec<Chart> {
        let runners = [
            "c-fork",
            "c-clone",
            "rust-std",
            "rust-command-fds",
            "go-os-exec",
            "python-popen",
            "node-spawn",
            "fastspawn-auto",
        ];
        let (xs, series) = table::series_over(ms, "count", &runners, &|m, us| {
            us * m
                .param("count")
                .and_then(|c| c.parse::<f64>().ok())
                .unwrap_or(0.0)
                / 1e6
        });
        vec![Chart {
            title: "Seconds to spawn N processes".into(),
            kind: ChartKind::Line,
            x: xs,
            series,
            y_unit: "s".into(),
        }]
    }
}

/// How the gap to the C clone loop splits at each N: the C loop that does
/// the kernel work of fastspawn's child against the bare C loop (what the
/// semantics cost), and fastspawn-auto against that loop (what fastspawn's
/// own code costs). Throughput ratios, round by round.
fn same_work_line(ms: &[Measurement]) -> Option<String> {
    let per_n: Vec<String> = values(ms, "count")
        .iter()
        .filter_map(|n| {
            let (work, own) = table::same_work_split(ms, &[("count", n)])?;
            Some(format!("N={n} {work:.2}x / {own:.2}x"))
        })
        .collect();
    (!per_n.is_empty()).then(|| {
        format!(
            "where the gap lies, round by round: a C clone3 loop doing the kernel work of fastspawn's default child (fds closed, SIGPIPE reset, handlers cleared) against the bare C clone loop / fastspawn-auto against that loop: {}",
            per_n.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::record::wait_cell;

    fn cell(runner: &str, n: &str, per_spawn_us: &[u64]) -> Measurement {
        wait_cell(
            "count",
            runner,
            params(&[("count", n.to_string())]),
            per_spawn_us,
        )
    }

    #[test]
    fn the_gap_splits_into_the_childs_work_and_fastspawns_own() {
        let ms = [
            cell("c-clone", "1000", &[40, 80]),
            cell("c-clone3-same-work", "1000", &[41, 82]),
            cell("fastspawn-auto", "1000", &[42, 84]),
        ];
        let lines = Count.headline(&ms);
        assert_eq!(lines.len(), 2, "{lines:?}");
        // 40/42 in both rounds; two rounds are too few for an interval.
        assert!(
            lines[0].contains(
                "N=1000 0.952x (rounds 0.95x to 0.95x; 2 rounds: too few for an interval)"
            ),
            "{}",
            lines[0]
        );
        assert!(lines[0].ends_with("missed at N = 1000)"), "{}", lines[0]);
        // 40/41 = 0.976, 41/42 = 0.976.
        assert!(lines[1].ends_with("N=1000 0.98x / 0.98x"), "{}", lines[1]);
    }

    /// The goal is read from each N's median of the per-round ratios, and
    /// the sign test's interval comes with it once there are enough
    /// rounds (here 8: the 2nd smallest to the 2nd largest, 93%).
    #[test]
    fn the_goal_is_read_at_every_n_with_the_medians_interval() {
        let rounds = |base: u64| -> Vec<u64> { (0..8).map(|i| base + i).collect() };
        let ms = [
            cell("c-clone", "1000", &[100; 8]),
            cell("fastspawn-auto", "1000", &rounds(98)),
            cell("c-clone", "5000", &[100; 8]),
            cell("fastspawn-auto", "5000", &rounds(97)),
        ];
        let line = &Count.headline(&ms)[0];
        // N = 1000: 100/98 .. 100/105, median between 100/101 and 100/102.
        assert!(
            line.contains("N=1000 0.985x (rounds 0.95x to 1.02x; the median's 93% interval 0.962x to 1.010x, 8 rounds)"),
            "{line}"
        );
        assert!(
            line.ends_with("(goal >= 0.97 at every N: met at every N)"),
            "{line}"
        );
        let ms = [
            cell("c-clone", "1000", &[100; 8]),
            cell("fastspawn-auto", "1000", &rounds(102)),
        ];
        let line = &Count.headline(&ms)[0];
        assert!(line.ends_with("missed at N = 1000)"), "{line}");
    }

    #[test]
    fn without_the_same_work_loop_only_the_goal_line() {
        let ms = [
            cell("c-clone", "1000", &[40]),
            cell("fastspawn-auto", "1000", &[50]),
        ];
        assert_eq!(Count.headline(&ms).len(), 1);
    }
}
