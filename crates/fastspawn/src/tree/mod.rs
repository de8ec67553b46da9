//! Process trees: a child and everything it starts, contained so that it
//! can be killed, waited for, frozen and measured as one.
//!
//! [`Command::contain`](crate::Command::contain) makes a cgroup v2 of the
//! child's own and has the kernel start the child in it
//! (`clone3(CLONE_INTO_CGROUP)`), so the spawn stays on the vfork path and
//! no process of the tree can leave: `setsid`, a double fork or a new
//! process group do not take a process out of its cgroup. Killing is one
//! write to `cgroup.kill`; waiting sleeps on `cgroup.events` until
//! `populated 0`; freezing writes `cgroup.freeze`. Where no cgroup can be
//! written, the child starts a session of its own instead, with the caller
//! as subreaper (`session.rs`), which misses what docs/trees.md lists.
//!
//! A dropped `Child` leaves its tree running (as std leaves a child); its
//! cgroup is removed as soon as the tree is empty (`cleaner.rs`), or, if it
//! is empty already, kept for the next contained child under the same
//! parent cgroup with the same limits, of any command (`spare.rs`).

mod cleaner;
pub(crate) mod empty;
mod options;
mod session;
mod spare;

use std::collections::HashSet;
use std::ffi::OsStr;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

pub use options::CgroupDir;
pub(crate) use options::Contain;
use options::{Limits, Mode, ParentSpec};
pub(crate) use session::SessionTree;

use crate::child::{Child, ExitStatus};
use crate::command::{Command, Purpose};
use crate::engine::Engine;
use crate::error::{Error, Result, Step};
use crate::sys::{self, cgroup, wait};

/// How a child's tree is contained (see [`Command::contain`](crate::Command::contain)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Containment {
    /// A cgroup v2 of its own: nothing of the tree can escape.
    Cgroup,
    /// The fallback: a session of its own, the caller as subreaper.
    Session,
}

/// What a tree used, from its cgroup's files. CPU time counts every
/// process that ever ran in the tree, exited ones included.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Usage {
    /// CPU time, user and system (`cpu.stat` `usage_usec`).
    pub cpu: Duration,
    /// User CPU time (`user_usec`).
    pub user: Duration,
    /// System CPU time (`system_usec`).
    pub system: Duration,
    /// The highest memory use (`memory.peak`, Linux 5.19), where the memory
    /// controller is enabled for the tree.
    pub memory_peak: Option<u64>,
    /// The memory in use now (`memory.current`), where enabled.
    pub memory_current: Option<u64>,
    /// The number of processes now (`pids.current`), where the pids
    /// controller is enabled.
    pub pids_current: Option<u64>,
    /// The highest number of processes (`pids.peak`, Linux 6.13), where enabled.
    pub pids_peak: Option<u64>,
}

/// The cgroup under which children's cgroups are made.
pub(crate) struct ParentDir {
    pub fd: OwnedFd,
    pub path: PathBuf,
    /// Emptied cgroups kept for the next spawns (`spare.rs`).
    spares: spare::Spares,
    /// Whether children's cgroups may be reused: not once the memory or
    /// pids controller is enabled for them (their peaks cannot be reset).
    reuse: AtomicBool,
    /// `cgroup.procs` of this directory and of its common ancestor with
    /// the caller's cgroup, held for the kernel's permission checks of
    /// every spawn into a child's cgroup (`cgroup::hold_procs`); a cache
    /// only, empty where they cannot be opened.
    _procs: Vec<OwnedFd>,
    /// The [`generation`](crate::per_process::generation) of the process
    /// that made it: a forked child's copy leaves the directories (its
    /// spares, the children's cgroups) to the parent.
    generation: u64,
}

impl ParentDir {
    /// Whether this process made it (not a forked child's copy).
    fn ours(&self) -> bool {
        self.generation == crate::per_process::generation()
    }
}

impl std::fmt::Debug for ParentDir {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParentDir")
            .field("path", &self.path)
            .finish()
    }
}

