//! What a child sees and how it ends, for every engine: exit statuses,
//! stdio, environment, working directory, PATH lookup, argv, the getters,
//! and reusing a command. Where std has the same option, the result is
//! compared with `std::process::Command` doing the same.

use std::ffi::{OsStr, OsString};
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{PermissionsExt, symlink};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process;

use fastspawn::{Command, Engine, ExitStatus, Stdio};

use crate::util::{
    self, TempDir, output, output_ok, probe, probe_cmd, spawn, state, std_probe_cmd,
};

engine_tests!(shared: exit_codes, death_by_signal, status_and_output_methods, large_output,
    stdin_piped, wait_closes_stdin, stdio_null, stdio_from_file, stdio_chaining, env_like_std,
    large_env_like_std, shared_environment_like_std, cwd, relative_program_in_new_cwd, path_lookup_like_std,
    path_changes_between_spawns, path_removed_falls_back_to_default, arg0, args_passed_verbatim,
    getters_like_std, spawn_twice_and_modify);

fn exit_codes(engine: Engine) {
    for code in [0, 1, 3, 42, 255] {
        let mut child = spawn(&mut probe_cmd(["exit", &code.to_string()]), engine);
        let status = child.wait().expect("wait");
        assert_eq!(status.code(), Some(code), "{status:?}");
        assert_eq!(status.signal(), None);
        assert_eq!(status.success(), code == 0);
        assert!(!status.core_dumped());

        let reference = std_probe_cmd(["exit", &code.to_string()])
            .status()
            .expect("std status");
        let converted: process::ExitStatus = status.into();
        assert_eq!(converted, reference);
        assert_eq!(converted.code(), Some(code));
        assert_eq!(ExitStatus::from(reference), status);
        assert_eq!(status.into_raw(), reference.into_raw());
        assert_eq!(status.to_string(), reference.to_string());
        assert_eq!(format!("{status:?}"), format!("{reference:?}"));
    }
}

fn death_by_signal(engine: Engine) {
    for sig in [
        libc::SIGTERM,
        libc::SIGKILL,
        libc::SIGUSR1,
        libc::SIGHUP,
        libc::SIGPIPE,
    ] {
        let mut child = spawn(&mut probe_cmd(["signal", &sig.to_string()]), engine);
        let status = child.wait().expect("wait");
        assert_eq!(status.signal(), Some(sig), "{status:?}");
        assert_eq!(status.code(), None);
        assert!(!status.success());

        let reference = std_probe_cmd(["signal", &sig.to_string()])
            .status()
            .expect("std status");
        let converted: process::ExitStatus = status.into();
        assert_eq!(converted, reference);
        assert_eq!(converted.signal(), Some(sig));
        assert_eq!(status.to_string(), reference.to_string());
    }
}

/// `status()` and `output()` (which cannot report the engine) agree with
/// what the spawned child does.
fn status_and_output_methods(engine: Engine) {
    let mut cmd = probe_cmd(["exit", "9"]);
    let status = cmd.engine(engine).status().expect("status");
    assert_eq!(status.code(), Some(9));

    // output(): stdin is /dev/null unless set, stdout and stderr are piped.
    let out = probe_cmd(["state"])
        .engine(engine)
        .output()
        .expect("output");
    assert!(out.status.success(), "{out:?}");
    let st = util::State::parse(&out.stdout);
    assert_eq!(st.fdlink(0), "/dev/null");
    assert!(st.fdlink(1).starts_with("pipe:"), "{}", st.fdlink(1));
    assert!(st.fdlink(2).starts_with("pipe:"), "{}", st.fdlink(2));
    assert_ne!(st.fdlink(1), st.fdlink(2));

    let out = probe_cmd(["read-fd", "0"])
        .engine(engine)
        .output()
        .expect("output");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(out.stdout, b"");

    let std_out: process::Output = probe_cmd(["spew", "10", "5"])
        .engine(engine)
        .output()
        .expect("output")
        .into();
    assert_eq!(std_out.stdout, b"abcdefghij");
    assert_eq!(std_out.stderr, b"ABCDE");
    assert!(std_out.status.success());

    // And the same through spawn, so the engine is checked.
    let child = spawn(probe_cmd(["exit", "0"]).stdout(Stdio::piped()), engine);
    let out = child.wait_with_output().expect("wait_with_output");
    assert!(out.status.success());
}

/// Checks `data` is `len` bytes of the probe's `spew` pattern.
fn check_spew(data: &[u8], len: usize, stdout: bool, what: &str) {
    assert_eq!(data.len(), len, "{what}: byte count");
    let base = if stdout { b'a' } else { b'A' };
    if let Some(at) = data
        .iter()
        .enumerate()
        .position(|(i, &b)| b != base + (i % 26) as u8)
    {
        panic!("{what}: wrong byte {:?} at offset {at}", data[at] as char);
    }
}

