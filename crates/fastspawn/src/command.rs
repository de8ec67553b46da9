//! The `Command` builder: std's names and semantics, plus the options std
//! can only offer through `pre_exec` (and therefore `fork`).
//!
//! A `Command` keeps what it prepared for its first spawn (argv, envp, the
//! resolved executable, `/dev/null`) and reuses it for every later spawn;
//! each builder method drops that cache, so a changed command is prepared
//! anew. Builder methods never fail: a bad value (a NUL byte, two mappings
//! to one child fd) is remembered and reported by the next spawn, before any
//! process is created, as std does with NUL bytes.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::os::fd::{OwnedFd, RawFd};
use std::path::{Path, PathBuf};

use crate::child::{Child, ExitStatus, Output};
use crate::engine::Engine;
use crate::environment::Environment;
use crate::error::Result;
use crate::prepare::Prepared;
use crate::stdio::{Stdio, StdioKind};

/// A process resource limit, set in the child with `prlimit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Resource {
    /// `RLIMIT_AS`: address space size.
    As,
    /// `RLIMIT_CORE`: core file size.
    Core,
    /// `RLIMIT_CPU`: CPU seconds.
    Cpu,
    /// `RLIMIT_DATA`: data segment size.
    Data,
    /// `RLIMIT_FSIZE`: file size.
    Fsize,
    /// `RLIMIT_MEMLOCK`: locked memory.
    Memlock,
    /// `RLIMIT_MSGQUEUE`: POSIX message queue bytes.
    Msgqueue,
    /// `RLIMIT_NICE`: nice ceiling.
    Nice,
    /// `RLIMIT_NOFILE`: open file descriptors.
    Nofile,
    /// `RLIMIT_NPROC`: processes of the real user.
    Nproc,
    /// `RLIMIT_RSS`: resident set size.
    Rss,
    /// `RLIMIT_RTPRIO`: real-time priority ceiling.
    Rtprio,
    /// `RLIMIT_RTTIME`: real-time CPU microseconds.
    Rttime,
    /// `RLIMIT_SIGPENDING`: queued signals.
    Sigpending,
    /// `RLIMIT_STACK`: stack size.
    Stack,
}

impl Resource {
    pub(crate) fn raw(self) -> i32 {
        (match self {
            Resource::As => libc::RLIMIT_AS,
            Resource::Core => libc::RLIMIT_CORE,
            Resource::Cpu => libc::RLIMIT_CPU,
            Resource::Data => libc::RLIMIT_DATA,
            Resource::Fsize => libc::RLIMIT_FSIZE,
            Resource::Memlock => libc::RLIMIT_MEMLOCK,
            Resource::Msgqueue => libc::RLIMIT_MSGQUEUE,
            Resource::Nice => libc::RLIMIT_NICE,
            Resource::Nofile => libc::RLIMIT_NOFILE,
            Resource::Nproc => libc::RLIMIT_NPROC,
            Resource::Rss => libc::RLIMIT_RSS,
            Resource::Rtprio => libc::RLIMIT_RTPRIO,
            Resource::Rttime => libc::RLIMIT_RTTIME,
            Resource::Sigpending => libc::RLIMIT_SIGPENDING,
            Resource::Stack => libc::RLIMIT_STACK,
        }) as i32
    }
}

/// `RLIM_INFINITY` for [`Command::rlimit`].
pub const RLIM_INFINITY: u64 = u64::MAX;

/// The environment changes of a command.
#[derive(Default)]
pub(crate) struct EnvChanges {
    pub clear: bool,
    pub vars: BTreeMap<OsString, Option<OsString>>,
    /// With `clear`: the environment `vars` apply to instead of an empty
    /// one ([`Command::environment`]).
    pub base: Option<Environment>,
}