impl Drop for ParentDir {
    fn drop(&mut self) {
        if self.ours() {
            self.spares.remove_all(self.fd.as_fd());
        }
    }
}

/// A contained child's tree.
pub(crate) enum Tree {
    Cgroup(CgroupTree),
    Session(Arc<SessionTree>),
}

/// A cgroup made for one child; removed on drop once empty.
pub(crate) struct CgroupTree {
    parent: Arc<ParentDir>,
    name: String,
    /// `None` only while the spawn lends it to the command.
    dir: Option<OwnedFd>,
    path: PathBuf,
    /// `cpu.stat` when the cgroup was handed to this child (0 when new).
    baseline: spare::CpuTimes,
    /// Set by `freeze`: such a cgroup is never reused.
    frozen_ever: AtomicBool,
    /// Open files to tell at drop whether it can be reused (`None` when
    /// reuse is off or they could not be opened).
    watch: Option<spare::Watch>,
}

impl std::fmt::Debug for Tree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tree::Cgroup(t) => f.debug_tuple("Cgroup").field(&t.path).finish(),
            Tree::Session(_) => f.write_str("Session"),
        }
    }
}

impl Drop for CgroupTree {
    fn drop(&mut self) {
        let Some(mut dir) = self.dir.take() else {
            return;
        };
        if !self.parent.ours() {
            // A forked child's copy: the cgroup is the parent's to reuse
            // or remove.
            return;
        }
        let reusable =
            self.parent.reuse.load(Ordering::Relaxed) && !self.frozen_ever.load(Ordering::Relaxed);
        let watch = self.watch.take().filter(|_| reusable);
        if let Some(watch) = watch {
            if let Some(baseline) = watch.emptied() {
                let spare = spare::Spare {
                    name: std::mem::take(&mut self.name),
                    dir,
                    baseline,
                    watch,
                };
                match self.parent.spares.offer(spare) {
                    Ok(()) => return,
                    Err(spare) => {
                        self.name = spare.name;
                        dir = spare.dir;
                    }
                }
            }
        }
        if !remove_cgroup(&self.parent, &self.name, dir.as_fd()) {
            cleaner::adopt(cleaner::Leftover {
                parent: Arc::clone(&self.parent),
                name: std::mem::take(&mut self.name),
                dir,
            });
        }
    }
}

/// Removes the cgroup `name` of `parent` (and any cgroup a member made
/// below it); false while processes live in it.
pub(crate) fn remove_cgroup(parent: &ParentDir, name: &str, dir: BorrowedFd<'_>) -> bool {
    match cgroup::rmdir(parent.fd.as_fd(), name) {
        Ok(()) => return true,
        Err(e) if e.raw_os_error() == Some(libc::ENOENT) => return true,
        Err(e) if e.raw_os_error() != Some(libc::EBUSY) => return false,
        Err(_) => {}
    }
    if !remove_below(dir) {
        return false;
    }
    matches!(cgroup::rmdir(parent.fd.as_fd(), name), Ok(()))
}

fn remove_below(dir: BorrowedFd<'_>) -> bool {
    let Ok(names) = cgroup::subdirs(dir) else {
        return false;
    };
    names.iter().all(|name| {
        let Ok(sub) = cgroup::open_dir(Some(dir), Path::new(name)) else {
            return true;
        };
        remove_below(sub.as_fd()) && cgroup::rmdir(dir, name).is_ok()
    })
}

/// Whether a spawn of `cmd` goes through [`spawn`].
pub(crate) fn wants(cmd: &Command) -> bool {
    cmd.opts.autokill
        || cmd
            .contain
            .as_ref()
            .is_some_and(|c| c.enabled || !c.limits.is_empty())
}

