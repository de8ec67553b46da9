'use strict';
// fork(): node:child_process's, but the new Node process is started like
// any other child of this package (by a spawner thread, without fork()),
// with an IPC channel (lib/ipc.js) that the child finds as Node's own.

const { fileURLToPath } = require('node:url');

const errors = require('./errors');
const { spawn } = require('./child_process');

// modulePath: a string, a file: URL or a Buffer, without NUL bytes.
function validatedModulePath(value) {
  let path = value;
  if (path instanceof URL) path = fileURLToPath(path);
  else if (path instanceof Uint8Array) path = Buffer.from(path.buffer, path.byteOffset, path.byteLength).toString();
  else if (typeof path !== 'string') throw errors.invalidArgType('modulePath', ['string', 'Buffer', 'URL'], value);
  if (path.includes('\u0000')) {
    throw errors.nulInPath('modulePath', value);
  }
  return path;
}

function stdioWithChannel(stdio) {
  switch (stdio) {
    case 'ignore':
    case 'overlapped':
    case 'pipe':
      return [stdio, stdio, stdio, 'ipc'];
    case 'inherit':
      return [0, 1, 2, 'ipc'];
    default:
      throw errors.invalidArgValue('stdio', stdio);
  }
}

function fork(modulePath, args, options) {
  modulePath = validatedModulePath(modulePath);
  if (args == null) args = [];
  else if (typeof args === 'object' && !Array.isArray(args)) {
    options = args;
    args = [];
  } else if (!Array.isArray(args)) {
    throw errors.invalidArgType('args', 'Array', args);
  }
  if (options != null) errors.validateObject(options, 'options');
  // Own properties only (see normalizeSpawnArguments).
  options = { __proto__: null, ...options, shell: false };
  options.execPath = options.execPath || process.execPath;
  errors.validateNoNul(options.execPath, 'options.execPath');

  let execArgv = options.execArgv || process.execArgv;
  if (Array.isArray(execArgv)) {
    for (let i = 0; i < execArgv.length; i++) errors.validateNoNul(execArgv[i], `options.execArgv[${i}]`);
  }
  // A parent run with `node -e <code>` must not run that code again.
  if (execArgv === process.execArgv && process._eval != null) {
    const at = execArgv.lastIndexOf(process._eval);
    if (at > 0) {
      execArgv = execArgv.slice();
      execArgv.splice(at - 1, 2);
    }
  }
  args = [...execArgv, modulePath, ...args];

  if (typeof options.stdio === 'string') options.stdio = stdioWithChannel(options.stdio);
  else if (!Array.isArray(options.stdio)) options.stdio = stdioWithChannel(options.silent ? 'pipe' : 'inherit');
  else if (!options.stdio.includes('ipc')) throw errors.ipcRequired('options.stdio');

  return spawn(options.execPath, args, options);
}

module.exports = { fork };
