//! What the spawner pool's wake-up policy costs and saves, from tokio:
//! spawns one at a time (`spawn().await`, then `wait().await`), then with
//! 16 in flight, then sleeps a second with the pool idle.
//!
//! ```text
//! cargo run --release --features tokio --example pool_wake [-- N CHILD]
//! ```
//!
//! Prints, one at a time: the time the first poll of `Command::spawn` takes on
//! the runtime's thread (the hand-over to a pool thread: a futex wake when none is
//! awake), the time until the spawn's result is back (p50/p99), and the
//! wall time and CPU (this process and its children) per spawn+wait; with
//! 16 in flight: spawns per second and CPU per spawn; and the CPU this
//! process used in the idle second after (which a pool thread that never
//! stops watching would fill).

use std::future::Future;
use std::time::{Duration, Instant};

use fastspawn::tokio::Command;

/// CPU used by this process and its waited-for children, from
/// `/proc/self/stat` (in clock ticks, 100 per second here: enough for
/// thousands of spawns, and to tell an idle process from a spinning one).
fn cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    let after_name = &stat[stat.rfind(')').expect("a comm field") + 2..];
    // Fields 14-17 (utime, stime, cutime, cstime); field 3 is the first here.
    let ticks: u64 = after_name
        .split(' ')
        .skip(11)
        .take(4)
        .map(|f| f.parse::<u64>().expect("a tick count"))
        .sum();
    Duration::from_millis(ticks * 10)
}

fn pct(values: &mut [Duration], q: f64) -> f64 {
    values.sort();
    let at = ((values.len() as f64 * q) as usize).min(values.len() - 1);
    values[at].as_secs_f64() * 1e6
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), fastspawn::Error> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2000);
    let child = args.next().unwrap_or_else(|| "/bin/true".to_owned());
    let mut command = Command::new(&child);

    let (mut call, mut result) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let (c0, t0) = (cpu(), Instant::now());
    for _ in 0..n {
        let start = Instant::now();
        let mut spawning = std::pin::pin!(command.spawn());
        let mut called = None;
        let mut child = std::future::poll_fn(|cx| {
            let poll = spawning.as_mut().poll(cx);
            called.get_or_insert_with(|| start.elapsed());
            poll
        })
        .await?;
        result.push(start.elapsed());
        call.push(called.expect("polled once"));
        child.wait().await?;
    }
    let (wall, used) = (t0.elapsed(), cpu() - c0);
    println!(
        "one at a time: spawn() call p50 {:.1} µs p99 {:.1}; spawned after p50 {:.1} µs p99 {:.1}; \
         spawn+wait {:.1} µs wall, {:.1} µs CPU",
        pct(&mut call, 0.5),
        pct(&mut call, 0.99),
        pct(&mut result, 0.5),
        pct(&mut result, 0.99),
        wall.as_secs_f64() * 1e6 / n as f64,
        used.as_secs_f64() * 1e6 / n as f64,
    );

    let (c0, t0) = (cpu(), Instant::now());
    let mut tasks = tokio::task::JoinSet::new();
    let mut started = 0;
    while started < n || !tasks.is_empty() {
        while started < n && tasks.len() < 16 {
            let child = child.clone();
            tasks.spawn(async move { Command::new(child).spawn().await?.wait().await });
            started += 1;
        }
        if let Some(done) = tasks.join_next().await {
            done.expect("the task ran")?;
        }
    }
    let (wall, used) = (t0.elapsed(), cpu() - c0);
    println!(
        "16 in flight: {:.0} spawns/s, {:.1} µs CPU per spawn",
        n as f64 / wall.as_secs_f64(),
        used.as_secs_f64() * 1e6 / n as f64,
    );

    let c0 = cpu();
    std::thread::sleep(Duration::from_secs(1));
    println!(
        "idle second after: {:.2} ms CPU",
        (cpu() - c0).as_secs_f64() * 1e3
    );
    Ok(())
}
