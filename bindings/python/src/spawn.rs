//! `spawn`: one child from the arguments `Popen` has already checked and
//! encoded (bytes for every path, string and variable; ints for fds).
//!
//! The command is built with the GIL held (the fds Python names are
//! duplicated now, while the caller keeps them open), then the clone runs
//! with the GIL released. A child with a parent-death signal is started by
//! one of fastspawn's spawner threads instead of the calling thread: the
//! kernel sends that signal when the *thread* that created the child exits,
//! and a Python worker thread may exit long before the process does.

use std::ffi::OsStr;
use std::os::fd::RawFd;
use std::os::unix::ffi::OsStrExt;

use fastspawn::{Command, Resource, Stdio};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::child::Child;
use crate::errors;
use crate::sys;

fn os<'a>(bytes: &'a Bound<'_, PyBytes>) -> &'a OsStr {
    OsStr::from_bytes(bytes.as_bytes())
}

/// Linux's `RLIMIT_*` number (as Python's `resource` module has it) as a
/// [`Resource`].
fn resource(number: i32) -> PyResult<Resource> {
    let all = [
        (libc::RLIMIT_AS, Resource::As),
        (libc::RLIMIT_CORE, Resource::Core),
        (libc::RLIMIT_CPU, Resource::Cpu),
        (libc::RLIMIT_DATA, Resource::Data),
        (libc::RLIMIT_FSIZE, Resource::Fsize),
        (libc::RLIMIT_MEMLOCK, Resource::Memlock),
        (libc::RLIMIT_MSGQUEUE, Resource::Msgqueue),
        (libc::RLIMIT_NICE, Resource::Nice),
        (libc::RLIMIT_NOFILE, Resource::Nofile),
        (libc::RLIMIT_NPROC, Resource::Nproc),
        (libc::RLIMIT_RSS, Resource::Rss),
        (libc::RLIMIT_RTPRIO, Resource::Rtprio),
        (libc::RLIMIT_RTTIME, Resource::Rttime),
        (libc::RLIMIT_SIGPENDING, Resource::Sigpending),
        (libc::RLIMIT_STACK, Resource::Stack),
    ];
    all.iter()
        .find(|(raw, _)| *raw as i32 == number)
        .map(|(_, r)| *r)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "rlimits: {number} is not a resource (use resource.RLIMIT_*)"
            ))
        })
}

/// A limit as Python writes it (`resource.RLIM_INFINITY` is -1) as the kernel's.
fn limit(value: i64) -> u64 {
    if value < 0 {
        fastspawn::RLIM_INFINITY
    } else {
        value as u64
    }
}

fn dup(fd: RawFd) -> PyResult<std::os::fd::OwnedFd> {
    Ok(sys::dup_cloexec(fd)?)
}

/// Every open fd above 2 of this process that is not close-on-exec.
fn inheritable_fds() -> PyResult<Vec<RawFd>> {
    let mut fds = Vec::new();
    for entry in std::fs::read_dir("/proc/self/fd")? {
        let name = entry?.file_name();
        if let Some(fd) = name.to_str().and_then(|n| n.parse::<RawFd>().ok()) {
            if fd > 2 && sys::is_inheritable(fd) {
                fds.push(fd);
            }
        }
    }
    Ok(fds)
}

/// Starts a child. Arguments are positional and pre-checked by
/// `fastspawn.subprocess`; `exe_name` and `cwd_name` are what the caller
/// called the program and the directory, for the exception's `filename`.
#[pyfunction]
#[pyo3(signature = (
    executable, argv, env, cwd, stdio, fds, close_fds, setsid, pgroup, uid, gid, groups,
    umask, restore_signals, pdeathsig, rlimits, cgroup, require_vfork, exe_name, cwd_name
))]
#[allow(clippy::too_many_arguments)]
pub fn spawn(
    py: Python<'_>,
    executable: Bound<'_, PyBytes>,
    argv: Vec<Bound<'_, PyBytes>>,
    env: Option<Vec<(Bound<'_, PyBytes>, Bound<'_, PyBytes>)>>,
    cwd: Option<Bound<'_, PyBytes>>,
    stdio: (RawFd, RawFd, RawFd),
    fds: Vec<(RawFd, RawFd)>,
    close_fds: bool,
    setsid: bool,
    pgroup: Option<i32>,
    uid: Option<u32>,
    gid: Option<u32>,
    groups: Option<Vec<u32>>,
    umask: Option<u32>,
    restore_signals: bool,
    pdeathsig: Option<i32>,
    rlimits: Vec<(i32, i64, i64)>,
    cgroup: Option<RawFd>,
    require_vfork: bool,
    exe_name: Bound<'_, PyAny>,
    cwd_name: Bound<'_, PyAny>,
) -> PyResult<Child> {
    let mut cmd = Command::new(os(&executable));
    if let Some(arg0) = argv.first() {
        cmd.arg0(os(arg0));
    }
    cmd.args(argv.iter().skip(1).map(|a| os(a)));
    if let Some(vars) = &env {
        cmd.env_clear();
        cmd.envs(vars.iter().map(|(k, v)| (os(k), os(v))));
    }
    if let Some(dir) = &cwd {
        cmd.current_dir(os(dir));
    }
    let (stdin, stdout, stderr) = stdio;
    if stdin >= 0 {
        cmd.stdin(Stdio::from(dup(stdin)?));
    }
    if stdout >= 0 {
        cmd.stdout(Stdio::from(dup(stdout)?));
    }
    if stderr >= 0 {
        cmd.stderr(Stdio::from(dup(stderr)?));
    }
    if !close_fds {
        for fd in inheritable_fds()? {
            if !fds.iter().any(|(child_fd, _)| *child_fd == fd) {
                cmd.fd(fd, dup(fd)?);
            }
        }
    }
    for &(child_fd, parent_fd) in &fds {
        cmd.fd(child_fd, dup(parent_fd)?);
    }
    cmd.setsid(setsid);
    if let Some(pgroup) = pgroup {
        cmd.process_group(pgroup);
    }
    if let Some(groups) = &groups {
        cmd.groups(groups);
    }
    if let Some(gid) = gid {
        cmd.gid(gid);
    }
    if let Some(uid) = uid {
        cmd.uid(uid);
    }
    if let Some(mask) = umask {
        cmd.umask(mask);
    }
    if restore_signals {
        // CPython's restore_signals: the signals the interpreter ignores at
        // startup go back to their defaults (SIGPIPE always does).
        cmd.signal_default(&[libc::SIGXFSZ]);
    } else {
        cmd.restore_sigpipe(false);
    }
    if let Some(signal) = pdeathsig {
        cmd.pdeathsig(signal);
    }
    for (number, soft, hard) in rlimits {
        cmd.rlimit(resource(number)?, limit(soft), limit(hard));
    }
    if let Some(dir) = cgroup {
        cmd.cgroup(dup(dir)?);
    }
    cmd.require_vfork(require_vfork);

    let started = if pdeathsig.is_some() {
        py.detach(move || {
            let (tx, rx) = std::sync::mpsc::channel();
            fastspawn::Pool::global().run(move || {
                let _ = tx.send(cmd.spawn());
            });
            rx.recv().expect("a spawner thread answers every job")
        })
    } else {
        py.detach(|| cmd.spawn())
    };
    started.map(Child::new).map_err(|e| {
        let names = errors::Names {
            exe: &exe_name,
            cwd: &cwd_name,
            cwd_path: cwd.as_ref().map(os),
        };
        errors::from_fastspawn(py, e, Some(&names))
    })
}