/// A contained spawn (or one with `autokill`): makes the cgroup, lends it
/// to the command for the clone, and gives the `Child` its tree.
pub(crate) fn spawn(cmd: &mut Command, purpose: Purpose) -> Result<Child> {
    if cmd.opts.autokill {
        check_autokill(cmd)?;
    }
    match cmd.contain.as_deref() {
        Some(c) if c.enabled => {}
        Some(c) if !c.limits.is_empty() => {
            return Err(Error::invalid(
                &cmd.program,
                "memory_max, pids_max and cpu_max need contain(true) or contain_in",
            ));
        }
        _ => return crate::spawn::spawn_plain(cmd, purpose),
    }
    let mut contain = cmd.contain.take().expect("checked above");
    let result = spawn_contained(cmd, &mut contain, purpose);
    cmd.contain = Some(contain);
    result
}

fn check_autokill(cmd: &Command) -> Result<()> {
    if !sys::autokill::supported() {
        return Err(Error::unsupported(
            &cmd.program,
            "autokill needs CLONE_PIDFD_AUTOKILL (Linux 7.1), and this kernel refused the flag",
        ));
    }
    if !matches!(cmd.engine, Engine::Auto | Engine::Clone3) {
        return Err(Error::unsupported(
            &cmd.program,
            format!(
                "autokill needs the clone3 engine, not {}",
                cmd.engine.name()
            ),
        ));
    }
    if !cmd.pidfd {
        return Err(Error::invalid(
            &cmd.program,
            "autokill needs the child's pidfd, and pidfd(false) is set",
        ));
    }
    Ok(())
}

fn spawn_contained(cmd: &mut Command, contain: &mut Contain, purpose: Purpose) -> Result<Child> {
    if cmd.opts.cgroup.is_some() {
        return Err(Error::invalid(
            &cmd.program,
            "contain and cgroup cannot be combined: contain makes the child's cgroup itself",
        ));
    }
    if !matches!(contain.mode, Mode::Session) {
        match make_cgroup(&cmd.program, contain) {
            Ok(tree) => return spawn_in_cgroup(cmd, tree, purpose),
            Err(err) => {
                let fall_back = matches!(contain.mode, Mode::Auto)
                    && !contain.require
                    && contain.limits.is_empty();
                if !fall_back {
                    return Err(err);
                }
            }
        }
    } else if contain.require {
        return Err(Error::invalid(
            &cmd.program,
            "contain_session asks for the fallback and require_contained forbids it",
        ));
    }
    if !contain.limits.is_empty() {
        return Err(Error::unsupported(
            &cmd.program,
            "memory_max, pids_max and cpu_max need a cgroup; the session fallback cannot apply them",
        ));
    }
    spawn_in_session(cmd, purpose)
}

fn spawn_in_cgroup(cmd: &mut Command, mut tree: CgroupTree, purpose: Purpose) -> Result<Child> {
    cmd.opts.cgroup = tree.dir.take();
    let result = crate::spawn::spawn_plain(cmd, purpose);
    tree.dir = cmd.opts.cgroup.take();
    // On failure the tree is dropped here, which removes the cgroup.
    let mut child = result?;
    child.tree = Some(Box::new(Tree::Cgroup(tree)));
    Ok(child)
}

fn spawn_in_session(cmd: &mut Command, purpose: Purpose) -> Result<Child> {
    if cmd.opts.pgroup.is_some() {
        return Err(Error::invalid(
            &cmd.program,
            "the session fallback of contain makes the child a session leader, which process_group contradicts",
        ));
    }
    session::become_subreaper().map_err(|e| {
        Error::io(
            &cmd.program,
            Step::Contain("becoming a child subreaper (PR_SET_CHILD_SUBREAPER)".into()),
            e,
        )
    })?;
    let setsid = std::mem::replace(&mut cmd.opts.setsid, true);
    let result = crate::spawn::spawn_plain(cmd, purpose);
    cmd.opts.setsid = setsid;
    let mut child = result?;
    child.tree = Some(Box::new(Tree::Session(Arc::new(SessionTree::new(
        child.pid,
    )))));
    Ok(child)
}

fn contain_error(program: &OsStr, what: String, err: io::Error) -> Error {
    Error::io(program, Step::Contain(what), err)
}

