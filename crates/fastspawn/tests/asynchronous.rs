//! `fastspawn::tokio`: spawning and waiting from async code, on a
//! current-thread and on a multi-thread runtime (`async_tests!`).
//!
//! Exit codes and signals, large outputs, stdin and streamed stdout; the
//! spawn runs on a `fastspawn-N` pool thread, never on the runtime's;
//! 10,000 children waited for at once; spawn futures and children dropped
//! at any point leak no process, zombie or fd; kill / try_wait / id;
//! pdeathsig follows the pool thread's life, not the caller's; fastspawn,
//! `tokio::process` and `std::process` each get their own exit statuses;
//! `spawn_many` keeps order and per-child arguments and environment.

use std::collections::BTreeSet;
use std::fs;
use std::future::Future;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use fastspawn::tokio::{Child, Command};
use fastspawn::{Engine, Pool, Stdio, Variant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::runtime::Runtime;
use tokio::task::JoinSet;
use tokio::time::timeout;

use crate::pool::{BATCH, SETTLE};
use crate::util::{self, probe};

/// Generates, for each `async fn name()`, a module `name` with one test on
/// a current-thread runtime and one on a multi-thread runtime (where the
/// test body runs as a task on a worker thread, not in `block_on`).
macro_rules! async_tests {
    ($lock:ident: $($name:ident),* $(,)?) => {$(
        mod $name {
            #[test]
            fn current_thread() {
                let _guard = crate::util::$lock();
                crate::asynchronous::current_thread().block_on(super::$name());
            }

            #[test]
            fn multi_thread() {
                let _guard = crate::util::$lock();
                crate::asynchronous::run_multi_thread(super::$name());
            }
        }
    )*};
}

async_tests!(shared: exit_codes_and_signals, wait_with_output_over_4_mib, stdin_through_cat,
    stdout_streamed_in_chunks, spawn_happens_on_a_spawner_thread, kill_wait_and_try_wait,
    spawn_many_in_order, pdeathsig_when_the_private_pool_is_dropped, without_a_pidfd);
async_tests!(exclusive: cancelled_sleeping_spawns, cancelled_sleeping_spawns_kill_on_drop,
    cancelled_blocked_spawns, cancelled_blocked_spawns_kill_on_drop,
    spawn_future_dropped_after_the_child_started,
    spawn_many_future_dropped_after_the_children_started, dropped_children,
    three_libraries_at_once);

pub fn current_thread() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("current-thread runtime")
}

pub fn multi_thread() -> Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("multi-thread runtime")
}

/// Runs `test` as a task on a worker of a multi-thread runtime; a panic in
/// it is the test's panic.
pub fn run_multi_thread<F>(test: F)
where
    F: Future<Output = ()> + Send + 'static,
{
    multi_thread().block_on(async {
        if let Err(err) = tokio::spawn(test).await {
            match err.try_into_panic() {
                Ok(panic) => std::panic::resume_unwind(panic),
                Err(err) => panic!("the test task: {err}"),
            }
        }
    })
}

// ---------------------------------------------------------------------------
// Helpers

/// An async command that runs the probe with `args`.
fn probe_cmd<I, S>(args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    Command::from(util::probe_cmd(args))
}

fn spawned(result: fastspawn::Result<Child>) -> Child {
    result.unwrap_or_else(|err| panic!("spawn failed: {err}"))
}

/// Calls `done` every 10 ms (without blocking the runtime) until it
/// returns true or `limit` has passed; returns its last answer.
async fn settle(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    loop {
        if done() {
            return true;
        }
        if start.elapsed() > limit {
            return done();
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The thread of this process that created child `pid`, `(tid, name)`.
fn parent_thread(pid: i32) -> Option<(i32, String)> {
    let tid = *util::parent_threads(&[pid]).get(&pid)?;
    Some((tid, util::thread_name(tid)?))
}

/// A process as /proc/PID/stat shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Proc {
    pid: i32,
    comm: String,
    state: char,
    ppid: i32,
    /// Start time: tells a recycled pid from the process we knew.
    start: u64,
}

fn proc_stat(pid: i32) -> Option<Proc> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (open, close) = (stat.find('(')?, stat.rfind(')')?);
    let fields: Vec<&str> = stat[close + 1..].split_whitespace().collect();
    Some(Proc {
        pid,
        comm: stat[open + 1..close].to_owned(),
        state: fields.first()?.chars().next()?,
        ppid: fields.get(1)?.parse().ok()?,
        start: fields.get(19)?.parse().ok()?,
    })
}

/// Every child of this process, running or zombie.
fn children() -> Vec<Proc> {
    let me = std::process::id() as i32;
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(proc_stat)
        .filter(|p| p.ppid == me)
        .collect()
}

/// Fails the test with `message`, after killing and reaping `left` (our
/// own children that the library lost), so that what this test found does
/// not fail the tests that run after it.
fn fail_with_leftovers(left: &[Proc], message: String) -> ! {
    reap_leftovers(left);
    panic!("{message}");
}

/// Kills and reaps our children `left`.
fn reap_leftovers(left: &[Proc]) {
    for p in left {
        // SAFETY: our own unreaped children: their pids are not recycled.
        unsafe {
            libc::kill(p.pid, libc::SIGKILL);
            let mut raw = 0;
            libc::waitpid(p.pid, &mut raw, 0);
        }
    }
}

/// `left` for a failure message: `pid:state`, the first 8 of them.
fn brief(left: &[Proc]) -> String {
    let mut text: Vec<String> = left
        .iter()
        .take(8)
        .map(|p| format!("{}:{}", p.pid, p.state))
        .collect();
    if left.len() > 8 {
        text.push(format!("... ({} in all)", left.len()));
    }
    format!("[{}]", text.join(", "))
}

/// Our children that are not in `earlier`.
fn new_children(earlier: &BTreeSet<i32>) -> Vec<Proc> {
    children()
        .into_iter()
        .filter(|p| !earlier.contains(&p.pid))
        .collect()
}

/// Whether `known` still exists (running or zombie), and is not a new
/// process that got its pid.
fn still_there(known: &Proc) -> bool {
    proc_stat(known.pid).is_some_and(|now| now.start == known.start)
}

/// The probe's process, right after it was spawned.
fn proc_of(child: &Child) -> Proc {
    let pid = child.id().expect("a running child has an id") as i32;
    let info = proc_stat(pid).expect("the child is in /proc");
    assert_eq!(info.ppid, std::process::id() as i32, "{info:?}");
    info
}

/// Starts what fastspawn starts once per process and then keeps (the
/// global pool's threads; the reaper thread and its eventfd), so that fds
/// and threads counted afterwards are the test's own.
async fn warm_up() {
    let mut cmd = probe_cmd(["exit", "0"]);
    cmd.stdin(Stdio::null());
    let status = spawned(cmd.spawn().await).wait().await.expect("wait");
    assert!(status.success(), "{status:?}");
    // A child dropped while it runs is handed to the reaper (started now).
    let mut cmd = probe_cmd(["sleep", "0.05"]);
    cmd.stdin(Stdio::null());
    let child = spawned(cmd.spawn().await);
    let info = proc_of(&child);
    drop(child);
    assert!(
        settle(SETTLE, || !still_there(&info)).await,
        "warm-up: the dropped child was not reaped: {:?}",
        proc_stat(info.pid)
    );
}

/// Waits until this process has exactly the fds of `before`, then asserts
/// it (closing can lag behind a reap by a moment).
async fn assert_fds_back(before: &[i32], what: &str) {
    settle(SETTLE, || util::open_fds() == before).await;
    util::assert_fds_unchanged(before, what);
}

async fn assert_no_zombies_soon(what: &str) {
    settle(SETTLE, || util::zombies().is_empty()).await;
    util::assert_no_zombies(what);
}

/// The bytes `fastspawn-probe spew` writes: byte `i` of stdout is
/// `'a' + i % 26`, of stderr `'A' + i % 26`.
fn check_spew(data: &[u8], base: u8, offset: usize, what: &str) {
    let expected = |i: usize| base + ((offset + i) % 26) as u8;
    if let Some(i) = (0..data.len()).find(|&i| data[i] != expected(i)) {
        panic!(
            "{what}: byte {} is {:?}, expected {:?}",
            offset + i,
            data[i] as char,
            expected(i) as char
        );
    }
}

/// A small xorshift generator; `FASTSPAWN_SEED` replays a run.
struct Rng(u64);

impl Rng {
    fn new() -> Rng {
        let seed = std::env::var("FASTSPAWN_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            })
            | 1;
        println!("FASTSPAWN_SEED={seed}");
        Rng(seed)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Raises the soft RLIMIT_NOFILE to at least `want` (if the hard limit
/// allows) and puts it back on drop.
struct NofileAtLeast(libc::rlimit);

impl NofileAtLeast {
    fn new(want: u64) -> NofileAtLeast {
        // SAFETY: getrlimit/setrlimit on a local struct.
        unsafe {
            let mut lim: libc::rlimit = std::mem::zeroed();
            assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim), 0);
            let old = lim;
            if lim.rlim_cur < want {
                lim.rlim_cur = want.min(lim.rlim_max);
                assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &lim), 0);
            }
            NofileAtLeast(old)
        }
    }
}

impl Drop for NofileAtLeast {
    fn drop(&mut self) {
        // SAFETY: setrlimit with the limits read before.
        unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &self.0) };
    }
}

