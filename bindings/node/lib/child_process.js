'use strict';
// spawn() and ChildProcess: node:child_process's semantics, with the
// process started on fastspawn's spawner threads.
//
// The JS thread validates the call, encodes it (src/request.rs), and calls
// the addon once: that creates the socketpairs for the piped streams and
// queues the spawn on the pool. The result (pid or errno) and later the
// exit arrive in batches (lib/native.js). Until then the child is
// "pending": reading `pid`, calling `kill()`, or data arriving on one of
// its streams settles it at once (a short wait for the spawner thread,
// which has then already finished the clone).
//
// Options are read as own properties only (NormalizedOptions). The piped
// stdio streams are made when first used (stdin/stdout/stderr accessors);
// an 'ipc' entry gets Node's channel (lib/ipc.js).

const EventEmitter = require('node:events');
const fs = require('node:fs');
const net = require('node:net');
const { Readable } = require('node:stream');
const { fileURLToPath } = require('node:url');
const { isMainThread } = require('node:worker_threads');

const errors = require('./errors');
const { addon, children, closeFd, collectSoon, drainFds, hold, readers, retiredTaken } = require('./native');

const PENDING = 0;
const RUNNING = 1;
const EXITED = 2;
const FAILED = 3;

// Spawn failures that Node reports with an 'error' event naming the file;
// it throws the others from spawn().
const RUNTIME_ERRORS = new Set(['EACCES', 'EAGAIN', 'EMFILE', 'ENFILE', 'ENOENT']);

// Child fd kinds, as in src/request.rs.
const K_PIPE = 0;
const K_IGNORE = 1;
const K_INHERIT = 2;
const K_FD = 3;
const HEADER = 6;
const FLAG_CWD = 1;
const FLAG_DETACHED = 2;
const FLAG_UID = 4;
const FLAG_GID = 8;
const FLAG_CONTAIN = 16;
const FLAG_READABLE = 32;

// The request's numbers, reused by every spawn (grown when a call maps
// more fds).
let io = new Int32Array(HEADER + 2 * 16);

// On Node's main thread process.env *is* the process environment (writes
// go through setenv), so an unset `env` lets the addon use its snapshot of
// it instead of enumerating process.env here (~30 µs with 35 variables).
// A worker's process.env is a copy, and Bun's and Deno's are their own
// objects: there, the pairs are built from process.env as Node does.
const envIsEnviron = isMainThread && !process.versions.bun && !process.versions.deno;
// Node's own process.env object: a program may replace it (`process.env =
// {...}`), and then its children get the new object's pairs, as in Node.
const nodeEnv = process.env;

// Bun's net.Socket ignores an `fd` option (it never reads from it), while
// its fs streams read and write any fd: on Bun the parent's ends are fs
// streams (readable for the child's output fds, writable for its stdin).
const isBun = typeof process.versions.bun === 'string';
// Under Node's permission model (which lets this addon load only with
// --allow-addons), a process without --allow-child-process may not spawn:
// Node's refusal, thrown as Node's spawn throws it. Read once: the model's
// grants are fixed at startup.
const childDenied = typeof process.permission === 'object' && process.permission !== null &&
  typeof process.permission.has === 'function' && !process.permission.has('child');

// The child whose output a stream carries: data on it may settle the
// child's spawn (see ChildProcess#_admit). A field set once in the
// constructor (no per-stream closure or deleted property), so every such
// stream keeps one shape for V8.
const kChild = Symbol('fastspawn.child');

function admitPush(stream, chunk) {
  const child = stream[kChild];
  return child === null || child._state !== PENDING || child._admit(stream, chunk);
}

class ChildSocket extends net.Socket {
  constructor(options, child) {
    super(options);
    this[kChild] = child;
  }

  push(chunk, encoding) {
    return admitPush(this, chunk) ? super.push(chunk, encoding) : false;
  }

  // The end of an output (stdout, stderr) after its end of stream: Node
  // ends the writable side then (no half-open socket), which shuts the
  // socket down for writing; the child's side is closed by then (that is
  // what the end of stream was; only a child that shut its side down for
  // writing and still read from it would see the difference), and the
  // request costs a turn of the loop and a callback before 'finish' and
  // 'close'. Finished at once instead ('finish' on the next tick, as
  // Node's Writable emits it). Anything else (stdin, an end() before the
  // end of stream) shuts down as Node does.
  _final(cb) {
    if (this[kChild] !== null && this._readableState.ended && this._handle) return cb();
    return super._final(cb);
  }
}

// Bun's net.Socket ignores an `fd` option: there the child's output is read
// through an fs stream (see pipeEnd).
class ChildReadStream extends fs.ReadStream {
  constructor(fd, child) {
    super(null, { fd, autoClose: true });
    this[kChild] = child;
  }

  push(chunk, encoding) {
    return admitPush(this, chunk) ? super.push(chunk, encoding) : false;
  }
}

// pipeAs: 'readable': the bytes the native side reads from an output before
// this side asks for more (src/outputs.rs), which is also the stream's
// highWaterMark.
const OUTPUT_HWM = addon.outputHighWaterMark();

// What a child's output (fd 1 or 2) read natively is on this side: its
// stream once made (child.stdout / stderr are made when first asked for),
// the chunks that came before, and the flow control's count.
class OutputRecord {
  constructor(index) {
    this.index = index;
    this.stream = null;
    // Chunks received while no stream was made (null once a stream took
    // them, or after the exit's flush, which discards them).
    this.held = [];
    // Bytes received since the last grant (the native side reads
    // OUTPUT_HWM bytes per grant).
    this.received = 0;
    // The native end is open (not at its end of stream, not closed).
    this.open = true;
    // Its end of stream came while no stream was made.
    this.ended = false;
    // Counted for the child's 'close'.
    this.counted = false;
    // Keeps the loop alive after the exit (the end outlives the child).
    this.holding = false;
  }
}

// A child's outputs read natively (pipeAs: 'readable'): the records of
// outputs 1 and 2 (OutputRecord), and which of them (bits 1, 2) have no
// stream yet and were not flushed after the exit.
class ReadableOutputs {
  constructor() {
    this.r1 = null;
    this.r2 = null;
    this.lazy = 0;
  }
}

// child.stdout / child.stderr with pipeAs: 'readable': a plain Readable fed
// by the native side's reads (no handle, no fd).
class ChildOutput extends Readable {
  constructor(child, record) {
    super({ highWaterMark: OUTPUT_HWM });
    this[kChild] = child;
    this._record = record;
  }

  // The stream wants more: once it received the whole budget, the native
  // side waits for this to read on.
  _read() {
    const record = this._record;
    if (record.open && record.received >= OUTPUT_HWM) {
      record.received = 0;
      addon.outputGrant(this[kChild]._id, record.index);
    }
  }

  _destroy(err, cb) {
    this[kChild]._closeOutput(this._record);
    cb(err);
  }
}

// Node's Pipe handle class, taken from the first socket made over an fd
// (net.Socket's `fd` option asks libuv what the fd is, three system
// calls, and makes a Pipe for a socketpair). Later ends are made as Node's
// own child_process makes them: a Pipe handle opened on the fd, given to
// net.Socket. Not on Deno, whose net.Socket has its own handles.
const isDeno = typeof process.versions.deno === 'string';
let PipeHandle = null;
const PIPE_SOCKET = 0; // PipeConstants.SOCKET

