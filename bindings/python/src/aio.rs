//! Spawns for `fastspawn.asyncio`: the event loop hands a request to
//! fastspawn's spawner threads and goes on; finished spawns *and* reaped
//! exits come back through one queue per loop and its eventfd, the only fd
//! the loop watches (`add_reader`).
//!
//! The loop's cost per spawn is encoding the request (for the common call
//! the arguments only: the spawner thread builds its command; else the
//! command, with a dup of the fds it names) and a push on the `Spawner`'s
//! pending list; `flush`, which the Python side runs in a `call_soon`
//! callback of its own once per batch, hands the pending requests to the
//! pool (its `futex` wake kept out of the spawn call), unless every
//! spawner thread has a job already: the spawn call then hands its request
//! over itself. The loop never runs a clone, an exec or a wait. Where the
//! core's exit ring is available (`fastspawn::exit_ring`, io_uring's
//! `waitid`, Linux 6.7+), a spawner thread spawns without a pidfd, pushes
//! the result on the loop's queue and then submits a `WNOWAIT` waitid
//! request for the child on the ring, whose fd sits in the waiter's epoll;
//! else it spawns with `pidfd_at_spawn` (the clone makes the pidfd) and
//! adds the pidfd to that epoll. The waiter, one thread for the process,
//! sleeps in that epoll; when a child's request completes or its pidfd
//! becomes readable it reaps the child (`waitid` through the same `fastspawn::Child` the `Process` holds,
//! so both see one status) and pushes the status on the queue of the
//! child's loop. A push on an empty queue writes its eventfd, so a burst of
//! spawns and exits wakes the loop once; `drain` then reads the eventfd
//! (its one syscall; none on asyncio's epoll loops, which watch it
//! edge-triggered, see `Spawner::edge_triggered`) and takes the whole queue.
//!
//! Order: a spawner thread pushes a spawn before it registers the child
//! with the waiter, so a child's exit is never queued before its spawn;
//! `drain` hands the spawns of a batch out before its exits. No syscall
//! runs under the queue's lock or the waiter's map's (the eventfd's write
//! and the epoll calls come after they are released), which the loop, the
//! spawner threads and the waiter all take: a syscall there made the
//! others sleep on the lock (a `futex` wait and wake each) at 16 in flight.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType, PyWeakrefReference};
use rustix::event::{EventfdFlags, epoll};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};

use fastspawn::exit_ring::{ExitRing, Notice};
use fastspawn::per_process::PerProcess;

use crate::child::Child;
use crate::run::std_command;
use crate::spawn::{Built, Names, Request, build, pool_error, simple_argv, simple_command_of};

type SharedChild = Arc<Mutex<fastspawn::Child>>;

fn lock_child(child: &SharedChild) -> std::sync::MutexGuard<'_, fastspawn::Child> {
    child.lock().unwrap_or_else(|e| e.into_inner())
}

struct Finished {
    token: u64,
    result: Result<SharedChild, fastspawn::Error>,
    names: Names,
    /// The child was spawned without a pidfd, for the exit ring: the
    /// waiter watches it all the same (see [`Waiter::watch`]).
    ring: bool,
}

#[derive(Default)]
struct Queue {
    done: Vec<Finished>,
    /// `(token, raw wait status)` of the children the waiter reaped.
    exits: Vec<(u64, i32)>,
    /// Tokens whose caller gave up before the spawn finished.
    cancelled: HashSet<u64>,
    /// The eventfd was written since the last `drain` took the queue: a
    /// push needs no write of its own (see `Queue::should_wake`).
    woken: bool,
    /// When the oldest spawn queued without a write since then was queued.
    deferred_since: Option<std::time::Instant>,
}

struct Shared {
    /// Written by the push that `Queue::should_wake` chooses (by default
    /// the one that finds the queue empty); read by `drain`.
    eventfd: OwnedFd,
    queue: Mutex<Queue>,
    /// This loop's spawn jobs handed to the pool that have not pushed their
    /// spawn or given it up: incremented by `hand_over`, decremented under
    /// the queue's lock (so of the jobs ending together exactly one sees
    /// the count reach 0).
    in_flight: AtomicUsize,
}

impl Queue {
    fn is_empty(&self) -> bool {
        self.done.is_empty() && self.exits.is_empty()
    }

    /// Whether the caller, having just queued something (or ended a job),
    /// must write the eventfd: not if it was written since the last take
    /// (so, by default, only the push that finds the queue empty writes).
    /// With [`set_defer_spawn_wake`] on, not either for a running child's
    /// spawn (`urgent` false) while `in_flight` (this loop's spawn jobs
    /// still in flight, counted after the caller's own ended) is not 0 and
    /// the oldest spawn so queued is younger than the switch's bound: that
    /// job's push, or the waiter's push of any exit, wakes the loop, whose
    /// `drain` then takes this spawn too (with its exit, if it has come by
    /// then). So every queued item is followed by a wake-up: the last job
    /// in flight, a failed or lingered spawn, every exit, and the first
    /// push past the bound wake.
    fn should_wake(&mut self, urgent: bool, in_flight: usize) -> bool {
        if self.woken || self.is_empty() {
            return false;
        }
        let bound_us = DEFER_SPAWN_WAKE_US.load(Ordering::Relaxed);
        if !urgent && in_flight > 0 && bound_us > 0 {
            let now = std::time::Instant::now();
            let since = *self.deferred_since.get_or_insert(now);
            let bound = std::time::Duration::from_micros(u64::from(bound_us));
            if now.duration_since(since) < bound {
                return false;
            }
        }
        self.woken = true;
        self.deferred_since = None;
        true
    }
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues the exit of `token`'s child.
    fn push_exit(&self, token: u64, status: i32) {
        let wake = {
            let mut queue = self.lock();
            queue.exits.push((token, status));
            queue.should_wake(true, 0)
        };
        if wake {
            self.wake();
        }
    }

    /// Ends one job of this loop that pushed nothing (a cancelled spawn):
    /// if it was the last in flight, what the others queued unwoken is
    /// woken for now.
    fn job_ended(&self) {
        let wake = {
            let mut queue = self.lock();
            let in_flight = self.in_flight.fetch_sub(1, Ordering::AcqRel) - 1;
            queue.should_wake(false, in_flight)
        };
        if wake {
            self.wake();
        }
    }

