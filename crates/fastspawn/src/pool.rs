//! Spawner threads: long-lived threads owned by fastspawn that perform the
//! spawns handed to them, so that the caller (an event loop) never runs a
//! clone or an exec, and several spawns proceed at once on several cores.
//!
//! # What `pdeathsig` means for children started by a pool
//!
//! The kernel sends the parent-death signal when the *thread* that created
//! the child exits, not when the process does. A pool thread lives exactly
//! as long as its [`Pool`]: so a child with `pdeathsig` set gets its signal
//! when the pool is dropped (its threads exit) or when the process exits,
//! whichever comes first, and never because some caller thread, a tokio
//! `spawn_blocking` thread or a retired worker went away. The global pool
//! ([`Pool::global`]) is never dropped: its children get the signal when
//! the process exits.
//!
//! Jobs are taken in order from one shared queue; a job that panics takes
//! only itself down (the panic is caught and the thread goes on).
//!
//! # Spin, then sleep
//!
//! Waking a sleeping thread on another core costs the *waker* an
//! inter-processor interrupt: about 1 µs on bare metal, 10 µs and more in a
//! virtual machine, where it exits to the hypervisor. The waker is the
//! caller's event loop, so that cost is a stall of the loop on every spawn.
//! A pool thread that has finished a job therefore watches the queue for
//! a window (50 µs, [`Pool::set_spin`]) before it goes to sleep (one thread at a time, so an idle pool
//! burns at most one core, briefly); a job handed over while a thread
//! watches is taken without any system call on the caller's side. The
//! caller wakes a sleeper only when the queued jobs outnumber the
//! watching threads. Watching only pays when jobs come soon after the last
//! one finished (a loop that spawns, awaits, spawns): the pool watches only
//! while the latest hand-over came within the window of the previous job's end.
//! A server whose spawns come farther apart than that (a few thousand a
//! second) gets sleeping threads and no spinning, since there the CPU is
//! worth more to the children than the microseconds to the caller.
//!
//! Napping instead of sleeping (an idle thread that looks at the queue
//! every 20 µs for a while, so that no caller ever wakes it) was measured
//! with `examples/pool_wake.rs` on a 2-core VM: the caller's hand-over fell
//! from ~5 to 0.6 µs, but the naps' timer wake-ups took the cores the
//! children needed, and both spawn+wait and 16-in-flight throughput got
//! slower. Not adopted.

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::child::Child;
use crate::command::Command;
use crate::error::Result;
use crate::per_process::PerProcess;

type Job = Box<dyn FnOnce() + Send + 'static>;

/// How long a pool thread watches the queue before it sleeps, unless
/// [`Pool::set_spin`] says otherwise.
const SPIN: Duration = Duration::from_micros(50);

#[derive(Default)]
struct Queue {
    jobs: VecDeque<Job>,
    closed: bool,
    /// Threads watching the queue without sleeping (each will take a job).
    watching: usize,
    /// Threads asleep on `ready`.
    sleeping: usize,
    /// When the latest job finished.
    last_done: Option<Instant>,
    /// Whether the latest hand-over came within the watch window of `last_done`.
    soon_after: bool,
    /// How many times a thread started watching.
    #[cfg(test)]
    watches: u64,
}

struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
    /// `queue.jobs.len()`, readable without the lock by watching threads.
    queued: AtomicUsize,
    /// The watch window in nanoseconds (see [`Pool::set_spin`]).
    spin_ns: AtomicU64,
}

impl Shared {
    fn new() -> Shared {
        Shared {
            queue: Mutex::default(),
            ready: Condvar::new(),
            queued: AtomicUsize::new(0),
            spin_ns: AtomicU64::new(SPIN.as_nanos() as u64),
        }
    }

    fn spin(&self) -> Duration {
        Duration::from_nanos(self.spin_ns.load(Ordering::Relaxed))
    }
}

/// A set of spawner threads.
pub struct Pool {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
    /// The [`generation`](crate::per_process::generation) of the process
    /// whose threads these are.
    generation: u64,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool")
            .field("threads", &self.threads.len())
            .finish()
    }
}

