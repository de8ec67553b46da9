//! tokio's own process tests (`tokio/tests/process_*.rs`), ported to
//! `fastspawn::tokio` with their assertions unchanged. The one change
//! everywhere: fastspawn's `spawn` is an `async fn` (the spawn runs on a
//! spawner thread), so `spawn()` becomes `spawn().await`; std's `Stdio`
//! becomes fastspawn's. Tests that use tokio's own test crates
//! (`tokio_test`, `futures`) use plain equivalents. Not ported:
//! `process_raw_handle.rs` (Windows) and `process_spawned_outside_runtime`
//! (an async spawn cannot be called outside a runtime at all).

use std::os::fd::OwnedFd;
use std::time::Duration;

use fastspawn::Stdio;
use fastspawn::tokio::{ChildStdin, Command};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::runtime::Runtime;
use tokio::time::{self, sleep, timeout};

use crate::util;

/// One `#[test]` per ported `#[tokio::test]`: the suite's lock is taken
/// before the runtime is built (tests that count fds must not see a
/// runtime being made), then the test runs on a current-thread runtime, as
/// `#[tokio::test]` does.
macro_rules! tokio_tests {
    ($($name:ident),* $(,)?) => {
        mod tests {$(
            #[test]
            fn $name() {
                let _guard = crate::util::shared();
                crate::asynchronous::current_thread().block_on(super::$name());
            }
        )*}
    };
}

tokio_tests!(
    arg0,
    issue_2174,
    issue_42,
    issue_7144,
    child_stdout_receives_second_chunk_before_exit,
    child_stderr_receives_second_chunk_before_exit,
    child_stdin_rearms_after_pipe_is_full,
    kill_after_wait,
    kill_on_drop,
    simple,
    pipe_from_one_command_to_another,
    vectored_writes_on_child_stdin,
    async_command_forwards_the_sync_options
);

// process_arg0.rs
async fn arg0() {
    let mut cmd = Command::new("sh");
    cmd.arg0("test_string").arg("-c").arg("echo $0");
    let output = cmd.output().await.unwrap();
    assert_eq!(output.stdout, b"test_string\n");
}

// process_change_of_runtime.rs
#[test]
fn process_spawned_and_wait_in_different_runtime() {
    let _g = util::shared();
    let mut child = Runtime::new().unwrap().block_on(async {
        Command::new("true")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .await
            .unwrap()
    });
    Runtime::new().unwrap().block_on(async {
        let _ = child.wait().await.unwrap();
    });
}

// process_issue_2174.rs
async fn issue_2174() {
    let mut child = Command::new("sleep")
        .arg("2")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .await
        .unwrap();
    let mut input = child.stdin.take().unwrap();

    // Writes will buffer up to 65_636. This *should* loop at least 8 times
    // and then register interest.
    let handle = tokio::spawn(async move {
        let data = [0u8; 8192];
        loop {
            input.write_all(&data).await.unwrap();
        }
    });

    // Sleep enough time so that the child process's stdin's buffer fills.
    time::sleep(Duration::from_secs(1)).await;

    // Kill the child process.
    child.kill().await.unwrap();

    assert!(handle.await.is_err());
}

// process_issue_42.rs
async fn issue_42() {
    let join_handles = (0..10usize).map(|_| {
        tokio::task::spawn(async {
            let processes = (0..10usize).map(|i| async move {
                let mut child = Command::new("echo")
                    .arg(format!("I am spawned process #{i}"))
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .kill_on_drop(true)
                    .spawn()
                    .await
                    .unwrap();
                child.wait().await
            });
            let mut set = tokio::task::JoinSet::new();
            for process in processes {
                set.spawn(process);
            }
            set.join_all().await;
        })
    });
    let mut set = tokio::task::JoinSet::new();
    for handle in join_handles {
        set.spawn(handle);
    }
    set.join_all().await;
}

// process_issue_7144.rs
async fn issue_7144() {
    let mut threads = vec![];
    for _ in 0..20 {
        threads.push(tokio::spawn(test_one()));
    }
    for thread in threads {
        thread.await.unwrap();
    }
}

async fn has_strace() -> bool {
    Command::new("strace").arg("-V").output().await.is_ok()
}

async fn test_one() {
    if !has_strace().await {
        util::skip("issue_7144: no strace on this machine");
        return;
    }
    // In a process group of its own: under load the SIGINT can come while
    // strace is still setting up its detached tracer (`-D`), which is then
    // left stopped, holding the test's stdout; the group is killed after.
    let mut t = Command::new("strace")
        .args("-o /dev/null -D sleep 5".split(' '))
        .process_group(0)
        .spawn()
        .await
        .unwrap();
    let pgid = t.id().unwrap() as libc::pid_t;
    sleep(Duration::from_millis(100)).await;
    // SAFETY: kill has no memory preconditions; the pid is our child's.
    unsafe { libc::kill(pgid, libc::SIGINT) };
    t.wait().await.unwrap();
    // SAFETY: as above; the group is the one made for this child.
    unsafe { libc::kill(-pgid, libc::SIGKILL) };
}