// ---------------------------------------------------------------------------
// Spawning, waiting, pipes

async fn without_a_pidfd() {
    // pidfd(false): the async child waits on a blocking thread instead of
    // the reactor; kill and try_wait work through the pid.
    let mut cmd = util::probe_cmd(["exit", "9"]);
    cmd.stdin(Stdio::null()).pidfd(false);
    let mut child = spawned(Command::from(cmd).spawn().await);
    assert!(!child.has_pidfd());
    assert_eq!(child.wait().await.expect("wait").code(), Some(9));

    let mut cmd = util::probe_cmd(["sleep", "30"]);
    cmd.stdin(Stdio::null()).pidfd(false);
    let mut child = spawned(Command::from(cmd).spawn().await);
    assert_eq!(child.try_wait().expect("try_wait"), None);
    child.kill().await.expect("kill");
    let status = child.wait().await.expect("wait after kill");
    assert_eq!(status.signal(), Some(libc::SIGKILL), "{status:?}");
}

async fn exit_codes_and_signals() {
    for code in [0, 1, 3, 77, 255] {
        let mut cmd = probe_cmd(["exit", &code.to_string()]);
        cmd.stdin(Stdio::null());
        let mut child = spawned(cmd.spawn().await);
        assert!(child.id().is_some());
        assert_ne!(child.engine(), Engine::Auto);
        let status = child.wait().await.expect("wait");
        assert_eq!(status.code(), Some(code), "{status:?}");
        assert_eq!(status.signal(), None);
        assert_eq!(status.success(), code == 0);
        assert_eq!(child.wait().await.expect("second wait"), status);
    }
    for (name, signal) in [
        ("TERM", libc::SIGTERM),
        ("KILL", libc::SIGKILL),
        ("USR1", libc::SIGUSR1),
        ("HUP", libc::SIGHUP),
        ("PIPE", libc::SIGPIPE),
    ] {
        let mut cmd = probe_cmd(["signal", name]);
        cmd.stdin(Stdio::null());
        let status = spawned(cmd.spawn().await).wait().await.expect("wait");
        assert_eq!(status.signal(), Some(signal), "SIG{name}: {status:?}");
        assert_eq!(status.code(), None);
        assert!(!status.core_dumped());
    }
    // Many at once, each with its own code.
    let mut set = JoinSet::new();
    for i in 0..100 {
        set.spawn(async move {
            let mut cmd = probe_cmd(["exit", &(i * 2).to_string()]);
            cmd.stdin(Stdio::null());
            let status = spawned(cmd.spawn().await).wait().await.expect("wait");
            (i, status.code())
        });
    }
    for (i, code) in set.join_all().await {
        assert_eq!(code, Some(i * 2), "child {i}");
    }
}

async fn wait_with_output_over_4_mib() {
    const OUT: usize = 5 * 1024 * 1024 + 123;
    const ERR: usize = 4 * 1024 * 1024 + 4567;
    let mut cmd = probe_cmd(["spew", &OUT.to_string(), &ERR.to_string()]);
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = spawned(cmd.spawn().await);
    assert!(child.stdout.is_some() && child.stderr.is_some() && child.stdin.is_none());
    let out = child.wait_with_output().await.expect("wait_with_output");
    assert!(out.status.success(), "{:?}", out.status);
    assert_eq!(out.stdout.len(), OUT);
    assert_eq!(out.stderr.len(), ERR);
    check_spew(&out.stdout, b'a', 0, "stdout");
    check_spew(&out.stderr, b'A', 0, "stderr");
}