    /// Wakes the loop: called, after the queue's lock is released, by the
    /// push that `should_wake` chose (no syscall runs under that lock,
    /// which the loop's `drain`, the spawner threads and the waiter all
    /// take). A `drain` that took the queue between that push and this
    /// write finds an empty queue when the write wakes it again.
    fn wake(&self) {
        let _ = rustix::io::write(&self.eventfd, &1u64.to_ne_bytes());
    }
}

/// Kills a child nobody will own and reaps it (on a spawner thread, or
/// with the GIL released).
fn discard(child: &SharedChild) {
    let mut child = lock_child(child);
    let _ = child.kill();
    let _ = child.wait();
}

/// A child the waiter watches: whose queue its exit goes to, under which
/// token.
struct Watched {
    shared: Arc<Shared>,
    token: u64,
    child: SharedChild,
}

/// The waiter thread of every `Spawner`: it sleeps in `epoll`, which holds
/// the pidfd of every watched child (one-shot, keyed by a number of its
/// own), and reaps a child when its pidfd becomes readable.
struct Waiter {
    epoll: OwnedFd,
    watched: Mutex<HashMap<u64, Watched>>,
    next: AtomicU64,
    /// The exit ring's fd is in `epoll` (under `RING_KEY`): added by the
    /// first child watched on the ring.
    ring_added: OnceLock<bool>,
}

/// The epoll key of the exit ring's fd (the pidfds' keys count from 0).
const RING_KEY: u64 = u64::MAX;

