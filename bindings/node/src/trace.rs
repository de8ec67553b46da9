//! Time stamps of a spawn's steps on the native side, for the benchmarks'
//! per-step breakdown (`bench/breakdown.js`). Off unless `traceOn(true)`:
//! then each step costs one `clock_gettime` and a push under a mutex.
//!
//! The clock is `CLOCK_MONOTONIC`, the one of libuv's `uv_hrtime` and so of
//! `process.hrtime.bigint()`: native and JS stamps are on one time line.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// The native steps (the numbers `traceTake` reports).
#[derive(Clone, Copy)]
#[repr(u32)]
pub enum Step {
    /// The spawn job starts on a pool thread.
    PoolStart = 1,
    /// The `Command` is built from the request.
    Built = 2,
    /// `Command::spawn` returned (the child has exec'd).
    Spawned = 3,
    /// The waiter's epoll returned with the child's pidfd readable.
    WaiterWoke = 4,
    /// The exit is reaped and posted.
    ExitPosted = 5,
    /// A batch holding the child's record is handed to JS (on the JS thread).
    Delivered = 6,
}

static ON: AtomicBool = AtomicBool::new(false);
static STAMPS: Mutex<Vec<f64>> = Mutex::new(Vec::new());

/// Turns the recording on or off (and forgets what was recorded).
pub fn set(on: bool) {
    STAMPS.lock().unwrap_or_else(|e| e.into_inner()).clear();
    ON.store(on, Ordering::Relaxed);
}

fn now_ns() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
    t.tv_sec as f64 * 1e9 + t.tv_nsec as f64
}

/// Records `step` of child `id` now, when the recording is on.
#[inline]
pub fn stamp(id: u32, step: Step) {
    if ON.load(Ordering::Relaxed) {
        let t = now_ns();
        STAMPS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(&[f64::from(id), f64::from(step as u32), t]);
    }
}

/// Whether the recording is on.
#[inline]
pub fn on() -> bool {
    ON.load(Ordering::Relaxed)
}

/// Every stamp since the last call, as `[id, step, ns]` triples.
pub fn take() -> Vec<f64> {
    std::mem::take(&mut *STAMPS.lock().unwrap_or_else(|e| e.into_inner()))
}
