//! What the kernel offered this process, as fastspawn found it.
//!
//! fastspawn probes `clone3`, pidfds and `close_range` once per process with
//! calls that cannot have an effect (see `sys/probe.rs`), and remembers when
//! a real spawn through `clone3` was refused (an old kernel, or a seccomp
//! filter in a container). [`features`] reports both, for diagnostics such
//! as the `fastspawn doctor` command; spawning never needs it.

/// Kernel features as probed by this process. See [`features`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct KernelFeatures {
    /// The `clone3` system call exists (Linux 5.3; x86_64 only in fastspawn
    /// today). Whether it accepts `CLONE_CLEAR_SIGHAND` (5.5) is known only
    /// after a spawn: see [`clone3_refused`](Self::clone3_refused).
    pub clone3: bool,
    /// A `clone3` spawn was refused (`ENOSYS`, `EPERM` or `EINVAL`) and
    /// [`Engine::Auto`](crate::Engine::Auto) no longer tries it.
    pub clone3_refused: bool,
    /// A `clone3` spawn with `CLONE_INTO_CGROUP` (5.7) was refused, so
    /// children join their cgroup by a write to `cgroup.procs` instead.
    pub clone3_cgroup_refused: bool,
    /// `pidfd_open` (5.3) and `waitid(P_PIDFD)` (5.4) work: children are
    /// waited for and signalled through pidfds.
    pub pidfd: bool,
    /// `close_range` (5.9) exists: the child closes inherited fds in a few
    /// calls instead of one per fd.
    pub close_range: bool,
}

/// What the kernel offered this process so far: probed on the first call
/// (or the first spawn), refusals recorded by later spawns.
///
/// ```
/// let f = fastspawn::features();
/// println!("clone3: {}, pidfds: {}", f.clone3 && !f.clone3_refused, f.pidfd);
/// ```
pub fn features() -> KernelFeatures {
    let probed = crate::engine::features();
    KernelFeatures {
        clone3: probed.clone3,
        clone3_refused: probed.clone3 && !crate::engine::clone3_usable(false),
        clone3_cgroup_refused: probed.clone3
            && crate::engine::clone3_usable(false)
            && !crate::engine::clone3_usable(true),
        pidfd: crate::engine::pidfd_usable(),
        close_range: probed.close_range,
    }
}
