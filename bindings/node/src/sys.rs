//! All the addon's `unsafe` code.
//!
//! Invariants the callers rely on:
//!
//! 1. A raw fd that comes from JavaScript as a number is only *borrowed*
//!    ([`dup_cloexec`]): it is duplicated on the JS thread, during the call
//!    that names it, and the duplicate is what the child gets. The addon
//!    never closes an fd it did not create.
//! 2. The napi environment pointer given to [`set_ref`] is the one of the
//!    JS thread making the call, and the threadsafe function belongs to
//!    that environment (both come from the same `#[napi]` call).
//! 3. Nothing here keeps a pointer past the call.
//! 4. A child's pidfd, passed by number from the spawner thread to
//!    [`borrow_pidfd`] or [`pidfd_exited_within`], is open: it is owned by
//!    the child's registry entry and closed only when the child is reaped,
//!    by the waiter after the watch that borrows it, or by the spawner
//!    thread itself after [`pidfd_exited_within`] returned.
//! 5. An fd given to [`own_parent_end`] is the parent's end of a pipe
//!    that this addon created and handed to JS, which never wrapped it in a
//!    stream and drops the number after this call. An fd given to
//!    [`drain_parent_end`] is such an end too, kept open by JS during the
//!    call, which only reads from it.
//! 6. The process environment (`environ`) is read only on a JS thread, as
//!    `getenv` would; Node changes it (`process.env.X = ...`) only on the
//!    main JS thread, so a read there never overlaps a change made by JS.
//! 7. [`thread_involuntary_switches`] passes `getrusage` a pointer to a
//!    local, zeroed `rusage` that outlives the call.
//! 8. The two fds given to [`send_with_fd`] come from JS during the call:
//!    the IPC channel's socket and the handle's fd, both open and owned by
//!    JS objects that outlive the call; they are only borrowed for it.

use std::io;
use std::os::fd::{BorrowedFd, OwnedFd, RawFd};

/// A close-on-exec duplicate of `fd`, an fd number the JS caller owns.
pub fn dup_cloexec(fd: RawFd) -> io::Result<OwnedFd> {
    if fd < 0 {
        return Err(io::Error::from_raw_os_error(libc::EBADF));
    }
    // SAFETY: invariant 1: `fd` is only used for the duration of this
    // call, to make a duplicate; if it is not open, fcntl fails with EBADF
    // and nothing else happens.
    let borrowed = unsafe { BorrowedFd::borrow_raw(fd) };
    Ok(rustix::io::fcntl_dupfd_cloexec(borrowed, 0)?)
}

/// Takes over a pipe end the JS side never used (its stdin, say) and will
/// not use again: closed when the result is dropped.
pub fn own_parent_end(fd: RawFd) -> Option<OwnedFd> {
    // SAFETY: invariant 5: the addon made this fd, JS owns it and gives
    // it up here; nothing else refers to it.
    (fd >= 0).then(|| unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fd) })
}

/// Reads and discards what is buffered on a pipe end that JS never wrapped
/// in a stream, without waiting: 1 at its end of stream, 0 if it is still
/// open (someone may still write), `-errno` on an error.
pub fn drain_parent_end(fd: RawFd) -> i32 {
    if fd < 0 {
        return -libc::EBADF;
    }
    // SAFETY: invariant 5: the addon made this fd and JS, which owns it,
    // keeps it open during the call.
    let fd = unsafe { BorrowedFd::borrow_raw(fd) };
    let mut buf = [std::mem::MaybeUninit::<u8>::uninit(); 16384];
    loop {
        match rustix::net::recv(fd, &mut buf[..], rustix::net::RecvFlags::DONTWAIT) {
            Ok((_, 0)) => return 1,
            Ok(_) => continue,
            Err(rustix::io::Errno::INTR) => continue,
            Err(rustix::io::Errno::AGAIN) => return 0,
            Err(err) => return -err.raw_os_error(),
        }
    }
}

/// Whether the child of pidfd `fd` (not yet watched) exits within
/// `timeout`: waits for its pidfd to become readable, asleep in `ppoll`,
/// or with `busy` polling it with a zero timeout until then.
pub fn pidfd_exited_within(fd: RawFd, timeout: std::time::Duration, busy: bool) -> bool {
    // SAFETY: invariant 4: the pidfd stays open until the child is reaped,
    // which nobody does before this call returns; the borrow ends with it.
    let fd = unsafe { BorrowedFd::borrow_raw(fd) };
    let mut fds = [rustix::event::PollFd::new(
        &fd,
        rustix::event::PollFlags::IN,
    )];
    if busy {
        let zero = rustix::event::Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        let start = std::time::Instant::now();
        loop {
            match rustix::event::poll(&mut fds, Some(&zero)) {
                Ok(n) if n > 0 => return true,
                Ok(_) | Err(rustix::io::Errno::INTR) => {}
                Err(_) => return false,
            }
            if start.elapsed() >= timeout {
                return false;
            }
            std::hint::spin_loop();
        }
    }
    let timeout = rustix::event::Timespec {
        tv_sec: 0,
        tv_nsec: timeout.as_nanos().min(999_999_999) as i64,
    };
    loop {
        match rustix::event::poll(&mut fds, Some(&timeout)) {
            Ok(n) => return n > 0,
            Err(rustix::io::Errno::INTR) => continue,
            Err(_) => return false,
        }
    }
}

