//! std's own process tests (`library/std/src/process/tests.rs`, and the
//! unix ones in `library/std/src/sys/process/unix/`), ported to fastspawn's
//! types with their assertions unchanged: the "drop-in" claim checked the
//! way std checks itself. Windows-only tests are left out; the few that
//! cannot be ported are listed, with why, in the crate docs ("Tests of std
//! and tokio not ported").
//!
//! Changes to the bodies: std's types become fastspawn's, internal helpers
//! (`cvt`, `t!`, `Stdio::MakePipe`) become their public equivalents, and
//! each test takes the suite's shared lock (the environment test takes it
//! exclusively).

use std::io::ErrorKind;
use std::io::prelude::*;
use std::str;

use fastspawn::{Command, ExitStatus, Output, Stdio};

use crate::util;

fn known_command() -> Command {
    Command::new("echo")
}

fn shell_cmd() -> Command {
    Command::new("/bin/sh")
}

#[test]
fn smoke() {
    let _g = util::shared();
    let p = shell_cmd().arg("-c").arg("true").spawn();
    assert!(p.is_ok());
    let mut p = p.unwrap();
    assert!(p.wait().unwrap().success());
}

#[test]
#[allow(clippy::single_match)] // std's body, unchanged
fn smoke_failure() {
    let _g = util::shared();
    match Command::new("if-this-is-a-binary-then-the-world-has-ended").spawn() {
        Ok(..) => panic!(),
        Err(..) => {}
    }
}

#[test]
fn exit_reported_right() {
    let _g = util::shared();
    let p = shell_cmd().arg("-c").arg("false").spawn();
    assert!(p.is_ok());
    let mut p = p.unwrap();
    assert!(p.wait().unwrap().code() == Some(1));
    drop(p.wait());
}

#[test]
fn signal_reported_right() {
    let _g = util::shared();
    let mut p = shell_cmd()
        .arg("-c")
        .arg("read a")
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    p.kill().unwrap();
    match p.wait().unwrap().signal() {
        Some(9) => {}
        result => panic!("not terminated by signal 9 (instead, {result:?})"),
    }
}

pub fn run_output(mut cmd: Command) -> String {
    let p = cmd.spawn();
    assert!(p.is_ok());
    let mut p = p.unwrap();
    assert!(p.stdout.is_some());
    let mut ret = String::new();
    p.stdout.as_mut().unwrap().read_to_string(&mut ret).unwrap();
    assert!(p.wait().unwrap().success());
    ret
}

#[test]
fn stdout_works() {
    let _g = util::shared();
    let mut cmd = shell_cmd();
    cmd.arg("-c").arg("echo foobar").stdout(Stdio::piped());
    assert_eq!(run_output(cmd), "foobar\n");
}

#[test]
fn set_current_dir_works() {
    let _g = util::shared();
    let mut cmd = shell_cmd();
    cmd.arg("-c")
        .arg("pwd")
        .current_dir("/")
        .stdout(Stdio::piped());
    assert_eq!(run_output(cmd), "/\n");

    // Also test the fork/exec path by setting a pre_exec function.
    {
        let mut cmd = shell_cmd();
        cmd.arg("-c")
            .arg("pwd")
            .current_dir("/")
            .stdout(Stdio::piped());
        unsafe {
            cmd.pre_exec(|| Ok(()));
        }
        assert_eq!(run_output(cmd), "/\n");
    }
}

#[test]
fn stdin_works() {
    let _g = util::shared();
    let mut p = shell_cmd()
        .arg("-c")
        .arg("read line; echo $line")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    #[allow(clippy::unused_io_amount)]
    p.stdin
        .as_mut()
        .unwrap()
        .write("foobar".as_bytes())
        .unwrap();
    drop(p.stdin.take());
    let mut out = String::new();
    p.stdout.as_mut().unwrap().read_to_string(&mut out).unwrap();
    assert!(p.wait().unwrap().success());
    assert_eq!(out, "foobar\n");
}

#[test]
fn test_process_status() {
    let _g = util::shared();
    let mut status = shell_cmd().arg("-c").arg("false").status().unwrap();
    assert!(status.code() == Some(1));

    status = shell_cmd().arg("-c").arg("true").status().unwrap();
    assert!(status.success());
}

