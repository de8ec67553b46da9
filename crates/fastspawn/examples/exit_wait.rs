//! What the unbounded wait for one child's exit costs when a wake-up fd
//! must be watched with it (Python's signal wakeup fd during a native
//! `run()`), against a blocking `waitid`: three ways, interleaved round by
//! round (the order rotating), one spawn + wait at a time:
//!
//! - `waitid`: no fd watched, a blocking `waitid` (the floor; a write to
//!   the fd during the wait is seen only at the exit);
//! - `pidfd`: the clone makes a pidfd (`CLONE_PIDFD`), `poll` on it and
//!   the fd, then the reap and the pidfd's `close` (what the Python
//!   binding's `run(args)` does on the main thread);
//! - `timed`: the exit ring's waitid alone (`ExitRing::wait_timeout` with
//!   10 s, one `io_uring_enter`), then the reap: the io_uring way's own
//!   cost, before any poll of the fd is added to it
//!   (docs/perf/python.md, "Session 22").
//!
//! ```text
//! cargo run --release --example exit_wait -- [ROUNDS [N [CHILD]]]
//! ```
//!
//! Prints per way the median over the rounds of the calling thread's CPU
//! and the wall time per spawn + wait, then each way's against `waitid`'s,
//! paired by round (median).

use std::os::fd::AsFd;
use std::time::{Duration, Instant};

use fastspawn::Command;
use fastspawn::exit_ring::ExitRing;

#[path = "support/mod.rs"]
mod support;
use support::{median, thread_cpu};

#[derive(Clone, Copy, PartialEq)]
enum Way {
    Waitid,
    Pidfd,
    Timed,
}

/// One round of `n` spawns: CPU and wall µs per spawn + wait.
fn round(way: Way, n: usize, child: &str, wake: std::os::fd::BorrowedFd<'_>) -> (f64, f64) {
    let (c0, w0) = (thread_cpu(), Instant::now());
    for _ in 0..n {
        let mut cmd = Command::new(child);
        cmd.pidfd_at_spawn(way == Way::Pidfd);
        cmd.pidfd(way == Way::Pidfd);
        let mut c = cmd.spawn().expect("spawn the child");
        match way {
            Way::Waitid => {}
            Way::Pidfd => {
                let pidfd = c.pidfd().expect("a pidfd from the clone");
                let mut fds = [
                    rustix::event::PollFd::new(&pidfd, rustix::event::PollFlags::IN),
                    rustix::event::PollFd::new(&wake, rustix::event::PollFlags::IN),
                ];
                rustix::event::poll(&mut fds, None).expect("poll");
            }
            Way::Timed => {
                assert!(ExitRing::wait_timeout(&c, Duration::from_secs(10)).expect("wait"));
            }
        }
        c.wait().expect("reap the child");
    }
    let per = 1e6 / n as f64;
    (
        (thread_cpu() - c0).as_secs_f64() * per,
        w0.elapsed().as_secs_f64() * per,
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = args.first().map_or(21, |a| a.parse().expect("ROUNDS"));
    let n: usize = args.get(1).map_or(1000, |a| a.parse().expect("N"));
    let child = args.get(2).map_or("target/peers/noop", String::as_str);
    if ExitRing::get().is_none() {
        println!("skipped: no io_uring with IORING_OP_WAITID here");
        return;
    }
    let (wake, _woken) = rustix::pipe::pipe_with(
        rustix::pipe::PipeFlags::CLOEXEC | rustix::pipe::PipeFlags::NONBLOCK,
    )
    .expect("pipe");
    let ways = [
        (Way::Waitid, "waitid"),
        (Way::Pidfd, "pidfd"),
        (Way::Timed, "timed"),
    ];
    for (way, _) in ways {
        round(way, 200, child, wake.as_fd()); // warm up
    }
    let mut res: Vec<Vec<(f64, f64)>> = vec![Vec::new(); ways.len()];
    for r in 0..rounds {
        for k in 0..ways.len() {
            let i = (r + k) % ways.len();
            res[i].push(round(ways[i].0, n, child, wake.as_fd()));
        }
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "{rounds} rounds of {n} spawns + waits of {child}, one at a time; load after: {}",
        load.split(' ').take(3).collect::<Vec<_>>().join(" ")
    );
    for (i, (_, name)) in ways.iter().enumerate() {
        let mut cpu: Vec<f64> = res[i].iter().map(|r| r.0).collect();
        let mut wall: Vec<f64> = res[i].iter().map(|r| r.1).collect();
        println!(
            "{name:7} thread CPU {:6.1} µs per spawn + wait, wall {:6.1} µs",
            median(&mut cpu),
            median(&mut wall),
        );
    }
    for (i, (_, name)) in ways.iter().enumerate().skip(1) {
        let mut cpu: Vec<f64> = res[i].iter().zip(&res[0]).map(|(a, b)| a.0 / b.0).collect();
        let mut wall: Vec<f64> = res[i].iter().zip(&res[0]).map(|(a, b)| a.1 / b.1).collect();
        println!(
            "{name:7} / waitid: thread CPU {:.3}, wall {:.3} (median of paired rounds)",
            median(&mut cpu),
            median(&mut wall)
        );
    }
}
