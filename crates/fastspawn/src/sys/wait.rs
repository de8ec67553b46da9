//! Waiting for and signalling a child: through its pidfd when there is one,
//! by pid otherwise.
//!
//! `waitid(P_PIDFD)` needs Linux 5.4, `pidfd_send_signal` 5.1,
//! `pidfd_open` 5.3. A child the kernel reaps itself (`CLONE_AUTOREAP`,
//! 7.1) is invisible to `waitid`: its status comes from the pidfd
//! (`PIDFD_GET_INFO` with `PIDFD_INFO_EXIT`, 6.15), see [`wait_exit_info`].
//!
//! # Safety
//!
//! The system calls here get plain integers, fds borrowed for the call, and
//! pointers to locals (`siginfo_t`, `pollfd`, `PidfdInfo`) that outlive it.

use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, OwnedFd};

use rustix::process::{Pid, WaitId, WaitIdOptions, WaitIdStatus, WaitOptions};

/// Waits for the child to exit; with `nohang`, returns `None` if it has not.
/// The result is a raw wait status, as `waitpid` reports it. A signal's
/// interruption (`EINTR`) restarts the wait.
pub(crate) fn wait(
    pidfd: Option<BorrowedFd<'_>>,
    pid: i32,
    nohang: bool,
) -> io::Result<Option<i32>> {
    loop {
        match wait_call(pidfd, pid, nohang) {
            Err(rustix::io::Errno::INTR) => continue,
            Err(errno) => return Err(errno.into()),
            Ok(status) => return Ok(status),
        }
    }
}

/// One blocking wait for the child's exit, as [`wait`] without `nohang`,
/// but `None` when a signal interrupts it (`EINTR`).
pub(crate) fn wait_interruptible(
    pidfd: Option<BorrowedFd<'_>>,
    pid: i32,
) -> io::Result<Option<i32>> {
    match wait_call(pidfd, pid, false) {
        Err(rustix::io::Errno::INTR) => Ok(None),
        Err(errno) => Err(errno.into()),
        Ok(status) => Ok(Some(status.expect("a blocking wait returns a status"))),
    }
}

/// One `waitid(P_PIDFD)`, or `waitpid` by pid without a pidfd.
fn wait_call(
    pidfd: Option<BorrowedFd<'_>>,
    pid: i32,
    nohang: bool,
) -> Result<Option<i32>, rustix::io::Errno> {
    match pidfd {
        Some(fd) => {
            let mut options = WaitIdOptions::EXITED;
            if nohang {
                options |= WaitIdOptions::NOHANG;
            }
            rustix::process::waitid(WaitId::PidFd(fd), options)
                .map(|status| status.map(|s| raw_status(&s)))
        }
        None => {
            let pid = Pid::from_raw(pid).ok_or(rustix::io::Errno::CHILD)?;
            let options = if nohang {
                WaitOptions::NOHANG
            } else {
                WaitOptions::empty()
            };
            rustix::process::waitpid(Some(pid), options)
                .map(|status| status.map(|(_, s)| s.as_raw()))
        }
    }
}

/// `struct pidfd_info` of `<linux/pidfd.h>`, in its first size (64 bytes,
/// `PIDFD_INFO_SIZE_VER0`); the kernel fills what the `mask` asks for.
#[repr(C)]
#[derive(Default)]
struct PidfdInfo {
    mask: u64,
    cgroupid: u64,
    ids: [u32; 11],
    exit_code: i32,
}

/// `PIDFD_INFO_EXIT`: the exit status, kept once the process was reaped.
const PIDFD_INFO_EXIT: u64 = 1 << 3;
/// `PIDFD_GET_INFO`: `_IOWR(0xFF, 11, struct pidfd_info)` with the
/// 64-byte struct (the size in the number is the version).
const PIDFD_GET_INFO: libc::c_ulong = (3 << 30) | (64 << 16) | (0xFF << 8) | 11;

/// The raw wait status the pidfd recorded for a process that was reaped
/// (by the kernel for `CLONE_AUTOREAP`, or by a `wait`), `None` while the
/// kernel has not recorded it yet. Linux 6.15; `ENOTTY`/`EINVAL` before.
pub(crate) fn exit_info(pidfd: BorrowedFd<'_>) -> io::Result<Option<i32>> {
    let mut info = PidfdInfo {
        mask: PIDFD_INFO_EXIT,
        ..PidfdInfo::default()
    };
    // SAFETY: `info` is a live 64-byte pidfd_info, the size the request
    // number names; the fd is borrowed for the call.
    let ret = unsafe { libc::ioctl(pidfd.as_raw_fd(), PIDFD_GET_INFO, &mut info) };
    if ret < 0 {
        let err = io::Error::last_os_error();
        // ESRCH: the process is gone and its exit not recorded (yet).
        return match err.raw_os_error() {
            Some(libc::ESRCH) => Ok(None),
            _ => Err(err),
        };
    }
    Ok((info.mask & PIDFD_INFO_EXIT != 0).then_some(info.exit_code))
}

