//! `run`: spawn, exchange input and output, wait, in one call with the
//! GIL released: what `fastspawn.subprocess.run()` uses when nothing needs
//! `Popen`'s Python machinery (bytes `input`, a `timeout`, no text mode),
//! which costs more than the spawn itself. The exchange is the core's
//! run-to-end, `Child::communicate` (`crates/fastspawn/src/exchange.rs`).

use std::cell::RefCell;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, IntoRawFd, OwnedFd, RawFd};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fastspawn::{Child, Command, Communicated, Exchange, RunEnd, Stdio};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyInt};

use crate::errors::os_error;
use crate::spawn::{Built, Names, Request, build, simple_command, simple_command_of, simple_run};
use crate::sys;

/// What `run` returns: pid, raw wait status, stdout, stderr (`None` where
/// not piped, or, after a time-out, where nothing was read), how the
/// time-out came (0: none; 1: during the exchange, as CPython's
/// `communicate` raises it with the output read; 2: while waiting for the
/// exit once the streams were done, as its `wait` raises it, without
/// output), and for 2 the time that was left when the streams were done
/// (the `timeout` CPython's `wait` reports).
type Ran<'py> = (
    i32,
    i32,
    Option<Bound<'py, PyBytes>>,
    Option<Bound<'py, PyBytes>>,
    u8,
    f64,
);

/// One output for Python: `None` if not piped; after a time-out during
/// the exchange, `None` also when nothing was read from it and it did not
/// end (CPython's `TimeoutExpired.output` is `None` until a read returned).
fn to_py<'py>(
    py: Python<'py>,
    piped: bool,
    collected: Option<fastspawn::Collected>,
    timed_out: bool,
) -> Option<Bound<'py, PyBytes>> {
    let collected = collected.filter(|_| piped)?;
    if timed_out && collected.data.is_empty() && !collected.at_end {
        return None;
    }
    Some(PyBytes::new(py, &collected.data))
}

/// Python's signal wakeup fd (`signal.set_wakeup_fd`) pointed, for one
/// run, at the package's pipe ([`Pipe`]). CPython's C signal handler writes
/// the signal's number to it, and the run's waits `poll` its read end or
/// look at it first ([`Exchange::wake_fd`]), so a signal that comes from
/// just before the spawn to the end is handled at once (but for one in the
/// few instructions between that look and a `waitid`: a run with pipes
/// waits so for the exit once its outputs ended; a run without has the
/// clone make a pidfd, so that its wait `poll`s both). Without it, one
/// that comes during the spawn (which blocks signals around its clone, and
/// whose wait for the child's `execve` is not interrupted), or between a
/// look for pending handlers and the next wait, interrupts nothing, and
/// its handler runs only when the child ends.
struct Wake(Arc<Pipe>);

/// The pipe of [`Wake`]: made once per process, on its main thread (at
/// import, or by the first run there), and kept: a new pipe for each run
/// would cost it ~7 µs. Each run checks that its fds are still the ones
/// made: code that closes fds it does not own (a daemon's
/// `os.closerange`) may have closed them and their numbers been reused;
/// a forked child shares its parent's pipe. Either way a new one is made
/// (the old numbers are left alone when they are someone else's now).
struct Pipe {
    read: OwnedFd,
    write: OwnedFd,
    pid: rustix::process::Pid,
    made: [(u64, u64); 2],
}

/// Which file `fd` is (device and inode).
fn file_of(fd: &OwnedFd) -> io::Result<(u64, u64)> {
    let st = rustix::fs::fstat(fd)?;
    Ok((st.st_dev, st.st_ino))
}

impl Pipe {
    fn new() -> io::Result<Pipe> {
        let flags = rustix::pipe::PipeFlags::CLOEXEC | rustix::pipe::PipeFlags::NONBLOCK;
        let (read, write) = rustix::pipe::pipe_with(flags)?;
        let made = [file_of(&read)?, file_of(&write)?];
        Ok(Pipe {
            read,
            write,
            pid: rustix::process::getpid(),
            made,
        })
    }