fn open_parent(program: &OsStr, mode: &Mode) -> Result<ParentDir> {
    let (path, fd) = match mode {
        Mode::Auto | Mode::Session => {
            let path = cgroup::own_cgroup().map_err(|e| {
                contain_error(program, "finding this process's cgroup v2".into(), e)
            })?;
            let fd = cgroup::open_dir(None, &path).map_err(|e| {
                contain_error(program, format!("opening the parent cgroup {path:?}"), e)
            })?;
            (path, fd)
        }
        Mode::In(CgroupDir(ParentSpec::Path(path))) => {
            let fd = cgroup::open_dir(None, path).map_err(|e| {
                contain_error(program, format!("opening the parent cgroup {path:?}"), e)
            })?;
            (path.clone(), fd)
        }
        Mode::In(CgroupDir(ParentSpec::Fd(fd))) => {
            let fd = fd.try_clone().map_err(|e| {
                contain_error(program, "duplicating the parent cgroup's fd".into(), e)
            })?;
            let path = std::fs::read_link(format!("/proc/self/fd/{}", fd.as_raw_fd()))
                .unwrap_or_else(|_| PathBuf::from(format!("<fd {}>", fd.as_raw_fd())));
            (path, fd)
        }
    };
    match cgroup::is_cgroup2(fd.as_fd()) {
        Ok(true) => {
            // Peaks cannot be reset: no reuse where they are counted.
            let enabled = cgroup::read(fd.as_fd(), "cgroup.subtree_control").unwrap_or_default();
            let reuse = !has_controller(&enabled, "memory") && !has_controller(&enabled, "pids");
            let mut procs: Vec<OwnedFd> = cgroup::hold_procs(fd.as_fd()).into_iter().collect();
            // By default the parent is this process's own cgroup, and so
            // the common ancestor too.
            if let Mode::In(_) = mode {
                if let Ok(own) = cgroup::own_cgroup() {
                    let common = cgroup::common_ancestor(&own, &path);
                    if common != path {
                        let held = cgroup::open_dir(None, &common)
                            .and_then(|dir| cgroup::hold_procs(dir.as_fd()));
                        procs.extend(held);
                    }
                }
            }
            Ok(ParentDir {
                fd,
                path,
                spares: spare::Spares::default(),
                reuse: AtomicBool::new(reuse),
                _procs: procs,
                generation: crate::per_process::generation(),
            })
        }
        Ok(false) => Err(Error::new(
            program,
            Step::Contain(format!("checking the parent cgroup {path:?}")),
            io::ErrorKind::InvalidInput,
            format!("{path:?} is not a directory of a cgroup2 file system"),
        )),
        Err(e) => Err(contain_error(
            program,
            format!("checking the parent cgroup {path:?}"),
            e,
        )),
    }
}

/// The parent cgroup for `contain`: shared with every live command that
/// makes its children's cgroups in the same directory with the same limits
/// (`spare::parent`), or a new one.
fn shared_parent(program: &OsStr, contain: &Contain) -> Result<Arc<ParentDir>> {
    let dir =
        match &contain.mode {
            Mode::Auto => Some(cgroup::own_cgroup().map_err(|e| {
                contain_error(program, "finding this process's cgroup v2".into(), e)
            })?),
            Mode::In(CgroupDir(ParentSpec::Path(path))) => Some(path.clone()),
            Mode::In(CgroupDir(ParentSpec::Fd(_))) | Mode::Session => None,
        };
    spare::parent(dir.map(|dir| (dir, contain.limits)), || {
        open_parent(program, &contain.mode)
    })
}

