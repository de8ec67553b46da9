//! Process trees: `Command::contain` and the `Child` tree methods, with
//! trees whose grandchildren background themselves, double-fork and call
//! `setsid`.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process;
use std::time::{Duration, Instant};

use fastspawn::{Child, Command, Containment, Engine, Stdio};

use crate::util::{self, TempDir};

engine_tests!(shared: contained_on_every_engine);

/// Every engine that can place a child in a cgroup starts a contained one
/// inside its cgroup (clone3 at creation, the others by writing
/// `cgroup.procs` before the `execve`); posix_spawn refuses, naming it.
fn contained_on_every_engine(engine: Engine) {
    if !cgroups_usable() {
        return;
    }
    let mut cmd = Command::new("cat");
    cmd.arg("/proc/self/cgroup")
        .contain(true)
        .require_contained(true)
        .engine(engine)
        .stdout(Stdio::piped());
    if engine == Engine::PosixSpawn {
        let err = cmd.spawn().unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::Unsupported);
        assert!(err.to_string().contains("cannot apply cgroup"), "{err}");
        return;
    }
    let child = cmd.spawn().unwrap();
    assert_eq!(child.engine(), engine);
    let name = child
        .cgroup_path()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.lines()
            .any(|l| l.starts_with("0::") && l.ends_with(&format!("/{name}"))),
        "{engine}: {text}"
    );
}

/// A shell script that leaves three kinds of escapees, prints the pids of
/// every process it started, then `ready`, and waits:
/// - a grandchild in a new session (`setsid`) with a child of its own;
/// - a double-forked grandchild whose parent exits at once (an orphan);
/// - a plain background grandchild.
const DAEMONIZING: &str = r#"
setsid sh -c 'sleep 300 & echo $!; echo $$; exec sleep 300' &
( sleep 300 & echo $! ) &
sleep 300 &
echo $!
sleep 0.2
echo ready
wait
"#;

/// Whether this machine lets us make cgroups; prints a skip line if not.
fn cgroups_usable() -> bool {
    let mut cmd = Command::new("true");
    cmd.contain(true).require_contained(true);
    match cmd.status() {
        Ok(_) => true,
        Err(err) => {
            util::skip(format_args!("no writable cgroup v2 here: {err}"));
            false
        }
    }
}

fn own_cgroup_dir() -> PathBuf {
    let cgroup = std::fs::read_to_string("/proc/self/cgroup").unwrap();
    let own = cgroup
        .lines()
        .find_map(|l| l.strip_prefix("0::"))
        .expect("a cgroup v2 line");
    let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").unwrap();
    let point = mountinfo
        .lines()
        .find(|l| {
            l.split(" - ")
                .nth(1)
                .is_some_and(|r| r.starts_with("cgroup2 "))
        })
        .and_then(|l| l.split(' ').nth(4))
        .expect("a cgroup2 mount");
    Path::new(point).join(own.trim_start_matches('/'))
}

/// A parent cgroup of one test's own (under this process's cgroup): spares
/// are shared by every command under the same parent, so a test that checks
/// which cgroup a command reuses must not share its parent with tests
/// running alongside. Removed on drop, once its children are.
struct PrivateParent(PathBuf);

impl PrivateParent {
    fn new(name: &str) -> PrivateParent {
        let path = own_cgroup_dir().join(format!("test-{name}-{}", process::id()));
        std::fs::create_dir(&path).unwrap();
        PrivateParent(path)
    }
}

impl Drop for PrivateParent {
    fn drop(&mut self) {
        let removed = util::poll_until(Duration::from_secs(5), || {
            std::fs::remove_dir(&self.0).is_ok() || !self.0.exists()
        });
        assert!(removed, "{:?} could not be removed", self.0);
    }
}

/// The pids a DAEMONIZING tree printed before `ready`.
fn read_pids(child: &mut Child) -> Vec<u32> {
    let out = child.stdout.take().expect("piped");
    let mut lines = BufReader::new(out).lines();
    let mut pids = Vec::new();
    for line in lines.by_ref() {
        let line = line.expect("read");
        if line == "ready" {
            break;
        }
        pids.push(line.trim().parse().expect("a pid"));
    }
    // Keep reading in the background so no writer blocks.
    std::thread::spawn(move || lines.for_each(drop));
    pids
}

fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// Alive and not a zombie.
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| s.get(s.rfind(')')? + 2..).map(|r| !r.starts_with('Z')))
        .unwrap_or(false)
}

fn session_of(pid: u32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat[stat.rfind(')')? + 2..].split(' ').nth(3)?.parse().ok()
}

fn assert_gone(pids: &[u32], what: &str) {
    // Killed grandchildren were re-parented to init, which reaps them.
    let gone = util::poll_until(Duration::from_secs(5), || pids.iter().all(|p| !alive(*p)));
    let left: Vec<_> = pids.iter().filter(|p| alive(**p)).collect();
    assert!(gone, "{what}: still in /proc: {left:?}");
}

