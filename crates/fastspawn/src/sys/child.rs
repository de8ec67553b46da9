//! The code that runs in the child between the clone and the `execve`.
//!
//! # Safety: what this code may not do
//!
//! With the clone engines the child shares the parent's memory (`CLONE_VM`)
//! while the spawning thread is suspended (`CLONE_VFORK`); other threads of
//! the parent keep running. So, from [`run`] to the `execve`, the child:
//!
//! - allocates nothing and takes no lock: another thread may hold the
//!   allocator's lock, and the child would deadlock or corrupt the heap;
//! - calls no libc function that may touch `errno`, a lock or thread state:
//!   only raw system calls from [`raw`](super::raw), whose errors come back
//!   as return values;
//! - never panics (no indexing, no unchecked arithmetic, no `unwrap`): the
//!   unwinder would run on the parent's data;
//! - never returns: it ends in `execve` or in `exit_group(127)`, on its own
//!   stack, so it cannot clobber a parent frame;
//! - writes to shared memory only through the plan's error slot;
//! - is not instrumented by AddressSanitizer (in an ASan build every
//!   function here carries `sanitize(address = "off")`, but those marked
//!   `#[inline(always)]`, which take the attribute of the function they are
//!   inlined into, and are only called here): ASan would mark redzones
//!   on the reused child stack that no return ever clears, and its runtime
//!   would take locks in a process that shares the parent's memory;
//! - runs no handler of the parent: handlers are reset to `SIG_DFL` by the
//!   kernel (`CLONE_CLEAR_SIGHAND`), or, for plain `clone`, by
//!   [`reset_handlers`] while every signal is still blocked (the parent
//!   blocks them around that clone); the program's signal mask is set as
//!   the last step before `execve`.
//!
//! The steps run in a fixed order, each failure goes to one place that
//! records `(step, errno)` and exits with status 127:
//!
//! 1. signal dispositions; 2. `setsid`, `setpgid`; 3. `setgroups`, `setgid`,
//!    `setuid`; 4. `chdir`; 5. `umask`; 6. joining the cgroup (engines
//!    without `CLONE_INTO_CGROUP`); 7. taking a private fd table (when
//!    created with `CLONE_FILES`), fd moves, then closing every fd not
//!    kept; 8. rlimits; 9. pdeathsig (after `setuid`, which clears it), then
//!    check the parent is still there; 10. signal mask; 11. `execve`.

use std::ffi::{CStr, c_char, c_void};
use std::sync::atomic::{AtomicI32, AtomicU32, Ordering};

use super::raw::{SIGSET_SIZE, sys};

/// Where the child reports a failure. Lives in the parent's memory; with
/// `Engine::Fork` the child also sends it through a pipe.
#[derive(Debug, Default)]
pub(crate) struct ErrorSlot {
    pub step: AtomicU32,
    pub errno: AtomicI32,
}

/// Child step codes stored in [`ErrorSlot::step`]; 0 means no failure.
pub(crate) mod step {
    pub const SIGNALS: u32 = 1;
    pub const SETSID: u32 = 2;
    pub const SETPGID: u32 = 3;
    pub const SETGROUPS: u32 = 4;
    pub const SETGID: u32 = 5;
    pub const SETUID: u32 = 6;
    pub const CHDIR: u32 = 7;
    pub const CGROUP: u32 = 8;
    pub const FDS: u32 = 9;
    pub const CLOSE_FDS: u32 = 10;
    pub const RLIMIT: u32 = 11;
    pub const PDEATHSIG: u32 = 12;
    pub const EXEC: u32 = 13;
    pub const PRE_EXEC: u32 = 14;
}

/// One fd operation, computed by `fdplan` in the parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FdOp {
    /// `dup3(src, dst, 0)`: `dst` is the child's fd, inherited by the program.
    Dup { src: i32, dst: i32 },
    /// `dup3(src, dst, O_CLOEXEC)`: a temporary that gets `src` out of the way.
    Park { src: i32, dst: i32 },
    /// `fcntl(fd, F_SETFD, 0)`: keep an fd that is already in place.
    Keep { fd: i32 },
}

/// `struct rlimit64`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rlimit64 {
    pub cur: u64,
    pub max: u64,
}

