'use strict';
// setDelivery({ within, count }): the children's events coalesced while
// other children of the process run (src/events.rs). A lone child's are
// not delayed (checked through the addon's counters, not by timing),
// events keep their order and nothing is lost in bursts, side by side
// with node:child_process.

const { describe, it, afterEach } = require('node:test');
const assert = require('node:assert/strict');
const { once } = require('node:events');
const path = require('node:path');
const { Worker } = require('node:worker_threads');

const { fastspawn, nodeCp, outcome, thrown, zombies } = require('../testlib/helpers');
const { addon } = require('../lib/native');

// [at once, held, deadline wake-ups] since `before`.
const statsSince = (before) => addon.deliveryStats().map((n, i) => n - before[i]);

describe('setDelivery', () => {
  afterEach(() => {
    fastspawn.setDelivery({ within: 0 });
    assert.deepEqual(zombies(), []);
    assert.equal(addon.openOutputs(), 0);
  });

  it('is off by default, and returns the previous setting', () => {
    assert.deepEqual(addon.eventDelivery(), [0, 64]);
    assert.deepEqual(fastspawn.setDelivery({ within: 5000 }), { within: 0, count: 64 });
    assert.deepEqual(fastspawn.setDelivery({ within: 2000, count: 8 }), { within: 5000, count: 64 });
    assert.deepEqual(addon.eventDelivery(), [2000, 8]);
    assert.deepEqual(fastspawn.setDelivery({}), { within: 2000, count: 8 });
    assert.deepEqual(addon.eventDelivery(), [0, 64]);
  });

  it('validates its options as Node validates numbers (own properties only)', () => {
    const code = (options) => (thrown(() => fastspawn.setDelivery(options)) || {}).code;
    assert.equal(code(undefined), 'ERR_INVALID_ARG_TYPE');
    assert.equal(code(null), 'ERR_INVALID_ARG_TYPE');
    assert.equal(code({ within: '5000' }), 'ERR_INVALID_ARG_TYPE');
    assert.equal(code({ within: -1 }), 'ERR_OUT_OF_RANGE');
    assert.equal(code({ within: 1.5 }), 'ERR_OUT_OF_RANGE');
    assert.equal(code({ within: 100001 }), 'ERR_OUT_OF_RANGE');
    assert.equal(code({ within: 100, count: 0 }), 'ERR_OUT_OF_RANGE');
    assert.equal(code({ within: 100, count: null }), 'ERR_INVALID_ARG_TYPE');
    assert.match(thrown(() => fastspawn.setDelivery({ within: -1 })).message, /options\.within/);
    assert.deepEqual(addon.eventDelivery(), [0, 64], 'a refused call changes nothing');
    Object.prototype.within = 5000;
    try {
      fastspawn.setDelivery({});
    } finally {
      delete Object.prototype.within;
    }
    assert.deepEqual(addon.eventDelivery(), [0, 64], 'an inherited within is not read');
  });

  it('a lone child is not delayed: sequential spawn + close, every record woke JS at once', async () => {
    // 100 ms: a held record would show in the counters (and the deadline).
    fastspawn.setDelivery({ within: 100000 });
    const expected = await outcome(nodeCp.spawn('sh', ['-c', 'echo out; echo err >&2; exit 2']));
    const before = addon.deliveryStats();
    for (let i = 0; i < 20; i++) {
      const options = i % 2 === 0 ? {} : { pipeAs: 'readable' };
      assert.deepEqual(await outcome(fastspawn.spawn('sh', ['-c', 'echo out; echo err >&2; exit 2'], options)), expected);
      assert.deepEqual(await outcome(fastspawn.spawn('true', [], { stdio: 'ignore' })), {
        ...(await outcome(nodeCp.spawn('true', [], { stdio: 'ignore' }))),
      });
    }
    const [atOnce, held, deadlines] = statsSince(before);
    assert.equal(held, 0, 'no record was held');
    assert.equal(deadlines, 0, 'no wake-up waited for the deadline');
    assert.ok(atOnce >= 40, `${atOnce} records woke JS at once`);
  });

  it('a short child beside a long one: its events are held, still come in order, before the long one ends', async () => {
    fastspawn.setDelivery({ within: 20000 });
    const long = fastspawn.spawn('sleep', ['1'], { stdio: 'ignore' });
    await once(long, 'spawn');
    const before = addon.deliveryStats();
    const short = await outcome(fastspawn.spawn('sh', ['-c', 'echo hi; exit 3'], { pipeAs: 'readable' }));
    const [, held] = statsSince(before);
    assert.ok(held >= 1, 'the short child ran while another did: held');
    assert.equal(long.exitCode, null, 'the long child still runs');
    assert.deepEqual(short, await outcome(nodeCp.spawn('sh', ['-c', 'echo hi; exit 3'])));
    long.kill('SIGKILL');
    const [code, signal] = await once(long, 'exit');
    assert.deepEqual([code, signal], [null, 'SIGKILL']);
  });

  it('bursts: 300 children at once, both stdio kinds, every event in order and every byte', { timeout: 60000 }, async () => {
    fastspawn.setDelivery({ within: 5000, count: 16 });
    const before = addon.deliveryStats();
    const runs = [];
    for (let i = 0; i < 300; i++) {
      const options = i % 3 === 0 ? { stdio: 'ignore' } : i % 3 === 1 ? {} : { pipeAs: 'readable' };
      runs.push(outcome(fastspawn.spawn('sh', ['-c', `echo ${i}; exit ${i % 7}`], options)));
    }
    const results = await Promise.all(runs);
    results.forEach((r, i) => {
      assert.deepEqual(r.events, ['spawn', `exit ${i % 7} null`, `close ${i % 7} null`]);
      assert.equal(r.stdout, i % 3 === 0 ? '' : `${i}\n`);
    });
    const [, held] = statsSince(before);
    assert.ok(held > 0, 'records were held while others ran');
    assert.equal(addon.liveChildren(), 0);
  });

  it('is process-wide: a worker thread\'s spawn() takes what waits, as set by the main thread', { timeout: 60000 }, async () => {
    // The main thread turns it on; in a worker (its own copy of the
    // package's modules, its own event channel) a short child runs beside
    // a long one, so its record is held; the worker's next spawn() must
    // take it at the end of that macrotask, as on the main thread, not
    // leave it to the deadline (100 ms). An attempt during which the
    // deadline woke the worker anyway proves nothing and is run again.
    fastspawn.setDelivery({ within: 100000 });
    const index = JSON.stringify(path.join(__dirname, '..', 'index.js'));
    const native = JSON.stringify(path.join(__dirname, '..', 'lib', 'native.js'));
    const code = `
      const { parentPort } = require('node:worker_threads');
      const { once } = require('node:events');
      const fastspawn = require(${index});
      const { addon } = require(${native});
      const turn = () => new Promise(setImmediate);
      (async () => {
        const attempts = [];
        for (let attempt = 0; attempt < 5; attempt++) {
          const long = fastspawn.spawn('sleep', ['30'], { stdio: 'ignore' });
          const longClosed = once(long, 'close');
          await once(long, 'spawn');
          const before = addon.deliveryStats();
          const short = fastspawn.spawn('true', [], { stdio: 'ignore' });
          const shortClosed = once(short, 'close');
          let spawned = false;
          short.on('spawn', () => { spawned = true; });
          // Until its record waits (held: no wake-up on its way).
          let turns = 0;
          while (addon.deliveryStats()[1] === before[1] && !spawned && turns < 1e6) { await turn(); turns++; }
          const heldBefore = !spawned && addon.deliveryStats()[1] > before[1];
          const next = fastspawn.spawn('true', [], { stdio: 'ignore' });
          const nextClosed = once(next, 'close');
          await turn();
          const taken = spawned;
          const deadlines = addon.deliveryStats()[2] - before[2];
          long.kill('SIGKILL');
          await Promise.all([longClosed, shortClosed, nextClosed]);
          attempts.push({ heldBefore, taken, deadlines });
          if (heldBefore && deadlines === 0) break;
        }
        parentPort.postMessage(attempts);
      })().catch((err) => parentPort.postMessage(String(err && err.stack)));
    `;
    const worker = new Worker(code, { eval: true });
    const attempts = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    assert.ok(Array.isArray(attempts), attempts);
    const conclusive = attempts.filter((a) => a.heldBefore && a.deadlines === 0);
    assert.ok(conclusive.length > 0, `no attempt without a deadline wake-up: ${JSON.stringify(attempts)}`);
    for (const a of conclusive) assert.equal(a.taken, true, "the worker's spawn() took the held record");
  });

  it('exits in bursts across several waves, with spawn() taking what waits', { timeout: 60000 }, async () => {
    fastspawn.setDelivery({ within: 5000, count: 64 });
    const expected = await outcome(nodeCp.spawn('echo', ['wave']));
    for (let wave = 0; wave < 5; wave++) {
      const runs = [];
      for (let i = 0; i < 50; i++) runs.push(outcome(fastspawn.spawn('echo', ['wave'], { pipeAs: 'readable' })));
      for (const r of await Promise.all(runs)) assert.deepEqual(r, expected);
    }
  });
});
