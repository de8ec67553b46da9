//! The spawner pool used synchronously: `Pool::new` and `threads()`,
//! dropping a pool joins its threads (and fires the pdeathsig of the
//! children they started), and `Pool::spawn_many` (results in order, every
//! child with its own arguments and environment, spawned by the pool's
//! threads and not by the caller).
//!
//! The variants and their expected output are shared with the async tests
//! of `Command::spawn_many` (`asynchronous.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::time::Duration;

use fastspawn::{Child, Pool, Stdio, Variant};

use crate::util::{self, probe, probe_cmd};

/// How long a test waits for something that should happen at once.
pub const SETTLE: Duration = Duration::from_secs(5);

/// How many children a `spawn_many` batch starts.
pub const BATCH: usize = 1000;

/// Variant `i` of a batch of `fastspawn-probe args`: its own argument, except
/// every 7th variant, which changes nothing (the library reuses one prepared
/// command for those).
pub fn arg_variant(i: usize) -> Variant {
    if i.is_multiple_of(7) {
        Variant::new()
    } else {
        Variant::new().arg(format!("arg-{i}"))
    }
}

/// What child `i` of an [`arg_variant`] batch prints.
pub fn expected_args(i: usize) -> String {
    let mut text = format!("{}\nargs\n", probe().display());
    if !i.is_multiple_of(7) {
        text.push_str(&format!("arg-{i}\n"));
    }
    text
}

/// The base command of an environment batch: `fastspawn-probe env` with
/// two variables of its own.
pub fn env_base() -> fastspawn::Command {
    let mut cmd = probe_cmd(["env"]);
    cmd.env("FASTSPAWN_BASE", "base")
        .env("FASTSPAWN_WHO", "base")
        .stdin(Stdio::null())
        .stdout(Stdio::piped());
    cmd
}

/// Variant `i` of an environment batch: every 5th changes nothing; the
/// others add `FASTSPAWN_VARIANT=i`, and the odd ones also override the
/// base command's `FASTSPAWN_WHO`.
pub fn env_variant(i: usize) -> Variant {
    if i.is_multiple_of(5) {
        return Variant::new();
    }
    let variant = Variant::new().env("FASTSPAWN_VARIANT", i.to_string());
    if i % 2 == 1 {
        variant.env("FASTSPAWN_WHO", format!("variant-{i}"))
    } else {
        variant
    }
}

/// Checks what child `i` of an [`env_variant`] batch printed.
pub fn check_env(i: usize, stdout: &[u8]) {
    let text = String::from_utf8_lossy(stdout);
    let vars: BTreeMap<&str, &str> = text
        .lines()
        .filter_map(|line| line.split_once('='))
        .filter(|(k, _)| k.starts_with("FASTSPAWN_"))
        .collect();
    let mut expected = BTreeMap::from([("FASTSPAWN_BASE", "base".to_owned())]);
    let who = if !i.is_multiple_of(5) && i % 2 == 1 {
        format!("variant-{i}")
    } else {
        "base".to_owned()
    };
    expected.insert("FASTSPAWN_WHO", who);
    if !i.is_multiple_of(5) {
        expected.insert("FASTSPAWN_VARIANT", i.to_string());
    }
    let expected: BTreeMap<&str, &str> = expected.iter().map(|(k, v)| (*k, v.as_str())).collect();
    // FASTSPAWN_PROBE may be set by whoever runs the tests.
    let vars: BTreeMap<&str, &str> = vars
        .into_iter()
        .filter(|(k, _)| *k != "FASTSPAWN_PROBE")
        .collect();
    assert_eq!(vars, expected, "child {i} saw another environment");
}

/// The exit code child `i` of an exit batch is asked for.
pub fn exit_code(i: usize) -> i32 {
    (i % 200) as i32
}

