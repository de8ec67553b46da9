//! The kernel features fastspawn's engines use, each checked by doing what
//! the engine does: a real spawn through the library with the engine forced,
//! so that a refusal (an old kernel, a seccomp filter) shows with its errno.
//! What the library probed by itself comes from `fastspawn::features()`.

use std::fs::File;
use std::time::Duration;

use fastspawn::{Command, Engine, Stdio};

use super::procfs;
use super::{Finding, Status};

/// A refusal seen while checking, for the seccomp finding.
struct Refusal {
    what: &'static str,
    errno: i32,
}

pub fn check() -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut refusals = Vec::new();
    let release = procfs::read("/proc/sys/kernel/osrelease").unwrap_or_default();
    findings.push(
        Finding::new("kernel.version", "kernel", Status::Info)
            .summary(format!("Linux {release}"))
            .value(&release),
    );
    findings.push(clone3(&mut refusals));
    findings.push(clone_pidfd(&mut refusals));
    findings.extend(pidfd_wait_and_poll());
    findings.push(close_range());
    findings.push(clone_into_cgroup(&mut refusals));
    findings.push(seccomp(&refusals));
    findings
}

fn true_cmd(engine: Engine) -> Command {
    let mut cmd = Command::new("true");
    cmd.engine(engine).stdin(Stdio::null());
    cmd
}

fn errno_name(errno: i32) -> String {
    std::io::Error::from_raw_os_error(errno).to_string()
}

/// clone3 with CLONE_VM|CLONE_VFORK|CLONE_CLEAR_SIGHAND: fastspawn's default.
fn clone3(refusals: &mut Vec<Refusal>) -> Finding {
    let title = "clone3 + CLONE_CLEAR_SIGHAND (Linux 5.5)";
    if !cfg!(target_arch = "x86_64") {
        return Finding::new("kernel.clone3", title, Status::Info)
            .summary(format!(
                "not used on {}: fastspawn's clone3 engine is x86_64-only today",
                std::env::consts::ARCH
            ))
            .advice("fastspawn uses clone(CLONE_VM|CLONE_VFORK) on aarch64, posix_spawn elsewhere")
            .value(false);
    }
    if !fastspawn::features().clone3 {
        refusals.push(Refusal {
            what: "clone3",
            errno: libc::ENOSYS,
        });
        return Finding::new("kernel.clone3", title, Status::Warn)
            .summary("clone3 does not exist here (ENOSYS): Linux < 5.3, or a seccomp filter")
            .advice("fastspawn uses clone(CLONE_VM|CLONE_VFORK) and resets signal handlers in the child instead: still the vfork path, one rt_sigaction per caught signal more")
            .value(false);
    }
    match true_cmd(Engine::Clone3).status() {
        Ok(_) => Finding::new("kernel.clone3", title, Status::Ok)
            .summary("works: a child created with it ran")
            .advice("nothing to do: fastspawn's default engine (the kernel resets the child's signal handlers for free)")
            .value(true),
        Err(e) => {
            let errno = e.raw_os_error().unwrap_or(0);
            refusals.push(Refusal {
                what: "clone3",
                errno,
            });
            let why = if errno == libc::EINVAL {
                "the kernel knows clone3 but not CLONE_CLEAR_SIGHAND (Linux 5.3 or 5.4)"
            } else {
                "refused"
            };
            Finding::new("kernel.clone3", title, Status::Warn)
                .summary(format!("{why}: {e}"))
                .advice("fastspawn falls back to clone(CLONE_VM|CLONE_VFORK): still no fork; a newer kernel (or a seccomp profile allowing clone3) saves the per-signal resets")
                .value(false)
        }
    }
}

