//! The messages from the spawner and waiter threads to one JS thread.
//!
//! Every message is four `i32`s, `[kind, id, a, b]` (see [`Kind`]). They
//! are appended to one queue per JS thread; the first message after the
//! queue was drained wakes the JS thread through a threadsafe function, and
//! the JS side takes every message queued by then into an `Int32Array` of
//! its own, made once and reused ([`Events::take`]): one wakeup and one
//! call into JS for a whole batch, and no JS object made per batch (an
//! `Int32Array` over a new external buffer cost ~6 µs per batch on the JS
//! thread: `node::Buffer::New`, its prototype change, a weak handle).
//!
//! With coalesced delivery on (`setDelivery`, [`set_delivery`]; off by
//! default) the wake-up is held back while other children of the process
//! run, until enough records wait or a deadline passes (one coalescer
//! thread keeps the deadlines); the benchmarks' pings use the same
//! (`post_within`).

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use napi::bindgen_prelude::Function;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};

/// What a message says. `a` and `b` by kind:
/// - `Spawned`: the pid, 0.
/// - `Failed`: the errno (positive), 0.
/// - `Exited`: the exit code or -1, the signal number or 0.
/// - `Pong`: 0, 0 (id 0): the answer to `ping()`, for the benchmarks.
/// - `TreeEmpty`: 0, 0: every process of a contained child's tree has
///   exited (always after its `Exited`).
/// - `Data`: the child fd (1, 2), the byte count: that many bytes of a
///   `pipeAs: 'readable'` output, next in the batch's bytes
///   (`outputs.rs`). A `Data` record posted right after one of the same
///   output that is still queued is merged into it (one chunk for JS).
/// - `OutputEnd`: the child fd, 0 or the errno (positive) of the read
///   that failed: that output's end of stream; its fd is closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(i32)]
pub enum Kind {
    Spawned = 1,
    Failed = 2,
    Exited = 3,
    Pong = 4,
    TreeEmpty = 5,
    Data = 6,
    OutputEnd = 7,
}

#[derive(Default)]
struct Queue {
    records: Vec<i32>,
    /// The bytes of the `Data` records, in their order.
    bytes: Vec<u8>,
    /// A wakeup is on its way and has not drained the queue yet.
    scheduled: bool,
    /// [`post_within`](Events::post_within) armed the coalescer's deadline
    /// for this queue and it has not passed yet.
    armed: bool,
}

/// Queues `record` and its bytes; a `Data` record that follows one of the
/// same output still queued adds its bytes to it (one chunk for JS).
fn push_record(queue: &mut Queue, record: [i32; 4], bytes: &[u8]) {
    queue.bytes.extend_from_slice(bytes);
    let len = queue.records.len();
    if record[0] == Kind::Data as i32 && len >= 4 && queue.records[len - 4..len - 1] == record[..3]
    {
        queue.records[len - 1] += record[3];
        return;
    }
    queue.records.extend_from_slice(&record);
}

type Tsfn = ThreadsafeFunction<(), (), u32, napi::Status, false, true, 0>;

/// The event channel to one JS thread.
pub struct Events {
    queue: Arc<Mutex<Queue>>,
    tsfn: Tsfn,
    on_drain: fn(&[i32]),
    /// Itself, for the coalescer ([`post_within`](Self::post_within)).
    me: std::sync::Weak<Events>,
}

/// Coalesced delivery (`setDelivery` in JS, [`set_delivery`]): 0 µs (the
/// default) wakes the JS thread at the first record after it took the
/// last. Otherwise a child's record wakes it at once only while no other
/// child of the process runs ([`RUNNING`]); else it waits until `count`
/// records wait or `within` µs passed since the first of them (the
/// coalescer thread's deadline), or JS takes them first.
static DELIVERY_WITHIN_US: AtomicU32 = AtomicU32::new(0);
static DELIVERY_COUNT: AtomicU32 = AtomicU32::new(64);