#[test]
fn child_starts_in_a_cgroup_of_its_own_which_is_removed() {
    let _guard = util::shared();
    if !cgroups_usable() {
        return;
    }
    let parent = PrivateParent::new("own");
    let mut cmd = Command::new("cat");
    cmd.arg("/proc/self/cgroup")
        .contain(true)
        .contain_in(&parent.0)
        .stdout(Stdio::piped());
    let child = cmd.spawn().unwrap();
    assert_eq!(child.containment(), Some(Containment::Cgroup));
    let path = child.cgroup_path().unwrap().to_owned();
    assert!(path.starts_with(own_cgroup_dir()), "{path:?}");
    assert!(path.is_dir());
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let name = path.file_name().unwrap().to_str().unwrap();
    assert!(
        text.lines()
            .any(|l| l.starts_with("0::") && l.ends_with(&format!("/{name}"))),
        "{text}"
    );
    // Emptied, the cgroup is kept for the command's next spawn...
    assert!(path.is_dir(), "{path:?} not kept as a spare");
    let again = cmd.spawn().unwrap();
    assert_eq!(again.cgroup_path(), Some(path.as_path()));
    drop(again.wait_with_output().unwrap());
    // ...and removed with the command.
    drop(cmd);
    assert!(!path.exists(), "{path:?} left behind");
    drop(parent);
}

/// The files this process has open, as `/proc/self/fd` links.
fn open_files() -> Vec<PathBuf> {
    std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .collect()
}

/// Every spawn into a cgroup makes the kernel check write permission on
/// `cgroup.procs` of that cgroup and of the parent (the common ancestor
/// here), through the file's inode, which kernfs frees when nobody holds
/// it: the parent and the child's cgroup keep those files held (a perf
/// cost, ~3.5 µs per spawn, checked by `fastspawn bench tree`), and let
/// them go with the cgroups.
#[test]
fn contained_spawns_hold_cgroup_procs_while_the_cgroups_live() {
    let _guard = util::shared();
    if !cgroups_usable() {
        return;
    }
    let parent = PrivateParent::new("procs");
    let mut cmd = Command::new("true");
    cmd.contain(true).contain_in(&parent.0);
    let mut child = cmd.spawn().unwrap();
    child.wait().unwrap();
    let cgroup = child.cgroup_path().unwrap().to_owned();
    let held = open_files();
    for dir in [&parent.0, &cgroup] {
        let procs = dir.join("cgroup.procs");
        assert!(held.contains(&procs), "{procs:?} not held: {held:?}");
    }
    drop(child);
    drop(cmd);
    let left: Vec<PathBuf> = open_files()
        .into_iter()
        .filter(|f| f.starts_with(&parent.0))
        .collect();
    assert!(
        left.is_empty(),
        "still open after the command went: {left:?}"
    );
    drop(parent);
}

/// A task runner builds a command per task: the emptied cgroup of one
/// command's child serves the next command with the same parent and limits
/// (and only those), and goes when the last of them is dropped.
#[test]
fn commands_with_the_same_parent_share_spares() {
    let _guard = util::shared();
    if !cgroups_usable() {
        return;
    }
    let parent = PrivateParent::new("shared");
    let run = |cmd: &mut Command| {
        let mut child = cmd.spawn().unwrap();
        child.wait().unwrap();
        child.cgroup_path().unwrap().to_owned()
    };
    let mut first = Command::new("true");
    first.contain(true).contain_in(&parent.0);
    let path = run(&mut first);
    let mut second = Command::new("true");
    second.contain(true).contain_in(&parent.0);
    assert_eq!(run(&mut second), path, "not handed to another command");
    // Other limits: not the same parent, so a cgroup of its own.
    let mut limited = Command::new("true");
    limited
        .contain(true)
        .contain_in(&parent.0)
        .cpu_max(50_000, 100_000);
    match limited.spawn() {
        Ok(mut child) => {
            child.wait().unwrap();
            assert_ne!(child.cgroup_path(), Some(path.as_path()));
        }
        Err(err) => util::skip(format_args!("no cpu controller here: {err}")),
    }
    drop(limited);
    assert!(path.is_dir(), "{path:?} not kept while commands use it");
    drop(first);
    assert!(path.is_dir(), "{path:?} not kept while a command uses it");
    drop(second);
    assert!(!path.exists(), "{path:?} left behind");
    drop(parent);
}

#[test]
fn kill_tree_kills_daemonized_grandchildren() {
    let _guard = util::shared();
    if !cgroups_usable() {
        return;
    }
    // A parent of its own: the removal checked at the end must not wait
    // for other tests' commands, which would share the spares.
    let parent = PrivateParent::new("kill-tree");
    let mut cmd = Command::new("sh");
    cmd.args(["-c", DAEMONIZING])
        .contain(true)
        .contain_in(&parent.0)
        .stdout(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let pids = read_pids(&mut child);
    assert_eq!(pids.len(), 4, "{pids:?}");
    // The setsid'd grandchildren really left the child's session.
    let sid = session_of(child.id());
    assert_eq!(pids.iter().filter(|p| session_of(**p) != sid).count(), 2);
    let members = child.tree_pids().unwrap();
    for pid in pids.iter().chain([child.id()].iter()) {
        assert!(members.contains(pid), "{pid} not in {members:?}");
    }
    let start = Instant::now();
    child.kill_tree(libc::SIGKILL).unwrap();
    let status = child.wait_tree().unwrap();
    println!("kill_tree + wait_tree: {:?}", start.elapsed());
    assert_eq!(status.signal(), Some(libc::SIGKILL));
    assert_eq!(child.tree_pids().unwrap(), Vec::<u32>::new());
    assert_gone(&pids, "after kill_tree(SIGKILL)");
    let path = child.cgroup_path().unwrap().to_owned();
    drop(child);
    drop(cmd);
    assert!(!path.exists(), "{path:?} left behind");
    drop(parent);
}

#[test]
fn kill_tree_sends_other_signals_to_every_member() {
    let _guard = util::shared();
    if !cgroups_usable() {
        return;
    }
    let mut cmd = Command::new("sh");
    cmd.args(["-c", DAEMONIZING])
        .contain(true)
        .stdout(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let pids = read_pids(&mut child);
    child.kill_tree(libc::SIGTERM).unwrap();
    let status = child.wait_tree().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGTERM));
    assert_gone(&pids, "after kill_tree(SIGTERM)");
}

