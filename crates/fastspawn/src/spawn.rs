//! One spawn, from a prepared command to a running [`Child`]: set up stdio,
//! plan the fds, pick the engine, create the child, and turn a failure in
//! the child into an [`Error`] after reaping it.
//!
//! Per spawn, the parent allocates only the small fd plan; everything that
//! depends on the command alone comes from [`Prepared`](crate::prepare::Prepared).

use std::ffi::{CString, OsStr};
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::sync::OnceLock;
use std::sync::atomic::Ordering;

use smallvec::SmallVec;

use crate::child::Child;
use crate::command::{Command, Purpose};
use crate::engine::{self, Engine};
use crate::error::{Error, Result, Step};
use crate::fdplan;
use crate::path;
use crate::prepare::{self, Prepared};
use crate::stdio::{ChildStderr, ChildStdin, ChildStdout, StdioKind};
use crate::sys::child::{ChildPlan, ErrorSlot, PreExec, step};
use crate::sys::clone::Spawned;
use crate::sys::{self, wait};

/// The parent's ends of the pipes of one spawn.
#[derive(Default)]
struct ParentEnds {
    stdin: Option<OwnedFd>,
    stdout: Option<OwnedFd>,
    stderr: Option<OwnedFd>,
}

pub(crate) fn spawn(cmd: &mut Command, purpose: Purpose) -> Result<Child> {
    if crate::tree::wants(cmd) {
        return crate::tree::spawn(cmd, purpose);
    }
    spawn_plain(cmd, purpose)
}

/// A spawn without containment (`tree::spawn` lends it the cgroup).
pub(crate) fn spawn_plain(cmd: &mut Command, purpose: Purpose) -> Result<Child> {
    if let Some(problem) = &cmd.invalid {
        return Err(Error::invalid(&cmd.program, problem.clone()));
    }
    prepare::refresh(cmd)?;
    let result = match spawn_prepared(cmd, purpose) {
        // A cached PATH resolution that went stale: resolve again, once.
        Err(err) if is_stale_resolution(cmd, &err) => {
            let program = cmd.program.clone();
            let searched = cmd
                .prepared
                .as_ref()
                .and_then(|p| Some((p.searched_path.clone()?, p.creds.clone())));
            if let Some((path_var, creds)) = searched {
                path::forget(&program, path_var.as_deref(), creds.as_ref());
            }
            cmd.prepared = None;
            prepare::refresh(cmd)?;
            spawn_prepared(cmd, purpose)
        }
        other => other,
    };
    match result {
        Err(err) if purpose != Purpose::Exec && is_shell_script(cmd, &err) => {
            spawn_with_shell(cmd, purpose)
        }
        other => other,
    }
}

/// A file without a `#!` line (`ENOEXEC`), run by bare name through a PATH
/// the command sets with `env()`: std runs such a command with `execvp`,
/// which hands the file to `/bin/sh`, so fastspawn does the same (and only
/// then: with an inherited PATH std uses `posix_spawnp`, which does not).
fn is_shell_script(cmd: &Command, err: &Error) -> bool {
    *err.step() == Step::Exec
        && err.raw_os_error() == Some(libc::ENOEXEC)
        && !cmd.program.as_bytes().contains(&b'/')
        && cmd.env.sets_path()
}

/// Spawns `/bin/sh FILE ARGS...` (glibc's `execvp` fall-back, argv\[0\]
/// `/bin/sh`) with everything else of the command unchanged.
fn spawn_with_shell(cmd: &mut Command, purpose: Purpose) -> Result<Child> {
    let prepared = cmd.prepared.as_mut().expect("refreshed by the caller");
    let mut argv = crate::sys::cstr::CStringArray::with_capacity(cmd.args.len() + 1);
    argv.push(c"/bin/sh".to_owned());
    argv.push(prepared.exe.clone());
    for arg in &cmd.args[1..] {
        argv.push(CString::new(arg.as_bytes()).expect("checked when prepared"));
    }
    let exe = std::mem::replace(&mut prepared.exe, c"/bin/sh".to_owned());
    let argv = std::mem::replace(&mut prepared.argv, argv);
    let result = spawn_prepared(cmd, purpose);
    let prepared = cmd.prepared.as_mut().expect("still prepared");
    prepared.exe = exe;
    prepared.argv = argv;
    result
}

