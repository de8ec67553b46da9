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

const EventEmitter = require('node:events');
const fs = require('node:fs');
const net = require('node:net');
const { fileURLToPath } = require('node:url');
const { isMainThread } = require('node:worker_threads');

const errors = require('./errors');
const { addon, children, hold } = require('./native');

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

// The request's numbers, reused by every spawn (grown when a call maps
// more fds).
let io = new Int32Array(HEADER + 2 * 16);

// On Node's main thread process.env *is* the process environment (writes
// go through setenv), so an unset `env` lets the addon use its snapshot of
// it instead of enumerating process.env here (~30 µs with 35 variables).
// A worker's process.env is a copy, and Bun's and Deno's are their own
// objects: there, the pairs are built from process.env as Node does.
const envIsEnviron = isMainThread && !process.versions.bun && !process.versions.deno;

// Bun's net.Socket ignores an `fd` option (it never reads from it), while
// its fs streams read and write any fd: on Bun the parent's ends are fs
// streams (readable for the child's output fds, writable for its stdin).
const isBun = typeof process.versions.bun === 'string';

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

// The parent's end of child fd `i`, as a stream; `child` for the ends the
// child writes to.
function pipeEnd(fd, i, child = null) {
  if (isBun) {
    return i === 0 ? fs.createWriteStream(null, { fd, autoClose: true }) : new ChildReadStream(fd, child);
  }
  return new ChildSocket({ fd, readable: i > 0, writable: true }, child);
}

