'use strict';
// The spawner threads' waiting, compared: the pool's watch window
// (`setPoolSpin`, `Pool::set_spin` in the core) and how the spawner
// lingers for a child's exit (`setSpawnLinger`, `setSpawnLingerPoll`).
// Not a test: it prints numbers. In every round the C clone loop and each
// setting run one after the other, so they all see the same machine.
//
//   node bench/spin.js --peers DIR [--n 300] [--rounds 7] [--stall-n 0]
//       [--settings 50,150,300,300p] [--in-flight 16]
//
// A setting is the window in µs, with `p` for a linger that polls the
// child's pidfd without sleeping (`300p`); `l0` after it turns the linger
// off (`150l0`). Per setting: sequential spawn + 'close' with 'pipe' and
// 'ignore' (µs per spawn, the median over the rounds of each round's mean,
// and the median of the per-round ratios to that round's C loop), the
// process's CPU per spawn, and with --stall-n, every spawn() call's
// duration with --in-flight children in flight, the calls during which the
// JS thread was switched out counted apart (as bench/sequential.js does),
// and the throughput of that run (spawns per second).

const fastspawn = require('..');
const { addon } = require('../lib/native');
const { arg, NOOP, median, percentile } = require('./args');
const { cClone, one, stall } = require('./sequential');

const N = arg('n', 300);
const ROUNDS = arg('rounds', 7);
const STALL_N = arg('stall-n', 0);
const IN_FLIGHT = arg('in-flight', 16);
const SETTINGS = String(arg('settings', '50,150,300,300p')).split(',');

function parseSetting(text) {
  const m = /^(\d+)(p?)(l(\d+))?$/.exec(text);
  if (!m) throw new Error(`spin.js: bad setting ${JSON.stringify(text)} (e.g. 150, 300p, 150l0)`);
  return { spin: Number(m[1]), poll: m[2] === 'p', linger: m[3] === undefined ? null : Number(m[4]) };
}

function cpuUs() {
  const u = process.cpuUsage();
  return u.user + u.system;
}

async function sequential(stdio, n) {
  for (let i = 0; i < 20; i++) await one(fastspawn, stdio);
  const c0 = cpuUs();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await one(fastspawn, stdio);
  const wall = Number(process.hrtime.bigint() - t0) / n / 1000;
  return { wall, cpu: (cpuUs() - c0) / n };
}

function apply(setting, defaults) {
  addon.setPoolSpin(setting.spin);
  addon.setSpawnLingerPoll(setting.poll);
  addon.setSpawnLinger(setting.linger === null ? defaults.linger : setting.linger);
}

async function main() {
  const settings = SETTINGS.map(parseSetting);
  const defaults = { spin: addon.setPoolSpin(50), poll: addon.setSpawnLingerPoll(false), linger: addon.setSpawnLinger(200) };
  const c = [];
  const rows = settings.map(() => ({ pipe: [], ignore: [], stall: [] }));
  for (let round = 0; round < ROUNDS; round++) {
    c.push(cClone(N));
    for (const [i, setting] of settings.entries()) {
      apply(setting, defaults);
      rows[i].pipe.push(await sequential('pipe', N));
      rows[i].ignore.push(await sequential('ignore', N));
      if (STALL_N > 0) rows[i].stall.push(await stall(STALL_N, IN_FLIGHT));
    }
    process.stderr.write(`spin: round ${round + 1} of ${ROUNDS}\n`);
  }
  apply(defaults, defaults);
  const f = (v) => v.toFixed(0).padStart(5);
  console.log(`sequential spawn + 'close' of ${NOOP}, ${ROUNDS} rounds of ${N}, interleaved; C clone loop ${median(c).toFixed(0)} µs (rounds ${c.map((v) => v.toFixed(0)).join(' ')})`);
  console.log("setting   'pipe' µs  ratio (rounds' ratios)          CPU µs | 'ignore' µs  ratio (rounds' ratios)          CPU µs");
  for (const [i, text] of SETTINGS.entries()) {
    const cell = (runs) => {
      const ratios = runs.map((r, k) => r.wall / c[k]);
      return `${f(median(runs.map((r) => r.wall)))} µs  ${median(ratios).toFixed(2)}x (${ratios.map((r) => r.toFixed(2)).join(' ')})  ${f(median(runs.map((r) => r.cpu)))}`;
    };
    console.log(`${text.padEnd(8)} ${cell(rows[i].pipe)} | ${cell(rows[i].ignore)}`);
  }
  if (STALL_N > 0) {
    console.log(`one spawn() call, ${IN_FLIGHT} in flight ('ignore'), ${STALL_N} calls per round, not preempted (all rounds pooled):`);
    for (const [i, text] of SETTINGS.entries()) {
      const calm = rows[i].stall.flatMap((s) => s.calm).sort((a, b) => a - b);
      const preempted = rows[i].stall.reduce((sum, s) => sum + s.preempted.length, 0);
      const rate = median(rows[i].stall.map((s) => s.perSecond));
      console.log(
        `${text.padEnd(8)} p50 ${percentile(calm, 50).toFixed(1)} µs, p99 ${percentile(calm, 99).toFixed(1)} µs (${calm.length} calls, ${preempted} preempted); ${rate.toFixed(0)} spawns/s (median of the rounds)`,
      );
    }
  }
}

main().catch((err) => {
  process.stderr.write(`spin.js: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
