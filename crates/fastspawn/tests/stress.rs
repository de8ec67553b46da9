//! Many threads spawning at once while other threads open and close fds and
//! a signal handler fires all the time.

use std::fs::File;
use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::Duration;

use fastspawn::{Command, Engine, Stdio};

use crate::util::{self, probe_cmd};

const SPAWNERS: usize = 8;
const SPAWNS_EACH: usize = 500;

static HANDLED: AtomicUsize = AtomicUsize::new(0);

extern "C" fn on_sigusr1(_: libc::c_int) {
    HANDLED.fetch_add(1, Ordering::Relaxed);
}

/// Installs the counting SIGUSR1 handler, without `SA_RESTART`, so system
/// calls in the library see `EINTR`. It stays installed afterwards: putting
/// back the default (terminate) could kill the test process with a signal
/// still pending. Handlers are reset in children, so it is harmless.
fn install_handler() {
    // SAFETY: a valid sigaction whose handler only touches an atomic.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigusr1 as *const () as libc::sighandler_t;
        libc::sigemptyset(&mut action.sa_mask);
        action.sa_flags = 0;
        assert_eq!(
            libc::sigaction(libc::SIGUSR1, &action, std::ptr::null_mut()),
            0
        );
    }
}

fn churn_fds(stop: &AtomicBool) -> usize {
    let mut rounds = 0;
    while !stop.load(Ordering::Relaxed) {
        let pipes: Vec<_> = (0..4).map(|_| util::pipe()).collect();
        let files: Vec<File> = (0..4)
            .filter_map(|_| File::open("/dev/null").ok())
            .collect();
        let leaky = util::dup_inheritable(&pipes[0].1);
        drop((pipes, files, leaky));
        rounds += 1;
    }
    rounds
}

/// Spawns `each` children of `exit 0` with `engine`, checking every one.
fn spawner(id: usize, threads: usize, each: usize, engine: Engine) -> Result<usize, String> {
    // Half the threads reuse two prepared commands (stdout piped or not),
    // the others build a command for every spawn.
    let make = |piped: bool| {
        let mut cmd = probe_cmd(["exit", "0"]);
        cmd.stdin(Stdio::null())
            .stdout(if piped { Stdio::piped() } else { Stdio::null() })
            .engine(engine);
        cmd
    };
    let mut reused = [make(false), make(true)];
    for i in 0..each {
        let piped = i % 3 == 2;
        let mut fresh;
        let cmd: &mut Command = if id < threads / 2 {
            &mut reused[usize::from(piped)]
        } else {
            fresh = make(piped);
            &mut fresh
        };
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("{engine} thread {id} spawn {i}: {e}"))?;
        let used = child.engine();
        if used == Engine::Auto || (engine != Engine::Auto && used != engine) {
            return Err(format!("{engine} thread {id}: child.engine() is {used}"));
        }
        if let Some(mut out) = child.stdout.take() {
            let mut buf = Vec::new();
            out.read_to_end(&mut buf)
                .map_err(|e| format!("{engine} thread {id} read {i}: {e}"))?;
            if !buf.is_empty() {
                return Err(format!("{engine} thread {id}: unexpected output {buf:?}"));
            }
        }
        let status = child
            .wait()
            .map_err(|e| format!("{engine} thread {id} wait {i}: {e}"))?;
        if !status.success() {
            return Err(format!(
                "{engine} thread {id} spawn {i}: child ended {status:?}"
            ));
        }
    }
    Ok(each)
}

/// `threads` threads spawn `each` children with `engine` while two threads
/// open and close fds and another fires SIGUSR1 at the process; then no
/// error, no fd left, no zombie, and the handler ran.
fn storm(engine: Engine, threads: usize, each: usize) {
    // Warm up: the probe is built and the library's one-time fds are open.
    let mut warm = probe_cmd(["exit", "0"]);
    warm.stdout(Stdio::piped())
        .stdin(Stdio::null())
        .engine(engine);
    assert!(warm.spawn().expect("spawn").wait().expect("wait").success());
    drop(warm);
    let before = util::open_fds();
    install_handler();
    let handled_before = HANDLED.load(Ordering::Relaxed);

    let stop = Arc::new(AtomicBool::new(false));
    let churners: Vec<_> = (0..2)
        .map(|_| {
            let stop = stop.clone();
            thread::spawn(move || churn_fds(&stop))
        })
        .collect();
    let killer = {
        let stop = stop.clone();
        thread::spawn(move || {
            let mut sent = 0usize;
            while !stop.load(Ordering::Relaxed) {
                // SAFETY: signalling our own process, whose handler is installed.
                unsafe { libc::kill(libc::getpid(), libc::SIGUSR1) };
                sent += 1;
                thread::sleep(Duration::from_micros(200));
            }
            sent
        })
    };
    let spawners: Vec<_> = (0..threads)
        .map(|id| thread::spawn(move || spawner(id, threads, each, engine)))
        .collect();
    let results: Vec<Result<usize, String>> = spawners
        .into_iter()
        .map(|t| t.join().unwrap_or_else(|_| Err("spawner panicked".into())))
        .collect();
    stop.store(true, Ordering::Relaxed);
    let churned: usize = churners
        .into_iter()
        .map(|t| t.join().expect("churner"))
        .sum();
    let sent = killer.join().expect("killer");

    let errors: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    let spawned: usize = results.iter().filter_map(|r| r.as_ref().ok()).sum();
    println!(
        "{engine}: spawned {spawned}, fd churn rounds {churned}, signals sent {sent}, handled {}",
        HANDLED.load(Ordering::Relaxed) - handled_before
    );
    assert!(
        errors.is_empty(),
        "{} spawner threads failed: {errors:#?}",
        errors.len()
    );
    assert_eq!(spawned, threads * each);
    assert!(
        HANDLED.load(Ordering::Relaxed) > handled_before,
        "the SIGUSR1 handler never ran"
    );
    util::assert_fds_unchanged(&before, &format!("{engine}: after the storm"));
    util::assert_no_zombies(&format!("{engine}: after the storm"));
}

#[test]
fn spawn_storm_with_fd_churn_and_signals() {
    let _guard = util::exclusive();
    storm(Engine::Auto, SPAWNERS, SPAWNS_EACH);
}

/// A smaller storm for each concrete engine.
#[test]
fn spawn_storm_each_engine() {
    let _guard = util::exclusive();
    for engine in Engine::ALL {
        if util::engine_usable(engine) {
            storm(engine, 4, 100);
        }
    }
}
