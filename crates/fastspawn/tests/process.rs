//! Sessions, process groups, signals, and managing a running child: kill,
//! send_signal, try_wait, wait, pidfd.

use std::fs;
use std::os::fd::AsRawFd;

use fastspawn::{Child, Engine, Stdio};

use crate::util::{self, probe_cmd, sigset_bits, spawn, state};

engine_tests!(shared: setsid, new_process_group, join_process_group, signal_mask,
    mask_of_spawning_thread_inherited_as_std, kill_and_send_signal, try_wait_and_wait_twice,
    kill_after_exit, pidfd, drop_neither_kills_nor_reaps);
engine_tests!(exclusive: signal_default_and_sigpipe, ignored_signals_match_parent, without_pidfd);

fn our_ids() -> (i32, i32) {
    // SAFETY: plain getters.
    unsafe { (libc::getpgid(0), libc::getsid(0)) }
}

fn setsid(engine: Engine) {
    let st = state(probe_cmd(Vec::<&str>::new()).setsid(true), engine);
    assert_eq!(st.get("sid"), st.get("pid"), "a session leader");
    assert_eq!(st.get("pgid"), st.get("pid"), "and a group leader");

    let (pgid, sid) = our_ids();
    let st = state(probe_cmd(Vec::<&str>::new()).setsid(false), engine);
    assert_eq!(st.num("sid"), i64::from(sid));
    assert_eq!(st.num("pgid"), i64::from(pgid));
}

fn new_process_group(engine: Engine) {
    let (_, sid) = our_ids();
    let st = state(probe_cmd(Vec::<&str>::new()).process_group(0), engine);
    assert_eq!(st.get("pgid"), st.get("pid"));
    assert_eq!(st.num("sid"), i64::from(sid), "same session");
}

fn join_process_group(engine: Engine) {
    let mut leader = spawn(
        probe_cmd(["sleep", "30"])
            .process_group(0)
            .stdin(Stdio::null()),
        engine,
    );
    let leader_pid = leader.id() as i32;
    let st = state(
        probe_cmd(Vec::<&str>::new()).process_group(leader_pid),
        engine,
    );
    assert_eq!(st.num("pgid"), i64::from(leader_pid));
    assert_ne!(st.num("pid"), i64::from(leader_pid));
    leader.kill().expect("kill");
    assert_eq!(leader.wait().expect("wait").signal(), Some(libc::SIGKILL));
}

fn signal_mask(engine: Engine) {
    let st = state(
        probe_cmd(Vec::<&str>::new()).signal_mask(&[libc::SIGUSR1, libc::SIGHUP]),
        engine,
    );
    assert_eq!(
        st.hex("sigblk"),
        sigset_bits(&[libc::SIGUSR1, libc::SIGHUP]),
        "sigblk={}",
        st.get("sigblk")
    );

    let st = state(
        probe_cmd(Vec::<&str>::new()).signal_mask(&[libc::SIGRTMIN() + 1]),
        engine,
    );
    assert_eq!(st.hex("sigblk"), sigset_bits(&[libc::SIGRTMIN() + 1]));

    let st = state(&mut probe_cmd(Vec::<&str>::new()), engine);
    assert_eq!(st.hex("sigblk"), 0);
}

/// Runs `f` with `signals` blocked in this thread.
fn with_blocked<T>(signals: &[i32], f: impl FnOnce() -> T) -> T {
    // SAFETY: sigset manipulation on locals, and the calling thread's mask.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for &sig in signals {
            libc::sigaddset(&mut set, sig);
        }
        assert_eq!(libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old), 0);
        let result = f();
        assert_eq!(
            libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut()),
            0
        );
        result
    }
}

