'use strict';
// The lone path (src/lone.rs, an opt-in: setLone(true)): a child spawned while no other child of the
// package runs is spawned by the lone thread, cloned without a pidfd, and
// its exit learned there, blocked in waitid(WNOWAIT); every other child
// goes to the pool and keeps the pidfd and the waiter. `addon.loneStats()` is [children spawned on the lone path, 1
// while its slot is taken]: the tests assert which path ran, and compare
// what JS sees with node:child_process.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { once } = require('node:events');

const { both, fastspawn, openFds, outcome, quiesce, zombies } = require('../testlib/helpers');
const { addon } = require('../lib/native');

const lone = () => addon.loneStats()[0];
const slotTaken = () => addon.loneStats()[1] === 1;

describe('the lone path (no pidfd for a child that runs alone)', () => {
  let previous;
  before(() => {
    previous = addon.setLone(true);
  });
  after(() => addon.setLone(previous));

  it('is off by default: with it off, a child alone takes the pidfd path', async () => {
    assert.equal(previous, false, 'the lone path is off by default');
    addon.setLone(false);
    try {
      const before = lone();
      const got = await both((cp) => outcome(cp.spawn('sh', ['-c', 'exit 4'])));
      assert.deepEqual(got.fastspawn, got.node);
      assert.equal(lone() - before, 0);
    } finally {
      addon.setLone(true);
    }
  });

  it('sequential children take it, with the events, statuses and output of node:child_process', async () => {
    const cases = [
      ['sh', ['-c', 'echo out; echo err >&2; exit 3'], {}],
      ['sh', ['-c', 'kill -TERM $$'], {}],
      ['true', [], { stdio: 'ignore' }],
    ];
    for (const [file, args, options] of cases) {
      const before = lone();
      const got = await both((cp) => outcome(cp.spawn(file, args, options)));
      assert.deepEqual(got.fastspawn, got.node, `${file} ${args.join(' ')}`);
      assert.equal(lone() - before, 1, `${file} ${args.join(' ')} took the lone path`);
    }
    assert.equal(slotTaken(), false, 'slot given back after the exits');
  });

  it('kill() of a lone child, and kill() after its exit, as node:child_process', async () => {
    const got = await both(async (cp) => {
      const child = cp.spawn('sleep', ['30'], { stdio: 'ignore' });
      await once(child, 'spawn');
      const pid = child.pid;
      const exited = once(child, 'exit');
      const closed = once(child, 'close');
      const sent = child.kill('SIGTERM');
      const [code, signal] = await exited;
      await closed;
      return { pidOk: Number.isInteger(pid) && pid > 0, sent, code, signal, again: child.kill('SIGTERM'), killed: child.killed };
    });
    assert.deepEqual(got.fastspawn, got.node);
    assert.deepEqual(zombies(), []);
  });

  it('a lone child is spawned by the lone thread without a pidfd; kill() makes one, closed at the reap', async () => {
    const pidfds = () =>
      fs.readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`) === 'anon_inode:[pidfd]';
        } catch {
          return false;
        }
      }).length;
    await quiesce();
    const at0 = pidfds();
    addon.debug(true);
    let child;
    try {
      child = fastspawn.spawn('sleep', ['30'], { stdio: 'ignore' });
      await once(child, 'spawn');
      assert.equal(addon.debugInfo(child._id)[0], 'fastspawn-lone');
    } finally {
      addon.debug(false);
    }
    assert.equal(slotTaken(), true);
    assert.equal(pidfds(), at0, 'the clone made no pidfd');
    const exited = once(child, 'exit');
    const closed = once(child, 'close');
    // Signal 0 first: the child goes on, and so does the pidfd made to
    // send it (a SIGTERM could end the child and its reap close it
    // before the count).
    assert.equal(child.kill(0), true);
    assert.equal(pidfds(), at0 + 1, 'the signal went through a pidfd made for it');
    assert.equal(child.kill('SIGTERM'), true);
    assert.deepEqual(await exited, [null, 'SIGTERM']);
    await closed;
    await quiesce();
    assert.equal(pidfds(), at0, 'closed with the reaped child');
  });

  it('a long lone child does not hold back a burst after it: their exits come while it runs, on the pidfd path', async () => {
    const before = lone();
    const long = fastspawn.spawn('sleep', ['30'], { stdio: 'ignore' });
    await once(long, 'spawn');
    assert.equal(lone() - before, 1, 'the long child took the lone path');
    assert.equal(slotTaken(), true);
    const shorts = Array.from({ length: 20 }, (_, i) => fastspawn.spawn('sh', ['-c', `echo ${i}`]));
    const outs = await Promise.all(shorts.map((child) => outcome(child)));
    outs.forEach((o, i) => {
      assert.equal(o.stdout, `${i}\n`);
      assert.deepEqual(o.events, ['spawn', 'exit 0 null', 'close 0 null']);
    });
    assert.equal(long.exitCode, null, 'the long child still runs');
    assert.equal(long.signalCode, null);
    assert.equal(lone() - before, 1, 'none of the burst took the lone path while the slot was taken');
    // One spawned after the burst, while the lone child still runs: the
    // pidfd path too.
    const o = await outcome(fastspawn.spawn('true', [], { stdio: 'ignore' }));
    assert.deepEqual(o.events, ['spawn', 'exit 0 null', 'close 0 null']);
    assert.equal(lone() - before, 1);
    const exited = once(long, 'exit');
    long.kill('SIGKILL');
    const [code, signal] = await exited;
    assert.deepEqual([code, signal], [null, 'SIGKILL']);
    assert.equal(slotTaken(), false);
    // And the next one alone takes it again.
    await once(fastspawn.spawn('true', [], { stdio: 'ignore' }), 'close');
    assert.equal(lone() - before, 2);
  });

  it('two spawns at once: only one holds the slot, both end as node:child_process', async () => {
    // Two long children started in one tick and running together: at most
    // one is lone (the first one's spawner may run before the second
    // spawn() is counted, the second then finds the slot taken).
    for (let i = 0; i < 10; i++) {
      const before = lone();
      const got = await both(async (cp) => {
        const children = [cp.spawn('sleep', ['30'], { stdio: 'ignore' }), cp.spawn('sleep', ['30'], { stdio: 'ignore' })];
        const ends = children.map((child) => outcome(child));
        await Promise.all(children.map((child) => once(child, 'spawn')));
        children.forEach((child) => child.kill('SIGTERM'));
        return Promise.all(ends);
      });
      assert.deepEqual(got.fastspawn, got.node);
      assert.ok(lone() - before <= 1, `round ${i}: ${lone() - before} lone children running together`);
      assert.equal(slotTaken(), false);
    }
    // Two quick ones at once, many times: whatever path each took, they
    // end as Node's.
    for (let i = 0; i < 20; i++) {
      const got = await both((cp) => Promise.all([outcome(cp.spawn('true', [], { stdio: 'ignore' })), outcome(cp.spawn('sh', ['-c', 'exit 2']))]));
      assert.deepEqual(got.fastspawn, got.node);
    }
    assert.equal(slotTaken(), false);
  });

  it('a failed spawn gives the slot back', async () => {
    const child = fastspawn.spawn('/nonexistent/fastspawn-lone', [], { stdio: 'ignore' });
    const [err] = await once(child, 'error');
    assert.equal(err.code, 'ENOENT');
    assert.equal(slotTaken(), false);
    const before = lone();
    await once(fastspawn.spawn('true', [], { stdio: 'ignore' }), 'close');
    assert.equal(lone() - before, 1);
  });

  it('children that need a pidfd keep it: pipeAs readable, contain', async (t) => {
    let before = lone();
    const o = await outcome(fastspawn.spawn('sh', ['-c', 'echo r'], { pipeAs: 'readable' }));
    assert.equal(o.stdout, 'r\n');
    assert.equal(lone() - before, 0, 'a readable child took the pidfd path');
    before = lone();
    const contained = fastspawn.spawn('true', [], { contain: true, stdio: 'ignore' });
    const events = [];
    contained.on('spawn', () => events.push('spawn'));
    contained.on('error', (err) => events.push(`error ${err.code}`));
    await once(contained, 'close');
    if (events[0] !== 'spawn') {
      t.skip(`contain is not available here (${events[0]}): only pipeAs checked`);
      return;
    }
    await contained.waitTree();
    assert.equal(lone() - before, 0, 'a contained child took the pidfd path');
  });

  it('no fd, zombie or slot left after many lone children', async () => {
    for (let i = 0; i < 20; i++) await once(fastspawn.spawn('true', [], { stdio: 'ignore' }), 'close');
    await quiesce();
    const fds = openFds();
    const before = lone();
    for (let i = 0; i < 200; i++) await once(fastspawn.spawn('true', [], { stdio: i % 2 ? 'ignore' : 'pipe' }), 'close');
    assert.equal(lone() - before, 200);
    await quiesce();
    assert.deepEqual(openFds(), fds);
    assert.deepEqual(zombies(), []);
    assert.equal(slotTaken(), false);
  });
});