impl fmt::Debug for EnvChanges {
    /// Named and shaped as std's, for `{:#?}` of a [`Command`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct("CommandEnv");
        out.field("clear", &self.clear);
        if let Some(base) = &self.base {
            out.field("environment", base);
        }
        out.field("vars", &self.vars).finish()
    }
}

impl EnvChanges {
    /// The child's `PATH` when the command decides it (`None` inside means
    /// "no PATH"); `None` when the child inherits the parent's.
    pub fn path(&self) -> Option<Option<&OsStr>> {
        match self.vars.get(OsStr::new("PATH")) {
            Some(value) => Some(value.as_deref()),
            None if self.clear => Some(self.base.as_ref().and_then(Environment::path)),
            None => None,
        }
    }

    /// Whether the command names the child's `PATH` itself (`env` or
    /// `env_remove` of it, or an [`Environment`] with one).
    pub fn sets_path(&self) -> bool {
        match self.vars.get(OsStr::new("PATH")) {
            Some(_) => true,
            None => self.base.as_ref().is_some_and(|base| base.path().is_some()),
        }
    }

    pub fn is_inherited(&self) -> bool {
        !self.clear && self.vars.is_empty()
    }
}

/// Options applied in the child between the clone and the `execve`.
#[derive(Debug, Default)]
pub(crate) struct ChildOptions {
    pub setsid: bool,
    pub pgroup: Option<i32>,
    pub uid: Option<u32>,
    pub gid: Option<u32>,
    pub groups: Option<Vec<u32>>,
    pub rlimits: Vec<(Resource, u64, u64)>,
    pub pdeathsig: Option<i32>,
    pub umask: Option<u32>,
    pub cgroup: Option<OwnedFd>,
    /// Signals blocked in the child (as a kernel sigset: bit `n-1` is
    /// signal `n`); `None`: the spawning thread's mask, as std.
    pub sigmask: Option<u64>,
    /// Extra signals reset to `SIG_DFL` (SIGPIPE too, unless `keep_sigpipe`).
    pub sigdefault: u64,
    /// `CLONE_PIDFD_AUTOKILL` (see `tree/options.rs`).
    pub autokill: bool,
    /// Leave SIGPIPE's disposition as the parent has it (`restore_sigpipe(false)`).
    pub keep_sigpipe: bool,
}

/// A process to start, shaped like [`std::process::Command`].
///
/// Every option is applied on the vfork path; see the crate documentation
/// for the engines and what each costs.
///
/// `{:?}` prints the command as std does, the way a shell would read it
/// (`cd "/tmp" && env -u HOME A="1" "ls" "-l"`); `{:#?}` lists the options.
pub struct Command {
    pub(crate) program: OsString,
    /// `args[0]` is argv\[0\]: the program unless [`arg0`](Self::arg0) was set.
    pub(crate) args: Vec<OsString>,
    pub(crate) env: EnvChanges,
    pub(crate) cwd: Option<PathBuf>,
    pub(crate) stdin: Option<Stdio>,
    pub(crate) stdout: Option<Stdio>,
    pub(crate) stderr: Option<Stdio>,
    /// `(child fd, parent fd)`, in the order given.
    pub(crate) fds: Vec<(RawFd, OwnedFd)>,
    pub(crate) opts: ChildOptions,
    pub(crate) engine: Engine,
    pub(crate) require_vfork: bool,
    /// Whether `spawn` gives the child a pidfd (default).
    pub(crate) pidfd: bool,
    /// Whether the clone makes it at once ([`Command::pidfd_at_spawn`]).
    pub(crate) pidfd_at_spawn: bool,
    /// A problem found while building, reported by the next spawn.
    pub(crate) invalid: Option<String>,
    /// `pre_exec` closures, run in a forked child before `execve`.
    pub(crate) pre_exec: Vec<crate::sys::child::PreExec>,
    pub(crate) prepared: Option<Prepared>,
    /// Containment of the child's process tree (`tree/options.rs`).
    pub(crate) contain: Option<Box<crate::tree::Contain>>,
}

