//! Start processes on Linux without `fork`.
//!
//! `fastspawn::Command` has the names and semantics of
//! [`std::process::Command`], and adds the options that make std (and most
//! runtimes) fall back to `fork`: fd mapping, uid/gid/groups, rlimits,
//! pdeathsig, umask, setsid, process groups and cgroup placement. All of them
//! are applied by a child created with `clone3(CLONE_VM|CLONE_VFORK)`, which
//! shares the parent's memory instead of copying its page tables, so the cost
//! of a spawn does not grow with the parent's size.
//!
//! ```no_run
//! use fastspawn::{Command, Stdio};
//!
//! let out = Command::new("ls")
//!     .arg("-l")
//!     .current_dir("/tmp")
//!     .setsid(true)
//!     .stderr(Stdio::null())
//!     .output()?;
//! assert!(out.status.success());
//! # Ok::<(), fastspawn::Error>(())
//! ```
//!
//! # What a spawn costs
//!
//! A `Command` prepares its argv, envp and resolved executable on its first
//! spawn and reuses them: a second spawn of the same command allocates only
//! the pipes it asks for. Environment overrides are merged in one pass over
//! the parent's environment, without sorting it. A bare program name is
//! resolved once per `(name, PATH)` and cached, so it costs no failed
//! `execve` per PATH entry.
//!
//! # Engines
//!
//! See [`Engine`]. [`Child::engine`] tells which one started a child, and
//! [`Command::require_vfork`] turns a fall-back to `fork` into an error.
//!
//! # Async and parallel spawning
//!
//! A [`Pool`] owns long-lived spawner threads; with the `tokio` feature,
//! [`tokio::Command`](crate::tokio::Command)'s `spawn` is an `async fn` that
//! hands the spawn to a pool and awaits the answer, so an event loop never
//! runs a clone or an exec, and its children are waited for through their
//! pidfds on the reactor. [`Pool::spawn_many`] starts a batch of variants of
//! one command on all the pool's threads.
//!
//! # Differences from std
//!
//! - Every fd that is not stdio and not mapped with [`Command::fd`] is closed
//!   in the child, whether or not it has `FD_CLOEXEC`.
//! - Spawning returns [`Error`], which converts into `io::Error` and names
//!   the program and the failing step.

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod child;
mod command;
mod engine;
mod error;
mod fdplan;
mod path;
mod pool;
mod prepare;
#[cfg(feature = "tokio")]
mod reaper;
mod spawn;
mod stdio;
#[allow(unsafe_code)]
mod sys;
#[cfg(feature = "tokio")]
pub mod tokio;
mod tree;

pub use child::{Child, ExitStatus, Output};
pub use command::{Command, RLIM_INFINITY, Resource};
pub use engine::Engine;
pub use error::{Error, Result, Step};
pub use pool::{Pool, Variant};
pub use stdio::{ChildStderr, ChildStdin, ChildStdout, Stdio};
pub use tree::{CgroupDir, Containment, Usage};