async fn stdin_through_cat() {
    const LEN: usize = 3 * 1024 * 1024 + 7;
    let mut rng = Rng::new();
    let data: Vec<u8> = (0..LEN).map(|_| rng.below(256) as u8).collect();
    let mut cmd = probe_cmd(["cat"]);
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped());
    let mut child = spawned(cmd.spawn().await);
    let mut stdin = child.stdin.take().expect("stdin piped");
    let mut stdout = child.stdout.take().expect("stdout piped");
    // Written and read at once: cat blocks once the stdout pipe is full.
    let write = async {
        for chunk in data.chunks(100_000) {
            stdin.write_all(chunk).await.expect("write to cat");
        }
        stdin.flush().await.expect("flush");
        drop(stdin); // end of input
    };
    let read = async {
        let mut back = Vec::new();
        stdout.read_to_end(&mut back).await.expect("read from cat");
        back
    };
    let ((), back) = tokio::join!(write, read);
    let status = child.wait().await.expect("wait");
    assert!(status.success(), "{status:?}");
    assert_eq!(back.len(), data.len());
    assert!(back == data, "cat gave back other bytes");

    // wait() closes a stdin still held by the Child, so cat ends.
    let mut cmd = probe_cmd(["cat"]);
    cmd.stdin(Stdio::piped()).stdout(Stdio::null());
    let mut child = spawned(cmd.spawn().await);
    child
        .stdin
        .as_mut()
        .expect("stdin")
        .write_all(b"hello")
        .await
        .expect("write");
    let status = timeout(Duration::from_secs(10), child.wait())
        .await
        .expect("wait() did not close stdin: cat never ended")
        .expect("wait");
    assert!(status.success(), "{status:?}");
}

async fn stdout_streamed_in_chunks() {
    const LEN: usize = 8 * 1024 * 1024;
    let mut cmd = probe_cmd(["spew", &LEN.to_string(), "0"]);
    cmd.stdin(Stdio::null()).stdout(Stdio::piped());
    let mut child = spawned(cmd.spawn().await);
    let mut stdout = child.stdout.take().expect("stdout piped");
    let mut buf = vec![0u8; 64 * 1024];
    let first = stdout.read(&mut buf).await.expect("read");
    assert!(first > 0, "no data");
    check_spew(&buf[..first], b'a', 0, "first chunk");
    // 8 MiB cannot have fit into a pipe nobody drained: the child is still
    // writing, and what was read came while it ran.
    assert_eq!(
        child.try_wait().expect("try_wait"),
        None,
        "the child ended before its output was read"
    );
    let (mut total, mut reads) = (first, 1);
    loop {
        let n = stdout.read(&mut buf).await.expect("read");
        if n == 0 {
            break;
        }
        check_spew(&buf[..n], b'a', total, "stdout");
        total += n;
        reads += 1;
    }
    println!("{total} bytes in {reads} reads");
    assert_eq!(total, LEN);
    assert!(reads > 1);
    assert!(child.wait().await.expect("wait").success());
}

/// The spawn runs on a `fastspawn-N` pool thread, never on the thread that
/// awaits it.
///
/// How it is observed: the kernel makes the thread that called clone the
/// child's parent (`real_parent`; the thread whose exit fires the child's
/// `PR_SET_PDEATHSIG`), and lists each thread's children in
/// /proc/self/task/TID/children (see `util::parent_threads`). So the
/// thread that created a child is read back from the kernel, not inferred.
async fn spawn_happens_on_a_spawner_thread() {
    if !util::have_thread_children() {
        util::skip("no /proc/self/task/TID/children");
        return;
    }
    let me = util::gettid();
    let mut cmd = probe_cmd(["sleep", "30"]);
    cmd.stdin(Stdio::null()).kill_on_drop(true);
    let mut child = spawned(cmd.spawn().await);
    let pid = child.id().expect("id") as i32;
    let (tid, name) = parent_thread(pid).expect("one of our threads is the child's parent");
    assert_ne!(tid, me, "the runtime thread spawned the child itself");
    assert!(
        util::is_spawner_name(&name),
        "the child was created by thread {tid} named {name:?}, not by a fastspawn-N thread"
    );
    child.kill().await.expect("kill");

    // spawn_many: all of them.
    let mut cmd = probe_cmd(["sleep", "30"]);
    cmd.stdin(Stdio::null()).kill_on_drop(true);
    let mut children: Vec<Child> = cmd
        .spawn_many((0..16).map(|_| Variant::new()))
        .await
        .into_iter()
        .map(spawned)
        .collect();
    let pids: Vec<i32> = children
        .iter()
        .filter_map(|c| c.id())
        .map(|id| id as i32)
        .collect();
    let parents = util::parent_threads(&pids);
    for child in &children {
        let pid = child.id().expect("id") as i32;
        let tid = parents.get(&pid);
        let name = tid.and_then(|tid| util::thread_name(*tid));
        assert!(
            tid != Some(&me) && name.as_deref().is_some_and(util::is_spawner_name),
            "spawn_many: child {pid} was created by thread {tid:?} named {name:?}"
        );
    }
    for child in &mut children {
        child.kill().await.expect("kill");
    }

    // With a private pool, one of that pool's own threads.
    let before = util::threads();
    let pool = Arc::new(Pool::new(1).expect("Pool::new(1)"));
    let mut cmd = probe_cmd(["sleep", "30"]);
    cmd.stdin(Stdio::null())
        .kill_on_drop(true)
        .pool(Arc::clone(&pool));
    let mut child = spawned(cmd.spawn().await);
    // Other tests may start pools meanwhile: `mine` may hold their threads
    // too, never the global pool's or the runtime's. Read after the spawn:
    // a new thread takes its name only once it runs, so read before, the
    // pool's thread could still carry its creator's name while another
    // test's new spawner thread already matched (a CI run saw that).
    let mine: BTreeSet<i32> = crate::pool::new_spawner_threads(&before, 1)
        .into_iter()
        .map(|(tid, _)| tid)
        .collect();
    let pid = child.id().expect("id") as i32;
    let parent = parent_thread(pid);
    assert!(
        parent.as_ref().is_some_and(|(tid, _)| mine.contains(tid)),
        "with Command::pool, child {pid} was created by {parent:?}, not by the pool's thread {mine:?}"
    );
    child.kill().await.expect("kill");
}

