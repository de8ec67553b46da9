//! `fastspawn bench`: plan the experiments' cells, size them to the time
//! budget, run them interleaved (see `measure.rs`), and hand the one result
//! record to the exporters. The driver knows experiments only through the
//! [`Experiment`] interface and the list in `experiments/mod.rs`.

pub mod experiment;
pub mod experiments;
pub mod measure;
pub mod peer;
pub mod progress;
pub mod record;
pub mod setup;
pub mod stats;
pub mod table;

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Result, anyhow};

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
    let out_dir = args
        .out
        .clone()
        .unwrap_or_else(|| default_out(args.options.quick, &setup));

    if args.options.quick && !args.json {
        println!("{}", export::terminal::QUICK_BANNER);
    }
    let weights: Vec<f64> = plans
        .iter()
        .flat_map(|(exp, plan)| plan.step_weights(&|cell| exp.expected_s(cell)))
        .collect();
    let bar = progress::bar(weights, args.json);

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
        let failed_before = failures.len();
        let mut ctx = Measuring {
            opts: &args.options,
            peers: &peers,
            bar: &bar,
            failures: &mut failures,
            skipped: None,
        };
        let measured = exp.measure(plan, &mut ctx);
        if measured.is_empty() {
            // No table of dashes: say why instead, on the terminal and in
            // the report.
            let why = ctx
                .skipped
                .take()
                .unwrap_or_else(|| nothing_measured(failures.len() - failed_before));
            let line = format!("{}: nothing measured: {why}", exp.name());
            bar.suspend(|| {
                if args.json {
                    eprintln!("{line}");
                } else {
                    println!("\n{line}");
                }
            });
            run.notes.push(line);
        } else if !args.json {
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
        print!(
            "{}",
            export::terminal::headline(&export::headline(&run), run.quick)
        );
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

/// Where the report goes without `--out`: next to the committed runs, or
/// for a quick run (whose figures mean nothing) under `target/`.
fn default_out(quick: bool, setup: &std::collections::BTreeMap<String, String>) -> PathBuf {
    let kernel = setup.get("kernel").map(String::as_str).unwrap_or_default();
    let kernel = kernel.split_whitespace().next().unwrap_or("linux");
    let base = if quick {
        "target/bench-quick"
    } else {
        "bench/results"
    };
    PathBuf::from(base).join(format!("{}-{kernel}", setup::today()))
}

/// Why an experiment measured nothing when it did not say itself.
fn nothing_measured(failed: usize) -> String {
    if failed > 0 {
        format!("{failed} cell(s) failed (listed at the end)")
    } else {
        "no cell could run on this machine (see the lines above)".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quick_run_writes_under_target() {
        let setup = std::collections::BTreeMap::from([(
            "kernel".to_string(),
            "6.18.44-fc-v657 #1 SMP".to_string(),
        )]);
        let quick = default_out(true, &setup);
        assert!(
            quick.starts_with("target/bench-quick"),
            "{}",
            quick.display()
        );
        assert!(quick.display().to_string().ends_with("-6.18.44-fc-v657"));
        let full = default_out(false, &setup);
        assert!(full.starts_with("bench/results"), "{}", full.display());
        assert_eq!(quick.file_name(), full.file_name());
    }
}