/// Members that exit one after another, and members that join while
/// `wait_tree` sleeps: it wakes on each exit (the members' pidfds), finds
/// the newcomers, and returns only once the last one is gone, without a
/// busy loop.
#[test]
fn wait_tree_follows_members_that_join_while_it_waits() {
    let _guard = util::shared();
    if !cgroups_usable() {
        return;
    }
    let dir = TempDir::new("wait-tree-join");
    let marker = dir.join("done");
    let script = format!(
        "(sleep 0.1; (sleep 0.1; (sleep 0.1; touch {}) &) &) & exit 0",
        marker.display()
    );
    let mut cmd = Command::new("sh");
    cmd.args(["-c", &script]).contain(true);
    let mut child = cmd.spawn().unwrap();
    assert!(child.wait().unwrap().success());
    let cpu_before = thread_cpu();
    child.wait_tree().unwrap();
    let spent = thread_cpu() - cpu_before;
    assert!(
        marker.exists(),
        "wait_tree returned before the last member ended"
    );
    assert!(child.tree_pids().unwrap().is_empty());
    assert!(
        spent < Duration::from_millis(30),
        "wait_tree used {spent:?} of CPU"
    );
}

#[test]
fn a_process_group_kill_leaves_the_escapees_that_kill_tree_gets() {
    let _guard = util::shared();
    if !cgroups_usable() {
        return;
    }
    // Side by side: the same tree, killed by process group (what setsid +
    // killpg gives) and then by kill_tree.
    let mut cmd = Command::new("sh");
    cmd.args(["-c", DAEMONIZING])
        .contain(true)
        .process_group(0)
        .stdout(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let pids = read_pids(&mut child);
    rustix::process::kill_process_group(
        rustix::process::Pid::from_raw(child.id() as i32).unwrap(),
        rustix::process::Signal::KILL,
    )
    .unwrap();
    child.wait().unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let escaped: Vec<_> = pids.iter().filter(|p| running(**p)).copied().collect();
    assert!(
        !escaped.is_empty(),
        "the setsid'd grandchildren should survive a group kill"
    );
    let members = child.tree_pids().unwrap();
    for pid in &escaped {
        assert!(members.contains(pid), "{pid} not in {members:?}");
    }
    child.kill_tree(libc::SIGKILL).unwrap();
    child.wait_tree().unwrap();
    assert_gone(&escaped, "kill_tree after the group kill");
}

#[test]
fn wait_tree_waits_for_backgrounded_grandchildren() {
    let _guard = util::shared();
    if !cgroups_usable() {
        return;
    }
    let dir = TempDir::new("wait-tree");
    let marker = dir.join("done");
    let script = format!("(sleep 0.3; touch {}) & exit 3", marker.display());
    let mut cmd = Command::new("sh");
    cmd.args(["-c", &script]).contain(true);
    let mut child = cmd.spawn().unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(3));
    assert!(!marker.exists(), "the grandchild should still run");
    assert!(!child.tree_pids().unwrap().is_empty());
    let cpu_before = thread_cpu();
    let status = child.wait_tree().unwrap();
    let spent = thread_cpu() - cpu_before;
    assert_eq!(status.code(), Some(3));
    assert!(
        marker.exists(),
        "wait_tree returned before the grandchild ended"
    );
    assert!(child.tree_pids().unwrap().is_empty());
    // It slept on cgroup.events: no busy loop.
    assert!(
        spent < Duration::from_millis(30),
        "wait_tree used {spent:?} of CPU"
    );
}

fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
    // utime and stime are fields 14 and 15 (11 and 12 after the comm).
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

fn cgroup_events(child: &Child) -> String {
    std::fs::read_to_string(child.cgroup_path().unwrap().join("cgroup.events")).unwrap()
}

