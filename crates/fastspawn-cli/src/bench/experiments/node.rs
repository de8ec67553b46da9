//! `node`: the Node package (bindings/node) against the raw C clone loop
//! and `node:child_process`, measured by the package's own driver scripts
//! in one run (issue 11's speed goals).
//!
//! `bindings/node/bench/sequential.js --json` runs, interleaved in each
//! round, the C clone peer's loop, sequential `spawn()` + `'close'` with
//! `'pipe'` and `'ignore'` through the package and through
//! `node:child_process`, the Rust and Python peers when built, then times
//! every `spawn()` call with 16 children in flight, the calls during which
//! the JS thread was preempted apart. `bindings/node/bench/fork.js --json`
//! times the package's `fork()` + one IPC round trip + exit against
//! `node:child_process.fork()`, with 0 and 1 GiB held by the parent,
//! interleaved in every round.
//! Both print one JSON document, which this module turns into measurements.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Deserialize;

use crate::bench::experiment::{
    Cell, Experiment, Extra, Measuring, Options, Plan, params, repo_root, run_script,
};
use crate::bench::peer::{PeerRun, Peers};
use crate::bench::record::{Measurement, Repetition};
use crate::bench::stats::{self, Summary, median_interval};
use crate::bench::table::{self, fmt_ratio, fmt_us, gib, ratio};
use crate::export::{Chart, ChartKind, Table};

pub struct Node;

const ABOUT: &str = "The Node package (bindings/node) as Node programs use it: sequential `spawn()` of the static do-nothing child, each awaiting `'close'`, with `stdio: 'pipe'` and `'ignore'`, against the raw C clone(CLONE_VM|CLONE_VFORK) + waitpid loop and `node:child_process`, all interleaved in each round of one Node process (bindings/node/bench/sequential.js); how long one `spawn()` call holds the event loop; and `fork()` + one IPC round trip + exit against `node:child_process.fork()` with 0 and 1 GiB held by the parent (bindings/node/bench/fork.js).";

/// The sequential sides, in table order, with their label.
const SIDES: [(&str, &str); 15] = [
    ("c-clone", "raw C clone(CLONE_VM|CLONE_VFORK) + waitpid"),
    ("node-fastspawn-pipe", "fastspawn package, stdio 'pipe'"),
    ("node-fastspawn-ignore", "fastspawn package, stdio 'ignore'"),
    (
        "node-fastspawn-pipe-nolinger",
        "fastspawn package, stdio 'pipe', spawner linger off",
    ),
    (
        "node-fastspawn-ignore-nolinger",
        "fastspawn package, stdio 'ignore', spawner linger off",
    ),
    ("node-spawn-pipe", "node:child_process, stdio 'pipe'"),
    ("node-spawn-ignore", "node:child_process, stdio 'ignore'"),
    ("fastspawn-clone3", "Rust fastspawn Command::spawn + wait"),
    ("rust-std", "Rust std::process::Command + wait"),
    ("python-popen", "Python subprocess.Popen + wait"),
    (
        "node-ping",
        "JS -> spawner thread -> JS round trip, no spawn",
    ),
    (
        "node-ping-spawn",
        "Node floor: one addon call, spawn + wait on a pool thread, one callback and a promise",
    ),
    (
        "node-ping-spawn-linger",
        "Node floor with spawn()'s pidfd (made by the clone) and its linger (ppoll on the pidfd) before the wait",
    ),
    (
        "c-handoff-sleep",
        "C floor: loop thread in epoll, worker thread clones + waits, eventfd back; worker asleep between spawns",
    ),
    (
        "c-handoff-spin",
        "C floor: the same, worker spinning between spawns",
    ),
];

/// The fork implementations, with their label.
const FORKS: [(&str, &str); 2] = [
    ("node-fastspawn-fork", "fastspawn package fork()"),
    ("node-fork", "node:child_process.fork()"),
];

/// The package's runner whose spawn() calls are timed.
const STALL_RUNNER: &str = "node-fastspawn";

struct Settings {
    n: u64,
    rounds: u64,
    stall_n: u64,
    fork_n: u64,
    fork_rounds: u64,
    ballast_mib: u64,
}

fn settings(opts: &Options) -> Settings {
    if opts.quick {
        Settings {
            n: 60,
            rounds: 1,
            stall_n: 300,
            fork_n: 2,
            fork_rounds: 1,
            ballast_mib: 64,
        }
    } else {
        Settings {
            n: 400,
            rounds: if opts.full { 25 } else { 15 },
            stall_n: 5000,
            fork_n: 12,
            // The median of 24 paired rounds has a 94% interval of about
            // ±3% on this 2-core machine under a light load (8 rounds:
            // ±9%), enough to resolve the 5% goal; ~3 minutes.
            fork_rounds: if opts.full { 32 } else { 24 },
            ballast_mib: 1024.min(opts.max_rss_gib * 1024),
        }
    }
}

/// Where node and the driver scripts are.
struct Paths {
    node: PathBuf,
    bench: PathBuf,
}