impl Waiter {
    /// The waiter, its thread started on first use.
    fn get() -> std::io::Result<&'static Waiter> {
        // Per process: a forked child has no waiter thread, and shares the
        // parent's epoll (see `fastspawn::per_process`).
        static WAITER: PerProcess<Result<Waiter, i32>> = PerProcess::new();
        static THREAD: PerProcess<Result<(), i32>> = PerProcess::new();
        let errno = |e: std::io::Error| e.raw_os_error().unwrap_or(libc::EAGAIN);
        let waiter = WAITER
            .get_or_init(|| {
                let epoll =
                    epoll::create(epoll::CreateFlags::CLOEXEC).map_err(|e| errno(e.into()))?;
                Ok(Waiter {
                    epoll,
                    watched: Mutex::new(HashMap::new()),
                    next: AtomicU64::new(0),
                    ring_added: OnceLock::new(),
                })
            })
            .as_ref()
            .map_err(|e| std::io::Error::from_raw_os_error(*e))?;
        THREAD
            .get_or_init(|| {
                std::thread::Builder::new()
                    .name("fastspawn-py-waiter".into())
                    .spawn(move || waiter.run())
                    .map(drop)
                    .map_err(errno)
            })
            .map_err(std::io::Error::from_raw_os_error)?;
        Ok(waiter)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Watched>> {
        self.watched.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Watches `child`; its exit goes to `shared`'s queue with `token`.
    /// With `ring` (the child was spawned without a pidfd, on a spawner
    /// thread, which outlives its request), a waitid request on the exit
    /// ring; else, or if the ring refuses, its pidfd (made now if the
    /// clone did not) in the epoll. A child without a pidfd (Linux < 5.3)
    /// and not on the ring is not watched: its `Process` waits on a thread
    /// of its own. If the epoll refuses the pidfd (`max_user_watches`
    /// reached), or a ring child gets no pidfd, a thread of its own polls
    /// the child every millisecond instead.
    fn watch(
        &self,
        shared: &Arc<Shared>,
        token: u64,
        child: &SharedChild,
        ring: Option<&ExitRing>,
    ) {
        let key = self.next.fetch_add(1, Ordering::Relaxed);
        let watched = Watched {
            shared: Arc::clone(shared),
            token,
            child: Arc::clone(child),
        };
        if let Some(ring) = ring {
            if self.add_ring(ring) {
                // In the map before the ring can report it.
                self.lock().insert(key, watched);
                if ring.watch(&lock_child(child), key).is_ok() {
                    return;
                }
                let Some(watched) = self.lock().remove(&key) else {
                    return;
                };
                self.watch_pidfd(key, watched, true);
                return;
            }
        }
        self.watch_pidfd(key, watched, ring.is_some());
    }

    /// Puts the exit ring's fd in the epoll, once; false if it cannot be.
    fn add_ring(&self, ring: &ExitRing) -> bool {
        *self.ring_added.get_or_init(|| {
            epoll::add(
                &self.epoll,
                ring.fd(),
                epoll::EventData::new_u64(RING_KEY),
                epoll::EventFlags::IN,
            )
            .is_ok()
        })
    }

    /// [`watch`](Self::watch) by the child's pidfd; `must`: the `Process`
    /// expects an exit from the waiter even without a pidfd (a ring child).
    fn watch_pidfd(&self, key: u64, watched: Watched, must: bool) {
        // The pidfd stays open while the child lives (`watched` holds a
        // reference): the epoll call needs no lock of the child, which the
        // waiter takes to reap it.
        let pidfd = lock_child(&watched.child).pidfd().map(|fd| fd.as_raw_fd());
        let Some(pidfd) = pidfd else {
            if must {
                poll_on_thread(watched);
            }
            return;
        };
        let child = Arc::clone(&watched.child);
        // In the map before the epoll can report it.
        self.lock().insert(key, watched);
        let added = epoll::add(
            &self.epoll,
            crate::sys::borrow_pidfd(pidfd),
            epoll::EventData::new_u64(key),
            epoll::EventFlags::IN | epoll::EventFlags::ONESHOT,
        );
        drop(child);
        if added.is_err() {
            if let Some(watched) = self.lock().remove(&key) {
                poll_on_thread(watched);
            }
        }
    }

    fn run(&self) {
        // It lives as long as the process: it may submit to the exit ring.
        ExitRing::mark_thread_long_lived();
        let mut events = Vec::with_capacity(64);
        loop {
            events.clear();
            match epoll::wait(
                &self.epoll,
                rustix::buffer::spare_capacity(&mut events),
                None,
            ) {
                Ok(_) => {}
                Err(rustix::io::Errno::INTR) => continue,
                Err(_) => return,
            }
            for event in &events {
                match event.data.u64() {
                    RING_KEY => {
                        if let Some(ring) = ExitRing::made() {
                            ring.drain(|key, notice| self.reap_ring(ring, key, notice));
                        }
                    }
                    key => self.reap(key),
                }
            }
        }
    }

    /// Reaps the child of `key`, whose request on the exit ring completed,
    /// and queues its status: the child's `try_wait` decides (255 << 8
    /// when other code reaped it). Still running (its request ended
    /// without its exit): watched again. Refused: watched by its pidfd.
    fn reap_ring(&self, ring: &ExitRing, key: u64, notice: Notice) {
        let Some(watched) = self.lock().remove(&key) else {
            return;
        };
        if let Notice::Refused(_) = notice {
            self.watch_pidfd(key, watched, true);
            return;
        }
        let status = match lock_child(&watched.child).try_wait() {
            Ok(Some(status)) => Some(status.into_raw()),
            Ok(None) => None,
            Err(_) => Some(255 << 8),
        };
        match status {
            Some(status) => watched.shared.push_exit(watched.token, status),
            None => {
                let child = Arc::clone(&watched.child);
                self.lock().insert(key, watched);
                if ring.watch(&lock_child(&child), key).is_err() {
                    if let Some(watched) = self.lock().remove(&key) {
                        self.watch_pidfd(key, watched, true);
                    }
                }
            }
        }
    }

    /// Reaps the child of `key`, whose pidfd was reported readable, and
    /// queues its status (255 << 8 when other code reaped it, as asyncio
    /// reports then).
    fn reap(&self, key: u64) {
        // Out of the map at once (one lock of it); put back in the rare
        // case that the child has not exited after all.
        let Some(watched) = self.lock().remove(&key) else {
            return;
        };
        let (status, pidfd) = {
            let mut locked = lock_child(&watched.child);
            let pidfd = locked.pidfd().map(|fd| fd.as_raw_fd());
            match locked.try_wait() {
                Ok(Some(status)) => (Some(status.into_raw()), pidfd),
                Ok(None) => (None, pidfd),
                Err(_) => (Some(255 << 8), None),
            }
        };
        // The epoll call without the child's lock (its pidfd stays open
        // while `watched` holds the child).
        let Some(status) = status else {
            // Not an exit after all: armed again.
            if let Some(pidfd) = pidfd {
                self.lock().insert(key, watched);
                let _ = epoll::modify(
                    &self.epoll,
                    crate::sys::borrow_pidfd(pidfd),
                    epoll::EventData::new_u64(key),
                    epoll::EventFlags::IN | epoll::EventFlags::ONESHOT,
                );
            }
            return;
        };
        // Left in the epoll, disarmed (one-shot): the pidfd's close takes
        // it out (the kernel removes a file's entries when its last
        // reference goes), on the spawner thread that drops the child
        // (`bury`), so the waiter makes no `epoll_ctl` per exit.
        watched.shared.push_exit(watched.token, status);
    }
}

/// Polls `watched`'s child every millisecond on a thread of its own and
/// queues its exit (when neither the epoll nor the ring can watch it); with
/// no thread either, the child is killed and reaped now.
fn poll_on_thread(watched: Watched) {
    let Watched {
        shared,
        token,
        child,
    } = watched;
    let (queue, polled) = (Arc::clone(&shared), Arc::clone(&child));
    let polling = move || {
        let status = loop {
            match lock_child(&polled).try_wait() {
                Ok(Some(status)) => break status.into_raw(),
                Ok(None) => std::thread::sleep(std::time::Duration::from_millis(1)),
                Err(_) => break 255 << 8,
            }
        };
        queue.push_exit(token, status);
    };
    if std::thread::Builder::new().spawn(polling).is_err() {
        let mut locked = lock_child(&child);
        let _ = locked.kill();
        let status = locked.wait().map_or(255 << 8, |s| s.into_raw());
        drop(locked);
        shared.push_exit(token, status);
    }
}

/// Whether `fastspawn.asyncio` watches its children's exits on the core's
/// exit ring (io_uring's waitid) instead of pidfds, where the ring is
/// available (see [`set_exit_ring`]).
static USE_RING: AtomicBool = AtomicBool::new(true);

/// Turns the exit ring on or off for `fastspawn.asyncio`'s spawns to come
/// (children already watched keep their way) and returns the previous
/// setting. On by default; the ring is used only where the core has one
/// (`fastspawn::exit_ring`: Linux 6.7+, not `FASTSPAWN_IO_URING=0`, not
/// while `SIGCHLD` is ignored). For the benchmarks and tests.
#[pyfunction]
pub fn set_exit_ring(on: bool) -> bool {
    USE_RING.swap(on, Ordering::Relaxed)
}

/// Makes the spawner threads' linger on the exit ring wait with a waitid
/// linked to an `IORING_OP_LINK_TIMEOUT` (`true`) instead of one waitid
/// whose wait `io_uring_enter` bounds (`false`, the default), and returns
/// the previous setting (`ExitRing::set_linked_timeout`). For the
/// benchmarks, which compare the two (docs/perf/python.md, Session 16).
#[pyfunction]
pub fn set_ring_linked_timeout(on: bool) -> bool {
    ExitRing::set_linked_timeout(on)
}

/// Whether the next spawn of `fastspawn.asyncio` would be watched on the
/// exit ring (the switch above, and the core's ring for a spawn now).
#[pyfunction]
pub fn exit_ring_in_use() -> bool {
    USE_RING.load(Ordering::Relaxed) && ExitRing::for_spawn().is_some()
}

/// How long (µs) a running child's spawn may wait for the loop's next
/// wake-up (see `Queue::should_wake`; a push, of any spawn or exit of the
/// loop, past it wakes the loop); 0, the default: not at all.
static DEFER_SPAWN_WAKE_US: AtomicU32 = AtomicU32::new(0);

/// Sets how long (µs, 0: not at all, the default) a spawner thread may
/// leave the loop unwoken for a running child's spawn while another spawn
/// job of that loop is in flight (the loop then learns of it at its next
/// wake-up: any exit, a failed or lingered spawn, the last job in flight,
/// or a push once such a spawn has waited that long); returns the
/// previous setting. A benchmark's switch (`bench/`'s `PKG:defer` names),
/// measured in docs/perf/python.md, Session 12.
#[pyfunction]
pub fn set_defer_spawn_wake(us: u32) -> u32 {
    DEFER_SPAWN_WAKE_US.swap(us, Ordering::Relaxed)
}

/// Ends a spawn job that did not push its spawn (cancelled, or dropped
/// without running): see `Shared::job_ended`.
struct JobEnd(Option<Arc<Shared>>);

impl Drop for JobEnd {
    fn drop(&mut self) {
        if let Some(shared) = self.0.take() {
            shared.job_ended();
        }
    }
}

/// The spawn jobs' counts and the children buried for them (see [`bury`]),
/// per process: a forked child has none of its parent's jobs, which would
/// never end there (see `fastspawn::per_process`).
#[derive(Default)]
struct Books {
    /// Spawn requests handed to the pool whose job has not started yet.
    queued: AtomicUsize,
    /// Spawn requests handed to the pool whose job has not returned yet
    /// (its child, for a cancelled spawn, not yet killed and reaped). For
    /// the tests: a check that no child is left is only meaningful once
    /// this is 0.
    unfinished: AtomicUsize,
    /// Children freed by the loop's thread, for the next spawn job to end
    /// to drop (see [`bury`]).
    graveyard: Mutex<Vec<SharedChild>>,
}

static BOOKS: PerProcess<Books> = PerProcess::new();

fn books() -> &'static Books {
    BOOKS.get_or_init(Books::default)
}

