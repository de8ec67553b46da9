'use strict';
// Node's hardening, side by side with node:child_process: options are read
// as own properties only (a polluted Object.prototype changes nothing), and
// the smaller behaviours real programs trip on (cwd '', promisify's
// synchronous throws, String(err), the events after ENOENT and EMFILE, own
// pid/stdin, EPERM thrown at once).

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const util = require('node:util');
const { once } = require('node:events');

const { both, fastspawn, nodeCp, outcome, thrown } = require('../testlib/helpers');

const FIXTURE = path.join(__dirname, '..', 'testlib', 'ipc-child.js');

// Runs `call` with Object.prototype[name] = value (set as a polluting merge
// would: enumerable), restoring the prototype whatever happens. The
// pollution lasts only for the synchronous call, which is when both
// implementations read their options.
function polluted(name, value, call) {
  const had = Object.prototype.hasOwnProperty.call(Object.prototype, name);
  assert.equal(had, false, `Object.prototype.${name} is already set`);
  Object.prototype[name] = value;
  try {
    return call();
  } finally {
    delete Object.prototype[name];
  }
}

// execFile/exec's callback results, comparable.
function viaCallback(start) {
  return new Promise((resolve) => {
    start((err, stdout, stderr) =>
      resolve({ err: err && { message: err.message, code: err.code, signal: err.signal, killed: err.killed }, stdout, stderr }),
    );
  });
}

const aborted = AbortSignal.abort();

// [option, polluted value, what to run (cp) => Promise of a comparable
// result, the expected result (what an unpolluted call gives)].
const spawnCases = [
  ['shell', true, (cp) => outcome(cp.spawn('echo', ['$((6*7))'])), { stdout: '$((6*7))\n' }],
  ['shell', '/bin/sh', (cp) => outcome(cp.spawn('echo', ['$((6*7))'])), { stdout: '$((6*7))\n' }],
  ['cwd', '/usr', (cp) => outcome(cp.spawn('pwd')), { stdout: `${process.cwd()}\n` }],
  ['env', { FASTSPAWN_P: 'polluted' }, (cp) => outcome(cp.spawn('sh', ['-c', 'echo ${FASTSPAWN_P-unset}'])), { stdout: 'unset\n' }],
  ['argv0', 'evil', (cp) => outcome(cp.spawn('sh', ['-c', 'echo $0'])), { stdout: 'sh\n' }],
  ['detached', true, (cp) => outcome(cp.spawn('sh', ['-c', 'test "$(cut -d" " -f6 /proc/$$/stat)" = $$ && echo leader || echo member'])), { stdout: 'member\n' }],
  ['stdio', 'ignore', (cp) => outcome(cp.spawn('echo', ['piped'])), { stdout: 'piped\n' }],
  ['stdio', ['ignore', 'inherit', 'inherit'], (cp) => outcome(cp.spawn('echo', ['piped'])), { stdout: 'piped\n' }],
  ['timeout', 1, (cp) => outcome(cp.spawn('sleep', ['0.3'])), { signalCode: null, exitCode: 0 }],
  // With 'ignore': Node's own net.Socket (a Duplex) would obey an inherited `signal`.
  ['signal', aborted, (cp) => outcome(cp.spawn('sleep', ['0.1'], { stdio: 'ignore' })), { signalCode: null, exitCode: 0 }],
  ['serialization', 'foo', (cp) => outcome(cp.spawn('true')), { exitCode: 0 }],
  ['windowsHide', 'not a boolean', (cp) => outcome(cp.spawn('true')), { exitCode: 0 }],
  ['envPairs', ['FASTSPAWN_P=polluted'], (cp) => outcome(cp.spawn('sh', ['-c', 'echo ${FASTSPAWN_P-unset}'])), { stdout: 'unset\n' }],
  ['file', '/bin/false', (cp) => outcome(cp.spawn('true')), { exitCode: 0 }],
  ['args', ['/bin/false'], (cp) => outcome(cp.spawn('true')), { exitCode: 0 }],
  // Obeyed, these would change the child's ids (as root) or throw EPERM.
  ['uid', 65534, (cp) => outcome(cp.spawn('id', ['-u'])), { stdout: `${process.getuid()}\n` }],
  ['gid', 65534, (cp) => outcome(cp.spawn('id', ['-g'])), { stdout: `${process.getgid()}\n` }],
  ['killSignal', 'SIGKILL', (cp) => outcome(cp.spawn('sleep', ['5'], { timeout: 50 })), { signalCode: 'SIGTERM' }],
  ['windowsVerbatimArguments', 'not a boolean', (cp) => outcome(cp.spawn('true')), { exitCode: 0 }],
];