/// Waits for a child the kernel reaps itself (`CLONE_AUTOREAP`): polls the
/// pidfd until the process has exited, then reads the status the kernel
/// kept (recorded as the kernel releases the process, just after the pidfd
/// turns readable). With `nohang`, `None` while it runs.
pub(crate) fn wait_exit_info(pidfd: BorrowedFd<'_>, nohang: bool) -> io::Result<Option<i32>> {
    let mut pause = std::time::Duration::from_micros(10);
    loop {
        let mut fds = libc::pollfd {
            fd: pidfd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one live pollfd, for the length given.
        let ready = unsafe { libc::poll(&mut fds, 1, if nohang { 0 } else { -1 }) };
        if ready < 0 {
            let err = io::Error::last_os_error();
            if err.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        if ready == 0 {
            return Ok(None);
        }
        if let Some(status) = exit_info(pidfd)? {
            return Ok(Some(status));
        }
        // Exited, not yet released: for a child the kernel reaps, the status
        // follows within microseconds (longer only while a tracer holds it).
        // Waited for even with `nohang`: the pidfd has already said "exited",
        // and an async caller would not be woken again.
        std::thread::sleep(pause);
        pause = (pause * 2).min(std::time::Duration::from_millis(1));
    }
}

/// [`wait`], or [`wait_exit_info`] for a child the kernel reaps itself
/// (`autoreaped`, which always has its pidfd).
pub(crate) fn wait_reaped_or_not(
    pidfd: Option<BorrowedFd<'_>>,
    pid: i32,
    autoreaped: bool,
    nohang: bool,
) -> io::Result<Option<i32>> {
    match (autoreaped, pidfd) {
        (true, Some(fd)) => wait_exit_info(fd, nohang),
        (_, pidfd) => wait(pidfd, pid, nohang),
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

/// [`send_signal`] for a `Child` (sync or async) not yet reaped by it: through
/// a pidfd, `ESRCH` means the process is gone, reaped by other code (a pidfd
/// made by the clone outlives that), and the call succeeds as std's `kill`
/// of an exited child does. (`PidFd::send_signal` keeps the `ESRCH`, as
/// std's `PidFd` does.)
pub(crate) fn signal_child(pidfd: Option<BorrowedFd<'_>>, pid: i32, signal: i32) -> io::Result<()> {
    match send_signal(pidfd, pid, signal) {
        Err(e) if pidfd.is_some() && e.raw_os_error() == Some(libc::ESRCH) => Ok(()),
        other => other,
    }
}

/// `pidfd_open(pid)`; `ENOSYS` when the kernel has no pidfds, `ESRCH` when
/// no such process exists (any more).
pub(crate) fn pidfd_open(pid: i32) -> io::Result<OwnedFd> {
    if !crate::engine::pidfd_usable() {
        return Err(io::Error::from_raw_os_error(libc::ENOSYS));
    }
    let pid = Pid::from_raw(pid).ok_or_else(|| io::Error::from_raw_os_error(libc::ESRCH))?;
    Ok(rustix::process::pidfd_open(
        pid,
        rustix::process::PidfdFlags::empty(),
    )?)
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsFd;

    fn kernel_at_least(major: u32, minor: u32) -> bool {
        let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
        let mut parts = release.trim().split(['.', '-']);
        let mut next = || {
            parts
                .next()
                .and_then(|p| p.parse::<u32>().ok())
                .unwrap_or(0)
        };
        (next(), next()) >= (major, minor)
    }

    /// The reading a `CLONE_AUTOREAP` child's wait relies on, checked on a
    /// plain child (autoreap itself needs Linux 7.1): after the child was
    /// reaped, the pidfd still gives its status, as `waitid` gave it.
    #[test]
    fn the_pidfd_keeps_the_status_waitid_gave() {
        if !kernel_at_least(6, 15) {
            eprintln!("skipped: PIDFD_INFO_EXIT needs Linux 6.15");
            return;
        }
        for (script, want) in [("exit 7", 7 << 8), ("kill -9 $$", libc::SIGKILL)] {
            let child = crate::Command::new("sh")
                .args(["-c", script])
                .spawn()
                .unwrap();
            let pidfd = child.into_pidfd().unwrap();
            let fd = pidfd.as_fd();
            let raw = wait(Some(fd), 0, false).unwrap().unwrap();
            assert_eq!(raw, want, "{script}: waitid");
            assert_eq!(exit_info(fd).unwrap(), Some(want), "{script}: pidfd info");
            assert_eq!(
                wait_exit_info(fd, true).unwrap(),
                Some(want),
                "{script}: wait_exit_info"
            );
        }
    }

    /// While the process runs there is no status, and `nohang` says so
    /// without blocking; once it was killed and released, the blocking
    /// form returns the signal.
    #[test]
    fn wait_exit_info_waits_for_the_release() {
        if !kernel_at_least(6, 15) {
            eprintln!("skipped: PIDFD_INFO_EXIT needs Linux 6.15");
            return;
        }
        let child = crate::Command::new("sleep").arg("30").spawn().unwrap();
        let pidfd = child.into_pidfd().unwrap();
        let fd = pidfd.as_fd();
        assert_eq!(wait_exit_info(fd, true).unwrap(), None);
        assert_eq!(exit_info(fd).unwrap(), None);
        pidfd.kill().unwrap();
        // A plain child is released by its parent's wait: do it from
        // another thread while this one blocks in wait_exit_info.
        let raw_fd = fd.as_raw_fd();
        let reaper = std::thread::spawn(move || {
            // SAFETY: the fd stays open until this thread is joined below.
            let fd = unsafe { BorrowedFd::borrow_raw(raw_fd) };
            wait(Some(fd), 0, false).unwrap()
        });
        let got = wait_exit_info(fd, false).unwrap();
        assert_eq!(reaper.join().unwrap(), Some(libc::SIGKILL));
        assert_eq!(got, Some(libc::SIGKILL));
    }
}