/// The child inherits the spawning thread's mask, as with std (whose
/// `test_process_mask` checks it); `signal_mask` overrides it.
fn mask_of_spawning_thread_inherited_as_std(engine: Engine) {
    let (plain, masked, std_state) = with_blocked(&[libc::SIGUSR2, libc::SIGALRM], || {
        let plain = state(&mut probe_cmd(Vec::<&str>::new()), engine);
        let masked = state(
            probe_cmd(Vec::<&str>::new()).signal_mask(&[libc::SIGHUP]),
            engine,
        );
        let std_out = util::std_probe_cmd(["state"]).output().expect("std");
        (plain, masked, util::State::parse(&std_out.stdout))
    });
    assert_eq!(plain.hex("sigblk"), std_state.hex("sigblk"), "as std");
    assert_eq!(
        plain.hex("sigblk"),
        sigset_bits(&[libc::SIGUSR2, libc::SIGALRM]),
        "sigblk={}",
        plain.get("sigblk")
    );
    assert_eq!(
        masked.hex("sigblk"),
        sigset_bits(&[libc::SIGHUP]),
        "sigblk={}",
        masked.get("sigblk")
    );
}

/// Sets the disposition of `sig` and returns the old one.
fn set_disposition(sig: i32, handler: libc::sighandler_t) -> libc::sighandler_t {
    // SAFETY: signal() with SIG_IGN / SIG_DFL or a previous disposition.
    let old = unsafe { libc::signal(sig, handler) };
    assert_ne!(old, libc::SIG_ERR);
    old
}

/// The signals this process ignores, from /proc/self/status.
fn our_ignored() -> u64 {
    let status = fs::read_to_string("/proc/self/status").expect("status");
    let line = status
        .lines()
        .find(|l| l.starts_with("SigIgn:"))
        .expect("SigIgn line");
    u64::from_str_radix(line["SigIgn:".len()..].trim(), 16).expect("hex")
}

/// With SIGINT ignored in the parent: the child inherits that, unless
/// `signal_default` names SIGINT. SIGPIPE, which Rust ignores in the parent,
/// is never ignored in the child. On the standard signals the child
/// ignores what std's child ignores.
fn signal_default_and_sigpipe(engine: Engine) {
    let pipe_bit = sigset_bits(&[libc::SIGPIPE]);
    let int_bit = sigset_bits(&[libc::SIGINT]);
    let standard = (1u64 << 31) - 1; // signals 1..=31
    // SAFETY: querying the current disposition without changing it.
    let parent_ignores_pipe = unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(libc::SIGPIPE, std::ptr::null(), &mut old);
        old.sa_sigaction == libc::SIG_IGN
    };
    assert!(
        parent_ignores_pipe,
        "the Rust runtime ignores SIGPIPE in the test process"
    );

    let old = set_disposition(libc::SIGINT, libc::SIG_IGN);
    let parent = our_ignored();
    let plain = state(&mut probe_cmd(Vec::<&str>::new()), engine);
    let reset = state(
        probe_cmd(Vec::<&str>::new()).signal_default(&[libc::SIGINT]),
        engine,
    );
    let kept = state(probe_cmd(Vec::<&str>::new()).restore_sigpipe(false), engine);
    let reference =
        util::State::parse(&util::std_probe_cmd(["state"]).output().expect("std").stdout);
    set_disposition(libc::SIGINT, old);
    assert_eq!(parent & (int_bit | pipe_bit), int_bit | pipe_bit);

    let (plain_ign, reset_ign) = (plain.hex("sigign"), reset.hex("sigign"));
    assert_eq!(
        plain_ign & pipe_bit,
        0,
        "SIGPIPE ignored in the child: sigign={plain_ign:016x}"
    );
    assert_eq!(
        reset_ign & pipe_bit,
        0,
        "SIGPIPE ignored in the child: sigign={reset_ign:016x}"
    );
    assert_eq!(
        kept.hex("sigign") & pipe_bit,
        pipe_bit,
        "restore_sigpipe(false) keeps the parent's ignored SIGPIPE"
    );
    assert_eq!(
        plain_ign & int_bit,
        int_bit,
        "an ignored SIGINT is inherited: sigign={plain_ign:016x}"
    );
    assert_eq!(
        reset_ign & int_bit,
        0,
        "signal_default(SIGINT): sigign={reset_ign:016x}"
    );
    assert_eq!(
        plain_ign & standard,
        reference.hex("sigign") & standard,
        "std's child ignores the same standard signals"
    );
}

