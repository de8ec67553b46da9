//! Running a child to its end ([`Child::communicate`]): its input written,
//! any number of its outputs read, an optional deadline and a limit on the
//! output, in one `poll` loop on the calling thread.
//!
//! This is the one run-to-end of the crate: [`Child::wait_with_output`]
//! (and so [`Command::output`](crate::Command::output)) is a call to it, and
//! the bindings' synchronous runs (Node's `spawnSync`, Python's
//! `subprocess.run`) are thin adapters over it.
//!
//! How a run goes, and what is an error: [`Child::communicate`].

use std::ffi::OsStr;
use std::fmt;
use std::os::fd::{BorrowedFd, OwnedFd};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::io::Errno;

use crate::child::{Child, ExitStatus};
use crate::error::{Error, Result, Step};

/// How much one `read` of an output takes at most.
const READ_CHUNK: usize = 64 * 1024;

/// Without a pidfd, how often a wait with a deadline looks for the exit.
const EXIT_POLL: Duration = Duration::from_millis(10);

/// What [`Child::communicate`] exchanges with the child: the input to write,
/// the outputs to read, and when to stop early. Built with its methods:
///
/// ```no_run
/// use std::time::Duration;
/// use fastspawn::{Command, Exchange, RunEnd, Stdio};
///
/// let mut child = Command::new("cat")
///     .stdin(Stdio::piped())
///     .stdout(Stdio::piped())
///     .spawn()?;
/// let exchange = Exchange::new()
///     .input(child.stdin.take().unwrap(), b"hello")
///     .output(child.stdout.take().unwrap())
///     .timeout(Duration::from_secs(5));
/// let run = child.communicate(exchange)?;
/// assert_eq!(run.end, RunEnd::Exited);
/// assert_eq!(run.outputs[0].data, b"hello");
/// # Ok::<(), fastspawn::Error>(())
/// ```
pub struct Exchange<'a> {
    input: Option<(OwnedFd, &'a [u8])>,
    outputs: Vec<OwnedFd>,
    timeout: Option<Duration>,
    output_limit: Option<usize>,
    kill_signal: i32,
    read_after_kill: bool,
    on_interrupt: Option<Box<dyn FnMut() -> bool + 'a>>,
    wake: Option<BorrowedFd<'a>>,
}

impl Default for Exchange<'_> {
    fn default() -> Self {
        Exchange::new()
    }
}

impl<'a> Exchange<'a> {
    /// No input, no output, no deadline, no limit; `SIGKILL` as the kill
    /// signal.
    pub fn new() -> Self {
        Exchange {
            input: None,
            outputs: Vec::new(),
            timeout: None,
            output_limit: None,
            kill_signal: libc::SIGKILL,
            read_after_kill: true,
            on_interrupt: None,
            wake: None,
        }
    }

    /// Writes `data` to `fd` (the parent's end of the child's input: a pipe
    /// or a socket), then closes it, so the child sees the end of its
    /// input; at once when `data` is empty. The fd is made non-blocking.
    pub fn input(mut self, fd: impl Into<OwnedFd>, data: &'a [u8]) -> Self {
        self.input = Some((fd.into(), data));
        self
    }

    /// Reads `fd` (the parent's end of one of the child's outputs, on any
    /// child fd) to its end. The outputs come back in
    /// [`Communicated::outputs`] in the order they were given. A blocking
    /// or a non-blocking fd will do; it is left as it is.
    pub fn output(mut self, fd: impl Into<OwnedFd>) -> Self {
        self.outputs.push(fd.into());
        self
    }

    /// Ends the run when `timeout` has passed (from the call to
    /// [`Child::communicate`]): the child is killed and the run ends as
    /// [`RunEnd::TimedOut`]. A timeout too large for a deadline is none.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Ends the run when the outputs hold more than `bytes` in all: the
    /// child is killed and the run ends as [`RunEnd::OutputLimit`] (with
    /// what was read, which can be up to 64 KiB past the limit).
    pub fn output_limit(mut self, bytes: usize) -> Self {
        self.output_limit = Some(bytes);
        self
    }

    /// The signal sent on a time-out or an output over the limit
    /// (`SIGKILL` unless set). The run then waits for the child to exit:
    /// a child that ignores the signal keeps it waiting.
    pub fn kill_signal(mut self, signal: i32) -> Self {
        self.kill_signal = signal;
        self
    }

