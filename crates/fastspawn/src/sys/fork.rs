//! `Engine::Fork`: the classic `fork()`, kept to measure what the other
//! engines save. Its cost grows with the parent's memory: the kernel copies
//! the page tables and takes a reference on every mapped page.
//!
//! # Safety
//!
//! The forked child of a multithreaded parent may only run
//! async-signal-safe code; it runs the same raw-syscall steps as the clone
//! engines (`child.rs`). Memory is not shared, so a failure comes back
//! through a close-on-exec pipe: end of file means the `execve` succeeded.

use std::io::Read;
use std::os::fd::{AsRawFd, OwnedFd};

use super::child::{ChildPlan, ErrorSlot};
use super::clone::Spawned;
use super::raw;

/// Forks and runs the plan in the child. `report_pipe` is the pipe whose
/// write end the plan names; this closes it in the parent and reads the
/// child's report into `slot`.
pub(crate) fn fork(
    plan: &ChildPlan<'_>,
    report_pipe: (OwnedFd, OwnedFd),
    slot: &ErrorSlot,
    want_pidfd: bool,
) -> Result<Spawned, i32> {
    let (reader, writer) = report_pipe;
    debug_assert_eq!(plan.report_pipe, Some(writer.as_raw_fd()));
    let old_mask = raw::set_signal_mask(!0);
    // SAFETY: in the child we only call child::run, which makes raw system
    // calls and ends in execve or exit_group (see child.rs).
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        super::child::run(plan);
    }
    let errno = std::io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EINVAL);
    raw::set_signal_mask(old_mask);
    drop(writer);
    if pid < 0 {
        return Err(errno);
    }
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
    let pidfd = if want_pidfd {
        super::wait::pidfd_open(pid)
    } else {
        None
    };
    Ok(Spawned { pid, pidfd })
}
