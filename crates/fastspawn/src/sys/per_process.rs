//! State that belongs to the process that made it, which a child made by
//! `fork()` must not use (the safe API is [`crate::per_process`]).
//!
//! A forked child has one thread, the one that forked, and a copy of the
//! parent's memory. Its copy of a process-wide value names threads it does
//! not have (a queue no thread will ever take a job from), may hold a lock
//! some other thread held at the fork (and never releases), and fds it
//! shares with its parent (an eventfd or an inotify instance whose events
//! either process may take, an io_uring whose queues are memory mapped
//! shared). [`generation`] is a number that changes in the child of every
//! `fork()` that runs the `pthread_atfork` handlers (glibc's `fork()`, so
//! Python's `os.fork()` and `multiprocessing`'s fork start method);
//! [`PerProcess`] holds one value per generation.
//!
//! # Safety
//!
//! The invariants this file keeps:
//!
//! - A [`PerProcess`] slot points either to nothing or to an [`Entry`]
//!   made by `Box::into_raw` and never freed: an entry is replaced only by
//!   a newer generation's (in a forked child), and the old one is leaked,
//!   since its value's destructor would join threads or close fds that are
//!   the parent's. So a reference taken from the slot lives for `'static`.
//! - The only `pthread_atfork` handler is [`in_child`], which does one
//!   atomic add (async-signal-safe, as a handler run after `fork()` in a
//!   multithreaded process must be).

use std::sync::Once;
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};

static GENERATION: AtomicU64 = AtomicU64::new(0);
static REGISTER: Once = Once::new();

extern "C" fn in_child() {
    GENERATION.fetch_add(1, Ordering::Relaxed);
}

/// The process's generation: 0 in the process that first asked, one more
/// in each forked child (of a `fork()` that runs `pthread_atfork`
/// handlers, which a raw `clone` or `vfork` does not). The handler is
/// registered on the first call, so a value made before any fork is told
/// apart in every child forked after it. One atomic load after the first
/// call.
pub fn generation() -> u64 {
    REGISTER.call_once(|| {
        // SAFETY: registers a child handler only (no prepare or parent
        // handler); `in_child` is a plain `extern "C"` function that does
        // one atomic add (see the file's invariants). The call's only
        // failure is ENOMEM, in which case forked children keep the
        // parent's generation, as before this code.
        unsafe {
            libc::pthread_atfork(None, None, Some(in_child));
        }
    });
    GENERATION.load(Ordering::Acquire)
}

struct Entry<T> {
    generation: u64,
    value: T,
}

/// A value made once per process: by the first caller in the process
/// that made it, and again by the first caller in each forked child,
/// where the parent's is left alone (leaked, see the file's invariants).
pub struct PerProcess<T> {
    slot: AtomicPtr<Entry<T>>,
    /// `generation + 1` of the call making the value now (0 when none):
    /// the others wait for it rather than make values of their own. A
    /// making that a fork cut short (in the parent's other thread) is of
    /// an older generation, so the child does not wait for it.
    making: AtomicU64,
}

// SAFETY: the slot only hands out shared references to the value (`T:
// Sync`), made and put in the slot by one thread and read by others
// (`T: Send`).
unsafe impl<T: Send + Sync> Sync for PerProcess<T> {}
// SAFETY: as for `Sync`.
unsafe impl<T: Send + Sync> Send for PerProcess<T> {}

