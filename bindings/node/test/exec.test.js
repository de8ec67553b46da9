'use strict';
// execFile() and exec() (lib/exec.js), side by side with node:child_process:
// the callback's arguments, error fields, maxBuffer, encodings, timeouts,
// AbortSignal and the util.promisify forms.

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const util = require('node:util');

const { both } = require('../testlib/helpers');

// The callback's (err, stdout, stderr), in comparable form.
function settle(err, stdout, stderr) {
  return {
    error:
      err === null
        ? null
        : {
            ctor: err.constructor.name,
            name: err.name,
            message: err.message,
            fields: { ...err },
          },
    stdout: Buffer.isBuffer(stdout) ? { buffer: stdout.toString('hex') } : stdout,
    stderr: Buffer.isBuffer(stderr) ? { buffer: stderr.toString('hex') } : stderr,
  };
}

const viaCallback = (call) => (cp) =>
  new Promise((resolve) => {
    call(cp, (...args) => resolve(settle(...args)));
  });

describe('execFile and exec, side by side with node:child_process', () => {
  const cases = [
    ['success', (cp, cb) => cp.execFile('echo', ['a', 'b'], cb)],
    ['exit code, stderr in the message', (cp, cb) => cp.execFile('sh', ['-c', 'echo out; echo err >&2; exit 3'], cb)],
    ['killed by a signal', (cp, cb) => cp.exec('echo a; kill -9 $$', cb)],
    ['missing program', (cp, cb) => cp.execFile('fastspawn-no-such-program', ['q'], cb)],
    ['timeout', (cp, cb) => cp.execFile('sleep', ['5'], { timeout: 50 }, cb)],
    ['timeout with killSignal', (cp, cb) => cp.execFile('sleep', ['5'], { timeout: 50, killSignal: 'SIGKILL' }, cb)],
    ['maxBuffer on stdout', (cp, cb) => cp.execFile('sh', ['-c', 'yes | head -c 3000'], { maxBuffer: 1000 }, cb)],
    ['maxBuffer on stderr', (cp, cb) => cp.exec('yes >&2 | head -c 3000', { maxBuffer: 100 }, cb)],
    ['maxBuffer with a multibyte encoding', (cp, cb) => cp.exec("printf 'ééééé'", { maxBuffer: 5 }, cb)],
    ['encoding buffer', (cp, cb) => cp.execFile('printf', ['\\001\\002'], { encoding: 'buffer' }, cb)],
    ['encoding hex', (cp, cb) => cp.execFile('echo', ['hi'], { encoding: 'hex' }, cb)],
    ['unknown encoding gives Buffers', (cp, cb) => cp.execFile('echo', ['hi'], { encoding: 'bogus' }, cb)],
    ['options without args', (cp, cb) => cp.execFile('pwd', { cwd: '/tmp' }, cb)],
    ['callback only', (cp, cb) => cp.execFile('true', cb)],
    ['exec with env and cwd', (cp, cb) => cp.exec('echo "$X" && pwd', { env: { X: 'x' }, cwd: '/usr' }, cb)],
    ['exec with a shell path', (cp, cb) => cp.exec('echo $BASH_VERSION | cut -c1', { shell: '/bin/bash' }, cb)],
    ['execFile with shell', (cp, cb) => cp.execFile('echo', ['$((2+3))'], { shell: true }, cb)],
    ['exec of a missing cwd', (cp, cb) => cp.exec('true', { cwd: '/fastspawn-no-such-dir' }, cb)],
    ['stdin is a pipe that gets closed', (cp, cb) => cp.exec('cat; echo done', cb).stdin.end('in\n')],
    [
      'AbortSignal',
      (cp, cb) => {
        const ac = new AbortController();
        cp.execFile('sleep', ['5'], { signal: ac.signal }, cb);
        setTimeout(() => ac.abort(), 20);
      },
    ],
  ];
  for (const [name, call] of cases) {
    it(name, async () => {
      const r = await both(viaCallback(call));
      assert.deepEqual(r.fastspawn, r.node);
    });
  }

  it('the results are what they should be (not only equal)', async () => {
    const r = await both(viaCallback(cases[1][1]));
    assert.equal(r.fastspawn.error.fields.code, 3);
    assert.equal(r.fastspawn.error.message, 'Command failed: sh -c echo out; echo err >&2; exit 3\nerr\n');
    const big = await both(viaCallback(cases[6][1]));
    assert.equal(big.fastspawn.error.fields.code, 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER');
    assert.equal(big.fastspawn.stdout.length, 1000);
  });

  it('large output (5 MiB) with maxBuffer Infinity', async () => {
    const r = await both(
      (cp) =>
        new Promise((resolve) =>
          cp.execFile('head', ['-c', String(5 << 20), '/dev/zero'], { encoding: 'buffer', maxBuffer: Infinity }, (err, out) =>
            resolve({ err, length: out.length, zeros: out.every((b) => b === 0) }),
          ),
        ),
    );
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn, { err: null, length: 5 << 20, zeros: true });
  });
});

describe('util.promisify(execFile / exec)', () => {
  it('resolves { stdout, stderr }; the promise carries the child', async () => {
    const r = await both(async (cp) => {
      const promise = util.promisify(cp.execFile)('sh', ['-c', 'echo o; echo e >&2']);
      const hasChild = promise.child instanceof require('node:events');
      return { hasChild, result: await promise };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn, { hasChild: true, result: { stdout: 'o\n', stderr: 'e\n' } });
  });

  it('rejects with code, killed, signal, cmd, stdout, stderr', async () => {
    const r = await both(async (cp) => {
      try {
        await util.promisify(cp.exec)('echo p; echo q >&2; exit 2');
        return null;
      } catch (err) {
        return { keys: Object.keys(err), ...err, message: err.message };
      }
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn.keys, ['code', 'killed', 'signal', 'cmd', 'stdout', 'stderr']);
    assert.equal(r.fastspawn.stdout, 'p\n');
  });
});
