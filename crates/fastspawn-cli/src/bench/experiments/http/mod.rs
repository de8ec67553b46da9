//! The `http` experiment: the Val Town post's servers that spawn one
//! process per request (`bench/http/`), loaded with `hey -c 30 -n 10000`.
//!
//! One repetition of one cell (a server and a workload):
//! 1. start the server in its own process group on a free port, wait until
//!    it answers, and check its answer (status 200, the exact bytes of
//!    `echo hi` or of main.c);
//! 2. prewarm it (1,000 requests), reset its event-loop histogram;
//! 3. the load: hey's requests/s and latency percentiles, every response a
//!    200; the CPU time of the server's process group (children included);
//! 4. the event-loop delay of the JavaScript servers (`/__stats`), a second
//!    body check, then SIGTERM (SIGKILL after 3 s) to the group and a check
//!    that no process of it is left.

mod client;
mod hey;
mod report;

use std::collections::BTreeMap;
use std::fs::File;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::bench::experiment::{Cell, Experiment, Extra, Measuring, Options, Plan};
use crate::bench::peer::{PeerRun, Peers};
use crate::bench::record::{EventLoop, HttpCpu, HttpRep, Measurement, Repetition};
use crate::export::{Chart, Table};

const ABOUT: &str = "The Val Town post's HTTP servers that spawn one process per request and pipe its stdout to the response, loaded with `hey -c 30 -n 10000` (the post used `bombardier -c 30 -n 10000`) after 1,000 prewarm requests: requests per second, latency percentiles, and the event-loop delay of the Node servers under the load.";

/// Connections of the load, as in the post.
pub const CONNECTIONS: u64 = 30;

/// The servers, in the order of the table: the post's first table, then
/// its variants, then fastspawn's, then the no-spawn controls.
pub const SERVERS: [&str; 15] = [
    "node-baseline",
    "deno-baseline",
    "bun-baseline",
    "go-net-http",
    "rust-tokio",
    "node-cluster",
    "node-worker-threads",
    "node-child-process",
    "node-fastspawn",
    "node-fastspawn-tuned",
    "rust-fastspawn",
    "node-no-spawn",
    "node-no-spawn-stream",
    "node-no-spawn-readable",
    "rust-no-spawn-stream",
];

/// What each server is, for the table's notes.
pub fn describe(server: &str) -> &'static str {
    match server {
        "node-baseline" => "`node baseline.mjs`: spawn per request, stdout piped to the response",
        "deno-baseline" => "`deno run --allow-all baseline.mjs`",
        "bun-baseline" => "`bun baseline.mjs`",
        "go-net-http" => "Go net/http + os/exec, stdout copied to the response",
        "rust-tokio" => "Rust hyper + tokio::process, stdout streamed as the body",
        "node-cluster" => "`node cluster.mjs`: the baseline in one process per core",
        "node-worker-threads" => {
            "`node worker-threads.mjs`: execFile in one worker thread per core"
        }
        "node-child-process" => "`node child-process.mjs`: execFile in a fork() pool, one per core",
        "node-fastspawn" => {
            "`node baseline.mjs --spawn-module bindings/node`: the baseline with fastspawn's spawn"
        }
        "node-fastspawn-tuned" => {
            "`node fastspawn-tuned.mjs --spawn-module bindings/node`: the baseline with fastspawn's spawn and its opt-ins for such a server: each stdout a plain Readable fed by the addon (`pipeAs: 'readable'`) and the children's events coalesced while others run (`setDelivery({ within: 5000 })`)"
        }
        "rust-fastspawn" => "Rust hyper + fastspawn::tokio, stdout streamed as the body",
        "node-no-spawn-stream" => {
            "`node no-spawn-stream.mjs`: a control that spawns nothing but pipes to each response a net.Socket over a socketpair already holding the output, as a child's stdout is in Node (the floor for a Node spawn library whose child.stdout is a net.Socket)"
        }
        "node-no-spawn-readable" => {
            "`node no-spawn-readable.mjs`: a control that spawns nothing but pipes to each response the plainest stream.Readable, already holding the output in one Buffer and ended (the floor for a Node spawn library whose child.stdout is any Readable)"
        }
        "rust-no-spawn-stream" => {
            "`fastspawn-http-server --spawner none`: the Rust server with nothing spawned, each response streamed from a socketpair already holding the output (rust-fastspawn's CPU per request less this control's is what spawning and reaping a child costs the Rust server)"
        }
        "node-no-spawn" => {
            "`node no-spawn.mjs`: a control that answers from memory and spawns nothing (Node's own HTTP cost: the ceiling for any Node spawn library)"
        }
        _ => "",
    }
}

