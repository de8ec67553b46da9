//! Which path each runtime's spawn takes on this machine, observed: the
//! runtime runs a one-line program spawning `true` under
//! `strace -f -e trace=clone,clone3,vfork,fork,execve,rt_sigaction`, and the
//! process creations in the trace say fork or vfork (see `trace.rs`). Each
//! runtime is observed twice: a plain spawn, and one with the uid or
//! pdeathsig-type options that make several runtimes fall back to fork.
//!
//! The Rust std and fastspawn probes are this binary itself, re-run as
//! `fastspawn __probe <case>` (see [`probe_main`]).

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use fastspawn::{Command, Stdio};

use super::trace::{self, Path};
use super::{Finding, Status};

/// The runtimes `--runtimes` accepts, in report order.
pub const RUNTIMES: [&str; 5] = ["fastspawn", "rust", "python", "node", "go"];

/// `fastspawn __probe <case>`: one spawn of `true`, the way a program using
/// Rust std or fastspawn would do it, for the doctor to trace.
pub fn probe_main(case: &str) -> anyhow::Result<()> {
    let uid = rustix::process::getuid().as_raw();
    let gid = rustix::process::getgid().as_raw();
    match case {
        "std-plain" => {
            std::process::Command::new("true").status()?;
        }
        "std-options" => {
            use std::os::unix::process::CommandExt;
            std::process::Command::new("true")
                .uid(uid)
                .gid(gid)
                .status()?;
        }
        "fastspawn-plain" => {
            Command::new("true").status()?;
        }
        "fastspawn-options" => {
            Command::new("true")
                .uid(uid)
                .gid(gid)
                .setsid(true)
                .pdeathsig(fastspawn::signal::SIGTERM)
                .status()?;
        }
        other => anyhow::bail!("fastspawn __probe: unknown case {other:?}"),
    }
    Ok(())
}

/// One runtime to observe: how to run its two cases.
struct Runtime {
    key: &'static str,
    name: String,
    plain: Vec<OsString>,
    options: Vec<OsString>,
    /// What the options are, for people.
    options_label: &'static str,
    /// What to do if it forks.
    fork_advice: &'static str,
    /// A directory the probe lives in, removed after the observation.
    temp: Option<PathBuf>,
}

/// Refuses a `--runtimes` list naming a runtime the doctor does not know.
pub fn validate(only: Option<&[String]>) -> anyhow::Result<()> {
    if let Some(bad) = only
        .unwrap_or_default()
        .iter()
        .find(|r| !RUNTIMES.contains(&r.as_str()))
    {
        anyhow::bail!(
            "fastspawn doctor: unknown runtime {bad:?} in --runtimes (expected some of: {})",
            RUNTIMES.join(", ")
        );
    }
    Ok(())
}