#[test]
fn test_process_output_fail_to_start() {
    let _g = util::shared();
    match Command::new("/no-binary-by-this-name-should-exist").output() {
        Err(e) => assert_eq!(e.kind(), ErrorKind::NotFound),
        Ok(..) => panic!(),
    }
}

#[test]
fn test_process_output_output() {
    let _g = util::shared();
    let Output {
        status,
        stdout,
        stderr,
    } = shell_cmd().arg("-c").arg("echo hello").output().unwrap();
    let output_str = str::from_utf8(&stdout).unwrap();

    assert!(status.success());
    assert_eq!(output_str.trim().to_string(), "hello");
    assert_eq!(stderr, Vec::new());
}

#[test]
fn test_process_output_error() {
    let _g = util::shared();
    let Output {
        status,
        stdout,
        stderr,
    } = Command::new("mkdir").arg("./").output().unwrap();

    assert!(status.code().is_some());
    assert!(status.code() != Some(0));
    assert_eq!(stdout, Vec::new());
    assert!(!stderr.is_empty());
}

#[test]
fn test_finish_once() {
    let _g = util::shared();
    let mut prog = shell_cmd().arg("-c").arg("false").spawn().unwrap();
    assert!(prog.wait().unwrap().code() == Some(1));
}

#[test]
fn test_finish_twice() {
    let _g = util::shared();
    let mut prog = shell_cmd().arg("-c").arg("false").spawn().unwrap();
    assert!(prog.wait().unwrap().code() == Some(1));
    assert!(prog.wait().unwrap().code() == Some(1));
}

#[test]
fn test_wait_with_output_once() {
    let _g = util::shared();
    let prog = shell_cmd()
        .arg("-c")
        .arg("echo hello")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();

    let Output {
        status,
        stdout,
        stderr,
    } = prog.wait_with_output().unwrap();
    let output_str = str::from_utf8(&stdout).unwrap();

    assert!(status.success());
    assert_eq!(output_str.trim().to_string(), "hello");
    assert_eq!(stderr, Vec::new());
}

pub fn env_cmd() -> Command {
    Command::new("env")
}

#[test]
fn test_override_env() {
    let _g = util::shared();
    use std::env;

    let mut cmd = env_cmd();
    cmd.env_clear().env("RUN_TEST_NEW_ENV", "123");
    if let Some(p) = env::var_os("PATH") {
        cmd.env("PATH", &p);
    }
    let result = cmd.output().unwrap();
    let output = String::from_utf8_lossy(&result.stdout).to_string();

    assert!(
        output.contains("RUN_TEST_NEW_ENV=123"),
        "didn't find RUN_TEST_NEW_ENV inside of:\n\n{output}",
    );
}

#[test]
fn test_add_to_env() {
    let _g = util::shared();
    let result = env_cmd().env("RUN_TEST_NEW_ENV", "123").output().unwrap();
    let output = String::from_utf8_lossy(&result.stdout).to_string();

    assert!(
        output.contains("RUN_TEST_NEW_ENV=123"),
        "didn't find RUN_TEST_NEW_ENV inside of:\n\n{output}"
    );
}

#[test]
fn test_capture_env_at_spawn() {
    let _g = util::exclusive();
    use std::env;

    let mut cmd = env_cmd();
    cmd.env("RUN_TEST_NEW_ENV1", "123");

    // This variable will not be present if the environment has already
    // been captured above.
    // SAFETY: no other test runs (exclusive lock).
    unsafe { env::set_var("RUN_TEST_NEW_ENV2", "456") };
    let result = cmd.output().unwrap();
    // SAFETY: as above.
    unsafe { env::remove_var("RUN_TEST_NEW_ENV2") };

    let output = String::from_utf8_lossy(&result.stdout).to_string();

    assert!(
        output.contains("RUN_TEST_NEW_ENV1=123"),
        "didn't find RUN_TEST_NEW_ENV1 inside of:\n\n{output}"
    );
    assert!(
        output.contains("RUN_TEST_NEW_ENV2=456"),
        "didn't find RUN_TEST_NEW_ENV2 inside of:\n\n{output}"
    );
}

#[test]
fn test_interior_nul_in_progname_is_error() {
    match Command::new("has-some-\0\0s-inside").spawn() {
        Err(e) => assert_eq!(e.kind(), ErrorKind::InvalidInput),
        Ok(_) => panic!(),
    }
}

