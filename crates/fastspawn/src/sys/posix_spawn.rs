//! `Engine::PosixSpawn`: the C library's `posix_spawn`, driven by the same
//! plan as the other engines, for comparison and as a fall-back where the
//! kernel refuses both clones (a strict seccomp filter).
//!
//! `posix_spawn` has no attribute for uid, gid, groups, rlimits, umask,
//! pdeathsig or cgroups; `spawn.rs` refuses those before coming here. The
//! working directory and the closing of unmapped fds use glibc extensions
//! (`addchdir_np` 2.29, `addclosefrom_np` 2.34) looked up at run time, so
//! the library does not require a recent glibc to load.
//!
//! # Safety
//!
//! The attribute and file-action objects are initialised before use and
//! destroyed on every path by guards; the strings and arrays passed to
//! `posix_spawn` are the prepared ones, alive for the whole call.

use std::ffi::{CStr, c_char, c_int, c_void};
use std::mem::MaybeUninit;

const _: () = assert!(std::mem::size_of::<libc::sigset_t>() >= 8);
use std::sync::OnceLock;

use super::child::{ChildPlan, FdOp};
use super::clone::Spawned;

type AddChdir = unsafe extern "C" fn(*mut libc::posix_spawn_file_actions_t, *const c_char) -> c_int;
type AddClosefrom = unsafe extern "C" fn(*mut libc::posix_spawn_file_actions_t, c_int) -> c_int;

struct Extensions {
    addchdir: Option<AddChdir>,
    addclosefrom: Option<AddClosefrom>,
}

fn extensions() -> &'static Extensions {
    static EXT: OnceLock<Extensions> = OnceLock::new();
    EXT.get_or_init(|| {
        let find = |name: &CStr| {
            // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name.
            let sym = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) };
            (!sym.is_null()).then_some(sym)
        };
        Extensions {
            // SAFETY: glibc's documented signatures for these symbols.
            addchdir: find(c"posix_spawn_file_actions_addchdir_np")
                .map(|sym| unsafe { std::mem::transmute::<*mut c_void, AddChdir>(sym) }),
            // SAFETY: as above.
            addclosefrom: find(c"posix_spawn_file_actions_addclosefrom_np")
                .map(|sym| unsafe { std::mem::transmute::<*mut c_void, AddClosefrom>(sym) }),
        }
    })
}

struct Actions(libc::posix_spawn_file_actions_t);

impl Drop for Actions {
    fn drop(&mut self) {
        // SAFETY: initialised in `spawn` before the guard was made.
        unsafe { libc::posix_spawn_file_actions_destroy(&mut self.0) };
    }
}

struct Attr(libc::posix_spawnattr_t);

impl Drop for Attr {
    fn drop(&mut self) {
        // SAFETY: initialised in `spawn` before the guard was made.
        unsafe { libc::posix_spawnattr_destroy(&mut self.0) };
    }
}

/// A `sigset_t` with the kernel's first 64 signals from `bits` (bit n-1 is
/// signal n). Built by hand: glibc's `sigaddset` refuses its internal
/// signals 32 and 33, which `glibc_internal_defaults` must be able to name.
fn sigset(bits: u64) -> libc::sigset_t {
    // SAFETY: sigset_t is plain data; all zeroes is the empty set. glibc's
    // sigset_t starts with an array of unsigned long whose first element
    // holds signals 1..=64 on 64-bit Linux, the kernel's layout.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        (&mut set as *mut libc::sigset_t).cast::<u64>().write(bits);
        set
    }
}

/// glibc's posix_spawn leaves its internal signals (32, 33) ignored in the
/// child, and an ignored signal stays ignored across `execve`. Ask for them
/// to be reset unless the parent itself ignores them.
fn glibc_internal_defaults() -> u64 {
    [32usize, 33]
        .into_iter()
        .filter(|&signal| super::raw::sigaction(signal, None).is_ok_and(|h| h != libc::SIG_IGN))
        .fold(0, |bits, signal| bits | 1u64 << (signal - 1))
}