async fn kill_wait_and_try_wait() {
    // try_wait before and after the exit; id() until waited for.
    let mut cmd = probe_cmd(["cat"]);
    cmd.stdin(Stdio::piped()).stdout(Stdio::null());
    let mut child = spawned(cmd.spawn().await);
    let info = proc_of(&child);
    assert_eq!(child.id(), Some(info.pid as u32));
    assert!(child.has_pidfd(), "this kernel has pidfds");
    assert_eq!(child.try_wait().expect("try_wait"), None);
    assert_eq!(child.id(), Some(info.pid as u32));
    drop(child.stdin.take()); // cat ends at end of input
    let mut status = None;
    settle(Duration::from_secs(10), || {
        status = child.try_wait().expect("try_wait");
        status.is_some()
    })
    .await;
    let status = status.expect("cat did not end after its stdin was closed");
    assert_eq!(status.code(), Some(0), "{status:?}");
    assert_eq!(child.id(), None, "id() after the child was reaped");
    assert_eq!(child.try_wait().expect("try_wait again"), Some(status));
    assert_eq!(child.wait().await.expect("wait after try_wait"), status);
    assert!(
        !still_there(&info),
        "try_wait reported an exit but did not reap"
    );
    // Signals after the reap are no-ops (the pid may be someone else's).
    child.start_kill().expect("start_kill after exit");
    child.kill().await.expect("kill after exit");

    // kill().await kills and reaps.
    let mut cmd = probe_cmd(["sleep", "30"]);
    cmd.stdin(Stdio::null());
    let mut child = spawned(cmd.spawn().await);
    let info = proc_of(&child);
    child.kill().await.expect("kill");
    assert_eq!(child.id(), None);
    let status = child
        .try_wait()
        .expect("try_wait")
        .expect("a status after kill()");
    assert_eq!(status.signal(), Some(libc::SIGKILL), "{status:?}");
    assert!(
        !still_there(&info),
        "kill() returned before the child was reaped"
    );

    // start_kill() then wait().
    let mut cmd = probe_cmd(["sleep", "30"]);
    cmd.stdin(Stdio::null());
    let mut child = spawned(cmd.spawn().await);
    child.start_kill().expect("start_kill");
    let status = child.wait().await.expect("wait");
    assert_eq!(status.signal(), Some(libc::SIGKILL), "{status:?}");
    assert_eq!(child.id(), None);

    // send_signal
    let mut cmd = probe_cmd(["sleep", "30"]);
    cmd.stdin(Stdio::null());
    let mut child = spawned(cmd.spawn().await);
    child.send_signal(libc::SIGTERM).expect("send_signal");
    let status = child.wait().await.expect("wait");
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?}");

    // kill_on_drop on a child already waited for changes nothing.
    let mut cmd = probe_cmd(["exit", "4"]);
    cmd.stdin(Stdio::null()).kill_on_drop(true);
    let mut child = spawned(cmd.spawn().await);
    assert_eq!(child.wait().await.expect("wait").code(), Some(4));
    drop(child);

    // wait() is cancel-safe: a timed-out wait loses nothing. The child
    // reads a pipe held here, so it cannot end before the pipe is closed.
    let (hold_r, hold_w) = util::pipe();
    let mut cmd = probe_cmd(["cat"]);
    cmd.stdin(Stdio::from(hold_r)).stdout(Stdio::null());
    let mut child = spawned(cmd.spawn().await);
    for _ in 0..3 {
        let early = timeout(Duration::from_millis(20), child.wait()).await;
        assert!(
            early.is_err(),
            "wait() returned before the child ended: {early:?}"
        );
    }
    drop(hold_w);
    let status = timeout(Duration::from_secs(10), child.wait())
        .await
        .expect("wait() after timed-out waits never returned")
        .expect("wait");
    assert_eq!(status.code(), Some(0), "{status:?}");
}

async fn spawn_many_in_order() {
    let mut cmd = probe_cmd(["args"]);
    cmd.stdin(Stdio::null()).stdout(Stdio::piped());
    let results = cmd
        .spawn_many((0..BATCH).map(crate::pool::arg_variant))
        .await;
    assert_eq!(results.len(), BATCH);
    let mut set = JoinSet::new();
    for (i, result) in results.into_iter().enumerate() {
        let child = result.unwrap_or_else(|e| panic!("child {i}: {e}"));
        set.spawn(async move { (i, child.wait_with_output().await) });
    }
    for (i, out) in set.join_all().await {
        let out = out.unwrap_or_else(|e| panic!("child {i}: {e}"));
        assert!(out.status.success(), "child {i}: {out:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            crate::pool::expected_args(i),
            "child {i}"
        );
    }

    let mut cmd = Command::from(crate::pool::env_base());
    let results = cmd.spawn_many((0..300).map(crate::pool::env_variant)).await;
    for (i, result) in results.into_iter().enumerate() {
        let out = spawned(result)
            .wait_with_output()
            .await
            .expect("wait_with_output");
        assert!(out.status.success(), "child {i}: {out:?}");
        crate::pool::check_env(i, &out.stdout);
    }

    let mut cmd = probe_cmd(["exit"]);
    cmd.stdin(Stdio::null());
    let variants = (0..BATCH).map(|i| Variant::new().arg(crate::pool::exit_code(i).to_string()));
    let mut set = JoinSet::new();
    for (i, result) in cmd.spawn_many(variants).await.into_iter().enumerate() {
        let mut child = spawned(result);
        set.spawn(async move { (i, child.wait().await.expect("wait").code()) });
    }
    let codes = set.join_all().await;
    assert_eq!(codes.len(), BATCH);
    for (i, code) in codes {
        assert_eq!(code, Some(crate::pool::exit_code(i)), "child {i}");
    }

    // A failing variant fails in its place.
    let mut cmd = probe_cmd(["args"]);
    cmd.stdin(Stdio::null()).stdout(Stdio::piped());
    let nul = <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(b"a\0b");
    let variants = (0..10).map(|i| {
        if i == 4 {
            Variant::new().arg(nul)
        } else {
            crate::pool::arg_variant(i)
        }
    });
    for (i, result) in cmd.spawn_many(variants).await.into_iter().enumerate() {
        match result {
            Err(err) => {
                assert_eq!(i, 4, "child {i}: {err}");
                assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput, "{err}");
            }
            Ok(child) => {
                assert_ne!(i, 4, "the variant with a NUL byte started");
                let out = child.wait_with_output().await.expect("wait_with_output");
                assert_eq!(
                    String::from_utf8_lossy(&out.stdout),
                    crate::pool::expected_args(i)
                );
            }
        }
    }
    assert!(cmd.spawn_many([]).await.is_empty());
}

