//! Options std can only apply through `pre_exec`: uid, gid, groups, rlimits,
//! umask, pdeathsig and cgroup placement. `Engine::PosixSpawn` cannot apply
//! them and must refuse with `Unsupported`.

use std::fs::{self, File};
use std::io::{self, BufRead};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use fastspawn::{Command, Engine, RLIM_INFINITY, Resource, Stdio};

use crate::util::{self, TempDir, probe, probe_cmd, spawn_full, state_full};

engine_tests!(shared: uid_gid_groups, gid_only, rlimits, umask, pdeathsig_is_set,
    pdeathsig_fires_when_thread_exits, cgroup_placement);

/// A copy of the probe that user 65534 can run (the target dir may not be
/// reachable for it).
fn world_probe(dir: &TempDir) -> PathBuf {
    let path = dir.join("probe");
    util::executable_copy(probe(), &path);
    path
}

fn uid_gid_groups(engine: Engine) {
    if !util::is_root() {
        util::skip("not root: cannot change uid, gid and groups");
        return;
    }
    let dir = TempDir::new("creds");
    let mut cmd = Command::new(world_probe(&dir));
    cmd.current_dir("/")
        .uid(65534)
        .gid(65534)
        .groups(&[65534, 100]);
    let Some(st) = state_full(&mut cmd, engine) else {
        return;
    };
    assert_eq!(st.get("uid"), "65534");
    assert_eq!(st.get("euid"), "65534");
    assert_eq!(st.get("gid"), "65534");
    assert_eq!(st.get("egid"), "65534");
    assert_eq!(st.get("groups"), "100,65534");

    // The parent is unchanged (the vfork child shares its memory, not its credentials).
    // SAFETY: plain getters.
    unsafe {
        assert_eq!(libc::getuid(), 0);
        assert_eq!(libc::getgid(), 0);
    }

    // uid alone: the supplementary groups of root must not stay.
    let mut cmd = Command::new(world_probe(&dir));
    cmd.current_dir("/").uid(65534).gid(65534);
    let Some(st) = state_full(&mut cmd, engine) else {
        return;
    };
    assert_eq!(st.get("uid"), "65534");
    assert_eq!(st.get("gid"), "65534");

    // An empty group list.
    let mut cmd = Command::new(world_probe(&dir));
    cmd.current_dir("/").groups(&[]).uid(65534).gid(65534);
    let Some(st) = state_full(&mut cmd, engine) else {
        return;
    };
    assert_eq!(st.get("groups"), "");
}

fn gid_only(engine: Engine) {
    if !util::is_root() {
        util::skip("not root: cannot change gid");
        return;
    }
    let mut cmd = probe_cmd(Vec::<&str>::new());
    cmd.gid(4242).groups(&[4243, 4244]);
    let Some(st) = state_full(&mut cmd, engine) else {
        return;
    };
    assert_eq!(st.get("uid"), "0");
    assert_eq!(st.get("gid"), "4242");
    assert_eq!(st.get("egid"), "4242");
    assert_eq!(st.get("groups"), "4243,4244");
}

fn rlimits(engine: Engine) {
    // soft above hard is refused at spawn.
    let err = probe_cmd(["exit", "0"])
        .rlimit(Resource::Nofile, 20, 10)
        .engine(engine)
        .spawn()
        .expect_err("soft limit above hard");
    assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{err}");

    let mut cmd = probe_cmd(Vec::<&str>::new());
    cmd.rlimit(Resource::Nofile, 100, 200)
        .rlimit(Resource::Core, 0, 0)
        .rlimit(Resource::Cpu, 3600, RLIM_INFINITY)
        .rlimit(Resource::Fsize, 1 << 30, 1 << 31);
    let Some(st) = state_full(&mut cmd, engine) else {
        return;
    };
    assert_eq!(st.get("rlimit_nofile"), "100,200");
    assert_eq!(st.get("rlimit_core"), "0,0");
    assert_eq!(st.get("rlimit_cpu"), "3600,inf");
    assert_eq!(
        st.get("rlimit_fsize"),
        format!("{},{}", 1u64 << 30, 1u64 << 31)
    );

    // A later rlimit of the same resource replaces the earlier one.
    let mut cmd = probe_cmd(Vec::<&str>::new());
    cmd.rlimit(Resource::Nofile, 10, 20)
        .rlimit(Resource::Nofile, 50, 60);
    let Some(st) = state_full(&mut cmd, engine) else {
        return;
    };
    assert_eq!(st.get("rlimit_nofile"), "50,60");

    // The parent's limits are untouched.
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit fills the struct.
    assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) }, 0);
    assert_ne!((lim.rlim_cur, lim.rlim_max), (50, 60));
    assert_ne!((lim.rlim_cur, lim.rlim_max), (100, 200));
}

/// The umask of this process, from /proc/self/status.
fn our_umask() -> u32 {
    let status = fs::read_to_string("/proc/self/status").expect("status");
    let line = status
        .lines()
        .find(|l| l.starts_with("Umask:"))
        .expect("Umask line");
    u32::from_str_radix(line["Umask:".len()..].trim(), 8).expect("octal")
}