/// Runs `posix_spawn` with the plan. `Err` is the clone's own errno; a
/// failure of the file actions or the child is reported in the plan's slot.
pub(crate) fn spawn(plan: &ChildPlan<'_>, want_pidfd: bool) -> Result<Spawned, i32> {
    let (actions, attr) = match setup(plan) {
        Ok(objects) => objects,
        Err((step, errno)) => {
            // Building the file actions failed (an fd beyond RLIMIT_NOFILE,
            // no memory, no addchdir_np): nothing was started.
            plan.report
                .step
                .store(step, std::sync::atomic::Ordering::Relaxed);
            plan.report
                .errno
                .store(errno, std::sync::atomic::Ordering::Relaxed);
            return Ok(Spawned {
                pid: 0,
                pidfd: None,
            });
        }
    };
    run(plan, &actions, &attr, want_pidfd)
}

/// The attribute and file-action objects for the plan, or the step and
/// errno that failed.
fn setup(plan: &ChildPlan<'_>) -> Result<(Actions, Attr), (u32, i32)> {
    use super::child::step;
    let ext = extensions();
    let check = |step: u32| move |ret: c_int| if ret == 0 { Ok(()) } else { Err((step, ret)) };
    let sig = check(step::SIGNALS);
    let fds = check(step::FDS);
    // SAFETY: init fills the objects; the guards destroy them.
    let mut actions = unsafe {
        let mut raw = MaybeUninit::uninit();
        fds(libc::posix_spawn_file_actions_init(raw.as_mut_ptr()))?;
        Actions(raw.assume_init())
    };
    // SAFETY: as above.
    let mut attr = unsafe {
        let mut raw = MaybeUninit::uninit();
        sig(libc::posix_spawnattr_init(raw.as_mut_ptr()))?;
        Attr(raw.assume_init())
    };

    // Without SETSIGMASK the child keeps the calling thread's mask.
    let mut flags = libc::POSIX_SPAWN_SETSIGDEF as libc::c_short;
    if plan.sigmask.is_some() {
        flags |= libc::POSIX_SPAWN_SETSIGMASK as libc::c_short;
    }
    if plan.setsid {
        flags |= libc::POSIX_SPAWN_SETSID as libc::c_short;
    }
    if plan.pgroup.is_some() {
        flags |= libc::POSIX_SPAWN_SETPGROUP as libc::c_short;
    }
    // SAFETY: attr is initialised; the sets are plain values copied in.
    unsafe {
        sig(libc::posix_spawnattr_setflags(&mut attr.0, flags))?;
        sig(libc::posix_spawnattr_setsigmask(
            &mut attr.0,
            &sigset(plan.sigmask.unwrap_or(0)),
        ))?;
        sig(libc::posix_spawnattr_setsigdefault(
            &mut attr.0,
            &sigset(plan.sigdefault | glibc_internal_defaults()),
        ))?;
        if let Some(pgroup) = plan.pgroup {
            check(step::SETPGID)(libc::posix_spawnattr_setpgroup(&mut attr.0, pgroup))?;
        }
    }

    if let Some(cwd) = plan.cwd {
        let addchdir = ext.addchdir.ok_or((step::CHDIR, libc::ENOSYS))?;
        // SAFETY: actions initialised; cwd is a live C string (glibc copies it).
        check(step::CHDIR)(unsafe { addchdir(&mut actions.0, cwd.as_ptr()) })?;
    }
    for op in plan.fd_ops {
        // SAFETY: actions initialised; fds are plain integers.
        fds(unsafe {
            match *op {
                FdOp::Dup { src, dst } | FdOp::Park { src, dst } => {
                    libc::posix_spawn_file_actions_adddup2(&mut actions.0, src, dst)
                }
                // dup2 onto itself clears close-on-exec (POSIX 2017, glibc 2.29).
                FdOp::Keep { fd } => libc::posix_spawn_file_actions_adddup2(&mut actions.0, fd, fd),
            }
        })?;
    }
    for &(first, last) in plan.close {
        if last == u32::MAX {
            if let Some(closefrom) = ext.addclosefrom {
                // SAFETY: actions initialised.
                fds(unsafe { closefrom(&mut actions.0, first as c_int) })?;
            }
            continue;
        }
        for fd in first..=last {
            // SAFETY: actions initialised; closing an unused fd is ignored by glibc.
            fds(unsafe { libc::posix_spawn_file_actions_addclose(&mut actions.0, fd as c_int) })?;
        }
    }

    Ok((actions, attr))
}

