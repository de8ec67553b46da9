//! What the bounded wait for one child costs the thread that waits: what
//! `fastspawn.asyncio`'s spawner threads do after each clone (the linger:
//! give the child up to 200 µs to exit, then reap it). Three ways,
//! interleaved round by round (the order rotating), one spawn at a time:
//!
//! - `timed`: `ExitRing::wait_timeout` as it is by default, one waitid
//!   request submitted and waited for with a timeout in one
//!   `io_uring_enter` (`IORING_ENTER_EXT_ARG`), the child cloned without a
//!   pidfd;
//! - `linked`: the same with the waitid linked to an
//!   `IORING_OP_LINK_TIMEOUT` (`ExitRing::set_linked_timeout(true)`);
//! - `pidfd`: the clone makes a pidfd (`CLONE_PIDFD`), `poll` on it with the
//!   timeout, and the pidfd's `close` with the child.
//!
//! ```text
//! cargo run --release --example bounded_wait -- [ROUNDS [N [LINGER_US [CHILD]]]]
//! ```
//!
//! Prints per way the median over the rounds of the calling thread's CPU
//! per spawn (`/proc/thread-self/schedstat`: the clone, the wait, the reap, the
//! drop), the wall time per spawn, and how many waits saw the exit; then
//! each way's CPU against `timed`'s, paired by round (median, quartiles).

use std::time::{Duration, Instant};

use fastspawn::Command;
use fastspawn::exit_ring::ExitRing;

#[path = "support/mod.rs"]
mod support;
use support::{median, thread_cpu};

#[derive(Clone, Copy, PartialEq)]
enum Way {
    Timed,
    Linked,
    Pidfd,
}

/// One round of `n` spawns: CPU and wall µs per spawn, exits seen.
fn round(way: Way, n: usize, linger: Duration, child: &str) -> (f64, f64, usize) {
    ExitRing::set_linked_timeout(way == Way::Linked);
    let (c0, w0) = (thread_cpu(), Instant::now());
    let mut seen = 0;
    for _ in 0..n {
        let mut cmd = Command::new(child);
        cmd.pidfd_at_spawn(way == Way::Pidfd);
        let mut c = cmd.spawn().expect("spawn the child");
        let exited = if way == Way::Pidfd {
            let pidfd = c.pidfd().expect("a pidfd from the clone");
            let mut fds = [rustix::event::PollFd::new(
                &pidfd,
                rustix::event::PollFlags::IN,
            )];
            let timeout = rustix::event::Timespec {
                tv_sec: 0,
                tv_nsec: linger.as_nanos() as i64,
            };
            matches!(rustix::event::poll(&mut fds, Some(&timeout)), Ok(k) if k > 0)
        } else {
            ExitRing::wait_timeout(&c, linger).expect("the bounded wait")
        };
        seen += usize::from(exited);
        c.wait().expect("reap the child");
    }
    let per = 1e6 / n as f64;
    (
        (thread_cpu() - c0).as_secs_f64() * per,
        w0.elapsed().as_secs_f64() * per,
        seen,
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = args.first().map_or(21, |a| a.parse().expect("ROUNDS"));
    let n: usize = args.get(1).map_or(1000, |a| a.parse().expect("N"));
    let linger = Duration::from_micros(args.get(2).map_or(200, |a| a.parse().expect("LINGER_US")));
    let child = args.get(3).map_or("target/peers/noop", String::as_str);
    if ExitRing::get().is_none() {
        println!("skipped: no io_uring with IORING_OP_WAITID here");
        return;
    }
    let ways = [
        (Way::Timed, "timed"),
        (Way::Linked, "linked"),
        (Way::Pidfd, "pidfd"),
    ];
    for (way, _) in ways {
        round(way, 200, linger, child); // warm up (the thread's own ring too)
    }
    let mut res: Vec<Vec<(f64, f64, usize)>> = vec![Vec::new(); ways.len()];
    for r in 0..rounds {
        for k in 0..ways.len() {
            let i = (r + k) % ways.len();
            res[i].push(round(ways[i].0, n, linger, child));
        }
    }
    ExitRing::set_linked_timeout(false);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "{rounds} rounds of {n} spawns of {child}, one at a time, linger {} µs; load after: {}",
        linger.as_micros(),
        load.split(' ').take(3).collect::<Vec<_>>().join(" ")
    );
    for (i, (_, name)) in ways.iter().enumerate() {
        let mut cpu: Vec<f64> = res[i].iter().map(|r| r.0).collect();
        let mut wall: Vec<f64> = res[i].iter().map(|r| r.1).collect();
        let seen: usize = res[i].iter().map(|r| r.2).sum();
        println!(
            "{name:7} thread CPU {:6.1} µs per spawn, wall {:6.1} µs, the exit seen in {seen} of {} waits",
            median(&mut cpu),
            median(&mut wall),
            rounds * n
        );
    }
    for (i, (_, name)) in ways.iter().enumerate().skip(1) {
        let mut d: Vec<f64> = res[i].iter().zip(&res[0]).map(|(b, a)| b.0 - a.0).collect();
        d.sort_by(f64::total_cmp);
        println!(
            "{name} - timed: thread CPU per spawn, paired by round: median {:+.1} µs (quartiles {:+.1} {:+.1})",
            d[d.len() / 2],
            d[d.len() / 4],
            d[3 * d.len() / 4]
        );
    }
}