/// Everything the child needs, prepared by the parent before the clone.
#[derive(Clone)]
pub(crate) struct ChildPlan<'a> {
    pub path: &'a CStr,
    /// NULL-terminated arrays whose strings outlive the spawn.
    pub argv: *const *const c_char,
    pub envp: *const *const c_char,
    pub cwd: Option<&'a CStr>,
    /// The child was created with `CLONE_FILES` (sharing the parent's fd
    /// table, so the clone copies nothing): before touching any fd it takes
    /// a private table holding only the fds below this number, with
    /// `close_range(n, ~0, CLOSE_RANGE_UNSHARE)` (Linux 5.9). The parent
    /// puts every fd the child needs below it.
    pub unshare_below: Option<u32>,
    pub fd_ops: &'a [FdOp],
    /// Inclusive fd ranges to close after the moves.
    pub close: &'a [(u32, u32)],
    /// `close_range` exists; otherwise close one by one up to `nofile`.
    pub close_range: bool,
    pub nofile: u32,
    pub setsid: bool,
    pub pgroup: Option<i32>,
    pub groups: Option<&'a [u32]>,
    /// `setgroups(0)` before `setuid` when no groups were given (EPERM ignored).
    pub drop_groups: bool,
    pub gid: Option<u32>,
    pub uid: Option<u32>,
    pub umask: Option<u32>,
    pub rlimits: &'a [(i32, Rlimit64)],
    /// An fd on the cgroup's `cgroup.procs`, when the engine could not place
    /// the child at clone time.
    pub cgroup_procs: Option<i32>,
    pub pdeathsig: i32,
    pub parent_pid: i32,
    /// Reset every caught signal to `SIG_DFL` (engines without `CLONE_CLEAR_SIGHAND`).
    pub reset_handlers: bool,
    /// Signals set to `SIG_DFL` whatever their disposition (bit n-1 = signal n).
    pub sigdefault: u64,
    /// The program's signal mask; `None`: the spawning thread's, which the
    /// child already has (engines that block signals around the clone put
    /// the thread's own mask here before cloning).
    pub sigmask: Option<u64>,
    pub report: &'a ErrorSlot,
    /// `Engine::Fork`: the write end of the error pipe (memory is not shared).
    pub report_pipe: Option<i32>,
    /// The command's `pre_exec` closures: set only for the Fork engine and
    /// `Command::exec`, where this code runs in a process of its own.
    pub pre_exec: Option<*mut Vec<PreExec>>,
    /// Mark unmapped fds close-on-exec instead of closing them
    /// (`Command::exec`, which must leave the process usable on failure).
    pub cloexec_only: bool,
    /// Extra `clone3` flags (`CLONE_PIDFD_AUTOKILL`).
    pub clone_flags: u64,
}

/// A closure of `Command::pre_exec`.
pub(crate) type PreExec = Box<dyn FnMut() -> std::io::Result<()> + Send + Sync>;

/// `Command::exec`: runs the steps in the calling process and `execve`s;
/// returns the failed step and errno.
pub(crate) fn exec_in_place(plan: &ChildPlan<'_>) -> (u32, i32) {
    let Err(failure) = steps(plan);
    failure
}