// Node's Pipe class, learnt from a throwaway socket over one of the
// addon's socketpairs when no stream has taught it yet; null where it
// cannot be (Bun, Deno).
function pipeHandleClass() {
  if (PipeHandle === null && !isBun && !isDeno) {
    const fd = addon.finishedOutputFd(Buffer.alloc(0));
    if (fd >= 0) pipeEnd(fd, 1).destroy();
  }
  return PipeHandle;
}

// The parent's end of child fd `i`, as a stream; `child` for the ends the
// child writes to.
function pipeEnd(fd, i, child = null) {
  if (isBun) {
    return i === 0 ? fs.createWriteStream(null, { fd, autoClose: true }) : new ChildReadStream(fd, child);
  }
  if (PipeHandle !== null) {
    const handle = new PipeHandle(PIPE_SOCKET);
    if (!handle.open(fd)) return new ChildSocket({ handle, readable: i > 0, writable: true }, child);
    handle.close();
  }
  const socket = new ChildSocket({ fd, readable: i > 0, writable: true }, child);
  if (!isDeno && socket._handle && socket._handle.constructor.name === 'Pipe') PipeHandle = socket._handle.constructor;
  return socket;
}

function validatedPath(value, name) {
  let path = value;
  if (typeof path !== 'string') {
    if (path instanceof URL) path = fileURLToPath(path);
    else if (path instanceof Uint8Array) path = Buffer.from(path.buffer, path.byteOffset, path.byteLength).toString();
    else throw errors.invalidArgType(name, ['string', 'Buffer', 'URL'], value);
  }
  if (path.includes('\u0000')) {
    throw errors.nulInPath(name, path);
  }
  return path;
}

// A value as the child will see it: strings as they are, anything else
// through String(); a NUL ends it, as it would end a C string.
function asArg(value) {
  const s = typeof value === 'string' ? value : String(value);
  const nul = s.indexOf('\u0000');
  return nul === -1 ? s : s.slice(0, nul);
}

// The options spawn() reads, as own enumerable properties of the caller's
// object: what Node's `{ __proto__: null, ...options }` copy gives (each
// own getter called once, in the object's key order; nothing inherited),
// in an object of one fixed shape instead of a dictionary-mode copy (the
// copy and the reads from it cost ~5 µs of a sequential spawn's cycle).
class SpawnOptions {
  constructor() {
    this.cwd = undefined;
    this.env = undefined;
    this.argv0 = undefined;
    this.stdio = undefined;
    this.detached = undefined;
    this.contain = undefined;
    this.uid = undefined;
    this.gid = undefined;
    this.shell = undefined;
    this.serialization = undefined;
    this.timeout = undefined;
    this.signal = undefined;
    this.killSignal = undefined;
    this.windowsHide = undefined;
    this.windowsVerbatimArguments = undefined;
    this.pipeAs = undefined;
  }
}

function ownOptions(options) {
  const own = new SpawnOptions();
  if (options == null) return own;
  const keys = Object.keys(options);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    switch (key) {
      case 'cwd':
      case 'env':
      case 'argv0':
      case 'stdio':
      case 'detached':
      case 'contain':
      case 'uid':
      case 'gid':
      case 'shell':
      case 'serialization':
      case 'timeout':
      case 'signal':
      case 'killSignal':
      case 'windowsHide':
      case 'windowsVerbatimArguments':
      case 'pipeAs':
        own[key] = options[key];
        break;
      default:
        // Read as the copy would (a getter runs), and not used.
        void options[key];
    }
  }
  return own;
}

// spawn()'s arguments → what ChildProcess#spawn needs, with Node's checks
// in Node's order (so the first of several problems is the one reported).
function normalizeSpawnArguments(file, args, options) {
  errors.validateString(file, 'file');
  errors.validateNoNul(file, 'file');
  if (file.length === 0) throw errors.invalidArgValue('file', file, 'cannot be empty');
  if (Array.isArray(args)) args = args.slice();
  else if (args == null) args = [];
  else if (typeof args !== 'object') throw errors.invalidArgType('args', 'object', args);
  else {
    options = args;
    args = [];
  }
  for (let i = 0; i < args.length; i++) errors.validateNoNul(args[i], `args[${i}]`);
  if (options !== undefined) errors.validateObject(options, 'options');
  // Own properties only, as Node reads them: an option inherited from a
  // polluted Object.prototype (`shell`, `env`, `cwd`...) must not change
  // what is run.
  options = ownOptions(options);

  let cwd = options.cwd;
  if (cwd != null) cwd = validatedPath(cwd, 'options.cwd');
  if (options.detached != null) errors.validateBoolean(options.detached, 'options.detached');
  if (options.contain != null) errors.validateBoolean(options.contain, 'options.contain');
  if (options.uid != null) errors.validateId(options.uid, 'options.uid');
  if (options.gid != null) errors.validateId(options.gid, 'options.gid');
  const shell = options.shell;
  if (shell != null && typeof shell !== 'boolean' && typeof shell !== 'string') {
    throw errors.invalidArgType('options.shell', ['boolean', 'string'], shell);
  }
  if (options.argv0 != null) {
    errors.validateString(options.argv0, 'options.argv0');
    errors.validateNoNul(options.argv0, 'options.argv0');
  }
  if (options.windowsHide != null) errors.validateBoolean(options.windowsHide, 'options.windowsHide');
  validatePipeAs(options.pipeAs);
  if (options.windowsVerbatimArguments != null) {
    errors.validateBoolean(options.windowsVerbatimArguments, 'options.windowsVerbatimArguments');
  }

  if (shell) {
    errors.validateNoNul(shell, 'options.shell');
    const command = [file, ...args].join(' ');
    file = typeof shell === 'string' ? shell : '/bin/sh';
    args = ['-c', command];
  }
  args.unshift(typeof options.argv0 === 'string' ? options.argv0 : file);

  let envPairs = null;
  if (options.env || !envIsEnviron || process.env !== nodeEnv) {
    const env = options.env || process.env;
    envPairs = [];
    for (const key in env) {
      const value = env[key];
      if (value === undefined) continue;
      errors.validateNoNul(key, `options.env['${key}']`);
      errors.validateNoNul(value, `options.env['${key}']`);
      envPairs.push(`${key}=${value}`);
    }
  }

  return new NormalizedOptions(options, file, args, cwd, envPairs);
}

// pipeAs: how the parent's end of a piped stdout or stderr is given:
// 'socket' (the default: a net.Socket over it, as Node's) or 'readable'
// (read on the native side, a plain Readable here; README, "pipeAs").
function validatePipeAs(value) {
  if (value !== undefined && value !== 'socket' && value !== 'readable') {
    throw errors.invalidArgValue('options.pipeAs', value, "must be one of: undefined, 'socket', 'readable'");
  }
}

