'use strict';
// fork() + one IPC round trip + exit: the package's fork() against
// node:child_process.fork(), with 0 and with 1 GiB of Buffers held by the
// parent. Not a test: it prints numbers. Every round measures both
// implementations at both heap sizes, interleaved (the ballast is made
// before and freed after the heavy half of each round), so that a change
// in the machine's load between the two heap sizes cannot pass for a slope.
// Within each half of a round the two implementations run in ABBA blocks
// of n/2 cycles (A first in even rounds, B first in odd ones), so that a
// drift of the load within the half falls on both alike. A round's figure
// for a cell is the median of its n cycles (a Node child's start-up has
// outliers of 2x on a busy machine), and the slope of an implementation is
// read round by round: the ratio of its 1 GiB figure to its 0 GiB figure
// of the same round, whose median (and spread) over the rounds is printed.
//
//   node bench/fork.js [--n 12] [--rounds 24] [--ballast-mib 1024] [--json]
//
// --json: the human lines go to stderr and stdout gets one JSON document
// with every round and every fork() call's duration (read by the `node`
// experiment of `fastspawn bench`, crates/fastspawn-cli).
//
// Each fork runs bench/fork-child.js (stock Node: it answers one message
// and exits); the time is from the fork() call to the child's 'exit'. The
// start of a Node child dominates it (and varies a lot on a loaded
// machine), so each cycle is split: the fork() call itself (where
// node:child_process forks the parent), the call's return to the child's
// first message (the child's start-up and its channel), and that message
// to the 'exit' (the reply and the child's exit). The parent's own garbage
// collections during the cycles are summed too (perf_hooks 'gc' entries).

const path = require('node:path');
const nodeCp = require('node:child_process');
const { PerformanceObserver } = require('node:perf_hooks');
const v8 = require('node:v8');
const vm = require('node:vm');
const fastspawn = require('..');

// To free the ballast between the halves of a round.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const { arg, median } = require('./args');
const N = arg('n', 12);
const ROUNDS = arg('rounds', 24);
const BALLAST = arg('ballast-mib', 1024);
const CHILD = path.join(__dirname, 'fork-child.js');
const JSON_OUT = process.argv.includes('--json');
const say = JSON_OUT ? (line) => process.stderr.write(`${line}\n`) : (line) => console.log(line);

