//! How a cell of peer runs is measured (what most experiments use):
//! - A pilot run (a few spawns) estimates the cost of one spawn; the count
//!   of the real runs is then the experiment's count, or less if that would
//!   take longer than the cell's budget. The report says when it is less.
//! - Repetitions are interleaved: every cell of an experiment runs once per
//!   round, so a slow minute of the machine hits every runner alike. The
//!   two sides of a headline comparison may run more rounds than the rest
//!   (`Extra::reps`, interleaved with each other) and the same count
//!   (`Extra::same_n`). Odd rounds run the cells in the reverse order
//!   (`Plan::round_order`), so no cell always follows the same neighbour.
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
    same_n(plan, &mut measurements);
    for round in 0..plan.rounds() {
        for i in plan.round_order(round) {
            let (cell, slot) = (&plan.cells[i], &mut measurements[i]);
            bar.inc(1);
            let Some(measurement) = slot else { continue };
            bar.set_message(format!(
                "{name} {} ({}/{})",
                cell.runner,
                round + 1,
                plan.reps + cell.extra.reps
            ));
            let mut run = cell.run.clone();
            run.n = measurement.n;
            let result = ctx.peers.run(&run);
            settle(&run);
            match result {
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

/// A run that left its children to be reaped after its clock stopped
/// (`spawn` mode) leaves the kernel freeing them for a few ms after the
/// peer exits: a run of 20,000 left 3,300 `task_struct`s allocated at its
/// exit, back to the idle 130 20 ms later (`/proc/slabinfo`). The next cell
/// would pay for that, so it starts after a pause.
fn settle(run: &PeerRun) {
    const SETTLE: std::time::Duration = std::time::Duration::from_millis(50);
    if run.mode == "spawn" && run.n >= 1000 {
        std::thread::sleep(SETTLE);
    }
}

/// Cells that share an `extra.same_n` key all run the smallest count any
/// of them was sized to.
fn same_n(plan: &Plan, measurements: &mut [Option<Measurement>]) {
    let mut smallest: std::collections::HashMap<&str, u64> = Default::default();
    for (cell, m) in plan.cells.iter().zip(measurements.iter()) {
        if let (Some(key), Some(m)) = (&cell.extra.same_n, m) {
            let n = smallest.entry(key).or_insert(m.n);
            *n = (*n).min(m.n);
        }
    }
    for (cell, m) in plan.cells.iter().zip(measurements.iter_mut()) {
        if let (Some(key), Some(m)) = (&cell.extra.same_n, m) {
            m.n = smallest[key.as_str()];
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::experiment::Extra;

    fn cell(runner: &str, reps: usize, same_n: Option<&str>) -> Cell {
        Cell {
            runner: runner.into(),
            params: Default::default(),
            run: PeerRun::new(runner, "spawn", 1000, vec!["noop".into()]),
            budget_s: 1.0,
            extra: Extra {
                reps,
                same_n: same_n.map(str::to_string),
            },
        }
    }

    fn sized(cell: &Cell, n: u64) -> Option<Measurement> {
        Some(Measurement {
            experiment: "count".into(),
            runner: cell.runner.clone(),
            params: Default::default(),
            mode: "spawn".into(),
            n,
            n_requested: 1000,
            child: Vec::new(),
            repetitions: Vec::new(),
        })
    }

    #[test]
    fn headline_cells_run_extra_rounds_and_the_same_count() {
        let plan = Plan {
            reps: 5,
            cells: vec![
                cell("c-clone", 3, Some("n")),
                cell("rust-std", 0, None),
                cell("fastspawn-auto", 3, Some("n")),
            ],
            notes: Vec::new(),
        };
        assert_eq!(plan.rounds(), 8);
        assert_eq!(plan.round_steps(), 8 + 5 + 8);
        assert!(plan.runs_in(&plan.cells[1], 4));
        assert!(!plan.runs_in(&plan.cells[1], 5));
        assert!(plan.runs_in(&plan.cells[2], 7));
        assert!(!plan.runs_in(&plan.cells[2], 8));
        let mut ms: Vec<Option<Measurement>> = plan
            .cells
            .iter()
            .zip([700, 400, 900])
            .map(|(c, n)| sized(c, n))
            .collect();
        same_n(&plan, &mut ms);
        let ns: Vec<u64> = ms.iter().map(|m| m.as_ref().unwrap().n).collect();
        assert_eq!(ns, [700, 400, 700]);
    }

    #[test]
    fn odd_rounds_run_the_cells_in_reverse() {
        let plan = Plan {
            reps: 2,
            cells: vec![
                cell("c-clone", 2, None),
                cell("rust-std", 0, None),
                cell("fastspawn-auto", 2, None),
            ],
            notes: Vec::new(),
        };
        let order = |round| plan.round_order(round).collect::<Vec<_>>();
        assert_eq!(order(0), [0, 1, 2]);
        assert_eq!(order(1), [2, 1, 0]);
        assert_eq!(order(2), [0, 2]);
        assert_eq!(order(3), [2, 0]);
        assert_eq!(order(4), Vec::<usize>::new());
        let steps: usize = (0..plan.rounds()).map(|r| order(r).len()).sum();
        assert_eq!(steps, plan.round_steps());
    }
}
