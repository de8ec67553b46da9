//! The async `Child` and its pipes.

use std::ffi::OsStr;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use ::tokio::io::unix::AsyncFd;
use ::tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, ReadBuf};
use ::tokio::net::unix::pipe;

use crate::child::{ExitStatus, Output};
use crate::engine::Engine;
use crate::error::{Error, Result, Step};
use crate::reaper::{self, Orphan};
use crate::sys::reactor::register_pidfd;
use crate::sys::wait;

/// A child started by [`Command::spawn`](super::Command::spawn).
#[derive(Debug)]
pub struct Child {
    /// The parent's end of the child's stdin, when piped.
    pub stdin: Option<ChildStdin>,
    /// The parent's end of the child's stdout, when piped.
    pub stdout: Option<ChildStdout>,
    /// The parent's end of the child's stderr, when piped.
    pub stderr: Option<ChildStderr>,
    pub(super) program: Arc<OsStr>,
    pid: i32,
    pidfd: Option<AsyncFd<OwnedFd>>,
    pub(super) status: Option<ExitStatus>,
    engine: Engine,
    kill_on_drop: bool,
    /// The kernel reaps the child (`Command::autokill`).
    autoreaped: bool,
    /// The contained tree (see `tree.rs`); killed on drop with `kill_on_drop`.
    pub(super) tree: Option<Box<crate::tree::Tree>>,
}

/// Hands a child nobody will wait for to the background reaper, killing it
/// first if asked.
pub(crate) fn abandon(mut child: crate::Child, kill: bool) {
    if kill {
        let _ = child.kill();
        if child.containment().is_some() {
            let _ = child.kill_tree(libc::SIGKILL);
        }
    }
    drop((child.stdin.take(), child.stdout.take(), child.stderr.take()));
    if child.status.is_none() {
        let pidfd = child.pidfd.take().or_else(|| child.lazy_pidfd.take());
        reaper::adopt(Orphan {
            pid: child.pid,
            pidfd,
        });
    }
}

impl Child {
    /// Wraps a started child for the current runtime.
    pub(crate) fn new(mut child: crate::Child, kill_on_drop: bool) -> Result<Child> {
        let program = Arc::clone(&child.program);
        let fail = |err: io::Error| Error::io(&program, Step::Stdio, err);
        let converted = (|| -> io::Result<_> {
            let stdin = child
                .stdin
                .take()
                .map(|p| pipe::Sender::from_owned_fd(p.into()))
                .transpose()?;
            let stdout = child
                .stdout
                .take()
                .map(|p| pipe::Receiver::from_owned_fd(p.into()))
                .transpose()?;
            let stderr = child
                .stderr
                .take()
                .map(|p| pipe::Receiver::from_owned_fd(p.into()))
                .transpose()?;
            Ok((stdin, stdout, stderr))
        })();
        let (stdin, stdout, stderr) = match converted {
            Ok(ends) => ends,
            Err(err) => {
                abandon(child, kill_on_drop);
                return Err(fail(err));
            }
        };
        // A child spawned for the sync API (spawn_many's pool threads)
        // makes its pidfd now, while it is surely unreaped and ours.
        let made = child.pidfd.take().or_else(|| {
            child.pidfd();
            child.lazy_pidfd.take()
        });
        let pidfd = match made.map(register_pidfd) {
            None => None,
            Some(Ok(fd)) => Some(fd),
            Some(Err((err, fd))) => {
                child.pidfd = Some(fd);
                abandon(child, kill_on_drop);
                return Err(fail(err));
            }
        };
        Ok(Child {
            stdin: stdin.map(ChildStdin),
            stdout: stdout.map(ChildStdout),
            stderr: stderr.map(ChildStderr),
            program,
            pid: child.pid,
            pidfd,
            status: child.status,
            engine: child.engine,
            kill_on_drop,
            autoreaped: child.autoreaped,
            tree: child.tree.take(),
        })
    }

