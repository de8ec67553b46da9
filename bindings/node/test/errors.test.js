'use strict';
// Errors (lib/errors.js): the same bad calls made to node:child_process and
// to fastspawn throw the same class, code and message.

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');

const { fastspawn, nodeCp, thrown } = require('../testlib/helpers');
const errors = require('../lib/errors');

const longString = 'x'.repeat(40);

// [description, call]: each must throw synchronously with both.
const badCalls = [
  ['file not a string', (cp) => cp.spawn(5)],
  ['file an object', (cp) => cp.spawn({})],
  ['file a function', (cp) => cp.spawn(function named() {})],
  ['file null', (cp) => cp.spawn(null)],
  ['file a symbol', (cp) => cp.spawn(Symbol('s'))],
  ['file a huge number', (cp) => cp.spawn(1.2345678901234568e29)],
  ['file a long string with NUL', (cp) => cp.spawn(`${longString}\u0000`)],
  ['file empty', (cp) => cp.spawn('')],
  ['file with NUL', (cp) => cp.spawn('a\u0000b')],
  ['args a string', (cp) => cp.spawn('ls', 'x')],
  ['args with NUL', (cp) => cp.spawn('ls', ['a', 'b\u0000'])],
  ['args NUL before a bad cwd', (cp) => cp.spawn('ls', ['a\u0000'], { cwd: 5 })],
  ['options a number', (cp) => cp.spawn('ls', [], 5)],
  ['options null', (cp) => cp.spawn('ls', [], null)],
  ['cwd a number', (cp) => cp.spawn('ls', { cwd: 5 })],
  ['cwd with NUL', (cp) => cp.spawn('ls', { cwd: '/\u0000' })],
  ['cwd an http URL', (cp) => cp.spawn('ls', { cwd: new URL('http://x/tmp') })],
  ['detached not boolean', (cp) => cp.spawn('ls', { detached: 1 })],
  ['uid not int32', (cp) => cp.spawn('ls', { uid: 1.5 })],
  ['uid a string', (cp) => cp.spawn('ls', { uid: '1' })],
  ['gid too large', (cp) => cp.spawn('ls', { gid: 2 ** 31 })],
  ['shell a number', (cp) => cp.spawn('ls', { shell: 1 })],
  ['shell checked before argv0', (cp) => cp.spawn('ls', { argv0: 'a\u0000', shell: 5 })],
  ['argv0 a number', (cp) => cp.spawn('ls', { argv0: 1 })],
  ['argv0 with NUL', (cp) => cp.spawn('ls', { argv0: 'a\u0000' })],
  ['env value with NUL', (cp) => cp.spawn('ls', { env: { A: 'b\u0000' } })],
  ['env key with NUL', (cp) => cp.spawn('ls', { env: { 'A\u0000': 'b' } })],
  ['uid checked before env', (cp) => cp.spawn('ls', { env: { A: 'a\u0000' }, uid: 'x' })],
  ['windowsHide not boolean', (cp) => cp.spawn('ls', { windowsHide: 1 })],
  ['timeout negative', (cp) => cp.spawn('ls', { timeout: -1 })],
  ['timeout huge negative', (cp) => cp.spawn('ls', { timeout: -(2 ** 40) })],
  ['timeout a string', (cp) => cp.spawn('ls', { timeout: '1' })],
  ['timeout checked before signal and stdio', (cp) => cp.spawn('ls', { timeout: -1, signal: 5, stdio: 'foo' })],
  ['signal not an AbortSignal', (cp) => cp.spawn('ls', { signal: 1 })],
  ['killSignal unknown', (cp) => cp.spawn('ls', { killSignal: 'SIGFOO' })],
  ['killSignal an object', (cp) => cp.spawn('ls', { killSignal: {} })],
  ['killSignal checked before stdio', (cp) => cp.spawn('ls', { stdio: 'foo', killSignal: 'x' })],
  ['stdio an unknown string', (cp) => cp.spawn('ls', { stdio: 'foo' })],
  ['stdio a number', (cp) => cp.spawn('ls', { stdio: 5 })],
  ['stdio entry a string', (cp) => cp.spawn('ls', { stdio: ['pipe', 'foo'] })],
  ['stdio entry a Buffer', (cp) => cp.spawn('ls', { stdio: ['pipe', 'pipe', 'pipe', Buffer.from('x')] })],
  ['stdio entry an empty object', (cp) => cp.spawn('ls', { stdio: ['pipe', {}] })],
  ['stdio entry a closed fd', (cp) => cp.spawn('ls', { stdio: [999] })],
  ['serialization null', (cp) => cp.spawn('ls', { serialization: null })],
  ['serialization a number', (cp) => cp.spawn('ls', { serialization: 42 })],
  ['serialization unknown', (cp) => cp.spawn('ls', { serialization: 'foo' })],
  ['stdio checked before serialization', (cp) => cp.spawn('ls', { serialization: 'foo', stdio: 'x' })],
  ['two ipc entries', (cp) => cp.spawn('ls', { stdio: ['pipe', 'pipe', 'pipe', 'ipc', 'ipc'] })],
  ['stdio a negative fd is a pipe, a string entry is refused', (cp) => cp.spawn('ls', { stdio: [-1, 'x'] })],
  ['fork modulePath a number', (cp) => cp.fork(5)],
  ['fork modulePath with NUL', (cp) => cp.fork('a\u0000')],
  ['fork args a string', (cp) => cp.fork('x.js', 'a')],
  ['fork options a number', (cp) => cp.fork('x.js', [], 5)],
  ['fork stdio without ipc', (cp) => cp.fork('x.js', { stdio: ['pipe', 'pipe', 'pipe'] })],
  ['fork stdio an unknown string', (cp) => cp.fork('x.js', { stdio: 'foo' })],
  ['fork execPath with NUL', (cp) => cp.fork('x.js', { execPath: 'node\u0000' })],
  ['fork execArgv with NUL', (cp) => cp.fork('x.js', { execArgv: ['--a\u0000'] })],
  ['fork serialization unknown', (cp) => cp.fork('x.js', { serialization: 'yaml' })],
  // Node 26 checks these four options with its generic validators (README,
  // "Node versions"): the same values through both on each Node.
  ['uid NaN', (cp) => cp.spawn('ls', { uid: NaN })],
  ['uid a boolean', (cp) => cp.spawn('ls', { uid: true })],
  ['uid a bigint', (cp) => cp.spawn('ls', { uid: 5n })],
  ['gid below int32', (cp) => cp.spawn('ls', { gid: -(2 ** 31) - 1 })],
  ['timeout 1.5', (cp) => cp.spawn('ls', { timeout: 1.5 })],
  ['timeout NaN', (cp) => cp.spawn('ls', { timeout: NaN })],
  ['timeout Infinity', (cp) => cp.spawn('ls', { timeout: Infinity })],
  ['timeout a bigint', (cp) => cp.spawn('ls', { timeout: 5n })],
  ['execFile timeout a string', (cp) => cp.execFile('ls', [], { timeout: '5' })],
  ['execFile maxBuffer NaN', (cp) => cp.execFile('ls', [], { maxBuffer: NaN })],
  ['execFile maxBuffer -Infinity', (cp) => cp.execFile('ls', [], { maxBuffer: -Infinity })],
  ['execFile maxBuffer a string', (cp) => cp.execFile('ls', [], { maxBuffer: '5' })],
  ['spawnSync timeout a string', (cp) => cp.spawnSync('ls', { timeout: '5' })],
  ['spawnSync maxBuffer a string', (cp) => cp.spawnSync('ls', { maxBuffer: '5' })],
  ['execSync maxBuffer negative', (cp) => cp.execSync('ls', { maxBuffer: -1 })],
  ['execFile callback not a function', (cp) => cp.execFile('ls', [], {}, 5)],
  ['execFile options a string', (cp) => cp.execFile('ls', [], 'x')],
  ['execFile maxBuffer negative', (cp) => cp.execFile('ls', [], { maxBuffer: -1 })],
  ['execFile argv0 a number', (cp) => cp.execFile('ls', [], { argv0: 5 })],
  ['exec command not a string', (cp) => cp.exec(5, () => {})],
  ['exec command with NUL', (cp) => cp.exec('echo\u0000', () => {})],
];

