//! `fastspawn doctor`: how processes are started on this machine, and why
//! they may be slow or fail.
//!
//! Each check is a [`Finding`] with a status and one line of advice:
//! - `kernel.rs`: the features fastspawn's engines use, probed with real
//!   spawns through the library (and `fastspawn::features()`), and whether a
//!   seccomp filter refuses any;
//! - `system.rs`: the C library's posix_spawn, cgroup v2, pid and fd
//!   headroom, overcommit, and the size of the process that would spawn;
//! - `runtimes.rs`: for each runtime found (Rust std, Python, Node, Go, and
//!   fastspawn itself), whether a plain spawn and one with uid/pdeathsig-type
//!   options take the fork or the vfork path, as observed with `strace`.
//!
//! Nothing here is assumed from a version number when it can be observed;
//! where a version is all there is (glibc's optional functions), the finding
//! says so.

mod kernel;
mod procfs;
mod runtimes;
mod system;
mod trace;

use std::io::Write;

use serde::Serialize;

pub use runtimes::probe_main;

/// What `fastspawn doctor` was asked.
pub struct DoctorArgs {
    /// Print JSON instead of the report.
    pub json: bool,
    /// The process whose size and fds are reported (default: the doctor itself).
    pub pid: Option<u32>,
    /// Runtimes to observe (default: every one found).
    pub runtimes: Option<Vec<String>>,
}

/// How a finding reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Nothing to do.
    Ok,
    /// Works, but costs something or will fail under some load.
    Warn,
    /// Broken or refused.
    Bad,
    /// A fact, no judgement.
    Info,
    /// Could not be found out (the summary says why).
    Unknown,
}

impl Status {
    fn label(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Warn => "warn",
            Status::Bad => "bad",
            Status::Info => "info",
            Status::Unknown => "?",
        }
    }
}

/// One line of the report.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    /// A stable key for machines: `kernel.clone3`, `runtime.python.options`...
    pub id: String,
    /// What was checked, for people.
    pub title: String,
    pub status: Status,
    /// What was found.
    pub summary: String,
    /// One line: what to do about it.
    pub advice: String,
    /// The measured value, for machines (a number, a version, a path...).
    #[serde(skip_serializing_if = "serde_json::Value::is_null")]
    pub value: serde_json::Value,
}

impl Finding {
    pub fn new(id: impl Into<String>, title: impl Into<String>, status: Status) -> Finding {
        Finding {
            id: id.into(),
            title: title.into(),
            status,
            summary: String::new(),
            advice: String::new(),
            value: serde_json::Value::Null,
        }
    }

    pub fn summary(mut self, summary: impl Into<String>) -> Finding {
        self.summary = summary.into();
        self
    }

    pub fn advice(mut self, advice: impl Into<String>) -> Finding {
        self.advice = advice.into();
        self
    }

    pub fn value(mut self, value: impl Serialize) -> Finding {
        self.value = serde_json::to_value(value).unwrap_or(serde_json::Value::Null);
        self
    }
}

/// A titled group of findings.
#[derive(Debug, Serialize)]
pub struct Section {
    pub name: &'static str,
    pub findings: Vec<Finding>,
}

/// The whole report (`--json` prints it as is).
#[derive(Debug, Serialize)]
pub struct Report {
    pub fastspawn_version: &'static str,
    pub kernel: String,
    pub arch: &'static str,
    pub sections: Vec<Section>,
}

pub fn run(args: DoctorArgs) -> anyhow::Result<()> {
    let report = report(&args)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        print(&mut out, &report)?;
    }
    Ok(())
}

fn report(args: &DoctorArgs) -> anyhow::Result<Report> {
    runtimes::validate(args.runtimes.as_deref())?;
    let pid = args.pid.unwrap_or_else(std::process::id);
    if !std::path::Path::new(&format!("/proc/{pid}")).exists() {
        anyhow::bail!("fastspawn doctor: --pid {pid}: no such process (/proc/{pid} is missing)");
    }
    let kernel = kernel::check();
    let mut sections = vec![Section {
        name: "kernel",
        findings: kernel,
    }];
    sections.extend(system::check(pid));
    sections.push(Section {
        name: "runtimes (observed: which path a spawn takes)",
        findings: runtimes::check(args.runtimes.as_deref()),
    });
    Ok(Report {
        fastspawn_version: env!("CARGO_PKG_VERSION"),
        kernel: procfs::read("/proc/sys/kernel/osrelease").unwrap_or_else(|| "unknown".into()),
        arch: std::env::consts::ARCH,
        sections,
    })
}

fn print(out: &mut impl Write, report: &Report) -> std::io::Result<()> {
    writeln!(
        out,
        "fastspawn doctor {}: how this machine starts processes (Linux {}, {})",
        report.fastspawn_version, report.kernel, report.arch
    )?;
    for section in &report.sections {
        writeln!(out, "\n{}", section.name)?;
        for f in &section.findings {
            writeln!(
                out,
                "  [{:>4}] {}: {}",
                f.status.label(),
                f.title,
                f.summary
            )?;
            if !f.advice.is_empty() {
                writeln!(out, "         -> {}", f.advice)?;
            }
        }
    }
    let count = |s: Status| {
        report
            .sections
            .iter()
            .flat_map(|sec| &sec.findings)
            .filter(|f| f.status == s)
            .count()
    };
    writeln!(
        out,
        "\n{} ok, {} warnings, {} bad, {} unknown (`fastspawn doctor --json` for machines)",
        count(Status::Ok),
        count(Status::Warn),
        count(Status::Bad),
        count(Status::Unknown)
    )
}
