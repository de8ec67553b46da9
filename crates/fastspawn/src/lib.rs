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
//! # Process trees
//!
//! [`Command::contain`] starts the child in a cgroup v2 of its own, placed
//! there by `clone3(CLONE_INTO_CGROUP)` on the vfork path, so that the child
//! and everything it starts (grandchildren that called `setsid` or
//! double-forked included) can be killed ([`Child::kill_tree`], through
//! `cgroup.kill`), waited for ([`Child::wait_tree`], sleeping on
//! `cgroup.events`), listed ([`Child::tree_pids`]), frozen
//! ([`Child::freeze`]) and measured ([`Child::usage`]); limits
//! ([`Command::memory_max`], [`Command::pids_max`], [`Command::cpu_max`])
//! need the controllers and a parent cgroup without processes of its own.
//! Without a writable cgroup v2 it falls back to a new session with the
//! caller as child subreaper, which misses a daemon that leaves the session
//! and its parent between two scans; [`Command::require_contained`] turns
//! the fallback into an error. [`Command::autokill`] asks for
//! `CLONE_PIDFD_AUTOKILL` (Linux 7.1). `docs/trees.md` has the design,
//! kernel versions and limits.
//!
//! ```no_run
//! use fastspawn::Command;
//!
//! let mut child = Command::new("sh").args(["-c", "make -j8"]).contain(true).spawn()?;
//! // ... later: stop the build and everything it started, daemons included.
//! child.kill_tree(libc::SIGKILL)?;
//! child.wait_tree()?;
//! println!("CPU time of the whole tree: {:?}", child.usage()?.cpu);
//! # Ok::<(), fastspawn::Error>(())
//! ```
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
