//! `Child::communicate`: the one run-to-end (input, outputs on any fd, a
//! deadline, an output limit), which `wait_with_output` and the bindings'
//! synchronous runs use.

use std::io::Read;
use std::os::fd::{AsRawFd, OwnedFd};
use std::time::{Duration, Instant};

use fastspawn::{Command, Exchange, RunEnd, Stdio, Step};

use crate::util;

fn sh(script: &str) -> Command {
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c").arg(script);
    cmd
}

fn pipe() -> (OwnedFd, OwnedFd) {
    rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).expect("pipe")
}

#[test]
fn input_and_outputs_of_several_mib_both_ways_do_not_deadlock() {
    let _g = util::shared();
    // cat echoes 8 MiB to stdout and a copy to stderr through a second
    // cat: every pipe fills up many times over, in both directions.
    let input: Vec<u8> = (0..8 << 20).map(|i: u32| (i % 251) as u8).collect();
    let mut child = sh("tee /dev/stderr")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let exchange = Exchange::new()
        .input(child.stdin.take().unwrap(), &input)
        .output(child.stdout.take().unwrap())
        .output(child.stderr.take().unwrap());
    let run = child.communicate(exchange).expect("communicate");
    assert_eq!(run.end, RunEnd::Exited);
    assert!(run.status.success(), "{:?}", run.status);
    assert_eq!(run.input_written, input.len());
    assert!(run.outputs.iter().all(|o| o.at_end));
    assert!(run.outputs[0].data == input, "stdout differs");
    assert!(run.outputs[1].data == input, "stderr differs");
    assert!(run.streams_done.is_some());
}

#[test]
fn an_empty_input_is_closed_at_once() {
    let _g = util::shared();
    // cat reads its stdin to the end: it must see that end at once.
    let mut child = sh("cat; echo ok")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let exchange = Exchange::new()
        .input(child.stdin.take().unwrap(), b"")
        .output(child.stdout.take().unwrap());
    let run = child.communicate(exchange).expect("communicate");
    assert_eq!(run.outputs[0].data, b"ok\n");
    assert_eq!(run.input_written, 0);
}

