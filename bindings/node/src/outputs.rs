//! The outputs of children spawned with `pipeAs: 'readable'`: the parent's
//! end of each piped stdout/stderr stays on the native side, in the waiter
//! thread's epoll set, and what the child writes reaches JS as `Data`
//! records (with their bytes) in the batches the JS thread takes anyway,
//! then one `OutputEnd` record. JS never holds the fd.
//!
//! - Flow control: each output may read `budget` bytes (the JS stream's
//!   highWaterMark, [`HIGH_WATER_MARK`]) and then leaves the epoll set
//!   until JS grants the next budget ([`grant`], from the stream's
//!   `_read()` once it received the whole budget). The output leaves the
//!   set (`EPOLL_CTL_DEL`) rather than waiting with no events, because a
//!   pipe whose writers are gone reports `EPOLLHUP` whatever it asks for.
//! - The output is a pipe made on the spawner thread (`request.rs`,
//!   `Request::make_outputs`), its read end non-blocking.
//! - At the child's exit (`registry::reap`, before the exit is posted)
//!   each output is read without blocking, up to its budget: a short
//!   child's output, its end and its exit reach JS in one batch.
//! - An end that outlives the child (a grandchild holds it) stays watched
//!   until its end of stream; [`close`] (the stream's `destroy()`) drops
//!   it and closes the fd at any time.
//!
//! The fd is closed before the `OutputEnd` record is posted, so a JS
//! thread that saw the end finds no fd left.

use std::collections::HashMap;
use std::os::fd::{AsFd, OwnedFd};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard};

use crate::events::{Events, Kind};

/// The bytes an output reads before JS asks for more (the JS stream's
/// highWaterMark, `lib/child_process.js`): the pipe's capacity
/// (`request.rs`), so that a child that wrote up to that much and exited
/// is read at its exit in one go (its reads merged into one `Data` record
/// while JS has not taken them: `events.rs`).
pub const HIGH_WATER_MARK: usize = 256 * 1024;

/// The most one read call asks for (the reads' buffer's size).
const READ_CHUNK: usize = 64 * 1024;

struct State {
    /// `None` once closed (end of stream, error, or `close`).
    fd: Option<OwnedFd>,
    /// Bytes it may still read before JS grants more.
    budget: usize,
    /// In the waiter's epoll set.
    watching: bool,
}

struct Output {
    id: u32,
    index: u32,
    events: Arc<Events>,
    state: Mutex<State>,
}

/// Open outputs by key ([`key`]).
static OUTPUTS: LazyLock<Mutex<HashMap<u64, Arc<Output>>>> = LazyLock::new(Default::default);

/// How many outputs [`register`] recorded and [`read_ready`] / [`close`]
/// have not removed: while 0 (no `pipeAs: 'readable'` child, the default)
/// [`watch`] and [`at_exit`] return without taking the map's lock.
static REGISTERED: AtomicUsize = AtomicUsize::new(0);

fn outputs() -> MutexGuard<'static, HashMap<u64, Arc<Output>>> {
    OUTPUTS.lock().unwrap_or_else(|e| e.into_inner())
}

/// The key of child `id`'s fd `index` (1, 2), also its token in the
/// waiter's epoll set (a pidfd's token is the id alone: index 0).
pub fn key(id: u32, index: u32) -> u64 {
    u64::from(id) | (u64::from(index) << 32)
}

fn get(id: u32, index: u32) -> Option<Arc<Output>> {
    outputs().get(&key(id, index)).cloned()
}

