//! A minimal io_uring by raw system calls, for one operation: a child's
//! exit through `IORING_OP_WAITID` (Linux 6.7), alone, waited for with a
//! timeout (`IORING_ENTER_EXT_ARG`) and cancelled by an
//! `IORING_OP_ASYNC_CANCEL`, or linked to an `IORING_OP_LINK_TIMEOUT`. The
//! safe API is [`crate::exit_ring`].
//!
//! Raw syscalls rather than rustix's `io_uring` module: rustix types the
//! probe's op numbers and an SQE's opcode as Rust enums, which a kernel
//! newer than rustix fills with numbers the enum does not have (undefined
//! behaviour on read); the `io-uring` crate would be a new dependency for
//! ~300 lines. The structs below are `include/uapi/linux/io_uring.h`'s.
//!
//! # Safety
//!
//! The invariants this file keeps:
//!
//! - A [`Ring`]'s two mappings (the SQ/CQ rings, `IORING_FEAT_SINGLE_MMAP`,
//!   and the SQE array) are made in [`Ring::new`] from the sizes the kernel
//!   returned in `io_uring_params`, and unmapped only by `Drop`, after which
//!   no pointer into them is used (they are private to the `Ring`). Every
//!   offset read from `io_uring_params` points inside the first mapping.
//! - The SQ is written only under `sq` (its lock), and `io_uring_enter` is
//!   called to submit only under that lock; there is no SQPOLL thread, so
//!   the kernel reads SQEs only inside those calls. So the tail can be
//!   rolled back when a submission consumed nothing.
//! - The CQ head is moved only under `cq` (its lock); CQEs are read between
//!   the acquire-load of the tail and the release-store of the head.
//! - An SQE holds no pointer the kernel reads after the submission: the
//!   waitid's `siginfo` pointer is 0 (the kernel then copies nothing), and
//!   a link timeout's `timespec` is copied by the kernel at submission
//!   (`io_link_timeout_prep`), while [`Ring::submit_and_wait`]'s caller
//!   keeps it alive for the whole call; an async cancel's SQE holds the
//!   user data of the request to cancel, not a pointer. The
//!   `io_uring_getevents_arg` of an `IORING_ENTER_EXT_ARG` wait, and the
//!   timespec it points to, live on the stack of the call that enters.
//! - The shared words (heads, tails, flags) are accessed as `AtomicU32`s:
//!   they are 4-aligned `u32`s in memory the kernel writes concurrently.

use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard};

/// `IORING_OP_WAITID` (Linux 6.7).
pub(crate) const OP_WAITID: u8 = 50;
/// `IORING_OP_LINK_TIMEOUT`.
const OP_LINK_TIMEOUT: u8 = 15;
/// `IORING_OP_ASYNC_CANCEL`.
const OP_ASYNC_CANCEL: u8 = 14;
/// `IORING_FEAT_EXT_ARG` (5.11): `io_uring_enter` takes a timeout.
const IORING_FEAT_EXT_ARG: u32 = 1 << 8;
/// `IORING_ENTER_EXT_ARG`.
const IORING_ENTER_EXT_ARG: u32 = 1 << 3;
/// `IOSQE_IO_LINK`.
const IOSQE_IO_LINK: u8 = 1 << 2;
const IORING_SETUP_CQSIZE: u32 = 8;
const IORING_SETUP_CLAMP: u32 = 16;
const IORING_FEAT_SINGLE_MMAP: u32 = 1;
const IORING_FEAT_NODROP: u32 = 2;
const IORING_OFF_SQ_RING: libc::off_t = 0;
const IORING_OFF_SQES: libc::off_t = 0x1000_0000;
const IORING_SQ_CQ_OVERFLOW: u32 = 2;
const IORING_ENTER_GETEVENTS: u32 = 1;
const IORING_REGISTER_PROBE: u32 = 8;
const IO_URING_OP_SUPPORTED: u16 = 1;

#[repr(C)]
#[derive(Default, Clone, Copy)]
struct SqringOffsets {
    head: u32,
    tail: u32,
    ring_mask: u32,
    ring_entries: u32,
    flags: u32,
    dropped: u32,
    array: u32,
    resv1: u32,
    user_addr: u64,
}