fn sigbit(signal: i32) -> u64 {
    if (1..=64).contains(&signal) {
        1u64 << (signal - 1)
    } else {
        0
    }
}

impl Command {
    /// A command that runs `program`. A name without a `/` is looked up in
    /// `PATH` (the child's, when the command sets one).
    pub fn new<S: AsRef<OsStr>>(program: S) -> Command {
        let program = program.as_ref().to_owned();
        Command {
            args: vec![program.clone()],
            program,
            env: EnvChanges::default(),
            cwd: None,
            stdin: None,
            stdout: None,
            stderr: None,
            fds: Vec::new(),
            opts: ChildOptions::default(),
            engine: Engine::Auto,
            require_vfork: false,
            pidfd: true,
            pidfd_at_spawn: false,
            invalid: None,
            pre_exec: Vec::new(),
            prepared: None,
            contain: None,
        }
    }

    pub(crate) fn changed(&mut self) -> &mut Command {
        self.prepared = None;
        self
    }

    pub(crate) fn reject(&mut self, problem: String) -> &mut Command {
        if self.invalid.is_none() {
            self.invalid = Some(problem);
        }
        self.changed()
    }

    /// Adds an argument.
    pub fn arg<S: AsRef<OsStr>>(&mut self, arg: S) -> &mut Command {
        self.args.push(arg.as_ref().to_owned());
        self.changed()
    }