// The parent's garbage collections (ms), summed while `gcMs` is not null.
let gcMs = null;
new PerformanceObserver((list) => {
  if (gcMs !== null) for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

const now = () => Number(process.hrtime.bigint());

// One cycle; `steps` gets its parts (µs): the fork() call, the call's
// return to the child's first message, that message to 'exit'.
function roundTrip(cp, steps) {
  return new Promise((resolve, reject) => {
    const t0 = now();
    const child = cp.fork(CHILD, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const t1 = now();
    let t2 = 0;
    child.on('error', reject);
    child.once('message', () => {
      t2 = now();
      child.send('bye');
    });
    child.on('exit', () => {
      const t3 = now();
      if (steps) {
        steps.call.push((t1 - t0) / 1000);
        steps.startup.push((t2 - t1) / 1000);
        steps.exit.push((t3 - t2) / 1000);
      }
      resolve();
    });
    child.send('hello');
  });
}

// n cycles: each one's duration (ms), and the parent's GC time in them (ms in all).
async function measure(cp, n, steps) {
  gcMs = 0;
  const cycles = [];
  for (let i = 0; i < n; i++) {
    const t0 = now();
    await roundTrip(cp, steps);
    cycles.push((now() - t0) / 1e6);
  }
  // The last cycle's GC entries are delivered on a later tick.
  await new Promise((resolve) => setImmediate(resolve));
  const gc = gcMs;
  gcMs = null;
  return { cycles, gc };
}

// A distribution-free interval of the median of `values` (the sign
// test's, as the bench experiment prints it): the k-th smallest and k-th
// largest, for the largest k whose coverage is at least 90%; null if even
// the range covers less.
function medianInterval(values) {
  const n = values.length;
  const sorted = [...values].sort((a, b) => a - b);
  let best = null;
  let term = 1;
  let cdf = 0;
  for (let k = 1; k <= Math.floor(n / 2); k++) {
    // cdf = P(Binomial(n, 1/2) <= k - 1)
    if (k > 1) term *= (n + 2 - k) / (k - 1);
    cdf += term;
    const coverage = 1 - (2 * cdf) / 2 ** n;
    if (coverage < 0.9) break;
    best = { lo: sorted[k - 1], hi: sorted[n - k], coverage };
  }
  return best;
}

// key: the implementation's runner name in the bench report.
const IMPLS = [
  ['node-fork', 'node:child_process.fork', nodeCp],
  ['node-fastspawn-fork', 'fastspawn fork', fastspawn],
];

// The ballast of the heavy half of a round (freed, and collected, after it).
const held = [];

function makeBallast(mib) {
  const ballast = [];
  for (let left = mib; left > 0; left -= 64) ballast.push(Buffer.alloc(Math.min(64, left) << 20, 1));
  return ballast;
}

async function main() {
  say(`fork() + one IPC round trip + exit, ${N} sequential per round, ${ROUNDS} rounds, 0 and ${BALLAST} MiB interleaved in each:`);
  const holds = [0, BALLAST];
  // cell key `${impl}/${hold}` → { rounds, gc, rss, steps }
  const cells = new Map();
  for (const hold of holds) {
    for (const [key] of IMPLS) {
      cells.set(`${key}/${hold}`, { rounds: [], cycles: [], gc: [], rss: 0, steps: { call: [], startup: [], exit: [] } });
    }
  }
  for (const [, , cp] of IMPLS) await measure(cp, 2, null);
  for (let round = 0; round < ROUNDS; round++) {
    for (const hold of holds) {
      if (hold > 0) held.push(...makeBallast(hold));
      // Making 1 GiB of Buffers sets V8 collecting (external memory
      // pressure: a mark-compact, incremental marking) for a while after;
      // in session 6 that aftermath, ~2 ms of the parent's GC per cycle in
      // the first cycles of the heavy half, read as a +2% slope for both
      // implementations. Both halves start the same way: a full collection,
      // then one cycle of each implementation that is not timed.
      gc();
      for (const [, , cp] of IMPLS) await measure(cp, 1, null);
      // The order alternates from round to round: whatever follows the
      // making of the ballast (the kernel's work on 1 GiB of new pages)
      // falls on both implementations alike.
      const ab = round % 2 === 0 ? IMPLS : [...IMPLS].reverse();
      const half = {};
      for (const [key, , cp] of [...ab, ...[...ab].reverse()]) {
        const cell = cells.get(`${key}/${hold}`);
        const block = half[key] ? Math.floor(N / 2) : N - Math.floor(N / 2);
        const { cycles, gc: gcBlock } = await measure(cp, block, cell.steps);
        const h = half[key] || { cycles: [], gc: 0 };
        h.cycles.push(...cycles);
        h.gc += gcBlock;
        half[key] = h;
        cell.rss = Math.round(process.memoryUsage().rss / 2 ** 20);
      }
      for (const [key] of IMPLS) {
        const cell = cells.get(`${key}/${hold}`);
        cell.rounds.push(median(half[key].cycles));
        cell.cycles.push(...half[key].cycles);
        cell.gc.push(half[key].gc / N);
      }
      held.length = 0;
      gc();
    }
    say(`node: fork round ${round + 1} of ${ROUNDS}`);
  }
  const out = {};
  const json = [];
  for (const hold of holds) {
    for (const [key, name] of IMPLS) {
      const cell = cells.get(`${key}/${hold}`);
      const m = median(cell.rounds);
      out[`${name}/${hold}`] = m;
      const st = cell.steps;
      say(
        `  ${String(hold).padStart(5)} MiB held (rss ${cell.rss} MiB) ${name.padEnd(24)} ${m.toFixed(2)} ms  (rounds: ${cell.rounds.map((v) => v.toFixed(2)).join(' ')})`,
      );
      say(
        `        medians: the fork() call ${(median(st.call) / 1000).toFixed(2)} ms, to the child's first message ${(median(st.startup) / 1000).toFixed(2)} ms, then to 'exit' ${(median(st.exit) / 1000).toFixed(2)} ms; parent GC ${median(cell.gc).toFixed(3)} ms per cycle`,
      );
      json.push({
        key,
        label: name,
        hold_mib: hold,
        rss_mib: cell.rss,
        n: N,
        rounds_ms: cell.rounds,
        cycles_ms: cell.cycles,
        call_us: st.call,
        startup_us: st.startup,
        exit_us: st.exit,
        gc_ms_per_cycle: cell.gc,
      });
    }
  }
  for (const [key, name] of IMPLS) {
    const big = cells.get(`${key}/${BALLAST}`).rounds;
    const small = cells.get(`${key}/0`).rounds;
    const ratios = big.map((b, i) => b / small[i]);
    const pct = (r) => `${((r - 1) * 100).toFixed(1)}%`;
    const iv = medianInterval(ratios);
    const ivText = iv ? `, its ${(iv.coverage * 100).toFixed(0)}% interval ${pct(iv.lo)} to ${pct(iv.hi)}` : '';
    say(
      `${name}: ${BALLAST} MiB vs 0, round by round: median ${pct(median(ratios))}${ivText} (${ratios.map(pct).join(' ')}); ratio of the medians ${pct(out[`${name}/${BALLAST}`] / out[`${name}/0`])}`,
    );
  }
  if (JSON_OUT) process.stdout.write(`${JSON.stringify({ rounds: ROUNDS, cells: json })}\n`);
}

main().catch((err) => {
  process.stderr.write(`fork.js: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
