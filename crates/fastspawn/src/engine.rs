//! Which mechanism starts the child, and what the kernel offers.
//!
//! All engines run the same child code (see `sys/child.rs`); they differ in
//! how the child is created:
//!
//! | engine | how | needs |
//! | --- | --- | --- |
//! | [`Engine::Clone3`] | `clone3(CLONE_VM\|CLONE_VFORK\|CLONE_PIDFD\|CLONE_CLEAR_SIGHAND[\|CLONE_INTO_CGROUP])` | Linux 5.5 (5.7 for cgroups) |
//! | [`Engine::CloneVfork`] | `clone(CLONE_VM\|CLONE_VFORK)`, handlers reset by the child | any Linux |
//! | [`Engine::PosixSpawn`] | the C library's `posix_spawn` | cannot apply uid, gid, groups, rlimits, umask, pdeathsig, cgroup |
//! | [`Engine::Fork`] | `fork()`; for comparison only | copies page tables: cost grows with the parent's memory |
//!
//! [`Engine::Auto`] tries them in that order. A kernel feature that fails
//! with `ENOSYS`, `EPERM` or `EINVAL` (old kernels, seccomp filters in
//! containers) is remembered for the life of the process, so the probe costs
//! one failed system call once: where a sandbox refuses `clone3` (ENOSYS)
//! and every `CLONE_VM` clone (EPERM), `Auto` goes straight to `Fork`
//! after the first spawn, and [`Command::require_vfork`](crate::Command::require_vfork)
//! makes that an `Unsupported` error. Pidfds (`CLONE_PIDFD` 5.2,
//! `pidfd_open` 5.3, `waitid(P_PIDFD)` 5.4) are probed the same way, but
//! only a refusal is remembered: a probe that fails for want of a free fd
//! (EMFILE) is repeated later. Without pidfds children are waited for by
//! pid.
//!
//! glibc's `posix_spawn` returns one errno for its clone and for every step
//! of the child; after a failure the `PosixSpawn` engine asks once more with
//! a file action that fails in any child, to name the real step (the clone
//! under `RLIMIT_NPROC` or a seccomp filter, else the child's).

use std::fmt;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

/// How a [`Command`](crate::Command) creates its child.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Engine {
    /// The fastest engine the kernel allows: `Clone3`, else `CloneVfork`,
    /// else `PosixSpawn` (when it can apply every option), else `Fork`
    /// (unless [`Command::require_vfork`](crate::Command::require_vfork)).
    #[default]
    Auto,
    /// `clone3` with `CLONE_VM|CLONE_VFORK|CLONE_PIDFD|CLONE_CLEAR_SIGHAND`.
    Clone3,
    /// `clone` with `CLONE_VM|CLONE_VFORK`, for kernels without `clone3`.
    CloneVfork,
    /// The C library's `posix_spawn`.
    PosixSpawn,
    /// `fork`, then the same child steps; for comparison.
    Fork,
}

impl Engine {
    /// Every concrete engine, fastest first.
    pub const ALL: [Engine; 4] = [
        Engine::Clone3,
        Engine::CloneVfork,
        Engine::PosixSpawn,
        Engine::Fork,
    ];

    /// Whether this engine shares the parent's memory instead of copying its
    /// page tables (`Auto` counts as vfork: it only forks as a last resort).
    pub fn is_vfork(self) -> bool {
        !matches!(self, Engine::Fork)
    }

    /// Whether this process can use the engine, as far as is known now.
    /// `Clone3` becomes unavailable once the kernel refused it.
    pub fn is_available(self) -> bool {
        match self {
            Engine::Clone3 => clone3_usable(false),
            Engine::CloneVfork => {
                cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) && !vfork_refused()
            }
            Engine::PosixSpawn => !vfork_refused(),
            _ => true,
        }
    }

    /// A short lowercase name: `clone3`, `clone-vfork`, `posix-spawn`, `fork`, `auto`.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Auto => "auto",
            Engine::Clone3 => "clone3",
            Engine::CloneVfork => "clone-vfork",
            Engine::PosixSpawn => "posix-spawn",
            Engine::Fork => "fork",
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Engine {
    type Err = String;

    fn from_str(s: &str) -> Result<Engine, String> {
        match s {
            "auto" => Ok(Engine::Auto),
            "clone3" => Ok(Engine::Clone3),
            "clone-vfork" | "clone" | "vfork" => Ok(Engine::CloneVfork),
            "posix-spawn" | "posix_spawn" => Ok(Engine::PosixSpawn),
            "fork" => Ok(Engine::Fork),
            other => Err(format!(
                "unknown engine {other:?} (expected auto, clone3, clone-vfork, posix-spawn or fork)"
            )),
        }
    }
}

