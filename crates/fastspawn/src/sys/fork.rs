//! `Engine::Fork`: a child with a copy of the parent's memory, kept to
//! measure what the other engines save and as the last resort of `Auto`
//! where the kernel or a seccomp filter refuses `CLONE_VM`. Its cost grows
//! with the parent's memory: the kernel copies the page tables and takes a
//! reference on every mapped page.
//!
//! # Safety
//!
//! The child of a multithreaded parent may only run async-signal-safe code;
//! it runs the same raw-syscall steps as the clone engines (`child.rs`).
//! The process is created with a raw system call, not glibc's `fork()`, so
//! no `pthread_atfork` handler runs (the child never calls into libc, as
//! with `posix_spawn`, which runs none either). Memory is not shared, so a
//! failure comes back through a close-on-exec pipe: end of file means the
//! `execve` succeeded.
//!
//! A command with `pre_exec` closures is the exception: user code may call
//! into libc, so it gets glibc's `fork()` (atfork handlers included), with
//! every signal blocked across that call.
//!
//! No handler of the parent may run in the child. With `clone3` the kernel
//! resets every caught signal at creation (`CLONE_CLEAR_SIGHAND`), so the
//! parent blocks nothing and stays responsive to signals during the page
//! table copy, however long it takes. Without `clone3`, every signal is
//! blocked across the `clone` system call only, and unblocked in the
//! parent as soon as the call returns; the child resets the handlers
//! itself before it unblocks (the plan says so).

use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

use super::child::{ChildPlan, ErrorSlot};
use super::clone::{CLONE_CLEAR_SIGHAND, CloneArgs, Spawned, with_signals_blocked};

