//! The lone child (an opt-in, `setLone(true)`): a child spawned while no other child of this addon runs
//! (process-wide, every JS thread counted) and no other lone child is
//! waited for is spawned by one thread of its own (`fastspawn-lone`)
//! instead of a spawner thread of the pool: it clones the child without a
//! pidfd, posts the spawn (with the exit, for a child that exits within
//! the linger), then blocks in `waitid(P_PID, pid, WEXITED | WNOWAIT)`,
//! reaps the child and posts the exit. One thread is woken per child (the
//! lone thread, by the hand-over; the exit wakes it where it sleeps), as on
//! the pool's linger path, where the first form of this path (session 14:
//! the spawn on the pool, the wait handed to this thread) woke three. The
//! clone's pidfd cost a sequential spawn + wait 20-28 µs
//! (`bench/pidfd-cost.js`).
//!
//! One slot, taken atomically on the JS thread by `spawn()` (`try_take`),
//! given back if the spawn fails and once the child exited, before the
//! exit is posted. A spawn that finds it taken, or other children running,
//! goes to the pool and the pidfd path, as before.
//!
//! `WNOWAIT` leaves the child a zombie: its pid stays its own until
//! `registry::reap` reaps it under the registry's lock, the lock every
//! signal (`registry::kill`) is sent under. The child's `Command` keeps
//! `pidfd(true)` with `pidfd_at_spawn(false)`, so a signal goes through a
//! pidfd that `Child::send_signal` makes then (`pidfd_open`, then a
//! `waitid(WNOWAIT)` check that the pid is still our unreaped child): no
//! signal reaches a recycled pid, even when other code of the process
//! reaped the child (`waitpid(-1)`).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::Duration;

use crate::events::{Events, Kind};

/// Whether the lone path is used by default (`setLone` changes it): off
/// until a quiet run decides (docs/perf/node.md, "Session 15"); with it
/// on, `init()` starts the lone thread.
const DEFAULT_ON: bool = false;
/// Whether the lone path is used.
static ON: AtomicBool = AtomicBool::new(DEFAULT_ON);
/// The linger of a lone child polls `waitid(WNOHANG)` on the spawner
/// thread (yielding between polls) instead of sleeping until the lone
/// thread saw the exit. For the A/Bs.
static POLL: AtomicBool = AtomicBool::new(false);

/// Sets whether a lone child's linger polls; returns the previous setting.
pub fn set_poll(on: bool) -> bool {
    POLL.swap(on, Ordering::Relaxed)
}
/// Taken while a lone child is spawned or waited for.
static SLOT: AtomicBool = AtomicBool::new(false);
/// Children spawned on the lone path, for the tests.
pub static SPAWNED_COUNT: AtomicU64 = AtomicU64::new(0);

/// Sets whether the lone path is used; returns the previous setting.
/// Turning it on starts the lone thread first (once), on the caller's
/// thread, so that a spawner thread never has to, and a thread that
/// cannot start is the caller's error.
pub fn set_on(on: bool) -> std::io::Result<bool> {
    if on {
        start()?;
    }
    Ok(ON.swap(on, Ordering::Relaxed))
}

/// At `init()`: starts the lone thread if the path is on (by default), so
/// that a thread that cannot start is `init()`'s error.
pub fn init() -> std::io::Result<()> {
    if ON.load(Ordering::Relaxed) {
        start()?;
    }
    Ok(())
}

/// How many children took the lone path.
pub fn spawned() -> u64 {
    SPAWNED_COUNT.load(Ordering::Relaxed)
}

/// On the JS thread (`spawn()`): takes the slot for the child about to be
/// spawned, if it is the only child of the addon (`running`: the addon's children counted so far,
/// this one included) and no lone child holds it.
pub fn try_take(running: usize) -> bool {
    ON.load(Ordering::Relaxed)
        && STARTED.load(Ordering::Acquire)
        && running == 1
        && SLOT
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
}

/// Gives the slot back (the spawn failed, or the lone child exited).
pub fn give_back() {
    SLOT.store(false, Ordering::Release);
}

