//! Helpers shared by the integration tests: the probe binary, parsing what it
//! reports, locks for tests that need the process to themselves, fd and
//! zombie accounting, pipes and temporary directories.

use std::collections::BTreeMap;
use std::ffi::{CStr, OsStr};
use std::fs;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{OnceLock, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::SystemTime;

use fastspawn::{Child, Command, Engine, Output, Stdio};

/// Generates, for each behaviour test `fn name(engine: Engine)`, a module
/// `name` with one `#[test]` per concrete engine. `shared:` tests run in
/// parallel with each other; `exclusive:` tests run while no other test
/// runs (they count fds or zombies, or change process-wide state).
macro_rules! engine_tests {
    ($lock:ident: $($name:ident),* $(,)?) => {$(
        mod $name {
            use fastspawn::Engine;

            fn run(engine: Engine) {
                let _guard = crate::util::$lock();
                if !crate::util::engine_usable(engine) {
                    return;
                }
                super::$name(engine)
            }

            #[test]
            fn clone3() {
                run(Engine::Clone3)
            }

            #[test]
            fn clone_vfork() {
                run(Engine::CloneVfork)
            }

            #[test]
            fn posix_spawn() {
                run(Engine::PosixSpawn)
            }

            #[test]
            fn fork() {
                run(Engine::Fork)
            }
        }
    )*};
}

/// Serialises tests: most take it shared, the ones that must see the
/// process quiet (fd counts, zombies, rlimits, signal dispositions) take it
/// exclusively.
static PROCESS: RwLock<()> = RwLock::new(());

/// For a test that can run alongside other tests.
pub fn shared() -> RwLockReadGuard<'static, ()> {
    PROCESS.read().unwrap_or_else(PoisonError::into_inner)
}

/// For a test that needs no other test running.
pub fn exclusive() -> RwLockWriteGuard<'static, ()> {
    PROCESS.write().unwrap_or_else(PoisonError::into_inner)
}

/// Prints why a test does not run here.
pub fn skip(reason: impl std::fmt::Display) {
    println!("skipped: {reason}");
}

/// Whether `engine` can run here; prints a skip line when not.
pub fn engine_usable(engine: Engine) -> bool {
    if engine.is_available() {
        true
    } else {
        skip(format_args!(
            "engine {engine} is not available on this kernel"
        ));
        false
    }
}

pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

// ---------------------------------------------------------------------------
// The probe

/// The path of the `fastspawn-probe` binary, built on first use when it is
/// missing or older than its sources. `FASTSPAWN_PROBE` overrides it.
pub fn probe() -> &'static Path {
    static PROBE: OnceLock<PathBuf> = OnceLock::new();
    PROBE.get_or_init(|| {
        if let Some(path) = std::env::var_os("FASTSPAWN_PROBE") {
            return PathBuf::from(path);
        }
        let exe = std::env::current_exe().expect("current_exe");
        // target/<profile>/deps/integration-<hash>
        let profile_dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("the test binary lives in target/<profile>/deps")
            .to_path_buf();
        let path = profile_dir.join("fastspawn-probe");
        if is_stale(&path) {
            build_probe(&profile_dir);
        }
        assert!(
            path.is_file(),
            "{} is missing after building it",
            path.display()
        );
        path
    })
}

fn mtime(path: &Path) -> Option<SystemTime> {
    fs::metadata(path).and_then(|m| m.modified()).ok()
}

fn newest_source(dir: &Path) -> SystemTime {
    let mut newest = SystemTime::UNIX_EPOCH;
    let Ok(entries) = fs::read_dir(dir) else {
        return newest;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let time = if path.is_dir() {
            newest_source(&path)
        } else {
            mtime(&path).unwrap_or(newest)
        };
        newest = newest.max(time);
    }
    newest
}

fn is_stale(probe: &Path) -> bool {
    let Some(built) = mtime(probe) else {
        return true;
    };
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fastspawn-probe");
    newest_source(&sources) > built
}