impl Pool {
    /// A pool of `threads` spawner threads (at least one). If a thread
    /// cannot be started (the process's or its cgroup's thread limit, no
    /// memory for a stack), that error is returned as the OS gave it
    /// (`EAGAIN` for a limit), and the threads already started are stopped
    /// and joined: nothing is left running.
    pub fn new(threads: usize) -> io::Result<Pool> {
        let wanted = threads.max(1);
        // Built first, so that an early return drops it: `Drop` closes the
        // queue and joins the threads started so far.
        let mut pool = Pool {
            shared: Arc::new(Shared::new()),
            threads: Vec::with_capacity(wanted),
            generation: crate::per_process::generation(),
        };
        for i in 0..wanted {
            let shared = Arc::clone(&pool.shared);
            let handle = std::thread::Builder::new()
                .name(format!("fastspawn-{i}"))
                .stack_size(256 * 1024)
                .spawn(move || {
                    // Requests it submits lose the exit once it is gone
                    // (its pool dropped): the callers' `try_wait` decides,
                    // see `exit_ring`'s "Which threads may submit".
                    crate::exit_ring::ExitRing::mark_thread_long_lived();
                    work(&shared)
                })?;
            pool.threads.push(handle);
        }
        Ok(pool)
    }

    /// The process-wide pool: one thread per available core, started on
    /// first use, never stopped. Panics if its threads cannot be started;
    /// [`Pool::try_global`] returns that error instead.
    pub fn global() -> &'static Pool {
        Pool::try_global().unwrap_or_else(|e| panic!("{e}"))
    }

    /// The process-wide pool ([`Pool::global`]), or the error that kept its
    /// threads from starting (see [`Pool::new`]). A failed start leaves
    /// nothing behind and is tried again by the next call, so a caller
    /// that hit a thread limit can report it and recover once threads are
    /// free. After the first success this is a few atomic loads. A child
    /// forked after the pool started gets a pool of its own on its first
    /// call (the parent's threads are not in it: see
    /// [`per_process`](crate::per_process)).
    pub fn try_global() -> io::Result<&'static Pool> {
        // One caller starts the threads; the others wait for its result
        // rather than each starting a pool of its own. A forked child
        // starts its own (see `per_process`).
        static GLOBAL: PerProcess<Pool> = PerProcess::new();
        GLOBAL.get_or_try_init(|| {
            let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
            Pool::new(threads)
        })
    }

    /// How many spawner threads the pool has.
    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// Sets the watch window (50 µs unless set): how long a thread that
    /// has finished a job keeps watching the queue before it sleeps, and
    /// how soon after the previous job's end a hand-over must come for the
    /// pool to watch at all (see the module docs). `Duration::ZERO` turns
    /// watching off. A longer window spares callers whose next spawn
    /// comes later (an event loop that handles the exit first) the wake-up
    /// of a sleeping thread, at the price of one core spinning for that
    /// long after each job. Takes effect from the next job on.
    pub fn set_spin(&self, window: Duration) {
        let ns = u64::try_from(window.as_nanos()).unwrap_or(u64::MAX);
        self.shared.spin_ns.store(ns, Ordering::Relaxed);
    }

    /// The watch window ([`Pool::set_spin`]).
    pub fn spin(&self) -> Duration {
        self.shared.spin()
    }

    /// Starts `command` on one of the pool's threads and hands the result
    /// to `then`, on that thread. The caller does no spawning work and
    /// does not wait: for event loops that are not tokio. `then` must be
    /// quick (it holds up the pool's next spawn); if it drops the [`Child`], the
    /// child is not killed, as with `std`.
    pub fn spawn(&self, mut command: Command, then: impl FnOnce(Result<Child>) + Send + 'static) {
        self.run(move || then(command.spawn()));
    }

    /// Runs `job` on one of the pool's threads: for work that must happen
    /// right before a spawn and off the caller's thread (the Node addon
    /// duplicates the parent's stdio there, so that queued spawns hold no
    /// fds). A job that panics takes only itself down.
    ///
    /// # Panics
    ///
    /// In a child forked after the pool was made, which has none of its
    /// threads (a job would wait for ever): make a new pool there, or use
    /// [`Pool::global`], which makes the child's own.
    pub fn run(&self, job: impl FnOnce() + Send + 'static) {
        assert!(
            self.generation == crate::per_process::generation(),
            "fastspawn::Pool used in a child forked after the pool was made: its threads are the parent's, none would run the job (make a new Pool in the child; Pool::global() makes its own)"
        );
        let mut queue = self.shared.queue.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(done) = queue.last_done {
            queue.soon_after = done.elapsed() < self.shared.spin();
        }
        queue.jobs.push_back(Box::new(job));
        self.shared
            .queued
            .store(queue.jobs.len(), Ordering::Release);
        // Watching threads will take up to `watching` jobs by themselves.
        let wake = queue.sleeping > 0 && queue.jobs.len() > queue.watching;
        drop(queue);
        if wake {
            self.shared.ready.notify_one();
        }
    }
}

