//! fd mapping: single fds, swaps, cycles, mapping onto stdio, data really
//! flowing, and the child seeing exactly the fds it should.

use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};

use fastspawn::{Command, Engine, Stdio};

use crate::util::{
    self, TempDir, dup_at_least, dup_inheritable, fd_target, output_ok, pipe, probe_cmd, read_all,
    spawn, state,
};

engine_tests!(shared: single_fd, identity_mapping_of_cloexec_fd, swap, three_cycle, onto_stdio,
    stdio_conflicts_with_mapping, child_sees_exactly_its_fds, same_parent_fd_twice, high_child_fd,
    mapped_command_spawns_twice);
engine_tests!(exclusive: swap_at_3_and_4);

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
    child.stdout.take().expect("stdout").read_to_string(&mut text).expect("read");
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

/// Two pipes whose parent fds are X and Y, mapped to child fds Y and X.
fn swap(engine: Engine) {
    let (rx, wx) = pipe();
    let (ry, wy) = pipe();
    let (x, y) = (wx.as_raw_fd(), wy.as_raw_fd());
    let (target_x, target_y) = (fd_target(&wx), fd_target(&wy));

    let mut cmd = probe_cmd(Vec::<&str>::new());
    cmd.fd(y, wx.try_clone().expect("dup")).fd(x, wy.try_clone().expect("dup"));
    cmd.stdin(Stdio::null());
    let st = state(&mut cmd, engine);
    assert_eq!(st.fdlink(y), target_x, "child fd {y} must be the parent's fd {x}");
    assert_eq!(st.fdlink(x), target_y, "child fd {x} must be the parent's fd {y}");
    let mut expected = vec![0, 1, 2, x, y];
    expected.sort_unstable();
    assert_eq!(st.fds(), expected);

    // Data flows the swapped way.
    let mut cmd = probe_cmd(["write-fd", &y.to_string(), "written to child fd y"]);
    cmd.fd(y, wx).fd(x, wy);
    output_ok(&mut cmd, engine);
    drop(cmd);
    assert_eq!(read_all(rx), b"written to child fd y");
    assert_eq!(read_all(ry), b"");
}

