//! A started child as Python sees it: its pid, pidfd and engine, and the
//! waits and signals `Popen` and the asyncio `Process` build on.
//!
//! Waiting never sleeps in a loop: a blocking or timed wait polls the
//! child's pidfd with the GIL released (it becomes readable when the child
//! exits), then reaps it with a non-blocking `waitid(P_PIDFD)`. The reap
//! happens under a lock held only for that call, so any number of Python
//! threads may wait, poll or signal one child at once: one of them reaps
//! it, and all see the same status.

use std::os::fd::AsRawFd;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use rustix::event::{PollFd, PollFlags, Timespec};

use crate::errors;
use crate::sys;

/// A child process started by `spawn`.
#[pyclass(module = "fastspawn._fastspawn", frozen)]
pub struct Child {
    pid: i32,
    pidfd: Option<i32>,
    engine: &'static str,
    inner: Mutex<fastspawn::Child>,
}

impl Child {
    pub fn new(child: fastspawn::Child) -> Child {
        Child {
            pid: child.id() as i32,
            pidfd: child.pidfd().map(|fd| fd.as_raw_fd()),
            engine: child.engine().name(),
            inner: Mutex::new(child),
        }
    }

    fn lock(&self) -> MutexGuard<'_, fastspawn::Child> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reaps the child if it has exited; never blocks for long (the lock
    /// is only ever held for a non-blocking call).
    fn reap(&self, py: Python<'_>) -> PyResult<Option<i32>> {
        let mut child = self.lock();
        child
            .try_wait()
            .map(|status| status.map(|s| s.into_raw()))
            .map_err(|e| errors::from_fastspawn(py, e, None))
    }
}

/// `poll(2)` on a pidfd for at most `timeout` (forever with `None`).
fn poll_pidfd(fd: i32, timeout: Option<Duration>) -> std::io::Result<()> {
    let pidfd = sys::borrow_pidfd(fd);
    let mut fds = [PollFd::new(&pidfd, PollFlags::IN)];
    let timeout = timeout.map(|t| Timespec {
        tv_sec: t.as_secs().min(i64::MAX as u64) as i64,
        tv_nsec: i64::from(t.subsec_nanos()),
    });
    rustix::event::poll(&mut fds, timeout.as_ref())?;
    Ok(())
}

#[pymethods]
impl Child {
    /// The child's process id.
    #[getter]
    fn pid(&self) -> i32 {
        self.pid
    }

    /// The child's pidfd (owned by this object; valid while it lives), or
    /// `None` on kernels without pidfds.
    #[getter]
    fn pidfd(&self) -> Option<i32> {
        self.pidfd
    }

    /// Which engine created the child: `clone3`, `clone-vfork`,
    /// `posix-spawn` or `fork`.
    #[getter]
    fn engine(&self) -> &'static str {
        self.engine
    }

    /// Waits for the child to exit and returns its raw wait status, or
    /// `None` when `timeout` seconds passed first. The GIL is released
    /// while waiting; signals (Ctrl-C) interrupt the wait as they do
    /// `time.sleep`.
    #[pyo3(signature = (timeout = None))]
    fn wait(&self, py: Python<'_>, timeout: Option<f64>) -> PyResult<Option<i32>> {
        let deadline = timeout.map(|t| Instant::now() + Duration::from_secs_f64(t.clamp(0.0, 1e9)));
        loop {
            if let Some(status) = self.reap(py)? {
                return Ok(Some(status));
            }
            let remaining = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            if remaining == Some(Duration::ZERO) {
                return Ok(None);
            }
            let waited = match self.pidfd {
                Some(fd) => py.detach(|| poll_pidfd(fd, remaining)),
                // No pidfds (Linux < 5.3): a blocking wait, or short naps
                // until the deadline.
                None if remaining.is_none() => py.detach(|| {
                    let mut child = self.lock();
                    child.wait().map(|_| ()).map_err(std::io::Error::from)
                }),
                None => {
                    let nap = remaining.unwrap_or_default().min(Duration::from_millis(1));
                    py.detach(|| std::thread::sleep(nap));
                    Ok(())
                }
            };
            match waited {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => py.check_signals()?,
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// The raw wait status if the child has exited, else `None`; never blocks.
    fn poll(&self, py: Python<'_>) -> PyResult<Option<i32>> {
        self.reap(py)
    }

    /// Sends `signal` through the pidfd. A child already reaped is not
    /// signalled (its pid may belong to another process by now).
    fn send_signal(&self, py: Python<'_>, signal: i32) -> PyResult<()> {
        let mut child = self.lock();
        child
            .send_signal(signal)
            .map_err(|e| errors::from_fastspawn(py, e, None))
    }

    fn __repr__(&self) -> String {
        format!("<fastspawn Child pid={} engine={}>", self.pid, self.engine)
    }
}