#[test]
fn outputs_on_any_child_fd_come_back_in_the_order_given() {
    let _g = util::shared();
    let (r3, w3) = pipe();
    let (r5, w5) = pipe();
    let mut cmd = sh("echo three >&3; echo five >&5; echo out");
    cmd.fd(3, w3).fd(5, w5).stdout(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn");
    // The command holds the write ends until it is dropped.
    drop(cmd);
    let exchange = Exchange::new()
        .output(r5)
        .output(child.stdout.take().unwrap())
        .output(r3);
    let run = child.communicate(exchange).expect("communicate");
    let data: Vec<&[u8]> = run.outputs.iter().map(|o| &o.data[..]).collect();
    assert_eq!(data, [&b"five\n"[..], b"out\n", b"three\n"]);
    assert_eq!(run.end, RunEnd::Exited);
}

#[test]
fn a_child_that_exits_without_reading_its_input_is_no_error() {
    let _g = util::shared();
    // More than a pipe holds: the write meets EPIPE once the child is gone.
    let input = vec![b'x'; 4 << 20];
    let mut child = sh("echo done; exit 3")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let exchange = Exchange::new()
        .input(child.stdin.take().unwrap(), &input)
        .output(child.stdout.take().unwrap());
    let run = child.communicate(exchange).expect("EPIPE is not an error");
    assert_eq!(run.status.code(), Some(3));
    assert_eq!(run.outputs[0].data, b"done\n");
    assert!(run.input_written < input.len(), "{}", run.input_written);
}

#[test]
fn a_timeout_kills_the_child_and_keeps_what_was_read() {
    let _g = util::shared();
    let mut child = sh("echo before; exec sleep 30")
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let started = Instant::now();
    let exchange = Exchange::new()
        .output(child.stdout.take().unwrap())
        .timeout(Duration::from_secs(1));
    let run = child.communicate(exchange).expect("communicate");
    assert_eq!(run.end, RunEnd::TimedOut);
    assert_eq!(run.status.signal(), Some(libc::SIGKILL));
    assert_eq!(run.outputs[0].data, b"before\n");
    // Not the sleep's 30 s (no bound on how fast: the machine is shared).
    assert!(started.elapsed() < Duration::from_secs(25));
    // Reaped: a second wait has the same status, no zombie is left.
    assert_eq!(child.wait().unwrap(), run.status);
}

#[test]
fn a_grandchild_holding_the_output_does_not_hang_a_killed_run() {
    let _g = util::shared();
    // The grandchild (sleep, in the background) keeps stdout open after the
    // child is killed; the run ends at the child's exit all the same.
    let mut child = sh("sleep 30 & echo $!; exec sleep 30")
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let exchange = Exchange::new()
        .output(child.stdout.take().unwrap())
        .timeout(Duration::from_secs(1));
    let run = child.communicate(exchange).expect("communicate");
    let grandchild: i32 = String::from_utf8_lossy(&run.outputs[0].data)
        .trim()
        .parse()
        .expect("the grandchild's pid");
    // SAFETY: kill has no memory preconditions; the pid is the
    // grandchild's, alive (it holds the pipe, see below) until killed here.
    let alive = unsafe { libc::kill(grandchild, 0) } == 0;
    // SAFETY: as above.
    unsafe { libc::kill(grandchild, libc::SIGKILL) };
    assert!(alive, "the grandchild was still running");
    assert_eq!(run.end, RunEnd::TimedOut);
    assert!(!run.outputs[0].at_end, "the grandchild holds it open");
    assert!(run.streams_done.is_none());
}

#[test]
fn a_timeout_after_the_outputs_ended_is_measured_on_the_exit() {
    let _g = util::shared();
    // stdout is closed at once, the child lives on: the run waits for the
    // exit (through the pidfd) until the deadline.
    let mut child = sh("exec >&-; echo gone >&2; exec sleep 30")
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let exchange = Exchange::new()
        .output(child.stdout.take().unwrap())
        .timeout(Duration::from_secs(1));
    let run = child.communicate(exchange).expect("communicate");
    assert_eq!(run.end, RunEnd::TimedOut);
    assert!(run.outputs[0].at_end);
    assert!(run.streams_done.is_some());
    assert_eq!(run.status.signal(), Some(libc::SIGKILL));
}

#[test]
fn without_a_pidfd_the_exit_is_looked_for_every_10_ms() {
    let _g = util::shared();
    // (The exit ends the second run long before its deadline.)
    for (script, end, secs) in [
        ("exec >&-; exec sleep 30", RunEnd::TimedOut, 1),
        ("exec >&-; exit 4", RunEnd::Exited, 25),
    ] {
        let mut cmd = sh(script);
        cmd.pidfd(false).stdout(Stdio::piped());
        let mut child = cmd.spawn().expect("spawn");
        let exchange = Exchange::new()
            .output(child.stdout.take().unwrap())
            .timeout(Duration::from_secs(secs));
        let run = child.communicate(exchange).expect("communicate");
        assert_eq!(run.end, end, "{script}");
        assert!(child.pidfd_if_made().is_none(), "{script}: no pidfd made");
        if end == RunEnd::Exited {
            assert_eq!(run.status.code(), Some(4));
        }
    }
}

#[test]
fn an_output_over_the_limit_kills_the_child() {
    let _g = util::shared();
    let mut child = sh("echo 0123456789; exec sleep 30")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let exchange = Exchange::new()
        .output(child.stdout.take().unwrap())
        .output(child.stderr.take().unwrap())
        .output_limit(5)
        .kill_signal(libc::SIGTERM);
    let run = child.communicate(exchange).expect("communicate");
    assert_eq!(run.end, RunEnd::OutputLimit);
    assert_eq!(run.status.signal(), Some(libc::SIGTERM));
    assert_eq!(run.outputs[0].data, b"0123456789\n");
    // At the limit exactly: no kill.
    let mut child = sh("printf 12345")
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let exchange = Exchange::new()
        .output(child.stdout.take().unwrap())
        .output_limit(5);
    let run = child.communicate(exchange).expect("communicate");
    assert_eq!(run.end, RunEnd::Exited);
    assert_eq!(run.outputs[0].data, b"12345");
}

#[test]
fn read_after_kill_false_keeps_only_what_was_read_before_the_kill() {
    let _g = util::shared();
    // The child writes on after its SIGTERM: read on by default, not
    // with read_after_kill(false) (its writes then meet a closed pipe).
    let script = "trap 'echo after; exit 7' TERM; echo before; while :; do sleep 0.05; done";
    for read_after in [true, false] {
        let mut child = sh(script).stdout(Stdio::piped()).spawn().expect("spawn");
        let exchange = Exchange::new()
            .output(child.stdout.take().unwrap())
            .timeout(Duration::from_secs(1))
            .kill_signal(libc::SIGTERM)
            .read_after_kill(read_after);
        let run = child.communicate(exchange).expect("communicate");
        assert_eq!(run.end, RunEnd::TimedOut);
        let expected: &[u8] = if read_after {
            b"before\nafter\n"
        } else {
            b"before\n"
        };
        assert_eq!(
            run.outputs[0].data, expected,
            "read_after_kill({read_after})"
        );
        if read_after {
            assert_eq!(run.status.code(), Some(7));
        }
    }
}

#[test]
fn a_non_blocking_output_fd_is_read_to_its_end() {
    let _g = util::shared();
    // Only the read end is non-blocking (pipe2's O_NONBLOCK would make the
    // child's write end one too).
    let (r, w) = pipe();
    rustix::io::ioctl_fionbio(&r, true).expect("FIONBIO");
    let mut cmd = sh("sleep 0.1; head -c 300000 /dev/zero");
    cmd.stdout(w);
    let mut child = cmd.spawn().expect("spawn");
    drop(cmd);
    let run = child
        .communicate(Exchange::new().output(r))
        .expect("communicate");
    assert_eq!(run.outputs[0].data.len(), 300_000);
    assert!(run.outputs[0].at_end);
}

#[test]
fn a_failed_read_names_the_program_and_the_step() {
    let _g = util::shared();
    // A write-only fd as an "output": read fails with EBADF.
    let (_r, w) = pipe();
    let mut child = sh("exit 0").spawn().expect("spawn");
    let err = child
        .communicate(Exchange::new().output(w))
        .expect_err("reading a write end fails");
    assert_eq!(err.step(), &Step::Output);
    assert_eq!(err.raw_os_error(), Some(libc::EBADF));
    assert!(err.to_string().contains("/bin/sh"), "{err}");
    child.wait().expect("wait");
}

#[test]
fn nothing_is_left_behind() {
    let _g = util::exclusive();
    let before = util::open_fds();
    for timeout in [None, Some(Duration::from_secs(1))] {
        let mut child = sh("cat; exec sleep 5")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        let mut exchange = Exchange::new()
            .input(child.stdin.take().unwrap(), b"in")
            .output(child.stdout.take().unwrap())
            .output(child.stderr.take().unwrap());
        if let Some(timeout) = timeout {
            exchange = exchange.timeout(timeout);
        } else {
            exchange = exchange.timeout(Duration::from_secs(600)).output_limit(1);
        }
        let run = child.communicate(exchange).expect("communicate");
        assert_ne!(run.end, RunEnd::Exited);
        assert_eq!(run.outputs[0].data, b"in");
    }
    util::assert_fds_unchanged(&before, "communicate");
    util::assert_no_zombies("communicate");
}

#[test]
fn wait_with_output_is_a_communicate_and_keeps_std_semantics() {
    let _g = util::shared();
    // One stream, the other, both, none: as std.
    for (out, err) in [(true, false), (false, true), (true, true), (false, false)] {
        let pick = |piped| if piped { Stdio::piped() } else { Stdio::null() };
        let mut cmd = sh("echo o; echo e >&2; exit 2");
        cmd.stdout(pick(out)).stderr(pick(err));
        let mine = cmd.spawn().unwrap().wait_with_output().unwrap();
        let mut std_cmd = std::process::Command::new("/bin/sh");
        std_cmd.args(["-c", "echo o; echo e >&2; exit 2"]);
        let spick = |piped| {
            if piped {
                std::process::Stdio::piped()
            } else {
                std::process::Stdio::null()
            }
        };
        std_cmd.stdout(spick(out)).stderr(spick(err));
        let theirs = std_cmd.spawn().unwrap().wait_with_output().unwrap();
        assert_eq!(mine.stdout, theirs.stdout, "{out} {err}");
        assert_eq!(mine.stderr, theirs.stderr, "{out} {err}");
        assert_eq!(mine.status.code(), theirs.status.code());
    }
    // A piped stdin left in the child is closed first (cat ends).
    let mut child = Command::new("cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, b"x").unwrap();
    child.stdin = Some(stdin);
    assert_eq!(child.wait_with_output().unwrap().stdout, b"x");
    // The fd of a taken stdout is read by the caller, not by the run.
    let mut child = sh("echo hi").stdout(Stdio::piped()).spawn().unwrap();
    let mut out = child.stdout.take().unwrap();
    assert!(child.wait_with_output().unwrap().stdout.is_empty());
    let mut text = String::new();
    out.read_to_string(&mut text).unwrap();
    assert_eq!(text, "hi\n");
    let _ = out.as_raw_fd();
}

/// A real-time signal nobody else in the test binary uses, with a handler
/// that does nothing (installed without `SA_RESTART`, as Python's are), so
/// that it interrupts the thread it is sent to.
fn interrupting_signal() -> i32 {
    extern "C" fn nothing(_: i32) {}
    let signal = libc::SIGRTMIN() + 3;
    // SAFETY: a zeroed sigaction with a handler that touches nothing.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = nothing as extern "C" fn(i32) as usize;
        libc::sigemptyset(&mut action.sa_mask);
        assert_eq!(libc::sigaction(signal, &action, std::ptr::null_mut()), 0);
    }
    signal
}

/// Sends `signal` to the calling thread `times` times, `every` apart, from
/// a thread of its own; joined by the caller.
fn interrupt_me(signal: i32, times: usize, every: Duration) -> std::thread::JoinHandle<()> {
    // SAFETY: pthread_self has no preconditions.
    let me = unsafe { libc::pthread_self() };
    std::thread::spawn(move || {
        for _ in 0..times {
            std::thread::sleep(every);
            // SAFETY: `me` is the test's thread, alive until it joins this one.
            unsafe { libc::pthread_kill(me, signal) };
        }
    })
}

#[test]
fn a_signal_calls_on_interrupt_and_the_run_goes_on() {
    let _g = util::shared();
    let signal = interrupting_signal();
    // The streams' poll (a deadline), then the wait after them (none).
    for (script, timeout) in [
        ("sleep 0.4; echo done", Some(Duration::from_secs(20))),
        ("exec >&-; sleep 0.4; exit 3", None),
    ] {
        let mut child = sh(script).stdout(Stdio::piped()).spawn().expect("spawn");
        let mut calls = 0;
        let mut exchange = Exchange::new()
            .output(child.stdout.take().unwrap())
            .on_interrupt(|| {
                calls += 1;
                true
            });
        if let Some(timeout) = timeout {
            exchange = exchange.timeout(timeout);
        }
        let sender = interrupt_me(signal, 3, Duration::from_millis(50));
        let run = child.communicate(exchange).expect("communicate");
        sender.join().unwrap();
        assert_eq!(run.end, RunEnd::Exited, "{script}");
        if timeout.is_some() {
            assert_eq!(run.outputs[0].data, b"done\n");
            assert_eq!(run.status.code(), Some(0));
        } else {
            assert_eq!(run.status.code(), Some(3));
        }
        assert_eq!(calls, 3, "{script}: one call per signal");
    }
}

#[test]
fn on_interrupt_returning_false_ends_the_run_and_leaves_the_child() {
    let _g = util::shared();
    let signal = interrupting_signal();
    // In the streams (a blocking read, no deadline), then in the wait.
    for script in ["exec sleep 30", "exec >&-; exec sleep 30"] {
        let mut child = sh(script).stdout(Stdio::piped()).spawn().expect("spawn");
        let exchange = Exchange::new()
            .output(child.stdout.take().unwrap())
            .on_interrupt(|| false);
        let sender = interrupt_me(signal, 1, Duration::from_millis(100));
        let started = Instant::now();
        let result = child.communicate(exchange);
        sender.join().unwrap();
        ended_early_leaving_the_child(result, started, &mut child, script);
    }
}

/// `result` is an `Interrupted` error that came well before the child's
/// end (`started`: the run's start), and the child is still running; then
/// it is killed and reaped.
fn ended_early_leaving_the_child(
    result: fastspawn::Result<fastspawn::Communicated>,
    started: Instant,
    child: &mut fastspawn::Child,
    script: &str,
) {
    let err = result.expect_err("interrupted");
    assert_eq!(
        err.kind(),
        std::io::ErrorKind::Interrupted,
        "{script}: {err}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{script}: ended early"
    );
    assert_eq!(
        child.try_wait().expect("try_wait"),
        None,
        "{script}: left running"
    );
    child.kill().expect("kill");
    assert_eq!(child.wait().expect("wait").signal(), Some(libc::SIGKILL));
}

/// A non-blocking pipe: the wake fd's read end and its write end.
fn wake_pipe() -> (OwnedFd, OwnedFd) {
    rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC | rustix::pipe::PipeFlags::NONBLOCK)
        .expect("pipe")
}

