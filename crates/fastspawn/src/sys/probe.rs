//! Probing the kernel once per process, with calls that cannot have an
//! effect: each tells "exists" from "unknown system call" (or a seccomp
//! filter's refusal) by its errno.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

use crate::engine::Features;

pub(crate) fn probe() -> Features {
    Features {
        clone3: has_clone3(),
        close_range: has_close_range(),
    }
}

/// `clone3(NULL, 0)` is EINVAL (size too small) where clone3 exists.
fn has_clone3() -> bool {
    if !cfg!(target_arch = "x86_64") {
        return false;
    }
    // SAFETY: a zero size makes the kernel reject the call before reading anything.
    let ret = unsafe { libc::syscall(libc::SYS_clone3, std::ptr::null_mut::<u8>(), 0usize) };
    ret < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINVAL)
}

/// `pidfd_open(getpid())` succeeds and `waitid(P_PIDFD)` on it says ECHILD
/// (we are not our own child) rather than EINVAL (unknown id type).
/// `None` when the probe could not tell: `pidfd_open` failed for a reason
/// that passes (no free fd, no memory), which must not be remembered.
pub(crate) fn has_pidfd() -> Option<bool> {
    // SAFETY: plain integers.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, libc::getpid(), 0) };
    if fd < 0 {
        let errno = std::io::Error::last_os_error().raw_os_error();
        return match errno {
            Some(libc::ENOSYS | libc::EPERM | libc::EINVAL) => Some(false),
            _ => None,
        };
    }
    // SAFETY: the kernel just gave us this fd.
    let fd = unsafe { OwnedFd::from_raw_fd(fd as i32) };
    // SAFETY: siginfo is plain data to be filled in.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: info is a live siginfo_t.
    let ret = unsafe {
        libc::waitid(
            libc::P_PIDFD,
            fd.as_raw_fd() as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG,
        )
    };
    Some(ret < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD))
}

/// `close_range(~0, ~0, 0)` closes nothing and succeeds where it exists.
fn has_close_range() -> bool {
    // SAFETY: the range holds no open fd.
    unsafe { libc::syscall(libc::SYS_close_range, u32::MAX, u32::MAX, 0) == 0 }
}
