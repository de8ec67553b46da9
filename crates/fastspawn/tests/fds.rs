//! fd mapping: single fds, swaps, cycles, mapping onto stdio, data really
//! flowing, and the child seeing exactly the fds it should.

use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};

use fastspawn::{Engine, Stdio};

use crate::util::{
    self, TempDir, dup_at_least, dup_inheritable, fd_target, output_ok, pipe, probe_cmd, read_all,
    spawn, state,
};

engine_tests!(shared: single_fd, identity_mapping_of_cloexec_fd, swap, three_cycle, onto_stdio,
    stdio_conflicts_with_mapping, child_sees_exactly_its_fds, same_parent_fd_twice, high_child_fd,
    mapped_command_spawns_twice, try_clone_owns_its_fds);
engine_tests!(exclusive: swap_at_3_and_4, mapped_fds_collide_with_stdio_pipes,
    crowded_fd_table);

/// Runs `write-fd child_fd text` with `child_fd <- write end` and returns
/// what arrived in the pipe.
fn write_through(engine: Engine, child_fd: RawFd, text: &str) -> String {
    let (r, w) = pipe();
    let mut cmd = probe_cmd(["write-fd", &child_fd.to_string(), text]);
    cmd.fd(child_fd, w);
    output_ok(&mut cmd, engine);
    drop(cmd); // the command keeps the write end open
    String::from_utf8(read_all(r)).expect("utf8")
}

fn single_fd(engine: Engine) {
    assert_eq!(write_through(engine, 3, "hello-3"), "hello-3");
    assert_eq!(write_through(engine, 7, "hello-7"), "hello-7");

    // Reading through a mapped fd.
    let (r, w) = pipe();
    let mut cmd = probe_cmd(["read-fd", "5"]);
    cmd.fd(5, r);
    let mut child = spawn(cmd.stdout(Stdio::piped()), engine);
    drop(cmd);
    io::Write::write_all(&mut File::from(w), b"from the parent").expect("write");
    let mut text = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut text)
        .expect("read");
    assert!(child.wait().expect("wait").success());
    assert_eq!(text, "from the parent");
}

/// Child fd N from the parent's fd N, which is close-on-exec in the parent:
/// `dup2(n, n)` would keep `FD_CLOEXEC`, so the child must clear it.
fn identity_mapping_of_cloexec_fd(engine: Engine) {
    let (r, w) = pipe();
    let raw = w.as_raw_fd();
    let mut cmd = probe_cmd(["write-fd", &raw.to_string(), "same-number"]);
    cmd.fd(raw, w);
    output_ok(&mut cmd, engine);
    drop(cmd);
    assert_eq!(read_all(r), b"same-number");
}

/// Pipes whose write ends are the parent's fds `raw[i]`, each mapped to the
/// child fd `raw[(i + 1) % n]`: for two pipes a swap, for three a cycle.
/// The command owns the very fds (not duplicates), so the numbers really
/// collide. Returns the command (with the probe arguments `args(raw)`), the
/// raw numbers, the read ends and the targets (`pipe:[inode]`).
fn rotated(
    n: usize,
    args: impl Fn(&[RawFd]) -> Vec<String>,
) -> (fastspawn::Command, Vec<RawFd>, Vec<OwnedFd>, Vec<String>) {
    let pipes: Vec<(OwnedFd, OwnedFd)> = (0..n).map(|_| pipe()).collect();
    let raw: Vec<RawFd> = pipes.iter().map(|(_, w)| w.as_raw_fd()).collect();
    let targets: Vec<String> = pipes.iter().map(|(_, w)| fd_target(w)).collect();
    let mut cmd = probe_cmd(args(&raw));
    let mut reads = Vec::new();
    for (i, (r, w)) in pipes.into_iter().enumerate() {
        cmd.fd(raw[(i + 1) % n], w);
        reads.push(r);
    }
    (cmd, raw, reads, targets)
}

fn check_rotation(n: usize, engine: Engine) {
    let (mut cmd, raw, reads, targets) = rotated(n, |_| Vec::new());
    cmd.stdin(Stdio::null());
    let st = state(&mut cmd, engine);
    drop(cmd);
    for i in 0..n {
        let child_fd = raw[(i + 1) % n];
        assert_eq!(
            st.fdlink(child_fd),
            targets[i],
            "child fd {child_fd} must be the parent's fd {}",
            raw[i]
        );
    }
    let mut expected = vec![0, 1, 2];
    expected.extend(&raw);
    expected.sort_unstable();
    assert_eq!(st.fds(), expected);
    for r in reads {
        assert_eq!(read_all(r), b"");
    }

    // Data flows the rotated way: child fd raw[0] is the parent's raw[n-1].
    let (mut cmd, _, reads, _) = rotated(n, |raw| {
        vec!["write-fd".into(), raw[0].to_string(), "rotated".into()]
    });
    output_ok(&mut cmd, engine);
    drop(cmd);
    let got: Vec<Vec<u8>> = reads.into_iter().map(read_all).collect();
    let mut expected = vec![Vec::new(); n];
    expected[n - 1] = b"rotated".to_vec();
    assert_eq!(got, expected);
}