/// The spawner threads (`fastspawn-N`) that are not in `before`, once there
/// are at least `count` of them: a new thread names itself after it has
/// started, so right after `Pool::new` some may still have their creator's
/// name.
pub fn new_spawner_threads(before: &[(i32, String)], count: usize) -> Vec<(i32, String)> {
    let mut found = Vec::new();
    util::poll_until(SETTLE, || {
        found = util::threads()
            .into_iter()
            .filter(|(tid, name)| {
                util::is_spawner_name(name) && !before.iter().any(|b| b.0 == *tid)
            })
            .collect();
        found.len() >= count
    });
    found
}

fn unwrap_all(results: Vec<fastspawn::Result<Child>>) -> Vec<Child> {
    results
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.unwrap_or_else(|e| panic!("child {i} did not start: {e}")))
        .collect()
}

/// Waits until the `Threads:` count of /proc/self/status is `count_before`
/// plus `pool` (the pool's threads alive), give or take the threads that
/// are neither the pool's nor in `before` (test threads that the harness
/// starts and ends meanwhile). Returns whether it got there and what it
/// saw last.
fn threads_match(
    before: &[(i32, String)],
    count_before: usize,
    pool_tids: &[i32],
    pool: usize,
) -> (bool, String) {
    let mut seen = String::new();
    let ok = util::poll_until(SETTLE, || {
        let (now, count) = util::thread_snapshot();
        let has = |list: &[(i32, String)], tid: i32| list.iter().any(|t| t.0 == tid);
        let came: Vec<&(i32, String)> = now
            .iter()
            .filter(|t| !has(before, t.0) && !pool_tids.contains(&t.0))
            .collect();
        let went: Vec<&(i32, String)> = before.iter().filter(|t| !has(&now, t.0)).collect();
        let expected = (count_before + pool + came.len()).checked_sub(went.len());
        seen = format!(
            "{count} with {pool} pool threads expected, other threads started meanwhile \
             {came:?}, ended meanwhile {went:?}"
        );
        expected == Some(count)
    });
    (ok, seen)
}

#[test]
fn new_pool_has_its_threads_and_drop_joins_them() {
    let _guard = util::exclusive();
    let (before, count_before) = util::thread_snapshot();

    let pool = Pool::new(3).expect("Pool::new(3)");
    assert_eq!(pool.threads(), 3);
    assert!(format!("{pool:?}").contains('3'), "{pool:?}");
    let mine = new_spawner_threads(&before, 3);
    let names: BTreeSet<&str> = mine.iter().map(|(_, name)| name.as_str()).collect();
    assert_eq!(
        names,
        BTreeSet::from(["fastspawn-0", "fastspawn-1", "fastspawn-2"]),
        "the threads Pool::new(3) started: {mine:?}"
    );
    let pool_tids: Vec<i32> = mine.iter().map(|(tid, _)| *tid).collect();
    let (ok, seen) = threads_match(&before, count_before, &pool_tids, 3);
    assert!(
        ok,
        "Threads: {count_before} before Pool::new(3), then {seen}"
    );

    drop(pool);
    let gone = |tid: i32| !std::path::Path::new(&format!("/proc/self/task/{tid}")).exists();
    assert!(
        util::poll_until(SETTLE, || mine.iter().all(|(tid, _)| gone(*tid))),
        "threads of the dropped pool still there: {:?}",
        mine.iter()
            .filter(|(tid, _)| !gone(*tid))
            .collect::<Vec<_>>()
    );
    let (ok, seen) = threads_match(&before, count_before, &pool_tids, 0);
    assert!(
        ok,
        "Threads: {count_before} before Pool::new(3), after dropping it {seen}"
    );

    // At least one thread, whatever was asked.
    let (before, _) = util::thread_snapshot();
    let pool = Pool::new(0).expect("Pool::new(0)");
    assert_eq!(pool.threads(), 1);
    let mine = new_spawner_threads(&before, 1);
    assert_eq!(mine.len(), 1, "{mine:?}");
    assert_eq!(mine[0].1, "fastspawn-0");
    drop(pool);
    assert!(util::poll_until(SETTLE, || gone(mine[0].0)));
}