/// Children of this process spawned (queued included) and not yet
/// reported ended (`Exited` or `Failed` posted): whether "other children
/// run" for the coalesced delivery.
pub static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// What the coalesced delivery did, for the tests: records posted that
/// woke JS at once because no other child ran, records held, wake-ups at a
/// deadline.
static AT_ONCE: AtomicU64 = AtomicU64::new(0);
static HELD: AtomicU64 = AtomicU64::new(0);
static DEADLINES: AtomicU64 = AtomicU64::new(0);

/// Sets the coalesced delivery (`within` µs, at most 100,000; 0: off) and
/// its `count` (at least 1) for every JS thread of the process.
pub fn set_delivery(within: u32, count: u32) {
    DELIVERY_WITHIN_US.store(within.min(100_000), Ordering::Relaxed);
    DELIVERY_COUNT.store(count.max(1), Ordering::Relaxed);
}

/// `[within µs, count]` as set.
pub fn delivery() -> [u32; 2] {
    [
        DELIVERY_WITHIN_US.load(Ordering::Relaxed),
        DELIVERY_COUNT.load(Ordering::Relaxed),
    ]
}

/// `[at once, held, deadline wake-ups]` so far.
pub fn delivery_stats() -> [u64; 3] {
    [
        AT_ONCE.load(Ordering::Relaxed),
        HELD.load(Ordering::Relaxed),
        DEADLINES.load(Ordering::Relaxed),
    ]
}

/// Whether coalesced delivery is on.
pub fn coalescing() -> bool {
    DELIVERY_WITHIN_US.load(Ordering::Relaxed) > 0
}

impl Events {
    /// A channel whose wake-ups call `callback` on the JS thread (with the
    /// number of records queued when it was called; it takes them with
    /// [`take`](Self::take)). `on_drain` runs there with each batch taken,
    /// before JS reads it.
    pub fn new(callback: Function<'_, u32, ()>, on_drain: fn(&[i32])) -> napi::Result<Arc<Events>> {
        let queue: Arc<Mutex<Queue>> = Arc::default();
        let queued = Arc::clone(&queue);
        // Weak: it does not keep the event loop alive by itself; the JS
        // side refs it while it has ref'd children (`set_ref`).
        let tsfn = callback
            .build_threadsafe_function::<()>()
            .weak::<true>()
            .callee_handled::<false>()
            .build_callback(move |_| {
                let queue = queued.lock().unwrap_or_else(|e| e.into_inner());
                Ok(queue.records.len() as u32)
            })?;
        Ok(Arc::new_cyclic(|me| Events {
            queue,
            tsfn,
            on_drain,
            me: me.clone(),
        }))
    }

    /// Moves every queued record into `out` and their bytes into
    /// `out_bytes` (on the JS thread) and returns how many `i32`s it wrote;
    /// when they do not fit, takes nothing and returns minus the length
    /// `out` needs (at most `out`'s length when only the bytes do not
    /// fit). Once the queue is empty, the next [`post`](Self::post) wakes
    /// the JS thread again.
    pub fn take(&self, out: &mut [i32], out_bytes: &mut [u8]) -> i64 {
        let n = {
            let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
            let n = queue.records.len();
            if n > out.len() || queue.bytes.len() > out_bytes.len() {
                return -(n.max(1) as i64);
            }
            out[..n].copy_from_slice(&queue.records);
            queue.records.clear();
            let b = queue.bytes.len();
            out_bytes[..b].copy_from_slice(&queue.bytes);
            queue.bytes.clear();
            queue.scheduled = false;
            n
        };
        let records = &out[..n];
        (self.on_drain)(records);
        if crate::trace::on() {
            for record in records.chunks_exact(4) {
                crate::trace::stamp(record[1] as u32, crate::trace::Step::Delivered);
            }
        }
        n as i64
    }