#[test]
fn test_interior_nul_in_arg_is_error() {
    match known_command().arg("has-some-\0\0s-inside").spawn() {
        Err(e) => assert_eq!(e.kind(), ErrorKind::InvalidInput),
        Ok(_) => panic!(),
    }
}

#[test]
fn test_interior_nul_in_args_is_error() {
    match known_command().args(["has-some-\0\0s-inside"]).spawn() {
        Err(e) => assert_eq!(e.kind(), ErrorKind::InvalidInput),
        Ok(_) => panic!(),
    }
}

#[test]
fn test_interior_nul_in_current_dir_is_error() {
    match known_command().current_dir("has-some-\0\0s-inside").spawn() {
        Err(e) => assert_eq!(e.kind(), ErrorKind::InvalidInput),
        Ok(_) => panic!(),
    }
}

#[test]
fn test_interior_nul_in_env_key_is_error() {
    match env_cmd().env("has-some-\0\0s-inside", "value").spawn() {
        Err(e) => assert_eq!(e.kind(), ErrorKind::InvalidInput),
        Ok(_) => panic!(),
    }
}

#[test]
fn test_interior_nul_in_env_value_is_error() {
    match env_cmd().env("key", "has-some-\0\0s-inside").spawn() {
        Err(e) => assert_eq!(e.kind(), ErrorKind::InvalidInput),
        Ok(_) => panic!(),
    }
}

#[test]
fn test_command_implements_send_sync() {
    fn take_send_sync_type<T: Send + Sync>(_: T) {}
    take_send_sync_type(Command::new(""))
}

#[test]
fn debug_print() {
    // std's default is no pidfd; fastspawn's is a pidfd (made when first
    // needed), so its `{:#?}` says true: the one changed line of this test.
    const PIDFD: &str = "    create_pidfd: true,\n";

    let mut command = Command::new("some-boring-name");

    assert_eq!(format!("{command:?}"), r#""some-boring-name""#.to_string());

    assert_eq!(
        format!("{command:#?}"),
        format!(
            r#"Command {{
    program: "some-boring-name",
    args: [
        "some-boring-name",
    ],
{PIDFD}}}"#
        )
    );

    command.args(["1", "2", "3"]);

    assert_eq!(
        format!("{command:?}"),
        r#""some-boring-name" "1" "2" "3""#.to_string()
    );

    assert_eq!(
        format!("{command:#?}"),
        format!(
            r#"Command {{
    program: "some-boring-name",
    args: [
        "some-boring-name",
        "1",
        "2",
        "3",
    ],
{PIDFD}}}"#
        )
    );

    command.arg0("exciting-name");

    assert_eq!(
        format!("{command:?}"),
        r#"["some-boring-name"] "exciting-name" "1" "2" "3""#.to_string()
    );

    assert_eq!(
        format!("{command:#?}"),
        format!(
            r#"Command {{
    program: "some-boring-name",
    args: [
        "exciting-name",
        "1",
        "2",
        "3",
    ],
{PIDFD}}}"#
        )
    );

    let mut command_with_env_and_cwd = Command::new("boring-name");
    command_with_env_and_cwd
        .current_dir("/some/path")
        .env("FOO", "bar");
    assert_eq!(
        format!("{command_with_env_and_cwd:?}"),
        r#"cd "/some/path" && FOO="bar" "boring-name""#
    );
    assert_eq!(
        format!("{command_with_env_and_cwd:#?}"),
        format!(
            r#"Command {{
    program: "boring-name",
    args: [
        "boring-name",
    ],
    env: CommandEnv {{
        clear: false,
        vars: {{
            "FOO": Some(
                "bar",
            ),
        }},
    }},
    cwd: Some(
        "/some/path",
    ),
{PIDFD}}}"#
        )
    );

    let mut command_with_removed_env = Command::new("boring-name");
    command_with_removed_env.env_remove("FOO").env_remove("BAR");
    assert_eq!(
        format!("{command_with_removed_env:?}"),
        r#"env -u BAR -u FOO "boring-name""#
    );
    assert_eq!(
        format!("{command_with_removed_env:#?}"),
        format!(
            r#"Command {{
    program: "boring-name",
    args: [
        "boring-name",
    ],
    env: CommandEnv {{
        clear: false,
        vars: {{
            "BAR": None,
            "FOO": None,
        }},
    }},
{PIDFD}}}"#
        )
    );

    let mut command_with_cleared_env = Command::new("boring-name");
    command_with_cleared_env
        .env_clear()
        .env("BAR", "val")
        .env_remove("FOO");
    assert_eq!(
        format!("{command_with_cleared_env:?}"),
        r#"env -i BAR="val" "boring-name""#
    );
    assert_eq!(
        format!("{command_with_cleared_env:#?}"),
        format!(
            r#"Command {{
    program: "boring-name",
    args: [
        "boring-name",
    ],
    env: CommandEnv {{
        clear: true,
        vars: {{
            "BAR": Some(
                "val",
            ),
        }},
    }},
{PIDFD}}}"#
        )
    );
}

