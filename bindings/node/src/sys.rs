//! All the addon's `unsafe` code.
//!
//! Invariants the callers rely on:
//!
//! 1. A raw fd that comes from JavaScript as a number is only *borrowed*
//!    ([`dup_cloexec`]): it is duplicated on the JS thread, during the call
//!    that names it, and the duplicate is what the child gets. The addon
//!    never closes an fd it did not create.
//! 2. The napi environment pointer given to [`set_ref`] is the one of the
//!    JS thread making the call, and the threadsafe function belongs to
//!    that environment (both come from the same `#[napi]` call).
//! 3. Nothing here keeps a pointer past the call.

use std::io;
use std::os::fd::{BorrowedFd, OwnedFd, RawFd};

/// A close-on-exec duplicate of `fd`, an fd number the JS caller owns.
pub fn dup_cloexec(fd: RawFd) -> io::Result<OwnedFd> {
    if fd < 0 {
        return Err(io::Error::from_raw_os_error(libc::EBADF));
    }
    // SAFETY: invariant 1: `fd` is only used for the duration of this
    // call, to make a duplicate; if it is not open, fcntl fails with EBADF
    // and nothing else happens.
    let borrowed = unsafe { BorrowedFd::borrow_raw(fd) };
    Ok(rustix::io::fcntl_dupfd_cloexec(borrowed, 0)?)
}

/// `napi_ref_threadsafe_function` / `napi_unref_threadsafe_function`:
/// whether the threadsafe function keeps the event loop alive.
pub fn set_ref(
    env: napi::sys::napi_env,
    tsfn: napi::sys::napi_threadsafe_function,
    keep_alive: bool,
) -> napi::Result<()> {
    // SAFETY: invariant 2: `env` is the calling JS thread's environment and
    // `tsfn` a live threadsafe function created in it (the context that
    // owns it is alive for as long as the environment).
    let status = unsafe {
        if keep_alive {
            napi::sys::napi_ref_threadsafe_function(env, tsfn)
        } else {
            napi::sys::napi_unref_threadsafe_function(env, tsfn)
        }
    };
    if status == napi::sys::Status::napi_ok {
        Ok(())
    } else {
        Err(napi::Error::from_reason(format!(
            "fastspawn: napi_(un)ref_threadsafe_function failed with status {status}"
        )))
    }
}