pub fn check(only: Option<&[String]>) -> Vec<Finding> {
    let wanted = |key: &str| only.is_none_or(|o| o.iter().any(|r| r == key));
    let strace = strace_version();
    let mut findings = Vec::new();
    for key in RUNTIMES.iter().copied().filter(|k| wanted(k)) {
        let runtime = match find(key) {
            Ok(r) => r,
            Err(why) => {
                findings.push(
                    Finding::new(format!("runtime.{key}"), key, Status::Info)
                        .summary(format!("not observed: {why}")),
                );
                continue;
            }
        };
        for (case, argv) in [("plain", &runtime.plain), ("options", &runtime.options)] {
            let title = if case == "plain" {
                format!("{}, plain spawn", runtime.name)
            } else {
                format!("{}, with {}", runtime.name, runtime.options_label)
            };
            let id = format!("runtime.{}.{case}", runtime.key);
            let Some(_) = &strace else {
                findings.push(
                    Finding::new(id, title, Status::Unknown)
                        .summary("not observed: strace is missing")
                        .advice("install strace (apt-get install strace) and run fastspawn doctor again"),
                );
                continue;
            };
            findings.push(observe(id, title, argv, runtime.fork_advice));
        }
        if let Some(dir) = &runtime.temp {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    findings
}

fn observe(id: String, title: String, argv: &[OsString], fork_advice: &str) -> Finding {
    let traced = match trace_run(argv) {
        Ok(t) => t,
        Err(why) => {
            return Finding::new(id, title, Status::Unknown)
                .summary(format!("not observed: {why}"))
                .advice("strace must be allowed to trace (ptrace) here: run outside a restricted container");
        }
    };
    let calls: Vec<&str> = traced.creations.iter().map(|c| c.call.as_str()).collect();
    let value = serde_json::json!({
        "path": trace::verdict(&traced.creations),
        "calls": calls,
        "child_rt_sigaction": traced.child_sigactions,
    });
    let resets = traced
        .child_sigactions
        .map(|n| format!("; its child made {n} rt_sigaction calls before exec"))
        .unwrap_or_default();
    match trace::verdict(&traced.creations) {
        Some(Path::Vfork) => Finding::new(id, title, Status::Ok)
            .summary(format!("vfork path: {}{resets}", calls.join(", ")))
            .advice("nothing to do: the cost does not grow with the process's memory")
            .value(value),
        Some(Path::Fork) => Finding::new(id, title, Status::Warn)
            .summary(format!("FORK path: {}{resets}", calls.join(", ")))
            .advice(fork_advice.to_owned())
            .value(value),
        None => Finding::new(id, title, Status::Unknown)
            .summary("no process creation in the trace")
            .advice("")
            .value(value),
    }
}

struct Traced {
    creations: Vec<trace::Creation>,
    /// rt_sigaction calls the child that exec'd `true` made before its exec.
    child_sigactions: Option<usize>,
}

static TRACE_SEQ: AtomicU32 = AtomicU32::new(0);

fn trace_run(argv: &[OsString]) -> Result<Traced, String> {
    let file = std::env::temp_dir().join(format!(
        "fastspawn-doctor-{}-{}.strace",
        std::process::id(),
        TRACE_SEQ.fetch_add(1, Ordering::Relaxed)
    ));
    let out = Command::new("strace")
        .args([
            "-f",
            "-qq",
            "-e",
            "trace=clone,clone3,vfork,fork,execve,rt_sigaction",
            "-o",
        ])
        .arg(&file)
        .arg("--")
        .args(argv)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| e.to_string())?;
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    let _ = std::fs::remove_file(&file);
    if text.is_empty() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "strace wrote no trace ({})",
            stderr.lines().next().unwrap_or("no message")
        ));
    }
    Ok(Traced {
        creations: trace::creations(&text),
        child_sigactions: trace::calls_before_exec(&text, "rt_sigaction", "true"),
    })
}

fn strace_version() -> Option<String> {
    let out = Command::new("strace").arg("-V").output().ok()?;
    out.status.success().then(|| {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .to_owned()
    })
}

/// The first line of a command's stdout, if it ran and succeeded.
fn first_line(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program)
        .args(args)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()?
            .trim()
            .to_owned(),
    )
}

fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

