//! fastspawn bench peer for Rust (see docs/peer-protocol.md).
//!
//! Runners (the synchronous ones build their command once and spawn it N
//! times; tokio builds one per spawn, as async code does):
//! - `rust-std`: `std::process::Command::spawn`, which takes glibc's
//!   posix_spawn path when nothing forces it off.
//! - `rust-std-pre-exec`: the same plus a no-op `pre_exec` closure, which
//!   forces std onto its fork + exec path.
//! - `rust-command-fds`: the command-fds crate's `fd_mappings` (a `pre_exec`
//!   closure that dup2s the fds in the forked child), also with K = 0.
//! - `rust-tokio`: `tokio::process::Command`, in the runtime picked by
//!   `--async-mode` (`current`, `current-blocking`, `multi-N`).
//! - `fastspawn-*`: provided by the core library, see `run_fastspawn`.
//!
//! `--extra-fds K`: command-fds maps K pipe read ends to child fds 3..3+K.
//! std and tokio have no way to remap fds, so for them the read ends are
//! placed at fds 3..3+K of the peer once, without CLOEXEC, and inherited.
//! `--set-env` calls `env("FASTSPAWN_BENCH", "1")` on each command (std then
//! rebuilds the whole environment on every spawn, which is the point).
//! Wall time: `Instant` (CLOCK_MONOTONIC); CPU: getrusage(RUSAGE_SELF).

use std::ffi::OsString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Command, ExitStatus};
use std::sync::Arc;
use std::time::Instant;

use clap::{CommandFactory, Parser, ValueEnum};
use command_fds::{CommandFdExt, FdMapping};
use serde::Serialize;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Runner {
    RustStd,
    RustStdPreExec,
    RustCommandFds,
    RustTokio,
    FastspawnAuto,
    FastspawnClone3,
    FastspawnCloneVfork,
    FastspawnPosixSpawn,
    FastspawnFork,
    FastspawnPool,
    FastspawnContained,
}

impl Runner {
    const ALL: [Runner; 11] = [
        Runner::RustStd,
        Runner::RustStdPreExec,
        Runner::RustCommandFds,
        Runner::RustTokio,
        Runner::FastspawnAuto,
        Runner::FastspawnClone3,
        Runner::FastspawnCloneVfork,
        Runner::FastspawnPosixSpawn,
        Runner::FastspawnFork,
        Runner::FastspawnPool,
        Runner::FastspawnContained,
    ];

    fn is_fastspawn(self) -> bool {
        self.name().starts_with("fastspawn-")
    }

    fn name(self) -> &'static str {
        match self {
            Runner::RustStd => "rust-std",
            Runner::RustStdPreExec => "rust-std-pre-exec",
            Runner::RustCommandFds => "rust-command-fds",
            Runner::RustTokio => "rust-tokio",
            Runner::FastspawnAuto => "fastspawn-auto",
            Runner::FastspawnClone3 => "fastspawn-clone3",
            Runner::FastspawnCloneVfork => "fastspawn-clone-vfork",
            Runner::FastspawnPosixSpawn => "fastspawn-posix-spawn",
            Runner::FastspawnFork => "fastspawn-fork",
            Runner::FastspawnPool => "fastspawn-pool",
            Runner::FastspawnContained => "fastspawn-contained",
        }
    }
}

impl ValueEnum for Runner {
    fn value_variants<'a>() -> &'a [Self] {
        &Runner::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()))
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Debug, ValueEnum)]
enum Mode {
    Wait,
    Spawn,
    /// Process trees (`fastspawn-contained`): time `kill_tree(SIGKILL)` +
    /// `wait_tree()` of a tree started by CHILD.
    KillTree,
    /// The same tree killed by a process-group kill, timed to the child's
    /// reaping; counts what the kill left running.
    KillGroup,
    /// The HyperQueue task loop: N tasks on a current-thread runtime, at
    /// most `--concurrency` at once (see `run_tasks`).
    Tasks,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Wait => "wait",
            Mode::Spawn => "spawn",
            Mode::KillTree => "kill-tree",
            Mode::KillGroup => "kill-group",
            Mode::Tasks => "tasks",
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum AsyncMode {
    Current,
    CurrentBlocking,
    Multi(usize),
}

fn parse_async_mode(s: &str) -> Result<AsyncMode, String> {
    match s {
        "current" => Ok(AsyncMode::Current),
        "current-blocking" => Ok(AsyncMode::CurrentBlocking),
        _ => match s.strip_prefix("multi-").map(str::parse::<usize>) {
            Some(Ok(n)) if n >= 1 => Ok(AsyncMode::Multi(n)),
            _ => Err("expected current, current-blocking or multi-N (N >= 1)".into()),
        },
    }
}

/// fastspawn bench peer for Rust: spawns CHILD N times, prints one JSON line.
#[derive(Parser, Debug)]
#[command(name = "fastspawn-peer-rust")]
struct Args {
    #[arg(long)]
    runner: Runner,
    #[arg(long)]
    mode: Mode,
    /// number of measured spawns
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    n: u64,
    /// spawns done and waited before the clock starts
    #[arg(long, default_value_t = 20)]
    warmup: u64,
    /// MiB made resident before anything else
    #[arg(long, default_value_t = 0)]
    rss_mib: usize,
    /// set FASTSPAWN_BENCH=1 on every command
    #[arg(long)]
    set_env: bool,
    /// extra fds mapped to child fds 3..3+K
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..1000))]
    extra_fds: u16,
    /// report every measured operation's duration
    #[arg(long)]
    samples: bool,
    /// rust-tokio only: current, current-blocking, multi-N
    #[arg(long, value_parser = parse_async_mode)]
    async_mode: Option<AsyncMode>,
    /// async runners: also measure the runtime loop's longest stall
    #[arg(long)]
    measure_stall: bool,
    /// fastspawn-pool: spawner threads
    #[arg(long, default_value_t = 1)]
    pool_threads: usize,
    /// fastspawn runners: also set cwd, setsid, an rlimit and map the extra fds
    #[arg(long)]
    with_options: bool,
    /// fastspawn runners: spawn without a pidfd (`Command::pidfd(false)`)
    #[arg(long)]
    no_pidfd: bool,
    /// tasks mode: tasks running at once
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..))]
    concurrency: u64,
    /// the child program (a path) and its arguments
    #[arg(last = true, required = true)]
    child: Vec<OsString>,
}

