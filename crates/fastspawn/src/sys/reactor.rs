//! Registering a pidfd with tokio's reactor (feature `tokio`).
//!
//! # Safety
//!
//! `AsyncFd::register` requires the fd to stay open and unchanged for as
//! long as it is registered: an `OwnedFd` moved into the `AsyncFd` is only
//! closed when the `AsyncFd` is dropped or gives it back with `into_inner`.

use std::io;
use std::os::fd::OwnedFd;

use ::tokio::io::Interest;
use ::tokio::io::unix::AsyncFd;

/// Watches a pidfd for readability (the process exited). On failure the fd
/// is handed back with the error.
pub(crate) fn register_pidfd(pidfd: OwnedFd) -> Result<AsyncFd<OwnedFd>, (io::Error, OwnedFd)> {
    // SAFETY: see the file header; the OwnedFd is owned by the AsyncFd.
    unsafe { AsyncFd::register_with_interest(pidfd, Interest::READABLE) }.map_err(|err| {
        let (inner, cause) = err.into_parts();
        (cause, inner)
    })
}

/// Watches a cgroup's `cgroup.events` for a change (`POLLPRI`, which
/// cgroupfs raises on every change of the file). The `Events` owns its fd
/// and never replaces it, as the header requires.
pub(crate) fn register_cgroup_events(
    events: super::cgroup::Events,
) -> io::Result<AsyncFd<super::cgroup::Events>> {
    // SAFETY: see the file header; the fd is owned by the Events inside the AsyncFd.
    unsafe { AsyncFd::register_with_interest(events, Interest::PRIORITY) }.map_err(|err| {
        let (_, cause) = err.into_parts();
        cause
    })
}