#[test]
fn terminate_exited_process() {
    let _g = util::shared();
    let mut cmd = known_command();
    let mut p = cmd.stdout(Stdio::null()).spawn().unwrap();
    p.wait().unwrap();
    assert!(p.kill().is_ok());
    assert!(p.kill().is_ok());
}

// ---------------------------------------------------------------------------
// library/std/src/sys/process/unix/unix/tests.rs

#[test]
fn exitstatus_display_tests() {
    let t = |v, s| assert_eq!(s, format!("{}", ExitStatus::from_raw(v)));

    t(0x0000f, "signal: 15 (SIGTERM)");
    t(0x0008b, "signal: 11 (SIGSEGV) (core dumped)");
    t(0x00000, "exit status: 0");
    t(0x0ff00, "exit status: 255");

    if cfg!(target_os = "linux") {
        t(0x0137f, "stopped (not terminated) by signal: 19 (SIGSTOP)");
        t(0x0ffff, "continued (WIFCONTINUED)");
    }

    if cfg!(all(target_os = "linux", target_env = "gnu")) {
        t(0x000ff, "unrecognised wait status: 255 0xff");
    }
}

#[test]
fn test_command_fork_no_unwind() {
    let _g = util::shared();
    let got = std::panic::catch_unwind(|| {
        let mut c = Command::new("echo");
        c.arg("hi");
        unsafe {
            c.pre_exec(|| panic!("{}", "crash now!"));
        }
        let st = c.status().expect("failed to get command status");
        dbg!(st);
        st
    });
    dbg!(&got);
    let status = got.expect("panic unexpectedly propagated");
    dbg!(status);
    let signal = status
        .signal()
        .expect("expected child process to die of signal");
    assert!(
        signal == libc::SIGABRT
            || signal == libc::SIGILL
            || signal == libc::SIGTRAP
            || signal == libc::SIGSEGV
    );
}

// ---------------------------------------------------------------------------
// library/std/src/sys/process/unix/common/tests.rs

macro_rules! t {
    ($e:expr) => {
        match $e {
            Ok(t) => t,
            Err(e) => panic!("received error for `{}`: {}", stringify!($e), e),
        }
    };
}

/// std's `cvt`: -1 becomes the last OS error.
fn cvt(ret: libc::c_int) -> std::io::Result<libc::c_int> {
    if ret == -1 {
        Err(std::io::Error::last_os_error())
    } else {
        Ok(ret)
    }
}

/// std's `cvt_nz`: a non-zero return is the error number.
fn cvt_nz(ret: libc::c_int) -> std::io::Result<()> {
    if ret == 0 {
        Ok(())
    } else {
        Err(std::io::Error::from_raw_os_error(ret))
    }
}

#[test]
fn test_process_mask() {
    let _g = util::shared();
    // Test to make sure that a signal mask *does* get inherited.
    fn test_inner(mut cmd: Command) {
        unsafe {
            let mut set = std::mem::MaybeUninit::<libc::sigset_t>::uninit();
            let mut old_set = std::mem::MaybeUninit::<libc::sigset_t>::uninit();
            t!(cvt(libc::sigemptyset(set.as_mut_ptr())));
            t!(cvt(libc::sigaddset(set.as_mut_ptr(), libc::SIGINT)));
            t!(cvt_nz(libc::pthread_sigmask(
                libc::SIG_SETMASK,
                set.as_ptr(),
                old_set.as_mut_ptr()
            )));

            cmd.stdin(Stdio::piped());
            cmd.stdout(Stdio::piped());

            let mut cat = t!(cmd.spawn());
            let mut stdin_write = cat.stdin.take().unwrap();
            let mut stdout_read = cat.stdout.take().unwrap();

            t!(cvt_nz(libc::pthread_sigmask(
                libc::SIG_SETMASK,
                old_set.as_ptr(),
                std::ptr::null_mut()
            )));

            t!(cvt(libc::kill(cat.id() as libc::pid_t, libc::SIGINT)));
            // We need to wait until SIGINT is definitely delivered. The
            // easiest way is to write something to cat, and try to read it
            // back: if SIGINT is unmasked, it'll get delivered when cat is
            // next scheduled.
            let _ = stdin_write.write(b"Hello");
            drop(stdin_write);

            // Exactly 5 bytes should be read.
            let mut buf = [0; 5];
            let ret = t!(stdout_read.read(&mut buf));
            assert_eq!(ret, 5);
            assert_eq!(&buf, b"Hello");

            t!(cat.wait());
        }
    }

    // A plain `Command::new` uses the vfork path.
    let cmd = Command::new("cat");
    test_inner(cmd);

    // Specifying `pre_exec` forces the fork/exec path.
    let mut cmd = Command::new("cat");
    unsafe { cmd.pre_exec(|| Ok(())) };
    test_inner(cmd);
}

