'use strict';
// execFile() and exec(): spawn() plus output collection, with
// node:child_process's callback, error and promisify behaviour.

const { promisify } = require('node:util');

const errors = require('./errors');
const { spawn } = require('./child_process');

const DEFAULT_MAX_BUFFER = 1024 * 1024;

// execFile(file[, args][, options][, callback]) → the four, sorted out.
function normalizeExecFileArgs(file, args, options, callback) {
  if (Array.isArray(args)) {
    args = args.slice();
  } else if (args != null && typeof args === 'object') {
    callback = options;
    options = args;
    args = null;
  } else if (typeof args === 'function') {
    callback = args;
    options = null;
    args = null;
  }
  if (args == null) args = [];
  if (typeof options === 'function') callback = options;
  else if (options != null) errors.validateObject(options, 'options');
  if (options == null) options = {};
  if (callback != null) errors.validateFunction(callback, 'callback');
  if (options.argv0 != null) {
    errors.validateString(options.argv0, 'options.argv0');
    errors.validateNoNul(options.argv0, 'options.argv0');
  }
  return { file, args, options, callback };
}

// Collects one output stream up to maxBuffer; past it, calls onOverflow.
function collect(stream, maxBuffer, onOverflow) {
  const chunks = [];
  let length = 0;
  stream.on('data', (chunk) => {
    const encoding = stream.readableEncoding;
    const size = encoding ? Buffer.byteLength(chunk, encoding) : chunk.length;
    length += size;
    if (length > maxBuffer) {
      chunks.push(chunk.slice(0, maxBuffer - (length - size)));
      onOverflow();
    } else {
      chunks.push(chunk);
    }
  });
  return () => (stream.readableEncoding ? chunks.join('') : Buffer.concat(chunks));
}

function execFile(file, args, options, callback) {
  ({ file, args, options, callback } = normalizeExecFileArgs(file, args, options, callback));
  // Own properties only (see normalizeSpawnArguments).
  options = {
    __proto__: null,
    encoding: 'utf8',
    timeout: 0,
    maxBuffer: DEFAULT_MAX_BUFFER,
    killSignal: 'SIGTERM',
    cwd: null,
    env: null,
    shell: false,
    ...options,
  };
  errors.validateTimeout(options.timeout);
  errors.validateMaxBuffer(options.maxBuffer);
  options.killSignal = errors.sanitizeKillSignal(options.killSignal);

  const child = spawn(file, args, {
    contain: options.contain,
    cwd: options.cwd,
    env: options.env,
    gid: options.gid,
    pipeAs: options.pipeAs,
    shell: options.shell,
    signal: options.signal,
    uid: options.uid,
    windowsHide: !!options.windowsHide,
    windowsVerbatimArguments: !!options.windowsVerbatimArguments,
  });

  const encoding = options.encoding !== 'buffer' && Buffer.isEncoding(options.encoding) ? options.encoding : null;
  let failure = null;
  let killedHere = false;
  let done = false;
  let timer = null;

  const stopStreams = () => {
    if (child.stdout) child.stdout.destroy();
    if (child.stderr) child.stderr.destroy();
  };
  const empty = () => (encoding ? '' : Buffer.alloc(0));
  let stdoutOf = empty;
  let stderrOf = empty;

  const finish = (code, signal) => {
    if (done) return;
    done = true;
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    if (!callback) return;
    const stdout = stdoutOf();
    const stderr = stderrOf();
    if (failure === null && code === 0 && signal === null) {
      callback(null, stdout, stderr);
      return;
    }
    let cmd = file;
    if (args.length > 0) cmd += ` ${args.join(' ')}`;
    if (failure === null) {
      failure = new Error(`Command failed: ${cmd}\n${stderr}`);
      failure.code = code < 0 ? errors.errnoName(code) : code;
      failure.killed = child.killed || killedHere;
      failure.signal = signal;
    }
    failure.cmd = cmd;
    callback(failure, stdout, stderr);
  };

  const kill = () => {
    stopStreams();
    killedHere = true;
    try {
      child.kill(options.killSignal);
    } catch (err) {
      failure = err;
      finish();
    }
  };

  if (options.timeout > 0) {
    timer = setTimeout(() => {
      timer = null;
      kill();
    }, options.timeout);
  }

  const overflow = (name) => () => {
    failure = errors.maxBufferExceeded(name);
    kill();
  };
  if (child.stdout) {
    if (encoding) child.stdout.setEncoding(encoding);
    stdoutOf = collect(child.stdout, options.maxBuffer, overflow('stdout'));
  }
  if (child.stderr) {
    if (encoding) child.stderr.setEncoding(encoding);
    stderrOf = collect(child.stderr, options.maxBuffer, overflow('stderr'));
  }

  child.addListener('close', finish);
  child.addListener('error', (err) => {
    failure = err;
    stopStreams();
    finish();
  });
  return child;
}

function normalizeExecArgs(command, options, callback) {
  errors.validateString(command, 'command');
  errors.validateNoNul(command, 'command');
  if (typeof options === 'function') {
    callback = options;
    options = undefined;
  }
  options = { __proto__: null, ...options };
  options.shell = typeof options.shell === 'string' ? options.shell : true;
  return { file: command, options, callback };
}

function exec(command, options, callback) {
  const normalized = normalizeExecArgs(command, options, callback);
  return execFile(normalized.file, normalized.options, normalized.callback);
}

// util.promisify(execFile / exec): resolves { stdout, stderr }; rejects
// with the error carrying them; the promise has the child as `.child`. A
// bad argument throws synchronously, as with Node (the call is made
// outside the promise's executor).
function promisified(fn) {
  return (...args) => {
    let resolve;
    let reject;
    const promise = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.child = fn(...args, (err, stdout, stderr) => {
      if (err !== null) {
        err.stdout = stdout;
        err.stderr = stderr;
        reject(err);
      } else {
        resolve({ stdout, stderr });
      }
    });
    return promise;
  };
}

Object.defineProperty(execFile, promisify.custom, { enumerable: false, value: promisified(execFile) });
Object.defineProperty(exec, promisify.custom, { enumerable: false, value: promisified(exec) });

module.exports = { exec, execFile, normalizeExecArgs, normalizeExecFileArgs };
