//! Creating the child with `clone3` or `clone` in vfork mode.
//!
//! # Safety
//!
//! - The child runs [`child::entry`](super::child::entry) on a stack of its
//!   own, so it never shares a live frame with the parent. The stack belongs
//!   to the spawning thread and is reused by its later spawns: with
//!   `CLONE_VFORK` the thread resumes only once the child has called
//!   `execve` (and left this memory) or exited, so no two children ever use
//!   one stack.
//! - No handler of the parent may ever run in the child, on the parent's
//!   memory. With `clone3` the kernel guarantees it: `CLONE_CLEAR_SIGHAND`
//!   resets every caught signal to `SIG_DFL` in the child at creation, so
//!   between the clone and the `execve` a signal can only take its default
//!   action (or be ignored), which runs no user code; the child sets the
//!   program's signal mask as its last step. With plain `clone` the child
//!   starts with the parent's handlers, so every signal (glibc's internal
//!   ones included) is blocked on the spawning thread across the clone; the
//!   child resets the handlers, then sets the program's mask, and the parent
//!   thread's mask is restored right after. (Blocking around `clone3` too
//!   would cost two system calls per spawn and protect nothing more.)
//! - The trampoline after `clone3` is written in assembly: in the child the
//!   kernel has switched to the new stack, and the only thing done there is
//!   calling the entry function, which never returns.
//!
//! - With `CLONE_FILES` the child starts on the parent's fd table instead
//!   of a copy, so a parent holding thousands of fds (pidfds of live
//!   children, sockets) does not pay for copying and then closing them all
//!   on every spawn; the child's first fd operation swaps in a private table
//!   of only the low fds it needs (see `ChildPlan::unshare_below`).
//!
//! Kernel history: `clone3` 5.3, `CLONE_CLEAR_SIGHAND` 5.5,
//! `CLONE_INTO_CGROUP` 5.7, `CLONE_PIDFD` 5.2.

use std::cell::RefCell;
use std::ffi::c_void;
use std::os::fd::{FromRawFd, OwnedFd};
use std::ptr;

use super::child::{self, ChildPlan};
use super::raw;

/// Size of the child's stack. The child is a short list of system calls,
/// but debug builds do not inline, so leave room. Pages never touched are
/// never backed by memory.
const STACK_SIZE: usize = 256 * 1024;
const GUARD_SIZE: usize = 4096;

struct Stack {
    base: *mut u8,
}

impl Stack {
    fn new() -> Option<Stack> {
        // SAFETY: a fresh private anonymous mapping; no existing memory is touched.
        let base = unsafe {
            libc::mmap(
                ptr::null_mut(),
                STACK_SIZE + GUARD_SIZE,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_STACK | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        // SAFETY: the lowest page of our own mapping becomes the guard.
        unsafe { libc::mprotect(base, GUARD_SIZE, libc::PROT_NONE) };
        Some(Stack { base: base.cast() })
    }

    /// The lowest usable address and the usable size.
    fn bounds(&self) -> (*mut u8, usize) {
        // SAFETY: GUARD_SIZE is inside the mapping.
        (unsafe { self.base.add(GUARD_SIZE) }, STACK_SIZE)
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        // SAFETY: unmapping our own mapping; no child uses it (see the header).
        unsafe { libc::munmap(self.base.cast(), STACK_SIZE + GUARD_SIZE) };
    }
}

thread_local! {
    static STACK: RefCell<Option<Stack>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's child stack (created on first use).
fn with_stack<T>(f: impl FnOnce(*mut u8, usize) -> T) -> Result<T, i32> {
    let bounds = STACK.try_with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.is_none() {
            *slot = Some(Stack::new().ok_or(libc::ENOMEM)?);
        }
        slot.as_ref().map(Stack::bounds).ok_or(libc::ENOMEM)
    });
    match bounds {
        Ok(Ok((low, size))) => {
            let result = f(low, size);
            forget_child_frames(low, size);
            Ok(result)
        }
        Ok(Err(errno)) => Err(errno),
        // Thread-local storage is being torn down: use a one-off stack.
        Err(_) => {
            let stack = Stack::new().ok_or(libc::ENOMEM)?;
            let (low, size) = stack.bounds();
            let result = f(low, size);
            forget_child_frames(low, size);
            Ok(result)
        }
    }
}

/// Under AddressSanitizer, clears whatever shadow marks the child left on
/// the stack it used (it never returns from its frames, so nothing else
/// would), before the stack is reused. The child's own code is not
/// instrumented (see `child.rs`); this covers what it calls.
#[cfg(fastspawn_asan)]
fn forget_child_frames(low: *mut u8, size: usize) {
    unsafe extern "C" {
        fn __asan_unpoison_memory_region(addr: *const c_void, size: usize);
    }
    // SAFETY: the range is this thread's child stack, unused now (the
    // child has exec'd or exited).
    unsafe { __asan_unpoison_memory_region(low.cast(), size) };
}

#[cfg(not(fastspawn_asan))]
#[inline(always)]
fn forget_child_frames(_low: *mut u8, _size: usize) {}

/// The kernel's `struct clone_args` (version 2, with `cgroup`).
#[repr(C)]
#[derive(Default)]
pub(crate) struct CloneArgs {
    pub flags: u64,
    pub pidfd: u64,
    pub child_tid: u64,
    pub parent_tid: u64,
    pub exit_signal: u64,
    pub stack: u64,
    pub stack_size: u64,
    pub tls: u64,
    pub set_tid: u64,
    pub set_tid_size: u64,
    pub cgroup: u64,
}

pub(crate) const CLONE_CLEAR_SIGHAND: u64 = 0x1_0000_0000;
const CLONE_INTO_CGROUP: u64 = 0x2_0000_0000;

/// What a clone returned: the pid and, when asked for, the pidfd.
pub(crate) struct Spawned {
    pub pid: i32,
    pub pidfd: Option<OwnedFd>,
}

/// `clone3(CLONE_VM|CLONE_VFORK|CLONE_CLEAR_SIGHAND[|CLONE_PIDFD][|CLONE_INTO_CGROUP])`.
/// Returns the errno of the clone itself; a failure of the child is in the plan's slot.
#[cfg(target_arch = "x86_64")]
pub(crate) fn clone3(
    plan: &ChildPlan<'_>,
    cgroup: Option<i32>,
    want_pidfd: bool,
) -> Result<Spawned, i32> {
    let share_files = plan.unshare_below.is_some();
    with_stack(|low, size| {
        let mut pidfd: i32 = -1;
        let mut args = CloneArgs {
            flags: (libc::CLONE_VM | libc::CLONE_VFORK) as u64 | CLONE_CLEAR_SIGHAND,
            pidfd: &mut pidfd as *mut i32 as u64,
            exit_signal: libc::SIGCHLD as u64,
            stack: low as u64,
            stack_size: size as u64,
            ..CloneArgs::default()
        };
        if want_pidfd {
            args.flags |= libc::CLONE_PIDFD as u64;
        }
        if share_files {
            args.flags |= libc::CLONE_FILES as u64;
        }
        args.flags |= plan.clone_flags;
        if plan.clone_flags & super::autokill::CLONE_AUTOREAP != 0 {
            // The kernel reaps the child: it sends no exit signal.
            args.exit_signal = 0;
        }
        if let Some(fd) = cgroup {
            args.flags |= CLONE_INTO_CGROUP;
            args.cgroup = fd as u64;
        }
        let ret: isize;
        // SAFETY: see the file header. In the parent (rax != 0) the block
        // ends normally; in the child (rax == 0) it calls child::entry with
        // the plan on the new stack and never comes back. The plan and
        // `args` outlive the call because the parent is suspended until
        // the child execs or exits.
        unsafe {
            std::arch::asm!(
                "syscall",
                "test rax, rax",
                "jnz 2f",
                "xor ebp, ebp",
                "mov rdi, r12",
                "call r13",
                "ud2",
                "2:",
                inlateout("rax") libc::SYS_clone3 as isize => ret,
                in("rdi") &mut args as *mut CloneArgs,
                in("rsi") std::mem::size_of::<CloneArgs>(),
                in("r12") plan as *const ChildPlan<'_> as *mut c_void,
                in("r13") child::entry as extern "C" fn(*mut c_void) -> !,
                lateout("rcx") _, lateout("r11") _,
            );
        }
        if ret < 0 {
            return Err(ret.wrapping_neg() as i32);
        }
        // SAFETY: the kernel stored a new pidfd that nothing else owns.
        let pidfd = (pidfd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(pidfd) });
        Ok(Spawned {
            pid: ret as i32,
            pidfd,
        })
    })?
}

