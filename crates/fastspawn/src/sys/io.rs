//! Reading a child's stdout and stderr at once, so that neither pipe fills
//! up and stalls the child while the parent waits on the other.

use std::io::{self, Read};
use std::os::fd::AsFd;

use rustix::event::{PollFd, PollFlags, poll};
use rustix::io::{Errno, ioctl_fionbio};

use crate::stdio::{ChildStderr, ChildStdout};

/// Reads both streams to their ends.
pub(crate) fn read2(
    out: Option<ChildStdout>,
    err: Option<ChildStderr>,
) -> io::Result<(Vec<u8>, Vec<u8>)> {
    let mut out_buf = Vec::new();
    let mut err_buf = Vec::new();
    match (out, err) {
        (None, None) => {}
        (Some(mut out), None) => {
            out.read_to_end(&mut out_buf)?;
        }
        (None, Some(mut err)) => {
            err.read_to_end(&mut err_buf)?;
        }
        (Some(mut out), Some(mut err)) => {
            ioctl_fionbio(&out, true)?;
            ioctl_fionbio(&err, true)?;
            let (mut out_open, mut err_open) = (true, true);
            while out_open || err_open {
                let mut fds = Vec::with_capacity(2);
                if out_open {
                    fds.push(PollFd::new(&out, PollFlags::IN));
                }
                if err_open {
                    fds.push(PollFd::new(&err, PollFlags::IN));
                }
                match poll(&mut fds, None) {
                    Ok(_) => {}
                    Err(Errno::INTR) => continue,
                    Err(e) => return Err(e.into()),
                }
                drop(fds);
                if out_open {
                    out_open = drain(&mut out, &mut out_buf)?;
                }
                if err_open {
                    err_open = drain(&mut err, &mut err_buf)?;
                }
            }
        }
    }
    Ok((out_buf, err_buf))
}

/// Reads what is available now; returns false at end of file.
fn drain(src: &mut (impl Read + AsFd), buf: &mut Vec<u8>) -> io::Result<bool> {
    let mut chunk = [0u8; 64 * 1024];
    loop {
        match src.read(&mut chunk) {
            Ok(0) => return Ok(false),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(true),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

impl std::os::fd::FromRawFd for crate::Stdio {
    /// Takes ownership of `fd` as the child's stream (as std's
    /// `Stdio::from_raw_fd`); it is closed when the `Stdio` is dropped.
    ///
    /// # Safety
    /// `fd` must be open and owned by nobody else.
    unsafe fn from_raw_fd(fd: std::os::fd::RawFd) -> crate::Stdio {
        // SAFETY: the caller hands over an open fd it owns.
        crate::Stdio::from(unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) })
    }
}
