'use strict';
// Where the time of one sequential spawn + 'close' goes, step by step.
// Not a test: it prints numbers.
//
//   node bench/breakdown.js [--peers DIR] [--n 500] [--rounds 3] [--stdio ignore,pipe]
//       [--linger 0,200] [--spin 50,300]

// Each spawn of a static do-nothing child (DIR/noop) is stamped on one
// clock (CLOCK_MONOTONIC, which process.hrtime.bigint() reads): in JS
// (spawn() called and returned, 'exit', 'close', the next spawn() call)
// and natively (the addon's traceOn(): the pool thread starts the job,
// the command is built, Command::spawn returned, the waiter woke on the
// pidfd, the exit posted, the batch handed to JS). For each step it
// prints the median over the spawns and its share of the whole cycle;
// the C clone loop (DIR/c-peer, runner c-clone) is measured in the same
// rounds for scale, and so is the core alone inside this process
// (addon.benchSpawnWait: Command::spawn + wait on a pool thread, the
// environment inherited or given variable by variable). With each side, the JS thread's own CPU time per spawn
// (/proc/thread-self/schedstat).

const fs = require('node:fs');
const nodeCp = require('node:child_process');
const fastspawn = require('..');
const { addon } = require('../lib/native');

const { STEP, arg, NOOP, C_PEER, median } = require('./args');
const N = arg('n', 500);
const ROUNDS = arg('rounds', 3);
const STDIOS = arg('stdio', 'ignore,pipe').split(',');
// `--linger 0,200`: also compares spawner-thread lingers (µs; see
// setSpawnLinger in src/lib.rs), interleaved within each round.
const LINGERS = String(arg('linger', '')).split(',').filter((x) => x !== '').map(Number);
// `--spin 50,300`: likewise the spawner pool's watch window (µs; see
// setPoolSpin in src/lib.rs).
const SPINS = String(arg('spin', '')).split(',').filter((x) => x !== '').map(Number);

const { POOL_START, BUILT, SPAWNED, WAITER_WOKE, EXIT_POSTED, DELIVERED } = STEP;

function cClone(n) {
  const out = nodeCp.execFileSync(C_PEER, ['--runner', 'c-clone', '--mode', 'wait', '--n', String(n), '--warmup', '20', '--', NOOP], {
    encoding: 'utf8',
  });
  return JSON.parse(out).total_ns / n / 1000;
}

const now = () => Number(process.hrtime.bigint());

// The JS thread's CPU time so far (ns; /proc/thread-self/schedstat).
const threadCpu = () => Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);

async function run(stdio, n) {
  const js = [];
  for (let i = 0; i < n; i++) {
    const s = { id: 0, call: now(), returned: 0, exit: 0, close: 0 };
    await new Promise((resolve, reject) => {
      const child = fastspawn.spawn(NOOP, [], { stdio });
      s.returned = now();
      s.id = child._id;
      child.on('error', reject);
      child.on('exit', () => {
        s.exit = now();
      });
      child.on('close', () => {
        s.close = now();
        resolve();
      });
    });
    js.push(s);
  }
  // The next spawn() call closes each cycle; the last one has none.
  for (let i = 0; i + 1 < js.length; i++) js[i].next = js[i + 1].call;
  js.pop();
  return js;
}

function breakdown(js, stamps) {
  const native = new Map();
  let batches = 0;
  for (let i = 0; i < stamps.length; i += 3) {
    const id = stamps[i];
    const step = stamps[i + 1];
    let m = native.get(id);
    if (!m) native.set(id, (m = { delivered: [] }));
    // One stamp per record: the records of one batch are stamped within
    // a few µs of each other.
    if (step === DELIVERED) {
      const last = m.delivered[m.delivered.length - 1];
      if (last === undefined || stamps[i + 2] - last > 5000) m.delivered.push(stamps[i + 2]);
      else m.delivered[m.delivered.length - 1] = stamps[i + 2];
    }
    else m[step] = stamps[i + 2];
  }
  const rows = {
    "spawn() call (JS: options, ChildProcess, napi call, socketpairs)": [],
    'hand-off to the pool thread and its wake-up': [],
    'Command built from the request (pool)': [],
    'clone3 + exec (pool; Command::spawn)': [],
    'child runs and exits; the waiter wakes on its pidfd': [],
    'reap + post the exit': [],
    'exit posted -> batch handed to JS (tsfn, uv_async)': [],
    "batch -> 'exit' emitted (JS)": [],
    "'exit' -> 'close' (JS: nextTick, EOF of the pipes)": [],
    "'close' -> next spawn() call (promise resolution)": [],
  };
  const keys = Object.keys(rows);
  const totals = [];
  for (const s of js) {
    const m = native.get(s.id);
    if (!m || !m[EXIT_POSTED]) continue;
    batches += m.delivered.length;
    const delivered = m.delivered[m.delivered.length - 1];
    const d = [
      s.returned - s.call,
      m[POOL_START] - s.returned,
      m[BUILT] - m[POOL_START],
      m[SPAWNED] - m[BUILT],
      m[WAITER_WOKE] - m[SPAWNED],
      m[EXIT_POSTED] - m[WAITER_WOKE],
      delivered - m[EXIT_POSTED],
      s.exit - delivered,
      s.close - s.exit,
      s.next - s.close,
    ];
    d.forEach((x, k) => rows[keys[k]].push(x / 1000));
    totals.push((s.next - s.call) / 1000);
  }
  return { rows, totals, batchesPerSpawn: batches / Math.max(1, totals.length) };
}

