'use strict';
// Errors shaped like node:child_process's: the same classes, `code`s and
// message wording (the tests compare them with Node's for the same calls),
// built only from public APIs so that they work on Bun and Deno too.

const util = require('node:util');
const os = require('node:os');

// The Node.js major whose node:child_process this package follows: its
// messages and a few details changed between majors (README, "Node
// versions"), and the tests compare with the running Node's. Bun and Deno
// keep what the package does on Node 20.
const nodeMajor = process.versions.bun || process.versions.deno ? 20 : Number.parseInt(process.versions.node, 10);

const errnoNames = new Map(Object.entries(os.constants.errno).map(([name, n]) => [n, name]));
const signalNames = new Map(Object.entries(os.constants.signals).map(([name, n]) => [n, name]));
const signalNumbers = os.constants.signals;

// The errno name for a negative errno (`-2` → 'ENOENT').
function errnoName(errno) {
  if (typeof util.getSystemErrorName === 'function') {
    try {
      return util.getSystemErrorName(errno);
    } catch {
      // Fall through to the table.
    }
  }
  return errnoNames.get(-errno) || `Unknown system error ${errno}`;
}

// `String(err)` of Node's own errors: "TypeError [ERR_X]: message".
function codeToString() {
  return `${this.name} [${this.code}]: ${this.message}`;
}

// Sets `code`, a stack header and a toString() naming it as Node's errors
// do ("TypeError [ERR_X]: message").
function withCode(err, code) {
  Object.defineProperty(err, 'toString', { value: codeToString, enumerable: false, writable: true, configurable: true });
  err.code = code;
  if (typeof err.stack === 'string') {
    const head = `${err.name}: ${err.message}`;
    if (err.stack.startsWith(head)) {
      err.stack = `${err.name} [${code}]: ${err.message}${err.stack.slice(head.length)}`;
    }
  }
  return err;
}

function describeValue(value) {
  if (value === null || value === undefined) return String(value);
  // Node 18 names only a named function; an anonymous one is inspected.
  if (typeof value === 'function' && (value.name || nodeMajor >= 20)) return `function ${value.name}`;
  if (typeof value === 'object') {
    const ctor = value.constructor;
    if (ctor && ctor.name) return `an instance of ${ctor.name}`;
    return util.inspect(value, { depth: -1 });
  }
  let shown = util.inspect(value, { colors: false });
  if (shown.length > 28) shown = `${shown.slice(0, 25)}...`;
  return `type ${typeof value} (${shown})`;
}

const primitiveTypes = new Set([
  'string', 'function', 'number', 'object', 'Function', 'Object', 'boolean', 'bigint', 'symbol',
]);

function listOf(items, last = 'or') {
  if (items.length === 1) return items[0];
  if (items.length === 2) return `${items[0]} ${last} ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}, ${last} ${items[items.length - 1]}`;
}

function expectedText(expected) {
  const types = [];
  const classes = [];
  const others = [];
  for (const e of Array.isArray(expected) ? expected : [expected]) {
    if (primitiveTypes.has(e)) types.push(e.toLowerCase());
    else if (/^([A-Z][a-z0-9]*)+$/.test(e)) classes.push(e);
    else others.push(e);
  }
  const parts = [];
  if (types.length > 0) parts.push(`${types.length > 1 ? 'one of type' : 'of type'} ${listOf(types)}`);
  if (classes.length > 0) parts.push(`an instance of ${listOf(classes)}`);
  if (others.length > 0) {
    if (others.length > 1) parts.push(`one of ${listOf(others)}`);
    else parts.push(`${others[0].toLowerCase() !== others[0] ? 'an ' : ''}${others[0]}`);
  }
  return parts.join(' or ');
}

function invalidArgType(name, expected, actual) {
  const what = name.endsWith(' argument') ? name : `"${name}" ${name.includes('.') ? 'property' : 'argument'}`;
  return withCode(
    new TypeError(`The ${what} must be ${expectedText(expected)}. Received ${describeValue(actual)}`),
    'ERR_INVALID_ARG_TYPE',
  );
}

function invalidArgValue(name, value, reason = 'is invalid') {
  let shown = util.inspect(value);
  if (shown.length > 128) shown = `${shown.slice(0, 128)}...`;
  const kind = name.includes('.') ? 'property' : 'argument';
  return withCode(new TypeError(`The ${kind} '${name}' ${reason}. Received ${shown}`), 'ERR_INVALID_ARG_VALUE');
}

function withSeparators(digits) {
  let out = '';
  let i = digits.length;
  const start = digits[0] === '-' ? 1 : 0;
  for (; i >= start + 4; i -= 3) out = `_${digits.slice(i - 3, i)}${out}`;
  return `${digits.slice(0, i)}${out}`;
}

