//! Spawning from tokio without ever blocking the runtime (feature `tokio`).
//!
//! Mirrors `tokio::process`: [`Command::spawn`] is an `async fn` that hands
//! the spawn to a [`Pool`](crate::Pool) of spawner threads and awaits the
//! answer, so the runtime thread runs no clone, no exec and no PATH search.
//! A [`Child`] is waited for through its pidfd registered with the reactor:
//! there is no SIGCHLD handler, so the exit statuses of children started by
//! `std::process`, `tokio::process` or any other library are never taken.
//!
//! # Cancellation
//!
//! Dropping a spawn future at any point, or a `Child` before it was waited
//! for, leaks nothing: the child is killed if the command asked for
//! [`kill_on_drop`](Command::kill_on_drop), and in every case reaped in the
//! background once it exits (see `reaper.rs`). Its pipes are closed.
//!
//! # Limits
//!
//! Without pidfds (Linux before 5.3, or no fd left) a child is waited for
//! on tokio's blocking thread pool instead of the reactor.

mod child;
mod command;
mod tree;

pub use child::{Child, ChildStderr, ChildStdin, ChildStdout};
pub use command::Command;
