//! A process file descriptor as a type of its own, like std's (unstable)
//! `linux_pidfd::PidFd`: wait for and signal one process without ever
//! touching a recycled pid.

use std::fmt;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, IntoRawFd, OwnedFd, RawFd};

use crate::child::ExitStatus;
use crate::sys::wait;

/// A pidfd: refers to one process for as long as it is open, even after
/// the process exited and its pid was given to another one.
///
/// Get one from [`Child::into_pidfd`](crate::Child::into_pidfd), or from any
/// `OwnedFd` that is a pidfd (`pidfd_open`, `CLONE_PIDFD`).
pub struct PidFd {
    fd: OwnedFd,
    /// The process is reaped by the kernel (`Command::autokill`): its
    /// status comes from the pidfd, not from `waitid`.
    autoreaped: bool,
}

impl PidFd {
    /// Waits for the process to exit and reaps it (`waitid(P_PIDFD)`).
    /// Only a child of this process can be waited for (`ECHILD` otherwise).
    pub fn wait(&self) -> io::Result<ExitStatus> {
        let raw = self
            .wait_raw(false)?
            .expect("a blocking wait returns a status");
        Ok(ExitStatus(raw))
    }

    fn wait_raw(&self, nohang: bool) -> io::Result<Option<i32>> {
        wait::wait_reaped_or_not(Some(self.fd.as_fd()), 0, self.autoreaped, nohang)
    }

    /// The pidfd of a child the kernel reaps itself.
    pub(crate) fn autoreaped(fd: OwnedFd) -> PidFd {
        PidFd {
            fd,
            autoreaped: true,
        }
    }

    /// The exit status if the process has exited (and reaps it), without
    /// blocking.
    pub fn try_wait(&self) -> io::Result<Option<ExitStatus>> {
        Ok(self.wait_raw(true)?.map(ExitStatus))
    }

    /// Sends `SIGKILL`.
    pub fn kill(&self) -> io::Result<()> {
        self.send_signal(libc::SIGKILL)
    }

    /// Sends `signal` (`pidfd_send_signal`). Fails with `ESRCH` once the
    /// process exited.
    pub fn send_signal(&self, signal: i32) -> io::Result<()> {
        wait::send_signal(Some(self.fd.as_fd()), 0, signal)
    }
}

impl fmt::Debug for PidFd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("PidFd").field(&self.fd.as_raw_fd()).finish()
    }
}

impl AsFd for PidFd {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

impl AsRawFd for PidFd {
    fn as_raw_fd(&self) -> RawFd {
        self.fd.as_raw_fd()
    }
}

impl IntoRawFd for PidFd {
    fn into_raw_fd(self) -> RawFd {
        self.fd.into_raw_fd()
    }
}

impl From<OwnedFd> for PidFd {
    /// Takes `fd`, which must be a pidfd (other fds make every call fail).
    fn from(fd: OwnedFd) -> PidFd {
        PidFd {
            fd,
            autoreaped: false,
        }
    }
}

impl From<PidFd> for OwnedFd {
    fn from(pidfd: PidFd) -> OwnedFd {
        pidfd.fd
    }
}
