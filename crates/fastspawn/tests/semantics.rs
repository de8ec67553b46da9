//! std's semantics, checked side by side: the same call through
//! `std::process::Command` and `fastspawn::Command`, results compared.
//! Also the API that std users reach for (exit_ok, exec, pre_exec, PidFd,
//! Stdio from a raw fd).

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd};
use std::process;

use fastspawn::{Command, Engine, Stdio, Step};

use crate::util::{self, TempDir, probe_cmd, std_probe_cmd};

/// Writes `contents` to `path` as an executable, through another process
/// (see `util::executable_copy` for why).
fn write_executable(path: &std::path::Path, contents: &str) {
    let status = process::Command::new("/bin/sh")
        .args([
            "-c",
            "printf '%s' \"$1\" > \"$2\" && chmod 755 \"$2\"",
            "sh",
        ])
        .arg(contents)
        .arg(path)
        .status()
        .expect("sh");
    assert!(status.success());
}

#[test]
fn io_error_keeps_raw_os_error_like_std() {
    let _g = util::shared();
    for program in ["/no/such/program", "fastspawn-no-such-program-anywhere"] {
        let std_err = process::Command::new(program)
            .spawn()
            .expect_err("std fails");
        let ours = io::Error::from(Command::new(program).spawn().expect_err("fastspawn fails"));
        assert_eq!(ours.raw_os_error(), std_err.raw_os_error(), "{program}");
        assert_eq!(ours.kind(), std_err.kind(), "{program}");
    }
    // A failure in the child: chdir to a missing directory.
    let std_err = process::Command::new("/bin/true")
        .current_dir("/no/such/dir")
        .spawn()
        .expect_err("std fails");
    let ours = io::Error::from(
        Command::new("/bin/true")
            .current_dir("/no/such/dir")
            .spawn()
            .expect_err("fastspawn fails"),
    );
    assert_eq!(ours.raw_os_error(), std_err.raw_os_error());
}

#[test]
fn debug_like_std() {
    let mut std_cmd = process::Command::new("ls");
    let mut ours = Command::new("ls");
    assert_eq!(format!("{ours:?}"), format!("{std_cmd:?}"));
    std_cmd
        .arg("-l")
        .arg("a b")
        .current_dir("/tmp")
        .env("A", "1")
        .env_remove("HOME");
    ours.arg("-l")
        .arg("a b")
        .current_dir("/tmp")
        .env("A", "1")
        .env_remove("HOME");
    assert_eq!(format!("{ours:?}"), format!("{std_cmd:?}"));
    std_cmd.env_clear().env("B", "2");
    ours.env_clear().env("B", "2");
    assert_eq!(format!("{ours:?}"), format!("{std_cmd:?}"));
}

/// A file without `#!`, run by bare name through a PATH set with `env()`:
/// std's `execvp` hands it to `/bin/sh`, and so does fastspawn; with an
/// inherited PATH std uses `posix_spawnp`, which does not, and neither does
/// fastspawn.
#[test]
fn shebangless_script_through_env_path_like_std() {
    let _g = util::shared();
    let dir = TempDir::new("noshebang");
    let name = util::unique_name("noshebang");
    write_executable(&dir.join(&name), "echo ran as a script \"$@\"\n");
    let path = dir.path().display().to_string();

    let std_out = process::Command::new(&name)
        .arg("x")
        .env("PATH", &path)
        .output()
        .expect("std runs it with /bin/sh");
    for engine in Engine::ALL.into_iter().filter(|e| e.is_available()) {
        let ours = Command::new(&name)
            .arg("x")
            .env("PATH", &path)
            .engine(engine)
            .output()
            .unwrap_or_else(|e| panic!("{engine}: {e}"));
        assert_eq!(ours.stdout, std_out.stdout, "{engine}");
        assert_eq!(ours.stdout, b"ran as a script x\n", "{engine}");
        assert_eq!(ours.status.code(), std_out.status.code(), "{engine}");
    }
    // By path (no PATH search): std's posix_spawn path fails with ENOEXEC.
    let std_err = process::Command::new(dir.join(&name))
        .output()
        .expect_err("std: exec format error");
    let ours = Command::new(dir.join(&name))
        .output()
        .expect_err("fastspawn: exec format error");
    assert_eq!(ours.raw_os_error(), std_err.raw_os_error());
    assert_eq!(ours.raw_os_error(), Some(libc::ENOEXEC));
}

