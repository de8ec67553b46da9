//! Spawns for `fastspawn.asyncio`: the event loop hands a request to
//! fastspawn's spawner threads and goes on; finished spawns *and* exited
//! children come back through one epoll fd per loop, the only fd the loop
//! watches (`add_reader`).
//!
//! The loop's cost per spawn is building the command (argv, env, dup of the
//! fds it names) and a push on the pool's queue; it never runs a clone or an
//! exec. A spawner thread adds the new child's pidfd to the `Spawner`'s
//! epoll, pushes the result on its queue and writes its eventfd (also in
//! that epoll) only when the queue was empty, so a burst of spawns wakes
//! the loop once. One `drain` then takes every finished spawn and reaps
//! every child whose pidfd became readable: exits cost the loop no
//! `add_reader`/`remove_reader` per child (each a selector update in
//! Python), and several exits share one wake-up. No thread waits for
//! anything: the epoll is only read by the loop; the pidfds are in it
//! one-shot, the eventfd edge-triggered (each write reported once, the
//! eventfd never read: `drain` takes the queue first, and again when it
//! sees the eventfd's report, so a result pushed during a drain is taken
//! then or wakes the loop again).

use std::collections::{HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use rustix::event::{EventfdFlags, Timespec, epoll};
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
    /// The eventfd (key [`EVENTFD_KEY`]) and every child's pidfd (key: its
    /// token, one-shot); the eventfd edge-triggered.
    epoll: OwnedFd,
    queue: Mutex<Queue>,
}

/// The epoll key of the eventfd (tokens count up from 0).
const EVENTFD_KEY: u64 = u64::MAX;

/// What `drain` returns per event: a spawned child, a failed spawn, an exit.
const SPAWNED: u8 = 0;
const FAILED: u8 = 1;
const EXITED: u8 = 2;

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
    /// The children handed to Python whose exit is not reaped yet, by token.
    watched: Mutex<HashMap<u64, Py<Child>>>,
}

#[pymethods]
impl Spawner {
    #[new]
    fn new() -> PyResult<Spawner> {
        let eventfd = rustix::event::eventfd(0, EventfdFlags::CLOEXEC | EventfdFlags::NONBLOCK)
            .map_err(std::io::Error::from)?;
        let epoll = epoll::create(epoll::CreateFlags::CLOEXEC).map_err(std::io::Error::from)?;
        epoll::add(
            &epoll,
            &eventfd,
            epoll::EventData::new_u64(EVENTFD_KEY),
            // Edge-triggered: each write is reported once, and the eventfd
            // is never read (a syscall less per drain; its counter cannot
            // reach its limit of 2^64 - 2 writes).
            epoll::EventFlags::IN | epoll::EventFlags::ET,
        )
        .map_err(std::io::Error::from)?;
        Ok(Spawner {
            shared: Arc::new(Shared {
                eventfd,
                epoll,
                queue: Mutex::new(Queue::default()),
            }),
            watched: Mutex::new(HashMap::new()),
        })
    }

    /// The epoll fd that becomes readable when spawns have finished or
    /// children have exited.
    fn fileno(&self) -> i32 {
        self.shared.epoll.as_raw_fd()
    }

    /// Queues a spawn; its result comes back from `drain` with `token`.
    /// The fds the request names are duplicated now, so the caller may
    /// close its own as soon as this returns.
    fn submit(&self, token: u64, request: Request<'_>) -> PyResult<()> {
        let Built { cmd, names, .. } = build(request)?;
        self.queue(token, cmd, names);
        Ok(())
    }

