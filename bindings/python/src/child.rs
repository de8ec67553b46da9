//! A started child as Python sees it: its pid, pidfd and engine, and the
//! waits and signals `Popen` and the asyncio `Process` build on.
//!
//! Waiting never sleeps in a loop: with the GIL released, a timed wait
//! polls the child's pidfd (it becomes readable when the child exits), and
//! a wait without a timeout on a child whose pidfd was never made blocks in
//! `waitid(WEXITED|WNOWAIT)`, which reaps nothing; then the child is
//! reaped with a non-blocking wait. The reap happens under a lock held only
//! for that call, so any number of Python threads may wait, poll or signal
//! one child at once: one of them reaps it, and all see the same status.
//!
//! The pidfd is made on first need (a timed wait, a signal, the `pidfd`
//! attribute), as fastspawn's core does; a `Spawner`'s children have
//! theirs from the start (made by the clone), and are reaped by the
//! spawner's waiter thread through the same lock.

use std::os::fd::AsRawFd;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use rustix::event::{PollFd, PollFlags, Timespec};

use crate::errors;
use crate::sys;

/// A child process started by `spawn`.
#[pyclass(module = "fastspawn._fastspawn", frozen)]
pub struct Child {
    pid: i32,
    /// The pidfd (its raw fd, owned by `inner`) once made: at once for the
    /// children of a `Spawner`, whose pidfds sit in its epoll; on first
    /// need (a timed wait, a signal, the `pidfd` attribute) for the others,
    /// as the core does: a child that is only waited for costs no
    /// `pidfd_open`, no check and no `close`. `None` inside: no pidfd
    /// (Linux < 5.3, or the child was reaped before one was made).
    pidfd: OnceLock<Option<i32>>,
    engine: &'static str,
    /// Shared with `fastspawn.asyncio`'s waiter thread, which reaps the
    /// children of a `Spawner` through it (so every wait sees the status).
    inner: Arc<Mutex<fastspawn::Child>>,
    /// A `Spawner`'s child: when this holds its last reference, the drop
    /// (its pidfd's `close`) is left to a spawner thread (`aio::bury`).
    bury: bool,
}

impl Drop for Child {
    /// A `Spawner`'s child, freed with its `Process` on the loop's thread:
    /// if nothing else holds it (the waiter holds a running child) and it
    /// has no tree to clean up, its last reference goes to the spawner
    /// threads while any of them has a job, and the `close` of its pidfd
    /// (~2.5 µs: the kernel frees the pidfd's file, dentry and inode) runs
    /// there, not on the loop's thread. The fd is closed within that job.
    fn drop(&mut self) {
        if self.bury && Arc::strong_count(&self.inner) == 1 && self.lock().containment().is_none() {
            crate::aio::bury(Arc::clone(&self.inner));
        }
    }
}

impl Child {
    /// A child whose pidfd is made on first need.
    pub fn new(child: fastspawn::Child) -> Child {
        Child {
            pid: child.id() as i32,
            pidfd: OnceLock::new(),
            engine: child.engine().name(),
            inner: Arc::new(Mutex::new(child)),
            bury: false,
        }
    }

    /// A `Spawner`'s child, shared with the waiter thread that reaps it;
    /// its pidfd made by the clone, or (a child watched on the exit ring)
    /// none until first needed.
    pub fn shared(inner: Arc<Mutex<fastspawn::Child>>) -> Child {
        let (pid, pidfd, engine) = {
            let child = inner.lock().unwrap_or_else(|e| e.into_inner());
            let pidfd = child.pidfd_if_made().map(|fd| fd.as_raw_fd());
            (child.id() as i32, pidfd, child.engine().name())
        };
        let made = Child {
            pid,
            pidfd: OnceLock::new(),
            engine,
            inner,
            bury: true,
        };
        if pidfd.is_some() {
            let _ = made.pidfd.set(pidfd);
        }
        made
    }

    /// `(pid, pidfd, engine)`, as the getters give them.
    pub fn ids(&self) -> (i32, Option<i32>, &'static str) {
        (self.pid, self.pidfd_now(), self.engine)
    }

    /// The child's pid.
    pub(crate) fn id(&self) -> i32 {
        self.pid
    }

    /// The pidfd if it has been made.
    pub(crate) fn made_pidfd(&self) -> Option<i32> {
        self.pidfd.get().copied().flatten()
    }

    /// The pidfd, made now if it was not (see [`Child::pidfd`]).
    fn pidfd_now(&self) -> Option<i32> {
        *self
            .pidfd
            .get_or_init(|| self.lock().pidfd().map(|fd| fd.as_raw_fd()))
    }