    /// The child's pid, until it has been waited for (as tokio's).
    pub fn id(&self) -> Option<u32> {
        self.status.is_none().then_some(self.pid as u32)
    }

    /// Which engine started the child.
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// Whether the child is waited for through a pidfd on the reactor.
    pub fn has_pidfd(&self) -> bool {
        self.pidfd.is_some()
    }

    /// The pidfd that refers to the child, when it has one.
    pub fn pidfd(&self) -> Option<std::os::fd::BorrowedFd<'_>> {
        self.pidfd.as_ref().map(|fd| fd.get_ref().as_fd())
    }

    fn error(&self, step: Step, err: io::Error) -> Error {
        Error::io(&self.program, step, err)
    }

    /// The exit status if the child has exited, without waiting.
    pub fn try_wait(&mut self) -> Result<Option<ExitStatus>> {
        if self.status.is_none() {
            let fd = self.pidfd.as_ref().map(|fd| fd.get_ref().as_fd());
            let raw = wait::wait_reaped_or_not(fd, self.pid, self.autoreaped, true)
                .map_err(|e| self.error(Step::Wait, e))?;
            self.status = raw.map(ExitStatus);
        }
        Ok(self.status)
    }

    /// Waits for the child to exit, without blocking the runtime. Closes
    /// stdin first. Cancel-safe: dropping the future loses nothing. When the
    /// runtime that spawned the child is gone, the pidfd is registered with
    /// the runtime running this call instead (as `tokio::process` keeps
    /// working in another runtime); outside any tokio runtime the wait
    /// blocks the calling thread.
    pub async fn wait(&mut self) -> Result<ExitStatus> {
        drop(self.stdin.take());
        loop {
            if let Some(status) = self.try_wait()? {
                return Ok(status);
            }
            match &self.pidfd {
                Some(fd) => {
                    let mut ready = match fd.readable().await {
                        Ok(ready) => ready,
                        // The reactor it was registered with shut down.
                        Err(_) => {
                            self.move_to_current_runtime()?;
                            continue;
                        }
                    };
                    // Readable means exited: reap it; clear only if not yet.
                    match wait::wait_reaped_or_not(
                        Some(fd.get_ref().as_fd()),
                        self.pid,
                        self.autoreaped,
                        true,
                    ) {
                        Ok(Some(raw)) => {
                            drop(ready);
                            self.status = Some(ExitStatus(raw));
                        }
                        Ok(None) => ready.clear_ready(),
                        Err(e) => return Err(Error::io(&self.program, Step::Wait, e)),
                    }
                }
                None => {
                    let pid = self.pid;
                    let raw = ::tokio::task::spawn_blocking(move || wait::wait(None, pid, false))
                        .await
                        .map_err(|e| self.error(Step::Wait, io::Error::other(e)))?
                        .map_err(|e| self.error(Step::Wait, e))?;
                    self.status = raw.map(ExitStatus);
                }
            }
        }
    }

    /// Registers the pidfd with the runtime running now (the one it was
    /// registered with is gone); without a runtime, waits right here.
    fn move_to_current_runtime(&mut self) -> Result<()> {
        let Some(fd) = self.pidfd.take().map(AsyncFd::into_inner) else {
            return Ok(());
        };
        let fd = if ::tokio::runtime::Handle::try_current().is_ok() {
            match register_pidfd(fd) {
                Ok(fd) => {
                    self.pidfd = Some(fd);
                    return Ok(());
                }
                Err((_, fd)) => fd,
            }
        } else {
            fd
        };
        let raw = wait::wait_reaped_or_not(Some(fd.as_fd()), self.pid, self.autoreaped, false)
            .map_err(|e| self.error(Step::Wait, e))?;
        self.status = raw.map(ExitStatus);
        Ok(())
    }

    /// Sends SIGKILL without waiting (through the pidfd).
    pub fn start_kill(&mut self) -> Result<()> {
        self.send_signal(libc::SIGKILL)
    }

    /// Sends `signal` through the pidfd; a no-op once the child was reaped.
    pub fn send_signal(&mut self, signal: i32) -> Result<()> {
        if self.status.is_some() {
            return Ok(());
        }
        let fd = self.pidfd.as_ref().map(|fd| fd.get_ref().as_fd());
        wait::signal_child(fd, self.pid, signal).map_err(|e| self.error(Step::Signal, e))
    }

    /// Kills the child and waits for it.
    pub async fn kill(&mut self) -> Result<()> {
        self.start_kill()?;
        self.wait().await.map(drop)
    }

    /// Reads stdout and stderr to their ends at once, then waits.
    pub async fn wait_with_output(mut self) -> Result<Output> {
        drop(self.stdin.take());
        let (mut out, mut err) = (self.stdout.take(), self.stderr.take());
        let read_out = async {
            let mut buf = Vec::new();
            if let Some(out) = out.as_mut() {
                out.read_to_end(&mut buf).await?;
            }
            Ok::<_, io::Error>(buf)
        };
        let read_err = async {
            let mut buf = Vec::new();
            if let Some(err) = err.as_mut() {
                err.read_to_end(&mut buf).await?;
            }
            Ok::<_, io::Error>(buf)
        };
        let (stdout, stderr) =
            ::tokio::try_join!(read_out, read_err).map_err(|e| self.error(Step::Output, e))?;
        let status = self.wait().await?;
        Ok(Output {
            status,
            stdout,
            stderr,
        })
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        // A contained tree may outlive its waited-for child: kill_on_drop
        // kills what is left of it either way.
        if let (true, Some(tree)) = (self.kill_on_drop, &self.tree) {
            let _ = tree.kill(&self.program, libc::SIGKILL, self.status.is_some());
        }
        if self.status.is_some() {
            return;
        }
        if self.kill_on_drop {
            let _ = self.start_kill();
        }
        if self.autoreaped {
            // The kernel reaps it; closing its pidfd kills it (autokill).
            return;
        }
        let pidfd = self.pidfd.take().map(AsyncFd::into_inner);
        reaper::adopt(Orphan {
            pid: self.pid,
            pidfd,
        });
    }
}

