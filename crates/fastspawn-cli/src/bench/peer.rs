//! Running one peer process for one repetition of one cell.
//!
//! Peers live in `target/peers` (built by `make peers`); each runner name
//! says which peer program runs it. The driver spawns peers with fastspawn
//! itself.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::Duration;

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

/// How long one peer run may take. Runs are sized to seconds (the cells'
/// budgets); one that goes on this long has hung, and is killed so that
/// the rest of the benchmark still runs (its cell reports the failure).
const PEER_TIME_LIMIT: Duration = Duration::from_secs(600);

fn run_peer(program: &Path, run: &PeerRun) -> Result<Repetition> {
    run_peer_within(program, run, PEER_TIME_LIMIT)
}

fn run_peer_within(program: &Path, run: &PeerRun, limit: Duration) -> Result<Repetition> {
    let mut cmd = fastspawn::Command::new(program);
    cmd.args(run.args());
    if let Some(env) = &run.env {
        cmd.env_clear().envs(env.iter().map(|(k, v)| (k, v)));
    }
    let what = || format!("{} {}", program.display(), run.args().join(" "));
    let mut child = cmd
        .stdin(fastspawn::Stdio::null())
        .stdout(fastspawn::Stdio::piped())
        .stderr(fastspawn::Stdio::piped())
        .spawn()
        .with_context(|| format!("running {} for {}", program.display(), run.runner))?;
    let stdout = read_on_a_thread(child.stdout.take());
    let stderr = read_on_a_thread(child.stderr.take());
    let finished = exits_within(&child, limit);
    if !finished {
        let _ = child.kill();
    }
    let status = child
        .wait()
        .with_context(|| format!("waiting for {}", what()))?;
    let out = stdout.join().unwrap_or_default();
    let err = stderr.join().unwrap_or_default();
    if !finished {
        bail!(
            "{} did not finish within {limit:?} and was killed (hung?): {}",
            what(),
            String::from_utf8_lossy(&err).trim()
        );
    }
    if !status.success() {
        bail!(
            "{} failed ({}): {}",
            what(),
            status,
            String::from_utf8_lossy(&err).trim()
        );
    }
    let text = String::from_utf8_lossy(&out);
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

/// Reads `pipe` to its end on a thread of its own.
fn read_on_a_thread<R: Read + Send + 'static>(pipe: Option<R>) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}

/// Whether `child` exits within `limit` (its pidfd polled: no busy loop).
/// Without a pidfd (a kernel before 5.3), it waits without a limit.
fn exits_within(child: &fastspawn::Child, limit: Duration) -> bool {
    let Some(fd) = child.pidfd() else {
        return true;
    };
    let deadline = std::time::Instant::now() + limit;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return false;
        }
        let mut fds = [rustix::event::PollFd::new(
            &fd,
            rustix::event::PollFlags::IN,
        )];
        let timeout = rustix::event::Timespec {
            tv_sec: left.as_secs() as i64,
            tv_nsec: i64::from(left.subsec_nanos()),
        };
        match rustix::event::poll(&mut fds, Some(&timeout)) {
            Ok(0) | Err(rustix::io::Errno::INTR) => continue,
            // Readable, or an error polling it: wait() says what happened.
            _ => return true,
        }
    }
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

    /// A peer written as a shell script (it ignores the protocol's
    /// arguments) in a directory of its own.
    fn script_peer(tag: &str, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("fastspawn-peer-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("peer");
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    #[test]
    fn a_peer_that_hangs_is_killed_at_the_limit_and_named() {
        // It also holds its stdout open in a grandchild-free way: the
        // shell itself sleeps, so the kill ends the pipes too.
        let peer = script_peer("hang", "echo starting >&2; exec sleep 60");
        let run = PeerRun::new("c-clone", "wait", 5, vec!["/x".into()]);
        let t0 = std::time::Instant::now();
        let err = run_peer_within(&peer, &run, Duration::from_millis(300)).unwrap_err();
        let waited = t0.elapsed();
        std::fs::remove_dir_all(peer.parent().unwrap()).unwrap();
        let msg = format!("{err:#}");
        assert!(
            msg.contains("did not finish within 300ms and was killed"),
            "{msg}"
        );
        assert!(msg.contains("--runner c-clone"), "{msg}");
        assert!(
            msg.contains("starting"),
            "its stderr is in the error: {msg}"
        );
        assert!(
            waited < Duration::from_secs(30),
            "returned after {waited:?}"
        );
    }

    #[test]
    fn a_peer_within_the_limit_is_read_as_before() {
        let line = r#"{"runner":"c-clone","mode":"wait","n":5,"total_ns":1000,"cpu_user_ns":1,"cpu_sys_ns":2}"#;
        let peer = script_peer("ok", &format!("echo 'some progress'; echo '{line}'"));
        let run = PeerRun::new("c-clone", "wait", 5, vec!["/x".into()]);
        let rep = run_peer_within(&peer, &run, Duration::from_secs(60));
        let failing = script_peer("fail", "echo 'no such child' >&2; exit 1");
        let failed = run_peer_within(&failing, &run, Duration::from_secs(60));
        std::fs::remove_dir_all(peer.parent().unwrap()).unwrap();
        std::fs::remove_dir_all(failing.parent().unwrap()).unwrap();
        assert_eq!(rep.unwrap().total_ns, 1000);
        let msg = format!("{:#}", failed.unwrap_err());
        assert!(
            msg.contains("failed (exit status: 1): no such child"),
            "{msg}"
        );
    }
}