/// One child of a batch: what it adds to the shared command.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Variant {
    args: Vec<OsString>,
    envs: Vec<(OsString, OsString)>,
}

impl Variant {
    /// No change: the command as it is.
    pub fn new() -> Variant {
        Variant::default()
    }

    /// Appends an argument for this child.
    pub fn arg<S: AsRef<OsStr>>(mut self, arg: S) -> Variant {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    /// Sets an environment variable for this child.
    pub fn env<K: AsRef<OsStr>, V: AsRef<OsStr>>(mut self, key: K, value: V) -> Variant {
        self.envs
            .push((key.as_ref().to_owned(), value.as_ref().to_owned()));
        self
    }
}

/// Splits `items` into at most `parts` runs of consecutive items.
pub(crate) fn chunks<T>(items: Vec<T>, parts: usize) -> Vec<Vec<T>> {
    let size = items.len().div_ceil(parts.max(1)).max(1);
    let mut out = Vec::new();
    let mut items = items.into_iter().peekable();
    while items.peek().is_some() {
        out.push(items.by_ref().take(size).collect());
    }
    out
}

/// Spawns `base` once per variant, on the calling (spawner) thread. A
/// variant without changes reuses one prepared copy of the command.
pub(crate) fn spawn_variants(base: &Command, variants: Vec<Variant>) -> Vec<Result<Child>> {
    let mut plain: Option<Command> = None;
    variants
        .into_iter()
        .map(|variant| {
            if variant == Variant::default() {
                if plain.is_none() {
                    plain = Some(base.try_clone_checked()?);
                }
                return plain.as_mut().expect("made above").spawn();
            }
            let mut cmd = base.try_clone_checked()?;
            cmd.args(&variant.args)
                .envs(variant.envs.iter().map(|(k, v)| (k, v)));
            cmd.spawn()
        })
        .collect()
}

impl Pool {
    /// Starts one child per variant of `base`, spread over the pool's
    /// threads, and returns their results in order. Blocks the caller
    /// until all have started (the async version is
    /// `fastspawn::tokio::Command::spawn_many`).
    pub fn spawn_many<I>(&self, base: &Command, variants: I) -> Vec<Result<Child>>
    where
        I: IntoIterator<Item = Variant>,
    {
        let variants: Vec<Variant> = variants.into_iter().collect();
        let count = variants.len();
        let base = match base.try_clone_checked() {
            Ok(base) => Arc::new(base),
            Err(e) => return (0..count).map(|_| Err(e.clone())).collect(),
        };
        let receivers: Vec<_> = chunks(variants, self.threads())
            .into_iter()
            .map(|chunk| {
                let (tx, rx) = std::sync::mpsc::channel();
                let base = Arc::clone(&base);
                self.run(move || {
                    let _ = tx.send(spawn_variants(&base, chunk));
                });
                rx
            })
            .collect();
        receivers
            .into_iter()
            .flat_map(|rx| rx.recv().unwrap_or_default())
            .collect()
    }
}

fn work(shared: &Shared) {
    let mut queue = shared.queue.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        if let Some(job) = queue.jobs.pop_front() {
            shared.queued.store(queue.jobs.len(), Ordering::Release);
            drop(queue);
            let _ = catch_unwind(AssertUnwindSafe(job));
            queue = shared.queue.lock().unwrap_or_else(|e| e.into_inner());
            queue.last_done = Some(Instant::now());
            // One thread at a time watches the queue for a while before
            // sleeping, when jobs have been coming soon after each other:
            // enough to take the next job at once, without burning more
            // than one core that the children need.
            if queue.watching == 0 && queue.jobs.is_empty() && queue.soon_after {
                queue.watching += 1;
                #[cfg(test)]
                {
                    queue.watches += 1;
                }
                drop(queue);
                watch(shared);
                queue = shared.queue.lock().unwrap_or_else(|e| e.into_inner());
                queue.watching -= 1;
            }
            continue;
        }
        if queue.closed {
            return;
        }
        queue.sleeping += 1;
        queue = shared.ready.wait(queue).unwrap_or_else(|e| e.into_inner());
        queue.sleeping -= 1;
    }
}