/// CLONE_PIDFD: the child's pidfd straight from clone3.
fn clone_pidfd(refusals: &mut Vec<Refusal>) -> Finding {
    let title = "CLONE_PIDFD (Linux 5.2)";
    if !fastspawn::features().clone3 {
        return Finding::new("kernel.clone_pidfd", title, Status::Unknown)
            .summary("not checked: no clone3 here")
            .advice(
                "children get a pidfd from pidfd_open after the clone, when the kernel has it",
            );
    }
    match true_cmd(Engine::Clone3).spawn() {
        Ok(mut child) => {
            let has = child.pidfd().is_some();
            let _ = child.wait();
            if has {
                Finding::new("kernel.clone_pidfd", title, Status::Ok)
                    .summary("works: the child's pidfd came with the clone")
                    .advice("nothing to do: signals go through the pidfd, never to a recycled pid")
                    .value(true)
            } else {
                Finding::new("kernel.clone_pidfd", title, Status::Warn)
                    .summary("clone3 gave no pidfd")
                    .advice("children are signalled and waited for by pid")
                    .value(false)
            }
        }
        Err(e) => {
            refusals.push(Refusal {
                what: "clone3 with CLONE_PIDFD",
                errno: e.raw_os_error().unwrap_or(0),
            });
            Finding::new("kernel.clone_pidfd", title, Status::Warn)
                .summary(format!("refused: {e}"))
                .advice("fastspawn falls back to clone + pidfd_open")
                .value(false)
        }
    }
}

/// pidfd_open + waitid(P_PIDFD), and poll() on a pidfd (readable at exit).
fn pidfd_wait_and_poll() -> Vec<Finding> {
    let waitable = fastspawn::features().pidfd;
    let wait = if waitable {
        Finding::new(
            "kernel.pidfd_wait",
            "pidfd_open + waitid(P_PIDFD) (Linux 5.4)",
            Status::Ok,
        )
        .summary("available")
        .advice(
            "nothing to do: children are reaped through their pidfds, no SIGCHLD handler is needed",
        )
        .value(true)
    } else {
        Finding::new("kernel.pidfd_wait", "pidfd_open + waitid(P_PIDFD) (Linux 5.4)", Status::Warn)
            .summary("not available (old kernel or a filter)")
            .advice("children are waited for by pid (fastspawn::tokio waits on a blocking thread instead of the reactor)")
            .value(false)
    };
    let title = "pidfd polling (Linux 5.3)";
    let poll = match Command::new("true").stdin(Stdio::null()).spawn() {
        Ok(mut child) => {
            let readable = child.pidfd().map(|fd| {
                let mut fds = [rustix::event::PollFd::new(
                    &fd,
                    rustix::event::PollFlags::IN,
                )];
                let timeout = rustix::event::Timespec {
                    tv_sec: Duration::from_secs(5).as_secs() as i64,
                    tv_nsec: 0,
                };
                matches!(rustix::event::poll(&mut fds, Some(&timeout)), Ok(1))
                    && fds[0].revents().contains(rustix::event::PollFlags::IN)
            });
            let _ = child.wait();
            match readable {
                Some(true) => Finding::new("kernel.pidfd_poll", title, Status::Ok)
                    .summary("a child's pidfd became readable when it exited")
                    .advice(
                        "nothing to do: an event loop (epoll, tokio's reactor) is woken by exits",
                    )
                    .value(true),
                Some(false) => Finding::new("kernel.pidfd_poll", title, Status::Bad)
                    .summary("a child's pidfd did not become readable within 5 s of its exit")
                    .advice("exits would not wake an event loop: report this kernel")
                    .value(false),
                None => Finding::new("kernel.pidfd_poll", title, Status::Warn)
                    .summary("children get no pidfd here")
                    .advice("exits are noticed by waiting on a thread, not by the event loop")
                    .value(false),
            }
        }
        Err(e) => Finding::new("kernel.pidfd_poll", title, Status::Bad)
            .summary(format!("could not spawn `true` to check: {e}"))
            .advice("fix the spawn error first"),
    };
    vec![wait, poll]
}

fn close_range() -> Finding {
    let title = "close_range (Linux 5.9)";
    if fastspawn::features().close_range {
        Finding::new("kernel.close_range", title, Status::Ok)
            .summary("available")
            .advice("nothing to do: a child closes every inherited fd in a few calls, however many the parent holds")
            .value(true)
    } else {
        Finding::new("kernel.close_range", title, Status::Warn)
            .summary("not available")
            .advice("the child closes fds one by one: a parent with many fds pays per spawn (raise nothing; a newer kernel fixes it)")
            .value(false)
    }
}