#[test]
fn freeze_stops_the_tree_and_thaw_resumes_it() {
    let _guard = util::shared();
    if !cgroups_usable() {
        return;
    }
    let mut cmd = Command::new("sh");
    cmd.args(["-c", "while :; do :; done & while :; do :; done"])
        .contain(true);
    let mut child = cmd.spawn().unwrap();
    util::poll_until(Duration::from_secs(5), || {
        child.tree_pids().unwrap().len() == 2
    });
    let pids = child.tree_pids().unwrap();
    assert_eq!(pids.len(), 2, "{pids:?}");
    child.freeze().unwrap();
    assert!(cgroup_events(&child).contains("frozen 1"));
    let frozen: Vec<u64> = pids.iter().map(|p| cpu_ticks(*p)).collect();
    std::thread::sleep(Duration::from_millis(300));
    let later: Vec<u64> = pids.iter().map(|p| cpu_ticks(*p)).collect();
    assert_eq!(frozen, later, "a frozen process used CPU");
    child.thaw().unwrap();
    assert!(cgroup_events(&child).contains("frozen 0"));
    let ran = util::poll_until(Duration::from_secs(10), || {
        pids.iter().zip(&later).all(|(p, t)| cpu_ticks(*p) > *t)
    });
    assert!(ran, "a thawed process did not run again");
    child.kill_tree(libc::SIGKILL).unwrap();
    child.wait_tree().unwrap();
}

#[test]
fn a_frozen_tree_can_be_killed() {
    let _guard = util::shared();
    if !cgroups_usable() {
        return;
    }
    let mut cmd = Command::new("sh");
    cmd.args(["-c", "sleep 300 & sleep 300"]).contain(true);
    let mut child = cmd.spawn().unwrap();
    child.freeze().unwrap();
    child.kill_tree(libc::SIGKILL).unwrap();
    let status = child.wait_tree().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGKILL));
}

/// CPU time of the calling thread (RUSAGE_THREAD).
fn thread_cpu() -> Duration {
    // SAFETY: getrusage fills the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::getrusage(libc::RUSAGE_THREAD, &mut usage), 0);
        usage
    };
    let tv = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// CPU time of the children this process reaped (RUSAGE_CHILDREN).
fn children_cpu() -> Duration {
    // SAFETY: getrusage fills the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage), 0);
        usage
    };
    let tv = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

#[test]
fn usage_counts_the_cpu_of_the_whole_tree() {
    // Exclusive: RUSAGE_CHILDREN must count this test's children only.
    let _guard = util::exclusive();
    if !cgroups_usable() {
        return;
    }
    // Two burners: the shell itself and a background grandchild.
    let burn = "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done";
    let script = format!("({burn}) & {burn}; wait");
    let before = children_cpu();
    let mut cmd = Command::new("sh");
    cmd.args(["-c", &script]).contain(true);
    let mut child = cmd.spawn().unwrap();
    let start = Instant::now();
    child.wait_tree().unwrap();
    let wall = start.elapsed();
    let reaped = children_cpu() - before;
    let usage = child.usage().unwrap();
    println!("tree usage {usage:?}; rusage of reaped children {reaped:?}; wall {wall:?}");
    assert!(usage.cpu >= Duration::from_millis(20), "{usage:?}");
    let parts = usage.user + usage.system;
    let diff = parts.abs_diff(usage.cpu);
    assert!(
        diff <= usage.cpu / 10 + Duration::from_millis(5),
        "{usage:?}"
    );
    // The kernel's two accountings of the same processes agree.
    let gap = usage.cpu.abs_diff(reaped);
    assert!(
        gap <= reaped / 5 + Duration::from_millis(20),
        "cgroup {:?} vs rusage {reaped:?}",
        usage.cpu
    );
    // At most the two burners' worth of cores over the wall time.
    assert!(usage.cpu <= wall * 2 + Duration::from_millis(50));
}

#[test]
fn limits_fail_clearly_without_their_controller() {
    let _guard = util::shared();
    if !cgroups_usable() {
        return;
    }
    let offered = std::fs::read_to_string(own_cgroup_dir().join("cgroup.controllers")).unwrap();
    for (controller, set) in [
        (
            "memory",
            (|c: &mut Command| {
                c.memory_max(64 << 20);
            }) as fn(&mut Command),
        ),
        ("pids", |c: &mut Command| {
            c.pids_max(3);
        }),
        ("cpu", |c: &mut Command| {
            c.cpu_max(50_000, 100_000);
        }),
    ] {
        let mut cmd = Command::new("true");
        cmd.contain(true);
        set(&mut cmd);
        let result = cmd.status();
        if offered.split_whitespace().any(|c| c == controller) {
            match result {
                Ok(status) => assert!(status.success()),
                // Offered but not enableable here (this cgroup holds processes).
                Err(err) => {
                    assert!(err.to_string().contains("no internal processes"), "{err}");
                    util::skip(format_args!("{controller}: {err}"));
                }
            }
            continue;
        }
        util::skip(format_args!(
            "the {controller} controller is not offered here ({:?}): only its error is checked",
            offered.trim()
        ));
        let err = result.unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::Unsupported, "{err}");
        let text = err.to_string();
        assert!(
            text.contains(&format!("the {controller} controller"))
                && text.contains("spawning \"true\""),
            "{text}"
        );
    }
}