impl<T: Send + Sync + 'static> PerProcess<T> {
    /// An empty slot, for a `static`.
    pub const fn new() -> PerProcess<T> {
        PerProcess {
            slot: AtomicPtr::new(std::ptr::null_mut()),
            making: AtomicU64::new(0),
        }
    }

    /// This process's value, if made.
    pub fn get(&self) -> Option<&'static T> {
        let entry = self.slot.load(Ordering::Acquire);
        if entry.is_null() {
            return None;
        }
        // SAFETY: a non-null slot points to an entry that is never freed
        // (the file's invariants), published with `Release` after it was
        // written.
        let entry: &'static Entry<T> = unsafe { &*entry };
        (entry.generation == generation()).then_some(&entry.value)
    }

    /// This process's value, made by `init` if it was not. One caller
    /// makes it; callers meanwhile wait for it (a failed `init` leaves
    /// the slot as it was, and the next caller tries again).
    pub fn get_or_try_init<E>(&self, init: impl FnOnce() -> Result<T, E>) -> Result<&'static T, E> {
        loop {
            if let Some(value) = self.get() {
                return Ok(value);
            }
            let now = generation() + 1;
            let making = self.making.load(Ordering::Acquire);
            if making == now {
                std::thread::yield_now();
                continue;
            }
            if self
                .making
                .compare_exchange(making, now, Ordering::AcqRel, Ordering::Acquire)
                .is_err()
            {
                continue;
            }
            // Ours to make: given up when this call returns, by any path
            // (an error or a panic of `init` too), so no caller waits for
            // ever.
            let _making = Making(&self.making);
            // Made meanwhile by a caller that finished before the exchange.
            if let Some(value) = self.get() {
                return Ok(value);
            }
            let value = init()?;
            let entry = Box::into_raw(Box::new(Entry {
                generation: now - 1,
                value,
            }));
            // The previous entry, if any, is an older generation's: leaked.
            self.slot.store(entry, Ordering::Release);
            // SAFETY: just made and published, never freed.
            return Ok(unsafe { &(*entry).value });
        }
    }

    /// This process's value, made by `init` if it was not.
    pub fn get_or_init(&self, init: impl FnOnce() -> T) -> &'static T {
        match self.get_or_try_init(|| Ok::<T, std::convert::Infallible>(init())) {
            Ok(value) => value,
            Err(never) => match never {},
        }
    }
}

/// A [`PerProcess`] being made by the holder: ends the making when dropped.
struct Making<'a>(&'a AtomicU64);

impl Drop for Making<'_> {
    fn drop(&mut self) {
        self.0.store(0, Ordering::Release);
    }
}

impl<T: Send + Sync + 'static> Default for PerProcess<T> {
    fn default() -> Self {
        PerProcess::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// Callers at once get one value, made once; a failed making leaves
    /// the slot empty for the next caller.
    #[test]
    fn one_value_per_process_made_once() {
        static VALUE: PerProcess<usize> = PerProcess::new();
        static MADE: AtomicUsize = AtomicUsize::new(0);
        assert!(VALUE.get().is_none());
        assert_eq!(
            VALUE.get_or_try_init(|| Err::<usize, _>("refused")),
            Err("refused")
        );
        assert!(VALUE.get().is_none());
        let values: Vec<usize> = std::thread::scope(|s| {
            let threads: Vec<_> = (0..8)
                .map(|i| {
                    s.spawn(move || {
                        *VALUE.get_or_init(|| {
                            MADE.fetch_add(1, Ordering::Relaxed);
                            std::thread::sleep(std::time::Duration::from_millis(20));
                            100 + i
                        })
                    })
                })
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).collect()
        });
        assert_eq!(MADE.load(Ordering::Relaxed), 1);
        assert!(values.iter().all(|v| *v == values[0]), "{values:?}");
        assert_eq!(VALUE.get(), Some(&values[0]));
    }

    /// A making that panics leaves the slot empty and made by nobody: the
    /// next caller makes the value (it does not wait for ever).
    #[test]
    fn a_panicking_making_lets_the_next_caller_make_it() {
        static VALUE: PerProcess<u32> = PerProcess::new();
        let panicked = std::thread::spawn(|| VALUE.get_or_init(|| panic!("the making fails")))
            .join()
            .is_err();
        assert!(panicked);
        assert!(VALUE.get().is_none());
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(*VALUE.get_or_init(|| 7));
        });
        let made = rx.recv_timeout(std::time::Duration::from_secs(10));
        assert_eq!(made, Ok(7), "the next caller made it");
    }
}
