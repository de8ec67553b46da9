//! How long `freeze()` and `kill_tree` + `wait_tree` take right after a
//! contained spawn and 50 ms later: the kernel holds back a change of
//! `cgroup.events` that comes within 10 ms of the previous one (see
//! `docs/trees.md`), which these calls must not wait for.
//!
//! `cargo run --release -p fastspawn --example freeze_latency` (needs a
//! writable cgroup v2).

use std::time::{Duration, Instant};

fn main() -> fastspawn::Result<()> {
    for delay in [0u64, 50] {
        let (mut freeze, mut kill) = (Vec::new(), Vec::new());
        for _ in 0..10 {
            let mut cmd = fastspawn::Command::new("sleep");
            cmd.arg("10").contain(true).require_contained(true);
            let mut child = cmd.spawn()?;
            std::thread::sleep(Duration::from_millis(delay));
            let t = Instant::now();
            child.freeze()?;
            freeze.push(t.elapsed().as_micros());
            let t = Instant::now();
            child.kill_tree(libc::SIGKILL)?;
            child.wait_tree()?;
            kill.push(t.elapsed().as_micros());
        }
        freeze.sort_unstable();
        kill.sort_unstable();
        println!(
            "{delay} ms after the spawn, µs, p50 (min-max): freeze {} ({}-{}), kill_tree + wait_tree {} ({}-{})",
            freeze[5], freeze[0], freeze[9], kill[5], kill[0], kill[9]
        );
    }
    Ok(())
}
