'use strict';
// What the pidfd and the linger cost the sequential path: pingSpawn's
// three modes (src/lib.rs ping_spawn: 0 no pidfd and a blocking wait, 1
// the clone's pidfd and a blocking wait, 2 that pidfd and spawn()'s
// linger, ppoll on it, before the wait) beside the package's 'ignore'
// spawn + 'close' and the C clone loop, every side in every round,
// interleaved. Not a test: it prints numbers.
//
//   node bench/pidfd-cost.js [--n 400] [--rounds 9]
//
// Printed: each side's median over the rounds of µs per spawn + wait,
// the median of its per-round ratios to the C loop, and the per-round
// differences mode 1 - mode 0 (the pidfd) and mode 2 - mode 1 (the
// linger), medians with their range.

const os = require('node:os');
const fastspawn = require('..');
const { pingSpawn } = require('../lib/native');
const { cClone } = require('./sequential');
const { arg, NOOP, median } = require('./args');

const N = arg('n', 400);
const ROUNDS = arg('rounds', 9);

async function pings(mode) {
  for (let i = 0; i < 20; i++) await pingSpawn(NOOP, mode);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await pingSpawn(NOOP, mode);
  return Number(process.hrtime.bigint() - t0) / 1000 / N;
}

async function ignore() {
  const one = () =>
    new Promise((resolve, reject) => {
      const child = fastspawn.spawn(NOOP, [], { stdio: 'ignore' });
      child.on('error', reject);
      child.on('close', resolve);
    });
  for (let i = 0; i < 20; i++) await one();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await one();
  return Number(process.hrtime.bigint() - t0) / 1000 / N;
}

const sides = {
  c: ['C clone(CLONE_VM|CLONE_VFORK) + waitpid', () => cClone(N)],
  m0: ['pingSpawn mode 0: no pidfd, blocking wait', () => pings(0)],
  m1: ['pingSpawn mode 1: the pidfd, blocking wait', () => pings(1)],
  m2: ['pingSpawn mode 2: the pidfd and the linger', () => pings(2)],
  ignore: ["fastspawn spawn 'ignore' + 'close'", ignore],
};

(async () => {
  console.log(`${new Date().toISOString()} load ${os.loadavg()[0].toFixed(2)}; ${N} spawns x ${ROUNDS} rounds`);
  const r = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [key, [, run]] of Object.entries(sides)) r[key].push(await run());
  }
  console.log(`${new Date().toISOString()} load ${os.loadavg()[0].toFixed(2)}`);
  for (const [key, [label]] of Object.entries(sides)) {
    const ratio = median(r[key].map((v, i) => v / r.c[i]));
    console.log(`  ${label.padEnd(44)} ${median(r[key]).toFixed(1).padStart(7)} µs  ${ratio.toFixed(3)}x  (rounds: ${r[key].map((v) => v.toFixed(0)).join(' ')})`);
  }
  const diff = (a, b) => {
    const d = r[a].map((v, i) => v - r[b][i]);
    return `${median(d).toFixed(1)} µs (${Math.min(...d).toFixed(1)} to ${Math.max(...d).toFixed(1)})`;
  };
  console.log(`  per round: the pidfd (mode 1 - mode 0) ${diff('m1', 'm0')}; the linger (mode 2 - mode 1) ${diff('m2', 'm1')}; 'ignore' - mode 2 ${diff('ignore', 'm2')}; 'ignore' - mode 0 ${diff('ignore', 'm0')}`);
})().catch((err) => {
  process.stderr.write(`pidfd-cost.js: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
