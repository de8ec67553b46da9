//! Waiting for a cgroup to empty, promptly.
//!
//! `cgroup.events` reports `populated 0` through `POLLPRI`, but the kernel
//! sends at most one notification per file every 10 ms
//! (`CGROUP_FILE_NOTIFY_MIN_INTV`) and delays the next one to that bound:
//! a tree that empties within 10 ms of its previous change (the spawn that
//! populated it, a kill right after its start) is reported up to 10 ms
//! late. `kill_tree` + `wait_tree` took 7-9 ms that way, against 0.2-0.3 ms
//! for a process-group kill (`fastspawn bench tree`, 2026-11-23).
//!
//! So the wait also holds a pidfd of every member (`cgroup.procs` of the
//! tree, up to [`MAX_WATCHED`]) in one epoll set with `cgroup.events`:
//! the exit of a member wakes it at once, and `cgroup.events` is read
//! again (a member's exit leaves the cgroup before its pidfd reports it,
//! so the file says `populated 0` by then). New members found on a later
//! pass are added; `cgroup.events` still wakes the wait for what the
//! pidfds do not cover (a process that joined and left between passes,
//! members beyond the cap, kernels without pidfds). The epoll fd is what
//! a caller polls, or registers with an async reactor.

use std::collections::HashMap;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd, RawFd};

use rustix::event::epoll;

use crate::sys::cgroup::{self, Events};
use crate::sys::wait::pidfd_open;

/// At most this many members are watched through pidfds (each is an open
/// fd); the rest are covered by `cgroup.events` alone.
pub(crate) const MAX_WATCHED: usize = 1024;

/// The `epoll` data of `cgroup.events` (members use their pid, > 0).
const EVENTS: u64 = 0;

/// Watches one cgroup until it is empty.
pub(crate) struct EmptyWait {
    epoll: OwnedFd,
    events: Events,
    /// pid -> its pidfd, registered in `epoll`.
    members: HashMap<i32, OwnedFd>,
}

impl EmptyWait {
    pub(crate) fn new(dir: BorrowedFd<'_>) -> io::Result<EmptyWait> {
        let epoll = epoll::create(epoll::CreateFlags::CLOEXEC)?;
        let events = Events::open(dir)?;
        epoll::add(
            &epoll,
            events.as_fd(),
            epoll::EventData::new_u64(EVENTS),
            epoll::EventFlags::PRI,
        )?;
        Ok(EmptyWait {
            epoll,
            events,
            members: HashMap::new(),
        })
    }

    /// Whether the cgroup `dir` is empty now. If not, every member not yet
    /// watched is, so that the epoll fd becomes readable when one exits.
    pub(crate) fn check(&mut self, dir: BorrowedFd<'_>) -> io::Result<bool> {
        self.forget_exited()?;
        loop {
            if !self.events.read()?.populated {
                return Ok(true);
            }
            let mut raced = false;
            for pid in cgroup::procs_recursive(dir)? {
                if self.members.len() >= MAX_WATCHED {
                    break;
                }
                if self.members.contains_key(&pid) {
                    continue;
                }
                match pidfd_open(pid) {
                    Ok(pidfd) => {
                        epoll::add(
                            &self.epoll,
                            &pidfd,
                            epoll::EventData::new_u64(pid as u64),
                            epoll::EventFlags::IN,
                        )?;
                        self.members.insert(pid, pidfd);
                    }
                    // Gone between the listing and the open: read the file
                    // again (it may say empty now) instead of sleeping.
                    Err(e) if e.raw_os_error() == Some(libc::ESRCH) => raced = true,
                    // No pidfds here, or out of fds: the rest are covered
                    // by cgroup.events alone (retrying would spin).
                    Err(_) => break,
                }
            }
            if !raced {
                return Ok(false);
            }
        }
    }

    /// Waits (blocking) until `dir` is empty.
    pub(crate) fn wait(&mut self, dir: BorrowedFd<'_>) -> io::Result<()> {
        while !self.check(dir)? {
            let mut fds = [rustix::event::PollFd::new(
                &self.epoll,
                rustix::event::PollFlags::IN,
            )];
            match rustix::event::poll(&mut fds, None) {
                Ok(_) | Err(rustix::io::Errno::INTR) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }

    /// Drops the members whose pidfd says they exited (a pid can then be
    /// reused by a new member, which gets a pidfd of its own).
    fn forget_exited(&mut self) -> io::Result<()> {
        let mut ready = Vec::with_capacity(16);
        loop {
            ready.clear();
            let zero = rustix::event::Timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            epoll::wait(
                &self.epoll,
                rustix::buffer::spare_capacity(&mut ready),
                Some(&zero),
            )?;
            for event in &ready {
                let pid = event.data.u64();
                if pid != EVENTS {
                    // Closing the pidfd removes it from the epoll set.
                    self.members.remove(&(pid as i32));
                }
            }
            if ready.len() < ready.capacity() {
                return Ok(());
            }
        }
    }
}

impl AsFd for EmptyWait {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.epoll.as_fd()
    }
}

impl AsRawFd for EmptyWait {
    fn as_raw_fd(&self) -> RawFd {
        self.epoll.as_raw_fd()
    }
}