#[derive(Serialize)]
struct Report {
    runner: &'static str,
    mode: &'static str,
    n: u64,
    total_ns: u128,
    cpu_user_ns: i64,
    cpu_sys_ns: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    samples_ns: Option<Vec<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stall_p99_ns: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stall_max_ns: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stall_max_unpreempted_ns: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stall_preempted: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spawn_poll_p50_ns: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spawn_poll_p99_ns: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spawn_poll_max_ns: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spawn_poll_p99_unpreempted_ns: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spawn_poll_max_unpreempted_ns: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spawn_polls_preempted: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tree_procs: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    escaped: Option<u64>,
}

/// What a measured loop produced.
struct Measured {
    total_ns: u128,
    cpu: (i64, i64),
    samples: Option<Vec<u64>>,
    /// With `--measure-stall`: the gaps of the runtime's loop.
    stall: Option<Stall>,
    /// Kill modes: processes in the trees before the kill, and those the
    /// kill left running (sums over the N trees).
    trees: Option<(u64, u64)>,
}

/// Everything a spawn needs, prepared before the clock starts.
struct Ctx {
    runner: Runner,
    argv: Vec<OsString>,
    set_env: bool,
    /// command-fds sources (CLOEXEC, all >= 3 + K); empty for other runners
    fd_sources: Vec<OwnedFd>,
    /// fastspawn runners: `--no-pidfd`
    no_pidfd: bool,
}

/// Reports a failure and exits 1, after reaping every child still around.
fn fail(runner: Runner, step: &str, err: impl std::fmt::Display) -> ! {
    eprintln!("{}: {step}: {err}", runner.name());
    // SAFETY: waitpid with a null status pointer is always sound.
    while unsafe { libc::waitpid(-1, std::ptr::null_mut(), 0) } > 0
        || io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
    {}
    std::process::exit(1);
}

fn check_status(runner: Runner, status: io::Result<ExitStatus>) {
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => fail(runner, "wait", format!("child {s}")),
        Err(e) => fail(runner, "wait", e),
    }
}

fn cpu_ns() -> (i64, i64) {
    // SAFETY: getrusage only writes into the struct it is given.
    let ru = unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut ru);
        ru
    };
    #[allow(clippy::unnecessary_cast)] // time_t is not i64 everywhere
    let ns = |tv: libc::timeval| tv.tv_sec as i64 * 1_000_000_000 + tv.tv_usec as i64 * 1_000;
    (ns(ru.ru_utime), ns(ru.ru_stime))
}

/// Opens K pipes and returns their read ends (CLOEXEC), moved to fds >= `min`.
fn open_pipes(k: usize, min: RawFd) -> io::Result<Vec<OwnedFd>> {
    (0..k)
        .map(|_| {
            let mut p = [0 as RawFd; 2];
            // SAFETY: pipe2 fills the two-element array; we own both fds.
            let (r, w) = unsafe {
                if libc::pipe2(p.as_mut_ptr(), libc::O_CLOEXEC) < 0 {
                    return Err(io::Error::last_os_error());
                }
                (OwnedFd::from_raw_fd(p[0]), OwnedFd::from_raw_fd(p[1]))
            };
            drop(w);
            dup_above(&r, min)
        })
        .collect()
}

/// fcntl(F_DUPFD_CLOEXEC): a new fd for the same file, numbered >= `min`.
fn dup_above(fd: &OwnedFd, min: RawFd) -> io::Result<OwnedFd> {
    // SAFETY: F_DUPFD_CLOEXEC returns a fresh fd that we then own.
    unsafe {
        let new = libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, min);
        if new < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(OwnedFd::from_raw_fd(new))
    }
}