    /// Queues one message and wakes the JS thread if it is not already
    /// about to drain the queue.
    pub fn post(&self, kind: Kind, id: u32, a: i32, b: i32) {
        self.post_bytes(kind, id, a, b, &[]);
    }

    /// [`post`](Self::post) of a record with bytes (a `Data` record: `b`
    /// is `bytes.len()`).
    pub fn post_bytes(&self, kind: Kind, id: u32, a: i32, b: i32, bytes: &[u8]) {
        let within = DELIVERY_WITHIN_US.load(Ordering::Relaxed);
        if within > 0 && kind != Kind::Pong {
            // The other children running: for a record of a child that
            // still runs (its spawn, its output), itself is not one; its
            // exit or failure was counted out before it was posted.
            let running = RUNNING.load(Ordering::Relaxed);
            let others = match kind {
                Kind::Spawned | Kind::Data | Kind::OutputEnd => running.saturating_sub(1),
                _ => running,
            };
            let count = if others == 0 {
                AT_ONCE.fetch_add(1, Ordering::Relaxed);
                1
            } else {
                DELIVERY_COUNT.load(Ordering::Relaxed) as usize
            };
            return self.post_within_bytes(
                [kind as i32, id as i32, a, b],
                bytes,
                std::time::Duration::from_micros(u64::from(within)),
                count,
            );
        }
        let wake = {
            let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
            push_record(&mut queue, [kind as i32, id as i32, a, b], bytes);
            !std::mem::replace(&mut queue.scheduled, true)
        };
        if wake {
            // Fails only while the environment shuts down: nobody is left
            // to tell.
            let _ = self.tsfn.call((), ThreadsafeFunctionCallMode::NonBlocking);
        }
    }

    /// Queues one message without waking the JS thread: the next
    /// [`post`](Self::post) (or [`flush`](Self::flush)) delivers it in the
    /// same batch.
    pub fn queue(&self, kind: Kind, id: u32, a: i32, b: i32) {
        let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        queue
            .records
            .extend_from_slice(&[kind as i32, id as i32, a, b]);
    }

    /// Wakes the JS thread for what [`queue`](Self::queue) left, unless a
    /// wake-up is already on its way.
    /// Returns whether it woke it.
    pub fn flush(&self) -> bool {
        let wake = {
            let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
            !queue.records.is_empty() && !std::mem::replace(&mut queue.scheduled, true)
        };
        if wake {
            let _ = self.tsfn.call((), ThreadsafeFunctionCallMode::NonBlocking);
        }
        wake
    }

    /// Queues one message and wakes the JS thread only once `count`
    /// messages wait or `within` has passed since the first of them was
    /// queued (the coalescer thread's deadline), unless a wake-up is on
    /// its way or JS takes them first (`takeEvents` from JS at any time).
    /// For the benchmarks' floor of a design that answers many exits per
    /// wake-up (`setPingDelivery`); the package's children use `post`.
    pub fn post_within(
        &self,
        kind: Kind,
        id: u32,
        a: i32,
        b: i32,
        within: std::time::Duration,
        count: usize,
    ) {
        self.post_within_bytes([kind as i32, id as i32, a, b], &[], within, count);
    }

    fn post_within_bytes(
        &self,
        record: [i32; 4],
        bytes: &[u8],
        within: std::time::Duration,
        count: usize,
    ) {
        let (wake, arm) = {
            let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
            push_record(&mut queue, record, bytes);
            if queue.scheduled {
                (false, false)
            } else if queue.records.len() >= 4 * count.max(1) {
                queue.scheduled = true;
                (true, false)
            } else {
                HELD.fetch_add(1, Ordering::Relaxed);
                (false, !std::mem::replace(&mut queue.armed, true))
            }
        };
        if wake {
            let _ = self.tsfn.call((), ThreadsafeFunctionCallMode::NonBlocking);
        }
        if arm {
            let armed = self
                .me
                .upgrade()
                .is_some_and(|me| coalescer::arm(me, std::time::Instant::now() + within));
            if !armed {
                // No coalescer thread (it could not start): at once.
                self.queue.lock().unwrap_or_else(|e| e.into_inner()).armed = false;
                self.flush();
            }
        }
    }

