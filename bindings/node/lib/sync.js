'use strict';
// spawnSync(), execFileSync() and execSync(): node:child_process's
// synchronous functions, with the child started by fastspawn's clone on
// the calling thread (which they block, as Node's do) instead of libuv's
// fork of the whole process. The run itself is native (src/sync.rs): the
// request spawn() encodes, `input` written to a piped stdin, the piped
// outputs read until the child has exited and they have ended, `timeout`
// and `maxBuffer` enforced with `killSignal`.

const errors = require('./errors');
const { addon } = require('./native');
const { encodeRequest, normalizeSpawnArguments, normalizeStdio, requestIo, spawnDenied } = require('./child_process');
const { normalizeExecArgs, normalizeExecFileArgs } = require('./exec');

const DEFAULT_MAX_BUFFER = 1024 * 1024;
const SIGTERM = 15;

// The options spawnSync() reads that spawn() does not, as own properties
// of the caller's options object (which is `args` when that is an object).
function syncOptions(args, options) {
  const given = args != null && typeof args === 'object' && !Array.isArray(args) ? args : options;
  const has = (key) => given != null && Object.hasOwn(given, key);
  const own = (key) => (has(key) ? given[key] : undefined);
  // Node's default maxBuffer is replaced by any own maxBuffer, even
  // undefined or null, which then mean no limit.
  const maxBuffer = has('maxBuffer') ? given.maxBuffer : DEFAULT_MAX_BUFFER;
  return { input: own('input'), maxBuffer, encoding: own('encoding') };
}

// `input` as bytes: a Buffer, TypedArray or DataView as it is, a string
// in `encoding`; anything else is Node's ERR_INVALID_ARG_TYPE.
function inputBytes(input, encoding, name) {
  if (ArrayBuffer.isView(input)) return Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (typeof input === 'string') return Buffer.from(input, encoding);
  throw errors.invalidArgType(name, ['Buffer', 'TypedArray', 'DataView', 'string'], input);
}

function spawnSync(file, args, options) {
  const extra = syncOptions(args, options);
  const normalized = normalizeSpawnArguments(file, args, options);
  errors.validateTimeout(normalized.timeout);
  const maxBuffer = extra.maxBuffer;
  errors.validateMaxBuffer(maxBuffer);
  // As Node's: 0 (like none and Infinity) is no limit.
  const limit = typeof maxBuffer === 'number' && maxBuffer > 0 && maxBuffer !== Infinity ? maxBuffer : -1;
  const killSignal = errors.sanitizeKillSignal(normalized.killSignal) ?? SIGTERM;
  const { kinds, args: fdArgs, ipc } = normalizeStdio(normalized.stdio);
  if (ipc !== -1) throw errors.ipcSyncFork();
  // As Node: a falsy input is no input.
  const input = extra.input ? inputBytes(extra.input, extra.encoding, 'options.stdio[0]') : null;
  if (spawnDenied()) throw errors.accessDenied('ChildProcess', normalized.file);

  const argv = normalized.args;
  const strings = encodeRequest(normalized.file, argv, normalized.envPairs, normalized, 0, kinds, fdArgs);
  const run = addon.spawnSync(strings, requestIo(), input, normalized.timeout || 0, limit, killSignal);

  // The fields in Node's order (`error` first when there is one).
  const result = run.errno !== 0 ? { error: null } : {};
  Object.assign(result, {
    status: null,
    signal: null,
    output: null,
    pid: run.pid,
    stdout: null,
    stderr: null,
  });
  const started = run.pid !== 0;
  if (started) {
    result.status = run.signal !== 0 ? null : run.status;
    result.signal = run.signal !== 0 ? errors.signalNames.get(run.signal) || null : null;
    const encoding = extra.encoding;
    result.output = run.outputs.map((bytes) => {
      if (bytes == null) return null;
      return encoding && encoding !== 'buffer' ? bytes.toString(encoding) : bytes;
    });
    result.stdout = result.output[1] ?? null;
    result.stderr = result.output[2] ?? null;
  } else if (errors.nodeMajor >= 22) {
    // From Node 22 a run that did not start has stdout and stderr
    // undefined (the keys stay); Node 18 and 20 have null.
    result.stdout = undefined;
    result.stderr = undefined;
  }
  if (run.errno !== 0) {
    const err = errors.errnoError(run.errno, `spawnSync ${normalized.file}`);
    err.path = normalized.file;
    err.spawnargs = argv.slice(1);
    result.error = err;
  }
  return result;
}

// The error execFileSync() and execSync() throw for a run: its own error,
// or "Command failed" for a non-zero exit or a signal; the run's fields
// are copied onto it, as Node does.
function checkExecSyncError(ret, args, cmd) {
  let err;
  if (ret.error) {
    err = ret.error;
    Object.assign(err, ret);
  } else if (ret.status !== 0) {
    let message = `Command failed: ${cmd || args.join(' ')}`;
    if (ret.stderr && ret.stderr.length > 0) message += `\n${ret.stderr.toString()}`;
    err = new Error(message);
    Object.assign(err, ret);
  }
  return err;
}

function execFileSync(file, args, options) {
  const normalized = normalizeExecFileArgs(file, args, options);
  const inheritStderr = !normalized.options.stdio;
  const ret = spawnSync(normalized.file, normalized.args, normalized.options);
  if (inheritStderr && ret.stderr) process.stderr.write(ret.stderr);
  const errArgs = [normalized.options.argv0 || normalized.file, ...normalized.args];
  const err = checkExecSyncError(ret, errArgs);
  if (err) throw err;
  return ret.stdout;
}

function execSync(command, options) {
  const normalized = normalizeExecArgs(command, options, null);
  const inheritStderr = !normalized.options.stdio;
  const ret = spawnSync(normalized.file, normalized.options);
  if (inheritStderr && ret.stderr) process.stderr.write(ret.stderr);
  const err = checkExecSyncError(ret, undefined, command);
  if (err) throw err;
  return ret.stdout;
}

module.exports = { execFileSync, execSync, spawnSync };