/// Creates the child and runs the plan in it. `report_pipe` is the pipe
/// whose write end the plan names; this closes it in the parent and reads
/// the child's report into `slot`.
pub(crate) fn fork(
    plan: &ChildPlan<'_>,
    report_pipe: (OwnedFd, OwnedFd),
    slot: &ErrorSlot,
    want_pidfd: bool,
) -> Result<Spawned, i32> {
    let (reader, writer) = report_pipe;
    debug_assert_eq!(plan.report_pipe, Some(writer.as_raw_fd()));
    let forked = if plan.pre_exec.is_some() {
        libc_fork(plan)
    } else if crate::engine::clone3_usable(false) && !plan.reset_handlers {
        match clone3_fork(plan, want_pidfd) {
            // No fd left for the pidfd: start the child without one.
            Err(libc::EMFILE | libc::ENFILE) if want_pidfd => clone3_fork(plan, false),
            other => other,
        }
    } else {
        clone_fork(plan)
    };
    drop(writer);
    let mut spawned = forked?;
    let mut report = [0u8; 8];
    let mut file = std::fs::File::from(reader);
    let mut read = 0;
    while read < report.len() {
        match file.read(&mut report[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    if read == report.len() {
        let step = u32::from_ne_bytes([report[0], report[1], report[2], report[3]]);
        let errno = i32::from_ne_bytes([report[4], report[5], report[6], report[7]]);
        slot.step.store(step, std::sync::atomic::Ordering::Relaxed);
        slot.errno
            .store(errno, std::sync::atomic::Ordering::Relaxed);
    }
    if want_pidfd && spawned.pidfd.is_none() {
        spawned.pidfd = super::wait::pidfd_open(spawned.pid).ok();
    }
    Ok(spawned)
}

/// `clone3(CLONE_CLEAR_SIGHAND[|CLONE_PIDFD])` without `CLONE_VM`: a fork
/// whose child starts with default handlers, so nothing is blocked.
fn clone3_fork(plan: &ChildPlan<'_>, want_pidfd: bool) -> Result<Spawned, i32> {
    let mut pidfd: i32 = -1;
    let mut args = CloneArgs {
        flags: CLONE_CLEAR_SIGHAND,
        pidfd: &mut pidfd as *mut i32 as u64,
        exit_signal: libc::SIGCHLD as u64,
        ..CloneArgs::default()
    };
    if want_pidfd {
        args.flags |= libc::CLONE_PIDFD as u64;
    }
    // SAFETY: without CLONE_VM or a new stack the child continues here on
    // a copy of this thread's memory, like fork(); it only calls child::run,
    // which makes raw system calls and ends in execve or exit_group.
    let ret = unsafe {
        libc::syscall(
            libc::SYS_clone3,
            &mut args as *mut CloneArgs,
            std::mem::size_of::<CloneArgs>(),
        )
    };
    if ret == 0 {
        super::child::run(plan);
    }
    if ret < 0 {
        return Err(std::io::Error::last_os_error()
            .raw_os_error()
            .unwrap_or(libc::EINVAL));
    }
    // SAFETY: the kernel stored a new pidfd that nothing else owns.
    let pidfd = (want_pidfd && pidfd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(pidfd) });
    Ok(Spawned {
        pid: ret as i32,
        pidfd,
    })
}

/// glibc's `fork()`, for `pre_exec` closures: user code may call into libc,
/// which needs what `fork()` does for the child (the cached thread id set,
/// malloc's locks made usable by its atfork handlers). Every signal is
/// blocked across the call only; the child resets the handlers.
fn libc_fork(plan: &ChildPlan<'_>) -> Result<Spawned, i32> {
    let pid = with_signals_blocked(plan, |plan| {
        // SAFETY: the child runs child::run: raw system calls, then the
        // caller's closures under the contract of the unsafe `pre_exec`.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            super::child::run(plan);
        }
        pid as i64
    })?;
    Ok(Spawned {
        pid: pid as i32,
        pidfd: None,
    })
}

/// `clone(SIGCHLD)`, with every signal blocked across the system call only.
fn clone_fork(plan: &ChildPlan<'_>) -> Result<Spawned, i32> {
    let pid = with_signals_blocked(plan, |plan| {
        // SAFETY: as for clone3_fork. On x86_64 and aarch64 the arguments
        // are (flags, new stack, parent tid, child tid | tls, ...): no new
        // stack and no tid pointers.
        let ret = unsafe { libc::syscall(libc::SYS_clone, libc::SIGCHLD, 0, 0, 0, 0) };
        if ret == 0 {
            super::child::run(plan);
        }
        ret
    })?;
    Ok(Spawned {
        pid: pid as i32,
        pidfd: None,
    })
}

impl crate::Command {
    /// Runs `f` in the child after every other step, right before
    /// `execve` (std's `CommandExt::pre_exec`, and how command-fds and
    /// most crates that extend std's `Command` work). An error from `f`
    /// fails the spawn with [`Step::PreExec`](crate::Step::PreExec).
    ///
    /// User code cannot run in a child that shares the parent's memory, so
    /// a command with `pre_exec` runs only on [`Engine::Fork`](crate::Engine::Fork)
    /// (which `Auto` then picks; any other engine, or
    /// [`require_vfork`](crate::Command::require_vfork), makes the spawn fail
    /// with `Unsupported`), and pays fork's cost, which grows with the
    /// parent's memory. This is the migration path: move what the closure
    /// does to fastspawn's own options ([`fd`](crate::Command::fd),
    /// [`setsid`](crate::Command::setsid), [`pdeathsig`](crate::Command::pdeathsig),
    /// [`rlimit`](crate::Command::rlimit)...) and it stays on the vfork path.
    ///
    /// # Safety
    ///
    /// As with std: `f` runs in a forked copy of a possibly multithreaded
    /// process, so it may only do what is async-signal-safe (no allocation,
    /// no locks that another thread may have held at the fork).
    pub unsafe fn pre_exec<F>(&mut self, f: F) -> &mut crate::Command
    where
        F: FnMut() -> std::io::Result<()> + Send + Sync + 'static,
    {
        self.pre_exec.push(Box::new(f));
        self.prepared = None;
        self
    }
}

#[cfg(feature = "tokio")]
impl crate::tokio::Command {
    /// [`crate::Command::pre_exec`] (tokio's `Command::pre_exec`): the
    /// closure runs in a forked child before `execve`, so the spawn uses
    /// the Fork engine. `spawn_many` cannot copy such a command.
    ///
    /// # Safety
    ///
    /// As for [`crate::Command::pre_exec`].
    pub unsafe fn pre_exec<F>(&mut self, f: F) -> &mut crate::tokio::Command
    where
        F: FnMut() -> std::io::Result<()> + Send + Sync + 'static,
    {
        // SAFETY: the caller's promise, passed on.
        unsafe { self.as_fastspawn_mut().pre_exec(f) };
        self
    }
}