const execCases = [
  ['timeout', 1, (cp) => viaCallback((cb) => cp.execFile('sleep', ['0.3'], cb)), { err: null, stdout: '' }],
  ['killSignal', 'SIGKILL', (cp) => viaCallback((cb) => cp.execFile('sleep', ['5'], { timeout: 50 }, cb)), {}],
  ['encoding', 'hex', (cp) => viaCallback((cb) => cp.execFile('echo', ['x'], cb)), { stdout: 'x\n' }],
  ['maxBuffer', 1, (cp) => viaCallback((cb) => cp.execFile('echo', ['long enough'], cb)), { err: null }],
  ['shell', true, (cp) => viaCallback((cb) => cp.execFile('echo', ['$((6*7))'], cb)), { stdout: '$((6*7))\n' }],
  ['cwd', '/usr', (cp) => viaCallback((cb) => cp.execFile('pwd', cb)), { stdout: `${process.cwd()}\n` }],
  ['env', { FASTSPAWN_P: 'polluted' }, (cp) => viaCallback((cb) => cp.exec('echo ${FASTSPAWN_P-unset}', cb)), { stdout: 'unset\n' }],
  ['shell', '/bin/false', (cp) => viaCallback((cb) => cp.exec('echo via sh', cb)), { stdout: 'via sh\n' }],
  ['timeout', 1, (cp) => viaCallback((cb) => cp.exec('sleep 0.3', cb)), { err: null }],
  [
    'timeout',
    1,
    (cp) => util.promisify(cp.execFile)('sleep', ['0.3']).then((r) => ({ stdout: r.stdout })),
    { stdout: '' },
  ],
  ['encoding', 'hex', (cp) => util.promisify(cp.exec)('echo x').then((r) => ({ stdout: r.stdout })), { stdout: 'x\n' }],
];

// The synchronous functions: the run's comparable fields, or what was thrown.
function ranSync(run) {
  try {
    const r = run();
    if (Buffer.isBuffer(r) || typeof r === 'string') return { returned: r.toString() };
    return {
      status: r.status,
      signal: r.signal,
      error: r.error && r.error.code,
      stdout: r.stdout == null ? null : r.stdout.toString(),
      stderr: r.stderr == null ? null : r.stderr.toString(),
    };
  } catch (err) {
    return { threw: err.code ?? err.message.split('\n')[0], status: err.status, signal: err.signal };
  }
}

