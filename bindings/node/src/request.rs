//! A spawn request as the JS side encodes it: checked, with its pipes and
//! fd duplicates made, on the JS thread ([`build`]), and turned into a
//! `fastspawn::Command` on the spawner thread ([`Request::into_command`]).
//!
//! Strings: one string, fields separated by NUL (JS has rejected NUL bytes
//! in every field): `file`, `cwd` (empty when unset), then `argc` argv
//! entries (argv\[0\] first), then `envc` `KEY=VALUE` pairs.
//!
//! Numbers (`io`, an `Int32Array` the JS side reuses):
//!
//! | index | meaning |
//! | --- | --- |
//! | 0 | argc |
//! | 1 | envc, or -1 for the process's environment (a snapshot taken on the JS thread) |
//! | 2 | flags: 1 cwd set, 2 detached (setsid), 4 uid set, 8 gid set, 16 contain (a cgroup of its own), 32 readable outputs (`pipeAs: 'readable'`: piped fds 1 and 2 are pipes made on the spawner thread, their read ends native, `outputs.rs`; their slots get -1) |
//! | 3, 4 | uid, gid |
//! | 5 | nfds: how many child fds follow |
//! | 6 + 2i, 7 + 2i | child fd i: kind ([`PIPE`], [`IGNORE`], [`INHERIT`], [`FD`]) and its argument |
//!
//! For a `PIPE` (but a readable output's) the native side takes a socketpair and writes the
//! parent's end into the argument slot; the child's end goes into the
//! request and then the command, which closes it after the spawn attempt,
//! whatever its outcome.

use std::cell::RefCell;
use std::ffi::OsStr;
use std::io;
use std::os::fd::{AsRawFd, IntoRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use fastspawn::{Command, Environment, Stdio};
use rustix::net::{AddressFamily, SocketFlags, SocketType};

thread_local! {
    /// The last snapshot of the inherited environment, by fingerprint,
    /// prepared once as the child's `envp` and shared with the requests
    /// (and commands) that use it: no copy per spawn.
    static INHERITED: RefCell<(u64, Option<Environment>)> = const { RefCell::new((0, None)) };
}

pub const PIPE: i32 = 0;
pub const IGNORE: i32 = 1;
pub const INHERIT: i32 = 2;
pub const FD: i32 = 3;

const FLAG_CWD: i32 = 1;
const FLAG_DETACHED: i32 = 2;
const FLAG_UID: i32 = 4;
const FLAG_GID: i32 = 8;
const FLAG_CONTAIN: i32 = 16;
const FLAG_READABLE: i32 = 32;
pub const HEADER: usize = 6;

fn invalid(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("fastspawn: bad request: {what}"),
    )
}

/// What child fd `i` gets.
enum Source {
    /// An fd made or duplicated on the JS thread (a pipe's child end, a
    /// duplicate of a given fd).
    Fd(OwnedFd),
    /// /dev/null (an ignored fd 0-2).
    Null,
    /// The parent's own fd `i` (0-2), duplicated on the spawner thread.
    Inherit,
    /// A `pipeAs: 'readable'` output (fd 1 or 2): a pipe made on the
    /// spawner thread ([`Request::make_outputs`]), its read end kept
    /// native (`outputs.rs`).
    Output,
}

/// A request ready for a spawner thread. The JS thread does only what must
/// happen during the call (the pipes, the duplicates of the fds it names,
/// the environment snapshot); the command is built on the spawner thread
/// ([`Request::into_command`]), so that its allocations (argv, the
/// environment's map) cost the event loop nothing.
pub struct Request {
    strings: String,
    argc: usize,
    /// The pairs of `strings`, or -1 for `inherited`.
    envc: i32,
    inherited: Option<Environment>,
    flags: i32,
    uid: u32,
    gid: u32,
    fds: Vec<(usize, Source)>,
}

/// The capacity asked for a readable output's pipe ([`Request::make_outputs`]).
const OUTPUT_PIPE_SIZE: usize = 256 * 1024;

impl Request {
    /// Whether the child is contained (`contain`): its tree needs a pidfd.
    pub fn contained(&self) -> bool {
        self.flags & FLAG_CONTAIN != 0
    }

    /// Whether piped fds 1 and 2 are `pipeAs: 'readable'` outputs (read by
    /// the waiter).
    pub fn readable(&self) -> bool {
        self.flags & FLAG_READABLE != 0
    }

