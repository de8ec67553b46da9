//! From measurements to tables, charts and the headline: the layout of each
//! experiment, shaped like the seed's table or chart it reproduces.

use super::experiments::{ASYNC_MODES, LANGS, TLPI_SIZES, about};
use super::record::{Measurement, Repetition, Run};
use super::stats::{self, Summary};
use crate::export::{Chart, ChartKind, Table};

fn find<'a>(
    ms: &'a [Measurement],
    runner: &str,
    params: &[(&str, &str)],
) -> Option<&'a Measurement> {
    ms.iter()
        .find(|m| m.runner == runner && params.iter().all(|(k, v)| m.param(k) == Some(v)))
}

fn per_spawn(m: Option<&Measurement>) -> Option<Summary> {
    stats::summarize(&m?.per_spawn_us())
}

/// `123.4 µs ±2%`, or ms above 10 ms.
fn fmt_us(s: Option<Summary>) -> String {
    match s {
        None => "–".into(),
        Some(s) if s.median >= 10_000.0 => {
            format!("{:.1} ms ±{:.0}%", s.median / 1e3, s.spread_pct)
        }
        Some(s) => format!("{:.1} µs ±{:.0}%", s.median, s.spread_pct),
    }
}

fn fmt_ratio(r: Option<f64>) -> String {
    r.map_or("–".into(), |r| format!("{r:.2}x"))
}

fn ratio(a: Option<Summary>, b: Option<Summary>) -> Option<f64> {
    Some(a?.median / b?.median)
}

/// Runners in first-seen order.
fn runners(ms: &[Measurement]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in ms {
        if !out.contains(&m.runner) {
            out.push(m.runner.clone());
        }
    }
    out
}

fn values(ms: &[Measurement], key: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in ms {
        if let Some(v) = m.param(key) {
            if !out.iter().any(|o| o == v) {
                out.push(v.to_string());
            }
        }
    }
    out
}

fn gib(mib: &str) -> String {
    let mib: f64 = mib.parse().unwrap_or(0.0);
    if mib >= 1024.0 {
        format!("{} GiB", mib / 1024.0)
    } else {
        format!("{mib} MiB")
    }
}

fn reduced_note(ms: &[Measurement]) -> Vec<String> {
    let reduced: Vec<String> = ms
        .iter()
        .filter(|m| m.n < m.n_requested)
        .map(|m| {
            let params: Vec<String> = m.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!(
                "{} [{}]: {} of {}",
                m.runner,
                params.join(" "),
                m.n,
                m.n_requested
            )
        })
        .collect();
    if reduced.is_empty() {
        Vec::new()
    } else {
        vec![format!(
            "Cells measured with fewer spawns than asked (time budget), spawns per repetition: {}.",
            reduced.join("; ")
        )]
    }
}

fn reps_note(ms: &[Measurement]) -> String {
    let reps: Vec<usize> = ms.iter().map(|m| m.repetitions.len()).collect();
    let (lo, hi) = (
        reps.iter().min().copied().unwrap_or(0),
        reps.iter().max().copied().unwrap_or(0),
    );
    let reps = if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}-{hi}")
    };
    format!("Median of {reps} repetitions (fresh process each, interleaved); ± is half the range.")
}

/// fastspawn-auto's time ratio to the raw C clone loop and to Rust std in
/// every parameter set where both ran (as a range when there are several).
fn peer_ratios(ms: &[Measurement]) -> Vec<String> {
    let mut notes = Vec::new();
    for peer in ["c-clone", "rust-std"] {
        let ratios: Vec<f64> = ms
            .iter()
            .filter(|m| m.runner == "fastspawn-auto")
            .filter_map(|fs| {
                let other = ms.iter().find(|m| m.runner == peer && same_cell(m, fs))?;
                // Throughput ratio: above 1 means fastspawn-auto is faster.
                Some(typical(other)? / typical(fs)?)
            })
            .collect();
        if ratios.is_empty() {
            continue;
        }
        let lo = ratios.iter().copied().fold(f64::MAX, f64::min);
        let hi = ratios.iter().copied().fold(f64::MIN, f64::max);
        let range = if (hi - lo).abs() < 0.005 {
            format!("{lo:.2}x")
        } else {
            format!("{lo:.2}x to {hi:.2}x")
        };
        notes.push(format!(
            "fastspawn-auto throughput / {peer}'s, same parameters: {range} (above 1: fastspawn is faster)."
        ));
    }
    notes
}