fn make_cgroup(program: &OsStr, contain: &mut Contain) -> Result<CgroupTree> {
    let parent = match &contain.parent {
        Some(parent) => Arc::clone(parent),
        None => {
            let parent = shared_parent(program, contain)?;
            contain.parent = Some(Arc::clone(&parent));
            parent
        }
    };
    // An emptied cgroup of an earlier child under this parent, made with
    // the same limits (the parent is shared only between equal limits).
    if let Some(spare) = parent.spares.take() {
        return Ok(CgroupTree {
            path: parent.path.join(&spare.name),
            parent,
            name: spare.name,
            dir: Some(spare.dir),
            baseline: spare.baseline,
            frozen_ever: AtomicBool::new(false),
            watch: Some(spare.watch),
        });
    }
    static SEQUENCE: AtomicU64 = AtomicU64::new(0);
    let name = loop {
        let name = format!(
            "fastspawn-{}-{}",
            std::process::id(),
            SEQUENCE.fetch_add(1, Ordering::Relaxed)
        );
        match cgroup::mkdir(parent.fd.as_fd(), &name) {
            Ok(()) => break name,
            // Left by an earlier process with our pid.
            Err(e) if e.raw_os_error() == Some(libc::EEXIST) => continue,
            Err(e) => {
                return Err(contain_error(
                    program,
                    format!("creating the cgroup {:?}", parent.path.join(&name)),
                    e,
                ));
            }
        }
    };
    let path = parent.path.join(&name);
    let dir = match cgroup::open_dir(Some(parent.fd.as_fd()), Path::new(&name)) {
        Ok(dir) => dir,
        Err(e) => {
            let _ = cgroup::rmdir(parent.fd.as_fd(), &name);
            return Err(contain_error(
                program,
                format!("opening the cgroup {path:?}"),
                e,
            ));
        }
    };
    let watch = if parent.reuse.load(Ordering::Relaxed) {
        spare::Watch::open(dir.as_fd()).ok()
    } else {
        None
    };
    let tree = CgroupTree {
        watch,
        parent,
        name,
        dir: Some(dir),
        path,
        baseline: spare::CpuTimes::default(),
        frozen_ever: AtomicBool::new(false),
    };
    apply_limits(program, &tree, &contain.limits)?;
    Ok(tree)
}

fn apply_limits(program: &OsStr, tree: &CgroupTree, limits: &Limits) -> Result<()> {
    let dir = tree.dir.as_ref().expect("open").as_fd();
    let mut writes: Vec<(&str, &str, String)> = Vec::new();
    if let Some(bytes) = limits.memory_max {
        writes.push(("memory", "memory.max", bytes.to_string()));
    }
    if let Some(max) = limits.pids_max {
        writes.push(("pids", "pids.max", max.to_string()));
    }
    if let Some((quota, period)) = limits.cpu_max {
        writes.push(("cpu", "cpu.max", format!("{quota} {period}")));
    }
    for (controller, file, value) in writes {
        enable_controller(program, tree, controller, file)?;
        cgroup::write(dir, file, &value).map_err(|e| {
            contain_error(
                program,
                format!("writing {value:?} to {:?}", tree.path.join(file)),
                e,
            )
        })?;
    }
    Ok(())
}

fn has_controller(list: &str, controller: &str) -> bool {
    list.split_whitespace().any(|c| c == controller)
}