/// Two pipes whose parent fds are X and Y, mapped to child fds Y and X.
fn swap(engine: Engine) {
    check_rotation(2, engine);
}

/// Child b <- A, child c <- B, child a <- C, where a, b, c are the parent's
/// fd numbers of A, B, C.
fn three_cycle(engine: Engine) {
    check_rotation(3, engine);
    check_rotation(5, engine);
}

/// The swap with the parent's fds exactly at 3 and 4 (child 3 <- parent 4,
/// child 4 <- parent 3), when this process has 3 and 4 free.
fn swap_at_3_and_4(engine: Engine) {
    // Make both pipes far from 3 and 4 first (they may have got 3 and 4).
    let (r4, w4, r3, w3) = {
        let (r4, w4) = pipe();
        let (r3, w3) = pipe();
        (
            dup_at_least(&r4, 10),
            dup_at_least(&w4, 10),
            dup_at_least(&r3, 10),
            dup_at_least(&w3, 10),
        )
    };
    let fds = util::open_fds();
    if fds.contains(&3) || fds.contains(&4) {
        util::skip(format_args!(
            "fds 3 and 4 of the test process are in use: {:?}",
            util::describe_fds(&fds)
        ));
        return;
    }
    // Nothing else runs (exclusive test), so these land on 3 and 4.
    let (w3, w4) = {
        let at_3 = dup_at_least(&w3, 3);
        let at_4 = dup_at_least(&w4, 4);
        drop((w3, w4));
        (at_3, at_4)
    };
    assert_eq!((w3.as_raw_fd(), w4.as_raw_fd()), (3, 4));
    let (t3, t4) = (fd_target(&w3), fd_target(&w4));

    let mut cmd = probe_cmd(Vec::<&str>::new());
    cmd.fd(3, w4.try_clone().expect("dup"))
        .fd(4, w3.try_clone().expect("dup"));
    let st = state(&mut cmd, engine);
    drop(cmd);
    assert_eq!(st.fdlink(3), t4);
    assert_eq!(st.fdlink(4), t3);

    let mut cmd = probe_cmd(["write-fd", "3", "three"]);
    cmd.fd(3, w4).fd(4, w3);
    output_ok(&mut cmd, engine);
    drop(cmd);
    assert_eq!(read_all(r4), b"three");
    assert_eq!(read_all(r3), b"");
}

fn onto_stdio(engine: Engine) {
    // stdout from a mapping
    let (r, w) = pipe();
    let mut cmd = probe_cmd(["spew", "3000", "0"]);
    cmd.fd(1, w);
    let mut child = spawn(&mut cmd, engine);
    assert!(child.stdout.is_none());
    assert!(child.wait().expect("wait").success());
    drop(cmd);
    assert_eq!(read_all(r).len(), 3000);

    // stdin and stdout from mappings, with cat
    let dir = TempDir::new("onto-stdio");
    let input = dir.file("in", "the input\n", 0o644);
    let (r, w) = pipe();
    let mut cmd = probe_cmd(["cat"]);
    cmd.fd(0, File::open(&input).expect("open")).fd(1, w);
    assert!(spawn(&mut cmd, engine).wait().expect("wait").success());
    drop(cmd);
    assert_eq!(read_all(r), b"the input\n");

    // stderr from a mapping, and stdout and stderr swapped against 1 and 2
    let (r1, w1) = pipe();
    let (r2, w2) = pipe();
    let mut cmd = probe_cmd(["spew", "10", "20"]);
    cmd.fd(2, w1).fd(1, w2);
    assert!(spawn(&mut cmd, engine).wait().expect("wait").success());
    drop(cmd);
    assert_eq!(read_all(r1), b"ABCDEFGHIJKLMNOPQRST");
    assert_eq!(read_all(r2), b"abcdefghij");
}