impl Paths {
    fn find() -> Paths {
        let bench = repo_root("bindings/node/bench/sequential.js").join("bindings/node/bench");
        let node = std::env::var_os("FASTSPAWN_BENCH_NODE")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("node"));
        Paths { node, bench }
    }

    /// Why the experiment cannot run here, if it cannot.
    fn missing(&self) -> Option<String> {
        for script in ["sequential.js", "fork.js"] {
            if !self.bench.join(script).exists() {
                return Some(format!("{} is missing", self.bench.join(script).display()));
            }
        }
        let addon = self.bench.join("../fastspawn.node");
        if !addon.exists() {
            return Some(format!(
                "the Node addon ({}) is missing: `make node-addon` builds it",
                addon.display()
            ));
        }
        None
    }
}

impl Experiment for Node {
    fn name(&self) -> &'static str {
        "node"
    }

    fn about(&self) -> &'static str {
        ABOUT
    }

    fn plan(&self, opts: &Options, peers: &Peers) -> Plan {
        let s = settings(opts);
        let noop = vec![peers.noop()];
        let cell = |runner: &str, pairs: &[(&str, String)], n: u64, budget_s: f64| Cell {
            extra: Extra::default(),
            runner: runner.to_string(),
            params: params(pairs),
            run: PeerRun::new(runner, "wait", n, noop.clone()),
            budget_s,
        };
        let mut cells = Vec::new();
        // A driver runs all of its cells at once; these weigh its progress
        // steps (one per round), with no pilot (infinite budget).
        for (runner, _) in SIDES {
            cells.push(cell(
                runner,
                &[("test", "sequential".into())],
                s.n,
                f64::INFINITY,
            ));
        }
        cells.push(cell(
            STALL_RUNNER,
            &[("test", "stall".into())],
            s.stall_n,
            f64::INFINITY,
        ));
        for hold in [0, s.ballast_mib] {
            for (runner, _) in FORKS {
                cells.push(cell(
                    runner,
                    &[("test", "fork".into()), ("hold_mib", hold.to_string())],
                    s.fork_n,
                    f64::INFINITY,
                ));
            }
        }
        let mut notes = vec![format!(
            "Sequential: {} spawns per round for the package, the C loop and the Rust and Python peers, {} for node:child_process, {} rounds; spawn() calls timed: {}; fork: {} per round, {} rounds, at 0 and {} MiB.",
            s.n,
            (s.n / 4).max(50),
            s.rounds,
            s.stall_n,
            s.fork_n,
            s.fork_rounds,
            s.ballast_mib
        )];
        if let Some(why) = Paths::find().missing() {
            notes.push(format!("node skipped: {why}"));
        }
        Plan {
            reps: 1,
            cells,
            notes,
        }
    }

    fn expected_s(&self, cell: &Cell) -> f64 {
        if Paths::find().missing().is_some() {
            return 0.0;
        }
        match cell.params.get("test").map(String::as_str) {
            // ~0.1 s per cycle, 24 rounds (32 with --full).
            Some("fork") => cell.run.n as f64 * 0.1 * 24.0,
            Some("stall") => cell.run.n as f64 * 400e-6,
            _ => cell.run.n as f64 * 600e-6 * 7.0,
        }
    }

    fn measure(&self, plan: &Plan, ctx: &mut Measuring) -> Vec<Measurement> {
        let paths = Paths::find();
        if let Some(why) = paths.missing() {
            return ctx.skip(self.name(), plan, why);
        }
        let s = settings(ctx.opts);
        let noop = ctx.peers.noop();
        let mut out = Vec::new();
        match run_sequential(&paths, &s, ctx) {
            Ok(doc) => out.extend(sequential_measurements(&doc, &noop)),
            Err(err) => ctx.failures.push(format!("node sequential: {err:#}")),
        }
        match run_fork(&paths, &s, ctx) {
            Ok(doc) => out.extend(fork_measurements(&doc)),
            Err(err) => ctx.failures.push(format!("node fork: {err:#}")),
        }
        out
    }

    fn tables(&self, ms: &[Measurement]) -> Vec<Table> {
        vec![sequential_table(ms), stall_table(ms), fork_table(ms)]
    }

    fn charts(&self, ms: &[Measurement]) -> Vec<Chart> {
        let present: Vec<&str> = SIDES
            .iter()
            .map(|(r, _)| *r)
            .filter(|r| *r != "node-ping" && seq(ms, r).is_some())
            .collect();
        let ys = present
            .iter()
            .map(|r| paired(ms, r).map_or(0.0, |(median, _, _)| median))
            .collect();
        vec![Chart {
            title: "Node: sequential spawn + 'close', time per spawn vs the raw C clone loop"
                .into(),
            kind: ChartKind::Bar,
            x: present.iter().map(|s| s.to_string()).collect(),
            series: vec![("x the C loop's time, median of the rounds".into(), ys)],
            y_unit: "x".into(),
        }]
    }

    fn headline(&self, ms: &[Measurement]) -> Vec<String> {
        let mut lines = Vec::new();
        let vs = |r: &str| paired(ms, r).map(|(median, _, _)| median);
        if let (Some(pipe), Some(ignore)) = (vs("node-fastspawn-pipe"), vs("node-fastspawn-ignore"))
        {
            let mut peers = Vec::new();
            for (r, name) in [
                ("node-spawn-pipe", "node:child_process 'pipe'"),
                ("python-popen", "Python Popen"),
            ] {
                if let Some(x) = vs(r) {
                    peers.push(format!("{name} {x:.2}x"));
                }
            }
            lines.push(format!(
                "Node package, sequential spawn + 'close' vs the raw C clone loop (time per spawn, median of the per-round ratios): 'pipe' {pipe:.2}x (goal <= 2.0x), 'ignore' {ignore:.2}x (goal <= 1.5x); same rounds: {}",
                peers.join(", ")
            ));
        }
        if let Some(line) = floor_line(
            vs("c-handoff-sleep"),
            vs("c-handoff-spin"),
            vs("node-fastspawn-pipe"),
            vs("node-fastspawn-ignore"),
        ) {
            lines.push(line);
        }
        if let (Some(floor), Some(pipe), Some(ignore)) = (
            vs("node-ping-spawn"),
            vs("node-fastspawn-pipe"),
            vs("node-fastspawn-ignore"),
        ) {
            lines.push(format!(
                "Node floor (one addon call, spawn + wait on a pool thread, one callback): {floor:.2}x the C loop; the package adds {:.2}x with 'pipe' and {:.2}x with 'ignore'",
                pipe - floor,
                ignore - floor
            ));
        }
        if let (Some(floor), Some(ignore)) =
            (vs("node-ping-spawn-linger"), vs("node-fastspawn-ignore"))
        {
            let ignore_off = vs("node-fastspawn-ignore-nolinger").map_or(String::new(), |x| {
                format!("; 'ignore' with the linger off {x:.2}x")
            });
            // A floor the package itself ran below in the same rounds
            // bounds nothing.
            let verdict = if ignore < floor {
                "the package ran below this floor in these rounds, so it proves no limit"
            } else if floor > 1.5 {
                "the 'ignore' goal (1.5x) is out of reach for this design"
            } else {
                "the 'ignore' goal (1.5x) is not out of reach for this design"
            };
            lines.push(format!(
                "Node floor with spawn()'s pidfd and linger (what its spawner thread needs per child): {floor:.2}x the C loop; 'ignore' adds {:.2}x above it; {verdict}{ignore_off}",
                ignore - floor,
            ));
        }
        if let Some(st) = stall_figures(ms) {
            lines.push(format!(
                "time one Node spawn() call holds the event loop (16 in flight, 'ignore'), not preempted: p50 {:.1} µs (goal <= 10), p99 {:.1} µs (goal <= 50); {} of {} calls preempted, counted apart",
                st.calm_p50, st.calm_p99, st.preempted, st.calls
            ));
        }
        if let Some(big) = fork_big(ms) {
            let flat = |r: &str| fork_paired(ms, r, &big);
            if let (Some(fs), Some(node)) = (flat("node-fastspawn-fork"), flat("node-fork")) {
                let vs_node = fork_ms(ms, "node-fork", &big)
                    .zip(fork_ms(ms, "node-fastspawn-fork", &big))
                    .map(|(n, f)| {
                        format!(
                            "; at {}: node:child_process / package {:.2}x",
                            gib(&big),
                            n / f
                        )
                    })
                    .unwrap_or_default();
                lines.push(format!(
                    "Node fork() + IPC round trip + exit, {} held vs none (the median of {} per-round paired ratios): package {} (goal: within 5%: {}), node:child_process.fork {}{vs_node}",
                    gib(&big),
                    fs.rounds,
                    fs,
                    fs.verdict(),
                    node
                ));
            }
        }
        lines
    }
}

