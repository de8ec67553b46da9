'use strict';
// The addon and its JS glue (src/, lib/native.js): spawns happen off the JS
// thread, nothing leaks (fds, zombies, registry entries), the inherited
// environment follows process.env, workers get their own event channel.

const { describe, it, before } = require('node:test');
const assert = require('node:assert/strict');
const { once } = require('node:events');
const path = require('node:path');
const { Worker } = require('node:worker_threads');

const { fastspawn, nodeCp, openFds, outcome, quiesce, zombies } = require('../testlib/helpers');
const { addon } = require('../lib/native');

describe('native side', () => {
  before(() => addon.debug(true));

  it('spawns on a fastspawn pool thread with the clone3 engine, never the JS thread', async () => {
    const child = fastspawn.spawn('true');
    await outcome(child);
    const [thread, engine] = addon.debugInfo(child._id);
    assert.match(thread, /^fastspawn-\d+$/);
    assert.equal(engine, 'Clone3');
    // The JS thread is not a pool thread: the main thread's name is the
    // process's (node), and pool threads are named fastspawn-N.
    assert.doesNotMatch(require('node:fs').readFileSync('/proc/thread-self/comm', 'utf8'), /^fastspawn-/);
  });

  it('takes a batch that outgrows the buffer between two tries (more queued meanwhile)', () => {
    const { takeAll } = require('../lib/native');
    // The queue holds 300 ints at the first try, 700 at the second (the
    // spawner threads went on), 900 at the third: each try that fails
    // says what it needed then; only a try that fits takes the records.
    const queued = [300, 700, 900];
    const tries = [];
    const take = (buf) => {
      const need = queued[Math.min(tries.length, queued.length - 1)];
      tries.push(buf.length);
      if (need > buf.length) return -need;
      buf.fill(7, 0, need);
      return need;
    };
    const [n, buf] = takeAll(take, new Int32Array(256));
    assert.equal(n, 900);
    assert.ok(buf.length >= 900);
    assert.deepEqual(tries, [256, 512, 1024]);
    assert.ok(buf.subarray(0, n).every((v) => v === 7));
    // A batch that fits the first time: the same buffer, one try.
    const small = new Int32Array(8);
    const [m, same] = takeAll(() => 4, small);
    assert.equal(m, 4);
    assert.equal(same, small);
  });

  it('a burst of 2,000 spawns delivers every spawn and exit (batches beyond the first buffer)', { timeout: 60000 }, async () => {
    const children = [];
    for (let i = 0; i < 2000; i++) children.push(fastspawn.spawn('true', [], { stdio: 'ignore' }));
    const results = await Promise.all(children.map((child) => outcome(child)));
    for (const r of results) assert.deepEqual(r.events, ['spawn', 'exit 0 null', 'close 0 null']);
  });

  it('no fd leaks after 1,000 spawns with piped stdio', async () => {
    await quiesce();
    const before = openFds();
    for (let round = 0; round < 10; round++) {
      const runs = [];
      for (let i = 0; i < 100; i++) runs.push(outcome(fastspawn.spawn('echo', [String(i)])));
      for (const r of await Promise.all(runs)) assert.equal(r.events.at(-1), 'close 0 null');
    }
    await quiesce();
    assert.deepEqual(openFds(), before);
    assert.equal(addon.liveChildren(), 0);
  });

  it('no fd leaks after 300 sequential piped spawns, each made from the previous one\'s \'close\' listener', async () => {
    // Each spawn comes before the check phase that would close the ends
    // the previous child gave up: its spawner thread takes and closes them.
    // (A first spawn makes the native side's own fds, run alone.)
    await outcome(fastspawn.spawn('true'));
    await quiesce();
    const before = openFds();
    let peak = 0;
    await new Promise((resolve, reject) => {
      let left = 300;
      const next = () => {
        const child = fastspawn.spawn('true', [], { stdio: left % 3 === 0 ? 'ignore' : 'pipe' });
        child.on('error', reject);
        child.on('close', (code) => {
          if (code !== 0) reject(new Error(`exit ${code}`));
          peak = Math.max(peak, openFds().length);
          if (--left === 0) resolve();
          else next();
        });
      };
      next();
    });
    await quiesce();
    assert.deepEqual(openFds(), before);
    // Given-up ends do not pile up while the spawns follow each other.
    assert.ok(peak <= before.length + 16, `peak ${peak} fds, ${before.length} before`);
    assert.equal(addon.liveChildren(), 0);
  });

  it('no fd leaks after 500 spawns whose piped outputs nobody touched (drained natively)', async () => {
    await quiesce();
    const before = openFds();
    for (let round = 0; round < 5; round++) {
      const runs = [];
      for (let i = 0; i < 100; i++) {
        const child = fastspawn.spawn('sh', ['-c', i % 2 ? 'echo out; echo err >&2' : 'true']);
        runs.push(new Promise((resolve) => child.on('close', resolve)));
      }
      assert.deepEqual(new Set(await Promise.all(runs)), new Set([0]));
    }
    const missing = fastspawn.spawn('fastspawn-no-such-program');
    missing.on('error', () => {});
    await new Promise((resolve) => missing.on('close', resolve));
    await quiesce();
    assert.deepEqual(openFds(), before);
    assert.equal(addon.liveChildren(), 0);
  });

  it('no fd leaks after 20 forks with an IPC channel', async () => {
    const fixture = require('node:path').join(__dirname, '..', 'testlib', 'ipc-child.js');
    await quiesce();
    const before = openFds();
    for (let i = 0; i < 20; i++) {
      const child = fastspawn.fork(fixture, [], { silent: i % 2 === 0 });
      child.send({ op: 'echo', value: i });
      await new Promise((resolve) => child.once('message', resolve));
      if (i % 3 === 0) child.kill();
      else child.disconnect();
      await new Promise((resolve) => child.on('exit', resolve));
      await quiesce();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    await quiesce();
    assert.deepEqual(openFds(), before);
  });

  it('reading pid at once never misses the spawner thread\'s report (300 spawns)', async () => {
    // pid waits for the report when it has not come yet: a settle that
    // did not wake that wait would hang here.
    const children = [];
    for (let i = 0; i < 300; i++) {
      const child = fastspawn.spawn('true');
      assert.ok(child.pid > 0);
      children.push(outcome(child));
    }
    for (const r of await Promise.all(children)) assert.equal(r.events.at(-1), 'close 0 null');
  });

  it('socketpairs made ahead by the spawner threads: bounded, close-on-exec, in no child', async () => {
    const previous = addon.setSocketpairReserve(6);
    try {
      // The spawn's job tops the reserve up to 6 pairs after its clone.
      await outcome(fastspawn.spawn('true'));
      await quiesce();
      const all = () => require('node:fs').readdirSync('/proc/self/fd').map(Number);
      const openFdsBefore = openFds();
      const withReserve = all();
      const reserved = addon.reservedFds();
      assert.equal(reserved.length, 12);
      for (const fd of reserved) {
        const flags = /^flags:\s*([0-7]+)$/m.exec(require('node:fs').readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))[1];
        assert.ok(parseInt(flags, 8) & 0o2000000, `reserved fd ${fd} is close-on-exec`);
      }
      addon.setSocketpairReserve(0);
      assert.deepEqual(addon.reservedFds(), []);
      for (const fd of reserved) {
        assert.ok(withReserve.includes(fd));
        assert.throws(() => require('node:fs').fstatSync(fd), { code: 'EBADF' }, `reserved fd ${fd} closed`);
      }
      // Without a reserve the JS thread makes the pairs: same outcome.
      const r = await outcome(fastspawn.spawn('echo', ['no reserve']));
      assert.equal(r.events.at(-1), 'close 0 null');
      addon.setSocketpairReserve(6);
      await outcome(fastspawn.spawn('true'));
      await quiesce();
      assert.equal(addon.reservedFds().length, 12);
      assert.deepEqual(openFds(), openFdsBefore);
      // No child of either implementation gets them: a shell lists its fds
      // (the reserve is full again, the same pairs or new ones).
      const seen = {};
      for (const [name, impl] of [['node', nodeCp], ['fastspawn', fastspawn]]) {
        seen[name] = await new Promise((resolve, reject) => {
          impl.execFile('sh', ['-c', 'ls /proc/$$/fd'], (err, stdout) => (err ? reject(err) : resolve(stdout.split('\n').filter(Boolean).map(Number))));
        });
      }
      // (Node's child may also get the parent's fds that are not
      // close-on-exec, such as the test runner's: none of the reserve's.)
      const inReserve = new Set(addon.reservedFds());
      assert.deepEqual(seen.node.filter((fd) => inReserve.has(fd)), []);
      assert.deepEqual(seen.fastspawn, [0, 1, 2]);
    } finally {
      addon.setSocketpairReserve(previous);
    }
  });

  it('spawns waiting in the pool queue hold no fds (a burst with inherited stdio)', async () => {
    // The inherited stdio fds are duplicated on the spawner thread, right
    // before each spawn: a synchronous burst holds at most a pidfd per
    // started child, not three duplicates per queued one (which ran a
    // 14,000-spawn burst out of fds).
    await quiesce();
    const before = openFds().length;
    const n = 1000;
    const children = [];
    for (let i = 0; i < n; i++) children.push(fastspawn.spawn('true', [], { stdio: 'inherit' }));
    const during = openFds().length - before;
    assert.ok(during <= n + 8, `${during} fds opened by a burst of ${n} queued spawns`);
    for (const r of await Promise.all(children.map(outcome))) assert.equal(r.events.at(-1), 'close 0 null');
    await quiesce();
    assert.equal(openFds().length, before);
  });

  it('no fd leaks after failed spawns (missing program, missing cwd, bad fd)', async () => {
    await quiesce();
    const before = openFds();
    const runs = [];
    for (let i = 0; i < 100; i++) {
      runs.push(outcome(fastspawn.spawn('fastspawn-no-such-program', [], { stdio: ['pipe', 'pipe', 'pipe', 'pipe'] })));
      runs.push(outcome(fastspawn.spawn('true', [], { cwd: '/fastspawn-no-such-dir' })));
    }
    for (const r of await Promise.all(runs)) assert.match(r.events[0], /^error ENOENT$/);
    // An fd no one has open: above every open one (fd 999 itself may be
    // open, inherited from whatever started the tests).
    const bad = Math.max(2, ...require('node:fs').readdirSync('/proc/self/fd').map(Number)) + 100;
    assert.throws(() => require('node:fs').fstatSync(bad), { code: 'EBADF' });
    for (let i = 0; i < 50; i++) {
      assert.throws(() => fastspawn.spawn('true', [], { stdio: ['pipe', 'pipe', 'pipe', 'pipe', bad] }), { code: 'EBADF' });
    }
    await quiesce();
    assert.deepEqual(openFds(), before);
    assert.equal(addon.liveChildren(), 0);
  });

  it('no zombies: every child is reaped, also those killed and those never waited for', async () => {
    const children = [];
    for (let i = 0; i < 50; i++) children.push(fastspawn.spawn('sleep', ['30'], { stdio: 'ignore' }));
    for (let i = 0; i < 50; i++) children.push(fastspawn.spawn('true', [], { stdio: 'ignore' }));
    const closed = children.map((c) => new Promise((resolve) => c.on('close', resolve)));
    for (const c of children.slice(0, 50)) c.kill('SIGKILL');
    await Promise.all(closed);
    assert.deepEqual(zombies(), []);
    assert.equal(addon.liveChildren(), 0);
  });

  it("traceOn() stamps each native step of a spawn in order, on process.hrtime's clock; off, nothing", async () => {
    addon.traceOn(true);
    const before = Number(process.hrtime.bigint());
    const child = fastspawn.spawn('true', [], { stdio: 'ignore' });
    await outcome(child);
    const after = Number(process.hrtime.bigint());
    const stamps = addon.traceTake();
    addon.traceOn(false);
    const mine = new Map();
    for (let i = 0; i < stamps.length; i += 3) {
      // Delivered (6) comes once per record of the child: keep the last.
      if (stamps[i] === child._id) mine.set(stamps[i + 1], stamps[i + 2]);
    }
    // PoolStart, Built, Spawned, WaiterWoke, ExitPosted, Delivered.
    assert.deepEqual([...mine.keys()].sort(), [1, 2, 3, 4, 5, 6]);
    let last = before;
    for (let step = 1; step <= 6; step++) {
      assert.ok(mine.get(step) >= last, `step ${step} before the one ahead of it`);
      last = mine.get(step);
    }
    assert.ok(last <= after);
    await outcome(fastspawn.spawn('true', [], { stdio: 'ignore' }));
    assert.deepEqual(addon.traceTake(), []);
  });

  it('with the benchmarks\' coalesced delivery (setEventDelivery), every child\'s events and output are as node:child_process gives them, and a request may take them early (collectEvents)', async () => {
    const { collectEvents } = require('../lib/native');
    const run = (impl) =>
      Promise.all(Array.from({ length: 8 }, (_, i) => outcome(impl.spawn('sh', ['-c', `echo ${i}; echo e${i} >&2; exit ${i}`]))));
    const expected = await run(nodeCp);
    // Every record waits up to 20 ms, or until 1,000 wait: the eight
    // children's events come in one or a few wake-ups.
    addon.setEventDelivery(20000, 1000);
    try {
      assert.deepEqual(await run(fastspawn), expected);
      // Nothing waits once they closed: a take finds nothing.
      assert.equal(collectEvents(), false);
      // One child whose records JS takes itself, as a request would (or
      // the deadline's wake-up, if it comes first).
      const child = fastspawn.spawn('sh', ['-c', 'echo x']);
      const got = outcome(child);
      let exited = false;
      child.once('exit', () => (exited = true));
      while (!exited && !collectEvents()) await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(await got, await outcome(nodeCp.spawn('sh', ['-c', 'echo x'])));
    } finally {
      addon.setEventDelivery(0, 1);
    }
    assert.deepEqual(zombies(), []);
  });

  for (const poll of [false, true]) {
    it(`a child that exits quickly reaches JS in one batch; a longer one gets its spawn after the linger, its pid and kill() during it (${poll ? 'polling' : 'asleep in ppoll'})`, async () => {
      const { batchCount } = require('../lib/native');
      const previous = addon.setSpawnLinger(100000); // 100 ms: surely long enough for `true`
      const previousPoll = addon.setSpawnLingerPoll(poll);
      assert.equal(previousPoll, false);
      try {
        await outcome(fastspawn.spawn('true', [], { stdio: 'ignore' }));
        const before = batchCount();
        const quick = await outcome(fastspawn.spawn('true', [], { stdio: 'ignore' }));
        assert.equal(batchCount() - before, 1);
        assert.deepEqual(quick.events, ['spawn', 'exit 0 null', 'close 0 null']);

        // A child that outlives the linger: its 'spawn' comes when the
        // linger ends (before its exit), unless JS settled it sooner by
        // reading its pid, which does not wait for the linger.
        addon.setSpawnLinger(20000);
        const t0 = process.hrtime.bigint();
        const child = fastspawn.spawn('sleep', ['5'], { stdio: 'ignore' });
        await once(child, 'spawn');
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        assert.ok(ms >= 15, `'spawn' after ${ms} ms, before the 20 ms linger ended`);
        const read = fastspawn.spawn('sleep', ['5'], { stdio: 'ignore' });
        assert.ok(read.pid > 0);
        for (const c of [child, read]) {
          assert.equal(c.kill('SIGKILL'), true);
          const [code, signal] = await once(c, 'exit');
          assert.deepEqual([code, signal], [null, 'SIGKILL']);
        }

        // Killed during the linger: the spawner thread sees the exit.
        addon.setSpawnLinger(100000);
        const killed = fastspawn.spawn('sleep', ['5'], { stdio: 'ignore' });
        const events = [];
        for (const e of ['spawn', 'exit']) killed.on(e, (...a) => events.push([e, ...a]));
        assert.equal(killed.kill('SIGTERM'), true);
        await once(killed, 'close');
        assert.deepEqual(events, [['spawn'], ['exit', null, 'SIGTERM']]);
      } finally {
        addon.setSpawnLinger(previous);
        addon.setSpawnLingerPoll(previousPoll);
      }
      assert.deepEqual(zombies(), []);
    });
  }

  it('setPoolSpin sets the global spawner pool\'s watch window (read back from the pool, capped at 100 ms); spawns run with it long and off', async () => {
    // Which thread takes a job is not asserted: a spawn that comes before
    // the last job's thread is back at the queue wakes a sleeping one (the
    // core's own tests check the watching, pool.rs).
    const previous = addon.setPoolSpin(200000);
    try {
      assert.equal(previous, 50);
      assert.equal(addon.setPoolSpin(100000), 100000);
      for (const window of [100000, 0]) {
        addon.setPoolSpin(window);
        for (let i = 0; i < 5; i++) {
          const { events } = await outcome(fastspawn.spawn('true', [], { stdio: 'ignore' }));
          assert.deepEqual(events, ['spawn', 'exit 0 null', 'close 0 null']);
        }
      }
      assert.equal(addon.setPoolSpin(previous), 0);
    } finally {
      addon.setPoolSpin(previous);
    }
  });

  it('benchSpawnWait runs the program n times (no zombie left) and names a missing one', () => {
    for (const [onPool, env] of [[false, 'inherit'], [true, 'vars'], [true, 'shared']]) {
      const [total, spawning] = addon.benchSpawnWait('/bin/true', 5, onPool, env);
      assert.ok(total > 0 && spawning > 0 && spawning <= total, `${total} ${spawning}`);
    }
    assert.deepEqual(zombies(), []);
    assert.throws(() => addon.benchSpawnWait('/nonexistent/fastspawn-bench', 1, true, 'inherit'), /nonexistent\/fastspawn-bench/);
    assert.throws(() => addon.benchSpawnWait('/bin/true', 1, true, 'x'), /env must be/);
  });

  it('kill() goes through the pidfd: after the child was reaped it signals nothing', async () => {
    const child = fastspawn.spawn('true', [], { stdio: 'ignore' });
    const pid = child.pid;
    await new Promise((resolve) => child.on('exit', resolve));
    assert.equal(child.kill('SIGKILL'), false);
    assert.equal(addon.kill(child._id, 9), -3); // -ESRCH: unknown to the registry
    assert.ok(pid > 0);
  });

  it('the inherited environment follows process.env (set, change, delete)', async () => {
    const read = async () => (await outcome(fastspawn.spawn('sh', ['-c', 'echo "${FASTSPAWN_ENV_T-unset}"']))).stdout;
    assert.equal(await read(), 'unset\n');
    process.env.FASTSPAWN_ENV_T = 'one';
    assert.equal(await read(), 'one\n');
    process.env.FASTSPAWN_ENV_T = 'two';
    assert.equal(await read(), 'two\n');
    delete process.env.FASTSPAWN_ENV_T;
    assert.equal(await read(), 'unset\n');
  });

  it('works from a worker thread (its own event channel), with its process.env copy', async () => {
    const index = JSON.stringify(path.join(__dirname, '..', 'index.js'));
    const code = `
      const { parentPort } = require('node:worker_threads');
      process.env.FASTSPAWN_WORKER_ONLY = 'worker';
      const cp = require(${index});
      cp.execFile('sh', ['-c', 'echo "$FASTSPAWN_WORKER_ONLY"'], (err, out) => parentPort.postMessage(err ? String(err) : out));
    `;
    const worker = new Worker(code, { eval: true });
    const message = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    assert.equal(message, 'worker\n');
    assert.equal(process.env.FASTSPAWN_WORKER_ONLY, undefined);
  });

  it('the JS thread is free while children start: a timer keeps firing during 200 spawns', async () => {
    // Not a timing assertion: only that spawning does not run on the
    // event loop's thread, seen as the loop turning during the burst.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const runs = [];
    for (let i = 0; i < 200; i++) runs.push(outcome(fastspawn.spawn('true')));
    await Promise.all(runs);
    clearInterval(timer);
    assert.ok(ticks > 0);
  });
});