// ---------------------------------------------------------------------------
// 10,000 children at once

#[test]
fn ten_thousand_children_waited_for_at_once() {
    let _guard = util::exclusive();
    const N: usize = 10_000;
    let _nofile = NofileAtLeast::new(N as u64 + 4096);
    run_multi_thread(async {
        warm_up().await;
        let fds_before = util::open_fds();
        let start = Instant::now();
        // Half in one spawn_many, half as 5,000 spawn futures of their own,
        // all at the same time.
        let mut batch = probe_cmd(["exit", "0"]);
        batch.stdin(Stdio::null());
        let batch = batch.spawn_many((0..N / 2).map(|_| Variant::new()));
        let singles = async {
            let mut set = JoinSet::new();
            for _ in 0..N / 2 {
                set.spawn(async {
                    let mut cmd = probe_cmd(["exit", "0"]);
                    cmd.stdin(Stdio::null());
                    cmd.spawn().await
                });
            }
            set.join_all().await
        };
        let (batch, singles) = tokio::join!(batch, singles);
        let spawned_after = start.elapsed();
        let children: Vec<Child> = batch
            .into_iter()
            .chain(singles)
            .enumerate()
            .map(|(i, r)| r.unwrap_or_else(|e| panic!("child {i} of {N}: {e}")))
            .collect();
        assert_eq!(children.len(), N);

        let mut set = JoinSet::new();
        for mut child in children {
            set.spawn(async move { child.wait().await });
        }
        let statuses = set.join_all().await;
        let total = start.elapsed();
        println!(
            "{N} children: all started after {spawned_after:?}, all waited for after {total:?}"
        );
        let failed: Vec<String> = statuses
            .iter()
            .filter_map(|s| match s {
                Ok(status) if status.success() => None,
                Ok(status) => Some(format!("{status:?}")),
                Err(err) => Some(err.to_string()),
            })
            .collect();
        assert!(
            failed.is_empty(),
            "{} of {N} children failed, e.g. {:?}",
            failed.len(),
            &failed[..failed.len().min(10)]
        );
        assert_eq!(statuses.len(), N);
        assert_no_zombies_soon("after 10,000 children").await;
        assert_fds_back(&fds_before, "after 10,000 children").await;
    });
}

// ---------------------------------------------------------------------------
// Cancellation: spawn futures and children dropped at any point

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `sleep 0.2`: ends by itself soon.
    Sleeping,
    /// `cat` reading a pipe the test holds open: only a kill ends it early.
    Blocked,
}

async fn cancelled_sleeping_spawns() {
    cancelled_spawns(Kind::Sleeping, false).await
}

async fn cancelled_sleeping_spawns_kill_on_drop() {
    cancelled_spawns(Kind::Sleeping, true).await
}

async fn cancelled_blocked_spawns() {
    cancelled_spawns(Kind::Blocked, false).await
}

async fn cancelled_blocked_spawns_kill_on_drop() {
    cancelled_spawns(Kind::Blocked, true).await
}

/// A few hundred spawn futures dropped at random points (before their
/// first poll answer, while the pool spawns, after the child started but
/// before the future was polled again), and the children of the spawns
/// that completed dropped at once. Every spawn future that was polled once
/// started exactly one child (the job is queued on the first poll and
/// always runs).
///
/// Then, with `Kind::Blocked` children (which cannot end by themselves):
/// without kill_on_drop every one of them is still running; with it none
/// is left. After they end: no child of ours left (running or zombie), and
/// the fds are those from before.
async fn cancelled_spawns(kind: Kind, kill_on_drop: bool) {
    const ATTEMPTS: usize = 400;
    warm_up().await;
    let fds_before = util::open_fds();
    let earlier: BTreeSet<i32> = children().iter().map(|p| p.pid).collect();
    let ours = || new_children(&earlier);
    let (hold_r, hold_w) = util::pipe();
    let make = || {
        let mut cmd = match kind {
            Kind::Sleeping => probe_cmd(["sleep", "0.2"]),
            Kind::Blocked => probe_cmd(["cat"]),
        };
        match kind {
            Kind::Sleeping => cmd.stdin(Stdio::null()),
            Kind::Blocked => cmd.stdin(Stdio::from(hold_r.try_clone().expect("dup"))),
        };
        cmd.stdout(Stdio::null()).kill_on_drop(kill_on_drop);
        cmd
    };
    let polled = Arc::new(AtomicUsize::new(0));
    let attempt = |mut cmd: Command, polled: Arc<AtomicUsize>| async move {
        polled.fetch_add(1, Ordering::SeqCst);
        cmd.spawn().await
    };
    let mut rng = Rng::new();
    let (mut completed, mut cancelled) = (0usize, 0usize);

    // One at a time.
    for i in 0..ATTEMPTS / 2 {
        let fut = attempt(make(), Arc::clone(&polled));
        let result = match i % 4 {
            // Polled once, then dropped.
            0 => tokio::select! {
                biased;
                r = fut => Some(r),
                () = std::future::ready(()) => None,
            },
            1 => timeout(Duration::ZERO, fut).await.ok(),
            2 => timeout(Duration::from_micros(rng.below(400)), fut)
                .await
                .ok(),
            _ => timeout(Duration::from_micros(rng.below(3000)), fut)
                .await
                .ok(),
        };
        match result {
            Some(r) => {
                drop(spawned(r));
                completed += 1;
            }
            None => cancelled += 1,
        }
    }
    // Many at once: tasks aborted at random points, some holding a Child.
    let mut set = JoinSet::new();
    for _ in 0..ATTEMPTS / 2 {
        let fut = attempt(make(), Arc::clone(&polled));
        let hold = Duration::from_micros(rng.below(2000));
        set.spawn(async move {
            let child = spawned(fut.await);
            tokio::time::sleep(hold).await;
            drop(child);
        });
    }
    tokio::time::sleep(Duration::from_micros(rng.below(3000))).await;
    set.abort_all();
    while let Some(result) = set.join_next().await {
        match result {
            Ok(()) => completed += 1,
            Err(err) if err.is_cancelled() => cancelled += 1,
            Err(err) => std::panic::resume_unwind(err.into_panic()),
        }
    }
    let started = polled.load(Ordering::SeqCst);
    println!(
        "{kind:?}, kill_on_drop {kill_on_drop}: {started} spawns started, \
         {completed} completed (child dropped), {cancelled} cancelled"
    );

    if kind == Kind::Blocked {
        if kill_on_drop {
            // Only a kill can have ended them, and they are reaped.
            if !settle(SETTLE, || ours().is_empty()).await {
                let left = ours();
                fail_with_leftovers(
                    &left,
                    format!(
                        "kill_on_drop: {} of the {started} children of dropped spawns and \
                         Childs are left: {}",
                        left.len(),
                        brief(&left)
                    ),
                );
            }
        } else {
            // Every started spawn has a child, still running.
            settle(SETTLE, || ours().len() >= started).await;
            let left = ours();
            let dead = left.iter().filter(|p| p.state == 'Z').count();
            if left.len() != started || dead != 0 {
                fail_with_leftovers(
                    &left,
                    format!(
                        "without kill_on_drop, {started} spawns were started and {} children \
                         are there, {dead} of them dead: {}",
                        left.len(),
                        brief(&left)
                    ),
                );
            }
        }
    }
    drop(hold_w); // blocked children now end
    drop(hold_r);
    if !settle(SETTLE, || ours().is_empty()).await {
        let left = ours();
        fail_with_leftovers(
            &left,
            format!(
                "{} children of dropped spawns and Childs were never reaped ({} zombies, the \
                 others still running): {}",
                left.len(),
                left.iter().filter(|p| p.state == 'Z').count(),
                brief(&left)
            ),
        );
    }
    assert_fds_back(&fds_before, "after the cancelled spawns").await;
}

