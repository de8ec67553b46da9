//! Registering a pidfd, or a tree's wait for emptiness, with tokio's
//! reactor (feature `tokio`).
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

/// Watches the epoll fd of a tree's [`EmptyWait`](crate::tree::empty::EmptyWait)
/// for readability (a member exited or `cgroup.events` changed).
pub(crate) fn register_empty_wait(
    wait: crate::tree::empty::EmptyWait,
) -> io::Result<AsyncFd<crate::tree::empty::EmptyWait>> {
    // SAFETY: see the file header; the EmptyWait owns its epoll fd, makes it
    // once in `new` and never replaces it, and the AsyncFd owns the EmptyWait.
    unsafe { AsyncFd::register_with_interest(wait, Interest::READABLE) }.map_err(|err| {
        let (_, cause) = err.into_parts();
        cause
    })
}
