'use strict';
// bench/sequential.js for two or more copies of the package, run after
// one another, alternating (ABC, CBA, ABC...): the A/B of builds on the
// sequential goals. Not a test: it prints numbers.
//
//   node bench/sequential-ab.js [--runs 8] [--n 400] [--rounds 9] [--stall-n 2000] DIR...
//
// DIR is a package root (index.js, lib/, bench/sequential.js and its own
// fastspawn.node: another commit's `git archive ... bindings/node` with
// its addon built and copied in). Each run is `node bench/sequential.js
// --json` from DIR, with this checkout's peers. Printed per run: the
// side, the UTC time, the load average, the C loop's median µs and the
// `'ignore'` and `'pipe'` ratios to the C loop (the median of the run's
// per-round ratios); then per side the median of its runs' ratios, their
// range, and the median of the ratios against the run of the first side
// next to it in the sequence.

const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { arg, PEERS, median } = require('./args');

const RUNS = arg('runs', 8);
const N = arg('n', 400);
const ROUNDS = arg('rounds', 9);
const STALL_N = arg('stall-n', 2000);

const dirs = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !(all[i - 1] || '').startsWith('--'));
if (dirs.length === 0) {
  console.error('usage: node bench/sequential-ab.js [--runs 8] [--n 400] [--rounds 9] [--stall-n 2000] DIR...');
  process.exit(2);
}

function once(dir) {
  const out = execFileSync(
    process.execPath,
    ['bench/sequential.js', '--peers', PEERS, '--n', String(N), '--rounds', String(ROUNDS), '--stall-n', String(STALL_N), '--json'],
    { cwd: path.resolve(dir), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 },
  );
  const doc = JSON.parse(out.trim().split('\n').pop());
  const rounds = Object.fromEntries(doc.sides.map((s) => [s.key, s.rounds_us]));
  const c = rounds['c-clone'];
  const ratio = (key) => median(rounds[key].map((v, i) => v / c[i]));
  const calm = doc.stall.calm_us.sort((a, b) => a - b);
  return {
    c: median(c),
    ignore: ratio('node-fastspawn-ignore'),
    pipe: ratio('node-fastspawn-pipe'),
    p50: calm[Math.floor(calm.length / 2)],
    p99: calm[Math.floor(calm.length * 0.99)],
  };
}

const results = dirs.map(() => []);
for (let run = 0; run < RUNS; run++) {
  const order = run % 2 === 0 ? dirs.map((_, i) => i) : dirs.map((_, i) => dirs.length - 1 - i);
  for (const i of order) {
    const load = os.loadavg()[0].toFixed(2);
    const time = new Date().toISOString().slice(11, 19);
    const r = once(dirs[i]);
    r.run = run;
    results[i].push(r);
    console.log(
      `${String(i).padStart(2)} ${dirs[i].padEnd(30)} ${time} load ${load} C ${r.c.toFixed(0)} µs  ignore ${r.ignore.toFixed(3)}x  pipe ${r.pipe.toFixed(3)}x  hold p50 ${r.p50.toFixed(1)} p99 ${r.p99.toFixed(1)} µs`,
    );
  }
}
const range = (v) => `${Math.min(...v).toFixed(3)}-${Math.max(...v).toFixed(3)}`;
console.log(`medians over ${RUNS} runs (range), and against side 0 in the same run (median of the per-run ratios):`);
dirs.forEach((dir, i) => {
  const ig = results[i].map((r) => r.ignore);
  const pp = results[i].map((r) => r.pipe);
  const vs = (key) => median(results[i].map((r, k) => r[key] / results[0][k][key])).toFixed(3);
  console.log(
    `  ${dir.padEnd(30)} ignore ${median(ig).toFixed(3)}x (${range(ig)}) vs 0: ${vs('ignore')}   pipe ${median(pp).toFixed(3)}x (${range(pp)}) vs 0: ${vs('pipe')}`,
  );
});