/// Beyond the standard signals: the child ignores exactly what the parent
/// ignores (but SIGPIPE), like a plain fork+exec, and no more. glibc's
/// `posix_spawn` ignores its internal signals 32 and 33 in the child and
/// execs with them still ignored, so this holds for `PosixSpawn` only if the
/// engine resets them. (A test process started by cargo, through glibc's
/// posix_spawn, may itself ignore 32 and 33.)
fn ignored_signals_match_parent(engine: Engine) {
    let pipe_bit = sigset_bits(&[libc::SIGPIPE]);
    let int_bit = sigset_bits(&[libc::SIGINT]);
    let old = set_disposition(libc::SIGINT, libc::SIG_IGN);
    let parent = our_ignored();
    let plain = state(&mut probe_cmd(Vec::<&str>::new()), engine);
    let reset = state(
        probe_cmd(Vec::<&str>::new()).signal_default(&[libc::SIGINT]),
        engine,
    );
    set_disposition(libc::SIGINT, old);
    let (plain_ign, reset_ign) = (plain.hex("sigign"), reset.hex("sigign"));
    assert_eq!(
        plain_ign,
        parent & !pipe_bit,
        "the child ignores exactly what the parent ignores but SIGPIPE: child {plain_ign:016x}, parent {parent:016x}"
    );
    assert_eq!(
        reset_ign,
        parent & !pipe_bit & !int_bit,
        "with signal_default(SIGINT): child {reset_ign:016x}, parent {parent:016x}"
    );
}

fn sleeper(engine: Engine) -> Child {
    spawn(probe_cmd(["sleep", "30"]).stdin(Stdio::null()), engine)
}

fn kill_and_send_signal(engine: Engine) {
    let mut child = sleeper(engine);
    child.kill().expect("kill");
    let status = child.wait().expect("wait");
    assert_eq!(status.signal(), Some(libc::SIGKILL), "{status:?}");

    let mut child = sleeper(engine);
    child.send_signal(libc::SIGTERM).expect("send_signal");
    let status = child.wait().expect("wait");
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?}");

    // A signal the probe handles by default (SIGUSR1 kills too).
    let mut child = sleeper(engine);
    child.send_signal(libc::SIGUSR1).expect("send_signal");
    assert_eq!(child.wait().expect("wait").signal(), Some(libc::SIGUSR1));
}

fn try_wait_and_wait_twice(engine: Engine) {
    let mut child = sleeper(engine);
    assert_eq!(
        child.try_wait().expect("try_wait"),
        None,
        "a sleeping child has not exited"
    );
    assert_eq!(child.try_wait().expect("try_wait"), None);
    child.kill().expect("kill");
    let status = child.wait().expect("wait");
    assert_eq!(child.wait().expect("second wait"), status);
    assert_eq!(child.try_wait().expect("try_wait after wait"), Some(status));

    let mut child = spawn(&mut probe_cmd(["exit", "7"]), engine);
    let status = loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    assert_eq!(status.code(), Some(7));
    assert_eq!(child.try_wait().expect("try_wait again"), Some(status));
    assert_eq!(child.wait().expect("wait after try_wait"), status);
    assert_eq!(child.wait().expect("wait again"), status);
}

fn kill_after_exit(engine: Engine) {
    // Exited and reaped.
    let mut child = spawn(&mut probe_cmd(["exit", "3"]), engine);
    let status = child.wait().expect("wait");
    child.kill().expect("kill after wait");
    child
        .send_signal(libc::SIGTERM)
        .expect("send_signal after wait");
    assert_eq!(child.wait().expect("wait"), status);
    assert_eq!(status.code(), Some(3));

    // Exited, not yet reaped (a zombie): kill succeeds and the status is the exit.
    let (r, w) = util::pipe();
    let mut cmd = probe_cmd(["exit", "4"]);
    cmd.stdout(Stdio::from(w));
    let mut child = spawn(&mut cmd, engine);
    drop(cmd);
    assert!(util::read_all(r).is_empty()); // EOF: the child has exited
    child.kill().expect("kill a zombie");
    assert_eq!(child.wait().expect("wait").code(), Some(4));
}

