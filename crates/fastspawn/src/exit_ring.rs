//! Exit notification through io_uring's `waitid` (Linux 6.7+), in place of
//! a pidfd per child.
//!
//! A pidfd made by the clone and watched in an epoll costs its spawner
//! thread ~9 µs per spawn (docs/perf/python.md, session 14); an
//! `IORING_OP_WAITID` request for the child (`P_PID`, `WEXITED | WNOWAIT`)
//! costs ~4 µs less per spawn in C. [`ExitRing`] is one io_uring for the
//! process, made on first use (and again in a forked child, whose copy's
//! queues would be the parent's: see [`per_process`](crate::per_process)):
//!
//! - [`ExitRing::for_spawn`] before a spawn says whether its child may go
//!   without a pidfd (`None`: clone with one, as before);
//! - [`ExitRing::watch`] right after the spawn submits the request, keyed
//!   by a number of the caller's;
//! - the ring's [`fd`](ExitRing::fd) turns readable when completions wait:
//!   a waiter puts it in its epoll (or an event loop watches it) and calls
//!   [`ExitRing::drain`], which yields `(key, Notice)`;
//! - the reap stays the caller's: [`Child::try_wait`] (under the lock the
//!   caller keeps the `Child` in). The request reaps nothing (`WNOWAIT`),
//!   so the pid stays the child's until that reap, and
//!   [`Child::send_signal`] stays sound: it makes a pidfd on demand
//!   (`pidfd_open`, then a `WNOWAIT` check that the pid is still our
//!   unreaped child), and a child reaped by other code (`waitpid(-1)`
//!   elsewhere) is not signalled.
//!
//! [`ExitRing::wait_timeout`] is the bounded wait for one child (a waitid
//! on a small ring of the calling thread's own, submitted and waited for
//! with a timeout in one `io_uring_enter`).
//!
//! # When there is no ring
//!
//! [`ExitRing::get`] is `None`, and callers keep the pidfd path, when
//! `io_uring_setup` is refused (`ENOSYS`; `EPERM` from a seccomp filter or
//! `/proc/sys/kernel/io_uring_disabled`), when `IORING_OP_WAITID` is not in
//! the kernel's probe (Linux < 6.7), when the environment has
//! `FASTSPAWN_IO_URING=0` at the first use, after
//! [`ExitRing::set_enabled(false)`](ExitRing::set_enabled), and for good
//! once a request completed with an error that means "refused" (`EINVAL`,
//! `EOPNOTSUPP`, `EPERM`: a filter by op, an LSM): that child's
//! [`Notice::Refused`] tells its caller to fall back (a pidfd made on
//! demand, [`Child::pidfd`]). [`ExitRing::for_spawn`] is also `None` while
//! `SIGCHLD` is ignored or `SA_NOCLDWAIT` is set (asked with one
//! `sigaction` per call, not cached: other code may change it at any time):
//! the kernel then reaps the children at their exit, and only a pidfd made
//! by the clone keeps referring to them.
//!
//! # Which threads may submit
//!
//! An io_uring request belongs to the thread that submitted it: once that
//! thread has exited, its requests no longer see the exit as ours (tested:
//! the waitid completes at the child's exit with `ECHILD`, as for a child
//! of somebody else; the kernel may also end it with `ECANCELED`). So
//! [`ExitRing::watch`] is refused
//! (`Unsupported`) on threads not marked with
//! [`ExitRing::mark_thread_long_lived`]; the [`Pool`](crate::Pool)'s
//! threads are marked (they live as long as their pool; the global pool's
//! for the process). A waiter thread that lives as long as the process
//! marks itself. Whatever a completion says, the caller's `try_wait`
//! decides: its status even after a `Gone`, and `Ok(None)` (still
//! running: its request ended early) means watch it again from a
//! long-lived thread.
//!
//! ```no_run
//! use fastspawn::{Command, exit_ring::{ExitRing, Notice}};
//! ExitRing::mark_thread_long_lived();
//! let ring = ExitRing::for_spawn();
//! let mut cmd = Command::new("true");
//! cmd.pidfd_at_spawn(ring.is_none());
//! let mut child = cmd.spawn()?;
//! if let Some(ring) = ring {
//!     ring.watch(&child, 7)?;
//!     ExitRing::wait_ready(ring)?; // or: poll ring.fd() in an epoll
//!     ring.drain(|key, notice| {
//!         assert_eq!(key, 7);
//!         assert!(matches!(notice, Notice::Exited | Notice::Gone));
//!     });
//! }
//! let status = child.wait()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::cell::{Cell, RefCell};
use std::io;
use std::os::fd::BorrowedFd;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use crate::child::Child;
use crate::per_process::PerProcess;
use crate::sys::uring::{self, KernelTimespec, Ring, Sqe};