/// For std and tokio: K pipe read ends at fds 3..3+K of the peer, without
/// CLOEXEC, so every child inherits them at those numbers. Leaked on purpose.
fn place_inherited_fds(runner: Runner, k: usize) -> io::Result<()> {
    let top = 3 + k as RawFd;
    for fd in 3..top {
        // SAFETY: F_GETFD only queries the fd.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } >= 0 {
            fail(
                runner,
                "extra-fds",
                format!("fd {fd} is already open in the peer"),
            );
        }
    }
    for (i, src) in open_pipes(k, top)?.into_iter().enumerate() {
        // SAFETY: dup2 onto a free fd; dup2 leaves the new fd without CLOEXEC.
        if unsafe { libc::dup2(src.as_raw_fd(), 3 + i as RawFd) } < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

fn std_command(ctx: &Ctx) -> Command {
    let mut cmd = Command::new(&ctx.argv[0]);
    cmd.args(&ctx.argv[1..]);
    if ctx.set_env {
        cmd.env("FASTSPAWN_BENCH", "1");
    }
    cmd
}

/// Builds the runner's command once; the measured loop spawns it N times
/// (std's `Command` is reusable, and reuse never makes std slower).
fn build_std(ctx: &Ctx) -> io::Result<Command> {
    match ctx.runner {
        Runner::RustStd => Ok(std_command(ctx)),
        Runner::RustStdPreExec => {
            let mut cmd = std_command(ctx);
            // SAFETY: the closure does nothing, which is async-signal-safe.
            unsafe { cmd.pre_exec(|| Ok(())) };
            Ok(cmd)
        }
        Runner::RustCommandFds => {
            // FdMapping owns its parent fd: the command gets its own dups
            // (numbered >= 3 + K, so the child really dup2s every one).
            // command-fds 0.3.3 installs its pre_exec in fd_mappings even for
            // an empty Vec (map_fds returns early in the child), so K = 0
            // still measures the pre_exec (fork) path.
            let min = 3 + ctx.fd_sources.len() as RawFd;
            let mappings = ctx
                .fd_sources
                .iter()
                .enumerate()
                .map(|(i, fd)| {
                    Ok(FdMapping {
                        parent_fd: dup_above(fd, min)?,
                        child_fd: 3 + i as RawFd,
                    })
                })
                .collect::<io::Result<Vec<_>>>()?;
            let mut cmd = std_command(ctx);
            cmd.fd_mappings(mappings).map_err(io::Error::other)?;
            Ok(cmd)
        }
        _ => unreachable!("not a std runner"),
    }
}

/// The measured loop of the synchronous runners: `warmup` waited spawns,
/// then `n` spawns timed. `spawn(true)` spawns and waits (returns `None`),
/// `spawn(false)` only spawns; `reap` waits for a child after the clock.
fn measure_sync<C>(
    args: &Args,
    mut spawn: impl FnMut(bool) -> Option<C>,
    mut reap: impl FnMut(C),
) -> Measured {
    for _ in 0..args.warmup {
        spawn(true);
    }
    let wait = args.mode == Mode::Wait;
    let mut children = Vec::with_capacity(if wait { 0 } else { args.n as usize });
    let mut samples = args.samples.then(|| Vec::with_capacity(args.n as usize));
    let cpu0 = cpu_ns();
    let t0 = Instant::now();
    let mut t = t0;
    for _ in 0..args.n {
        children.extend(spawn(wait));
        if let Some(s) = samples.as_mut() {
            let t1 = Instant::now();
            s.push((t1 - t).as_nanos() as u64);
            t = t1;
        }
    }
    let total_ns = t0.elapsed().as_nanos();
    let cpu1 = cpu_ns();
    children.into_iter().for_each(&mut reap);
    Measured {
        total_ns,
        cpu: (cpu1.0 - cpu0.0, cpu1.1 - cpu0.1),
        samples,
        stall: None,
        trees: None,
    }
}

/// The synchronous std-based runners; wait mode uses `status()` (spawn +
/// wait, as std implements it).
fn run_std(ctx: &Ctx, args: &Args) -> Measured {
    let runner = ctx.runner;
    let mut cmd = build_std(ctx).unwrap_or_else(|e| fail(runner, "command", e));
    measure_sync(
        args,
        |wait| {
            if wait {
                check_status(runner, cmd.status());
                None
            } else {
                Some(cmd.spawn().unwrap_or_else(|e| fail(runner, "spawn", e)))
            }
        },
        |mut child| check_status(runner, child.wait()),
    )
}

fn tokio_command(ctx: &Ctx) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(&ctx.argv[0]);
    cmd.args(&ctx.argv[1..]);
    if ctx.set_env {
        cmd.env("FASTSPAWN_BENCH", "1");
    }
    cmd
}

/// A failed step inside a tokio task, reported once every task has finished
/// (exiting from one task while others are mid-spawn would orphan children).
type TaskError = (&'static str, String);

async fn spawn_tokio(ctx: &Arc<Ctx>, blocking: bool) -> Result<tokio::process::Child, TaskError> {
    let res = if blocking {
        let ctx2 = Arc::clone(ctx);
        tokio::task::spawn_blocking(move || tokio_command(&ctx2).spawn())
            .await
            .map_err(|e| ("spawn_blocking", e.to_string()))?
    } else {
        tokio_command(ctx).spawn()
    };
    res.map_err(|e| ("spawn", e.to_string()))
}

async fn wait_tokio(mut child: tokio::process::Child) -> Result<(), TaskError> {
    match child.wait().await {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(("wait", format!("child {s}"))),
        Err(e) => Err(("wait", e.to_string())),
    }
}

/// What one or more tasks produced: unwaited children, samples, first error.
#[derive(Default)]
struct TaskOut {
    children: Vec<tokio::process::Child>,
    samples: Vec<u64>,
    error: Option<TaskError>,
}

/// One task's share: `count` spawns, each awaited if `wait`, else returned.
async fn tokio_task(
    ctx: Arc<Ctx>,
    blocking: bool,
    count: u64,
    wait: bool,
    want_samples: bool,
) -> TaskOut {
    let mut out = TaskOut::default();
    let mut t = Instant::now();
    for _ in 0..count {
        let child = timed(spawn_tokio(&ctx, blocking)).await;
        maybe_yield().await;
        let child = match child {
            Ok(child) => child,
            Err(e) => {
                return TaskOut {
                    error: Some(e),
                    ..out
                };
            }
        };
        if wait {
            if let Err(e) = wait_tokio(child).await {
                return TaskOut {
                    error: Some(e),
                    ..out
                };
            }
        } else {
            out.children.push(child);
        }
        if want_samples {
            let t1 = Instant::now();
            out.samples.push((t1 - t).as_nanos() as u64);
            t = t1;
        }
    }
    out
}

/// `total` spawns split over `tasks` tokio tasks; returns after all finish.
async fn tokio_round(
    ctx: &Arc<Ctx>,
    blocking: bool,
    tasks: u64,
    total: u64,
    wait: bool,
    want_samples: bool,
) -> TaskOut {
    let handles: Vec<_> = (0..tasks)
        .map(|i| {
            let count = total / tasks + u64::from(i < total % tasks);
            tokio::spawn(tokio_task(
                Arc::clone(ctx),
                blocking,
                count,
                wait,
                want_samples,
            ))
        })
        .collect();
    let mut all = TaskOut::default();
    for h in handles {
        let out = h.await.unwrap_or_else(|e| TaskOut {
            error: Some(("task", e.to_string())),
            ..Default::default()
        });
        all.children.extend(out.children);
        all.samples.extend(out.samples);
        all.error = all.error.or(out.error);
    }
    all
}

/// Waits for every child; fails (after reaping them all) if anything failed.
async fn reap_tokio(ctx: &Ctx, out: TaskOut) {
    let mut error = out.error;
    for child in out.children {
        if let Err(e) = wait_tokio(child).await {
            error = error.or(Some(e));
        }
    }
    if let Some((step, msg)) = error {
        fail(ctx.runner, step, msg);
    }
}

fn run_tokio(ctx: Ctx, args: &Args) -> Measured {
    let runner = ctx.runner;
    let async_mode = args.async_mode.unwrap_or(AsyncMode::Current);
    let rt = match async_mode {
        AsyncMode::Current | AsyncMode::CurrentBlocking => {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
        }
        AsyncMode::Multi(workers) => tokio::runtime::Builder::new_multi_thread()
            .worker_threads(workers)
            .enable_all()
            .build(),
    }
    .unwrap_or_else(|e| fail(runner, "runtime", e));
    let blocking = async_mode == AsyncMode::CurrentBlocking;
    let tasks = match async_mode {
        AsyncMode::Multi(workers) => workers as u64,
        _ => 1,
    };
    let ctx = Arc::new(ctx);
    rt.block_on(async {
        let warm = tokio_round(&ctx, blocking, tasks, args.warmup, true, false).await;
        reap_tokio(&ctx, warm).await;

        let ticker = args.measure_stall.then(Ticker::start);
        let cpu0 = cpu_ns();
        let t0 = Instant::now();
        let wait = args.mode == Mode::Wait;
        let mut out = tokio_round(&ctx, blocking, tasks, args.n, wait, args.samples).await;
        let total_ns = t0.elapsed().as_nanos();
        let cpu1 = cpu_ns();
        let stall = match ticker {
            Some(t) => Some(t.finish().await),
            None => None,
        };

        let samples = std::mem::take(&mut out.samples);
        reap_tokio(&ctx, out).await;
        Measured {
            total_ns,
            cpu: (cpu1.0 - cpu0.0, cpu1.1 - cpu0.1),
            samples: args.samples.then_some(samples),
            stall,
            trees: None,
        }
    })
}

// ---------------------------------------------------------------------------
// fastspawn runners: one `fastspawn::Command` built before the clock and
// spawned N times with the engine the runner names. `--with-options` also
// sets cwd, setsid and an rlimit and maps the extra fds with `fd()`, the
// options that push std and command-fds onto fork.
// ---------------------------------------------------------------------------
fn fastspawn_engine(runner: Runner) -> fastspawn::Engine {
    match runner {
        Runner::FastspawnAuto | Runner::FastspawnPool | Runner::FastspawnContained => {
            fastspawn::Engine::Auto
        }
        Runner::FastspawnClone3 => fastspawn::Engine::Clone3,
        Runner::FastspawnCloneVfork => fastspawn::Engine::CloneVfork,
        Runner::FastspawnPosixSpawn => fastspawn::Engine::PosixSpawn,
        _ => fastspawn::Engine::Fork,
    }
}

fn fastspawn_command(ctx: &Ctx, with_options: bool) -> io::Result<fastspawn::Command> {
    let mut cmd = fastspawn::Command::new(&ctx.argv[0]);
    cmd.args(&ctx.argv[1..])
        .engine(fastspawn_engine(ctx.runner))
        .pidfd(!ctx.no_pidfd);
    if ctx.set_env {
        cmd.env("FASTSPAWN_BENCH", "1");
    }
    if ctx.runner == Runner::FastspawnContained {
        cmd.contain(true).require_contained(true);
    }
    let min = 3 + ctx.fd_sources.len() as RawFd;
    for (i, fd) in ctx.fd_sources.iter().enumerate() {
        cmd.fd(3 + i as RawFd, dup_above(fd, min)?);
    }
    if with_options {
        let mut limit: libc::rlimit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the struct it is given.
        unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
        cmd.current_dir("/").setsid(true).rlimit(
            fastspawn::Resource::Nofile,
            limit.rlim_cur,
            limit.rlim_max,
        );
    }
    Ok(cmd)
}

fn check_fastspawn(runner: Runner, status: fastspawn::Result<fastspawn::ExitStatus>) {
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => fail(runner, "wait", format!("child {s}")),
        Err(e) => fail(runner, "wait", e),
    }
}

