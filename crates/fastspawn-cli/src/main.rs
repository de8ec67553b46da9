//! `fastspawn`: benchmarks of process spawning on Linux (see `fastspawn bench --help`),
//! and `fastspawn doctor`, a report of how this machine starts processes.

mod bench;
mod doctor;
mod export;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "fastspawn",
    version,
    about = "Start processes on Linux without fork, and measure it"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Reproduce the seed articles' experiments side by side with the peers
    /// (C, Rust std, command-fds, tokio, Go, Python, Node) and write a report.
    Bench {
        #[arg(help = format!("Experiments to run (default: all): {}.", bench::experiments::names().join(", ")))]
        experiments: Vec<String>,
        /// A smoke run: one repetition, tiny counts and sizes (about a minute);
        /// its figures mean nothing. Writes under target/bench-quick/ unless --out.
        #[arg(long)]
        quick: bool,
        /// The seeds' full counts regardless of time (tlpi: 100,000 processes per cell).
        #[arg(long, conflicts_with = "quick")]
        full: bool,
        /// Largest parent RSS of the rss experiment, in GiB.
        #[arg(long, default_value_t = 4)]
        max_rss_gib: u64,
        /// Where to write the report (default: bench/results/<date>-<kernel>/,
        /// with --quick target/bench-quick/<date>-<kernel>/).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Print the whole run as JSON on stdout instead of tables.
        #[arg(long)]
        json: bool,
        /// Where the built peers are (`make peers`).
        #[arg(long, default_value = "target/peers")]
        peers: PathBuf,
        /// Measure nothing: redraw DIR's report.md, SETUP.md and charts from
        /// its raw.json with this build's tables, headlines and notes (after
        /// a change of their layout).
        #[arg(long, value_name = "DIR", conflicts_with_all = ["experiments", "quick", "full", "out", "json"])]
        redraw: Option<PathBuf>,
    },
    /// Report how processes are started on this machine and why they may be
    /// slow: kernel features, seccomp, glibc, cgroups, limits, overcommit,
    /// and which path (fork or vfork) each runtime's spawn takes, observed
    /// with strace. One line of advice per finding.
    Doctor {
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// The process whose size, fds and limits to report (default: this one),
        /// e.g. the server that spawns.
        #[arg(long)]
        pid: Option<u32>,
        /// Runtimes to observe, comma-separated (default: every one found):
        /// fastspawn, rust, python, node, go.
        #[arg(long, value_delimiter = ',')]
        runtimes: Option<Vec<String>>,
    },
    /// One spawn the way Rust std or fastspawn does it, for `doctor` to trace.
    #[command(name = "__probe", hide = true)]
    Probe { case: String },
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Cmd::Doctor {
            json,
            pid,
            runtimes,
        } => doctor::run(doctor::DoctorArgs {
            json,
            pid,
            runtimes,
        }),
        Cmd::Probe { case } => doctor::probe_main(&case),
        Cmd::Bench {
            experiments,
            quick,
            full,
            max_rss_gib,
            out,
            json,
            peers,
            redraw,
        } => {
            if let Some(dir) = redraw {
                return export::redraw(&dir);
            }
            let available = available_rss_gib();
            let max_rss_gib = if max_rss_gib > available {
                eprintln!(
                    "note: --max-rss-gib {max_rss_gib} exceeds what this machine can hold beside the peers; using {available}"
                );
                available
            } else {
                max_rss_gib
            };
            bench::run(bench::BenchArgs {
                experiments,
                options: bench::experiment::Options {
                    quick,
                    full,
                    max_rss_gib,
                },
                out,
                peers,
                json,
            })
        }
    }
}

/// Half of the available memory, in whole GiB: room for one peer's RSS.
fn available_rss_gib() -> u64 {
    let kib: u64 = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("MemAvailable:"))?
                .split_whitespace()
                .nth(1)?
                .parse()
                .ok()
        })
        .unwrap_or(0);
    kib / 1024 / 1024 / 2
}