pub const WORKLOADS: [&str; 2] = ["echo", "cat"];

/// Requests per repetition and for the prewarm.
fn counts(opts: &Options) -> (u64, u64) {
    if opts.quick {
        (300, 60)
    } else {
        (10_000, 1_000)
    }
}

fn reps(opts: &Options) -> usize {
    // One full round takes about 5 minutes on 2 cores (Node's baseline
    // serves ~400 requests/s); `--full` interleaves three.
    if opts.full { 3 } else { 1 }
}

/// The `http` experiment.
pub struct Http;

impl Experiment for Http {
    fn name(&self) -> &'static str {
        "http"
    }

    fn about(&self) -> &'static str {
        ABOUT
    }

    fn plan(&self, opts: &Options, peers: &Peers) -> Plan {
        plan(opts, peers)
    }

    fn measure(&self, plan: &Plan, ctx: &mut Measuring) -> Vec<Measurement> {
        measure(self.name(), plan, ctx)
    }

    /// Start, checks, prewarm, and the load at ~300 requests/s (Node's
    /// baseline on 2 cores); nothing without hey.
    fn expected_s(&self, cell: &Cell) -> f64 {
        if hey::find().is_none() {
            return 0.0;
        }
        3.0 + cell.run.n as f64 / 300.0
    }

    fn tables(&self, ms: &[Measurement]) -> Vec<Table> {
        report::tables(ms)
    }

    fn charts(&self, ms: &[Measurement]) -> Vec<Chart> {
        report::charts(ms)
    }

    fn headline(&self, ms: &[Measurement]) -> Vec<String> {
        report::headline(ms)
    }
}

/// Plans the experiment: every server with every workload. Servers that
/// cannot run here are planned too and skipped when measured (with the
/// reason printed and noted).
fn plan(opts: &Options, peers: &Peers) -> Plan {
    let paths = Paths::find(peers);
    let (n, _) = counts(opts);
    let mut cells = Vec::new();
    let only = only_servers();
    for workload in WORKLOADS {
        for server in SERVERS {
            if only
                .as_ref()
                .is_some_and(|o| !o.iter().any(|s| s == server))
            {
                continue;
            }
            let run = PeerRun::new(server, "http", n, workload_argv(workload, &paths.main_c));
            cells.push(Cell {
                extra: Extra::default(),
                runner: server.to_string(),
                params: BTreeMap::from([("workload".to_string(), workload.to_string())]),
                run,
                budget_s: f64::INFINITY,
            });
        }
    }
    let mut notes = vec![
        format!(
            "hey -c {CONNECTIONS} -n N sends N rounded down to a multiple of {CONNECTIONS} (each connection's worker gets N/{CONNECTIONS}): {} requests for -n {n}.",
            hey::requests_sent(n, CONNECTIONS)
        ),
        "The post ran on 8 vCPUs; this machine has 2 cores shared by hey, the server and its children.".to_string(),
    ];
    if let Some(only) = &only {
        notes.push(format!(
            "Only the servers {ONLY_VAR} names: {}.",
            only.join(", ")
        ));
    }
    for server in SERVERS {
        if let Err(reason) = launch(server, "echo", 0, &paths) {
            notes.push(format!("{server} skipped: {reason}"));
        }
    }
    Plan {
        reps: reps(opts),
        cells,
        notes,
    }
}