fn run_fastspawn(ctx: Ctx, args: &Args) -> Measured {
    if args.async_mode.is_some() {
        return run_fastspawn_async(ctx, args);
    }
    let runner = ctx.runner;
    let mut cmd =
        fastspawn_command(&ctx, args.with_options).unwrap_or_else(|e| fail(runner, "command", e));
    // wait mode: `spawn()` then `wait()`, as user code does (the `Child`
    // makes its pidfd only if something needs it: see fastspawn's child.rs);
    // spawn mode: `spawn()`.
    measure_sync(
        args,
        |wait| {
            if wait {
                let mut child = cmd.spawn().unwrap_or_else(|e| fail(runner, "spawn", e));
                check_fastspawn(runner, child.wait());
                None
            } else {
                Some(cmd.spawn().unwrap_or_else(|e| fail(runner, "spawn", e)))
            }
        },
        |mut child| check_fastspawn(runner, child.wait()),
    )
}

/// The Rust post's async modes with fastspawn's tokio API: every task
/// awaits `spawn()` (done on fastspawn's spawner threads) and, in wait mode,
/// `wait()` (the pidfd on the reactor). The runtime thread never spawns, so
/// `current-blocking` runs exactly like `current` here.
fn run_fastspawn_async(ctx: Ctx, args: &Args) -> Measured {
    let runner = ctx.runner;
    let async_mode = args.async_mode.unwrap_or(AsyncMode::Current);
    let rt = match async_mode {
        AsyncMode::Multi(workers) => tokio::runtime::Builder::new_multi_thread()
            .worker_threads(workers)
            .enable_all()
            .build(),
        _ => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build(),
    }
    .unwrap_or_else(|e| fail(runner, "runtime", e));
    let tasks = match async_mode {
        AsyncMode::Multi(workers) => workers as u64,
        _ => 1,
    };
    let ctx = Arc::new(ctx);
    let with_options = args.with_options;
    let round = |total: u64, wait: bool| {
        let ctx = Arc::clone(&ctx);
        async move {
            let handles: Vec<_> = (0..tasks)
                .map(|i| {
                    let count = total / tasks + u64::from(i < total % tasks);
                    let ctx = Arc::clone(&ctx);
                    tokio::spawn(async move {
                        let cmd =
                            fastspawn_command(&ctx, with_options).map_err(|e| e.to_string())?;
                        let mut cmd = fastspawn::tokio::Command::from(cmd);
                        let mut children = Vec::new();
                        for _ in 0..count {
                            let mut child = timed(cmd.spawn()).await.map_err(|e| e.to_string())?;
                            maybe_yield().await;
                            if wait {
                                let status = child.wait().await.map_err(|e| e.to_string())?;
                                if !status.success() {
                                    return Err(format!("child {status}"));
                                }
                            } else {
                                children.push(child);
                            }
                        }
                        Ok::<_, String>(children)
                    })
                })
                .collect();
            let mut children = Vec::new();
            let mut error = None;
            for h in handles {
                match h.await {
                    Ok(Ok(c)) => children.extend(c),
                    Ok(Err(e)) => error = error.or(Some(e)),
                    Err(e) => error = error.or(Some(e.to_string())),
                }
            }
            (children, error)
        }
    };
    rt.block_on(async {
        let reap = |children: Vec<fastspawn::tokio::Child>, error: Option<String>| async move {
            for mut child in children {
                match child.wait().await {
                    Ok(s) if s.success() => {}
                    Ok(s) => fail(runner, "wait", format!("child {s}")),
                    Err(e) => fail(runner, "wait", e),
                }
            }
            if let Some(e) = error {
                fail(runner, "spawn", e);
            }
        };
        let (warm, error) = round(args.warmup, true).await;
        reap(warm, error).await;
        let ticker = args.measure_stall.then(Ticker::start);
        let cpu0 = cpu_ns();
        let t0 = Instant::now();
        let (children, error) = round(args.n, args.mode == Mode::Wait).await;
        let total_ns = t0.elapsed().as_nanos();
        let cpu1 = cpu_ns();
        let stall = match ticker {
            Some(t) => Some(t.finish().await),
            None => None,
        };
        reap(children, error).await;
        Measured {
            total_ns,
            cpu: (cpu1.0 - cpu0.0, cpu1.1 - cpu0.1),
            samples: None,
            stall,
            trees: None,
        }
    })
}