/// CLONE_INTO_CGROUP: a child placed into this process's own cgroup at clone time.
fn clone_into_cgroup(refusals: &mut Vec<Refusal>) -> Finding {
    let title = "CLONE_INTO_CGROUP (Linux 5.7)";
    let id = "kernel.clone_into_cgroup";
    let Some(dir) = own_cgroup_dir() else {
        return Finding::new(id, title, Status::Unknown)
            .summary("not checked: no cgroup v2 hierarchy at /sys/fs/cgroup")
            .advice("Command::cgroup needs cgroup v2");
    };
    if !fastspawn::features().clone3 {
        return Finding::new(id, title, Status::Unknown)
            .summary("not checked: no clone3 here")
            .advice("Command::cgroup moves the child by writing cgroup.procs before its exec");
    }
    let file = match File::open(&dir) {
        Ok(f) => f,
        Err(e) => {
            return Finding::new(id, title, Status::Unknown)
                .summary(format!("not checked: cannot open {dir}: {e}"))
                .advice("");
        }
    };
    match true_cmd(Engine::Clone3).cgroup(file).status() {
        Ok(_) => Finding::new(id, title, Status::Ok)
            .summary(format!("works: a child was created inside {dir}"))
            .advice("nothing to do: Command::cgroup places children at creation, they never run outside")
            .value(true),
        Err(e) => {
            let errno = e.raw_os_error().unwrap_or(0);
            let (status, advice) = match errno {
                libc::EINVAL | libc::ENOSYS => {
                    refusals.push(Refusal {
                        what: "CLONE_INTO_CGROUP",
                        errno,
                    });
                    (Status::Warn, "kernel < 5.7: Command::cgroup falls back to a write to cgroup.procs in the child")
                }
                libc::EACCES | libc::EPERM => (
                    Status::Info,
                    "this process may not move children into its own cgroup (not delegated): use a cgroup you own",
                ),
                _ => (
                    Status::Info,
                    "this cgroup cannot hold the child (e.g. it has controllers enabled for its children): use a leaf cgroup you own",
                ),
            };
            Finding::new(id, title, status)
                .summary(format!("creating a child inside {dir} failed: {e}"))
                .advice(advice)
                .value(false)
        }
    }
}

/// `/sys/fs/cgroup/<this process's cgroup>`, when cgroup v2 is mounted there.
pub fn own_cgroup_dir() -> Option<String> {
    if !std::path::Path::new("/sys/fs/cgroup/cgroup.controllers").exists() {
        return None;
    }
    let cgroup = procfs::read("/proc/self/cgroup")?;
    let path = procfs::cgroup2_path(&cgroup)?;
    Some(format!("/sys/fs/cgroup{}", path.trim_end_matches('/')))
}

/// The Seccomp field of /proc/self/status, and what the checks above saw refused.
fn seccomp(refusals: &[Refusal]) -> Finding {
    let status = procfs::read("/proc/self/status").unwrap_or_default();
    let mode = procfs::field(&status, "Seccomp").unwrap_or("?").to_owned();
    let filters = procfs::field(&status, "Seccomp_filters")
        .unwrap_or("?")
        .to_owned();
    let refused: Vec<String> = refusals
        .iter()
        .filter(|r| matches!(r.errno, libc::EPERM | libc::ENOSYS | libc::EACCES))
        .map(|r| format!("{} ({})", r.what, errno_name(r.errno)))
        .collect();
    let value = serde_json::json!({ "mode": mode, "filters": filters, "refused": refused });
    let title = "seccomp";
    match mode.as_str() {
        "0" => Finding::new("kernel.seccomp", title, Status::Ok)
            .summary("no filter on this process")
            .advice("nothing to do (a container runtime may still add one to processes it starts)")
            .value(value),
        "2" if refused.is_empty() => Finding::new("kernel.seccomp", title, Status::Ok)
            .summary(format!("{filters} filter(s) installed; none refused what fastspawn uses"))
            .advice("nothing to do")
            .value(value),
        "2" => Finding::new("kernel.seccomp", title, Status::Warn)
            .summary(format!(
                "{filters} filter(s) installed; refused here: {} (by a filter, or by an old kernel)",
                refused.join(", ")
            ))
            .advice("allow clone3 in the container's seccomp profile (Docker >= 20.10's default does) to keep fastspawn's fastest engine")
            .value(value),
        other => Finding::new("kernel.seccomp", title, Status::Unknown)
            .summary(format!("Seccomp mode {other}"))
            .advice("")
            .value(value),
    }
}
