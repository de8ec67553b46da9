//! Raw Linux system calls that never touch `errno`, take no lock and
//! allocate nothing, so they may run in a `CLONE_VM` child.
//!
//! Each returns the kernel's raw result: a non-negative value, or `-errno`.
//!
//! Under AddressSanitizer (`cfg(fastspawn_asan)`) the functions the child
//! calls are either `sanitize(address = "off")` or `#[inline(always)]`: an
//! inlined function is instrumented as its caller is, so in the child's
//! uninstrumented code it is not instrumented either (rustc warns that the
//! attribute would have no effect on them).

use std::arch::asm;

/// `syscall(nr, a, b, c, d, e, f)` without libc.
///
/// # Safety
/// The arguments must be valid for system call `nr` (pointers to memory of
/// the sizes the kernel expects).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn syscall6(
    nr: libc::c_long,
    a: usize,
    b: usize,
    c: usize,
    d: usize,
    e: usize,
    f: usize,
) -> isize {
    let ret: isize;
    // SAFETY: the `syscall` instruction clobbers only rax, rcx and r11,
    // which are declared; memory effects are the caller's contract.
    unsafe {
        asm!(
            "syscall",
            inlateout("rax") nr as isize => ret,
            in("rdi") a, in("rsi") b, in("rdx") c,
            in("r10") d, in("r8") e, in("r9") f,
            lateout("rcx") _, lateout("r11") _,
            options(nostack, preserves_flags),
        );
    }
    ret
}

/// `syscall(nr, a, b, c, d, e, f)` without libc.
///
/// # Safety
/// The arguments must be valid for system call `nr`.
#[cfg(target_arch = "aarch64")]
#[inline(always)]
pub(crate) unsafe fn syscall6(
    nr: libc::c_long,
    a: usize,
    b: usize,
    c: usize,
    d: usize,
    e: usize,
    f: usize,
) -> isize {
    let ret: isize;
    // SAFETY: `svc 0` clobbers only x0, which is declared.
    unsafe {
        asm!(
            "svc 0",
            in("x8") nr,
            inlateout("x0") a => ret,
            in("x1") b, in("x2") c, in("x3") d, in("x4") e, in("x5") f,
            options(nostack, preserves_flags),
        );
    }
    ret
}

/// Calls `syscall6` with the missing arguments set to zero.
macro_rules! sys {
    ($nr:expr) => {
        $crate::sys::raw::syscall6($nr, 0, 0, 0, 0, 0, 0)
    };
    ($nr:expr, $a:expr) => {
        $crate::sys::raw::syscall6($nr, $a as usize, 0, 0, 0, 0, 0)
    };
    ($nr:expr, $a:expr, $b:expr) => {
        $crate::sys::raw::syscall6($nr, $a as usize, $b as usize, 0, 0, 0, 0)
    };
    ($nr:expr, $a:expr, $b:expr, $c:expr) => {
        $crate::sys::raw::syscall6($nr, $a as usize, $b as usize, $c as usize, 0, 0, 0)
    };
    ($nr:expr, $a:expr, $b:expr, $c:expr, $d:expr) => {
        $crate::sys::raw::syscall6(
            $nr,
            $a as usize,
            $b as usize,
            $c as usize,
            $d as usize,
            0,
            0,
        )
    };
}
pub(crate) use sys;

/// The kernel's `struct sigaction` (`rt_sigaction` takes this, not libc's).
#[repr(C)]
pub(crate) struct KernelSigaction {
    pub handler: usize,
    pub flags: u64,
    pub restorer: usize,
    pub mask: u64,
}

/// Size of the kernel's signal set, the last argument of `rt_sig*` calls.
pub(crate) const SIGSET_SIZE: usize = 8;

/// `rt_sigprocmask(SIG_SETMASK, new, old)` on the calling thread, with the
/// kernel's 64-bit set (blocks glibc's internal signals too, unlike
/// `pthread_sigmask`).
pub(crate) fn set_signal_mask(new: u64) -> u64 {
    let mut old: u64 = 0;
    // SAFETY: both pointers refer to live u64s of SIGSET_SIZE bytes.
    unsafe {
        sys!(
            libc::SYS_rt_sigprocmask,
            libc::SIG_SETMASK,
            &new as *const u64,
            &mut old as *mut u64,
            SIGSET_SIZE
        );
    }
    old
}

/// `rt_sigaction(signal, new, &old)` on the kernel's struct (glibc's
/// `sigaction` refuses its internal signals 32 and 33; the system call does
/// not): sets the handler to `new` when given, and returns the old handler
/// or the errno. One raw system call: safe in a vfork child.
#[inline(always)]
pub(crate) fn sigaction(signal: usize, new: Option<usize>) -> Result<usize, i32> {
    let action = KernelSigaction {
        handler: new.unwrap_or(0),
        flags: 0,
        restorer: 0,
        mask: 0,
    };
    let mut old = KernelSigaction {
        handler: 0,
        flags: 0,
        restorer: 0,
        mask: 0,
    };
    let new_ptr = if new.is_some() {
        &action as *const KernelSigaction
    } else {
        std::ptr::null()
    };
    // SAFETY: both pointers are null or live kernel sigactions.
    let ret = unsafe {
        sys!(
            libc::SYS_rt_sigaction,
            signal,
            new_ptr,
            &mut old as *mut KernelSigaction,
            SIGSET_SIZE
        )
    };
    if ret < 0 {
        Err(ret.wrapping_neg() as i32)
    } else {
        Ok(old.handler)
    }
}