/// Whether the slot is taken (for the tests).
pub fn taken() -> bool {
    SLOT.load(Ordering::Acquire)
}

/// A spawn job of the lone thread (`lib.rs`'s, with the slot taken).
type Work = Box<dyn FnOnce() + Send + 'static>;

struct Thread {
    jobs: Mutex<Mailbox>,
    cv: Condvar,
}

#[derive(Default)]
struct Mailbox {
    jobs: std::collections::VecDeque<Work>,
    /// The lone thread sleeps on `cv` (a hand-over then wakes it).
    sleeping: bool,
    /// When the latest job (and its child's wait) ended.
    last_done: Option<std::time::Instant>,
    /// Whether the latest hand-over came within the watch window of
    /// `last_done`: the thread then watches for the next one before it
    /// sleeps, as the pool's threads do.
    soon_after: bool,
}

/// `Thread::jobs`' length, read without the lock by the watching thread.
static QUEUED: AtomicUsize = AtomicUsize::new(0);

/// The lone thread's mailbox, made by `start`.
static THREAD: OnceLock<Thread> = OnceLock::new();
/// Whether the lone thread runs (`start` succeeded once).
static STARTED: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// On the lone thread: the lone child its job left running (`settle`
    /// posted its spawn), to be waited for once the job returned.
    static RUNNING_CHILD: std::cell::Cell<Option<(u32, i32)>> = const { std::cell::Cell::new(None) };
}

/// Starts the lone thread unless it runs already.
fn start() -> std::io::Result<()> {
    static STARTING: Mutex<()> = Mutex::new(());
    let _one_at_a_time = STARTING.lock().unwrap_or_else(|e| e.into_inner());
    if STARTED.load(Ordering::Acquire) {
        return Ok(());
    }
    let t: &'static Thread = THREAD.get_or_init(|| Thread {
        jobs: Mutex::new(Mailbox::default()),
        cv: Condvar::new(),
    });
    std::thread::Builder::new()
        .name("fastspawn-lone".into())
        .stack_size(256 * 1024)
        .spawn(move || run(t))?;
    STARTED.store(true, Ordering::Release);
    Ok(())
}

/// The slot, held by a spawn job of the lone thread: given back when
/// dropped (the spawn failed, or the job panicked) unless [`keep`]
/// hands it to the child (given back once it exited).
///
/// [`keep`]: Slot::keep
pub struct Slot(());

impl Slot {
    /// The slot `try_take` took for this job.
    pub fn held() -> Slot {
        Slot(())
    }

    /// The child runs: its exit gives the slot back.
    pub fn keep(self) {
        std::mem::forget(self);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        give_back();
    }
}

/// On the JS thread, with the slot taken (`try_take`): hands spawn job
/// `work` to the lone thread, which runs it (the clone, the linger, the
/// spawn's post) and then waits for the child's exit.
pub fn submit(work: Work) {
    let Some(t) = THREAD.get() else {
        unreachable!("the slot is taken only once the lone thread runs");
    };
    let wake = {
        let mut mailbox = t.jobs.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(done) = mailbox.last_done {
            mailbox.soon_after = done.elapsed() < window();
        }
        mailbox.jobs.push_back(work);
        QUEUED.store(mailbox.jobs.len(), Ordering::Release);
        std::mem::replace(&mut mailbox.sleeping, false)
    };
    if wake {
        t.cv.notify_one();
    }
}

/// On the lone thread, for lone child `id` (pid `pid`, in the registry as
/// running): posts its spawn, to be followed by its exit once the lone
/// thread, after the job, saw it in `waitid`. No linger: a bounded wait
/// for the exit needs a pidfd or a timer thread, whose wake-ups cost more
/// than the second wake-up of JS that the linger saves (docs/perf/node.md,
/// "Session 15"). With `setLonePoll(true)` and `linger`, it polls
/// `waitid(WNOHANG | WNOWAIT)` for at most that long first and, if the
/// child exited, reaps it and posts its spawn and exit together.
pub fn settle(id: u32, pid: i32, events: &Arc<Events>, linger: Option<Duration>) {
    if let Some(within) = linger
        && POLL.load(Ordering::Relaxed)
        && exited_within(pid, within)
    {
        crate::trace::stamp(id, crate::trace::Step::WaiterWoke);
        // Given back before the exit is posted: the spawn JS makes on
        // seeing it may take the lone path again.
        give_back();
        events.queue(Kind::Spawned, id, pid, 0);
        if !crate::registry::reap(id, false) {
            // Exited but not reapable (cannot happen): deliver the spawn
            // and let the waiter poll it.
            events.flush();
            crate::waiter::watch(id, None);
        }
        return;
    }
    events.post(Kind::Spawned, id, pid, 0);
    RUNNING_CHILD.set(Some((id, pid)));
}