    /// Adds arguments.
    pub fn args<I, S>(&mut self, args: I) -> &mut Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self.changed()
    }

    /// Sets argv\[0\], which defaults to the program as given.
    pub fn arg0<S: AsRef<OsStr>>(&mut self, arg: S) -> &mut Command {
        self.args[0] = arg.as_ref().to_owned();
        self.changed()
    }

    /// Sets an environment variable of the child.
    pub fn env<K: AsRef<OsStr>, V: AsRef<OsStr>>(&mut self, key: K, val: V) -> &mut Command {
        self.env
            .vars
            .insert(key.as_ref().to_owned(), Some(val.as_ref().to_owned()));
        self.changed()
    }

    /// Sets several environment variables of the child.
    pub fn envs<I, K, V>(&mut self, vars: I) -> &mut Command
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<OsStr>,
        V: AsRef<OsStr>,
    {
        for (key, val) in vars {
            self.env
                .vars
                .insert(key.as_ref().to_owned(), Some(val.as_ref().to_owned()));
        }
        self.changed()
    }

    /// Removes a variable from the child's environment.
    pub fn env_remove<K: AsRef<OsStr>>(&mut self, key: K) -> &mut Command {
        if self.env.clear && self.env.base.is_none() {
            self.env.vars.remove(key.as_ref());
        } else {
            self.env.vars.insert(key.as_ref().to_owned(), None);
        }
        self.changed()
    }

    /// Starts the child with an empty environment (plus what `env` sets later).
    pub fn env_clear(&mut self) -> &mut Command {
        self.env.clear = true;
        self.env.vars.clear();
        self.env.base = None;
        self.changed()
    }

    /// Starts the child with exactly `environment` (as `env_clear` and then
    /// `envs` of its variables would, without copying them: the prepared
    /// array is shared). `env` and `env_remove` calls made after this one
    /// apply on top of it; `env_clear` drops it. Its variables are not
    /// listed by [`get_envs`](Self::get_envs), which lists the explicit
    /// changes only.
    pub fn environment(&mut self, environment: &Environment) -> &mut Command {
        self.env.clear = true;
        self.env.vars.clear();
        self.env.base = Some(environment.clone());
        self.changed()
    }

    /// Sets the child's working directory. A relative program path is then
    /// relative to it, as with std.
    pub fn current_dir<P: AsRef<Path>>(&mut self, dir: P) -> &mut Command {
        self.cwd = Some(dir.as_ref().to_owned());
        self.changed()
    }

    /// Sets the child's stdin (default: inherit; `null` for `output`).
    pub fn stdin<T: Into<Stdio>>(&mut self, cfg: T) -> &mut Command {
        self.stdin = Some(cfg.into());
        self.changed()
    }

    /// Sets the child's stdout (default: inherit; `piped` for `output`).
    pub fn stdout<T: Into<Stdio>>(&mut self, cfg: T) -> &mut Command {
        self.stdout = Some(cfg.into());
        self.changed()
    }

    /// Sets the child's stderr (default: inherit; `piped` for `output`).
    pub fn stderr<T: Into<Stdio>>(&mut self, cfg: T) -> &mut Command {
        self.stderr = Some(cfg.into());
        self.changed()
    }

    /// Makes `parent_fd` the child's fd `child_fd`. Mappings may form swaps
    /// and cycles (child 3 from parent 4 and child 4 from parent 3 at once).
    /// Mapping to 0, 1 or 2 replaces that stream and conflicts with setting
    /// it with `stdin`/`stdout`/`stderr`. Two mappings to one child fd are an
    /// `InvalidInput` error. The command keeps `parent_fd` open and dups it
    /// into every child it starts.
    ///
    /// In the child every fd that is neither mapped nor stdio is closed.
    pub fn fd(&mut self, child_fd: RawFd, parent_fd: impl Into<OwnedFd>) -> &mut Command {
        let parent_fd = parent_fd.into();
        if child_fd < 0 {
            return self.reject(format!("child fd {child_fd} is negative"));
        }
        if self.fds.iter().any(|(fd, _)| *fd == child_fd) {
            return self.reject(format!("child fd {child_fd} is mapped twice"));
        }
        self.fds.push((child_fd, parent_fd));
        self.changed()
    }

    /// Makes the child the leader of a new session (`setsid`).
    pub fn setsid(&mut self, on: bool) -> &mut Command {
        self.opts.setsid = on;
        self.changed()
    }

    /// Puts the child in process group `pgroup`; 0 makes a new group whose id
    /// is the child's pid (as `std::os::unix::process::CommandExt::process_group`).
    pub fn process_group(&mut self, pgroup: i32) -> &mut Command {
        self.opts.pgroup = Some(pgroup);
        self.changed()
    }

    /// Runs the child as user `id` (`setuid`, applied after `gid` and
    /// `groups`). Without [`groups`](Self::groups), the supplementary groups
    /// are dropped first (where permitted), as std does, so a child of root
    /// keeps none of root's groups.
    pub fn uid(&mut self, id: u32) -> &mut Command {
        self.opts.uid = Some(id);
        self.changed()
    }

    /// Runs the child with group `id` (`setgid`).
    pub fn gid(&mut self, id: u32) -> &mut Command {
        self.opts.gid = Some(id);
        self.changed()
    }

    /// Sets the child's supplementary groups (`setgroups`).
    pub fn groups(&mut self, groups: &[u32]) -> &mut Command {
        self.opts.groups = Some(groups.to_vec());
        self.changed()
    }

    /// Sets a resource limit of the child. Use [`RLIM_INFINITY`] for "none".
    pub fn rlimit(&mut self, resource: Resource, soft: u64, hard: u64) -> &mut Command {
        if soft > hard {
            return self.reject(format!(
                "rlimit {resource:?}: soft limit {soft} is above the hard limit {hard}"
            ));
        }
        self.opts.rlimits.retain(|(r, _, _)| *r != resource);
        self.opts.rlimits.push((resource, soft, hard));
        self.changed()
    }

    /// The child gets `signal` when the thread that spawned it exits
    /// (`PR_SET_PDEATHSIG`; the kernel ties it to the thread, not the
    /// process). If the parent is already gone when the child sets it up,
    /// the child does not run the program.
    pub fn pdeathsig(&mut self, signal: i32) -> &mut Command {
        if !(1..=64).contains(&signal) {
            return self.reject(format!("pdeathsig: {signal} is not a signal number"));
        }
        self.opts.pdeathsig = Some(signal);
        self.changed()
    }

    /// Sets the child's file mode creation mask.
    pub fn umask(&mut self, mode: u32) -> &mut Command {
        if mode > 0o777 {
            return self.reject(format!("umask {mode:o} has bits beyond 0o777"));
        }
        self.opts.umask = Some(mode);
        self.changed()
    }

    /// Starts the child inside the cgroup2 directory `dir` (an fd opened on
    /// it, e.g. `File::open("/sys/fs/cgroup/x")`). With `clone3` the kernel
    /// places the child at creation (`CLONE_INTO_CGROUP`, Linux 5.7), so it
    /// never runs outside; other engines move it by writing to
    /// `cgroup.procs` before the `execve`.
    pub fn cgroup(&mut self, dir: impl Into<OwnedFd>) -> &mut Command {
        self.opts.cgroup = Some(dir.into());
        self.changed()
    }

    /// Signals blocked in the child when the program starts. By default
    /// the child inherits the signal mask of the thread that spawns it, as
    /// with std (for [`Pool`](crate::Pool) and the async API, the spawner
    /// thread's, which it inherited from the thread that created the pool).
    pub fn signal_mask(&mut self, signals: &[i32]) -> &mut Command {
        if let Some(bad) = signals.iter().find(|s| !(1..=64).contains(*s)) {
            return self.reject(format!("signal_mask: {bad} is not a signal number"));
        }
        self.opts.sigmask = Some(signals.iter().fold(0, |set, &s| set | sigbit(s)));
        self.changed()
    }

    /// Signals whose disposition is reset to the default in the child even
    /// when the parent ignores them (`POSIX_SPAWN_SETSIGDEF`). `SIGPIPE` is
    /// always reset, as std does; caught signals are reset by `execve`.
    pub fn signal_default(&mut self, signals: &[i32]) -> &mut Command {
        if let Some(bad) = signals.iter().find(|s| !(1..=64).contains(*s)) {
            return self.reject(format!("signal_default: {bad} is not a signal number"));
        }
        self.opts.sigdefault = signals.iter().fold(0, |set, &s| set | sigbit(s));
        self.changed()
    }

    /// Whether the child gets SIGPIPE's default action back when the parent
    /// ignores it (default `true`, as std). With `false` the child inherits
    /// the parent's disposition, as Python's `subprocess` does with
    /// `restore_signals=False`.
    pub fn restore_sigpipe(&mut self, on: bool) -> &mut Command {
        self.opts.keep_sigpipe = !on;
        self.changed()
    }

    /// Chooses how the child is created (default [`Engine::Auto`]).
    pub fn engine(&mut self, engine: Engine) -> &mut Command {
        self.engine = engine;
        self.changed()
    }

    /// With `true`, a spawn that could only be done with `fork` fails with
    /// `ErrorKind::Unsupported` instead of forking.
    pub fn require_vfork(&mut self, on: bool) -> &mut Command {
        self.require_vfork = on;
        self.changed()
    }

    /// Whether [`spawn`](Self::spawn) gives the child a pidfd (default
    /// `true`, on kernels that have them). A pidfd makes `wait`, `kill` and
    /// the async API's reactor wake-up immune to pid reuse, even when some
    /// other code in the process reaps children with `waitpid(-1)`. It
    /// costs the spawning thread a few microseconds (on Linux 6.18 here, a
    /// raw C clone loop whose children get one takes ~10 µs, 10%, longer
    /// per spawn+wait of a static child, 3-4 µs of it the process's own
    /// CPU, on a quiet machine: `bindings/node/bench/pidfd_cost.c`,
    /// `clone-pidfd` against `plain`), which is why `spawn()` makes it
    /// only when the `Child` first needs it; and the kernel
    /// creates pidfds partly one at a time, so spawner threads scale less
    /// with them (`fastspawn bench parallel` measures both). Without one,
    /// the child is waited for with `waitpid(pid)` and signalled with
    /// `kill(pid)`, which is safe as long as nothing else in the process
    /// reaps it (as with std); the async `Child` then waits on a blocking
    /// thread. `status()` and `output()` never make one.
    pub fn pidfd(&mut self, on: bool) -> &mut Command {
        self.pidfd = on;
        self
    }

    /// Makes the child's pidfd in the clone itself (`CLONE_PIDFD`) instead
    /// of when the [`Child`] first needs it. For a caller that needs it at
    /// once (an event loop or a waiter thread that watches it, through
    /// [`Child::pidfd`]): the clone makes it for nothing more, where a
    /// pidfd made later costs a `pidfd_open` and a check that the pid is
    /// still this process's child, and then exists even if other code
    /// reaped the child first. Only with [`pidfd`](Self::pidfd) on (the
    /// default); the async API always does this.
    pub fn pidfd_at_spawn(&mut self, on: bool) -> &mut Command {
        self.pidfd_at_spawn = on;
        self
    }

    /// A copy of this command with its own duplicates of every fd it holds
    /// (mapped fds, stdio files, the cgroup directory). The copy prepares
    /// itself on its first spawn.
    ///
    /// A command with [`pre_exec`](Self::pre_exec) closures cannot be
    /// copied (`Unsupported`): closures are not `Clone`.
    pub fn try_clone(&self) -> std::io::Result<Command> {
        if !self.pre_exec.is_empty() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::Unsupported,
                "a command with pre_exec closures cannot be copied",
            ));
        }
        let stdio = |s: &Option<Stdio>| -> std::io::Result<Option<Stdio>> {
            Ok(match s {
                None => None,
                Some(Stdio(StdioKind::Inherit)) => Some(Stdio::inherit()),
                Some(Stdio(StdioKind::Null)) => Some(Stdio::null()),
                Some(Stdio(StdioKind::Piped)) => Some(Stdio::piped()),
                Some(Stdio(StdioKind::Fd(fd))) => Some(Stdio::from(fd.try_clone()?)),
            })
        };
        Ok(Command {
            program: self.program.clone(),
            args: self.args.clone(),
            env: EnvChanges {
                clear: self.env.clear,
                vars: self.env.vars.clone(),
                base: self.env.base.clone(),
            },
            cwd: self.cwd.clone(),
            stdin: stdio(&self.stdin)?,
            stdout: stdio(&self.stdout)?,
            stderr: stdio(&self.stderr)?,
            fds: self
                .fds
                .iter()
                .map(|(child, fd)| Ok((*child, fd.try_clone()?)))
                .collect::<std::io::Result<_>>()?,
            opts: ChildOptions {
                setsid: self.opts.setsid,
                pgroup: self.opts.pgroup,
                uid: self.opts.uid,
                gid: self.opts.gid,
                groups: self.opts.groups.clone(),
                rlimits: self.opts.rlimits.clone(),
                pdeathsig: self.opts.pdeathsig,
                umask: self.opts.umask,
                cgroup: self
                    .opts
                    .cgroup
                    .as_ref()
                    .map(|fd| fd.try_clone())
                    .transpose()?,
                sigmask: self.opts.sigmask,
                sigdefault: self.opts.sigdefault,
                autokill: self.opts.autokill,
                keep_sigpipe: self.opts.keep_sigpipe,
            },
            engine: self.engine,
            require_vfork: self.require_vfork,
            pidfd: self.pidfd,
            pidfd_at_spawn: self.pidfd_at_spawn,
            invalid: self.invalid.clone(),
            pre_exec: Vec::new(),
            prepared: None,
            contain: self
                .contain
                .as_ref()
                .map(|c| c.try_clone().map(Box::new))
                .transpose()?,
        })
    }

    /// [`try_clone`](Self::try_clone) with the failure as this crate's
    /// error, for the batch spawns that copy a base command.
    pub(crate) fn try_clone_checked(&self) -> Result<Command> {
        self.try_clone()
            .map_err(|e| crate::error::Error::io(&self.program, crate::error::Step::Validate, e))
    }

    /// The program, as given to [`new`](Self::new).
    pub fn get_program(&self) -> &OsStr {
        &self.program
    }

    /// The arguments after argv\[0\].
    pub fn get_args(&self) -> impl ExactSizeIterator<Item = &OsStr> {
        self.args[1..].iter().map(|a| a.as_os_str())
    }

    /// The explicit environment changes, sorted by key; `None` marks a
    /// removed variable.
    pub fn get_envs(&self) -> impl ExactSizeIterator<Item = (&OsStr, Option<&OsStr>)> {
        self.env
            .vars
            .iter()
            .map(|(k, v)| (k.as_os_str(), v.as_deref()))
    }

    /// The working directory set with [`current_dir`](Self::current_dir).
    pub fn get_current_dir(&self) -> Option<&Path> {
        self.cwd.as_deref()
    }

    /// The engine set with [`engine`](Self::engine).
    pub fn get_engine(&self) -> Engine {
        self.engine
    }

    /// Starts the child. Streams not configured are inherited.
    pub fn spawn(&mut self) -> Result<Child> {
        crate::spawn::spawn(self, Purpose::Spawn)
    }

    /// `spawn`, with the stdio defaults and pidfd choice of `purpose`.
    #[cfg_attr(not(feature = "tokio"), allow(dead_code))]
    pub(crate) fn spawn_with(&mut self, purpose: Purpose) -> Result<Child> {
        crate::spawn::spawn(self, purpose)
    }

    /// Runs the child to its end and collects its stdout and stderr (piped
    /// unless configured; stdin is `/dev/null` unless configured).
    pub fn output(&mut self) -> Result<Output> {
        crate::spawn::spawn(self, Purpose::Output)?.wait_with_output()
    }

    /// Runs the child to its end and returns how it exited. Like
    /// [`output`](Self::output), it creates no pidfd: the child never leaves
    /// the call, and a pidfd costs a few microseconds per spawn.
    pub fn status(&mut self) -> Result<ExitStatus> {
        crate::spawn::spawn(self, Purpose::Status)?.wait()
    }

    /// Replaces the current process with the program, every option applied
    /// (std's `CommandExt::exec`): the steps the child would run are run by
    /// the calling thread, then `execve`. Returns only on failure, with the
    /// step that failed; the process may have been changed by the steps
    /// before it (ids, directory, fds moved into place), as with std. Fds
    /// that are neither stdio nor mapped are marked close-on-exec rather
    /// than closed, so they stay usable if the `execve` fails. A piped
    /// stream has no other end here: use `inherit`, `null` or an fd.
    pub fn exec(&mut self) -> crate::Error {
        match crate::spawn::spawn(self, Purpose::Exec) {
            Err(err) => err,
            Ok(_) => unreachable!("exec in place returns only on failure"),
        }
    }
}

