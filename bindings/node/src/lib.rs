//! The Node-API addon behind the `fastspawn` npm package.
//!
//! The JS thread only converts a request, creates the pipes (socketpairs)
//! and queues the spawn on fastspawn's global spawner pool; it never runs a
//! clone or an exec and never waits for the pool. A spawner thread settles
//! the request, a waiter thread reaps exited children through their
//! pidfds, and both report through one queue per JS thread that is handed
//! to JS in batches (`events.rs`).
//!
//! Exports (the JS side in `lib/native.js` is the only caller):
//!
//! - `init(onEvents)`: once per JS thread; `onEvents(count)` is called
//!   when records are queued, and takes them with `takeEvents(buffer, bytes)`.
//! - `takeEvents(buffer, bytes)`: moves the queued `[kind, id, a, b]` records
//!   into the `Int32Array` `buffer` and the bytes of their `Data` records
//!   into the `Buffer` `bytes`: their length, or minus the length `buffer`
//!   would need (nothing taken then; at most `buffer`'s length when only
//!   `bytes` is too short).
//! - `outputGrant(id, i)`, `outputClose(id, i)`: a `pipeAs: 'readable'`
//!   output may read its next budget (`outputHighWaterMark()` bytes) /
//!   is closed (`outputs.rs`); `openOutputs()`, `outputsDebug()` for the
//!   tests.
//! - `spawn(strings, io)`: see `request.rs`; returns the child's id, or
//!   `-errno` when the request could not even be queued (EMFILE, EBADF).
//! - `waitSpawn(id)`: blocks until the spawn of `id` is settled: the pid, or
//!   `-errno`; `trySpawn(id)` the same without waiting (0 while pending).
//! - `kill(id, signal)`: 0 or `-errno`.
//! - `killTree(id, signal)`: signals the tree of a child spawned with
//!   `contain` (`Child::kill_tree`), before or after the child's exit: 0 or
//!   `-errno` (`-ESRCH` once the tree is empty, `-EINVAL` if not contained).
//! - `closeFd(fd)`: gives up a pipe end JS never used (closed by the next
//!   spawn's spawner thread, or by `closeRetired()`).
//! - `drainFds(fd0, fd1, fd2)`: after an exit, gives up `fd0` and
//!   discards what waits on the ends `fd1`, `fd2`: bit i set when end i
//!   reached its end of stream (given up as by `closeFd`).
//! - `closeRetired()`: closes the ends given up and not yet closed.
//! - `hold(delta)`: adds to what keeps the event loop alive besides the
//!   children (each child does from `spawn` until its end is taken);
//!   `childRef(id, on)`: `child.ref()` / `unref()`.
//! - `debug(on)`, `debugInfo(id)`, `liveChildren()`: introspection for tests.
//! - `sendWithFd(socket, data, fd)`: writes `data` on the IPC channel's
//!   socket with `fd` attached (a handle sent to a child); bytes or `-errno`.
//! - `ping()`: a job on the spawner pool that only posts a `Pong` record
//!   back (the benchmarks time the JS -> pool thread -> JS round trip, the
//!   part of a spawn's latency that is thread hand-overs).
//! - `pingSpawn(path)`: a job that spawns `path` and waits for it on the
//!   pool thread, then posts a `Pong` (the benchmarks' floor of a Node
//!   design: one call in, one threadsafe-function call back per spawn).
//!   `setPingDelivery(within, count)`: its answers coalesced (the JS thread
//!   woken once `count` wait, 0: once no other ping runs, or `within` µs
//!   after the first), for the floor of a design that answers many exits
//!   per wake-up (README session 12).
//! - `setEventDelivery(within, count)`: every record of every child
//!   coalesced the same way (for the benchmarks only: it delays each event
//!   by up to `within`; 0 µs, the default, wakes at the first record).
//! - `traceOn(bool)`, `traceTake()`: time stamps of each spawn's native
//!   steps (`trace.rs`), for the benchmarks' breakdown.
//! - `benchSpawnWait(path, n, onPool, env)`: the core's spawn +
//!   wait inside this process, without the JS side (for the benchmarks).
//! - `setSpawnLinger(us)`: how long a spawner thread gives a child it just
//!   started to exit before posting its spawn (for the benchmarks);
//!   `setSpawnLingerPoll(on)`: whether it waits for that exit by polling
//!   the pidfd without sleeping, instead of sleeping in `ppoll`.
//! - `setPoolSpin(us)`: the global spawner pool's watch window
//!   (`Pool::set_spin`): how long a spawner thread that finished a job
//!   watches for the next before it sleeps (for the benchmarks).
//! - `threadSwitches()`: the calling thread's involuntary context switches
//!   (for the benchmarks, to set preempted measurements apart).

