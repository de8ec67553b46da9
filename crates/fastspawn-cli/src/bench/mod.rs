//! `fastspawn bench`: plan the experiments' cells, size them to the time
//! budget, run them interleaved (see `measure.rs`), and hand the one result
//! record to the exporters. The driver knows experiments only through the
//! [`Experiment`] interface and the list in `experiments/mod.rs`.

pub mod experiment;
pub mod experiments;
pub mod measure;
pub mod peer;
pub mod record;
pub mod setup;
pub mod stats;
pub mod table;

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Result, anyhow};
use indicatif::{ProgressBar, ProgressStyle};

use crate::export;
use experiment::{Experiment, Measuring, Options};
use peer::Peers;
use record::Run;

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
    let chosen: Vec<&dyn Experiment> = if args.experiments.is_empty() {
        experiments::ALL.to_vec()
    } else {
        args.experiments
            .iter()
            .map(|name| {
                experiments::find(name).ok_or_else(|| {
                    anyhow!(
                        "unknown experiment {name:?} (expected one of {})",
                        experiments::names().join(", ")
                    )
                })
            })
            .collect::<Result<_>>()?
    };
    let plans: Vec<_> = chosen
        .iter()
        .map(|exp| (*exp, exp.plan(&args.options, &peers)))
        .collect();

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

    let total: u64 = plans.iter().map(|(_, plan)| plan.steps()).sum();
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
    for (exp, plan) in &plans {
        run.notes
            .extend(plan.notes.iter().map(|n| format!("{}: {n}", exp.name())));
        let mut ctx = Measuring {
            opts: &args.options,
            peers: &peers,
            bar: &bar,
            failures: &mut failures,
        };
        let measured = exp.measure(plan, &mut ctx);
        if !args.json {
            let tables = exp.tables(&measured);
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
        for line in export::headline(&run) {
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
