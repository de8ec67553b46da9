//! `fastspawn bench`: plan the cells, size them to the time budget, run
//! them interleaved, and hand the one result record to the exporters.
//!
//! How a cell is measured:
//! - A pilot run (a few spawns) estimates the cost of one spawn; the count
//!   of the real runs is then the experiment's count, or less if that would
//!   take longer than the cell's budget. The report says when it is less.
//! - Repetitions are interleaved: every cell of an experiment runs once per
//!   round, so a slow minute of the machine hits every runner alike.
//! - Each repetition is a fresh peer process; figures are medians over them.

pub mod experiments;
pub mod http;
pub mod peer;
pub mod record;
pub mod report;
pub mod setup;
pub mod stats;

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

use crate::export;
use experiments::{Cell, Experiment, Options};
use peer::{PeerRun, Peers};
use record::{Measurement, Run};

/// The parsed `fastspawn bench` arguments.
#[derive(Debug, Clone)]
pub struct BenchArgs {
    pub experiments: Vec<String>,
    pub options: Options,
    pub out: Option<PathBuf>,
    pub peers: PathBuf,
    pub json: bool,
}

pub fn run(args: BenchArgs) -> Result<()> {
    let peers = Peers::new(args.peers.clone())?;
    let names: Vec<String> = if args.experiments.is_empty() {
        experiments::ALL.iter().map(|s| s.to_string()).collect()
    } else {
        args.experiments.clone()
    };
    let mut plans = Vec::new();
    for name in &names {
        let plan = experiments::plan(name, &args.options, &peers).with_context(|| {
            format!(
                "unknown experiment {name:?} (expected one of {})",
                experiments::ALL.join(", ")
            )
        })?;
        plans.push(plan);
    }

    let setup = setup::describe();
    let out_dir = args.out.clone().unwrap_or_else(|| {
        let kernel = setup.get("kernel").cloned().unwrap_or_default();
        let kernel = kernel
            .split_whitespace()
            .next()
            .unwrap_or("linux")
            .to_string();
        PathBuf::from("bench/results").join(format!("{}-{}", setup::today(), kernel))
    });

    let total: u64 = plans
        .iter()
        .map(|p| p.cells.len() as u64 * (p.reps as u64 + u64::from(needs_pilot(p))))
        .sum();
    let bar = if args.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(total)
    };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );

    let started = Instant::now();
    let mut run = Run {
        started: setup::now_utc(),
        quick: args.options.quick,
        setup,
        notes: Vec::new(),
        measurements: Vec::new(),
    };
    let mut failures = Vec::new();
    for plan in &plans {
        run.notes
            .extend(plan.notes.iter().map(|n| format!("{}: {n}", plan.name)));
        let measured = if plan.name == "http" {
            http::measure(plan, &args.options, &peers, &bar, &mut failures)
        } else {
            measure(plan, &peers, &bar, &mut failures)
        };
        if !args.json {
            let tables = report::tables(plan.name, &measured);
            bar.suspend(|| {
                for table in &tables {
                    println!("{}", export::terminal::render(table));
                }
            });
        }
        run.measurements.extend(measured);
    }
    bar.finish_and_clear();
    run.notes
        .extend(failures.iter().map(|f| format!("FAILED: {f}")));
    run.setup.insert(
        "bench duration".into(),
        format!("{:.0} s", started.elapsed().as_secs_f64()),
    );

    export::write_all(&run, &out_dir)?;
    if args.json {
        println!("{}", serde_json::to_string(&run)?);
    } else {
        for line in report::headline(&run) {
            println!("{line}");
        }
        println!("report: {}", out_dir.join("report.md").display());
    }
    if !failures.is_empty() {
        anyhow::bail!(
            "{} cell(s) failed:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
    Ok(())
}

fn needs_pilot(plan: &Experiment) -> bool {
    plan.cells.iter().any(|c| c.budget_s.is_finite())
}

/// Runs one experiment: pilot, then interleaved repetitions.
fn measure(
    plan: &Experiment,
    peers: &Peers,
    bar: &ProgressBar,
    failures: &mut Vec<String>,
) -> Vec<Measurement> {
    let mut measurements: Vec<Option<Measurement>> = Vec::with_capacity(plan.cells.len());
    for cell in &plan.cells {
        bar.set_message(format!("{} {} (sizing)", plan.name, cell.runner));
        let sized = if cell.budget_s.is_finite() {
            let sized = size(cell, peers);
            bar.inc(1);
            sized
        } else {
            Ok(cell.run.clone())
        };
        match sized {
            Ok(run) => measurements.push(Some(Measurement {
                experiment: plan.name.to_string(),
                runner: cell.runner.clone(),
                params: cell.params.clone(),
                mode: run.mode.to_string(),
                n: run.n,
                n_requested: cell.run.n,
                child: run.child.clone(),
                repetitions: Vec::new(),
            })),
            Err(err) => {
                failures.push(format!(
                    "{} {} {:?}: {err:#}",
                    plan.name, cell.runner, cell.params
                ));
                measurements.push(None);
            }
        }
    }
    for round in 0..plan.reps {
        for (cell, slot) in plan.cells.iter().zip(measurements.iter_mut()) {
            bar.inc(1);
            let Some(measurement) = slot else { continue };
            bar.set_message(format!(
                "{} {} ({}/{})",
                plan.name,
                cell.runner,
                round + 1,
                plan.reps
            ));
            let mut run = cell.run.clone();
            run.n = measurement.n;
            match peers.run(&run) {
                Ok(rep) => measurement.repetitions.push(rep),
                Err(err) => {
                    failures.push(format!(
                        "{} {} {:?}: {err:#}",
                        plan.name, cell.runner, cell.params
                    ));
                    *slot = None;
                }
            }
        }
    }
    measurements.into_iter().flatten().collect()
}

/// The count that fits the cell's budget, from a short pilot run.
fn size(cell: &Cell, peers: &Peers) -> Result<PeerRun> {
    let mut pilot = cell.run.clone();
    pilot.n = cell.run.n.min(20);
    pilot.warmup = 2;
    pilot.samples = false;
    let rep = peers.run(&pilot)?;
    let per_spawn_s = rep.total_ns as f64 / pilot.n as f64 / 1e9;
    let fits = (cell.budget_s / per_spawn_s.max(1e-7)).floor() as u64;
    let mut run = cell.run.clone();
    run.n = fits.clamp(10.min(cell.run.n), cell.run.n);
    Ok(run)
}