/// One in [`Books::unfinished`], moved into a spawn job: dropped when the job
/// returns, by any path, or is dropped without running.
struct Unfinished;

impl Unfinished {
    fn new() -> Unfinished {
        books().unfinished.fetch_add(1, Ordering::Relaxed);
        Unfinished
    }
}

impl Drop for Unfinished {
    /// Ends the job; it takes the children buried meanwhile (see [`bury`])
    /// and drops them on its thread.
    fn drop(&mut self) {
        let buried = {
            let mut graves = lock_graveyard();
            books().unfinished.fetch_sub(1, Ordering::Release);
            std::mem::take(&mut *graves)
        };
        drop(buried);
    }
}

fn lock_graveyard() -> std::sync::MutexGuard<'static, Vec<SharedChild>> {
    books().graveyard.lock().unwrap_or_else(|e| e.into_inner())
}

/// Drops `child` (the last reference to a `Spawner`'s reaped or abandoned
/// child, from its `Process`'s free on the loop's thread) on a spawner
/// thread: the next job to end drops it, so its pidfd's `close` is not the
/// loop's work. Dropped here when no job is in flight (none would end to
/// take it). A job's end takes the graveyard under the lock it decrements
/// [`Books::unfinished`] under, so a child buried while that count is not 0 is
/// always taken by a job that has not ended yet: no fd waits for a later
/// spawn, and none is left once [`unfinished_spawns`] reads 0.
pub(crate) fn bury(child: SharedChild) {
    let mut graves = lock_graveyard();
    if books().unfinished.load(Ordering::Acquire) > 0 {
        graves.push(child);
        return;
    }
    drop(graves);
    drop(child);
}

/// How many spawns handed to the spawner threads have not finished (their
/// job, the discard of a cancelled spawn's child included). For the tests.
#[pyfunction]
pub fn unfinished_spawns() -> usize {
    books().unfinished.load(Ordering::Acquire)
}

/// How long a spawner thread gives a child it just started to exit before
/// it queues the spawn, in µs (0: not at all); see [`linger`].
static LINGER_US: AtomicU32 = AtomicU32::new(DEFAULT_LINGER_US);

/// The no-op child of the benchmarks exits 60-100 µs after its `execve`.
const DEFAULT_LINGER_US: u32 = 200;

/// Sets the spawner threads' linger (µs, 0: none, at most 100,000) and
/// returns the previous one. For the benchmarks, which compare both.
#[pyfunction]
pub fn set_spawn_linger(us: u32) -> u32 {
    LINGER_US.swap(us.min(100_000), Ordering::Relaxed)
}

