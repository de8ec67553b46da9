//! Removing the cgroups of contained children that were dropped while
//! their tree still ran.
//!
//! One background thread, started on first use (and again by the next
//! cgroup if a thread limit kept it from starting), holds each such cgroup's
//! `cgroup.events` open and sleeps in `poll` until one of them changes
//! (`POLLPRI`); a cgroup whose `populated` went to 0 is removed. Nothing
//! is polled on a timer.

use std::os::fd::{AsFd, OwnedFd};
use std::sync::{Arc, Mutex};

use rustix::event::{EventfdFlags, PollFd, PollFlags, eventfd, poll};

use super::{ParentDir, remove_cgroup};
use crate::background::Start;
use crate::per_process::PerProcess;
use crate::sys::cgroup::Events;

/// A cgroup to remove once it is empty.
pub(crate) struct Leftover {
    pub parent: Arc<ParentDir>,
    pub name: String,
    pub dir: OwnedFd,
}

struct Cleaner {
    inbox: Mutex<Vec<Leftover>>,
    wake: OwnedFd,
}

fn cleaner() -> Option<&'static Cleaner> {
    // Per process: a forked child's cleaner has its own inbox and eventfd.
    static CLEANER: PerProcess<Option<Cleaner>> = PerProcess::new();
    let cleaner = CLEANER
        .get_or_init(|| {
            let wake = eventfd(0, EventfdFlags::CLOEXEC | EventfdFlags::NONBLOCK).ok()?;
            let cleaner = Cleaner {
                inbox: Mutex::new(Vec::new()),
                wake,
            };
            Some(cleaner)
        })
        .as_ref()?;
    Some(cleaner)
}

static THREAD: Start = Start::new();

/// Hands a cgroup that still has processes to the cleaner thread. Without
/// an eventfd, the directory is left in place; if the thread cannot start
/// (a thread limit), the cgroup waits in its inbox for the next `adopt`,
/// which tries to start it again.
pub(crate) fn adopt(leftover: Leftover) {
    if let Some(cleaner) = cleaner() {
        cleaner
            .inbox
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(leftover);
        THREAD.ensure("fastspawn-cgroup-cleaner", 128 * 1024, run);
        let _ = rustix::io::write(&cleaner.wake, &1u64.to_ne_bytes());
    }
}

struct Watched {
    leftover: Leftover,
    events: Option<Events>,
}

impl Watched {
    /// Removes the cgroup if it is empty; true when it is gone.
    fn try_remove(&self) -> bool {
        // Reading re-arms the change notification before the check.
        let populated = match &self.events {
            Some(events) => events.read().map(|s| s.populated).unwrap_or(false),
            None => false,
        };
        !populated
            && remove_cgroup(
                &self.leftover.parent,
                &self.leftover.name,
                self.leftover.dir.as_fd(),
            )
    }
}

fn run() {
    let Some(cleaner) = cleaner() else { return };
    let mut watched: Vec<Watched> = Vec::new();
    loop {
        let fresh = std::mem::take(&mut *cleaner.inbox.lock().unwrap_or_else(|e| e.into_inner()));
        watched.extend(fresh.into_iter().map(|leftover| Watched {
            events: Events::open(leftover.dir.as_fd()).ok(),
            leftover,
        }));
        watched.retain(|w| !w.try_remove());
        // A cgroup whose events cannot be opened is gone or unreadable:
        // tried again at the next wake-up only.
        let mut fds = Vec::with_capacity(watched.len() + 1);
        fds.push(PollFd::new(&cleaner.wake, PollFlags::IN));
        fds.extend(
            watched
                .iter()
                .filter_map(|w| w.events.as_ref())
                .map(|e| PollFd::new(e, PollFlags::PRI)),
        );
        if poll(&mut fds, None).is_err() {
            // More cgroups than fds allowed: fall back to a slow retry.
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        drop(fds);
        let mut buf = [0u8; 8];
        let _ = rustix::io::read(&cleaner.wake, &mut buf);
    }
}