fn find(key: &str) -> Result<Runtime, String> {
    match key {
        "fastspawn" | "rust" => {
            let me =
                std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
            let probe =
                |case: &str| vec![me.clone().into_os_string(), "__probe".into(), case.into()];
            Ok(if key == "fastspawn" {
                Runtime {
                    key: "fastspawn",
                    name: format!("fastspawn {}", env!("CARGO_PKG_VERSION")),
                    plain: probe("fastspawn-plain"),
                    options: probe("fastspawn-options"),
                    options_label: "uid, gid, setsid, pdeathsig",
                    fork_advice: "fastspawn fell back to fork: see the kernel section (clone refused?)",
                    temp: None,
                }
            } else {
                Runtime {
                    key: "rust",
                    name: "Rust std (as built into this binary)".into(),
                    plain: probe("std-plain"),
                    options: probe("std-options"),
                    options_label: "uid, gid",
                    fork_advice: "std forks with uid/gid/groups/pre_exec (so command-fds too): fastspawn::Command has the same API and stays on the vfork path",
                    temp: None,
                }
            })
        }
        "python" => {
            let info = first_line(
                "python3",
                &["-c", "import sys; print(sys.version_info[0], sys.version_info[1], sys.version_info[2], sys.executable)"],
            )
            .ok_or("python3 is not in PATH")?;
            let mut parts = info.splitn(4, ' ');
            let version: Vec<&str> = parts.by_ref().take(3).collect();
            let exe = PathBuf::from(parts.next().ok_or("python3 did not say where it is")?);
            let minor: u32 = version.get(1).and_then(|m| m.parse().ok()).unwrap_or(0);
            if minor < 9 {
                return Err(format!(
                    "Python {} is older than 3.9 (no user= in subprocess)",
                    version.join(".")
                ));
            }
            let run = |code: &str| {
                let mut v = vec![exe.clone().into_os_string()];
                v.extend(os(&["-c", code]));
                v
            };
            Ok(Runtime {
                key: "python",
                name: format!("Python {} subprocess", version.join(".")),
                plain: run("import subprocess; subprocess.run(['true'])"),
                options: run("import os, subprocess; subprocess.run(['true'], user=os.getuid())"),
                options_label: "user=",
                fork_advice: "CPython forks for preexec_fn, user, group and extra_groups: keep them off hot paths in big processes (fastspawn's Python package is planned)",
                temp: None,
            })
        }
        "node" => {
            let exe =
                first_line("node", &["-p", "process.execPath"]).ok_or("node is not in PATH")?;
            let version = first_line(&exe, &["-p", "process.version"]).unwrap_or_default();
            let run = |options: &str| {
                vec![
                    OsString::from(&exe),
                    "-e".into(),
                    format!("require('child_process').spawn('true', [], {options}).on('exit', () => {{}})").into(),
                ]
            };
            Ok(Runtime {
                key: "node",
                name: format!("Node {version} child_process.spawn"),
                plain: run("{}"),
                options: run("{ uid: process.getuid(), gid: process.getgid() }"),
                options_label: "uid, gid",
                fork_advice: "libuv forks on the event-loop thread: the fastspawn npm package spawns on the vfork path, off the loop",
                temp: None,
            })
        }
        "go" => {
            let version = first_line("go", &["version"]).ok_or("go is not in PATH")?;
            let exe = build_go_probe()?;
            let temp = exe.parent().map(PathBuf::from);
            let exe = exe.into_os_string();
            Ok(Runtime {
                key: "go",
                name: version.split_whitespace().nth(2).map_or("Go".into(), |v| {
                    format!("Go {} os/exec", v.trim_start_matches("go"))
                }),
                plain: vec![exe.clone()],
                options: vec![exe, "options".into()],
                options_label: "Credential (uid, gid), Pdeathsig",
                fork_advice: "Go forked: unexpected (os/exec uses CLONE_VFORK): report it",
                temp,
            })
        }
        other => Err(format!("unknown runtime {other}")),
    }
}

const GO_PROBE: &str = r#"package main

import (
	"os"
	"os/exec"
	"syscall"
)

func main() {
	cmd := exec.Command("true")
	if len(os.Args) > 1 {
		cmd.SysProcAttr = &syscall.SysProcAttr{
			Pdeathsig:  syscall.SIGTERM,
			Credential: &syscall.Credential{Uid: uint32(os.Getuid()), Gid: uint32(os.Getgid()), NoSetGroups: true},
		}
	}
	_ = cmd.Run()
}
"#;

/// Builds the Go probe into a temporary directory (Go's build cache makes
/// later runs quick).
fn build_go_probe() -> Result<PathBuf, String> {
    let dir = std::env::temp_dir().join(format!("fastspawn-doctor-go-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    std::fs::write(dir.join("main.go"), GO_PROBE).map_err(|e| e.to_string())?;
    let exe = dir.join("probe");
    eprintln!("fastspawn doctor: building the Go probe (go build)...");
    let out = Command::new("go")
        .args(["build", "-o"])
        .arg(&exe)
        .arg("main.go")
        .current_dir(&dir)
        .env("GO111MODULE", "off")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "go build of the probe failed: {}",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .next()
                .unwrap_or("")
        ));
    }
    Ok(exe)
}