#[test]
fn pids_max_limits_the_tree() {
    let _guard = util::shared();
    if !cgroups_usable() {
        return;
    }
    let mut cmd = Command::new("sh");
    cmd.args([
        "-c",
        "n=0; for i in 1 2 3 4 5 6; do sleep 1 & n=$((n+1)); done; wait",
    ])
    .contain(true)
    .pids_max(3)
    .stderr(Stdio::piped());
    let child = match cmd.spawn() {
        Ok(child) => child,
        Err(err) if err.kind() == std::io::ErrorKind::Unsupported => {
            util::skip(format_args!("pids_max: {err}"));
            return;
        }
        Err(err) if err.to_string().contains("no internal processes") => {
            util::skip(format_args!("pids_max: {err}"));
            return;
        }
        Err(err) => panic!("{err}"),
    };
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("fork") || err.contains("Resource"), "{err}");
}

#[test]
fn bad_parent_cgroups_fail_naming_the_step() {
    let _guard = util::exclusive();
    let before = util::open_fds();
    // Not a cgroup2 directory.
    let mut cmd = Command::new("true");
    cmd.contain_in("/tmp");
    let err = cmd.status().unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    assert_eq!(
        err.to_string(),
        "spawning \"true\": checking the parent cgroup \"/tmp\" failed: \"/tmp\" is not a directory of a cgroup2 file system"
    );
    // Missing.
    let mut cmd = Command::new("true");
    cmd.contain_in("/nonexistent/cgroup");
    let err = cmd.status().unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    assert!(
        err.to_string()
            .contains("opening the parent cgroup \"/nonexistent/cgroup\" failed"),
        "{err}"
    );
    // A file, given as an fd.
    let file = std::fs::File::open("/proc/self/stat").unwrap();
    let mut cmd = Command::new("true");
    cmd.contain_in(file);
    let err = cmd.status().unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput, "{err}");
    drop(cmd);
    if cgroups_usable() {
        // A cgroup that may not have children.
        let parent = own_cgroup_dir().join(format!("fastspawn-test-{}-full", process::id()));
        std::fs::create_dir(&parent).unwrap();
        std::fs::write(parent.join("cgroup.max.descendants"), "0").unwrap();
        let mut cmd = Command::new("true");
        cmd.contain_in(&parent);
        let err = cmd.status().unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with(&format!(
                "spawning \"true\": creating the cgroup \"{}/fastspawn-",
                parent.display()
            )),
            "{text}"
        );
        assert_eq!(err.raw_os_error(), Some(libc::EAGAIN), "{text}");
        // The fallback never hides an explicit parent's failure, and a
        // failed spawn leaves no child cgroup.
        drop(cmd);
        std::fs::remove_dir(&parent).unwrap();
    }
    // A contained spawn that fails in the child removes its cgroup.
    if cgroups_usable() {
        let prefix = format!("fastspawn-{}-", process::id());
        let ours = || {
            std::fs::read_dir(own_cgroup_dir())
                .unwrap()
                .filter(|e| {
                    e.as_ref()
                        .unwrap()
                        .file_name()
                        .to_string_lossy()
                        .starts_with(&prefix)
                })
                .count()
        };
        let earlier = ours();
        let mut cmd = Command::new("/nonexistent/program");
        cmd.contain(true);
        let err = cmd.status().unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::NotFound, "{err}");
        // (Kept as a spare while the command lives.)
        drop(cmd);
        assert_eq!(ours(), earlier, "a failed spawn left its cgroup");
    }
    // Limits without containment.
    let mut cmd = Command::new("true");
    cmd.pids_max(4);
    let err = cmd.status().unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    assert!(err.to_string().contains("need contain(true)"), "{err}");
    util::assert_fds_unchanged(&before, "failed contained spawns");
    util::assert_no_zombies("failed contained spawns");
}

#[test]
fn no_cgroup_is_left_after_a_thousand_contained_spawns() {
    let _guard = util::exclusive();
    if !cgroups_usable() {
        return;
    }
    let own = own_cgroup_dir();
    let prefix = format!("fastspawn-{}-", process::id());
    let ours = || -> Vec<String> {
        std::fs::read_dir(&own)
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.starts_with(&prefix))
            .collect()
    };
    // Only what this test makes counts (a failed test may leave a tree).
    let earlier = ours();
    let ours = || -> Vec<String> {
        let mut left = ours();
        left.retain(|n| !earlier.contains(n));
        left
    };
    let before = util::open_fds();
    let mut cmd = Command::new("true");
    cmd.contain(true);
    for _ in 0..1000 {
        assert!(cmd.status().unwrap().success());
    }
    // A fresh command each time (sharing the first command's spares).
    for _ in 0..200 {
        let mut fresh = Command::new("true");
        assert!(fresh.contain(true).status().unwrap().success());
    }
    // Dropped while the tree still runs: removed once it empties.
    let mut sleeper = Command::new("sh");
    sleeper.args(["-c", "sleep 0.2 & exit 0"]).contain(true);
    for _ in 0..10 {
        let mut child = sleeper.spawn().unwrap();
        child.wait().unwrap();
        drop(child);
    }
    let mut spawned: Vec<Child> = (0..10).map(|_| sleeper.spawn().unwrap()).collect();
    drop(cmd);
    drop(sleeper);
    // Waited here but dropped only after the tree ended.
    for child in &mut spawned {
        child.wait().unwrap();
    }
    drop(spawned);
    let clean = util::poll_until(Duration::from_secs(10), || ours().is_empty());
    assert!(clean, "left behind: {:?}", ours());
    // Once everything is removed, the only new fd is the cleaner thread's
    // eventfd (made on first use, kept for the life of the process).
    let settled = util::poll_until(Duration::from_secs(5), || {
        let now = util::open_fds();
        let new: Vec<_> = now
            .iter()
            .filter(|fd| !before.contains(fd))
            .copied()
            .collect();
        new.len() <= 1
            && util::describe_fds(&new)
                .iter()
                .all(|d| d.contains("eventfd"))
    });
    let now = util::open_fds();
    assert!(
        settled,
        "fds: {:?} vs {:?}",
        util::describe_fds(&now),
        before
    );
    util::assert_no_zombies("1,000 contained spawns");
}