/// What a completion says of the child watched under its key.
#[derive(Debug)]
pub enum Notice {
    /// The child has exited and waits to be reaped (`try_wait`).
    Exited,
    /// `ECHILD`: the pid is no unreaped child of ours; reaped by other code
    /// (`waitpid(-1)`, `SIGCHLD` ignored), or by its `Child` meanwhile.
    /// `try_wait` tells which (its status, or the error).
    Gone,
    /// The request was refused (`EINVAL`, `EOPNOTSUPP`, `EPERM`): the ring
    /// is now off for the process; watch this child another way (its pidfd).
    Refused(io::Error),
    /// The request ended without telling (`ECANCELED`, or another error):
    /// `try_wait`, and watch it again if it runs.
    Ended(io::Error),
}

/// The process-wide io_uring for exit notification (see the module docs).
pub struct ExitRing {
    ring: Ring,
    /// Requests submitted and not yet drained (for the tests and docs).
    outstanding: AtomicU64,
}

impl std::fmt::Debug for ExitRing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExitRing")
            .field("outstanding", &self.outstanding())
            .finish_non_exhaustive()
    }
}

/// SQ entries of the shared ring: every submission enters at once, so
/// only concurrent submitters share it.
const SQ_ENTRIES: u32 = 64;
/// CQ entries: completions beyond wait in the kernel (`NODROP`).
const CQ_ENTRIES: u32 = 4096;

/// Per process: a forked child shares its parent's ring's queues (shared
/// memory), so it makes its own (see `per_process`).
static RING: PerProcess<Option<ExitRing>> = PerProcess::new();
/// `set_enabled(false)` was called (and not undone).
static USER_OFF: AtomicBool = AtomicBool::new(false);
/// A request was refused: off for the life of the process.
static REFUSED: AtomicBool = AtomicBool::new(false);

thread_local! {
    static LONG_LIVED: Cell<bool> = const { Cell::new(false) };
    /// The bounded wait's ring of this thread, and the process generation
    /// it was made in: made on first use (`None` if it could not be), and
    /// again in a forked child (the thread that forked keeps its
    /// thread-locals, and the ring's queues are shared with the parent).
    static OWN_RING: RefCell<Option<(u64, Option<Rc<Ring>>)>> = const { RefCell::new(None) };
    /// The bounded waits made on this thread: each call tags its two
    /// requests with its number, so a completion left by a call that
    /// returned early (an error of its wait) is not taken for its own.
    static OWN_CALLS: Cell<u64> = const { Cell::new(0) };
}

/// The tag's low bit: set on a link timeout's or a cancel's completion.
const TIMEOUT_TAG: u64 = 1;

/// `wait_timeout` uses the linked timeout even where `io_uring_enter` can
/// bound its wait (see [`ExitRing::set_linked_timeout`]).
static LINKED_TIMEOUT: AtomicBool = AtomicBool::new(false);

/// Whether `FASTSPAWN_IO_URING` turns the ring off (`0`, `off`, `false`, `no`).
fn env_off() -> bool {
    std::env::var_os("FASTSPAWN_IO_URING").is_some_and(|v| {
        let v = v.to_string_lossy().to_ascii_lowercase();
        matches!(v.trim(), "0" | "off" | "false" | "no")
    })
}

/// Makes a ring and checks that it has the waitid op.
fn probe_ring(sq: u32, cq: u32) -> io::Result<Ring> {
    let ring = Ring::new(sq, cq)?;
    if !ring.supports(uring::OP_WAITID)? {
        return Err(io::Error::from_raw_os_error(libc::EOPNOTSUPP));
    }
    Ok(ring)
}