#![deny(unsafe_code)]

mod events;
mod lone;
mod outputs;
mod registry;
mod request;
mod sync;
#[allow(unsafe_code)]
mod sys;
mod trace;
mod waiter;

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};

use napi::bindgen_prelude::Function;
use napi::{Env, Error, Result};
use napi_derive::napi;

use events::Events;
pub use sync::{SyncRun, spawn_sync};

/// The request's numbers: a JS `Int32Array` read and written in place
/// (an alias, so that the macro converts it with `FromNapiValue`, which
/// borrows the array's memory, and not as a reference to a wrapped object).
pub(crate) type IoArray<'a> = &'a mut [i32];
/// The bytes of a batch's `Data` records: a JS `Uint8Array` (a `Buffer`)
/// written in place.
type ByteArray<'a> = &'a mut [u8];

thread_local! {
    /// The event channel of the JS thread this is (one per Node-API
    /// environment: the main thread and each worker).
    static EVENTS: RefCell<Option<Arc<Events>>> = const { RefCell::new(None) };
    /// Pipe ends this JS thread gave up, to close off its path
    /// ([`close_fd`]).
    static RETIRED: RefCell<Vec<std::os::fd::OwnedFd>> = const { RefCell::new(Vec::new()) };
    /// This JS thread's children whose end (`Exited` or `Failed`) JS has
    /// not taken yet, and whether each keeps the event loop alive
    /// (`child.ref()` / `unref()`): counted here, in the calls that start
    /// and end a child anyway, so that a spawn costs no `setRef` call.
    static LIVE: RefCell<std::collections::HashMap<u32, bool>> = RefCell::new(std::collections::HashMap::new());
    /// What keeps this thread's event loop alive: its ref'd live children
    /// and the JS side's holds (`hold`).
    static REFS: std::cell::Cell<i64> = const { std::cell::Cell::new(0) };
    /// The environment of [`ping_spawn`]'s children.
    static BENCH_ENV: std::cell::OnceCell<fastspawn::Environment> = const { std::cell::OnceCell::new() };
}

fn events() -> Result<Arc<Events>> {
    EVENTS
        .with(|e| e.borrow().clone())
        .ok_or_else(|| Error::from_reason("fastspawn: init() was not called on this thread"))
}

/// Sets the function that receives the event batches of this JS thread.
#[napi]
pub fn init(on_events: Function<'_, u32, ()>) -> Result<()> {
    waiter::start().map_err(|err| {
        Error::from_reason(format!(
            "fastspawn: init: cannot start the waiter thread: {err}"
        ))
    })?;
    lone::init().map_err(|err| {
        Error::from_reason(format!(
            "fastspawn: init: cannot start the lone path's threads: {err}"
        ))
    })?;
    let events = Events::new(on_events, registry::forget_finished)?;
    EVENTS.with(|e| *e.borrow_mut() = Some(events));
    Ok(())
}

/// Moves this JS thread's queued records into `buffer` and the bytes of
/// its `Data` records into `bytes` (none without it): see `Events::take`.
/// A child whose end is among them no longer keeps the event loop alive.
#[napi]
pub fn take_events(env: Env, buffer: IoArray<'_>, bytes: Option<ByteArray<'_>>) -> Result<i64> {
    let events = events()?;
    let n = events.take(buffer, bytes.unwrap_or_default());
    if n > 0 {
        let mut released = 0;
        LIVE.with(|live| {
            let mut live = live.borrow_mut();
            for record in buffer[..n as usize].chunks_exact(4) {
                if (record[0] == events::Kind::Exited as i32
                    || record[0] == events::Kind::Failed as i32)
                    && live.remove(&(record[1] as u32)) == Some(true)
                {
                    released += 1;
                }
            }
        });
        if released > 0 {
            adjust_refs(&env, &events, -released)?;
        }
    }
    Ok(n)
}

