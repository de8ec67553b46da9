//! All the extension's `unsafe` code.
//!
//! Invariants the callers rely on:
//!
//! 1. A raw fd that comes from Python as an int is only *borrowed*
//!    ([`dup_cloexec`], [`is_inheritable`]): it is used during the call that
//!    names it, while the GIL-holding caller keeps it open, to read its flags
//!    or make a duplicate; the duplicate is what a child gets. The extension
//!    never closes an fd it did not create.
//! 2. A child's pidfd, borrowed by number in [`borrow_pidfd`], is owned by
//!    the `fastspawn::Child` inside the extension's `Child` object, which
//!    lives at least as long as the `&self` borrow of the method that polls
//!    it; the core closes it only when that `Child` is dropped.
//! 3. Nothing here keeps a pointer or a borrowed fd past the call.
//! 4. An fd given to [`take_fd`] was made by `fastspawn.subprocess` for
//!    the one call that hands it over (the child's end of a pipe of
//!    `run()`), and Python forgets the number once the call is made.
//! 5. The fd given to [`write_to_wakeup_fd`] is the one Python's
//!    `signal.set_wakeup_fd` just returned: open (CPython checked it when
//!    it was set, and its owner, an event loop, keeps it open while it is
//!    set); written once, during the call.

use std::io;
use std::os::fd::{BorrowedFd, OwnedFd, RawFd};

/// A close-on-exec duplicate of `fd`, an fd number the Python caller owns.
pub fn dup_cloexec(fd: RawFd) -> io::Result<OwnedFd> {
    if fd < 0 {
        return Err(io::Error::from_raw_os_error(libc::EBADF));
    }
    // SAFETY: invariant 1: `fd` is only used for the duration of this call,
    // to make a duplicate; if it is not open, fcntl fails with EBADF and
    // nothing else happens.
    let borrowed = unsafe { BorrowedFd::borrow_raw(fd) };
    Ok(rustix::io::fcntl_dupfd_cloexec(borrowed, 0)?)
}

/// Whether `fd` is open and not close-on-exec (what `close_fds=False`
/// hands on to a child).
pub fn is_inheritable(fd: RawFd) -> bool {
    if fd < 0 {
        return false;
    }
    // SAFETY: invariant 1: only the flags of `fd` are read; a closed fd
    // makes fcntl fail with EBADF.
    let borrowed = unsafe { BorrowedFd::borrow_raw(fd) };
    rustix::io::fcntl_getfd(borrowed)
        .is_ok_and(|flags| !flags.contains(rustix::io::FdFlags::CLOEXEC))
}

/// The pidfd of a live `Child` object, to poll it without holding the lock
/// of its `fastspawn::Child`.
pub fn borrow_pidfd<'a>(fd: RawFd) -> BorrowedFd<'a> {
    // SAFETY: invariant 2: the fd is owned by a `fastspawn::Child` that
    // outlives the borrow (the caller holds `&self` of its owner).
    unsafe { BorrowedFd::borrow_raw(fd) }
}

/// Takes ownership of `fd`, which the Python caller gives up (it was made
/// for this call and Python never uses the number again).
pub fn take_fd(fd: RawFd) -> io::Result<OwnedFd> {
    if fd < 0 {
        return Err(io::Error::from_raw_os_error(libc::EBADF));
    }
    // SAFETY: invariant 4: the caller owns `fd` and hands it over; nothing
    // else closes or uses it after this call.
    Ok(unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fd) })
}

/// Writes `data` to `fd` (invariant 5), once; a failure (a full pipe, a
/// closed fd) loses what did not fit, as CPython's own handler does.
pub fn write_to_wakeup_fd(fd: RawFd, data: &[u8]) {
    if fd < 0 {
        return;
    }
    // SAFETY: invariant 5: `fd` is open for the duration of this call; a
    // write to an fd closed meanwhile fails with EBADF and does nothing.
    let borrowed = unsafe { BorrowedFd::borrow_raw(fd) };
    let _ = rustix::io::write(borrowed, data);
}