/// `clone3` needs a hand-written trampoline, which exists for x86_64 only.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn clone3(
    _plan: &ChildPlan<'_>,
    _cgroup: Option<i32>,
    _want_pidfd: bool,
) -> Result<Spawned, i32> {
    Err(libc::ENOSYS)
}

/// Runs `start`, the call that starts the child (it returns the pid, or a
/// negative value with `errno` set), with every signal blocked, so that the
/// child starts with all of them blocked; the plan handed to `start` makes
/// the child restore the thread's own mask unless the command sets one.
/// The thread's mask is back when this returns the pid or the errno.
pub(crate) fn with_signals_blocked(
    plan: &ChildPlan<'_>,
    start: impl FnOnce(&ChildPlan<'_>) -> i64,
) -> Result<i64, i32> {
    let old_mask = raw::set_signal_mask(!0);
    let inherit;
    let plan = match plan.sigmask {
        Some(_) => plan,
        None => {
            inherit = ChildPlan {
                sigmask: Some(old_mask),
                ..plan.clone()
            };
            &inherit
        }
    };
    let ret = start(plan);
    let errno = std::io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EINVAL);
    raw::set_signal_mask(old_mask);
    if ret < 0 { Err(errno) } else { Ok(ret) }
}

/// `clone(CLONE_VM|CLONE_VFORK[|CLONE_PIDFD])` through glibc's wrapper,
/// which does the stack switch on every architecture. The child resets
/// caught signals itself (the plan says so).
pub(crate) fn clone_vfork(plan: &ChildPlan<'_>, want_pidfd: bool) -> Result<Spawned, i32> {
    with_stack(|low, size| {
        let mut pidfd: i32 = -1;
        let mut flags = libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD;
        if want_pidfd {
            flags |= libc::CLONE_PIDFD;
        }
        if plan.unshare_below.is_some() {
            flags |= libc::CLONE_FILES;
        }
        let pid = with_signals_blocked(plan, |plan| {
            // SAFETY: see the file header; the stack top is 16-byte aligned
            // (page-aligned mapping, size a multiple of 4096). With
            // CLONE_PIDFD the kernel writes the pidfd through the parent_tid
            // argument.
            let ret = unsafe {
                libc::clone(
                    child::entry_c,
                    low.add(size).cast(),
                    flags,
                    plan as *const ChildPlan<'_> as *mut c_void,
                    &mut pidfd as *mut i32,
                )
            };
            ret as i64
        })?;
        // SAFETY: as for clone3.
        let pidfd = (want_pidfd && pidfd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(pidfd) });
        Ok(Spawned {
            pid: pid as i32,
            pidfd,
        })
    })?
}