fn is_stale_resolution(cmd: &Command, err: &Error) -> bool {
    *err.step() == Step::Exec
        && matches!(
            err.raw_os_error(),
            Some(libc::ENOENT | libc::ENOTDIR | libc::EACCES)
        )
        && cmd
            .prepared
            .as_ref()
            .is_some_and(|p| p.searched_path.is_some())
}

fn spawn_prepared(cmd: &mut Command, purpose: Purpose) -> Result<Child> {
    if let Some(result) = spawn_common(cmd, purpose) {
        return result;
    }
    let program = cmd.program.as_os_str();
    let Command {
        prepared,
        stdin,
        stdout,
        stderr,
        fds,
        opts,
        engine,
        require_vfork,
        pidfd,
        pidfd_at_spawn,
        cwd,
        pre_exec,
        ..
    } = cmd;
    let prepared = prepared.as_mut().expect("refreshed by the caller");
    let hooks = (!pre_exec.is_empty()).then_some(pre_exec as *mut Vec<PreExec>);

    // Stdio: targets for the child, ends for the parent.
    let mut targets: SmallVec<[(i32, i32); 8]> = SmallVec::new();
    let mut keep: SmallVec<[i32; 4]> = SmallVec::new();
    let mut ends = ParentEnds::default();
    let mut child_ends: SmallVec<[OwnedFd; 3]> = SmallVec::new();
    let configs = [stdin.as_ref(), stdout.as_ref(), stderr.as_ref()];
    for (fd, config) in configs.into_iter().enumerate() {
        let fd = fd as i32;
        let mapped = fds.iter().any(|(child_fd, _)| *child_fd == fd);
        if mapped {
            if config.is_some() {
                return Err(Error::invalid(
                    program,
                    format!("fd {fd} is both mapped with fd() and set as a standard stream"),
                ));
            }
            continue;
        }
        static INHERIT: StdioKind = StdioKind::Inherit;
        static NULL: StdioKind = StdioKind::Null;
        static PIPED: StdioKind = StdioKind::Piped;
        let kind = match (config, purpose) {
            (Some(stdio), _) => &stdio.0,
            (None, Purpose::Spawn | Purpose::AsyncSpawn | Purpose::Status | Purpose::Exec) => {
                &INHERIT
            }
            (None, Purpose::Output | Purpose::AsyncOutput) if fd == 0 => &NULL,
            (None, Purpose::Output | Purpose::AsyncOutput) => &PIPED,
        };
        match kind {
            StdioKind::Inherit => keep.push(fd),
            StdioKind::Null => {
                let null = prepared
                    .devnull()
                    .map_err(|e| Error::io(program, Step::Stdio, e))?;
                targets.push((fd, null.as_raw_fd()));
            }
            StdioKind::Fd(owned) => targets.push((fd, owned.as_raw_fd())),
            StdioKind::Piped => {
                let (read, write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
                    .map_err(|e| Error::io(program, Step::Stdio, e.into()))?;
                let (child_end, parent_end) = if fd == 0 {
                    (read, write)
                } else {
                    (write, read)
                };
                targets.push((fd, child_end.as_raw_fd()));
                child_ends.push(child_end);
                match fd {
                    0 => ends.stdin = Some(parent_end),
                    1 => ends.stdout = Some(parent_end),
                    _ => ends.stderr = Some(parent_end),
                }
            }
        }
    }
    targets.extend(
        fds.iter()
            .map(|(child_fd, parent_fd)| (*child_fd, parent_fd.as_raw_fd())),
    );

    let order: &[Engine] = match *engine {
        // CLONE_PIDFD_AUTOKILL exists only for clone3.
        Engine::Auto if opts.autokill => &[Engine::Clone3],
        Engine::Auto => &Engine::ALL,
        Engine::Clone3 => &[Engine::Clone3],
        Engine::CloneVfork => &[Engine::CloneVfork],
        Engine::PosixSpawn => &[Engine::PosixSpawn],
        Engine::Fork => &[Engine::Fork],
    };
    let auto = *engine == Engine::Auto;
    let cgroup = opts.cgroup.as_ref().map(|fd| fd.as_fd());
    let in_place = purpose == Purpose::Exec;
    let attempt = Attempt {
        program,
        prepared,
        targets: &targets,
        keep: &keep,
        opts,
        cwd: cwd.as_deref(),
        cgroup,
        // `Command::exec` replaces this process: no child to refer to.
        pidfd: !in_place
            && (purpose.pidfd_at_spawn() || *pidfd_at_spawn || opts.autokill)
            && *pidfd,
        pre_exec: hooks,
        in_place,
    };
    if in_place {
        return match attempt.run(Engine::Fork) {
            Err(Failure::Error(err)) => Err(err),
            Err(Failure::Refused(errno)) => Err(Error::os(program, Step::Exec, errno)),
            Ok(_) => unreachable!("exec in place returns only on failure"),
        };
    }
    let mut last_refusal = None;
    let mut refused_before = false;
    for &candidate in order {
        if candidate == Engine::Fork && *require_vfork {
            if hooks.is_some() {
                return Err(Error::unsupported(
                    program,
                    "pre_exec runs only on the Fork engine, and require_vfork is set",
                ));
            }
            break;
        }
        // User code cannot run in a child that shares the parent's memory.
        if hooks.is_some() && candidate != Engine::Fork {
            if auto {
                continue;
            }
            return Err(Error::unsupported(
                program,
                format!("pre_exec runs only on the Fork engine, not {candidate}"),
            ));
        }
        match candidate {
            Engine::Clone3 if !engine::clone3_usable(cgroup.is_some()) => {
                if auto {
                    refused_before = true;
                    continue;
                }
                return Err(Error::unsupported(
                    program,
                    "clone3 is not available on this kernel",
                ));
            }
            // A seccomp filter or kernel that refused one vfork clone refuses
            // them all (glibc's posix_spawn makes the same clone): go on.
            Engine::CloneVfork | Engine::PosixSpawn if auto && engine::vfork_refused() => {
                refused_before = true;
                continue;
            }
            Engine::PosixSpawn => {
                if let Some(option) = posix_spawn_cannot(opts) {
                    if auto {
                        continue;
                    }
                    return Err(Error::unsupported(
                        program,
                        format!("the posix-spawn engine cannot apply {option}"),
                    ));
                }
            }
            _ => {}
        }
        match attempt.run(candidate) {
            Ok(spawned) => {
                drop(child_ends);
                return Ok(new_child(
                    prepared,
                    spawned,
                    ends,
                    candidate,
                    *pidfd,
                    opts.autokill,
                ));
            }
            Err(Failure::Refused(errno)) if auto && engine::is_refusal(errno) => {
                match candidate {
                    Engine::Clone3 => engine::note_clone3_refused(cgroup.is_some()),
                    Engine::CloneVfork | Engine::PosixSpawn
                        if matches!(errno, libc::ENOSYS | libc::EPERM) =>
                    {
                        engine::note_vfork_refused()
                    }
                    _ => {}
                }
                last_refusal = Some(errno);
            }
            Err(Failure::Refused(errno)) => return Err(Error::os(program, Step::Clone, errno)),
            Err(Failure::Error(err)) => return Err(err),
        }
    }
    let why = match last_refusal {
        Some(errno) => format!(
            "require_vfork is set and the kernel refused every vfork engine ({})",
            io::Error::from_raw_os_error(errno)
        ),
        None if refused_before => "require_vfork is set and the kernel (or a seccomp filter) \
                                   refused every vfork engine before"
            .to_string(),
        None => "require_vfork is set and this engine forks".to_string(),
    };
    Err(Error::unsupported(program, why))
}

/// The common spawn, by a short path: streams inherited, no fd mapped, no
/// credentials, rlimits, pdeathsig, cgroup or `pre_exec`, and `clone3`
/// usable. It makes the child `spawn_prepared`'s general path would make
/// (the same plan: fds 0-2 kept, the rest left behind by `close_range`'s
/// unshare, SIGPIPE reset, the same options), with less of the parent's
/// code run per spawn. That code runs with cold caches (the previous
/// child's `execve` and exit ran in between), so its length, not its
/// logic, is what fastspawn adds to the kernel's work per spawn.
/// `None`: the general path runs (these conditions do not hold, or the
/// clone failed: the general path then tries it again, notes a refusal
/// and goes on to the next engine, as it always does).
fn spawn_common(cmd: &Command, purpose: Purpose) -> Option<Result<Child>> {
    let opts = &cmd.opts;
    let common = matches!(
        purpose,
        Purpose::Spawn | Purpose::Status | Purpose::AsyncSpawn
    ) && cmd.stdin.is_none()
        && cmd.stdout.is_none()
        && cmd.stderr.is_none()
        && cmd.fds.is_empty()
        && matches!(cmd.engine, Engine::Auto | Engine::Clone3)
        && cmd.pre_exec.is_empty()
        && opts.uid.is_none()
        && opts.gid.is_none()
        && opts.groups.is_none()
        && opts.rlimits.is_empty()
        && opts.pdeathsig.is_none()
        && opts.cgroup.is_none()
        && !opts.autokill
        && engine::clone3_usable(false)
        && engine::features().close_range;
    if !common {
        return None;
    }
    let prepared = cmd.prepared.as_ref()?;
    let slot = ErrorSlot::default();
    let plan = ChildPlan {
        path: &prepared.exe,
        argv: prepared.argv.as_ptr(),
        envp: prepared.envp_ptr(),
        cwd: prepared.cwd.as_deref(),
        // What fdplan makes of no target and fds 0-2 kept.
        unshare_below: Some(3),
        fd_ops: &[],
        close: &[(3, u32::MAX)],
        close_range: true,
        nofile: u32::MAX,
        setsid: opts.setsid,
        pgroup: opts.pgroup,
        groups: None,
        drop_groups: false,
        gid: None,
        uid: None,
        umask: opts.umask,
        rlimits: &[],
        cgroup_procs: None,
        pdeathsig: 0,
        parent_pid: 0,
        reset_handlers: false,
        sigdefault: sigdefault(opts),
        sigmask: opts.sigmask,
        report: &slot,
        report_pipe: None,
        pre_exec: None,
        cloexec_only: false,
        clone_flags: 0,
    };
    let want_pidfd = (purpose.pidfd_at_spawn() || cmd.pidfd_at_spawn) && cmd.pidfd;
    let spawned = sys::clone::clone3(&plan, None, want_pidfd).ok()?;
    let failed = slot.step.load(Ordering::Relaxed);
    if failed != 0 {
        let _ = wait::wait(
            spawned.pidfd.as_ref().map(|fd| fd.as_fd()),
            spawned.pid,
            false,
        );
        let errno = slot.errno.load(Ordering::Relaxed);
        return Some(Err(Error::os(
            cmd.program.as_os_str(),
            child_step(failed, cmd.cwd.as_deref()),
            errno,
        )));
    }
    Some(Ok(new_child(
        prepared,
        spawned,
        ParentEnds::default(),
        Engine::Clone3,
        cmd.pidfd,
        false,
    )))
}

/// The `Child` of a process `engine` made, with the parent's pipe ends.
fn new_child(
    prepared: &Prepared,
    spawned: Spawned,
    ends: ParentEnds,
    engine: Engine,
    wants_pidfd: bool,
    autoreaped: bool,
) -> Child {
    Child {
        stdin: ends.stdin.map(ChildStdin::new),
        stdout: ends.stdout.map(ChildStdout::new),
        stderr: ends.stderr.map(ChildStderr::new),
        program: prepared.program.clone(),
        pid: spawned.pid,
        pidfd: spawned.pidfd,
        lazy_pidfd: OnceLock::new(),
        wants_pidfd,
        autoreaped,
        status: None,
        engine,
        tree: None,
    }
}

/// The signals the child sets to `SIG_DFL`: the command's, and SIGPIPE
/// (which Rust programs ignore) unless `restore_sigpipe(false)`.
fn sigdefault(opts: &crate::command::ChildOptions) -> u64 {
    if opts.keep_sigpipe {
        opts.sigdefault
    } else {
        opts.sigdefault | 1 << (libc::SIGPIPE - 1)
    }
}

/// The first option `posix_spawn` has no attribute for.
fn posix_spawn_cannot(opts: &crate::command::ChildOptions) -> Option<&'static str> {
    if opts.uid.is_some() {
        Some("uid")
    } else if opts.gid.is_some() {
        Some("gid")
    } else if opts.groups.is_some() {
        Some("groups")
    } else if !opts.rlimits.is_empty() {
        Some("rlimit")
    } else if opts.umask.is_some() {
        Some("umask")
    } else if opts.pdeathsig.is_some() {
        Some("pdeathsig")
    } else if opts.cgroup.is_some() {
        Some("cgroup")
    } else {
        None
    }
}

