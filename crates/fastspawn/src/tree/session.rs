//! The fallback containment, where no cgroup v2 can be written: the child
//! starts a new session (`setsid`) and the spawning process becomes a
//! child subreaper (`PR_SET_CHILD_SUBREAPER`, process-wide), so orphans of
//! the tree are re-parented to it rather than to init.
//!
//! The tree is found by scanning `/proc`: the processes of the child's
//! session, their descendants (by parent pid), and every process once seen
//! as a member (held by a pidfd, so a member that later calls `setsid` is
//! still signalled, and a recycled pid is never hit). What this cannot
//! catch, and docs/trees.md repeats: a process that leaves the session
//! (`setsid`) and loses its parent between two scans, which is what a
//! daemonizing double fork does in a few microseconds. Such a process is
//! re-parented to the caller (the subreaper) and is neither signalled nor
//! waited for.

use std::collections::HashSet;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::sync::{Mutex, OnceLock};

use rustix::event::{PollFd, PollFlags, poll};

use crate::sys::wait;

/// Makes this process a child subreaper, once.
pub(crate) fn become_subreaper() -> io::Result<()> {
    static DONE: OnceLock<Result<(), i32>> = OnceLock::new();
    DONE.get_or_init(|| {
        rustix::process::set_child_subreaper(Some(rustix::process::getpid()))
            .map_err(|e| e.raw_os_error())
    })
    .map_err(io::Error::from_raw_os_error)
}

/// A process's line of `/proc/<pid>/stat`, the fields used here.
#[derive(Debug, Clone, Copy)]
struct Stat {
    pid: i32,
    ppid: i32,
    sid: i32,
    zombie: bool,
}

fn stat(pid: i32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "pid (comm) S ppid pgrp session ...": comm may hold spaces and ')'.
    let rest = &text[text.rfind(')')? + 2..];
    let mut fields = rest.split(' ');
    let state = fields.next()?;
    let ppid = fields.next()?.parse().ok()?;
    let _pgrp = fields.next()?;
    let sid = fields.next()?.parse().ok()?;
    Some(Stat {
        pid,
        ppid,
        sid,
        zombie: state == "Z" || state == "X",
    })
}

fn all_processes() -> Vec<Stat> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(stat)
        .collect()
}

struct Member {
    pid: i32,
    pidfd: OwnedFd,
}

/// The tree of a child started in a session of its own.
pub(crate) struct SessionTree {
    /// The child's pid, which is also the session id.
    root: i32,
    known: Mutex<Vec<Member>>,
}

impl SessionTree {
    pub(crate) fn new(root: i32) -> SessionTree {
        SessionTree {
            root,
            known: Mutex::new(Vec::new()),
        }
    }

    /// Scans `/proc`, remembers new members, reaps the members that were
    /// re-parented to this process and exited (never the root: its status
    /// belongs to `Child::wait`), and returns the live members.
    ///
    /// Once the root was reaped its pid (the session id) may be recycled,
    /// so from then on only the members already held by a pidfd and their
    /// descendants count.
    fn scan(&self, root_reaped: bool) -> Vec<(i32, OwnedFd)> {
        let me = std::process::id() as i32;
        let procs = all_processes();
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        let mut members: HashSet<i32> = known.iter().map(|m| m.pid).collect();
        if !root_reaped {
            members.insert(self.root);
            members.extend(procs.iter().filter(|p| p.sid == self.root).map(|p| p.pid));
        }
        loop {
            let before = members.len();
            for p in &procs {
                if members.contains(&p.ppid) {
                    members.insert(p.pid);
                }
            }
            if members.len() == before {
                break;
            }
        }
        for p in procs.iter().filter(|p| members.contains(&p.pid)) {
            if known.iter().any(|m| m.pid == p.pid) {
                continue;
            }
            let Some(pidfd) = wait::pidfd_open(p.pid) else {
                continue;
            };
            // The pid may have been recycled between the scan and the
            // open: keep it only if the process behind the pidfd still
            // belongs (a pidfd pins the pid while its process lives).
            let still = stat(p.pid)
                .is_some_and(|s| (!root_reaped && s.sid == self.root) || members.contains(&s.ppid));
            if still {
                known.push(Member { pid: p.pid, pidfd });
            }
        }
        let mut live = Vec::new();
        known.retain(|m| {
            let Some(s) = stat(m.pid) else {
                return false;
            };
            if s.zombie {
                if m.pid == self.root {
                    return true;
                }
                if s.ppid == me {
                    let _ = wait::wait(Some(m.pidfd.as_fd()), m.pid, true);
                }
                return false;
            }
            if let Ok(fd) = m.pidfd.try_clone() {
                live.push((m.pid, fd));
            }
            true
        });
        live
    }

    /// The live members' pids.
    pub(crate) fn pids(&self, root_reaped: bool) -> Vec<i32> {
        let mut pids: Vec<i32> = self
            .scan(root_reaped)
            .into_iter()
            .map(|(pid, _)| pid)
            .collect();
        pids.sort_unstable();
        pids
    }

    /// Signals every member, again until a scan finds no new one.
    pub(crate) fn signal(&self, signal: i32, root_reaped: bool) -> io::Result<()> {
        let mut signalled = HashSet::new();
        for _ in 0..32 {
            let fresh: Vec<_> = self
                .scan(root_reaped)
                .into_iter()
                .filter(|(pid, _)| signalled.insert(*pid))
                .collect();
            if fresh.is_empty() {
                return Ok(());
            }
            for (pid, fd) in fresh {
                match wait::send_signal(Some(fd.as_fd()), pid, signal) {
                    Err(e) if e.raw_os_error() != Some(libc::ESRCH) => return Err(e),
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Blocks until no member lives, sleeping on the members' pidfds
    /// (readable once a process exits) and scanning again after each exit.
    pub(crate) fn wait_empty(&self, root_reaped: bool) -> io::Result<()> {
        loop {
            let live = self.scan(root_reaped);
            if live.is_empty() {
                return Ok(());
            }
            let mut fds: Vec<PollFd<'_>> = live
                .iter()
                .map(|(_, fd)| PollFd::new(fd, PollFlags::IN))
                .collect();
            match poll(&mut fds, None) {
                Ok(_) | Err(rustix::io::Errno::INTR) => {}
                Err(e) => return Err(e.into()),
            }
        }
    }
}