/// `child.ref()` (`on`) or `child.unref()` of a live child: whether it
/// keeps the event loop alive. Nothing once its end was taken.
#[napi]
pub fn child_ref(env: Env, id: u32, on: bool) -> Result<()> {
    let changed = LIVE.with(|live| match live.borrow_mut().get_mut(&id) {
        Some(refed) if *refed != on => {
            *refed = on;
            true
        }
        _ => false,
    });
    if changed {
        let events = events()?;
        adjust_refs(&env, &events, if on { 1 } else { -1 })?;
    }
    Ok(())
}

/// Adds `delta` to what keeps this JS thread's event loop alive, and refs
/// or unrefs its event channel when that crosses zero.
fn adjust_refs(env: &Env, events: &Events, delta: i64) -> Result<()> {
    let before = REFS.get();
    let after = before + delta;
    REFS.set(after);
    if before <= 0 && after > 0 {
        events.set_ref(env, true)
    } else if before > 0 && after <= 0 {
        events.set_ref(env, false)
    } else {
        Ok(())
    }
}

/// The global spawner pool, or an error naming the call whose threads
/// could not start.
fn global_pool(call: &str) -> Result<&'static fastspawn::Pool> {
    fastspawn::Pool::try_global().map_err(|err| global_pool_error(call, &err))
}

fn global_pool_error(call: &str, err: &std::io::Error) -> Error {
    Error::from_reason(format!(
        "fastspawn: {call}: cannot start the spawner threads: {err}"
    ))
}

/// Queues a spawn; returns the child's id, or `-errno`. The child keeps
/// the event loop alive until JS takes its end (see `child_ref`).
#[napi]
pub fn spawn(env: Env, strings: String, io: IoArray<'_>) -> Result<i64> {
    let events = events()?;
    // The pool's threads start at the first spawn. If they cannot (a
    // thread limit: EAGAIN), this spawn fails as Node's own does when the
    // system is out of processes: an 'error' event, nothing taken yet.
    let pool = match fastspawn::Pool::try_global() {
        Ok(pool) => pool,
        Err(err) => match err.raw_os_error() {
            Some(errno) => return Ok(-i64::from(errno)),
            None => return Err(global_pool_error("spawn", &err)),
        },
    };
    let mut request = match request::build(strings, io) {
        Ok(request) => request,
        Err(err) => match err.raw_os_error() {
            Some(errno) => return Ok(-i64::from(errno)),
            None => return Err(Error::from_reason(err.to_string())),
        },
    };
    let id = registry::next_id();
    let running = events::RUNNING.fetch_add(1, Ordering::Relaxed) + 1;
    LIVE.with(|live| live.borrow_mut().insert(id, true));
    adjust_refs(&env, &events, 1)?;
    let pending = registry::Pending::new(id, Arc::clone(&events));
    let retired = RETIRED.with(|r| std::mem::take(&mut *r.borrow_mut()));
    // The only child of the addon, not contained (its tree needs the
    // pidfd) and without readable outputs (the waiter's): spawned by the
    // lone thread, cloned without a pidfd, its exit waited for there
    // (`lone.rs`). Else a spawner thread of the pool.
    let lone = !request.contained() && !request.readable() && lone::try_take(running);
    if !lone {
        QUEUED.fetch_add(1, Ordering::Relaxed);
    }
    let events_of_job = Arc::clone(&events);
    let job = move || {
        // Until the end of the job: its closes and the reserve's top-up run
        // after JS may have seen the child's 'close'.
        let _after = AfterWork::begin();
        // Gives the lone slot back unless the child is handed on as lone
        // (a failure, or a panic, gives it back).
        let mut slot = lone.then(lone::Slot::held);
        if !lone {
            QUEUED.fetch_sub(1, Ordering::Relaxed);
        }
        trace::stamp(id, trace::Step::PoolStart);
        // `pipeAs: 'readable'`: the outputs' pipes, recorded before the
        // spawn is posted (so that JS can close them), closed if it failed.
        let built = request
            .make_outputs()
            .and_then(|ends| Ok((ends, request.into_command()?)));
        let outcome = match built {
            Ok((ends, mut command)) => {
                trace::stamp(id, trace::Step::Built);
                if lone {
                    // No pidfd from the clone; `kill()` makes one if it
                    // needs it (`Child::send_signal`: `pidfd_open`, then a
                    // check that the pid is still our unreaped child).
                    command.pidfd_at_spawn(false);
                }
                let spawned = command.spawn();
                match spawned {
                    Ok(child) => {
                        trace::stamp(id, trace::Step::Spawned);
                        outputs::register(id, &events_of_job, ends);
                        match slot.take() {
                            Some(held) => {
                                held.keep();
                                registry::Outcome::Lone(child)
                            }
                            None => registry::Outcome::Spawned(child),
                        }
                    }
                    Err(err) => {
                        registry::Outcome::Failed(err.raw_os_error().unwrap_or(libc::EINVAL))
                    }
                }
            }
            Err(err) => registry::Outcome::Failed(err.raw_os_error().unwrap_or(libc::EINVAL)),
        };
        // A failed lone spawn gives the slot back before JS hears of it.
        drop(slot);
        // Lingering only while no other spawn of ours waits for a pool
        // thread: a burst is not slowed down by it.
        let linger = LINGER_US.load(Ordering::Relaxed);
        let linger =
            (linger > 0 && QUEUED.load(Ordering::Relaxed) == 0).then(|| registry::Linger {
                within: std::time::Duration::from_micros(u64::from(linger)),
                busy: LINGER_POLL.load(Ordering::Relaxed),
            });
        pending.settle(outcome, linger);
        // After the spawn (and a quick child's exit) is posted, off the
        // path to JS: the socketpairs of the next spawns, and the pipe ends
        // of earlier children closed (~20 us for a 'pipe' child, which
        // delayed the exit's report as much when done before the linger).
        // A lone child still running is waited for after this (`lone.rs`).
        request::refill();
        drop(retired);
    };
    if lone {
        lone::submit(Box::new(job));
    } else {
        pool.run(job);
    }
    // Coalesced delivery: tell JS whether records of other children wait
    // with no wake-up on its way (io[0], read by JS after the call: 1 or
    // 0, whatever thread set the delivery), so that it takes them now
    // rather than at the coalesced wake-up.
    io[0] = i32::from(events::coalescing() && events.waiting());
    Ok(i64::from(id))
}