/// Entry point for the `clone3` trampoline.
#[cfg_attr(fastspawn_asan, sanitize(address = "off"))]
pub(crate) extern "C" fn entry(arg: *mut c_void) -> ! {
    // SAFETY: the parent passes a pointer to a ChildPlan that stays alive
    // while it is suspended by CLONE_VFORK, which lasts until execve or exit.
    let plan = unsafe { &*(arg as *const ChildPlan<'_>) };
    run(plan)
}

/// Entry point with the signature glibc's `clone()` wrapper expects.
#[cfg_attr(fastspawn_asan, sanitize(address = "off"))]
pub(crate) extern "C" fn entry_c(arg: *mut c_void) -> libc::c_int {
    entry(arg)
}

/// Runs the steps and never returns.
#[cfg_attr(fastspawn_asan, sanitize(address = "off"))]
pub(crate) fn run(plan: &ChildPlan<'_>) -> ! {
    let Err((failed_step, errno)) = steps(plan);
    plan.report.step.store(failed_step, Ordering::Relaxed);
    plan.report.errno.store(errno, Ordering::Relaxed);
    if let Some(fd) = plan.report_pipe {
        let msg = [failed_step, errno as u32];
        // SAFETY: msg is 8 readable bytes; a failed write only loses the
        // detail, the parent still sees exit status 127.
        unsafe { sys!(libc::SYS_write, fd, msg.as_ptr(), 8) };
    }
    loop {
        // SAFETY: exit_group ends this process (the child only).
        unsafe { sys!(libc::SYS_exit_group, 127) };
    }
}

enum Never {}

/// Turns a raw result into `Err((step, errno))` when negative.
#[inline(always)]
fn check(step: u32, ret: isize) -> Result<isize, (u32, i32)> {
    if ret < 0 {
        Err((step, ret.wrapping_neg() as i32))
    } else {
        Ok(ret)
    }
}

#[cfg_attr(fastspawn_asan, sanitize(address = "off"))]
fn steps(p: &ChildPlan<'_>) -> Result<Never, (u32, i32)> {
    if p.reset_handlers {
        reset_handlers()?;
    }
    let mut sigdefault = p.sigdefault;
    while sigdefault != 0 {
        let signal = sigdefault.trailing_zeros() as usize + 1;
        sigdefault &= sigdefault.wrapping_sub(1);
        set_default(signal)?;
    }

    if p.setsid {
        // SAFETY: setsid takes no arguments.
        check(step::SETSID, unsafe { sys!(libc::SYS_setsid) })?;
    }
    if let Some(pgroup) = p.pgroup {
        // SAFETY: plain integers.
        check(step::SETPGID, unsafe { sys!(libc::SYS_setpgid, 0, pgroup) })?;
    }
    if let Some(groups) = p.groups {
        // SAFETY: the slice is live parent memory of groups.len() gid_t.
        check(step::SETGROUPS, unsafe {
            sys!(libc::SYS_setgroups, groups.len(), groups.as_ptr())
        })?;
    }
    if p.drop_groups {
        // SAFETY: an empty group list; EPERM (not privileged) is not an error.
        let ret = unsafe { sys!(libc::SYS_setgroups, 0, 0) };
        if ret < 0 && ret != -(libc::EPERM as isize) {
            return Err((step::SETGROUPS, ret.wrapping_neg() as i32));
        }
    }
    if let Some(gid) = p.gid {
        // SAFETY: a raw setgid affects this process only (glibc's wrapper
        // would signal every thread of the parent).
        check(step::SETGID, unsafe { sys!(libc::SYS_setgid, gid) })?;
    }
    if let Some(uid) = p.uid {
        // SAFETY: as for setgid.
        check(step::SETUID, unsafe { sys!(libc::SYS_setuid, uid) })?;
    }
    if let Some(cwd) = p.cwd {
        // SAFETY: cwd is a live NUL-terminated string.
        check(step::CHDIR, unsafe { sys!(libc::SYS_chdir, cwd.as_ptr()) })?;
    }
    if let Some(mask) = p.umask {
        // SAFETY: plain integer.
        unsafe { sys!(libc::SYS_umask, mask) };
    }
    if let Some(fd) = p.cgroup_procs {
        // SAFETY: writing "0" to cgroup.procs moves the writer; 1 byte from a static.
        check(step::CGROUP, unsafe {
            sys!(libc::SYS_write, fd, c"0".as_ptr(), 1)
        })?;
    }

    if let Some(first) = p.unshare_below {
        // SAFETY: integers. Until this call the fd table is the parent's
        // (CLONE_FILES) and nothing before it opened, closed or dup'ed an fd;
        // after it the table is this child's own.
        check(step::CLOSE_FDS, unsafe {
            sys!(
                libc::SYS_close_range,
                first,
                u32::MAX,
                libc::CLOSE_RANGE_UNSHARE
            )
        })?;
    }
    for op in p.fd_ops {
        // SAFETY: dup3 and fcntl on integers; a bad fd is an error, not UB.
        let ret = unsafe {
            match *op {
                FdOp::Dup { src, dst } => sys!(libc::SYS_dup3, src, dst, 0),
                FdOp::Park { src, dst } => sys!(libc::SYS_dup3, src, dst, libc::O_CLOEXEC),
                FdOp::Keep { fd } => sys!(libc::SYS_fcntl, fd, libc::F_SETFD, 0),
            }
        };
        check(step::FDS, ret)?;
    }
    close_fds(p)?;

    for (resource, limit) in p.rlimits {
        // SAFETY: limit points to a live rlimit64; pid 0 is this process.
        check(step::RLIMIT, unsafe {
            sys!(
                libc::SYS_prlimit64,
                0,
                *resource,
                limit as *const Rlimit64,
                0
            )
        })?;
    }

    if p.pdeathsig != 0 {
        // SAFETY: plain integers.
        check(step::PDEATHSIG, unsafe {
            sys!(libc::SYS_prctl, libc::PR_SET_PDEATHSIG, p.pdeathsig)
        })?;
        // The parent may have died before the prctl: then no signal comes.
        // SAFETY: no arguments.
        if unsafe { sys!(libc::SYS_getppid) } != p.parent_pid as isize {
            return Err((step::PDEATHSIG, libc::ESRCH));
        }
    }

    if let Some(mask) = &p.sigmask {
        // SAFETY: the set is a live u64; the old set is not wanted.
        check(step::SIGNALS, unsafe {
            sys!(
                libc::SYS_rt_sigprocmask,
                libc::SIG_SETMASK,
                mask as *const u64,
                0,
                SIGSET_SIZE
            )
        })?;
    }

    if let Some(hooks) = p.pre_exec {
        // SAFETY: only the Fork engine and `Command::exec` set this (spawn.rs
        // refuses it for the others), so this process owns its memory (a
        // copy, or the caller's own) and nothing else uses the closures now.
        // Running user code here is the caller's promise (`pre_exec` is unsafe).
        let hooks = unsafe { &mut *hooks };
        for hook in hooks.iter_mut() {
            // A panic must not unwind into the copy of the caller's frames
            // (the child would go on running the parent's code): abort, as
            // std's child does.
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(hook)) {
                Ok(Ok(())) => {}
                Ok(Err(err)) => {
                    return Err((step::PRE_EXEC, err.raw_os_error().unwrap_or(libc::EINVAL)));
                }
                Err(_) => std::process::abort(),
            }
        }
    }

    // SAFETY: path, argv and envp are live, NUL-terminated, prepared by the parent.
    let ret = unsafe { sys!(libc::SYS_execve, p.path.as_ptr(), p.argv, p.envp) };
    check(step::EXEC, ret)?;
    // execve only returns on failure.
    Err((step::EXEC, libc::EINVAL))
}

#[cfg_attr(fastspawn_asan, sanitize(address = "off"))]
fn set_default(signal: usize) -> Result<(), (u32, i32)> {
    match super::raw::sigaction(signal, Some(libc::SIG_DFL)) {
        // SIGKILL and SIGSTOP cannot be changed: EINVAL is expected for them.
        Ok(_) | Err(libc::EINVAL) => Ok(()),
        Err(errno) => Err((step::SIGNALS, errno)),
    }
}

/// What `CLONE_CLEAR_SIGHAND` does in the kernel: every signal with a
/// handler goes back to `SIG_DFL`; ignored signals stay ignored.
#[cfg_attr(fastspawn_asan, sanitize(address = "off"))]
fn reset_handlers() -> Result<(), (u32, i32)> {
    let mut signal = 1;
    while signal <= 64 {
        if let Ok(handler) = super::raw::sigaction(signal, None) {
            if handler != libc::SIG_DFL && handler != libc::SIG_IGN {
                set_default(signal)?;
            }
        }
        signal += 1;
    }
    Ok(())
}

#[cfg_attr(fastspawn_asan, sanitize(address = "off"))]
fn close_fds(p: &ChildPlan<'_>) -> Result<(), (u32, i32)> {
    for &(first, mut last) in p.close {
        // After the unshare nothing at or above `above` is left but parked
        // temporaries, which are close-on-exec: don't close an empty range.
        if let Some(above) = p.unshare_below {
            if first >= above {
                continue;
            }
            if last >= above {
                last = above - 1;
            }
        }
        if p.cloexec_only {
            cloexec_fds(first, last.min(p.nofile));
            continue;
        }
        if p.close_range {
            // SAFETY: integers; closing fds of this child only: its fd
            // table is private (copied at clone time, or unshared above).
            let ret = unsafe { sys!(libc::SYS_close_range, first, last, 0) };
            if ret == 0 {
                continue;
            }
            if ret != -(libc::ENOSYS as isize) {
                return Err((step::CLOSE_FDS, ret.wrapping_neg() as i32));
            }
        }
        let last = if last > p.nofile { p.nofile } else { last };
        let mut fd = first;
        while fd <= last {
            // SAFETY: closing a possibly unused fd number of the child: EBADF is fine.
            unsafe { sys!(libc::SYS_close, fd) };
            fd = match fd.checked_add(1) {
                Some(next) => next,
                None => break,
            };
        }
    }
    Ok(())
}

/// Marks the fds of a range close-on-exec (`Command::exec`): with
/// `close_range(CLOSE_RANGE_CLOEXEC)` (Linux 5.11), else one by one.
fn cloexec_fds(first: u32, last: u32) {
    // SAFETY: integers; only sets a flag on fds of this process.
    if unsafe {
        sys!(
            libc::SYS_close_range,
            first,
            last,
            libc::CLOSE_RANGE_CLOEXEC
        )
    } == 0
    {
        return;
    }
    let mut fd = first;
    while fd <= last {
        // SAFETY: as above; EBADF for an unused number is fine.
        unsafe { sys!(libc::SYS_fcntl, fd, libc::F_SETFD, libc::FD_CLOEXEC) };
        fd = match fd.checked_add(1) {
            Some(next) => next,
            None => break,
        };
    }
}