/// A private pool of two threads starts 1000 children, each with its own
/// argument, in order, then a batch with per-child environment variables
/// and one with per-child exit codes. Every child was created by one of the
/// pool's two threads (see `util::parent_threads`), none by the caller.
#[test]
fn spawn_many_on_a_private_pool() {
    let _guard = util::exclusive();
    let (before, _) = util::thread_snapshot();
    let pool = Pool::new(2).expect("Pool::new(2)");
    let spawners: BTreeSet<i32> = new_spawner_threads(&before, 2)
        .iter()
        .map(|(tid, _)| *tid)
        .collect();
    assert_eq!(spawners.len(), 2, "{spawners:?}");

    let mut base = probe_cmd(["args"]);
    base.stdin(Stdio::null()).stdout(Stdio::piped());
    let children = unwrap_all(pool.spawn_many(&base, (0..BATCH).map(arg_variant)));
    assert_eq!(children.len(), BATCH);
    if util::have_thread_children() {
        // Zombies stay listed until reaped: nothing is waited for yet.
        let pids: Vec<i32> = children.iter().map(|c| c.id() as i32).collect();
        let parents = util::parent_threads(&pids);
        for (i, child) in children.iter().enumerate() {
            let parent = parents.get(&(child.id() as i32));
            assert!(
                parent.is_some_and(|tid| spawners.contains(tid)),
                "child {i} (pid {}) was created by thread {parent:?}, not by the pool's \
                 threads {spawners:?} (the caller is {})",
                child.id(),
                util::gettid()
            );
        }
    } else {
        util::skip("no /proc/self/task/TID/children: which thread spawned is not checked");
    }
    for (i, child) in children.into_iter().enumerate() {
        let out = child.wait_with_output().expect("wait_with_output");
        assert!(out.status.success(), "child {i}: {out:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            expected_args(i),
            "child {i}"
        );
    }
    // The base command is unchanged and still usable.
    assert_eq!(base.get_args().collect::<Vec<_>>(), [OsStr::new("args")]);
    let out = base
        .spawn()
        .expect("spawn")
        .wait_with_output()
        .expect("wait");
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected_args(0));

    let children = unwrap_all(pool.spawn_many(&env_base(), (0..300).map(env_variant)));
    for (i, child) in children.into_iter().enumerate() {
        let out = child.wait_with_output().expect("wait_with_output");
        assert!(out.status.success(), "child {i}: {out:?}");
        check_env(i, &out.stdout);
    }

    let mut base = probe_cmd(["exit"]);
    base.stdin(Stdio::null());
    let variants = (0..BATCH).map(|i| Variant::new().arg(exit_code(i).to_string()));
    let children = unwrap_all(pool.spawn_many(&base, variants));
    for (i, mut child) in children.into_iter().enumerate() {
        let status = child.wait().expect("wait");
        assert_eq!(status.code(), Some(exit_code(i)), "child {i}: {status:?}");
    }
    drop(pool);
    util::assert_no_zombies("after spawn_many on a private pool");
}

/// On the global pool too, every child is created by a `fastspawn-N`
/// thread and not by the calling thread.
#[test]
fn spawn_many_runs_on_the_global_pool_threads() {
    let _guard = util::shared();
    if !util::have_thread_children() {
        util::skip("no /proc/self/task/TID/children");
        return;
    }
    let mut base = probe_cmd(["sleep", "30"]);
    base.stdin(Stdio::null());
    let mut children = unwrap_all(Pool::global().spawn_many(&base, (0..8).map(|_| Variant::new())));
    let pids: Vec<i32> = children.iter().map(|c| c.id() as i32).collect();
    let parents = util::parent_threads(&pids);
    let me = util::gettid();
    for child in &children {
        let tid = parents.get(&(child.id() as i32));
        let name = tid.and_then(|tid| util::thread_name(*tid));
        assert!(
            tid != Some(&me) && name.as_deref().is_some_and(util::is_spawner_name),
            "child {} was created by thread {tid:?} named {name:?} (the caller is {me})",
            child.id()
        );
    }
    for child in &mut children {
        child.kill().expect("kill");
        assert_eq!(child.wait().expect("wait").signal(), Some(libc::SIGKILL));
    }
}

