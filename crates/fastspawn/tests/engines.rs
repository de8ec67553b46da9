//! Choosing engines: `Auto`, `require_vfork`, and a big parent.

use std::io;

use fastspawn::{Engine, Resource, Stdio};

use crate::util::{self, pipe, probe_cmd, read_all};

/// Fork + require_vfork: refused with `Unsupported`, and nothing started.
#[test]
fn fork_with_require_vfork_is_refused() {
    let _guard = util::exclusive();
    let before = util::open_fds();
    let (r, w) = pipe();
    let mut cmd = probe_cmd(["write-fd", "3", "started"]);
    cmd.fd(3, w).engine(Engine::Fork).require_vfork(true);
    let err = cmd.spawn().expect_err("fork is not a vfork engine");
    assert_eq!(err.kind(), io::ErrorKind::Unsupported, "{err}");
    drop(cmd);
    assert_eq!(read_all(r), b"", "a child was started");
    util::assert_fds_unchanged(&before, "refused fork");
    util::assert_no_zombies("refused fork");

    // Turning it off again allows the fork.
    let mut cmd = probe_cmd(["exit", "0"]);
    cmd.engine(Engine::Fork)
        .require_vfork(true)
        .require_vfork(false);
    let mut child = cmd.spawn().expect("fork allowed");
    assert_eq!(child.engine(), Engine::Fork);
    assert!(child.wait().expect("wait").success());
}

/// Auto + require_vfork works and reports the concrete vfork engine it used.
#[test]
fn auto_with_require_vfork() {
    let _guard = util::shared();
    for setup in [false, true] {
        let mut cmd = probe_cmd(["exit", "0"]);
        cmd.require_vfork(true).stdin(Stdio::null());
        if setup {
            // Options posix_spawn cannot apply: Auto must still find a vfork engine.
            cmd.rlimit(Resource::Core, 0, 0)
                .umask(0o022)
                .pdeathsig(libc::SIGKILL);
        }
        let mut child = cmd.spawn().expect("spawn");
        let engine = child.engine();
        assert_ne!(engine, Engine::Fork);
        assert_ne!(
            engine,
            Engine::Auto,
            "engine() names the engine really used"
        );
        assert!(engine.is_vfork());
        if setup {
            assert_ne!(
                engine,
                Engine::PosixSpawn,
                "posix-spawn cannot apply those options"
            );
        }
        assert!(child.wait().expect("wait").success());
    }

    // The vfork engines accept require_vfork.
    for engine in [Engine::Clone3, Engine::CloneVfork, Engine::PosixSpawn] {
        if !util::engine_usable(engine) {
            continue;
        }
        let mut child = util::spawn(probe_cmd(["exit", "0"]).require_vfork(true), engine);
        assert!(child.wait().expect("wait").success());
    }
}

/// Auto picks clone3 where the kernel has it.
#[test]
fn auto_prefers_clone3() {
    let _guard = util::shared();
    let mut child = probe_cmd(["exit", "0"]).spawn().expect("spawn");
    assert!(child.wait().expect("wait").success());
    if Engine::Clone3.is_available() {
        assert_eq!(child.engine(), Engine::Clone3);
    } else {
        util::skip("clone3 is not available: Auto cannot pick it");
        assert_ne!(child.engine(), Engine::Auto);
    }
}

/// In a 2 GiB parent, Auto still uses clone3 (a vfork engine), whose cost
/// does not depend on the parent's size.
#[test]
fn big_parent_uses_clone3() {
    let _guard = util::exclusive();
    if !Engine::Clone3.is_available() {
        util::skip("clone3 is not available");
        return;
    }
    const SIZE: usize = 2 << 30;
    let mut memory = vec![0u8; SIZE];
    for i in (0..SIZE).step_by(4096) {
        memory[i] = (i >> 12) as u8 | 1;
    }
    let memory = std::hint::black_box(memory);

    let mut child = probe_cmd(["exit", "0"]).spawn().expect("spawn");
    assert_eq!(child.engine(), Engine::Clone3);
    assert!(child.wait().expect("wait").success());

    // And with stdio pipes and a mapping.
    let (r, w) = pipe();
    let mut cmd = probe_cmd(["write-fd", "3", "big"]);
    cmd.fd(3, w).stdout(Stdio::piped());
    let child = cmd.spawn().expect("spawn");
    assert_eq!(child.engine(), Engine::Clone3);
    assert!(child.wait_with_output().expect("wait").status.success());
    drop(cmd);
    assert_eq!(read_all(r), b"big");
    assert_eq!(memory[4096 * 7], 7 | 1);
}

#[test]
fn engine_names_and_availability() {
    assert!(Engine::Auto.is_vfork());
    assert!(!Engine::Fork.is_vfork());
    assert!(Engine::Fork.is_available());
    assert!(Engine::PosixSpawn.is_available());
    for engine in Engine::ALL {
        assert_ne!(engine, Engine::Auto);
        assert_eq!(engine.to_string().parse::<Engine>(), Ok(engine));
    }
}