    /// On the spawner thread, with `FLAG_READABLE`: a pipe for each piped
    /// fd 1 and 2 (the child gets the write end), and their read ends by
    /// child fd, non-blocking, to be read natively (`outputs.rs`):
    /// registered once the child runs, closed if it failed. A pipe rather
    /// than a socketpair (what the other piped fds get, as Node's): made
    /// with two system calls and no socket, cheaper to write and read, and
    /// no JS stream needs it to be a socket.
    pub fn make_outputs(&mut self) -> io::Result<Vec<(usize, OwnedFd)>> {
        let mut ends = Vec::new();
        for (i, source) in &mut self.fds {
            if matches!(source, Source::Output) {
                let (read, write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
                rustix::io::ioctl_fionbio(&read, true)?;
                // As much room as a socketpair's buffer, so that a child
                // writing ~100-200 KB does not block on the pipe (64 KiB)
                // until this side reads; its pages are only taken as
                // written. Best effort: a user past its pipe quota keeps
                // the default.
                let _ = rustix::pipe::fcntl_setpipe_size(&write, OUTPUT_PIPE_SIZE);
                *source = Source::Fd(write);
                ends.push((*i, read));
            }
        }
        Ok(ends)
    }

    /// On the spawner thread: the command. Inherited stdio fds are mapped
    /// as duplicates made here rather than left in place, because Node's
    /// own stdio fds are close-on-exec and, as with libuv, the child must
    /// get them open; they are duplicated here and not on the JS thread so
    /// that spawns waiting in the pool's queue hold no fds (a burst of
    /// thousands would otherwise run out of them). A closed fd stays closed
    /// in the child.
    pub fn into_command(self) -> io::Result<Command> {
        let mut fields = self.strings.split('\0');
        let mut next = || fields.next().ok_or_else(|| invalid("too few strings"));
        let file = next()?;
        let cwd = next()?;
        let mut command = Command::new(file);
        // The registry watches the pidfd at once: let the clone make it.
        command.pidfd_at_spawn(true);
        command.arg0(next()?);
        for _ in 1..self.argc {
            command.arg(next()?);
        }
        if let Some(environment) = &self.inherited {
            command.environment(environment);
        } else {
            command.env_clear();
            for _ in 0..self.envc {
                let pair = next()?.as_bytes();
                // Like execve, the child gets the pair as given; a pair
                // without '=' cannot be expressed as a variable and is dropped.
                if let Some(eq) = pair.iter().position(|&b| b == b'=') {
                    command.env(
                        OsStr::from_bytes(&pair[..eq]),
                        OsStr::from_bytes(&pair[eq + 1..]),
                    );
                }
            }
        }
        if self.flags & FLAG_CWD != 0 {
            command.current_dir(cwd);
        }
        if self.flags & FLAG_DETACHED != 0 {
            command.setsid(true);
        }
        if self.flags & FLAG_CONTAIN != 0 {
            command.contain(true);
        }
        if self.flags & FLAG_UID != 0 {
            command.uid(self.uid);
        }
        if self.flags & FLAG_GID != 0 {
            command.gid(self.gid);
        }
        for (i, source) in self.fds {
            let fd = match source {
                Source::Fd(fd) => fd,
                Source::Null => {
                    set_stdio(&mut command, i, Stdio::null());
                    continue;
                }
                Source::Inherit => match crate::sys::dup_cloexec(i as RawFd) {
                    Ok(fd) => fd,
                    Err(err) if err.raw_os_error() == Some(libc::EBADF) => continue,
                    Err(err) => return Err(err),
                },
                Source::Output => return Err(invalid("output pipe not made")),
            };
            if i < 3 {
                set_stdio(&mut command, i, Stdio::from(fd));
            } else {
                command.fd(i as RawFd, fd);
            }
        }
        Ok(command)
    }
}

/// The request, and the parents' ends of its pipes (in the order of the
/// child fds), which are written into `io` once nothing can fail any more.
pub fn build(strings: String, io: &mut [i32]) -> io::Result<Request> {
    if io.len() < HEADER {
        return Err(invalid("io too short"));
    }
    let argc = usize::try_from(io[0]).map_err(|_| invalid("argc"))?;
    let envc = io[1];
    let flags = io[2];
    let nfds = usize::try_from(io[5]).map_err(|_| invalid("nfds"))?;
    if argc == 0 || io.len() < HEADER + 2 * nfds {
        return Err(invalid("counts"));
    }
    let inherited = if envc < 0 {
        // The process's environment as it is now, on the JS thread: not
        // read later on a spawner thread, where a `process.env.X = ...`
        // (setenv) made meanwhile on the JS thread could move it away.
        Some(INHERITED.with(|cache| {
            let mut cache = cache.borrow_mut();
            let fingerprint = crate::sys::environ_fingerprint();
            match &cache.1 {
                Some(environment) if cache.0 == fingerprint => environment.clone(),
                _ => {
                    let environment = Environment::capture();
                    *cache = (fingerprint, Some(environment.clone()));
                    environment
                }
            }
        }))
    } else {
        None
    };

    // Set up every child fd but the pipes first (duplicates can fail:
    // EBADF, EMFILE), then take the pipes' socketpairs, so that a failure
    // half-way closes everything it made and gives no socketpair away.
    let readable = flags & FLAG_READABLE != 0;
    let mut fds = Vec::with_capacity(nfds);
    let mut pipes = 0;
    for i in 0..nfds {
        let kind = io[HEADER + 2 * i];
        let arg = io[HEADER + 2 * i + 1];
        let source = match kind {
            // Made on the spawner thread; JS gets no fd for it.
            PIPE if readable && (i == 1 || i == 2) => {
                io[HEADER + 2 * i + 1] = -1;
                Some(Source::Output)
            }
            PIPE => {
                pipes += 1;
                None
            }
            IGNORE if i < 3 => Some(Source::Null),
            IGNORE => continue,
            INHERIT if i < 3 => Some(Source::Inherit),
            // The parent's fd i, mapped as a duplicate rather than left in
            // place (every fd not mapped is closed in the child). A closed
            // one stays closed.
            INHERIT => match crate::sys::dup_cloexec(i as RawFd) {
                Ok(fd) => Some(Source::Fd(fd)),
                Err(err) if err.raw_os_error() == Some(libc::EBADF) => continue,
                Err(err) => return Err(err),
            },
            // The fd of a stream of this process (another child's pipe, a
            // socket): as libuv does for a child's fds 0-2, its file
            // description is made blocking (shared with the parent, which
            // has stopped reading it): a program reading its stdin does not
            // expect EAGAIN.
            FD if i < 3 => {
                let fd = crate::sys::dup_cloexec(arg)?;
                let flags = rustix::fs::fcntl_getfl(&fd)?;
                if flags.contains(rustix::fs::OFlags::NONBLOCK) {
                    rustix::fs::fcntl_setfl(&fd, flags - rustix::fs::OFlags::NONBLOCK)?;
                }
                Some(Source::Fd(fd))
            }
            FD => Some(Source::Fd(crate::sys::dup_cloexec(arg)?)),
            _ => return Err(invalid("fd kind")),
        };
        fds.push((i, source));
    }
    let (mut pairs, made) = take_pairs(pipes)?;
    if readable && made > 0 {
        grow_reserve(made);
    }
    let fds = fds
        .into_iter()
        .map(|(i, source)| {
            let source = source.unwrap_or_else(|| {
                let (parent, child) = pairs.pop().expect("one socketpair per pipe");
                io[HEADER + 2 * i + 1] = parent.into_raw_fd();
                Source::Fd(child)
            });
            (i, source)
        })
        .collect();
    Ok(Request {
        strings,
        argc,
        envc,
        inherited,
        flags,
        uid: io[3] as u32,
        gid: io[4] as u32,
        fds,
    })
}

/// Socketpairs made ahead of time by the spawner threads ([`refill`]), so
/// that a spawn with piped stdio does not make them on the JS thread (three
/// `socketpair` calls, ~15 µs each with their closes). At most
/// [`reserve_size`] (6 unless a benchmark changed it or `pipeAs: 'readable'` spawns grew
/// it, [`grow_reserve`]); close-on-exec, so no child of any spawner inherits
/// them (fastspawn's children get only their mapped fds anyway); they live
/// until the process exits. The lock is never held across a system call.
static RESERVE: Mutex<Vec<(OwnedFd, OwnedFd)>> = Mutex::new(Vec::new());
static RESERVE_SIZE: AtomicUsize = AtomicUsize::new(6);
/// Pairs that spawner threads are making for the reserve right now
/// (counted under the reserve's lock, made outside it), so that two
/// threads topping it up at once do not both make what it lacks and close
/// the surplus (under an HTTP load that wasted ~0.5 socketpair and its two
/// closes per spawn; session 7).
static REFILLING: AtomicUsize = AtomicUsize::new(0);

/// Sets how many pairs the reserve keeps (0: none, the JS thread makes
/// every pair; at most 64); returns the previous size. For the benchmarks.
pub fn set_reserve_size(pairs: usize) -> usize {
    let previous = RESERVE_SIZE.swap(pairs.min(64), Ordering::Relaxed);
    let extra = {
        let mut reserve = reserve();
        let keep = reserve.len().min(reserve_size());
        reserve.split_off(keep)
    };
    drop(extra);
    previous
}

fn reserve_size() -> usize {
    RESERVE_SIZE.load(Ordering::Relaxed)
}

fn reserve() -> std::sync::MutexGuard<'static, Vec<(OwnedFd, OwnedFd)>> {
    RESERVE.lock().unwrap_or_else(|e| e.into_inner())
}