/// Each variant gets its own result, in place: variants with a NUL byte
/// fail with `InvalidInput` and the others start; a program that does not
/// exist fails once per variant; no variants, no results.
#[test]
fn spawn_many_reports_each_failure_in_place() {
    let _guard = util::shared();
    let nul = OsStr::from_bytes(b"a\0b");
    let mut base = probe_cmd(["args"]);
    base.stdin(Stdio::null()).stdout(Stdio::piped());
    let bad = [3, 17, 18];
    let variants = (0..20).map(|i| {
        if bad.contains(&i) {
            Variant::new().arg(nul)
        } else {
            arg_variant(i)
        }
    });
    let results = Pool::global().spawn_many(&base, variants);
    assert_eq!(results.len(), 20);
    for (i, result) in results.into_iter().enumerate() {
        match result {
            Err(err) => {
                assert!(bad.contains(&i), "child {i} failed: {err}");
                assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{err}");
            }
            Ok(child) => {
                assert!(!bad.contains(&i), "child {i} with a NUL byte started");
                let out = child.wait_with_output().expect("wait_with_output");
                assert_eq!(String::from_utf8_lossy(&out.stdout), expected_args(i));
            }
        }
    }

    let missing = fastspawn::Command::new(format!("/nonexistent/{}", util::unique_name("pool")));
    let results = Pool::global().spawn_many(&missing, (0..5).map(arg_variant));
    assert_eq!(results.len(), 5);
    for result in results {
        let err = result.expect_err("a program that does not exist");
        assert_eq!(err.kind(), io::ErrorKind::NotFound, "{err}");
    }

    assert!(Pool::global().spawn_many(&base, []).is_empty());
}

/// The kernel sends a child's pdeathsig when the thread that created it
/// exits: children started by a pool get it when the pool is dropped (its
/// threads exit), not before.
#[test]
fn pdeathsig_fires_when_the_pool_is_dropped() {
    let _guard = util::shared();
    let pool = Pool::new(2).expect("Pool::new(2)");
    let mut base = probe_cmd(["sleep", "30"]);
    base.pdeathsig(libc::SIGTERM).stdin(Stdio::null());
    let mut children = unwrap_all(pool.spawn_many(&base, (0..4).map(|_| Variant::new())));
    std::thread::sleep(Duration::from_millis(200));
    for child in &mut children {
        let status = child.try_wait().expect("try_wait");
        assert_eq!(
            status,
            None,
            "child {} ended while its pool lived",
            child.id()
        );
    }
    drop(pool);
    for child in &mut children {
        let status = child.wait().expect("wait");
        assert_eq!(
            status.signal(),
            Some(libc::SIGTERM),
            "child {} after its pool was dropped: {status:?}",
            child.id()
        );
    }
}

/// The cgroup v1 `pids` hierarchy, where a test can cap a process's tasks.
const PIDS: &str = "/sys/fs/cgroup/pids";
const THREAD_LIMIT_HELPER: &str = "FASTSPAWN_TEST_POOL_THREAD_LIMIT_HELPER";
const THREAD_LIMIT_DIR: &str = "FASTSPAWN_TEST_POOL_THREAD_LIMIT_DIR";