    fn fds_are_ours(&self) -> bool {
        file_of(&self.read).ok() == Some(self.made[0])
            && file_of(&self.write).ok() == Some(self.made[1])
    }

    /// This thread's pipe (only the main thread asks): the one kept if its
    /// fds are still ours and this is the process that made it, else a
    /// new one.
    fn get() -> Option<Arc<Pipe>> {
        thread_local! {
            static PIPE: RefCell<Option<Arc<Pipe>>> = const { RefCell::new(None) };
        }
        PIPE.with_borrow_mut(|slot| {
            if let Some(kept) = slot.take() {
                let ours = kept.fds_are_ours();
                if ours && kept.pid == rustix::process::getpid() {
                    *slot = Some(kept);
                } else if !ours {
                    // The numbers are someone else's now: not closed.
                    std::mem::forget(kept);
                }
            }
            if slot.is_none() {
                *slot = Pipe::new().ok().map(Arc::new);
            }
            slot.clone()
        })
    }
}

/// Makes the main thread's pipe now (at import), so that it is there
/// before the first run, not made by it.
pub fn make_wake_pipe() {
    if on_main_thread() {
        Pipe::get();
    }
}

/// `signal.set_wakeup_fd`.
fn set_wakeup_fd(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static SET: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    SET.import(py, "signal", "set_wakeup_fd")
}

impl Wake {
    /// Points the wakeup fd at the pipe, on the thread that runs Python's
    /// handlers (the main thread), then runs the handlers of signals that
    /// came before (their exception is the run's, before any spawn).
    /// `None` elsewhere, when there is no pipe or the call fails (not the
    /// main interpreter), and when a wakeup fd was set already: an event
    /// loop's (asyncio's, trio's), which reads the signal numbers from it,
    /// or the pipe itself (a run inside a handler run by a run). That one
    /// is given back at once, with anything written to the pipe meanwhile;
    /// set again with `warn_on_full_buffer=False`, as those loops set it
    /// (the call cannot tell how it was set). Such a run looks for handlers
    /// once after the spawn instead.
    fn arm(py: Python<'_>) -> PyResult<Option<Wake>> {
        if !on_main_thread() {
            return Ok(None);
        }
        let Some(pipe) = Pipe::get() else {
            return Ok(None);
        };
        let set = set_wakeup_fd(py)?;
        let Ok(old) = set
            .call1((pipe.write.as_raw_fd(),))
            .and_then(|old| old.extract::<i32>())
        else {
            return Ok(None);
        };
        if old != -1 {
            give_back(py, set, old)?;
            if old != pipe.write.as_raw_fd() {
                forward(&pipe.read, old);
            }
            return Ok(None);
        }
        let wake = Wake(pipe);
        if let Err(err) = py.check_signals() {
            wake.disarm(py)?;
            return Err(err);
        }
        Ok(Some(wake))
    }

    /// The fd the run's waits `poll`.
    fn fd(&self) -> BorrowedFd<'_> {
        self.0.read.as_fd()
    }

    /// After a run: [`disarm`](Self::disarm)s `wake` if armed; its error,
    /// if any, becomes the run's unless a handler raised one already.
    fn disarm_after(wake: Option<Wake>, py: Python<'_>, raised: &mut Option<PyErr>) {
        if let Some(Err(err)) = wake.map(|wake| wake.disarm(py)) {
            raised.get_or_insert(err);
        }
    }

    /// Takes the wakeup fd back (to none), or gives back the one a handler
    /// set during the run.
    fn disarm(self, py: Python<'_>) -> PyResult<()> {
        let set = set_wakeup_fd(py)?;
        let now: i32 = set.call1((-1,))?.extract()?;
        if now != -1 && now != self.0.write.as_raw_fd() {
            give_back(py, set, now)?;
        }
        Ok(())
    }
}

