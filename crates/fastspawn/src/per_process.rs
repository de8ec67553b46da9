//! Process-wide values that a child made by `fork()` makes anew.
//!
//! The library keeps a few values for the whole process, made on first
//! use: the global [`Pool`](crate::Pool)'s threads, the
//! [exit ring](crate::exit_ring), the background reaper and cgroup
//! cleaner, the PATH cache's inotify instance. A child forked after they
//! were made (Python's `os.fork()`, `multiprocessing`'s fork start method, a
//! pre-forking server) has none of the parent's threads, may find a lock
//! held forever by a thread it does not have, and shares the parent's fds
//! and io_uring queues. Each such value is a [`PerProcess`]: the first use
//! in a forked child makes its own, and the parent's copy is left alone
//! (never dropped: its destructor would join threads and close fds that
//! are the parent's).
//!
//! A child is told apart by [`generation`], which a `pthread_atfork`
//! handler bumps in it: every `fork()` of glibc runs it. A child made by a
//! raw `clone` system call (no atfork handlers) keeps its parent's
//! generation and must not use the library's process-wide values.

pub use crate::sys::per_process::{PerProcess, generation};
