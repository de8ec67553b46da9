//! Regression tests for bugs found by injecting faults: a sandbox that
//! refuses `CLONE_VM`, no free fd at the first spawn, PATH lookup for another
//! user, signals during the Fork engine. Each test is named after its bug.

use std::io;
use std::process;

use fastspawn::{Command, Engine, Step};

use crate::util::{self, TempDir, probe_cmd};

const SECCOMP_HELPER: &str = "FASTSPAWN_TEST_SECCOMP_HELPER";
const EMFILE_HELPER: &str = "FASTSPAWN_TEST_EMFILE_HELPER";

/// Bug: with `clone3` -> ENOSYS and `clone(CLONE_VM)`/`vfork` -> EPERM,
/// `Engine::Auto` failed with "execve failed: Operation not permitted"
/// instead of falling back to `Fork`, and `require_vfork` said
/// PermissionDenied instead of Unsupported. The filter is installed in a
/// process of its own ([`auto_reaches_fork_when_vm_clones_are_refused_helper`]).
#[test]
fn auto_reaches_fork_when_vm_clones_are_refused() {
    let _guard = util::shared();
    let out = util::run_test_in_new_process(
        "faults::auto_reaches_fork_when_vm_clones_are_refused_helper",
        SECCOMP_HELPER,
        "seccomp-helper: ",
    );
    print!("{out}");
}

#[test]
#[ignore = "started by auto_reaches_fork_when_vm_clones_are_refused in a process of its own"]
fn auto_reaches_fork_when_vm_clones_are_refused_helper() {
    if std::env::var_os(SECCOMP_HELPER).is_none() {
        return;
    }
    if !util::deny_vm_clone() {
        println!("seccomp-helper: skipped");
        return;
    }
    // Auto: clone3, clone-vfork and posix-spawn are refused; fork works.
    let mut child = probe_cmd(["exit", "3"]).spawn().expect("Auto spawns");
    assert_eq!(child.engine(), Engine::Fork);
    assert!(child.pidfd().is_some(), "the forked child has a pidfd");
    assert_eq!(child.wait().expect("wait").code(), Some(3));
    let out = probe_cmd(["exit", "0"]).output().expect("output()");
    assert!(out.status.success());

    // require_vfork: Unsupported, as documented, naming the refusal.
    let err = probe_cmd(["exit", "0"])
        .require_vfork(true)
        .spawn()
        .expect_err("no vfork engine is allowed");
    assert_eq!(err.kind(), io::ErrorKind::Unsupported, "{err}");
    assert!(err.to_string().contains("refused"), "{err}");

    // Each vfork engine asked for by name: the clone is what failed.
    for engine in [Engine::Clone3, Engine::CloneVfork, Engine::PosixSpawn] {
        let err = probe_cmd(["exit", "0"])
            .engine(engine)
            .spawn()
            .expect_err("refused by the filter");
        println!("{engine}: {err}");
        match engine {
            // Known to be refused since the probe: not even tried.
            Engine::Clone3 => assert_eq!(err.kind(), io::ErrorKind::Unsupported, "{err}"),
            _ => {
                assert_eq!(*err.step(), Step::Clone, "{engine}: {err}");
                assert_eq!(err.raw_os_error(), Some(libc::EPERM), "{engine}: {err}");
            }
        }
    }
    util::assert_no_zombies("under the seccomp filter");
    println!("seccomp-helper: ok");
}

/// Bug: an EMFILE while probing for pidfds at the first spawn was cached as
/// "no pidfds", so no later child got one. Runs in a fresh process, where
/// the probe has not run yet.
#[test]
fn emfile_at_the_first_spawn_keeps_pidfds() {
    let _guard = util::shared();
    let out = util::run_test_in_new_process(
        "faults::emfile_at_the_first_spawn_keeps_pidfds_helper",
        EMFILE_HELPER,
        "emfile-helper: ok",
    );
    print!("{out}");
}

#[test]
#[ignore = "started by emfile_at_the_first_spawn_keeps_pidfds in a process of its own"]
fn emfile_at_the_first_spawn_keeps_pidfds_helper() {
    if std::env::var_os(EMFILE_HELPER).is_none() {
        return;
    }
    // The first spawns of this process, with no fd to spare (the
    // posix-spawn engine cannot even name fds at the limit, and the Fork
    // engine needs a pipe).
    let lim = util::exhaust_fds();
    let first: Vec<_> = [Engine::CloneVfork, Engine::Clone3]
        .into_iter()
        .filter(|e| e.is_available())
        .map(|engine| (engine, probe_cmd(["exit", "0"]).engine(engine).spawn()))
        .collect();
    // Each child wants its pidfd now, which first probes for pidfd support.
    let first: Vec<_> = first
        .into_iter()
        .map(|(engine, result)| {
            let pidfd = result.as_ref().ok().map(|child| child.pidfd().is_some());
            (engine, result, pidfd)
        })
        .collect();
    util::restore_nofile(lim);
    for (engine, result, pidfd) in first {
        let mut child = result.unwrap_or_else(|e| panic!("{engine} at the fd limit: {e}"));
        assert_eq!(pidfd, Some(false), "{engine}: no fd was free");
        // The probe itself may fail to load under that limit: only the
        // spawn matters here.
        child.wait().expect("wait");
    }
    // With fds free again, every engine's child gets its pidfd.
    for engine in Engine::ALL.into_iter().filter(|e| e.is_available()) {
        let mut child = probe_cmd(["exit", "0"])
            .engine(engine)
            .spawn()
            .unwrap_or_else(|e| panic!("{engine}: {e}"));
        assert!(
            child.pidfd().is_some(),
            "{engine}: pidfds were switched off by the EMFILE"
        );
        assert!(child.wait().expect("wait").success());
        println!("{engine}: pidfd after the EMFILE");
    }
    println!("emfile-helper: ok");
}

