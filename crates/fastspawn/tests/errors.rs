//! Failures: the right `ErrorKind`, a message naming the program and the
//! step, and nothing left behind (no fd, no zombie). These run exclusively
//! so the fd and zombie accounting sees only their own spawns.

use std::ffi::OsStr;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::process;

use fastspawn::{Command, Engine, Error, Resource, Stdio, Step};

use crate::util::{self, TempDir, pipe, probe, probe_cmd, read_all};

engine_tests!(exclusive: missing_program, not_executable, nul_bytes, conflicting_fd_mappings,
    bad_signal_numbers,
    bad_cwd, child_side_failures);

/// Spawns `cmd`, expecting an error, and checks that the failure left no fd
/// and no zombie behind. A successful spawn of the probe first makes sure
/// whatever the library opens once per process is already open.
fn failing(engine: Engine, what: &str, make: impl Fn() -> Command) -> Error {
    let mut warm = probe_cmd(["exit", "0"]);
    warm.stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(Stdio::null());
    assert!(
        util::spawn(&mut warm, engine)
            .wait()
            .expect("wait")
            .success()
    );
    drop(warm);

    let before = util::open_fds();
    let mut cmd = make();
    let result = cmd.engine(engine).spawn();
    drop(cmd);
    let err = match result {
        Ok(mut child) => {
            let _ = child.kill();
            let status = child.wait();
            panic!("{what}: the spawn succeeded (child ended {status:?})")
        }
        Err(err) => err,
    };
    util::assert_fds_unchanged(&before, what);
    util::assert_no_zombies(what);
    assert_eq!(err.program(), make().get_program(), "{what}: err.program()");
    // The io::Error it converts into keeps the kind and the errno (as
    // std's would), or the message when there is no errno.
    let message = err.to_string();
    let kind = err.kind();
    let io_err = io::Error::from(make().engine(engine).spawn().expect_err("fails again"));
    assert_eq!(io_err.kind(), kind, "{what}");
    assert_eq!(io_err.raw_os_error(), err.raw_os_error(), "{what}");
    if err.raw_os_error().is_none() {
        assert_eq!(io_err.to_string(), message, "{what}");
    }
    err
}

/// The result of std for the same command (`Err(kind)` or `Ok`).
fn std_kind(cmd: &mut process::Command) -> Result<(), io::ErrorKind> {
    match cmd
        .stdin(process::Stdio::null())
        .stdout(process::Stdio::null())
        .stderr(process::Stdio::null())
        .status()
    {
        Ok(_) => Ok(()),
        Err(err) => Err(err.kind()),
    }
}

fn missing_program(engine: Engine) {
    let dir = TempDir::new("missing");
    let absent = dir.join("no-such-program");
    let err = failing(engine, "absolute path", || Command::new(&absent));
    assert_eq!(err.kind(), io::ErrorKind::NotFound, "{err}");
    assert_eq!(err.raw_os_error(), Some(libc::ENOENT), "{err:?}");
    assert!(
        err.to_string().contains(&*absent.to_string_lossy()),
        "{err}"
    );
    assert_eq!(
        std_kind(&mut process::Command::new(&absent)),
        Err(io::ErrorKind::NotFound)
    );

    let name = util::unique_name("missing");
    let err = failing(engine, "bare name", || Command::new(&name));
    assert_eq!(err.kind(), io::ErrorKind::NotFound, "{err}");
    assert!(err.to_string().contains(&name), "{err}");
    assert_eq!(
        std_kind(&mut process::Command::new(&name)),
        Err(io::ErrorKind::NotFound)
    );

    // With pipes and mappings set up before the failure.
    let err = failing(engine, "with pipes", || {
        let (_, w) = pipe();
        let mut cmd = Command::new(&absent);
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .fd(5, w);
        cmd
    });
    assert_eq!(err.kind(), io::ErrorKind::NotFound, "{err}");
}