/// `pipeAs: 'readable'`: output `index` (1, 2) of child `id` may read the
/// next `outputHighWaterMark()` bytes (its stream's `_read()` after it
/// received the last budget whole). Nothing once it ended or was closed.
#[napi]
pub fn output_grant(id: u32, index: u32) {
    outputs::grant(id, index);
}

/// `pipeAs: 'readable'`: stops reading output `index` of child `id` and
/// closes it (the stream's `destroy()`). Nothing once it ended or was
/// closed; JS waits for the spawn's report before it calls this.
#[napi]
pub fn output_close(id: u32, index: u32) {
    outputs::close(id, index);
}

/// The budget of a readable output: the bytes it reads before JS grants
/// more (the JS stream's highWaterMark).
#[napi]
pub fn output_high_water_mark() -> u32 {
    outputs::HIGH_WATER_MARK as u32
}

/// For the tests: how many readable outputs are open on the native side,
/// and `[id, index, budget, watching]` of each (`outputsDebug`).
#[napi]
pub fn open_outputs() -> u32 {
    outputs::open_count() as u32
}

#[napi]
pub fn outputs_debug() -> Vec<i64> {
    outputs::debug()
}

/// Sets how many socketpairs the spawner threads keep made ahead of time
/// (0: none); returns the previous count. For the benchmarks.
#[napi]
pub fn set_socketpair_reserve(pairs: u32) -> u32 {
    request::set_reserve_size(pairs as usize) as u32
}

/// The fds of that reserve, for the tests' leak checks.
#[napi]
pub fn reserved_fds() -> Vec<i32> {
    request::reserved_fds()
}

/// An fd like a child's stdout whose child wrote `data` and exited, without
/// a process (a socketpair of the reserve): for `bench/http/node/no-spawn-stream.mjs`,
/// and for `lib/child_process.js` to learn Node's Pipe class before any
/// child's stream was made.
#[napi]
pub fn finished_output_fd(data: napi::bindgen_prelude::Buffer) -> i64 {
    match request::output_fd(&data) {
        Ok(fd) => i64::from(fd),
        Err(err) => -i64::from(err.raw_os_error().unwrap_or(libc::EIO)),
    }
}