    /// After a kill, whether the outputs are still read until the child
    /// has exited (the default: what it wrote until then is kept), or
    /// closed at once (what was read before the kill is kept; a child that
    /// handles the signal and writes more gets `EPIPE`). Python's
    /// `subprocess.run` keeps the output read before its time-out only.
    pub fn read_after_kill(mut self, read: bool) -> Self {
        self.read_after_kill = read;
        self
    }

    /// Calls `go_on` on the calling thread each time a signal handler
    /// interrupts the run's `poll`, `read`, `write` or wait (`EINTR`), so
    /// that the caller can act on the signal (a Python binding runs its
    /// signal handlers there). Returning `true` goes on with the run;
    /// `false` ends it at once with an error of kind
    /// [`Interrupted`](std::io::ErrorKind::Interrupted), leaving the child
    /// as it is (running, or exited and not reaped) for the caller to kill
    /// and wait for; the streams are closed. Only a signal delivered to
    /// this thread interrupts it, and a handler installed with
    /// `SA_RESTART` interrupts only the `poll`. Once a time-out or the
    /// output limit has killed the child, `go_on` is not called: the run
    /// ends with the exit.
    pub fn on_interrupt(mut self, go_on: impl FnMut() -> bool + 'a) -> Self {
        self.on_interrupt = Some(Box::new(go_on));
        self
    }

    /// Makes `fd` readable count as an interruption: each of the run's
    /// waits also ends when `fd` is readable, and the run then reads from
    /// it once (up to 256 bytes; `fd` should be non-blocking, as the read
    /// end of a pipe made with `O_NONBLOCK`) and calls the
    /// [`on_interrupt`](Self::on_interrupt) closure, as for `EINTR`.
    ///
    /// Every wait of the run is then a `poll` (no blocking `read` or
    /// `write`), so a signal whose handler writes to `fd` is not missed,
    /// even one that comes between a call of the closure and the next
    /// wait, which no `EINTR` reports. That is what Python's
    /// `signal.set_wakeup_fd` gives a binding. One wait is the exception:
    /// the wait for the exit without a deadline, when the spawn made no
    /// pidfd ([`Command::pidfd`](crate::Command::pidfd) off, or made
    /// lazily: making one costs a spawn+wait ~10 µs), is a look at `fd`
    /// and then a blocking `waitid`; a signal that comes between the two
    /// (a few instructions) is seen when the child exits. An `fd` at its
    /// end or in error is left out from then on.
    pub fn wake_fd(mut self, fd: BorrowedFd<'a>) -> Self {
        self.wake = Some(fd);
        self
    }
}

impl fmt::Debug for Exchange<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Exchange")
            .field(
                "input",
                &self.input.as_ref().map(|(fd, data)| (fd, data.len())),
            )
            .field("outputs", &self.outputs)
            .field("timeout", &self.timeout)
            .field("output_limit", &self.output_limit)
            .field("kill_signal", &self.kill_signal)
            .field("read_after_kill", &self.read_after_kill)
            .field("on_interrupt", &self.on_interrupt.is_some())
            .field("wake", &self.wake)
            .finish()
    }
}

/// How a run of [`Child::communicate`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RunEnd {
    /// The child exited and every output reached its end.
    Exited,
    /// The timeout passed first; the child was sent the kill signal.
    TimedOut,
    /// The outputs held more than the limit; the child was sent the kill
    /// signal.
    OutputLimit,
}

/// One output of a run: what was read, and whether it reached its end.
#[derive(Clone, PartialEq, Eq)]
pub struct Collected {
    /// Every byte read from it.
    pub data: Vec<u8>,
    /// Whether it reached its end (false when the run was ended early and
    /// it was still open).
    pub at_end: bool,
}

impl fmt::Debug for Collected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Collected")
            .field("data", &String::from_utf8_lossy(&self.data))
            .field("at_end", &self.at_end)
            .finish()
    }
}

/// What [`Child::communicate`] returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Communicated {
    /// How the child ended (it is reaped).
    pub status: ExitStatus,
    /// The outputs, in the order [`Exchange::output`] was given them.
    pub outputs: Vec<Collected>,
    /// How the run ended.
    pub end: RunEnd,
    /// How many bytes of the input were written.
    pub input_written: usize,
    /// When the input was done (written or refused) and every output had
    /// reached its end, if that happened; the rest of the run was the wait
    /// for the exit.
    pub streams_done: Option<Instant>,
}