fn not_executable(engine: Engine) {
    let dir = TempDir::new("noexec");
    let file = dir.file("data", "#!/bin/sh\necho no\n", 0o644);
    let err = failing(engine, "file without x bit", || Command::new(&file));
    assert_eq!(err.kind(), io::ErrorKind::PermissionDenied, "{err}");
    assert_eq!(err.raw_os_error(), Some(libc::EACCES), "{err:?}");
    assert!(err.to_string().contains("data"), "{err}");
    assert_eq!(
        std_kind(&mut process::Command::new(&file)),
        Err(io::ErrorKind::PermissionDenied)
    );

    let err = failing(engine, "directory", || Command::new(dir.path()));
    assert_eq!(err.kind(), io::ErrorKind::PermissionDenied, "{err}");
    assert_eq!(
        std_kind(&mut process::Command::new(dir.path())),
        Err(io::ErrorKind::PermissionDenied)
    );

    // Found in PATH only as a file without x bit.
    let err = failing(engine, "in PATH without x bit", || {
        let mut cmd = Command::new("data");
        cmd.env("PATH", dir.path());
        cmd
    });
    assert_eq!(err.kind(), io::ErrorKind::PermissionDenied, "{err}");
}

fn nul_bytes(engine: Engine) {
    let nul = OsStr::from_bytes(b"a\0b");
    type Make = Box<dyn Fn() -> Command>;
    type MakeStd = Box<dyn Fn() -> process::Command>;
    let cases: Vec<(&str, Make, MakeStd)> = vec![
        (
            "program",
            Box::new(move || Command::new(nul)),
            Box::new(move || process::Command::new(nul)),
        ),
        (
            "argument",
            Box::new(move || {
                let mut c = probe_cmd(["args"]);
                c.arg(nul);
                c
            }),
            Box::new(move || {
                let mut c = util::std_probe_cmd(["args"]);
                c.arg(nul);
                c
            }),
        ),
        (
            "arg0",
            Box::new(move || {
                let mut c = probe_cmd(["args"]);
                c.arg0(nul);
                c
            }),
            Box::new(move || {
                use std::os::unix::process::CommandExt;
                let mut c = util::std_probe_cmd(["args"]);
                c.arg0(nul);
                c
            }),
        ),
        (
            "env key",
            Box::new(move || {
                let mut c = probe_cmd(["env"]);
                c.env(nul, "v");
                c
            }),
            Box::new(move || {
                let mut c = util::std_probe_cmd(["env"]);
                c.env(nul, "v");
                c
            }),
        ),
        (
            "env value",
            Box::new(move || {
                let mut c = probe_cmd(["env"]);
                c.env("K", nul);
                c
            }),
            Box::new(move || {
                let mut c = util::std_probe_cmd(["env"]);
                c.env("K", nul);
                c
            }),
        ),
        (
            "cwd",
            Box::new(move || {
                let mut c = probe_cmd(["exit", "0"]);
                c.current_dir(nul);
                c
            }),
            Box::new(move || {
                let mut c = util::std_probe_cmd(["exit", "0"]);
                c.current_dir(nul);
                c
            }),
        ),
    ];
    for (what, ours, theirs) in cases {
        let err = failing(engine, what, ours);
        assert_eq!(
            err.kind(),
            io::ErrorKind::InvalidInput,
            "NUL in the {what}: {err}"
        );
        assert_eq!(*err.step(), Step::Validate, "NUL in the {what}: {err:?}");
        assert_eq!(
            std_kind(&mut theirs()),
            Err(io::ErrorKind::InvalidInput),
            "std, NUL in the {what}"
        );
    }
}

fn conflicting_fd_mappings(engine: Engine) {
    let err = failing(engine, "child fd 3 twice", || {
        let (_, a) = pipe();
        let (_, b) = pipe();
        let mut cmd = probe_cmd(["exit", "0"]);
        cmd.fd(3, a).fd(3, b);
        cmd
    });
    assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{err}");
    assert_eq!(*err.step(), Step::Validate, "{err:?}");

    let err = failing(engine, "negative child fd", || {
        let (_, a) = pipe();
        let mut cmd = probe_cmd(["exit", "0"]);
        cmd.fd(-1, a);
        cmd
    });
    assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{err}");

    // The mapping error is still reported after other changes.
    let err = failing(engine, "twice, then more options", || {
        let (_, a) = pipe();
        let (_, b) = pipe();
        let mut cmd = probe_cmd(["exit", "0"]);
        cmd.fd(4, a).fd(4, b).arg("x").env("A", "1");
        cmd
    });
    assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{err}");
}