describe('argument validation, side by side with node:child_process', () => {
  for (const [name, call] of badCalls) {
    it(name, () => {
      const node = thrown(() => call(nodeCp));
      assert.notEqual(node, null, 'node:child_process did not throw: the case is wrong');
      assert.deepEqual(thrown(() => call(fastspawn)), node);
    });
  }
});

describe('kill() signal validation, side by side', () => {
  for (const signal of ['sigfoo', 99, {}, 1.5, -1, 'SIGTERMX', null]) {
    it(`kill(${typeof signal === 'object' ? JSON.stringify(signal) : String(signal)})`, async () => {
      const results = {};
      for (const [impl, cp] of [['node', nodeCp], ['fastspawn', fastspawn]]) {
        const child = cp.spawn('sleep', ['30']);
        results[impl] = thrown(() => child.kill(signal));
        child.kill('SIGKILL');
        await new Promise((resolve) => child.on('close', resolve));
      }
      assert.notEqual(results.node, null);
      assert.deepEqual(results.fastspawn, results.node);
    });
  }
});

describe('error helpers', () => {
  it('errnoError has Node\'s shape: message "<syscall> <CODE>", negative errno', () => {
    const err = errors.errnoError(-2, 'spawn ls');
    assert.equal(err.message, 'spawn ls ENOENT');
    assert.deepEqual({ ...err }, { errno: -2, code: 'ENOENT', syscall: 'spawn ls' });
  });

  it('the stack names the code, as Node\'s errors do', () => {
    const err = errors.invalidArgType('file', 'string', 5);
    assert.match(err.stack, /^TypeError \[ERR_INVALID_ARG_TYPE\]: The "file" argument must be of type string/);
    const ours = thrown(() => fastspawn.spawn(5));
    assert.equal(ours.code, 'ERR_INVALID_ARG_TYPE');
  });

  it('toSignalNumber follows Node: names in any case, only real numbers', () => {
    assert.equal(errors.toSignalNumber('sigint'), 2);
    assert.equal(errors.toSignalNumber(15), 15);
    assert.throws(() => errors.toSignalNumber(0), { code: 'ERR_UNKNOWN_SIGNAL', message: 'Unknown signal: 0' });
  });

  it('AbortError looks like Node\'s', () => {
    const reason = new Error('why');
    const err = new errors.AbortError(undefined, { cause: reason });
    assert.equal(err.name, 'AbortError');
    assert.equal(err.code, 'ABORT_ERR');
    assert.equal(err.message, 'The operation was aborted');
    assert.equal(err.cause, reason);
  });
});