#[test]
fn contain_in_takes_a_path_or_an_fd() {
    let _guard = util::shared();
    if !cgroups_usable() {
        return;
    }
    let own = own_cgroup_dir();
    let mut cmd = Command::new("true");
    cmd.contain_in(&own);
    let mut child = cmd.spawn().unwrap();
    assert!(child.cgroup_path().unwrap().starts_with(&own));
    assert!(child.wait_tree().unwrap().success());
    let mut cmd = Command::new("true");
    cmd.contain_in(std::fs::File::open(&own).unwrap());
    let mut child = cmd.spawn().unwrap();
    assert_eq!(child.containment(), Some(Containment::Cgroup));
    assert!(
        child.cgroup_path().unwrap().starts_with(&own),
        "{:?}",
        child.cgroup_path()
    );
    assert!(child.wait_tree().unwrap().success());
}

#[test]
fn tree_methods_need_containment() {
    let _guard = util::shared();
    let mut child = Command::new("true").spawn().unwrap();
    assert_eq!(child.containment(), None);
    let err = child.kill_tree(libc::SIGKILL).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    assert!(
        err.to_string()
            .contains("not started with Command::contain"),
        "{err}"
    );
    child.wait().unwrap();
}

#[test]
fn contain_and_cgroup_are_exclusive() {
    let _guard = util::shared();
    let dir = std::fs::File::open("/").unwrap();
    let mut cmd = Command::new("true");
    cmd.contain(true).cgroup(dir);
    let err = cmd.status().unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    assert!(err.to_string().contains("contain and cgroup"), "{err}");
}

fn kernel_at_least(major: u32, minor: u32) -> bool {
    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap();
    let mut parts = release.trim().split(['.', '-']);
    let got_major: u32 = parts.next().unwrap().parse().unwrap();
    let got_minor: u32 = parts.next().unwrap().parse().unwrap();
    (got_major, got_minor) >= (major, minor)
}

#[test]
fn autokill_is_unsupported_before_linux_7_1() {
    let _guard = util::shared();
    let mut cmd = Command::new("sleep");
    cmd.arg("300").autokill(true);
    if kernel_at_least(7, 1) {
        util::skip("Linux 7.1 or later: checking that autokill kills on drop instead");
        let child = cmd.spawn().unwrap();
        let pid = child.id();
        drop(child);
        assert_gone(&[pid], "an autokill child after its Child was dropped");
        // The kernel reaps it (CLONE_AUTOREAP): wait reads the status the
        // pidfd kept, and no zombie is left.
        let mut child = Command::new("sh")
            .args(["-c", "exit 5"])
            .autokill(true)
            .spawn()
            .unwrap();
        assert_eq!(child.wait().unwrap().code(), Some(5));
        assert_gone(&[child.id()], "an autoreaped child after wait");
        return;
    }
    let err = cmd.spawn().unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::Unsupported);
    assert!(
        err.to_string().contains("CLONE_PIDFD_AUTOKILL (Linux 7.1)"),
        "{err}"
    );
    // Asked for once, remembered: the same answer without a new probe.
    let err = cmd.status().unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::Unsupported);
}

const HELPER: &str = "FASTSPAWN_TEST_TREE_HELPER";

/// The fallback makes the whole test process a child subreaper, which
/// would leave other tests' orphans as our zombies: it runs in a copy of
/// this binary, as user 65534, who may not write the cgroup (so `contain`
/// falls back on its own) -- see [`fallback_helper`].
#[test]
fn session_fallback_in_a_process_of_its_own() {
    let _guard = util::shared();
    if !util::is_root() {
        util::skip("not root: cannot start the helper as another user");
        return;
    }
    let dir = TempDir::new("tree-fallback");
    let helper = dir.join("integration");
    util::executable_copy(&std::env::current_exe().unwrap(), &helper);
    use std::os::unix::process::CommandExt;
    let stdout = util::run_helper_test(
        &helper,
        "tree::fallback_helper",
        "tree-fallback-helper: ok",
        |cmd| {
            cmd.env(HELPER, "1");
            cmd.current_dir("/").uid(65534).gid(65534);
        },
    );
    print!("{stdout}");
}