/// Signal numbers outside 1..=64 are rejected by every option that takes one.
fn bad_signal_numbers(engine: Engine) {
    for (what, make) in [
        (
            "signal_mask(65)",
            (|| {
                let mut c = probe_cmd(["exit", "0"]);
                c.signal_mask(&[libc::SIGUSR1, 65]);
                c
            }) as fn() -> Command,
        ),
        ("signal_default(0)", || {
            let mut c = probe_cmd(["exit", "0"]);
            c.signal_default(&[0]);
            c
        }),
        ("pdeathsig(-1)", || {
            let mut c = probe_cmd(["exit", "0"]);
            c.pdeathsig(-1);
            c
        }),
    ] {
        let err = failing(engine, what, make);
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{what}: {err}");
        assert!(
            err.to_string().contains("is not a signal number"),
            "{what}: {err}"
        );
    }
}

fn bad_cwd(engine: Engine) {
    let err = failing(engine, "chdir to /nope", || {
        let mut cmd = probe_cmd(["exit", "0"]);
        cmd.current_dir("/nope");
        cmd
    });
    assert_eq!(
        err.to_string(),
        format!(
            "spawning {:?}: chdir to \"/nope\" failed: No such file or directory (os error 2)",
            probe().as_os_str()
        )
    );
    assert_eq!(*err.step(), Step::Chdir("/nope".into()), "{err:?}");
    assert_eq!(err.kind(), io::ErrorKind::NotFound);
    assert_eq!(err.raw_os_error(), Some(libc::ENOENT));
    assert_eq!(
        std_kind(util::std_probe_cmd(["exit", "0"]).current_dir("/nope")),
        Err(io::ErrorKind::NotFound)
    );

    let dir = TempDir::new("cwd-file");
    let file = dir.file("f", "", 0o644);
    let err = failing(engine, "chdir to a file", || {
        let mut cmd = probe_cmd(["exit", "0"]);
        cmd.current_dir(&file);
        cmd
    });
    assert_eq!(err.kind(), io::ErrorKind::NotADirectory, "{err}");
    assert_eq!(*err.step(), Step::Chdir(file.clone()), "{err:?}");
}

/// Steps that fail in the child after the clone are reported with their
/// step, and the failed child is reaped.
fn child_side_failures(engine: Engine) {
    // No process group with this id exists in our session.
    let err = failing(engine, "setpgid to a missing group", || {
        let mut cmd = probe_cmd(["exit", "0"]);
        cmd.process_group(i32::MAX - 1);
        cmd
    });
    if engine == Engine::PosixSpawn {
        // posix_spawn returns one errno for every step of the child: the
        // library cannot tell a setpgid failure from an execve failure.
        assert!(matches!(err.step(), Step::Setpgid | Step::Exec), "{err:?}");
    } else {
        assert_eq!(*err.step(), Step::Setpgid, "{err:?}");
    }
    assert_eq!(err.raw_os_error(), Some(libc::EPERM), "{err:?}");
    assert_eq!(err.kind(), io::ErrorKind::PermissionDenied, "{err:?}");

    if engine == Engine::PosixSpawn {
        return; // cannot apply rlimits at all
    }
    // RLIMIT_NOFILE above fs.nr_open fails even for root.
    let nr_open: u64 = std::fs::read_to_string("/proc/sys/fs/nr_open")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(1 << 20);
    let err = failing(engine, "rlimit above nr_open", || {
        let mut cmd = probe_cmd(["exit", "0"]);
        cmd.rlimit(Resource::Nofile, nr_open + 1, nr_open + 1);
        cmd
    });
    assert_eq!(*err.step(), Step::Rlimit, "{err:?}");
    assert_eq!(err.raw_os_error(), Some(libc::EPERM), "{err:?}");
}

