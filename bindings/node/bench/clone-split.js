'use strict';
// What makes the package's `Command::spawn` (clone3 + execve on a pool
// thread, until the child has exec'd) slower than the core's own, split
// candidate by candidate. Not a test: it prints numbers.
//
//   node bench/clone-split.js [--peers DIR] [--n 300] [--rounds 7] [--busy 150]
//   taskset -c 1 node bench/clone-split.js ...   (every thread and child on one CPU)
//
// Each side runs N sequential spawns of the do-nothing child (DIR/noop)
// and takes, per spawn, the time between the pool thread's `Built` and
// `Spawned` stamps (src/trace.rs; `addon.pingSpawn` stamps them too); it
// prints the median over the spawns of each round, the median over the
// rounds, and the cycle (wall time per spawn). The sides, interleaved in
// every round:
// - the Node floor (`pingSpawn`: spawn + wait on a pool thread, stdio
//   null, the JS thread idle until the answer), without and with the
//   pidfd made by the clone (`CLONE_PIDFD`, which spawn()'s command asks),
//   and with that pidfd and spawn()'s linger before the wait;
// - the same with the JS thread busy (it spins `--busy` µs after the
//   call, while the pool thread clones);
// - the package's spawn() with 'ignore', idle and busy likewise, and with
//   'pipe'.

const fastspawn = require('..');
const { addon, pingSpawn } = require('../lib/native');
const { STEP, arg, median, NOOP } = require('./args');

const N = arg('n', 300);
const ROUNDS = arg('rounds', 7);
const BUSY = arg('busy', 150);

const { BUILT, SPAWNED } = STEP;

function spin(us) {
  const end = process.hrtime.bigint() + BigInt(Math.round(us * 1000));
  while (process.hrtime.bigint() < end);
}

// The median of `Spawned - Built` (µs) over the spawns stamped since the
// last call.
function spawnStep() {
  const stamps = addon.traceTake();
  const byId = new Map();
  for (let i = 0; i < stamps.length; i += 3) {
    let m = byId.get(stamps[i]);
    if (!m) byId.set(stamps[i], (m = {}));
    m[stamps[i + 1]] = stamps[i + 2];
  }
  const steps = [];
  for (const m of byId.values()) if (m[BUILT] && m[SPAWNED]) steps.push((m[SPAWNED] - m[BUILT]) / 1000);
  return median(steps);
}

function spawnOnce(stdio, busy) {
  return new Promise((resolve, reject) => {
    const child = fastspawn.spawn(NOOP, [], { stdio });
    child.on('error', reject);
    child.on('close', resolve);
    if (busy) spin(BUSY);
  });
}

// mode: see pingSpawn in src/lib.rs (0 no pidfd, 1 the clone's pidfd, 2
// that pidfd and spawn()'s linger before the wait).
async function pingOnce(mode, busy) {
  const answered = pingSpawn(NOOP, mode);
  if (busy) spin(BUSY);
  await answered;
}

const sides = [
  ['floor (pingSpawn), no pidfd', () => pingOnce(0, false)],
  ['floor (pingSpawn), pidfd at the clone', () => pingOnce(1, false)],
  ['floor, pidfd at the clone and the linger', () => pingOnce(2, false)],
  [`floor, pidfd at the clone, JS busy ${BUSY} µs`, () => pingOnce(1, true)],
  ["spawn(), 'ignore'", () => spawnOnce('ignore', false)],
  [`spawn(), 'ignore', JS busy ${BUSY} µs`, () => spawnOnce('ignore', true)],
  ["spawn(), 'pipe'", () => spawnOnce('pipe', false)],
];

async function main() {
  for (let i = 0; i < 20; i++) await spawnOnce('pipe', false);
  const steps = sides.map(() => []);
  const cycles = sides.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < sides.length; k++) {
      const [, once] = sides[k];
      addon.traceOn(true);
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < N; i++) await once();
      const t1 = process.hrtime.bigint();
      steps[k].push(spawnStep());
      addon.traceOn(false);
      cycles[k].push(Number(t1 - t0) / 1000 / N);
    }
  }
  console.log(`Command::spawn on the pool thread (Built -> Spawned), median of ${ROUNDS} rounds of ${N}; cycle = wall time per spawn`);
  for (let k = 0; k < sides.length; k++) {
    const rounds = steps[k].map((x) => x.toFixed(0)).join(' ');
    console.log(`  ${sides[k][0].padEnd(48)} ${median(steps[k]).toFixed(1).padStart(6)} µs (rounds ${rounds}), cycle ${median(cycles[k]).toFixed(0)} µs`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