/// Mapping onto 0, 1 or 2 and setting the same stream is a conflict.
fn stdio_conflicts_with_mapping(engine: Engine) {
    for fd in 0..3 {
        let (r, w) = pipe();
        let mut cmd = probe_cmd(["exit", "0"]);
        cmd.fd(fd, if fd == 0 { r } else { w });
        match fd {
            0 => cmd.stdin(Stdio::null()),
            1 => cmd.stdout(Stdio::piped()),
            _ => cmd.stderr(Stdio::null()),
        };
        let err = cmd
            .engine(engine)
            .spawn()
            .expect_err("fd mapped and stream set");
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "fd {fd}: {err}");
    }
    // Mapping 1 and setting only stdin and stderr is fine.
    let (r, w) = pipe();
    let mut cmd = probe_cmd(["write-fd", "1", "ok"]);
    cmd.fd(1, w).stdin(Stdio::null()).stderr(Stdio::null());
    let mut child = spawn(&mut cmd, engine);
    assert!(child.stdout.is_none(), "fd 1 is mapped: no stdout pipe");
    assert!(child.wait().expect("wait").success());
    drop(cmd);
    assert_eq!(read_all(r), b"ok");
}

/// The child fds asked for are the low numbers where the library's own
/// stdio pipes land in the parent (3, 4, ... are free here), so moving fds
/// into place must not clobber the pipes, and the other way round.
fn mapped_fds_collide_with_stdio_pipes(engine: Engine) {
    let fds = util::open_fds();
    let free_low: Vec<RawFd> = (3..16).filter(|fd| !fds.contains(fd)).take(8).collect();
    if free_low.len() < 4 {
        util::skip(format_args!(
            "too few free low fds: {:?}",
            util::describe_fds(&fds)
        ));
        return;
    }
    let sources: Vec<(OwnedFd, OwnedFd)> = free_low
        .iter()
        .map(|_| {
            let (r, w) = pipe();
            (dup_at_least(&r, 200), dup_at_least(&w, 200))
        })
        .collect();
    let targets: Vec<String> = sources.iter().map(|(_, w)| fd_target(w)).collect();
    let mut cmd = probe_cmd(["state"]);
    for (fd, (_, w)) in free_low.iter().zip(&sources) {
        cmd.fd(*fd, w.try_clone().expect("dup"));
    }
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = spawn(&mut cmd, engine);
    let stdin_target = fd_target(child.stdin.as_ref().expect("stdin"));
    let stdout_target = fd_target(child.stdout.as_ref().expect("stdout"));
    let stderr_target = fd_target(child.stderr.as_ref().expect("stderr"));
    let out = child.wait_with_output().expect("wait_with_output");
    assert!(out.status.success(), "{out:?}");
    let st = util::State::parse(&out.stdout);
    for (fd, target) in free_low.iter().zip(&targets) {
        assert_eq!(st.fdlink(*fd), target, "child fd {fd}");
    }
    assert_eq!(st.fdlink(0), stdin_target, "stdin");
    assert_eq!(st.fdlink(1), stdout_target, "stdout");
    assert_eq!(st.fdlink(2), stderr_target, "stderr");
    let mut expected = vec![0, 1, 2];
    expected.extend(&free_low);
    assert_eq!(st.fds(), expected);
    drop(cmd);
    drop(sources);
}

/// Other fds of the parent, inheritable or not, never reach the child.
fn child_sees_exactly_its_fds(engine: Engine) {
    let devnull = File::open("/dev/null").expect("open");
    let leaky_file = dup_inheritable(&devnull);
    let (r, w) = pipe();
    let leaky_pipe = (dup_inheritable(&r), dup_inheritable(&w));
    let high = dup_at_least(&dup_inheritable(&devnull), 900);
    let leaky_high = dup_inheritable(&high);

    let mut cmd = probe_cmd(Vec::<&str>::new());
    cmd.stdin(Stdio::null());
    let st = state(&mut cmd, engine);
    assert_eq!(st.fds(), vec![0, 1, 2], "{:#?}", st.0);

    let mut cmd = probe_cmd(Vec::<&str>::new());
    cmd.stdin(Stdio::null())
        .fd(5, w.try_clone().expect("dup"))
        .fd(9, r.try_clone().expect("dup"));
    let st = state(&mut cmd, engine);
    assert_eq!(st.fds(), vec![0, 1, 2, 5, 9], "{:#?}", st.0);
    assert_eq!(st.fdlink(5), fd_target(&w));

    // Inherited stdin and stderr: the child has ours (when we have them),
    // its stdout and the mapped fd, and nothing else.
    let ours: Vec<RawFd> = util::open_fds().into_iter().filter(|fd| *fd < 3).collect();
    let (sr, sw) = pipe();
    let mut cmd = probe_cmd(["state"]);
    cmd.fd(7, sw.try_clone().expect("dup")).stdout(sw);
    let mut child = spawn(&mut cmd, engine);
    drop(cmd);
    let text = read_all(sr);
    assert!(child.wait().expect("wait").success());
    let st = util::State::parse(&text);
    let mut expected: Vec<RawFd> = ours.iter().copied().filter(|fd| *fd != 1).collect();
    expected.extend([1, 7]);
    expected.sort_unstable();
    assert_eq!(st.fds(), expected);
    drop((leaky_file, leaky_pipe, high, leaky_high));
}

