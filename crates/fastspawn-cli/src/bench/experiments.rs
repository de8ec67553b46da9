//! The experiments: which cells each one measures. How each is laid out as
//! tables and charts is in `report.rs`.
//!
//! Every experiment reproduces a figure of one seed article and adds
//! fastspawn to it; `ABOUT` says which, and what this machine cannot
//! reproduce.

use std::collections::BTreeMap;

use super::peer::{PeerRun, Peers};

/// What the user asked for.
#[derive(Debug, Clone)]
pub struct Options {
    pub quick: bool,
    pub full: bool,
    pub max_rss_gib: u64,
}

/// One runner with one parameter set, measured `reps` times.
#[derive(Debug, Clone)]
pub struct Cell {
    pub runner: String,
    pub params: BTreeMap<String, String>,
    pub run: PeerRun,
    /// Wall-clock seconds one repetition may take; `n` shrinks to fit.
    pub budget_s: f64,
}

#[derive(Debug, Clone)]
pub struct Experiment {
    pub name: &'static str,
    pub reps: usize,
    pub cells: Vec<Cell>,
    pub notes: Vec<String>,
}

pub const ALL: [&str; 10] = [
    "count", "rss", "tlpi", "env", "path", "fds", "async", "parallel", "langs", "http",
];

pub const C_EXEC: [&str; 5] = [
    "c-fork",
    "c-vfork",
    "c-clone",
    "c-posix-spawn",
    "c-posix-spawn-usevfork",
];
pub const RUST: [&str; 4] = [
    "rust-std",
    "rust-std-pre-exec",
    "rust-command-fds",
    "rust-tokio",
];
pub const FASTSPAWN: [&str; 5] = [
    "fastspawn-auto",
    "fastspawn-clone3",
    "fastspawn-clone-vfork",
    "fastspawn-posix-spawn",
    "fastspawn-fork",
];
pub const OTHERS: [&str; 4] = ["go-os-exec", "python-popen", "node-spawn", "node-fastspawn"];

/// What each experiment reproduces.
pub fn about(name: &str) -> &'static str {
    match name {
        "count" => {
            "Time to spawn N processes without waiting (children reaped after the clock stops), as in the HyperQueue post's first chart."
        }
        "rss" => {
            "Spawn+wait cost as the parent's resident memory grows: the HyperQueue post's fork-vs-vfork chart and the command-fds table in one. fastspawn runs with fd mappings, cwd, setsid and an rlimit set."
        }
        "tlpi" => {
            "The Linux Programming Interface, table 28-3: creating processes with fork(), vfork(), clone() (child exits at once) and fork()/vfork() + exec of /bin/true, at three process sizes. Times are for 100,000 processes, extrapolated from the count measured; parent CPU seconds in parentheses."
        }
        "env" => {
            "Spawn cost against the number of environment variables, without and with one variable set on the command (the HyperQueue post's two env charts)."
        }
        "path" => {
            "`sleep 0` by bare name against `/usr/bin/sleep 0`, with a PATH of 14 entries whose last one holds sleep (the HyperQueue post's bonus)."
        }
        "fds" => {
            "p10/p50/p90 of one spawn() call, without and with two extra fds passed to the child, at 0, 32 and 512 MB of extra memory (the command-fds benchmark's table)."
        }
        "async" => {
            "20,000 spawns from tokio in the HyperQueue post's modes: current-thread, current-thread with spawn_blocking, multi-thread with 2, 4 and 8 workers."
        }
        "langs" => {
            "Spawn+wait throughput of the same child from every runtime, as a ratio to the raw C clone(CLONE_VM|CLONE_VFORK) loop."
        }
        "parallel" => {
            "Spawn throughput of one fastspawn Pool with 1, 2 and 4 spawner threads starting a batch with Pool::spawn_many (with pidfds, the default, and with Command::pidfd(false)), next to the same number of C threads each running a raw clone(CLONE_VM|CLONE_VFORK) loop: the kernel's own scaling on this machine."
        }
        "http" => super::http::ABOUT,
        _ => "",
    }
}