/// Spawn requests queued on the pool whose job has not started yet.
static QUEUED: AtomicUsize = AtomicUsize::new(0);

/// How long a spawner thread waits for a child it just started to exit
/// before it posts the spawn (see `registry::Pending::settle`), in µs: a
/// child that is that quick reaches JS in one batch with its exit. The
/// no-op child of the benchmarks exits 60-100 µs after its `execve`.
static LINGER_US: AtomicU32 = AtomicU32::new(DEFAULT_LINGER_US);
const DEFAULT_LINGER_US: u32 = 200;

/// Sets that wait (µs, 0: none, at most 100,000); returns the previous
/// one. For the benchmarks, which compare both.
#[napi]
pub fn set_spawn_linger(us: u32) -> u32 {
    LINGER_US.swap(us.min(100_000), Ordering::Relaxed)
}

/// Whether the linger polls the child's pidfd without sleeping (the
/// spawner thread stays on its CPU, so the exit wakes no thread) instead of
/// sleeping in `ppoll`. Off by default.
static LINGER_POLL: AtomicBool = AtomicBool::new(false);

/// Sets whether the linger polls without sleeping; returns the previous
/// setting. For the benchmarks, which compare both.
#[napi]
pub fn set_spawn_linger_poll(on: bool) -> bool {
    LINGER_POLL.swap(on, Ordering::Relaxed)
}

/// Sets the global spawner pool's watch window (`Pool::set_spin`), in µs
/// (0: no watching, at most 100,000); returns the previous one. For the
/// benchmarks, which compare windows.
#[napi]
pub fn set_pool_spin(us: u32) -> Result<u32> {
    let pool = global_pool("setPoolSpin")?;
    let previous = u32::try_from(pool.spin().as_micros()).unwrap_or(u32::MAX);
    pool.set_spin(std::time::Duration::from_micros(u64::from(us.min(100_000))));
    Ok(previous)
}

/// Blocks until the spawn of `id` is settled: its pid, or `-errno`.
#[napi]
pub fn wait_spawn(id: u32) -> i32 {
    registry::wait_settled(id)
}

/// The spawn's outcome if it is settled (pid or `-errno`), else 0.
#[napi]
pub fn try_spawn(id: u32) -> i32 {
    registry::try_settled(id)
}

/// Sends `signal` to child `id`: 0 or `-errno`.
#[napi]
pub fn kill(id: u32, signal: i32) -> i32 {
    registry::kill(id, signal)
}

/// Signals every process of the tree of contained child `id`: 0 or `-errno`.
#[napi]
pub fn kill_tree(id: u32, signal: i32) -> i32 {
    registry::kill_tree(id, signal)
}

/// Gives up the parent's end of a pipe that JS never wrapped in a stream
/// (fs.closeSync cannot: Deno's takes only its own resource ids). It is
/// closed later, off the JS thread's path from a child's exit to its
/// `'close'` and the next spawn: by the spawner thread of this thread's
/// next spawn (after its clone, while the child runs), or by
/// `closeRetired()`, which JS calls on the loop's next check phase (a
/// socket's close costs the JS thread ~3-4 µs).
#[napi]
pub fn close_fd(fd: i32) {
    retire(fd);
}

fn retire(fd: i32) {
    if let Some(fd) = sys::own_parent_end(fd) {
        RETIRED.with(|r| r.borrow_mut().push(fd));
    }
}

/// Closes what [`close_fd`] and [`drain_fds`] gave up and no spawn took.
#[napi]
pub fn close_retired() {
    drop(RETIRED.with(|r| std::mem::take(&mut *r.borrow_mut())));
}

/// The pipe ends JS never wrapped, after a child's exit (-1 for none):
/// gives up `fd0` (as [`close_fd`]), and discards what is buffered on
/// `fd1` and `fd2`. Bit `i` of the result (1, 2) is set when end `i`
/// reached its end of stream or failed, and was given up; clear while
/// someone may still write to it.
#[napi]
pub fn drain_fds(fd0: i32, fd1: i32, fd2: i32) -> i32 {
    retire(fd0);
    let mut ended = 0;
    for (i, fd) in [(1, fd1), (2, fd2)] {
        if fd >= 0 && sys::drain_parent_end(fd) != 0 {
            retire(fd);
            ended |= 1 << i;
        }
    }
    ended
}