fn large_output(engine: Engine) {
    const OUT: usize = 4 * 1024 * 1024 + 12_345;
    const ERR: usize = 5 * 1024 * 1024 + 777;
    let args = ["spew".to_owned(), OUT.to_string(), ERR.to_string()];

    let out = output(&mut probe_cmd(&args), engine);
    assert!(out.status.success(), "{:?}", out.status);
    check_spew(&out.stdout, OUT, true, "spawn+wait_with_output stdout");
    check_spew(&out.stderr, ERR, false, "spawn+wait_with_output stderr");

    let out = probe_cmd(&args).engine(engine).output().expect("output");
    assert!(out.status.success(), "{:?}", out.status);
    check_spew(&out.stdout, OUT, true, "output() stdout");
    check_spew(&out.stderr, ERR, false, "output() stderr");
}

fn stdin_piped(engine: Engine) {
    let data: Vec<u8> = (0..3_000_000u32)
        .map(|i| (i.wrapping_mul(7) % 251) as u8)
        .collect();
    let mut child = spawn(
        probe_cmd(["cat"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped()),
        engine,
    );
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = data.clone();
    // Write from a thread: the child's stdout fills up while we write.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let mut echoed = Vec::new();
    child
        .stdout
        .take()
        .expect("piped stdout")
        .read_to_end(&mut echoed)
        .expect("read");
    writer.join().expect("writer thread").expect("write stdin");
    assert!(child.wait().expect("wait").success());
    assert_eq!(echoed.len(), data.len());
    assert!(echoed == data, "cat echoed other bytes than it got");

    // wait_with_output closes stdin after what was written.
    let mut child = spawn(
        probe_cmd(["cat"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped()),
        engine,
    );
    child
        .stdin
        .as_mut()
        .expect("piped stdin")
        .write_all(b"hello\nworld\n")
        .expect("write");
    let out = child.wait_with_output().expect("wait_with_output");
    assert!(out.status.success());
    assert_eq!(out.stdout, b"hello\nworld\n");
}

/// `wait` closes the child's stdin first, so `cat` ends.
fn wait_closes_stdin(engine: Engine) {
    let mut child = spawn(
        probe_cmd(["cat"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null()),
        engine,
    );
    assert!(child.stdin.is_some());
    let status = child.wait().expect("wait");
    assert!(status.success(), "{status:?}");
    assert!(child.stdin.is_none());
}

fn stdio_null(engine: Engine) {
    let mut cmd = probe_cmd(["read-fd", "0"]);
    cmd.stdin(Stdio::null());
    let out = output_ok(&mut cmd, engine);
    assert_eq!(out.stdout, b"");

    let mut cmd = probe_cmd(Vec::<&str>::new());
    cmd.stdin(Stdio::null()).stderr(Stdio::null());
    let mut child = spawn(cmd.arg("state").stdout(Stdio::piped()), engine);
    let mut text = Vec::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_end(&mut text)
        .expect("read");
    assert!(child.wait().expect("wait").success());
    let st = util::State::parse(&text);
    assert_eq!(st.fdlink(0), "/dev/null");
    assert_eq!(st.fdlink(2), "/dev/null");

    // Output to /dev/null is accepted and discarded.
    let mut child = spawn(
        probe_cmd(["spew", "100000", "100000"])
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
        engine,
    );
    assert!(child.stdout.is_none() && child.stderr.is_none());
    assert!(child.wait().expect("wait").success());
}

fn stdio_from_file(engine: Engine) {
    let dir = TempDir::new("stdio-file");
    let input: String = (0..20_000).map(|i| format!("line {i}\n")).collect();
    let in_path = dir.file("in", &input, 0o644);
    let out_path = dir.join("out");
    let err_path = dir.join("err");

    let mut cmd = probe_cmd(["cat"]);
    cmd.stdin(File::open(&in_path).expect("open in"))
        .stdout(File::create(&out_path).expect("create out"));
    let status = spawn(&mut cmd, engine).wait().expect("wait");
    assert!(status.success());
    drop(cmd);
    assert_eq!(fs::read_to_string(&out_path).expect("read out"), input);

    let mut cmd = probe_cmd(["spew", "1000", "2000"]);
    cmd.stdout(File::create(&out_path).expect("create out"))
        .stderr(std::os::fd::OwnedFd::from(
            File::create(&err_path).expect("create err"),
        ));
    assert!(spawn(&mut cmd, engine).wait().expect("wait").success());
    check_spew(
        &fs::read(&out_path).expect("read"),
        1000,
        true,
        "stdout file",
    );
    check_spew(
        &fs::read(&err_path).expect("read"),
        2000,
        false,
        "stderr file",
    );
}

fn stdio_chaining(engine: Engine) {
    const N: usize = 2 * 1024 * 1024 + 3;
    // fastspawn -> fastspawn
    let mut first = spawn(
        probe_cmd(["spew", &N.to_string(), "0"]).stdout(Stdio::piped()),
        engine,
    );
    let mut cmd = probe_cmd(["cat"]);
    cmd.stdin(first.stdout.take().expect("piped stdout"))
        .stdout(Stdio::piped());
    let second = spawn(&mut cmd, engine);
    drop(cmd); // the command holds the read end too: not needed for EOF, but be tidy
    let out = second.wait_with_output().expect("wait_with_output");
    assert!(first.wait().expect("wait").success());
    assert!(out.status.success());
    check_spew(&out.stdout, N, true, "fastspawn | fastspawn");

    // std -> fastspawn
    let mut std_child = std_probe_cmd(["spew", "70000", "0"])
        .stdout(process::Stdio::piped())
        .spawn()
        .expect("std spawn");
    let mut cmd = probe_cmd(["cat"]);
    cmd.stdin(std_child.stdout.take().expect("std stdout"));
    let out = output_ok(&mut cmd, engine);
    assert!(std_child.wait().expect("std wait").success());
    check_spew(&out.stdout, 70_000, true, "std | fastspawn");

    // fastspawn -> std
    let mut child = spawn(
        probe_cmd(["spew", "80000", "0"]).stdout(Stdio::piped()),
        engine,
    );
    let pipe: std::os::fd::OwnedFd = child.stdout.take().expect("stdout").into();
    let std_out = std_probe_cmd(["cat"])
        .stdin(pipe)
        .output()
        .expect("std output");
    assert!(child.wait().expect("wait").success());
    check_spew(&std_out.stdout, 80_000, true, "fastspawn | std");
}

/// One change to a command's environment, applied to both libraries.
#[derive(Clone, Debug)]
enum EnvOp {
    Set(&'static str, &'static str),
    Many(&'static [(&'static str, &'static str)]),
    Remove(&'static str),
    Clear,
}

fn apply_env(ops: &[EnvOp], ours: &mut Command, theirs: &mut process::Command) {
    for op in ops {
        match *op {
            EnvOp::Set(k, v) => {
                ours.env(k, v);
                theirs.env(k, v);
            }
            EnvOp::Many(vars) => {
                ours.envs(vars.iter().copied());
                theirs.envs(vars.iter().copied());
            }
            EnvOp::Remove(k) => {
                ours.env_remove(k);
                theirs.env_remove(k);
            }
            EnvOp::Clear => {
                ours.env_clear();
                theirs.env_clear();
            }
        }
    }
}

fn env_scenarios() -> Vec<Vec<EnvOp>> {
    use EnvOp::*;
    // Variables the test process surely has: cargo sets these for tests.
    vec![
        vec![],
        vec![Set("FASTSPAWN_T_A", "1")],
        vec![Set("FASTSPAWN_T_A", "x=y=z"), Set("FASTSPAWN_T_B", "")],
        vec![Set("PATH", "/nowhere:/usr/bin:/bin")],
        vec![Set("CARGO_PKG_NAME", "overridden")],
        vec![
            Remove("CARGO_PKG_NAME"),
            Remove("PATH"),
            Remove("FASTSPAWN_T_NEVER_SET"),
        ],
        vec![Clear],
        vec![Clear, Set("FASTSPAWN_T_A", "1"), Set("FASTSPAWN_T_B", "2")],
        vec![Set("FASTSPAWN_T_A", "1"), Remove("FASTSPAWN_T_A")],
        vec![Remove("FASTSPAWN_T_A"), Set("FASTSPAWN_T_A", "2")],
        vec![Remove("CARGO_PKG_NAME"), Set("CARGO_PKG_NAME", "back")],
        vec![Clear, Set("FASTSPAWN_T_X", "1"), Remove("FASTSPAWN_T_X")],
        vec![Set("FASTSPAWN_T_A", "1"), Clear, Set("FASTSPAWN_T_B", "2")],
        vec![
            Remove("PATH"),
            Clear,
            Remove("FASTSPAWN_T_A"),
            Set("FASTSPAWN_T_C", "3"),
        ],
        vec![Many(&[
            ("FASTSPAWN_T_A", "1"),
            ("FASTSPAWN_T_A", "2"),
            ("FASTSPAWN_T_B", "b"),
        ])],
        vec![
            Set("FASTSPAWN_T_A", "1"),
            Many(&[("FASTSPAWN_T_A", "3")]),
            Remove("CARGO_PKG_VERSION"),
        ],
        vec![Clear, Many(&[("PATH", "/usr/bin:/bin"), ("HOME", "/tmp")])],
    ]
}

fn env_like_std(engine: Engine) {
    assert!(
        std::env::var_os("CARGO_PKG_NAME").is_some(),
        "run the tests with cargo"
    );
    for ops in env_scenarios() {
        let mut ours = probe_cmd(["env"]);
        let mut theirs = std_probe_cmd(["env"]);
        apply_env(&ops, &mut ours, &mut theirs);

        let ours_envs: Vec<(OsString, Option<OsString>)> = ours
            .get_envs()
            .map(|(k, v)| (k.to_owned(), v.map(OsStr::to_owned)))
            .collect();
        let theirs_envs: Vec<(OsString, Option<OsString>)> = theirs
            .get_envs()
            .map(|(k, v)| (k.to_owned(), v.map(OsStr::to_owned)))
            .collect();
        assert_eq!(ours_envs, theirs_envs, "get_envs after {ops:?}");

        let out = output_ok(&mut ours, engine);
        let reference = theirs.output().expect("std output");
        assert!(reference.status.success());
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&reference.stdout),
            "environment after {ops:?}"
        );
    }
}

/// A shared `Environment` behaves as `env_clear()` + `envs()` of its
/// variables does with std, alone and with changes made on top of it, and
/// its PATH is the one searched.
fn shared_environment_like_std(engine: Engine) {
    use EnvOp::*;
    const VARS: &[(&str, &str)] = &[
        ("FASTSPAWN_T_A", "1"),
        ("FASTSPAWN_T_B", "x=y"),
        ("FASTSPAWN_T_A", "2"),
        ("FASTSPAWN_T_E", ""),
        ("PATH", "/usr/bin:/bin"),
    ];
    let environment = fastspawn::Environment::new(VARS.iter().copied()).expect("environment");
    assert_eq!(environment.len(), 4);
    let scenarios: Vec<Vec<EnvOp>> = vec![
        vec![],
        vec![Set("FASTSPAWN_T_A", "3")],
        vec![Remove("FASTSPAWN_T_B"), Set("FASTSPAWN_T_C", "c")],
        vec![Remove("PATH")],
        vec![Clear, Set("FASTSPAWN_T_C", "c")],
    ];
    for ops in scenarios {
        // A bare name: the PATH searched is the environment's.
        let mut ours = Command::new("env");
        let mut theirs = process::Command::new("env");
        ours.environment(&environment);
        theirs.env_clear().envs(VARS.iter().copied());
        apply_env(&ops, &mut ours, &mut theirs);
        let reference = theirs.output();
        let out = ours.engine(engine).output();
        match (out, reference) {
            (Ok(out), Ok(reference)) => {
                assert!(reference.status.success());
                assert_eq!(
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&reference.stdout),
                    "environment after Environment + {ops:?}"
                );
            }
            (Err(ours), Err(theirs)) => {
                assert_eq!(ours.raw_os_error(), theirs.raw_os_error(), "{ops:?}")
            }
            (ours, theirs) => panic!("{ops:?}: fastspawn {ours:?}, std {theirs:?}"),
        }
    }
    // A NUL byte is refused when the environment is made.
    assert!(fastspawn::Environment::new([("A", "x\0y")]).is_err());
    // The process's own environment, captured: as std's inherited one.
    let mut ours = probe_cmd(["env"]);
    ours.environment(&fastspawn::Environment::capture());
    let out = output_ok(&mut ours, engine);
    let reference = std_probe_cmd(["env"]).output().expect("std output");
    let sorted = |bytes: &[u8]| {
        let mut lines: Vec<Vec<u8>> = bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
        lines.sort();
        lines
    };
    assert_eq!(
        sorted(&out.stdout),
        sorted(&reference.stdout),
        "captured environment"
    );
}

/// A large environment, built from generated variables, matches std too.
fn large_env_like_std(engine: Engine) {
    let vars: Vec<(String, String)> = (0..3000)
        .map(|i| (format!("FASTSPAWN_T_BIG_{i}"), "v".repeat(i % 50)))
        .collect();
    let mut ours = probe_cmd(["env"]);
    let mut theirs = std_probe_cmd(["env"]);
    ours.envs(vars.iter().map(|(k, v)| (k, v)));
    theirs.envs(vars.iter().map(|(k, v)| (k, v)));
    for i in (0..3000).step_by(7) {
        ours.env_remove(format!("FASTSPAWN_T_BIG_{i}"));
        theirs.env_remove(format!("FASTSPAWN_T_BIG_{i}"));
    }
    let out = output_ok(&mut ours, engine);
    let reference = theirs.output().expect("std output");
    assert!(out.stdout == reference.stdout, "environments differ");
    let count = out
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| l.starts_with(b"FASTSPAWN_T_BIG_"))
        .count();
    assert_eq!(count, 3000 - 3000usize.div_ceil(7));
}

fn cwd(engine: Engine) {
    let dir = TempDir::new("cwd");
    let canonical = dir.path().canonicalize().expect("canonicalize");
    let st = state(
        probe_cmd(Vec::<&str>::new()).current_dir(dir.path()),
        engine,
    );
    assert_eq!(Path::new(st.get("cwd")), canonical);

    let st = state(probe_cmd(Vec::<&str>::new()).current_dir("/"), engine);
    assert_eq!(st.get("cwd"), "/");

    // Without current_dir the child has ours.
    let st = state(&mut probe_cmd(Vec::<&str>::new()), engine);
    assert_eq!(
        Path::new(st.get("cwd")),
        std::env::current_dir().expect("cwd")
    );
}

/// `./x` is resolved in the child's new working directory, as std does.
fn relative_program_in_new_cwd(engine: Engine) {
    let dir = TempDir::new("relprog");
    symlink(probe(), dir.join("x")).expect("symlink");
    let sub = dir.join("sub");
    fs::create_dir(&sub).expect("mkdir");
    symlink(probe(), sub.join("y")).expect("symlink");

    for (program, cwd) in [
        ("./x", dir.path().to_owned()),
        ("sub/y", dir.path().to_owned()),
        ("../x", sub.clone()),
    ] {
        let mut ours = Command::new(program);
        ours.arg("args").current_dir(&cwd);
        let out = output_ok(&mut ours, engine);
        let reference = process::Command::new(program)
            .arg("args")
            .current_dir(&cwd)
            .output()
            .expect("std output");
        assert_eq!(
            out.stdout,
            reference.stdout,
            "{program} in {}",
            cwd.display()
        );
        assert_eq!(out.stdout, format!("{program}\nargs\n").into_bytes());
    }

    // Without current_dir, ./x is looked up in our own cwd, where it is not.
    let err = Command::new("./x")
        .engine(engine)
        .spawn()
        .expect_err("./x is not in our cwd");
    assert_eq!(err.kind(), io::ErrorKind::NotFound, "{err}");
}

/// What a spawn came to: the child's stdout, or the error kind.
fn outcome(result: io::Result<process::Output>) -> Result<String, io::ErrorKind> {
    match result {
        Ok(out) => {
            assert!(out.status.success(), "{out:?}");
            Ok(String::from_utf8_lossy(&out.stdout).into_owned())
        }
        Err(err) => Err(err.kind()),
    }
}

fn ours_outcome(cmd: &mut Command, engine: Engine) -> Result<String, io::ErrorKind> {
    cmd.stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(Stdio::null())
        .engine(engine);
    outcome(match cmd.spawn() {
        Ok(child) => {
            assert_eq!(child.engine(), engine);
            child.wait_with_output().map(Into::into).map_err(Into::into)
        }
        Err(err) => Err(err.into()),
    })
}

fn path_lookup_like_std(engine: Engine) {
    let a = TempDir::new("path-a");
    let b = TempDir::new("path-b");
    let name = util::unique_name("prog");
    // In a: a non-executable file and a directory with the program's name;
    // in b: the program.
    a.file(&name, "#!/bin/sh\necho wrong\n", 0o644);
    fs::create_dir(a.join(format!("{name}-dir"))).expect("mkdir");
    b.script(&name, "from-b");
    b.script(&format!("{name}-dir"), "dir-from-b");
    b.script(&format!("sub/{name}"), "sub-from-b");
    let path = format!("{}:{}", a.path().display(), b.path().display());

    type Case = (
        String,
        Vec<(&'static str, String)>,
        Result<String, io::ErrorKind>,
    );
    let cases: Vec<Case> = vec![
        // found through the PATH set on the command, skipping what is not executable
        (
            name.clone(),
            vec![("PATH", path.clone())],
            Ok("from-b x\n".into()),
        ),
        (
            format!("{name}-dir"),
            vec![("PATH", path.clone())],
            Ok("dir-from-b x\n".into()),
        ),
        // only the non-executable one in PATH: std says PermissionDenied
        (
            name.clone(),
            vec![("PATH", a.path().display().to_string())],
            Err(io::ErrorKind::PermissionDenied),
        ),
        // nowhere
        (
            util::unique_name("missing"),
            vec![("PATH", path.clone())],
            Err(io::ErrorKind::NotFound),
        ),
        // a name with a slash is not searched (it is relative to the cwd, "/")
        (
            format!("sub/{name}"),
            vec![("PATH", b.path().display().to_string())],
            Err(io::ErrorKind::NotFound),
        ),
    ];
    for (program, envs, expected) in cases {
        let mut ours = Command::new(&program);
        let mut theirs = process::Command::new(&program);
        for (k, v) in &envs {
            ours.env(k, v);
            theirs.env(k, v);
        }
        ours.arg("x").current_dir("/");
        theirs.arg("x").current_dir("/");
        let got = ours_outcome(&mut ours, engine);
        let reference = outcome(theirs.stdin(process::Stdio::null()).output());
        assert_eq!(reference, expected, "std for {program} with {envs:?}");
        assert_eq!(got, expected, "{program} with {envs:?}");
    }
}

/// A command whose PATH changes between spawns finds the program anew.
fn path_changes_between_spawns(engine: Engine) {
    let b = TempDir::new("path-b");
    let c = TempDir::new("path-c");
    let name = util::unique_name("prog");
    b.script(&name, "B");
    c.script(&name, "C");
    let mut cmd = Command::new(&name);
    cmd.env(
        "PATH",
        format!("{}:{}", b.path().display(), c.path().display()),
    );
    assert_eq!(ours_outcome(&mut cmd, engine), Ok("B\n".into()));
    assert_eq!(ours_outcome(&mut cmd, engine), Ok("B\n".into()));
    cmd.env("PATH", c.path());
    assert_eq!(ours_outcome(&mut cmd, engine), Ok("C\n".into()));
    // The first match disappears: a new command with the same name and PATH
    // finds the next one, as execvp (and std) would.
    let both = format!("{}:{}", b.path().display(), c.path().display());
    fs::remove_file(b.join(&name)).expect("rm");
    let mut fresh = Command::new(&name);
    fresh.env("PATH", &both);
    assert_eq!(
        ours_outcome(&mut fresh, engine),
        Ok("C\n".into()),
        "after {name} left the first PATH dir"
    );
    // The program moves: the next spawn of a new command must not use a stale lookup.
    fs::remove_file(c.join(&name)).expect("rm");
    let mut again = Command::new(&name);
    again.env("PATH", c.path());
    assert_eq!(
        ours_outcome(&mut again, engine),
        Err(io::ErrorKind::NotFound)
    );
    c.script(&name, "C2");
    assert_eq!(ours_outcome(&mut again, engine), Ok("C2\n".into()));
}

/// With PATH removed or cleared, a bare name is looked up only in the
/// default path (/bin:/usr/bin), never in the parent's PATH.
fn path_removed_falls_back_to_default(engine: Engine) {
    let missing = util::unique_name("missing");
    type Setup = fn(&mut Command, &mut process::Command);
    let setups: [(&str, Setup); 2] = [
        ("env_remove(PATH)", |o, t| {
            o.env_remove("PATH");
            t.env_remove("PATH");
        }),
        ("env_clear()", |o, t| {
            o.env_clear();
            t.env_clear();
        }),
    ];
    for (what, setup) in setups {
        // in /bin and /usr/bin: found
        let mut ours = Command::new("sh");
        let mut theirs = process::Command::new("sh");
        setup(&mut ours, &mut theirs);
        ours.args(["-c", "echo found"]);
        theirs.args(["-c", "echo found"]);
        let expected = outcome(theirs.output());
        assert_eq!(expected, Ok("found\n".into()), "std, {what}");
        assert_eq!(ours_outcome(&mut ours, engine), expected, "sh with {what}");

        // nowhere: NotFound
        let mut ours = Command::new(&missing);
        let mut theirs = process::Command::new(&missing);
        setup(&mut ours, &mut theirs);
        assert_eq!(outcome(theirs.output()), Err(io::ErrorKind::NotFound));
        assert_eq!(
            ours_outcome(&mut ours, engine),
            Err(io::ErrorKind::NotFound),
            "{what}"
        );
    }

    // A program only in the parent's PATH (not in /bin or /usr/bin) is not
    // found once the command removes PATH. Candidates that print their
    // version and exit at once.
    let Some(name) = only_in_parent_path(&["cargo", "rustc", "rustup", "go", "node"]) else {
        util::skip(
            "no program is only in the parent's PATH: cannot check the parent's PATH is ignored",
        );
        return;
    };
    let mut ours = Command::new(&name);
    let mut theirs = process::Command::new(&name);
    ours.arg("--version").env_remove("PATH");
    theirs.arg("--version").env_remove("PATH");
    assert_eq!(
        outcome(theirs.output()),
        Err(io::ErrorKind::NotFound),
        "std, {name}"
    );
    assert_eq!(
        ours_outcome(&mut ours, engine),
        Err(io::ErrorKind::NotFound),
        "{name} without PATH"
    );
    let mut ours = Command::new(&name);
    ours.arg("--version").env_clear();
    assert_eq!(
        ours_outcome(&mut ours, engine),
        Err(io::ErrorKind::NotFound),
        "{name} after env_clear"
    );
    // and with the parent's PATH it is found
    assert!(
        ours_outcome(Command::new(&name).arg("--version"), engine).is_ok(),
        "{name} with our PATH"
    );
}

/// The first of `candidates` that is in a directory of our PATH but in
/// neither /bin nor /usr/bin.
fn only_in_parent_path(candidates: &[&str]) -> Option<String> {
    let path = std::env::var_os("PATH")?;
    let dirs: Vec<_> = std::env::split_paths(&path).collect();
    candidates
        .iter()
        .find(|name| {
            !Path::new("/bin").join(name).exists()
                && !Path::new("/usr/bin").join(name).exists()
                && dirs.iter().any(|dir| {
                    fs::metadata(dir.join(name))
                        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
                        .unwrap_or(false)
                })
        })
        .map(|name| name.to_string())
}

fn arg0(engine: Engine) {
    let st = state(probe_cmd(Vec::<&str>::new()).arg0("custom-name"), engine);
    assert_eq!(st.get("argv0"), "custom-name");

    let out = output_ok(probe_cmd(["args", "a"]).arg0("zero"), engine);
    assert_eq!(out.stdout, b"zero\nargs\na\n");
    let reference = process::Command::new(probe())
        .arg0("zero")
        .args(["args", "a"])
        .output()
        .expect("std");
    assert_eq!(out.stdout, reference.stdout);

    // Without arg0, argv[0] is the program as given.
    let out = output_ok(&mut probe_cmd(["args"]), engine);
    assert_eq!(
        out.stdout,
        format!("{}\nargs\n", probe().display()).into_bytes()
    );

    // A program found in PATH keeps the bare name, or the arg0 set.
    let dir = TempDir::new("arg0");
    symlink(probe(), dir.join("p")).expect("symlink");
    let out = output_ok(
        Command::new("p").env("PATH", dir.path()).arg("args"),
        engine,
    );
    assert_eq!(out.stdout, b"p\nargs\n");
    let out = output_ok(
        Command::new("p")
            .env("PATH", dir.path())
            .arg0("q")
            .arg("args"),
        engine,
    );
    assert_eq!(out.stdout, b"q\nargs\n");
}

fn args_passed_verbatim(engine: Engine) {
    let args: Vec<OsString> = vec![
        "plain".into(),
        "".into(),
        "with space".into(),
        "tab\tand 'quotes' \"double\"".into(),
        "ünïcödé ✓".into(),
        OsString::from_vec(vec![0xff, 0xfe, b'x']),
        "$HOME *".into(),
        "-".into(),
        "--flag=value".into(),
    ];
    let mut cmd = probe_cmd(["args"]);
    cmd.args(&args);
    let out = output_ok(&mut cmd, engine);
    let mut expected = format!("{}\nargs\n", probe().display()).into_bytes();
    for arg in &args {
        expected.extend(arg.as_bytes());
        expected.push(b'\n');
    }
    assert_eq!(out.stdout, expected);

    let reference = std_probe_cmd(["args"]).args(&args).output().expect("std");
    assert_eq!(out.stdout, reference.stdout);

    // Many arguments.
    let many: Vec<String> = (0..5000).map(|i| format!("arg-{i}")).collect();
    let out = output_ok(probe_cmd(["args"]).args(&many), engine);
    let lines: Vec<&str> = std::str::from_utf8(&out.stdout)
        .expect("utf8")
        .lines()
        .skip(2)
        .collect();
    assert_eq!(lines, many);
}

fn getters_like_std(engine: Engine) {
    for ops in env_scenarios() {
        let mut ours = Command::new("prog");
        let mut theirs = process::Command::new("prog");
        ours.args(["a", "b c"]).arg("").arg0("zero");
        theirs.args(["a", "b c"]).arg("").arg0("zero");
        apply_env(&ops, &mut ours, &mut theirs);
        assert_eq!(ours.get_program(), theirs.get_program());
        assert_eq!(
            ours.get_args().collect::<Vec<_>>(),
            theirs.get_args().collect::<Vec<_>>()
        );
        assert_eq!(ours.get_args().len(), theirs.get_args().len());
        assert_eq!(
            ours.get_envs().collect::<Vec<_>>(),
            theirs.get_envs().collect::<Vec<_>>(),
            "{ops:?}"
        );
        assert_eq!(ours.get_envs().len(), theirs.get_envs().len());
        assert_eq!(ours.get_current_dir(), theirs.get_current_dir());
        ours.current_dir("rel/dir");
        theirs.current_dir("rel/dir");
        assert_eq!(ours.get_current_dir(), theirs.get_current_dir());
    }
    let mut cmd = Command::new("prog");
    assert_eq!(cmd.get_engine(), Engine::Auto);
    cmd.engine(engine);
    assert_eq!(cmd.get_engine(), engine);
    assert_eq!(cmd.get_args().len(), 0);
    assert_eq!(cmd.get_current_dir(), None);

    // What the getters report is what the child gets.
    let mut cmd = probe_cmd(["args", "x", "y z"]);
    cmd.env_clear().env("FASTSPAWN_T_A", "1").current_dir("/");
    let out = output_ok(&mut cmd, engine);
    let mut expected = vec![cmd.get_program().as_bytes().to_vec()];
    expected.extend(cmd.get_args().map(|a| a.as_bytes().to_vec()));
    let lines: Vec<Vec<u8>> = out
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(<[u8]>::to_vec)
        .collect();
    assert_eq!(lines, expected);
    let mut cmd = probe_cmd(["env"]);
    cmd.env_clear().env("FASTSPAWN_T_A", "1");
    let out = output_ok(&mut cmd, engine);
    let from_getters: String = cmd
        .get_envs()
        .filter_map(|(k, v)| Some(format!("{}={}\n", k.to_str()?, v?.to_str()?)))
        .collect();
    assert_eq!(String::from_utf8_lossy(&out.stdout), from_getters);
}

/// A command spawns again with what it prepared, and a change between spawns
/// takes effect.
fn spawn_twice_and_modify(engine: Engine) {
    let mut cmd = probe_cmd(["env"]);
    cmd.env_clear().env("FASTSPAWN_T_A", "1");
    let first = output_ok(&mut cmd, engine);
    let second = output_ok(&mut cmd, engine);
    assert_eq!(first.stdout, b"FASTSPAWN_T_A=1\n");
    assert_eq!(second.stdout, first.stdout);

    cmd.env("FASTSPAWN_T_B", "2");
    assert_eq!(
        output_ok(&mut cmd, engine).stdout,
        b"FASTSPAWN_T_A=1\nFASTSPAWN_T_B=2\n"
    );
    cmd.env_remove("FASTSPAWN_T_A");
    assert_eq!(output_ok(&mut cmd, engine).stdout, b"FASTSPAWN_T_B=2\n");
    cmd.arg0("renamed");
    assert_eq!(output_ok(&mut cmd, engine).stdout, b"FASTSPAWN_T_B=2\n");

    // Changing the program's arguments and working directory.
    let mut cmd = probe_cmd(["args"]);
    assert_eq!(
        output_ok(&mut cmd, engine).stdout,
        format!("{}\nargs\n", probe().display()).into_bytes()
    );
    cmd.arg("more");
    assert_eq!(
        output_ok(&mut cmd, engine).stdout,
        format!("{}\nargs\nmore\n", probe().display()).into_bytes()
    );

    let mut cmd = probe_cmd(["state"]);
    cmd.stdout(Stdio::piped());
    let a = util::State::parse(&output_ok(&mut cmd, engine).stdout);
    cmd.current_dir("/");
    let b = util::State::parse(&output_ok(&mut cmd, engine).stdout);
    assert_eq!(b.get("cwd"), "/");
    assert_ne!(a.get("pid"), b.get("pid"));

    // Stdio set to a file is reused (dup'ed) by every spawn.
    let dir = TempDir::new("twice");
    let path = dir.join("out");
    let mut cmd = probe_cmd(["spew", "10", "0"]);
    cmd.stdout(File::create(&path).expect("create"))
        .engine(engine);
    for _ in 0..3 {
        let mut child = cmd.spawn().expect("spawn");
        assert_eq!(child.engine(), engine);
        assert!(child.wait().expect("wait").success());
    }
    drop(cmd);
    assert_eq!(
        fs::read(&path).expect("read"),
        b"abcdefghijabcdefghijabcdefghij"
    );

    // Many spawns of one command.
    let mut cmd = probe_cmd(["exit", "5"]);
    for _ in 0..50 {
        let mut child = spawn(&mut cmd, engine);
        assert_eq!(child.wait().expect("wait").code(), Some(5));
    }
}

/// A spawn with the streams inherited, no fd mapped and none of the
/// credential, rlimit, pdeathsig or cgroup options takes a short path
/// (`spawn_common` in spawn.rs); setting a stream explicitly, even to
/// `inherit()`, takes the general one. Both must make the same child: the
/// same fds (an fd the parent leaves open without close-on-exec is not
/// inherited by either), signal mask and dispositions (SIGPIPE reset,
/// which this test process ignores), umask, working directory, process
/// group and session, with and without the options the short path
/// passes on.
#[test]
fn the_common_spawn_makes_the_child_the_general_path_makes() {
    let _guard = util::shared();
    let dir = TempDir::new("common-path");
    // An fd without close-on-exec: neither path may pass it on.
    let mut ends = [0; 2];
    // SAFETY: pipe writes two fds into the array.
    assert_eq!(unsafe { libc::pipe(ends.as_mut_ptr()) }, 0);
    type SetOptions = fn(&mut Command);
    let options: [(&str, SetOptions); 5] = [
        ("defaults", |_| {}),
        ("setsid and umask", |c| {
            c.setsid(true).umask(0o027);
        }),
        ("process_group", |c| {
            c.process_group(0);
        }),
        ("signal_mask and cwd", |c| {
            c.signal_mask(&[libc::SIGUSR1, libc::SIGTERM])
                .current_dir("/");
        }),
        ("restore_sigpipe(false)", |c| {
            c.restore_sigpipe(false);
        }),
    ];
    for (what, set) in options {
        let mut states = Vec::new();
        for general in [false, true] {
            let file = dir.join(format!("{what}-{general}"));
            let mut cmd = probe_cmd([OsStr::new("state-to"), file.as_os_str()]);
            set(&mut cmd);
            if general {
                cmd.stdin(Stdio::inherit());
            }
            let mut child = cmd.spawn().expect("spawn");
            assert_eq!(child.engine(), Engine::Clone3, "{what}");
            assert!(child.wait().expect("wait").success(), "{what}");
            let state = util::State::parse(&fs::read(&file).expect("the probe's state"));
            states.push((child.id() as i64, state));
        }
        let [(pid_a, a), (pid_b, b)] = <[_; 2]>::try_from(states).expect("two states");
        assert!(!a.fds().contains(&ends[0]), "{what}: {:?}", a.fds());
        for key in [
            "fds",
            "sigblk",
            "sigign",
            "umask",
            "cwd",
            "uid",
            "gid",
            "groups",
            "pdeathsig",
            "argv0",
            "cgroup",
            "fdlink_0",
            "fdlink_1",
            "fdlink_2",
        ] {
            assert_eq!(a.get(key), b.get(key), "{what}: {key}");
        }
        // Process group and session: the same relation to the child's pid.
        for key in ["pgid", "sid"] {
            assert_eq!(
                a.num(key) == pid_a,
                b.num(key) == pid_b,
                "{what}: {key} {} (pid {pid_a}) against {} (pid {pid_b})",
                a.num(key),
                b.num(key)
            );
            if a.num(key) != pid_a {
                assert_eq!(a.num(key), b.num(key), "{what}: {key}");
            }
        }
    }
    // SAFETY: the two ends made above, closed once.
    unsafe {
        libc::close(ends[0]);
        libc::close(ends[1]);
    }
}
