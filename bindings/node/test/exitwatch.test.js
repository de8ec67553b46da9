'use strict';
// Who sees a child's exit: on Node's main thread the JS thread's own event
// loop (src/looppoll.rs: an epoll set of pidfds polled by libuv, the
// 'spawn' record held back until the exit or a short timer), elsewhere the
// waiter thread (src/waiter.rs). Both paths, switched with
// addon.setLoopWatch, must behave as node:child_process does.

const { describe, it, after } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { Worker } = require('node:worker_threads');

const { fastspawn, nodeCp, outcome, zombies } = require('../testlib/helpers');
const { addon, loopPoll } = require('../lib/native');

const CASES = [
  ['true', []],
  ['sh', ['-c', 'exit 3']],
  ['sh', ['-c', 'echo out; echo err >&2; exit 7']],
  ['sh', ['-c', 'kill -9 $$']],
  ['sh', ['-c', 'sleep 0.05; echo late']],
];

describe('exits seen by the event loop', () => {
  it("is what Node's main thread uses (FASTSPAWN_NODE_WAITER unset)", () => {
    if (process.env.FASTSPAWN_NODE_WAITER === '1') {
      console.log('# skipped: FASTSPAWN_NODE_WAITER=1 keeps the waiter thread');
      return;
    }
    assert.equal(loopPoll, true);
  });

  it('a worker thread keeps the waiter thread, and its children still exit', async () => {
    const native = JSON.stringify(path.join(__dirname, '..', 'lib', 'native.js'));
    const index = JSON.stringify(path.join(__dirname, '..', 'index.js'));
    const code = `
      const { parentPort } = require('node:worker_threads');
      const { loopPoll } = require(${native});
      require(${index}).spawn('sh', ['-c', 'exit 5']).on('close', (code) => parentPort.postMessage({ loopPoll, code }));
    `;
    const worker = new Worker(code, { eval: true });
    const message = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    assert.deepEqual(message, { loopPoll: false, code: 5 });
  });

  it('an unref()ed running child does not keep the process alive', () => {
    const index = JSON.stringify(path.join(__dirname, '..', 'index.js'));
    const code = `
      const c = require(${index}).spawn('sleep', ['30'], { stdio: 'ignore' });
      c.unref();
      console.log(c.pid);
    `;
    const r = nodeCp.spawnSync(process.execPath, ['-e', code], { encoding: 'utf8', timeout: 20000 });
    const pid = Number(r.stdout.trim());
    if (pid > 0) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    assert.equal(r.status, 0, `${r.error || ''} ${r.stderr}`);
    assert.ok(pid > 0);
  });
});

for (const [mode, onLoop] of [
  ['the loop', true],
  ['the waiter thread', false],
]) {
  describe(`exits seen by ${mode}`, () => {
    const set = () => {
      const using = addon.setLoopWatch(onLoop);
      assert.equal(using, onLoop && loopPoll);
    };
    after(() => addon.setLoopWatch(true));

    for (const [file, args] of CASES) {
      for (const stdio of ['pipe', 'ignore']) {
        it(`${file} ${args.join(' ')} (${stdio}): the same events and fields as node:child_process`, async () => {
          set();
          const node = await outcome(nodeCp.spawn(file, args, { stdio }));
          const fast = await outcome(fastspawn.spawn(file, args, { stdio }));
          assert.deepEqual(fast, node);
        });
      }
    }

    it("'spawn' of a child that keeps running comes while it runs", async () => {
      set();
      const child = fastspawn.spawn('sleep', ['30'], { stdio: 'ignore' });
      const events = [];
      await new Promise((resolve) => {
        child.on('spawn', () => {
          events.push(`spawn ${child.exitCode}`);
          child.kill();
        });
        child.on('exit', (code, signal) => events.push(`exit ${code} ${signal}`));
        child.on('close', resolve);
      });
      assert.deepEqual(events, ['spawn null', 'exit null SIGTERM']);
    });

    it('200 children at once: every exit code, no zombie, nothing left tracked', async () => {
      set();
      const runs = [];
      for (let i = 0; i < 200; i++) runs.push(outcome(fastspawn.spawn('sh', ['-c', `exit ${i % 256}`], { stdio: 'ignore' })));
      const results = await Promise.all(runs);
      results.forEach((r, i) => assert.deepEqual(r.events, ['spawn', `exit ${i} null`, `close ${i} null`]));
      assert.deepEqual(zombies(), []);
      assert.equal(addon.liveChildren(), 0);
    });
  });
}