/// An option the engine cannot apply fails before anything starts: the
/// mapped pipe never sees the child's write.
#[test]
fn unsupported_option_starts_nothing() {
    let _guard = util::exclusive();
    let engine = Engine::PosixSpawn;
    let (r, w) = pipe();
    let err = failing(engine, "posix-spawn with rlimit", || {
        let mut cmd = probe_cmd(["write-fd", "3", "started"]);
        cmd.fd(3, w.try_clone().expect("dup"))
            .rlimit(Resource::Core, 0, 0);
        cmd
    });
    assert_eq!(err.kind(), io::ErrorKind::Unsupported, "{err}");
    assert_eq!(*err.step(), Step::Validate, "{err:?}");
    drop(w);
    assert_eq!(read_all(r), b"", "the child ran");
}

/// Lowering RLIMIT_NOFILE so the pipes cannot all be made: an error (not a
/// panic), EMFILE, and nothing left open once the limit is back.
#[test]
fn emfile_while_making_pipes() {
    let _guard = util::exclusive();
    let engines = [Engine::Auto].into_iter().chain(Engine::ALL);
    for engine in engines.filter(|e| e.is_available()) {
        // Warm up: whatever the library opens once is open.
        let mut warm = probe_cmd(["exit", "0"]);
        warm.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .engine(engine);
        warm.spawn().expect("warm-up").wait().expect("wait");
        drop(warm);

        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit fills the struct.
        assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) }, 0);
        for free in [0usize, 1, 3, 5] {
            let mut cmd = probe_cmd(["exit", "0"]);
            cmd.stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .engine(engine);
            let before = util::open_fds();
            // The limit that leaves exactly `free` fd numbers usable.
            let mut limit = 0;
            let mut left = free;
            loop {
                if !before.contains(&limit) {
                    if left == 0 {
                        break;
                    }
                    left -= 1;
                }
                limit += 1;
            }
            let low = libc::rlimit {
                rlim_cur: limit as libc::rlim_t,
                rlim_max: lim.rlim_max,
            };
            // SAFETY: setrlimit with a valid struct; restored right below.
            assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &low) }, 0);
            let result = cmd.spawn();
            // SAFETY: as above.
            assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &lim) }, 0);
            let what = format!("{engine} with {free} free fds");
            match result {
                Ok(mut child) => {
                    let _ = child.wait();
                    panic!("{what}: spawned although 6 fds were needed");
                }
                Err(err) => {
                    assert_eq!(err.raw_os_error(), Some(libc::EMFILE), "{what}: {err:?}");
                    println!("{what}: {err}");
                }
            }
            drop(cmd);
            util::assert_fds_unchanged(&before, &what);
            util::assert_no_zombies(&what);
        }
    }
}

const NPROC_HELPER: &str = "FASTSPAWN_TEST_NPROC_HELPER";

/// EAGAIN from RLIMIT_NPROC: root is exempt from that limit, so the check
/// runs in a copy of this test binary started as user 65534 (see
/// [`nproc_helper`]).
#[test]
fn eagain_from_nproc_limit() {
    let _guard = util::shared();
    if !util::is_root() {
        util::skip("not root: cannot start the helper as another user");
        return;
    }
    let dir = TempDir::new("nproc");
    let exe = std::env::current_exe().expect("current_exe");
    // Copies user 65534 can surely run.
    let helper = dir.join("integration");
    let probe_copy = dir.join("probe");
    util::executable_copy(&exe, &helper);
    util::executable_copy(probe(), &probe_copy);
    use std::os::unix::process::CommandExt;
    let stdout =
        util::run_helper_test(&helper, "errors::nproc_helper", "nproc-helper: ok", |cmd| {
            cmd.env(NPROC_HELPER, "1")
                .env("FASTSPAWN_PROBE", &probe_copy);
            cmd.current_dir("/").uid(65534).gid(65534);
        });
    print!("{stdout}");
}