/// Sets the wakeup fd to `fd` again, as event loops set theirs.
fn give_back(py: Python<'_>, set: &Bound<'_, PyAny>, fd: i32) -> PyResult<()> {
    let kwargs = PyDict::new(py);
    kwargs.set_item("warn_on_full_buffer", false)?;
    set.call((fd,), Some(&kwargs))?;
    Ok(())
}

/// Writes what came to `read` to `fd`, so that its reader sees the
/// signals that came while the wakeup fd was the pipe.
fn forward(read: &OwnedFd, fd: RawFd) {
    let mut buf = [0u8; 256];
    while let Ok(n @ 1..) = rustix::io::read(read, &mut buf) {
        sys::write_to_wakeup_fd(fd, &buf[..n]);
    }
}

/// Runs `exchange` on `child` (the GIL released) with Python's signal
/// handlers run each time a signal interrupts the wait, as CPython's own
/// waits do (PEP 475), or writes to `wake` (see [`Wake`]). A handler that
/// raises ends the run the way CPython's `run()` ends on it: after a
/// `KeyboardInterrupt` the child gets 0.25 s to exit (a terminal's Ctrl-C
/// reached it too), after any other exception none; then it is killed and
/// reaped, the exception is in `raised`, and the result is `None`.
///
/// A signal that came during the spawn (which blocks signals around its
/// clone, and whose wait for the child's `execve` is not interrupted) has
/// had its C handler run already, so no later wait would be interrupted by
/// it: with `wake`, the handler wrote to it, and the first wait sees that;
/// without, on the thread that runs Python's handlers (the main thread,
/// where `check_signals` does anything), they are run once before the
/// first wait, as CPython's eval loop runs them between its spawn and its
/// wait (one more GIL round trip).
fn communicate_with_signals(
    child: &mut Child,
    exchange: Exchange<'_>,
    wake: Option<BorrowedFd<'_>>,
    raised: &mut Option<PyErr>,
) -> Option<fastspawn::Result<Communicated>> {
    let mut keyboard = false;
    let mut handlers = || {
        Python::attach(|py| match py.check_signals() {
            Ok(()) => true,
            Err(err) => {
                keyboard = err.is_instance_of::<PyKeyboardInterrupt>(py);
                *raised = Some(err);
                false
            }
        })
    };
    let result = match wake {
        Some(fd) => Some(child.communicate(exchange.wake_fd(fd).on_interrupt(handlers))),
        None if on_main_thread() && !handlers() => None,
        None => Some(child.communicate(exchange.on_interrupt(handlers))),
    };
    if raised.is_some() {
        let grace = if keyboard {
            Duration::from_millis(250)
        } else {
            Duration::ZERO
        };
        // Killed with SIGKILL if still running after the grace, and reaped.
        let _ = child.communicate(Exchange::new().timeout(grace));
    }
    result
}

/// Whether this is the process's initial thread (its tid is the pid),
/// where CPython runs signal handlers: asked once per thread, not per run
/// (two system calls). A thread that forks keeps its answer in the child.
fn on_main_thread() -> bool {
    thread_local! {
        static MAIN: bool = rustix::thread::gettid() == rustix::process::getpid();
    }
    MAIN.with(|main| *main)
}

/// A timeout as CPython reads it: 0 or less has passed already; one too
/// large for a deadline is none.
fn deadline(timeout: Option<f64>) -> Option<Duration> {
    timeout.and_then(|t| {
        if t > 0.0 {
            Duration::try_from_secs_f64(t).ok()
        } else {
            Some(Duration::ZERO)
        }
    })
}

/// The fds of one run besides the command's own: `given` are closed
/// right after the spawn (the child's ends of the caller's pipes); `stdin`
/// is the parent's end of the child's stdin (written, then closed);
/// `out`/`err` the parent's ends of its stdout and stderr, read to their
/// ends.
#[derive(Default)]
pub(crate) struct Ends {
    given: Vec<OwnedFd>,
    stdin: Option<OwnedFd>,
    out: Option<OwnedFd>,
    err: Option<OwnedFd>,
}

