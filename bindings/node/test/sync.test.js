'use strict';
// spawnSync, execFileSync and execSync (lib/sync.js): each call made with
// node:child_process and with the package, the results compared (fields,
// their order, errors), and the package's child made with CLONE_VM, where
// Node's is a fork.

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const util = require('node:util');

const { both, nodeCp, openFds, thrown, zombies } = require('../testlib/helpers');

const PACKAGE = path.join(__dirname, '..');

// A result or an error, as plain data: Buffers as 'B:' strings, the pid as
// whether it is 0.
function shape(value) {
  if (value instanceof Error) {
    const out = { ...thrown(() => { throw value; }), keys: Object.keys(value) };
    for (const key of ['status', 'signal', 'stdout', 'stderr']) out[key] = shape(value[key]);
    return out;
  }
  if (Buffer.isBuffer(value)) return `B:${value.toString()}`;
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === 'object') {
    const out = { keys: Object.keys(value) };
    for (const key of Object.keys(value)) {
      if (key === 'pid') out.pid = value.pid === 0 ? 0 : 'a pid';
      else if (key === 'error') out.error = { ...shape(value.error), path: value.error.path, spawnargs: value.error.spawnargs };
      else out[key] = shape(value[key]);
    }
    return out;
  }
  return value;
}

function outcomeOf(fn) {
  try {
    return shape(fn());
  } catch (err) {
    return { threw: shape(err) };
  }
}

async function same(fn) {
  const r = await both(async (cp) => outcomeOf(() => fn(cp)));
  assert.deepEqual(r.fastspawn, r.node);
  return r.fastspawn;
}

