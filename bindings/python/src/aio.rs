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

use std::collections::HashSet;
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

#[derive(Default)]
struct Queue {
    done: Vec<Finished>,
    /// Tokens whose caller gave up before the spawn finished.
    cancelled: HashSet<u64>,
}

struct Shared {
    eventfd: OwnedFd,
    queue: Mutex<Queue>,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Kills a child nobody will own and reaps it (on a spawner thread, or
/// with the GIL released).
fn discard(mut child: fastspawn::Child) {
    let _ = child.kill();
    let _ = child.wait();
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
                queue: Mutex::new(Queue::default()),
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
            let mut queue = shared.lock();
            if queue.cancelled.remove(&token) {
                drop(queue);
                if let Ok(child) = result {
                    discard(child);
                }
                return;
            }
            let wake = queue.done.is_empty();
            queue.done.push(Finished {
                token,
                result,
                names,
            });
            drop(queue);
            if wake {
                let _ = rustix::io::write(&shared.eventfd, &1u64.to_ne_bytes());
            }
        });
        Ok(())
    }

    /// Gives up on the spawn of `token`: a child it started is killed and
    /// reaped, now if it has started, else by the spawner thread when it has.
    fn cancel(&self, py: Python<'_>, token: u64) {
        let mut queue = self.shared.lock();
        match queue.done.iter().position(|f| f.token == token) {
            Some(at) => {
                let finished = queue.done.remove(at);
                drop(queue);
                if let Ok(child) = finished.result {
                    py.detach(|| discard(child));
                }
            }
            None => {
                queue.cancelled.insert(token);
            }
        }
    }

    /// Every spawn finished since the last call, as `(token, ok, value)`:
    /// a `Child` when `ok`, else the exception to raise.
    fn drain<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut counter = [0u8; 8];
        // Reset the eventfd before taking the queue: a result pushed after
        // the take writes it again (see the module's documentation).
        let _ = rustix::io::read(&self.shared.eventfd, &mut counter);
        let finished = std::mem::take(&mut self.shared.lock().done);
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