describe('bench peer runner node-fastspawn (bench/peers/node/peer.js)', () => {
  const peer = path.join(__dirname, '..', '..', '..', 'bench', 'peers', 'node', 'peer.js');
  for (const mode of ['wait', 'spawn']) {
    it(`--mode ${mode} reports one JSON line`, () => {
      const r = nodeCp.spawnSync(
        process.execPath,
        [peer, '--runner', 'node-fastspawn', '--mode', mode, '--n', '20', '--warmup', '2', '--extra-fds', '2', '--set-env', '--samples', '--', '/bin/true'],
        { encoding: 'utf8', timeout: 60000 },
      );
      assert.equal(r.status, 0, r.stderr);
      const lines = r.stdout.trim().split('\n');
      assert.equal(lines.length, 1);
      const report = JSON.parse(lines[0]);
      assert.equal(report.runner, 'node-fastspawn');
      assert.equal(report.mode, mode);
      assert.equal(report.n, 20);
      assert.ok(Number.isInteger(report.total_ns) && report.total_ns > 0);
      assert.equal(report.samples_ns.length, 20);
    });
  }

  it('a missing child: exit 1 with a message naming the runner', () => {
    const r = nodeCp.spawnSync(process.execPath, [peer, '--runner', 'node-fastspawn', '--mode', 'wait', '--n', '3', '--', '/fastspawn-missing'], {
      encoding: 'utf8',
      timeout: 60000,
    });
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /node-fastspawn/);
  });
});