fn without_pidfd(engine: Engine) {
    // pidfd(false): no pidfd, and wait, try_wait, kill and send_signal
    // still work, through the pid. (A first spawn with a null stdin opens
    // the library's shared /dev/null, which stays open.)
    spawn(probe_cmd(["exit", "0"]).stdin(Stdio::null()), engine)
        .wait()
        .expect("wait");
    let before = util::open_fds();
    let mut cmd = probe_cmd(["sleep", "30"]);
    cmd.stdin(Stdio::null()).pidfd(false);
    let mut child = spawn(&mut cmd, engine);
    assert!(child.pidfd().is_none(), "pidfd(false) made a pidfd");
    assert_eq!(child.try_wait().expect("try_wait"), None);
    child.send_signal(libc::SIGTERM).expect("send_signal");
    let status = child.wait().expect("wait");
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?}");
    child.kill().expect("kill after the wait is a no-op");

    let mut child = spawn(probe_cmd(["exit", "5"]).pidfd(false), engine);
    assert_eq!(child.wait().expect("wait").code(), Some(5));
    drop((child, cmd));
    util::assert_fds_unchanged(&before, "spawns without pidfds");

    // The copy keeps the choice; the default gives clone3 children one.
    let mut copy = probe_cmd(["exit", "0"])
        .pidfd(false)
        .try_clone()
        .expect("try_clone");
    let mut child = spawn(&mut copy, engine);
    assert!(child.pidfd().is_none(), "try_clone dropped pidfd(false)");
    child.wait().expect("wait");
    if engine == Engine::Clone3 {
        let mut child = sleeper(engine);
        assert!(child.pidfd().is_some(), "the default is a pidfd");
        child.kill().expect("kill");
        child.wait().expect("wait");
    }
}

fn pidfd(engine: Engine) {
    let mut child = sleeper(engine);
    match child.pidfd() {
        Some(fd) => {
            let info = fs::read_to_string(format!("/proc/self/fdinfo/{}", fd.as_raw_fd()))
                .expect("fdinfo");
            let pid_line = info
                .lines()
                .find(|l| l.starts_with("Pid:"))
                .unwrap_or_else(|| panic!("not a pidfd: {info}"));
            assert_eq!(
                pid_line["Pid:".len()..].trim(),
                child.id().to_string(),
                "{info}"
            );
            let link =
                fs::read_link(format!("/proc/self/fd/{}", fd.as_raw_fd())).expect("readlink");
            assert!(
                link.to_string_lossy().contains("pidfd"),
                "{}",
                link.display()
            );
        }
        None => assert_ne!(
            engine,
            Engine::Clone3,
            "clone3 children have a pidfd (CLONE_PIDFD)"
        ),
    }
    child.kill().expect("kill");
    let status = child.wait().expect("wait");
    assert_eq!(status.signal(), Some(libc::SIGKILL));
    // Still a valid fd after the child is reaped.
    if let Some(fd) = child.pidfd() {
        assert!(fs::metadata(format!("/proc/self/fdinfo/{}", fd.as_raw_fd())).is_ok());
    }
}

/// Like std, dropping a `Child` neither kills nor reaps it.
fn drop_neither_kills_nor_reaps(engine: Engine) {
    let child = sleeper(engine);
    let pid = child.id() as libc::pid_t;
    drop(child);
    // SAFETY: signal 0 only checks the process exists; waitpid reaps our own child.
    unsafe {
        assert_eq!(libc::kill(pid, 0), 0, "the dropped child was killed");
        let mut raw = 0;
        assert_eq!(
            libc::waitpid(pid, &mut raw, libc::WNOHANG),
            0,
            "the dropped child has exited"
        );
        assert_eq!(libc::kill(pid, libc::SIGKILL), 0);
        assert_eq!(
            libc::waitpid(pid, &mut raw, 0),
            pid,
            "reaping the dropped child"
        );
        assert!(libc::WIFSIGNALED(raw) && libc::WTERMSIG(raw) == libc::SIGKILL);
    }
}