#[test]
#[ignore = "started by session_fallback_in_a_process_of_its_own in a process of its own"]
fn fallback_helper() {
    if std::env::var_os(HELPER).is_none() {
        return;
    }
    // Not root: the caller's cgroup cannot be written...
    let mut cmd = Command::new("true");
    cmd.contain(true).require_contained(true);
    let err = cmd.status().unwrap_err();
    // EACCES as a rule; the kernel has also answered EROFS here (cgroupfs
    // directories are r-x for others), which means the same to fastspawn.
    assert!(
        matches!(
            err.kind(),
            std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem
        ),
        "{err}"
    );
    assert!(err.to_string().contains("creating the cgroup"), "{err}");
    // ...so contain(true) falls back to a session and a subreaper.
    let mut cmd = Command::new("sh");
    cmd.args(["-c", DAEMONIZING])
        .contain(true)
        .stdout(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    assert_eq!(child.containment(), Some(Containment::Session));
    assert_eq!(session_of(child.id()), Some(child.id() as i32));
    let pids = read_pids(&mut child);
    let members = child.tree_pids().unwrap();
    println!("fallback members {members:?}, started {pids:?}");
    // In-session grandchildren, the orphan (re-parented to us, the
    // subreaper) and the setsid'd one (a child of the shell, seen by
    // parent pid) are all found while the shell lives.
    for pid in &pids {
        assert!(members.contains(pid), "{pid} not in {members:?}");
    }
    let err = child.freeze().unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::Unsupported);
    child.kill_tree(libc::SIGKILL).unwrap();
    let status = child.wait_tree().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGKILL));
    assert_gone(&pids, "fallback kill_tree");
    util::assert_no_zombies("fallback kill_tree");
    // wait_tree waits for a backgrounded grandchild here too.
    let dir = TempDir::new("fallback-wait");
    let marker = dir.join("done");
    let mut cmd = Command::new("sh");
    cmd.args([
        "-c",
        &format!("(sleep 0.3; touch {}) & exit 0", marker.display()),
    ])
    .contain_session();
    let mut child = cmd.spawn().unwrap();
    child.wait_tree().unwrap();
    assert!(
        marker.exists(),
        "wait_tree returned before the grandchild ended"
    );
    util::assert_no_zombies("fallback wait_tree");
    #[cfg(feature = "tokio")]
    {
        // The async wait_tree runs the scans on tokio's blocking pool.
        let marker = dir.join("async-done");
        let script = format!("(sleep 0.3; touch {}) & exit 0", marker.display());
        runtime().block_on(async {
            let mut cmd = fastspawn::tokio::Command::new("sh");
            cmd.args(["-c", &script]);
            cmd.as_fastspawn_mut().contain(true);
            let mut child = cmd.spawn().await.unwrap();
            assert_eq!(child.containment(), Some(Containment::Session));
            child.wait_tree().await.unwrap();
        });
        assert!(
            marker.exists(),
            "async wait_tree returned before the grandchild ended"
        );
        util::assert_no_zombies("fallback async wait_tree");
    }
    println!("tree-fallback-helper: ok");
}

