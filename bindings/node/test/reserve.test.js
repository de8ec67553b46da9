'use strict';
// The socketpair reserve (src/request.rs): its default size (6 pairs) is
// kept by default spawns, however many run at once; only pipeAs:
// 'readable' spawns that find it short grow it (up to 48 pairs), so that a
// server spawning many such children makes its pairs on the spawner
// threads rather than on the JS thread. Its own process (node --test runs
// each file alone): the reserve is process-wide.

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');

const { fastspawn, openFds, outcome } = require('../testlib/helpers');
const { addon } = require('../lib/native');

async function settled() {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  const deadline = Date.now() + 5000;
  while (addon.afterWorkPending() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
}

async function burst(options) {
  const runs = [];
  for (let i = 0; i < 100; i++) runs.push(outcome(fastspawn.spawn('echo', [String(i)], options)));
  for (const r of await Promise.all(runs)) assert.equal(r.events.at(-1), 'close 0 null');
  // One more spawn tops the reserve up to its size, after its clone.
  await outcome(fastspawn.spawn('true', [], options));
  await settled();
}

describe('the socketpair reserve', () => {
  it('default spawns keep its default size; pipeAs: readable bursts grow it, bounded; nothing leaks', async () => {
    await burst({});
    const before = openFds();
    assert.equal(addon.reservedFds().length, 12, 'default spawns: 6 pairs');
    await burst({ pipeAs: 'readable' });
    const grown = addon.reservedFds().length;
    assert.ok(grown > 12, `grown to ${grown / 2} pairs`);
    assert.ok(grown <= 96, `at most 48 pairs, not ${grown / 2}`);
    await burst({ pipeAs: 'readable' });
    assert.ok(addon.reservedFds().length <= 96);
    assert.deepEqual(openFds(), before, 'no fd left besides the reserve');
    assert.equal(addon.openOutputs(), 0);
  });
});