impl Ends {
    /// The parent's ends of stdin, stdout and stderr as fd numbers (-1
    /// where not piped), handed to a Python caller that owns them from
    /// then on.
    pub(crate) fn into_raw(self) -> (RawFd, RawFd, RawFd) {
        let raw = |end: Option<OwnedFd>| end.map_or(-1, IntoRawFd::into_raw_fd);
        (raw(self.stdin), raw(self.out), raw(self.err))
    }
}

/// Spawns `request`, writes `input` to `stdin` (the parent's end of the
/// child's stdin, handed over, -1: none), reads the parent ends `out`/`err`
/// (-1: none) to their ends and waits, within `timeout` seconds (`None`:
/// none; a timeout kills the child with `SIGKILL`, reaps it, and keeps the
/// output read before the kill). `give` are fds of this call's pipes that
/// the caller hands over (the child's ends, closed here right after the
/// spawn). See [`Ran`] for what it returns.
#[pyfunction]
#[pyo3(signature = (request, give, out, err, stdin=-1, input=None, timeout=None))]
#[allow(clippy::too_many_arguments)]
pub fn run<'py>(
    py: Python<'py>,
    request: Request<'py>,
    give: Vec<RawFd>,
    out: RawFd,
    err: RawFd,
    stdin: RawFd,
    input: Option<Bound<'py, PyBytes>>,
    timeout: Option<f64>,
) -> PyResult<Ran<'py>> {
    let given: Vec<OwnedFd> = give
        .into_iter()
        .map(sys::take_fd)
        .collect::<io::Result<_>>()
        .map_err(os_error)?;
    let ends = Ends {
        given,
        stdin: (stdin >= 0)
            .then(|| sys::take_fd(stdin))
            .transpose()
            .map_err(os_error)?,
        out: (out >= 0)
            .then(|| sys::dup_cloexec(out))
            .transpose()
            .map_err(os_error)?,
        err: (err >= 0)
            .then(|| sys::dup_cloexec(err))
            .transpose()
            .map_err(os_error)?,
    };
    let Built {
        cmd,
        on_pool,
        names,
    } = build(request)?;
    run_to_end(py, cmd, on_pool, &names, ends, input, deadline(timeout))
}

/// How `run_std` sets one of the child's standard streams: `subprocess`'s
/// `None`, `PIPE`, `STDOUT` and `DEVNULL`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Inherit,
    Pipe,
    Stdout,
    Null,
}

impl Mode {
    /// The mode `value` names, or `None` for anything else (an fd, a file:
    /// the general path's).
    fn of(value: Option<&Bound<'_, PyAny>>) -> Option<Mode> {
        let Some(value) = value else {
            return Some(Mode::Inherit);
        };
        if !value.is_exact_instance_of::<PyInt>() {
            return None;
        }
        match value.extract::<i64>().ok()? {
            -1 => Some(Mode::Pipe),
            -2 => Some(Mode::Stdout),
            -3 => Some(Mode::Null),
            _ => None,
        }
    }
}

/// A pipe for one of the child's streams, close-on-exec both ends (the
/// child's end is mapped into place without the flag); its failure
/// (EMFILE) as `os.pipe()` raises it.
fn pipe() -> PyResult<(OwnedFd, OwnedFd)> {
    rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).map_err(|e| os_error(e.into()))
}