describe('spawnSync', () => {
  it('output, status and the fields in Node order', async () => {
    const r = await same((cp) => cp.spawnSync('sh', ['-c', 'echo out; echo err >&2; exit 3']));
    assert.deepEqual(r.output, [null, 'B:out\n', 'B:err\n']);
    assert.equal(r.status, 3);
  });

  it('encoding, shell, cwd, env and argv0', async () => {
    await same((cp) => cp.spawnSync('echo', ['hi'], { encoding: 'utf8' }));
    await same((cp) => cp.spawnSync('echo $((6*7))', { shell: true, encoding: 'utf8' }));
    await same((cp) => cp.spawnSync('pwd', { cwd: os.tmpdir(), encoding: 'latin1' }));
    await same((cp) => cp.spawnSync('sh', ['-c', 'echo $FOO'], { env: { FOO: 'bar' }, encoding: 'utf8' }));
    await same((cp) => cp.spawnSync('sh', ['-c', 'echo $0'], { argv0: 'named', encoding: 'utf8' }));
  });

  it('input as a string, a Buffer, a TypedArray; bad input is refused', async () => {
    assert.equal((await same((cp) => cp.spawnSync('cat', { input: 'hello' }))).stdout, 'B:hello');
    await same((cp) => cp.spawnSync('cat', [], { input: Buffer.from('bytes') }));
    await same((cp) => cp.spawnSync('cat', [], { input: new Uint16Array([0x6968]) }));
    await same((cp) => cp.spawnSync('cat', [], { input: 'aGk=', encoding: 'base64' }));
    const bad = await same((cp) => cp.spawnSync('cat', [], { input: 5 }));
    assert.equal(bad.threw.code, 'ERR_INVALID_ARG_TYPE');
  });

  it('a signal, a missing program and a missing cwd', async () => {
    assert.equal((await same((cp) => cp.spawnSync('sh', ['-c', 'kill -9 $$']))).signal, 'SIGKILL');
    const missing = await same((cp) => cp.spawnSync('/nonexistent/fastspawn', ['a']));
    assert.equal(missing.error.code, 'ENOENT');
    assert.equal(missing.pid, 0);
    await same((cp) => cp.spawnSync('pwd', { cwd: '/nonexistent/fastspawn' }));
  });

  it('timeout kills with killSignal and reports ETIMEDOUT, with the output so far', async () => {
    const r = await same((cp) => cp.spawnSync('sh', ['-c', 'echo early; exec sleep 5'], { timeout: 200 }));
    assert.equal(r.error.code, 'ETIMEDOUT');
    assert.equal(r.signal, 'SIGTERM');
    assert.equal(r.stdout, 'B:early\n');
    await same((cp) => cp.spawnSync('sleep', ['5'], { timeout: 100, killSignal: 'SIGKILL' }));
    // Any integer is a timeout for Node, however large: no deadline here.
    await same((cp) => cp.spawnSync('echo', ['in time'], { timeout: 1e300 }));
  });

  it('maxBuffer: more output in all kills with ENOBUFS; 0, null and undefined are no limit', async () => {
    const r = await both(async (cp) => {
      const res = cp.spawnSync('sh', ['-c', 'head -c 300000 /dev/zero; exec sleep 5'], { maxBuffer: 1000 });
      return { code: res.error && res.error.code, signal: res.signal, over: res.stdout.length > 1000 };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn, { code: 'ENOBUFS', signal: 'SIGTERM', over: true });
    for (const maxBuffer of [0, null, undefined]) {
      await same((cp) => cp.spawnSync('sh', ['-c', 'echo unlimited'], { maxBuffer }));
    }
  });

  it("stdio 'inherit', 'ignore', an extra pipe, and 'ipc' refused", async () => {
    await same((cp) => cp.spawnSync('true', { stdio: 'inherit' }));
    await same((cp) => cp.spawnSync('true', { stdio: 'ignore' }));
    await same((cp) => cp.spawnSync('sh', ['-c', 'echo three >&3'], { stdio: ['pipe', 'pipe', 'pipe', 'pipe'] }));
    const ipc = await same((cp) => cp.spawnSync('true', { stdio: ['pipe', 'pipe', 'pipe', 'ipc'] }));
    assert.equal(ipc.threw.code, 'ERR_IPC_SYNC_FORK');
  });

  it('bad options: the same errors', async () => {
    for (const options of [{ timeout: -1 }, { maxBuffer: 'x' }, { killSignal: 'NOPE' }, { cwd: 42 }, { shell: 5 }]) {
      const r = await same((cp) => cp.spawnSync('true', options));
      assert.ok(r.threw, util.inspect(options));
    }
  });

  it('options inherited from Object.prototype are not read (a kept difference: Node feeds an inherited input to stdin)', () => {
    const fastspawn = require(PACKAGE);
    Object.prototype.input = 'polluted';
    Object.prototype.maxBuffer = 1;
    Object.prototype.shell = true;
    let r;
    try {
      r = fastspawn.spawnSync('sh', ['-c', 'cat; echo ok'], { stdio: 'pipe' });
    } finally {
      delete Object.prototype.input;
      delete Object.prototype.maxBuffer;
      delete Object.prototype.shell;
    }
    assert.equal(r.error, undefined);
    assert.equal(r.stdout.toString(), 'ok\n');
  });

  it('leaves no fd and no zombie, failures included', () => {
    const fastspawn = require(PACKAGE);
    fastspawn.spawnSync('true');
    const before = openFds();
    for (let i = 0; i < 50; i++) {
      fastspawn.spawnSync('sh', ['-c', 'echo x; echo y >&2'], { input: 'z' });
      fastspawn.spawnSync('/nonexistent/fastspawn');
      fastspawn.spawnSync('sleep', ['5'], { timeout: 1 });
    }
    assert.deepEqual(openFds(), before);
    assert.deepEqual(zombies(), []);
  });
});

describe('execFileSync and execSync', () => {
  it('output, failures and their errors as Node makes them', async () => {
    await same((cp) => cp.execFileSync('echo', ['x']));
    const failed = await same((cp) => cp.execFileSync('sh', ['-c', 'echo o; echo e >&2; exit 2'], { stdio: 'pipe' }));
    assert.match(failed.threw.message, /^Command failed: sh -c echo o; echo e >&2; exit 2\ne\n$/);
    await same((cp) => cp.execFileSync('/nonexistent/fastspawn'));
    await same((cp) => cp.execSync('echo $((1+1))', { encoding: 'utf8' }));
    await same((cp) => cp.execSync('exit 4', { stdio: 'pipe' }));
    await same((cp) => cp.execSync('cat', { input: 'in' }));
    await same((cp) => cp.execSync('sleep 5', { timeout: 100 }));
  });

  it("a failing command's stderr goes to the parent's stderr when stdio is not given", () => {
    const script = (mod) =>
      `try { require(${JSON.stringify(mod)}).execSync('echo to-stderr >&2; exit 1'); } catch (e) { process.stdout.write('status ' + e.status); }`;
    const run = (mod) => nodeCp.spawnSync(process.execPath, ['-e', script(mod)], { encoding: 'utf8' });
    const node = run('node:child_process');
    const pkg = run(PACKAGE);
    assert.deepEqual([pkg.stdout, pkg.stderr], [node.stdout, node.stderr]);
    assert.deepEqual([pkg.stdout, pkg.stderr], ['status 1', 'to-stderr\n']);
  });
});

describe('the engine', () => {
  const strace = nodeCp.spawnSync('strace', ['-V']).status === 0;
  const skip = strace ? false : 'strace is not installed: cannot see how the child was made';
  if (skip) console.log(`# skipped: ${skip}`);

  // The process-making clones (not threads) a Node process made for one
  // spawnSync of `mod`, by whether they shared the parent's memory.
  function clones(mod) {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fastspawn-sync-')), 'trace');
    const code = `const m = require(${JSON.stringify(mod)}); m.spawnSync('true');`;
    const r = nodeCp.spawnSync('strace', ['-f', '-qq', '-e', 'trace=clone,clone3,fork,vfork', '-o', out, process.execPath, '-e', code]);
    assert.equal(r.status, 0, String(r.stderr));
    const lines = fs.readFileSync(out, 'utf8').split('\n');
    fs.rmSync(path.dirname(out), { recursive: true });
    // Made (not a failed probe such as `clone3(NULL, 0) = -1 EINVAL`).
    const processes = lines.filter(
      (l) => /\b(clone3?|v?fork)\(/.test(l) && !/CLONE_THREAD/.test(l) && !/resumed>/.test(l) && !/= -1 /.test(l),
    );
    return {
      sharing: processes.filter((l) => /CLONE_VM/.test(l) && /CLONE_VFORK/.test(l)).length,
      copying: processes.filter((l) => !/CLONE_VM/.test(l)).length,
    };
  }

  it("spawnSync's child shares the parent's memory (CLONE_VM|CLONE_VFORK); Node's is a fork", { skip }, () => {
    const node = clones('node:child_process');
    const pkg = clones(PACKAGE);
    assert.ok(node.copying >= 1, `Node forks: ${util.inspect(node)}`);
    assert.deepEqual(pkg, { sharing: 1, copying: 0 });
  });
});