// What spawn() and ChildProcess#spawn read, every field an own property
// (so nothing is looked up on a prototype) of one fixed shape: building it
// costs ~0.1 µs, where Node's `{ __proto__: null, ...options, ... }`
// (a dictionary-mode copy) costs ~1.5 µs per call.
class NormalizedOptions {
  constructor(options, file, args, cwd, envPairs) {
    this.file = file;
    this.args = args;
    this.cwd = cwd;
    this.envPairs = envPairs;
    this.detached = !!options.detached;
    this.contain = !!options.contain;
    this.uid = options.uid;
    this.gid = options.gid;
    this.stdio = options.stdio;
    this.serialization = options.serialization;
    this.timeout = options.timeout;
    this.signal = options.signal;
    this.killSignal = options.killSignal;
    this.windowsHide = !!options.windowsHide;
    this.windowsVerbatimArguments = !!options.windowsVerbatimArguments;
    this.pipeAs = options.pipeAs;
  }
}

// A stream's underlying libuv handle, if it has one with an fd (a
// net.Socket, one of this package's pipe ends, a TTY, a TCP or Pipe
// handle itself): Node accepts such a stream as a stdio entry and gives the
// child its fd.
function handleOf(value) {
  if (value === null || typeof value !== 'object') return null;
  for (const candidate of [value, value.handle, value._handle]) {
    if (
      candidate !== null &&
      typeof candidate === 'object' &&
      typeof candidate.fd === 'number' &&
      candidate.fd >= 0 &&
      typeof candidate.readStop === 'function'
    ) {
      return candidate;
    }
  }
  return null;
}

// options.stdio → { kinds, args, ipc, wraps }, with Node's rules and errors
// in Node's order: `ipc` is the index of the 'ipc' entry (-1 if none),
// `wraps` the streams given by their handle, which stop reading in the
// parent once the child has them.
function normalizeStdio(stdio) {
  if (!stdio) stdio = 'pipe';
  if (typeof stdio === 'string') {
    // One of the four names: the same (frozen) result every time.
    const shared = stdioByName.get(stdio);
    if (shared === undefined) throw errors.invalidArgValue('stdio', stdio);
    return shared;
  }
  return normalizeStdioArray(stdio);
}

function normalizeStdioArray(stdio) {
  if (!Array.isArray(stdio)) {
    throw errors.invalidArgValue('stdio', stdio);
  }
  const n = Math.max(stdio.length, 3);
  const kinds = new Array(n);
  const args = new Array(n).fill(0);
  let ipc = -1;
  let wraps = null;
  for (let i = 0; i < n; i++) {
    let entry = stdio[i];
    if (entry == null) entry = i < 3 ? 'pipe' : 'ignore';
    let handle;
    if (entry === 'ignore') kinds[i] = K_IGNORE;
    else if (entry === 'pipe' || entry === 'overlapped' || (typeof entry === 'number' && entry < 0)) kinds[i] = K_PIPE;
    else if (entry === 'ipc') {
      if (ipc !== -1) throw errors.ipcOnePipe();
      ipc = i;
      kinds[i] = K_PIPE;
    } else if (entry === 'inherit') kinds[i] = K_INHERIT;
    else if (typeof entry === 'number' || typeof entry.fd === 'number') {
      const fd = typeof entry === 'number' ? entry : entry.fd;
      // A negative fd is "nothing", which is /dev/null for 0-2.
      if (fd < 0) kinds[i] = K_IGNORE;
      else {
        kinds[i] = K_FD;
        args[i] = fd;
      }
    } else if ((handle = handleOf(entry)) !== null) {
      kinds[i] = K_FD;
      args[i] = handle.fd;
      (wraps ||= []).push([handle, entry === handle ? null : entry]);
    } else if (typeof entry === 'string' || ArrayBuffer.isView(entry)) {
      throw errors.invalidSyncForkInput(entry);
    } else {
      throw errors.invalidArgValue('stdio', entry);
    }
  }
  return { kinds, args, ipc, wraps };
}

const stdioByName = new Map(
  ['ignore', 'pipe', 'inherit', 'overlapped'].map((name) => {
    const { kinds, args, ipc, wraps } = normalizeStdioArray([name, name, name]);
    return [name, Object.freeze({ kinds: Object.freeze(kinds), args: Object.freeze(args), ipc, wraps })];
  }),
);

// Marks the streams given to a child as stdio: they stop reading here (the
// child reads them now), and are not drained when their own child exits.
const kUsedAsStdio = Symbol('fastspawn.usedAsStdio');

function stopReading(wraps) {
  for (const [handle, stream] of wraps) {
    handle.reading = false;
    handle.readStop();
    if (stream === null) continue;
    if (typeof stream.pause === 'function') stream.pause();
    if (stream._readableState) {
      stream.readableFlowing = false;
      stream._readableState.reading = false;
    }
    stream[kUsedAsStdio] = true;
    // Another implementation's stream (a node:child_process child's
    // stdout, say) would be resumed by its own child's exit, which knows
    // nothing of this mark, and the parent would then race the new child
    // for its data: it stops being readable here instead.
    if (!(kChild in stream) && stream._readableState) stream.readable = false;
  }
}

// Node marks the streams it gave a child as stdio with a symbol of its own
// (kIsUsedAsStdio); such a stream is not drained here either.
function usedAsStdio(stream) {
  if (stream[kUsedAsStdio]) return true;
  // Node also pauses it (readableFlowing false): only then look.
  if (stream.readableFlowing !== false) return false;
  for (const symbol of Object.getOwnPropertySymbols(stream)) {
    if (symbol.description === 'kIsUsedAsStdio' && stream[symbol] === true) return true;
  }
  return false;
}

// Whether child.stdio[i] is left alone by flushStdio: stdin (not
// readable, and a lazy one is not a stream yet), or a lazy output end
// (still an fd, or drained and closed).
function notAStream(child, i) {
  return (i === 0 && child._stdin === undefined) || (i === 1 && child._fd1 !== -1) || (i === 2 && child._fd2 !== -1);
}

// After the child's exit: streams nobody reads are drained so that they
// reach their end and close (and with them the child).
function flushStdio(child) {
  const stdio = stdioOf(child);
  if (stdio == null) return;
  // Output pipes never wrapped in a stream: what waits there is discarded
  // natively; at their end of stream they count as closed, else (a
  // grandchild still holds them) they get a stream that is drained.
  child._drainLazy();
  for (let i = 0; i < stdio.length; i++) {
    if (notAStream(child, i)) continue;
    const stream = stdio[i];
    if (!stream || !stream.readable || usedAsStdio(stream)) continue;
    const state = stream._readableState;
    const listened = state
      ? state.readableListening
      : stream.readableFlowing !== null || stream.listenerCount('data') > 0 || stream.listenerCount('readable') > 0;
    if (!listened) stream.resume();
  }
}

// Whether flushStdio(child) would find anything to do: a lazy output end
// still open, or a stream in child.stdio (read without making a lazy one).
// With 'ignore' or 'inherit' there is none, and the exit saves a tick.
function hasStdio(child) {
  if (child._fd1 >= 0 || child._fd2 >= 0 || (child._ro !== null && child._ro.lazy !== 0)) return true;
  const stdio = stdioOf(child);
  if (stdio == null) return false;
  for (let i = 0; i < stdio.length; i++) {
    if (notAStream(child, i)) continue;
    if (stdio[i] != null) return true;
  }
  return false;
}

