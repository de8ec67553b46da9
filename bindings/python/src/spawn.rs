//! `spawn`: one child from the arguments `Popen` has already checked and
//! encoded (bytes for every path, string and variable; ints for fds).
//!
//! The command is built with the GIL held (the fds Python names are
//! duplicated now, while the caller keeps them open), then the clone runs
//! with the GIL released. A child with a parent-death signal is started by
//! one of fastspawn's spawner threads instead of the calling thread: the
//! kernel sends that signal when the *thread* that created the child exits,
//! and a Python worker thread may exit long before the process does.

use std::ffi::{OsStr, OsString};
use std::os::fd::RawFd;
use std::os::unix::ffi::OsStrExt;

use fastspawn::{Command, Resource, Stdio};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PySequence, PyString, PyTuple};

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
    sys::dup_cloexec(fd).map_err(errors::os_error)
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

/// A spawn request as `fastspawn.subprocess` encodes it: one tuple, in
/// this order (bytes for every path, string and variable; ints for fds;
/// `None` for "not set").
#[derive(FromPyObject)]
pub struct Request<'py>(
    /// The program to execute (argv\[0\] when it has no `/`: looked up in PATH).
    Bound<'py, PyBytes>,
    /// argv, argv\[0\] first.
    Vec<Bound<'py, PyBytes>>,
    /// The whole environment, or `None` to inherit this process's.
    Option<Vec<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)>>,
    /// The working directory.
    Option<Bound<'py, PyBytes>>,
    /// The fds that become the child's stdin, stdout and stderr (-1: inherit).
    (RawFd, RawFd, RawFd),
    /// `(child fd, parent fd)` mappings (pass_fds and fds=).
    Vec<(RawFd, RawFd)>,
    /// close_fds: `false` hands on every inheritable fd as it is.
    bool,
    /// The options applied in the child.
    Options,
    /// What the caller called the program and the working directory
    /// (for the exception's `filename`).
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
);

/// The options of a [`Request`] applied in the child, in this order.
#[derive(FromPyObject)]
pub struct Options(
    /// start_new_session.
    bool,
    /// process_group.
    Option<i32>,
    /// user, group, extra_groups.
    Option<u32>,
    Option<u32>,
    Option<Vec<u32>>,
    /// umask.
    Option<u32>,
    /// restore_signals.
    bool,
    /// pdeathsig.
    Option<i32>,
    /// rlimits: `(resource, soft, hard)`, -1 for infinity.
    Vec<(i32, i64, i64)>,
    /// An fd open on the cgroup2 directory to start in.
    Option<RawFd>,
    /// require_vfork.
    bool,
    /// (contain, require_contained): the child's tree in a cgroup of its
    /// own (or the session fallback, unless required).
    (bool, bool),
);

/// The names a spawn error reports, kept past the GIL (for errors that
/// arrive from a spawner thread).
pub struct Names {
    exe: Py<PyAny>,
    cwd: Py<PyAny>,
    cwd_path: Option<OsString>,
}

impl Names {
    pub fn error(&self, py: Python<'_>, err: fastspawn::Error) -> PyErr {
        let names = errors::Names {
            exe: self.exe.bind(py),
            cwd: self.cwd.bind(py),
            cwd_path: self.cwd_path.as_deref(),
        };
        errors::from_fastspawn(py, err, Some(&names))
    }
}

/// A command ready to spawn.
pub struct Built {
    pub cmd: Command,
    /// Whether the spawn must run on a spawner thread (pdeathsig).
    pub on_pool: bool,
    pub names: Names,
}

