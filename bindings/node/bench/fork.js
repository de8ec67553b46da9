'use strict';
// fork() + one IPC round trip + exit: the package's fork() against
// node:child_process.fork(), with 0 and then 1 GiB of Buffers held by the
// parent. Not a test: it prints numbers. Both are measured in each round,
// interleaved, so they see the same machine.
//
//   node bench/fork.js [--n 30] [--rounds 3] [--ballast-mib 1024] [--json]
//
// --json: the human lines go to stderr and stdout gets one JSON document
// with every round and every fork() call's duration (read by the `node`
// experiment of `fastspawn bench`, crates/fastspawn-cli).
//
// Each fork runs bench/fork-child.js (stock Node: it answers one message
// and exits); the time is from the fork() call to the child's 'exit'. The
// start of a Node child dominates it (and varies a lot on a loaded
// machine), so the time the fork() call itself holds the event loop is
// reported too: that is where node:child_process forks.

const path = require('node:path');
const nodeCp = require('node:child_process');
const fastspawn = require('..');

const arg = (name, value) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? value : Number(process.argv[i + 1]);
};
const N = arg('n', 30);
const ROUNDS = arg('rounds', 3);
const BALLAST = arg('ballast-mib', 1024);
const CHILD = path.join(__dirname, 'fork-child.js');
const JSON_OUT = process.argv.includes('--json');
const say = JSON_OUT ? (line) => process.stderr.write(`${line}\n`) : (line) => console.log(line);

// The synchronous part of each fork() call (µs), by implementation.
const callTimes = new Map();

function roundTrip(cp) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = cp.fork(CHILD, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    callTimes.get(cp).push(Number(process.hrtime.bigint() - t0) / 1000);
    child.on('error', reject);
    child.once('message', () => child.send('bye'));
    child.on('exit', resolve);
    child.send('hello');
  });
}

async function measure(cp, n) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await roundTrip(cp);
  return Number(process.hrtime.bigint() - t0) / n / 1e6;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

// key: the implementation's runner name in the bench report.
const IMPLS = [
  ['node-fork', 'node:child_process.fork', nodeCp],
  ['node-fastspawn-fork', 'fastspawn fork', fastspawn],
];

async function series(label, holdMib) {
  const results = new Map(IMPLS.map(([key]) => [key, []]));
  for (const [, , cp] of IMPLS) callTimes.set(cp, []);
  for (const [, , cp] of IMPLS) await measure(cp, 2);
  for (const [, , cp] of IMPLS) callTimes.set(cp, []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [key, , cp] of IMPLS) results.get(key).push(await measure(cp, N));
    say(`node: fork round ${round + 1} of ${ROUNDS} (${label})`);
  }
  const rss = Math.round(process.memoryUsage().rss / 2 ** 20);
  const out = {};
  const cells = [];
  for (const [key, name, cp] of IMPLS) {
    const values = results.get(key);
    out[name] = median(values);
    const calls = callTimes.get(cp);
    const call = median(calls);
    out[`${name}: the fork() call`] = call / 1000;
    say(
      `  ${label} (rss ${rss} MiB) ${name.padEnd(24)} ${out[name].toFixed(2)} ms  (rounds: ${values.map((v) => v.toFixed(2)).join(' ')}); the fork() call itself: median ${call.toFixed(0)} µs`,
    );
    cells.push({ key, label: name, hold_mib: holdMib, rss_mib: rss, n: N, rounds_ms: values, call_us: calls });
  }
  return { out, cells };
}

async function main() {
  say(`fork() + one IPC round trip + exit, ${N} sequential per round, median of ${ROUNDS} rounds:`);
  const light = await series('no ballast', 0);
  const ballast = [];
  for (let left = BALLAST; left > 0; left -= 64) ballast.push(Buffer.alloc(Math.min(64, left) << 20, 1));
  const heavy = await series(`${BALLAST} MiB held`, BALLAST);
  for (const name of Object.keys(light.out)) {
    say(`${name}: with/without ballast ${(heavy.out[name] / light.out[name]).toFixed(3)}x`);
  }
  ballast.length = 0;
  if (JSON_OUT) process.stdout.write(`${JSON.stringify({ rounds: ROUNDS, cells: [...light.cells, ...heavy.cells] })}\n`);
}

main().catch((err) => {
  process.stderr.write(`fork.js: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
