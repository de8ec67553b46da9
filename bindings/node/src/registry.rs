//! Every child the addon started, from the `spawn` call on the JS thread
//! until its JS side has seen how it ended.
//!
//! A child has no entry while its spawn is pending; the spawner thread
//! makes it when it settles the spawn (`Running` or `Failed`), and the
//! waiter thread moves a `Running` child to `Exited` after reaping it. The entry of a finished child is removed when its last
//! message is handed to JS (`forget_finished`), so an id JS asks about is
//! either known here or already final on the JS side.
//!
//! A contained child (`contain`) whose tree outlives it keeps its `Child`
//! after the exit, in [`TREES`], for `kill_tree`, until a thread of its
//! own (`fastspawn-tree`) has seen the tree empty through
//! `Child::wait_tree_empty` and posted `TreeEmpty`; dropping the `Child`
//! then removes its cgroup. A tree already empty at the exit posts
//! `TreeEmpty` at once, with no thread.

use std::collections::HashMap;
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, LazyLock, Mutex, MutexGuard};
use std::time::Duration;

use fastspawn::Child;

use crate::events::{Events, Kind};

pub enum State {
    Running { pid: i32, child: Child },
    Exited { pid: i32 },
    Failed { errno: i32 },
}

pub struct Entry {
    pub state: State,
    pub events: Arc<Events>,
}

#[derive(Default)]
pub struct Registry {
    entries: Mutex<HashMap<u32, Entry>>,
    settled: Condvar,
    /// Threads in `wait_settled` (changed with `entries` locked), so that a
    /// settle wakes them only when there are any: a notify is a system
    /// call, and nearly every spawn has nobody waiting.
    waiting: AtomicUsize,
}

static REGISTRY: LazyLock<Registry> = LazyLock::new(Registry::default);
static NEXT_ID: AtomicU32 = AtomicU32::new(1);
/// Contained children reaped while their tree still ran, by id. Locked
/// after `REGISTRY.entries` when both are.
static TREES: LazyLock<Mutex<HashMap<u32, Arc<Child>>>> = LazyLock::new(Default::default);

fn trees() -> MutexGuard<'static, HashMap<u32, Arc<Child>>> {
    TREES.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether to record which thread and engine start each child.
pub static DEBUG: AtomicBool = AtomicBool::new(false);
/// id → (spawning thread's name, engine), while `DEBUG` is on.
static DEBUG_INFO: LazyLock<Mutex<HashMap<u32, (String, String)>>> =
    LazyLock::new(Default::default);

fn lock() -> MutexGuard<'static, HashMap<u32, Entry>> {
    REGISTRY.entries.lock().unwrap_or_else(|e| e.into_inner())
}

/// A new child id (never 0). The JS thread takes no lock for it: the entry
/// is made by the spawner thread when the spawn is settled, and until then
/// an id without an entry is pending.
pub fn next_id() -> u32 {
    loop {
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        if id != 0 {
            return id;
        }
    }
}

/// How a spawn attempt ended.
pub enum Outcome {
    Spawned(Child),
    /// Spawned without a pidfd on the lone path (`lone.rs`), holding its
    /// slot.
    Lone(Child),
    Failed(i32),
}

/// Settles `id` with the failure "the spawner thread gave up" if it is
/// dropped unsettled: a spawn that panicked still reaches JS.
pub struct Pending {
    id: u32,
    events: Option<Arc<Events>>,
}

impl Pending {
    pub fn new(id: u32, events: Arc<Events>) -> Pending {
        Pending {
            id,
            events: Some(events),
        }
    }

    /// A spawner thread's result: records it (the JS thread may be
    /// waiting for it), posts it to the child's JS thread, and has the
    /// waiter watch a started child. With `linger`, a started child is
    /// first given that long to exit: if it does, this thread reaps it and
    /// its spawn and exit reach JS in one batch (one wake-up of the JS
    /// thread instead of two); if not, its spawn is posted then.
    pub fn settle(mut self, outcome: Outcome, linger: Option<Linger>) {
        if let Some(events) = self.events.take() {
            settle(self.id, events, outcome, linger);
        }
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Some(events) = self.events.take() {
            settle(self.id, events, Outcome::Failed(libc::EIO), None);
        }
    }
}

/// How a spawner thread waits for a child it just started to exit
/// (`Pending::settle`).
#[derive(Clone, Copy, Debug)]
pub struct Linger {
    /// At most this long.
    pub within: Duration,
    /// Polling the pidfd without sleeping, instead of sleeping in `ppoll`.
    pub busy: bool,
}

