//! Background threads the library starts on first need (the reaper of
//! dropped async children, the cleaner of contained children's cgroups).
//! A start that fails (a thread limit, no memory for a stack) is not
//! remembered as done: the next caller that needs the thread tries again,
//! and the work queued meanwhile waits in the thread's inbox for it.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// One background thread's start.
pub(crate) struct Start {
    started: AtomicBool,
    starting: Mutex<()>,
}

impl Start {
    pub(crate) const fn new() -> Start {
        Start {
            started: AtomicBool::new(false),
            starting: Mutex::new(()),
        }
    }

    /// Starts the thread (`name`, `stack` bytes, running `run`) unless it
    /// runs; whether it runs. After the first success, one atomic load.
    pub(crate) fn ensure(&self, name: &str, stack: usize, run: fn()) -> bool {
        if self.started.load(Ordering::Acquire) {
            return true;
        }
        let _starting = self.starting.lock().unwrap_or_else(|e| e.into_inner());
        if self.started.load(Ordering::Acquire) {
            return true;
        }
        let started = std::thread::Builder::new()
            .name(name.into())
            .stack_size(stack)
            .spawn(run)
            .is_ok();
        self.started.store(started, Ordering::Release);
        started
    }
}
