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
//! Kept on purpose; each is tested (test names in brackets, in
//! `tests/`). Everything else follows std, checked by std's own process
//! tests ported to fastspawn (`std_port.rs`) and side-by-side tests
//! (`semantics.rs`).
//!
//! - Every fd that is not stdio and not mapped with [`Command::fd`] is closed
//!   in the child, whether or not it has `FD_CLOEXEC` (`fds::`);
//!   [`Command::exec`] marks them close-on-exec instead, so they survive a
//!   failed `execve` (`semantics::exec_replaces_the_process_like_std`).
//! - Spawning returns [`Error`], which names the program and the failing
//!   step. `io::Error::from` it gives what std would return: with an errno,
//!   `from_raw_os_error` (so `raw_os_error()` and the kind match std, and
//!   the program and step are only in [`Error`]'s own message); without
//!   one, the kind and the message (`semantics::io_error_keeps_raw_os_error_like_std`).
//! - A [`Child`] from `spawn()` has a pidfd by default (std's default is
//!   none), made when first needed; see [`Child`] for where the "never a
//!   recycled pid" guarantee comes from and its limit. So `{:#?}` of a
//!   [`Command`] says `create_pidfd: true` (`std_port::debug_print`,
//!   `semantics::lazy_pidfd_refuses_a_child_reaped_elsewhere`).
//! - [`Command::pre_exec`] runs only on [`Engine::Fork`] (which `Auto`
//!   then picks); other engines and `require_vfork` refuse it
//!   (`semantics::pre_exec_runs_on_the_fork_engine_only`). A command with
//!   closures cannot be copied with [`Command::try_clone`].
//! - A bare name is resolved in the parent, as the child's credentials
//!   would see it, and cached; the PATH directories before the match are
//!   watched (inotify: one fd per process, one `read` per spawn), so a new
//!   program there is found by the next spawn (`semantics::new_program_earlier_in_path_seen_by_next_spawn_like_std`,
//!   `faults::path_lookup_uses_the_child_credentials`). A directory that
//!   cannot be watched is checked by `stat` instead, which misses a file
//!   made executable there with `chmod` until the cached program fails to
//!   run. With `uid`, `gid` or `groups`, permissions are read from the mode
//!   bits (no ACLs).
//! - A file without `#!` is handed to `/bin/sh` exactly when std does: a
//!   bare name with PATH set by `env()` (std's `execvp` path); otherwise
//!   the spawn fails with `ENOEXEC`, as std's `posix_spawn` path does
//!   (`semantics::shebangless_script_through_env_path_like_std`).
//! - With `env()` overrides, the parent's other variables are referenced,
//!   not copied, so a `putenv` buffer rewritten in place is seen (as with
//!   std, which copies at every spawn); a rewrite that changes a variable's
//!   *name* is only noticed once the environment's pointers change
//!   (`semantics::putenv_rewritten_in_place_seen_with_env_overrides_like_std`).
//! - The child inherits the spawning thread's signal mask, as with std; for
//!   a [`Pool`] and the async API that is the spawner thread's mask
//!   (inherited from the thread that created the pool)
//!   (`process::mask_of_spawning_thread_inherited_as_std`, `std_port::test_process_mask`).
//! - `ChildStdout`/`ChildStderr` have no `read_buf` (reading into a
//!   caller's uninitialised buffer): `Read::read_buf` is unstable, std has
//!   it on nightly only. `read_to_end` and `read_to_string` go through
//!   std's `File`, which fills the vector's spare capacity without zeroing
//!   it first, as std's `ChildStdout` does.
//! - `fastspawn::tokio::Command::spawn` is an `async fn` (the spawn runs on
//!   a spawner thread), where tokio's is synchronous.
//!
//! # Tests of std and tokio not ported
//!
//! - std `child_stdout_read_buf`: `read_buf`/`BorrowedBuf` are nightly-only.
//! - std `test_program_kind`: tests std's internal `ProgramKind`.
//! - std `test_command_pidfd`: its assertion that a plain `spawn()` has no
//!   pidfd (fastspawn's default is one; the `pidfd(false)` case is ported)
//!   and its check of the internal `PidFd::pid()`; the rest is ported.
//! - std's Windows-only tests (`test_creation_flags`,
//!   `test_proc_thread_attributes`, `env_empty`, `run_bat_script`,
//!   `run_canonical_bat_script`).
//! - tokio `process_raw_handle.rs` (Windows) and
//!   `process_spawned_outside_runtime` (asserts tokio's panic when a
//!   synchronous spawn runs outside a runtime; fastspawn's spawn is an
//!   `async fn`, which cannot be awaited there at all).

#![deny(unsafe_code)]
#![cfg_attr(fastspawn_asan, feature(sanitize))]
#![warn(missing_docs)]

mod child;
mod command;
mod engine;
mod error;
mod fdplan;
mod path;
mod pidfd;
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

pub use child::{Child, ExitStatus, ExitStatusError, Output};
pub use command::{Command, RLIM_INFINITY, Resource};
pub use engine::Engine;
pub use error::{Error, Result, Step};
pub use pidfd::PidFd;
pub use pool::{Pool, Variant};
pub use stdio::{ChildStderr, ChildStdin, ChildStdout, Stdio};