/// `run(args, input=, timeout=, stdin=, stdout=, stderr=, cwd=, env=,
/// shell=)` with the streams among `None`, `PIPE`, `DEVNULL` and (stderr)
/// `STDOUT`, bytes `input`, and every other argument at its default, in
/// one call: the pipes and the command of [`std_command`], the spawn, the
/// exchange and the wait, as [`run`] does them, with no Python code
/// between (what `run()`, `call()`, `check_call()` and `check_output()`
/// cost above the spawn). `None` (nothing done, no event audited) when an
/// argument needs the general path (see [`std_command`]).
#[pyfunction]
#[pyo3(signature = (args, input=None, timeout=None, *, stdin=None, stdout=None, stderr=None, cwd=None, env=None, shell=None))]
#[allow(clippy::too_many_arguments)]
pub fn run_std<'py>(
    py: Python<'py>,
    args: &Bound<'py, PyAny>,
    input: Option<Bound<'py, PyBytes>>,
    timeout: Option<f64>,
    stdin: Option<Bound<'py, PyAny>>,
    stdout: Option<Bound<'py, PyAny>>,
    stderr: Option<Bound<'py, PyAny>>,
    cwd: Option<Bound<'py, PyAny>>,
    env: Option<Bound<'py, PyAny>>,
    shell: Option<Bound<'py, PyAny>>,
) -> PyResult<Option<Ran<'py>>> {
    let streams = [stdin, stdout, stderr];
    let Some((cmd, names, ends)) = std_command(args, &streams, cwd, env, shell)? else {
        return Ok(None);
    };
    run_to_end(py, cmd, false, &names, ends, input, deadline(timeout)).map(Some)
}

/// What `popen_std` gives `Popen`: the child, then the parent's ends of
/// its stdin, stdout and stderr pipes (-1 where not piped), which the
/// caller owns from then on.
type Opened = (crate::child::Child, RawFd, RawFd, RawFd);

/// `Popen(args, stdin=, stdout=, stderr=, cwd=, env=, shell=)` with the
/// streams among `None`, `PIPE`, `DEVNULL` and (stderr) `STDOUT` and every
/// other argument at its default (what `Popen`'s `__init__`, its
/// `_get_handles` and `_execute_child` cost above the spawn): the pipes and
/// the command of [`std_command`], the spawn with the GIL released, the
/// child's ends closed. Returns the child and the parent's ends (see
/// [`Opened`]), which `Popen` wraps in its file objects, or `None`
/// (nothing done, no event audited) when an argument needs the general
/// path.
#[pyfunction]
#[pyo3(signature = (args, *, stdin=None, stdout=None, stderr=None, cwd=None, env=None, shell=None))]
#[allow(clippy::too_many_arguments)]
pub fn popen_std<'py>(
    py: Python<'py>,
    args: &Bound<'py, PyAny>,
    stdin: Option<Bound<'py, PyAny>>,
    stdout: Option<Bound<'py, PyAny>>,
    stderr: Option<Bound<'py, PyAny>>,
    cwd: Option<Bound<'py, PyAny>>,
    env: Option<Bound<'py, PyAny>>,
    shell: Option<Bound<'py, PyAny>>,
) -> PyResult<Option<Opened>> {
    let streams = [stdin, stdout, stderr];
    let Some((cmd, names, ends)) = std_command(args, &streams, cwd, env, shell)? else {
        return Ok(None);
    };
    let spawned = py.detach(|| spawn_closing(cmd));
    // On a failed spawn the parent's ends are dropped (closed) here too.
    let child = spawned.map_err(|e| names.error(py, e))?;
    let (stdin, stdout, stderr) = ends.into_raw();
    Ok(Some((
        crate::child::Child::new(child),
        stdin,
        stdout,
        stderr,
    )))
}

/// Spawns `cmd`, then drops it: it holds the child's ends of the pipes
/// (or duplicates of them), which must be closed at once, or the parent
/// would never read the end of the child's output.
fn spawn_closing(mut cmd: Command) -> fastspawn::Result<Child> {
    let spawned = cmd.spawn();
    drop(cmd);
    spawned
}