/// The limit line of the sequential goals: the floor of any design whose
/// event-loop thread never runs the clone is the better of the two C
/// hand-over sides (bindings/node/bench/handoff.c), each as the median of
/// its per-round ratios to the C loop; a goal is out of reach for such a
/// design when that floor alone is above it.
fn floor_line(
    sleep: Option<f64>,
    spin: Option<f64>,
    pipe: Option<f64>,
    ignore: Option<f64>,
) -> Option<String> {
    let best = [sleep, spin].into_iter().flatten().reduce(f64::min)?;
    let part = |name: &str, v: Option<f64>| match v {
        Some(v) => format!("{name} {v:.2}x"),
        None => format!("{name} not measured"),
    };
    let goal = |name: &str, limit: f64, measured: Option<f64>| {
        let measured = measured.map_or("not measured".into(), |m| format!("{m:.2}x"));
        let verdict = if best > limit {
            "out of reach for such a design".to_string()
        } else {
            format!(
                "not out of reach ({:.2}x above the floor left for the rest)",
                limit - best
            )
        };
        format!("{name} {measured}, goal <= {limit:.1}x: {verdict}")
    };
    Some(format!(
        "Node sequential floor, a loop that never runs the clone (C: worker thread + eventfd, same rounds, median of the per-round ratios): {}, {}; {}; {}",
        part("worker asleep", sleep),
        part("worker spinning", spin),
        goal("'pipe'", 2.0, pipe),
        goal("'ignore'", 1.5, ignore)
    ))
}

/// The median time per spawn of one sequential side.
fn seq(ms: &[Measurement], runner: &str) -> Option<Summary> {
    table::per_spawn(table::find(ms, runner, &[("test", "sequential")]))
}

/// Time per spawn of `runner` over the C loop's, round by round (the two
/// ran one after the other in each round, so a load that comes and goes
/// hits both): the median of those ratios, with their smallest and largest.
fn paired(ms: &[Measurement], runner: &str) -> Option<(f64, f64, f64)> {
    table::paired_with(
        ms,
        runner,
        "c-clone",
        &[("test", "sequential")],
        |side, base| side / base,
    )
}

