//! Spawns for `fastspawn.asyncio`: the event loop hands a request to
//! fastspawn's spawner threads and goes on; finished spawns come back
//! through one eventfd per loop, which the loop watches with `add_reader`.
//!
//! The loop's cost per spawn is building the command (argv, env, dup of the
//! fds it names) and a push on the pool's queue; it never runs a clone or an
//! exec. A spawner thread pushes the result on this `Spawner`'s queue and
//! writes the eventfd only when the queue was empty, so a burst of spawns
//! wakes the loop once; the loop then takes every finished spawn in one
//! `drain`.

use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::PyList;
use rustix::event::EventfdFlags;
use std::os::fd::{AsRawFd, OwnedFd};

use crate::child::Child;
use crate::spawn::{Built, Names, Request, build};

struct Finished {
    token: u64,
    result: Result<fastspawn::Child, fastspawn::Error>,
    names: Names,
}

struct Shared {
    eventfd: OwnedFd,
    done: Mutex<Vec<Finished>>,
}

/// The spawner of one event loop.
#[pyclass(module = "fastspawn._fastspawn", frozen)]
pub struct Spawner {
    shared: Arc<Shared>,
}

#[pymethods]
impl Spawner {
    #[new]
    fn new() -> PyResult<Spawner> {
        let eventfd = rustix::event::eventfd(0, EventfdFlags::CLOEXEC | EventfdFlags::NONBLOCK)
            .map_err(std::io::Error::from)?;
        Ok(Spawner {
            shared: Arc::new(Shared {
                eventfd,
                done: Mutex::new(Vec::new()),
            }),
        })
    }

    /// The eventfd that becomes readable when spawns have finished.
    fn fileno(&self) -> i32 {
        self.shared.eventfd.as_raw_fd()
    }

    /// Queues a spawn; its result comes back from `drain` with `token`.
    /// The fds the request names are duplicated now, so the caller may
    /// close its own as soon as this returns.
    fn submit(&self, token: u64, request: Request<'_>) -> PyResult<()> {
        let Built { mut cmd, names, .. } = build(request)?;
        let shared = Arc::clone(&self.shared);
        // Every spawn runs on a spawner thread, so a pdeathsig child gets
        // its signal when the process exits, not when some thread does.
        fastspawn::Pool::global().run(move || {
            let result = cmd.spawn();
            drop(cmd);
            let mut done = shared.done.lock().unwrap_or_else(|e| e.into_inner());
            let wake = done.is_empty();
            done.push(Finished {
                token,
                result,
                names,
            });
            drop(done);
            if wake {
                let _ = rustix::io::write(&shared.eventfd, &1u64.to_ne_bytes());
            }
        });
        Ok(())
    }

    /// Every spawn finished since the last call, as `(token, ok, value)`:
    /// a `Child` when `ok`, else the exception to raise.
    fn drain<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut counter = [0u8; 8];
        // Reset the eventfd before taking the queue: a result pushed after
        // the take writes it again (see the module's documentation).
        let _ = rustix::io::read(&self.shared.eventfd, &mut counter);
        let finished =
            std::mem::take(&mut *self.shared.done.lock().unwrap_or_else(|e| e.into_inner()));
        let out = PyList::empty(py);
        for Finished {
            token,
            result,
            names,
        } in finished
        {
            match result {
                Ok(child) => out.append((token, true, Child::new(child)))?,
                Err(err) => out.append((token, false, names.error(py, err).into_value(py)))?,
            }
        }
        Ok(out)
    }
}