// Whether the only stdio left to flush after the exit are output ends
// never wrapped in a stream (the common 'pipe' child that nobody read).
function onlyLazyEnds(child) {
  return (
    child._stdioLazy &&
    child._out1 === null &&
    child._out2 === null &&
    (child._fd1 >= 0 || child._fd2 >= 0 || (child._ro !== null && child._ro.lazy !== 0))
  );
}

const resolved = Promise.resolve();

function rethrow(err) {
  throw err;
}

// flushStdio for a child whose outputs are still lazy ends, as a
// microtask rather than Node's nextTick: a tick costs the exit ~8 µs of
// wall time (node's callback scope calls into JS again to run its tick
// queue, cold after the loop slept), while a microtask runs in the
// checkpoint the callback scope makes anyway. Queued before the 'exit'
// listeners run, it comes after every tick they queue (microtasks run
// after the ticks) and before their promise reactions, as the tick did.
// What a 'close' listener throws is thrown as an uncaught exception, as
// from the tick.
function drainLazyEnds(child) {
  if (!child._exitDone) return;
  try {
    flushStdio(child);
  } catch (err) {
    process.nextTick(rethrow, err);
  }
}

function maybeClose(child) {
  child._closesGot++;
  if (child._closesGot === child._closesNeeded) child.emit('close', child.exitCode, child.signalCode);
}

// `pid` and `stdin` are own properties of a child, as in Node, but
// accessors: the pid may not be known yet when spawn() returns (reading it
// waits for the spawner thread's report), and stdin's socket is made when
// first used. One descriptor object for every child (no closure per spawn).
const pidProperty = {
  configurable: true,
  enumerable: true,
  get() {
    this._settleNow();
    return this._pid;
  },
  set(value) {
    this._pid = value;
  },
};

const stdinProperty = {
  configurable: true,
  enumerable: true,
  // Most children started by a server never get input, and a socket costs
  // ~25 µs to make and destroy.
  get() {
    if (this._stdin === undefined) {
      if (this._stdinFd >= 0) {
        this._stdin = pipeEnd(this._stdinFd, 0);
      } else {
        // Asked for after the child ended: a destroyed stream, as Node's is by then.
        this._stdin = new net.Socket();
        this._stdin.destroy();
      }
      this._stdinFd = -1;
    }
    return this._stdin;
  },
  set(value) {
    this._stdin = value;
  },
};

// stdout and stderr are own accessors too: their sockets are made when
// first used (a socket costs ~30 µs to make and close), and a pipe nobody
// used is drained and closed natively after the exit.
const stdoutProperty = {
  configurable: true,
  enumerable: true,
  get() {
    return this._output(1);
  },
  set(value) {
    this._output(1);
    this._out1 = value;
  },
};

const stderrProperty = {
  configurable: true,
  enumerable: true,
  get() {
    return this._output(2);
  },
  set(value) {
    this._output(2);
    this._out2 = value;
  },
};

// child.stdio[0..2] for piped ends: the same accessors, on the array.
const kOwner = Symbol('fastspawn.owner');
const stdioProperties = [0, 1, 2].map((i) => ({
  configurable: true,
  enumerable: true,
  get() {
    const child = this[kOwner];
    return i === 0 ? child.stdin : child._output(i);
  },
  set(value) {
    Object.defineProperty(this, i, { value, writable: true, enumerable: true, configurable: true });
  },
}));

// A child whose stdio is the three standard fds, at least one piped, and
// no IPC channel (the common case) gets child.stdio as an own accessor too:
// the array, with its index accessors (which make an array's elements slow
// and cost ~1 µs each to define), is made when first read.
const stdioLazyProperty = {
  configurable: true,
  enumerable: true,
  get() {
    const stdio = [null, null, null];
    stdio[kOwner] = this;
    for (let i = 0; i < 3; i++) if (this._pipedMask & (1 << i)) Object.defineProperty(stdio, i, stdioProperties[i]);
    this._stdioLazy = false;
    Object.defineProperty(this, 'stdio', { value: stdio, writable: true, enumerable: true, configurable: true });
    return stdio;
  },
  set(value) {
    this._stdioLazy = false;
    Object.defineProperty(this, 'stdio', { value, writable: true, enumerable: true, configurable: true });
  },
};

// child.stdio as flushStdio and a failure read it: while it is lazy, its
// entries are the streams made so far (a lazy end still without a stream
// is skipped by both through its fd).
function stdioOf(child) {
  return child._stdioLazy ? [child._stdin, child._out1, child._out2] : child.stdio;
}

// execve refuses any argv or environment string longer than the kernel's
// MAX_ARG_STRLEN (32 pages, the NUL included) with E2BIG, which Node
// throws from spawn(): known here without a system call.
const MAX_ARG_STRLEN = 32 * 4096;

function tooLongCheck(s) {
  // A UTF-16 unit is at most 3 bytes of UTF-8: shorter strings cannot fail.
  if (s.length * 3 >= MAX_ARG_STRLEN && Buffer.byteLength(s) + 1 > MAX_ARG_STRLEN) throw errors.errnoError(-7, 'spawn');
  return s;
}

// Spawn failures after which Node has set up no stdio at all.
const NO_STDIO_ERRORS = new Set(['EMFILE', 'ENFILE']);

// Whether setuid(uid) / setgid(gid) would be refused to this process:
// known on the JS thread (Node throws EPERM synchronously for it). Without
// root, only the real or effective id may be set, unless the process has
// CAP_SETUID / CAP_SETGID (read from /proc only on that rare path).
function credentialsDenied(uid, gid) {
  if (typeof process.geteuid !== 'function' || process.geteuid() === 0) return false;
  const uidDenied = uid != null && uid !== process.getuid() && uid !== process.geteuid();
  const gidDenied = gid != null && gid !== process.getgid() && gid !== process.getegid();
  if (!uidDenied && !gidDenied) return false;
  let caps = 0n;
  try {
    const m = /^CapEff:\s*([0-9a-f]+)$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (m) caps = BigInt(`0x${m[1]}`);
  } catch {
    // No /proc: assume no capabilities, as for any non-root process.
  }
  const CAP_SETGID = 6n;
  const CAP_SETUID = 7n;
  return (uidDenied && !((caps >> CAP_SETUID) & 1n)) || (gidDenied && !((caps >> CAP_SETGID) & 1n));
}

// The environment given to a child with an IPC channel: the pairs of the
// call, or of process.env (Node's for...in, which includes inherited keys).
function envPairsOf(pairs) {
  if (pairs != null) return pairs.slice();
  const result = [];
  for (const key in process.env) {
    const value = process.env[key];
    if (value !== undefined) result.push(`${key}=${value}`);
  }
  return result;
}

let ipcModule = null;

