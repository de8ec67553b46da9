//! Every child the addon started, from the `spawn` call on the JS thread
//! until its JS side has seen how it ended.
//!
//! An entry is `Pending` until a spawner thread settles it (`Running` or
//! `Failed`); the waiter thread moves a `Running` child to `Exited` after
//! reaping it. The entry of a finished child is removed when its last
//! message is handed to JS (`forget_finished`), so an id JS asks about is
//! either known here or already final on the JS side.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Condvar, LazyLock, Mutex, MutexGuard};

use fastspawn::Child;

use crate::events::{Events, Kind};

pub enum State {
    Pending,
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
}

static REGISTRY: LazyLock<Registry> = LazyLock::new(Registry::default);
static NEXT_ID: AtomicU32 = AtomicU32::new(1);

/// Whether to record which thread and engine started each child.
pub static DEBUG: AtomicBool = AtomicBool::new(false);
/// id → (spawning thread's name, engine), while `DEBUG` is on.
static DEBUG_INFO: LazyLock<Mutex<HashMap<u32, (String, String)>>> =
    LazyLock::new(Default::default);

fn lock() -> MutexGuard<'static, HashMap<u32, Entry>> {
    REGISTRY.entries.lock().unwrap_or_else(|e| e.into_inner())
}

/// Registers a new pending child and returns its id (never 0).
pub fn add(events: Arc<Events>) -> u32 {
    let mut id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    if id == 0 {
        id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    }
    lock().insert(
        id,
        Entry {
            state: State::Pending,
            events,
        },
    );
    id
}

/// A spawner thread's result for `id`: records it, wakes whoever waits for
/// it, posts it to the child's JS thread, and has the waiter watch it.
pub fn settle(id: u32, result: fastspawn::Result<Child>) {
    if DEBUG.load(Ordering::Relaxed) {
        let thread = std::thread::current().name().unwrap_or("").to_string();
        let engine = match &result {
            Ok(child) => format!("{:?}", child.engine()),
            Err(_) => String::new(),
        };
        DEBUG_INFO
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, (thread, engine));
    }
    let mut entries = lock();
    let Some(entry) = entries.get_mut(&id) else {
        return;
    };
    let events = Arc::clone(&entry.events);
    match result {
        Ok(child) => {
            let pid = child.id() as i32;
            entry.state = State::Running { pid, child };
            // The spawn message goes out before the waiter can see the
            // exit, so JS always gets them in that order. The pidfd is
            // watched while the registry is locked: it stays open until
            // the waiter reaps the child, which needs this lock.
            events.post(Kind::Spawned, id, pid, 0);
            if let State::Running { child, .. } = &entry.state {
                crate::waiter::watch(id, child.pidfd());
            }
            drop(entries);
            REGISTRY.settled.notify_all();
        }
        Err(err) => {
            let errno = err.raw_os_error().unwrap_or(libc::EINVAL);
            entry.state = State::Failed { errno };
            drop(entries);
            REGISTRY.settled.notify_all();
            events.post(Kind::Failed, id, errno, 0);
        }
    }
}

/// Reaps `id` if it has exited; posts its exit. Returns whether it did
/// (or the child is gone), so the caller stops watching it.
pub fn reap(id: u32) -> bool {
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
    // waiter's epoll set.
    entry.state = State::Exited { pid };
    let events = Arc::clone(&entry.events);
    drop(entries);
    events.post(Kind::Exited, id, code, signal);
    true
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

/// Blocks until `id` is settled: its pid (> 0), `-errno` if the spawn
/// failed, or 0 if the id is unknown.
pub fn wait_settled(id: u32) -> i32 {
    let mut entries = lock();
    loop {
        match entries.get(&id).map(|e| &e.state) {
            None => return 0,
            Some(State::Pending) => {
                entries = REGISTRY
                    .settled
                    .wait(entries)
                    .unwrap_or_else(|e| e.into_inner());
            }
            Some(State::Running { pid, .. }) | Some(State::Exited { pid }) => return *pid,
            Some(State::Failed { errno }) => return -errno,
        }
    }
}

/// Sends `signal` to `id` through its pidfd: 0, or `-errno` (`-ESRCH` once
/// it was reaped or never started). Waits for a pending spawn to settle.
pub fn kill(id: u32, signal: i32) -> i32 {
    if wait_settled(id) <= 0 {
        return -libc::ESRCH;
    }
    let mut entries = lock();
    match entries.get_mut(&id).map(|e| &mut e.state) {
        Some(State::Running { child, .. }) => match child.send_signal(signal) {
            Ok(()) => 0,
            Err(err) => -err.raw_os_error().unwrap_or(libc::EINVAL),
        },
        _ => -libc::ESRCH,
    }
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