#[cfg(feature = "tokio")]
fn runtime() -> ::tokio::runtime::Runtime {
    ::tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[cfg(feature = "tokio")]
#[test]
fn async_wait_tree_waits_for_backgrounded_grandchildren() {
    let _guard = util::shared();
    if !cgroups_usable() {
        return;
    }
    let dir = TempDir::new("async-wait-tree");
    let marker = dir.join("done");
    let script = format!("(sleep 0.3; touch {}) & exit 3", marker.display());
    // A parent of its own (see kill_tree_kills_daemonized_grandchildren).
    let parent = PrivateParent::new("async-wait-tree");
    runtime().block_on(async {
        let mut cmd = fastspawn::tokio::Command::new("sh");
        cmd.args(["-c", &script]);
        cmd.as_fastspawn_mut().contain(true).contain_in(&parent.0);
        let mut child = cmd.spawn().await.unwrap();
        assert_eq!(child.containment(), Some(Containment::Cgroup));
        let status = child.wait().await.unwrap();
        assert_eq!(status.code(), Some(3));
        assert!(!marker.exists(), "the grandchild should still run");
        // The runtime keeps running other tasks meanwhile.
        let ticker = ::tokio::spawn(async {
            let mut ticks = 0;
            loop {
                ::tokio::time::sleep(Duration::from_millis(10)).await;
                ticks += 1;
                if ticks == 5 {
                    return ticks;
                }
            }
        });
        let status = child.wait_tree().await.unwrap();
        assert_eq!(status.code(), Some(3));
        assert!(
            marker.exists(),
            "wait_tree returned before the grandchild ended"
        );
        assert_eq!(ticker.await.unwrap(), 5);
        let path = child.cgroup_path().unwrap().to_owned();
        drop(child);
        drop(cmd);
        assert!(!path.exists(), "{path:?} left behind");
    });
    drop(parent);
}

#[cfg(feature = "tokio")]
#[test]
fn async_kill_on_drop_kills_the_whole_tree() {
    let _guard = util::shared();
    if !cgroups_usable() {
        return;
    }
    let dir = TempDir::new("async-kill-on-drop");
    let list = dir.join("pids");
    let script = format!("{{ {DAEMONIZING} }} > {}", list.display());
    // A parent of its own (see kill_tree_kills_daemonized_grandchildren).
    let parent = PrivateParent::new("async-kill-on-drop");
    runtime().block_on(async {
        let mut cmd = fastspawn::tokio::Command::new("sh");
        cmd.args(["-c", &script]).kill_on_drop(true);
        cmd.as_fastspawn_mut().contain(true).contain_in(&parent.0);
        let child = cmd.spawn().await.unwrap();
        let path = child.cgroup_path().unwrap().to_owned();
        let ready = util::poll_until(Duration::from_secs(10), || {
            std::fs::read_to_string(&list).is_ok_and(|t| t.contains("ready"))
        });
        assert!(ready);
        let pids: Vec<u32> = std::fs::read_to_string(&list)
            .unwrap()
            .lines()
            .filter_map(|l| l.parse().ok())
            .collect();
        assert_eq!(pids.len(), 4, "{pids:?}");
        drop(child);
        drop(cmd);
        assert_gone(&pids, "after dropping a kill_on_drop child");
        // Also once the child itself was waited for: what is left of its
        // tree dies with it.
        let mut cmd = fastspawn::tokio::Command::new("sh");
        cmd.args(["-c", "sleep 300 >/dev/null & echo $!"])
            .kill_on_drop(true)
            .stdout(Stdio::piped());
        cmd.as_fastspawn_mut().contain(true);
        let mut child = cmd.spawn().await.unwrap();
        let mut out = String::new();
        ::tokio::io::AsyncReadExt::read_to_string(child.stdout.as_mut().unwrap(), &mut out)
            .await
            .unwrap();
        let sleeper: u32 = out.trim().parse().unwrap();
        assert!(child.wait().await.unwrap().success());
        assert!(running(sleeper), "the grandchild should still run");
        drop(child);
        drop(cmd);
        assert_gone(&[sleeper], "the tree of a waited kill_on_drop child");
        let removed = util::poll_until(Duration::from_secs(5), || !path.exists());
        assert!(removed, "{path:?} left behind");
    });
    drop(parent);
}

#[test]
fn a_reused_cgroup_counts_only_its_new_tree() {
    let _guard = util::shared();
    if !cgroups_usable() {
        return;
    }
    let dir = TempDir::new("reuse");
    let quick = dir.join("quick");
    let script = format!(
        "[ -e {} ] && exit 0; i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done",
        quick.display()
    );
    let parent = PrivateParent::new("reuse");
    let mut cmd = Command::new("sh");
    cmd.args(["-c", &script])
        .contain(true)
        .contain_in(&parent.0);
    let mut burner = cmd.spawn().unwrap();
    burner.wait_tree().unwrap();
    let burned = burner.usage().unwrap().cpu;
    let path = burner.cgroup_path().unwrap().to_owned();
    drop(burner);
    std::fs::write(&quick, "").unwrap();
    let mut quick_child = cmd.spawn().unwrap();
    assert_eq!(
        quick_child.cgroup_path(),
        Some(path.as_path()),
        "not reused"
    );
    quick_child.wait_tree().unwrap();
    let used = quick_child.usage().unwrap().cpu;
    println!("burner {burned:?}, then in the same cgroup {used:?}");
    assert!(burned >= Duration::from_millis(20), "{burned:?}");
    assert!(used < burned / 2, "{used:?} after {burned:?}");
    // A cgroup that was frozen is never handed on.
    quick_child.freeze().unwrap();
    quick_child.thaw().unwrap();
    drop(quick_child);
    let mut next = cmd.spawn().unwrap();
    next.wait_tree().unwrap();
    assert_ne!(next.cgroup_path(), Some(path.as_path()));
    assert!(!path.exists(), "the frozen cgroup should be removed");
    let next_path = next.cgroup_path().unwrap().to_owned();
    drop(next);
    drop(cmd);
    let removed = util::poll_until(Duration::from_secs(5), || !next_path.exists());
    assert!(removed, "{next_path:?} left behind");
    drop(parent);
}

const EXIT_HELPER: &str = "FASTSPAWN_TEST_TREE_EXIT_HELPER";

/// Spares of a command still alive at exit are removed by the exit hook.
#[test]
fn spares_are_removed_at_exit() {
    let _guard = util::shared();
    if !cgroups_usable() {
        return;
    }
    let helper = process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "tree::exit_helper",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(EXIT_HELPER, "1")
        .stdin(process::Stdio::null())
        .stdout(process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = helper.id();
    let out = helper.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("tree-exit-helper: 1 spare"),
        "{}: {stdout}",
        out.status
    );
    let prefix = format!("fastspawn-{pid}-");
    let left: Vec<_> = std::fs::read_dir(own_cgroup_dir())
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with(&prefix))
        .collect();
    assert!(left.is_empty(), "left behind at exit: {left:?}");
}

#[test]
#[ignore = "started by spares_are_removed_at_exit in a process of its own"]
fn exit_helper() {
    if std::env::var_os(EXIT_HELPER).is_none() {
        return;
    }
    let mut cmd = Command::new("true");
    cmd.contain(true);
    for _ in 0..3 {
        assert!(cmd.status().unwrap().success());
    }
    let prefix = format!("fastspawn-{}-", process::id());
    let spares = std::fs::read_dir(own_cgroup_dir())
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with(&prefix))
        .count();
    println!("tree-exit-helper: {spares} spare");
    // The command is never dropped: only the exit hook can remove it.
    std::mem::forget(cmd);
    process::exit(0);
}