fn umask(engine: Engine) {
    let err = probe_cmd(["exit", "0"])
        .umask(0o1000)
        .engine(engine)
        .spawn()
        .expect_err("bad umask");
    assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{err}");

    let before = our_umask();
    let mut cmd = probe_cmd(Vec::<&str>::new());
    cmd.umask(0o027);
    let Some(st) = state_full(&mut cmd, engine) else {
        return;
    };
    assert_eq!(
        u32::from_str_radix(st.get("umask"), 8).expect("octal"),
        0o027
    );
    assert_eq!(our_umask(), before, "the parent's umask changed");

    let mut cmd = probe_cmd(Vec::<&str>::new());
    cmd.umask(0o777);
    let Some(st) = state_full(&mut cmd, engine) else {
        return;
    };
    assert_eq!(st.get("umask"), "0777");
}

fn pdeathsig_is_set(engine: Engine) {
    // Without it, none (every engine).
    let st = util::state(&mut probe_cmd(Vec::<&str>::new()), engine);
    assert_eq!(st.get("pdeathsig"), "0");

    let err = probe_cmd(["exit", "0"])
        .pdeathsig(0)
        .engine(engine)
        .spawn()
        .expect_err("signal 0");
    assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{err}");

    let mut cmd = probe_cmd(Vec::<&str>::new());
    cmd.pdeathsig(libc::SIGUSR2);
    let Some(st) = state_full(&mut cmd, engine) else {
        return;
    };
    assert_eq!(st.num("pdeathsig"), i64::from(libc::SIGUSR2));
}

/// A child started by a thread with pdeathsig(SIGTERM) dies of SIGTERM when
/// that thread exits, while the process lives on.
fn pdeathsig_fires_when_thread_exits(engine: Engine) {
    let child = std::thread::spawn(move || {
        let mut cmd = probe_cmd(["sleep", "30"]);
        cmd.pdeathsig(libc::SIGTERM).stdin(Stdio::null());
        spawn_full(&mut cmd, engine)
    })
    .join()
    .expect("spawning thread");
    let Some(mut child) = child else { return };
    let status = child.wait().expect("wait");
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?}");
}

/// Where cgroup2 is mounted, if it is.
fn cgroup2_root() -> Option<PathBuf> {
    let mounts = File::open("/proc/self/mounts").ok()?;
    let mut found = None;
    for line in io::BufReader::new(mounts).lines().map_while(Result::ok) {
        let mut fields = line.split_whitespace();
        let (_, dir, kind) = (fields.next(), fields.next()?, fields.next()?);
        if kind == "cgroup2" {
            found = Some(PathBuf::from(dir));
            if dir == "/sys/fs/cgroup/unified" {
                break;
            }
        }
    }
    found
}

/// Our own line `0::` of /proc/self/cgroup.
fn our_cgroup() -> String {
    fs::read_to_string("/proc/self/cgroup")
        .expect("cgroup")
        .lines()
        .find_map(|l| l.strip_prefix("0::").map(str::to_owned))
        .unwrap_or_default()
}

/// A cgroup2 directory made for one test, removed on drop.
struct TestCgroup(PathBuf);

impl TestCgroup {
    fn new(root: &Path) -> io::Result<TestCgroup> {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let path = root.join(format!(
            "fastspawn-test-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        fs::create_dir(&path)?;
        Ok(TestCgroup(path))
    }

    fn procs(&self) -> String {
        fs::read_to_string(self.0.join("cgroup.procs")).unwrap_or_default()
    }
}

impl Drop for TestCgroup {
    fn drop(&mut self) {
        // rmdir fails with EBUSY while a (dying) process is still in it.
        for _ in 0..200 {
            match fs::remove_dir(&self.0) {
                Err(err) if err.raw_os_error() == Some(libc::EBUSY) => {
                    std::thread::sleep(std::time::Duration::from_millis(10))
                }
                _ => return,
            }
        }
        eprintln!("could not remove {}", self.0.display());
    }
}

fn cgroup_placement(engine: Engine) {
    let Some(root) = cgroup2_root() else {
        util::skip("no cgroup2 mount");
        return;
    };
    let cgroup = match TestCgroup::new(&root) {
        Ok(cgroup) => cgroup,
        Err(err) => {
            util::skip(format_args!(
                "cannot create a cgroup under {}: {err}",
                root.display()
            ));
            return;
        }
    };
    let name = cgroup
        .0
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let ours = our_cgroup();
    let dir = File::open(&cgroup.0).expect("open cgroup dir");

    let mut cmd = probe_cmd(Vec::<&str>::new());
    cmd.cgroup(dir);
    let Some(st) = state_full(&mut cmd, engine) else {
        return;
    };
    let line = st.get("cgroup");
    assert!(
        line.ends_with(&format!("/{name}")),
        "child's cgroup is {line:?}, expected .../{name}"
    );
    // Nothing else moved: we stay where we were, and the cgroup is empty again.
    assert_eq!(our_cgroup(), ours, "the test process moved");
    assert_eq!(cgroup.procs(), "", "something is left in the cgroup");

    // A second spawn of the same command lands there too.
    let st = util::State::parse(&{
        let child = spawn_full(cmd.stdout(Stdio::piped()), engine).expect("spawn");
        let out = child.wait_with_output().expect("wait");
        assert!(out.status.success());
        out.stdout
    });
    assert!(st.get("cgroup").ends_with(&format!("/{name}")));
    drop(cmd);
    assert_eq!(our_cgroup(), ours);
}
