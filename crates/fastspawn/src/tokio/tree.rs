//! The process-tree methods of an async child (see `crate::tree`).

use std::path::Path;

use super::child::Child;
use crate::child::ExitStatus;
use crate::error::{Error, Result, Step};
use crate::sys::reactor::register_empty_wait;
use crate::tree::empty::EmptyWait;
use crate::tree::{Containment, Tree, Usage};

impl Child {
    fn tree_for(&self, what: &str) -> Result<&Tree> {
        self.tree.as_deref().ok_or_else(|| {
            Error::new(
                &self.program,
                Step::Tree(what.into()),
                std::io::ErrorKind::InvalidInput,
                "the child was not started with Command::contain",
            )
        })
    }

    /// How the child's tree is contained, if it is.
    pub fn containment(&self) -> Option<Containment> {
        self.tree.as_deref().map(Tree::containment)
    }

    /// The directory of the child's own cgroup, when it has one.
    pub fn cgroup_path(&self) -> Option<&Path> {
        self.tree.as_deref()?.path()
    }

    /// Signals every process of the tree; see [`crate::Child::kill_tree`].
    pub fn kill_tree(&mut self, signal: i32) -> Result<()> {
        let root_reaped = self.status.is_some();
        self.tree_for("kill_tree")?
            .kill(&self.program, signal, root_reaped)
    }

    /// The pids of the tree's live processes, sorted.
    pub fn tree_pids(&self) -> Result<Vec<u32>> {
        let root_reaped = self.status.is_some();
        self.tree_for("tree_pids")?.pids(&self.program, root_reaped)
    }

    /// Freezes the tree; see [`crate::Child::freeze`]. Blocks the thread
    /// until the kernel reports the tree frozen (usually microseconds).
    pub fn freeze(&mut self) -> Result<()> {
        self.tree_for("freeze")?.set_frozen(&self.program, true)
    }

    /// Lets a frozen tree run again.
    pub fn thaw(&mut self) -> Result<()> {
        self.tree_for("thaw")?.set_frozen(&self.program, false)
    }

    /// The tree's CPU time, memory and process counts; see [`crate::Child::usage`].
    pub fn usage(&self) -> Result<Usage> {
        self.tree_for("usage")?.usage(&self.program)
    }

    /// Waits until every process of the tree has exited, without blocking
    /// the runtime, then waits for the child and returns its status. With a
    /// cgroup, `cgroup.events` is watched on the reactor; in the session
    /// fallback, the scan runs on tokio's blocking pool. Cancel-safe.
    pub async fn wait_tree(&mut self) -> Result<ExitStatus> {
        drop(self.stdin.take());
        let root_reaped = self.status.is_some();
        let tree = self.tree_for("wait_tree")?;
        let fail = |e: std::io::Error| {
            Error::io(
                &self.program,
                Step::Tree("wait_tree (cgroup.events)".into()),
                e,
            )
        };
        if let Some(dir) = tree.cgroup_dir() {
            // Registered before the first check, so no change is missed
            // (tree/empty.rs: member pidfds and cgroup.events in one epoll set).
            let mut wait = register_empty_wait(EmptyWait::new(dir).map_err(fail)?).map_err(fail)?;
            while !wait.get_mut().check(dir).map_err(fail)? {
                let mut ready = wait.readable_mut().await.map_err(fail)?;
                ready.clear_ready();
            }
        } else if let Some(session) = tree.session() {
            let session = std::sync::Arc::clone(session);
            ::tokio::task::spawn_blocking(move || session.wait_empty(root_reaped))
                .await
                .map_err(|e| fail(std::io::Error::other(e)))?
                .map_err(fail)?;
        }
        self.wait().await
    }
}