/// The watch window: the pool's (`setPoolSpin`). The pool was started
/// by the `spawn()` that handed this thread its child; none: no watching.
fn window() -> Duration {
    fastspawn::Pool::try_global().map_or(Duration::ZERO, |pool| pool.spin())
}

fn run(t: &'static Thread) {
    let mut mailbox = t.jobs.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        let Some(work) = mailbox.jobs.pop_front() else {
            mailbox.sleeping = true;
            mailbox = t.cv.wait(mailbox).unwrap_or_else(|e| e.into_inner());
            continue;
        };
        QUEUED.store(mailbox.jobs.len(), Ordering::Release);
        drop(mailbox);
        // A job that panics takes only itself down (its `Pending` reports
        // the failure, its `Slot` is given back), as on the pool.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
        if let Some((id, pid)) = RUNNING_CHILD.take() {
            wait_exited(pid);
            crate::trace::stamp(id, crate::trace::Step::WaiterWoke);
            give_back();
            // Posts the exit.
            if !crate::registry::reap(id, false) {
                // Not reapable although waitid said it exited (cannot
                // happen): let the waiter poll it.
                crate::waiter::watch(id, None);
            }
        }
        mailbox = t.jobs.lock().unwrap_or_else(|e| e.into_inner());
        mailbox.last_done = Some(std::time::Instant::now());
        if mailbox.jobs.is_empty() && mailbox.soon_after {
            // JS spawns again soon after an exit in a sequential loop:
            // watch for its hand-over for a while, so that it wakes no
            // thread (as the pool's threads do).
            drop(mailbox);
            watch();
            mailbox = t.jobs.lock().unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Returns when a job is handed over or after the watch window.
fn watch() {
    let start = std::time::Instant::now();
    let window = window();
    loop {
        for _ in 0..64 {
            if QUEUED.load(Ordering::Acquire) > 0 {
                return;
            }
            std::hint::spin_loop();
        }
        if start.elapsed() >= window {
            return;
        }
    }
}

/// Whether child `pid` exits within `within`, polled with
/// `waitid(WNOHANG | WNOWAIT)` (it stays unreaped), yielding between polls.
fn exited_within(pid: i32, within: Duration) -> bool {
    let Some(pid) = rustix::process::Pid::from_raw(pid) else {
        return false;
    };
    let options = rustix::process::WaitIdOptions::EXITED
        | rustix::process::WaitIdOptions::NOWAIT
        | rustix::process::WaitIdOptions::NOHANG;
    let start = std::time::Instant::now();
    loop {
        match rustix::process::waitid(rustix::process::WaitId::Pid(pid), options) {
            Ok(Some(_)) => return true,
            Ok(None) | Err(rustix::io::Errno::INTR) => {}
            // Reaped by other code: the lone thread's wait ends at once.
            Err(_) => return false,
        }
        if start.elapsed() >= within {
            return false;
        }
        std::thread::yield_now();
    }
}

/// Blocks until child `pid` exited (left a zombie), or it cannot be waited
/// for (reaped by other code: `ECHILD`).
fn wait_exited(pid: i32) {
    let Some(pid) = rustix::process::Pid::from_raw(pid) else {
        return;
    };
    let options = rustix::process::WaitIdOptions::EXITED | rustix::process::WaitIdOptions::NOWAIT;
    loop {
        match rustix::process::waitid(rustix::process::WaitId::Pid(pid), options) {
            Err(rustix::io::Errno::INTR) => continue,
            _ => return,
        }
    }
}