/// Bug: a bare name was resolved with the parent's rights, so with a
/// root-only first match and a world-executable second one, `uid(65534)`
/// failed with PermissionDenied where std runs the second copy.
#[test]
fn path_lookup_uses_the_child_credentials() {
    let _guard = util::shared();
    if !util::is_root() {
        util::skip("not root: cannot run a child as another user");
        return;
    }
    let dir = TempDir::new("path-uid");
    let first = dir.script("a/tool", "first");
    dir.script("b/tool", "second");
    std::fs::set_permissions(&first, std::os::unix::fs::PermissionsExt::from_mode(0o700))
        .expect("chmod");
    let path = format!("{}:{}", dir.join("a").display(), dir.join("b").display());

    use std::os::unix::process::CommandExt;
    let std_out = process::Command::new("tool")
        .env("PATH", &path)
        .uid(65534)
        .gid(65534)
        .output()
        .expect("std runs the second copy");
    for engine in [
        Engine::Auto,
        Engine::Clone3,
        Engine::CloneVfork,
        Engine::Fork,
    ] {
        if !engine.is_available() {
            continue;
        }
        let ours = Command::new("tool")
            .env("PATH", &path)
            .uid(65534)
            .gid(65534)
            .engine(engine)
            .output()
            .unwrap_or_else(|e| panic!("{engine}: {e}"));
        assert_eq!(ours.stdout, std_out.stdout, "{engine}");
        assert_eq!(ours.stdout, b"second\n", "{engine}");
        assert_eq!(ours.status.code(), std_out.status.code(), "{engine}");
    }
    // Root itself still runs the first copy, with both std and fastspawn.
    let ours = Command::new("tool")
        .env("PATH", &path)
        .output()
        .expect("as root");
    let std_root = process::Command::new("tool")
        .env("PATH", &path)
        .output()
        .expect("std as root");
    assert_eq!(ours.stdout, std_root.stdout);
    assert_eq!(ours.stdout, b"first\n");
}

/// Bug: the Fork engine kept every signal blocked in the parent around
/// `fork()` (through the page-table copy and glibc's atfork handlers), so a
/// process busy forking did not react to SIGTERM. With `clone3` the kernel
/// resets the child's handlers and the parent blocks nothing: a watcher
/// reading the spawning thread's mask never sees it blocked.
#[test]
fn fork_engine_leaves_signals_unblocked() {
    let _guard = util::shared();
    if !Engine::Clone3.is_available() {
        util::skip("no clone3: the Fork engine blocks signals across its clone call");
        return;
    }
    let (tid_tx, tid_rx) = std::sync::mpsc::channel();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let spawner = {
        let done = std::sync::Arc::clone(&done);
        std::thread::spawn(move || {
            tid_tx.send(util::gettid()).expect("send tid");
            let mut cmd = probe_cmd(["exit", "0"]);
            cmd.engine(Engine::Fork);
            for _ in 0..300 {
                assert!(cmd.status().expect("fork spawn").success());
            }
            done.store(true, std::sync::atomic::Ordering::SeqCst);
        })
    };
    let tid = tid_rx.recv().expect("tid");
    let status = format!("/proc/self/task/{tid}/status");
    let (mut samples, mut blocked) = (0u32, 0u32);
    while !done.load(std::sync::atomic::Ordering::SeqCst) {
        let Ok(text) = std::fs::read_to_string(&status) else {
            break;
        };
        let mask = text
            .lines()
            .find_map(|l| l.strip_prefix("SigBlk:"))
            .map(|v| u64::from_str_radix(v.trim(), 16).expect("hex"))
            .unwrap_or(0);
        samples += 1;
        if mask != 0 {
            blocked += 1;
        }
    }
    spawner.join().expect("spawner");
    println!("{samples} samples of the spawning thread's mask, {blocked} blocked");
    assert!(samples > 10, "too few samples to tell");
    assert_eq!(blocked, 0, "signals were blocked while forking");
}