/// A program placed earlier in PATH after a first spawn is run by the next
/// spawn of the same command, as with std (which searches every time).
#[test]
fn new_program_earlier_in_path_seen_by_next_spawn_like_std() {
    let _g = util::shared();
    let dir = TempDir::new("path-order");
    let name = util::unique_name("tool");
    std::fs::create_dir_all(dir.join("early")).expect("mkdir");
    std::fs::create_dir_all(dir.join("late")).expect("mkdir");
    write_executable(&dir.join("late").join(&name), "#!/bin/sh\necho late\n");
    let path = format!(
        "{}:{}",
        dir.join("early").display(),
        dir.join("late").display()
    );
    let mut std_cmd = process::Command::new(&name);
    std_cmd.env("PATH", &path);
    let mut ours = Command::new(&name);
    ours.env("PATH", &path);
    let fresh_ours = || Command::new(&name).env("PATH", &path).output().unwrap();

    assert_eq!(
        ours.output().unwrap().stdout,
        std_cmd.output().unwrap().stdout
    );
    assert_eq!(fresh_ours().stdout, b"late\n");

    write_executable(&dir.join("early").join(&name), "#!/bin/sh\necho early\n");
    let std_out = std_cmd.output().unwrap().stdout;
    assert_eq!(std_out, b"early\n");
    assert_eq!(ours.output().unwrap().stdout, std_out, "the same Command");
    assert_eq!(
        fresh_ours().stdout,
        std_out,
        "a new Command (process-wide cache)"
    );
}