/// Set with `--measure-stall`: spawning tasks yield after every spawn, as a
/// server's tasks do between requests, so the ticker can measure the stall
/// of each spawn rather than of the whole loop.
static YIELD_BETWEEN_SPAWNS: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

async fn maybe_yield() {
    if YIELD_BETWEEN_SPAWNS.load(std::sync::atomic::Ordering::Relaxed) {
        tokio::task::yield_now().await;
    }
}

/// Per spawn, the longest single poll of its spawn future, and whether the
/// thread was preempted during that poll: the time the spawn itself kept
/// the runtime's thread busy, told apart from the scheduler taking the CPU.
/// Recorded only with `--measure-stall`, for the measured spawns.
static SPAWN_POLLS: std::sync::Mutex<Vec<(u64, bool)>> = std::sync::Mutex::new(Vec::new());
static RECORD_POLLS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Runs `fut`, timing each of its polls when `--measure-stall` recording is on.
async fn timed<F: std::future::Future>(fut: F) -> F::Output {
    if !RECORD_POLLS.load(std::sync::atomic::Ordering::Relaxed) {
        return fut.await;
    }
    let mut fut = std::pin::pin!(fut);
    let mut longest = (0u64, false);
    let out = std::future::poll_fn(|cx| {
        let before = involuntary_switches();
        let t0 = Instant::now();
        let poll = fut.as_mut().poll(cx);
        let took = t0.elapsed().as_nanos() as u64;
        if took > longest.0 {
            longest = (took, involuntary_switches() != before);
        }
        poll
    })
    .await;
    SPAWN_POLLS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(longest);
    out
}

/// The per-spawn longest polls recorded so far, in ns.
fn spawn_polls() -> SpawnPolls {
    let polls = std::mem::take(&mut *SPAWN_POLLS.lock().unwrap_or_else(|e| e.into_inner()));
    let sorted = |keep: fn(&(u64, bool)) -> bool| {
        let mut v: Vec<u64> = polls.iter().filter(|p| keep(p)).map(|p| p.0).collect();
        v.sort_unstable();
        v
    };
    let at = |v: &[u64], q: usize| {
        v.get(v.len().saturating_sub(1) * q / 100)
            .copied()
            .unwrap_or(0)
    };
    let all = sorted(|_| true);
    let unpreempted = sorted(|p| !p.1);
    SpawnPolls {
        p50: at(&all, 50),
        p99: at(&all, 99),
        max: all.last().copied().unwrap_or(0),
        p99_unpreempted: at(&unpreempted, 99),
        max_unpreempted: unpreempted.last().copied().unwrap_or(0),
        preempted: (all.len() - unpreempted.len()) as u64,
    }
}

/// Per spawn, the longest poll of its spawn future: percentiles over all
/// spawns, and over the spawns whose longest poll had no preemption.
#[derive(Clone, Copy, Default)]
struct SpawnPolls {
    p50: u64,
    p99: u64,
    max: u64,
    p99_unpreempted: u64,
    max_unpreempted: u64,
    preempted: u64,
}

/// Measures how long the runtime's loop goes without polling a task: a task
/// that yields in a loop records the time between its polls. Each gap is
/// also tagged with whether the kernel preempted the runtime thread during
/// it (its involuntary context-switch count moved): on 2 cores the children
/// and the spawner threads compete with the runtime thread, and a gap that
/// contains a preemption measures the scheduler, not the spawn.
struct Ticker {
    stop: Arc<std::sync::atomic::AtomicBool>,
    handle: tokio::task::JoinHandle<(Vec<(u64, bool)>, u64)>,
}

/// Gaps the ticker records one by one (16 MiB).
const TICKER_CAPACITY: usize = 1 << 20;

/// What the ticker saw, in ns.
#[derive(Clone, Copy)]
struct Stall {
    p99: u64,
    max: u64,
    /// The longest gap with no preemption of the runtime thread in it.
    max_unpreempted: u64,
    /// How many gaps contained a preemption.
    preempted: u64,
    /// Per spawn, the longest poll of its spawn future.
    spawn_poll: SpawnPolls,
}

/// The calling thread's involuntary context switches so far.
fn involuntary_switches() -> i64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes a whole rusage into the buffer we own; on
    // failure the zeroed buffer is read, giving 0.
    unsafe {
        libc::getrusage(libc::RUSAGE_THREAD, usage.as_mut_ptr());
        usage.assume_init().ru_nivcsw
    }
}

