'use strict';
// The addon, and the routing of its event batches to ChildProcess objects.
//
// The native side reports through one threadsafe function per JS thread:
// each call takes every record queued since the last one into one
// Int32Array of [kind, id, a, b] records, made once and reused (see
// src/events.rs).

const { locate } = require('./prebuilt');

const SPAWNED = 1;
const FAILED = 2;
const EXITED = 3;
const PONG = 4;
const TREE_EMPTY = 5;
// pipeAs: 'readable' (src/outputs.rs): [DATA, id, fd, byte count], the
// bytes next in the batch's bytes; [OUTPUT_END, id, fd, errno or 0].
const DATA = 6;
const OUTPUT_END = 7;

// Which addon: see prebuilt.js.
function load() {
  const { file, source, error } = locate();
  if (error) throw error;
  try {
    return require(file);
  } catch (err) {
    err.message = `fastspawn: cannot load the native addon ${file} (from ${source}): ${err.message}`;
    throw err;
  }
}

const addon = load();

// id → ChildProcess, for the children whose end JS has not seen yet (for
// a contained child: the end of its whole tree).
const children = new Map();
// id → ChildProcess, for the children spawned with pipeAs: 'readable'
// whose outputs have not all ended (they may outlive the child).
const readers = new Map();
// What keeps the event loop alive besides the children (which the native
// side counts from their spawn to their end): waiting pings, waitTree().
function hold(delta) {
  addon.hold(delta);
}

// Waiting ping() calls (the benchmarks' measure of the thread hand-overs).
const pongs = [];

// A round trip JS -> spawner pool thread -> JS, doing nothing.
function ping() {
  return new Promise((resolve) => {
    pongs.push(resolve);
    hold(1);
    addon.ping();
  }).finally(() => hold(-1));
}

// A spawn of `path` (no arguments, stdio null) waited for on a pool
// thread, answered like ping(): the least any Node design whose loop never
// runs the clone does per spawn (the benchmarks' floor of the package).
// `mode` (0, 1, 2): see pingSpawn in src/lib.rs (the pidfd and the linger).
function pingSpawn(path, mode = 0) {
  return new Promise((resolve) => {
    pongs.push(resolve);
    hold(1);
    addon.pingSpawn(path, mode);
  }).finally(() => hold(-1));
}

// pingSpawn answered by a callback, with no promise and no hold (the
// caller keeps the loop alive): the benchmarks' split of what the
// promise costs.
function pingSpawnCallback(path, mode, callback) {
  pongs.push(callback);
  addon.pingSpawn(path, mode);
}

// Batches received on this thread (for the tests and benchmarks: how
// many times the native side woke the JS thread).
let batches = 0;

// Where takeEvents() writes the records, and the bytes of their DATA
// records (each grown when a batch needs more).
let buffer = new Int32Array(256);
let bytes = Buffer.allocUnsafe(64 * 1024);

// Takes every queued record into `buf` (and their bytes into `bytes`)
// with `take` (addon.takeEvents), growing them until they fit: [count,
// the buffer holding them]. A try that fails says how long `buf` must be;
// if that is no longer than `buf`, the bytes did not fit. Spawner and
// waiter threads go on queueing while this runs, so a retry may need more
// than the last try said; it must not give up, since a take that fails
// leaves the queue's wake-up pending and the native side then wakes this
// thread no more.
// Without readable outputs open no bytes are expected and none is passed
// (one argument less to convert per batch); a try that finds bytes anyway
// (records of an output closed meanwhile) passes it on the next try.
function takeAll(take, buf) {
  let withBytes = readers.size > 0;
  for (;;) {
    const n = withBytes ? take(buf, bytes) : take(buf);
    if (n >= 0) return [n, buf];
    if (-n > buf.length) buf = new Int32Array(Math.max(-n, 2 * buf.length));
    else if (withBytes) bytes = Buffer.allocUnsafe(2 * bytes.length);
    else withBytes = true;
  }
}

