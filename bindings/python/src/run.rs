//! `run`: spawn, collect the output, wait, in one call with the GIL
//! released: what `fastspawn.subprocess.run()` uses when nothing needs
//! `Popen`'s Python machinery (no input, no timeout, no text mode), which
//! costs more than the spawn itself.

use std::io;
use std::os::fd::{AsFd, OwnedFd, RawFd};

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rustix::event::{PollFd, PollFlags};

use crate::spawn::{Built, Request, build, simple_command};
use crate::sys;

/// Reads `out` and `err` (parent ends of pipes) to their ends, both at
/// once, so that neither pipe fills up and stalls the child.
fn read_both(out: Option<OwnedFd>, err: Option<OwnedFd>) -> io::Result<(Vec<u8>, Vec<u8>)> {
    let mut ends = [out, err];
    let mut data = [Vec::new(), Vec::new()];
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let ready: [bool; 2] = match (&ends[0], &ends[1]) {
            (None, None) => break,
            (Some(a), Some(b)) => {
                let mut fds = [PollFd::new(a, PollFlags::IN), PollFd::new(b, PollFlags::IN)];
                match rustix::event::poll(&mut fds, None) {
                    Ok(_) => [!fds[0].revents().is_empty(), !fds[1].revents().is_empty()],
                    Err(rustix::io::Errno::INTR) => continue,
                    Err(e) => return Err(e.into()),
                }
            }
            // One left: a blocking read on it.
            (a, _) => [a.is_some(), a.is_none()],
        };
        for i in 0..2 {
            if !ready[i] {
                continue;
            }
            let fd = ends[i].as_ref().expect("a ready end is open").as_fd();
            match rustix::io::read(fd, &mut buf[..]) {
                Ok(0) => ends[i] = None,
                Ok(n) => data[i].extend_from_slice(&buf[..n]),
                Err(rustix::io::Errno::INTR) => {}
                Err(e) => return Err(e.into()),
            }
        }
    }
    let [out, err] = data;
    Ok((out, err))
}

/// What `run` returns: pid, raw wait status, stdout and stderr (`None`
/// where not piped).
type Ran<'py> = (
    i32,
    i32,
    Option<Bound<'py, PyBytes>>,
    Option<Bound<'py, PyBytes>>,
);

/// Spawns `request`, reads the parent ends `out`/`err` (-1: none) to their
/// ends, waits, and returns `(pid, raw wait status, stdout, stderr)`.
/// `give` are fds of this call's pipes that the caller hands over (the
/// child's ends, closed here right after the spawn).
#[pyfunction]
pub fn run<'py>(
    py: Python<'py>,
    request: Request<'py>,
    give: Vec<RawFd>,
    out: RawFd,
    err: RawFd,
) -> PyResult<Ran<'py>> {
    let given: Vec<OwnedFd> = give
        .into_iter()
        .map(sys::take_fd)
        .collect::<io::Result<_>>()?;
    let out = if out >= 0 {
        Some(sys::dup_cloexec(out)?)
    } else {
        None
    };
    let err = if err >= 0 {
        Some(sys::dup_cloexec(err)?)
    } else {
        None
    };
    let (want_out, want_err) = (out.is_some(), err.is_some());
    let Built {
        mut cmd,
        on_pool,
        names,
    } = build(request)?;
    // Waited for right here: no pidfd needed (it costs a few µs).
    cmd.pidfd(false);
    let pool = if on_pool {
        Some(crate::spawn::global_pool()?)
    } else {
        None
    };
    let result = py.detach(move || {
        let spawned = if let Some(pool) = pool {
            let (tx, rx) = std::sync::mpsc::channel();
            pool.run(move || {
                let spawned = cmd.spawn();
                drop(cmd);
                let _ = tx.send(spawned);
            });
            rx.recv().expect("a spawner thread answers every job")
        } else {
            let spawned = cmd.spawn();
            // The command holds duplicates of the pipes' write ends: closed
            // now, or the reads below would never see the end.
            drop(cmd);
            spawned
        };
        drop(given);
        let mut child = match spawned {
            Ok(child) => child,
            Err(e) => return Err(Ok(e)),
        };
        let read = read_both(out, err);
        let status = child.wait();
        let (stdout, stderr) = read.map_err(Err)?;
        let status = status.map_err(Ok)?;
        Ok((child.id() as i32, status.into_raw(), stdout, stderr))
    });
    match result {
        Ok((pid, status, stdout, stderr)) => Ok((
            pid,
            status,
            want_out.then(|| PyBytes::new(py, &stdout)),
            want_err.then(|| PyBytes::new(py, &stderr)),
        )),
        Err(Ok(e)) => Err(names.error(py, e)),
        Err(Err(e)) => Err(e.into()),
    }
}

/// `run(args)` with every other argument at its default, in one call:
/// [`simple_command`], the spawn and the wait with the GIL released.
/// Returns the raw wait status, or `None` when `args` needs the general
/// path (see [`simple_command`]).
#[pyfunction]
pub fn run_args(py: Python<'_>, args: &Bound<'_, PyAny>) -> PyResult<Option<i32>> {
    let Some((mut cmd, names)) = simple_command(args)? else {
        return Ok(None);
    };
    // Waited for right here: no pidfd needed (it costs a few µs).
    cmd.pidfd(false);
    let result = py.detach(move || cmd.spawn()?.wait());
    match result {
        Ok(status) => Ok(Some(status.into_raw())),
        Err(e) => Err(names.error(py, e)),
    }
}