fn new_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    Ok(rustix::net::socketpair(
        AddressFamily::UNIX,
        SocketType::STREAM,
        SocketFlags::CLOEXEC,
        None,
    )?)
}

/// The most a `pipeAs: 'readable'` spawn grows the reserve to
/// ([`grow_reserve`]).
const GROWN_RESERVE: usize = 48;

/// A `pipeAs: 'readable'` spawn found the reserve short by `made` pairs
/// (it made them on the JS thread): the spawner threads keep `2 * made`
/// more from now on, up to [`GROWN_RESERVE`] pairs. Only that opt-in grows
/// it (a server spawning many such children at once); the default size
/// stays 6 otherwise.
fn grow_reserve(made: usize) {
    let _ = RESERVE_SIZE.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |size| {
        (size < GROWN_RESERVE).then(|| (size + 2 * made).min(GROWN_RESERVE))
    });
}

/// `n` socketpairs: from the reserve while it has some, else made now
/// (how many were made is the second value). On failure (EMFILE...) those
/// taken go back to the reserve.
fn take_pairs(n: usize) -> io::Result<(Vec<(OwnedFd, OwnedFd)>, usize)> {
    if n == 0 {
        return Ok((Vec::new(), 0));
    }
    let mut pairs = {
        let mut reserve = reserve();
        let keep = reserve.len().saturating_sub(n);
        reserve.split_off(keep)
    };
    let made = n - pairs.len();
    while pairs.len() < n {
        match new_pair() {
            Ok(pair) => pairs.push(pair),
            Err(err) => {
                give_back(pairs);
                return Err(err);
            }
        }
    }
    Ok((pairs, made))
}