/// A pool whose threads cannot start is an error, not a panic, and leaves
/// nothing running: the global pool (`Pool::try_global`, and
/// `fastspawn::tokio::Command`, which spawns on it) when no thread can
/// start, a pool of three when only one can (the one started is joined);
/// once threads are free again the global pool starts. Made real in a copy
/// of the test binary put in a cgroup v1 `pids` group capped at the tasks
/// it has (the global pool must not have started in that process yet).
#[test]
fn a_thread_limit_is_an_error_and_leaves_no_thread() {
    let _guard = util::shared();
    let writable = std::fs::metadata(format!("{PIDS}/cgroup.procs")).is_ok()
        // SAFETY: access() reads a NUL-terminated path.
        && unsafe { libc::access(c"/sys/fs/cgroup/pids".as_ptr(), libc::W_OK) } == 0;
    if !writable {
        util::skip(format_args!(
            "no writable cgroup v1 pids controller at {PIDS} (needs root and that mount): cannot make a thread start fail"
        ));
        return;
    }
    let dir = format!("{PIDS}/fastspawn-pool-test-{}", std::process::id());
    std::fs::create_dir(&dir).expect("create the pids cgroup");
    let exe = std::env::current_exe().expect("current_exe");
    let result = std::panic::catch_unwind(|| {
        util::run_helper_test(
            &exe,
            "pool::thread_limit_helper",
            "thread-limit: ok",
            |cmd| {
                cmd.env(THREAD_LIMIT_HELPER, "1")
                    .env(THREAD_LIMIT_DIR, &dir)
                    .env("FASTSPAWN_PROBE", util::probe());
            },
        )
    });
    // The helper has exited: its group is empty and can go.
    std::fs::remove_dir(&dir).expect("remove the pids cgroup");
    print!(
        "{}",
        result.unwrap_or_else(|e| std::panic::resume_unwind(e))
    );
}

/// The tasks (threads) of this process.
fn tasks() -> usize {
    std::fs::read_dir("/proc/self/task")
        .expect("/proc/self/task")
        .count()
}

