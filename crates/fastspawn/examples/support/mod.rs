//! What the wait benchmarks (`bounded_wait`, `exit_wait`) share: the
//! calling thread's CPU time, and the median of a round's figures.

use std::time::Duration;

/// The calling thread's run time so far (`/proc/thread-self/schedstat`,
/// ns).
pub fn thread_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").expect("schedstat");
    let ns = stat
        .split(' ')
        .next()
        .and_then(|f| f.parse().ok())
        .expect("a run time");
    Duration::from_nanos(ns)
}

/// The median of `v` (the upper one of an even count); sorts `v`.
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