/// The largest heap the fork cells ran at, if above 0.
fn fork_big(ms: &[Measurement]) -> Option<String> {
    ms.iter()
        .filter(|m| m.param("test") == Some("fork"))
        .filter_map(|m| m.param("hold_mib")?.parse::<u64>().ok())
        .max()
        .filter(|h| *h > 0)
        .map(|h| h.to_string())
}

/// An implementation's fork cycle at the largest heap over the same at 0,
/// round by round (both ran in the same round, interleaved, so a load that
/// comes and goes between rounds hits both): the median change and the
/// range of the rounds' changes.
struct Slope {
    median: f64,
    lo: f64,
    hi: f64,
    rounds: usize,
    /// The median's interval (sign test, at least 90%): low, high, and
    /// its coverage; none with too few rounds.
    interval: Option<(f64, f64, f64)>,
}

/// The coverage the median's interval must reach.
const INTERVAL_LEVEL: f64 = 0.90;

impl Slope {
    /// What the rounds show about "flat within 5%": only an interval of
    /// the median inside ±5% shows it, only one outside shows the
    /// contrary.
    fn verdict(&self) -> &'static str {
        match self.interval {
            Some((lo, hi, _)) if lo >= 0.95 && hi <= 1.05 => "flat within 5%",
            Some((lo, hi, _)) if lo > 1.05 || hi < 0.95 => "not flat within 5%",
            _ => "5% not resolved by these rounds",
        }
    }
}

impl std::fmt::Display for Slope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pct = |r: f64| (r - 1.0) * 100.0;
        write!(f, "{:+.1}% (", pct(self.median))?;
        match self.interval {
            Some((lo, hi, coverage)) => write!(
                f,
                "the median's {:.0}% interval {:+.1}% to {:+.1}%; ",
                coverage * 100.0,
                pct(lo),
                pct(hi)
            )?,
            None => write!(f, "too few rounds for an interval; ")?,
        }
        write!(f, "rounds {:+.1}% to {:+.1}%)", pct(self.lo), pct(self.hi))
    }
}

fn fork_paired(ms: &[Measurement], runner: &str, big: &str) -> Option<Slope> {
    let at = |hold: &str| {
        table::find(ms, runner, &[("test", "fork"), ("hold_mib", hold)]).map(|m| m.per_spawn_us())
    };
    let ratios = table::round_ratios(&at(big)?, &at("0")?, |b, s| b / s);
    let (median, lo, hi) = table::median_and_range(&ratios)?;
    Some(Slope {
        median,
        lo,
        hi,
        rounds: ratios.len(),
        interval: median_interval(&ratios, INTERVAL_LEVEL),
    })
}

/// The median time of one fork round trip, ms.
fn fork_ms(ms: &[Measurement], runner: &str, hold: &str) -> Option<f64> {
    let m = table::find(ms, runner, &[("test", "fork"), ("hold_mib", hold)])?;
    stats::median(&m.per_spawn_us()).map(|us| us / 1e3)
}

struct Stall {
    calm_p50: f64,
    calm_p99: f64,
    calm_max: f64,
    all_p50: f64,
    all_p99: f64,
    preempted: usize,
    calls: usize,
}

fn stall_figures(ms: &[Measurement]) -> Option<Stall> {
    let calm = table::find(
        ms,
        STALL_RUNNER,
        &[("test", "stall"), ("preempted", "false")],
    )?
    .samples_us();
    let preempted = table::find(
        ms,
        STALL_RUNNER,
        &[("test", "stall"), ("preempted", "true")],
    )
    .map(|m| m.samples_us())
    .unwrap_or_default();
    let all: Vec<f64> = calm.iter().chain(&preempted).copied().collect();
    Some(Stall {
        calm_p50: stats::quantile(&calm, 0.5)?,
        calm_p99: stats::quantile(&calm, 0.99)?,
        calm_max: calm.iter().copied().fold(0.0, f64::max),
        all_p50: stats::quantile(&all, 0.5)?,
        all_p99: stats::quantile(&all, 0.99)?,
        preempted: preempted.len(),
        calls: all.len(),
    })
}