// Encodes a request for the addon (src/request.rs): fills the shared `io`
// (grown when too small; read it right after) and returns the strings
// (file, cwd, argv, the environment's pairs, NUL-separated). `flags`
// holds the package's own options; the others are added here. Used by
// ChildProcess#spawn and by spawnSync (lib/sync.js).
function encodeRequest(file, argv, envPairs, options, flags, kinds, fdArgs) {
  const nfds = kinds.length;
  if (io.length < HEADER + 2 * nfds) io = new Int32Array(HEADER + 2 * nfds);
  // An empty cwd is no cwd, as in Node.
  const cwd = options.cwd ? asArg(options.cwd) : '';
  let strings = `${asArg(file)}\u0000${cwd}`;
  for (let i = 0; i < argv.length; i++) strings += `\u0000${tooLongCheck(asArg(argv[i]))}`;
  if (envPairs != null) for (let i = 0; i < envPairs.length; i++) strings += `\u0000${tooLongCheck(asArg(envPairs[i]))}`;
  io[0] = argv.length;
  io[1] = envPairs != null ? envPairs.length : -1;
  if (cwd !== '') flags |= FLAG_CWD;
  if (options.detached) flags |= FLAG_DETACHED;
  if (options.uid != null) {
    flags |= FLAG_UID;
    io[3] = options.uid;
  }
  if (options.gid != null) {
    flags |= FLAG_GID;
    io[4] = options.gid;
  }
  io[2] = flags;
  io[5] = nfds;
  for (let i = 0; i < nfds; i++) {
    io[HEADER + 2 * i] = kinds[i];
    io[HEADER + 2 * i + 1] = fdArgs[i];
  }
  return strings;
}

// The shared request array (encodeRequest fills it).
function requestIo() {
  return io;
}

class ChildProcess extends EventEmitter {
  constructor() {
    super();
    // Node's own fields, in Node's order; stdin, stdout, stderr, stdio and
    // pid are set by spawn() (not at all after EMFILE, as with Node).
    this._closesNeeded = 1;
    this._closesGot = 0;
    this.connected = false;
    this.signalCode = null;
    this.exitCode = null;
    this.killed = false;
    this.spawnfile = null;
    this.spawnargs = [];
    this._stdin = null;
    this._stdinFd = -1;
    // The stdin end given up at the exit, closed with the outputs' drain.
    this._stdinGivenUp = -1;
    // Output ends 1 and 2: the fd while no stream was made (-1 once one
    // was, -2 once drained and closed), and the stream.
    this._fd1 = -1;
    this._fd2 = -1;
    this._out1 = null;
    this._out2 = null;
    this._id = 0;
    this._contained = false;
    // The tree's end (contain: true): whether the native side reported it,
    // and the waitTree() calls waiting for it.
    this._treeEmpty = false;
    this._treeWaiters = null;
    this._state = PENDING;
    this._pid = undefined;
    this._errno = 0;
    this._live = false;
    this._refed = true;
    this._known = false;
    this._noStdio = false;
    this._spawnEmitted = false;
    this._failureEmitted = false;
    this._heldEnds = null;
    // Whether the 'exit' listeners returned (see drainLazyEnds).
    this._exitDone = false;
    // Which of fds 0-2 are piped (bits 0-2), and whether child.stdio is
    // still the lazy accessor.
    this._pipedMask = 0;
    this._stdioLazy = false;
    // pipeAs: 'readable': its outputs (ReadableOutputs; null without
    // them, so that the default path checks one field).
    this._ro = null;
    // With an IPC channel: holds the exit until the channel's end (ipc.js);
    // whether an exit is held, and the tree's end reported meanwhile.
    this._exitAfterChannel = null;
    this._exitHeld = false;
    this._treeEmptyHeld = false;
  }

  // Closes stdin: the socket if it was made, else the fd.
  _closeStdin() {
    if (this._stdin) this._stdin.destroy();
    else if (this._stdinFd >= 0) {
      closeFd(this._stdinFd);
      this._stdinFd = -1;
    }
  }

  // The parent's end `fd` of child fd `i` (an output) as a stream, whose
  // 'close' counts for the child's.
  _wrapOutput(fd, i) {
    const socket = pipeEnd(fd, i, this);
    socket.on('close', () => {
      if (!this._noStdio) maybeClose(this);
    });
    return socket;
  }

  // child.stdout (1) or child.stderr (2), made when first asked for.
  _output(i) {
    if (this._ro !== null) {
      const record = i === 1 ? this._ro.r1 : this._ro.r2;
      if (record !== null) return this._readableOutput(record);
    }
    const fd = i === 1 ? this._fd1 : this._fd2;
    if (fd === -1) return i === 1 ? this._out1 : this._out2;
    let stream;
    if (fd >= 0) stream = this._wrapOutput(fd, i);
    else {
      // Drained and closed after the exit: an ended stream, as Node's is by then.
      stream = new net.Socket();
      stream.destroy();
    }
    if (i === 1) {
      this._fd1 = -1;
      this._out1 = stream;
    } else {
      this._fd2 = -1;
      this._out2 = stream;
    }
    return stream;
  }

  // After the exit, in one call into the addon: the stdin end given up at
  // the exit is closed, and each lazy output end still without a stream is
  // drained; at its end of stream it is closed (and counts for 'close'),
  // else it gets a stream that reads it to its end.
  _drainLazy() {
    if (this._ro !== null && this._ro.lazy !== 0) this._flushReadable();
    const fd0 = this._stdinGivenUp;
    const fd1 = this._fd1 >= 0 ? this._fd1 : -1;
    const fd2 = this._fd2 >= 0 ? this._fd2 : -1;
    if (fd0 < 0 && fd1 < 0 && fd2 < 0) return;
    this._stdinGivenUp = -1;
    const ended = drainFds(fd0, fd1, fd2);
    for (let i = 1; i <= 2; i++) {
      if ((i === 1 ? fd1 : fd2) < 0) continue;
      if ((ended & (1 << i)) === 0) {
        this._output(i).resume();
        continue;
      }
      if (i === 1) this._fd1 = -2;
      else this._fd2 = -2;
      if (!this._noStdio) maybeClose(this);
    }
  }

  // pipeAs: 'readable': output i (1, 2) is read natively.
  _setupReadable(i) {
    this._closesNeeded++;
    const record = new OutputRecord(i);
    if (this._ro === null) this._ro = new ReadableOutputs();
    const ro = this._ro;
    if (i === 1) ro.r1 = record;
    else ro.r2 = record;
    ro.lazy |= 1 << i;
    readers.set(this._id, this);
  }

  // child.stdout / stderr of a readable output: made when first asked
  // for, with what came before.
  _readableOutput(record) {
    if (record.stream !== null) return record.stream;
    const stream = new ChildOutput(this, record);
    record.stream = stream;
    this._ro.lazy &= ~(1 << record.index);
    if (record.index === 1) this._out1 = stream;
    else this._out2 = stream;
    stream.on('close', () => this._countOutput(record));
    const held = record.held;
    record.held = null;
    if (held !== null) for (let k = 0; k < held.length; k++) stream.push(held[k]);
    if (record.counted) {
      // Flushed after the exit and ended: an ended stream, as Node's is by then.
      stream.destroy();
    } else if (record.ended || (held === null && !record.open)) stream.push(null);
    return stream;
  }

  _onOutputData(i, chunk) {
    const record = i === 1 ? this._ro.r1 : this._ro.r2;
    if (record === null || !record.open) return;
    record.received += chunk.length;
    if (record.stream !== null) record.stream.push(chunk);
    else if (record.held !== null) record.held.push(chunk);
    else if (record.received >= OUTPUT_HWM) {
      // Flushed after the exit with no stream: discarded, read on to the end.
      record.received = 0;
      addon.outputGrant(this._id, i);
    }
  }