#[test]
fn test_process_group_posix_spawn() {
    let _g = util::shared();
    unsafe {
        // Spawn a cat subprocess that's just going to hang since there is no I/O.
        let mut cmd = Command::new("cat");
        cmd.process_group(0);
        cmd.stdin(Stdio::piped());
        cmd.stdout(Stdio::piped());
        let mut cat = t!(cmd.spawn());

        let pid = cat.id() as libc::pid_t;
        let pgid = libc::getpgid(pid);
        assert_ne!(-1, pgid, "getpgid failed");
        assert_eq!(
            pid, pgid,
            "child process ID does not match its process group ID"
        );

        // Check that we can kill its process group, which means there *is* one.
        t!(cvt(libc::kill(-pgid, libc::SIGINT)));

        t!(cat.wait());
    }
}

#[test]
fn test_process_group_no_posix_spawn() {
    let _g = util::shared();
    unsafe {
        // Same as above, create hang-y cat. This time, force using the non-posix_spawnp path.
        let mut cmd = Command::new("cat");
        cmd.process_group(0);
        cmd.pre_exec(|| Ok(())); // pre_exec forces fork + exec
        cmd.stdin(Stdio::piped());
        cmd.stdout(Stdio::piped());
        let mut cat = t!(cmd.spawn());

        let pid = cat.id() as libc::pid_t;
        let pgid = libc::getpgid(pid);
        assert_ne!(-1, pgid, "getpgid failed");
        assert_eq!(
            pid, pgid,
            "child process ID does not match its process group ID"
        );

        // Check that we can kill its process group, which means there *is* one.
        t!(cvt(libc::kill(-pgid, libc::SIGINT)));

        t!(cat.wait());
    }
}

#[test]
fn test_setsid_posix_spawn() {
    let _g = util::shared();
    // Spawn a cat subprocess that's just going to hang since there is no I/O.
    let mut cmd = Command::new("cat");
    cmd.setsid(true);
    cmd.stdin(Stdio::piped());
    cmd.stdout(Stdio::piped());
    let mut cat = t!(cmd.spawn());

    unsafe {
        let pid = cat.id() as libc::pid_t;
        let pgid = libc::getpgid(pid);
        assert_ne!(-1, pgid, "getpgid failed");
        assert_eq!(
            pid, pgid,
            "child process ID does not match its process group ID"
        );

        // Setsid will create a new session and process group, so check that
        // we can kill the process group, which means there *is* one.
        t!(cvt(libc::kill(-pgid, libc::SIGINT)));

        t!(cat.wait());
    }
}

#[test]
fn test_setsid_no_posix_spawn() {
    let _g = util::shared();
    let mut cmd = Command::new("cat");
    cmd.setsid(true);
    cmd.stdin(Stdio::piped());
    cmd.stdout(Stdio::piped());

    unsafe {
        // Same as above, create hang-y cat. This time, force using the non-posix_spawn path.
        cmd.pre_exec(|| Ok(())); // pre_exec forces fork + exec rather than posix spawn.
        let mut cat = t!(cmd.spawn());

        let pid = cat.id() as libc::pid_t;
        let pgid = libc::getpgid(pid);
        assert_ne!(-1, pgid, "getpgid failed");
        assert_eq!(
            pid, pgid,
            "child process ID does not match its process group ID"
        );

        // Setsid will create a new session and process group, so check that
        // we can kill the process group, which means there *is* one.
        t!(cvt(libc::kill(-pgid, libc::SIGINT)));

        t!(cat.wait());
    }
}

