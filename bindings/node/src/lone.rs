//! The lone child (an opt-in, `setLone(true)`): a child spawned while no other child of this addon runs
//! (process-wide, every JS thread counted) and no other lone child is
//! waited for is cloned without a pidfd, and its exit is learned by one
//! thread of its own (`fastspawn-lone`) blocked in `waitid(P_PID, pid,
//! WEXITED | WNOWAIT)`, not by the waiter's epoll over pidfds. The clone's
//! pidfd cost a sequential spawn + wait 20-28 µs (`bench/pidfd-cost.js`).
//!
//! One slot, taken atomically by the spawner thread before the clone and
//! given back if the spawn fails or once the child exited. A spawn that
//! finds it taken, or other children running, takes the pidfd path.
//!
//! `WNOWAIT` leaves the child a zombie: its pid stays its own until
//! `registry::reap` reaps it under the registry's lock, the lock every
//! signal (`registry::kill`, by pid for such a child) is sent under, so a
//! signal never reaches a recycled pid.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::Duration;

use crate::events::{Events, Kind};

/// Whether the lone path is used: off by default, on by `setLone(true)`
/// (an opt-in for the benchmarks' A/Bs until a quiet run decides: see
/// docs/perf/node.md, "Session 14, second round").
static ON: AtomicBool = AtomicBool::new(false);
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

/// How many children took the lone path.
pub fn spawned() -> u64 {
    SPAWNED_COUNT.load(Ordering::Relaxed)
}

/// Takes the slot for the child about to be spawned, if it is the only
/// child of the addon (`running`: the addon's children counted so far,
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

/// Who posts a lone child's spawn: the spawner thread at the end of its
/// linger, or the lone thread with the exit when the child exits within
/// it (one wake-up of JS for both, as on the pidfd path). Decided under
/// this lock, so the spawn is always queued before the exit.
#[derive(Default)]
struct Done {
    state: Mutex<DoneState>,
    cv: Condvar,
}

#[derive(Default)]
struct DoneState {
    /// The spawner thread posted the spawn.
    spawn_posted: bool,
    /// The lone thread saw the exit first and posts the spawn with it.
    claimed: bool,
    /// The spawner thread sleeps in its linger.
    waiting: bool,
}

struct Job {
    id: u32,
    pid: i32,
    events: Arc<Events>,
    done: Arc<Done>,
}

struct Thread {
    job: Mutex<Option<Job>>,
    cv: Condvar,
}

/// The lone thread's mailbox, made by `start`.
static THREAD: OnceLock<Thread> = OnceLock::new();
/// Whether the lone thread runs (`start` succeeded once).
static STARTED: AtomicBool = AtomicBool::new(false);

/// Starts the lone thread unless it runs already.
fn start() -> std::io::Result<()> {
    static STARTING: Mutex<()> = Mutex::new(());
    let _one_at_a_time = STARTING.lock().unwrap_or_else(|e| e.into_inner());
    if STARTED.load(Ordering::Acquire) {
        return Ok(());
    }
    let t: &'static Thread = THREAD.get_or_init(|| Thread {
        job: Mutex::new(None),
        cv: Condvar::new(),
    });
    std::thread::Builder::new()
        .name("fastspawn-lone".into())
        .stack_size(128 * 1024)
        .spawn(move || run(t))?;
    STARTED.store(true, Ordering::Release);
    Ok(())
}

/// On the spawner thread, for lone child `id` (pid `pid`, in the registry
/// as running): hands it to the lone thread, which reaps it once it exited
/// and posts the exit, and posts its spawn: at once without `linger`, else
/// when the linger ends unless the child exited within it (the lone
/// thread then posts the spawn with the exit).
pub fn settle(id: u32, pid: i32, events: &Arc<Events>, mut linger: Option<Duration>) {
    if let Some(within) = linger
        && POLL.load(Ordering::Relaxed)
    {
        if exited_within(pid, within) {
            give_back();
            crate::trace::stamp(id, crate::trace::Step::WaiterWoke);
            events.queue(Kind::Spawned, id, pid, 0);
            if crate::registry::reap(id, false) {
                return;
            }
            // Not reapable (cannot happen): as below, by the lone thread.
            events.flush();
            let _ = SLOT.compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed);
        }
        linger = None;
    }
    let done = Arc::new(Done::default());
    if linger.is_none() {
        events.post(Kind::Spawned, id, pid, 0);
        done.state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .spawn_posted = true;
    }
    // The slot is taken only once the thread runs (`try_take`).
    let Some(t) = THREAD.get() else {
        unreachable!("a lone child without the lone thread");
    };
    let job = Job {
        id,
        pid,
        events: Arc::clone(events),
        done: Arc::clone(&done),
    };
    let previous = t.job.lock().unwrap_or_else(|e| e.into_inner()).replace(job);
    debug_assert!(previous.is_none(), "one lone child at a time");
    t.cv.notify_one();
    let Some(within) = linger else {
        return;
    };
    let mut state = done.state.lock().unwrap_or_else(|e| e.into_inner());
    state.waiting = true;
    let (mut state, _) = done
        .cv
        .wait_timeout_while(state, within, |s| !s.claimed)
        .unwrap_or_else(|e| e.into_inner());
    state.waiting = false;
    if !state.claimed {
        state.spawn_posted = true;
        events.post(Kind::Spawned, id, pid, 0);
    }
}

fn run(t: &'static Thread) {
    loop {
        let job = {
            let mut slot = t.job.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(job) = slot.take() {
                    break job;
                }
                slot = t.cv.wait(slot).unwrap_or_else(|e| e.into_inner());
            }
        };
        wait_exited(job.pid);
        crate::trace::stamp(job.id, crate::trace::Step::WaiterWoke);
        // Given back before the exit is posted: the spawn JS makes on
        // seeing it may take the lone path again.
        give_back();
        let (claimed, waiting) = {
            let mut state = job.done.state.lock().unwrap_or_else(|e| e.into_inner());
            state.claimed = !state.spawn_posted;
            (state.claimed, state.waiting)
        };
        if claimed {
            job.events.queue(Kind::Spawned, job.id, job.pid, 0);
        }
        // Posts the exit (with the spawn when claimed: one wake-up).
        if !crate::registry::reap(job.id, false) {
            // Not reapable although waitid said it exited (cannot happen):
            // deliver what was queued and let the waiter poll it.
            job.events.flush();
            crate::waiter::watch(job.id, None);
        }
        if claimed && waiting {
            job.done.cv.notify_one();
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
