//! fastspawn's errors as the exceptions `subprocess` raises.
//!
//! A failed system call becomes `OSError(errno, strerror, filename)`, which
//! Python turns into the subclass for that errno (`FileNotFoundError`,
//! `PermissionError`, `NotADirectoryError`...). As in CPython, the filename
//! is the program for a failed `execve` (or PATH lookup) and the working
//! directory for a failed `chdir`; other steps (setuid, setgroups...) carry
//! none. The strerror keeps the C library's text first, as CPython's does,
//! and adds the program and the step that failed:
//! `No such file or directory (spawning "nope": execve failed)`.

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

/// Converts a spawn error. `exe_name` and `cwd_name` are the Python objects
/// the caller named the program and the working directory with.
pub fn from_fastspawn(
    err: fastspawn::Error,
    exe_name: Option<&Bound<'_, PyAny>>,
    cwd_name: Option<&Bound<'_, PyAny>>,
) -> PyErr {
    let program = err.program().to_string_lossy().into_owned();
    match err.raw_os_error() {
        Some(errno) => {
            let what = match err.step() {
                Step::Wait | Step::Signal | Step::Output => format!("child {program:?}"),
                _ => format!("spawning {program:?}"),
            };
            let message = format!("{} ({what}: {} failed)", strerror(errno), err.step());
            let filename = match err.step() {
                Step::Exec | Step::Resolve => exe_name.map(|n| n.clone().unbind()),
                Step::Chdir(_) => cwd_name.map(|n| n.clone().unbind()),
                _ => None,
            };
            match filename {
                Some(name) => PyOSError::new_err((errno, message, name)),
                None => PyOSError::new_err((errno, message)),
            }
        }
        None if err.kind() == std::io::ErrorKind::InvalidInput => {
            PyValueError::new_err(err.to_string())
        }
        None => PyOSError::new_err(err.to_string()),
    }
}
