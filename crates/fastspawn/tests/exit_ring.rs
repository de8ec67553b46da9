//! `fastspawn::exit_ring`: exits through io_uring's `waitid`.
//!
//! The ring is one per process and `drain` takes every completion: each
//! test holds `util::exclusive()`, so no other test drains its exits.
//! Tests that change the process's `SIGCHLD` disposition or the
//! environment's `FASTSPAWN_IO_URING` run in a copy of this binary.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use fastspawn::exit_ring::ExitRing;
use fastspawn::{Child, Command};

use crate::util;

/// The ring, or a printed reason why this kernel has none.
fn ring() -> Option<&'static ExitRing> {
    let ring = ExitRing::get();
    if ring.is_none() {
        util::skip(
            "no io_uring with IORING_OP_WAITID here (Linux < 6.7, io_uring_disabled, seccomp, or FASTSPAWN_IO_URING=0)",
        );
    }
    ring
}

fn spawn(args: &[&str]) -> Child {
    let mut cmd: Command = util::probe_cmd(args);
    cmd.spawn().expect("spawn the probe")
}

/// Drains the ring until every key of `want` came, at most 20 s.
fn collect(ring: &ExitRing, want: usize) -> HashMap<u64, String> {
    let mut got = HashMap::new();
    let start = Instant::now();
    while got.len() < want {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "only {} of {want} completions came: {got:?}",
            got.len()
        );
        ring.wait_ready().expect("io_uring_enter(GETEVENTS)");
        ring.drain(|key, notice| {
            let previous = got.insert(key, format!("{notice:?}"));
            assert!(previous.is_none(), "key {key} completed twice");
        });
    }
    got
}