impl Output {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// On the spawner thread, once child `id` is started: records its
/// outputs (not watched yet: see [`watch`]).
pub fn register(id: u32, events: &Arc<Events>, ends: Vec<(usize, OwnedFd)>) {
    if ends.is_empty() {
        return;
    }
    let mut map = outputs();
    REGISTERED.fetch_add(ends.len(), Ordering::Release);
    for (index, fd) in ends {
        let index = index as u32;
        map.insert(
            key(id, index),
            Arc::new(Output {
                id,
                index,
                events: Arc::clone(events),
                state: Mutex::new(State {
                    fd: Some(fd),
                    budget: HIGH_WATER_MARK,
                    watching: false,
                }),
            }),
        );
    }
}

/// After the spawn was posted: child `id`'s outputs join the waiter's
/// epoll set (those not closed or already watched).
pub fn watch(id: u32) {
    for_each_output(id, arm);
}

/// Runs `f` on each of child `id`'s open outputs, with its state locked;
/// returns at once while no output is registered (the default path). Both
/// outputs are looked up under one lock of the map; one closed meanwhile
/// has no fd, which `f` sees.
fn for_each_output(id: u32, mut f: impl FnMut(&Output, &mut State)) {
    if REGISTERED.load(Ordering::Acquire) == 0 {
        return;
    }
    let found = {
        let map = outputs();
        [map.get(&key(id, 1)).cloned(), map.get(&key(id, 2)).cloned()]
    };
    for output in found.into_iter().flatten() {
        let mut state = output.lock();
        f(&output, &mut state);
    }
}

/// Adds the output to the epoll set if it is open, has budget and is not
/// in it yet.
fn arm(output: &Output, state: &mut State) {
    if state.watching || state.budget == 0 {
        return;
    }
    if let Some(fd) = &state.fd {
        state.watching = crate::waiter::add(fd.as_fd(), key(output.id, output.index));
    }
}

thread_local! {
    /// The reads' buffer of a thread that reads outputs (the waiter, a
    /// spawner thread at a lingered child's exit), made on its first read.
    static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Reads what waits, up to the budget, without blocking; posts it, and the
/// end of stream if it came (the fd closed first). With the state locked,
/// so that the records of one output keep their order whichever thread
/// reads.
fn read_ready(output: &Output, state: &mut State) {
    let Some(fd) = &state.fd else { return };
    let mut end = None;
    SCRATCH.with(|scratch| {
        let mut scratch = scratch.borrow_mut();
        if scratch.len() < READ_CHUNK {
            scratch.resize(READ_CHUNK, 0);
        }
        // The budget in chunks of READ_CHUNK, each posted when full (or at
        // the end), so that the buffer stays small and warm in the cache.
        while end.is_none() && state.budget > 0 {
            let limit = state.budget.min(READ_CHUNK);
            let mut filled = 0;
            let mut again = false;
            while filled < limit {
                match rustix::io::read(fd, &mut scratch[filled..limit]) {
                    Ok(0) => {
                        end = Some(0);
                        break;
                    }
                    Ok(n) => filled += n,
                    Err(rustix::io::Errno::AGAIN) => {
                        again = true;
                        break;
                    }
                    Err(rustix::io::Errno::INTR) => {}
                    Err(err) => {
                        end = Some(err.raw_os_error());
                        break;
                    }
                }
            }
            state.budget -= filled;
            if filled > 0 {
                output.events.post_bytes(
                    Kind::Data,
                    output.id,
                    output.index as i32,
                    filled as i32,
                    &scratch[..filled],
                );
            }
            if again {
                break;
            }
        }
    });
    if let Some(errno) = end {
        if state.watching {
            crate::waiter::remove(fd.as_fd());
            state.watching = false;
        }
        let _after = crate::AfterWork::begin();
        let fd = state.fd.take();
        if outputs().remove(&key(output.id, output.index)).is_some() {
            REGISTERED.fetch_sub(1, Ordering::Relaxed);
        }
        drop(fd);
        output
            .events
            .post(Kind::OutputEnd, output.id, output.index as i32, errno);
    } else if state.budget == 0 && state.watching {
        crate::waiter::remove(fd.as_fd());
        state.watching = false;
    }
}

/// On the waiter thread: output `token` is readable (or hung up).
pub fn ready(token: u64) {
    let (id, index) = (token as u32, (token >> 32) as u32);
    if let Some(output) = get(id, index) {
        let mut state = output.lock();
        read_ready(&output, &mut state);
    }
}

/// At child `id`'s exit, before the exit is posted: reads what its
/// outputs hold without blocking (up to their budget); an output that did
/// not reach its end (a grandchild holds it, or its budget ran out) stays
/// or becomes watched.
pub fn at_exit(id: u32) {
    for_each_output(id, |output, state| {
        read_ready(output, state);
        arm(output, state);
    });
}

/// From JS (the stream's `_read()` after it received a whole budget): the
/// output may read another [`HIGH_WATER_MARK`] bytes.
pub fn grant(id: u32, index: u32) {
    if let Some(output) = get(id, index) {
        let mut state = output.lock();
        state.budget = HIGH_WATER_MARK;
        arm(&output, &mut state);
    }
}

/// From JS (the stream's `destroy()`): stops reading and closes the fd;
/// records already queued for it are ignored by JS.
pub fn close(id: u32, index: u32) {
    let Some(output) = outputs().remove(&key(id, index)) else {
        return;
    };
    REGISTERED.fetch_sub(1, Ordering::Relaxed);
    let fd = {
        let mut state = output.lock();
        if state.watching
            && let Some(fd) = &state.fd
        {
            crate::waiter::remove(fd.as_fd());
        }
        state.watching = false;
        state.fd.take()
    };
    drop(fd);
}

/// How many outputs are open (for the tests' leak checks).
pub fn open_count() -> usize {
    outputs().len()
}

/// Every output whose fd and budget let it read, in the epoll set: for a
/// debug assertion in the tests (`outputsDebug`): `[id, index, budget,
/// watching]` per open output.
pub fn debug() -> Vec<i64> {
    let list: Vec<Arc<Output>> = outputs().values().cloned().collect();
    let mut out = Vec::with_capacity(list.len() * 4);
    for output in list {
        let state = output.lock();
        out.extend_from_slice(&[
            i64::from(output.id),
            i64::from(output.index),
            state.budget as i64,
            i64::from(state.watching),
        ]);
    }
    out
}