  _onOutputEnd(i, errno) {
    const record = i === 1 ? this._ro.r1 : this._ro.r2;
    if (record === null || !record.open) return;
    this._outputGone(record);
    if (record.stream !== null) {
      if (errno > 0) record.stream.destroy(errors.errnoError(-errno, 'read'));
      else record.stream.push(null);
    } else if (record.held !== null) record.ended = true;
    else this._countOutput(record);
  }

  // The native end of `record` is gone (its end of stream, or closed).
  _outputGone(record) {
    record.open = false;
    if (record.holding) {
      record.holding = false;
      hold(-1);
    }
    const other = record.index === 1 ? this._ro.r2 : this._ro.r1;
    if (other === null || !other.open) readers.delete(this._id);
  }

  // The stream's destroy(): the native side stops reading and closes the
  // end (once the spawn is settled: until then it has not recorded it).
  _closeOutput(record) {
    if (!record.open) return;
    this._settleNow();
    this._outputGone(record);
    addon.outputClose(this._id, record.index);
  }

  _countOutput(record) {
    if (record.counted) return;
    record.counted = true;
    if (!this._noStdio) maybeClose(this);
  }

  // After the exit (flushStdio), the outputs still without a stream: what
  // they held is discarded, and they count for 'close' at their end.
  _flushReadable() {
    for (let i = 1; i <= 2; i++) {
      if ((this._ro.lazy & (1 << i)) === 0) continue;
      const record = i === 1 ? this._ro.r1 : this._ro.r2;
      record.held = null;
      if (record.ended || !record.open) this._countOutput(record);
      else if (record.received >= OUTPUT_HWM) {
        record.received = 0;
        addon.outputGrant(this._id, i);
      }
    }
    this._ro.lazy = 0;
  }

  // At the exit: an output still open keeps the loop alive until its end
  // (a grandchild holds it), as Node's socket does.
  _holdOpenOutputs() {
    for (const record of [this._ro.r1, this._ro.r2]) {
      if (record === null || !record.open || record.holding) continue;
      record.holding = true;
      hold(1);
    }
  }

  // A failed spawn: the native side closed the ends; outputs without a
  // stream count for 'close' in a later turn of the loop, as _closeLazy's.
  _failReadable() {
    for (const record of [this._ro.r1, this._ro.r2]) {
      if (record === null || !record.open) continue;
      this._outputGone(record);
      if (record.stream === null) {
        record.held = null;
        this._ro.lazy &= ~(1 << record.index);
        record.counted = true;
        if (!this._noStdio) setImmediate(maybeClose, this);
      } else {
        // As Node's socket reads its end of stream: 'end', then 'close'.
        record.stream.push(null);
      }
    }
  }

  // A failed spawn: the lazy output ends are closed; as the streams Node
  // made would, they count for 'close' in a later turn of the loop (after
  // the code that awaited the 'error' has run).
  _closeLazy(i) {
    const fd = i === 1 ? this._fd1 : this._fd2;
    if (fd < 0) return;
    closeFd(fd);
    if (i === 1) this._fd1 = -2;
    else this._fd2 = -2;
    if (!this._noStdio) setImmediate(maybeClose, this);
  }

  spawn(options) {
    errors.validateObject(options, 'options');
    // Called directly (not through spawn()), the options are the caller's:
    // read as own properties only too (Node reads these through the
    // prototype chain).
    const direct = !(options instanceof NormalizedOptions);
    if (direct) options = { __proto__: null, ...options };
    const { kinds, args: fdArgs, ipc, wraps } = normalizeStdio(options.stdio);
    const serialization = options.serialization;
    if (serialization !== undefined && serialization !== 'json' && serialization !== 'advanced') {
      throw errors.invalidArgValue('options.serialization', serialization, "must be one of: undefined, 'json', 'advanced'");
    }
    let envPairs = options.envPairs;
    if (ipc !== -1) {
      if (isBun) throw errors.ipcUnsupported();
      // A caller's envPairs is an array or undefined, as in Node (null is
      // refused); spawn()'s null means the inherited environment.
      if ((direct ? envPairs !== undefined : envPairs !== null) && !Array.isArray(envPairs)) {
        throw errors.invalidArgType('options.envPairs', 'Array', envPairs);
      }
      envPairs = envPairsOf(envPairs);
      envPairs.push(`NODE_CHANNEL_FD=${ipc}`, `NODE_CHANNEL_SERIALIZATION_MODE=${serialization || 'json'}`);
    }
    errors.validateString(options.file, 'options.file');
    this.spawnfile = options.file;
    if (options.args === undefined) this.spawnargs = [];
    else if (!Array.isArray(options.args)) throw errors.invalidArgType('options.args', 'Array', options.args);
    else this.spawnargs = options.args;
    const argv = this.spawnargs.length > 0 ? this.spawnargs : [this.spawnfile];
    if ((options.uid != null || options.gid != null) && credentialsDenied(options.uid, options.gid)) {
      throw errors.errnoError(-1, 'spawn');
    }

    let flags = 0;
    if (options.contain != null) errors.validateBoolean(options.contain, 'options.contain');
    if (options.contain) flags |= FLAG_CONTAIN;
    this._contained = !!options.contain;
    const pipeAs = options.pipeAs;
    if (pipeAs !== undefined) validatePipeAs(pipeAs);
    const readable = pipeAs === 'readable';
    if (readable) flags |= FLAG_READABLE;
    const strings = encodeRequest(this.spawnfile, argv, envPairs, options, flags, kinds, fdArgs);
    const nfds = kinds.length;
    if (childDenied) throw errors.accessDenied('ChildProcess', this.spawnfile);
    const id = addon.spawn(strings, io);
    if (id < 0) {
      const err = errors.errnoError(id, 'spawn');
      if (!RUNTIME_ERRORS.has(err.code)) throw err;
      // Like Node: the 'error' comes on the next tick; after EMFILE or
      // ENFILE the child has no stdio properties at all.
      this._state = FAILED;
      this._errno = id;
      this._known = true;
      process.nextTick(() => this._emitFailure());
      if (NO_STDIO_ERRORS.has(err.code)) {
        this._noStdio = true;
        return id;
      }
      this.pid = undefined;
      this.stdin = null;
      this.stdout = null;
      this.stderr = null;
      this.stdio = kinds.map(() => null);
      return id;
    }

    retiredTaken();
    // Coalesced delivery: records of other children wait (io[0], 1 or 0,
    // set by the addon from the process-wide setting, whichever thread
    // made it): taken at the end of this macrotask.
    if (io[0] === 1) collectSoon();
    this._id = id;
    children.set(id, this);
    // Ref'd (keeping the loop alive) by the native side until its end.
    this._live = true;
    if (wraps !== null) stopReading(wraps);
    if (nfds === 3 && ipc === -1 && (kinds[0] === K_PIPE || kinds[1] === K_PIPE || kinds[2] === K_PIPE)) {
      let mask = 0;
      for (let i = 0; i < 3; i++) if (kinds[i] === K_PIPE) mask |= 1 << i;
      if (mask & 1) {
        this._stdinFd = io[HEADER + 1];
        this._stdin = undefined;
      }
      if (mask & 2) {
        if (readable) this._setupReadable(1);
        else {
          this._closesNeeded++;
          this._fd1 = io[HEADER + 3];
        }
      }
      if (mask & 4) {
        if (readable) this._setupReadable(2);
        else {
          this._closesNeeded++;
          this._fd2 = io[HEADER + 5];
        }
      }
      this._pipedMask = mask;
      this._stdioLazy = true;
      // One defineProperty per accessor and plain stores for the rest:
      // cheaper than one defineProperties call over a descriptor map
      // (which reads each descriptor's six fields and always defines).
      Object.defineProperty(this, 'pid', pidProperty);
      if (mask & 1) Object.defineProperty(this, 'stdin', stdinProperty);
      else this.stdin = null;
      if (mask & 2) Object.defineProperty(this, 'stdout', stdoutProperty);
      else this.stdout = null;
      if (mask & 4) Object.defineProperty(this, 'stderr', stderrProperty);
      else this.stderr = null;
      Object.defineProperty(this, 'stdio', stdioLazyProperty);
      return 0;
    }
    Object.defineProperty(this, 'pid', pidProperty);

    const stdio = new Array(nfds).fill(null);
    stdio[kOwner] = this;
    let stdinPiped = false;
    for (let i = 0; i < nfds; i++) {
      if (kinds[i] !== K_PIPE || i === ipc) continue;
      const fd = io[HEADER + 2 * i + 1];
      if (i === 0) {
        stdinPiped = true;
        this._stdinFd = fd;
        this._stdin = undefined;
        Object.defineProperty(stdio, 0, stdioProperties[0]);
        continue;
      }
      if (readable && i <= 2) {
        this._setupReadable(i);
        Object.defineProperty(stdio, i, stdioProperties[i]);
        continue;
      }
      this._closesNeeded++;
      if (i <= 2) {
        if (i === 1) this._fd1 = fd;
        else this._fd2 = fd;
        Object.defineProperty(stdio, i, stdioProperties[i]);
        continue;
      }
      stdio[i] = this._wrapOutput(fd, i);
    }
    if (stdinPiped) Object.defineProperty(this, 'stdin', stdinProperty);
    else this.stdin = null;
    if (this._fd1 !== -1 || (this._ro !== null && this._ro.r1 !== null)) Object.defineProperty(this, 'stdout', stdoutProperty);
    else this.stdout = null;
    if (this._fd2 !== -1 || (this._ro !== null && this._ro.r2 !== null)) Object.defineProperty(this, 'stderr', stderrProperty);
    else this.stderr = null;
    this.stdio = stdio;
    if (ipc !== -1) {
      this._closesNeeded++;
      ipcModule ||= require('./ipc');
      ipcModule.setupChannel(this, io[HEADER + 2 * ipc + 1], serialization || 'json');
    }
    return 0;
  }

