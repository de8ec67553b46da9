//! Background threads the library starts on first need (the reaper of
//! dropped async children, the cleaner of contained children's cgroups).
//! A start that fails (a thread limit, no memory for a stack) is not
//! remembered as done: the next caller that needs the thread tries again,
//! and the work queued meanwhile waits in the thread's inbox for it. A
//! child forked after a thread started has no such thread: its first need
//! starts its own (see `per_process`).

use crate::per_process::PerProcess;

/// One background thread's start.
pub(crate) struct Start {
    started: PerProcess<()>,
}

impl Start {
    pub(crate) const fn new() -> Start {
        Start {
            started: PerProcess::new(),
        }
    }

    /// Starts the thread (`name`, `stack` bytes, running `run`) unless it
    /// runs in this process; whether it runs. After the first success, a
    /// few atomic loads.
    pub(crate) fn ensure(&self, name: &str, stack: usize, run: fn()) -> bool {
        self.started
            .get_or_try_init(|| {
                std::thread::Builder::new()
                    .name(name.into())
                    .stack_size(stack)
                    .spawn(run)
                    .map(drop)
            })
            .is_ok()
    }
}