impl fmt::Debug for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            // std's fields first, in std's order and shape, each only when
            // set; then fastspawn's own options, only when not the default.
            let mut out = f.debug_struct("Command");
            out.field("program", &self.program)
                .field("args", &self.args);
            if !self.env.is_inherited() {
                out.field("env", &self.env);
            }
            if self.cwd.is_some() {
                out.field("cwd", &self.cwd);
            }
            let opts = &self.opts;
            if opts.uid.is_some() {
                out.field("uid", &opts.uid);
            }
            if opts.gid.is_some() {
                out.field("gid", &opts.gid);
            }
            if opts.groups.is_some() {
                out.field("groups", &opts.groups);
            }
            for (name, stdio) in [
                ("stdin", &self.stdin),
                ("stdout", &self.stdout),
                ("stderr", &self.stderr),
            ] {
                if stdio.is_some() {
                    out.field(name, stdio);
                }
            }
            if opts.pgroup.is_some() {
                out.field("pgroup", &opts.pgroup);
            }
            out.field("create_pidfd", &self.pidfd);
            if !self.fds.is_empty() {
                out.field("fds", &self.fds);
            }
            if opts.setsid {
                out.field("setsid", &opts.setsid);
            }
            if !opts.rlimits.is_empty() {
                out.field("rlimits", &opts.rlimits);
            }
            for (name, value) in [
                ("pdeathsig", opts.pdeathsig.map(|v| v as u64)),
                ("umask", opts.umask.map(u64::from)),
                ("signal_mask", opts.sigmask),
            ] {
                if value.is_some() {
                    out.field(name, &value);
                }
            }
            if opts.cgroup.is_some() {
                out.field("cgroup", &opts.cgroup);
            }
            if self.engine != Engine::Auto {
                out.field("engine", &self.engine);
            }
            if self.require_vfork {
                out.field("require_vfork", &self.require_vfork);
            }
            if !self.pre_exec.is_empty() {
                out.field("pre_exec", &self.pre_exec.len());
            }
            out.finish()
        } else {
            // As a shell would read it: directory, environment, program.
            if let Some(cwd) = &self.cwd {
                write!(f, "cd {cwd:?} && ")?;
            }
            if self.env.clear {
                f.write_str("env -i ")?;
                if let Some(base) = &self.env.base {
                    for (key, value) in base.iter() {
                        if !self.env.vars.contains_key(key) {
                            write!(f, "{}={value:?} ", key.to_string_lossy())?;
                        }
                    }
                }
            } else if self.env.vars.values().any(Option::is_none) {
                f.write_str("env ")?;
                for (key, _) in self.env.vars.iter().filter(|(_, v)| v.is_none()) {
                    write!(f, "-u {} ", key.to_string_lossy())?;
                }
            }
            for (key, value) in &self.env.vars {
                if let Some(value) = value {
                    write!(f, "{}={value:?} ", key.to_string_lossy())?;
                }
            }
            if self.program != self.args[0] {
                write!(f, "[{:?}] ", self.program)?;
            }
            write!(f, "{:?}", self.args[0])?;
            for arg in &self.args[1..] {
                write!(f, " {arg:?}")?;
            }
            Ok(())
        }
    }
}