/// A spawn future polled once (which queues the spawn), left alone until
/// the pool thread has started the child and handed it to the future, then
/// dropped without another poll. Its child must be treated as the child of
/// any dropped spawn: killed with kill_on_drop, reaped in every case. The
/// children are `cat` reading a pipe the test holds open, so that only a
/// kill ends them early.
async fn spawn_future_dropped_after_the_child_started() {
    dropped_after_start(1).await
}

/// The same for a `spawn_many` future: polled once, dropped once all its
/// children have started.
async fn spawn_many_future_dropped_after_the_children_started() {
    dropped_after_start(64).await
}

/// See the two tests above: `count == 1` uses `spawn()`, more `spawn_many()`.
async fn dropped_after_start(count: usize) {
    let what = if count == 1 {
        "spawn()"
    } else {
        "spawn_many()"
    };
    let mut failures = Vec::new();
    for kill_on_drop in [false, true] {
        let mut tries = 0;
        loop {
            tries += 1;
            // The pool answers on the first poll only when this thread is
            // preempted between queueing and checking; under a loaded
            // machine that can happen several times in a row.
            assert!(
                tries <= 50,
                "{what} answered on its first poll {} times",
                tries - 1
            );
            let earlier: BTreeSet<i32> = children().iter().map(|p| p.pid).collect();
            let (hold_r, hold_w) = util::pipe();
            let mut cmd = probe_cmd(["cat"]);
            cmd.stdin(Stdio::from(hold_r))
                .stdout(Stdio::null())
                .kill_on_drop(kill_on_drop);
            let pending = if count == 1 {
                let mut fut = std::pin::pin!(cmd.spawn());
                poll_once(fut.as_mut()).is_pending() && wait_started(&earlier, count).await
            } else {
                let mut fut = std::pin::pin!(cmd.spawn_many((0..count).map(|_| Variant::new())));
                poll_once(fut.as_mut()).is_pending() && wait_started(&earlier, count).await
            };
            // The future is dropped here, never polled again.
            drop(cmd);
            let result = check_dropped_spawn(&earlier, count, hold_w, kill_on_drop, what).await;
            if pending {
                failures.extend(result.err());
                break;
            }
            // It finished on its first poll (the pool was quicker than this
            // thread): its children were Childs, dropped; try again.
            result.expect("children of a spawn future that completed");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Polls `fut` once, with a waker that does nothing.
fn poll_once<F: Future>(fut: std::pin::Pin<&mut F>) -> std::task::Poll<F::Output> {
    fut.poll(&mut std::task::Context::from_waker(std::task::Waker::noop()))
}

/// Waits until `count` new children run the probe, and a little more: the
/// pool thread hands a child to the future after its exec.
async fn wait_started(earlier: &BTreeSet<i32>, count: usize) -> bool {
    let started = settle(SETTLE, || {
        let found = new_children(earlier);
        found.len() == count && found.iter().all(|p| p.comm == "fastspawn-probe")
    })
    .await;
    assert!(started, "the queued spawns did not start {count} children");
    tokio::time::sleep(Duration::from_millis(200)).await;
    true
}

/// After a spawn future was dropped: with kill_on_drop its children are
/// gone at once (the pipe they read is still open); without, they run
/// until `hold_w` is closed and are then reaped. Leftovers are killed and
/// reaped before the error is returned.
async fn check_dropped_spawn(
    earlier: &BTreeSet<i32>,
    count: usize,
    hold_w: std::os::fd::OwnedFd,
    kill_on_drop: bool,
    what: &str,
) -> Result<(), String> {
    let mut error = None;
    if kill_on_drop && !settle(SETTLE, || new_children(earlier).is_empty()).await {
        let left = new_children(earlier);
        error = Some(format!(
            "{what} future dropped after its {count} children started, kill_on_drop(true): \
             {} of them were not killed: {}",
            left.len(),
            brief(&left)
        ));
    }
    drop(hold_w);
    if error.is_none() && !settle(SETTLE, || new_children(earlier).is_empty()).await {
        let left = new_children(earlier);
        error = Some(format!(
            "{what} future dropped after its {count} children started, \
             kill_on_drop({kill_on_drop}): {} of them ended but were never reaped: {}",
            left.len(),
            brief(&left)
        ));
    }
    match error {
        None => Ok(()),
        Some(error) => {
            reap_leftovers(&new_children(earlier));
            Err(error)
        }
    }
}

/// A `Child` dropped before its process ended: with kill_on_drop the
/// process is killed at once and reaped; without, it runs on until it ends
/// by itself, and is then reaped in the background. A child dropped after
/// it ended, without a wait, is reaped too.
async fn dropped_children() {
    warm_up().await;
    let fds_before = util::open_fds();
    let (hold_r, hold_w) = util::pipe();
    let blocked = |kill: bool| {
        let mut cmd = probe_cmd(["cat"]);
        cmd.stdin(Stdio::from(hold_r.try_clone().expect("dup")))
            .stdout(Stdio::null())
            .kill_on_drop(kill);
        cmd
    };

    let child = spawned(blocked(false).spawn().await);
    let running = proc_of(&child);
    drop(child);

    let child = spawned(blocked(true).spawn().await);
    let killed = proc_of(&child);
    drop(child);
    // The pipe is still open: only the kill can end it.
    assert!(
        settle(SETTLE, || !still_there(&killed)).await,
        "a Child with kill_on_drop was dropped; its process is still there: {:?}",
        proc_stat(killed.pid)
    );

    tokio::time::sleep(Duration::from_millis(200)).await;
    let now = proc_stat(running.pid);
    assert!(
        now.as_ref()
            .is_some_and(|p| p.start == running.start && p.state != 'Z' && p.state != 'X'),
        "a Child without kill_on_drop was dropped and its process no longer runs: {now:?}"
    );
    drop(hold_w); // now it ends by itself
    assert!(
        settle(SETTLE, || !still_there(&running)).await,
        "the dropped child ended but was not reaped: {:?}",
        proc_stat(running.pid)
    );

    // Ended (a zombie) before its Child was dropped, never waited for.
    let mut cmd = probe_cmd(["exit", "3"]);
    cmd.stdin(Stdio::null());
    let child = spawned(cmd.spawn().await);
    let exited = proc_of(&child);
    assert!(
        settle(SETTLE, || proc_stat(exited.pid)
            .is_some_and(|p| p.state == 'Z'))
        .await,
        "`exit 3` did not end: {:?}",
        proc_stat(exited.pid)
    );
    drop((child, cmd));
    assert!(
        settle(SETTLE, || !still_there(&exited)).await,
        "a dropped Child whose process had ended was not reaped: {:?}",
        proc_stat(exited.pid)
    );

    drop(hold_r);
    assert_no_zombies_soon("after dropping children").await;
    assert_fds_back(&fds_before, "after dropping children").await;
}

// ---------------------------------------------------------------------------
// pdeathsig: the spawning thread is a pool thread

/// Waits until thread `tid` of this process is gone: it has then passed
/// the point of its exit where the kernel sends its children's pdeathsig.
fn wait_thread_gone(tid: i32) {
    let path = format!("/proc/self/task/{tid}");
    assert!(
        util::poll_until(SETTLE, || !Path::new(&path).exists()),
        "thread {tid} did not go away"
    );
}

fn sleeper_with_pdeathsig() -> Command {
    let mut cmd = probe_cmd(["sleep", "30"]);
    cmd.stdin(Stdio::null());
    cmd.as_fastspawn_mut().pdeathsig(libc::SIGTERM);
    cmd
}

/// The contrast that makes the async tests meaningful: a child spawned with
/// pdeathsig by the sync API from a thread that then exits gets the signal.
#[test]
fn pdeathsig_fires_when_a_sync_spawning_thread_exits() {
    let _guard = util::shared();
    let mut child = std::thread::spawn(|| {
        let mut cmd = util::probe_cmd(["sleep", "30"]);
        cmd.pdeathsig(libc::SIGTERM).stdin(Stdio::null());
        cmd.spawn().expect("spawn")
    })
    .join()
    .expect("spawning thread");
    let status = child.wait().expect("wait");
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?}");
}

/// A current-thread runtime on a thread that then exits: the child lives
/// on. Had the signal been sent, the final status would be SIGTERM (a fatal
/// signal sets the exit status when it is sent), not our SIGKILL.
#[test]
fn pdeathsig_survives_the_exit_of_a_current_thread_runtime_thread() {
    let _guard = util::shared();
    let (rt, mut child, tid) = std::thread::spawn(|| {
        let rt = current_thread();
        let child = rt.block_on(async { spawned(sleeper_with_pdeathsig().spawn().await) });
        (rt, child, util::gettid())
    })
    .join()
    .expect("runtime thread");
    wait_thread_gone(tid);
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(
        child.try_wait().expect("try_wait"),
        None,
        "the child died when the thread that ran its runtime exited"
    );
    child.start_kill().expect("start_kill");
    let status = rt.block_on(child.wait()).expect("wait");
    assert_eq!(status.signal(), Some(libc::SIGKILL), "{status:?}");
}

/// The same with a multi-thread runtime whose worker ran the spawn: the
/// runtime is shut down (its workers exit) and its thread exits. The child,
/// which outlives its runtime, is then managed with the calls that need no
/// runtime (try_wait, start_kill).
#[test]
fn pdeathsig_survives_the_shutdown_of_a_multi_thread_runtime() {
    let _guard = util::shared();
    let (mut child, tid) = std::thread::spawn(|| {
        let rt = multi_thread();
        let child = rt
            .block_on(async {
                tokio::spawn(async { spawned(sleeper_with_pdeathsig().spawn().await) }).await
            })
            .expect("spawning task");
        drop(rt);
        (child, util::gettid())
    })
    .join()
    .expect("runtime thread");
    wait_thread_gone(tid);
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(
        child.try_wait().expect("try_wait without a runtime"),
        None,
        "the child died when its runtime's threads exited"
    );
    child.start_kill().expect("start_kill without a runtime");
    let mut status = None;
    util::poll_until(Duration::from_secs(10), || {
        status = child.try_wait().expect("try_wait without a runtime");
        status.is_some()
    });
    let status = status.expect("the killed child never ended");
    assert_eq!(status.signal(), Some(libc::SIGKILL), "{status:?}");
    assert_eq!(child.id(), None);
}

/// A `Child` can outlive the runtime it was spawned on: dropped later,
/// outside any runtime, it is still handed to the reaper (and killed with
/// kill_on_drop).
#[test]
fn child_dropped_after_its_runtime_is_gone() {
    let _guard = util::shared();
    for kill_on_drop in [false, true] {
        let rt = current_thread();
        let (hold_r, hold_w) = util::pipe();
        let child = rt.block_on(async {
            let mut cmd = probe_cmd(["cat"]);
            cmd.stdin(Stdio::from(hold_r))
                .stdout(Stdio::null())
                .kill_on_drop(kill_on_drop);
            spawned(cmd.spawn().await)
        });
        let info = proc_of(&child);
        drop(rt);
        drop(child);
        if kill_on_drop {
            let gone = util::poll_until(SETTLE, || !still_there(&info));
            if !gone {
                reap_leftovers(std::slice::from_ref(&info));
            }
            assert!(
                gone,
                "kill_on_drop: the child dropped after its runtime still runs"
            );
        } else {
            std::thread::sleep(Duration::from_millis(100));
            assert!(
                proc_stat(info.pid).is_some_and(|p| p.start == info.start && p.state != 'Z'),
                "the child dropped after its runtime, without kill_on_drop, no longer runs"
            );
        }
        drop(hold_w);
        let gone = util::poll_until(SETTLE, || !still_there(&info));
        if !gone {
            reap_leftovers(std::slice::from_ref(&info));
        }
        assert!(
            gone,
            "kill_on_drop({kill_on_drop}): the child dropped after its runtime was never reaped"
        );
    }
}

/// Waiting with another runtime for a child spawned on a runtime that is
/// gone: its pidfd was registered with the dead runtime's reactor. As
/// observed, `wait()` then fails ("A Tokio 1.x context was found, but it is
/// being shutdown") unless the child has already ended; it must not hang
/// or lose the status, which `try_wait` still gets.
#[test]
fn wait_on_another_runtime_after_the_first_is_gone() {
    let _guard = util::shared();
    let rt = current_thread();
    let mut child = rt.block_on(async {
        let mut cmd = probe_cmd(["sleep", "0.2"]);
        cmd.stdin(Stdio::null());
        spawned(cmd.spawn().await)
    });
    drop(rt);
    let result =
        current_thread().block_on(async { timeout(Duration::from_secs(10), child.wait()).await });
    println!("wait() on a second runtime: {result:?}");
    match result.expect("wait() on a second runtime hung") {
        Ok(status) => assert_eq!(status.code(), Some(0), "{status:?}"),
        Err(_) => {
            let mut status = None;
            util::poll_until(Duration::from_secs(10), || {
                status = child.try_wait().expect("try_wait");
                status.is_some()
            });
            let status = status.expect("the child never ended");
            assert_eq!(status.code(), Some(0), "{status:?}");
        }
    }
    assert_eq!(child.id(), None);
}

/// With a private pool, dropping the last `Arc<Pool>` stops its threads
/// and so delivers the pdeathsig of the children they started.
async fn pdeathsig_when_the_private_pool_is_dropped() {
    let pool = Arc::new(Pool::new(1).expect("Pool::new(1)"));
    let mut cmd = sleeper_with_pdeathsig();
    cmd.pool(Arc::clone(&pool));
    let mut child = spawned(cmd.spawn().await);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        child.try_wait().expect("try_wait"),
        None,
        "the child died while its pool lived"
    );
    drop(cmd);
    assert_eq!(
        Arc::strong_count(&pool),
        1,
        "something else still holds the pool"
    );
    drop(pool);
    let status = timeout(Duration::from_secs(10), child.wait())
        .await
        .expect("the child outlived its dropped pool")
        .expect("wait");
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?}");
}

