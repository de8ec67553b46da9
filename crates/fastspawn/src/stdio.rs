//! What the child's stdin, stdout and stderr are, and the parent's ends of
//! its pipes.
//!
//! The types mirror `std::process::{Stdio, ChildStdin, ChildStdout,
//! ChildStderr}`, and convert from std's handles, so a pipe of a std child can
//! feed a fastspawn child and the other way round.

use std::fs::File;
use std::io::{self, IoSlice, IoSliceMut, Read, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, IntoRawFd, OwnedFd, RawFd};

/// How to set up one of the child's standard streams.
#[derive(Debug)]
pub struct Stdio(pub(crate) StdioKind);

#[derive(Debug)]
pub(crate) enum StdioKind {
    Inherit,
    Null,
    Piped,
    Fd(OwnedFd),
}

impl Stdio {
    /// The child uses the parent's stream: the fd is left in place, as with
    /// std, so if the parent marked its own fd 0, 1 or 2 close-on-exec (some
    /// runtimes do), the child starts without it. To hand such a stream on
    /// regardless, pass a duplicate (`Stdio::from(fd.try_clone_to_owned()?)`),
    /// which is mapped into place without the flag.
    pub fn inherit() -> Stdio {
        Stdio(StdioKind::Inherit)
    }

    /// The child's stream is `/dev/null`.
    pub fn null() -> Stdio {
        Stdio(StdioKind::Null)
    }

    /// A new pipe connects the child's stream to the parent, which finds its
    /// end in [`Child::stdin`](crate::Child::stdin) and so on.
    pub fn piped() -> Stdio {
        Stdio(StdioKind::Piped)
    }

    /// Whether this is [`Stdio::piped`].
    pub fn makes_pipe(&self) -> bool {
        matches!(self.0, StdioKind::Piped)
    }
}

impl From<OwnedFd> for Stdio {
    fn from(fd: OwnedFd) -> Stdio {
        Stdio(StdioKind::Fd(fd))
    }
}

impl From<File> for Stdio {
    fn from(file: File) -> Stdio {
        Stdio::from(OwnedFd::from(file))
    }
}

macro_rules! stdio_from_owned {
    ($($ty:ty),* $(,)?) => {$(
        impl From<$ty> for Stdio {
            fn from(handle: $ty) -> Stdio {
                Stdio::from(OwnedFd::from(handle))
            }
        }
    )*};
}

stdio_from_owned!(
    ChildStdin,
    ChildStdout,
    ChildStderr,
    std::process::ChildStdin,
    std::process::ChildStdout,
    std::process::ChildStderr,
    std::io::PipeReader,
    std::io::PipeWriter,
);

impl From<io::Stdout> for Stdio {
    /// The child writes to a duplicate of the parent's stdout.
    fn from(out: io::Stdout) -> Stdio {
        match out.as_fd().try_clone_to_owned() {
            Ok(fd) => Stdio::from(fd),
            Err(_) => Stdio::inherit(),
        }
    }
}

impl From<io::Stderr> for Stdio {
    /// The child writes to a duplicate of the parent's stderr.
    fn from(err: io::Stderr) -> Stdio {
        match err.as_fd().try_clone_to_owned() {
            Ok(fd) => Stdio::from(fd),
            Err(_) => Stdio::inherit(),
        }
    }
}

macro_rules! pipe_end {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name(File);

        impl $name {
            pub(crate) fn new(fd: OwnedFd) -> $name {
                $name(File::from(fd))
            }
        }

        impl AsFd for $name {
            fn as_fd(&self) -> BorrowedFd<'_> {
                self.0.as_fd()
            }
        }

        impl AsRawFd for $name {
            fn as_raw_fd(&self) -> RawFd {
                self.0.as_raw_fd()
            }
        }

        impl IntoRawFd for $name {
            fn into_raw_fd(self) -> RawFd {
                self.0.into_raw_fd()
            }
        }

        impl From<$name> for OwnedFd {
            fn from(end: $name) -> OwnedFd {
                end.0.into()
            }
        }

        impl From<OwnedFd> for $name {
            fn from(fd: OwnedFd) -> $name {
                $name::new(fd)
            }
        }
    };
}

pipe_end!(
    /// The parent's writing end of the child's stdin.
    ChildStdin
);
pipe_end!(
    /// The parent's reading end of the child's stdout.
    ChildStdout
);
pipe_end!(
    /// The parent's reading end of the child's stderr.
    ChildStderr
);

impl Write for ChildStdin {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf)
    }
    fn write_vectored(&mut self, bufs: &[IoSlice<'_>]) -> io::Result<usize> {
        self.0.write_vectored(bufs)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Write for &ChildStdin {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        (&self.0).write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

macro_rules! read_end {
    ($($name:ident),*) => {$(
        impl Read for $name {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.0.read(buf)
            }
            fn read_vectored(&mut self, bufs: &mut [IoSliceMut<'_>]) -> io::Result<usize> {
                self.0.read_vectored(bufs)
            }
            // std's own readers fill the spare capacity of the Vec or String
            // without zeroing it first; delegating to `File` keeps that.
            // (`Read::read_buf`, which reads into an uninitialised buffer
            // passed by the caller, is unstable: std implements it for its
            // ChildStdout on nightly only, so it cannot be offered here.)
            fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
                self.0.read_to_end(buf)
            }
            fn read_to_string(&mut self, buf: &mut String) -> io::Result<usize> {
                self.0.read_to_string(buf)
            }
        }
    )*};
}

read_end!(ChildStdout, ChildStderr);