fn settle(id: u32, events: Arc<Events>, outcome: Outcome, linger: Option<Linger>) {
    if DEBUG.load(Ordering::Relaxed) {
        let thread = std::thread::current().name().unwrap_or("").to_string();
        let engine = match &outcome {
            Outcome::Spawned(child) | Outcome::Lone(child) => format!("{:?}", child.engine()),
            Outcome::Failed(_) => String::new(),
        };
        DEBUG_INFO
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, (thread, engine));
    }
    match outcome {
        Outcome::Spawned(child) => {
            let pid = child.id() as i32;
            let pidfd = child.pidfd().map(|fd| fd.as_raw_fd());
            let state = State::Running { pid, child };
            insert_and_wake(
                id,
                Entry {
                    state,
                    events: Arc::clone(&events),
                },
            );
            // The spawn message goes out before the exit's, so JS always
            // gets them in that order. No system call is made with the
            // registry locked: a thread preempted while holding it would
            // stall the JS thread. The entry is in the registry already, so
            // `pid` (and `kill()`) do not wait for the linger.
            if let (Some(linger), Some(fd)) = (linger, pidfd)
                && crate::sys::pidfd_exited_within(fd, linger.within, linger.busy)
            {
                crate::trace::stamp(id, crate::trace::Step::WaiterWoke);
                events.queue(Kind::Spawned, id, pid, 0);
                // Posts the exit, waking JS for both records.
                if reap(id, false) {
                    return;
                }
                // Readable but not reapable (cannot happen for an exited
                // child): deliver the spawn and let the waiter watch it.
                events.flush();
            } else {
                events.post(Kind::Spawned, id, pid, 0);
            }
            crate::outputs::watch(id);
            crate::waiter::watch(id, pidfd);
        }
        Outcome::Lone(child) => {
            let pid = child.id() as i32;
            insert_and_wake(
                id,
                Entry {
                    state: State::Running { pid, child },
                    events: Arc::clone(&events),
                },
            );
            crate::lone::SPAWNED_COUNT.fetch_add(1, Ordering::Relaxed);
            // As on the pidfd path, a child that exits within the linger
            // has its spawn and exit posted together (one wake-up of JS);
            // the wait for its exit is the lone thread's.
            crate::lone::settle(id, pid, &events, linger.map(|l| l.within));
        }
        Outcome::Failed(errno) => {
            crate::events::RUNNING.fetch_sub(1, Ordering::Relaxed);
            insert_and_wake(
                id,
                Entry {
                    state: State::Failed { errno },
                    events: Arc::clone(&events),
                },
            );
            events.post(Kind::Failed, id, errno, 0);
        }
    }
}

/// Records a settled child and wakes the threads waiting for a settle, if
/// any (a waiter registers with the lock held, so none is missed).
fn insert_and_wake(id: u32, entry: Entry) {
    let mut entries = lock();
    entries.insert(id, entry);
    let wake = REGISTRY.waiting.load(Ordering::Relaxed) > 0;
    drop(entries);
    if wake {
        REGISTRY.settled.notify_all();
    }
}

/// Reaps `id` if it has exited; posts its exit. Returns whether it did
/// (or the child is gone), so the caller stops watching it. `watched`: its
/// pidfd is in the waiter's epoll set (the caller is the waiter thread),
/// and is taken out of it before it is closed.
pub fn reap(id: u32, watched: bool) -> bool {
    let mut entries = lock();
    let Some(entry) = entries.get_mut(&id) else {
        return true;
    };
    let State::Running { pid, child } = &mut entry.state else {
        return true;
    };
    let pid = *pid;
    let (code, signal) = match child.try_wait() {
        Ok(None) => return false,
        Ok(Some(status)) => (status.code().unwrap_or(-1), status.signal().unwrap_or(0)),
        // Reaped by someone else (a waitpid(-1) elsewhere in the process):
        // how it ended is lost.
        Err(_) => (-1, 0),
    };
    // Dropping the Child closes its pidfd, which also removes it from the
    // waiter's epoll set: done after the exit is posted, off the path to JS
    // and with the registry unlocked.
    let State::Running { child, .. } = std::mem::replace(&mut entry.state, State::Exited { pid })
    else {
        unreachable!("matched as Running above")
    };
    let events = Arc::clone(&entry.events);
    let (tree, done) = if child.containment().is_some() {
        let child = Arc::new(child);
        // In TREES before the entry is unlocked, so kill_tree never finds
        // the tree in neither place.
        trees().insert(id, Arc::clone(&child));
        (Some(child), None)
    } else {
        (None, Some(child))
    };
    drop(entries);
    // What its `pipeAs: 'readable'` outputs hold goes out before the exit.
    crate::outputs::at_exit(id);
    // JS may see the exit before the pidfd below is closed.
    let after = crate::AfterWork::begin();
    crate::trace::stamp(id, crate::trace::Step::ExitPosted);
    crate::events::RUNNING.fetch_sub(1, Ordering::Relaxed);
    events.post(Kind::Exited, id, code, signal);
    // Out of the epoll set before the close: a close does not remove it
    // while another process holds the file (the vfork child of a
    // concurrent spawn has a copy of the fd table until its execve), and
    // the exited pidfd, readable, would wake the waiter again and again
    // until then (~9 wake-ups per request with 30 requests in flight).
    if watched
        && let Some(child) = &done
        && let Some(fd) = child.pidfd()
    {
        crate::waiter::unwatch(fd.as_raw_fd());
    }
    drop(done);
    drop(after);
    if let Some(child) = tree {
        watch_tree(id, child, events);
    }
    true
}