#[repr(C)]
#[derive(Default, Clone, Copy)]
struct CqringOffsets {
    head: u32,
    tail: u32,
    ring_mask: u32,
    ring_entries: u32,
    overflow: u32,
    cqes: u32,
    flags: u32,
    resv1: u32,
    user_addr: u64,
}

#[repr(C)]
#[derive(Default)]
struct Params {
    sq_entries: u32,
    cq_entries: u32,
    flags: u32,
    sq_thread_cpu: u32,
    sq_thread_idle: u32,
    features: u32,
    wq_fd: u32,
    resv: [u32; 3],
    sq_off: SqringOffsets,
    cq_off: CqringOffsets,
}

/// `struct io_uring_sqe` (64 bytes), with the field names of the ops used.
#[repr(C)]
#[derive(Default, Clone, Copy)]
pub(crate) struct Sqe {
    opcode: u8,
    flags: u8,
    ioprio: u16,
    fd: i32,
    off_addr2: u64,
    addr: u64,
    len: u32,
    op_flags: u32,
    user_data: u64,
    buf_index: u16,
    personality: u16,
    file_index: u32,
    addr3: u64,
    pad2: u64,
}

/// `struct io_uring_cqe` (16 bytes, no `CQE32`).
#[repr(C)]
#[derive(Clone, Copy)]
struct Cqe {
    user_data: u64,
    res: i32,
    flags: u32,
}

/// `struct io_uring_getevents_arg` (`min_wait_usec` was padding before
/// Linux 6.12; 0 either way).
#[repr(C)]
struct GeteventsArg {
    sigmask: u64,
    sigmask_sz: u32,
    min_wait_usec: u32,
    ts: u64,
}

/// `struct __kernel_timespec`.
#[repr(C)]
pub(crate) struct KernelTimespec {
    pub(crate) tv_sec: i64,
    pub(crate) tv_nsec: i64,
}

impl Sqe {
    /// `waitid(P_PID, pid, NULL, WEXITED | WNOWAIT)` as an SQE: it completes
    /// with 0 once `pid` (a child of the submitting thread's process) has
    /// exited, leaving it a zombie; `-ECHILD` when it is no child of ours
    /// (any more).
    pub(crate) fn waitid_exited(pid: i32, user_data: u64) -> Sqe {
        Sqe {
            opcode: OP_WAITID,
            fd: pid,
            len: libc::P_PID,
            file_index: (libc::WEXITED | libc::WNOWAIT) as u32,
            user_data,
            ..Sqe::default()
        }
    }

    /// Links this SQE to the next one (`IOSQE_IO_LINK`).
    pub(crate) fn linked(mut self) -> Sqe {
        self.flags |= IOSQE_IO_LINK;
        self
    }

    /// An `IORING_OP_ASYNC_CANCEL` of the request whose user data is
    /// `target` (the first one found).
    pub(crate) fn cancel(target: u64, user_data: u64) -> Sqe {
        Sqe {
            opcode: OP_ASYNC_CANCEL,
            fd: -1,
            addr: target,
            user_data,
            ..Sqe::default()
        }
    }

    /// An `IORING_OP_LINK_TIMEOUT` (relative) for the SQE before it; the
    /// kernel copies `ts` at submission.
    pub(crate) fn link_timeout(ts: &KernelTimespec, user_data: u64) -> Sqe {
        Sqe {
            opcode: OP_LINK_TIMEOUT,
            fd: -1,
            addr: ts as *const KernelTimespec as u64,
            len: 1,
            user_data,
            ..Sqe::default()
        }
    }
}

fn syscall_result(ret: libc::c_long) -> io::Result<u32> {
    if ret < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(ret as u32)
    }
}

/// One io_uring: its fd, its mappings, and the locks of its two queues.
pub(crate) struct Ring {
    fd: OwnedFd,
    map: *mut libc::c_void,
    map_len: usize,
    sqes: *mut Sqe,
    sqes_len: usize,
    sq_head: *const AtomicU32,
    sq_tail: *const AtomicU32,
    sq_flags: *const AtomicU32,
    sq_mask: u32,
    sq_entries: u32,
    sq_array: *mut u32,
    cq_head: *const AtomicU32,
    cq_tail: *const AtomicU32,
    cq_mask: u32,
    cqes: *const Cqe,
    /// The kernel offers `IORING_FEAT_EXT_ARG` (a wait with a timeout).
    ext_arg: bool,
    sq: Mutex<()>,
    cq: Mutex<()>,
}