// `input` is not here: Node's spawnSync feeds an inherited input to the
// child's stdin (a kept difference, test/sync.test.js).
const syncCases = [
  ['shell', true, (cp) => ranSync(() => cp.spawnSync('echo', ['$((6*7))'])), { stdout: '$((6*7))\n' }],
  ['cwd', '/usr', (cp) => ranSync(() => cp.spawnSync('pwd')), { stdout: `${process.cwd()}\n` }],
  ['env', { FASTSPAWN_P: 'polluted' }, (cp) => ranSync(() => cp.spawnSync('sh', ['-c', 'echo ${FASTSPAWN_P-unset}'])), { stdout: 'unset\n' }],
  ['argv0', 'evil', (cp) => ranSync(() => cp.spawnSync('sh', ['-c', 'echo $0'])), { stdout: 'sh\n' }],
  ['stdio', 'ignore', (cp) => ranSync(() => cp.spawnSync('echo', ['piped'])), { stdout: 'piped\n' }],
  ['timeout', 1, (cp) => ranSync(() => cp.spawnSync('sleep', ['0.3'])), { status: 0, signal: null, error: undefined }],
  ['maxBuffer', 1, (cp) => ranSync(() => cp.spawnSync('echo', ['long enough'], {})), { error: undefined, stdout: 'long enough\n' }],
  ['encoding', 'hex', (cp) => ranSync(() => cp.execFileSync('echo', ['x'])), { returned: 'x\n' }],
  ['encoding', 'hex', (cp) => ranSync(() => cp.spawnSync('echo', ['x'], {})), { stdout: 'x\n' }],
  ['timeout', 1, (cp) => ranSync(() => cp.spawnSync('sleep', ['0.3'], {})), { status: 0, signal: null, error: undefined }],
  ['killSignal', 'SIGKILL', (cp) => ranSync(() => cp.spawnSync('sleep', ['5'], { timeout: 50 })), { signal: 'SIGTERM' }],
  ['uid', 65534, (cp) => ranSync(() => cp.spawnSync('id', ['-u'])), { stdout: `${process.getuid()}\n` }],
  ['gid', 65534, (cp) => ranSync(() => cp.spawnSync('id', ['-g'])), { stdout: `${process.getgid()}\n` }],
  ['detached', true, (cp) => ranSync(() => cp.spawnSync('sh', ['-c', 'test "$(cut -d" " -f6 /proc/$$/stat)" = $$ && echo leader || echo member'])), { stdout: 'member\n' }],
  ['shell', true, (cp) => ranSync(() => cp.execFileSync('echo', ['$((6*7))'])), { returned: '$((6*7))\n' }],
  ['timeout', 1, (cp) => ranSync(() => cp.execFileSync('sleep', ['0.3'])), { returned: '' }],
  ['shell', '/bin/false', (cp) => ranSync(() => cp.execSync('echo via sh')), { returned: 'via sh\n' }],
  ['env', { FASTSPAWN_P: 'polluted' }, (cp) => ranSync(() => cp.execSync('echo ${FASTSPAWN_P-unset}')), { returned: 'unset\n' }],
  ['maxBuffer', 1, (cp) => ranSync(() => cp.execSync('echo long enough', {})), { returned: 'long enough\n' }],
];

// fork(): the child reports what it got (execArgv, its channel's mode).
function forkReport(cp, options) {
  return new Promise((resolve) => {
    const child = cp.fork(FIXTURE, [], options);
    child.on('message', (m) => {
      resolve({ execArgv: m.execArgv, binary: m.binary, inheritsStdout: child.stdout === null });
      child.disconnect();
    });
    child.send({ op: 'env', binary: new Uint8Array([1]) });
  });
}
const forkCases = [
  ['execArgv', ['--no-such-flag-here'], (cp) => forkReport(cp), { execArgv: process.execArgv, binary: false, inheritsStdout: true }],
  ['serialization', 'advanced', (cp) => forkReport(cp), { binary: false }],
  ['silent', true, (cp) => forkReport(cp), { inheritsStdout: true }],
  ['stdio', 'pipe', (cp) => forkReport(cp), { inheritsStdout: true }],
  ['execPath', '/bin/false', (cp) => forkReport(cp), { binary: false }],
];

function subset(actual, expected) {
  const picked = {};
  for (const key of Object.keys(expected)) picked[key] = actual[key];
  return picked;
}