/// Makes `controller` available in the child's cgroup: enabled in the
/// parent's `cgroup.subtree_control` if the parent offers it.
fn enable_controller(
    program: &OsStr,
    tree: &CgroupTree,
    controller: &str,
    file: &str,
) -> Result<()> {
    let dir = tree.dir.as_ref().expect("open").as_fd();
    let parent = &tree.parent;
    let step = |what: &str| Step::Contain(format!("{what} for {file}"));
    if controller != "cpu" {
        parent.reuse.store(false, Ordering::Relaxed);
    }
    let own = cgroup::read(dir, "cgroup.controllers")
        .map_err(|e| Error::io(program, step("reading cgroup.controllers"), e))?;
    if has_controller(&own, controller) {
        return Ok(());
    }
    let offered = cgroup::read(parent.fd.as_fd(), "cgroup.controllers")
        .map_err(|e| Error::io(program, step("reading the parent's cgroup.controllers"), e))?;
    if !has_controller(&offered, controller) {
        return Err(Error::new(
            program,
            step("finding the controller"),
            io::ErrorKind::Unsupported,
            format!(
                "{file} needs the {controller} controller, which the parent cgroup {:?} does not offer (its cgroup.controllers: {:?})",
                parent.path,
                offered.trim()
            ),
        ));
    }
    cgroup::write(parent.fd.as_fd(), "cgroup.subtree_control", &format!("+{controller}"))
        .map_err(|e| {
            let detail = if e.raw_os_error() == Some(libc::EBUSY) {
                format!(
                    "{:?} holds processes, and cgroup v2 enables controllers only for the children of a cgroup without processes of its own (\"no internal processes\"): give contain_in a cgroup that holds none ({e})",
                    parent.path
                )
            } else {
                e.to_string()
            };
            Error::new(
                program,
                step(&format!("enabling +{controller} in the parent's cgroup.subtree_control")),
                e.kind(),
                detail,
            )
        })
}

impl Tree {
    pub(crate) fn containment(&self) -> Containment {
        match self {
            Tree::Cgroup(_) => Containment::Cgroup,
            Tree::Session(_) => Containment::Session,
        }
    }

