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

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::thread::JoinHandle;

use crate::child::Child;
use crate::command::Command;
use crate::error::Result;

type Job = Box<dyn FnOnce() + Send + 'static>;

#[derive(Default)]
struct Queue {
    jobs: VecDeque<Job>,
    closed: bool,
}

struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
}

/// A set of spawner threads.
pub struct Pool {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool")
            .field("threads", &self.threads.len())
            .finish()
    }
}

impl Pool {
    /// A pool of `threads` spawner threads (at least one).
    pub fn new(threads: usize) -> io::Result<Pool> {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            ready: Condvar::new(),
        });
        let mut handles = Vec::with_capacity(threads.max(1));
        for i in 0..threads.max(1) {
            let shared = Arc::clone(&shared);
            let handle = std::thread::Builder::new()
                .name(format!("fastspawn-{i}"))
                .stack_size(256 * 1024)
                .spawn(move || work(&shared))?;
            handles.push(handle);
        }
        Ok(Pool {
            shared,
            threads: handles,
        })
    }

    /// The process-wide pool: one thread per available core, started on
    /// first use, never stopped.
    pub fn global() -> &'static Pool {
        static GLOBAL: OnceLock<Pool> = OnceLock::new();
        GLOBAL.get_or_init(|| {
            let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
            Pool::new(threads).expect("fastspawn: cannot start the spawner threads")
        })
    }

    /// How many spawner threads the pool has.
    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// Starts `command` on one of the pool's threads and hands the result
    /// to `then`, on that thread. The caller does no spawning work and
    /// does not wait: this is the building block for event loops that are
    /// not tokio (the Node.js addon uses it). `then` must be quick (it
    /// holds up the pool's next spawn); if it drops the [`Child`], the
    /// child is not killed, as with `std`.
    pub fn spawn(&self, mut command: Command, then: impl FnOnce(Result<Child>) + Send + 'static) {
        self.execute(move || then(command.spawn()));
    }

    /// Runs `job` on one of the pool's threads.
    pub(crate) fn execute(&self, job: impl FnOnce() + Send + 'static) {
        let mut queue = self.shared.queue.lock().unwrap_or_else(|e| e.into_inner());
        queue.jobs.push_back(Box::new(job));
        drop(queue);
        self.shared.ready.notify_one();
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
                self.execute(move || {
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
    loop {
        let job = {
            let mut queue = shared.queue.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(job) = queue.jobs.pop_front() {
                    break job;
                }
                if queue.closed {
                    return;
                }
                queue = shared.ready.wait(queue).unwrap_or_else(|e| e.into_inner());
            }
        };
        let _ = catch_unwind(AssertUnwindSafe(job));
    }
}

impl Drop for Pool {
    /// Finishes the queued jobs, then stops the threads (children started
    /// with `pdeathsig` get their signal now). Blocks until the threads are
    /// joined: drop a private pool off the async runtime's threads.
    fn drop(&mut self) {
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
            pool.execute(move || {
                let name = std::thread::current().name().unwrap_or("").to_string();
                tx.send((i, name)).unwrap();
            });
        }
        pool.execute(|| panic!("a panicking job takes only itself down"));
        let tx2 = tx.clone();
        pool.execute(move || tx2.send((99, String::new())).unwrap());
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