function outOfRange(name, range, value) {
  let shown;
  if (Number.isInteger(value) && Math.abs(value) > 2 ** 32) shown = withSeparators(String(value));
  else if (typeof value === 'bigint') {
    shown = String(value);
    if (value > 2n ** 32n || value < -(2n ** 32n)) shown = withSeparators(shown);
    shown += 'n';
  } else shown = util.inspect(value);
  return withCode(
    new RangeError(`The value of "${name}" is out of range. It must be ${range}. Received ${shown}`),
    'ERR_OUT_OF_RANGE',
  );
}

function unknownSignal(signal) {
  return withCode(new TypeError(util.format('Unknown signal: %s', signal)), 'ERR_UNKNOWN_SIGNAL');
}

function maxBufferExceeded(stream) {
  return withCode(new RangeError(`${stream} maxBuffer length exceeded`), 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER');
}

function invalidSyncForkInput(value) {
  return withCode(
    new TypeError(
      `Asynchronous forks do not support Buffer, TypedArray, DataView or string input: ${util.inspect(value)}`,
    ),
    'ERR_INVALID_SYNC_FORK_INPUT',
  );
}

function ipcOnePipe() {
  return withCode(new Error('Child process can have only one IPC pipe'), 'ERR_IPC_ONE_PIPE');
}

function ipcRequired(name) {
  return withCode(
    new Error(`Forked processes must have an IPC channel, missing value 'ipc' in ${name}`),
    'ERR_CHILD_PROCESS_IPC_REQUIRED',
  );
}

function ipcChannelClosed() {
  return withCode(new Error('Channel closed'), 'ERR_IPC_CHANNEL_CLOSED');
}

function ipcDisconnected() {
  return withCode(new Error('IPC channel is already disconnected'), 'ERR_IPC_DISCONNECTED');
}

// Node's permission model's refusal (its String() has no [code]: Node's
// comes from native code). From Node 22 it names the flag and the program
// (`resource`); Node 20 leaves `resource` empty.
function accessDenied(permission, resource) {
  const err = new Error(
    nodeMajor >= 22
      ? 'Access to this API has been restricted. Use --allow-child-process to manage permissions.'
      : 'Access to this API has been restricted',
  );
  err.code = 'ERR_ACCESS_DENIED';
  err.permission = permission;
  err.resource = nodeMajor >= 22 ? resource : '';
  return err;
}

// A path with a NUL byte (cwd, fork's modulePath): Node 18's message does
// not name URL.
function nulInPath(name, value) {
  return invalidArgValue(
    name,
    value,
    nodeMajor >= 20
      ? 'must be a string, Uint8Array, or URL without null bytes'
      : 'must be a string or Uint8Array without null bytes',
  );
}

function childClosedBeforeReply() {
  return withCode(new Error('Child closed before reply received'), 'ERR_CHILD_CLOSED_BEFORE_REPLY');
}

function ipcSyncFork() {
  return withCode(new Error('IPC cannot be used with synchronous forks'), 'ERR_IPC_SYNC_FORK');
}

function missingArgs(name) {
  return withCode(new TypeError(`The "${name}" argument must be specified`), 'ERR_MISSING_ARGS');
}

// Bun's net.Socket ignores an `fd` option: no channel can be made there.
function ipcUnsupported() {
  return withCode(
    new TypeError("fastspawn: stdio 'ipc' (and fork()) is not supported on Bun: its net.Socket cannot use the channel's fd"),
    'ERR_FASTSPAWN_IPC_UNSUPPORTED',
  );
}

// Handles this package's IPC channel cannot carry: dgram sockets to the
// child, anything from the child (see lib/ipc.js).
function ipcHandleUnsupported() {
  return withCode(
    new TypeError(
      "fastspawn: this handle cannot cross the IPC channel on this runtime (Node's native handle is not reachable here); use node:child_process's fork() for that child",
    ),
    'ERR_FASTSPAWN_IPC_HANDLE_UNSUPPORTED',
  );
}

function invalidHandleType() {
  return withCode(new TypeError('This handle type cannot be sent'), 'ERR_INVALID_HANDLE_TYPE');
}

// An error from a system call, as Node reports one: message
// "<syscall> <CODE>", `errno` negative, then `code` and `syscall`.
function errnoError(errno, syscall) {
  const code = errnoName(errno);
  const err = new Error(`${syscall} ${code}`);
  err.errno = errno;
  err.code = code;
  err.syscall = syscall;
  return err;
}

class AbortError extends Error {
  constructor(message = 'The operation was aborted', options = undefined) {
    super(message, options);
    this.code = 'ABORT_ERR';
    this.name = 'AbortError';
  }
}

// Validators, with Node's names and messages.

function validateString(value, name) {
  if (typeof value !== 'string') throw invalidArgType(name, 'string', value);
}

function validateObject(value, name) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalidArgType(name, 'object', value);
}