/// Builds the command of `req`, duplicating every fd it names now.
pub fn build(req: Request<'_>) -> PyResult<Built> {
    let Request(
        executable,
        argv,
        env,
        cwd,
        (stdin, stdout, stderr),
        fds,
        close_fds,
        Options(
            setsid,
            pgroup,
            uid,
            gid,
            groups,
            umask,
            restore_signals,
            pdeathsig,
            rlimits,
            cgroup,
            require_vfork,
            (contain, require_contained),
        ),
        exe_name,
        cwd_name,
    ) = req;
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
    // -1 is "inherit"; any other number is an fd, and a negative one is
    // EBADF, as CPython's child reports it (`stdout=STDOUT`, say).
    if stdin != -1 {
        cmd.stdin(Stdio::from(dup(stdin)?));
    }
    if stdout != -1 {
        cmd.stdout(Stdio::from(dup(stdout)?));
    }
    if stderr != -1 {
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
    if contain || require_contained {
        cmd.contain(true);
        cmd.require_contained(require_contained);
    }
    Ok(Built {
        cmd,
        on_pool: pdeathsig.is_some(),
        names: Names {
            exe: exe_name.unbind(),
            cwd: cwd_name.unbind(),
            cwd_path: cwd.as_ref().map(|c| os(c).to_owned()),
        },
    })
}

/// The command of `Popen(args)` (and asyncio's `create_subprocess_exec(*args)`)
/// with every other argument at its default, built straight from `args`
/// (a `list` or `tuple` of `str`/`bytes`, or one `str` or `bytes`: a
/// program without arguments, as CPython reads it), after the audit event
/// `subprocess.Popen` the general path raises: argv\[0\] is the program
/// (looked up in PATH without a `/`), the environment, the working
/// directory and stdio are inherited, every fd above 2 is closed, SIGPIPE
/// and SIGXFSZ go back to their defaults (restore_signals). `None`, with
/// nothing audited, when an argument is not a `str` or `bytes`, cannot be
/// encoded or holds a NUL byte, or `args` is empty or another type: the
/// caller then takes the general path, which raises what CPython raises.
pub fn simple_command(args: &Bound<'_, PyAny>) -> PyResult<Option<(Command, Names)>> {
    Ok(simple_argv(args)?.map(|(argv, names)| (simple_command_of(&argv), names)))
}

/// The checks, encoding and audit event of [`simple_command`], without
/// building the command: the encoded arguments (program first), for
/// [`simple_command_of`] on another thread.
pub fn simple_argv(args: &Bound<'_, PyAny>) -> PyResult<Option<(Vec<OsString>, Names)>> {
    Ok(simple_run(args, false, None, None)?.map(|run| (run.argv, run.names)))
}

/// What [`simple_run`] gives: the encoded arguments (program first), the
/// working directory and the environment (`None`: the parent's), and the
/// names for errors.
pub struct SimpleRun {
    pub argv: Vec<OsString>,
    pub cwd: Option<OsString>,
    pub env: Option<Vec<(OsString, OsString)>>,
    pub names: Names,
}

/// A `str` (encoded as `os.fsencode` does) or `bytes`, without a NUL
/// byte; `None` for anything else.
fn plain_os_string(value: &Bound<'_, PyAny>) -> Option<OsString> {
    let encoded: OsString = if let Ok(bytes) = value.cast::<PyBytes>() {
        OsStr::from_bytes(bytes.as_bytes()).to_owned()
    } else if value.is_instance_of::<PyString>() {
        // Not encodable (a lone surrogate): the general path raises
        // os.fsencode's error.
        value.extract().ok()?
    } else {
        return None;
    };
    (!encoded.as_bytes().contains(&0)).then_some(encoded)
}

/// [`simple_argv`] with `run()`'s `shell`, `cwd` and `env` as given: `args`
/// (a list or tuple, or one `str` or `bytes`) after `/bin/sh -c` as the
/// general path's `_start` puts it; `cwd` a `str` or an `os.PathLike`
/// giving one; `env` a `dict` of `str`/`bytes` names (no `=`, not empty)
/// and values. `None`, with nothing audited, for anything else (the
/// general path raises what CPython raises).
pub fn simple_run(
    args: &Bound<'_, PyAny>,
    shell: bool,
    cwd: Option<&Bound<'_, PyAny>>,
    env: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<SimpleRun>> {
    let py = args.py();
    let seq = if args.is_exact_instance_of::<PyList>() || args.is_exact_instance_of::<PyTuple>() {
        args.cast::<PySequence>()?.to_list()?
    } else if args.is_instance_of::<PyString>() || args.is_instance_of::<PyBytes>() {
        // One program, no arguments (or the shell's command line), as
        // CPython reads a `str` or `bytes`.
        PyList::new(py, [args])?
    } else {
        return Ok(None);
    };
    let mut argv = Vec::with_capacity(seq.len() + 2);
    if shell {
        argv.extend([OsString::from(SHELL), OsString::from("-c")]);
    }
    for arg in seq.iter() {
        let Some(encoded) = plain_os_string(&arg) else {
            return Ok(None);
        };
        argv.push(encoded);
    }
    if argv.is_empty() {
        return Ok(None);
    }
    let cwd_path = match cwd {
        None => None,
        Some(dir) => match dir.extract::<std::path::PathBuf>() {
            Ok(path) if !path.as_os_str().as_bytes().contains(&0) => Some(path.into_os_string()),
            _ => return Ok(None),
        },
    };
    let vars = match env {
        None => None,
        Some(env) => {
            let Ok(dict) = env.cast_exact::<PyDict>() else {
                return Ok(None);
            };
            let mut vars = Vec::with_capacity(dict.len());
            for (name, value) in dict.iter() {
                let (Some(name), Some(value)) = (plain_os_string(&name), plain_os_string(&value))
                else {
                    return Ok(None);
                };
                if name.is_empty() || name.as_bytes().contains(&b'=') {
                    return Ok(None);
                }
                vars.push((name, value));
            }
            Some(vars)
        }
    };
    // The audit event `subprocess.Popen`, as the general path's `_start`
    // raises it (with a list of the arguments as given, after the shell's),
    // once the call is known to be spawned here.
    static AUDIT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let audit = AUDIT.get_or_try_init(py, || {
        PyResult::Ok(py.import("sys")?.getattr("audit")?.unbind())
    })?;
    if shell {
        seq.insert(0, "-c")?;
        seq.insert(0, SHELL)?;
    }
    let program_name = seq.get_item(0)?;
    let none = py.None().into_bound(py);
    audit.call1(
        py,
        (
            "subprocess.Popen",
            &program_name,
            &seq,
            cwd.unwrap_or(&none),
            env.unwrap_or(&none),
        ),
    )?;
    Ok(Some(SimpleRun {
        argv,
        names: Names {
            exe: program_name.unbind(),
            cwd: cwd.map_or_else(|| py.None(), |dir| dir.clone().unbind()),
            cwd_path: cwd_path.clone(),
        },
        cwd: cwd_path,
        env: vars,
    }))
}

/// The shell of `shell=True`, as CPython's on Linux.
const SHELL: &str = "/bin/sh";

/// The command of [`simple_command`] for `argv` as [`simple_argv`] gave
/// it (not empty).
pub fn simple_command_of(argv: &[OsString]) -> Command {
    let program = &argv[0];
    let mut cmd = Command::new(program);
    cmd.arg0(program);
    cmd.args(&argv[1..]);
    cmd.signal_default(&[libc::SIGXFSZ]);
    cmd
}

/// `Popen(args)` with every other argument at its default, in one call:
/// [`simple_command`], then the spawn with the GIL released. `None` when
/// `args` needs the general path (see [`simple_command`]).
#[pyfunction]
pub fn spawn_args(py: Python<'_>, args: &Bound<'_, PyAny>) -> PyResult<Option<Child>> {
    let Some((mut cmd, names)) = simple_command(args)? else {
        return Ok(None);
    };
    match py.detach(|| cmd.spawn()) {
        Ok(child) => Ok(Some(Child::new(child))),
        Err(e) => Err(names.error(py, e)),
    }
}

/// The error of a spawner pool whose threads cannot start (a thread
/// limit): `OSError` with the OS's errno (`BlockingIOError` for `EAGAIN`)
/// and a message naming `who` and the step.
pub fn pool_error(who: &str, err: std::io::Error) -> PyErr {
    let errno = err.raw_os_error().unwrap_or(libc::EAGAIN);
    pyo3::exceptions::PyOSError::new_err((
        errno,
        format!("{who}: cannot start the spawner threads: {err}"),
    ))
}

/// The core's global pool, or [`pool_error`].
pub fn global_pool() -> PyResult<&'static fastspawn::Pool> {
    fastspawn::Pool::try_global().map_err(|e| pool_error("fastspawn", e))
}

/// Starts a child and returns its [`Child`]; the GIL is released for the
/// spawn. See [`Request`] for the argument.
#[pyfunction]
pub fn spawn(py: Python<'_>, request: Request<'_>) -> PyResult<Child> {
    let Built {
        mut cmd,
        on_pool,
        names,
    } = build(request)?;
    let started = if on_pool {
        let pool = global_pool()?;
        py.detach(move || {
            let (tx, rx) = std::sync::mpsc::channel();
            pool.run(move || {
                let _ = tx.send(cmd.spawn());
            });
            rx.recv().expect("a spawner thread answers every job")
        })
    } else {
        py.detach(|| cmd.spawn())
    };
    started.map(Child::new).map_err(|e| names.error(py, e))
}