fn build_probe(profile_dir: &Path) {
    let profile = match profile_dir.file_name().and_then(OsStr::to_str) {
        Some("debug") | None => "dev".to_owned(),
        Some(name) => name.to_owned(),
    };
    let out = process::Command::new(env!("CARGO"))
        .args([
            "build",
            "--quiet",
            "-p",
            "fastspawn-probe",
            "--profile",
            &profile,
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(process::Stdio::null())
        .output()
        .expect("running cargo to build fastspawn-probe");
    assert!(
        out.status.success(),
        "cargo build -p fastspawn-probe failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A command that runs the probe with `args`.
pub fn probe_cmd<I, S>(args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut cmd = Command::new(probe());
    cmd.args(args);
    cmd
}

/// The same command for `std::process`.
pub fn std_probe_cmd<I, S>(args: I) -> process::Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut cmd = process::Command::new(probe());
    cmd.args(args);
    cmd
}

// ---------------------------------------------------------------------------
// Spawning with a given engine

/// Spawns with `engine` and checks the child reports that engine.
pub fn spawn(cmd: &mut Command, engine: Engine) -> Child {
    let child = cmd
        .engine(engine)
        .spawn()
        .unwrap_or_else(|err| panic!("spawn with {engine} failed: {err}"));
    assert_eq!(child.engine(), engine, "the child reports another engine");
    child
}

/// Spawns with stdout and stderr piped, checks the engine, collects the output.
pub fn output(cmd: &mut Command, engine: Engine) -> Output {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    spawn(cmd, engine)
        .wait_with_output()
        .expect("wait_with_output")
}

/// Like [`output`], and asserts the child exited 0.
pub fn output_ok(cmd: &mut Command, engine: Engine) -> Output {
    let out = output(cmd, engine);
    assert!(out.status.success(), "child failed: {out:?}");
    out
}

/// Spawns with an option that `Engine::PosixSpawn` cannot apply: with that
/// engine the spawn must fail with `Unsupported` (and `None` is returned).
pub fn spawn_full(cmd: &mut Command, engine: Engine) -> Option<Child> {
    if engine == Engine::PosixSpawn {
        let err = cmd
            .engine(engine)
            .spawn()
            .expect_err("posix-spawn cannot apply this option");
        assert_eq!(err.kind(), io::ErrorKind::Unsupported, "{err}");
        None
    } else {
        Some(spawn(cmd, engine))
    }
}

/// Runs the probe's `state` with `cmd`'s options (the caller adds no
/// subcommand: this adds `state`) and parses it.
pub fn state(cmd: &mut Command, engine: Engine) -> State {
    cmd.arg("state");
    State::parse(&output_ok(cmd, engine).stdout)
}

/// Like [`state`], for options `Engine::PosixSpawn` cannot apply.
pub fn state_full(cmd: &mut Command, engine: Engine) -> Option<State> {
    cmd.arg("state")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let out = spawn_full(cmd, engine)?
        .wait_with_output()
        .expect("wait_with_output");
    assert!(out.status.success(), "child failed: {out:?}");
    Some(State::parse(&out.stdout))
}

// ---------------------------------------------------------------------------
// The probe's `state`

/// The `key=value` lines printed by `fastspawn-probe state`.
#[derive(Debug, Clone)]
pub struct State(pub BTreeMap<String, String>);

impl State {
    pub fn parse(text: &[u8]) -> State {
        let text = String::from_utf8_lossy(text);
        let map = text
            .lines()
            .filter_map(|line| line.split_once('='))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect::<BTreeMap<_, _>>();
        assert!(map.contains_key("pid"), "not probe state output: {text:?}");
        State(map)
    }

    pub fn get(&self, key: &str) -> &str {
        self.0
            .get(key)
            .unwrap_or_else(|| panic!("no {key} in {self:#?}"))
    }

    pub fn num(&self, key: &str) -> i64 {
        let value = self.get(key);
        value
            .parse()
            .unwrap_or_else(|_| panic!("{key}={value} is not a number"))
    }

    /// A hex field (`sigblk`, `sigign`).
    pub fn hex(&self, key: &str) -> u64 {
        let value = self.get(key);
        u64::from_str_radix(value, 16).unwrap_or_else(|_| panic!("{key}={value} is not hex"))
    }

    /// The open fds of the child.
    pub fn fds(&self) -> Vec<RawFd> {
        let value = self.get("fds");
        if value.is_empty() {
            return Vec::new();
        }
        value
            .split(',')
            .map(|fd| fd.parse().expect("fd number"))
            .collect()
    }

    pub fn fdlink(&self, fd: RawFd) -> &str {
        self.get(&format!("fdlink_{fd}"))
    }
}

/// A kernel signal set with `signals` in it (bit `n-1` is signal `n`).
pub fn sigset_bits(signals: &[i32]) -> u64 {
    signals
        .iter()
        .fold(0, |set, &sig| set | (1u64 << (sig - 1)))
}

// ---------------------------------------------------------------------------
// fds and zombies of the test process

/// The fds open in this process, sorted, without the one used to list them.
pub fn open_fds() -> Vec<RawFd> {
    let mut fds = Vec::new();
    // SAFETY: opendir/readdir/closedir on a stream we own; names are valid
    // NUL-terminated strings until the next readdir.
    unsafe {
        let dir = libc::opendir(c"/proc/self/fd".as_ptr());
        assert!(
            !dir.is_null(),
            "opendir /proc/self/fd: {}",
            io::Error::last_os_error()
        );
        let own = libc::dirfd(dir);
        loop {
            let entry = libc::readdir(dir);
            if entry.is_null() {
                break;
            }
            let name = CStr::from_ptr((*entry).d_name.as_ptr());
            if let Ok(fd) = name.to_string_lossy().parse::<RawFd>() {
                if fd != own {
                    fds.push(fd);
                }
            }
        }
        libc::closedir(dir);
    }
    fds.sort_unstable();
    fds
}

/// What each fd of this process refers to, for failure messages.
pub fn describe_fds(fds: &[RawFd]) -> Vec<String> {
    fds.iter()
        .map(|fd| {
            let link = fs::read_link(format!("/proc/self/fd/{fd}"))
                .map(|p| p.display().to_string())
                .unwrap_or_else(|e| e.to_string());
            format!("{fd} -> {link}")
        })
        .collect()
}

/// Asserts this process has exactly the fds it had `before`.
pub fn assert_fds_unchanged(before: &[RawFd], what: &str) {
    let after = open_fds();
    if after != before {
        let leaked: Vec<RawFd> = after
            .iter()
            .copied()
            .filter(|fd| !before.contains(fd))
            .collect();
        let closed: Vec<RawFd> = before
            .iter()
            .copied()
            .filter(|fd| !after.contains(fd))
            .collect();
        panic!(
            "{what}: fds changed; new: {:?}, gone: {closed:?}",
            describe_fds(&leaked)
        );
    }
}

/// Children of this process that are zombies: `(pid, comm)`.
pub fn zombies() -> Vec<(i32, String)> {
    // SAFETY: getpid has no preconditions.
    let me = unsafe { libc::getpid() };
    let mut found = Vec::new();
    let Ok(entries) = fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // pid (comm) state ppid ...; comm may hold spaces and parentheses.
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let comm = stat[open + 1..close].to_owned();
        let mut rest = stat[close + 1..].split_whitespace();
        let state = rest.next();
        let ppid = rest.next().and_then(|p| p.parse::<i32>().ok());
        if state == Some("Z") && ppid == Some(me) {
            found.push((pid, comm));
        }
    }
    found
}

/// Asserts this process has no zombie children.
pub fn assert_no_zombies(what: &str) {
    let zombies = zombies();
    assert!(
        zombies.is_empty(),
        "{what}: zombie children left: {zombies:?}"
    );
}

// ---------------------------------------------------------------------------
// Threads of the test process, and which of them started which child

/// The kernel id of the calling thread.
pub fn gettid() -> i32 {
    // SAFETY: gettid has no preconditions.
    unsafe { libc::gettid() }
}

/// The threads of this process, `(tid, name)`, sorted by tid.
pub fn threads() -> Vec<(i32, String)> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc/self/task")
        .expect("read /proc/self/task")
        .flatten()
    {
        let Some(tid) = entry.file_name().to_str().and_then(|s| s.parse().ok()) else {
            continue;
        };
        // A thread that exits meanwhile has no comm any more.
        if let Ok(comm) = fs::read_to_string(format!("/proc/self/task/{tid}/comm")) {
            found.push((tid, comm.trim_end().to_owned()));
        }
    }
    found.sort();
    found
}

/// The `Threads:` count of /proc/self/status.
pub fn thread_count() -> usize {
    fs::read_to_string("/proc/self/status")
        .expect("read /proc/self/status")
        .lines()
        .find_map(|line| line.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("a Threads: line")
}

/// [`threads`] and [`thread_count`] when they agree: listing
/// /proc/self/task while another thread exits can skip a live thread, so
/// the listing is taken again until two in a row match the count.
pub fn thread_snapshot() -> (Vec<(i32, String)>, usize) {
    let mut last = threads();
    for _ in 0..500 {
        let count = thread_count();
        let now = threads();
        if now == last && now.len() == count {
            return (now, count);
        }
        last = now;
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("/proc/self/task never settled: {last:?}");
}

/// Whether the kernel lists the children of each thread
/// (`/proc/PID/task/TID/children`, `CONFIG_PROC_CHILDREN`).
pub fn have_thread_children() -> bool {
    Path::new(&format!("/proc/self/task/{}/children", gettid())).exists()
}

/// For each of `pids` (children of this process, running or zombie), the
/// thread that created it: `child pid -> tid`.
///
/// The kernel records the thread that called clone as the child's parent
/// (`real_parent`, the thread whose exit fires `PR_SET_PDEATHSIG`), and
/// `/proc/self/task/TID/children` lists exactly the children of thread TID.
/// Listing /proc/self/task while other threads exit can skip a thread, so
/// the lookup is repeated (for up to 5 s) until every pid has been found.
pub fn parent_threads(pids: &[i32]) -> BTreeMap<i32, i32> {
    let mut map = BTreeMap::new();
    poll_until(std::time::Duration::from_secs(5), || {
        for (tid, _) in threads() {
            let Ok(list) = fs::read_to_string(format!("/proc/self/task/{tid}/children")) else {
                continue;
            };
            for pid in list.split_whitespace().filter_map(|p| p.parse().ok()) {
                if pids.contains(&pid) {
                    map.entry(pid).or_insert(tid);
                }
            }
        }
        pids.iter().all(|pid| map.contains_key(pid))
    });
    map
}

/// The name of thread `tid` of this process.
pub fn thread_name(tid: i32) -> Option<String> {
    let name = fs::read_to_string(format!("/proc/self/task/{tid}/comm")).ok()?;
    Some(name.trim_end().to_owned())
}

/// Whether `name` is the name of a spawner thread (`fastspawn-N`, not the
/// reaper).
pub fn is_spawner_name(name: &str) -> bool {
    name.strip_prefix("fastspawn-")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Calls `done` every 10 ms until it returns true or `limit` has passed;
/// returns its last answer.
pub fn poll_until(limit: std::time::Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = std::time::Instant::now();
    loop {
        if done() {
            return true;
        }
        if start.elapsed() > limit {
            return done();
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

// ---------------------------------------------------------------------------
// Pipes and files

/// A pipe `(read end, write end)`, both close-on-exec.
pub fn pipe() -> (OwnedFd, OwnedFd) {
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills the array with two new fds that we then own.
    unsafe {
        assert_eq!(libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC), 0, "pipe2");
        (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1]))
    }
}

/// Reads a pipe's read end to its end.
pub fn read_all(fd: OwnedFd) -> Vec<u8> {
    let mut data = Vec::new();
    io::Read::read_to_end(&mut fs::File::from(fd), &mut data).expect("read");
    data
}

/// `dup` without `FD_CLOEXEC`: an fd a careless spawn would leak into a child.
pub fn dup_inheritable(fd: &impl AsRawFd) -> OwnedFd {
    // SAFETY: dup returns a new fd that we own.
    unsafe {
        let new = libc::dup(fd.as_raw_fd());
        assert!(new >= 0, "dup: {}", io::Error::last_os_error());
        OwnedFd::from_raw_fd(new)
    }
}

/// A duplicate of `fd` at the lowest free number `>= min` (close-on-exec).
pub fn dup_at_least(fd: &impl AsRawFd, min: RawFd) -> OwnedFd {
    // SAFETY: F_DUPFD_CLOEXEC returns a new fd that we own.
    unsafe {
        let new = libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, min);
        assert!(new >= 0, "F_DUPFD_CLOEXEC: {}", io::Error::last_os_error());
        OwnedFd::from_raw_fd(new)
    }
}

/// What `/proc/<pid>/fd/N` shows for `fd`, e.g. `pipe:[1234]`.
pub fn fd_target(fd: &impl AsRawFd) -> String {
    fs::read_link(format!("/proc/self/fd/{}", fd.as_raw_fd()))
        .expect("readlink")
        .display()
        .to_string()
}

/// A directory removed (with its contents) on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "fastspawn-test-{}-{}-{tag}",
            process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        fs::create_dir_all(&path).expect("create temp dir");
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).expect("chmod temp dir");
        TempDir(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.0.join(name)
    }

    /// Writes a file with `mode`, which must not make it executable (see
    /// [`TempDir::script`] and [`executable_copy`] for why).
    pub fn file(&self, name: &str, contents: &str, mode: u32) -> PathBuf {
        assert_eq!(
            mode & 0o111,
            0,
            "write executables with script() or executable_copy()"
        );
        let path = self.join(name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).expect("create dir");
        }
        fs::write(&path, contents).expect("write file");
        fs::set_permissions(&path, fs::Permissions::from_mode(mode)).expect("chmod");
        path
    }

    /// A shell script that prints `text` and its arguments. Written by
    /// another process: see [`executable_copy`].
    pub fn script(&self, name: &str, text: &str) -> PathBuf {
        let path = self.join(name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).expect("create dir");
        }
        let contents = format!("#!/bin/sh\necho {text} \"$@\"\n");
        run_helper(
            process::Command::new("/bin/sh")
                .args([
                    "-c",
                    "printf '%s' \"$1\" > \"$2\" && chmod 755 \"$2\"",
                    "sh",
                ])
                .arg(contents)
                .arg(&path),
        );
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn run_helper(cmd: &mut process::Command) {
    let out = cmd
        .stdin(process::Stdio::null())
        .output()
        .expect("run helper");
    assert!(out.status.success(), "{cmd:?}: {out:?}");
}

/// Copies `src` to `dst` (mode 0755) with `cp`, so that this process never
/// holds a writable fd on the new executable. If it did, a child forked by
/// another test thread at that moment would inherit the fd until its own
/// execve, and executing `dst` meanwhile would fail with ETXTBSY.
pub fn executable_copy(src: &Path, dst: &Path) {
    run_helper(process::Command::new("cp").arg("--").arg(src).arg(dst));
    fs::set_permissions(dst, fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// A name no program on this machine has.
pub fn unique_name(tag: &str) -> String {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    format!(
        "fastspawn-{tag}-{}-{}",
        process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    )
}

// ---------------------------------------------------------------------------
// Helpers in a process of their own

/// Runs the ignored test `name` (`module::test`) in a fresh copy of this
/// test binary with `env` set, and returns its stdout once it printed
/// `done_line`. For tests that need a process whose kernel-feature probes
/// have not run yet, or that install a seccomp filter.
pub fn run_test_in_new_process(name: &str, env: &str, done_line: &str) -> String {
    let exe = std::env::current_exe().expect("current_exe");
    run_helper_test(&exe, name, done_line, |cmd| {
        cmd.env(env, "1").env("FASTSPAWN_PROBE", probe());
    })
}

/// Runs the ignored test `name` of the test binary `exe` in a process of
/// its own (`configure` adds its environment, user, ...) and returns its
/// stdout once it printed `done_line`; fails with its output otherwise.
pub fn run_helper_test(
    exe: &Path,
    name: &str,
    done_line: &str,
    configure: impl FnOnce(&mut process::Command),
) -> String {
    let mut cmd = process::Command::new(exe);
    cmd.args([
        "--exact",
        name,
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ])
    .stdin(process::Stdio::null());
    configure(&mut cmd);
    let out = cmd.output().expect("start the helper");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success() && stdout.contains(done_line),
        "helper {name} failed: {}\nstdout:\n{stdout}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Installs, on the calling thread only, a seccomp filter that refuses
/// what some container sandboxes refuse: `clone3` (ENOSYS), `vfork` and a
/// `clone` with `CLONE_VM` but without `CLONE_THREAD` (EPERM). Threads can
/// still be created. Returns false (and prints why) where the filter cannot
/// be written (not x86_64).
pub fn deny_vm_clone() -> bool {
    if !cfg!(target_arch = "x86_64") {
        skip("the seccomp filter is written for x86_64");
        return false;
    }
    const AUDIT_ARCH_X86_64: u32 = 0xc000_003e;
    let stmt = |code: u32, k: u32| libc::sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    };
    let jump = |code: u32, k: u32, jt: u8, jf: u8| libc::sock_filter {
        code: code as u16,
        jt,
        jf,
        k,
    };
    let ld = libc::BPF_LD | libc::BPF_W | libc::BPF_ABS;
    let jeq = libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K;
    let jset = libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K;
    let ret = libc::BPF_RET | libc::BPF_K;
    // seccomp_data: nr at 0, arch at 4, args[0] at 16 (low half first).
    let mut filter = [
        /* 0 */ stmt(ld, 4),
        /* 1 */ jump(jeq, AUDIT_ARCH_X86_64, 0, 7), // other arch: allow
        /* 2 */ stmt(ld, 0),
        /* 3 */ jump(jeq, libc::SYS_clone3 as u32, 7, 0), // -> ENOSYS
        /* 4 */ jump(jeq, libc::SYS_vfork as u32, 5, 0), // -> EPERM
        /* 5 */ jump(jeq, libc::SYS_clone as u32, 0, 3), // else allow
        /* 6 */ stmt(ld, 16),
        /* 7 */ jump(jset, libc::CLONE_THREAD as u32, 1, 0), // thread: allow
        /* 8 */ jump(jset, libc::CLONE_VM as u32, 1, 0), // -> EPERM
        /* 9 */ stmt(ret, libc::SECCOMP_RET_ALLOW),
        /* 10 */ stmt(ret, libc::SECCOMP_RET_ERRNO | libc::EPERM as u32),
        /* 11 */ stmt(ret, libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32),
    ];
    let prog = libc::sock_fprog {
        len: filter.len() as u16,
        filter: filter.as_mut_ptr(),
    };
    // SAFETY: prctl with a live filter program; no_new_privs only affects
    // this thread and its children.
    unsafe {
        assert_eq!(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
        assert_eq!(
            libc::prctl(
                libc::PR_SET_SECCOMP,
                libc::SECCOMP_MODE_FILTER,
                &prog as *const libc::sock_fprog
            ),
            0,
            "install the seccomp filter: {}",
            io::Error::last_os_error()
        );
    }
    true
}

/// Sets the soft RLIMIT_NOFILE to the lowest free fd number (so no fd can
/// be opened) and returns the old limit for [`restore_nofile`].
pub fn exhaust_fds() -> libc::rlimit {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit fills the struct.
    assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) }, 0);
    let open = open_fds();
    let lowest_free = (0..).find(|fd| !open.contains(fd)).expect("a free fd");
    let low = libc::rlimit {
        rlim_cur: lowest_free as libc::rlim_t,
        rlim_max: lim.rlim_max,
    };
    // SAFETY: a valid struct.
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &low) }, 0);
    lim
}

/// Puts back the limit [`exhaust_fds`] returned.
pub fn restore_nofile(lim: libc::rlimit) {
    // SAFETY: a valid struct.
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &lim) }, 0);
}