/// Returns when a job is queued or after the watch window, whichever
/// comes first.
fn watch(shared: &Shared) {
    let start = Instant::now();
    let window = shared.spin();
    loop {
        for _ in 0..64 {
            if shared.queued.load(Ordering::Acquire) > 0 {
                return;
            }
            std::hint::spin_loop();
        }
        if start.elapsed() >= window {
            return;
        }
    }
}

impl Drop for Pool {
    /// Finishes the queued jobs, then stops the threads (children started
    /// with `pdeathsig` get their signal now). Blocks until the threads are
    /// joined: drop a private pool off the async runtime's threads.
    fn drop(&mut self) {
        if self.generation != crate::per_process::generation() {
            // A forked child's copy: the threads (and maybe a lock holder)
            // are the parent's; there is nothing to stop or join here.
            std::mem::forget(std::mem::take(&mut self.threads));
            return;
        }
        self.shared
            .queue
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .closed = true;
        self.shared.ready.notify_all();
        for handle in self.threads.drain(..) {
            let _ = handle.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn spawn_hands_the_child_to_the_callback_on_a_pool_thread() {
        let pool = Pool::new(1).unwrap();
        let (tx, rx) = mpsc::channel();
        let mut command = Command::new("/bin/sh");
        command.args(["-c", "exit 7"]);
        pool.spawn(command, move |result| {
            let name = std::thread::current().name().map(str::to_owned);
            tx.send((result.and_then(|mut c| c.wait()), name)).unwrap();
        });
        let (status, name) = rx.recv().unwrap();
        assert_eq!(status.unwrap().code(), Some(7));
        assert_eq!(name.as_deref(), Some("fastspawn-0"));

        let (tx, rx) = mpsc::channel();
        pool.spawn(Command::new("/nonexistent/fastspawn"), move |result| {
            tx.send(result.err().map(|e| e.to_string())).unwrap();
        });
        let message = rx.recv().unwrap().expect("a missing program fails");
        assert!(message.contains("/nonexistent/fastspawn"), "{message}");
    }

    #[test]
    fn no_job_is_lost_between_watching_and_sleeping_threads() {
        // Submitters that pause for about the watch window hit every
        // transition: a thread watching, one going to sleep, all asleep.
        let pool = Arc::new(Pool::new(2).unwrap());
        let (tx, rx) = mpsc::channel();
        let submitters: Vec<_> = (0..4u64)
            .map(|s| {
                let pool = Arc::clone(&pool);
                let tx = tx.clone();
                std::thread::spawn(move || {
                    for i in 0..2_000u64 {
                        let tx = tx.clone();
                        pool.run(move || tx.send(()).unwrap());
                        if (i + s) % 97 == 0 {
                            std::thread::sleep(SPIN + Duration::from_micros(i % 40));
                        }
                    }
                })
            })
            .collect();
        drop(tx);
        for _ in 0..8_000 {
            rx.recv_timeout(Duration::from_secs(30))
                .expect("a queued job never ran: a wake-up was lost");
        }
        for s in submitters {
            s.join().unwrap();
        }
    }

    #[test]
    fn jobs_that_come_far_apart_are_not_watched_for() {
        let pool = Pool::new(2).unwrap();
        for _ in 0..20 {
            let (tx, rx) = mpsc::channel();
            pool.run(move || tx.send(()).unwrap());
            rx.recv().unwrap();
            std::thread::sleep(SPIN * 4);
        }
        let queue = pool.shared.queue.lock().unwrap();
        assert_eq!(queue.watches, 0, "a thread spun for jobs 200 µs apart");
    }

    #[test]
    fn the_watch_window_is_the_pools_to_set() {
        // Jobs 200 µs apart: watched for under a 20 ms window, never with
        // the window at zero, however close together.
        let pool = Pool::new(2).unwrap();
        assert_eq!(pool.spin(), SPIN);
        pool.set_spin(Duration::from_millis(20));
        for _ in 0..20 {
            let (tx, rx) = mpsc::channel();
            pool.run(move || tx.send(()).unwrap());
            rx.recv().unwrap();
            std::thread::sleep(SPIN * 4);
        }
        // Past the last job's own watch (counted when it starts).
        std::thread::sleep(Duration::from_millis(40));
        let watched = std::mem::take(&mut pool.shared.queue.lock().unwrap().watches);
        assert!(watched > 0, "no thread watched for jobs within the window");

        pool.set_spin(Duration::ZERO);
        for _ in 0..200 {
            let (tx, rx) = mpsc::channel();
            pool.run(move || tx.send(()).unwrap());
            rx.recv().unwrap();
        }
        let queue = pool.shared.queue.lock().unwrap();
        assert_eq!(queue.watches, 0, "a thread watched with the window off");
    }

    #[test]
    fn a_second_job_runs_while_the_first_one_blocks() {
        // The first job waits for the second: if handing over the second
        // (while the other thread watches or sleeps) did not get it a
        // thread, this would time out.
        let pool = Pool::new(2).unwrap();
        for round in 0..200 {
            let (tx, rx) = mpsc::channel::<()>();
            let (done_tx, done_rx) = mpsc::channel();
            pool.run(move || {
                let ok = rx.recv_timeout(Duration::from_secs(10)).is_ok();
                done_tx.send(ok).unwrap();
            });
            pool.run(move || tx.send(()).unwrap());
            assert!(
                done_rx.recv().unwrap(),
                "round {round}: the second job never started"
            );
            if round % 50 == 0 {
                std::thread::sleep(SPIN * 2);
            }
        }
    }

    #[test]
    fn chunks_keep_order_and_cover_everything() {
        assert_eq!(
            chunks((0..7).collect(), 3),
            vec![vec![0, 1, 2], vec![3, 4, 5], vec![6]]
        );
        assert_eq!(chunks((0..2).collect(), 4), vec![vec![0], vec![1]]);
        assert!(chunks(Vec::<i32>::new(), 2).is_empty());
    }

    #[test]
    fn jobs_run_on_pool_threads_and_drop_joins_them() {
        let pool = Pool::new(2).unwrap();
        assert_eq!(pool.threads(), 2);
        let (tx, rx) = mpsc::channel();
        for i in 0..10 {
            let tx = tx.clone();
            pool.run(move || {
                let name = std::thread::current().name().unwrap_or("").to_string();
                tx.send((i, name)).unwrap();
            });
        }
        pool.run(|| panic!("a panicking job takes only itself down"));
        let tx2 = tx.clone();
        pool.run(move || tx2.send((99, String::new())).unwrap());
        drop(tx);
        drop(pool);
        let got: Vec<(i32, String)> = rx.iter().collect();
        assert_eq!(got.len(), 11);
        assert!(
            got.iter()
                .filter(|(i, _)| *i < 10)
                .all(|(_, n)| n.starts_with("fastspawn-"))
        );
    }
}