/// The same when an existing file earlier in PATH becomes executable
/// (`chmod` changes no directory's contents: inotify's attribute event).
#[test]
fn file_made_executable_earlier_in_path_seen_by_next_spawn_like_std() {
    let _g = util::shared();
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("path-chmod");
    let name = util::unique_name("tool");
    std::fs::create_dir_all(dir.join("early")).expect("mkdir");
    std::fs::create_dir_all(dir.join("late")).expect("mkdir");
    write_executable(&dir.join("late").join(&name), "#!/bin/sh\necho late\n");
    let early = dir.join("early").join(&name);
    write_executable(&early, "#!/bin/sh\necho early\n");
    std::fs::set_permissions(&early, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let path = format!(
        "{}:{}",
        dir.join("early").display(),
        dir.join("late").display()
    );
    let mut std_cmd = process::Command::new(&name);
    std_cmd.env("PATH", &path);
    let mut ours = Command::new(&name);
    ours.env("PATH", &path);
    assert_eq!(
        ours.output().unwrap().stdout,
        std_cmd.output().unwrap().stdout
    );
    assert_eq!(ours.output().unwrap().stdout, b"late\n");

    std::fs::set_permissions(&early, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let std_out = std_cmd.output().unwrap().stdout;
    assert_eq!(std_out, b"early\n");
    assert_eq!(ours.output().unwrap().stdout, std_out);
}

/// A `putenv` buffer rewritten in place is seen by the next spawn of a
/// command that has `env()` overrides (std copies the environment at every
/// spawn; fastspawn refers to the parent's entries).
#[test]
fn putenv_rewritten_in_place_seen_with_env_overrides_like_std() {
    let _g = util::exclusive();
    // A buffer owned by the environment for the rest of the process.
    let entry: &'static mut [u8] =
        Box::leak(b"FASTSPAWN_T_PUTENV=aaaa\0".to_vec().into_boxed_slice());
    let ptr = entry.as_mut_ptr();
    // SAFETY: no other test runs (exclusive lock); the buffer lives forever.
    assert_eq!(unsafe { libc::putenv(ptr.cast()) }, 0);
    let mut ours = probe_cmd(["env"]);
    ours.env("FASTSPAWN_T_OTHER", "1");
    let mut std_cmd = std_probe_cmd(["env"]);
    std_cmd.env("FASTSPAWN_T_OTHER", "1");
    let value = |out: Vec<u8>| {
        String::from_utf8(out)
            .unwrap()
            .lines()
            .find_map(|l| l.strip_prefix("FASTSPAWN_T_PUTENV=").map(str::to_owned))
    };
    assert_eq!(
        value(ours.output().unwrap().stdout).as_deref(),
        Some("aaaa")
    );
    // SAFETY: rewriting the value bytes in place, same length, as C code does.
    unsafe { std::ptr::copy_nonoverlapping(b"bbbb".as_ptr(), ptr.add(19), 4) };
    let std_value = value(std_cmd.output().unwrap().stdout);
    assert_eq!(std_value.as_deref(), Some("bbbb"));
    assert_eq!(value(ours.output().unwrap().stdout), std_value);
    let key = CString::new("FASTSPAWN_T_PUTENV").unwrap();
    // SAFETY: as above.
    unsafe { libc::unsetenv(key.as_ptr()) };
}

#[test]
fn exit_ok_like_std_display() {
    let _g = util::shared();
    let ok = probe_cmd(["exit", "0"]).status().unwrap();
    assert!(ok.exit_ok().is_ok());
    let failed = probe_cmd(["exit", "3"]).status().unwrap();
    let std_failed = std_probe_cmd(["exit", "3"]).status().unwrap();
    let err = failed.exit_ok().unwrap_err();
    assert_eq!(err.code(), Some(3));
    assert_eq!(err.code_nonzero().map(|c| c.get()), Some(3));
    assert_eq!(err.to_string(), std_failed.to_string());
    assert_eq!(err.into_status(), failed);
    let killed = probe_cmd(["signal", "TERM"]).status().unwrap();
    let err = killed.exit_ok().unwrap_err();
    assert_eq!((err.code(), err.signal()), (None, Some(libc::SIGTERM)));
}

#[test]
fn stdio_from_a_raw_fd() {
    let _g = util::shared();
    let (read, write) = util::pipe();
    // SAFETY: the fd is ours and handed over.
    let stdout = unsafe { Stdio::from_raw_fd(write.into_raw_fd()) };
    let status = probe_cmd(["write-fd", "1", "through a raw fd"])
        .stdout(stdout)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(util::read_all(read), b"through a raw fd");
}

/// `pre_exec` runs on the Fork engine only: Auto picks it, the others and
/// `require_vfork` refuse; its error names the step.
#[test]
fn pre_exec_runs_on_the_fork_engine_only() {
    // Exclusive: it ends by checking that the process has no zombie child,
    // which another test's child could be for a moment.
    let _g = util::exclusive();
    let mut cmd = probe_cmd(["state"]);
    // SAFETY: the closure only makes an async-signal-safe system call.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        })
    };
    let out = cmd.stdout(Stdio::piped()).spawn().unwrap();
    assert_eq!(out.engine(), Engine::Fork);
    let st = util::State::parse(&out.wait_with_output().unwrap().stdout);
    assert_eq!(st.get("sid"), st.get("pid"), "the closure ran in the child");

    for engine in [Engine::Clone3, Engine::CloneVfork, Engine::PosixSpawn] {
        let err = cmd.engine(engine).spawn().expect_err("refused");
        assert_eq!(err.kind(), io::ErrorKind::Unsupported, "{engine}: {err}");
    }
    let err = cmd
        .engine(Engine::Auto)
        .require_vfork(true)
        .spawn()
        .expect_err("refused");
    assert_eq!(err.kind(), io::ErrorKind::Unsupported, "{err}");

    let mut failing = probe_cmd(["exit", "0"]);
    // SAFETY: returns an error, touches nothing.
    unsafe { failing.pre_exec(|| Err(io::Error::from_raw_os_error(libc::EPERM))) };
    let err = failing.spawn().expect_err("the closure fails");
    assert_eq!(*err.step(), Step::PreExec, "{err}");
    assert_eq!(err.raw_os_error(), Some(libc::EPERM));
    util::assert_no_zombies("pre_exec failure");
}

/// A child reaped by other code (`waitpid(pid)` here) is never signalled:
/// its pidfd, made on first need, is refused because the pid is no longer
/// an unreaped child of this process.
#[test]
fn lazy_pidfd_refuses_a_child_reaped_elsewhere() {
    let _g = util::exclusive();
    let mut child = probe_cmd(["exit", "0"]).spawn().unwrap();
    let pid = child.id() as i32;
    let mut status = 0;
    // SAFETY: reaping our own child behind the Child's back.
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    assert!(child.pidfd().is_none(), "no pidfd for a reaped pid");
    child
        .kill()
        .expect("kill of a child reaped elsewhere is a no-op");

    // A pidfd asked for while the child lives keeps referring to it.
    let mut child = probe_cmd(["sleep", "30"]).spawn().unwrap();
    let fd = child.pidfd().expect("made now").as_raw_fd();
    assert!(fd >= 0);
    child.kill().unwrap();
    assert_eq!(child.wait().unwrap().signal(), Some(libc::SIGKILL));
}

/// `pidfd_at_spawn(true)`: the clone makes the pidfd, so it exists at once
/// and keeps referring to the child even when other code reaps it before
/// the `Child` asks (where the lazy pidfd above is refused); signals then
/// go nowhere instead of to a recycled pid.
#[test]
fn pidfd_at_spawn_exists_before_anything_asks_for_it() {
    let _g = util::exclusive();
    let mut cmd = probe_cmd(["exit", "0"]);
    cmd.pidfd_at_spawn(true);
    let mut child = cmd.spawn().unwrap();
    let pid = child.id() as i32;
    let mut status = 0;
    // SAFETY: reaping our own child behind the Child's back.
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    let fd = child.pidfd().expect("made by the clone").as_raw_fd();
    // SAFETY: the pidfd is open (borrowed from the Child); signal 0 only checks.
    let sent = unsafe { libc::syscall(libc::SYS_pidfd_send_signal, fd, 0, 0, 0) };
    assert_eq!(sent, -1);
    assert_eq!(io::Error::last_os_error().raw_os_error(), Some(libc::ESRCH));
    child
        .kill()
        .expect("kill of a child reaped elsewhere is a no-op");
    // Off by default, and only with pidfd(true).
    let mut off = probe_cmd(["exit", "0"]);
    off.pidfd(false).pidfd_at_spawn(true);
    let mut child = off.spawn().unwrap();
    assert!(child.pidfd().is_none());
    assert!(child.wait().unwrap().success());
}

const EXEC_HELPER: &str = "FASTSPAWN_TEST_EXEC_HELPER";

/// `Command::exec` replaces the process, with the options applied (std's
/// `CommandExt::exec`), and returns the failing step otherwise.
#[test]
fn exec_replaces_the_process_like_std() {
    let _g = util::shared();
    let exe = std::env::current_exe().unwrap();
    let out = process::Command::new(exe)
        .args([
            "--exact",
            "semantics::exec_helper",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(EXEC_HELPER, "1")
        .env("FASTSPAWN_PROBE", util::probe())
        .stdin(process::Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let st = util::State::parse(
        stdout
            .split("exec-helper: exec\n")
            .nth(1)
            .expect("exec'd")
            .as_bytes(),
    );
    assert_eq!(st.get("argv0"), "exec'd probe");
    assert_eq!(st.get("cwd"), "/");
    assert_eq!(st.get("sid"), st.get("pid"), "setsid applied");
}

#[test]
#[ignore = "started by exec_replaces_the_process_like_std in a process of its own"]
fn exec_helper() {
    if std::env::var_os(EXEC_HELPER).is_none() {
        return;
    }
    // A failure returns, names the step, and leaves this process running.
    let err = Command::new("/no/such/program").exec();
    assert_eq!(err.kind(), io::ErrorKind::NotFound);
    assert_eq!(*err.step(), Step::Exec);
    let err = probe_cmd(["state"]).current_dir("/no/such/dir").exec();
    assert!(matches!(err.step(), Step::Chdir(_)), "{err}");
    // Still alive, fds usable:
    println!("exec-helper: exec");
    use std::io::Write;
    std::io::stdout().flush().unwrap();
    let err = probe_cmd(["state"])
        .arg0("exec'd probe")
        .current_dir("/")
        .setsid(true)
        .exec();
    panic!("exec failed: {err}");
}