    fn lock(&self) -> MutexGuard<'_, fastspawn::Child> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The locked child, if it was started with `contain`; else the
    /// `ValueError` naming the method.
    fn tree(&self, what: &str) -> PyResult<MutexGuard<'_, fastspawn::Child>> {
        let child = self.lock();
        if child.containment().is_none() {
            return Err(PyValueError::new_err(format!(
                "{what}: child {} was not started with contain=True",
                self.pid
            )));
        }
        Ok(child)
    }

    /// Reaps the child if it has exited; never blocks for long (the lock
    /// is only ever held for a non-blocking call).
    pub(crate) fn reap(&self, py: Python<'_>) -> PyResult<Option<i32>> {
        let mut child = self.lock();
        child
            .try_wait()
            .map(|status| status.map(|s| s.into_raw()))
            .map_err(|e| errors::from_fastspawn(py, e, None))
    }
}

/// A deadline `timeout` seconds from now (`None`: none).
fn deadline(timeout: Option<f64>) -> PyResult<Option<Instant>> {
    match timeout {
        Some(t) if t.is_nan() => Err(PyValueError::new_err("timeout must not be NaN")),
        Some(t) => Ok(Some(
            Instant::now() + Duration::from_secs_f64(t.clamp(0.0, 1e9)),
        )),
        None => Ok(None),
    }
}

/// Whether a cgroup's `cgroup.events` (read from its start) says
/// `populated 0`.
fn tree_empty(events: &std::fs::File) -> std::io::Result<bool> {
    let mut buf = [0u8; 256];
    let n = events.read_at(&mut buf, 0)?;
    let text = std::str::from_utf8(&buf[..n]).unwrap_or("");
    Ok(text.lines().any(|line| line.trim() == "populated 0"))
}

/// `poll(2)` for `POLLPRI` (the kernel's "file changed") on a cgroup's
/// `cgroup.events`, for at most `timeout`.
fn poll_events(events: &std::fs::File, timeout: Option<Duration>) -> std::io::Result<()> {
    let mut fds = [PollFd::new(events, PollFlags::PRI)];
    let timeout = timeout.map(|t| Timespec {
        tv_sec: t.as_secs().min(i64::MAX as u64) as i64,
        tv_nsec: i64::from(t.subsec_nanos()),
    });
    rustix::event::poll(&mut fds, timeout.as_ref())?;
    Ok(())
}

