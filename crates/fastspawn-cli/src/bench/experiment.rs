//! What an experiment is: the one interface the driver, the terminal and
//! the exporters know. Each experiment lives in its own module under
//! `experiments/` and is named once, in `experiments::ALL`.
//!
//! Every experiment reproduces a figure of one seed article and adds
//! fastspawn to it; `about` says which, and what this machine cannot
//! reproduce.

use std::collections::BTreeMap;

use indicatif::ProgressBar;

use super::measure;
use super::peer::{PeerRun, Peers};
use super::record::Measurement;
use crate::export::{Chart, Table};

/// One experiment: its plan, how it is measured, and how its
/// measurements are laid out. Everything but the plan reads only the
/// experiment's own measurements, so `raw.json` is enough to redraw it.
pub trait Experiment: Sync {
    /// The name on the command line and in `raw.json`.
    fn name(&self) -> &'static str;

    /// What it reproduces (the paragraph under its tables).
    fn about(&self) -> &'static str;

    /// The cells to measure, with the options the user gave.
    fn plan(&self, opts: &Options, peers: &Peers) -> Plan;

    /// Measures the plan. The default runs each cell's peer: a pilot that
    /// sizes the count to the cell's budget, then interleaved repetitions.
    fn measure(&self, plan: &Plan, ctx: &mut Measuring) -> Vec<Measurement> {
        measure::cells(self.name(), plan, ctx)
    }

    /// Roughly how long one repetition of `cell` takes, seconds (for the
    /// progress bar's estimate of the time left). The default: the cell's
    /// budget, or 200 µs per spawn for a cell without one.
    fn expected_s(&self, cell: &Cell) -> f64 {
        if cell.budget_s.is_finite() {
            cell.budget_s
        } else {
            cell.run.n as f64 * 200e-6
        }
    }

    /// The tables of the report and the terminal.
    fn tables(&self, ms: &[Measurement]) -> Vec<Table>;

    /// The charts of the report (the first is `<name>.svg`).
    fn charts(&self, _ms: &[Measurement]) -> Vec<Chart> {
        Vec::new()
    }

    /// The lines this experiment adds to the headline, one per goal.
    fn headline(&self, _ms: &[Measurement]) -> Vec<String> {
        Vec::new()
    }
}

/// What the user asked for.
#[derive(Debug, Clone)]
pub struct Options {
    pub quick: bool,
    pub full: bool,
    pub max_rss_gib: u64,
}

impl Options {
    /// Scales a per-cell budget (seconds) for `--quick`.
    pub fn budget(&self, full: f64) -> f64 {
        if self.quick {
            (full / 10.0).max(0.02)
        } else {
            full
        }
    }

    /// Repetitions: `full`, or one for `--quick`.
    pub fn reps(&self, full: usize) -> usize {
        if self.quick { 1 } else { full }
    }
}

/// One runner with one parameter set, measured `reps` times.
#[derive(Debug, Clone)]
pub struct Cell {
    pub runner: String,
    pub params: BTreeMap<String, String>,
    pub run: PeerRun,
    /// Wall-clock seconds one repetition may take; `n` shrinks to fit.
    pub budget_s: f64,
    /// What a headline comparison needs beyond the other cells.
    pub extra: Extra,
}

/// For the cells of a headline comparison read round by round.
#[derive(Debug, Clone, Default)]
pub struct Extra {
    /// Rounds run for this cell after the plan's, still interleaved with
    /// the other cells that have them: a per-round ratio whose rounds
    /// spread widely needs more of them than the table does.
    pub reps: usize,
    /// Cells with the same key run the same count, the smallest that any
    /// of them fits in its budget, so that the two sides of a comparison
    /// make the same number of spawns.
    pub same_n: Option<String>,
}

/// An experiment's cells, repetitions and notes for this run.
#[derive(Debug, Clone)]
pub struct Plan {
    pub reps: usize,
    pub cells: Vec<Cell>,
    /// Notes for the report (what this machine changes, what was skipped).
    pub notes: Vec<String>,
}

impl Plan {
    /// The expected seconds of each progress step, in the order measuring
    /// takes them: a sizing pilot per cell with a budget, then every cell once
    /// per round.
    pub fn step_weights(&self, expected_s: &dyn Fn(&Cell) -> f64) -> Vec<f64> {
        /// A pilot: 20 spawns and the peer's start.
        const PILOT_S: f64 = 0.03;
        let pilots = self
            .cells
            .iter()
            .filter(|c| c.budget_s.is_finite())
            .map(|_| PILOT_S);
        let rounds = (0..self.rounds())
            .flat_map(|round| self.round_order(round).map(|i| expected_s(&self.cells[i])));
        pilots.chain(rounds).collect()
    }