/// Waits until `pid` is a zombie (exited, not reaped), at most 10 s.
fn until_zombie(pid: u32) {
    let start = Instant::now();
    while !util::zombies().iter().any(|(z, _)| *z as u32 == pid) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "child {pid} did not exit"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn exits_of_many_children_come_in_any_order() {
    let _guard = util::exclusive();
    let Some(ring) = ring() else { return };
    ExitRing::mark_thread_long_lived();
    // The first `sh` by name may open what path lookups keep: before.
    Command::new("sh").args(["-c", ":"]).status().unwrap();
    let before = util::open_fds();
    // Longest first: they exit in the reverse of their watch order.
    let n = 24u64;
    let mut children: Vec<Child> = (0..n)
        .map(|i| {
            let secs = format!("{:.3}", 0.004 * (n - i) as f64);
            let mut cmd = Command::new("sh");
            cmd.args(["-c", &format!("sleep {secs}; exit {i}")]);
            cmd.spawn().expect("spawn sh")
        })
        .collect();
    for (i, child) in children.iter().enumerate() {
        assert!(child.pidfd_if_made().is_none(), "no pidfd at the spawn");
        ring.watch(child, 1000 + i as u64).expect("watch");
    }
    let got = collect(ring, n as usize);
    for (i, child) in children.iter_mut().enumerate() {
        assert_eq!(got[&(1000 + i as u64)], "Exited");
        let status = child.try_wait().expect("try_wait").expect("exited");
        assert_eq!(status.code(), Some(i as i32));
    }
    assert_eq!(ring.outstanding(), 0);
    drop(children);
    util::assert_fds_unchanged(&before, "many exits");
    util::assert_no_zombies("many exits");
}

#[test]
fn a_child_that_exited_before_the_watch_completes_at_once() {
    let _guard = util::exclusive();
    let Some(ring) = ring() else { return };
    ExitRing::mark_thread_long_lived();
    let mut child = spawn(&["exit", "3"]);
    until_zombie(child.id());
    ring.watch(&child, 7).expect("watch a zombie");
    let got = collect(ring, 1);
    assert_eq!(got[&7], "Exited");
    assert_eq!(child.try_wait().unwrap().unwrap().code(), Some(3));
    util::assert_no_zombies("early exit");
}

#[test]
fn the_bounded_wait_both_ways() {
    let _guard = util::exclusive();
    if ring().is_none() {
        return;
    }
    bounded_waits();
}

/// The same with the waitid linked to an `IORING_OP_LINK_TIMEOUT` (the
/// way of kernels whose `io_uring_enter` cannot bound its wait).
#[test]
fn the_bounded_wait_both_ways_with_a_linked_timeout() {
    let _guard = util::exclusive();
    if ring().is_none() {
        return;
    }
    let before = ExitRing::set_linked_timeout(true);
    let result = std::panic::catch_unwind(bounded_waits);
    ExitRing::set_linked_timeout(before);
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}

/// `ExitRing::wait_timeout` on a child that exits, one that does not (the
/// time runs out; then killed), one exited before the call, and one reaped.
fn bounded_waits() {
    // The thread's own ring is made by its first call: counted after it.
    let warm = spawn(&["exit", "0"]);
    let mut warm = warm;
    assert!(ExitRing::wait_timeout(&warm, Duration::from_secs(10)).unwrap());
    warm.wait().unwrap();
    let before = util::open_fds();

    let mut sleeper = spawn(&["sleep", "30"]);
    let start = Instant::now();
    assert!(
        !ExitRing::wait_timeout(&sleeper, Duration::from_millis(50)).unwrap(),
        "a sleeping child did not exit"
    );
    assert!(start.elapsed() >= Duration::from_millis(45));
    assert_eq!(sleeper.try_wait().unwrap(), None, "nothing reaped it");
    sleeper.kill().unwrap();
    assert!(ExitRing::wait_timeout(&sleeper, Duration::from_secs(10)).unwrap());
    // Not reaped by the wait: try_wait does it.
    until_zombie(sleeper.id());
    let status = sleeper.try_wait().unwrap().expect("exited");
    assert_eq!(status.signal(), Some(libc::SIGKILL));

    let mut quick = spawn(&["exit", "5"]);
    assert!(ExitRing::wait_timeout(&quick, Duration::from_secs(10)).unwrap());
    assert_eq!(quick.try_wait().unwrap().unwrap().code(), Some(5));
    // A reaped child: true at once.
    assert!(ExitRing::wait_timeout(&quick, Duration::from_secs(10)).unwrap());

    drop((sleeper, quick)); // the pidfd the kill made
    util::assert_fds_unchanged(&before, "bounded waits");
    util::assert_no_zombies("bounded waits");
}

#[test]
fn forced_off_there_is_no_ring_and_the_pidfd_path_works() {
    let _guard = util::exclusive();
    if ring().is_none() {
        return;
    }
    assert!(ExitRing::set_enabled(false), "it was on");
    assert!(ExitRing::get().is_none());
    assert!(ExitRing::for_spawn().is_none());
    let mut child = spawn(&["exit", "4"]);
    assert!(ExitRing::wait_timeout(&child, Duration::from_secs(1)).is_err());
    // The caller's fallback: a pidfd, made on demand.
    assert!(child.pidfd().is_some());
    assert_eq!(child.wait().unwrap().code(), Some(4));
    assert!(!ExitRing::set_enabled(true), "it was off");
    assert!(ExitRing::get().is_some());
}

const ENV_OFF_HELPER: &str = "FASTSPAWN_TEST_URING_ENV_HELPER";

#[test]
fn fastspawn_io_uring_0_turns_it_off() {
    let _guard = util::shared();
    let exe = std::env::current_exe().expect("current_exe");
    let out = util::run_helper_test(&exe, "exit_ring::env_off_helper", "env-off: ok", |cmd| {
        cmd.env(ENV_OFF_HELPER, "1")
            .env("FASTSPAWN_IO_URING", "0")
            .env("FASTSPAWN_PROBE", util::probe());
    });
    print!("{out}");
}

#[test]
#[ignore = "started by fastspawn_io_uring_0_turns_it_off with FASTSPAWN_IO_URING=0"]
fn env_off_helper() {
    if std::env::var_os(ENV_OFF_HELPER).is_none() {
        return;
    }
    assert!(ExitRing::get().is_none());
    assert!(ExitRing::for_spawn().is_none());
    // set_enabled(true) does not override the environment.
    ExitRing::set_enabled(true);
    assert!(ExitRing::get().is_none());
    let mut child = spawn(&["exit", "2"]);
    assert!(ExitRing::wait_timeout(&child, Duration::from_secs(1)).is_err());
    assert_eq!(child.wait().unwrap().code(), Some(2));
    println!("env-off: ok");
}

const SIGCHLD_HELPER: &str = "FASTSPAWN_TEST_URING_SIGCHLD_HELPER";

#[test]
fn sigchld_ignored_keeps_the_pidfd_path() {
    let _guard = util::shared();
    if ring().is_none() {
        return;
    }
    let out =
        util::run_test_in_new_process("exit_ring::sigchld_helper", SIGCHLD_HELPER, "sigchld: ok");
    print!("{out}");
}

/// Sets `SIGCHLD`'s disposition (`handler`, `flags`); returns the old one.
fn set_sigchld(handler: libc::sighandler_t, flags: i32) -> libc::sigaction {
    // SAFETY: sigaction structs zeroed then filled; SIGCHLD is valid.
    unsafe {
        let mut new: libc::sigaction = std::mem::zeroed();
        new.sa_sigaction = handler;
        new.sa_flags = flags;
        let mut old: libc::sigaction = std::mem::zeroed();
        assert_eq!(libc::sigaction(libc::SIGCHLD, &new, &mut old), 0);
        old
    }
}

#[test]
#[ignore = "started by sigchld_ignored_keeps_the_pidfd_path in a process of its own"]
fn sigchld_helper() {
    if std::env::var_os(SIGCHLD_HELPER).is_none() {
        return;
    }
    assert!(ExitRing::for_spawn().is_some(), "SIGCHLD at its default");
    set_sigchld(libc::SIG_IGN, 0);
    assert!(ExitRing::get().is_some());
    assert!(ExitRing::for_spawn().is_none(), "SIGCHLD ignored");
    // What the caller then does: a pidfd from the clone, which still
    // tells the exit of a child the kernel reaped.
    let mut cmd = util::probe_cmd(["exit", "0"]);
    cmd.pidfd_at_spawn(true);
    let child = cmd.spawn().unwrap();
    assert!(child.pidfd_if_made().is_some());
    let pidfd = child.into_pidfd().expect("a pidfd");
    let mut fds = [libc::pollfd {
        fd: std::os::fd::AsRawFd::as_raw_fd(&pidfd),
        events: libc::POLLIN,
        revents: 0,
    }];
    // SAFETY: one live pollfd.
    assert_eq!(unsafe { libc::poll(fds.as_mut_ptr(), 1, 10_000) }, 1);
    set_sigchld(libc::SIG_DFL, libc::SA_NOCLDWAIT);
    assert!(ExitRing::for_spawn().is_none(), "SA_NOCLDWAIT");
    set_sigchld(libc::SIG_DFL, 0);
    assert!(ExitRing::for_spawn().is_some(), "back to the default");
    println!("sigchld: ok");
}

#[test]
fn a_child_reaped_by_other_code_gives_echild_and_is_not_signalled() {
    let _guard = util::exclusive();
    let Some(ring) = ring() else { return };
    ExitRing::mark_thread_long_lived();
    let before = util::open_fds();
    let reap_elsewhere = |child: &Child| {
        // SAFETY: kill and waitpid of our own child's pid, as other code
        // of the process (a `waitpid(-1)` loop) would.
        unsafe {
            libc::kill(child.id() as i32, libc::SIGKILL);
            let mut status = 0;
            assert_eq!(
                libc::waitpid(child.id() as i32, &mut status, 0),
                child.id() as i32
            );
        }
    };

    // Reaped before the watch: the request says ECHILD.
    let mut first = spawn(&["sleep", "30"]);
    reap_elsewhere(&first);
    ring.watch(&first, 21).expect("watch");
    assert_eq!(collect(ring, 1)[&21], "Gone");

    // Watched, then reaped elsewhere: the request saw the exit or found
    // no child, depending on which came first; `try_wait` says ECHILD.
    let mut second = spawn(&["sleep", "30"]);
    ring.watch(&second, 22).expect("watch");
    reap_elsewhere(&second);
    let notice = collect(ring, 1).remove(&22).unwrap();
    assert!(notice == "Exited" || notice == "Gone", "{notice}");

    for child in [&mut first, &mut second] {
        let err = child.try_wait().expect_err("reaped by other code");
        assert!(err.to_string().contains("No child process"), "{err}");
        // No pidfd can be made for a pid that is not ours, and `kill`
        // sends nothing (Ok, as std's kill of an exited child).
        assert!(child.pidfd().is_none());
        child.kill().expect("kill of a child reaped elsewhere");
    }
    util::assert_fds_unchanged(&before, "reaped elsewhere");
    util::assert_no_zombies("reaped elsewhere");
}

#[test]
fn watch_is_refused_on_threads_not_marked_long_lived() {
    let _guard = util::exclusive();
    let Some(ring) = ring() else { return };
    let mut child = spawn(&["exit", "0"]);
    let err = std::thread::scope(|s| {
        s.spawn(|| ring.watch(&child, 31).expect_err("an unmarked thread"))
            .join()
            .unwrap()
    });
    assert_eq!(err.kind(), std::io::ErrorKind::Unsupported);
    assert!(err.to_string().contains("long-lived"), "{err}");
    assert!(err.to_string().contains(&child.id().to_string()), "{err}");
    child.wait().unwrap();
    // A reaped child is refused too.
    ExitRing::mark_thread_long_lived();
    let err = ring.watch(&child, 32).expect_err("a reaped child");
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    assert_eq!(ring.outstanding(), 0);
}

#[test]
fn pool_threads_are_long_lived() {
    let _guard = util::shared();
    let (tx, rx) = std::sync::mpsc::channel();
    fastspawn::Pool::global().run(move || {
        let _ = tx.send(ExitRing::thread_long_lived());
    });
    assert!(rx.recv().unwrap());
    assert!(
        !std::thread::spawn(ExitRing::thread_long_lived)
            .join()
            .unwrap()
    );
}

#[test]
fn watched_from_a_pool_thread_that_exited_try_wait_decides() {
    let _guard = util::exclusive();
    let Some(ring) = ring() else { return };
    ExitRing::mark_thread_long_lived();
    let child = spawn(&["sleep", "0.3"]);
    let pool = fastspawn::Pool::new(1).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let shared = std::sync::Arc::new(std::sync::Mutex::new(child));
    let in_pool = std::sync::Arc::clone(&shared);
    pool.run(move || {
        let _ = tx.send(ring.watch(&in_pool.lock().unwrap(), 41).is_ok());
    });
    assert!(rx.recv().unwrap());
    drop(pool); // its thread exits with the request outstanding
    // The request ends at the exit without seeing it (the kernel finishes
    // it for a task that has no children): not `Exited`.
    let notice = collect(ring, 1).remove(&41).unwrap();
    assert_ne!(notice, "Exited", "the request outlived its thread");
    println!("a request whose thread exited: {notice}");
    // The caller's try_wait has the status all the same.
    let mut child = std::sync::Arc::try_unwrap(shared)
        .unwrap()
        .into_inner()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(start.elapsed() < Duration::from_secs(10));
        // Still running (the notice came early): watch it again here.
        ring.watch(&child, 42).unwrap();
        assert_eq!(collect(ring, 1)[&42], "Exited");
    };
    assert_eq!(status.code(), Some(0));
    util::assert_no_zombies("pool thread gone");
}