/// Names the servers to run (comma-separated), for runs by hand.
const ONLY_VAR: &str = "FASTSPAWN_HTTP_SERVERS";

fn only_servers() -> Option<Vec<String>> {
    let value = std::env::var(ONLY_VAR).ok()?;
    Some(
        value
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
    )
}

fn missing_hey() -> String {
    "hey is not installed (`make bench` installs it: `make -C bench/http tools`)".to_string()
}

fn workload_argv(workload: &str, main_c: &Path) -> Vec<String> {
    match workload {
        "echo" => vec!["echo".into(), "hi".into()],
        _ => vec!["cat".into(), main_c.display().to_string()],
    }
}

/// Where the servers and their tools are.
struct Paths {
    /// bench/http
    http: PathBuf,
    /// target/peers/http: the built Go and Rust servers.
    built: PathBuf,
    /// bindings/node: the fastspawn Node package.
    node_binding: PathBuf,
    main_c: PathBuf,
}

impl Paths {
    fn find(peers: &Peers) -> Paths {
        let http = [
            "bench/http",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/http"),
        ]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.join("node/baseline.mjs").exists())
        .map(|p| p.canonicalize().unwrap_or(p))
        .unwrap_or_else(|| PathBuf::from("bench/http"));
        let root = http.join("../..");
        let root = root.canonicalize().unwrap_or(root);
        Paths {
            main_c: http.join("main.c"),
            built: peers.dir.join("http"),
            node_binding: root.join("bindings/node"),
            http,
        }
    }
}