#[test]
fn unix_exit_statuses() {
    use std::num::NonZero;

    for exit_code in 0..=0xff {
        let raw_wait_status = exit_code << 8;
        let exit_status = ExitStatus::from_raw(raw_wait_status);

        assert_eq!(exit_status.code(), Some(exit_code));

        if let Ok(nz) = NonZero::try_from(exit_code) {
            assert!(!exit_status.success());
            let es_error = exit_status.exit_ok().unwrap_err();
            assert_eq!(es_error.code().unwrap(), i32::from(nz));
        } else {
            assert!(exit_status.success());
            assert_eq!(exit_status.exit_ok(), Ok(()));
        }
    }
}

// ---------------------------------------------------------------------------
// library/std/src/sys/process/unix/pidfd/tests.rs

fn probe_pidfd_support() -> bool {
    // What std's internal `PidFd::current_process()` does.
    rustix::process::pidfd_open(
        rustix::process::getpid(),
        rustix::process::PidfdFlags::empty(),
    )
    .is_ok()
}

#[test]
fn test_command_pidfd() {
    let _g = util::shared();
    use std::os::fd::AsRawFd;
    let pidfd_open_available = probe_pidfd_support();

    // always exercise creation attempts
    let mut child = Command::new("false").pidfd(true).spawn().unwrap();

    // but only check if we know that the kernel supports pidfds.
    if pidfd_open_available {
        assert!(child.pidfd().is_some());
    }
    if let Some(pidfd) = child.pidfd() {
        let flags = cvt(unsafe { libc::fcntl(pidfd.as_raw_fd(), libc::F_GETFD) }).unwrap();
        assert!(flags & libc::FD_CLOEXEC != 0);
    }
    assert!(child.id() > 0 && child.id() < -1i32 as u32);
    let status = child.wait().expect("error waiting on pidfd");
    assert_eq!(status.code(), Some(1));

    let mut child = Command::new("sleep")
        .arg("1000")
        .pidfd(true)
        .spawn()
        .unwrap();
    assert!(matches!(child.try_wait(), Ok(None)));
    child.kill().expect("failed to kill child");
    let status = child.wait().expect("error waiting on pidfd");
    assert_eq!(status.signal(), Some(libc::SIGKILL));

    let mut child = Command::new("echo").pidfd(false).spawn().unwrap();
    assert!(
        child.pidfd().is_none(),
        "pidfd should not have been created when create_pid(false) is set"
    );
    child.wait().unwrap();

    // exercise the fork/exec path
    let mut cmd = Command::new("false");
    let mut child = unsafe { cmd.pre_exec(|| Ok(())) }
        .pidfd(true)
        .spawn()
        .unwrap();

    let id = child.id();

    assert!(
        id > 0 && id < -1i32 as u32,
        "spawning with pidfd still returns a sane pid"
    );

    if pidfd_open_available {
        assert!(child.pidfd().is_some())
    }

    child.wait().expect("error waiting on child");
}

#[test]
fn test_pidfd() {
    let _g = util::shared();
    if !probe_pidfd_support() {
        return;
    }

    let child = Command::new("sleep")
        .arg("1000")
        .pidfd(true)
        .spawn()
        .expect("executing 'sleep' failed");

    let fd = child.into_pidfd().unwrap();

    assert!(matches!(fd.try_wait(), Ok(None)));
    fd.kill().expect("kill failed");
    fd.kill().expect("sending kill twice failed");
    let status = fd.wait().expect("1st wait failed");
    assert_eq!(status.signal(), Some(libc::SIGKILL));

    // Trying to wait again for a reaped child is safe since there's no pid-recycling race.
    // But doing so may return an error.
    let res = fd.wait();
    match res {
        // older kernels
        Err(e) if e.raw_os_error() == Some(libc::ECHILD) => {}
        // 6.15+
        Ok(exit) if exit.signal() == Some(libc::SIGKILL) => {}
        other => panic!("expected ECHILD error, got {:?}", other),
    }

    // Ditto for additional attempts to kill an already-dead child.
    let res = fd.kill();
    assert!(matches!(res, Err(e) if e.raw_os_error() == Some(libc::ESRCH)));
}