/// The command of `subprocess`'s `args`, `stdin`, `stdout`, `stderr`,
/// `cwd`, `env` and `shell` ([`simple_run`] reads `args`, `cwd` and
/// `env`), with its pipes made: close-on-exec, the child's ends in the
/// command, the parent's in the [`Ends`]. `STDOUT` for stderr shares
/// stdout's pipe, or its `/dev/null`, or is a duplicate of fd 1 when
/// stdout is inherited, as in CPython. `None` (nothing made, no event
/// audited) when an argument needs the general path: see [`simple_run`];
/// a stream given as an fd or a file, `STDOUT` for stdin or stdout.
pub(crate) fn std_command(
    args: &Bound<'_, PyAny>,
    streams: &[Option<Bound<'_, PyAny>>; 3],
    cwd: Option<Bound<'_, PyAny>>,
    env: Option<Bound<'_, PyAny>>,
    shell: Option<Bound<'_, PyAny>>,
) -> PyResult<Option<(Command, Names, Ends)>> {
    let (Some(stdin), Some(stdout), Some(stderr)) = (
        Mode::of(streams[0].as_ref()),
        Mode::of(streams[1].as_ref()),
        Mode::of(streams[2].as_ref()),
    ) else {
        return Ok(None);
    };
    if stdin == Mode::Stdout || stdout == Mode::Stdout {
        return Ok(None);
    }
    let shell = match &shell {
        Some(shell) => shell.is_truthy()?,
        None => false,
    };
    let Some(run) = simple_run(args, shell, cwd.as_ref(), env.as_ref())? else {
        return Ok(None);
    };
    let mut cmd = simple_command_of(&run.argv);
    if let Some(dir) = run.cwd {
        cmd.current_dir(dir);
    }
    if let Some(vars) = run.env {
        cmd.env_clear();
        cmd.envs(vars);
    }
    let mut ends = Ends::default();
    match stdin {
        Mode::Pipe => {
            let (read, write) = pipe()?;
            cmd.stdin(Stdio::from(read));
            ends.stdin = Some(write);
        }
        Mode::Null => {
            cmd.stdin(Stdio::null());
        }
        Mode::Inherit | Mode::Stdout => {}
    }
    match stdout {
        Mode::Pipe => {
            let (read, write) = pipe()?;
            if stderr == Mode::Stdout {
                cmd.stderr(Stdio::from(write.try_clone().map_err(os_error)?));
            }
            cmd.stdout(Stdio::from(write));
            ends.out = Some(read);
        }
        Mode::Null => {
            cmd.stdout(Stdio::null());
        }
        Mode::Inherit | Mode::Stdout => {}
    }
    match (stderr, stdout) {
        (Mode::Pipe, _) => {
            let (read, write) = pipe()?;
            cmd.stderr(Stdio::from(write));
            ends.err = Some(read);
        }
        (Mode::Null, _) | (Mode::Stdout, Mode::Null) => {
            cmd.stderr(Stdio::null());
        }
        // As CPython: the child's stderr is the parent's stdout.
        (Mode::Stdout, Mode::Inherit) => {
            cmd.stderr(Stdio::from(sys::dup_cloexec(1).map_err(os_error)?));
        }
        // STDOUT with a piped stdout: set above, with stdout's pipe.
        (Mode::Stdout, _) | (Mode::Inherit, _) => {}
    }
    Ok(Some((cmd, run.names, ends)))
}

/// The run of [`run`] and [`run_std`]: spawns `cmd` (on a spawner thread
/// when `on_pool`), closes `ends.given`, exchanges `input` and the outputs
/// with the child and waits, with the GIL released and Python's signal
/// handlers run as CPython's waits run them.
fn run_to_end<'py>(
    py: Python<'py>,
    mut cmd: Command,
    on_pool: bool,
    names: &Names,
    ends: Ends,
    input: Option<Bound<'py, PyBytes>>,
    timeout: Option<Duration>,
) -> PyResult<Ran<'py>> {
    let Ends {
        given,
        stdin,
        out,
        err,
    } = ends;
    let (want_out, want_err) = (out.is_some(), err.is_some());
    let input: &[u8] = input.as_ref().map_or(&[], |b| b.as_bytes());
    let mut raised = None;
    let wake = Wake::arm(py)?;
    // Waited for right here: no pidfd needed (it costs a few µs) unless a
    // deadline has to see the exit, or a run with no stream to poll has
    // only the wait for the exit, which must also see the wakeup pipe
    // (the clone makes it then: no later `pidfd_open`).
    let no_streams = stdin.is_none() && !want_out && !want_err;
    let pidfd = timeout.is_some() || (wake.is_some() && no_streams);
    cmd.pidfd(pidfd);
    cmd.pidfd_at_spawn(pidfd && timeout.is_none());
    let pool = if on_pool {
        Some(crate::spawn::global_pool()?)
    } else {
        None
    };
    let result = py.detach(|| {
        let spawned = if let Some(pool) = pool {
            let (tx, rx) = std::sync::mpsc::channel();
            pool.run(move || {
                let _ = tx.send(spawn_closing(cmd));
            });
            rx.recv().expect("a spawner thread answers every job")
        } else {
            spawn_closing(cmd)
        };
        drop(given);
        let mut child = spawned?;
        let mut exchange = Exchange::new()
            .kill_signal(libc::SIGKILL)
            // CPython's run() keeps what was read before its time-out.
            .read_after_kill(false);
        if let Some(stdin) = stdin {
            exchange = exchange.input(stdin, input);
        }
        for fd in [out, err].into_iter().flatten() {
            exchange = exchange.output(fd);
        }
        if let Some(timeout) = timeout {
            exchange = exchange.timeout(timeout);
        }
        let started = Instant::now();
        let wake = wake.as_ref().map(Wake::fd);
        let Some(run) = communicate_with_signals(&mut child, exchange, wake, &mut raised) else {
            return Ok(None);
        };
        Ok(Some((child.id() as i32, run?, started)))
    });
    Wake::disarm_after(wake, py, &mut raised);
    if let Some(err) = raised {
        return Err(err);
    }
    match result {
        Ok(None) => unreachable!("a run is only cut short by a handler's exception"),
        Ok(Some((pid, run, started))) => {
            let (timed_out, left) = match (run.end, run.streams_done) {
                (RunEnd::TimedOut, Some(done)) => {
                    let spent = done.saturating_duration_since(started).as_secs_f64();
                    (2, timeout.map_or(0.0, |t| t.as_secs_f64()) - spent)
                }
                (RunEnd::TimedOut, None) => (1, 0.0),
                _ => (0, 0.0),
            };
            let mut outputs = run.outputs.into_iter();
            let stdout = if want_out { outputs.next() } else { None };
            let stderr = if want_err { outputs.next() } else { None };
            // Timed out while waiting for the exit: CPython's wait() raises
            // without the output.
            let (stdout, stderr) = if timed_out == 2 {
                (None, None)
            } else {
                (
                    to_py(py, want_out, stdout, timed_out == 1),
                    to_py(py, want_err, stderr, timed_out == 1),
                )
            };
            Ok((pid, run.status.into_raw(), stdout, stderr, timed_out, left))
        }
        Err(e) => Err(names.error(py, e)),
    }
}

/// `run(args)` with every other argument at its default, in one call:
/// [`simple_command`], then [`run_to_end`] with no stream.
/// Returns the raw wait status, or `None` when `args` needs the general
/// path (see [`simple_command`]).
#[pyfunction]
pub fn run_args(py: Python<'_>, args: &Bound<'_, PyAny>) -> PyResult<Option<i32>> {
    let Some((cmd, names)) = simple_command(args)? else {
        return Ok(None);
    };
    let (_pid, status, ..) = run_to_end(py, cmd, false, &names, Ends::default(), None, None)?;
    Ok(Some(status))
}