/// The parent's writing end of an async child's stdin. The child sees end
/// of input when this is dropped (`shutdown` does not close a pipe).
#[derive(Debug)]
pub struct ChildStdin(pipe::Sender);

/// The parent's reading end of an async child's stdout.
#[derive(Debug)]
pub struct ChildStdout(pipe::Receiver);

/// The parent's reading end of an async child's stderr.
#[derive(Debug)]
pub struct ChildStderr(pipe::Receiver);

impl AsyncWrite for ChildStdin {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write(cx, buf)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.0.is_write_vectored()
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }
}

macro_rules! async_read {
    ($($name:ident),*) => {$(
        impl AsyncRead for $name {
            fn poll_read(
                mut self: Pin<&mut Self>,
                cx: &mut Context<'_>,
                buf: &mut ReadBuf<'_>,
            ) -> Poll<io::Result<()>> {
                Pin::new(&mut self.0).poll_read(cx, buf)
            }
        }
    )*};
}

async_read!(ChildStdout, ChildStderr);

macro_rules! as_fd {
    ($($name:ident),*) => {$(
        impl AsFd for $name {
            fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
                self.0.as_fd()
            }
        }
    )*};
}

as_fd!(ChildStdin, ChildStdout, ChildStderr);

macro_rules! into_stdio {
    ($($name:ident),*) => {$(
        impl TryFrom<$name> for crate::Stdio {
            type Error = io::Error;

            /// The pipe end, taken off the reactor and made blocking again,
            /// as another child's stream (as tokio's `TryInto<Stdio>`), so
            /// one child's stdout can feed another's stdin.
            fn try_from(end: $name) -> io::Result<crate::Stdio> {
                let fd = end.0.into_blocking_fd()?;
                Ok(crate::Stdio::from(fd))
            }
        }
    )*};
}

into_stdio!(ChildStdin, ChildStdout, ChildStderr);