    /// `submit` for the common call, `create_subprocess_exec(program,
    /// *args)` without keywords: `args` (a tuple, program first) encoded
    /// here as `os.fsencode` does, with what `subprocess.Popen` does by
    /// default (SIGXFSZ back to its default, every other fd closed). Queues
    /// nothing and returns false when an argument is not a `str` or
    /// `bytes`, cannot be encoded or holds a NUL byte: the caller then
    /// takes the general path, which raises what CPython raises.
    fn submit_args(&self, token: u64, args: &Bound<'_, PyTuple>) -> PyResult<bool> {
        let mut argv = Vec::with_capacity(args.len());
        for arg in args.iter() {
            let encoded: OsString = if let Ok(bytes) = arg.cast::<PyBytes>() {
                OsStr::from_bytes(bytes.as_bytes()).to_owned()
            } else if arg.is_instance_of::<PyString>() {
                match arg.extract() {
                    Ok(encoded) => encoded,
                    // Not encodable (a lone surrogate): the general path
                    // audits the call, then raises os.fsencode's error.
                    Err(_) => return Ok(false),
                }
            } else {
                return Ok(false);
            };
            if encoded.as_bytes().contains(&0) {
                return Ok(false);
            }
            argv.push(encoded);
        }
        let Some(program) = argv.first() else {
            return Ok(false);
        };
        // The audit event `subprocess.Popen` raises, as the general path's
        // `_start` does, once the call is known to be spawned here.
        static AUDIT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let py = args.py();
        let audit = AUDIT.get_or_try_init(py, || {
            PyResult::Ok(py.import("sys")?.getattr("audit")?.unbind())
        })?;
        let program_name = args.get_item(0)?;
        audit.call1(
            py,
            (
                "subprocess.Popen",
                &program_name,
                args.to_list(),
                py.None(),
                py.None(),
            ),
        )?;
        let mut cmd = fastspawn::Command::new(program);
        cmd.arg0(program);
        cmd.args(&argv[1..]);
        cmd.signal_default(&[libc::SIGXFSZ]);
        let names = Names::program(py, program_name.unbind());
        self.queue(token, cmd, names);
        Ok(true)
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

    /// Every spawn finished and every child exited since the last call, as
    /// `(token, kind, value)`: kind 0, a `Child`; kind 1, the exception of
    /// a failed spawn; kind 2, the raw wait status of an exited child
    /// (reaped here; a child reaped elsewhere reads as status 255 << 8, as
    /// in asyncio).
    fn drain<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        let mut watched = self.watched.lock().unwrap_or_else(|e| e.into_inner());
        self.take_finished(py, &out, &mut watched)?;
        let mut events = Vec::with_capacity(64);
        let now = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        loop {
            events.clear();
            epoll::wait(
                &self.shared.epoll,
                rustix::buffer::spare_capacity(&mut events),
                Some(&now),
            )
            .map_err(std::io::Error::from)?;
            let full = events.len() == events.capacity();
            for event in &events {
                let token = event.data.u64();
                if token == EVENTFD_KEY {
                    // A write since the last report (edge-triggered, never
                    // read): results pushed after the take above.
                    self.take_finished(py, &out, &mut watched)?;
                    continue;
                }
                if !watched.contains_key(&token) {
                    // Pushed after the take above (see `submit`): take again.
                    self.take_finished(py, &out, &mut watched)?;
                }
                let Some(child) = watched.get(&token) else {
                    continue; // cancelled meanwhile: discarded by `cancel`
                };
                let status = match child.get().reap(py) {
                    Ok(Some(status)) => status,
                    Ok(None) => {
                        // Not an exit after all: armed again.
                        child.get().watch(&self.shared.epoll, token);
                        continue;
                    }
                    Err(_) => 255 << 8,
                };
                watched.remove(&token);
                out.append((token, EXITED, status))?;
            }
            if !full {
                break;
            }
        }
        Ok(out)
    }
}

impl Spawner {
    /// Hands `cmd` to a spawner thread; its result comes back from
    /// `drain` with `token`.
    fn queue(&self, token: u64, mut cmd: fastspawn::Command, names: Names) {
        let shared = Arc::clone(&self.shared);
        // Every spawn runs on a spawner thread, so a pdeathsig child gets
        // its signal when the process exits, not when some thread does.
        // The clone makes the pidfd (`CLONE_PIDFD`): it goes into the epoll
        // at once, and a pidfd made later would cost a `pidfd_open` and a
        // `waitid` check on the spawner thread.
        cmd.pidfd_at_spawn(true);
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
            // The pidfd joins the epoll (one-shot: reported once, then
            // disarmed, so a reaped child needs no EPOLL_CTL_DEL), the
            // child the queue and the eventfd is written, all under the
            // queue's lock: when `drain` sees the exit of a token it has not
            // taken from the queue yet, that child is in the queue by then.
            if let Ok(child) = &result {
                if let Some(pidfd) = child.pidfd() {
                    let _ = epoll::add(
                        &shared.epoll,
                        pidfd,
                        epoll::EventData::new_u64(token),
                        epoll::EventFlags::IN | epoll::EventFlags::ONESHOT,
                    );
                }
            }
            if queue.done.is_empty() {
                let _ = rustix::io::write(&shared.eventfd, &1u64.to_ne_bytes());
            }
            queue.done.push(Finished {
                token,
                result,
                names,
            });
        });
    }

    /// Moves the finished spawns from the queue to `out` (and the children
    /// with a pidfd to `watched`).
    fn take_finished(
        &self,
        py: Python<'_>,
        out: &Bound<'_, PyList>,
        watched: &mut HashMap<u64, Py<Child>>,
    ) -> PyResult<()> {
        let finished = std::mem::take(&mut self.shared.lock().done);
        for Finished {
            token,
            result,
            names,
        } in finished
        {
            match result {
                Ok(child) => {
                    let has_pidfd = child.pidfd().is_some();
                    let child = Py::new(py, Child::with_pidfd(child))?;
                    if has_pidfd {
                        watched.insert(token, child.clone_ref(py));
                    }
                    out.append((token, SPAWNED, child))?;
                }
                Err(err) => out.append((token, FAILED, names.error(py, err).into_value(py)))?,
            }
        }
        Ok(())
    }
}