  // Data on a stream of a pending child proves that the program runs (the
  // child writes nothing before its execve succeeded): 'spawn' is emitted
  // before the data, as in Node, without waiting for the spawner thread's
  // report. An end of stream proves nothing (a failed spawn closes the
  // child's end too): it is held back until the report comes. Returns
  // whether the stream may take the chunk now.
  _admit(stream, chunk) {
    const result = addon.trySpawn(this._id);
    if (result !== 0) this._settle(result);
    else if (chunk !== null) this._state = RUNNING;
    else {
      (this._heldEnds ||= []).push(stream);
      return false;
    }
    this._emitSettled();
    return true;
  }

  // Records the spawn's outcome: a pid (> 0) or -errno (< 0).
  _settle(result) {
    if (result > 0) {
      this._pid = result;
      this._known = true;
      if (this._state === PENDING) this._state = RUNNING;
    } else if (result < 0 && this._state === PENDING) {
      this._errno = result;
      this._known = true;
      this._state = FAILED;
    }
  }

  // Waits for the spawner thread's report if it has not come yet.
  _settleNow() {
    if (this._known || this._id === 0) return;
    this._settle(addon.waitSpawn(this._id));
    // The events stay asynchronous: a listener added after this still
    // gets them ('spawn' still comes before the 'exit' that follows, which
    // is a later batch).
    process.nextTick(() => this._emitSettled());
  }

  _emitSettled() {
    if (this._state === FAILED) {
      this._emitFailure();
      return;
    }
    if (this._state === PENDING) return;
    this._emitSpawn();
    const held = this._heldEnds;
    if (held) {
      this._heldEnds = null;
      for (const stream of held) stream.push(null);
    }
  }

  _emitSpawn() {
    if (this._spawnEmitted || this._state === PENDING || this._state === FAILED) return;
    this._spawnEmitted = true;
    this.emit('spawn');
  }

  // Its end: the native side stopped counting it when it handed JS the
  // record (or will with the failure's).
  _release() {
    this._live = false;
  }

  _emitFailure() {
    if (this._treeWaiters !== null) this._onTreeEmpty(errors.errnoError(this._errno, 'waitTree'));
    if (this._failureEmitted) return;
    this._failureEmitted = true;
    this._release();
    const code = errors.errnoName(this._errno);
    let err;
    if (RUNTIME_ERRORS.has(code)) {
      err = errors.errnoError(this._errno, `spawn ${this.spawnfile}`);
      err.path = this.spawnfile;
      err.spawnargs = this.spawnargs.slice(1);
    } else {
      // Node throws these from spawn(); they can only be known later here.
      err = errors.errnoError(this._errno, 'spawn');
    }
    this.exitCode = this._errno;
    // The streams never had a child on the other end: their 'close' (on a
    // later tick) is what 'close' waits for, as in Node. After EMFILE or
    // ENFILE Node has made no streams: 'close' follows 'error' at once.
    this._closeStdin();
    if (NO_STDIO_ERRORS.has(code)) this._noStdio = true;
    if (this._ro !== null) this._failReadable();
    this._closeLazy(1);
    this._closeLazy(2);
    const stdio = stdioOf(this);
    if (stdio) {
      for (let i = 1; i < stdio.length; i++) {
        if ((i === 1 && this._fd1 === -2) || (i === 2 && this._fd2 === -2)) continue;
        if (this._ro !== null && ((i === 1 && this._ro.r1 !== null) || (i === 2 && this._ro.r2 !== null))) continue;
        if (stdio[i]) stdio[i].destroy();
      }
    }
    // The IPC channel sees its end of stream ('disconnect'), except after
    // EMFILE, where it never existed for Node.
    if (NO_STDIO_ERRORS.has(code) && this._ipc) this._ipc.destroy();
    if (NO_STDIO_ERRORS.has(code) && Object.hasOwn(this, 'stdio')) {
      this._closesNeeded = 1;
      this._closesGot = 0;
      this.connected = false;
      for (const name of ['stdin', 'stdout', 'stderr', 'stdio']) delete this[name];
    }
    this.emit('error', err);
    process.nextTick(flushStdio, this);
    maybeClose(this);
  }

  _onExit(code, signal) {
    // A forked child's exit waits for its channel's end (see ipc.js).
    if (this._exitAfterChannel !== null && this._exitAfterChannel(() => this._onExitNow(code, signal))) {
      this._exitHeld = true;
      return;
    }
    this._onExitNow(code, signal);
  }

