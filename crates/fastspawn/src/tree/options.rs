//! The `Command` options of containment and their settings.

use std::fs::File;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::ParentDir;
use crate::command::Command;

/// The cgroup under which [`Command::contain_in`] creates each child's
/// cgroup: a path, or an fd opened on the directory.
#[derive(Debug)]
pub struct CgroupDir(pub(crate) ParentSpec);

#[derive(Debug)]
pub(crate) enum ParentSpec {
    Path(PathBuf),
    Fd(OwnedFd),
}

impl From<&Path> for CgroupDir {
    fn from(path: &Path) -> CgroupDir {
        CgroupDir(ParentSpec::Path(path.to_owned()))
    }
}

impl From<PathBuf> for CgroupDir {
    fn from(path: PathBuf) -> CgroupDir {
        CgroupDir(ParentSpec::Path(path))
    }
}

impl From<&PathBuf> for CgroupDir {
    fn from(path: &PathBuf) -> CgroupDir {
        CgroupDir(ParentSpec::Path(path.clone()))
    }
}

impl From<&str> for CgroupDir {
    fn from(path: &str) -> CgroupDir {
        CgroupDir(ParentSpec::Path(path.into()))
    }
}

impl From<String> for CgroupDir {
    fn from(path: String) -> CgroupDir {
        CgroupDir(ParentSpec::Path(path.into()))
    }
}

impl From<OwnedFd> for CgroupDir {
    fn from(fd: OwnedFd) -> CgroupDir {
        CgroupDir(ParentSpec::Fd(fd))
    }
}

impl From<File> for CgroupDir {
    fn from(file: File) -> CgroupDir {
        CgroupDir(ParentSpec::Fd(file.into()))
    }
}

/// Where a contained child's cgroup is made.
#[derive(Debug, Default)]
pub(crate) enum Mode {
    /// Under the caller's own cgroup; the session fallback if it cannot be
    /// written (unless required).
    #[default]
    Auto,
    /// Under the given cgroup; never falls back.
    In(CgroupDir),
    /// The session fallback, asked for.
    Session,
}

/// Limits written into the child's cgroup before it starts.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    pub memory_max: Option<u64>,
    pub pids_max: Option<u64>,
    /// `(quota, period)` in microseconds.
    pub cpu_max: Option<(u64, u64)>,
}

impl Limits {
    pub(crate) fn is_empty(&self) -> bool {
        *self == Limits::default()
    }
}

/// The containment settings of a command.
#[derive(Debug, Default)]
pub(crate) struct Contain {
    pub enabled: bool,
    pub mode: Mode,
    pub require: bool,
    pub limits: Limits,
    /// The parent cgroup, opened by the first contained spawn.
    pub parent: Option<Arc<ParentDir>>,
}

impl Contain {
    pub(crate) fn try_clone(&self) -> std::io::Result<Contain> {
        let mode = match &self.mode {
            Mode::Auto => Mode::Auto,
            Mode::Session => Mode::Session,
            Mode::In(CgroupDir(ParentSpec::Path(p))) => {
                Mode::In(CgroupDir(ParentSpec::Path(p.clone())))
            }
            Mode::In(CgroupDir(ParentSpec::Fd(fd))) => {
                Mode::In(CgroupDir(ParentSpec::Fd(fd.try_clone()?)))
            }
        };
        Ok(Contain {
            enabled: self.enabled,
            mode,
            require: self.require,
            limits: self.limits,
            parent: self.parent.clone(),
        })
    }
}

impl Command {
    fn contain_mut(&mut self) -> &mut Contain {
        self.contain.get_or_insert_with(Box::default)
    }

    /// Starts the child in a cgroup of its own, so that it and everything
    /// it starts (grandchildren that changed session or process group
    /// included) can be killed ([`Child::kill_tree`](crate::Child::kill_tree)),
    /// waited for ([`Child::wait_tree`](crate::Child::wait_tree)), frozen and
    /// measured as one.
    ///
    /// The cgroup is created under the caller's own cgroup (the `0::` line
    /// of `/proc/self/cgroup`, found through `/proc/self/mountinfo`), or
    /// under [`contain_in`](Self::contain_in)'s, and the child is placed in
    /// it by `clone3(CLONE_INTO_CGROUP)`: it never runs outside, and the
    /// spawn stays on the vfork path. When the `Child` is dropped and its
    /// tree is empty, the cgroup is kept for this command's next spawn (a
    /// few at most; making a cgroup costs more than the spawn of a small
    /// program) and removed with the command, or at exit; a tree still
    /// running is left to run, and its cgroup removed by a background
    /// thread as soon as it empties.
    ///
    /// Where no cgroup v2 can be written, the child gets the fallback
    /// instead: a new session, with the caller as child subreaper. It
    /// cannot catch everything (see docs/trees.md);
    /// [`require_contained`](Self::require_contained) turns it into an
    /// error. The child is a session leader in the fallback; with a cgroup
    /// its session is untouched.
    pub fn contain(&mut self, on: bool) -> &mut Command {
        self.contain_mut().enabled = on;
        self.changed()
    }

