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
//!    [`borrow_pidfd`], is open: it is owned by the child's registry entry
//!    and closed only when the waiter reaps the child, which it can do only
//!    after the watch that borrows it.
//! 5. An fd given to [`close_parent_end`] is the parent's end of a pipe
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
//! 9. libuv's functions are looked up by name in the running process
//!    ([`uv`]) and called with the signatures of libuv 1.x's `uv.h` (Node
//!    exports them; where one is missing nothing of libuv is used). They
//!    are only called on the JS thread whose loop [`loop_poll_start`] was
//!    given (`napi_get_uv_event_loop` of that thread's environment), from
//!    `#[napi]` calls, threadsafe-function callbacks and libuv callbacks
//!    of that loop.
//! 10. A poll handle is `malloc`ed here with `uv_handle_size(UV_POLL)`
//!     bytes and initialised by `uv_poll_init`; one is made per JS thread
//!     (on Node's main thread only), on an epoll set that stays open for
//!     the life of the process, and it polls until the process ends; it is
//!     freed only in a close callback, after `uv_close` (a failed start).

use std::ffi::{c_int, c_void};
use std::io;
use std::os::fd::{BorrowedFd, OwnedFd, RawFd};
use std::sync::OnceLock;

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

/// Closes a pipe end the JS side never used (its stdin, say).
pub fn close_parent_end(fd: RawFd) {
    if fd >= 0 {
        // SAFETY: invariant 5: the addon made this fd, JS owns it and gives
        // it up here; nothing else refers to it.
        drop(unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fd) });
    }
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

type UvPollCb = unsafe extern "C" fn(*mut c_void, c_int, c_int);
type UvCloseCb = unsafe extern "C" fn(*mut c_void);

type UvHandleSize = unsafe extern "C" fn(c_int) -> usize;
type UvPollInit = unsafe extern "C" fn(*mut c_void, *mut c_void, c_int) -> c_int;
type UvPollStart = unsafe extern "C" fn(*mut c_void, c_int, UvPollCb) -> c_int;
type UvClose = unsafe extern "C" fn(*mut c_void, UvCloseCb);
type UvUnref = unsafe extern "C" fn(*mut c_void);

/// The libuv functions a poll handle needs.
struct Uv {
    handle_size: UvHandleSize,
    poll_init: UvPollInit,
    poll_start: UvPollStart,
    close: UvClose,
    unref: UvUnref,
}

/// `UV_POLL` of `uv_handle_type`, `UV_READABLE` of `uv_poll_event`.
const UV_POLL: c_int = 8;
const UV_READABLE: c_int = 1;

/// libuv's functions in this process (invariant 9), or None.
fn uv() -> Option<&'static Uv> {
    static UV: OnceLock<Option<Uv>> = OnceLock::new();
    UV.get_or_init(|| {
        let find = |name: &std::ffi::CStr| {
            // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name
            // only looks the name up.
            let p = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) };
            (!p.is_null()).then_some(p)
        };
        // SAFETY (every transmute): invariant 9: each symbol is libuv's
        // function of that name, whose C signature is the one given.
        unsafe {
            Some(Uv {
                handle_size: std::mem::transmute::<*mut c_void, UvHandleSize>(find(
                    c"uv_handle_size",
                )?),
                poll_init: std::mem::transmute::<*mut c_void, UvPollInit>(find(c"uv_poll_init")?),
                poll_start: std::mem::transmute::<*mut c_void, UvPollStart>(find(
                    c"uv_poll_start",
                )?),
                close: std::mem::transmute::<*mut c_void, UvClose>(find(c"uv_close")?),
                unref: std::mem::transmute::<*mut c_void, UvUnref>(find(c"uv_unref")?),
            })
        }
    })
    .as_ref()
}

/// Whether this process has libuv's poll handles (Node; not Bun or Deno).
pub fn loop_poll_supported() -> bool {
    uv().is_some()
}

/// The libuv loop of the calling JS thread's environment.
pub fn uv_loop(env: &napi::Env) -> napi::Result<usize> {
    Ok(env.get_uv_event_loop()? as usize)
}

/// Polls `fd` (the epoll set of `looppoll.rs`) for readability on
/// `uv_loop`, the calling thread's loop, for as long as the process runs:
/// [`crate::looppoll`]'s callback runs on this thread when it is readable.
/// The handle does not keep the loop alive (the JS side refs its
/// threadsafe function for that).
pub fn loop_poll_start(uv_loop: usize, fd: RawFd) -> io::Result<()> {
    let Some(uv) = uv() else {
        return Err(io::Error::from_raw_os_error(libc::ENOSYS));
    };
    // SAFETY: invariants 9 and 10: a block of the size libuv asks for,
    // initialised by uv_poll_init before any other use, on the loop's own
    // thread; on a failed init it was never registered and is freed here.
    unsafe {
        let handle = libc::malloc((uv.handle_size)(UV_POLL));
        if handle.is_null() {
            return Err(io::Error::from_raw_os_error(libc::ENOMEM));
        }
        let ret = (uv.poll_init)(uv_loop as *mut c_void, handle, fd);
        if ret != 0 {
            libc::free(handle);
            return Err(io::Error::from_raw_os_error(-ret));
        }
        (uv.unref)(handle);
        let ret = (uv.poll_start)(handle, UV_READABLE, on_readable);
        if ret != 0 {
            (uv.close)(handle, on_closed);
            return Err(io::Error::from_raw_os_error(-ret));
        }
    }
    Ok(())
}

/// The polled set is readable.
unsafe extern "C" fn on_readable(_handle: *mut c_void, _status: c_int, _events: c_int) {
    crate::loop_ready();
}

unsafe extern "C" fn on_closed(handle: *mut c_void) {
    // SAFETY: invariant 10: libuv is done with the handle, malloc'ed here.
    unsafe { libc::free(handle) };
}