function validatedPath(value, name) {
  let path = value;
  if (typeof path !== 'string') {
    if (path instanceof URL) path = fileURLToPath(path);
    else if (path instanceof Uint8Array) path = Buffer.from(path.buffer, path.byteOffset, path.byteLength).toString();
    else throw errors.invalidArgType(name, ['string', 'Buffer', 'URL'], value);
  }
  if (path.includes('\u0000')) {
    throw errors.invalidArgValue(name, path, 'must be a string, Uint8Array, or URL without null bytes');
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
  if (options === undefined) options = {};
  else errors.validateObject(options, 'options');

  let cwd = options.cwd;
  if (cwd != null) cwd = validatedPath(cwd, 'options.cwd');
  if (options.detached != null) errors.validateBoolean(options.detached, 'options.detached');
  if (options.uid != null && !errors.isInt32(options.uid)) throw errors.invalidArgType('options.uid', 'int32', options.uid);
  if (options.gid != null && !errors.isInt32(options.gid)) throw errors.invalidArgType('options.gid', 'int32', options.gid);
  const shell = options.shell;
  if (shell != null && typeof shell !== 'boolean' && typeof shell !== 'string') {
    throw errors.invalidArgType('options.shell', ['boolean', 'string'], shell);
  }
  if (options.argv0 != null) {
    errors.validateString(options.argv0, 'options.argv0');
    errors.validateNoNul(options.argv0, 'options.argv0');
  }
  if (options.windowsHide != null) errors.validateBoolean(options.windowsHide, 'options.windowsHide');
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
  if (options.env || !envIsEnviron) {
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

  return {
    ...options,
    file,
    args,
    cwd,
    envPairs,
    detached: !!options.detached,
  };
}

// options.stdio → [kinds, args]; throws Node's errors for bad entries.
function normalizeStdio(stdio) {
  if (stdio == null) stdio = 'pipe';
  if (typeof stdio === 'string') {
    if (stdio !== 'ignore' && stdio !== 'pipe' && stdio !== 'inherit' && stdio !== 'overlapped') {
      throw errors.invalidArgValue('stdio', stdio);
    }
    stdio = [stdio, stdio, stdio];
  } else if (!Array.isArray(stdio)) {
    throw errors.invalidArgValue('stdio', stdio);
  }
  const n = Math.max(stdio.length, 3);
  const kinds = new Array(n);
  const args = new Array(n).fill(0);
  for (let i = 0; i < n; i++) {
    let entry = stdio[i];
    if (entry == null) entry = i < 3 ? 'pipe' : 'ignore';
    if (entry === 'pipe' || entry === 'overlapped') kinds[i] = K_PIPE;
    else if (entry === 'ignore') kinds[i] = K_IGNORE;
    else if (entry === 'inherit') kinds[i] = K_INHERIT;
    else if (entry === 'ipc') throw errors.ipcUnsupported();
    else if (typeof entry === 'number' || (typeof entry === 'object' && typeof entry.fd === 'number')) {
      const fd = typeof entry === 'number' ? entry : entry.fd;
      // A negative fd is "nothing", which is /dev/null for 0-2.
      if (fd < 0) kinds[i] = K_IGNORE;
      else {
        kinds[i] = K_FD;
        args[i] = fd;
      }
    } else if (typeof entry === 'string' || ArrayBuffer.isView(entry)) {
      throw errors.invalidSyncForkInput(entry);
    } else {
      throw errors.invalidArgValue('stdio', entry);
    }
  }
  return [kinds, args];
}

// After the child's exit: streams nobody reads are drained so that they
// reach their end and close (and with them the child).
function flushStdio(child) {
  const stdio = child.stdio;
  if (stdio == null) return;
  for (const stream of stdio) {
    if (!stream || !stream.readable) continue;
    const state = stream._readableState;
    const listened = state
      ? state.readableListening
      : stream.readableFlowing !== null || stream.listenerCount('data') > 0 || stream.listenerCount('readable') > 0;
    if (!listened) stream.resume();
  }
}

function maybeClose(child) {
  child._closesGot++;
  if (child._closesGot === child._closesNeeded) child.emit('close', child.exitCode, child.signalCode);
}

class ChildProcess extends EventEmitter {
  constructor() {
    super();
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
    this.stdout = null;
    this.stderr = null;
    this.stdio = null;
    this._id = 0;
    this._state = PENDING;
    this._pid = undefined;
    this._errno = 0;
    this._live = false;
    this._refed = true;
    this._known = false;
    this._spawnEmitted = false;
    this._failureEmitted = false;
    this._heldEnds = null;
  }

  // The pid. Node knows it when spawn() returns; here the spawner thread
  // may not have reported yet, and then reading it waits for that (the
  // spawn is already under way: a few tens of microseconds at most).
  get pid() {
    this._settleNow();
    return this._pid;
  }

  set pid(value) {
    this._pid = value;
  }

  // stdin's socket is made when first used: most children started by a
  // server never get input, and a socket costs ~25 µs to make and destroy.
  get stdin() {
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
  }

  set stdin(value) {
    this._stdin = value;
  }

  // Closes stdin: the socket if it was made, else the fd.
  _closeStdin() {
    if (this._stdin) this._stdin.destroy();
    else if (this._stdinFd >= 0) {
      addon.closeFd(this._stdinFd);
      this._stdinFd = -1;
    }
  }

  spawn(options) {
    errors.validateObject(options, 'options');
    const [kinds, fdArgs] = normalizeStdio(options.stdio);
    errors.validateString(options.file, 'options.file');
    this.spawnfile = options.file;
    if (options.args === undefined) this.spawnargs = [];
    else if (!Array.isArray(options.args)) throw errors.invalidArgType('options.args', 'Array', options.args);
    else this.spawnargs = options.args;
    const argv = this.spawnargs.length > 0 ? this.spawnargs : [this.spawnfile];

    const nfds = kinds.length;
    if (io.length < HEADER + 2 * nfds) io = new Int32Array(HEADER + 2 * nfds);
    let strings = `${asArg(this.spawnfile)}\u0000${options.cwd != null ? asArg(options.cwd) : ''}`;
    for (let i = 0; i < argv.length; i++) strings += `\u0000${asArg(argv[i])}`;
    const envPairs = options.envPairs;
    if (envPairs != null) for (let i = 0; i < envPairs.length; i++) strings += `\u0000${asArg(envPairs[i])}`;
    io[0] = argv.length;
    io[1] = envPairs != null ? envPairs.length : -1;
    let flags = 0;
    if (options.cwd != null) flags |= FLAG_CWD;
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

    const id = addon.spawn(strings, io);
    if (id < 0) {
      const err = errors.errnoError(id, 'spawn');
      if (!RUNTIME_ERRORS.has(err.code)) throw err;
      // Like Node: the 'error' comes on the next tick, and the child has
      // no streams.
      this._state = FAILED;
      this._errno = id;
      this._known = true;
      this.stdio = kinds.map(() => null);
      process.nextTick(() => this._emitFailure());
      return id;
    }

    this._id = id;
    children.set(id, this);
    this._live = true;
    hold(1);

    const stdio = new Array(nfds).fill(null);
    for (let i = 0; i < nfds; i++) {
      if (kinds[i] !== K_PIPE) continue;
      const fd = io[HEADER + 2 * i + 1];
      if (i === 0) {
        this._stdinFd = fd;
        this._stdin = undefined;
        Object.defineProperty(stdio, 0, {
          configurable: true,
          enumerable: true,
          get: () => this.stdin,
          set: (value) => {
            Object.defineProperty(stdio, 0, { value, writable: true, enumerable: true, configurable: true });
          },
        });
        continue;
      }
      const socket = pipeEnd(fd, i, this);
      stdio[i] = socket;
      this._closesNeeded++;
      socket.on('close', () => {
        if (this._state !== FAILED) maybeClose(this);
      });
    }
    this.stdio = stdio;
    this.stdout = stdio[1];
    this.stderr = stdio[2];
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

  _release() {
    if (!this._live) return;
    this._live = false;
    if (this._refed) hold(-1);
  }

  _emitFailure() {
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
    // The streams never had a child on the other end.
    this._closeStdin();
    if (this.stdio) for (let i = 1; i < this.stdio.length; i++) if (this.stdio[i]) this.stdio[i].destroy();
    this._closesNeeded = 1;
    this._closesGot = 0;
    this.emit('error', err);
    maybeClose(this);
  }

  _onExit(code, signal) {
    this._emitSettled();
    this._state = EXITED;
    this._release();
    if (signal > 0) this.signalCode = errors.signalNames.get(signal) || signal;
    else if (code >= 0) this.exitCode = code;
    this._closeStdin();
    this.emit('exit', this.exitCode, this.signalCode);
    process.nextTick(flushStdio, this);
    maybeClose(this);
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
    if (this._live) hold(1);
  }

  unref() {
    if (!this._refed) return;
    this._refed = false;
    if (this._live) hold(-1);
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

module.exports = {
  ChildProcess,
  spawn,
  normalizeSpawnArguments,
};