fn is_refusal(errno: i32) -> bool {
    matches!(errno, libc::EINVAL | libc::EOPNOTSUPP | libc::EPERM)
}

impl ExitRing {
    /// The process's ring, made and probed on the first call; `None` when
    /// io_uring or its waitid op is not available, or the ring is off (see
    /// the module docs).
    pub fn get() -> Option<&'static ExitRing> {
        if USER_OFF.load(Ordering::Relaxed) || REFUSED.load(Ordering::Relaxed) {
            return None;
        }
        RING.get_or_init(|| {
            if env_off() {
                return None;
            }
            probe_ring(SQ_ENTRIES, CQ_ENTRIES)
                .ok()
                .map(|ring| ExitRing {
                    ring,
                    outstanding: AtomicU64::new(0),
                })
        })
        .as_ref()
    }

    /// The ring if it was made, even while it is off (`set_enabled(false)`,
    /// a refusal): for a waiter draining what was submitted before.
    pub fn made() -> Option<&'static ExitRing> {
        RING.get().and_then(Option::as_ref)
    }

    /// [`get`](Self::get), for a spawn about to happen: also `None` while
    /// the children of the process are reaped by the kernel (`SIGCHLD`
    /// ignored, `SA_NOCLDWAIT`), whose spawns need a pidfd from the clone.
    pub fn for_spawn() -> Option<&'static ExitRing> {
        let ring = Self::get()?;
        if uring::children_autoreaped() {
            return None;
        }
        Some(ring)
    }

    /// Turns the ring off (`false`) or back on (`true`, unless
    /// `FASTSPAWN_IO_URING=0` or a refusal turned it off for good) for the
    /// spawns to come; returns the previous setting. Requests already
    /// submitted still complete and are drained as before.
    pub fn set_enabled(on: bool) -> bool {
        !USER_OFF.swap(!on, Ordering::Relaxed)
    }

    /// Whether a request was refused, which turned the ring off for good.
    pub fn refused() -> bool {
        REFUSED.load(Ordering::Relaxed)
    }

    /// Marks the calling thread as one that outlives its requests (lives
    /// until the children it watches were reaped, or as long as the
    /// process): [`watch`](Self::watch) is refused elsewhere.
    pub fn mark_thread_long_lived() {
        LONG_LIVED.with(|l| l.set(true));
    }

    /// Whether the calling thread was marked long-lived.
    pub fn thread_long_lived() -> bool {
        LONG_LIVED.with(Cell::get)
    }

    /// Submits a `waitid(P_PID, pid, WEXITED | WNOWAIT)` request for
    /// `child`, whose completion [`drain`](Self::drain) yields under `key`.
    /// An exit before the call (a zombie) completes at once. Errors:
    /// `InvalidInput` for a child reaped already or one the kernel reaps
    /// (`Command::autokill`), `Unsupported` on a thread not marked
    /// long-lived, `EBUSY` when the submission queue is full (64 requests
    /// being submitted at once); the request was then not submitted.
    pub fn watch(&self, child: &Child, key: u64) -> io::Result<()> {
        if child.status.is_some() || child.autoreaped {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "watching child {} ({}) on the exit ring: it was reaped already or is reaped by the kernel",
                    child.pid,
                    child.program.to_string_lossy()
                ),
            ));
        }
        if !Self::thread_long_lived() {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                format!(
                    "watching child {} ({}) on the exit ring: this thread is not marked long-lived, and its requests lose the exit once it has exited",
                    child.pid,
                    child.program.to_string_lossy()
                ),
            ));
        }
        self.ring
            .submit_and_wait(&[Sqe::waitid_exited(child.pid, key)], 0)?;
        self.outstanding.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// The ring's fd: readable while completions wait to be drained (for
    /// an epoll, or an event loop's reader). Valid for the process's life.
    pub fn fd(&self) -> BorrowedFd<'_> {
        self.ring.fd()
    }

    /// Calls `f(key, notice)` for every completion waiting, and returns
    /// how many there were. Never blocks. A refusal turns the ring off.
    pub fn drain(&self, mut f: impl FnMut(u64, Notice)) -> usize {
        let n = self.ring.drain(|key, res| {
            let notice = match res {
                0.. => Notice::Exited,
                e if -e == libc::ECHILD => Notice::Gone,
                e if is_refusal(-e) => {
                    REFUSED.store(true, Ordering::Relaxed);
                    Notice::Refused(io::Error::from_raw_os_error(-e))
                }
                e => Notice::Ended(io::Error::from_raw_os_error(-e)),
            };
            f(key, notice);
        });
        self.outstanding.fetch_sub(n as u64, Ordering::Relaxed);
        n
    }

    /// Blocks until a completion waits (what an epoll on [`fd`](Self::fd)
    /// would report). For callers with nothing else to wait for.
    pub fn wait_ready(&self) -> io::Result<()> {
        self.ring.wait(1)
    }

    /// Requests submitted and not yet drained.
    pub fn outstanding(&self) -> u64 {
        self.outstanding.load(Ordering::Relaxed)
    }

    /// Waits at most `timeout` for `child` to exit, without reaping it:
    /// `Ok(true)` when it exited (or is no child of ours any more:
    /// `try_wait` tells), `Ok(false)` when the time ran out. On a small
    /// ring of the calling thread's own (made on its first call): one
    /// waitid request, submitted and waited for with the timeout in one
    /// `io_uring_enter` (`IORING_ENTER_EXT_ARG`, Linux 5.11), cancelled
    /// if the time runs out; where the kernel has no such wait, a waitid
    /// linked to an `IORING_OP_LINK_TIMEOUT`, both waited for. Every
    /// request a call makes has completed when it returns `Ok`, so any
    /// thread may call it. An error when the ring is off or the thread's
    /// ring cannot be made (the caller waits another way), or the request
    /// was refused (which turns the ring off).
    pub fn wait_timeout(child: &Child, timeout: Duration) -> io::Result<bool> {
        if child.status.is_some() {
            return Ok(true);
        }
        if Self::get().is_none() {
            return Err(io::Error::from_raw_os_error(libc::EOPNOTSUPP));
        }
        let ring = own_ring()?;
        let ring = &*ring;
        let call = next_call();
        let waitid = if ring.has_timed_wait() && !LINKED_TIMEOUT.load(Ordering::Relaxed) {
            timed_wait(ring, child.pid, timeout, call)?
        } else {
            linked_wait(ring, child.pid, timeout, call)?
        };
        match waitid {
            Some(0..) => Ok(true),
            Some(e) if -e == libc::ECHILD => Ok(true),
            Some(e) if -e == libc::ECANCELED => Ok(false),
            Some(e) => {
                if is_refusal(-e) {
                    REFUSED.store(true, Ordering::Relaxed);
                }
                Err(io::Error::from_raw_os_error(-e))
            }
            None => Ok(false),
        }
    }

    /// Makes [`wait_timeout`](Self::wait_timeout) use the linked timeout
    /// (`true`) even where `io_uring_enter` can bound its wait, or not
    /// (`false`, the default); returns the previous setting. For the tests
    /// and benchmarks, which compare the two.
    #[doc(hidden)]
    pub fn set_linked_timeout(on: bool) -> bool {
        LINKED_TIMEOUT.swap(on, Ordering::Relaxed)
    }
}