/// The figure a table shows for a cell: the p50 of the per-spawn samples
/// when there are samples, else the median time per spawn.
fn typical(m: &Measurement) -> Option<f64> {
    let samples = m.samples_us();
    if samples.is_empty() {
        per_spawn(Some(m)).map(|s| s.median)
    } else {
        stats::quantile(&samples, 0.5)
    }
}

/// Whether two measurements share their parameters, the ones that only
/// describe how fastspawn was configured (`extra_fds`, `column`) aside.
fn same_cell(a: &Measurement, b: &Measurement) -> bool {
    let key = |m: &Measurement| -> Vec<(String, String)> {
        m.params
            .iter()
            .filter(|(k, _)| k.as_str() != "column" && k.as_str() != "extra_fds")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };
    key(a) == key(b)
}

/// The tables of one experiment.
pub fn tables(name: &str, ms: &[Measurement]) -> Vec<Table> {
    let mut table = match name {
        "count" => count(ms),
        "rss" => rss(ms),
        "tlpi" => tlpi(ms),
        "env" => env(ms),
        "path" => path(ms),
        "fds" => fds(ms),
        "async" => {
            let mut tables = vec![asynchronous(ms), stalls(ms)];
            for t in &mut tables {
                t.about = about(name).to_string();
                t.notes.push(reps_note(ms));
            }
            tables[0].notes.extend(peer_ratios(ms));
            tables[0].notes.extend(reduced_note(ms));
            return tables;
        }
        "parallel" => parallel(ms),
        "langs" => langs(ms),
        "http" => return super::http::report::tables(ms),
        _ => return Vec::new(),
    };
    table.about = about(name).to_string();
    table.notes.extend(peer_ratios(ms));
    table.notes.push(reps_note(ms));
    table.notes.extend(reduced_note(ms));
    vec![table]
}

fn count(ms: &[Measurement]) -> Table {
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
    Table {
        title: "count: seconds to spawn N processes".into(),
        header,
        rows,
        notes: vec!["* extrapolated from fewer spawns (see below). The last column is the time ratio to fastspawn-auto at the largest N (above 1: slower than fastspawn).".into()],
        ..Table::default()
    }
}

fn rss(ms: &[Measurement]) -> Table {
    let sizes = values(ms, "rss_mib");
    let mut header = vec!["runner".to_string()];
    header.extend(sizes.iter().map(|s| gib(s)));
    header.push("vs fastspawn-auto".into());
    let last = sizes.last().cloned().unwrap_or_default();
    let fs = per_spawn(find(ms, "fastspawn-auto", &[("rss_mib", &last)]));
    let rows = runners(ms)
        .iter()
        .map(|r| {
            let mut row = vec![if r == "fastspawn-auto" {
                format!("{r} (fd(), cwd, setsid, rlimit)")
            } else {
                r.clone()
            }];
            row.extend(
                sizes
                    .iter()
                    .map(|s| fmt_us(per_spawn(find(ms, r, &[("rss_mib", s)])))),
            );
            row.push(fmt_ratio(ratio(
                per_spawn(find(ms, r, &[("rss_mib", &last)])),
                fs,
            )));
            row
        })
        .collect();
    let mut notes = vec!["Spawn + wait of the static do-nothing child. The last column is the time ratio to fastspawn-auto at the largest size.".to_string()];
    if let Some(flat) = rss_flatness(ms, "fastspawn-auto") {
        let raw = rss_flatness(ms, "c-clone").map_or(String::new(), |c| {
            format!("; the raw C clone loop in the same run: {c:.3}, so the part of the slope the kernel itself adds is visible")
        });
        notes.push(format!(
            "fastspawn-auto, slowest size / fastest size: {flat:.3} (goal: at most 1.05){raw}."
        ));
    }
    Table {
        title: "rss: spawn+wait as the parent's memory grows".into(),
        header,
        rows,
        notes,
        ..Table::default()
    }
}