fn sequential_table(ms: &[Measurement]) -> Table {
    let base = seq(ms, "c-clone");
    let rows = SIDES
        .iter()
        .filter_map(|(runner, label)| {
            let s = seq(ms, runner)?;
            let m = table::find(ms, runner, &[("test", "sequential")])?;
            let per_round = paired(ms, runner).map_or("–".into(), |(median, lo, hi)| {
                format!("{median:.2}x ({lo:.2}-{hi:.2}x)")
            });
            Some(vec![
                format!("{runner}: {label}"),
                fmt_us(Some(s)),
                per_round,
                fmt_ratio(ratio(Some(s), base)),
                m.n.to_string(),
            ])
        })
        .collect();
    Table {
        title: "node: sequential spawn + 'close' vs the raw C clone loop".into(),
        about: ABOUT.into(),
        header: vec![
            "side".into(),
            "per spawn (median of rounds)".into(),
            "x the C loop, per round: median (range)".into(),
            "ratio of the medians".into(),
            "spawns per round".into(),
        ],
        rows,
        notes: vec![
            "Every side runs once per round, in turn, from one Node process (the C, Rust and Python sides are their bench peers, started by it), so all see the same machine. Goals for the package: <= 2.0x the C loop with 'pipe', <= 1.5x with 'ignore', read on the per-round ratios (each side against the C loop of its own round, which a passing load hits alike).".into(),
            "The ping row spawns nothing: it is the JS -> spawner thread -> JS round trip, the hand-overs a spawn's latency cannot avoid (a spawn has one more, from the thread that sees the exit).".into(),
            "The c-handoff rows are the floor of any design whose event-loop thread never runs the clone (bindings/node/bench/handoff.c): the package's structure in C, a loop thread in epoll_wait handing each spawn to a worker thread that clones, execs and waits, the result back through an eventfd; the headline's floor line compares the better of the two with the goals.".into(),
            "The node-ping-spawn row is the floor of the package inside Node: each spawn + wait done on a pool thread, started by one call into the addon and answered by one threadsafe-function call and a promise (addon.pingSpawn), with nothing else of the package; what the package rows add above it is the package's own work per spawn (options, ChildProcess, events, streams).".into(),
            "The node-ping-spawn-linger row is that floor with what the package's spawner thread needs per child and a C loop does not: the child's pidfd made by the clone (for the waiter's epoll and kill) and the linger, a ppoll on the pidfd of at most 200 µs before the wait, so that a quick child's spawn and exit reach JS in one batch (bindings/node/bench/pidfd_cost.c measures both in C).".into(),
            "The nolinger rows are the package with that linger off (setSpawnLinger(0)): the spawn is posted as soon as the child has exec'd and the exit when the waiter thread sees it, two wake-ups of the JS thread per short child instead of one (more JS CPU per spawn), but the JS thread handles the spawn while the child runs.".into(),
            "Spread: half the range of the rounds' means around their median; each round is one repetition.".into(),
        ],
    }
}

fn stall_table(ms: &[Measurement]) -> Table {
    let us = |v: f64| format!("{v:.1} µs");
    let rows = stall_figures(ms)
        .map(|s| {
            vec![vec![
                format!("{STALL_RUNNER}: spawn(noop, [], {{stdio: 'ignore'}})"),
                us(s.calm_p50),
                us(s.calm_p99),
                us(s.calm_max),
                us(s.all_p50),
                us(s.all_p99),
                format!("{} of {}", s.preempted, s.calls),
            ]]
        })
        .unwrap_or_default();
    Table {
        title: "node: how long one spawn() call holds the event loop".into(),
        about: ABOUT.into(),
        header: vec![
            "call".into(),
            "p50 not preempted".into(),
            "p99 not preempted".into(),
            "max not preempted".into(),
            "p50 all".into(),
            "p99 all".into(),
            "calls preempted".into(),
        ],
        rows,
        notes: vec![
            "Each spawn() call timed with process.hrtime around it, 16 children in flight. Goal: <= 10 µs at p50 and <= 50 µs at p99 when the thread is not preempted.".into(),
            "\"Not preempted\": calls during which the kernel did not switch the JS thread out (its involuntary context-switch count, read before and after, did not move). On 2 cores the children and the spawner threads compete with the JS thread, and a preempted call measures the scheduler, not the call (as in the tokio stall table of `async`).".into(),
        ],
    }
}

fn fork_table(ms: &[Measurement]) -> Table {
    let holds = {
        let mut h: Vec<u64> = ms
            .iter()
            .filter(|m| m.param("test") == Some("fork"))
            .filter_map(|m| m.param("hold_mib")?.parse().ok())
            .collect();
        h.sort_unstable();
        h.dedup();
        h
    };
    let mut header = vec!["fork".to_string()];
    for h in &holds {
        let g = gib(&h.to_string());
        header.push(format!("{g}: fork + round trip + exit"));
        header.push(format!("{g}: the fork() call"));
    }
    header.push("largest vs 0 held: round by round, median (range)".into());
    let rows = FORKS
        .iter()
        .filter_map(|(runner, label)| {
            let mut row = vec![format!("{runner}: {label}")];
            let mut any = false;
            for h in &holds {
                let m = table::find(
                    ms,
                    runner,
                    &[("test", "fork"), ("hold_mib", &h.to_string())],
                );
                let Some(m) = m else {
                    row.extend(["–".to_string(), "–".to_string()]);
                    continue;
                };
                any = true;
                row.push(fmt_us(table::per_spawn(Some(m))));
                let calls: Vec<f64> = m
                    .repetitions
                    .iter()
                    .filter_map(|r| r.spawn_poll_p50_ns)
                    .map(|ns| ns as f64 / 1e3)
                    .collect();
                row.push(fmt_us(stats::summarize(&calls)));
            }
            let flat = match (holds.first(), holds.last()) {
                (Some(0), Some(hi)) if *hi > 0 => {
                    fork_paired(ms, runner, &hi.to_string()).map(|s| s.to_string())
                }
                _ => None,
            };
            row.push(flat.unwrap_or_else(|| "–".into()));
            any.then_some(row)
        })
        .collect();
    Table {
        title: "node: fork() + one IPC round trip + exit, by the heap the parent holds".into(),
        about: ABOUT.into(),
        header,
        rows,
        notes: vec![
            "The child is stock Node (bindings/node/bench/fork-child.js): it answers the parent's first message and exits on the second; time from the fork() call to 'exit', sequential, both implementations at both heap sizes in each round (the ballast is made before and freed after the heavy half of each round, so a change of the machine's load between the sizes cannot pass for a slope; within each half the implementations run in ABBA blocks). A round's figure is the median of its cycles; the slope is read round by round (each round's figure at the largest heap over the same implementation's at 0 in that round), the median of those paired ratios, a distribution-free interval of that median (the sign test's: the k-th smallest and k-th largest ratio, coverage at least 90%; 94% with 24 rounds) and their range. The goal is shown met only when that interval lies within ±5%. The parent's heap is Buffers written once. `node bindings/node/bench/fork.js` also splits each cycle into the call, the child's start-up and its exit, and sums the parent's GC. Goal for the package: flat within 5%.".into(),
            "The fork() call: the median time the call itself held the event loop in each round (node:child_process forks the parent there).".into(),
        ],
    }
}