impl Ticker {
    fn start() -> Ticker {
        SPAWN_POLLS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .reserve(1 << 20);
        RECORD_POLLS.store(true, std::sync::atomic::Ordering::Relaxed);
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        // The record is allocated and written once before the clock: a
        // page fault (a 2 MiB zeroing with transparent huge pages) or a
        // reallocation inside the ticker would show up as a stall. Gaps
        // past its capacity still count for max and preemptions.
        let mut gaps: Vec<(u64, bool)> = vec![(1, true); TICKER_CAPACITY];
        gaps.clear();
        let handle = tokio::spawn(async move {
            let mut overflow = (0u64, 0u64, 0u64);
            let mut switches = involuntary_switches();
            let mut last = Instant::now();
            while !flag.load(std::sync::atomic::Ordering::Relaxed) {
                tokio::task::yield_now().await;
                let now = Instant::now();
                let after = involuntary_switches();
                let gap = ((now - last).as_nanos() as u64, after != switches);
                if gaps.len() < gaps.capacity() {
                    gaps.push(gap);
                } else if gap.1 {
                    overflow.0 = overflow.0.max(gap.0);
                    overflow.2 += 1;
                } else {
                    overflow.1 = overflow.1.max(gap.0);
                }
                switches = after;
                // The clock restarts after the ticker's own bookkeeping.
                last = Instant::now();
            }
            // Gaps that did not fit are kept as their extremes only.
            gaps.push((overflow.0, true));
            gaps.push((overflow.1, false));
            (gaps, overflow.2.saturating_sub(1))
        });
        Ticker { stop, handle }
    }

    async fn finish(self) -> Stall {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        RECORD_POLLS.store(false, std::sync::atomic::Ordering::Relaxed);
        let (gaps, preempted_overflow) = self.handle.await.unwrap_or_default();
        let mut all: Vec<u64> = gaps.iter().map(|g| g.0).collect();
        all.sort_unstable();
        let p99 = all
            .get(all.len().saturating_sub(1) * 99 / 100)
            .copied()
            .unwrap_or(0);
        Stall {
            p99,
            max: all.last().copied().unwrap_or(0),
            max_unpreempted: gaps.iter().filter(|g| !g.1).map(|g| g.0).max().unwrap_or(0),
            preempted: gaps.iter().filter(|g| g.1).count() as u64 + preempted_overflow,
            spawn_poll: spawn_polls(),
        }
    }
}

/// `fastspawn-pool`: one `Pool` of `--pool-threads` spawner threads starts
/// the N children with `Pool::spawn_many` (spawn mode only).
fn run_fastspawn_pool(ctx: Ctx, args: &Args) -> Measured {
    let runner = ctx.runner;
    if args.mode != Mode::Spawn {
        fail(runner, "setup", "fastspawn-pool measures spawn mode only");
    }
    let pool = fastspawn::Pool::new(args.pool_threads).unwrap_or_else(|e| fail(runner, "pool", e));
    let cmd =
        fastspawn_command(&ctx, args.with_options).unwrap_or_else(|e| fail(runner, "command", e));
    let batch = |n: u64| pool.spawn_many(&cmd, (0..n).map(|_| fastspawn::Variant::new()));
    let reap = |results: Vec<fastspawn::Result<fastspawn::Child>>| {
        for result in results {
            match result {
                Ok(mut child) => check_fastspawn(runner, child.wait()),
                Err(e) => fail(runner, "spawn", e),
            }
        }
    };
    reap(batch(args.warmup));
    let cpu0 = cpu_ns();
    let t0 = Instant::now();
    let results = batch(args.n);
    let total_ns = t0.elapsed().as_nanos();
    let cpu1 = cpu_ns();
    reap(results);
    Measured {
        total_ns,
        cpu: (cpu1.0 - cpu0.0, cpu1.1 - cpu0.1),
        samples: None,
        stall: None,
        trees: None,
    }
}

// ---------------------------------------------------------------------------
// Process trees (`fastspawn bench tree`): `kill-tree` and `kill-group` start
// one tree per measured kill. CHILD's stdout is a pipe that the peer reads
// to EOF before the clock starts: the tree's script closes it only once
// every grandchild is in place (the `tree` experiment's script prints from
// each escaped grandchild after its `setsid` and then points stdout at
// /dev/null), so the kill always meets the whole tree.
// ---------------------------------------------------------------------------

/// Starts one tree (contained, in a new session, stderr to /dev/null) and
/// returns once its stdout reached EOF.
fn start_tree(ctx: &Ctx) -> fastspawn::Child {
    let runner = ctx.runner;
    let mut cmd = fastspawn_command(ctx, false).unwrap_or_else(|e| fail(runner, "command", e));
    cmd.setsid(true)
        .stdout(fastspawn::Stdio::piped())
        .stderr(fastspawn::Stdio::null());
    let mut child = cmd.spawn().unwrap_or_else(|e| fail(runner, "spawn", e));
    let Some(mut out) = child.stdout.take() else {
        fail(runner, "spawn", "no stdout pipe")
    };
    let mut sink = Vec::new();
    io::Read::read_to_end(&mut out, &mut sink)
        .unwrap_or_else(|e| fail(runner, "read the tree's stdout", e));
    child
}

/// The process group of a live process, from /proc/PID/stat.
fn process_group(pid: u32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(2)?
        .parse()
        .ok()
}