/// Puts unused pairs back, up to the reserve's size; the rest are closed
/// after the lock is released.
fn give_back(mut pairs: Vec<(OwnedFd, OwnedFd)>) {
    {
        let mut reserve = reserve();
        while reserve.len() < reserve_size() {
            match pairs.pop() {
                Some(pair) => reserve.push(pair),
                None => break,
            }
        }
    }
    drop(pairs);
}

/// The fds of the reserve (both ends of each pair), for the tests' leak
/// checks.
pub fn reserved_fds() -> Vec<i32> {
    reserve()
        .iter()
        .flat_map(|(a, b)| [a.as_raw_fd(), b.as_raw_fd()])
        .collect()
}

/// On a spawner thread: tops the reserve up (the pairs are made without
/// the lock). Returns how many pairs it made.
pub fn refill() -> usize {
    // What the reserve lacks, less what other threads are already making
    // for it; claimed under the lock.
    let missing = {
        let reserve = reserve();
        let claimed = REFILLING.load(Ordering::Relaxed);
        let missing = reserve_size().saturating_sub(reserve.len() + claimed);
        REFILLING.store(claimed + missing, Ordering::Relaxed);
        missing
    };
    if missing == 0 {
        return 0;
    }
    let mut made = Vec::with_capacity(missing);
    for _ in 0..missing {
        match new_pair() {
            Ok(pair) => made.push(pair),
            // Out of fds: the JS thread's own attempt will report it.
            Err(_) => break,
        }
    }
    let count = made.len();
    {
        let mut reserve = reserve();
        REFILLING.fetch_sub(missing, Ordering::Relaxed);
        while reserve.len() < reserve_size() {
            match made.pop() {
                Some(pair) => reserve.push(pair),
                None => break,
            }
        }
    }
    // Only if the reserve was shrunk meanwhile (set_reserve_size).
    drop(made);
    count
}

/// For the benchmarks: the parent's end of a socketpair of the reserve
/// whose other end got `data` and was closed, as a child's stdout that
/// wrote `data` and exited (no process involved).
pub fn output_fd(data: &[u8]) -> io::Result<RawFd> {
    let (parent, child) = take_pairs(1)?.0.pop().expect("one pair");
    rustix::io::write(&child, data)?;
    Ok(parent.into_raw_fd())
}

fn set_stdio(command: &mut Command, i: usize, stdio: Stdio) {
    match i {
        0 => command.stdin(stdio),
        1 => command.stdout(stdio),
        _ => command.stderr(stdio),
    };
}
