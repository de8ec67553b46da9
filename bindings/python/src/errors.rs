//! fastspawn's errors as the exceptions `subprocess` raises.
//!
//! A failed system call becomes `OSError(errno, strerror, filename)`, which
//! Python turns into the subclass for that errno (`FileNotFoundError`,
//! `PermissionError`, `NotADirectoryError`...). As in CPython, the filename
//! is the program for a failed `execve` (or PATH lookup) and the working
//! directory for a failed `chdir`, and then the strerror is the C
//! library's text alone, as CPython's (its own tests compare it). A failure
//! of another step (setuid, setgroups...) has no filename, so its strerror
//! names the program and the step: `Operation not permitted (spawning
//! "id": setuid failed)`. On Python 3.11 and later every such exception
//! also carries a note (shown in tracebacks) with the program and the step.
//!
//! fastspawn looks a bare program name up in `PATH` in the parent, before
//! the child changes directory; CPython's child changes directory first.
//! So that a missing program in a missing `cwd` reports the directory, as
//! CPython does, a failed lookup checks `cwd` before it is reported.

use std::ffi::OsStr;
use std::path::Path;

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

use fastspawn::Step;

/// The C library's message for `errno`, without std's ` (os error N)`.
fn strerror(errno: i32) -> String {
    let text = std::io::Error::from_raw_os_error(errno).to_string();
    match text.rfind(" (os error ") {
        Some(cut) => text[..cut].to_owned(),
        None => text,
    }
}

/// A failed system call of the parent's own (a pipe, a `dup`) as
/// `os.pipe()` or `os.dup()` raise it: `OSError(errno, strerror)`, the
/// subclass for that errno (EMFILE: `OSError`; EBADF: `OSError`).
pub fn os_error(err: std::io::Error) -> PyErr {
    match err.raw_os_error() {
        Some(errno) => PyOSError::new_err((errno, strerror(errno))),
        None => PyOSError::new_err(err.to_string()),
    }
}

/// Why `chdir(dir)` would fail, if it would.
fn chdir_errno(dir: &Path) -> Option<i32> {
    match std::fs::metadata(dir) {
        Err(e) => e.raw_os_error(),
        Ok(meta) if !meta.is_dir() => Some(libc::ENOTDIR),
        Ok(_) => rustix::fs::access(dir, rustix::fs::Access::EXEC_OK)
            .err()
            .map(|e| e.raw_os_error()),
    }
}

/// What the caller named the program and the working directory with.
pub struct Names<'a, 'py> {
    pub exe: &'a Bound<'py, PyAny>,
    pub cwd: &'a Bound<'py, PyAny>,
    pub cwd_path: Option<&'a OsStr>,
}

/// Converts a spawn error (or, without `names`, a wait or signal error).
pub fn from_fastspawn(
    py: Python<'_>,
    err: fastspawn::Error,
    names: Option<&Names<'_, '_>>,
) -> PyErr {
    let program = err.program().to_string_lossy().into_owned();
    let mut step = err.step().clone();
    let mut errno = err.raw_os_error();
    if let (Step::Resolve, Some(dir)) = (&step, names.and_then(|n| n.cwd_path)) {
        if let Some(chdir) = chdir_errno(Path::new(dir)) {
            step = Step::Chdir(dir.into());
            errno = Some(chdir);
        }
    }
    let what = match step {
        Step::Wait | Step::Signal | Step::Output | Step::Input => format!("child {program:?}"),
        _ => format!("spawning {program:?}"),
    };
    let context = format!("{what}: {step} failed");
    let Some(errno) = errno else {
        return if err.kind() == std::io::ErrorKind::InvalidInput {
            PyValueError::new_err(err.to_string())
        } else {
            PyOSError::new_err(err.to_string())
        };
    };
    let filename = match (&step, names) {
        (Step::Exec | Step::Resolve, Some(n)) => Some(n.exe.clone().unbind()),
        (Step::Chdir(_), Some(n)) => Some(n.cwd.clone().unbind()),
        _ => None,
    };
    let error = match filename {
        Some(name) => PyOSError::new_err((errno, strerror(errno), name)),
        None => PyOSError::new_err((errno, format!("{} ({context})", strerror(errno)))),
    };
    let value = error.value(py);
    if value.hasattr("add_note").unwrap_or(false) {
        let _ = value.call_method1("add_note", (context,));
    }
    error
}