#[test]
fn a_wake_fd_written_before_the_run_ends_it_at_once() {
    let _g = util::shared();
    // What no EINTR can report: the signal came (and its handler wrote to
    // the wake fd) before the run's first wait. Every kind of wait: the
    // streams' poll with a deadline, a single stream without one (which
    // otherwise blocks in `read`), the exit with a deadline, the exit
    // without one (which otherwise blocks in `waitid`: with a pidfd from
    // the spawn, a `poll`; without, a look at the wake fd first).
    for (script, timeout, pidfd) in [
        ("exec sleep 30", Some(Duration::from_secs(60)), false),
        ("exec sleep 30", None, false),
        (
            "exec >&-; exec sleep 30",
            Some(Duration::from_secs(60)),
            false,
        ),
        ("exec >&-; exec sleep 30", None, false),
        ("exec >&-; exec sleep 30", None, true),
    ] {
        let mut child = sh(script)
            .stdout(Stdio::piped())
            .pidfd(pidfd)
            .pidfd_at_spawn(pidfd)
            .spawn()
            .expect("spawn");
        let (wake, woken) = wake_pipe();
        rustix::io::write(&woken, &[10]).expect("write");
        let mut calls = 0;
        let mut exchange = Exchange::new()
            .output(child.stdout.take().unwrap())
            .wake_fd(std::os::fd::AsFd::as_fd(&wake))
            .on_interrupt(|| {
                calls += 1;
                false
            });
        if let Some(timeout) = timeout {
            exchange = exchange.timeout(timeout);
        }
        let started = Instant::now();
        let result = child.communicate(exchange);
        assert_eq!(calls, 1, "{script}");
        // The run read what woke it.
        let mut buf = [0u8; 4];
        assert_eq!(
            rustix::io::read(&wake, &mut buf),
            Err(rustix::io::Errno::AGAIN),
            "{script}: the wake fd was read"
        );
        ended_early_leaving_the_child(result, started, &mut child, script);
    }
}