/// Blocks until the child `pid` has exited, without reaping it.
fn wait_exited(pid: i32) -> std::io::Result<()> {
    let pid = rustix::process::Pid::from_raw(pid).ok_or(std::io::ErrorKind::InvalidInput)?;
    rustix::process::waitid(
        rustix::process::WaitId::Pid(pid),
        rustix::process::WaitIdOptions::EXITED | rustix::process::WaitIdOptions::NOWAIT,
    )?;
    Ok(())
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

    /// The child's pidfd (owned by this object; valid while it lives), made
    /// on first use; `None` on kernels without pidfds, or when the child was
    /// reaped (by a wait, or by other code of the process) before one was
    /// made.
    #[getter]
    fn pidfd(&self) -> Option<i32> {
        self.pidfd_now()
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
        if deadline.is_none() && self.made_pidfd().is_none() {
            // No pidfd to poll, none needed: block until the child has
            // exited without reaping it (`WNOWAIT`, no lock held, so other
            // threads may poll or signal meanwhile), then reap it below
            // under the lock like any other wait. `ECHILD`: reaped already
            // (by another thread through this object, whose status the
            // reap below returns, or by other code of the process).
            loop {
                match py.detach(|| wait_exited(self.pid)) {
                    Ok(()) => break,
                    Err(e) if e.raw_os_error() == Some(libc::ECHILD) => break,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => py.check_signals()?,
                    Err(e) => return Err(e.into()),
                }
            }
        }
        loop {
            if let Some(status) = self.reap(py)? {
                return Ok(Some(status));
            }
            let remaining = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            if remaining == Some(Duration::ZERO) {
                return Ok(None);
            }
            // A timed wait polls the pidfd, made now if need be.
            let pidfd = match remaining {
                Some(_) => self.pidfd_now(),
                None => self.made_pidfd(),
            };
            let waited = match pidfd {
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

    /// How the child's tree is contained: `"cgroup"`, `"session"` (the
    /// fallback), or `None` without `contain`.
    #[getter]
    fn containment(&self) -> Option<&'static str> {
        self.lock().containment().map(|c| match c {
            fastspawn::Containment::Cgroup => "cgroup",
            _ => "session",
        })
    }

    /// The directory of the child's own cgroup, when it has one.
    #[getter]
    fn cgroup_path(&self) -> Option<PathBuf> {
        self.lock().cgroup_path().map(Path::to_owned)
    }

    /// Sends `signal` to every process of the tree
    /// (`fastspawn::Child::kill_tree`).
    fn kill_tree(&self, py: Python<'_>, signal: i32) -> PyResult<()> {
        if !(1..=64).contains(&signal) {
            return Err(PyValueError::new_err(format!(
                "kill_tree: {signal} is not a signal number"
            )));
        }
        drop(self.tree("kill_tree")?);
        py.detach(|| self.lock().kill_tree(signal))
            .map_err(|e| errors::from_fastspawn(py, e, None))
    }

    /// The pids of the tree's live processes, sorted.
    fn tree_pids(&self, py: Python<'_>) -> PyResult<Vec<u32>> {
        let child = self.tree("tree_pids")?;
        child
            .tree_pids()
            .map_err(|e| errors::from_fastspawn(py, e, None))
    }

    /// Freezes the tree (`cgroup.freeze`); returns once it is frozen.
    fn freeze(&self, py: Python<'_>) -> PyResult<()> {
        drop(self.tree("freeze")?);
        py.detach(|| self.lock().freeze())
            .map_err(|e| errors::from_fastspawn(py, e, None))
    }

    /// Lets a frozen tree run again.
    fn thaw(&self, py: Python<'_>) -> PyResult<()> {
        drop(self.tree("thaw")?);
        py.detach(|| self.lock().thaw())
            .map_err(|e| errors::from_fastspawn(py, e, None))
    }

    /// The tree's usage: `(cpu, user, system, memory_peak, memory_current,
    /// pids_current, pids_peak)`, times in seconds, `None` for what the
    /// cgroup's controllers do not report.
    #[allow(clippy::type_complexity)]
    fn usage(
        &self,
        py: Python<'_>,
    ) -> PyResult<(
        f64,
        f64,
        f64,
        Option<u64>,
        Option<u64>,
        Option<u64>,
        Option<u64>,
    )> {
        let child = self.tree("usage")?;
        let u = child
            .usage()
            .map_err(|e| errors::from_fastspawn(py, e, None))?;
        Ok((
            u.cpu.as_secs_f64(),
            u.user.as_secs_f64(),
            u.system.as_secs_f64(),
            u.memory_peak,
            u.memory_current,
            u.pids_current,
            u.pids_peak,
        ))
    }

    /// Waits until every process of the tree has exited, for at most
    /// `timeout` seconds; returns whether it has. Does not reap the child
    /// (`wait` does, at once, after). The GIL is released and the child's
    /// lock is not held while waiting, so another thread may kill the tree.
    ///
    /// With a cgroup it sleeps on `cgroup.events` (`poll` for `POLLPRI`,
    /// no busy loop); without a timeout the core's `wait_tree_empty` would
    /// do the same but hold the lock. In the session fallback it reaps the
    /// child when it exits and checks the tree's members in naps of 1 to
    /// 20 ms.
    #[pyo3(signature = (timeout = None))]
    fn wait_tree_empty(&self, py: Python<'_>, timeout: Option<f64>) -> PyResult<bool> {
        let deadline = deadline(timeout)?;
        let path = self.tree("wait_tree")?.cgroup_path().map(Path::to_owned);
        let remaining = || deadline.map(|d| d.saturating_duration_since(Instant::now()));
        if let Some(dir) = path {
            let file = dir.join("cgroup.events");
            let failed = |e: std::io::Error| {
                PyOSError::new_err((
                    e.raw_os_error().unwrap_or(libc::EIO),
                    format!(
                        "child {}: wait_tree failed: reading {}: {e}",
                        self.pid,
                        file.display()
                    ),
                ))
            };
            let events = std::fs::File::open(&file).map_err(failed)?;
            loop {
                if tree_empty(&events).map_err(failed)? {
                    return Ok(true);
                }
                let left = remaining();
                if left == Some(Duration::ZERO) {
                    return Ok(false);
                }
                match py.detach(|| poll_events(&events, left)) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => py.check_signals()?,
                    Err(e) => return Err(failed(e)),
                }
            }
        }
        let mut nap = Duration::from_millis(1);
        loop {
            self.reap(py)?;
            if self
                .tree("wait_tree")?
                .tree_pids()
                .map_err(|e| errors::from_fastspawn(py, e, None))?
                .is_empty()
            {
                return Ok(true);
            }
            let left = remaining();
            if left == Some(Duration::ZERO) {
                return Ok(false);
            }
            let sleep = left.map_or(nap, |l| l.min(nap));
            py.detach(|| std::thread::sleep(sleep));
            py.check_signals()?;
            nap = (nap * 2).min(Duration::from_millis(20));
        }
    }

    fn __repr__(&self) -> String {
        format!("<fastspawn Child pid={} engine={}>", self.pid, self.engine)
    }
}
