//! `spawnSync` (and so `execSync` and `execFileSync`): the child started
//! and run to its end on the calling JS thread, blocking it, as Node's do,
//! but through fastspawn's clone instead of libuv's `fork` (which copies
//! the page tables of the whole process on every call).
//!
//! The request is the one `spawn()` encodes (`request::build`): a piped
//! fd's parent end is a socketpair's end, read (or, for fd 0, written with
//! `input` and closed) by the core's run-to-end, `Child::communicate`
//! (`crates/fastspawn/src/exchange.rs`); this file only decodes the
//! request and encodes the result. As Node's: the run ends when the child
//! has exited and every piped output has reached its end (a grandchild
//! holding one open keeps it waiting); `timeout` (ms) and more than
//! `maxBuffer` bytes of output in all kill the child with `killSignal` and
//! report `ETIMEDOUT` / `ENOBUFS`, with what was read until then (and what
//! was readable when the child had exited).

use std::time::Duration;

use fastspawn::{Exchange, RunEnd};
use napi::bindgen_prelude::Buffer;
use napi::{Error, Result};
use napi_derive::napi;

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
    // path out): fd 0's is the input's, the others' are outputs.
    let mut stdin = None;
    let mut outputs = Vec::new();
    for i in 0..nfds {
        if io[HEADER + 2 * i] == PIPE {
            // Made by `request::build` for this call, given to nobody else.
            let Some(fd) = crate::sys::own_parent_end(io[HEADER + 2 * i + 1]) else {
                continue;
            };
            if i == 0 {
                stdin = Some(fd);
            } else {
                outputs.push((i, fd));
            }
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
    let mut exchange = Exchange::new().kill_signal(kill_signal);
    // Without input, fd 0 is closed at once (the child sees its end).
    if let Some(stdin) = stdin {
        exchange = exchange.input(stdin, input);
    }
    let indexes: Vec<usize> = outputs.iter().map(|(i, _)| *i).collect();
    for (_, fd) in outputs {
        exchange = exchange.output(fd);
    }
    // A timeout too large for a deadline (Node lets any integer through)
    // is none (so is one the core cannot add to now).
    if let Some(timeout) = Duration::try_from_secs_f64(timeout_ms / 1000.0)
        .ok()
        .filter(|d| !d.is_zero())
    {
        exchange = exchange.timeout(timeout);
    }
    // More than `max_buffer` bytes in all (a whole number of them) is more
    // than its floor; an infinite one is no limit.
    if max_buffer >= 0.0 && max_buffer < usize::MAX as f64 {
        exchange = exchange.output_limit(max_buffer.floor() as usize);
    }
    let run = child
        .communicate(exchange)
        .map_err(|e| Error::from_reason(format!("fastspawn: spawnSync: {e}")))?;
    let errno = match run.end {
        RunEnd::TimedOut => libc::ETIMEDOUT,
        RunEnd::OutputLimit => libc::ENOBUFS,
        _ => 0,
    };
    let mut outputs: Vec<Option<Buffer>> = (0..nfds).map(|_| None).collect();
    for (index, collected) in indexes.into_iter().zip(run.outputs) {
        outputs[index] = Some(Buffer::from(collected.data));
    }
    Ok(SyncRun {
        pid: child.id() as i32,
        status: run.status.code().unwrap_or(-1),
        signal: run.status.signal().unwrap_or(0),
        errno: -errno,
        outputs,
    })
}
