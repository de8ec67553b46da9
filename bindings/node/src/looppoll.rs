//! On Node's main thread, the children's exits are seen by the JS thread's
//! own event loop, and a short child costs the JS thread one wake-up.
//!
//! The thread has an epoll set of its own (`exits`), which its libuv loop
//! polls (one poll handle, `sys::loop_poll_start`). A spawner thread that
//! has started a child adds the child's pidfd to that set and queues the
//! `Spawned` record *without* waking the JS thread; the child's exit makes
//! the set readable, which wakes the loop directly (no waiter thread in
//! between), and the loop's callback reaps the child and posts its exit,
//! which hands `Spawned` and `Exited` to JS in one batch.
//!
//! So that `'spawn'` of a child that keeps running is not held back, the
//! spawner also arms a one-shot timer in the set ([`SPAWN_DELAY`]) unless
//! one is armed: when it fires, whatever is queued goes to JS. Each
//! delivery to JS disarms it before taking the queue, so a `Spawned`
//! queued afterwards arms it anew, and one that was taken needs none.
//!
//! Elsewhere (Bun, Deno, worker threads, no pidfd) the waiter thread
//! watches the children and every record wakes the JS thread, as before.

use std::os::fd::{AsFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rustix::event::epoll;
use rustix::time::{
    Itimerspec, TimerfdClockId, TimerfdFlags, TimerfdTimerFlags, Timespec, timerfd_create,
    timerfd_settime,
};

/// The longest a `Spawned` record waits for the child's exit to go to JS
/// with it.
pub const SPAWN_DELAY: Duration = Duration::from_micros(500);

/// The epoll data of the timer (ids of children are never 0).
const TIMER: u64 = 0;

/// The exits watched by one JS thread's loop.
pub struct LoopWatch {
    exits: OwnedFd,
    timer: OwnedFd,
    armed: AtomicBool,
}

impl LoopWatch {
    /// On the JS thread of `uv_loop`: the set, polled by that loop.
    pub fn new(uv_loop: usize) -> std::io::Result<LoopWatch> {
        let exits = epoll::create(epoll::CreateFlags::CLOEXEC)?;
        let timer = timerfd_create(
            TimerfdClockId::Monotonic,
            TimerfdFlags::CLOEXEC | TimerfdFlags::NONBLOCK,
        )?;
        epoll::add(
            &exits,
            &timer,
            epoll::EventData::new_u64(TIMER),
            epoll::EventFlags::IN,
        )?;
        crate::sys::loop_poll_start(uv_loop, std::os::fd::AsRawFd::as_raw_fd(&exits))?;
        Ok(LoopWatch {
            exits,
            timer,
            armed: AtomicBool::new(false),
        })
    }

    /// On a spawner thread: watches child `id` through `pidfd` (open until
    /// the child is reaped, which only the loop's callback does). False if
    /// it cannot (the caller hands the child to the waiter).
    pub fn watch(&self, id: u32, pidfd: RawFd) -> bool {
        epoll::add(
            &self.exits,
            crate::sys::borrow_pidfd(pidfd),
            epoll::EventData::new_u64(u64::from(id)),
            epoll::EventFlags::IN,
        )
        .is_ok()
    }

    /// Stops watching `pidfd` (a reaped child's, kept open for its tree).
    pub fn unwatch(&self, pidfd: RawFd) {
        let _ = epoll::delete(&self.exits, crate::sys::borrow_pidfd(pidfd));
    }

    /// On a spawner thread, after a quiet `Spawned`: makes sure the queue
    /// goes to JS within [`SPAWN_DELAY`] even if no child exits.
    pub fn arm(&self) {
        if self.armed.swap(true, Ordering::AcqRel) {
            return;
        }
        let delay = Itimerspec {
            it_interval: Timespec {
                tv_sec: 0,
                tv_nsec: 0,
            },
            it_value: Timespec {
                tv_sec: 0,
                tv_nsec: SPAWN_DELAY.as_nanos() as i64,
            },
        };
        if timerfd_settime(&self.timer, TimerfdTimerFlags::empty(), &delay).is_err() {
            self.armed.store(false, Ordering::Release);
        }
    }

    /// On the JS thread, before it takes the queue: the timer is not
    /// needed for what it takes (a later `Spawned` arms it again).
    pub fn disarm(&self) {
        if self.armed.swap(false, Ordering::AcqRel) {
            let zero = Timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            let off = Itimerspec {
                it_interval: zero,
                it_value: zero,
            };
            let _ = timerfd_settime(&self.timer, TimerfdTimerFlags::empty(), &off);
        }
    }

    /// On the JS thread, when the set is readable: reaps the children that
    /// exited (each posts its exit, which wakes the queue's delivery), and
    /// on the timer hands the queue to JS.
    pub fn ready(&self, events: &crate::events::Events) {
        let mut ready: Vec<epoll::Event> = Vec::with_capacity(64);
        let zero = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        if epoll::wait(
            &self.exits,
            rustix::buffer::spare_capacity(&mut ready),
            Some(&zero),
        )
        .is_err()
        {
            return;
        }
        for event in &ready {
            let id = event.data.u64();
            if id == TIMER {
                let mut buf = [0u8; 8];
                let _ = rustix::io::read(self.timer.as_fd(), &mut buf);
                self.armed.store(false, Ordering::Release);
                events.flush();
            } else {
                crate::trace::stamp(id as u32, crate::trace::Step::WaiterWoke);
                if !crate::registry::reap(id as u32) {
                    // Readable yet not reapable (reaped elsewhere and
                    // reported as such already): stop the busy loop.
                    if let Some(fd) = crate::registry::pidfd_of(id as u32) {
                        self.unwatch(fd);
                        crate::waiter::watch(id as u32, Some(fd));
                    }
                }
            }
        }
    }
}