/// Finds a program in PATH.
pub fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| {
            use std::os::unix::fs::PermissionsExt;
            p.metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// How to start one server.
#[derive(Debug, Clone)]
struct Launch {
    program: PathBuf,
    args: Vec<String>,
    env: Vec<(String, String)>,
    /// Whether it answers `/__stats` (the JavaScript servers).
    stats: bool,
}

/// The command line of `server`, or why it cannot run here.
fn launch(server: &str, workload: &str, port: u16, paths: &Paths) -> Result<Launch, String> {
    let exists = |p: &Path, what: &str| -> Result<(), String> {
        if p.exists() {
            Ok(())
        } else {
            Err(format!("{} is missing ({what})", p.display()))
        }
    };
    let common = vec![
        "--port".to_string(),
        port.to_string(),
        "--workload".to_string(),
        workload.to_string(),
        "--main-c".to_string(),
        paths.main_c.display().to_string(),
    ];
    let script = |name: &str| paths.http.join("node").join(name).display().to_string();
    let node = || which("node").ok_or_else(|| "node is not in PATH".to_string());
    let js = |program: PathBuf, mut args: Vec<String>, extra: &[String]| {
        args.extend(common.iter().cloned());
        args.extend(extra.iter().cloned());
        Launch {
            program,
            args,
            env: vec![
                ("DENO_NO_UPDATE_CHECK".into(), "1".into()),
                ("DO_NOT_TRACK".into(), "1".into()),
            ],
            stats: true,
        }
    };
    let npm_bin = |name: &str| {
        let p = paths.http.join("node_modules/.bin").join(name);
        exists(&p, "`make peers` runs npm ci in bench/http").map(|()| p)
    };
    Ok(match server {
        "node-baseline"
        | "node-cluster"
        | "node-worker-threads"
        | "node-child-process"
        | "node-no-spawn"
        | "node-no-spawn-readable" => {
            let file = format!("{}.mjs", server.trim_start_matches("node-"));
            js(node()?, vec![script(&file)], &[])
        }
        "node-fastspawn" | "node-fastspawn-tuned" | "node-no-spawn-stream" => {
            let index = paths.node_binding.join("index.js");
            exists(&index, "the fastspawn Node package is not built yet")?;
            exists(
                &paths.node_binding.join("fastspawn.node"),
                "the fastspawn Node addon is not built yet",
            )?;
            let file = match server {
                "node-fastspawn" => "baseline.mjs",
                "node-fastspawn-tuned" => "fastspawn-tuned.mjs",
                _ => "no-spawn-stream.mjs",
            };
            js(
                node()?,
                vec![script(file)],
                &[
                    "--spawn-module".to_string(),
                    paths.node_binding.display().to_string(),
                ],
            )
        }
        "deno-baseline" => js(
            npm_bin("deno")?,
            vec!["run".into(), "--allow-all".into(), script("baseline.mjs")],
            &[],
        ),
        "bun-baseline" => js(npm_bin("bun")?, vec![script("baseline.mjs")], &[]),
        "go-net-http" => {
            let program = paths.built.join("go-http-server");
            exists(&program, "build it with `make peers`")?;
            Launch {
                program,
                args: common,
                env: Vec::new(),
                stats: false,
            }
        }
        "rust-tokio" | "rust-fastspawn" | "rust-no-spawn-stream" => {
            let program = paths.built.join("rust-http-server");
            exists(&program, "build it with `make peers`")?;
            let mut args = common;
            let spawner = match server {
                "rust-no-spawn-stream" => "none",
                other => other.trim_start_matches("rust-"),
            };
            args.extend(["--spawner".into(), spawner.into()]);
            Launch {
                program,
                args,
                env: Vec::new(),
                stats: false,
            }
        }
        _ => return Err(format!("unknown server {server:?}")),
    })
}

/// Runs the experiment: every cell once per round, rounds interleaved.
fn measure(name: &str, plan: &Plan, ctx: &mut Measuring) -> Vec<Measurement> {
    let (opts, bar, failures) = (ctx.opts, ctx.bar, &mut *ctx.failures);
    let paths = Paths::find(ctx.peers);
    let (n, prewarm) = counts(opts);
    let say = |line: String| bar.suspend(|| eprintln!("http: {line}"));
    let Some(hey) = hey::find() else {
        if !opts.quick {
            failures.push(format!("http: {}", missing_hey()));
        }
        bar.inc(plan.round_steps() as u64);
        ctx.skipped = Some(missing_hey());
        return Vec::new();
    };
    let main_c = match std::fs::read(&paths.main_c) {
        Ok(bytes) => bytes,
        Err(err) => {
            failures.push(format!("http: reading {}: {err}", paths.main_c.display()));
            return Vec::new();
        }
    };
    let mut slots: Vec<Option<Measurement>> = Vec::new();
    for cell in &plan.cells {
        let workload = cell.params.get("workload").cloned().unwrap_or_default();
        match launch(&cell.runner, &workload, 0, &paths) {
            Ok(_) => slots.push(Some(Measurement {
                experiment: name.to_string(),
                runner: cell.runner.clone(),
                params: cell.params.clone(),
                mode: "http".to_string(),
                n: hey::requests_sent(n, CONNECTIONS),
                n_requested: n,
                child: cell.run.child.clone(),
                repetitions: Vec::new(),
            })),
            Err(reason) => {
                if workload == WORKLOADS[0] {
                    say(format!("skipping {}: {reason}", cell.runner));
                }
                // Deno and Bun come with `make peers`, hey with `make bench`:
                // only the Node addon (another package) may be missing in a full run.
                if !opts.quick && !cell.runner.starts_with("node-fastspawn") {
                    failures.push(format!("http {} {workload}: {reason}", cell.runner));
                }
                slots.push(None);
            }
        }
    }
    let started = Instant::now();
    for round in 0..plan.reps {
        for (cell, slot) in plan.cells.iter().zip(slots.iter_mut()) {
            bar.inc(1);
            let Some(measurement) = slot else { continue };
            let workload = measurement.param("workload").unwrap_or("echo").to_string();
            bar.set_message(format!(
                "http {} {workload} ({}/{})",
                cell.runner,
                round + 1,
                plan.reps
            ));
            let expected: &[u8] = if workload == "echo" { b"hi\n" } else { &main_c };
            let job = Job {
                server: &cell.runner,
                workload: &workload,
                expected,
                n,
                prewarm,
                hey: &hey,
                paths: &paths,
            };
            match job.run() {
                Ok(rep) => measurement.repetitions.push(rep),
                Err(err) => {
                    let msg = format!("http {} {workload}: {err:#}", cell.runner);
                    say(format!("FAILED: {msg}"));
                    failures.push(msg);
                    *slot = None;
                }
            }
        }
    }
    if !opts.quick {
        say(format!(
            "{} repetition(s) in {:.0} s",
            plan.reps,
            started.elapsed().as_secs_f64()
        ));
    }
    slots.into_iter().flatten().collect()
}

/// One repetition of one cell.
struct Job<'a> {
    server: &'a str,
    workload: &'a str,
    expected: &'a [u8],
    n: u64,
    prewarm: u64,
    hey: &'a Path,
    paths: &'a Paths,
}