    /// The coalescer's deadline for this queue passed: wakes the JS thread
    /// for what waits, if anything does and no wake-up is on its way.
    fn deadline(&self) {
        self.queue.lock().unwrap_or_else(|e| e.into_inner()).armed = false;
        if self.flush() {
            DEADLINES.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Whether records wait with no wake-up on its way (JS may take them
    /// now instead of waiting for the coalesced wake-up).
    pub fn waiting(&self) -> bool {
        let queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        !queue.scheduled && !queue.records.is_empty()
    }

    /// Whether the channel keeps the event loop alive (call on the JS thread).
    pub fn set_ref(&self, env: &napi::Env, keep_alive: bool) -> napi::Result<()> {
        crate::sys::set_ref(env.raw(), self.tsfn.raw(), keep_alive)
    }
}

/// One thread that wakes JS threads at the deadlines armed by
/// [`Events::post_within`] (for the benchmarks). Started by [`start_coalescer`] where the
/// setting that needs it is made, so that a thread that cannot start is
/// that caller's error, never a panic on a spawner or waiter thread.
mod coalescer {
    use std::sync::{Arc, Condvar, Mutex, OnceLock};
    use std::time::Instant;

    use super::Events;

    type Due = (Instant, Arc<Events>);

    struct Deadlines {
        due: Mutex<Vec<Due>>,
        changed: Condvar,
    }

    static DEADLINES: OnceLock<&'static Deadlines> = OnceLock::new();

    /// Starts the coalescer thread unless it runs.
    pub fn start() -> std::io::Result<()> {
        static STARTING: Mutex<()> = Mutex::new(());
        let _one_at_a_time = STARTING.lock().unwrap_or_else(|e| e.into_inner());
        if DEADLINES.get().is_some() {
            return Ok(());
        }
        let d: &'static Deadlines = Box::leak(Box::new(Deadlines {
            due: Mutex::new(Vec::new()),
            changed: Condvar::new(),
        }));
        std::thread::Builder::new()
            .name("fastspawn-coalesce".into())
            .stack_size(128 * 1024)
            .spawn(move || run(d))?;
        let _ = DEADLINES.set(d);
        Ok(())
    }

    fn push(due: Due) -> bool {
        let Some(d) = DEADLINES.get() else {
            return false;
        };
        d.due.lock().unwrap_or_else(|e| e.into_inner()).push(due);
        d.changed.notify_one();
        true
    }

    /// Arms a coalesced delivery's deadline; false without the thread.
    pub fn arm(events: Arc<Events>, at: Instant) -> bool {
        push((at, events))
    }

    fn run(d: &'static Deadlines) {
        let mut due = d.due.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            let now = Instant::now();
            let (ready, waiting): (Vec<_>, Vec<_>) = due.drain(..).partition(|(at, _)| *at <= now);
            *due = waiting;
            if !ready.is_empty() {
                drop(due);
                for (_, events) in ready {
                    events.deadline();
                }
                due = d.due.lock().unwrap_or_else(|e| e.into_inner());
                continue;
            }
            due = match due.iter().map(|(at, _)| *at).min() {
                None => d.changed.wait(due).unwrap_or_else(|e| e.into_inner()),
                Some(at) => {
                    d.changed
                        .wait_timeout(due, at.saturating_duration_since(now))
                        .unwrap_or_else(|e| e.into_inner())
                        .0
                }
            };
        }
    }
}

/// Starts the thread of the coalesced delivery's deadlines, if it does not
/// run yet.
pub fn start_coalescer() -> std::io::Result<()> {
    coalescer::start()
}
