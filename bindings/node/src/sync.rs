//! `spawnSync` (and so `execSync` and `execFileSync`): the child started
//! and run to its end on the calling JS thread, blocking it, as Node's do,
//! but through fastspawn's clone instead of libuv's `fork` (which copies
//! the page tables of the whole process on every call).
//!
//! The request is the one `spawn()` encodes (`request::build`): a piped
//! fd's parent end is a socketpair's end, read (or, for fd 0, written with
//! `input` and closed) here in one `poll` loop with the child's pidfd. As
//! Node's: the run ends when the child has exited and every piped output
//! has reached its end (a grandchild holding one open keeps it waiting);
//! `timeout` (ms) and more than `maxBuffer` bytes of output in all kill
//! the child with `killSignal` and report `ETIMEDOUT` / `ENOBUFS`, with
//! what was read until then.

use std::os::fd::{AsFd, OwnedFd};
use std::time::{Duration, Instant};

use napi::bindgen_prelude::Buffer;
use napi::{Error, Result};
use napi_derive::napi;
use rustix::event::{PollFd, PollFlags, Timespec, poll};

use crate::request::{self, HEADER, PIPE};

/// What a synchronous run gives back to JS.
#[napi(object)]
pub struct SyncRun {
    /// The child's pid (0 when it did not start).
    pub pid: i32,
    /// Its exit code, or -1 (killed by a signal, or not started).
    pub status: i32,
    /// The signal that ended it, or 0.
    pub signal: i32,
    /// 0, or `-errno`: the spawn's error (the child did not start), or
    /// `ETIMEDOUT` / `ENOBUFS` (it was killed, the other fields hold).
    pub errno: i32,
    /// By child fd: what a piped output wrote; `None` for any other fd.
    pub outputs: Vec<Option<Buffer>>,
}

fn failed(errno: i32, nfds: usize) -> SyncRun {
    SyncRun {
        pid: 0,
        status: -1,
        signal: 0,
        errno: -errno,
        outputs: (0..nfds).map(|_| None).collect(),
    }
}

/// One piped fd's parent end.
struct Piped {
    index: usize,
    fd: Option<OwnedFd>,
    data: Vec<u8>,
}

