//! Helpers every experiment's tables, charts and headline share: finding
//! a cell, medians per spawn, µs and ratio formatting, the notes every
//! table carries (repetitions, reduced counts, fastspawn against the raw C
//! loop and Rust std), flatness across a parameter.

use super::record::{Measurement, Repetition};
use super::stats::{self, Summary};
use crate::export::Table;

/// The measurement of `runner` whose parameters include `params`.
pub fn find<'a>(
    ms: &'a [Measurement],
    runner: &str,
    params: &[(&str, &str)],
) -> Option<&'a Measurement> {
    ms.iter()
        .find(|m| m.runner == runner && params.iter().all(|(k, v)| m.param(k) == Some(v)))
}

/// Median and spread of the time per spawn, µs.
pub fn per_spawn(m: Option<&Measurement>) -> Option<Summary> {
    stats::summarize(&m?.per_spawn_us())
}

/// The throughput of `runner` against `base` round by round: in each
/// repetition round the two ran one after the other, so a load that comes
/// and goes hits both; the ratio is `base`'s time per spawn over the
/// runner's (above 1: the runner is faster). The median of those ratios,
/// with the smallest and the largest.
pub fn paired(
    ms: &[Measurement],
    runner: &str,
    base: &str,
    params: &[(&str, &str)],
) -> Option<(f64, f64, f64)> {
    paired_with(ms, runner, base, params, |side, base| base / side)
}

/// Round by round, `ratio(runner's time per spawn, base's)`: the median,
/// the smallest and the largest.
pub fn paired_with(
    ms: &[Measurement],
    runner: &str,
    base: &str,
    params: &[(&str, &str)],
    ratio: impl Fn(f64, f64) -> f64,
) -> Option<(f64, f64, f64)> {
    paired_rounds(ms, runner, base, params, ratio).map(|r| (r.median, r.lo, r.hi))
}

/// A ratio read round by round: the median of the per-round ratios, their
/// range, how many rounds, and the sign test's interval of the median
/// (see [`stats::median_interval`]) at [`ROUNDS_LEVEL`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rounds {
    pub median: f64,
    pub lo: f64,
    pub hi: f64,
    pub rounds: usize,
    pub interval: Option<(f64, f64, f64)>,
}

/// The coverage asked of a [`Rounds`] interval.
pub const ROUNDS_LEVEL: f64 = 0.90;

impl Rounds {
    pub fn of(ratios: &[f64]) -> Option<Rounds> {
        let (median, lo, hi) = median_and_range(ratios)?;
        Some(Rounds {
            median,
            lo,
            hi,
            rounds: ratios.len(),
            interval: stats::median_interval(ratios, ROUNDS_LEVEL),
        })
    }
}

impl std::fmt::Display for Rounds {
    /// `1.002x (rounds 0.91x to 1.07x; the median's 93% interval 0.98x to
    /// 1.02x, 25 rounds)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.3}x (rounds {:.2}x to {:.2}x; ",
            self.median, self.lo, self.hi
        )?;
        match self.interval {
            Some((lo, hi, coverage)) => write!(
                f,
                "the median's {:.0}% interval {lo:.3}x to {hi:.3}x, {} rounds)",
                coverage * 100.0,
                self.rounds
            ),
            None => write!(f, "{} rounds: too few for an interval)", self.rounds),
        }
    }
}

/// [`paired_with`] with the rounds' count and the median's interval.
pub fn paired_rounds(
    ms: &[Measurement],
    runner: &str,
    base: &str,
    params: &[(&str, &str)],
    ratio: impl Fn(f64, f64) -> f64,
) -> Option<Rounds> {
    let side = find(ms, runner, params)?.per_spawn_us();
    let base = find(ms, base, params)?.per_spawn_us();
    Rounds::of(&round_ratios(&side, &base, ratio))
}

/// Issue 10's gap split by the C loop doing the kernel work of fastspawn's
/// default child (`c-clone3-same-work`), throughput ratios round by round:
/// that loop against the bare C clone loop (what the child's work costs)
/// and fastspawn-auto against that loop (what fastspawn's own code costs).
pub fn same_work_split(ms: &[Measurement], params: &[(&str, &str)]) -> Option<(f64, f64)> {
    let (work, _, _) = paired(ms, "c-clone3-same-work", "c-clone", params)?;
    let (own, _, _) = paired(ms, "fastspawn-auto", "c-clone3-same-work", params)?;
    Some((work, own))
}

