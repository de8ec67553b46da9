//! How a cell of peer runs is measured (what most experiments use):
//! - A pilot run (a few spawns) estimates the cost of one spawn; the count
//!   of the real runs is then the experiment's count, or less if that would
//!   take longer than the cell's budget. The report says when it is less.
//! - Repetitions are interleaved: every cell of an experiment runs once per
//!   round, so a slow minute of the machine hits every runner alike.
//! - Each repetition is a fresh peer process; figures are medians over them.

use anyhow::Result;

use super::experiment::{Cell, Measuring, Plan};
use super::peer::{PeerRun, Peers};
use super::record::Measurement;

/// Runs one experiment's cells: pilots, then interleaved repetitions.
pub fn cells(name: &str, plan: &Plan, ctx: &mut Measuring) -> Vec<Measurement> {
    let bar = ctx.bar;
    let mut measurements: Vec<Option<Measurement>> = Vec::with_capacity(plan.cells.len());
    for cell in &plan.cells {
        bar.set_message(format!("{name} {} (sizing)", cell.runner));
        let sized = if cell.budget_s.is_finite() {
            let sized = size(cell, ctx.peers);
            bar.inc(1);
            sized
        } else {
            Ok(cell.run.clone())
        };
        match sized {
            Ok(run) => measurements.push(Some(Measurement {
                experiment: name.to_string(),
                runner: cell.runner.clone(),
                params: cell.params.clone(),
                mode: run.mode.to_string(),
                n: run.n,
                n_requested: cell.run.n,
                child: run.child.clone(),
                repetitions: Vec::new(),
            })),
            Err(err) => {
                ctx.failures
                    .push(format!("{name} {} {:?}: {err:#}", cell.runner, cell.params));
                measurements.push(None);
            }
        }
    }
    for round in 0..plan.reps {
        for (cell, slot) in plan.cells.iter().zip(measurements.iter_mut()) {
            bar.inc(1);
            let Some(measurement) = slot else { continue };
            bar.set_message(format!(
                "{name} {} ({}/{})",
                cell.runner,
                round + 1,
                plan.reps
            ));
            let mut run = cell.run.clone();
            run.n = measurement.n;
            match ctx.peers.run(&run) {
                Ok(rep) => measurement.repetitions.push(rep),
                Err(err) => {
                    ctx.failures
                        .push(format!("{name} {} {:?}: {err:#}", cell.runner, cell.params));
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