/// An output while the run reads it.
struct Reading {
    fd: Option<OwnedFd>,
    data: Vec<u8>,
    at_end: bool,
}

/// The input while the run writes it.
struct Writing<'a> {
    fd: OwnedFd,
    data: &'a [u8],
    written: usize,
}

/// What one `read` or `write` did.
enum Io {
    /// It moved data (or was interrupted): try again after a `poll`.
    Moved,
    /// Nothing to move now (`EAGAIN`).
    WouldBlock,
    /// A signal interrupted the call (`EINTR`): try again.
    Interrupted,
    /// The stream is done.
    Done,
}

impl Reading {
    /// One `read`; `Done` at the end of the output.
    fn read_once(&mut self, total: &mut usize) -> std::result::Result<Io, Errno> {
        let Some(fd) = &self.fd else {
            return Ok(Io::Done);
        };
        self.data.reserve(READ_CHUNK);
        let spare = rustix::buffer::spare_capacity(&mut self.data);
        match rustix::io::read(fd, spare) {
            Ok(0) => {
                self.fd = None;
                self.at_end = true;
                Ok(Io::Done)
            }
            Ok(n) => {
                *total += n;
                Ok(Io::Moved)
            }
            Err(Errno::AGAIN) => Ok(Io::WouldBlock),
            Err(Errno::INTR) => Ok(Io::Interrupted),
            // A socket whose peer closed with data unread: its end.
            Err(Errno::CONNRESET) => {
                self.fd = None;
                self.at_end = true;
                Ok(Io::Done)
            }
            Err(e) => Err(e),
        }
    }
}

impl Writing<'_> {
    /// One `write`; `Done` when all is written or the child stopped
    /// reading.
    fn write_once(&mut self) -> std::result::Result<Io, Errno> {
        match rustix::io::write(&self.fd, &self.data[self.written..]) {
            Ok(n) => {
                self.written += n;
                Ok(if self.written >= self.data.len() {
                    Io::Done
                } else {
                    Io::Moved
                })
            }
            Err(Errno::AGAIN) => Ok(Io::WouldBlock),
            Err(Errno::INTR) => Ok(Io::Interrupted),
            // The child closed its end: it reads no more input.
            Err(Errno::PIPE | Errno::CONNRESET) => Ok(Io::Done),
            Err(e) => Err(e),
        }
    }
}

/// The error of a failed call of the run's `step`.
fn fail(program: &OsStr, step: Step, errno: Errno) -> Error {
    Error::io(program, step, errno.into())
}

/// Reads what woke the run from the wake fd (see [`Exchange::wake_fd`]):
/// one `read`, so that a blocking fd cannot hang the run. Returns the fd
/// while it may be written to again (it had data, or none yet; at its end
/// or in error it is left out, `None`, or every `poll` would see it), and
/// whether there was anything to report (data, its end, an error).
fn drain(wake: Option<BorrowedFd<'_>>) -> (Option<BorrowedFd<'_>>, bool) {
    let Some(fd) = wake else {
        return (None, false);
    };
    let mut buf = [0u8; 256];
    match rustix::io::read(fd, &mut buf) {
        Ok(0) => (None, true),
        Ok(_) => (Some(fd), true),
        Err(Errno::AGAIN | Errno::INTR) => (Some(fd), false),
        Err(_) => (None, true),
    }
}