/// Run by [`eagain_from_nproc_limit`] as user 65534: with RLIMIT_NPROC at 1
/// (this process has at least two threads), every engine fails with EAGAIN.
#[test]
#[ignore = "started by eagain_from_nproc_limit in a process of its own"]
fn nproc_helper() {
    if std::env::var_os(NPROC_HELPER).is_none() {
        return;
    }
    // SAFETY: getuid has no preconditions.
    assert_ne!(
        unsafe { libc::getuid() },
        0,
        "the helper must not run as root"
    );
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: get/setrlimit with valid structs.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NPROC, &mut lim), 0);
        lim.rlim_cur = 1;
        assert_eq!(libc::setrlimit(libc::RLIMIT_NPROC, &lim), 0);
    }
    for engine in [Engine::Auto]
        .into_iter()
        .chain(Engine::ALL)
        .filter(|e| e.is_available())
    {
        let before = util::open_fds();
        let mut cmd = probe_cmd(["exit", "0"]);
        cmd.stdout(Stdio::piped()).engine(engine);
        let result = cmd.spawn();
        drop(cmd);
        let err = match result {
            Ok(mut child) => panic!(
                "{engine}: spawned despite RLIMIT_NPROC ({:?})",
                child.wait()
            ),
            Err(err) => err,
        };
        assert_eq!(err.raw_os_error(), Some(libc::EAGAIN), "{engine}: {err:?}");
        assert_eq!(err.kind(), io::ErrorKind::WouldBlock, "{engine}: {err:?}");
        // posix_spawn too names the clone, not the execve.
        assert_eq!(*err.step(), Step::Clone, "{engine}: {err:?}");
        util::assert_fds_unchanged(&before, engine.name());
        util::assert_no_zombies(engine.name());
        println!("{engine}: {err}");
    }
    println!("nproc-helper: ok");
}

/// Regression: with no fd left for the pidfd, `spawn` still starts the
/// child (it then has no pidfd and is waited for by pid) instead of failing.
#[test]
fn no_fd_for_the_pidfd_still_spawns() {
    let _guard = util::exclusive();
    for engine in [Engine::Clone3, Engine::CloneVfork] {
        if !util::engine_usable(engine) {
            continue;
        }
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit fills the struct.
        assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) }, 0);
        // The child gets the usual limit back (its dynamic loader must open
        // libraries), set in the child on the vfork path.
        let mut cmd = probe_cmd(["exit", "7"]);
        cmd.engine(engine)
            .rlimit(fastspawn::Resource::Nofile, lim.rlim_cur, lim.rlim_max);
        cmd.spawn().expect("warm-up").wait().expect("wait");
        let before = util::open_fds();
        // The lowest free fd number is the limit: no new fd can be opened.
        let lowest_free = (0..).find(|fd| !before.contains(fd)).expect("a free fd");
        let low = libc::rlimit {
            rlim_cur: lowest_free as libc::rlim_t,
            rlim_max: lim.rlim_max,
        };
        // SAFETY: valid struct; restored right below.
        assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &low) }, 0);
        let result = cmd.spawn();
        // A pidfd asked for now cannot be made: the child is then
        // signalled and waited for by pid.
        let pidfd_at_limit = result.as_ref().ok().map(|child| child.pidfd().is_some());
        // SAFETY: as above.
        assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &lim) }, 0);
        let mut child = result.unwrap_or_else(|e| panic!("{engine}: {e}"));
        assert_eq!(
            pidfd_at_limit,
            Some(false),
            "{engine}: a pidfd was made without a free fd"
        );
        assert_eq!(child.engine(), engine);
        assert_eq!(
            child.wait().expect("wait by pid").code(),
            Some(7),
            "{engine}"
        );
        drop(child);
        util::assert_fds_unchanged(&before, &format!("{engine} without a pidfd"));
        util::assert_no_zombies(&format!("{engine} without a pidfd"));
    }
}
