//! A running child, its exit status, and its collected output.
//!
//! # Signals never hit a recycled pid
//!
//! A pid is only given to another process once its parent reaps it. A
//! [`Child`] is reaped by its own `wait`/`try_wait`, which remember the
//! status: after that every signal call is a no-op, as with std. Before
//! that, the pid still names the child. So a [`Child`] from
//! [`Command::spawn`](crate::Command::spawn) makes its pidfd only when
//! first needed (a signal, [`Child::pidfd`], [`Child::into_pidfd`], the
//! async reactor): `pidfd_open(pid)` followed by a check that the pid is
//! still an unreaped child of this process (`waitid(WNOWAIT)`), which makes
//! the pidfd refer to the spawned process. Waiting needs no pidfd
//! (`waitpid(pid)`). This saves the pidfd's cost (~4-10 µs) on every
//! spawn that is only waited for.
//!
//! The limit: code elsewhere in the process that reaps children it did not
//! start (`waitpid(-1)`, `SIGCHLD` set to `SIG_IGN`) can reap this child
//! first. Then the check fails (`ECHILD`) and no signal is sent, unless a
//! pidfd was made before: call [`Child::pidfd`] right after the spawn (or
//! use the async API, whose children get theirs at once) to hold one for
//! the child's whole life. Without pidfd support (Linux < 5.3) the pid is
//! used, as std does.
//!
//! Like std, dropping a `Child` neither kills nor reaps it.

use std::fmt;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::OnceLock;

use crate::engine::Engine;
use crate::error::{Error, Result, Step};
use crate::stdio::{ChildStderr, ChildStdin, ChildStdout};
use crate::sys;

/// A child process started by [`Command::spawn`](crate::Command::spawn).
pub struct Child {
    /// The parent's end of the child's stdin, when it was [`Stdio::piped`](crate::Stdio::piped).
    pub stdin: Option<ChildStdin>,
    /// The parent's end of the child's stdout, when it was piped.
    pub stdout: Option<ChildStdout>,
    /// The parent's end of the child's stderr, when it was piped.
    pub stderr: Option<ChildStderr>,
    pub(crate) program: std::sync::Arc<std::ffi::OsStr>,
    pub(crate) pid: i32,
    pub(crate) pidfd: Option<OwnedFd>,
    /// Made on first use when the command wanted a pidfd but the spawn did
    /// not make one (see the module docs).
    pub(crate) lazy_pidfd: OnceLock<OwnedFd>,
    /// Whether the command wanted a pidfd (`Command::pidfd`).
    pub(crate) wants_pidfd: bool,
    /// The kernel reaps the child (`Command::autokill`): its status comes
    /// from the pidfd (`sys::wait::wait_exit_info`).
    pub(crate) autoreaped: bool,
    pub(crate) status: Option<ExitStatus>,
    pub(crate) engine: Engine,
    /// The contained tree (`tree/`), when the command asked for one.
    pub(crate) tree: Option<Box<crate::tree::Tree>>,
}

impl Child {
    /// The child's process id.
    pub fn id(&self) -> u32 {
        self.pid as u32
    }