enum Failure {
    /// Creating the process failed: maybe the mechanism is unavailable.
    Refused(i32),
    /// Anything else, already described.
    Error(Error),
}

struct Attempt<'a> {
    program: &'a OsStr,
    prepared: &'a Prepared,
    targets: &'a [(i32, i32)],
    keep: &'a [i32],
    opts: &'a crate::command::ChildOptions,
    cwd: Option<&'a std::path::Path>,
    cgroup: Option<BorrowedFd<'a>>,
    /// Whether the child gets a pidfd (where the kernel has them).
    pidfd: bool,
    /// The command's `pre_exec` closures (Fork engine and exec only).
    pre_exec: Option<*mut Vec<PreExec>>,
    /// `Command::exec`: run the steps in this process, then `execve`.
    in_place: bool,
}

impl Attempt<'_> {
    fn run(&self, engine: Engine) -> std::result::Result<Spawned, Failure> {
        let program = self.program;
        let fail = |step: Step, errno: i32| Failure::Error(Error::os(program, step, errno));

        // Engine::Fork reports through a pipe whose write end must stay
        // clear of every fd the plan writes.
        let report = if engine == Engine::Fork && !self.in_place {
            let (read, write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
                .map_err(|e| fail(Step::Clone, e.raw_os_error()))?;
            let floor = self.targets.iter().map(|&(dst, _)| dst).max().unwrap_or(2) + 1;
            let write = if write.as_raw_fd() < floor {
                rustix::io::fcntl_dupfd_cloexec(&write, floor)
                    .map_err(|e| fail(Step::Clone, e.raw_os_error()))?
            } else {
                write
            };
            Some((read, write))
        } else {
            None
        };
        let mut keep: SmallVec<[i32; 4]> = SmallVec::from_slice(self.keep);
        if let Some((_, write)) = &report {
            keep.push(write.as_raw_fd());
        }
        let fd_plan = fdplan::plan(self.targets, &keep);
        let features = engine::features();
        // The clone engines share the fd table and let the child keep only
        // what lies below the highest fd it needs (close_range, Linux 5.9).
        let unshare_below = (matches!(engine, Engine::Clone3 | Engine::CloneVfork)
            && features.close_range)
            .then_some(fd_plan.above);

        // Without CLONE_INTO_CGROUP the child joins by writing cgroup.procs.
        let cgroup_procs = match (engine, self.cgroup) {
            (Engine::Clone3, _) | (_, None) => None,
            (_, Some(dir)) => Some(
                rustix::fs::openat(
                    dir,
                    c"cgroup.procs",
                    rustix::fs::OFlags::WRONLY | rustix::fs::OFlags::CLOEXEC,
                    rustix::fs::Mode::empty(),
                )
                .map_err(|e| fail(Step::Cgroup, e.raw_os_error()))?,
            ),
        };

        let slot = ErrorSlot::default();
        let plan = ChildPlan {
            path: &self.prepared.exe,
            argv: self.prepared.argv.as_ptr(),
            envp: self.prepared.envp_ptr(),
            cwd: self.prepared.cwd.as_deref(),
            unshare_below,
            fd_ops: &fd_plan.ops,
            close: &fd_plan.close,
            close_range: features.close_range,
            nofile: nofile_limit(features.close_range && !self.in_place),
            setsid: self.opts.setsid,
            pgroup: self.opts.pgroup,
            groups: self.prepared.groups.as_deref(),
            drop_groups: self.opts.uid.is_some() && self.opts.groups.is_none(),
            gid: self.opts.gid,
            uid: self.opts.uid,
            umask: self.opts.umask,
            rlimits: &self.prepared.rlimits,
            cgroup_procs: cgroup_procs.as_ref().map(|fd| fd.as_raw_fd()),
            pdeathsig: self.opts.pdeathsig.unwrap_or(0),
            // getpid is a system call (glibc no longer caches it): only pay it
            // when the child needs it.
            parent_pid: match (self.opts.pdeathsig, self.in_place) {
                (None, _) => 0,
                (Some(_), false) => std::process::id() as i32,
                (Some(_), true) => {
                    rustix::process::getppid().map_or(0, |pid| pid.as_raw_nonzero().get())
                }
            },
            // clone3 resets caught signals in the kernel (CLONE_CLEAR_SIGHAND);
            // the Fork engine uses it too when it can.
            reset_handlers: engine == Engine::CloneVfork
                || (engine == Engine::Fork
                    && !self.in_place
                    && (self.pre_exec.is_some() || !engine::clone3_usable(false))),
            sigdefault: sigdefault(self.opts),
            sigmask: self.opts.sigmask,
            report: &slot,
            report_pipe: report.as_ref().map(|(_, write)| write.as_raw_fd()),
            pre_exec: self.pre_exec,
            // In place, an unmapped fd only goes if the execve succeeds.
            cloexec_only: self.in_place,
            clone_flags: if self.opts.autokill {
                sys::autokill::AUTOKILL_FLAGS
            } else {
                0
            },
        };
        if self.in_place {
            let (step, errno) = sys::child::exec_in_place(&plan);
            return Err(fail(self.child_step(step), errno));
        }

        let clone = |pidfd: bool| match engine {
            Engine::Clone3 => {
                sys::clone::clone3(&plan, self.cgroup.map(|fd| fd.as_raw_fd()), pidfd)
            }
            Engine::CloneVfork => sys::clone::clone_vfork(&plan, pidfd && engine::pidfd_usable()),
            Engine::PosixSpawn => sys::posix_spawn::spawn(&plan, pidfd),
            Engine::Fork | Engine::Auto => unreachable!("handled below"),
        };
        let spawned = match engine {
            Engine::Fork => sys::fork::fork(&plan, report.expect("made above"), &slot, self.pidfd),
            // Out of fds for the pidfd: the child is still worth starting;
            // it is then waited for and signalled by pid, as std does.
            _ => match clone(self.pidfd) {
                Err(libc::EMFILE | libc::ENFILE) if self.pidfd => clone(false),
                other => other,
            },
        }
        .map_err(Failure::Refused)?;

        let failed = slot.step.load(Ordering::Relaxed);
        if failed == 0 {
            return Ok(spawned);
        }
        // The child ran into an error and exited: reap it (posix_spawn
        // already did, and left no pid), then report.
        // (An autokill child was reaped by the kernel.)
        if spawned.pid > 0 && !self.opts.autokill {
            let _ = wait::wait(
                spawned.pidfd.as_ref().map(|fd| fd.as_fd()),
                spawned.pid,
                false,
            );
        }
        let errno = slot.errno.load(Ordering::Relaxed);
        let mut step = self.child_step(failed);
        // posix_spawn reports a failed chdir like a failed execve; when the
        // directory is not there, that is what failed.
        if engine == Engine::PosixSpawn && step == Step::Exec {
            if let Some(dir) = self.cwd.filter(|dir| !dir.is_dir()) {
                step = Step::Chdir(dir.to_owned());
            }
        }
        Err(fail(step, errno))
    }

    fn child_step(&self, code: u32) -> Step {
        child_step(code, self.cwd)
    }
}

/// The step a failed child's code names.
fn child_step(code: u32, cwd: Option<&std::path::Path>) -> Step {
    match code {
        step::SIGNALS => Step::Signals,
        step::SETSID => Step::Setsid,
        step::SETPGID => Step::Setpgid,
        step::SETGROUPS => Step::Setgroups,
        step::SETGID => Step::Setgid,
        step::SETUID => Step::Setuid,
        step::CHDIR => Step::Chdir(cwd.map(|p| p.to_owned()).unwrap_or_default()),
        step::CGROUP => Step::Cgroup,
        step::FDS => Step::Fds,
        step::CLOSE_FDS => Step::CloseFds,
        step::RLIMIT => Step::Rlimit,
        step::PDEATHSIG => Step::Pdeathsig,
        step::PRE_EXEC => Step::PreExec,
        _ => Step::Exec,
    }
}

/// The soft `RLIMIT_NOFILE`, bounding the one-by-one close fallback.
fn nofile_limit(close_range: bool) -> u32 {
    if close_range {
        return u32::MAX;
    }
    match rustix::process::getrlimit(rustix::process::Resource::Nofile).current {
        Some(limit) => limit.min(u32::MAX as u64) as u32,
        None => 65536,
    }
}