/// Waits until the process has `expected` tasks (a joined thread leaves
/// `/proc/self/task` just after its join returns); fails after `SETTLE`.
fn settle_tasks(expected: usize, what: &str) {
    let start = std::time::Instant::now();
    while tasks() != expected {
        assert!(
            start.elapsed() < SETTLE,
            "{what}: {} tasks, not {expected}",
            tasks()
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
#[ignore = "started by a_thread_limit_is_an_error_and_leaves_no_thread in a capped cgroup"]
fn thread_limit_helper() {
    let Some(dir) = std::env::var_os(THREAD_LIMIT_DIR) else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    let cap = |max: &str| std::fs::write(dir.join("pids.max"), max).expect("write pids.max");
    std::fs::write(dir.join("cgroup.procs"), std::process::id().to_string())
        .expect("join the pids cgroup");
    #[cfg(feature = "tokio")]
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a current-thread runtime starts no thread");

    // No thread can start.
    let before = tasks();
    cap(&before.to_string());
    let err = Pool::try_global().expect_err("no spawner thread can start");
    assert_eq!(err.raw_os_error(), Some(libc::EAGAIN), "{err}");
    #[cfg(feature = "tokio")]
    {
        let err = runtime
            .block_on(fastspawn::tokio::Command::new(probe()).arg("exit").spawn())
            .expect_err("the tokio spawn needs the global pool");
        assert_eq!(err.program(), probe().as_os_str());
        assert_eq!(err.raw_os_error(), Some(libc::EAGAIN), "{err}");
        assert!(
            err.to_string()
                .contains("cannot start the spawner pool's threads"),
            "{err}"
        );
    }
    settle_tasks(before, "a failed start leaves no thread");

    // One thread can start, not three: the one started is stopped.
    cap(&(before + 1).to_string());
    let err = Pool::new(3).expect_err("only one of three threads can start");
    assert_eq!(err.raw_os_error(), Some(libc::EAGAIN), "{err}");
    settle_tasks(before, "the thread started was joined");

    // Threads free again: the global pool starts, and is the same pool after.
    cap("max");
    let pool = Pool::try_global().expect("the global pool starts once threads are free");
    assert!(std::ptr::eq(pool, Pool::global()));
    settle_tasks(before + pool.threads(), "the global pool's threads run");
    let (tx, rx) = std::sync::mpsc::channel();
    pool.spawn(probe_cmd(["exit", "3"]), move |child| {
        let _ = tx.send(child.and_then(|mut c| c.wait()));
    });
    let status = rx
        .recv_timeout(SETTLE)
        .expect("the pool answers")
        .expect("spawn + wait");
    assert_eq!(status.code(), Some(3));
    #[cfg(feature = "tokio")]
    let status = runtime
        .block_on(async {
            fastspawn::tokio::Command::new(probe())
                .args(["exit", "5"])
                .status()
                .await
        })
        .expect("the tokio spawn works once the pool runs");
    #[cfg(feature = "tokio")]
    {
        assert_eq!(status.code(), Some(5));
        orphans_wait_for_the_reaper(&runtime, &cap);
    }
    leftover_cgroups_wait_for_the_cleaner(&cap);
    println!("thread-limit: ok");
}

/// A contained child dropped while its tree runs and the cgroup cleaner's
/// thread cannot start keeps its cgroup until the next such drop starts
/// the cleaner, which removes both.
fn leftover_cgroups_wait_for_the_cleaner(cap: &dyn Fn(&str)) {
    let mut sleeper = fastspawn::Command::new("sh");
    // The shell leaves a sleeper in the tree (forked before the cap).
    sleeper
        .args(["-c", "sleep 0.2 & exit 0"])
        .contain(true)
        .require_contained(true);
    let mut first = match sleeper.spawn() {
        Ok(child) => child,
        Err(err) => {
            util::skip(format_args!(
                "the cleaner under a thread limit: no writable cgroup v2 here: {err}"
            ));
            return;
        }
    };
    first.wait().expect("wait");
    let first_dir = first.cgroup_path().expect("contained").to_owned();
    cap(&tasks().to_string());
    drop(first);
    std::thread::sleep(Duration::from_millis(400));
    assert!(
        first_dir.exists(),
        "no cleaner runs under the cap: {first_dir:?} stays"
    );
    cap("max");
    let mut second = sleeper.spawn().expect("a second contained child");
    second.wait().expect("wait");
    let second_dir = second.cgroup_path().expect("contained").to_owned();
    drop(second);
    let clean = util::poll_until(SETTLE, || !first_dir.exists() && !second_dir.exists());
    assert!(
        clean,
        "the cleaner, started by the second drop, removes both: {first_dir:?} {second_dir:?}"
    );
}

/// The state letter of `/proc/<pid>/stat`, `None` once the pid is gone.
#[cfg(feature = "tokio")]
fn proc_state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(") ")
        .and_then(|(_, rest)| rest.chars().next())
}

/// Waits up to `SETTLE` for `pid`'s state to be `want` (`None`: gone).
#[cfg(feature = "tokio")]
fn settle_state(pid: u32, want: Option<char>, what: &str) {
    let start = std::time::Instant::now();
    while proc_state(pid) != want {
        assert!(
            start.elapsed() < SETTLE,
            "{what}: pid {pid} is {:?}",
            proc_state(pid)
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// An async child dropped while the background reaper's thread cannot
/// start waits (a zombie) for the next orphan to start it, which reaps
/// both: the first failed start is not remembered as a start.
#[cfg(feature = "tokio")]
fn orphans_wait_for_the_reaper(runtime: &tokio::runtime::Runtime, cap: &dyn Fn(&str)) {
    let _entered = runtime.enter();
    let spawn = |secs: &str| {
        runtime
            .block_on(
                fastspawn::tokio::Command::new(probe())
                    .args(["sleep", secs])
                    .spawn(),
            )
            .expect("spawn a sleeper")
    };
    let first = spawn("0.2");
    let first_pid = first.id().expect("running");
    cap(&tasks().to_string());
    drop(first);
    settle_state(first_pid, Some('Z'), "the orphan exits unreaped");
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(
        proc_state(first_pid),
        Some('Z'),
        "no reaper runs under the cap"
    );
    cap("max");
    let second = spawn("0.05");
    let second_pid = second.id().expect("running");
    drop(second);
    settle_state(
        first_pid,
        None,
        "the first orphan is reaped once the reaper starts",
    );
    settle_state(second_pid, None, "the second orphan is reaped");
}

const FORK_HELPER: &str = "FASTSPAWN_TEST_FORK_HELPER";

/// A child forked after the global pool, the exit ring and a pool of the
/// program's own were made (Python's `os.fork()`, `multiprocessing`'s fork
/// start method, pre-forking servers) has none of their threads, and
/// shares the ring's queues with its parent: the global pool and the
/// rings are made anew there, and the program's own pool refuses loudly
/// (a panic naming the cause) rather than queue a job no thread takes.
/// The parent's pool and ring work on after the child used its own. Run
/// in a helper process of its own, so that the fork copies no other
/// test's threads.
#[test]
fn a_forked_child_makes_its_own_pool_and_exit_ring() {
    let exe = std::env::current_exe().expect("current_exe");
    let out = util::run_helper_test(&exe, "pool::fork_helper", "fork: ok", |cmd| {
        cmd.env(FORK_HELPER, "1")
            .env("FASTSPAWN_PROBE", util::probe());
    });
    print!("{out}");
}

/// Spawns `probe exit 7` on the global pool and waits for it (10 s at most
/// for the pool to answer): its exit code, or why not.
fn on_global_pool() -> Result<i32, String> {
    let (tx, rx) = std::sync::mpsc::channel();
    Pool::global().spawn(probe_cmd(["exit", "7"]), move |child| {
        let _ = tx.send(child);
    });
    let mut child = rx
        .recv_timeout(Duration::from_secs(10))
        .map_err(|e| format!("the global pool did not answer: {e}"))?
        .map_err(|e| e.to_string())?;
    if fastspawn::exit_ring::ExitRing::get().is_some() {
        let exited = fastspawn::exit_ring::ExitRing::wait_timeout(&child, Duration::from_secs(10))
            .map_err(|e| format!("the thread's ring: {e}"))?;
        if !exited {
            return Err("the thread's ring did not see the exit".into());
        }
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    status.code().ok_or_else(|| format!("killed: {status:?}"))
}

#[test]
#[ignore = "started by a_forked_child_makes_its_own_pool_and_exit_ring"]
fn fork_helper() {
    if std::env::var_os(FORK_HELPER).is_none() {
        return;
    }
    let own = Pool::new(1).expect("a pool of one thread");
    assert_eq!(on_global_pool(), Ok(7), "before the fork");
    let generation = fastspawn::per_process::generation();
    // SAFETY: the child only runs code that is fork-safe with glibc
    // (malloc's locks are reset by its atfork handlers; the library's
    // process-wide values are made anew), and leaves with `_exit`.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork: {}", io::Error::last_os_error());
    if pid == 0 {
        let code = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            assert_eq!(fastspawn::per_process::generation(), generation + 1);
            assert_eq!(on_global_pool(), Ok(7), "in the forked child");
            let refused = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                own.run(|| {});
            }))
            .expect_err("the parent's pool refuses a job in the child");
            let message = refused
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| refused.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            assert!(message.contains("forked"), "{message}");
            // Dropped here: no thread of the parent's to join.
            drop(own);
        }))
        .map_or(1, |()| 0);
        // SAFETY: ends the forked child at once, running no atexit handler
        // of the parent's.
        unsafe { libc::_exit(code) };
    }
    let mut status = 0;
    // SAFETY: waits for the child forked above.
    let waited = unsafe { libc::waitpid(pid, &mut status, 0) };
    assert_eq!(waited, pid);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "the forked child failed (status {status:#x})"
    );
    assert_eq!(fastspawn::per_process::generation(), generation);
    assert_eq!(on_global_pool(), Ok(7), "in the parent after the child");
    let (tx, rx) = std::sync::mpsc::channel();
    own.run(move || {
        let _ = tx.send(());
    });
    rx.recv_timeout(Duration::from_secs(10))
        .expect("the parent's own pool still runs jobs");
    println!("fork: ok");
}
