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
use std::sync::Mutex;

use rustix::event::{PollFd, PollFlags, poll};

use crate::per_process::PerProcess;
use crate::sys::wait;

/// Makes this process a child subreaper, once.
pub(crate) fn become_subreaper() -> io::Result<()> {
    // Per process: a forked child is no subreaper (the flag is not
    // inherited).
    static DONE: PerProcess<Result<(), i32>> = PerProcess::new();
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
    /// belongs to `Child::wait`), and returns the members that were alive
    /// in the snapshot, with whether the snapshot may be incomplete (a
    /// member died before it could be held, so its children may be missing).
    ///
    /// Liveness is taken from the snapshot itself, not checked again later:
    /// a member alive in the snapshot is waited for, so any child it forks
    /// afterwards is in the snapshot taken after its exit (a child exists
    /// before its parent can exit, and is re-parented, not lost).
    ///
    /// Once the root was reaped its pid (the session id) may be recycled,
    /// so from then on only the members already held by a pidfd and their
    /// descendants count.
    fn scan(&self, root_reaped: bool) -> (Vec<(i32, OwnedFd)>, bool) {
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
        let mut incomplete = false;
        for p in procs.iter().filter(|p| members.contains(&p.pid)) {
            if known.iter().any(|m| m.pid == p.pid) {
                continue;
            }
            let Ok(pidfd) = wait::pidfd_open(p.pid) else {
                incomplete |= !p.zombie;
                continue;
            };
            // The pid may have been recycled between the scan and the
            // open: keep it only if the process behind the pidfd still
            // belongs (a pidfd pins the pid while its process lives).
            let still = stat(p.pid)
                .is_some_and(|s| (!root_reaped && s.sid == self.root) || members.contains(&s.ppid));
            if still {
                known.push(Member { pid: p.pid, pidfd });
            } else {
                incomplete |= !p.zombie;
            }
        }
        let mut live = Vec::new();
        known.retain(|m| {
            let Some(s) = procs.iter().find(|p| p.pid == m.pid) else {
                // Gone before the snapshot was taken.
                return false;
            };
            if s.zombie {
                // Reap the members re-parented to us; keep the others: their
                // parent may die before reaping them, and then they are ours.
                if m.pid != self.root && s.ppid == me {
                    return !matches!(wait::wait(Some(m.pidfd.as_fd()), m.pid, true), Ok(Some(_)));
                }
                return true;
            }
            if let Ok(fd) = m.pidfd.try_clone() {
                live.push((m.pid, fd));
            }
            true
        });
        (live, incomplete)
    }

    /// The live members' pids.
    pub(crate) fn pids(&self, root_reaped: bool) -> Vec<i32> {
        let mut pids: Vec<i32> = self
            .scan(root_reaped)
            .0
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
                .0
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
    ///
    /// A scan lists `/proc` before it reads each process's state, so a
    /// member may fork and exit in between: seen dead, its new child not
    /// listed. The tree is declared empty only when a second scan, whose
    /// listing starts after every member was seen dead, finds no member
    /// either (a child exists before its parent exits).
    pub(crate) fn wait_empty(&self, root_reaped: bool) -> io::Result<()> {
        let mut empty_once = false;
        loop {
            let (live, incomplete) = self.scan(root_reaped);
            if live.is_empty() {
                if empty_once && !incomplete {
                    return Ok(());
                }
                empty_once = !incomplete;
                if incomplete {
                    // A member died unheld: its children are re-parented
                    // by now; look again.
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                continue;
            }
            empty_once = false;
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
