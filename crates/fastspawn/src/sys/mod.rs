//! Everything that talks to the kernel, and the only place with `unsafe`.
//!
//! # Safety
//!
//! The invariants every file here keeps:
//!
//! - Code that runs in a child created with `CLONE_VM` (everything reachable
//!   from [`child::run`]) shares the parent's memory while the parent thread
//!   is suspended. It only reads data the parent prepared before the clone,
//!   writes nothing but the error slot, makes raw system calls through
//!   [`raw`], and never returns into a parent frame. `child.rs` lists the
//!   rules in full.
//! - File descriptors cross function boundaries as `OwnedFd`/`BorrowedFd`;
//!   a bare `RawFd` appears only in the plan handed to the child.
//! - Each `unsafe` block carries a `// SAFETY:` comment saying why it holds.

pub(crate) mod autokill;
pub(crate) mod cgroup;
pub(crate) mod child;
pub(crate) mod clone;
pub(crate) mod cstr;
pub(crate) mod env;
pub(crate) mod fork;
pub(crate) mod io;
pub(crate) mod per_process;
pub(crate) mod posix_spawn;
pub(crate) mod probe;
pub(crate) mod raw;
#[cfg(feature = "tokio")]
pub(crate) mod reactor;
pub(crate) mod uring;
pub(crate) mod wait;