  _onExitNow(code, signal) {
    this._exitHeld = false;
    // The tree's end, reported while the exit was held, comes after the
    // 'exit' listeners, as it does when the two come in one batch.
    if (this._treeEmptyHeld) {
      this._treeEmptyHeld = false;
      process.nextTick(() => this._onTreeEmpty());
    }
    this._emitSettled();
    this._state = EXITED;
    this._release();
    if (signal > 0) this.signalCode = errors.signalNames.get(signal) || signal;
    else if (code >= 0) this.exitCode = code;
    // stdin is closed for JS now (as Node destroys it); an end never
    // wrapped in a stream is given up with the outputs' drain, below.
    if (this._stdin) this._stdin.destroy();
    else if (this._stdinFd >= 0) {
      this._stdinGivenUp = this._stdinFd;
      this._stdinFd = -1;
    }
    // Queued before the 'exit' listeners run, so that it comes before
    // their promise reactions, as Node's tick does; run only if they all
    // returned (a throwing listener skips it, as it skips Node's tick).
    if (this._ro !== null) this._holdOpenOutputs();
    const lazy = onlyLazyEnds(this);
    if (lazy) resolved.then(() => drainLazyEnds(this));
    this.emit('exit', this.exitCode, this.signalCode);
    if (lazy) this._exitDone = true;
    else if (hasStdio(this)) process.nextTick(flushStdio, this);
    else if (this._stdinGivenUp >= 0) {
      closeFd(this._stdinGivenUp);
      this._stdinGivenUp = -1;
    }
    maybeClose(this);
  }

  // contain: true. Signals every process of the child's tree (its own
  // cgroup, or the session fallback), through the core's Child::kill_tree.
  killTree(sig) {
    const signal = errors.toSignalNumber(sig === undefined ? 'SIGTERM' : sig);
    if (!this._contained) throw errors.notContained('killTree');
    this._settleNow();
    if (this._state === PENDING || this._state === FAILED || this._treeEmpty) return false;
    const result = addon.killTree(this._id, signal);
    if (result === 0) return true;
    const err = errors.errnoError(result, 'killTree');
    if (err.code === 'ESRCH') return false;
    throw err;
  }

  // contain: true. Resolves once the child has exited and every process of
  // its tree with it; keeps the event loop alive meanwhile.
  waitTree() {
    if (!this._contained) return Promise.reject(errors.notContained('waitTree'));
    if (this._treeEmpty) return Promise.resolve();
    if (this._state === FAILED) return Promise.reject(errors.errnoError(this._errno, 'waitTree'));
    return new Promise((resolve, reject) => {
      if (this._treeWaiters === null) {
        this._treeWaiters = [];
        hold(1);
      }
      this._treeWaiters.push({ resolve, reject });
    });
  }

  // The native side saw the tree empty (after the exit), or the spawn failed.
  _onTreeEmpty(err = null) {
    if (this._exitHeld && err === null) {
      this._treeEmptyHeld = true;
      return;
    }
    this._treeEmpty = err === null;
    const waiters = this._treeWaiters;
    if (waiters === null) return;
    this._treeWaiters = null;
    hold(-1);
    for (const { resolve, reject } of waiters) {
      if (err === null) resolve();
      else reject(err);
    }
  }

  kill(sig) {
    const signal = sig === 0 ? 0 : errors.toSignalNumber(sig === undefined ? 'SIGTERM' : sig);
    this._settleNow();
    if (this._state !== RUNNING) return false;
    const result = addon.kill(this._id, signal);
    if (result === 0) {
      this.killed = true;
      return true;
    }
    const err = errors.errnoError(result, 'kill');
    if (err.code === 'ESRCH') return false;
    if (err.code === 'EINVAL' || err.code === 'ENOSYS') throw err;
    this.emit('error', err);
    return false;
  }

  ref() {
    if (this._refed) return;
    this._refed = true;
    if (this._live) addon.childRef(this._id, true);
  }

  unref() {
    if (!this._refed) return;
    this._refed = false;
    if (this._live) addon.childRef(this._id, false);
  }
}

if (typeof Symbol.dispose === 'symbol') {
  ChildProcess.prototype[Symbol.dispose] = function dispose() {
    if (!this.killed) this.kill();
  };
}

function abortChild(child, killSignal, reason) {
  try {
    const sent = child.kill(killSignal);
    // Node has emitted 'spawn' by now (the abort comes a tick or more
    // after spawn()): so does this, before the AbortError.
    child._emitSettled();
    if (sent) child.emit('error', new errors.AbortError(undefined, { cause: reason }));
  } catch (err) {
    child.emit('error', err);
  }
}

function spawn(file, args, options) {
  options = normalizeSpawnArguments(file, args, options);
  errors.validateTimeout(options.timeout);
  errors.validateAbortSignal(options.signal, 'options.signal');
  const killSignal = errors.sanitizeKillSignal(options.killSignal);
  const child = new ChildProcess();
  child.spawn(options);

  if (options.timeout > 0) {
    let timer = setTimeout(() => {
      timer = null;
      try {
        child.kill(killSignal);
      } catch (err) {
        child.emit('error', err);
      }
    }, options.timeout);
    child.once('exit', () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    });
  }

  const signal = options.signal;
  if (signal) {
    const onAbort = () => abortChild(child, killSignal, signal.reason);
    if (signal.aborted) process.nextTick(onAbort);
    else {
      signal.addEventListener('abort', onAbort, { once: true });
      child.once('exit', () => signal.removeEventListener('abort', onAbort));
    }
  }
  return child;
}

// setDelivery({ within, count }): coalesced delivery of the children's
// events, process-wide (README, "setDelivery"). `within`: µs a record may
// wait while other children of the process run (0: off, the default; at
// most 100,000); `count`: it waits no longer once that many records wait
// (default 64). Returns the previous setting.
function setDelivery(options) {
  errors.validateObject(options, 'options');
  let within = 0;
  let count = 64;
  if (Object.hasOwn(options, 'within') && options.within !== undefined) within = options.within;
  if (Object.hasOwn(options, 'count') && options.count !== undefined) count = options.count;
  if (typeof within !== 'number') throw errors.invalidArgType('options.within', 'number', within);
  if (!Number.isInteger(within) || within < 0 || within > 100000) {
    throw errors.outOfRange('options.within', 'an integer >= 0 && <= 100000', within);
  }
  if (typeof count !== 'number') throw errors.invalidArgType('options.count', 'number', count);
  if (!Number.isInteger(count) || count < 1 || count > 2 ** 31 - 1) {
    throw errors.outOfRange('options.count', 'an integer >= 1 && <= 2147483647', count);
  }
  const [previousWithin, previousCount] = addon.eventDelivery();
  addon.setEventDelivery(within, count);
  return { within: previousWithin, count: previousCount };
}

// Whether Node's permission model forbids this process to spawn.
function spawnDenied() {
  return childDenied;
}

module.exports = {
  encodeRequest,
  normalizeStdio,
  requestIo,
  spawnDenied,
  pipeHandleClass,
  setDelivery,
  ChildProcess,
  maybeClose,
  spawn,
  normalizeSpawnArguments,
};