fn run(
    plan: &ChildPlan<'_>,
    actions: &Actions,
    attr: &Attr,
    want_pidfd: bool,
) -> Result<Spawned, i32> {
    let mut pid: libc::pid_t = 0;
    // SAFETY: every pointer is live for the call; argv and envp are
    // NULL-terminated arrays of C strings prepared by the caller.
    let ret = unsafe {
        libc::posix_spawn(
            &mut pid,
            plan.path.as_ptr(),
            &actions.0,
            &attr.0,
            plan.argv as *const *mut c_char,
            plan.envp as *const *mut c_char,
        )
    };
    if ret != 0 {
        // posix_spawn returns one errno for the clone and for every step of
        // the child. Tell them apart by asking again with a first file
        // action that fails in any child that exists: EISDIR means a child
        // was created, so the first failure was the child's; anything else
        // is the clone's own error (EAGAIN under RLIMIT_NPROC, EPERM from a
        // seccomp filter), which the caller turns into Step::Clone or a
        // fall-back to the next engine. Either way glibc has reaped the
        // child already (pid stays 0).
        if !child_was_created(plan) {
            return Err(ret);
        }
        plan.report.step.store(
            super::child::step::EXEC,
            std::sync::atomic::Ordering::Relaxed,
        );
        plan.report
            .errno
            .store(ret, std::sync::atomic::Ordering::Relaxed);
        return Ok(Spawned {
            pid: 0,
            pidfd: None,
        });
    }
    let pidfd = if want_pidfd {
        super::wait::pidfd_open(pid).ok()
    } else {
        None
    };
    Ok(Spawned { pid, pidfd })
}

/// Whether `posix_spawn` can create a child at all right now: a spawn whose
/// first file action (opening `/` for writing) fails with `EISDIR` in any
/// child. Run only after a failed spawn, to name the step that failed.
fn child_was_created(plan: &ChildPlan<'_>) -> bool {
    // SAFETY: init fills the object; the guard destroys it.
    let actions = unsafe {
        let mut raw = MaybeUninit::uninit();
        if libc::posix_spawn_file_actions_init(raw.as_mut_ptr()) != 0 {
            return true;
        }
        Actions(raw.assume_init())
    };
    let mut actions = actions;
    // SAFETY: actions initialised; the path is a static C string (glibc copies it).
    if unsafe {
        libc::posix_spawn_file_actions_addopen(&mut actions.0, 0, c"/".as_ptr(), libc::O_WRONLY, 0)
    } != 0
    {
        return true;
    }
    let argv: [*mut c_char; 2] = [c"true".as_ptr() as *mut c_char, std::ptr::null_mut()];
    let envp: [*mut c_char; 1] = [std::ptr::null_mut()];
    let mut pid: libc::pid_t = 0;
    // SAFETY: every pointer is live for the call; argv and envp are
    // NULL-terminated. The child never reaches execve (its open fails).
    let ret = unsafe {
        libc::posix_spawn(
            &mut pid,
            plan.path.as_ptr(),
            &actions.0,
            std::ptr::null(),
            argv.as_ptr(),
            envp.as_ptr(),
        )
    };
    if ret == 0 {
        // Cannot happen (the open fails); reap the child all the same.
        let mut status = 0;
        // SAFETY: waiting for our own child.
        unsafe { libc::waitpid(pid, &mut status, 0) };
    }
    ret == 0 || ret == libc::EISDIR
}