/// The swap with the parent's fds exactly at 3 and 4 (child 3 <- parent 4,
/// child 4 <- parent 3), when this process has 3 and 4 free.
fn swap_at_3_and_4(engine: Engine) {
    let (r4, w4) = pipe();
    let (r3, w3) = pipe();
    let fds = util::open_fds();
    let free = |fd: RawFd| !fds.contains(&fd);
    if !(free(3) && free(4)) {
        // The pipes themselves may have taken 3 and 4: place them.
        let at_3 = [&r4, &w4, &r3, &w3].iter().any(|f| f.as_raw_fd() == 3);
        let at_4 = [&r4, &w4, &r3, &w3].iter().any(|f| f.as_raw_fd() == 4);
        if !(at_3 || free(3)) || !(at_4 || free(4)) {
            util::skip("fds 3 and 4 of the test process are in use");
            return;
        }
    }
    // Move every pipe end off 3 and 4, then put w4 at 4 and w3 at 3.
    let (r4, w4, r3, w3) = (
        dup_at_least(&r4, 10),
        dup_at_least(&w4, 10),
        dup_at_least(&r3, 10),
        dup_at_least(&w3, 10),
    );
    assert!(!util::open_fds().contains(&3) && !util::open_fds().contains(&4), "3 and 4 are free now");
    let w3 = dup_at_least(&w3, 3);
    let w4 = dup_at_least(&w4, 4);
    assert_eq!((w3.as_raw_fd(), w4.as_raw_fd()), (3, 4));
    let (t3, t4) = (fd_target(&w3), fd_target(&w4));

    let mut cmd = probe_cmd(Vec::<&str>::new());
    cmd.fd(3, w4.try_clone().expect("dup")).fd(4, w3.try_clone().expect("dup"));
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

/// Child b <- A, child c <- B, child a <- C, where a, b, c are the parent's
/// fd numbers of A, B, C.
fn three_cycle(engine: Engine) {
    let pipes: Vec<(OwnedFd, OwnedFd)> = (0..3).map(|_| pipe()).collect();
    let raw: Vec<RawFd> = pipes.iter().map(|(_, w)| w.as_raw_fd()).collect();
    let targets: Vec<String> = pipes.iter().map(|(_, w)| fd_target(w)).collect();

    let mut cmd = probe_cmd(Vec::<&str>::new());
    for i in 0..3 {
        cmd.fd(raw[(i + 1) % 3], pipes[i].1.try_clone().expect("dup"));
    }
    let st = state(&mut cmd, engine);
    for i in 0..3 {
        assert_eq!(
            st.fdlink(raw[(i + 1) % 3]),
            targets[i],
            "child fd {} must be the parent's fd {}",
            raw[(i + 1) % 3],
            raw[i]
        );
    }
    let mut expected = vec![0, 1, 2, raw[0], raw[1], raw[2]];
    expected.sort_unstable();
    assert_eq!(st.fds(), expected);

    // Data: write to the child fd that holds pipe 2.
    let mut cmd = probe_cmd(["write-fd", &raw[0].to_string(), "via the cycle"]);
    let mut reads = Vec::new();
    for (i, (r, w)) in pipes.into_iter().enumerate() {
        cmd.fd(raw[(i + 1) % 3], w);
        reads.push(r);
    }
    output_ok(&mut cmd, engine);
    drop(cmd);
    let got: Vec<Vec<u8>> = reads.into_iter().map(read_all).collect();
    assert_eq!(got, vec![b"".to_vec(), b"".to_vec(), b"via the cycle".to_vec()]);
}

fn onto_stdio(engine: Engine) {
    // stdout from a mapping
    let (r, w) = pipe();
    let mut cmd = probe_cmd(["spew", "3000", "0"]);
    cmd.fd(1, w);
    assert!(spawn(&mut cmd, engine).wait().expect("wait").success());
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
        let err = cmd.engine(engine).spawn().expect_err("fd mapped and stream set");
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "fd {fd}: {err}");
    }
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
    cmd.stdin(Stdio::null()).fd(5, w.try_clone().expect("dup")).fd(9, r.try_clone().expect("dup"));
    let st = state(&mut cmd, engine);
    assert_eq!(st.fds(), vec![0, 1, 2, 5, 9], "{:#?}", st.0);
    assert_eq!(st.fdlink(5), fd_target(&w));

    // Inherited stdio too: the child still has 0..2 from us (if we have them) and nothing else.
    let ours: Vec<RawFd> = util::open_fds().into_iter().filter(|fd| *fd < 3).collect();
    let mut cmd = probe_cmd(["state"]);
    let st = {
        let (sr, sw) = pipe();
        let mut child = spawn(cmd.fd(7, sw), engine);
        drop(cmd);
        let text = read_all(sr);
        assert!(child.wait().expect("wait").success());
        // the probe printed to its stdout, which is ours: read it from fd 7 instead? No:
        // state goes to stdout, so run it again with stdout on the pipe below.
        drop(text);
        let (sr, sw) = pipe();
        let mut cmd = probe_cmd(["state"]);
        let mut child = spawn(cmd.fd(7, sw.try_clone().expect("dup")).stdout(sw), engine);
        drop(cmd);
        let text = read_all(sr);
        assert!(child.wait().expect("wait").success());
        util::State::parse(&text)
    };
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
    cmd.fd(3, w.try_clone().expect("dup")).stdout(Stdio::piped());
    let first = util::State::parse(&output_ok(&mut cmd, engine).stdout);
    assert_eq!(first.fds(), vec![0, 1, 2, 3]);
    cmd.fd(6, w);
    let second = util::State::parse(&output_ok(&mut cmd, engine).stdout);
    assert_eq!(second.fds(), vec![0, 1, 2, 3, 6]);
    drop(cmd);
    assert_eq!(read_all(r), b"");

    let _ = Command::new("unused");
}
