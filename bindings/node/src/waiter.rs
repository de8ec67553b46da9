//! The waiter thread: one epoll set over the pidfds of every running
//! child. A pidfd becomes readable when its child exits; the thread then
//! reaps the child (`waitid(P_PIDFD)` through `Child::try_wait`) and posts
//! the exit to the child's JS thread.
//!
//! A child without a pidfd (kernels before 5.3) is polled every 20 ms.
//!
//! The same set holds the outputs of `pipeAs: 'readable'` children
//! (`outputs.rs`): their token has the child fd in its upper 32 bits, a
//! pidfd's token is the child id alone.

use std::os::fd::{BorrowedFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use rustix::event::epoll;

struct Waiter {
    epoll: OwnedFd,
    /// Children without a pidfd, polled.
    polled: Mutex<Vec<u32>>,
}

const POLL: Duration = Duration::from_millis(20);

static WAITER: OnceLock<Waiter> = OnceLock::new();
/// Whether the waiter thread runs.
static STARTED: AtomicBool = AtomicBool::new(false);

/// The waiter's set. Every caller runs after an `init()` that succeeded,
/// hence after [`start`] made it (a child is spawned, an output watched,
/// only through a JS thread's channel, which `init()` makes after `start`).
fn waiter() -> &'static Waiter {
    match WAITER.get() {
        Some(w) => w,
        None => unreachable!("fastspawn: the waiter is used before init() started it"),
    }
}

/// Starts the waiter thread and its epoll set if they are not running yet
/// (at `init()`, so that they are not made on the first child that lives
/// longer than the spawner thread's linger, and so that a set or thread
/// that cannot be made is `init()`'s error, not a panic on a spawner
/// thread with a child left unreaped).
pub fn start() -> std::io::Result<()> {
    static STARTING: Mutex<()> = Mutex::new(());
    let _one_at_a_time = STARTING.lock().unwrap_or_else(|e| e.into_inner());
    if STARTED.load(Ordering::Acquire) {
        return Ok(());
    }
    if WAITER.get().is_none() {
        let epoll = epoll::create(epoll::CreateFlags::CLOEXEC)?;
        let _ = WAITER.set(Waiter {
            epoll,
            polled: Mutex::new(Vec::new()),
        });
    }
    std::thread::Builder::new()
        .name("fastspawn-waiter".into())
        .stack_size(128 * 1024)
        .spawn(run)?;
    STARTED.store(true, Ordering::Release);
    Ok(())
}

/// Starts watching child `id`, through `pidfd` when it has one: the
/// child's pidfd, which stays open until the child is reaped, and only
/// this thread's watch leads to that.
pub fn watch(id: u32, pidfd: Option<RawFd>) {
    let w = waiter();
    let added = pidfd.is_some_and(|fd| {
        epoll::add(
            &w.epoll,
            crate::sys::borrow_pidfd(fd),
            epoll::EventData::new_u64(u64::from(id)),
            epoll::EventFlags::IN,
        )
        .is_ok()
    });
    if !added {
        w.polled.lock().unwrap_or_else(|e| e.into_inner()).push(id);
    }
}

/// Stops watching `pidfd` (a reaped child's, kept open because the
/// `Child` outlives its reaping: a contained child whose tree still runs).
pub fn unwatch(pidfd: RawFd) {
    // A pidfd that was polled instead is not in the set: nothing to undo.
    let _ = epoll::delete(&waiter().epoll, crate::sys::borrow_pidfd(pidfd));
}

/// Adds an output's fd to the set under `token` (level-triggered input);
/// returns whether it is in the set.
pub fn add(fd: BorrowedFd<'_>, token: u64) -> bool {
    epoll::add(
        &waiter().epoll,
        fd,
        epoll::EventData::new_u64(token),
        epoll::EventFlags::IN,
    )
    .is_ok()
}

/// Removes an output's fd from the set.
pub fn remove(fd: BorrowedFd<'_>) {
    let _ = epoll::delete(&waiter().epoll, fd);
}

fn run() {
    let w = waiter();
    let mut events: Vec<epoll::Event> = Vec::with_capacity(256);
    let poll = rustix::event::Timespec {
        tv_sec: 0,
        tv_nsec: POLL.as_nanos() as i64,
    };
    loop {
        let polling = !w
            .polled
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_empty();
        events.clear();
        let timeout = polling.then_some(&poll);
        match epoll::wait(
            &w.epoll,
            rustix::buffer::spare_capacity(&mut events),
            timeout,
        ) {
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(err) => panic!("fastspawn: the waiter's epoll_wait failed: {err}"),
        }
        for event in &events {
            let token = event.data.u64();
            if token >> 32 != 0 {
                crate::outputs::ready(token);
                continue;
            }
            crate::trace::stamp(token as u32, crate::trace::Step::WaiterWoke);
            crate::registry::reap(token as u32, true);
        }
        if polling {
            let mut ids = std::mem::take(&mut *w.polled.lock().unwrap_or_else(|e| e.into_inner()));
            ids.retain(|&id| !crate::registry::reap(id, false));
            w.polled
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend(ids);
        }
    }
}
