//! `CLONE_PIDFD_AUTOKILL` (Linux 7.1): a child created with it is killed
//! when the last pidfd that `clone3` returned for it is closed, so it dies
//! with its parent even when the parent crashes.
//!
//! The kernel accepts the flag only together with `CLONE_PIDFD` and
//! `CLONE_AUTOREAP` (the killed child has nobody left to reap it, so the
//! kernel does; `exit_signal` must then be 0 and the child is invisible to
//! `wait`: its exit status comes from the pidfd, see
//! `wait::wait_exit_info`), and, for a caller without `CAP_SYS_ADMIN`, with
//! `CLONE_NNP` (the child cannot gain privileges through a setuid exec).
//! fastspawn always asks for all four, so the behaviour does not depend on
//! the caller's capabilities.
//!
//! # Safety
//!
//! The probe makes one `clone3` call that cannot create a process: it asks
//! for `CLONE_INTO_CGROUP` with an fd that is not a cgroup directory
//! (`/dev/null`), which the kernel rejects with `EBADF` after it validated
//! the flags. A kernel that does not know the flag rejects it first with
//! `EINVAL`. No pointer the kernel could write through outlives the call.

use std::os::fd::AsRawFd;
use std::sync::OnceLock;

/// `CLONE_AUTOREAP` (`1 << 34`, uapi of Linux 7.1): reaped by the kernel.
pub(crate) const CLONE_AUTOREAP: u64 = 1 << 34;
/// `CLONE_NNP` (`1 << 35`, uapi of Linux 7.1): `no_new_privs` from birth.
pub(crate) const CLONE_NNP: u64 = 1 << 35;
/// `CLONE_PIDFD_AUTOKILL` (`1 << 36`, uapi of Linux 7.1).
pub(crate) const CLONE_PIDFD_AUTOKILL: u64 = 1 << 36;
/// The flags an autokill spawn adds to its `clone3` (with `CLONE_PIDFD`).
pub(crate) const AUTOKILL_FLAGS: u64 = CLONE_PIDFD_AUTOKILL | CLONE_AUTOREAP | CLONE_NNP;
const CLONE_INTO_CGROUP: u64 = 0x2_0000_0000;

/// The kernel's `struct clone_args`, version 2.
#[repr(C)]
#[derive(Default)]
struct CloneArgs {
    flags: u64,
    pidfd: u64,
    child_tid: u64,
    parent_tid: u64,
    exit_signal: u64,
    stack: u64,
    stack_size: u64,
    tls: u64,
    set_tid: u64,
    set_tid_size: u64,
    cgroup: u64,
}

/// Whether the kernel accepts `CLONE_PIDFD_AUTOKILL`, probed once.
pub(crate) fn supported() -> bool {
    static SUPPORTED: OnceLock<bool> = OnceLock::new();
    *SUPPORTED.get_or_init(probe)
}

fn probe() -> bool {
    if !crate::engine::features().clone3 {
        return false;
    }
    let Ok(null) = std::fs::File::open("/dev/null") else {
        return false;
    };
    let mut pidfd: i32 = -1;
    let mut args = CloneArgs {
        flags: libc::CLONE_PIDFD as u64 | AUTOKILL_FLAGS | CLONE_INTO_CGROUP,
        pidfd: &mut pidfd as *mut i32 as u64,
        // CLONE_AUTOREAP children send no exit signal.
        exit_signal: 0,
        cgroup: null.as_raw_fd() as u64,
        ..CloneArgs::default()
    };
    // SAFETY: see the file header: the cgroup fd is not a cgroup, so no
    // process is created; `args` and `pidfd` outlive the call.
    let ret = unsafe {
        libc::syscall(
            libc::SYS_clone3,
            &mut args as *mut CloneArgs,
            std::mem::size_of::<CloneArgs>(),
        )
    };
    let errno = std::io::Error::last_os_error().raw_os_error();
    if ret > 0 {
        // Cannot happen (the cgroup fd is invalid); if it did, the child
        // runs our code after a fork: make it leave at once.
        // SAFETY: plain integers.
        unsafe { libc::waitpid(ret as i32, std::ptr::null_mut(), 0) };
        return true;
    }
    if ret == 0 {
        // SAFETY: we are the unexpected child of a fork; leave without
        // running any of the parent's code.
        unsafe { libc::_exit(0) };
    }
    // EINVAL: unknown flag. ENOSYS/EPERM: no clone3 here. Anything else
    // (EBADF from the cgroup fd) means the flags passed validation.
    !matches!(errno, Some(libc::EINVAL | libc::ENOSYS | libc::EPERM))
}