function onEvents() {
  const [n, batch] = takeAll(addon.takeEvents, buffer);
  buffer = batch;
  // Taken by an earlier call of this thread (the records of a later
  // wake-up were in its batch).
  if (n <= 0) return;
  batches++;
  // First every child's new state, then the events: a listener of one
  // record that looks at another child of the same batch (its pid, say)
  // finds it up to date, and never asks the native side about an id whose
  // end it has already forgotten. (onEvents is called by the event loop
  // only, never from a listener, so no other batch overwrites this one
  // while it is read.)
  for (let i = 0; i < n; i += 4) {
    if (batch[i] === PONG) {
      const resolve = pongs.shift();
      if (resolve) resolve();
      continue;
    }
    const child = children.get(batch[i + 1] >>> 0);
    if (child === undefined) continue;
    const kind = batch[i];
    if (kind === SPAWNED) child._settle(batch[i + 2]);
    else if (kind === FAILED) child._settle(-batch[i + 2]);
  }
  let offset = 0;
  for (let i = 0; i < n; i += 4) {
    const id = batch[i + 1] >>> 0;
    const kind = batch[i];
    // pipeAs: 'readable' outputs' records (DATA, OUTPUT_END: the highest
    // kinds, one comparison on the default path).
    if (kind >= DATA) {
      offset = onOutputRecord(batch, i, id, kind, offset);
      continue;
    }
    const child = children.get(id);
    if (child === undefined) continue;
    if (kind === SPAWNED) child._emitSettled();
    else if (kind === FAILED) {
      children.delete(id);
      child._emitFailure();
    } else if (kind === EXITED) {
      // A contained child's tree may outlive it: its entry stays until
      // the tree's end is reported (always after the exit).
      if (!child._contained) children.delete(id);
      child._onExit(batch[i + 2], batch[i + 3]);
    } else if (kind === TREE_EMPTY) {
      children.delete(id);
      child._onTreeEmpty();
    }
  }
}

// A DATA or OUTPUT_END record at `i` of `batch`; returns the offset of
// the next DATA record's bytes in `bytes`.
function onOutputRecord(batch, i, id, kind, offset) {
  const reader = readers.get(id);
  if (kind === DATA) {
    const length = batch[i + 3];
    // A copy: `bytes` is reused by the next batch.
    if (reader !== undefined) reader._onOutputData(batch[i + 2], Buffer.from(bytes.subarray(offset, offset + length)));
    return offset + length;
  }
  if (kind === OUTPUT_END && reader !== undefined) reader._onOutputEnd(batch[i + 2], batch[i + 3]);
  return offset;
}

addon.init(onEvents);

// Coalesced delivery (setDelivery, README "setDelivery"): the take that a
// spawn() schedules when records of other children wait (src/lib.rs
// spawn: io[0]; the setting is process-wide and read there, so a worker
// thread sees the one its main thread made), so that they are delivered
// at the end of the current macrotask instead of at the coalesced
// wake-up (never inside spawn() itself).
let collectQueued = false;

function collectQueuedEvents() {
  collectQueued = false;
  onEvents();
}

function collectSoon() {
  if (collectQueued) return;
  collectQueued = true;
  queueMicrotask(collectQueuedEvents);
}

// The parent's ends of pipes that JS gives up (closeFd, and drainFds at
// their end of stream) are closed off the path from a child's exit to the
// next spawn: by the spawner thread of this thread's next spawn, after its
// clone; if no spawn comes first, on the loop's next check phase.
// The check phase's Immediate while one is scheduled (null otherwise).
let retireImmediate = null;

function closeRetired() {
  retireImmediate = null;
  addon.closeRetired();
}

function retired() {
  if (retireImmediate !== null) return;
  retireImmediate = setImmediate(closeRetired);
}

// A spawn was queued (addon.spawn returned an id): its spawner thread took
// every end given up so far, so the Immediate has nothing left to close.
// Cleared, the check phase makes no call into JS for it (a sequential
// 'pipe' child's exit retires its ends, and the next spawn() comes before
// that check phase).
function retiredTaken() {
  if (retireImmediate === null) return;
  clearImmediate(retireImmediate);
  retireImmediate = null;
}

function closeFd(fd) {
  addon.closeFd(fd);
  retired();
}

// Pipe ends JS never wrapped, after a child's exit (-1: none): fd0 is
// given up, and what waits on fd1 and fd2 is discarded; bit i of the
// result is set when end i reached its end of stream (or failed) and was
// given up too, clear while it is open.
function drainFds(fd0, fd1, fd2) {
  const ended = addon.drainFds(fd0, fd1, fd2);
  if (fd0 >= 0 || ended !== 0) retired();
  return ended;
}

module.exports = {
  addon,
  children,
  collectSoon,
  readers,
  closeFd,
  drainFds,
  hold,
  ping,
  pingSpawn,
  pingSpawnCallback,
  retiredTaken,
  batchCount: () => batches,
  // Takes and delivers what waits now, without a wake-up (the benchmarks'
  // floor of a design whose JS thread collects finished spawns when it
  // runs anyway, with setPingDelivery's coalesced answers).
  // Returns whether it found any.
  collectEvents: () => {
    const before = batches;
    onEvents();
    return batches !== before;
  },
  takeAll,
};