/// The calling thread's own small ring (see `OWN_RING`), made on first use
/// in this process; `EOPNOTSUPP` when it cannot be.
fn own_ring() -> io::Result<Rc<Ring>> {
    let generation = crate::per_process::generation();
    OWN_RING.with_borrow_mut(|own| {
        if !matches!(own, Some((made_in, _)) if *made_in == generation) {
            // A ring of the parent's, copied by the fork, is dropped here:
            // unmapped and closed in this process only.
            *own = Some((generation, probe_ring(4, 8).ok().map(Rc::new)));
        }
        own.as_ref()
            .and_then(|(_, ring)| ring.clone())
            .ok_or_else(|| io::Error::from_raw_os_error(libc::EOPNOTSUPP))
    })
}

/// The number of a call on the thread's own ring: its requests' tags are
/// this number, with the low bit set on the timeout's or cancel's.
fn next_call() -> u64 {
    OWN_CALLS.with(|n| {
        n.set(n.get().wrapping_add(1));
        n.get() << 1
    })
}

fn kernel_timespec(d: Duration) -> KernelTimespec {
    KernelTimespec {
        tv_sec: d.as_secs().min(i64::MAX as u64) as i64,
        tv_nsec: i64::from(d.subsec_nanos()),
    }
}

/// `wait_timeout` on a ring that bounds its waits: the waitid alone,
/// submitted and waited for in one enter, waited for again after a signal
/// until the deadline, then cancelled. The waitid's result (always
/// `Some` on `Ok`). On an error the request may still be out: a later
/// call's drain skips its completion by its tag.
fn timed_wait(ring: &Ring, pid: i32, timeout: Duration, call: u64) -> io::Result<Option<i32>> {
    let deadline = std::time::Instant::now() + timeout;
    let (mut waitid, mut cancelled) = (None, false);
    let take = |waitid: &mut Option<i32>, cancelled: &mut bool| {
        ring.drain(|tag, res| {
            if tag == call {
                *waitid = Some(res);
            } else if tag == call | TIMEOUT_TAG {
                *cancelled = true;
            } // else an earlier call's
        });
    };
    ring.submit_and_wait_for(&Sqe::waitid_exited(pid, call), &kernel_timespec(timeout))?;
    loop {
        take(&mut waitid, &mut cancelled);
        if waitid.is_some() {
            return Ok(waitid);
        }
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            break;
        }
        match ring.wait_for(1, &kernel_timespec(left)) {
            Ok(()) => {}
            Err(e) if matches!(e.raw_os_error(), Some(libc::ETIME | libc::EINTR)) => {}
            Err(e) => return Err(e),
        }
    }
    // The time ran out: cancel the waitid, and wait for both completions
    // (the waitid's: `ECANCELED`, or its exit if it came meanwhile).
    ring.submit_and_wait(&[Sqe::cancel(call, call | TIMEOUT_TAG)], 0)?;
    loop {
        take(&mut waitid, &mut cancelled);
        if waitid.is_some() && cancelled {
            return Ok(waitid);
        }
        ring.wait(1)?;
    }
}