function validateBoolean(value, name) {
  if (typeof value !== 'boolean') throw invalidArgType(name, 'boolean', value);
}

function validateFunction(value, name) {
  if (typeof value !== 'function') throw invalidArgType(name, 'function', value);
}

function validateNoNul(value, name) {
  if (typeof value === 'string' && value.includes('\u0000')) {
    throw invalidArgValue(name, value, 'must be a string without null bytes');
  }
}

function isInt32(value) {
  return value === (value | 0);
}

// Node 26 checks uid, gid, timeout and maxBuffer with its generic number
// validators (a type error for a non-number, then the range); earlier
// Nodes with their own messages.

// An integer in [min, max], as Node 26's validateInteger/validateInt32.
function validateInteger(value, name, min, max) {
  if (typeof value !== 'number') throw invalidArgType(name, 'number', value);
  if (!Number.isInteger(value)) throw outOfRange(name, 'an integer', value);
  if (value < min || value > max) throw outOfRange(name, `>= ${min} && <= ${max}`, value);
}

// options.uid / options.gid, when given.
function validateId(value, name) {
  if (nodeMajor >= 26) validateInteger(value, name, -2147483648, 2147483647);
  else if (!isInt32(value)) throw invalidArgType(name, 'int32', value);
}

function validateTimeout(timeout) {
  if (timeout == null) return;
  if (nodeMajor >= 26) validateInteger(timeout, 'timeout', 0, Number.MAX_SAFE_INTEGER);
  else if (!(Number.isInteger(timeout) && timeout >= 0)) throw outOfRange('timeout', 'an unsigned integer', timeout);
}

function validateMaxBuffer(maxBuffer) {
  if (maxBuffer == null) return;
  if (nodeMajor >= 26) {
    if (typeof maxBuffer !== 'number') throw invalidArgType('options.maxBuffer', 'number', maxBuffer);
    if (!(maxBuffer >= 0)) throw outOfRange('options.maxBuffer', '>= 0', maxBuffer);
  } else if (!(typeof maxBuffer === 'number' && maxBuffer >= 0)) {
    throw outOfRange('options.maxBuffer', 'a positive number', maxBuffer);
  }
}

function validateAbortSignal(signal, name) {
  if (
    signal !== undefined &&
    (signal === null || typeof signal !== 'object' || !('aborted' in signal))
  ) {
    throw invalidArgType(name, 'AbortSignal', signal);
  }
}

// A signal name or number → its number (Node's rules: names in any case,
// numbers only if they name a signal).
function toSignalNumber(signal) {
  if (typeof signal === 'number' && signalNames.has(signal)) return signal;
  if (typeof signal === 'string') {
    const n = signalNumbers[signal.toUpperCase()];
    if (n !== undefined) return n;
  }
  throw unknownSignal(signal);
}

function sanitizeKillSignal(killSignal) {
  if (typeof killSignal === 'string' || typeof killSignal === 'number') return toSignalNumber(killSignal);
  if (killSignal != null) throw invalidArgType('options.killSignal', ['string', 'number'], killSignal);
  return undefined;
}

// killTree()/waitTree() on a child spawned without `contain: true`.
function notContained(method) {
  return withCode(
    new TypeError(`fastspawn: ${method}() needs a child spawned with the option contain: true`),
    'ERR_FASTSPAWN_NOT_CONTAINED',
  );
}

module.exports = {
  AbortError,
  accessDenied,
  childClosedBeforeReply,
  errnoError,
  errnoName,
  invalidArgType,
  invalidArgValue,
  invalidHandleType,
  invalidSyncForkInput,
  ipcChannelClosed,
  ipcDisconnected,
  ipcHandleUnsupported,
  ipcOnePipe,
  ipcSyncFork,
  ipcRequired,
  ipcUnsupported,
  isInt32,
  maxBufferExceeded,
  missingArgs,
  nodeMajor,
  notContained,
  nulInPath,
  outOfRange,
  sanitizeKillSignal,
  signalNames,
  toSignalNumber,
  unknownSignal,
  validateAbortSignal,
  validateBoolean,
  validateFunction,
  validateId,
  validateMaxBuffer,
  validateNoNul,
  validateObject,
  validateString,
  validateTimeout,
};