describe('options are own properties only: a polluted Object.prototype changes nothing', () => {
  for (const [group, cases] of [
    ['spawn', spawnCases],
    ['execFile/exec', execCases],
    ['fork', forkCases],
    ['spawnSync/execFileSync/execSync', syncCases],
  ]) {
    for (const [name, value, run, expected] of cases) {
      it(`${group}: Object.prototype.${name} = ${util.inspect(value, { breakLength: Infinity })}`, async () => {
        const r = await both((cp) => polluted(name, value, () => run(cp)));
        assert.deepEqual(r.fastspawn, r.node);
        assert.deepEqual(subset(r.fastspawn, expected), expected);
      });
    }
  }
});

describe('ChildProcess#spawn called directly', () => {
  it('reads its options as own properties only (Node follows the prototype chain there)', async () => {
    const child = new fastspawn.ChildProcess();
    polluted('cwd', '/usr', () => child.spawn({ file: 'pwd', args: ['pwd'], envPairs: ['PATH=/usr/bin:/bin'] }));
    const r = await outcome(child);
    assert.equal(r.stdout, `${process.cwd()}\n`);
  });
});

describe('smaller differences, side by side', () => {
  it("cwd '' means no cwd", async () => {
    const r = await both((cp) => outcome(cp.spawn('pwd', [], { cwd: '' })));
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn.stdout, `${process.cwd()}\n`);
  });

  it('util.promisify(exec / execFile) throws argument errors synchronously', () => {
    const calls = [
      (cp) => util.promisify(cp.exec)('true', { signal: {} }),
      (cp) => util.promisify(cp.execFile)('true', [], { signal: {} }),
      (cp) => util.promisify(cp.execFile)(5),
      (cp) => util.promisify(cp.exec)('true', { timeout: -1 }),
    ];
    for (const call of calls) {
      const node = thrown(() => call(nodeCp));
      assert.notEqual(node, null);
      assert.deepEqual(thrown(() => call(fastspawn)), node);
    }
  });

  it('String(err) of validation errors names the code', () => {
    for (const call of [(cp) => cp.spawn(5), (cp) => cp.spawn('ls', { stdio: 'foo' }), (cp) => cp.spawn('ls', { timeout: -1 })]) {
      const strings = {};
      for (const [name, cp] of [['node', nodeCp], ['fastspawn', fastspawn]]) {
        try {
          call(cp);
        } catch (err) {
          strings[name] = [String(err), err.toString()];
        }
      }
      assert.deepEqual(strings.fastspawn, strings.node);
      assert.match(strings.fastspawn[0], /^(Type|Range)Error \[ERR_[A-Z_]+\]: /);
    }
  });

  it("'close' comes on a later tick after an ENOENT 'error' (piped stdio)", async () => {
    const r = await both(async (cp) => {
      const child = cp.spawn('fastspawn-no-such-program');
      const [err] = await once(child, 'error');
      const closed = await Promise.race([
        once(child, 'close').then((args) => `close ${args.map(String).join(' ')}`),
        new Promise((resolve) => setTimeout(() => resolve('no close'), 2000)),
      ]);
      return { code: err.code, closed, stdin: child.stdin !== null, stdio: child.stdio.map((s) => s === null) };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn.closed, 'close -2 null');
  });

  it('after EMFILE: the error, no stdio properties, then close', () => {
    // In a child with a low fd limit: the fds are used up, then spawn().
    const script = `
      const fs = require('node:fs');
      const impl = process.argv[1] === 'node' ? require('node:child_process') : require(${JSON.stringify(path.join(__dirname, '..', 'index.js'))});
      const held = [];
      try { for (;;) held.push(fs.openSync('/dev/null', 'r')); } catch {}
      // Leave room for what loading is done, not for three socketpairs.
      for (let i = 0; i < 2; i++) fs.closeSync(held.pop());
      const events = [];
      let child;
      try {
        child = impl.spawn('true');
      } catch (err) {
        console.log(JSON.stringify({ threw: err.code }));
        process.exit(0);
      }
      child.on('error', (err) => {
        events.push('error ' + err.code);
        setImmediate(() => {
          for (const fd of held) fs.closeSync(fd);
          console.log(JSON.stringify({ events, stdin: typeof child.stdin, stdout: typeof child.stdout, stderr: typeof child.stderr, stdio: typeof child.stdio, pid: 'pid' in child }));
        });
      });
      child.on('close', (code, signal) => events.push('close ' + code + ' ' + signal));
    `;
    const results = {};
    for (const impl of ['node', 'fastspawn']) {
      const out = nodeCp.execFileSync('sh', ['-c', 'ulimit -n 40 && exec "$0" -e "$1" "$2"', process.execPath, script, impl], {
        encoding: 'utf8',
      });
      results[impl] = JSON.parse(out);
    }
    assert.deepEqual(results.fastspawn, results.node);
    assert.deepEqual(results.fastspawn.events, ['error EMFILE', 'close -24 null']);
    assert.equal(results.fastspawn.stdout, 'undefined');
  });

  it('pid, stdin, stdout, stderr and stdio are own properties', async () => {
    const r = await both(async (cp) => {
      const child = cp.spawn('true');
      const own = ['pid', 'stdin', 'stdout', 'stderr', 'stdio'].map((k) => Object.hasOwn(child, k));
      const enumerable = ['pid', 'stdin'].map((k) => Object.keys(child).includes(k));
      await outcome(child);
      return { own, enumerable, pid: typeof child.pid };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn.own, [true, true, true, true, true]);
  });

  it('EPERM from uid/gid is thrown by spawn(), as with Node', (t) => {
    const script = `
      const impls = { node: require('node:child_process'), fastspawn: require(${JSON.stringify(path.join(__dirname, '..', 'index.js'))}) };
      const out = {};
      for (const [name, cp] of Object.entries(impls)) {
        out[name] = [];
        for (const opts of [{ uid: 0 }, { gid: 0 }, { uid: process.getuid(), gid: process.getgid() }]) {
          try {
            const child = cp.spawn('true', [], opts);
            child.on('error', (err) => console.error('unexpected', err));
            out[name].push('spawned');
          } catch (err) {
            out[name].push(String(err) + ' ' + err.errno + ' ' + err.syscall);
          }
        }
      }
      console.log(JSON.stringify(out));
    `;
    let out;
    if (process.getuid() !== 0) {
      out = nodeCp.execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    } else {
      // As root, run the comparison as nobody (65534), if nobody can read the package.
      try {
        out = nodeCp.execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', uid: 65534, gid: 65534, cwd: '/' });
      } catch (err) {
        t.skip(`nobody (65534) cannot run the package from here: ${err.message.split('\n')[0]}`);
        return;
      }
    }
    const r = JSON.parse(out);
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn, ['Error: spawn EPERM -1 spawn', 'Error: spawn EPERM -1 spawn', 'spawned']);
  });

  it('E2BIG from an argument or variable longer than MAX_ARG_STRLEN is thrown by spawn()', async () => {
    const calls = [
      (cp) => cp.spawn('echo', ['x'.repeat(200000)]),
      (cp) => cp.spawn('echo', ['\u00e9'.repeat(70000)]),
      (cp) => cp.spawn('echo', [], { env: { BIG: 'y'.repeat(131072) } }),
    ];
    for (const call of calls) {
      const node = thrown(() => call(nodeCp));
      assert.equal(node && node.code, 'E2BIG');
      assert.deepEqual(thrown(() => call(fastspawn)), node);
    }
    // Just under the limit: both run it.
    const r = await both((cp) => outcome(cp.spawn('sh', ['-c', 'echo ${#0}', 'z'.repeat(131071)])));
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn.stdout, '131071\n');
  });

  it('children of fork() are instances of the exported ChildProcess', async () => {
    const r = await both(async (cp) => {
      const child = cp.fork(FIXTURE, [], { silent: true });
      const same = child instanceof cp.ChildProcess;
      child.disconnect();
      await once(child, 'exit');
      return same;
    });
    assert.deepEqual(r, { node: true, fastspawn: true });
  });
});