/// One parent fd mapped to two child fds.
fn same_parent_fd_twice(engine: Engine) {
    let (r, w) = pipe();
    let target = fd_target(&w);
    let mut cmd = probe_cmd(Vec::<&str>::new());
    cmd.fd(3, w.try_clone().expect("dup")).fd(4, w);
    let st = state(&mut cmd, engine);
    drop(cmd);
    assert_eq!(st.fdlink(3), target);
    assert_eq!(st.fdlink(4), target);
    assert_eq!(read_all(r), b"");
}

fn high_child_fd(engine: Engine) {
    assert_eq!(write_through(engine, 1000, "far away"), "far away");
}

/// A command with mappings spawns more than once; every child gets the fds,
/// and a mapping added between spawns reaches the next child.
fn mapped_command_spawns_twice(engine: Engine) {
    let (r, w) = pipe();
    let mut cmd = probe_cmd(["write-fd", "3", "x"]);
    cmd.fd(3, w);
    for _ in 0..3 {
        output_ok(&mut cmd, engine);
    }
    drop(cmd);
    assert_eq!(read_all(r), b"xxx");

    let (r, w) = pipe();
    let mut cmd = probe_cmd(["state"]);
    cmd.fd(3, w.try_clone().expect("dup"))
        .stdout(Stdio::piped());
    let first = util::State::parse(&output_ok(&mut cmd, engine).stdout);
    assert_eq!(first.fds(), vec![0, 1, 2, 3]);
    cmd.fd(6, w);
    let second = util::State::parse(&output_ok(&mut cmd, engine).stdout);
    assert_eq!(second.fds(), vec![0, 1, 2, 3, 6]);
    drop(cmd);
    assert_eq!(read_all(r), b"");
}

/// Regression: the clone engines share the parent's fd table and let the
/// child keep only the fds below the highest one it needs. With thousands of
/// fds open in the parent (here also the pidfds of live children), pipes and
/// mapped fds land at high numbers; the child must still get exactly its
/// own fds, with the right files behind them.
fn crowded_fd_table(engine: Engine) {
    let devnull = File::open("/dev/null").expect("open");
    let crowd: Vec<OwnedFd> = (0..3000).map(|_| dup_inheritable(&devnull)).collect();
    let sleepers: Vec<_> = (0..50)
        .map(|_| spawn(probe_cmd(["sleep", "30"]).stdin(Stdio::null()), engine))
        .collect();
    let (r, w) = pipe();
    assert!(w.as_raw_fd() > 3000, "the pipe should land above the crowd");
    let mut cmd = probe_cmd(Vec::<&str>::new());
    cmd.stdin(Stdio::null()).fd(5, w);
    let st = state(&mut cmd, engine);
    assert_eq!(st.fds(), vec![0, 1, 2, 5], "{:#?}", st.0);
    assert_eq!(st.fdlink(5), fd_target(&r));
    // Data still flows through a mapped fd placed above the crowd.
    let (r2, w2) = pipe();
    let out = output_ok(probe_cmd(["write-fd", "4", "crowded"]).fd(4, w2), engine);
    assert!(out.status.success());
    assert_eq!(read_all(r2), b"crowded");
    for mut child in sleepers {
        child.kill().expect("kill");
        child.wait().expect("wait");
    }
    drop(crowd);
}

/// `Command::try_clone` copies everything and owns duplicates of the fds:
/// the clone still works after the original is dropped, and the original's
/// later changes do not leak into the clone.
fn try_clone_owns_its_fds(engine: Engine) {
    let (r, w) = pipe();
    let mut original = probe_cmd(["write-fd", "3", "from the clone"]);
    original
        .fd(3, w)
        .env("FASTSPAWN_CLONED", "yes")
        .current_dir("/");
    let mut clone = original.try_clone().expect("try_clone");
    original.arg("extra");
    drop(original);
    assert_eq!(clone.get_args().count(), 3);
    assert_eq!(clone.get_current_dir(), Some(std::path::Path::new("/")));
    assert_eq!(clone.get_envs().count(), 1);
    let out = output_ok(&mut clone, engine);
    assert!(out.status.success());
    drop(clone);
    assert_eq!(read_all(r), b"from the clone");
}
