//! Running one peer process for one repetition of one cell.
//!
//! Peers live in `target/peers` (built by `make peers`); each runner name
//! says which peer program runs it. The driver spawns peers with fastspawn
//! itself.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Deserialize;

use super::record::Repetition;

/// Everything one peer invocation needs.
#[derive(Debug, Clone, PartialEq)]
pub struct PeerRun {
    pub runner: String,
    pub mode: &'static str,
    pub n: u64,
    pub warmup: u64,
    pub rss_mib: u64,
    pub set_env: bool,
    pub extra_fds: u32,
    pub samples: bool,
    pub async_mode: Option<String>,
    pub with_options: bool,
    pub measure_stall: bool,
    pub pool_threads: Option<usize>,
    /// fastspawn runners: `--no-pidfd`.
    pub no_pidfd: bool,
    pub child: Vec<String>,
    /// The peer's whole environment, when the experiment controls it.
    pub env: Option<Vec<(String, String)>>,
}

impl PeerRun {
    pub fn new(runner: &str, mode: &'static str, n: u64, child: Vec<String>) -> PeerRun {
        PeerRun {
            runner: runner.to_string(),
            mode,
            n,
            warmup: 10,
            rss_mib: 0,
            set_env: false,
            extra_fds: 0,
            samples: false,
            async_mode: None,
            with_options: false,
            measure_stall: false,
            pool_threads: None,
            no_pidfd: false,
            child,
            env: None,
        }
    }

    /// The peer's command line after the program.
    pub fn args(&self) -> Vec<String> {
        let mut args = vec![
            "--runner".into(),
            self.runner.clone(),
            "--mode".into(),
            self.mode.into(),
            "--n".into(),
            self.n.to_string(),
            "--warmup".into(),
            self.warmup.to_string(),
        ];
        if self.rss_mib > 0 {
            args.extend(["--rss-mib".into(), self.rss_mib.to_string()]);
        }
        if self.set_env {
            args.push("--set-env".into());
        }
        if self.extra_fds > 0 {
            args.extend(["--extra-fds".into(), self.extra_fds.to_string()]);
        }
        if self.samples {
            args.push("--samples".into());
        }
        if let Some(mode) = &self.async_mode {
            args.extend(["--async-mode".into(), mode.clone()]);
        }
        if self.with_options {
            args.push("--with-options".into());
        }
        if self.measure_stall {
            args.push("--measure-stall".into());
        }
        if let Some(threads) = self.pool_threads {
            args.extend(["--pool-threads".into(), threads.to_string()]);
        }
        if self.no_pidfd {
            args.push("--no-pidfd".into());
        }
        args.push("--".into());
        args.extend(self.child.iter().cloned());
        args
    }
}

/// The peer program that provides a runner.
pub fn program_for(runner: &str) -> Result<&'static str> {
    Ok(match runner.split('-').next().unwrap_or("") {
        "c" => "c-peer",
        "rust" | "fastspawn" => "rust-peer",
        "go" => "go-peer",
        "python" => "python-peer",
        "node" => "node-peer",
        _ => bail!("no peer runs {runner:?}"),
    })
}

#[derive(Deserialize)]
struct Line {
    runner: String,
    n: u64,
    /// Everything else the peer reports is kept as it is.
    #[serde(flatten)]
    rep: Repetition,
}

/// The built peers.
#[derive(Debug, Clone)]
pub struct Peers {
    pub dir: PathBuf,
}

impl Peers {
    pub fn new(dir: PathBuf) -> Result<Peers> {
        // Absolute, so a runner that changes its cwd still finds the child.
        let dir = dir.canonicalize().with_context(|| {
            format!(
                "peers directory {} is missing: build the peers with `make peers`",
                dir.display()
            )
        })?;
        for peer in [
            "noop",
            "c-peer",
            "rust-peer",
            "go-peer",
            "python-peer",
            "node-peer",
        ] {
            if !dir.join(peer).exists() {
                bail!(
                    "peer {peer:?} is missing from {}: build the peers with `make peers`",
                    dir.display()
                );
            }
        }
        Ok(Peers { dir })
    }

    /// The static do-nothing child.
    pub fn noop(&self) -> String {
        self.dir.join("noop").display().to_string()
    }

    pub fn path(&self, program: &str) -> PathBuf {
        self.dir.join(program)
    }

    /// Runs one repetition and parses the peer's report.
    pub fn run(&self, run: &PeerRun) -> Result<Repetition> {
        let program = self.path(program_for(&run.runner)?);
        run_peer(&program, run)
    }
}

fn run_peer(program: &Path, run: &PeerRun) -> Result<Repetition> {
    let mut cmd = fastspawn::Command::new(program);
    cmd.args(run.args());
    if let Some(env) = &run.env {
        cmd.env_clear().envs(env.iter().map(|(k, v)| (k, v)));
    }
    let out = cmd
        .stdin(fastspawn::Stdio::null())
        .output()
        .with_context(|| format!("running {} for {}", program.display(), run.runner))?;
    if !out.status.success() {
        bail!(
            "{} {} failed ({}): {}",
            program.display(),
            run.args().join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let line: Line = serde_json::from_str(last)
        .with_context(|| format!("{} printed no report line: {text:?}", run.runner))?;
    if line.runner != run.runner || line.n != run.n {
        bail!(
            "{} reported runner {} with n {} (asked for {})",
            run.runner,
            line.runner,
            line.n,
            run.n
        );
    }
    Ok(line.rep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runner_names_pick_their_peer() {
        assert_eq!(program_for("c-clone").unwrap(), "c-peer");
        assert_eq!(program_for("fastspawn-auto").unwrap(), "rust-peer");
        assert_eq!(program_for("rust-command-fds").unwrap(), "rust-peer");
        assert_eq!(program_for("node-spawn").unwrap(), "node-peer");
        assert!(program_for("perl-fork").is_err());
    }

    #[test]
    fn arguments_follow_the_protocol() {
        let mut run = PeerRun::new("rust-std", "spawn", 50, vec!["/x".into(), "0".into()]);
        run.set_env = true;
        run.extra_fds = 2;
        run.async_mode = Some("multi-2".into());
        assert_eq!(
            run.args().join(" "),
            "--runner rust-std --mode spawn --n 50 --warmup 10 --set-env --extra-fds 2 \
             --async-mode multi-2 -- /x 0"
        );
    }
}