    pub(crate) fn cgroup_dir(&self) -> Option<BorrowedFd<'_>> {
        match self {
            Tree::Cgroup(t) => t.dir.as_ref().map(|d| d.as_fd()),
            Tree::Session(_) => None,
        }
    }

    #[cfg_attr(not(feature = "tokio"), allow(dead_code))]
    pub(crate) fn session(&self) -> Option<&Arc<SessionTree>> {
        match self {
            Tree::Session(s) => Some(s),
            Tree::Cgroup(_) => None,
        }
    }

    pub(crate) fn path(&self) -> Option<&Path> {
        match self {
            Tree::Cgroup(t) => Some(&t.path),
            Tree::Session(_) => None,
        }
    }

    fn file_error(&self, program: &OsStr, what: &str, file: &str, err: io::Error) -> Error {
        let place = self.path().map(|p| p.join(file)).unwrap_or_default();
        Error::io(program, Step::Tree(format!("{what} ({place:?})")), err)
    }

    pub(crate) fn kill(&self, program: &OsStr, signal: i32, root_reaped: bool) -> Result<()> {
        if !(1..=64).contains(&signal) {
            return Err(Error::new(
                program,
                Step::Tree("kill_tree".into()),
                io::ErrorKind::InvalidInput,
                format!("{signal} is not a signal number"),
            ));
        }
        match self {
            Tree::Cgroup(t) => {
                let dir = t.dir.as_ref().expect("open").as_fd();
                if signal == libc::SIGKILL {
                    match cgroup::write(dir, "cgroup.kill", "1") {
                        Ok(()) => return Ok(()),
                        // Linux < 5.14 has no cgroup.kill: signal each member.
                        Err(e) if e.raw_os_error() == Some(libc::ENOENT) => {}
                        Err(e) => {
                            return Err(self.file_error(program, "kill_tree", "cgroup.kill", e));
                        }
                    }
                }
                signal_members(dir, &t.name, signal)
                    .map_err(|e| self.file_error(program, "kill_tree", "cgroup.procs", e))
            }
            Tree::Session(s) => s.signal(signal, root_reaped).map_err(|e| {
                Error::io(
                    program,
                    Step::Tree("kill_tree (session fallback)".into()),
                    e,
                )
            }),
        }
    }

    pub(crate) fn wait_empty(&self, program: &OsStr, root_reaped: bool) -> Result<()> {
        match self {
            Tree::Cgroup(t) => {
                let dir = t.dir.as_ref().expect("open").as_fd();
                empty::EmptyWait::new(dir)
                    .and_then(|mut wait| wait.wait(dir))
                    .map_err(|e| self.file_error(program, "wait_tree", "cgroup.events", e))
            }
            Tree::Session(s) => s.wait_empty(root_reaped).map_err(|e| {
                Error::io(
                    program,
                    Step::Tree("wait_tree (session fallback)".into()),
                    e,
                )
            }),
        }
    }

    pub(crate) fn pids(&self, program: &OsStr, root_reaped: bool) -> Result<Vec<u32>> {
        let mut pids = match self {
            Tree::Cgroup(t) => cgroup::procs_recursive(t.dir.as_ref().expect("open").as_fd())
                .map_err(|e| self.file_error(program, "tree_pids", "cgroup.procs", e))?,
            Tree::Session(s) => s.pids(root_reaped),
        };
        pids.sort_unstable();
        pids.dedup();
        Ok(pids.into_iter().map(|p| p as u32).collect())
    }

    fn needs_cgroup(&self, program: &OsStr, what: &str) -> Result<BorrowedFd<'_>> {
        self.cgroup_dir().ok_or_else(|| {
            Error::new(
                program,
                Step::Tree(what.into()),
                io::ErrorKind::Unsupported,
                "the child runs in the session fallback, which has no cgroup",
            )
        })
    }

    pub(crate) fn set_frozen(&self, program: &OsStr, frozen: bool) -> Result<()> {
        let what = if frozen { "freeze" } else { "thaw" };
        let dir = self.needs_cgroup(program, what)?;
        if let Tree::Cgroup(t) = self {
            t.frozen_ever.store(true, Ordering::Relaxed);
        }
        cgroup::write(dir, "cgroup.freeze", if frozen { "1" } else { "0" })
            .map_err(|e| self.file_error(program, what, "cgroup.freeze", e))?;
        cgroup::Events::open(dir)
            .and_then(|events| events.wait_until(|s| s.frozen == frozen))
            .map_err(|e| self.file_error(program, what, "cgroup.events", e))
    }

    pub(crate) fn usage(&self, program: &OsStr) -> Result<Usage> {
        let dir = self.needs_cgroup(program, "usage")?;
        let now = spare::CpuTimes::read(dir)
            .map_err(|e| self.file_error(program, "usage", "cpu.stat", e))?;
        let base = match self {
            Tree::Cgroup(t) => t.baseline,
            Tree::Session(_) => spare::CpuTimes::default(),
        };
        let usec = |now: u64, base: u64| Duration::from_micros(now.saturating_sub(base));
        let single = |file: &str| {
            cgroup::read(dir, file)
                .ok()
                .and_then(|text| text.trim().parse::<u64>().ok())
        };
        Ok(Usage {
            cpu: usec(now.usage, base.usage),
            user: usec(now.user, base.user),
            system: usec(now.system, base.system),
            memory_peak: single("memory.peak"),
            memory_current: single("memory.current"),
            pids_current: single("pids.current"),
            pids_peak: single("pids.peak"),
        })
    }
}

/// Sends `signal` to every process of the cgroup through a pidfd, again
/// until a pass finds no new member. A pid read from `cgroup.procs` may be
/// recycled before `pidfd_open`; the process behind the pidfd is signalled
/// only if `/proc/<pid>/cgroup` still names this cgroup (while it lives,
/// the pidfd pins its pid, so the check is about the same process).
fn signal_members(dir: BorrowedFd<'_>, name: &str, signal: i32) -> io::Result<()> {
    let mut done = HashSet::new();
    for _ in 0..32 {
        let fresh: Vec<i32> = cgroup::procs_recursive(dir)?
            .into_iter()
            .filter(|pid| done.insert(*pid))
            .collect();
        if fresh.is_empty() {
            break;
        }
        for pid in fresh {
            let Ok(pidfd) = wait::pidfd_open(pid) else {
                continue;
            };
            let member = std::fs::read_to_string(format!("/proc/{pid}/cgroup"))
                .ok()
                .and_then(|text| {
                    cgroup::parse_own_cgroup(&text).map(|path| path.split('/').any(|s| s == name))
                })
                .unwrap_or(false);
            if member {
                match wait::send_signal(Some(pidfd.as_fd()), pid, signal) {
                    Err(e) if e.raw_os_error() != Some(libc::ESRCH) => return Err(e),
                    _ => {}
                }
            }
        }
    }
    Ok(())
}