/// SQEs [`Ring::push`] wrote, with the SQ's lock held until it is dropped.
struct Pushed<'a> {
    _sq: MutexGuard<'a, ()>,
    /// The SQ's head before the push.
    first: u32,
    /// The SQ's tail before the push.
    start: u32,
    /// The SQ's tail after the push.
    end: u32,
}

// SAFETY: the raw pointers point into mappings owned by the `Ring` (freed
// only by its drop); every access to the memory they share with the kernel
// goes through atomics or happens under `sq` / `cq` (see the file's
// invariants), so the `Ring` may be used from any thread.
unsafe impl Send for Ring {}
// SAFETY: as for `Send`: shared access is serialized by the two locks.
unsafe impl Sync for Ring {}

impl Ring {
    /// An io_uring of `entries` SQEs and `cq_entries` CQEs (clamped by the
    /// kernel), with both mappings made. The kernel must offer
    /// `IORING_FEAT_SINGLE_MMAP` and `IORING_FEAT_NODROP` (5.4 / 5.5, long
    /// before the waitid op): `ENOTSUP` otherwise.
    pub(crate) fn new(entries: u32, cq_entries: u32) -> io::Result<Ring> {
        let mut params = Params {
            flags: IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP,
            cq_entries,
            ..Params::default()
        };
        // SAFETY: `params` is a live, zeroed io_uring_params of the uapi's
        // layout, which the kernel reads and fills in.
        let ret = unsafe {
            libc::syscall(
                libc::SYS_io_uring_setup,
                entries as libc::c_long,
                &mut params as *mut Params,
            )
        };
        let raw = syscall_result(ret)?;
        // SAFETY: the syscall returned a new fd that nothing else owns.
        let fd = unsafe { OwnedFd::from_raw_fd(raw as i32) };
        let need = IORING_FEAT_SINGLE_MMAP | IORING_FEAT_NODROP;
        if params.features & need != need {
            return Err(io::Error::from_raw_os_error(libc::ENOTSUP));
        }
        let sq_len = params.sq_off.array as usize + params.sq_entries as usize * 4;
        let cq_len =
            params.cq_off.cqes as usize + params.cq_entries as usize * std::mem::size_of::<Cqe>();
        let map_len = sq_len.max(cq_len);
        // SAFETY: a new shared mapping of the ring's fd at the offset and
        // size the uapi defines; the result is checked below.
        let map = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                map_len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_POPULATE,
                fd.as_raw_fd(),
                IORING_OFF_SQ_RING,
            )
        };
        if map == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        let sqes_len = params.sq_entries as usize * std::mem::size_of::<Sqe>();
        // SAFETY: as above, for the SQE array.
        let sqes = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                sqes_len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_POPULATE,
                fd.as_raw_fd(),
                IORING_OFF_SQES,
            )
        };
        if sqes == libc::MAP_FAILED {
            let err = io::Error::last_os_error();
            // SAFETY: the first mapping, made above and used by nothing.
            unsafe { libc::munmap(map, map_len) };
            return Err(err);
        }
        let base = map as *mut u8;
        // SAFETY: the kernel's offsets lie inside the first mapping (the
        // sizes above were computed from them); the masks are plain words
        // the kernel wrote before returning from the setup.
        let ring = unsafe {
            Ring {
                sq_head: base.add(params.sq_off.head as usize) as *const AtomicU32,
                sq_tail: base.add(params.sq_off.tail as usize) as *const AtomicU32,
                sq_flags: base.add(params.sq_off.flags as usize) as *const AtomicU32,
                sq_mask: *(base.add(params.sq_off.ring_mask as usize) as *const u32),
                sq_entries: params.sq_entries,
                sq_array: base.add(params.sq_off.array as usize) as *mut u32,
                cq_head: base.add(params.cq_off.head as usize) as *const AtomicU32,
                cq_tail: base.add(params.cq_off.tail as usize) as *const AtomicU32,
                cq_mask: *(base.add(params.cq_off.ring_mask as usize) as *const u32),
                cqes: base.add(params.cq_off.cqes as usize) as *const Cqe,
                ext_arg: params.features & IORING_FEAT_EXT_ARG != 0,
                fd,
                map,
                map_len,
                sqes: sqes as *mut Sqe,
                sqes_len,
                sq: Mutex::new(()),
                cq: Mutex::new(()),
            }
        };
        Ok(ring)
    }

    /// The ring's fd: readable (`POLLIN`) while completions wait in the CQ.
    pub(crate) fn fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }

    /// Whether the kernel supports `op` (`IORING_REGISTER_PROBE`, 5.6).
    pub(crate) fn supports(&self, op: u8) -> io::Result<bool> {
        // struct io_uring_probe: 16 bytes of header, then 256 ops of 8.
        let mut buf = [0u64; 2 + 256];
        // SAFETY: the buffer holds the header and the 256 ops the call is
        // told of; the kernel writes only within them.
        let ret = unsafe {
            libc::syscall(
                libc::SYS_io_uring_register,
                self.fd.as_raw_fd(),
                IORING_REGISTER_PROBE as libc::c_long,
                buf.as_mut_ptr(),
                256 as libc::c_long,
            )
        };
        syscall_result(ret)?;
        let bytes: &[u8] = {
            // SAFETY: a view of the u64 buffer as bytes (same memory, size
            // in bytes, u8 has no alignment or validity requirement).
            unsafe { std::slice::from_raw_parts(buf.as_ptr() as *const u8, buf.len() * 8) }
        };
        let last_op = bytes[0];
        if op > last_op {
            return Ok(false);
        }
        let at = 16 + 8 * op as usize;
        let flags = u16::from_ne_bytes([bytes[at + 2], bytes[at + 3]]);
        Ok(flags & IO_URING_OP_SUPPORTED != 0)
    }

    fn enter(&self, to_submit: u32, min_complete: u32, flags: u32) -> io::Result<u32> {
        loop {
            match self.enter_once(to_submit, min_complete, flags, None) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                other => return other,
            }
        }
    }

    /// One `io_uring_enter`; with `arg`, its wait is bounded by the
    /// timespec `arg` points to (`IORING_ENTER_EXT_ARG`).
    fn enter_once(
        &self,
        to_submit: u32,
        min_complete: u32,
        flags: u32,
        arg: Option<&GeteventsArg>,
    ) -> io::Result<u32> {
        let (flags, arg, argsz) = match arg {
            Some(arg) => (
                flags | IORING_ENTER_EXT_ARG,
                arg as *const GeteventsArg as *const libc::c_void,
                std::mem::size_of::<GeteventsArg>(),
            ),
            None => (flags, std::ptr::null(), 0),
        };
        // SAFETY: plain integers, and either NULL with size 0 (no signal
        // mask) or a live `io_uring_getevents_arg` of its own size, as the
        // uapi asks with `IORING_ENTER_EXT_ARG`; the kernel only reads it
        // (and the timespec it names, which the caller keeps alive) during
        // the call.
        let ret = unsafe {
            libc::syscall(
                libc::SYS_io_uring_enter,
                self.fd.as_raw_fd(),
                to_submit as libc::c_long,
                min_complete as libc::c_long,
                flags as libc::c_long,
                arg,
                argsz as libc::c_long,
            )
        };
        syscall_result(ret)
    }

    /// Whether [`submit_and_wait_for`](Self::submit_and_wait_for) can
    /// bound its wait (`IORING_FEAT_EXT_ARG`, Linux 5.11).
    pub(crate) fn has_timed_wait(&self) -> bool {
        self.ext_arg
    }

    /// One `io_uring_enter` that submits `to_submit` SQEs and waits at
    /// most `ts` for `min_complete` completions (`IORING_ENTER_EXT_ARG`).
    /// Not retried on `EINTR`; with SQEs submitted, the kernel reports
    /// their count and hides the wait's `ETIME` / `EINTR` (the caller
    /// looks at the CQ).
    fn enter_for(&self, to_submit: u32, min_complete: u32, ts: &KernelTimespec) -> io::Result<u32> {
        let arg = GeteventsArg {
            sigmask: 0,
            sigmask_sz: 0,
            min_wait_usec: 0,
            ts: ts as *const KernelTimespec as u64,
        };
        self.enter_once(to_submit, min_complete, IORING_ENTER_GETEVENTS, Some(&arg))
    }

    /// Puts `sqe` in the SQ, submits it and waits at most `ts` for one
    /// completion, in one `io_uring_enter` (a ring that
    /// [`has_timed_wait`](Self::has_timed_wait)). `Ok` once the kernel
    /// took the SQE, whether or not a completion came in time (the caller
    /// reads the CQ); an error when it was not taken (the SQ is then as
    /// before the call).
    pub(crate) fn submit_and_wait_for(&self, sqe: &Sqe, ts: &KernelTimespec) -> io::Result<()> {
        let pushed = self.push(std::slice::from_ref(sqe))?;
        match self.enter_for(pushed.end.wrapping_sub(pushed.first), 1, ts) {
            Ok(_) => Ok(()),
            Err(err) if self.take_back_if_untaken(&pushed) => Err(err),
            // Taken; only the wait failed (the caller reads the CQ).
            Err(_) => Ok(()),
        }
    }

    /// Waits at most `ts` for `min` completions in the CQ (a ring that
    /// [`has_timed_wait`](Self::has_timed_wait)); `ETIME` when the time
    /// ran out, `EINTR` on a signal.
    pub(crate) fn wait_for(&self, min: u32, ts: &KernelTimespec) -> io::Result<()> {
        self.enter_for(0, min, ts).map(drop)
    }

    /// The SQ's head and tail words.
    fn sq_words(&self) -> (&AtomicU32, &AtomicU32) {
        // SAFETY: the pointers into the mapping stay valid while `self`
        // lives; the SQ's words are accessed as atomics (file invariants).
        unsafe { (&*self.sq_head, &*self.sq_tail) }
    }

    /// Writes `sqes` into the SQ after whatever is queued and publishes
    /// them (the tail), under the SQ's lock, which the result holds: the
    /// caller enters the kernel under it. `EBUSY`, with nothing written,
    /// when they do not fit.
    fn push(&self, sqes: &[Sqe]) -> io::Result<Pushed<'_>> {
        let sq = self.sq.lock().unwrap_or_else(|e| e.into_inner());
        let (head, tail) = self.sq_words();
        let start = tail.load(Ordering::Relaxed);
        // Submissions are complete under the lock: head == tail here
        // unless a past call's leftovers wait (they go with this one).
        let first = head.load(Ordering::Acquire);
        let queued = start.wrapping_sub(first);
        if queued as usize + sqes.len() > self.sq_entries as usize {
            return Err(io::Error::from_raw_os_error(libc::EBUSY));
        }
        for (i, sqe) in sqes.iter().enumerate() {
            let index = start.wrapping_add(i as u32) & self.sq_mask;
            // SAFETY: `index` is masked to the SQ's size, which is the SQE
            // array's and the index array's length; only this thread
            // writes them (the lock), and the kernel reads them only in
            // an enter, which runs under the same lock.
            unsafe {
                *self.sqes.add(index as usize) = *sqe;
                *self.sq_array.add(index as usize) = index;
            }
        }
        let end = start.wrapping_add(sqes.len() as u32);
        tail.store(end, Ordering::Release);
        Ok(Pushed {
            _sq: sq,
            first,
            start,
            end,
        })
    }

    /// After an enter that failed: if the kernel took nothing of the SQ
    /// since `pushed` (its head did not move), the SQ is put back as
    /// before the push, and true.
    fn take_back_if_untaken(&self, pushed: &Pushed<'_>) -> bool {
        let (head, tail) = self.sq_words();
        if head.load(Ordering::Acquire) != pushed.first {
            return false;
        }
        tail.store(pushed.start, Ordering::Release);
        true
    }

    /// Puts `sqes` in the SQ and submits them (and waits for
    /// `min_complete` completions in the same call). `Ok` once the kernel
    /// took them all; an error when it took none of them (the SQ is then
    /// as before the call). `EBUSY` when the SQ has no room.
    pub(crate) fn submit_and_wait(&self, sqes: &[Sqe], min_complete: u32) -> io::Result<()> {
        let pushed = self.push(sqes)?;
        let end = pushed.end;
        let (head, _) = self.sq_words();
        let flags = if min_complete > 0 {
            IORING_ENTER_GETEVENTS
        } else {
            0
        };
        let mut waiting = min_complete;
        loop {
            let pending = end.wrapping_sub(head.load(Ordering::Acquire));
            if pending == 0 && waiting == 0 {
                return Ok(());
            }
            match self.enter(pending, waiting, flags) {
                Ok(_) => {
                    // Submitted (all of them: errors of an SQE come back as
                    // its CQE) and, with GETEVENTS, waited.
                    waiting = 0;
                }
                Err(err) => {
                    if self.take_back_if_untaken(&pushed) {
                        return Err(err);
                    }
                    if end.wrapping_sub(head.load(Ordering::Acquire)) == 0 {
                        // All taken; only the wait failed.
                        return if waiting > 0 { Err(err) } else { Ok(()) };
                    }
                    // Part taken: the rest goes with the next call.
                    return Ok(());
                }
            }
        }
    }

    /// Blocks until at least `min` completions wait in the CQ.
    pub(crate) fn wait(&self, min: u32) -> io::Result<()> {
        self.enter(0, min, IORING_ENTER_GETEVENTS).map(drop)
    }

    /// Calls `f(user_data, res)` for every completion in the CQ, frees
    /// their slots, and returns how many there were. Completions the kernel
    /// kept aside while the CQ was full (`IORING_FEAT_NODROP`) are flushed
    /// into it and read too.
    pub(crate) fn drain(&self, mut f: impl FnMut(u64, i32)) -> usize {
        let _cq = self.cq.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: as in `submit_and_wait`, for the CQ's words.
        let (head, tail, sq_flags) = unsafe { (&*self.cq_head, &*self.cq_tail, &*self.sq_flags) };
        let mut seen = 0;
        loop {
            let mut at = head.load(Ordering::Relaxed);
            let end = tail.load(Ordering::Acquire);
            while at != end {
                // SAFETY: the slot is masked to the CQ's size and lies
                // between the head (ours to move) and the tail the kernel
                // published: the kernel does not write it until the head
                // moves past it.
                let cqe = unsafe { *self.cqes.add((at & self.cq_mask) as usize) };
                at = at.wrapping_add(1);
                seen += 1;
                f(cqe.user_data, cqe.res);
            }
            head.store(at, Ordering::Release);
            if sq_flags.load(Ordering::Acquire) & IORING_SQ_CQ_OVERFLOW == 0 {
                return seen;
            }
            // Flush what overflowed, then read it.
            if self.enter(0, 0, IORING_ENTER_GETEVENTS).is_err() {
                return seen;
            }
        }
    }
}

impl Drop for Ring {
    fn drop(&mut self) {
        // SAFETY: the two mappings made by `new`, with their sizes; nothing
        // uses them after this (the pointers die with `self`). The fd's
        // close (after this) cancels what is still in flight.
        unsafe {
            libc::munmap(self.sqes as *mut libc::c_void, self.sqes_len);
            libc::munmap(self.map, self.map_len);
        }
    }
}

/// Whether a child spawned now would be reaped by the kernel at its exit:
/// `SIGCHLD` ignored (`SIG_IGN`) or `SA_NOCLDWAIT` set. One `sigaction`
/// query (no change).
pub(crate) fn children_autoreaped() -> bool {
    // SAFETY: a query (NULL new action) into a zeroed sigaction.
    let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
    // SAFETY: SIGCHLD is a valid signal; `old` is a live sigaction.
    let ret = unsafe { libc::sigaction(libc::SIGCHLD, std::ptr::null(), &mut old) };
    ret == 0 && (old.sa_sigaction == libc::SIG_IGN || old.sa_flags & libc::SA_NOCLDWAIT != 0)
}