    /// Rounds, counting the extra ones some cells have.
    pub fn rounds(&self) -> usize {
        self.reps + self.cells.iter().map(|c| c.extra.reps).max().unwrap_or(0)
    }

    /// Whether `cell` runs in `round`.
    pub fn runs_in(&self, cell: &Cell, round: usize) -> bool {
        round < self.reps + cell.extra.reps
    }

    /// The cells that run in `round`, by index, in the order they run:
    /// the plan's order in even rounds and the reverse in odd ones. A cell
    /// is then as often after a given neighbour as before it, so what one
    /// run leaves behind (a parent's thousands of children being freed by
    /// the kernel after its clock stopped, caches, a CPU's frequency) does
    /// not always fall on the same side of a comparison.
    pub fn round_order(&self, round: usize) -> impl Iterator<Item = usize> + '_ {
        let n = self.cells.len();
        (0..n)
            .map(move |k| {
                if round.is_multiple_of(2) {
                    k
                } else {
                    n - 1 - k
                }
            })
            .filter(move |&i| self.runs_in(&self.cells[i], round))
    }

    /// Progress steps of the rounds (every cell once per round it runs in).
    pub fn round_steps(&self) -> usize {
        self.cells.iter().map(|c| self.reps + c.extra.reps).sum()
    }
}

/// What measuring needs beyond the plan.
pub struct Measuring<'a> {
    pub opts: &'a Options,
    pub peers: &'a Peers,
    pub bar: &'a ProgressBar,
    /// Cells that failed, one line each (the run fails at the end).
    pub failures: &'a mut Vec<String>,
    /// Set by an experiment that could measure nothing here: why (the
    /// driver prints it instead of an empty table).
    pub skipped: Option<String>,
}

impl Measuring<'_> {
    /// For an experiment that cannot run here: records why (a failure in a
    /// full run, a printed reason in a quick one), counts its progress steps
    /// as done, and measures nothing.
    pub fn skip(&mut self, name: &str, plan: &Plan, why: String) -> Vec<Measurement> {
        if !self.opts.quick {
            self.failures.push(format!("{name}: {why}"));
        }
        self.bar.inc(plan.round_steps() as u64);
        self.skipped = Some(why);
        Vec::new()
    }
}

/// The repository's root, for experiments that run its scripts: the current
/// directory when it holds `marker` (`make bench` runs there), else the tree
/// the CLI was built from.
pub fn repo_root(marker: &str) -> std::path::PathBuf {
    [".", concat!(env!("CARGO_MANIFEST_DIR"), "/../..")]
        .iter()
        .map(std::path::PathBuf::from)
        .find(|p| p.join(marker).exists())
        .map(|p| p.canonicalize().unwrap_or(p))
        .unwrap_or_else(|| std::path::PathBuf::from("."))
}

/// A cell's parameters from `(key, value)` pairs.
pub fn params(pairs: &[(&str, String)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

/// Runs a driver script (an experiment measured by a program of its own
/// that prints one JSON document): each stderr line that `step` turns into
/// (progress steps, message) moves the bar, and every line is kept; returns
/// stdout and the last lines of stderr, or an error naming `what` with them.
pub fn run_script(
    mut cmd: std::process::Command,
    what: &std::path::Path,
    bar: &ProgressBar,
    step: fn(&str) -> Option<(u64, String)>,
) -> anyhow::Result<(String, String)> {
    use anyhow::Context;
    use std::io::{BufRead, BufReader, Read};
    cmd.stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd
        .spawn()
        .with_context(|| format!("starting {}", what.display()))?;
    let stderr = child.stderr.take().context("stderr")?;
    let bar = bar.clone();
    let log = std::thread::spawn(move || {
        let mut kept = Vec::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some((steps, message)) = step(&line) {
                bar.inc(steps);
                bar.set_message(message);
            }
            kept.push(line);
        }
        kept
    });
    let mut stdout = String::new();
    child
        .stdout
        .as_mut()
        .context("stdout")?
        .read_to_string(&mut stdout)?;
    let status = child.wait()?;
    let log = log.join().unwrap_or_default();
    let tail = log[log.len().saturating_sub(15)..].join("\n");
    if !status.success() {
        anyhow::bail!("{} failed ({status}):\n{tail}", what.display());
    }
    Ok((stdout, tail))
}
