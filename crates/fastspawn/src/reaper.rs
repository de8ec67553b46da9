//! Reaping children that nobody waits for any more: an async `Child`
//! dropped before it exited, or a child whose spawn future was dropped.
//!
//! One background thread, started on first use (and by the next orphan if
//! a thread limit kept it from starting: the orphans wait for it), polls the orphans' pidfds
//! (readable once the process exits) and reaps each with a non-blocking
//! `waitid`; children without a pidfd (kernels before 5.3, or no fd left)
//! are polled by pid every 50 ms. It only ever waits for the pids handed to
//! it, so it never steals the exit status of another library's child.

use std::os::fd::{AsFd, OwnedFd};
use std::sync::Mutex;
use std::time::Duration;

use rustix::event::{EventfdFlags, PollFd, PollFlags, Timespec, eventfd, poll};

use crate::background::Start;
use crate::per_process::PerProcess;
use crate::sys::wait;

static THREAD: Start = Start::new();

/// A child to reap.
pub(crate) struct Orphan {
    pub pid: i32,
    pub pidfd: Option<OwnedFd>,
}

struct Reaper {
    inbox: Mutex<Vec<Orphan>>,
    wake: OwnedFd,
}

fn reaper() -> Option<&'static Reaper> {
    // Per process: a forked child's reaper has its own inbox and eventfd.
    static REAPER: PerProcess<Option<Reaper>> = PerProcess::new();
    REAPER
        .get_or_init(|| {
            let wake = eventfd(0, EventfdFlags::CLOEXEC | EventfdFlags::NONBLOCK).ok()?;
            let reaper = Reaper {
                inbox: Mutex::new(Vec::new()),
                wake,
            };
            Some(reaper)
        })
        .as_ref()
}

/// Hands a child to the background reaper. If no reaper can run (no
/// eventfd), the child is reaped if it already exited, else left as std
/// leaves a dropped child.
pub(crate) fn adopt(orphan: Orphan) {
    if try_reap(&orphan) {
        return;
    }
    match reaper() {
        Some(reaper) => {
            reaper
                .inbox
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(orphan);
            // A start that fails is tried again by the next orphan.
            THREAD.ensure("fastspawn-reaper", 128 * 1024, run);
            let _ = rustix::io::write(&reaper.wake, &1u64.to_ne_bytes());
        }
        None => drop(orphan),
    }
}

/// Reaps the child if it has exited.
fn try_reap(orphan: &Orphan) -> bool {
    match wait::wait(orphan.pidfd.as_ref().map(|fd| fd.as_fd()), orphan.pid, true) {
        Ok(Some(_)) => true,
        Ok(None) => false,
        // ECHILD: somebody else reaped it; nothing is left to do.
        Err(_) => true,
    }
}

fn run() {
    let Some(reaper) = reaper() else { return };
    let mut orphans: Vec<Orphan> = Vec::new();
    loop {
        orphans.append(&mut reaper.inbox.lock().unwrap_or_else(|e| e.into_inner()));
        orphans.retain(|orphan| !try_reap(orphan));
        let by_pid = orphans.iter().any(|o| o.pidfd.is_none());
        let mut fds = Vec::with_capacity(orphans.len() + 1);
        fds.push(PollFd::new(&reaper.wake, PollFlags::IN));
        fds.extend(
            orphans
                .iter()
                .filter_map(|o| o.pidfd.as_ref())
                .map(|fd| PollFd::new(fd, PollFlags::IN)),
        );
        let timeout = Timespec::try_from(Duration::from_millis(50)).ok();
        // More orphans than fds allowed makes poll fail (EINVAL): fall back
        // to polling them by pid every 50 ms rather than spinning.
        let polled = poll(&mut fds, if by_pid { timeout.as_ref() } else { None });
        drop(fds);
        if polled.is_err() {
            std::thread::sleep(Duration::from_millis(50));
        }
        let mut buf = [0u8; 8];
        let _ = rustix::io::read(&reaper.wake, &mut buf);
    }
}