/// The spawner threads of `fastspawn.asyncio`: a pool of its own with two
/// threads per core (see [`spawner_threads`]), unless a benchmark chose
/// another with [`set_spawner_threads`]. Per process, as the pools are.
static POOL: PerProcess<Mutex<Option<(usize, &'static fastspawn::Pool)>>> = PerProcess::new();

/// The pools made so far, by thread count (0: the core's global pool, one
/// thread per core). A pool's threads live as long as the process; a
/// forked child makes its own (see `fastspawn::per_process`).
static POOLS: PerProcess<Mutex<Vec<(usize, &'static fastspawn::Pool)>>> = PerProcess::new();

fn lock_pool() -> std::sync::MutexGuard<'static, Option<(usize, &'static fastspawn::Pool)>> {
    POOL.get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// Two spawner threads per core. A spawner thread is blocked in the clone
/// until its child has called `execve` (`CLONE_VFORK`): with one thread
/// per core, queued spawns wait while every thread is blocked, though a
/// CPU could be starting their children; a second thread per core clones
/// meanwhile, and the finished spawns and exits reach the loop in larger
/// batches (fewer wake-ups of the loop and the waiter per spawn).
fn spawner_threads() -> usize {
    2 * std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The pool of `threads` threads, made on first use (0: the core's).
fn pool_of(threads: usize) -> std::io::Result<&'static fastspawn::Pool> {
    if threads == 0 {
        return fastspawn::Pool::try_global();
    }
    let mut pools = POOLS
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some((_, pool)) = pools.iter().find(|(n, _)| *n == threads) {
        return Ok(pool);
    }
    let pool: &'static fastspawn::Pool = Box::leak(Box::new(fastspawn::Pool::new(threads)?));
    pools.push((threads, pool));
    Ok(pool)
}

/// `fastspawn.asyncio`'s pool and its thread count: made on first use, or
/// the core's global pool if its threads cannot be started; the error of
/// the latter if neither can (a thread limit), and the next call tries
/// again.
fn current_pool() -> std::io::Result<(usize, &'static fastspawn::Pool)> {
    let mut current = lock_pool();
    if let Some(pool) = *current {
        return Ok(pool);
    }
    let threads = spawner_threads();
    let pool = match pool_of(threads) {
        Ok(pool) => (threads, pool),
        Err(_) => (0, fastspawn::Pool::try_global()?),
    };
    *current = Some(pool);
    Ok(pool)
}

/// The pool of [`current_pool`] once a [`Spawner`] exists: `Spawner::new`
/// made it (or failed), and it is never unset in its process. (A spawner
/// of the parent's used in a forked child finds none: made now, or the
/// core's global pool.)
fn pool_in_use() -> &'static fastspawn::Pool {
    let in_use = *lock_pool();
    match in_use {
        Some((_, pool)) => pool,
        None => current_pool().map_or_else(|_| fastspawn::Pool::global(), |(_, pool)| pool),
    }
}

/// Makes `fastspawn.asyncio` hand its spawns to a pool of `threads`
/// spawner threads (0: the core's global pool, one per core; at most 256)
/// and returns the previous count. For the benchmarks: every count used
/// keeps its threads until the process exits.
#[pyfunction]
pub fn set_spawner_threads(threads: usize) -> PyResult<usize> {
    let threads = threads.min(256);
    let previous = current_pool()
        .map_err(|e| pool_error("fastspawn.asyncio", e))?
        .0;
    let pool = pool_of(threads).map_err(|e| pool_error("fastspawn.asyncio", e))?;
    *lock_pool() = Some((threads, pool));
    Ok(previous)
}

/// Sets the watch window of `fastspawn.asyncio`'s spawner threads
/// ([`fastspawn::Pool::set_spin`]) in µs (0: no watching, at most
/// 100,000) and returns the previous one. For the benchmarks.
#[pyfunction]
pub fn set_pool_spin(us: u32) -> PyResult<u64> {
    let pool = current_pool()
        .map_err(|e| pool_error("fastspawn.asyncio", e))?
        .1;
    let previous = pool.spin().as_micros();
    pool.set_spin(std::time::Duration::from_micros(u64::from(us.min(100_000))));
    Ok(u64::try_from(previous).unwrap_or(u64::MAX))
}

/// Gives `child`, just started, up to the linger to exit (a `poll` on its
/// pidfd, or with `ring` a waitid linked to a timeout on the spawner
/// thread's own ring, `ExitRing::wait_timeout`) and reaps it if it does:
/// its spawn and its exit then reach the loop in one `drain` (one wake-up
/// of the loop, one callback, and its `Process` is made already exited),
/// and the waiter never hears of it. A child still running after the
/// linger is queued then, so its `pid` is at most that late. Not done
/// while other spawns wait for a spawner thread, so a burst is not slowed
/// down by it.
fn linger(child: &SharedChild, ring: bool) -> Option<i32> {
    let us = LINGER_US.load(Ordering::Relaxed);
    if us == 0 || books().queued.load(Ordering::Relaxed) != 0 {
        return None;
    }
    let mut locked = lock_child(child);
    let bound = std::time::Duration::from_micros(u64::from(us));
    let exited = match ring.then(|| ExitRing::wait_timeout(&locked, bound)) {
        Some(Ok(exited)) => exited,
        // No ring after all (refused, or this thread's ring not made):
        // the pidfd, made now.
        _ => {
            let pidfd = locked.pidfd()?;
            let mut fds = [rustix::event::PollFd::from_borrowed_fd(
                pidfd,
                rustix::event::PollFlags::IN,
            )];
            let timeout = rustix::event::Timespec {
                tv_sec: 0,
                tv_nsec: i64::from(us) * 1_000, // us <= 100,000
            };
            matches!(rustix::event::poll(&mut fds, Some(&timeout)), Ok(n) if n > 0)
        }
    };
    if !exited {
        return None;
    }
    match locked.try_wait() {
        Ok(Some(status)) => Some(status.into_raw()),
        _ => None,
    }
}

/// The spawner of one event loop.
#[pyclass(module = "fastspawn._fastspawn", frozen)]
pub struct Spawner {
    shared: Arc<Shared>,
    waiter: &'static Waiter,
    /// Requests built but not handed to the pool yet (see `flush`).
    pending: Mutex<Vec<Pending>>,
    /// The last token given out (tokens start at 1).
    tokens: AtomicU64,
    /// Set by `edge_triggered`: the loop watches the eventfd edge-triggered,
    /// so `drain` does not read it.
    edge: AtomicBool,
    /// Spawns whose future the `deliver` callback resolves, not the drain
    /// (see `drain`): token, future, `Process`, child.
    deferred: Mutex<Vec<Deferred>>,
}

/// A spawn left to `deliver`: its token, future, `Process` and child.
type Deferred = (u64, Py<PyAny>, Py<PyAny>, SharedChild);

struct Pending {
    token: u64,
    cmd: Cmd,
    names: Names,
}

/// A queued request: built by the loop (`submit`), or the arguments of the
/// common call, whose command the spawner thread builds (`submit_args`:
/// the loop's thread then makes no allocation for the command, and frees
/// none of the spawner threads' memory).
enum Cmd {
    Built(Box<fastspawn::Command>),
    Args(Vec<std::ffi::OsString>),
}

#[pymethods]
impl Spawner {
    #[new]
    fn new() -> PyResult<Spawner> {
        // The spawns' pool, started now: a thread limit fails here, as
        // an error, rather than in a callback of the loop.
        current_pool().map_err(|e| pool_error("fastspawn.asyncio", e))?;
        let eventfd = rustix::event::eventfd(0, EventfdFlags::CLOEXEC | EventfdFlags::NONBLOCK)
            .map_err(std::io::Error::from)?;
        Ok(Spawner {
            shared: Arc::new(Shared {
                eventfd,
                queue: Mutex::new(Queue::default()),
                in_flight: AtomicUsize::new(0),
            }),
            waiter: Waiter::get()?,
            pending: Mutex::new(Vec::new()),
            tokens: AtomicU64::new(0),
            edge: AtomicBool::new(false),
            deferred: Mutex::new(Vec::new()),
        })
    }

    /// The eventfd that becomes readable when spawns have finished or
    /// children have exited.
    fn fileno(&self) -> i32 {
        self.shared.eventfd.as_raw_fd()
    }

    /// Tells the spawner that its loop watches the eventfd edge-triggered
    /// (`EPOLLET`): every write of it (one per push on an empty queue)
    /// then reports it once, so `drain` need not read it (the counter is
    /// never reset: 2**64 - 2 writes would fill it). Else (the default)
    /// `drain` reads it, or a level-triggered loop would call `drain`
    /// again at once.
    fn edge_triggered(&self, on: bool) {
        self.edge.store(on, Ordering::Relaxed);
    }

    /// Queues a spawn and returns its token (its result comes back through
    /// `drain` under it), negated when the caller must schedule a `flush`
    /// (none is scheduled yet): the request waits for the next `flush`.
    /// The fds the request names are duplicated now, so the caller may
    /// close its own as soon as this returns.
    fn submit(&self, request: Request<'_>) -> PyResult<i64> {
        let Built { cmd, names, .. } = build(request)?;
        Ok(self.queue(Cmd::Built(Box::new(cmd)), names))
    }

    /// Hands every queued request to the pool's spawner threads. Apart
    /// from `submit*` so the caller can run it in a callback of its own
    /// (`call_soon`): the hand-over's futex wake (5-6 µs p50) is then not
    /// part of the spawn call's hold of the loop, and one `flush` hands
    /// over every spawn the loop queued in one iteration.
    fn flush(&self) {
        let pending = std::mem::take(&mut *self.lock_pending());
        let pool = pool_in_use();
        for Pending { token, cmd, names } in pending {
            self.hand_over(pool, token, cmd, names);
        }
    }

    /// `submit` for the common call, `create_subprocess_exec(program,
    /// *args)` without keywords: `args` (a tuple, program first) checked,
    /// encoded (as `os.fsencode` does) and audited by [`simple_argv`]; the
    /// spawner thread makes the command (what `subprocess.Popen` does by
    /// default, [`simple_command_of`]), the same as `Popen(args)`'s one
    /// native call. Queues nothing and returns 0 when
    /// an argument is not a `str` or `bytes`, cannot be encoded or holds a
    /// NUL byte: the caller then takes the general path, which raises what
    /// CPython raises. Else the token, as `submit` returns it.
    fn submit_args(&self, args: &Bound<'_, PyTuple>) -> PyResult<i64> {
        let Some((argv, names)) = simple_argv(args.as_any())? else {
            return Ok(0);
        };
        Ok(self.queue(Cmd::Args(argv), names))
    }

    /// `submit` for `create_subprocess_exec`/`_shell` with the streams
    /// among `None`, `PIPE`, `DEVNULL` and (stderr) `STDOUT`, and `cwd`,
    /// `env` and `shell` (see [`std_command`]): the pipes made, the command
    /// built and audited here, in one call. Returns the token, as `submit`
    /// returns it, and the parent's ends of stdin, stdout and stderr (-1
    /// where not piped), which the caller owns from then on; `None`
    /// (nothing made, queued or audited) when an argument needs the
    /// general path.
    #[pyo3(signature = (args, *, stdin=None, stdout=None, stderr=None, cwd=None, env=None, shell=None))]
    #[allow(clippy::too_many_arguments)]
    fn submit_std<'py>(
        &self,
        args: &Bound<'py, PyAny>,
        stdin: Option<Bound<'py, PyAny>>,
        stdout: Option<Bound<'py, PyAny>>,
        stderr: Option<Bound<'py, PyAny>>,
        cwd: Option<Bound<'py, PyAny>>,
        env: Option<Bound<'py, PyAny>>,
        shell: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Option<(i64, RawFd, RawFd, RawFd)>> {
        let streams = [stdin, stdout, stderr];
        let Some((cmd, names, ends)) = std_command(args, &streams, cwd, env, shell)? else {
            return Ok(None);
        };
        let token = self.queue(Cmd::Built(Box::new(cmd)), names);
        let (stdin, stdout, stderr) = ends.into_raw();
        Ok(Some((token, stdin, stdout, stderr)))
    }

    /// Gives up on the spawn of `token`: a child it started is killed and
    /// reaped, now if it has started, else by the spawner thread when it has.
    fn cancel(&self, py: Python<'_>, token: u64) {
        {
            let mut pending = self.lock_pending();
            if let Some(at) = pending.iter().position(|p| p.token == token) {
                pending.remove(at); // never handed over: nothing started
                return;
            }
        }
        let deferred = {
            let mut deferred = self.deferred.lock().unwrap_or_else(|e| e.into_inner());
            deferred
                .iter()
                .position(|d| d.0 == token)
                .map(|at| deferred.remove(at))
        };
        if let Some((_, _, _, child)) = deferred {
            // Made by the drain, its future not resolved yet (`deliver`).
            py.detach(|| discard(&child));
            return;
        }
        let mut queue = self.shared.lock();
        match queue.done.iter().position(|f| f.token == token) {
            Some(at) => {
                let finished = queue.done.remove(at);
                drop(queue);
                if let Ok(child) = finished.result {
                    py.detach(|| discard(&child));
                }
            }
            None => {
                queue.cancelled.insert(token);
            }
        }
    }

    /// Hands out every spawn finished and every child reaped since the
    /// last call (its only syscall is the eventfd's read, none when the
    /// loop watches it edge-triggered), with no Python frame per event.
    /// `pending` maps the token of each spawn still
    /// awaited to its future, `processes` the token of each child watched
    /// for its exit to a weak reference to its `Process`; `process` is the
    /// `Process` class, `loop` the loop. A finished spawn's future (popped
    /// from `pending`) gets its `Process`, made here: `_child`, `pid`,
    /// `_loop`, `_waiters` (empty) and `returncode` set, the latter to None
    /// unless its exit came in the same batch (a short child the spawner
    /// thread reaped while lingering, or one the waiter reaped before this
    /// call); a running child is registered in `processes` (or, without a
    /// pidfd, `_watch_on_thread()` is called). A failed spawn's
    /// future gets its exception. A spawn nobody awaits any more (no future,
    /// or a done one) has its child killed and reaped. An exit sets the
    /// `returncode` of its `Process` (255 for a child reaped elsewhere, as
    /// in asyncio) and resolves the futures in its `_waiters`. Every event
    /// is handled even if one raises; the first error is raised then.
    ///
    /// `deliver` (on asyncio's own loops, not in debug mode): a `Handle`
    /// of the loop that runs [`Spawner::deliver`]. When the batch holds one
    /// spawn and no other spawn job of the loop is in flight (spawns one at
    /// a time), its `Process` is made here but its future is resolved by
    /// that callback, appended to the loop's ready queue: the future's
    /// `set_result` (the task's wake-up through the loop's Python
    /// `call_soon`) is then not part of this callback, so neither callback
    /// is as long as the two together (the time one spawn holds the loop is
    /// its longest callback). A spawn cancelled in between is discarded by
    /// `deliver` or by `cancel`, whichever comes first.
    /// Resolves the futures of the spawns `drain` left to this callback
    /// (a child whose future was cancelled meanwhile is killed and reaped).
    fn deliver(&self, py: Python<'_>) -> PyResult<()> {
        let items = std::mem::take(&mut *self.deferred.lock().unwrap_or_else(|e| e.into_inner()));
        let mut first_error = None;
        for (_, future, p, child) in items {
            match settle(future.bind(py), intern!(py, "set_result"), p) {
                Ok(true) => {}
                Ok(false) => py.detach(|| discard(&child)),
                Err(err) => {
                    first_error.get_or_insert(err);
                }
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    #[pyo3(signature = (pending, processes, process, event_loop, deliver=None))]
    fn drain(
        &self,
        py: Python<'_>,
        pending: &Bound<'_, PyDict>,
        processes: &Bound<'_, PyDict>,
        process: &Bound<'_, PyType>,
        event_loop: &Bound<'_, PyAny>,
        deliver: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        // Read before the take: a push after the take writes it again.
        if !self.edge.load(Ordering::Relaxed) {
            let _ = rustix::io::read(&self.shared.eventfd, &mut [0u8; 8]);
        }
        let (done, exits) = {
            let mut queue = self.shared.lock();
            queue.woken = false;
            queue.deferred_since = None;
            (
                std::mem::take(&mut queue.done),
                std::mem::take(&mut queue.exits),
            )
        };
        let mut first_error = None;
        let mut keep = |result: PyResult<()>| {
            if let Err(err) = result {
                first_error.get_or_insert(err);
            }
        };
        // One spawn alone while no other job of this loop is in flight
        // (one at a time): its future is resolved by a callback of its own
        // (`deliver`), so this callback and that one are each shorter.
        let defer = match deliver {
            Some(handle)
                if done.len() == 1
                    && self.shared.in_flight.load(Ordering::Acquire) == 0
                    && !event_loop.getattr(intern!(py, "_debug"))?.is_truthy()? =>
            {
                Some((self, handle, event_loop.getattr(intern!(py, "_ready"))?))
            }
            _ => None,
        };
        let making = Making {
            class: process,
            event_loop,
            defer,
        };
        // The exits of children spawned in this batch go with their spawn.
        let mut exits: Vec<Option<(u64, i32)>> = exits.into_iter().map(Some).collect();
        for finished in done {
            let exit = exits
                .iter_mut()
                .find(|e| e.is_some_and(|(t, _)| t == finished.token))
                .and_then(Option::take)
                .map(|(_, status)| status);
            keep(resolve_spawn(
                py, finished, exit, pending, processes, &making,
            ));
        }
        for (token, status) in exits.into_iter().flatten() {
            keep(resolve_exit(py, token, status, processes));
        }
        first_error.map_or(Ok(()), Err)
    }
}

/// `os.waitstatus_to_exitcode` of a status `waitid(WEXITED)` gave.
fn exit_code(status: i32) -> i32 {
    if libc::WIFSIGNALED(status) {
        -libc::WTERMSIG(status)
    } else {
        libc::WEXITSTATUS(status)
    }
}

/// Pops `key` from `dict`: its value, or None.
fn pop<'py>(
    dict: &Bound<'py, PyDict>,
    key: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let value = dict.get_item(key)?;
    if value.is_some() {
        dict.del_item(key)?;
    }
    Ok(value)
}

/// How `drain` makes a finished spawn's `Process` and hands it out.
struct Making<'a, 'py> {
    /// The `Process` class.
    class: &'a Bound<'py, PyType>,
    event_loop: &'a Bound<'py, PyAny>,
    /// The spawner, its `deliver` handle and the loop's ready queue, when
    /// the future is left to `deliver` (see `Spawner::drain`).
    defer: Option<(&'a Spawner, &'a Bound<'py, PyAny>, Bound<'py, PyAny>)>,
}

/// `drain`'s work for one finished spawn (`exit`: its raw wait status if
/// its exit came in the same batch).
fn resolve_spawn(
    py: Python<'_>,
    finished: Finished,
    exit: Option<i32>,
    pending: &Bound<'_, PyDict>,
    processes: &Bound<'_, PyDict>,
    making: &Making<'_, '_>,
) -> PyResult<()> {
    let (process, event_loop) = (making.class, making.event_loop);
    let Finished {
        token,
        result,
        names,
        ring,
    } = finished;
    let key = token.into_pyobject(py)?;
    let Some(future) = pop(pending, key.as_any())? else {
        // The awaiting task gave up (and took its future out): nobody
        // will own this child.
        if let Ok(child) = result {
            py.detach(|| discard(&child));
        }
        return Ok(());
    };
    let child = match result {
        Ok(child) => child,
        Err(err) => {
            let err = names.error(py, err).into_value(py);
            settle(&future, intern!(py, "set_exception"), err)?;
            return Ok(());
        }
    };
    let shared = Child::shared(Arc::clone(&child));
    // The pidfd made by the clone, not one made now.
    let (pid, watched) = (shared.id(), ring || shared.made_pidfd().is_some());
    let p = process.call0()?;
    p.setattr(intern!(py, "_child"), Py::new(py, shared)?)?;
    p.setattr(intern!(py, "pid"), pid)?;
    p.setattr(intern!(py, "_loop"), event_loop)?;
    p.setattr(intern!(py, "_waiters"), PyTuple::empty(py))?;
    let code = exit.map(exit_code);
    p.setattr(intern!(py, "returncode"), code)?;
    if let Some((spawner, handle, ready)) = &making.defer {
        let first = {
            let mut deferred = spawner.deferred.lock().unwrap_or_else(|e| e.into_inner());
            deferred.push((
                token,
                future.unbind(),
                p.clone().unbind(),
                Arc::clone(&child),
            ));
            deferred.len() == 1
        };
        if first {
            ready.call_method1(intern!(py, "append"), (*handle,))?;
        }
    } else if !settle(&future, intern!(py, "set_result"), p.clone())? {
        // Resolved before it is watched: a future cancelled but not yet
        // taken out of `pending` (its task has not run since) refuses the
        // result.
        drop(p);
        py.detach(|| discard(&child));
        return Ok(());
    }
    match (exit, watched) {
        // It exited already; the waiter never saw it.
        (Some(_), _) => {}
        // The waiter watches it (its pidfd, or the exit ring).
        (None, true) => processes.set_item(key, PyWeakrefReference::new(&p)?)?,
        // No pidfds (Linux < 5.3): a thread waits.
        (None, false) => {
            p.call_method0(intern!(py, "_watch_on_thread"))?;
        }
    }
    Ok(())
}

/// Calls `future.<method>(value)` (`set_result` or `set_exception`)
/// without asking `done()` first: `Ok(false)` when the future was
/// cancelled and refused it (no error here); any other error is returned.
fn settle<'py>(
    future: &Bound<'py, PyAny>,
    method: &Bound<'py, pyo3::types::PyString>,
    value: impl IntoPyObject<'py>,
) -> PyResult<bool> {
    match future.call_method1(method, (value,)) {
        Ok(_) => Ok(true),
        Err(err) => {
            if future
                .call_method0(intern!(future.py(), "cancelled"))?
                .is_truthy()?
            {
                Ok(false)
            } else {
                Err(err)
            }
        }
    }
}

/// `drain`'s work for one exit: the `Process` of `token`, if it is still
/// alive, gets its `returncode` (unless it has one: `poll` saw the exit
/// first), and the futures of its `wait` calls get it.
fn resolve_exit(
    py: Python<'_>,
    token: u64,
    status: i32,
    processes: &Bound<'_, PyDict>,
) -> PyResult<()> {
    let key = token.into_pyobject(py)?;
    let Some(reference) = pop(processes, key.as_any())? else {
        return Ok(());
    };
    let p = reference.call0()?;
    if p.is_none() || !p.getattr(intern!(py, "returncode"))?.is_none() {
        return Ok(());
    }
    let code = exit_code(status);
    p.setattr(intern!(py, "returncode"), code)?;
    let waiters = p.getattr(intern!(py, "_waiters"))?;
    if !waiters.is_truthy()? {
        return Ok(());
    }
    p.setattr(intern!(py, "_waiters"), PyTuple::empty(py))?;
    for waiter in waiters.try_iter()? {
        let waiter = waiter?;
        if !waiter.call_method0(intern!(py, "done"))?.is_truthy()? {
            waiter.call_method1(intern!(py, "set_result"), (code,))?;
        }
    }
    Ok(())
}

impl Spawner {
    fn lock_pending(&self) -> std::sync::MutexGuard<'_, Vec<Pending>> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `cmd` for the next `flush` under a new token: the token,
    /// negated when the queue was empty (the caller schedules the flush).
    /// When nothing is queued and every spawner thread has a job already
    /// (as many unfinished jobs as threads), `cmd` is handed over at once
    /// instead: no thread sleeps that the hand-over would wake (a thread
    /// ending its job takes the next), so no `flush` callback is needed.
    fn queue(&self, cmd: Cmd, names: Names) -> i64 {
        // Tokens stay below 2**63: one per spawn.
        let token = self.tokens.fetch_add(1, Ordering::Relaxed) + 1;
        let signed = i64::try_from(token).unwrap_or(i64::MAX);
        let mut pending = self.lock_pending();
        if pending.is_empty() {
            let pool = pool_in_use();
            if books().unfinished.load(Ordering::Acquire) >= pool.threads() {
                drop(pending);
                self.hand_over(pool, token, cmd, names);
                return signed;
            }
        }
        pending.push(Pending { token, cmd, names });
        if pending.len() == 1 { -signed } else { signed }
    }

    /// Hands `cmd` to a spawner thread; its result comes back from
    /// `drain` with `token`.
    fn hand_over(&self, pool: &fastspawn::Pool, token: u64, cmd: Cmd, names: Names) {
        let shared = Arc::clone(&self.shared);
        let waiter = self.waiter;
        // Every spawn runs on a spawner thread, so a pdeathsig child gets
        // its signal when the process exits, not when some thread does.
        books().queued.fetch_add(1, Ordering::Relaxed);
        let unfinished = Unfinished::new();
        shared.in_flight.fetch_add(1, Ordering::AcqRel);
        let ending = JobEnd(Some(Arc::clone(&shared)));
        pool.run(move || {
            let _unfinished = unfinished;
            let mut ending = ending;
            books().queued.fetch_sub(1, Ordering::Relaxed);
            let mut cmd = match cmd {
                Cmd::Built(cmd) => *cmd,
                Cmd::Args(argv) => simple_command_of(&argv),
            };
            // With the exit ring (this thread outlives its requests: a
            // pool thread), no pidfd: the waiter learns of the exit from
            // the ring. Else the clone makes the pidfd (`CLONE_PIDFD`): it
            // goes into the epoll at once, and a pidfd made later would
            // cost a `pidfd_open` and a `waitid` check on this thread.
            let ring = if USE_RING.load(Ordering::Relaxed) {
                ExitRing::for_spawn()
            } else {
                None
            };
            cmd.pidfd_at_spawn(ring.is_none());
            let result = cmd.spawn().map(|child| Arc::new(Mutex::new(child)));
            drop(cmd);
            let exited = result
                .as_ref()
                .ok()
                .and_then(|child| linger(child, ring.is_some()));
            // A running child is watched once its spawn is queued: the
            // waiter queues its exit later, so after its spawn.
            let watch = match (&result, exited) {
                (Ok(child), None) => Some(Arc::clone(child)),
                _ => None,
            };
            let wake = {
                let mut queue = shared.lock();
                if queue.cancelled.remove(&token) {
                    drop(queue);
                    if let Ok(child) = result {
                        discard(&child);
                    }
                    return; // `ending` ends the job
                }
                ending.0 = None;
                let in_flight = shared.in_flight.fetch_sub(1, Ordering::AcqRel) - 1;
                // A running child's spawn can wait for the next wake-up.
                let urgent = watch.is_none();
                queue.done.push(Finished {
                    token,
                    result,
                    names,
                    ring: ring.is_some(),
                });
                // A child reaped while lingering: its exit after its spawn,
                // in the same drain.
                if let Some(status) = exited {
                    queue.exits.push((token, status));
                }
                queue.should_wake(urgent, in_flight)
            };
            // The eventfd's write and the epoll's add after the queue's
            // lock is released (see `Shared::wake`).
            if wake {
                shared.wake();
            }
            if let Some(child) = watch {
                waiter.watch(&shared, token, &child, ring);
            }
        });
    }
}