/// Runs the request `strings`/`io` (as `spawn()` encodes it) to its end.
/// `timeout_ms` 0: none; `max_buffer` < 0: no limit.
#[napi]
pub fn spawn_sync(
    strings: String,
    io: crate::IoArray<'_>,
    input: Option<Buffer>,
    timeout_ms: f64,
    max_buffer: f64,
    kill_signal: i32,
) -> Result<SyncRun> {
    let nfds = io
        .get(5)
        .and_then(|&n| usize::try_from(n).ok())
        .unwrap_or(0);
    let request = match request::build(strings, io) {
        Ok(request) => request,
        Err(err) => match err.raw_os_error() {
            Some(errno) => return Ok(failed(errno, nfds)),
            None => return Err(Error::from_reason(err.to_string())),
        },
    };
    // The parent's ends of the pipes, owned from here on (closed on every
    // path out).
    let mut piped = Vec::new();
    for i in 0..nfds {
        if io[HEADER + 2 * i] == PIPE {
            // Made by `request::build` for this call, given to nobody else.
            let Some(fd) = crate::sys::own_parent_end(io[HEADER + 2 * i + 1]) else {
                continue;
            };
            rustix::io::ioctl_fionbio(&fd, true).map_err(std::io::Error::from)?;
            piped.push(Piped {
                index: i,
                fd: Some(fd),
                data: Vec::new(),
            });
        }
    }
    let mut command = match request.into_command() {
        Ok(command) => command,
        Err(err) => return Ok(failed(err.raw_os_error().unwrap_or(libc::EINVAL), nfds)),
    };
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(err) => return Ok(failed(err.raw_os_error().unwrap_or(libc::EINVAL), nfds)),
    };
    drop(command);
    let input = input.as_deref().unwrap_or(&[]);
    let mut written = 0;
    // A timeout too large for a deadline (Node lets any integer through)
    // is none.
    let mut deadline = Duration::try_from_secs_f64(timeout_ms / 1000.0)
        .ok()
        .filter(|d| !d.is_zero())
        .and_then(|d| Instant::now().checked_add(d));
    let limit = (max_buffer >= 0.0).then_some(max_buffer);
    let mut errno = 0;
    let mut status = None;
    // fd 0, piped: written with `input`, then closed (end of input); at
    // once without input.
    if input.is_empty() {
        piped
            .iter_mut()
            .filter(|p| p.index == 0)
            .for_each(|p| p.fd = None);
    }
    loop {
        if status.is_none() {
            status = child
                .try_wait()
                .map_err(|e| Error::from_reason(e.to_string()))?;
        }
        let open = piped.iter().any(|p| p.fd.is_some());
        if status.is_some() && (!open || errno != 0) {
            break;
        }
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        if left == Some(Duration::ZERO) {
            errno = libc::ETIMEDOUT;
            deadline = None;
            let _ = child.send_signal(kill_signal);
            continue;
        }
        let pidfd = if status.is_none() {
            child.pidfd()
        } else {
            None
        };
        // Without a pidfd (a kernel before 5.3), the exit is looked for
        // every 10 ms.
        let wait = match (left, status.is_none() && pidfd.is_none()) {
            (Some(left), true) => Some(left.min(Duration::from_millis(10))),
            (None, true) => Some(Duration::from_millis(10)),
            (left, false) => left,
        };
        let mut fds = Vec::with_capacity(piped.len() + 1);
        if let Some(pidfd) = &pidfd {
            fds.push(PollFd::new(pidfd, PollFlags::IN));
        }
        for p in &piped {
            if let Some(fd) = &p.fd {
                let flags = if p.index == 0 {
                    PollFlags::OUT
                } else {
                    PollFlags::IN
                };
                fds.push(PollFd::new(fd, flags));
            }
        }
        let timeout = wait.and_then(|d| Timespec::try_from(d).ok());
        match poll(&mut fds, timeout.as_ref()) {
            Ok(_) => {}
            Err(rustix::io::Errno::INTR) => continue,
            Err(e) => {
                return Err(Error::from_reason(format!(
                    "fastspawn: spawnSync: poll: {e}"
                )));
            }
        }
        drop(fds);
        for p in &mut piped {
            let Some(fd) = &p.fd else { continue };
            if p.index == 0 {
                match rustix::io::write(fd, &input[written..]) {
                    Ok(n) => written += n,
                    Err(rustix::io::Errno::AGAIN | rustix::io::Errno::INTR) => {}
                    // EPIPE: the child does not read its input any more.
                    Err(_) => written = input.len(),
                }
                if written >= input.len() {
                    p.fd = None;
                }
                continue;
            }
            read_available(p);
        }
        if errno == 0
            && let Some(limit) = limit
        {
            let total: usize = piped
                .iter()
                .filter(|p| p.index != 0)
                .map(|p| p.data.len())
                .sum();
            if total as f64 > limit {
                errno = libc::ENOBUFS;
                let _ = child.send_signal(kill_signal);
            }
        }
    }
    // Killed (timeout, maxBuffer): what the outputs hold now is kept too.
    for p in piped.iter_mut().filter(|p| p.index != 0) {
        read_available(p);
    }
    let status = match status {
        Some(status) => status,
        None => child
            .wait()
            .map_err(|e| Error::from_reason(e.to_string()))?,
    };
    let mut outputs: Vec<Option<Buffer>> = (0..nfds).map(|_| None).collect();
    for p in piped {
        if p.index != 0 {
            outputs[p.index] = Some(Buffer::from(p.data));
        }
    }
    Ok(SyncRun {
        pid: child.id() as i32,
        status: status.code().unwrap_or(-1),
        signal: status.signal().unwrap_or(0),
        errno: -errno,
        outputs,
    })
}

/// Reads what an output holds now, without waiting; closes it at its end
/// (or on an error).
fn read_available(p: &mut Piped) {
    let Some(fd) = &p.fd else { return };
    let mut buf = [0u8; 64 * 1024];
    loop {
        match rustix::io::read(fd.as_fd(), &mut buf) {
            Ok(0) => break,
            Ok(n) => p.data.extend_from_slice(&buf[..n]),
            Err(rustix::io::Errno::AGAIN) => return,
            Err(rustix::io::Errno::INTR) => {}
            Err(_) => break,
        }
    }
    p.fd = None;
}