/// Why a child is started: decides what unconfigured streams become and
/// whether the child needs a pidfd.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Purpose {
    /// `spawn`: streams inherited; the `Child` goes to the caller, who may
    /// signal it at any time later: it makes a pidfd when first needed.
    Spawn,
    /// The async `spawn`: `Spawn`'s streams, and a pidfd at once, which the
    /// async `Child` waits on through the reactor.
    #[cfg_attr(not(feature = "tokio"), allow(dead_code))]
    AsyncSpawn,
    /// `status`: streams inherited; waited for at once, no pidfd needed
    /// (creating one costs a few microseconds per spawn).
    Status,
    /// `output`: stdin null, stdout and stderr piped; waited for at once.
    Output,
    /// `exec`: the steps run in this process, which then becomes the program.
    Exec,
    /// The async `output`: `Output`'s streams, and a pidfd, which the async
    /// `Child` waits on through the reactor.
    #[cfg_attr(not(feature = "tokio"), allow(dead_code))]
    AsyncOutput,
}

impl Purpose {
    /// Whether the clone itself makes the pidfd: only for the async API,
    /// which registers it with the reactor at once. A `spawn()` child makes
    /// it when first needed (see `child.rs`).
    pub(crate) fn pidfd_at_spawn(self) -> bool {
        matches!(self, Purpose::AsyncSpawn | Purpose::AsyncOutput)
    }
}