/// sequential.js's JSON document.
#[derive(Debug, Deserialize)]
struct SeqDoc {
    noop: String,
    sides: Vec<SeqSide>,
    stall: StallDoc,
}

#[derive(Debug, Deserialize)]
struct SeqSide {
    key: String,
    n: u64,
    rounds_us: Vec<f64>,
}

#[derive(Debug, Deserialize)]
struct StallDoc {
    calm_us: Vec<f64>,
    preempted_us: Vec<f64>,
}

/// fork.js's JSON document.
#[derive(Debug, Deserialize)]
struct ForkDoc {
    cells: Vec<ForkCell>,
}

#[derive(Debug, Deserialize)]
struct ForkCell {
    key: String,
    hold_mib: u64,
    n: u64,
    rounds_ms: Vec<f64>,
    /// Every timed fork() call, in order, `n` per round.
    call_us: Vec<f64>,
}

fn measurement(runner: &str, pairs: &[(&str, String)], n: u64, child: &str) -> Measurement {
    Measurement {
        experiment: "node".into(),
        runner: runner.to_string(),
        params: params(pairs),
        mode: "wait".into(),
        n,
        n_requested: n,
        child: vec![child.to_string()],
        repetitions: Vec::new(),
    }
}

fn sequential_measurements(doc: &SeqDoc, noop: &str) -> Vec<Measurement> {
    let mut out = Vec::new();
    for side in &doc.sides {
        let mut m = measurement(&side.key, &[("test", "sequential".into())], side.n, noop);
        m.repetitions = side
            .rounds_us
            .iter()
            .map(|us| Repetition {
                total_ns: (us * 1e3 * side.n as f64) as u64,
                ..Repetition::default()
            })
            .collect();
        out.push(m);
    }
    for (preempted, samples) in [(false, &doc.stall.calm_us), (true, &doc.stall.preempted_us)] {
        let n = samples.len() as u64;
        let mut m = measurement(
            STALL_RUNNER,
            &[
                ("test", "stall".into()),
                ("preempted", preempted.to_string()),
            ],
            n,
            &doc.noop,
        );
        m.mode = "spawn".into();
        m.repetitions.push(Repetition {
            total_ns: (samples.iter().sum::<f64>() * 1e3) as u64,
            samples_ns: Some(samples.iter().map(|us| (us * 1e3) as u64).collect()),
            ..Repetition::default()
        });
        out.push(m);
    }
    out
}

fn fork_measurements(doc: &ForkDoc) -> Vec<Measurement> {
    doc.cells
        .iter()
        .map(|c| {
            let child = "bindings/node/bench/fork-child.js";
            let mut m = measurement(
                &c.key,
                &[
                    ("test", "fork".into()),
                    ("hold_mib", c.hold_mib.to_string()),
                ],
                c.n,
                child,
            );
            let per_round = (c.n as usize).max(1);
            m.repetitions = c
                .rounds_ms
                .iter()
                .enumerate()
                .map(|(i, ms)| {
                    let calls: Vec<f64> = c
                        .call_us
                        .iter()
                        .skip(i * per_round)
                        .take(per_round)
                        .copied()
                        .collect();
                    Repetition {
                        total_ns: (ms * 1e6 * c.n as f64) as u64,
                        spawn_poll_p50_ns: stats::median(&calls).map(|us| (us * 1e3) as u64),
                        ..Repetition::default()
                    }
                })
                .collect();
            m
        })
        .collect()
}

/// Runs `script` with `args` under node and returns its stdout; each
/// stderr line starting with "node: " is a progress step.
fn drive(paths: &Paths, script: &str, args: &[String], ctx: &mut Measuring) -> Result<String> {
    let script = paths.bench.join(script);
    let mut cmd = std::process::Command::new(&paths.node);
    cmd.arg(&script)
        .args(args)
        .arg("--json")
        .current_dir(paths.bench.join(".."));
    let (stdout, _) = run_script(cmd, &script, ctx.bar, |line| {
        let step = line.strip_prefix("node: ")?;
        Some((0, step.chars().take(60).collect()))
    })?;
    Ok(stdout)
}

