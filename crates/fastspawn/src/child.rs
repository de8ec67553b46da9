//! A running child, its exit status, and its collected output.
//!
//! A [`Child`] started by the clone engines holds a pidfd: waiting and
//! signalling go through it, so a pid recycled after the child was reaped is
//! never hit. Without pidfd support (Linux < 5.4) the pid is used, as std does.
//!
//! Like std, dropping a `Child` neither kills nor reaps it.

use std::fmt;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

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

    /// The pidfd that refers to the child, when the kernel supports pidfds.
    /// It stays valid after the child is reaped (it then refers to no process).
    pub fn pidfd(&self) -> Option<BorrowedFd<'_>> {
        self.pidfd.as_ref().map(|fd| fd.as_fd())
    }

    /// Which engine really started the child (never [`Engine::Auto`]).
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// Waits for the child to exit. Closes the child's stdin first, so a
    /// child that reads until end of input finishes.
    pub fn wait(&mut self) -> Result<ExitStatus> {
        drop(self.stdin.take());
        if let Some(status) = self.status {
            return Ok(status);
        }
        let raw = sys::wait::wait(self.pidfd.as_ref().map(|fd| fd.as_fd()), self.pid, false)
            .map_err(|err| Error::io(&self.program, Step::Wait, err))?
            .expect("a blocking wait returns a status");
        let status = ExitStatus(raw);
        self.status = Some(status);
        Ok(status)
    }

    /// Returns the exit status if the child has exited, without blocking.
    pub fn try_wait(&mut self) -> Result<Option<ExitStatus>> {
        if let Some(status) = self.status {
            return Ok(Some(status));
        }
        let raw = sys::wait::wait(self.pidfd.as_ref().map(|fd| fd.as_fd()), self.pid, true)
            .map_err(|err| Error::io(&self.program, Step::Wait, err))?;
        self.status = raw.map(ExitStatus);
        Ok(self.status)
    }

    /// Sends `SIGKILL`. Like std, it succeeds if the child already exited.
    pub fn kill(&mut self) -> Result<()> {
        self.send_signal(libc::SIGKILL)
    }

    /// Sends `signal` through the pidfd. A child that was already reaped is
    /// not signalled (its pid may belong to another process by now) and the
    /// call succeeds, as [`kill`](Self::kill) does in std.
    pub fn send_signal(&mut self, signal: i32) -> Result<()> {
        if self.status.is_some() {
            return Ok(());
        }
        sys::wait::send_signal(self.pidfd.as_ref().map(|fd| fd.as_fd()), self.pid, signal)
            .map_err(|err| Error::io(&self.program, Step::Signal, err))
    }

    /// Closes stdin, reads stdout and stderr to their ends (both at once, so
    /// neither pipe can fill up and stall the child), then waits.
    pub fn wait_with_output(mut self) -> Result<Output> {
        drop(self.stdin.take());
        let (stdout, stderr) = sys::io::read2(self.stdout.take(), self.stderr.take())
            .map_err(|err| Error::io(&self.program, Step::Output, err))?;
        let status = self.wait()?;
        Ok(Output {
            status,
            stdout,
            stderr,
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