/// Adds `delta` to what keeps this JS thread's event loop alive besides
/// its children (a `ping()` waiting, a `waitTree()`).
#[napi]
pub fn hold(env: Env, delta: i32) -> Result<()> {
    let events = events()?;
    adjust_refs(&env, &events, i64::from(delta))
}

/// Records, from now on, which thread and engine start each child.
#[napi]
pub fn debug(on: bool) {
    registry::DEBUG.store(on, Ordering::Relaxed);
}

/// `[thread name, engine]` of child `id`, when recorded by `debug(true)`.
#[napi]
pub fn debug_info(id: u32) -> Option<Vec<String>> {
    registry::debug_info(id).map(|(thread, engine)| vec![thread, engine])
}

/// How many children the native side still tracks.
#[napi]
pub fn live_children() -> u32 {
    registry::len() as u32
}

/// Work that spawner and waiter threads do after JS may already have seen
/// its outcome (closing a reaped child's pidfd, given-up pipe ends and
/// inherited stdio duplicates, topping up the socketpair reserve), counted
/// while it runs: the tests' fd counts wait for it to be 0.
static AFTER_WORK: AtomicUsize = AtomicUsize::new(0);

/// Counts one such piece of work from its creation to its drop.
pub(crate) struct AfterWork(());

impl AfterWork {
    pub(crate) fn begin() -> AfterWork {
        AFTER_WORK.fetch_add(1, Ordering::SeqCst);
        AfterWork(())
    }
}

impl Drop for AfterWork {
    fn drop(&mut self) {
        AFTER_WORK.fetch_sub(1, Ordering::SeqCst);
    }
}

/// How many pieces of that work are running (for the tests).
#[napi]
pub fn after_work_pending() -> u32 {
    AFTER_WORK.load(Ordering::SeqCst) as u32
}

/// The calling thread's involuntary context switches so far (-1 if unknown).
#[napi]
pub fn thread_switches() -> i64 {
    sys::thread_involuntary_switches()
}

/// Writes `data` on socket `socket` with `fd` attached (`SCM_RIGHTS`): the
/// bytes written, or `-errno`.
#[napi]
pub fn send_with_fd(socket: i32, data: napi::bindgen_prelude::Buffer, fd: i32) -> i64 {
    sys::send_with_fd(socket, &data, fd)
}

/// Starts (or stops) recording the native steps of each spawn, and
/// forgets what was recorded (see `trace.rs`; for the benchmarks).
#[napi]
pub fn trace_on(on: bool) {
    trace::set(on);
}

/// The recorded steps since the last call: `[id, step, ns]` triples.
#[napi]
pub fn trace_take() -> Vec<f64> {
    trace::take()
}

/// Queues a job that only answers with a `Pong` record (for the benchmarks).
#[napi]
pub fn ping() -> Result<()> {
    let events = events()?;
    global_pool("ping")?.run(move || events.post(events::Kind::Pong, 0, 0, 0));
    Ok(())
}