// process_issue_8042.rs
async fn read_chunks<R: AsyncRead + Unpin>(
    reader: &mut R,
    stdin: &mut ChildStdin,
    first: &[u8],
    second: &[u8],
) {
    let mut buf = vec![0; first.len()];
    reader.read_exact(&mut buf).await.unwrap();
    assert_eq!(buf, first);
    std::future::poll_fn(|cx| {
        let mut bytes = [0; 1];
        let mut buf = ReadBuf::new(&mut bytes);
        assert!(
            std::pin::Pin::new(&mut *reader)
                .poll_read(cx, &mut buf)
                .is_pending()
        );
        std::task::Poll::Ready(())
    })
    .await;
    stdin.write_all(b"continue\n").await.unwrap();
    buf.resize(second.len(), 0);
    reader.read_exact(&mut buf).await.unwrap();
    assert_eq!(buf, second);
    stdin.write_all(b"exit\n").await.unwrap();
    assert_eq!(reader.read(&mut buf).await.unwrap(), 0);
}

async fn child_stdout_receives_second_chunk_before_exit() {
    let mut child = Command::new("sh")
        .args([
            "-c",
            "printf 'chunk1\\n'; read gate; printf 'chunk2\\n'; read gate",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .await
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    timeout(
        Duration::from_secs(5),
        read_chunks(&mut stdout, &mut stdin, b"chunk1\n", b"chunk2\n"),
    )
    .await
    .expect("stdout stalled while the child was still alive");
    let status = timeout(Duration::from_secs(5), child.wait())
        .await
        .expect("child wait timed out")
        .unwrap();
    assert!(status.success());
}

async fn child_stderr_receives_second_chunk_before_exit() {
    let mut child = Command::new("sh")
        .args([
            "-c",
            "printf 'err1\\n' >&2; read gate; printf 'err2\\n' >&2; read gate",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .await
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    timeout(
        Duration::from_secs(5),
        read_chunks(&mut stderr, &mut stdin, b"err1\n", b"err2\n"),
    )
    .await
    .expect("stderr stalled while the child was still alive");
    let status = timeout(Duration::from_secs(5), child.wait())
        .await
        .expect("child wait timed out")
        .unwrap();
    assert!(status.success());
}

async fn child_stdin_rearms_after_pipe_is_full() {
    let (gate, child_gate) = std::os::unix::net::UnixStream::pair().unwrap();
    gate.set_nonblocking(true).unwrap();
    let mut gate = tokio::net::UnixStream::from_std(gate).unwrap();
    let mut child = Command::new("sh")
        .args(["-c", "read gate <&2; wc -c"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(OwnedFd::from(child_gate)))
        .kill_on_drop(true)
        .spawn()
        .await
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut written = 0;
    timeout(Duration::from_secs(5), async {
        tokio::task::coop::unconstrained(std::future::poll_fn(|cx| {
            loop {
                match std::pin::Pin::new(&mut stdin).poll_write(cx, &[b'x'; 8192]) {
                    std::task::Poll::Ready(Ok(n)) => {
                        assert!(n > 0);
                        written += n;
                    }
                    std::task::Poll::Ready(Err(err)) => panic!("writing stdin failed: {err}"),
                    std::task::Poll::Pending if written == 0 => return std::task::Poll::Pending,
                    std::task::Poll::Pending => return std::task::Poll::Ready(()),
                }
            }
        }))
        .await;
        gate.write_all(b"continue\n").await.unwrap();
        stdin.write_all(b"x").await.unwrap();
        drop(stdin);
        let mut output = String::new();
        stdout.read_to_string(&mut output).await.unwrap();
        assert_eq!(output.trim().parse::<usize>().unwrap(), written + 1);
        assert!(child.wait().await.unwrap().success());
    })
    .await
    .expect("stdin stalled after the child started reading");
}

// process_kill_after_wait.rs
async fn kill_after_wait() {
    let mut cmd;
    cmd = Command::new("sh");
    cmd.arg("-c");

    let mut child = cmd.arg("exit 2").spawn().await.unwrap();

    child.start_kill().unwrap();

    child.wait().await.unwrap();

    // Kill after `wait` is fine.
    child.start_kill().unwrap();
    child.kill().await.unwrap();
}

// process_kill_on_drop.rs
async fn kill_on_drop() {
    let mut cmd = Command::new("bash");
    cmd.args([
        "-c",
        "
       # Fork another child that won't get killed
       sh -c 'sleep 1; echo child ran' &
       disown -a

       # Await our death
       sleep 5
       echo hello from beyond the grave
    ",
    ]);

    let e = cmd.kill_on_drop(true).stdout(Stdio::piped()).spawn().await;
    if e.is_err() && e.as_ref().unwrap_err().kind() == std::io::ErrorKind::NotFound {
        println!("bash not available; skipping test");
        return;
    }
    let mut child = e.unwrap();

    sleep(Duration::from_secs(2)).await;

    let mut out = child.stdout.take().unwrap();
    drop(child);

    let mut msg = String::new();
    assert!(out.read_to_string(&mut msg).await.is_ok());

    assert_eq!("child ran\n", msg);
}

// process_smoke.rs
async fn simple() {
    let mut cmd;
    cmd = Command::new("sh");
    cmd.arg("-c");

    let mut child = cmd.arg("exit 2").spawn().await.unwrap();

    let id = child.id().expect("missing id");
    assert!(id > 0);

    let status = child.wait().await.expect("wait");
    assert_eq!(status.code(), Some(2));

    // test that the `.wait()` method is fused just like the stdlib
    let status = child.wait().await.expect("wait");
    assert_eq!(status.code(), Some(2));

    // Can't get id after process has exited
    assert_eq!(child.id(), None);
    drop(child.kill());
}

// The pipe of tokio's `TryInto<Stdio>` for its pipe ends (tokio's
// tests-integration `pipe_from_one_command_to_another`).
async fn pipe_from_one_command_to_another() {
    let mut first = Command::new("echo")
        .arg("hello world")
        .stdout(Stdio::piped())
        .spawn()
        .await
        .expect("first cmd");

    // Turn the stdout of the first command into a Stdio of the second.
    let stdout: Stdio = first
        .stdout
        .take()
        .expect("first.stdout")
        .try_into()
        .expect("first.stdout into Stdio");

    let mut second = Command::new("cat")
        .stdin(stdout)
        .stdout(Stdio::piped())
        .spawn()
        .await
        .expect("second cmd");

    let output = second.stdout.take().expect("second.stdout");
    let mut output = tokio::io::BufReader::new(output);
    let mut line = String::new();
    tokio::io::AsyncBufReadExt::read_line(&mut output, &mut line)
        .await
        .expect("read line");
    assert_eq!(line, "hello world\n");
    assert!(first.wait().await.expect("first wait").success());
    assert!(second.wait().await.expect("second wait").success());
}

/// `ChildStdin` writes vectored, as tokio's does.
async fn vectored_writes_on_child_stdin() {
    let mut child = Command::new("cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .await
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    assert!(stdin.is_write_vectored());
    let parts = [
        std::io::IoSlice::new(b"one "),
        std::io::IoSlice::new(b"two "),
        std::io::IoSlice::new(b"three"),
    ];
    let n = stdin.write_vectored(&parts).await.unwrap();
    assert_eq!(n, 13, "one writev of all three parts");
    drop(stdin);
    let out = child.wait_with_output().await.unwrap();
    assert_eq!(out.stdout, b"one two three");
}

/// Every option of the sync `Command` is on the async one: a child run
/// with several of them reports what std's `Command` with the same options
/// reports.
async fn async_command_forwards_the_sync_options() {
    let mut cmd = Command::new(util::probe());
    cmd.arg0("renamed")
        .arg("state")
        .setsid(true)
        .umask(0o027)
        .rlimit(fastspawn::Resource::Core, 0, 0)
        .signal_mask(&[libc::SIGUSR1]);
    let st = util::State::parse(&cmd.output().await.unwrap().stdout);
    assert_eq!(st.get("argv0"), "renamed");
    assert_eq!(st.get("sid"), st.get("pid"));
    assert_eq!(st.get("umask"), "0027");
    assert_eq!(st.hex("sigblk"), util::sigset_bits(&[libc::SIGUSR1]));
    assert_eq!(cmd.get_args(), vec!["state"]);
}

/// tokio's `Command::pre_exec` is there too, and takes the Fork engine.
#[test]
fn async_pre_exec_runs_in_a_forked_child() {
    let _guard = util::shared();
    crate::asynchronous::current_thread().block_on(async {
        let mut cmd = Command::new(util::probe());
        cmd.arg("state");
        // SAFETY: one async-signal-safe system call.
        unsafe {
            cmd.pre_exec(|| {
                if libc::setsid() < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            })
        };
        let child = cmd.stdout(Stdio::piped()).spawn().await.unwrap();
        assert_eq!(child.engine(), fastspawn::Engine::Fork);
        let st = util::State::parse(&child.wait_with_output().await.unwrap().stdout);
        assert_eq!(st.get("sid"), st.get("pid"));
    });
}