fn run_sequential(paths: &Paths, s: &Settings, ctx: &mut Measuring) -> Result<SeqDoc> {
    let peers: &Path = &ctx.peers.dir;
    let args = vec![
        "--peers".into(),
        peers.display().to_string(),
        "--n".into(),
        s.n.to_string(),
        "--rounds".into(),
        s.rounds.to_string(),
        "--stall-n".into(),
        s.stall_n.to_string(),
    ];
    let out = drive(paths, "sequential.js", &args, ctx);
    ctx.bar.inc((SIDES.len() + 1) as u64);
    let out = out?;
    serde_json::from_str(&out).context("reading sequential.js's report")
}

fn run_fork(paths: &Paths, s: &Settings, ctx: &mut Measuring) -> Result<ForkDoc> {
    let args = vec![
        "--n".into(),
        s.fork_n.to_string(),
        "--rounds".into(),
        s.fork_rounds.to_string(),
        "--ballast-mib".into(),
        s.ballast_mib.to_string(),
    ];
    let out = drive(paths, "fork.js", &args, ctx);
    ctx.bar.inc((2 * FORKS.len()) as u64);
    let out = out?;
    serde_json::from_str(&out).context("reading fork.js's report")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reports as the two scripts print them become the three tables and
    /// the headline lines against issue 11's goals.
    #[test]
    fn driver_reports_become_tables_and_headlines() {
        let seq: SeqDoc = serde_json::from_str(
            r#"{"noop":"/p/noop","rounds":3,"sides":[
              {"key":"c-clone","label":"C","n":100,"rounds_us":[150,160,140]},
              {"key":"node-fastspawn-pipe","label":"p","n":100,"rounds_us":[300,290,310]},
              {"key":"node-fastspawn-ignore","label":"i","n":100,"rounds_us":[225,220,230]},
              {"key":"node-spawn-pipe","label":"n","n":50,"rounds_us":[1500,1600,1400]},
              {"key":"node-ping-spawn","label":"f","n":100,"rounds_us":[210,208,200]}],
              "stall":{"in_flight":16,"calm_us":[1,2,3,4,5,6,7,8,9,100],"preempted_us":[500,600]}}"#,
        )
        .unwrap();
        let fork: ForkDoc = serde_json::from_str(
            r#"{"rounds":2,"cells":[
              {"key":"node-fork","hold_mib":0,"n":2,"rounds_ms":[40,42],"call_us":[900,1000,1100,1200]},
              {"key":"node-fastspawn-fork","hold_mib":0,"n":2,"rounds_ms":[50,40],"call_us":[30,40,50,60]},
              {"key":"node-fork","hold_mib":1024,"n":2,"rounds_ms":[60,62],"call_us":[9000,9000,9000,9000]},
              {"key":"node-fastspawn-fork","hold_mib":1024,"n":2,"rounds_ms":[51,44],"call_us":[30,40,50,60]}]}"#,
        )
        .unwrap();
        let mut ms = sequential_measurements(&seq, "/p/noop");
        ms.extend(fork_measurements(&fork));
        let exp = Node;
        let tables = exp.tables(&ms);
        assert_eq!(tables.len(), 3);
        let pipe = tables[0]
            .rows
            .iter()
            .find(|r| r[0].starts_with("node-fastspawn-pipe:"))
            .unwrap();
        assert_eq!(pipe[2], "2.00x (1.81-2.21x)");
        assert_eq!(pipe[3], "2.00x");
        assert_eq!(tables[1].rows[0][6], "2 of 12");
        let fs = tables[2]
            .rows
            .iter()
            .find(|r| r[0].starts_with("node-fastspawn-fork:"))
            .unwrap();
        // Round by round (51/50, 44/40), not the ratio of the medians
        // (47.5/45: +5.6%).
        assert_eq!(
            fs.last().unwrap(),
            "+6.0% (too few rounds for an interval; rounds +2.0% to +10.0%)"
        );
        // The per-round median of the fork() calls: 35 and 55 µs.
        assert!(fs[2].starts_with("45.0 µs"), "{fs:?}");
        let head = exp.headline(&ms);
        assert_eq!(head.len(), 4, "{head:?}");
        assert!(
            head[0].contains("'pipe' 2.00x") && head[0].contains("'ignore' 1.50x"),
            "{head:?}"
        );
        assert!(
            head[0].contains("node:child_process 'pipe' 10.00x"),
            "{head:?}"
        );
        // Per round 210/150, 208/160, 200/140: median 1.40x; the package
        // 2.00x and 1.50x.
        assert!(
            head[1].contains("Node floor")
                && head[1].contains(
                    "1.40x the C loop; the package adds 0.60x with 'pipe' and 0.10x with 'ignore'"
                ),
            "{head:?}"
        );
        assert!(
            head[2].contains("p50 5.5 µs") && head[2].contains("2 of 12"),
            "{head:?}"
        );
        assert!(
            head[3].contains("package +6.0% (too few rounds for an interval; rounds +2.0% to +10.0%) (goal: within 5%: 5% not resolved by these rounds)")
                && head[3].contains("+48.8%")
                && head[3].contains("2 per-round"),
            "{head:?}"
        );
    }

    /// The floor with spawn()'s pidfd and linger gets its own headline
    /// line, which calls the 'ignore' goal out of reach only when that
    /// floor is above 1.5x and the package did not run below it
    /// (per-round ratios, as every headline figure).
    #[test]
    fn linger_floor_line_calls_the_ignore_goal() {
        let doc = |linger: &str| -> Vec<Measurement> {
            let seq: SeqDoc = serde_json::from_str(&format!(
                r#"{{"noop":"/p/noop","rounds":3,"sides":[
              {{"key":"c-clone","label":"C","n":100,"rounds_us":[100,100,100]}},
              {{"key":"node-fastspawn-pipe","label":"p","n":100,"rounds_us":[200,200,200]}},
              {{"key":"node-fastspawn-ignore","label":"i","n":100,"rounds_us":[170,170,170]}},
              {{"key":"node-fastspawn-ignore-nolinger","label":"o","n":100,"rounds_us":[150,150,150]}},
              {{"key":"node-ping-spawn-linger","label":"l","n":100,"rounds_us":[{linger}]}}],
              "stall":{{"in_flight":16,"calm_us":[1,2,3],"preempted_us":[]}}}}"#
            ))
            .unwrap();
            sequential_measurements(&seq, "/p/noop")
        };
        let line = |ms: &[Measurement]| {
            Node.headline(ms)
                .into_iter()
                .find(|l| l.contains("pidfd and linger"))
                .unwrap_or_default()
        };
        let above = line(&doc("160,160,160"));
        assert!(
            above.contains("1.60x the C loop; 'ignore' adds 0.10x above it; the 'ignore' goal (1.5x) is out of reach for this design; 'ignore' with the linger off 1.50x"),
            "{above}"
        );
        let below = line(&doc("140,140,140"));
        assert!(below.contains("is not out of reach"), "{below}");
        let beaten = line(&doc("180,180,180"));
        assert!(
            beaten.contains("'ignore' adds -0.10x above it; the package ran below this floor in these rounds, so it proves no limit"),
            "{beaten}"
        );
    }

    /// The floor line takes the better of the two hand-over floors and
    /// calls a goal out of reach only when that floor is above it.
    #[test]
    fn floor_line_takes_the_better_floor() {
        let line = floor_line(Some(1.62), Some(1.41), Some(2.1), Some(1.6)).unwrap();
        assert!(
            line.contains("worker asleep 1.62x, worker spinning 1.41x"),
            "{line}"
        );
        assert!(
            line.contains("'pipe' 2.10x, goal <= 2.0x: not out of reach (0.59x above"),
            "{line}"
        );
        assert!(
            line.contains("'ignore' 1.60x, goal <= 1.5x: not out of reach (0.09x above"),
            "{line}"
        );
        let over = floor_line(Some(1.55), Some(1.7), Some(2.1), None).unwrap();
        assert!(
            over.contains("'ignore' not measured, goal <= 1.5x: out of reach for such a design"),
            "{over}"
        );
        assert!(
            over.contains("'pipe' 2.10x, goal <= 2.0x: not out of reach (0.45x"),
            "{over}"
        );
        let one = floor_line(None, Some(2.2), Some(2.3), Some(1.9)).unwrap();
        assert!(
            one.contains("worker asleep not measured, worker spinning 2.20x; 'pipe' 2.30x, goal <= 2.0x: out of reach"),
            "{one}"
        );
        assert_eq!(floor_line(None, None, Some(2.0), Some(1.5)), None);
    }

    /// The sign test's interval of the median: with 8 values, the 2nd
    /// smallest and the 2nd largest cover it with 93.0% (the 3rd would
    /// cover 71.1%); with 12, the 3rd (96.1%); with 5, only the range
    /// (93.8%); with 4, not even the range reaches 90% (87.5%).
    #[test]
    fn median_interval_is_the_sign_tests() {
        let eight = [8.0, 1.0, 7.0, 2.0, 6.0, 3.0, 5.0, 4.0];
        let (lo, hi, cov) = median_interval(&eight, 0.90).unwrap();
        assert_eq!((lo, hi), (2.0, 7.0));
        assert!((cov - (1.0 - 2.0 * 9.0 / 256.0)).abs() < 1e-12, "{cov}");
        let twelve: Vec<f64> = (1..=12).map(f64::from).collect();
        let (lo, hi, cov) = median_interval(&twelve, 0.90).unwrap();
        assert_eq!((lo, hi), (3.0, 10.0));
        assert!((cov - (1.0 - 2.0 * 79.0 / 4096.0)).abs() < 1e-12, "{cov}");
        let five = [5.0, 4.0, 3.0, 2.0, 1.0];
        let (lo, hi, _) = median_interval(&five, 0.90).unwrap();
        assert_eq!((lo, hi), (1.0, 5.0));
        assert!(median_interval(&[1.0, 2.0, 3.0, 4.0], 0.90).is_none());
        let slope = |lo: f64, hi: f64| Slope {
            median: 1.0,
            lo,
            hi,
            rounds: 8,
            interval: Some((lo, hi, 0.93)),
        };
        assert_eq!(slope(0.97, 1.04).verdict(), "flat within 5%");
        assert_eq!(slope(1.06, 1.2).verdict(), "not flat within 5%");
        assert_eq!(
            slope(0.9, 1.04).verdict(),
            "5% not resolved by these rounds"
        );
        assert_eq!(
            slope(0.9, 1.04).to_string(),
            "+0.0% (the median's 93% interval -10.0% to +4.0%; rounds -10.0% to +4.0%)"
        );
    }
}
