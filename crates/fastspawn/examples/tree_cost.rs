//! What containment costs: spawn+wait of a contained child against a plain
//! one (single spawns alternated, so both sides see the same machine load;
//! 10th and 50th percentiles), and
//! the time from `kill_tree` to an empty tree against a process-group kill,
//! with the grandchildren the group kill leaves running.
//!
//! ```text
//! cargo run --release --example tree_cost [-- [--rounds R] [--spawns N] [CHILD [ARGS...]]]
//! ```
//!
//! Needs a writable cgroup v2 (root, or a delegated cgroup). The child
//! defaults to `/bin/true`.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use fastspawn::{Command, Containment};

/// A tree with two grandchildren in a new session (which a process-group
/// kill misses) and one in the child's group.
const TREE: &str =
    "setsid sh -c 'sleep 300 & exec sleep 300' & sleep 300 & sleep 0.1; echo ready; wait";

fn per_spawn(cmd: &mut Command, spawns: u32) -> Result<Duration, fastspawn::Error> {
    let start = Instant::now();
    for _ in 0..spawns {
        cmd.status()?;
    }
    Ok(start.elapsed() / spawns)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn started_tree(group: bool) -> Result<fastspawn::Child, Box<dyn std::error::Error>> {
    let mut cmd = Command::new("sh");
    cmd.args(["-c", TREE])
        .contain(true)
        .require_contained(true)
        .stdout(fastspawn::Stdio::piped());
    if group {
        cmd.process_group(0);
    }
    let mut child = cmd.spawn()?;
    let mut out = child.stdout.take().expect("piped");
    let mut buf = [0u8; 6];
    std::io::Read::read_exact(&mut out, &mut buf)?;
    drop(out);
    Ok(child)
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut rounds = 10u32;
    let mut spawns = 200u32;
    let mut child_argv = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => rounds = args.next().ok_or("--rounds needs a value")?.parse()?,
            "--spawns" => spawns = args.next().ok_or("--spawns needs a value")?.parse()?,
            _ => {
                child_argv.push(arg);
                child_argv.extend(args.by_ref());
            }
        }
    }
    if child_argv.is_empty() {
        child_argv.push("/bin/true".to_string());
    }
    let mut plain = Command::new(&child_argv[0]);
    plain.args(&child_argv[1..]);
    let mut contained = Command::new(&child_argv[0]);
    contained
        .args(&child_argv[1..])
        .contain(true)
        .require_contained(true);
    // Warm both (PATH cache, prepared argv, the parent cgroup's fd).
    per_spawn(&mut plain, 10)?;
    per_spawn(&mut contained, 10)?;
    // Alternate single spawns, so both sides see the same load; the low
    // percentiles are the least disturbed by other processes.
    let (mut p, mut c) = (Vec::new(), Vec::new());
    for _ in 0..rounds * spawns {
        p.push(per_spawn(&mut plain, 1)?);
        c.push(per_spawn(&mut contained, 1)?);
    }
    p.sort();
    c.sort();
    let at = |v: &[Duration], q: f64| v[((v.len() - 1) as f64 * q) as usize].as_secs_f64() * 1e6;
    for (name, q) in [("p10", 0.1), ("p50", 0.5)] {
        println!(
            "spawn+wait of {:?}, {name}: plain {:.1} µs, contained {:.1} µs, ratio {:.2}x ({} alternated spawns each)",
            child_argv[0],
            at(&p, q),
            at(&c, q),
            at(&c, q) / at(&p, q),
            p.len()
        );
    }

    // kill_tree against a process-group kill of the same tree.
    let (mut tree_times, mut group_times, mut escaped) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        let mut child = started_tree(false)?;
        assert_eq!(child.containment(), Some(Containment::Cgroup));
        let start = Instant::now();
        child.kill_tree(libc::SIGKILL)?;
        child.wait_tree()?;
        tree_times.push(start.elapsed());

        let mut child = started_tree(true)?;
        let start = Instant::now();
        rustix::process::kill_process_group(
            rustix::process::Pid::from_raw(child.id() as i32).expect("a pid"),
            rustix::process::Signal::KILL,
        )?;
        child.wait()?;
        group_times.push(start.elapsed());
        std::thread::sleep(Duration::from_millis(20));
        escaped.push(child.tree_pids()?.len());
        child.kill_tree(libc::SIGKILL)?;
        child.wait_tree()?;
    }
    println!(
        "kill to empty tree: kill_tree {:.1} µs (every process gone); process-group kill {:.1} µs, leaving {} of 4 processes running (median of {rounds})",
        median(tree_times).as_secs_f64() * 1e6,
        median(group_times).as_secs_f64() * 1e6,
        {
            escaped.sort();
            escaped[escaped.len() / 2]
        }
    );
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("tree_cost: {err}");
            ExitCode::FAILURE
        }
    }
}