/// `kill-tree`: `kill_tree(SIGKILL)` then `wait_tree()`, timed.
/// `kill-group`: `kill(-pgid, SIGKILL)` then the child's `wait()`, timed;
/// the tree's members outside the child's process group are then counted
/// (they were never signalled) and killed with `kill_tree`, untimed.
/// Either way the peer checks that the tree is empty before the next one.
fn run_kill(ctx: &Ctx, args: &Args) -> Measured {
    let runner = ctx.runner;
    let group = args.mode == Mode::KillGroup;
    let one = |trees: &mut (u64, u64), cpu: &mut (i64, i64)| -> u128 {
        let mut child = start_tree(ctx);
        let before = child
            .tree_pids()
            .unwrap_or_else(|e| fail(runner, "tree_pids", e));
        let pid = child.id();
        let cpu0 = cpu_ns();
        let t0 = Instant::now();
        if group {
            // SAFETY: kill only sends a signal; the child is a session
            // leader, so -pid names its own process group, not the peer's.
            if unsafe { libc::kill(-(pid as i32), libc::SIGKILL) } < 0 {
                fail(runner, "kill(-pgid)", io::Error::last_os_error());
            }
            child.wait().unwrap_or_else(|e| fail(runner, "wait", e));
        } else {
            child
                .kill_tree(libc::SIGKILL)
                .unwrap_or_else(|e| fail(runner, "kill_tree", e));
            child
                .wait_tree()
                .unwrap_or_else(|e| fail(runner, "wait_tree", e));
        }
        let took = t0.elapsed().as_nanos();
        let cpu1 = cpu_ns();
        cpu.0 += cpu1.0 - cpu0.0;
        cpu.1 += cpu1.1 - cpu0.1;
        let left = child
            .tree_pids()
            .unwrap_or_else(|e| fail(runner, "tree_pids", e));
        // Members of the killed group may still be on their way out.
        let running = left
            .iter()
            .filter(|p| !group || process_group(**p).is_some_and(|g| g != pid as i32))
            .count();
        if !left.is_empty() {
            child
                .kill_tree(libc::SIGKILL)
                .unwrap_or_else(|e| fail(runner, "kill_tree (cleanup)", e));
            child
                .wait_tree()
                .unwrap_or_else(|e| fail(runner, "wait_tree (cleanup)", e));
        }
        match child.tree_pids() {
            Ok(p) if p.is_empty() => {}
            Ok(p) => fail(
                runner,
                "cleanup",
                format!("{} processes left in the tree", p.len()),
            ),
            Err(e) => fail(runner, "tree_pids", e),
        }
        trees.0 += before.len() as u64;
        trees.1 += running as u64;
        took
    };
    let mut unused = ((0, 0), (0, 0));
    for _ in 0..args.warmup {
        one(&mut unused.0, &mut unused.1);
    }
    let mut trees = (0, 0);
    let mut cpu = (0, 0);
    let total_ns = (0..args.n).map(|_| one(&mut trees, &mut cpu)).sum();
    Measured {
        total_ns,
        cpu,
        samples: None,
        stall: None,
        trees: Some(trees),
    }
}

// ---------------------------------------------------------------------------
// `tasks` mode (`fastspawn bench task-runtime`): HyperQueue's worker loop.
// A current-thread runtime runs N tasks, at most `--concurrency` at once;
// each task builds its command, sends stdout and stderr to files of its own,
// starts the child in a new session with SIGKILL as its parent-death signal,
// and awaits its exit. `rust-tokio` does it as HyperQueue does, with
// `tokio::process` and a `pre_exec` closure (setsid + prctl), which puts
// every spawn on fork; the fastspawn runners use `fastspawn::tokio` with
// `setsid(true)` and `pdeathsig(SIGKILL)`, and `fastspawn-contained` also
// `contain(true)`. The clock covers the N tasks; the files live in a
// directory under /dev/shm (see `task_files_base`) removed at the end.
// ---------------------------------------------------------------------------