    /// The pidfd that refers to the child, made now if the spawn did not
    /// (see the module docs), when the kernel supports pidfds. `None` after
    /// [`Command::pidfd(false)`](crate::Command::pidfd), once the child was
    /// reaped without one, or when no fd is free. A pidfd stays valid after
    /// the child is reaped (it then refers to no process).
    pub fn pidfd(&self) -> Option<BorrowedFd<'_>> {
        self.pidfd_or_make().ok().flatten()
    }

    /// The pidfd if the spawn or an earlier call made one, without making
    /// one (a child watched on the [`ExitRing`](crate::exit_ring::ExitRing)
    /// has none until it is asked for).
    pub fn pidfd_if_made(&self) -> Option<BorrowedFd<'_>> {
        self.pidfd_made()
    }

    /// The pidfd made so far, without making one.
    pub(crate) fn pidfd_made(&self) -> Option<BorrowedFd<'_>> {
        self.pidfd
            .as_ref()
            .or_else(|| self.lazy_pidfd.get())
            .map(|fd| fd.as_fd())
    }

    /// The pidfd, made now if needed; `Err(ECHILD)` when the child was
    /// reaped by other code, so its pid must not be used.
    fn pidfd_or_make(&self) -> std::io::Result<Option<BorrowedFd<'_>>> {
        if let Some(fd) = self.pidfd_made() {
            return Ok(Some(fd));
        }
        if !self.wants_pidfd || self.status.is_some() {
            return Ok(None);
        }
        match sys::wait::pidfd_of_child(self.pid) {
            Ok(fd) => {
                // Another thread may have made one meanwhile: keep the first.
                let _ = self.lazy_pidfd.set(fd);
                Ok(self.lazy_pidfd.get().map(|fd| fd.as_fd()))
            }
            Err(err) if err.raw_os_error() == Some(libc::ECHILD) => Err(err),
            // No fd free, no pidfds: use the pid, which is still ours.
            Err(_) => Ok(None),
        }
    }

    /// The child's pidfd as a [`PidFd`](crate::PidFd) (made now if the
    /// spawn did not), or the child back when it has none (see
    /// [`pidfd`](Self::pidfd)). Like std's `ChildExt::into_pidfd`.
    pub fn into_pidfd(mut self) -> std::result::Result<crate::PidFd, Child> {
        if self.pidfd.is_none() && self.lazy_pidfd.get().is_none() && self.pidfd().is_none() {
            return Err(self);
        }
        let fd = self
            .pidfd
            .take()
            .or_else(|| self.lazy_pidfd.take())
            .expect("checked above");
        Ok(if self.autoreaped {
            crate::PidFd::autoreaped(fd)
        } else {
            crate::PidFd::from(fd)
        })
    }

    /// Which engine really started the child (never [`Engine::Auto`]).
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// Waits for the child to exit. Closes the child's stdin first, so a
    /// child that reads until end of input finishes.
    pub fn wait(&mut self) -> Result<ExitStatus> {
        loop {
            if let Some(status) = self.wait_interruptible()? {
                return Ok(status);
            }
        }
    }

    /// Returns the exit status if the child has exited, without blocking.
    pub fn try_wait(&mut self) -> Result<Option<ExitStatus>> {
        if let Some(status) = self.status {
            return Ok(Some(status));
        }
        let raw = self
            .wait_raw(true)
            .map_err(|err| Error::io(&self.program, Step::Wait, err))?;
        self.status = raw.map(ExitStatus);
        Ok(self.status)
    }

    /// [`wait`](Self::wait), but `None` when a signal interrupts it
    /// (`EINTR`; a child the kernel reaps itself is waited for whole).
    pub(crate) fn wait_interruptible(&mut self) -> Result<Option<ExitStatus>> {
        drop(self.stdin.take());
        if self.status.is_some() {
            return Ok(self.status);
        }
        let raw = if self.autoreaped {
            self.wait_raw(false)
        } else {
            sys::wait::wait_interruptible(self.pidfd_made(), self.pid)
        }
        .map_err(|err| Error::io(&self.program, Step::Wait, err))?;
        self.status = raw.map(ExitStatus);
        Ok(self.status)
    }

    fn wait_raw(&self, nohang: bool) -> std::io::Result<Option<i32>> {
        sys::wait::wait_reaped_or_not(self.pidfd_made(), self.pid, self.autoreaped, nohang)
    }

    /// Sends `SIGKILL`. Like std, it succeeds if the child already exited.
    pub fn kill(&mut self) -> Result<()> {
        self.send_signal(libc::SIGKILL)
    }

    /// Sends `signal` through the pidfd. A child that was already reaped is
    /// not signalled (its pid may belong to another process by now) and the
    /// call succeeds, as [`kill`](Self::kill) does in std; so does one that
    /// other code reaped (std would `kill` its pid: `ESRCH`, or a recycled
    /// pid's process).
    pub fn send_signal(&mut self, signal: i32) -> Result<()> {
        if self.status.is_some() {
            return Ok(());
        }
        let pidfd = match self.pidfd_or_make() {
            Ok(pidfd) => pidfd,
            // Reaped by other code: its pid may name another process now.
            Err(_) => return Ok(()),
        };
        sys::wait::signal_child(pidfd, self.pid, signal)
            .map_err(|err| Error::io(&self.program, Step::Signal, err))
    }

    /// Closes stdin, reads stdout and stderr to their ends (both at once, so
    /// neither pipe can fill up and stall the child), then waits: a
    /// [`communicate`](Self::communicate) with the child's own stdout and
    /// stderr as the outputs, and no deadline.
    pub fn wait_with_output(mut self) -> Result<Output> {
        let (has_out, has_err) = (self.stdout.is_some(), self.stderr.is_some());
        let mut exchange = crate::Exchange::new();
        if let Some(out) = self.stdout.take() {
            exchange = exchange.output(out);
        }
        if let Some(err) = self.stderr.take() {
            exchange = exchange.output(err);
        }
        let run = self.communicate(exchange)?;
        let mut outputs = run.outputs.into_iter().map(|o| o.data);
        let stdout = if has_out { outputs.next() } else { None };
        let stderr = if has_err { outputs.next() } else { None };
        Ok(Output {
            status: run.status,
            stdout: stdout.unwrap_or_default(),
            stderr: stderr.unwrap_or_default(),
        })
    }
}

