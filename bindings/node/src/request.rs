//! A spawn request as the JS side encodes it, turned into a
//! `fastspawn::Command` on the JS thread, except for the inherited stdio
//! fds, which the spawner thread duplicates right before the spawn
//! ([`Request::into_command`]).
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
//! | 2 | flags: 1 cwd set, 2 detached (setsid), 4 uid set, 8 gid set |
//! | 3, 4 | uid, gid |
//! | 5 | nfds: how many child fds follow |
//! | 6 + 2i, 7 + 2i | child fd i: kind ([`PIPE`], [`IGNORE`], [`INHERIT`], [`FD`]) and its argument |
//!
//! For a `PIPE` the native side creates a socketpair and writes the
//! parent's end into the argument slot; the child's end goes into the
//! command, which closes it after the spawn attempt, whatever its outcome.

use std::cell::RefCell;
use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::{IntoRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;

use fastspawn::{Command, Stdio};
use rustix::net::{AddressFamily, SocketFlags, SocketType};

thread_local! {
    /// The last snapshot of the inherited environment, by fingerprint.
    static INHERITED: RefCell<(u64, Vec<(OsString, OsString)>)> = const { RefCell::new((0, Vec::new())) };
}

pub const PIPE: i32 = 0;
pub const IGNORE: i32 = 1;
pub const INHERIT: i32 = 2;
pub const FD: i32 = 3;

const FLAG_CWD: i32 = 1;
const FLAG_DETACHED: i32 = 2;
const FLAG_UID: i32 = 4;
const FLAG_GID: i32 = 8;
const HEADER: usize = 6;

fn invalid(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("fastspawn: bad request: {what}"),
    )
}

/// A request ready for a spawner thread: the command, and the stdio fds
/// (0 to 2) it inherits, which are duplicated there, right before the
/// spawn.
pub struct Request {
    pub command: Command,
    inherit: Vec<usize>,
}

impl Request {
    /// On the spawner thread: maps each inherited stdio fd as a duplicate,
    /// rather than leaving it in place, because Node's own stdio fds are
    /// close-on-exec and, as with libuv, the child must get them open.
    /// Duplicated here and not on the JS thread so that spawns waiting in
    /// the pool's queue hold no fds (a burst of thousands would otherwise
    /// run out of them). A closed fd stays closed in the child.
    pub fn into_command(self) -> io::Result<Command> {
        let mut command = self.command;
        for i in self.inherit {
            match crate::sys::dup_cloexec(i as RawFd) {
                Ok(fd) => set_stdio(&mut command, i, Stdio::from(fd)),
                Err(err) if err.raw_os_error() == Some(libc::EBADF) => {}
                Err(err) => return Err(err),
            }
        }
        Ok(command)
    }
}

/// The request, and the parents' ends of its pipes (in the order of the
/// child fds), which are written into `io` once nothing can fail any more.
pub fn build(strings: &str, io: &mut [i32]) -> io::Result<Request> {
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
    let mut fields = strings.split('\0');
    let mut next = || fields.next().ok_or_else(|| invalid("too few strings"));
    let file = next()?;
    let cwd = next()?;
    let mut command = Command::new(file);
    command.arg0(next()?);
    for _ in 1..argc {
        command.arg(next()?);
    }
    command.env_clear();
    if envc < 0 {
        // The process's environment as it is now, on the JS thread: not
        // read later on a spawner thread, where a `process.env.X = ...`
        // (setenv) made meanwhile on the JS thread could move it away.
        INHERITED.with(|cache| {
            let mut cache = cache.borrow_mut();
            let fingerprint = crate::sys::environ_fingerprint();
            if cache.0 != fingerprint || cache.1.is_empty() {
                *cache = (fingerprint, std::env::vars_os().collect());
            }
            command.envs(cache.1.iter().map(|(k, v)| (k, v)));
        });
    } else {
        for _ in 0..envc {
            let pair = next()?.as_bytes();
            // Like execve, the child gets the pair as given; a pair without
            // '=' cannot be expressed as a variable and is dropped.
            if let Some(eq) = pair.iter().position(|&b| b == b'=') {
                command.env(
                    OsStr::from_bytes(&pair[..eq]),
                    OsStr::from_bytes(&pair[eq + 1..]),
                );
            }
        }
    }
    if flags & FLAG_CWD != 0 {
        command.current_dir(cwd);
    }
    if flags & FLAG_DETACHED != 0 {
        command.setsid(true);
    }
    if flags & FLAG_UID != 0 {
        command.uid(io[3] as u32);
    }
    if flags & FLAG_GID != 0 {
        command.gid(io[4] as u32);
    }

    // Set up every child fd first, keeping the parents' ends owned here, so
    // that a failure half-way (EMFILE, EBADF) closes everything it made.
    let mut parents: Vec<(usize, OwnedFd)> = Vec::new();
    let mut inherit = Vec::new();
    for i in 0..nfds {
        let kind = io[HEADER + 2 * i];
        let arg = io[HEADER + 2 * i + 1];
        let child_fd = i as RawFd;
        let given: Option<OwnedFd> = match kind {
            PIPE => {
                let (parent, child) = rustix::net::socketpair(
                    AddressFamily::UNIX,
                    SocketType::STREAM,
                    SocketFlags::CLOEXEC,
                    None,
                )?;
                parents.push((HEADER + 2 * i + 1, parent));
                Some(child)
            }
            IGNORE if i < 3 => {
                set_stdio(&mut command, i, Stdio::null());
                None
            }
            IGNORE => None,
            // Stdio: duplicated on the spawner thread (Request::into_command).
            INHERIT if i < 3 => {
                inherit.push(i);
                None
            }
            // The parent's fd i, mapped as a duplicate rather than left in
            // place (every fd not mapped is closed in the child). A closed
            // one stays closed.
            INHERIT => match crate::sys::dup_cloexec(child_fd) {
                Ok(fd) => Some(fd),
                Err(err) if err.raw_os_error() == Some(libc::EBADF) => None,
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
                Some(fd)
            }
            FD => Some(crate::sys::dup_cloexec(arg)?),
            _ => return Err(invalid("fd kind")),
        };
        if let Some(fd) = given {
            if i < 3 {
                set_stdio(&mut command, i, Stdio::from(fd));
            } else {
                command.fd(child_fd, fd);
            }
        }
    }
    for (slot, parent) in parents {
        io[slot] = parent.into_raw_fd();
    }
    Ok(Request { command, inherit })
}

fn set_stdio(command: &mut Command, i: usize, stdio: Stdio) {
    match i {
        0 => command.stdin(stdio),
        1 => command.stdout(stdio),
        _ => command.stderr(stdio),
    };
}
