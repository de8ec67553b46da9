//! Waiting for and signalling a child: through its pidfd when there is one,
//! by pid otherwise.
//!
//! `waitid(P_PIDFD)` needs Linux 5.4, `pidfd_send_signal` 5.1,
//! `pidfd_open` 5.3.

use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, OwnedFd};

use rustix::process::{Pid, WaitId, WaitIdOptions, WaitIdStatus, WaitOptions};

/// Waits for the child to exit; with `nohang`, returns `None` if it has not.
/// The result is a raw wait status, as `waitpid` reports it.
pub(crate) fn wait(
    pidfd: Option<BorrowedFd<'_>>,
    pid: i32,
    nohang: bool,
) -> io::Result<Option<i32>> {
    loop {
        let result = match pidfd {
            Some(fd) => {
                let mut options = WaitIdOptions::EXITED;
                if nohang {
                    options |= WaitIdOptions::NOHANG;
                }
                rustix::process::waitid(WaitId::PidFd(fd), options)
                    .map(|status| status.map(|s| raw_status(&s)))
            }
            None => {
                let pid =
                    Pid::from_raw(pid).ok_or_else(|| io::Error::from_raw_os_error(libc::ECHILD))?;
                let options = if nohang {
                    WaitOptions::NOHANG
                } else {
                    WaitOptions::empty()
                };
                rustix::process::waitpid(Some(pid), options)
                    .map(|status| status.map(|(_, s)| s.as_raw()))
            }
        };
        match result {
            Err(rustix::io::Errno::INTR) => continue,
            Err(errno) => return Err(errno.into()),
            Ok(status) => return Ok(status),
        }
    }
}

/// The `waitpid`-style raw status of a `waitid` result.
fn raw_status(status: &WaitIdStatus) -> i32 {
    if let Some(code) = status.exit_status() {
        return (code & 0xff) << 8;
    }
    match status.terminating_signal() {
        Some(signal) if status.dumped() => signal | 0x80,
        Some(signal) => signal,
        // Only exited and killed children are waited for (WEXITED).
        None => 0,
    }
}

/// Sends `signal` through the pidfd, or with `kill` when there is none.
pub(crate) fn send_signal(pidfd: Option<BorrowedFd<'_>>, pid: i32, signal: i32) -> io::Result<()> {
    // SAFETY: plain integers; a NULL siginfo means "as kill() would send it".
    let ret = unsafe {
        match pidfd {
            Some(fd) => libc::syscall(libc::SYS_pidfd_send_signal, fd.as_raw_fd(), signal, 0, 0),
            None => libc::kill(pid, signal) as libc::c_long,
        }
    };
    if ret < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// `pidfd_open(pid)`, or `None` when the kernel has no pidfds.
pub(crate) fn pidfd_open(pid: i32) -> Option<OwnedFd> {
    if !crate::engine::pidfd_usable() {
        return None;
    }
    let pid = Pid::from_raw(pid)?;
    rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()).ok()
}

/// A pidfd for `pid`, made after the spawn (when a [`Child`](crate::Child)
/// first needs one), and only if `pid` is still an unreaped child of this
/// process: then the pid cannot have been recycled, because a child's pid
/// stays taken until its parent reaps it, so the pidfd refers to the
/// process that was spawned. `ECHILD` means it was reaped by other code
/// (`waitpid(-1)`, `SIGCHLD` ignored), and nothing may be sent to that pid.
pub(crate) fn pidfd_of_child(pid: i32) -> io::Result<OwnedFd> {
    let raw = Pid::from_raw(pid).ok_or_else(|| io::Error::from_raw_os_error(libc::ECHILD))?;
    let opened = if crate::engine::pidfd_usable() {
        rustix::process::pidfd_open(raw, rustix::process::PidfdFlags::empty())
            .map_err(io::Error::from)
    } else {
        Err(io::Error::from_raw_os_error(libc::ENOSYS))
    };
    // Checked after the open: a pidfd made while the pid was still ours
    // refers to our child. On failure (no fd, no pidfds, the process gone)
    // ECHILD tells the caller the pid is no longer ours to use.
    still_our_child(pid)?;
    opened
}

/// `Ok` while `pid` is a child of this process that nobody reaped (alive or
/// a zombie); `ECHILD` otherwise. Reaps nothing (`WNOWAIT`).
pub(crate) fn still_our_child(pid: i32) -> io::Result<()> {
    // SAFETY: siginfo is plain data to be filled in.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: info is a live siginfo_t; the id is a plain pid.
        let ret = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            )
        };
        if ret == 0 {
            return Ok(());
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}