impl fmt::Debug for Child {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Child")
            .field("pid", &self.pid)
            .field("engine", &self.engine)
            .field("stdin", &self.stdin)
            .field("stdout", &self.stdout)
            .field("stderr", &self.stderr)
            .finish_non_exhaustive()
    }
}

/// How a child ended: the raw wait status, as `std::process::ExitStatus`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ExitStatus(pub(crate) i32);

impl ExitStatus {
    /// Builds a status from a raw wait status (as `waitpid` reports it).
    pub fn from_raw(raw: i32) -> ExitStatus {
        ExitStatus(raw)
    }

    /// The raw wait status.
    pub fn into_raw(self) -> i32 {
        self.0
    }

    /// True when the child exited with code 0.
    pub fn success(self) -> bool {
        self.code() == Some(0)
    }

    /// The exit code, when the child exited normally.
    pub fn code(self) -> Option<i32> {
        libc::WIFEXITED(self.0).then(|| libc::WEXITSTATUS(self.0))
    }

    /// The signal that killed the child, if one did.
    pub fn signal(self) -> Option<i32> {
        libc::WIFSIGNALED(self.0).then(|| libc::WTERMSIG(self.0))
    }

    /// Whether the child dumped core when it was killed.
    pub fn core_dumped(self) -> bool {
        libc::WIFSIGNALED(self.0) && libc::WCOREDUMP(self.0)
    }

    /// `Ok(())` when the child exited with code 0, otherwise the status as
    /// an error (std's `ExitStatus::exit_ok`, unstable there as
    /// `exit_status_error`).
    pub fn exit_ok(self) -> std::result::Result<(), ExitStatusError> {
        if self.success() {
            Ok(())
        } else {
            Err(ExitStatusError(self))
        }
    }
}

/// A status that was not success: exit code other than 0, or a signal
/// (std's `ExitStatusError`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ExitStatusError(ExitStatus);

impl ExitStatusError {
    /// The exit code, when the child exited (never 0).
    pub fn code(self) -> Option<i32> {
        self.0.code()
    }

    /// The exit code as a `NonZeroI32`, when the child exited.
    pub fn code_nonzero(self) -> Option<std::num::NonZeroI32> {
        self.0.code().and_then(std::num::NonZeroI32::new)
    }

    /// The signal that killed the child, if one did.
    pub fn signal(self) -> Option<i32> {
        self.0.signal()
    }

    /// The status itself.
    pub fn into_status(self) -> ExitStatus {
        self.0
    }
}

impl fmt::Display for ExitStatusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for ExitStatusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ExitStatusError").field(&self.0).finish()
    }
}

impl std::error::Error for ExitStatusError {}

impl From<ExitStatusError> for ExitStatus {
    fn from(err: ExitStatusError) -> ExitStatus {
        err.0
    }
}

impl From<ExitStatus> for std::process::ExitStatus {
    fn from(status: ExitStatus) -> std::process::ExitStatus {
        std::os::unix::process::ExitStatusExt::from_raw(status.0)
    }
}

impl From<std::process::ExitStatus> for ExitStatus {
    fn from(status: std::process::ExitStatus) -> ExitStatus {
        ExitStatus(std::os::unix::process::ExitStatusExt::into_raw(status))
    }
}

impl fmt::Display for ExitStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&std::process::ExitStatus::from(*self), f)
    }
}

impl fmt::Debug for ExitStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&std::process::ExitStatus::from(*self), f)
    }
}

/// The collected output of a finished child.
#[derive(Clone, PartialEq, Eq)]
pub struct Output {
    /// How it exited.
    pub status: ExitStatus,
    /// All it wrote to stdout.
    pub stdout: Vec<u8>,
    /// All it wrote to stderr.
    pub stderr: Vec<u8>,
}

impl fmt::Debug for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Output")
            .field("status", &self.status)
            .field("stdout", &String::from_utf8_lossy(&self.stdout))
            .field("stderr", &String::from_utf8_lossy(&self.stderr))
            .finish()
    }
}

impl From<Output> for std::process::Output {
    fn from(out: Output) -> std::process::Output {
        std::process::Output {
            status: out.status.into(),
            stdout: out.stdout,
            stderr: out.stderr,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_decoding_matches_std() {
        let exited = ExitStatus::from_raw(3 << 8);
        assert_eq!(exited.code(), Some(3));
        assert_eq!(exited.signal(), None);
        assert!(!exited.success());
        assert!(ExitStatus::from_raw(0).success());
        let killed = ExitStatus::from_raw(libc::SIGKILL);
        assert_eq!(killed.code(), None);
        assert_eq!(killed.signal(), Some(libc::SIGKILL));
        let std_status: std::process::ExitStatus = killed.into();
        assert_eq!(killed.to_string(), std_status.to_string());
    }
}