// ---------------------------------------------------------------------------
// Living with tokio::process and std::process

/// 200 children each from fastspawn::tokio (codes 1..=60), tokio::process
/// (70..=129) and std::process on plain threads (140..=199), all at once,
/// plus fastspawn children dropped unwaited (left to the reaper): every
/// library gets exactly its own children's statuses.
async fn three_libraries_at_once() {
    const N: usize = 200;
    let fast_code = |i: usize| 1 + (i % 60) as i32;
    let tokio_code = |i: usize| 70 + (i % 60) as i32;
    let std_code = |i: usize| 140 + (i % 60) as i32;

    let std_threads: Vec<_> = (0..4)
        .map(|t| {
            std::thread::spawn(move || {
                (t * N / 4..(t + 1) * N / 4)
                    .map(|i| {
                        let status = util::std_probe_cmd(["exit", &std_code(i).to_string()])
                            .stdin(std::process::Stdio::null())
                            .status();
                        match status {
                            Ok(s) if s.code() == Some(std_code(i)) => Ok(()),
                            Ok(s) => Err(format!("std child {i}: {s:?}, expected {}", std_code(i))),
                            Err(e) => Err(format!("std child {i}: {e}")),
                        }
                    })
                    .collect::<Vec<Result<(), String>>>()
            })
        })
        .collect();

    let mut set = JoinSet::new();
    for i in 0..N {
        set.spawn(async move {
            let mut cmd = probe_cmd(["exit", &fast_code(i).to_string()]);
            cmd.stdin(Stdio::null());
            let result = match cmd.spawn().await {
                Ok(mut child) => child
                    .wait()
                    .await
                    .map(|s| s.code())
                    .map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            };
            match result {
                Ok(code) if code == Some(fast_code(i)) => Ok(()),
                Ok(code) => Err(format!(
                    "fastspawn child {i}: {code:?}, expected {}",
                    fast_code(i)
                )),
                Err(e) => Err(format!("fastspawn child {i}: {e}")),
            }
        });
        set.spawn(async move {
            let status = tokio::process::Command::new(probe())
                .args(["exit", &tokio_code(i).to_string()])
                .stdin(std::process::Stdio::null())
                .status()
                .await;
            match status {
                Ok(s) if s.code() == Some(tokio_code(i)) => Ok(()),
                Ok(s) => Err(format!(
                    "tokio child {i}: {s:?}, expected {}",
                    tokio_code(i)
                )),
                Err(e) => Err(format!("tokio child {i}: {e}")),
            }
        });
        if i % 4 == 0 {
            set.spawn(async move {
                let mut cmd = probe_cmd(["exit", "0"]);
                cmd.stdin(Stdio::null());
                drop(
                    cmd.spawn()
                        .await
                        .map_err(|e| format!("dropped fastspawn child: {e}"))?,
                );
                Ok(())
            });
        }
    }
    let mut errors: Vec<String> = set
        .join_all()
        .await
        .into_iter()
        .filter_map(Result::err)
        .collect();
    let std_results = tokio::task::spawn_blocking(move || {
        std_threads
            .into_iter()
            .flat_map(|t| t.join().expect("std thread"))
            .collect::<Vec<_>>()
    })
    .await
    .expect("joining the std threads");
    assert_eq!(std_results.len(), N);
    errors.extend(std_results.into_iter().filter_map(Result::err));
    assert!(
        errors.is_empty(),
        "{} children got a wrong status: {errors:#?}",
        errors.len()
    );
    assert_no_zombies_soon("after three libraries").await;
}