async function main() {
  const results = {};
  const cs = [];
  const lingers = LINGERS.length === 0 ? [null] : LINGERS;
  const spins = SPINS.length === 0 ? [null] : SPINS;
  const sides = STDIOS.flatMap((stdio) =>
    lingers.flatMap((linger) =>
      spins.map((spin) => {
        const label = [`'${stdio}'`, linger === null ? '' : `linger ${linger} µs`, spin === null ? '' : `window ${spin} µs`].filter((x) => x).join(', ');
        return [label, stdio, linger, spin];
      }),
    ),
  );
  const defaultLinger = addon.setSpawnLinger(0);
  addon.setSpawnLinger(defaultLinger);
  const defaultSpin = addon.setPoolSpin(0);
  addon.setPoolSpin(defaultSpin);
  // The core alone inside this process (addon.benchSpawnWait on a pool
  // thread): [spawn + wait, spawn alone] µs, with the environment inherited
  // given variable by variable (as spawn() gave its snapshot before), and
  // as one shared Environment (as spawn() gives it now).
  const core = { inherited: [], explicit: [], shared: [] };
  for (const [side] of sides) results[side] = { rows: null, totals: [], batches: [], cpu: [] };
  for (let round = 0; round < ROUNDS; round++) {
    cs.push(cClone(N));
    core.inherited.push(addon.benchSpawnWait(NOOP, N, true, 'inherit'));
    core.explicit.push(addon.benchSpawnWait(NOOP, N, true, 'vars'));
    core.shared.push(addon.benchSpawnWait(NOOP, N, true, 'shared'));
    for (const [side, stdio, linger, spin] of sides) {
      addon.setSpawnLinger(linger === null ? defaultLinger : linger);
      addon.setPoolSpin(spin === null ? defaultSpin : spin);
      await run(stdio, 20);
      addon.traceOn(true);
      const cpu0 = threadCpu();
      const js = await run(stdio, N);
      const cpu = (threadCpu() - cpu0) / N / 1000;
      const stamps = addon.traceTake();
      addon.traceOn(false);
      const b = breakdown(js, stamps);
      const r = results[side];
      if (r.rows === null) r.rows = b.rows;
      else for (const k of Object.keys(b.rows)) r.rows[k].push(...b.rows[k]);
      r.totals.push(...b.totals);
      r.batches.push(b.batchesPerSpawn);
      r.cpu.push(cpu);
    }
  }
  const c = median(cs);
  console.log(`C clone loop: ${c.toFixed(0)} µs per spawn + waitpid (median of ${ROUNDS} rounds, interleaved)`);
  const nvars = Object.keys(process.env).length;
  for (const [label, runs] of [
    ['environment inherited', core.inherited],
    [`environment given variable by variable (${nvars})`, core.explicit],
    ['environment shared (one fastspawn::Environment)', core.shared],
  ]) {
    const total = median(runs.map((r) => r[0]));
    const alone = median(runs.map((r) => r[1]));
    console.log(`the core in this process, on a pool thread, ${label}: spawn + wait ${total.toFixed(0)} µs (${(total / c).toFixed(2)}x), spawn alone ${alone.toFixed(0)} µs`);
  }
  for (const [side] of sides) {
    const r = results[side];
    const total = median(r.totals);
    console.log(`\nstdio ${side}: cycle ${total.toFixed(0)} µs median (${(total / c).toFixed(2)}x the C loop), ${median(r.batches).toFixed(2)} batches handed to JS per spawn, JS thread CPU ${median(r.cpu).toFixed(1)} µs per spawn`);
    let sum = 0;
    for (const [label, values] of Object.entries(r.rows)) {
      const m = median(values);
      sum += m;
      console.log(`  ${label.padEnd(66)} ${m.toFixed(1).padStart(7)} µs  ${((100 * m) / total).toFixed(0).padStart(3)}%`);
    }
    console.log(`  ${'(sum of the step medians)'.padEnd(66)} ${sum.toFixed(1).padStart(7)} µs`);
  }
}

main().catch((err) => {
  process.stderr.write(`breakdown.js: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