/// The pidfd `fd` of a child that is not yet watched, for `epoll_ctl`.
pub fn borrow_pidfd(fd: RawFd) -> BorrowedFd<'static> {
    // SAFETY: invariant 4: the pidfd stays open until the child is reaped,
    // which cannot happen before the watch that uses this borrow is made;
    // epoll keeps no reference to the number.
    unsafe { BorrowedFd::borrow_raw(fd) }
}

unsafe extern "C" {
    static environ: *const *const libc::c_char;
}

/// A fingerprint of the process environment: the address of the `environ`
/// array and of every entry in it. `setenv`, `unsetenv` and `putenv` change
/// at least one of them (glibc never rewrites an entry's string in place;
/// a string it reuses for a later `setenv` of the same `NAME=VALUE` has the
/// same contents), so an unchanged fingerprint means unchanged contents.
pub fn environ_fingerprint() -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |value: usize| {
        hash = (hash ^ value as u64).wrapping_mul(0x0000_0100_0000_01b3);
    };
    // SAFETY: invariant 6: nothing changes `environ` while this reads it;
    // it is NULL or a NULL-terminated array of pointers, of which only the
    // values are read (never the strings).
    unsafe {
        let array = environ;
        mix(array as usize);
        if !array.is_null() {
            let mut entry = array;
            while !(*entry).is_null() {
                mix(*entry as usize);
                entry = entry.add(1);
            }
        }
    }
    hash
}

/// `napi_ref_threadsafe_function` / `napi_unref_threadsafe_function`:
/// whether the threadsafe function keeps the event loop alive.
pub fn set_ref(
    env: napi::sys::napi_env,
    tsfn: napi::sys::napi_threadsafe_function,
    keep_alive: bool,
) -> napi::Result<()> {
    // SAFETY: invariant 2: `env` is the calling JS thread's environment and
    // `tsfn` a live threadsafe function created in it (the context that
    // owns it is alive for as long as the environment).
    let status = unsafe {
        if keep_alive {
            napi::sys::napi_ref_threadsafe_function(env, tsfn)
        } else {
            napi::sys::napi_unref_threadsafe_function(env, tsfn)
        }
    };
    if status == napi::sys::Status::napi_ok {
        Ok(())
    } else {
        Err(napi::Error::from_reason(format!(
            "fastspawn: napi_(un)ref_threadsafe_function failed with status {status}"
        )))
    }
}

/// How many times the kernel has switched the calling thread out against
/// its will (`getrusage(RUSAGE_THREAD)`'s `ru_nivcsw`): a measurement whose
/// count moved was preempted, and measured the scheduler.
pub fn thread_involuntary_switches() -> i64 {
    // SAFETY: invariant 7: `usage` is a valid, writable `rusage` for the
    // whole call; getrusage writes nothing else.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    let ret = unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut usage) };
    if ret == 0 { usage.ru_nivcsw } else { -1 }
}

/// `sendmsg` of `data` on the stream socket `socket` with `fd` attached as
/// `SCM_RIGHTS` (how libuv passes a handle over Node's IPC channel): the
/// bytes sent (the fd goes with the first of them), or `-errno` (EAGAIN
/// when the socket's buffer is full: nothing was sent).
pub fn send_with_fd(socket: RawFd, data: &[u8], fd: RawFd) -> i64 {
    use rustix::net::{SendAncillaryBuffer, SendAncillaryMessage, SendFlags};
    use std::mem::MaybeUninit;
    if socket < 0 || fd < 0 {
        return -i64::from(libc::EBADF);
    }
    // SAFETY: invariant 8: both fds are open for the duration of this
    // call, which keeps no reference to them.
    let (socket, fd) = unsafe { (BorrowedFd::borrow_raw(socket), BorrowedFd::borrow_raw(fd)) };
    let fds = [fd];
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(1))];
    let mut control = SendAncillaryBuffer::new(&mut space);
    if !control.push(SendAncillaryMessage::ScmRights(&fds)) {
        return -i64::from(libc::ENOBUFS);
    }
    loop {
        match rustix::net::sendmsg(
            socket,
            &[std::io::IoSlice::new(data)],
            &mut control,
            SendFlags::NOSIGNAL,
        ) {
            Ok(n) => return n as i64,
            Err(rustix::io::Errno::INTR) => continue,
            Err(err) => return -i64::from(err.raw_os_error()),
        }
    }
}