/// One `poll`; false when interrupted (`EINTR`: the caller's loop goes
/// round again).
fn poll_once(fds: &mut [PollFd<'_>], wait: Option<Duration>) -> std::result::Result<bool, Errno> {
    // A wait too long for a timespec is none.
    let timeout = wait.and_then(|d| Timespec::try_from(d).ok());
    match poll(fds, timeout.as_ref()) {
        Ok(_) => Ok(true),
        Err(Errno::INTR) => Ok(false),
        Err(e) => Err(e),
    }
}

impl Child {
    /// Runs the child to its end: writes the exchange's input, reads its
    /// outputs to their ends, and waits for the exit, in one `poll` loop on
    /// the calling thread; a timeout or an output limit kill the child
    /// early. The child's own [`stdin`](Child::stdin), unless taken and
    /// given as the input, is closed first (as [`wait`](Child::wait) does).
    ///
    /// How it runs:
    ///
    /// 1. While the input or an output is open, one `poll` over them (no
    ///    `poll` at all while a single blocking stream is left and there is
    ///    no deadline or wake fd: its `read`/`write` blocks instead). A ready
    ///    output is read once (64 KiB at most), a ready input written as far
    ///    as the pipe takes (the input's fd is made non-blocking). The
    ///    child's exit does not end this phase: a run ends when its outputs
    ///    end, so that nothing the child wrote is lost, as with std's
    ///    `wait_with_output`.
    /// 2. The outputs all ended: a wait for the exit, bounded by the deadline
    ///    (the child's pidfd in the `poll`, or a look every 10 ms without one).
    /// 3. The deadline passed, or the outputs held more than the limit in all:
    ///    the child gets the kill signal, the input is closed, and the run
    ///    ends as soon as the child has exited, with what the outputs hold
    ///    then (read until the exit, and what is readable after it), so a
    ///    grandchild that holds an output open cannot keep the run waiting.
    ///    [`Exchange::read_after_kill`]`(false)` closes the outputs at the
    ///    kill instead (what was read before it is kept).
    ///
    /// `EINTR` restarts a call. `EPIPE` (or `ECONNRESET`) on the input means
    /// the child stopped reading it: the input is closed and the run goes on
    /// (not an error). A pipe's `EPIPE` comes with `SIGPIPE`, which Rust, Node
    /// and Python programs ignore; a process that has it at its default
    /// action is killed by it, as with any write to such a pipe. `ECONNRESET`
    /// on an output (a socket whose peer closed with data unread) is its end.
    /// Other errors are [`Error`]s naming the program and the step
    /// ([`Step::Input`], [`Step::Output`], [`Step::Wait`], [`Step::Signal`]);
    /// the child is then left as it is (the caller's `Child`, to kill or wait
    /// for).
    ///
    /// The child's pidfd is only used where the exit must be seen before
    /// the outputs end (with a deadline once they have ended, and after a
    /// kill), and made then if the spawn did not (see [`Child::pidfd`]);
    /// without one (after [`Command::pidfd(false)`](crate::Command::pidfd)),
    /// the exit is looked for every 10 ms. With no deadline, the outputs'
    /// ends are followed by a blocking [`wait`](Child::wait).
    pub fn communicate(&mut self, exchange: Exchange<'_>) -> Result<Communicated> {
        drop(self.stdin.take());
        let Exchange {
            input,
            outputs,
            timeout,
            output_limit,
            kill_signal,
            read_after_kill,
            mut on_interrupt,
            mut wake,
        } = exchange;
        let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
        let on_interrupt_set = on_interrupt.is_some();
        // A signal interrupted a call of `step`: go on, or end the run.
        let mut interrupted =
            |program: &OsStr, step: Step| match on_interrupt.as_mut().map(|go_on| go_on()) {
                Some(false) => Err(fail(program, step, Errno::INTR)),
                _ => Ok(()),
            };

        let mut input = match input {
            Some((fd, data)) if !data.is_empty() => {
                rustix::io::ioctl_fionbio(&fd, true)
                    .map_err(|e| fail(&self.program, Step::Input, e))?;
                Some(Writing {
                    fd,
                    data,
                    written: 0,
                })
            }
            // Nothing to write: closed now, the child sees the end (a `_`
            // arm would leave it open in the shadowed binding).
            empty => {
                drop(empty);
                None
            }
        };
        let mut input_written = 0;
        let mut outs: Vec<Reading> = outputs
            .into_iter()
            .map(|fd| Reading {
                fd: Some(fd),
                data: Vec::new(),
                at_end: false,
            })
            .collect();
        let mut total = 0usize;
        let mut end = RunEnd::Exited;
        let mut streams_done = None;
        // The one stream left last returned EAGAIN: poll before the next try.
        let mut blocked = false;

        // 1. The streams.
        loop {
            let open =
                usize::from(input.is_some()) + outs.iter().filter(|o| o.fd.is_some()).count();
            if open == 0 {
                streams_done = Some(Instant::now());
                break;
            }
            if output_limit.is_some_and(|limit| total > limit) {
                end = RunEnd::OutputLimit;
                break;
            }
            let left = match deadline {
                Some(deadline) => match deadline.checked_duration_since(Instant::now()) {
                    Some(left) if !left.is_zero() => Some(left),
                    _ => {
                        end = RunEnd::TimedOut;
                        break;
                    }
                },
                None => None,
            };
            // Which streams to move: all those `poll` reports, or the one
            // left without a `poll` (its call blocks, no deadline to keep).
            let mut ready_in = false;
            let mut ready_out = smallvec::SmallVec::<[usize; 4]>::new();
            if open == 1 && left.is_none() && !blocked && wake.is_none() {
                if input.is_some() {
                    ready_in = true;
                } else {
                    ready_out.extend(outs.iter().position(|o| o.fd.is_some()));
                }
            } else {
                let mut fds = smallvec::SmallVec::<[PollFd<'_>; 4]>::new();
                if let Some(w) = &input {
                    fds.push(PollFd::new(&w.fd, PollFlags::OUT));
                }
                for o in &outs {
                    if let Some(fd) = &o.fd {
                        fds.push(PollFd::new(fd, PollFlags::IN));
                    }
                }
                if let Some(fd) = &wake {
                    fds.push(PollFd::new(fd, PollFlags::IN));
                }
                let polled =
                    poll_once(&mut fds, left).map_err(|e| fail(&self.program, Step::Output, e))?;
                let woken = polled
                    && wake.is_some()
                    && fds.last().is_some_and(|fd| !fd.revents().is_empty());
                if !polled || woken {
                    drop(fds);
                    if woken {
                        wake = drain(wake).0;
                    }
                    interrupted(&self.program, Step::Output)?;
                    continue;
                }
                let mut ready = fds.iter().map(|fd| !fd.revents().is_empty());
                if input.is_some() {
                    ready_in = ready.next().unwrap_or(false);
                }
                for (i, o) in outs.iter().enumerate() {
                    if o.fd.is_some() && ready.next().unwrap_or(false) {
                        ready_out.push(i);
                    }
                }
            }
            blocked = false;
            if ready_in && let Some(w) = &mut input {
                let step = w
                    .write_once()
                    .map_err(|e| fail(&self.program, Step::Input, e))?;
                input_written = w.written;
                match step {
                    Io::Done => input = None,
                    Io::WouldBlock => blocked = true,
                    Io::Interrupted => interrupted(&self.program, Step::Input)?,
                    Io::Moved => {}
                }
            }
            for i in ready_out {
                match outs[i]
                    .read_once(&mut total)
                    .map_err(|e| fail(&self.program, Step::Output, e))?
                {
                    Io::WouldBlock => blocked = true,
                    Io::Interrupted => interrupted(&self.program, Step::Output)?,
                    Io::Moved | Io::Done => {}
                }
            }
        }

        // 2. The streams are done: the exit, within the deadline.
        if end == RunEnd::Exited {
            let status = match deadline {
                None if wake.is_some() && self.pidfd_if_made().is_some() => loop {
                    if self
                        .wait_readable(Duration::MAX, &mut [], &mut wake)
                        .map_err(|e| fail(&self.program, Step::Wait, e))?
                        .is_none()
                    {
                        interrupted(&self.program, Step::Wait)?;
                    } else if let Some(status) = self.try_wait()? {
                        break status;
                    }
                },
                // No pidfd to `poll` (making one would cost the run more
                // than the rest of its wait): a look at the wake fd, then
                // the blocking wait, which a signal interrupts from then
                // on. Only a signal that comes between the two (a few
                // instructions) is seen when the wait ends.
                None if wake.is_some() => loop {
                    let woken;
                    (wake, woken) = drain(wake);
                    if woken {
                        interrupted(&self.program, Step::Wait)?;
                        continue;
                    }
                    match self.wait_interruptible()? {
                        Some(status) => break status,
                        None => interrupted(&self.program, Step::Wait)?,
                    }
                },
                None if on_interrupt_set => loop {
                    match self.wait_interruptible()? {
                        Some(status) => break status,
                        None => interrupted(&self.program, Step::Wait)?,
                    }
                },
                None => self.wait()?,
                Some(deadline) => loop {
                    if let Some(status) = self.try_wait()? {
                        break status;
                    }
                    let Some(left) = deadline
                        .checked_duration_since(Instant::now())
                        .filter(|left| !left.is_zero())
                    else {
                        end = RunEnd::TimedOut;
                        self.send_signal(kill_signal)?;
                        break self.wait()?;
                    };
                    if self
                        .wait_readable(left, &mut [], &mut wake)
                        .map_err(|e| fail(&self.program, Step::Wait, e))?
                        .is_none()
                    {
                        interrupted(&self.program, Step::Wait)?;
                    }
                },
            };
            return Ok(self.finish(status, outs, end, input_written, streams_done));
        }

        // 3. Killed: the exit, reading on meanwhile (or not).
        drop(input);
        self.send_signal(kill_signal)?;
        if !read_after_kill {
            outs.iter_mut().for_each(|o| o.fd = None);
        }
        let status = loop {
            if let Some(status) = self.try_wait()? {
                break status;
            }
            let ready = self
                .wait_readable(Duration::MAX, &mut outs, &mut None)
                .map_err(|e| fail(&self.program, Step::Wait, e))?;
            for i in ready.into_iter().flatten() {
                outs[i]
                    .read_once(&mut total)
                    .map_err(|e| fail(&self.program, Step::Output, e))?;
            }
        };
        // What is readable now, without waiting for an end that a
        // grandchild holding an output may never give.
        loop {
            let mut fds = smallvec::SmallVec::<[PollFd<'_>; 4]>::new();
            let mut which = smallvec::SmallVec::<[usize; 4]>::new();
            for (i, o) in outs.iter().enumerate() {
                if let Some(fd) = &o.fd {
                    fds.push(PollFd::new(fd, PollFlags::IN));
                    which.push(i);
                }
            }
            if fds.is_empty() || !poll_once(&mut fds, Some(Duration::ZERO)).unwrap_or(true) {
                break;
            }
            let ready: smallvec::SmallVec<[usize; 4]> = fds
                .iter()
                .zip(&which)
                .filter(|(fd, _)| !fd.revents().is_empty())
                .map(|(_, &i)| i)
                .collect();
            drop(fds);
            if ready.is_empty() {
                break;
            }
            for i in ready {
                if let Io::WouldBlock = outs[i]
                    .read_once(&mut total)
                    .map_err(|e| fail(&self.program, Step::Output, e))?
                {
                    outs[i].fd = None;
                }
            }
        }
        Ok(self.finish(status, outs, end, input_written, streams_done))
    }

    /// Waits up to `wait` for the child's exit (its pidfd, or at most
    /// 10 ms without one) or one of `outs` to be readable; returns which
    /// outputs are, `None` when a signal interrupted the wait or `wake`
    /// was readable (and was read: see [`drain`]).
    fn wait_readable(
        &self,
        wait: Duration,
        outs: &mut [Reading],
        wake: &mut Option<BorrowedFd<'_>>,
    ) -> std::result::Result<Option<smallvec::SmallVec<[usize; 4]>>, Errno> {
        let woke_by = *wake;
        let pidfd = self.pidfd();
        let wait = match pidfd {
            Some(_) => wait,
            None => wait.min(EXIT_POLL),
        };
        let mut fds = smallvec::SmallVec::<[PollFd<'_>; 5]>::new();
        if let Some(pidfd) = &pidfd {
            fds.push(PollFd::new(pidfd, PollFlags::IN));
        }
        let mut which = smallvec::SmallVec::<[usize; 4]>::new();
        for (i, o) in outs.iter().enumerate() {
            if let Some(fd) = &o.fd {
                fds.push(PollFd::new(fd, PollFlags::IN));
                which.push(i);
            }
        }
        if let Some(fd) = &woke_by {
            fds.push(PollFd::new(fd, PollFlags::IN));
        }
        let wait = (wait != Duration::MAX).then_some(wait);
        if !poll_once(&mut fds, wait)? {
            return Ok(None);
        }
        if woke_by.is_some() && fds.last().is_some_and(|fd| !fd.revents().is_empty()) {
            drop(fds);
            *wake = drain(woke_by).0;
            return Ok(None);
        }
        let skip = usize::from(pidfd.is_some());
        Ok(Some(
            fds[skip..fds.len() - usize::from(woke_by.is_some())]
                .iter()
                .zip(which)
                .filter(|(fd, _)| !fd.revents().is_empty())
                .map(|(_, i)| i)
                .collect(),
        ))
    }

    fn finish(
        &self,
        status: ExitStatus,
        outs: Vec<Reading>,
        end: RunEnd,
        input_written: usize,
        streams_done: Option<Instant>,
    ) -> Communicated {
        Communicated {
            status,
            outputs: outs
                .into_iter()
                .map(|o| Collected {
                    at_end: o.at_end,
                    data: o.data,
                })
                .collect(),
            end,
            input_written,
            streams_done,
        }
    }
}
