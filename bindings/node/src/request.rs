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
//! | 2 | flags: 1 cwd set, 2 detached (setsid), 4 uid set, 8 gid set, 16 contain (a cgroup of its own) |
//! | 3, 4 | uid, gid |
//! | 5 | nfds: how many child fds follow |
//! | 6 + 2i, 7 + 2i | child fd i: kind ([`PIPE`], [`IGNORE`], [`INHERIT`], [`FD`]) and its argument |
//!
//! For a `PIPE` the native side creates a socketpair and writes the
//! parent's end into the argument slot; the child's end goes into the
//! request and then the command, which closes it after the spawn attempt,
//! whatever its outcome.

use std::cell::RefCell;
use std::ffi::OsStr;
use std::io;
use std::os::fd::{IntoRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;

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
const HEADER: usize = 6;

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

impl Request {
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

    // Set up every child fd first, keeping the parents' ends owned here, so
    // that a failure half-way (EMFILE, EBADF) closes everything it made.
    let mut parents: Vec<(usize, OwnedFd)> = Vec::new();
    let mut fds = Vec::with_capacity(nfds);
    for i in 0..nfds {
        let kind = io[HEADER + 2 * i];
        let arg = io[HEADER + 2 * i + 1];
        let source = match kind {
            PIPE => {
                let (parent, child) = rustix::net::socketpair(
                    AddressFamily::UNIX,
                    SocketType::STREAM,
                    SocketFlags::CLOEXEC,
                    None,
                )?;
                parents.push((HEADER + 2 * i + 1, parent));
                Source::Fd(child)
            }
            IGNORE if i < 3 => Source::Null,
            IGNORE => continue,
            INHERIT if i < 3 => Source::Inherit,
            // The parent's fd i, mapped as a duplicate rather than left in
            // place (every fd not mapped is closed in the child). A closed
            // one stays closed.
            INHERIT => match crate::sys::dup_cloexec(i as RawFd) {
                Ok(fd) => Source::Fd(fd),
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
                Source::Fd(fd)
            }
            FD => Source::Fd(crate::sys::dup_cloexec(arg)?),
            _ => return Err(invalid("fd kind")),
        };
        fds.push((i, source));
    }
    for (slot, parent) in parents {
        io[slot] = parent.into_raw_fd();
    }
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

fn set_stdio(command: &mut Command, i: usize, stdio: Stdio) {
    match i {
        0 => command.stdin(stdio),
        1 => command.stdout(stdio),
        _ => command.stderr(stdio),
    };
}