/// `wait_timeout` with a waitid linked to an `IORING_OP_LINK_TIMEOUT`,
/// both submitted and waited for in one enter: the waitid's result.
fn linked_wait(ring: &Ring, pid: i32, timeout: Duration, call: u64) -> io::Result<Option<i32>> {
    let ts = kernel_timespec(timeout);
    let sqes = [
        Sqe::waitid_exited(pid, call).linked(),
        Sqe::link_timeout(&ts, call | TIMEOUT_TAG),
    ];
    ring.submit_and_wait(&sqes, 2)?;
    let (mut seen, mut waitid) = (0, None);
    loop {
        ring.drain(|tag, res| {
            if tag & !TIMEOUT_TAG != call {
                return; // an earlier call's
            }
            seen += 1;
            if tag == call {
                waitid = Some(res);
            }
        });
        if seen >= 2 {
            return Ok(waitid);
        }
        ring.wait(2 - seen)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request the kernel refuses (`P_PID` with pid -1: `EINVAL`)
    /// comes back as `Refused` and turns the ring off for the process. No
    /// other test of this binary uses the ring.
    #[test]
    fn a_refused_request_turns_the_ring_off() {
        let Some(ring) = ExitRing::get() else {
            println!("skipped: no io_uring with IORING_OP_WAITID here");
            return;
        };
        ring.ring
            .submit_and_wait(&[Sqe::waitid_exited(-1, 99)], 1)
            .unwrap();
        let mut notices = Vec::new();
        ring.drain(|key, notice| notices.push((key, notice)));
        assert_eq!(notices.len(), 1);
        assert_eq!(notices[0].0, 99);
        match &notices[0].1 {
            Notice::Refused(err) => assert_eq!(err.raw_os_error(), Some(libc::EINVAL)),
            other => panic!("not refused: {other:?}"),
        }
        assert!(ExitRing::refused());
        assert!(ExitRing::get().is_none());
        assert!(ExitRing::for_spawn().is_none());
        // set_enabled(true) does not undo a refusal.
        ExitRing::set_enabled(true);
        assert!(ExitRing::get().is_none());
    }
}