const CHECK_TIMEOUT: Duration = Duration::from_secs(20);
const START_TIMEOUT: Duration = Duration::from_secs(30);

impl Job<'_> {
    fn run(&self) -> Result<Repetition> {
        let port = free_port()?;
        let launch = launch(self.server, self.workload, port, self.paths)
            .map_err(|reason| anyhow::anyhow!(reason))?;
        let log = std::env::temp_dir().join(format!(
            "fastspawn-http-{}-{}-{}.log",
            std::process::id(),
            self.server,
            self.workload
        ));
        let mut server = Server::start(&launch, &log)?;
        let result = self.measure(&launch, &mut server, port);
        let stopped = server.stop();
        let result = match (result, stopped) {
            (Ok(rep), Ok(())) => Ok(rep),
            (Err(err), _) | (Ok(_), Err(err)) => {
                Err(err.context(format!("server log {}: {}", log.display(), tail(&log))))
            }
        };
        if result.is_ok() {
            let _ = std::fs::remove_file(&log);
        }
        result
    }

    fn measure(&self, launch: &Launch, server: &mut Server, port: u16) -> Result<Repetition> {
        server.wait_listening(port)?;
        self.check_bodies(port, 3).context("before the load")?;
        let url = format!("http://127.0.0.1:{port}/");
        hey::run(self.hey, &url, self.prewarm, CONNECTIONS)?
            .check(hey::requests_sent(self.prewarm, CONNECTIONS))
            .context("prewarm")?;
        if launch.stats {
            let reset = client::get(port, "/__stats/reset", CHECK_TIMEOUT)?;
            anyhow::ensure!(
                reset.status == 200,
                "/__stats/reset: status {}",
                reset.status
            );
        }
        let cpu_before = group_cpu(server.pgid);
        let hey_before = reaped_cpu_ns();
        let machine_before = machine_cpu();
        let summary = hey::run(self.hey, &url, self.n, CONNECTIONS)?;
        let machine_after = machine_cpu();
        let hey_after = reaped_cpu_ns();
        let cpu_after = group_cpu(server.pgid);
        let sent = hey::requests_sent(self.n, CONNECTIONS);
        summary.check(sent).context("the load")?;
        let event_loop = if launch.stats {
            let stats = client::get(port, "/__stats", CHECK_TIMEOUT)?;
            anyhow::ensure!(stats.status == 200, "/__stats: status {}", stats.status);
            Some(
                serde_json::from_slice::<EventLoop>(&stats.body).with_context(|| {
                    format!("/__stats: {}", String::from_utf8_lossy(&stats.body))
                })?,
            )
        } else {
            None
        };
        self.check_bodies(port, 3).context("after the load")?;
        let mut latency_ms: BTreeMap<String, f64> = summary
            .percentiles
            .iter()
            .map(|(p, s)| (format!("p{p}"), s * 1e3))
            .collect();
        latency_ms.insert("fastest".into(), summary.fastest_s * 1e3);
        latency_ms.insert("average".into(), summary.average_s * 1e3);
        latency_ms.insert("slowest".into(), summary.slowest_s * 1e3);
        let (busy, machine_busy_ns) = match (machine_before, machine_after) {
            (Some((busy0, all0)), Some((busy1, all1))) if all1 > all0 => (
                (busy1 - busy0) as f64 / (all1 - all0) as f64,
                (busy1 - busy0) as i64 * tick_ns(),
            ),
            _ => (f64::NAN, -1),
        };
        let cpu = HttpCpu {
            server_ns: cpu_after.own - cpu_before.own,
            children_ns: cpu_after.children - cpu_before.children,
            hey_ns: hey_after.zip(hey_before).map_or(-1, |(a, b)| a - b),
            busy,
            machine_busy_ns,
        };
        Ok(Repetition {
            total_ns: (summary.total_s * 1e9) as u64,
            cpu_user_ns: cpu_after.user - cpu_before.user,
            cpu_sys_ns: cpu_after.sys - cpu_before.sys,
            http: Some(HttpRep {
                requests: summary.status.get(&200).copied().unwrap_or(0),
                requests_per_s: summary.requests_per_s,
                latency_ms,
                event_loop,
                cpu: Some(cpu),
            }),
            ..Repetition::default()
        })
    }

    /// `count` requests, one after the other, each answered with exactly
    /// the child's output.
    fn check_bodies(&self, port: u16, count: usize) -> Result<()> {
        for _ in 0..count {
            let response = client::get(port, "/", CHECK_TIMEOUT)?;
            client::check(&response, self.expected)?;
        }
        Ok(())
    }
}