fn params(pairs: &[(&str, String)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

/// Scales a per-cell budget for `--quick`.
fn budget(opts: &Options, full: f64) -> f64 {
    if opts.quick {
        (full / 10.0).max(0.02)
    } else {
        full
    }
}

fn reps(opts: &Options, full: usize) -> usize {
    if opts.quick { 1 } else { full }
}

/// Plans one experiment.
pub fn plan(name: &str, opts: &Options, peers: &Peers) -> Option<Experiment> {
    let noop = vec![peers.noop()];
    let exp = match name {
        "count" => count(opts, &noop),
        "rss" => rss(opts, &noop),
        "tlpi" => tlpi(opts),
        "env" => env(opts, &noop),
        "path" => path(opts),
        "fds" => fds(opts, &noop),
        "async" => asynchronous(opts, &noop),
        "parallel" => parallel(opts, &noop),
        "langs" => langs(opts, &noop),
        "http" => super::http::plan(opts, peers),
        _ => return None,
    };
    Some(exp)
}

fn count(opts: &Options, noop: &[String]) -> Experiment {
    let mut notes = vec![
        "The post spawned `sleep 0`; this uses the static do-nothing child so that 25,000 children fit the time budget (`sleep 0` adds its own dynamic loading, the same for every runner).".to_string(),
    ];
    let pid_max: u64 = std::fs::read_to_string("/proc/sys/kernel/pid_max")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(32768);
    let running = std::fs::read_dir("/proc")
        .map(|d| {
            d.filter(|e| {
                e.as_ref()
                    .is_ok_and(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
            })
            .count() as u64
        })
        .unwrap_or(0);
    // Children stay zombies until the clock stops: leave room for the system.
    let cap = (pid_max.saturating_sub(running)).saturating_mul(3) / 4;
    let mut counts: Vec<u64> = if opts.quick {
        vec![100, 400]
    } else {
        vec![1_000, 5_000, 10_000, 25_000]
    };
    if counts.iter().any(|&n| n > cap) {
        notes.push(format!(
            "pid_max is {pid_max} with {running} processes running: N is capped at {cap} to leave the system headroom."
        ));
        counts = counts.into_iter().map(|n| n.min(cap)).collect();
        counts.dedup();
    }
    let runners: Vec<&str> = C_EXEC
        .iter()
        .chain(&RUST)
        .chain(&OTHERS)
        .chain(&FASTSPAWN)
        .copied()
        .collect();
    let mut cells = Vec::new();
    for &n in &counts {
        for runner in &runners {
            cells.push(Cell {
                runner: runner.to_string(),
                params: params(&[("count", n.to_string())]),
                run: PeerRun::new(runner, "spawn", n, noop.to_vec()),
                budget_s: budget(opts, 0.8),
            });
        }
    }
    Experiment {
        name: "count",
        reps: reps(opts, 2),
        cells,
        notes,
    }
}

pub fn rss_sizes(opts: &Options) -> Vec<u64> {
    if opts.quick {
        return vec![0, 64];
    }
    [0u64, 1024, 2048, 4096]
        .into_iter()
        .filter(|&mib| mib <= opts.max_rss_gib * 1024)
        .collect()
}

fn rss(opts: &Options, noop: &[String]) -> Experiment {
    let runners = [
        "c-fork",
        "c-vfork",
        "c-clone",
        "c-posix-spawn",
        "rust-std",
        "rust-std-pre-exec",
        "rust-command-fds",
        "go-os-exec",
        "python-popen",
        "node-spawn",
        "node-fastspawn",
        "fastspawn-auto",
    ];
    let mut cells = Vec::new();
    for mib in rss_sizes(opts) {
        for runner in runners {
            let mut run = PeerRun::new(runner, "wait", 2_000, noop.to_vec());
            run.rss_mib = mib;
            if runner == "fastspawn-auto" {
                run.with_options = true;
                run.extra_fds = 2;
            }
            run.warmup = 3;
            cells.push(Cell {
                runner: runner.to_string(),
                params: params(&[("rss_mib", mib.to_string())]),
                run,
                budget_s: budget(opts, 0.6),
            });
        }
    }
    let notes = vec![
        "Runs at larger sizes with `--max-rss-gib` (default 4); the post went to 5 GiB on a 256 GiB node.".to_string(),
        "The post's cluster had glibc 2.17, where posix_spawn itself forks; this machine's glibc uses clone(CLONE_VM|CLONE_VFORK) in posix_spawn, so only fork and the runtimes that fork (pre_exec, command-fds, Node) show the slope here.".to_string(),
    ];
    Experiment {
        name: "rss",
        reps: reps(opts, 5),
        cells,
        notes,
    }
}

/// Extra MiB that give the TLPI table's three process sizes their 1 MB and
/// 10 MB steps.
pub const TLPI_SIZES: [(u64, &str); 3] = [(0, "1.70 MB"), (1, "2.70 MB"), (10, "11.70 MB")];

fn tlpi(opts: &Options) -> Experiment {
    let rows = [
        ("c-fork-exit", "fork()"),
        ("c-vfork-exit", "vfork()"),
        ("c-clone-exit", "clone()"),
        ("c-fork", "fork()+exec()"),
        ("c-vfork", "vfork()+exec()"),
        ("fastspawn-auto", "fastspawn+exec()"),
    ];
    let n = if opts.full { 100_000 } else { 20_000 };
    let mut cells = Vec::new();
    for (mib, size) in TLPI_SIZES {
        for (runner, label) in rows {
            let mut run = PeerRun::new(runner, "wait", n, vec!["/bin/true".to_string()]);
            run.rss_mib = mib;
            cells.push(Cell {
                runner: runner.to_string(),
                params: params(&[("size", size.to_string()), ("row", label.to_string())]),
                run,
                budget_s: if opts.full {
                    f64::INFINITY
                } else {
                    budget(opts, 1.2)
                },
            });
        }
    }
    let notes = vec![
        "The book measured on x86-32 with Linux 2.6.27 and 1.70 MB of total virtual memory at its smallest; each peer here starts from its own size and adds 0, 1 and 10 MiB, the book's steps between columns.".to_string(),
        "Run with `--full` to measure all 100,000 processes per cell.".to_string(),
    ];
    Experiment {
        name: "tlpi",
        reps: reps(opts, 2),
        cells,
        notes,
    }
}

/// An environment with exactly `count` variables: PATH, HOME, then filler
/// of a realistic size (the post's cluster had ~180 variables, ~30 KiB).
pub fn synthetic_env(count: usize) -> Vec<(String, String)> {
    let mut env = vec![
        (
            "PATH".to_string(),
            std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into()),
        ),
        ("HOME".to_string(), "/root".to_string()),
    ];
    for i in env.len()..count {
        env.push((
            format!("FASTSPAWN_FILLER_{i:03}"),
            format!("/opt/site/module-{i}/lib:{}", "x".repeat(120)),
        ));
    }
    env.truncate(count.max(2));
    env
}

fn env(opts: &Options, noop: &[String]) -> Experiment {
    let counts: Vec<usize> = if opts.quick {
        vec![50, 250]
    } else {
        vec![50, 100, 150, 200, 250]
    };
    let mut cells = Vec::new();
    for &count in &counts {
        for set_env in [false, true] {
            for runner in ["rust-std", "fastspawn-auto", "c-posix-spawn"] {
                let mut run = PeerRun::new(runner, "spawn", 10_000, noop.to_vec());
                run.set_env = set_env;
                run.env = Some(synthetic_env(count));
                cells.push(Cell {
                    runner: runner.to_string(),
                    params: params(&[
                        ("env_vars", count.to_string()),
                        ("set_env", set_env.to_string()),
                    ]),
                    run,
                    budget_s: budget(opts, 0.5),
                });
            }
        }
    }
    Experiment {
        name: "env",
        reps: reps(opts, 3),
        cells,
        notes: Vec::new(),
    }
}

/// A PATH of 14 entries, `/usr/bin` (which holds `sleep`) last.
pub fn long_path() -> String {
    let mut dirs: Vec<String> = [
        "/usr/local/sbin",
        "/usr/local/bin",
        "/usr/sbin",
        "/sbin",
        "/opt/fastspawn/bin",
        "/root/.local/bin",
        "/root/.cargo/bin",
        "/usr/local/go/bin",
        "/opt/tools/bin",
        "/opt/site/bin",
        "/usr/games",
        "/usr/local/games",
        "/snap/bin",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    dirs.push("/usr/bin".into());
    dirs.join(":")
}

fn path(opts: &Options) -> Experiment {
    let mut env = synthetic_env(30);
    env[0].1 = long_path();
    let mut cells = Vec::new();
    for (program, label) in [("sleep", "sleep"), ("/usr/bin/sleep", "/usr/bin/sleep")] {
        for runner in ["rust-std", "fastspawn-auto"] {
            let mut run = PeerRun::new(
                runner,
                "spawn",
                5_000,
                vec![program.to_string(), "0".to_string()],
            );
            run.env = Some(env.clone());
            cells.push(Cell {
                runner: runner.to_string(),
                params: params(&[("program", label.to_string())]),
                run,
                budget_s: budget(opts, 0.8),
            });
        }
    }
    Experiment {
        name: "path",
        reps: reps(opts, 7),
        cells,
        notes: Vec::new(),
    }
}

fn fds(opts: &Options, noop: &[String]) -> Experiment {
    let sizes: Vec<u64> = if opts.quick {
        vec![0, 32]
    } else {
        vec![0, 32, 512]
    };
    let mut cells = Vec::new();
    for mib in sizes {
        for (runner, extra, label) in [
            ("rust-std", 0, "std"),
            ("rust-command-fds", 2, "command-fds"),
            ("fastspawn-auto", 0, "fastspawn"),
            ("fastspawn-auto", 2, "fastspawn fd()"),
        ] {
            let mut run = PeerRun::new(runner, "spawn", 1_000, noop.to_vec());
            run.rss_mib = mib;
            run.extra_fds = extra;
            run.samples = true;
            cells.push(Cell {
                runner: runner.to_string(),
                params: params(&[
                    ("rss_mib", mib.to_string()),
                    ("extra_fds", extra.to_string()),
                    ("column", label.to_string()),
                ]),
                run,
                budget_s: budget(opts, 0.4),
            });
        }
    }
    Experiment {
        name: "fds",
        reps: reps(opts, 2),
        cells,
        notes: Vec::new(),
    }
}

pub const ASYNC_MODES: [&str; 5] = [
    "current",
    "current-blocking",
    "multi-2",
    "multi-4",
    "multi-8",
];

fn asynchronous(opts: &Options, noop: &[String]) -> Experiment {
    let mut cells = Vec::new();
    for mode in ASYNC_MODES {
        for runner in ["rust-tokio", "fastspawn-auto"] {
            let mut run = PeerRun::new(runner, "spawn", 20_000, noop.to_vec());
            run.async_mode = Some(mode.to_string());
            cells.push(Cell {
                runner: runner.to_string(),
                params: params(&[("async_mode", mode.to_string())]),
                run,
                budget_s: budget(opts, 1.0),
            });
        }
    }
    for runner in ["rust-tokio", "fastspawn-auto"] {
        let mut run = PeerRun::new(runner, "spawn", 3_000, noop.to_vec());
        run.async_mode = Some("current".to_string());
        run.measure_stall = true;
        cells.push(Cell {
            runner: runner.to_string(),
            params: params(&[
                ("async_mode", "current".to_string()),
                ("stall", "true".to_string()),
            ]),
            run,
            budget_s: budget(opts, 0.5),
        });
    }
    let notes = vec![
        "fastspawn runs with its tokio API (fastspawn::tokio::Command): spawn().await hands the spawn to the spawner threads, so the runtime thread never spawns and current-blocking behaves like current.".to_string(),
        "This machine has 2 cores; the post's cluster node had 128.".to_string(),
    ];
    Experiment {
        name: "async",
        reps: reps(opts, 2),
        cells,
        notes,
    }
}

fn parallel(opts: &Options, noop: &[String]) -> Experiment {
    let cells = [1usize, 2, 4]
        .iter()
        .flat_map(|&threads| {
            [
                ("fastspawn-pool", false),
                ("fastspawn-pool", true),
                ("c-clone", false),
            ]
            .map(|(runner, no_pidfd)| {
                let mut run = PeerRun::new(runner, "spawn", 10_000, noop.to_vec());
                run.pool_threads = Some(threads);
                run.no_pidfd = no_pidfd;
                // The C threads make no pidfd: "none", not "off" (no option).
                let pidfd = match (runner, no_pidfd) {
                    ("c-clone", _) => "none",
                    (_, true) => "off",
                    (_, false) => "on",
                };
                let p = [
                    ("threads", threads.to_string()),
                    ("pidfd", pidfd.to_string()),
                ];
                Cell {
                    runner: runner.to_string(),
                    params: params(&p),
                    run,
                    budget_s: budget(opts, 1.0),
                }
            })
        })
        .collect();
    let notes = vec![format!(
        "This machine has {} cores; a spawn keeps a core busy in the parent (clone) and another in the child (execve, exit).",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    )];
    Experiment {
        name: "parallel",
        reps: reps(opts, 5),
        cells,
        notes,
    }
}

pub const LANGS: [&str; 9] = [
    "c-clone",
    "c-posix-spawn",
    "fastspawn-auto",
    "rust-std",
    "go-os-exec",
    "python-popen",
    "node-spawn",
    "node-fastspawn",
    "c-fork",
];

fn langs(opts: &Options, noop: &[String]) -> Experiment {
    let cells = LANGS
        .iter()
        .map(|runner| Cell {
            runner: runner.to_string(),
            params: BTreeMap::new(),
            run: PeerRun::new(runner, "wait", 5_000, noop.to_vec()),
            budget_s: budget(opts, 0.6),
        })
        .collect();
    Experiment {
        name: "langs",
        reps: reps(opts, 7),
        cells,
        notes: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: `parallel` was planned but missing from `ALL`, so a
    /// plain `fastspawn bench` skipped it.
    #[test]
    fn every_experiment_runs_by_default_and_says_what_it_reproduces() {
        let peers = Peers {
            dir: "/nonexistent".into(),
        };
        let opts = Options {
            quick: true,
            full: false,
            max_rss_gib: 4,
        };
        for name in [
            "count", "rss", "tlpi", "env", "path", "fds", "async", "parallel", "langs", "http",
        ] {
            assert!(ALL.contains(&name), "{name} is not run by default");
            assert!(!about(name).is_empty(), "{name} has no description");
        }
        for name in ALL {
            let plan = plan(name, &opts, &peers).expect("planned");
            assert!(!plan.cells.is_empty(), "{name} measures nothing");
        }
        assert!(plan("nope", &opts, &peers).is_none());
    }

    #[test]
    fn synthetic_env_has_the_asked_size_and_a_path() {
        for count in [2, 50, 250] {
            let env = synthetic_env(count);
            assert_eq!(env.len(), count);
            assert_eq!(env[0].0, "PATH");
        }
    }

    #[test]
    fn long_path_has_14_entries_and_ends_with_usr_bin() {
        let path = long_path();
        assert_eq!(path.split(':').count(), 14);
        assert!(path.ends_with(":/usr/bin"));
        assert!(
            !path.split(':').any(|d| d == "/bin"),
            "/bin would find sleep early"
        );
    }
}