/// One task: files, spawn (timed per poll under `--measure-stall`), wait.
async fn run_task(ctx: &Ctx, dir: &std::path::Path, i: u64) -> Result<(), TaskError> {
    let open = |ext: &str| {
        std::fs::File::create(dir.join(format!("{i}.{ext}")))
            .map_err(|e| ("open the task's output file", e.to_string()))
    };
    let (out, err) = (open("out")?, open("err")?);
    if ctx.runner == Runner::RustTokio {
        let mut cmd = tokio_command(ctx);
        cmd.stdout(out).stderr(err);
        // SAFETY: the closure runs in the forked child and only makes two
        // async-signal-safe system calls; it allocates nothing.
        unsafe {
            cmd.pre_exec(|| {
                if libc::setsid() < 0 || libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) < 0 {
                    return Err(io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = timed(async { cmd.spawn() })
            .await
            .map_err(|e| ("spawn", e.to_string()))?;
        wait_tokio(child).await
    } else {
        let mut cmd = fastspawn_command(ctx, false).map_err(|e| ("command", e.to_string()))?;
        cmd.setsid(true)
            .pdeathsig(libc::SIGKILL)
            .stdout(out)
            .stderr(err);
        let mut cmd = fastspawn::tokio::Command::from(cmd);
        let mut child = timed(cmd.spawn())
            .await
            .map_err(|e| ("spawn", e.to_string()))?;
        match child.wait().await {
            Ok(s) if s.success() => Ok(()),
            Ok(s) => Err(("wait", format!("child {s}"))),
            Err(e) => Err(("wait", e.to_string())),
        }
    }
}

/// Tasks `first..first + count`, at most `concurrency` at once; the first
/// error, once every task has finished.
async fn tasks_round(
    ctx: &Arc<Ctx>,
    dir: &Arc<std::path::Path>,
    first: u64,
    count: u64,
    concurrency: u64,
) -> Result<(), TaskError> {
    let mut set = tokio::task::JoinSet::new();
    let mut error = None;
    let mut note = |r: Result<Result<(), TaskError>, tokio::task::JoinError>| {
        let e = match r {
            Ok(Ok(())) => return,
            Ok(Err(e)) => e,
            Err(e) => ("task", e.to_string()),
        };
        error = error.take().or(Some(e));
    };
    for i in first..first + count {
        if set.len() as u64 >= concurrency
            && let Some(r) = set.join_next().await
        {
            note(r);
        }
        let (ctx, dir) = (Arc::clone(ctx), Arc::clone(dir));
        set.spawn(async move { run_task(&ctx, &dir, i).await });
    }
    while let Some(r) = set.join_next().await {
        note(r);
    }
    error.map_or(Ok(()), Err)
}

/// Where the tasks' output files go: /dev/shm (tmpfs) when it exists, so
/// that the run measures spawning rather than the disk. On this project's
/// VMs an ext4 root mounted with `discard` made creating and removing the
/// 40,000 files of a run cost 190-740 µs of system time per task, varying
/// from run to run by 3x, against ~70 µs on tmpfs (the noise of the
/// 2026-11-23 partial run); the same for every runner, so the ratios
/// between runners mean the same either way.
fn task_files_base() -> std::path::PathBuf {
    let shm = std::path::Path::new("/dev/shm");
    if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

fn run_tasks(ctx: Ctx, args: &Args) -> Measured {
    let runner = ctx.runner;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| fail(runner, "runtime", e));
    let dir: Arc<std::path::Path> = task_files_base()
        .join(format!("fastspawn-peer-tasks-{}", std::process::id()))
        .into();
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| fail(runner, "task directory", e));
    let ctx = Arc::new(ctx);
    let conc = args.concurrency;
    let (result, measured) = rt.block_on(async {
        if let Err((step, msg)) = tasks_round(&ctx, &dir, 0, args.warmup, conc).await {
            return (Err((step, msg)), None);
        }
        let ticker = args.measure_stall.then(Ticker::start);
        let cpu0 = cpu_ns();
        let t0 = Instant::now();
        let result = tasks_round(&ctx, &dir, args.warmup, args.n, conc).await;
        let total_ns = t0.elapsed().as_nanos();
        let cpu1 = cpu_ns();
        let stall = match ticker {
            Some(t) => Some(t.finish().await),
            None => None,
        };
        let measured = Measured {
            total_ns,
            cpu: (cpu1.0 - cpu0.0, cpu1.1 - cpu0.1),
            samples: None,
            stall,
            trees: None,
        };
        (result, Some(measured))
    });
    let removed = std::fs::remove_dir_all(&dir);
    if let Err((step, msg)) = result {
        fail(runner, step, msg);
    }
    removed.unwrap_or_else(|e| fail(runner, "remove the task directory", e));
    measured.unwrap_or_else(|| fail(runner, "tasks", "nothing measured"))
}

fn main() {
    let args = Args::parse();
    let runner = args.runner;
    YIELD_BETWEEN_SPAWNS.store(args.measure_stall, std::sync::atomic::Ordering::Relaxed);
    if args.async_mode.is_some() && runner != Runner::RustTokio && !runner.is_fastspawn() {
        Args::command()
            .error(
                clap::error::ErrorKind::ArgumentConflict,
                "--async-mode applies only to rust-tokio and the fastspawn runners",
            )
            .exit();
    }

    // --rss-mib: make M MiB resident before anything else.
    let mut rss = vec![0u8; args.rss_mib << 20];
    for off in (0..rss.len()).step_by(4096) {
        rss[off] = 1;
    }
    std::hint::black_box(&mut rss);

    let k = args.extra_fds as usize;
    let mut ctx = Ctx {
        runner,
        argv: args.child.clone(),
        set_env: args.set_env,
        fd_sources: Vec::new(),
        no_pidfd: args.no_pidfd,
    };
    match runner {
        Runner::RustCommandFds
        | Runner::FastspawnAuto
        | Runner::FastspawnClone3
        | Runner::FastspawnCloneVfork
        | Runner::FastspawnPosixSpawn
        | Runner::FastspawnFork
        | Runner::FastspawnPool
        | Runner::FastspawnContained => {
            ctx.fd_sources =
                open_pipes(k, 3 + k as RawFd).unwrap_or_else(|e| fail(runner, "pipe", e))
        }
        Runner::RustStd | Runner::RustStdPreExec | Runner::RustTokio => {
            place_inherited_fds(runner, k).unwrap_or_else(|e| fail(runner, "extra-fds", e))
        }
    }

    let measured = match (args.mode, runner) {
        (Mode::KillTree | Mode::KillGroup, Runner::FastspawnContained) => run_kill(&ctx, &args),
        (Mode::KillTree | Mode::KillGroup, _) => Args::command()
            .error(
                clap::error::ErrorKind::ArgumentConflict,
                "--mode kill-tree and kill-group need --runner fastspawn-contained",
            )
            .exit(),
        (Mode::Tasks, Runner::RustTokio | Runner::FastspawnAuto | Runner::FastspawnContained) => {
            run_tasks(ctx, &args)
        }
        (Mode::Tasks, _) => Args::command()
            .error(
                clap::error::ErrorKind::ArgumentConflict,
                "--mode tasks needs --runner rust-tokio, fastspawn-auto or fastspawn-contained",
            )
            .exit(),
        (_, runner) => match runner {
            Runner::RustStd | Runner::RustStdPreExec | Runner::RustCommandFds => {
                run_std(&ctx, &args)
            }
            Runner::RustTokio => run_tokio(ctx, &args),
            Runner::FastspawnAuto
            | Runner::FastspawnClone3
            | Runner::FastspawnCloneVfork
            | Runner::FastspawnPosixSpawn
            | Runner::FastspawnFork
            | Runner::FastspawnContained => run_fastspawn(ctx, &args),
            Runner::FastspawnPool => run_fastspawn_pool(ctx, &args),
        },
    };

    let report = Report {
        runner: runner.name(),
        mode: args.mode.name(),
        n: args.n,
        total_ns: measured.total_ns,
        cpu_user_ns: measured.cpu.0,
        cpu_sys_ns: measured.cpu.1,
        samples_ns: measured.samples,
        stall_p99_ns: measured.stall.map(|s| s.p99),
        stall_max_ns: measured.stall.map(|s| s.max),
        stall_max_unpreempted_ns: measured.stall.map(|s| s.max_unpreempted),
        stall_preempted: measured.stall.map(|s| s.preempted),
        spawn_poll_p50_ns: measured.stall.map(|s| s.spawn_poll.p50),
        spawn_poll_p99_ns: measured.stall.map(|s| s.spawn_poll.p99),
        spawn_poll_max_ns: measured.stall.map(|s| s.spawn_poll.max),
        spawn_poll_p99_unpreempted_ns: measured.stall.map(|s| s.spawn_poll.p99_unpreempted),
        spawn_poll_max_unpreempted_ns: measured.stall.map(|s| s.spawn_poll.max_unpreempted),
        spawn_polls_preempted: measured.stall.map(|s| s.spawn_poll.preempted),
        tree_procs: measured.trees.map(|t| t.0),
        escaped: measured.trees.map(|t| t.1),
    };
    let line = serde_json::to_string(&report).unwrap_or_else(|e| fail(runner, "json", e));
    println!("{line}");
    drop(rss);
}