/// A port nobody listens on right now.
fn free_port() -> Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0").context("finding a free port")?;
    Ok(listener.local_addr()?.port())
}

/// The last lines of a server's log, for error messages.
fn tail(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let tail = lines[lines.len().saturating_sub(15)..].join("\n");
    if tail.is_empty() {
        "(empty)".into()
    } else {
        tail
    }
}

/// A running server: the leader of its own process group.
struct Server {
    child: fastspawn::Child,
    pgid: i32,
    stopped: bool,
}

impl Server {
    fn start(launch: &Launch, log: &Path) -> Result<Server> {
        let out = File::create(log).with_context(|| format!("creating {}", log.display()))?;
        let err = out.try_clone()?;
        let mut cmd = fastspawn::Command::new(&launch.program);
        cmd.args(&launch.args)
            .envs(launch.env.iter().map(|(k, v)| (k, v)))
            .stdin(fastspawn::Stdio::null())
            .stdout(out)
            .stderr(err)
            .process_group(0)
            .pdeathsig(libc::SIGKILL);
        let child = cmd
            .spawn()
            .with_context(|| format!("starting {}", launch.program.display()))?;
        let pgid = child.id() as i32;
        Ok(Server {
            child,
            pgid,
            stopped: false,
        })
    }

    /// Waits until the port accepts connections (or the server dies).
    fn wait_listening(&mut self, port: u16) -> Result<()> {
        let deadline = Instant::now() + START_TIMEOUT;
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        loop {
            if let Some(status) = self.child.try_wait()? {
                self.stopped = true;
                bail!("the server exited before listening ({status})");
            }
            if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
                return Ok(());
            }
            if Instant::now() > deadline {
                bail!("the server did not listen on {addr} within {START_TIMEOUT:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// SIGTERM to the group, SIGKILL after 3 s; fails if a process of the
    /// group outlives that.
    fn stop(mut self) -> Result<()> {
        self.stop_group()
    }

    fn stop_group(&mut self) -> Result<()> {
        if self.stopped {
            return Ok(());
        }
        self.stopped = true;
        // SAFETY: kill() takes no pointers; a negative pid names our group.
        unsafe { libc::kill(-self.pgid, libc::SIGTERM) };
        let deadline = Instant::now() + Duration::from_secs(3);
        while Instant::now() < deadline {
            if self.child.try_wait()?.is_some() && group_members(self.pgid).is_empty() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        // SAFETY: as above.
        unsafe { libc::kill(-self.pgid, libc::SIGKILL) };
        self.child.wait()?;
        let deadline = Instant::now() + Duration::from_secs(2);
        loop {
            let left = group_members(self.pgid);
            if left.is_empty() {
                return Ok(());
            }
            if Instant::now() > deadline {
                bail!("processes {left:?} of the server's group outlived SIGKILL");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.stop_group();
    }
}

/// Fields of /proc/PID/stat after the command name: (pgrp, state, utime,
/// stime, cutime, cstime) in clock ticks.
fn stat_fields(text: &str) -> Option<(i32, char, [i64; 4])> {
    let after = &text[text.rfind(')')? + 1..];
    let f: Vec<&str> = after.split_whitespace().collect();
    let num = |i: usize| f.get(i)?.parse::<i64>().ok();
    Some((
        f.get(2)?.parse().ok()?,
        f.first()?.chars().next()?,
        [num(11)?, num(12)?, num(13)?, num(14)?],
    ))
}

/// Calls `visit(pid, pgrp, state, times)` for every process.
fn each_process(mut visit: impl FnMut(i32, i32, char, [i64; 4])) {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        if let Some((pgrp, state, times)) = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .as_deref()
            .and_then(stat_fields)
        {
            visit(pid, pgrp, state, times);
        }
    }
}

/// Live (not zombie) processes in group `pgid`.
fn group_members(pgid: i32) -> Vec<i32> {
    let mut pids = Vec::new();
    each_process(|pid, pgrp, state, _| {
        if pgrp == pgid && state != 'Z' {
            pids.push(pid);
        }
    });
    pids
}

/// CPU time of a process group, nanoseconds.
struct GroupCpu {
    /// User time, the reaped children's included.
    user: i64,
    /// System time, the reaped children's included.
    sys: i64,
    /// The group's processes themselves (user + system).
    own: i64,
    /// The children they reaped (user + system).
    children: i64,
}

/// Nanoseconds per clock tick of /proc's times.
fn tick_ns() -> i64 {
    // SAFETY: sysconf takes no pointers.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1);
    1_000_000_000 / hz
}

fn group_cpu(pgid: i32) -> GroupCpu {
    let mut t = [0i64; 4];
    each_process(|_, pgrp, _, times| {
        if pgrp == pgid {
            for (sum, v) in t.iter_mut().zip(times) {
                *sum += v;
            }
        }
    });
    let ns = tick_ns();
    let [utime, stime, cutime, cstime] = t.map(|v| v * ns);
    GroupCpu {
        user: utime + cutime,
        sys: stime + cstime,
        own: utime + stime,
        children: cutime + cstime,
    }
}

/// The CPU time of this process's reaped children (user + system, ns):
/// around one load, hey's.
fn reaped_cpu_ns() -> Option<i64> {
    let text = std::fs::read_to_string("/proc/self/stat").ok()?;
    let (_, _, [_, _, cutime, cstime]) = stat_fields(&text)?;
    Some((cutime + cstime) * tick_ns())
}

/// The machine's CPU time from /proc/stat's first line, in ticks: (not
/// idle, all). Idle is `idle` + `iowait`; steal counts as not idle.
fn machine_cpu() -> Option<(u64, u64)> {
    let text = std::fs::read_to_string("/proc/stat").ok()?;
    parse_machine_cpu(&text)
}

fn parse_machine_cpu(text: &str) -> Option<(u64, u64)> {
    let line = text.lines().find(|l| l.starts_with("cpu "))?;
    let f: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .take(8)
        .map(|v| v.parse().ok())
        .collect::<Option<_>>()?;
    let all: u64 = f.iter().sum();
    let idle = f.get(3)? + f.get(4)?;
    Some((all - idle, all))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_stat_fields() {
        let line =
            "4242 (node worker (x)) S 1 4240 4240 0 -1 4194560 1 0 0 0 250 31 7 9 20 0 11 0 1 2 3";
        assert_eq!(stat_fields(line), Some((4240, 'S', [250, 31, 7, 9])));
        assert_eq!(stat_fields("garbage"), None);
        let me = std::fs::read_to_string("/proc/self/stat").unwrap();
        assert!(stat_fields(&me).is_some());
    }

    #[test]
    fn machine_cpu_counts_idle_and_iowait_as_idle() {
        let stat = "cpu  100 5 50 800 20 3 2 10 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n";
        assert_eq!(parse_machine_cpu(stat), Some((170, 990)));
        assert_eq!(parse_machine_cpu("cpu0 1 2 3\n"), None);
        assert!(machine_cpu().is_some());
    }

    /// hey's CPU is read as this process's reaped children's: a child that
    /// burns CPU adds to it once reaped.
    #[test]
    fn reaped_children_cpu_grows_with_a_reaped_child() {
        let before = reaped_cpu_ns().unwrap();
        let status = fastspawn::Command::new("sh")
            .args(["-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"])
            .status()
            .unwrap();
        assert!(status.success());
        let after = reaped_cpu_ns().unwrap();
        assert!(after > before, "{before} -> {after}");
    }

    #[test]
    fn every_server_is_planned_with_both_workloads() {
        let peers = Peers {
            dir: "/nonexistent".into(),
        };
        let opts = Options {
            quick: true,
            full: false,
            max_rss_gib: 4,
        };
        let plan = plan(&opts, &peers);
        assert_eq!(plan.cells.len(), SERVERS.len() * WORKLOADS.len());
        assert!(SERVERS.iter().all(|s| !describe(s).is_empty()));
        // Nothing is built under /nonexistent: the Go and Rust servers say why.
        assert!(plan.notes.iter().any(|n| {
            n.starts_with("go-net-http skipped: /nonexistent/http/go-http-server is missing")
        }));
        let cat = &plan.cells[SERVERS.len()];
        assert_eq!(cat.run.child[0], "cat");
        assert!(cat.run.child[1].ends_with("bench/http/main.c"));
    }

    #[test]
    fn launch_lines() {
        let paths = Paths {
            http: "/r/bench/http".into(),
            built: "/nonexistent".into(),
            node_binding: "/nonexistent/bindings/node".into(),
            main_c: "/r/bench/http/main.c".into(),
        };
        let err = launch("node-fastspawn", "echo", 1, &paths).unwrap_err();
        assert!(err.contains("index.js is missing"), "{err}");
        let err = launch("node-fastspawn-tuned", "echo", 1, &paths).unwrap_err();
        assert!(err.contains("index.js is missing"), "{err}");
        assert!(launch("perl-cgi", "echo", 1, &paths).is_err());
        if which("node").is_some() {
            let l = launch("node-cluster", "cat", 8001, &paths).unwrap();
            assert_eq!(
                l.args,
                [
                    "/r/bench/http/node/cluster.mjs",
                    "--port",
                    "8001",
                    "--workload",
                    "cat",
                    "--main-c",
                    "/r/bench/http/main.c"
                ]
            );
            assert!(l.stats);
            // The Readable control needs no addon (nothing of it is built here).
            let l = launch("node-no-spawn-readable", "echo", 8002, &paths).unwrap();
            assert_eq!(l.args[0], "/r/bench/http/node/no-spawn-readable.mjs");
            assert!(l.stats);
        }
    }

    /// The payload is the ~163 KB C file the post served.
    #[test]
    fn main_c_is_about_163_kb() {
        let main_c = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/http/main.c");
        let len = std::fs::metadata(&main_c).unwrap().len();
        assert!((155_000..=170_000).contains(&len), "{len} bytes");
        let text = std::fs::read_to_string(main_c).unwrap();
        assert!(text.contains("int main(int argc, char **argv)"));
    }
}