fn not_contained(program: &OsStr, what: &str) -> Error {
    Error::new(
        program,
        Step::Tree(what.into()),
        io::ErrorKind::InvalidInput,
        "the child was not started with Command::contain",
    )
}

/// The process-tree methods of a contained child.
impl Child {
    fn tree_for(&self, what: &str) -> Result<&Tree> {
        self.tree
            .as_deref()
            .ok_or_else(|| not_contained(&self.program, what))
    }

    /// How the child's tree is contained, if it is.
    pub fn containment(&self) -> Option<Containment> {
        self.tree.as_deref().map(Tree::containment)
    }

    /// The directory of the child's own cgroup, when it has one.
    pub fn cgroup_path(&self) -> Option<&Path> {
        self.tree.as_deref().and_then(Tree::path)
    }

    /// Sends `signal` to every process of the tree, grandchildren that
    /// changed session or process group included. `SIGKILL` is one write
    /// to `cgroup.kill` (Linux 5.14); other signals go to each member
    /// through a pidfd, so a recycled pid is never hit. Processes the tree
    /// starts while the signals go out are signalled too (up to 32 passes).
    /// Returns once every member was signalled; [`wait_tree`](Self::wait_tree)
    /// waits for them to exit. Takes `&self`: it changes nothing in the
    /// `Child`, so one thread can kill a tree another waits for
    /// ([`wait_tree_empty`](Self::wait_tree_empty)).
    pub fn kill_tree(&self, signal: i32) -> Result<()> {
        let root_reaped = self.status.is_some();
        self.tree_for("kill_tree")?
            .kill(&self.program, signal, root_reaped)
    }

    /// Waits until every process of the tree has exited, then reaps the
    /// child and returns its status. Sleeps on `cgroup.events` (no busy
    /// loop); never returns while the tree is frozen. The tree's cgroup
    /// stays, for [`usage`](Self::usage), until the `Child` is dropped.
    pub fn wait_tree(&mut self) -> Result<ExitStatus> {
        drop(self.stdin.take());
        let root_reaped = self.status.is_some();
        self.tree_for("wait_tree")?
            .wait_empty(&self.program, root_reaped)?;
        self.wait()
    }

    /// The pids of the tree's live processes, sorted.
    pub fn tree_pids(&self) -> Result<Vec<u32>> {
        let root_reaped = self.status.is_some();
        self.tree_for("tree_pids")?.pids(&self.program, root_reaped)
    }

    /// Waits, as [`wait_tree`](Self::wait_tree) does, until every process
    /// of the tree has exited, but neither reaps the child nor closes its
    /// stdin: through `&self`, for a caller that shares the `Child` between
    /// a thread that waits for the tree and one that may kill it (the Node
    /// binding, after it reaped the child). In the session fallback, a
    /// child not yet reaped counts as a member until it is.
    pub fn wait_tree_empty(&self) -> Result<()> {
        let root_reaped = self.status.is_some();
        self.tree_for("wait_tree_empty")?
            .wait_empty(&self.program, root_reaped)
    }

    /// Freezes every process of the tree (`cgroup.freeze`, Linux 5.2) and
    /// returns once the kernel reports the tree frozen. Needs a cgroup.
    pub fn freeze(&mut self) -> Result<()> {
        self.tree_for("freeze")?.set_frozen(&self.program, true)
    }

    /// Lets a frozen tree run again.
    pub fn thaw(&mut self) -> Result<()> {
        self.tree_for("thaw")?.set_frozen(&self.program, false)
    }

    /// The tree's CPU time and, where those controllers are enabled, its
    /// memory and process counts. Needs a cgroup.
    pub fn usage(&self) -> Result<Usage> {
        self.tree_for("usage")?.usage(&self.program)
    }
}