/// Queues a job that spawns `path` (no arguments, stdio null, this
/// thread's environment as captured on its first call), waits for it on
/// the pool thread and answers with a `Pong` record: the least a Node
/// design whose loop never runs the clone does per spawn (one call into
/// the addon, one threadsafe-function call back), for the benchmarks'
/// floor of the package.
///
/// `mode` (for the benchmarks' split of that floor): 0 (the default) no
/// pidfd and a blocking wait; 1 the pidfd made by the clone
/// (`CLONE_PIDFD`, as `spawn()`'s command asks), a blocking wait; 2 that
/// pidfd and `spawn()`'s linger before the wait (`ppoll` on the pidfd for
/// at most the linger), the least the package's spawner thread does per
/// quick child. With the trace on (`traceOn`), the job stamps its `Built`
/// and `Spawned` steps under ids counted down from `u32::MAX`, so that
/// `Command::spawn` here, with the JS thread idle, compares with
/// `spawn()`'s.
#[napi]
pub fn ping_spawn(path: String, mode: Option<u32>) -> Result<()> {
    static PING_ID: AtomicU32 = AtomicU32::new(u32::MAX);
    let mode = mode.unwrap_or(0);
    if mode > 2 {
        return Err(Error::from_reason(format!(
            "fastspawn: pingSpawn: mode must be 0, 1 or 2, not {mode}"
        )));
    }
    let events = events()?;
    let pool = global_pool("pingSpawn")?;
    let env = BENCH_ENV.with(|e| e.get_or_init(fastspawn::Environment::capture).clone());
    let id = PING_ID.fetch_sub(1, Ordering::Relaxed);
    PING_RUNNING.fetch_add(1, Ordering::SeqCst);
    pool.run(move || {
        let mut command = fastspawn::Command::new(&path);
        command
            .environment(&env)
            .pidfd_at_spawn(mode >= 1)
            .stdin(fastspawn::Stdio::null())
            .stdout(fastspawn::Stdio::null())
            .stderr(fastspawn::Stdio::null());
        trace::stamp(id, trace::Step::Built);
        let spawned = command.spawn();
        trace::stamp(id, trace::Step::Spawned);
        // The child (its pidfd) is dropped after the answer is posted, as
        // the registry drops a reaped child's.
        let mut kept = None;
        let code = match spawned.and_then(|mut child| {
            let linger = LINGER_US.load(Ordering::Relaxed);
            if mode == 2
                && linger > 0
                && let Some(fd) = child.pidfd()
            {
                crate::sys::pidfd_exited_within(
                    std::os::fd::AsRawFd::as_raw_fd(&fd),
                    std::time::Duration::from_micros(u64::from(linger)),
                    LINGER_POLL.load(Ordering::Relaxed),
                );
            }
            let status = child.wait();
            kept = Some(child);
            status
        }) {
            Ok(status) => status.code().unwrap_or(-1),
            Err(err) => -err.raw_os_error().unwrap_or(libc::EINVAL),
        };
        let within = PING_WITHIN_US.load(Ordering::Relaxed);
        let running = PING_RUNNING.fetch_sub(1, Ordering::SeqCst) - 1;
        // Count 0: wake at once when this was the last ping running.
        let count = match PING_COUNT.load(Ordering::Relaxed) {
            0 if running == 0 => 1,
            0 => usize::MAX,
            n => n as usize,
        };
        if within == 0 {
            events.post(events::Kind::Pong, 0, code, 0);
        } else {
            events.post_within(
                events::Kind::Pong,
                0,
                code,
                0,
                std::time::Duration::from_micros(u64::from(within)),
                count,
            );
        }
        drop(kept);
    });
    Ok(())
}

/// How `pingSpawn` answers (for the benchmarks' floor of a design that
/// answers many exits per wake-up): 0 µs (the default) wakes the JS
/// thread for the first answer after it took the last, as every record of
/// the package does; otherwise an answer waits until `count` answers wait
/// (`count` 0: until no other ping is queued or running) or `within` µs
/// passed since the first of them, or JS takes them first.
static PING_WITHIN_US: AtomicU32 = AtomicU32::new(0);
static PING_COUNT: AtomicU32 = AtomicU32::new(1);
/// `pingSpawn` jobs queued or running.
static PING_RUNNING: AtomicUsize = AtomicUsize::new(0);

/// Sets that delivery: `within` µs (0: wake at once, at most 100,000) and
/// `count` answers (0: when no other ping is queued or running).
#[napi]
pub fn set_ping_delivery(within: u32, count: u32) -> Result<()> {
    if within > 0 {
        start_coalescer("setPingDelivery")?;
    }
    PING_WITHIN_US.store(within.min(100_000), Ordering::Relaxed);
    PING_COUNT.store(count, Ordering::Relaxed);
    Ok(())
}

/// Starts the thread that wakes JS threads at the coalesced deliveries'
/// deadlines (and the lone linger's), on the thread of the call that
/// turns such a delivery on: a thread that cannot start is its error.
fn start_coalescer(call: &str) -> Result<()> {
    events::start_coalescer().map_err(|err| {
        Error::from_reason(format!(
            "fastspawn: {call}: cannot start the coalescer thread: {err}"
        ))
    })
}

/// Coalesced delivery of the children's records (`events::set_delivery`;
/// `setDelivery()` in JS): while other children of the process run, a
/// record waits until `count` records wait or `within` µs passed since
/// the first (0 µs, the default: every record wakes JS at once).
#[napi]
pub fn set_event_delivery(within: u32, count: u32) -> Result<()> {
    if within > 0 {
        start_coalescer("setDelivery")?;
    }
    events::set_delivery(within, count);
    Ok(())
}

