'use strict';
// spawnSync's native run of this build against another build of the
// addon (`--base FILE`, a fastspawn.node built from an earlier commit),
// both loaded in this process and swapped in round by round (the order
// alternated), so both sides see the same machine. Not a test: it prints
// numbers.
//
//   node bench/sync-ab.js --base /tmp/base.node [--n 200] [--rounds 7]
//
// Per call, each side's median over the rounds of µs per call, and the
// median of the per-round ratios base / this, for execFileSync of the
// static `noop` and spawnSync of `cat` with 64 KiB of input.

const fastspawn = require('..');
const { addon } = require('../lib/native');
const { arg, NOOP, median } = require('./args');

const N = arg('n', 200);
const ROUNDS = arg('rounds', 7);
const BASE = arg('base', '');
if (!BASE) {
  process.stderr.write('usage: node bench/sync-ab.js --base FILE [--n 200] [--rounds 7]\n');
  process.exit(2);
}
const base = { exports: {} };
process.dlopen(base, BASE);
const sides = { this: addon.spawnSync, base: base.exports.spawnSync };
const input = Buffer.alloc(64 * 1024, 'x');
const cells = {
  'execFileSync(noop)': () => fastspawn.execFileSync(NOOP),
  "spawnSync('cat', {input: 64 KiB})": () => {
    const r = fastspawn.spawnSync('cat', [], { input });
    if (r.stdout.length !== input.length) throw new Error('short output');
  },
};

function perCall(fn) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) fn();
  return Number(process.hrtime.bigint() - t0) / 1000 / N;
}

const os = require('node:os');
console.log(`load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}, ${ROUNDS} rounds of ${N} calls`);
for (const [name, fn] of Object.entries(cells)) {
  const times = { this: [], base: [] };
  const ratios = [];
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? ['base', 'this'] : ['this', 'base'];
    const got = {};
    for (const side of order) {
      addon.spawnSync = sides[side];
      got[side] = perCall(fn);
      times[side].push(got[side]);
    }
    ratios.push(got.base / got.this);
  }
  addon.spawnSync = sides.this;
  console.log(`${name}: this ${median(times.this).toFixed(1)} µs, base ${median(times.base).toFixed(1)} µs, ` +
    `base / this ${median(ratios).toFixed(3)} (rounds: ${ratios.map((x) => x.toFixed(3)).join(' ')})`);
}
console.log(`load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