fn rss_flatness(ms: &[Measurement], runner: &str) -> Option<f64> {
    let medians: Vec<f64> = ms
        .iter()
        .filter(|m| m.runner == runner)
        .filter_map(|m| per_spawn(Some(m)))
        .map(|s| s.median)
        .collect();
    (medians.len() > 1).then(|| {
        medians.iter().copied().fold(f64::MIN, f64::max)
            / medians.iter().copied().fold(f64::MAX, f64::min)
    })
}

fn tlpi(ms: &[Measurement]) -> Table {
    let mut header = vec!["Method of process creation".to_string()];
    for (_, size) in TLPI_SIZES {
        header.push(format!("{size}: time (s)"));
        header.push("rate".into());
    }
    let mut rows = Vec::new();
    for row_label in values(ms, "row") {
        let mut row = vec![row_label.clone()];
        for (_, size) in TLPI_SIZES {
            let m = ms
                .iter()
                .find(|m| m.param("row") == Some(&row_label) && m.param("size") == Some(size));
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
    Table {
        title: "tlpi: time to create 100,000 processes (table 28-3)".into(),
        header,
        rows,
        notes: vec!["Elapsed seconds for 100,000 processes, parent CPU seconds in parentheses, and processes per second; the book's columns are total virtual memory, here the peer's own size plus 0, 1 and 10 MiB.".into()],
        ..Table::default()
    }
}

fn env(ms: &[Measurement]) -> Table {
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
    let mut notes =
        vec!["Spawn calls only (children reaped after the clock stops), per spawn.".to_string()];
    if let Some(r) = env_overhead(ms, "fastspawn-auto") {
        notes.push(format!("fastspawn-auto with one variable set / without, at the most variables: {r:.3} (goal: at most 1.05)."));
    }
    if let Some(r) = env_overhead(ms, "rust-std") {
        notes.push(format!(
            "rust-std with one variable set / without, at the most variables: {r:.3}."
        ));
    }
    Table {
        title: "env: spawn cost and the size of the environment".into(),
        header,
        rows,
        notes,
        ..Table::default()
    }
}

fn env_overhead(ms: &[Measurement], runner: &str) -> Option<f64> {
    let most = values(ms, "env_vars")
        .into_iter()
        .max_by_key(|v| v.parse::<u64>().unwrap_or(0))?;
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

fn path(ms: &[Measurement]) -> Table {
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
    Table {
        title: "path: a bare name against an absolute path (PATH of 14 entries)".into(),
        header,
        rows,
        notes: vec![
            "Spawn calls only, per spawn; goal for fastspawn: bare / absolute at most 1.02.".into(),
        ],
        ..Table::default()
    }
}

fn fds(ms: &[Measurement]) -> Table {
    let columns = values(ms, "column");
    let mut header = vec!["Extra memory".to_string()];
    header.extend(columns.iter().map(|c| format!("{c}: p10, p50, p90")));
    header.push("command-fds / fastspawn fd() (p50)".into());
    let rows = values(ms, "rss_mib")
        .iter()
        .map(|mib| {
            let mut row = vec![format!("{mib} MB")];
            let p50 = |col: &str| {
                let m = ms
                    .iter()
                    .find(|m| m.param("rss_mib") == Some(mib) && m.param("column") == Some(col))?;
                stats::quantile(&m.samples_us(), 0.5)
            };
            for col in &columns {
                let m = ms.iter().find(|m| {
                    m.param("rss_mib") == Some(mib) && m.param("column") == Some(col.as_str())
                });
                let samples = m.map(|m| m.samples_us()).unwrap_or_default();
                row.push(
                    match (
                        stats::quantile(&samples, 0.1),
                        stats::quantile(&samples, 0.5),
                        stats::quantile(&samples, 0.9),
                    ) {
                        (Some(a), Some(b), Some(c)) => format!("{a:.1}µs, **{b:.1}µs**, {c:.1}µs"),
                        _ => "–".into(),
                    },
                );
            }
            row.push(fmt_ratio(
                p50("command-fds")
                    .zip(p50("fastspawn fd()"))
                    .map(|(a, b)| a / b),
            ));
            row
        })
        .collect();
    Table {
        title: "fds: spawn() with and without two extra fds (the command-fds table)".into(),
        header,
        rows,
        notes: vec!["Percentiles over every spawn() call of every repetition.".into()],
        ..Table::default()
    }
}

fn asynchronous(ms: &[Measurement]) -> Table {
    let header = vec![
        "mode".into(),
        "tokio::process (s for 20,000)".into(),
        "fastspawn (s for 20,000)".into(),
        "tokio / fastspawn".into(),
    ];
    let rows = ASYNC_MODES
        .iter()
        .filter(|mode| ms.iter().any(|m| m.param("async_mode") == Some(mode)))
        .map(|mode| {
            let plain: Vec<Measurement> = ms
                .iter()
                .filter(|m| m.param("stall").is_none())
                .cloned()
                .collect();
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

/// One nanosecond figure of every repetition that has it, in µs.
fn micros(m: &Measurement, get: fn(&Repetition) -> Option<u64>) -> Vec<f64> {
    m.repetitions
        .iter()
        .filter_map(get)
        .map(|n| n as f64 / 1e3)
        .collect()
}

fn stalls(ms: &[Measurement]) -> Table {
    let header = vec![
        "runner".into(),
        "spawn poll p50".into(),
        "p99".into(),
        "p99 not preempted".into(),
        "max not preempted".into(),
        "max".into(),
        "spawns preempted".into(),
        "loop gap p99".into(),
        "loop gap max".into(),
        "spawns measured".into(),
    ];
    let rows = ["rust-tokio", "fastspawn-auto"]
        .iter()
        .filter_map(|r| {
            let m = find(ms, r, &[("stall", "true")])?;
            let us = |get| fmt_us(stats::summarize(&micros(m, get)));
            Some(vec![
                r.to_string(),
                us(|r| r.spawn_poll_p50_ns),
                us(|r| r.spawn_poll_p99_ns),
                us(|r| r.spawn_poll_p99_unpreempted_ns),
                us(|r| r.spawn_poll_max_unpreempted_ns),
                us(|r| r.spawn_poll_max_ns),
                stats::median(
                    &m.repetitions
                        .iter()
                        .filter_map(|r| r.spawn_polls_preempted)
                        .map(|n| n as f64)
                        .collect::<Vec<_>>(),
                )
                .map_or("-".into(), |n| format!("{n:.0}")),
                us(|r| r.stall_p99_ns),
                us(|r| r.stall_max_ns),
                m.n.to_string(),
            ])
        })
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

/// The parallel experiment's three runners: (label, runner, pidfd param).
const PARALLEL: [(&str, &str, &str); 3] = [
    ("fastspawn", "fastspawn-pool", "on"),
    ("fastspawn, pidfd(false)", "fastspawn-pool", "off"),
    ("C clone threads", "c-clone", "none"),
];

fn parallel_at(ms: &[Measurement], runner: &str, pidfd: &str, threads: &str) -> Option<Summary> {
    per_spawn(find(ms, runner, &[("threads", threads), ("pidfd", pidfd)]))
}

fn parallel(ms: &[Measurement]) -> Table {
    let mut header = vec!["spawner threads".to_string()];
    for (label, _, _) in PARALLEL {
        header.push(format!("{label}: per spawn"));
        header.push("vs 1 thread".into());
    }
    let rows = values(ms, "threads")
        .iter()
        .map(|t| {
            let mut row = vec![t.clone()];
            for (_, runner, pidfd) in PARALLEL {
                let s = parallel_at(ms, runner, pidfd, t);
                row.push(fmt_us(s));
                row.push(fmt_ratio(ratio(parallel_at(ms, runner, pidfd, "1"), s)));
            }
            row
        })
        .collect();
    Table {
        title: "parallel: spawn throughput by spawner threads".into(),
        header,
        rows,
        notes: vec![
            "Spawn calls only (Pool::spawn_many of the static child); goal: at least 1.7x with two threads.".into(),
            "pidfd(false): the same pool with Command::pidfd(false). Every child of the default gets a pidfd from clone3, which the kernel creates partly one at a time; this row shows what that costs the scaling.".into(),
            "C clone threads: K pthreads each running a raw clone(CLONE_VM|CLONE_VFORK) + execve loop over its share (no pidfd), measured in the same run: how far the kernel and this machine let concurrent spawns scale.".into(),
        ],
        ..Table::default()
    }
}

fn langs(ms: &[Measurement]) -> Table {
    let header = vec![
        "runner".into(),
        "spawn+wait".into(),
        "spawns/s".into(),
        "throughput vs c-clone".into(),
    ];
    let base = per_spawn(find(ms, "c-clone", &[]));
    let rows = LANGS
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
    Table {
        title: "langs: spawn+wait throughput by runtime".into(),
        header,
        rows,
        notes: vec!["Throughput ratio: c-clone's time per spawn / the runner's (1.00 = as fast as the raw C clone loop). Goal for fastspawn-auto: at least 0.97.".into()],
        ..Table::default()
    }
}

/// The charts of one experiment.
pub fn charts(name: &str, ms: &[Measurement]) -> Vec<Chart> {
    if name == "http" {
        return super::http::report::charts(ms);
    }
    let series_over = |key: &str,
                       runners: &[&str],
                       scale: &dyn Fn(&Measurement, f64) -> f64|
     -> (Vec<String>, Vec<(String, Vec<f64>)>) {
        let xs = values(ms, key);
        let series = runners
            .iter()
            .filter(|r| ms.iter().any(|m| m.runner == **r))
            .map(|r| {
                let ys = xs
                    .iter()
                    .map(|x| {
                        find(ms, r, &[(key, x)])
                            .and_then(|m| per_spawn(Some(m)).map(|s| scale(m, s.median)))
                            .unwrap_or(0.0)
                    })
                    .collect();
                (r.to_string(), ys)
            })
            .collect();
        (xs, series)
    };
    let ident = |_: &Measurement, v: f64| v;
    match name {
        "count" => {
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
            let (xs, series) = series_over("count", &runners, &|m, us| {
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
        "rss" => {
            let runners = [
                "c-fork",
                "c-clone",
                "rust-std",
                "rust-command-fds",
                "python-popen",
                "node-spawn",
                "node-fastspawn",
                "fastspawn-auto",
            ];
            let (xs, series) = series_over("rss_mib", &runners, &|_, us| us / 1e3);
            vec![Chart {
                title: "Spawn+wait (ms) by parent RSS".into(),
                kind: ChartKind::Bar,
                x: xs.iter().map(|x| gib(x)).collect(),
                series,
                y_unit: "ms".into(),
            }]
        }
        "tlpi" => {
            let rows = values(ms, "row");
            let series = rows
                .iter()
                .map(|row| {
                    let ys = TLPI_SIZES
                        .iter()
                        .map(|(_, size)| {
                            let m = ms.iter().find(|m| {
                                m.param("row") == Some(row) && m.param("size") == Some(size)
                            });
                            per_spawn(m).map_or(0.0, |s| 1e6 / s.median)
                        })
                        .collect();
                    (row.clone(), ys)
                })
                .collect();
            vec![Chart {
                title: "Processes per second (TLPI 28-3)".into(),
                kind: ChartKind::Bar,
                x: TLPI_SIZES.iter().map(|(_, s)| s.to_string()).collect(),
                series,
                y_unit: "/s".into(),
            }]
        }
        "env" => {
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
        "path" => {
            let (xs, series) = series_over("program", &["rust-std", "fastspawn-auto"], &ident);
            vec![Chart {
                title: "Spawn (µs): sleep vs /usr/bin/sleep".into(),
                kind: ChartKind::Bar,
                x: xs,
                series,
                y_unit: "µs".into(),
            }]
        }
        "fds" => {
            let xs = values(ms, "rss_mib");
            let series = values(ms, "column")
                .iter()
                .map(|col| {
                    let ys = xs
                        .iter()
                        .map(|x| {
                            ms.iter()
                                .find(|m| {
                                    m.param("rss_mib") == Some(x) && m.param("column") == Some(col)
                                })
                                .and_then(|m| stats::quantile(&m.samples_us(), 0.5))
                                .unwrap_or(0.0)
                        })
                        .collect();
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
        "async" => {
            let (xs, series) =
                series_over("async_mode", &["rust-tokio", "fastspawn-auto"], &|_, us| {
                    us * 20_000.0 / 1e6
                });
            vec![Chart {
                title: "Seconds for 20,000 spawns from tokio".into(),
                kind: ChartKind::Bar,
                x: xs,
                series,
                y_unit: "s".into(),
            }]
        }
        "parallel" => {
            let xs = values(ms, "threads");
            let series = PARALLEL
                .iter()
                .filter(|(_, runner, pidfd)| parallel_at(ms, runner, pidfd, "1").is_some())
                .map(|(label, runner, pidfd)| {
                    let ys = xs
                        .iter()
                        .map(|t| parallel_at(ms, runner, pidfd, t).map_or(0.0, |s| 1e6 / s.median))
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
        "langs" => {
            let base = per_spawn(find(ms, "c-clone", &[]));
            let present: Vec<&str> = LANGS
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
        _ => Vec::new(),
    }
}

/// One line per goal of the project, from the measurements of this run.
pub fn headline(run: &Run) -> Vec<String> {
    let of = |exp: &str| run.of(exp);
    let mut lines = Vec::new();
    let langs = of("langs");
    let fs = per_spawn(find(&langs, "fastspawn-auto", &[]));
    if let Some(r) = ratio(per_spawn(find(&langs, "c-clone", &[])), fs) {
        lines.push(format!(
            "fastspawn-auto throughput vs raw C clone loop: {r:.3}x (goal >= 0.97)"
        ));
    }
    if let Some(r) = ratio(per_spawn(find(&langs, "rust-std", &[])), fs) {
        lines.push(format!(
            "fastspawn-auto vs Rust std (spawn+wait): {r:.2}x faster"
        ));
    }
    let rss = of("rss");
    if let Some(flat) = rss_flatness(&rss, "fastspawn-auto") {
        let raw = rss_flatness(&rss, "c-clone")
            .map_or(String::new(), |c| format!("; raw C clone loop: {c:.3}"));
        lines.push(format!(
            "fastspawn-auto with options, slowest / fastest parent RSS: {flat:.3} (goal <= 1.05{raw})"
        ));
    }
    if let Some(max) = rss_sizes_max(&rss) {
        let fs = per_spawn(find(&rss, "fastspawn-auto", &[("rss_mib", &max)]));
        for peer in ["c-fork", "rust-command-fds", "node-spawn"] {
            if let Some(r) = ratio(per_spawn(find(&rss, peer, &[("rss_mib", &max)])), fs) {
                lines.push(format!(
                    "at {} parent RSS, {peer} is {r:.1}x slower than fastspawn-auto",
                    gib(&max)
                ));
            }
        }
    }
    // Node holding 1 GiB of Buffers against Node holding none.
    let node_slowdown = |runner: &str| {
        ratio(
            per_spawn(find(&rss, runner, &[("rss_mib", "1024")])),
            per_spawn(find(&rss, runner, &[("rss_mib", "0")])),
        )
    };
    if let (Some(fs), Some(node)) = (node_slowdown("node-fastspawn"), node_slowdown("node-spawn")) {
        lines.push(format!(
            "Node holding 1 GiB of Buffers vs none, spawn+wait time: fastspawn package {fs:.2}x (goal <= 1.05), node:child_process {node:.1}x"
        ));
    }
    let env = of("env");
    if let Some(r) = env_overhead(&env, "fastspawn-auto") {
        lines.push(format!(
            "fastspawn-auto, 250 vars + one set vs none set: {r:.3} (goal <= 1.05)"
        ));
    }
    let path = of("path");
    if let Some(r) = ratio(
        per_spawn(find(&path, "fastspawn-auto", &[("program", "sleep")])),
        per_spawn(find(
            &path,
            "fastspawn-auto",
            &[("program", "/usr/bin/sleep")],
        )),
    ) {
        lines.push(format!(
            "fastspawn-auto, bare name vs absolute path: {r:.3} (goal <= 1.02)"
        ));
    }
    let asy = of("async");
    let stall = |r: &str, get| stats::median(&micros(find(&asy, r, &[("stall", "true")])?, get));
    let p50 = |r: &Repetition| r.spawn_poll_p50_ns;
    let p99 = |r: &Repetition| r.spawn_poll_p99_unpreempted_ns;
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
    let par = of("parallel");
    let scaling = |runner: &str, pidfd: &str| {
        ratio(
            parallel_at(&par, runner, pidfd, "1"),
            parallel_at(&par, runner, pidfd, "2"),
        )
    };
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
    lines.extend(super::http::report::headline(run));
    lines
}

fn rss_sizes_max(ms: &[Measurement]) -> Option<String> {
    values(ms, "rss_mib")
        .into_iter()
        .max_by_key(|v| v.parse::<u64>().unwrap_or(0))
}
