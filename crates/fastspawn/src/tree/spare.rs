//! Reusing emptied cgroups.
//!
//! Making a cgroup and removing it costs two to four times a spawn of a
//! small static program (`mkdir` ~32 µs and `rmdir` ~23 µs on the test
//! machine under load, where the spawn+wait is ~120 µs), while placing a
//! child into an existing cgroup is nearly free. So when a `Child` is
//! dropped and its tree is empty, its cgroup is kept (up to `MAX_SPARES`
//! per parent) and handed to the next contained spawn under the same
//! parent cgroup with the same limits, from any command (a task runner
//! builds a command per task; see `shared_parent` in `mod.rs`), which then
//! makes no directory at all.
//!
//! A reused cgroup must look new: its `cpu.stat` keeps counting, so the
//! values at hand-over are kept as a baseline that `usage` subtracts; peaks
//! (`memory.peak`, `pids.peak`) cannot be reset, so a parent that enables
//! the memory or pids controller for its children never reuses; a cgroup
//! that was ever frozen is not reused either. Spares are removed when the
//! last command and child using their parent are dropped, and at process
//! exit (an
//! `atexit` handler), so none is left behind by a process that exits
//! normally.

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::{Arc, Mutex, Once, Weak};

use super::ParentDir;
use crate::per_process::PerProcess;
use crate::sys::cgroup;

/// At most this many spares per parent: enough for a task runner's
/// turnover (tasks end and start around the same time), few enough that
/// an idle process keeps little.
const MAX_SPARES: usize = 16;

/// `cpu.stat` times in microseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct CpuTimes {
    pub usage: u64,
    pub user: u64,
    pub system: u64,
}

impl CpuTimes {
    pub(crate) fn read(dir: BorrowedFd<'_>) -> std::io::Result<CpuTimes> {
        Ok(CpuTimes::parse(&cgroup::read(dir, "cpu.stat")?))
    }

    fn parse(stat: &str) -> CpuTimes {
        let get = |key| cgroup::key(stat, key).unwrap_or(0);
        CpuTimes {
            usage: get("usage_usec"),
            user: get("user_usec"),
            system: get("system_usec"),
        }
    }
}

/// `cgroup.events` and `cpu.stat` of a child's cgroup, kept open so that
/// the check at drop costs two `pread`s, and its `cgroup.procs` held so
/// that each spawn into it finds that file's inode (`cgroup::hold_procs`).
pub(crate) struct Watch {
    events: cgroup::Events,
    cpu: OwnedFd,
    _procs: Option<OwnedFd>,
}

impl Watch {
    pub(crate) fn open(dir: BorrowedFd<'_>) -> std::io::Result<Watch> {
        Ok(Watch {
            events: cgroup::Events::open(dir)?,
            cpu: cgroup::open_file(dir, "cpu.stat")?,
            _procs: cgroup::hold_procs(dir).ok(),
        })
    }

    /// If the cgroup is empty, its `cpu.stat` now (its baseline as a spare).
    pub(crate) fn emptied(&self) -> Option<CpuTimes> {
        if self.events.read().ok()?.populated {
            return None;
        }
        cgroup::read_small(self.cpu.as_fd(), CpuTimes::parse).ok()
    }
}

/// An empty cgroup ready for the next child.
pub(crate) struct Spare {
    pub name: String,
    pub dir: OwnedFd,
    pub baseline: CpuTimes,
    pub watch: Watch,
}

/// The spares of one parent.
#[derive(Default)]
pub(crate) struct Spares {
    list: Mutex<Vec<Spare>>,
}

impl Spares {
    pub(crate) fn take(&self) -> Option<Spare> {
        self.list.lock().unwrap_or_else(|e| e.into_inner()).pop()
    }

    /// Keeps `spare` unless there are enough; gives it back then.
    pub(crate) fn offer(&self, spare: Spare) -> Result<(), Spare> {
        let mut list = self.list.lock().unwrap_or_else(|e| e.into_inner());
        if list.len() >= MAX_SPARES {
            return Err(spare);
        }
        list.push(spare);
        Ok(())
    }

    /// Removes every spare of `parent` (`try_lock`: at exit another thread
    /// may hold the lock forever).
    pub(crate) fn remove_all(&self, parent: BorrowedFd<'_>) {
        let Ok(mut list) = self.list.try_lock() else {
            return;
        };
        for spare in list.drain(..) {
            let _ = cgroup::rmdir(parent, &spare.name);
        }
    }
}

/// What makes two commands' parents the same one: the directory and the
/// limits their children's cgroups get.
pub(crate) type Key = (std::path::PathBuf, super::options::Limits);

/// Every parent made in this process, held weakly: for the exit hook, and,
/// by key, for the next command that asks for the same one (a task runner
/// builds a command per task: this is how its children share spares).
/// A parent given as an fd has no key and is its command's own.
/// Per process: a forked child's exit must not remove its parent's spares.
static PARENTS: PerProcess<Mutex<Parents>> = PerProcess::new();

type Parents = Vec<(Option<Key>, Weak<ParentDir>)>;

/// The live parent with `key`, or the one `open` makes, remembered so that
/// its spares are removed at process exit.
pub(crate) fn parent(
    key: Option<Key>,
    open: impl FnOnce() -> crate::error::Result<ParentDir>,
) -> crate::error::Result<Arc<ParentDir>> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| crate::sys::cgroup::at_exit(remove_spares_at_exit));
    let mut parents = PARENTS
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    parents.retain(|(_, p)| p.strong_count() > 0);
    if let Some(key) = &key {
        let live = parents
            .iter()
            .filter(|(k, _)| k.as_ref() == Some(key))
            .find_map(|(_, p)| p.upgrade());
        if let Some(parent) = live {
            return Ok(parent);
        }
    }
    let parent = Arc::new(open()?);
    parents.push((key, Arc::downgrade(&parent)));
    Ok(parent)
}

extern "C" fn remove_spares_at_exit() {
    let Some(Ok(parents)) = PARENTS.get().map(Mutex::try_lock) else {
        return;
    };
    for parent in parents.iter().filter_map(|(_, p)| p.upgrade()) {
        parent.spares.remove_all(parent.fd.as_fd());
    }
}