/// After a contained child's exit: posts `TreeEmpty` once its tree is
/// empty, at once if it already is, else from a thread that waits for it.
fn watch_tree(id: u32, child: Arc<Child>, events: Arc<Events>) {
    if let Some(fd) = child.pidfd() {
        crate::waiter::unwatch(fd.as_raw_fd());
    }
    if child.tree_pids().is_ok_and(|pids| pids.is_empty()) {
        tree_over(id, child, &events);
        return;
    }
    let waiting = Arc::clone(&child);
    let thread_events = Arc::clone(&events);
    let spawned = std::thread::Builder::new()
        .name("fastspawn-tree".into())
        .stack_size(128 * 1024)
        .spawn(move || {
            // An error (the cgroup vanished) ends the wait as well.
            let _ = waiting.wait_tree_empty();
            tree_over(id, waiting, &thread_events);
        });
    if spawned.is_err() {
        // No thread to wait with: end the tree rather than track it forever.
        let _ = child.kill_tree(libc::SIGKILL);
        let _ = child.wait_tree_empty();
        tree_over(id, child, &events);
    }
}

/// The tree of `id` is empty: forgets it (the last reference to its
/// `Child`, whose drop removes the cgroup) and tells JS.
fn tree_over(id: u32, child: Arc<Child>, events: &Events) {
    let kept = trees().remove(&id);
    drop(kept);
    drop(child);
    events.post(Kind::TreeEmpty, id, 0, 0);
}

/// Drops the entries whose final message (exit or failure) is in `batch`:
/// JS knows everything about them from now on.
pub fn forget_finished(batch: &[i32]) {
    let mut entries = None;
    for record in batch.chunks_exact(4) {
        if record[0] == Kind::Exited as i32 || record[0] == Kind::Failed as i32 {
            entries.get_or_insert_with(lock).remove(&(record[1] as u32));
        }
    }
}

fn settled_result(state: &State) -> i32 {
    match state {
        State::Running { pid, .. } | State::Exited { pid } => *pid,
        State::Failed { errno } => -errno,
    }
}

/// The outcome of `id` if it is settled: its pid (> 0) or `-errno`; 0 while
/// it is pending. Never waits.
pub fn try_settled(id: u32) -> i32 {
    lock().get(&id).map_or(0, |e| settled_result(&e.state))
}

/// Blocks until `id` is settled: its pid (> 0) or `-errno`. Only for ids
/// whose end JS has not seen (an id settles exactly once, and its entry
/// stays until JS got its last message).
pub fn wait_settled(id: u32) -> i32 {
    let mut entries = lock();
    loop {
        if let Some(entry) = entries.get(&id) {
            return settled_result(&entry.state);
        }
        REGISTRY.waiting.fetch_add(1, Ordering::Relaxed);
        entries = REGISTRY
            .settled
            .wait(entries)
            .unwrap_or_else(|e| e.into_inner());
        REGISTRY.waiting.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Sends `signal` to `id` through its pidfd: 0, or `-errno` (`-ESRCH` if
/// it was reaped, never started, or is not settled: the JS side settles a
/// child, waiting if need be, before it signals it).
pub fn kill(id: u32, signal: i32) -> i32 {
    let mut entries = lock();
    match entries.get_mut(&id).map(|e| &mut e.state) {
        Some(State::Running { child, .. }) => match child.send_signal(signal) {
            Ok(()) => 0,
            Err(err) => -err.raw_os_error().unwrap_or(libc::EINVAL),
        },
        _ => -libc::ESRCH,
    }
}

/// Signals the tree of contained child `id`, running or exited: 0, or
/// `-errno` (`-ESRCH` when unknown or its tree is over, `-EINVAL` when it
/// was not contained).
pub fn kill_tree(id: u32, signal: i32) -> i32 {
    let errno = |err: fastspawn::Error| -err.raw_os_error().unwrap_or(libc::EINVAL);
    let entries = lock();
    if let Some(Entry {
        state: State::Running { child, .. },
        ..
    }) = entries.get(&id)
    {
        return child.kill_tree(signal).map_or_else(errno, |()| 0);
    }
    let Some(child) = trees().get(&id).cloned() else {
        return -libc::ESRCH;
    };
    drop(entries);
    child.kill_tree(signal).map_or_else(errno, |()| 0)
}

/// The spawning thread's name and the engine of `id`, when recorded.
pub fn debug_info(id: u32) -> Option<(String, String)> {
    DEBUG_INFO
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&id)
        .cloned()
}

/// How many children the registry holds (pending, running, or finished
/// but not yet seen by JS).
pub fn len() -> usize {
    lock().len()
}