    /// [`contain`](Self::contain) with the child's cgroup made under `dir`
    /// (a cgroup2 directory this process may write, given as a path or an
    /// open fd) instead of the caller's own cgroup. A failure to use it is
    /// an error, never the fallback.
    ///
    /// A cgroup that enables controllers for its children (`memory`,
    /// `pids`, `cpu` in its `cgroup.subtree_control`) may hold no process
    /// itself (cgroup v2's "no internal processes" rule): to use
    /// [limits](Self::memory_max), give a cgroup that holds no process of
    /// its own, e.g. a systemd unit with `Delegate=yes` whose service moved
    /// itself into a leaf below it.
    pub fn contain_in(&mut self, dir: impl Into<CgroupDir>) -> &mut Command {
        let contain = self.contain_mut();
        contain.enabled = true;
        contain.mode = Mode::In(dir.into());
        contain.parent = None;
        self.changed()
    }

    /// [`contain`](Self::contain) with the fallback (new session and
    /// subreaper) even where a cgroup could be made.
    pub fn contain_session(&mut self) -> &mut Command {
        let contain = self.contain_mut();
        contain.enabled = true;
        contain.mode = Mode::Session;
        contain.parent = None;
        self.changed()
    }

    /// With `true`, a contained spawn that cannot make a cgroup fails
    /// (`ErrorKind::Unsupported` or the system call's error, naming the
    /// step) instead of using the session fallback, as
    /// [`require_vfork`](Self::require_vfork) does for `fork`.
    pub fn require_contained(&mut self, on: bool) -> &mut Command {
        self.contain_mut().require = on;
        self.changed()
    }

    /// Caps the tree's memory (`memory.max`, bytes). Needs containment in a
    /// cgroup and the `memory` controller offered to the child's cgroup;
    /// fastspawn enables it in the parent's `cgroup.subtree_control` when
    /// the parent offers it, and otherwise fails, naming the controller.
    pub fn memory_max(&mut self, bytes: u64) -> &mut Command {
        self.contain_mut().limits.memory_max = Some(bytes);
        self.changed()
    }

    /// Caps the number of processes of the tree (`pids.max`); as
    /// [`memory_max`](Self::memory_max), with the `pids` controller.
    pub fn pids_max(&mut self, max: u64) -> &mut Command {
        self.contain_mut().limits.pids_max = Some(max);
        self.changed()
    }

    /// Caps the tree's CPU time to `quota_us` per `period_us`
    /// (`cpu.max`); as [`memory_max`](Self::memory_max), with the `cpu`
    /// controller.
    pub fn cpu_max(&mut self, quota_us: u64, period_us: u64) -> &mut Command {
        if period_us == 0 {
            return self.reject("cpu_max: the period is 0".into());
        }
        self.contain_mut().limits.cpu_max = Some((quota_us, period_us));
        self.changed()
    }

    /// Kills the child when the last pidfd `clone3` returned for it is
    /// closed (`CLONE_PIDFD_AUTOKILL`, Linux 7.1): it then dies with the
    /// `Child` and with its parent, even if the parent crashes, without
    /// `pdeathsig`'s tie to the spawning thread. The kernel support is
    /// probed once; elsewhere the spawn fails with
    /// `ErrorKind::Unsupported`. Only the `clone3` engine can ask for it,
    /// and the child keeps a pidfd even for `status()` and `output()`.
    /// Only the child dies: its own children do not (use
    /// [`contain`](Self::contain) for them).
    ///
    /// The kernel requires two more flags, which come with it: the kernel
    /// reaps the child (`CLONE_AUTOREAP`; `wait` then reads the status from
    /// the pidfd, and the pid is free again once the child exits), and the
    /// child has `no_new_privs` (`CLONE_NNP`: a setuid program does not run
    /// with raised privileges). See `docs/trees.md`.
    pub fn autokill(&mut self, on: bool) -> &mut Command {
        self.opts.autokill = on;
        self.changed()
    }
}