/// Kernel features, probed once per process.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Features {
    /// `clone3` exists and accepts `CLONE_CLEAR_SIGHAND` (checked lazily by
    /// the first real spawn; see [`note_clone3_refused`]).
    pub clone3: bool,
    /// `close_range` exists (Linux 5.9).
    pub close_range: bool,
}

static FEATURES: OnceLock<Features> = OnceLock::new();
/// Pidfds: 0 not known yet, 1 usable, 2 refused by the kernel or a seccomp
/// filter (ENOSYS, EPERM, EINVAL), which is the only answer ever cached.
static PIDFD: AtomicU8 = AtomicU8::new(0);
/// 1 once a vfork clone (`clone(CLONE_VM|CLONE_VFORK)` or posix_spawn's)
/// failed with ENOSYS/EPERM.
static VFORK_REFUSED: AtomicU8 = AtomicU8::new(0);
/// 1 once a `clone3` call failed with ENOSYS/EPERM/EINVAL.
static CLONE3_REFUSED: AtomicU8 = AtomicU8::new(0);
/// 1 once a `clone3` with `CLONE_INTO_CGROUP` failed with EINVAL/ENOSYS (kernel < 5.7).
static CLONE3_CGROUP_REFUSED: AtomicU8 = AtomicU8::new(0);

pub(crate) fn features() -> Features {
    *FEATURES.get_or_init(crate::sys::probe::probe)
}

/// Whether the kernel gives pidfds (`pidfd_open`, `waitid(P_PIDFD)`).
///
/// The probe needs a free fd: when it fails for a passing reason (EMFILE,
/// ENFILE, ENOMEM) the answer is "not this time" and the next call probes
/// again, so a spawn at the fd limit does not switch pidfds off for the
/// life of the process.
pub(crate) fn pidfd_usable() -> bool {
    match PIDFD.load(Ordering::Relaxed) {
        1 => true,
        2 => false,
        _ => match crate::sys::probe::has_pidfd() {
            Some(yes) => {
                PIDFD.store(if yes { 1 } else { 2 }, Ordering::Relaxed);
                yes
            }
            None => false,
        },
    }
}

/// Whether a vfork clone (`CLONE_VM` without `clone3`) was refused by the
/// kernel or a seccomp filter: then `Auto` goes straight to `Fork`.
pub(crate) fn vfork_refused() -> bool {
    VFORK_REFUSED.load(Ordering::Relaxed) != 0
}

/// Remembers that the kernel (or a seccomp filter) refused a vfork clone.
pub(crate) fn note_vfork_refused() {
    VFORK_REFUSED.store(1, Ordering::Relaxed);
}

pub(crate) fn clone3_usable(with_cgroup: bool) -> bool {
    features().clone3
        && CLONE3_REFUSED.load(Ordering::Relaxed) == 0
        && (!with_cgroup || CLONE3_CGROUP_REFUSED.load(Ordering::Relaxed) == 0)
}

/// Remembers that the kernel (or a seccomp filter) refused `clone3`.
pub(crate) fn note_clone3_refused(with_cgroup: bool) {
    if with_cgroup {
        CLONE3_CGROUP_REFUSED.store(1, Ordering::Relaxed);
    } else {
        CLONE3_REFUSED.store(1, Ordering::Relaxed);
    }
}

/// Whether an errno from creating a process means "this mechanism is not
/// available here" rather than a failure the caller must see.
pub(crate) fn is_refusal(errno: i32) -> bool {
    matches!(errno, libc::ENOSYS | libc::EPERM | libc::EINVAL)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for engine in [Engine::Auto].into_iter().chain(Engine::ALL) {
            assert_eq!(engine.name().parse::<Engine>().unwrap(), engine);
        }
        assert!(
            "nope"
                .parse::<Engine>()
                .unwrap_err()
                .contains("unknown engine")
        );
    }
}
