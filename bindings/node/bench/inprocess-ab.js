'use strict';
// Two or more copies of the package in one Node process, each with its own
// addon (DIR/fastspawn.node: run without FASTSPAWN_NODE_ADDON), their
// sequential spawn + 'close' cycles interleaved round by round with the C
// clone loop: an A/B of builds that shares the process, its heap and its
// CPU placement, so that differences of a few µs per spawn resolve where
// separate processes (bench/sequential-ab.js) spread by 0.1x. Not a test:
// it prints numbers.
//
//   node bench/inprocess-ab.js [--n 400] [--rounds 15] [--stdio ignore,pipe] DIR[@lone|@lonepoll|@off]...
//
// Printed per stdio and side: the median over the rounds of µs per cycle,
// the median of its per-round ratios to the C loop, and the median (and
// quartiles) of its per-round ratios to the first side. The order of the
// sides turns each round (ABC, BCA, CAB...).

const os = require('node:os');
const path = require('node:path');
const { cClone } = require('./sequential');
const { arg, NOOP, median } = require('./args');

const N = arg('n', 400);
const ROUNDS = arg('rounds', 15);
const STDIO = arg('stdio', 'ignore,pipe').split(',');

if (process.env.FASTSPAWN_NODE_ADDON) {
  console.error('inprocess-ab.js: unset FASTSPAWN_NODE_ADDON (each DIR loads its own fastspawn.node)');
  process.exit(2);
}
const dirs = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !(all[i - 1] || '').startsWith('--'));
if (dirs.length === 0) {
  console.error('usage: node bench/inprocess-ab.js [--n 400] [--rounds 15] [--stdio ignore,pipe] DIR...');
  process.exit(2);
}
// DIR@lone: that copy with the lone path on (setLone(true): a child
// spawned while no other runs is spawned by the lone thread without a
// pidfd, its exit waited for there in waitid); DIR@lonepoll: on, its
// linger polling waitid (setLonePoll(true)); DIR@off: the lone path off
// (for a build where it is on by default). Without an option the build's
// defaults.
const OPTIONS = {
  lone: (addon) => addon.setLone(true),
  lonepoll: (addon) => {
    addon.setLone(true);
    addon.setLonePoll(true);
  },
  off: (addon) => addon.setLone(false),
};
const packages = dirs.map((side) => {
  const [dir, option] = side.split('@');
  const cp = require(path.resolve(dir));
  if (option !== undefined) {
    const addon = require(path.resolve(dir, 'fastspawn.node'));
    if (typeof addon.setLone !== 'function') throw new Error(`${side}: this build has no setLone`);
    if (!OPTIONS[option]) throw new Error(`${side}: unknown option (only ${Object.keys(OPTIONS).map((o) => `@${o}`).join(', ')})`);
    OPTIONS[option](addon);
  }
  return cp;
});

function cycle(cp, stdio) {
  return new Promise((resolve, reject) => {
    const child = cp.spawn(NOOP, [], { stdio });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

async function timed(cp, stdio) {
  for (let i = 0; i < 20; i++) await cycle(cp, stdio);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await cycle(cp, stdio);
  return Number(process.hrtime.bigint() - t0) / 1000 / N;
}

const quartiles = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return [s[Math.floor(s.length / 4)], s[Math.floor((3 * s.length) / 4)]];
};

(async () => {
  console.log(`${new Date().toISOString()} load ${os.loadavg()[0].toFixed(2)}; ${N} cycles x ${ROUNDS} rounds`);
  const c = [];
  const r = Object.fromEntries(STDIO.map((s) => [s, dirs.map(() => [])]));
  for (let round = 0; round < ROUNDS; round++) {
    c.push(cClone(N));
    for (const stdio of STDIO) {
      for (let k = 0; k < dirs.length; k++) {
        const i = (round + k) % dirs.length;
        r[stdio][i].push(await timed(packages[i], stdio));
      }
    }
  }
  console.log(`${new Date().toISOString()} load ${os.loadavg()[0].toFixed(2)}; C loop ${median(c).toFixed(1)} µs`);
  for (const stdio of STDIO) {
    dirs.forEach((dir, i) => {
      const v = r[stdio][i];
      const vsC = median(v.map((x, k) => x / c[k]));
      const vs0 = v.map((x, k) => x / r[stdio][0][k]);
      const [q1, q3] = quartiles(vs0);
      console.log(
        `  ${stdio.padEnd(6)} ${dir.padEnd(30)} ${median(v).toFixed(1).padStart(6)} µs  ${vsC.toFixed(3)}x the C loop  vs first ${median(vs0).toFixed(3)} (quartiles ${q1.toFixed(3)}-${q3.toFixed(3)})`,
      );
    });
  }
})().catch((err) => {
  process.stderr.write(`inprocess-ab.js: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