/// `ratio(side, base)` of each round in which both sides measured something.
pub fn round_ratios(side: &[f64], base: &[f64], ratio: impl Fn(f64, f64) -> f64) -> Vec<f64> {
    side.iter()
        .zip(base)
        .filter(|(s, b)| **s > 0.0 && **b > 0.0)
        .map(|(s, b)| ratio(*s, *b))
        .collect()
}

/// The median of `values`, their smallest and their largest.
pub fn median_and_range(values: &[f64]) -> Option<(f64, f64, f64)> {
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(0.0, f64::max);
    Some((stats::median(values)?, lo, hi))
}

/// `123.4 µs ±2%`, or ms above 10 ms.
pub fn fmt_us(s: Option<Summary>) -> String {
    match s {
        None => "–".into(),
        Some(s) if s.median >= 10_000.0 => {
            format!("{:.1} ms ±{:.0}%", s.median / 1e3, s.spread_pct)
        }
        Some(s) => format!("{:.1} µs ±{:.0}%", s.median, s.spread_pct),
    }
}

/// `1.23x`, or `–`.
pub fn fmt_ratio(r: Option<f64>) -> String {
    r.map_or("–".into(), |r| format!("{r:.2}x"))
}

/// The ratio of two medians.
pub fn ratio(a: Option<Summary>, b: Option<Summary>) -> Option<f64> {
    Some(a?.median / b?.median)
}

/// Runners in first-seen order.
pub fn runners(ms: &[Measurement]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in ms {
        if !out.contains(&m.runner) {
            out.push(m.runner.clone());
        }
    }
    out
}

/// A parameter's values in first-seen order.
pub fn values(ms: &[Measurement], key: &str) -> Vec<String> {
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

/// `512 MiB`, `2 GiB` from a count of MiB.
pub fn gib(mib: &str) -> String {
    let mib: f64 = mib.parse().unwrap_or(0.0);
    if mib >= 1024.0 {
        format!("{} GiB", mib / 1024.0)
    } else {
        format!("{mib} MiB")
    }
}

/// The cells measured with fewer spawns than asked (time budget).
pub fn reduced_note(ms: &[Measurement]) -> Vec<String> {
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

/// How many repetitions the medians are over.
pub fn reps_note(ms: &[Measurement]) -> String {
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
pub fn peer_ratios(ms: &[Measurement]) -> Vec<String> {
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

/// Adds the notes every one-table experiment carries: what it reproduces,
/// fastspawn-auto against c-clone and rust-std, repetitions, reduced counts.
pub fn with_common_notes(mut table: Table, about: &str, ms: &[Measurement]) -> Vec<Table> {
    table.about = about.to_string();
    table.notes.extend(peer_ratios(ms));
    table.notes.push(reps_note(ms));
    table.notes.extend(reduced_note(ms));
    vec![table]
}

/// A runner's slowest median per spawn over its fastest, across every
/// cell it ran in (None with fewer than two cells).
pub fn flatness(ms: &[Measurement], runner: &str) -> Option<f64> {
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

/// The largest numeric value of a parameter.
pub fn largest(ms: &[Measurement], key: &str) -> Option<String> {
    values(ms, key)
        .into_iter()
        .max_by_key(|v| v.parse::<u64>().unwrap_or(0))
}

/// Chart series: one per runner that ran, the runner's median per spawn
/// (scaled by `scale`) at each value of `key` (0 where it did not run).
pub fn series_over(
    ms: &[Measurement],
    key: &str,
    runners: &[&str],
    scale: &dyn Fn(&Measurement, f64) -> f64,
) -> (Vec<String>, Vec<(String, Vec<f64>)>) {
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
}

/// One nanosecond figure of every repetition that has it, in µs.
pub fn micros(m: &Measurement, get: fn(&Repetition) -> Option<u64>) -> Vec<f64> {
    m.repetitions
        .iter()
        .filter_map(get)
        .map(|n| n as f64 / 1e3)
        .collect()
}

/// The columns of a stall table (cells run with `--measure-stall`).
pub fn stall_header(first: &str) -> Vec<String> {
    [
        first,
        "spawn poll p50",
        "p99",
        "p99 not preempted",
        "max not preempted",
        "max",
        "spawns preempted",
        "loop gap p99",
        "loop gap max",
        "spawns measured",
    ]
    .map(String::from)
    .to_vec()
}

/// One row of a stall table: medians over the repetitions of `m`.
pub fn stall_row(label: &str, m: &Measurement) -> Vec<String> {
    let us = |get| fmt_us(stats::summarize(&micros(m, get)));
    vec![
        label.to_string(),
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
    ]
}