#[test]
fn a_wake_fd_calls_on_interrupt_each_time_and_the_run_goes_on() {
    let _g = util::shared();
    let (wake, woken) = wake_pipe();
    let mut child = sh("read _; echo got; exec >&-; read _; exit 4")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = Some(child.stdin.take().unwrap());
    let mut calls = 0;
    // Each call lets the child go one step further (a line on its stdin),
    // and wakes the run again, until the last.
    let exchange = Exchange::new()
        .output(child.stdout.take().unwrap())
        .wake_fd(std::os::fd::AsFd::as_fd(&wake))
        .on_interrupt(|| {
            calls += 1;
            if calls < 3 {
                rustix::io::write(stdin.as_ref().unwrap(), b"go\n").expect("write");
                rustix::io::write(&woken, &[calls as u8]).expect("wake");
            } else {
                drop(stdin.take());
            }
            true
        });
    rustix::io::write(&woken, &[0]).expect("write");
    let run = child.communicate(exchange).expect("communicate");
    assert_eq!(run.end, RunEnd::Exited);
    assert_eq!(run.outputs[0].data, b"got\n");
    assert_eq!(run.status.code(), Some(4));
    assert_eq!(calls, 3, "one call per write to the wake fd");
}

#[test]
fn a_wake_fd_at_its_end_is_left_out() {
    let _g = util::shared();
    // The write end closed: the fd is readable for ever (its end). The run
    // calls on_interrupt once for it and then leaves it out, or it would
    // spin until the child ends.
    for script in ["sleep 0.3; echo done", "exec >&-; sleep 0.3"] {
        let (wake, woken) = wake_pipe();
        drop(woken);
        let mut child = sh(script).stdout(Stdio::piped()).spawn().expect("spawn");
        let mut calls = 0;
        let exchange = Exchange::new()
            .output(child.stdout.take().unwrap())
            .wake_fd(std::os::fd::AsFd::as_fd(&wake))
            .on_interrupt(|| {
                calls += 1;
                true
            });
        let run = child.communicate(exchange).expect("communicate");
        assert_eq!(run.status.code(), Some(0), "{script}");
        assert_eq!(calls, 1, "{script}");
    }
}