/// `[within µs, count]` of the coalesced delivery.
#[napi]
pub fn event_delivery() -> Vec<u32> {
    events::delivery().to_vec()
}

/// `[children spawned on the lone path (no pidfd, waited for by the lone
/// child's thread), 1 while its slot is taken]`: for the tests.
#[napi]
pub fn lone_stats() -> Vec<f64> {
    vec![lone::spawned() as f64, f64::from(u8::from(lone::taken()))]
}

/// Sets whether a child spawned while no other runs takes the lone path
/// (off by default; turning it on starts its thread, or fails); returns
/// the previous setting. For the benchmarks' A/Bs.
#[napi]
pub fn set_lone(on: bool) -> Result<bool> {
    lone::set_on(on).map_err(|err| {
        Error::from_reason(format!(
            "fastspawn: setLone: cannot start the lone path's threads: {err}"
        ))
    })
}

/// Sets whether a lone child's linger polls `waitid(WNOHANG)` on the
/// spawner thread instead of sleeping until the lone thread saw the exit;
/// returns the previous setting. For the benchmarks' A/Bs.
#[napi]
pub fn set_lone_poll(on: bool) -> bool {
    lone::set_poll(on)
}

/// For the tests: `[records that woke JS at once (no other child ran),
/// records held, wake-ups at a deadline]` under coalesced delivery.
#[napi]
pub fn delivery_stats() -> Vec<f64> {
    events::delivery_stats().iter().map(|&n| n as f64).collect()
}

/// `[µs per spawn + wait, µs per spawn alone]` of `path` (no arguments,
/// stdio null), `n` times in a row through `fastspawn::Command`, on the
/// calling thread or (`on_pool`) on a pool thread while the calling thread
/// waits. `env`: `"inherit"` (the core reads `environ`), `"vars"` (the
/// process's environment given variable by variable, `env_clear` +
/// `envs`, as `spawn()` did with its snapshot before it used a shared
/// one) or `"shared"` (one `fastspawn::Environment` captured before the
/// loop, as `spawn()` does now). For the benchmarks' breakdown: the core's
/// own cost inside this process, without the JS side.
#[napi]
pub fn bench_spawn_wait(path: String, n: u32, on_pool: bool, env: String) -> Result<Vec<f64>> {
    let vars: Vec<_> = std::env::vars_os().collect();
    let shared = fastspawn::Environment::capture();
    if !matches!(env.as_str(), "inherit" | "vars" | "shared") {
        return Err(Error::from_reason(format!(
            "fastspawn: benchSpawnWait: env must be 'inherit', 'vars' or 'shared', not {env:?}"
        )));
    }
    let run = move || -> std::result::Result<Vec<f64>, String> {
        let n = n.max(1);
        let t0 = std::time::Instant::now();
        let mut spawning = std::time::Duration::ZERO;
        for _ in 0..n {
            let mut command = fastspawn::Command::new(&path);
            match env.as_str() {
                "vars" => {
                    command.env_clear();
                    command.envs(vars.iter().map(|(k, v)| (k, v)));
                }
                "shared" => {
                    command.environment(&shared);
                }
                _ => {}
            }
            command
                .stdin(fastspawn::Stdio::null())
                .stdout(fastspawn::Stdio::null())
                .stderr(fastspawn::Stdio::null());
            let t = std::time::Instant::now();
            let mut child = command.spawn().map_err(|e| e.to_string())?;
            spawning += t.elapsed();
            child.wait().map_err(|e| format!("{}: wait: {e}", path))?;
        }
        let per = |d: std::time::Duration| d.as_secs_f64() * 1e6 / f64::from(n);
        Ok(vec![per(t0.elapsed()), per(spawning)])
    };
    let result = if on_pool {
        let (tx, rx) = std::sync::mpsc::channel();
        global_pool("benchSpawnWait")?.run(move || {
            let _ = tx.send(run());
        });
        rx.recv()
            .map_err(|_| Error::from_reason("fastspawn: the pool dropped the job"))?
    } else {
        run()
    };
    result.map_err(Error::from_reason)
}
