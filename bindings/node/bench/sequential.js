'use strict';
// Sequential spawn + 'close' of a static do-nothing child, against the raw C
// clone loop (bench/peers/c, runner c-clone), and the time one spawn() call
// holds the event loop. Not a test: it prints numbers. Every side is
// measured in each round, interleaved, so they all see the same machine.
//
//   node bench/sequential.js --peers DIR [--n 500] [--rounds 5] [--stall-n 2000] [--json]
//
// --json: the human lines go to stderr and stdout gets one JSON document
// with every round of every side and every spawn() call's duration (read by
// the `node` experiment of `fastspawn bench`, crates/fastspawn-cli).
//
// DIR holds `noop` and `c-peer` (make -C bench/peers OUT=DIR noop c-peer).
// bench/handoff.c is compiled into DIR/node-handoff with `cc` when missing
// or older than its source (when that fails, its sides are left out, with
// a line saying why).
//
// The floor lines: bench/handoff.c, the package's structure in C (a loop
// thread waiting in epoll, a worker thread that clones and waits, the
// result back through an eventfd), its worker asleep between spawns and
// spinning; each as the median of its per-round ratios to that round's C
// loop. No design in which the JS thread never runs the clone does better
// than the better of the two on the same machine.
//
// Spawn + 'close': per spawn, the median over the rounds of each side's
// mean; with it, a JS -> pool thread -> JS round trip that spawns nothing
// (the cost of the thread hand-overs alone). Loop stall: every spawn() call of fastspawn with 16 children in
// flight ('ignore'), timed with hrtime; a call during which the JS thread
// was switched out (its involuntary context-switch count moved) measured
// the scheduler and is counted apart, as the tokio stall table does.

const fs = require('node:fs');
const path = require('node:path');
const nodeCp = require('node:child_process');
const fastspawn = require('..');
const { addon, ping, pingSpawn } = require('../lib/native');

const { arg, PEERS, NOOP, C_PEER, median, percentile } = require('./args');
const N = arg('n', 500);
const ROUNDS = arg('rounds', 5);
const STALL_N = arg('stall-n', 2000);
const JSON_OUT = process.argv.includes('--json');
const say = JSON_OUT ? (line) => process.stderr.write(`${line}\n`) : (line) => console.log(line);

// One run of a bench peer (docs/peer-protocol.md): µs per spawn + wait.
function peer(command, args, runner, n) {
  const out = nodeCp.execFileSync(command, [...args, '--runner', runner, '--mode', 'wait', '--n', String(n), '--warmup', '20', '--', NOOP], {
    encoding: 'utf8',
  });
  return JSON.parse(out).total_ns / n / 1000;
}

function cClone(n) {
  return peer(C_PEER, [], 'c-clone', n);
}

// DIR/node-handoff, built from bench/handoff.c if needed; null (and why)
// if it cannot be.
function handoffBinary() {
  const source = path.join(__dirname, 'handoff.c');
  const binary = path.join(PEERS, 'node-handoff');
  try {
    if (!fs.existsSync(binary) || fs.statSync(binary).mtimeMs < fs.statSync(source).mtimeMs) {
      nodeCp.execFileSync(process.env.CC || 'cc', ['-O2', '-Wall', '-Wextra', '-Werror', '-pthread', '-o', binary, source], { stdio: 'pipe' });
    }
    return { binary };
  } catch (err) {
    return { why: `cannot build ${binary} from ${source}: ${String(err.stderr || err.message).trim()}` };
  }
}

function handoff(binary, mode, n) {
  const out = nodeCp.execFileSync(binary, ['--mode', mode, '--n', String(n), '--warmup', '20', '--', NOOP], { encoding: 'utf8' });
  return JSON.parse(out).total_ns / n / 1000;
}

// Other peers, when built into DIR (rust-peer) or in the tree (python):
// Rust fastspawn on the calling thread (the same spawner without Node and
// without the hand-overs), Rust std, and Python's Popen.
const RUST_PEER = path.join(PEERS, 'rust-peer');
const PYTHON_PEER = path.join(__dirname, '..', '..', '..', 'bench', 'peers', 'python', 'peer.py');

function one(cp, stdio) {
  return new Promise((resolve, reject) => {
    const child = cp.spawn(NOOP, [], { stdio });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

// The JS -> spawner pool thread -> JS round trip alone (no spawn): the
// thread hand-overs a spawn's latency cannot avoid (a spawn has one more,
// from the waiter thread that sees the exit).
async function pings(n) {
  for (let i = 0; i < 20; i++) await ping();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await ping();
  return Number(process.hrtime.bigint() - t0) / n / 1000;
}

// The floor of the package in Node: each spawn + wait of the no-op child
// done on a pool thread, with one call into the addon and one
// threadsafe-function call back (a promise resolved by the batch), and
// nothing else of the package (no options, no ChildProcess, no events).
// With `mode` 2, the job also makes the child's pidfd in the clone and
// waits for its exit through spawn()'s linger (a ppoll on the pidfd of at
// most the linger) before the wait: what the package's spawner thread does
// for a quick child, which a pidfd-less C loop does not pay
// (bench/pidfd_cost.c).
async function pingSpawns(n, mode = 0) {
  for (let i = 0; i < 20; i++) await pingSpawn(NOOP, mode);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await pingSpawn(NOOP, mode);
  return Number(process.hrtime.bigint() - t0) / n / 1000;
}

async function sequential(cp, stdio, n) {
  for (let i = 0; i < 20; i++) await one(cp, stdio);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await one(cp, stdio);
  return Number(process.hrtime.bigint() - t0) / n / 1000;
}

// The package with the spawner threads' linger off (addon.setSpawnLinger(0)):
// the spawn is posted as soon as the child has exec'd and the exit by the
// waiter thread, two batches per short child instead of one.
async function withoutLinger(stdio, n) {
  const linger = addon.setSpawnLinger(0);
  try {
    return await sequential(fastspawn, stdio, n);
  } finally {
    addon.setSpawnLinger(linger);
  }
}

// Every spawn() call's duration (µs), `inFlight` children in flight, set
// apart by whether the JS thread was preempted during the call; and the
// spawns per second of the whole test.
async function stall(n, inFlight = 16) {
  const calm = [];
  const preempted = [];
  let started = 0;
  const start = process.hrtime.bigint();
  const worker = async () => {
    while (started < n) {
      started++;
      const before = addon.threadSwitches();
      const t0 = process.hrtime.bigint();
      const child = fastspawn.spawn(NOOP, [], { stdio: 'ignore' });
      const t1 = process.hrtime.bigint();
      const after = addon.threadSwitches();
      (after === before ? calm : preempted).push(Number(t1 - t0) / 1000);
      await new Promise((resolve) => child.on('close', resolve));
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const perSecond = n / (Number(process.hrtime.bigint() - start) / 1e9);
  calm.sort((a, b) => a - b);
  preempted.sort((a, b) => a - b);
  return { calm, preempted, perSecond };
}

async function main() {
  // key: [label, spawns per round, run]
  const sides = {
    'c-clone': ['C clone(CLONE_VM|CLONE_VFORK) + waitpid', N, () => cClone(N)],
    'node-fastspawn-pipe': ["fastspawn, stdio 'pipe'", N, () => sequential(fastspawn, 'pipe', N)],
    'node-fastspawn-ignore': ["fastspawn, stdio 'ignore'", N, () => sequential(fastspawn, 'ignore', N)],
  };
  const nNode = Math.max(50, Math.floor(N / 4));
  sides['node-spawn-pipe'] = ["node:child_process, stdio 'pipe'", nNode, () => sequential(nodeCp, 'pipe', nNode)];
  sides['node-spawn-ignore'] = ["node:child_process, stdio 'ignore'", nNode, () => sequential(nodeCp, 'ignore', nNode)];
  sides['node-ping'] = ['JS -> pool thread -> JS, no spawn', N, () => pings(N)];
  sides['node-ping-spawn'] = ['Node floor: one addon call, spawn + wait on a pool thread, one callback', N, () => pingSpawns(N)];
  sides['node-fastspawn-pipe-nolinger'] = ["fastspawn, stdio 'pipe', linger off", N, () => withoutLinger('pipe', N)];
  sides['node-fastspawn-ignore-nolinger'] = ["fastspawn, stdio 'ignore', linger off", N, () => withoutLinger('ignore', N)];
  sides['node-ping-spawn-linger'] = ['Node floor with the pidfd and the linger of spawn()', N, () => pingSpawns(N, 2)];
  if (fs.existsSync(RUST_PEER)) {
    sides['fastspawn-clone3'] = ['Rust fastspawn Command::spawn + wait', N, () => peer(RUST_PEER, [], 'fastspawn-clone3', N)];
    sides['rust-std'] = ['Rust std::process::Command + wait', N, () => peer(RUST_PEER, [], 'rust-std', N)];
  }
  if (fs.existsSync(PYTHON_PEER)) {
    sides['python-popen'] = ['Python subprocess.Popen + wait', N, () => peer('python3', [PYTHON_PEER], 'python-popen', N)];
  }
  const floor = handoffBinary();
  if (floor.binary) {
    sides['c-handoff-sleep'] = ['C floor: hand-over, worker asleep', N, () => handoff(floor.binary, 'sleep', N)];
    sides['c-handoff-spin'] = ['C floor: hand-over, worker spinning', N, () => handoff(floor.binary, 'spin', N)];
  } else {
    say(`node: no floor lines: ${floor.why}`);
  }
  const results = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [key, [, , run]] of Object.entries(sides)) results[key].push(await run());
    say(`node: sequential round ${round + 1} of ${ROUNDS}`);
  }
  const base = median(results['c-clone']);
  say(`sequential spawn + 'close' of ${NOOP}, ${ROUNDS} rounds interleaved, median of the rounds' means:`);
  for (const [key, values] of Object.entries(results)) {
    const m = median(values);
    say(`  ${sides[key][0].padEnd(42)} ${m.toFixed(0).padStart(6)} µs  ${(m / base).toFixed(2)}x  (rounds: ${values.map((v) => v.toFixed(0)).join(' ')})`);
  }
  const perRound = (key) => median(results[key].map((v, i) => v / results['c-clone'][i]));
  const line = floorLine(
    results['c-handoff-sleep'] && perRound('c-handoff-sleep'),
    results['c-handoff-spin'] && perRound('c-handoff-spin'),
    perRound('node-fastspawn-pipe'),
    perRound('node-fastspawn-ignore'),
  );
  if (line) say(line);
  say(nodeFloorLine(perRound('node-ping-spawn'), perRound('node-fastspawn-pipe'), perRound('node-fastspawn-ignore')));
  say(nodeFloorLine(perRound('node-ping-spawn-linger'), perRound('node-fastspawn-pipe'), perRound('node-fastspawn-ignore'), "with spawn()'s pidfd and linger"));

  await stall(Math.min(200, STALL_N));
  const { calm, preempted } = await stall(STALL_N);
  say('node: stall measured');
  const all = [...calm, ...preempted].sort((a, b) => a - b);
  const f = (v) => `${v.toFixed(1)} µs`;
  say(`one spawn() call of fastspawn ('ignore', 16 in flight), ${all.length} calls:`);
  say(`  all:           p50 ${f(percentile(all, 50))}, p99 ${f(percentile(all, 99))}, max ${f(all[all.length - 1])}`);
  say(`  not preempted: p50 ${f(percentile(calm, 50))}, p99 ${f(percentile(calm, 99))}, max ${f(calm[calm.length - 1])} (${calm.length} calls)`);
  say(`  preempted:     ${preempted.length} calls${preempted.length ? `, p50 ${f(percentile(preempted, 50))}` : ''}`);
  if (JSON_OUT) {
    const doc = {
      noop: NOOP,
      rounds: ROUNDS,
      sides: Object.entries(sides).map(([key, [label, n]]) => ({ key, label, n, rounds_us: results[key] })),
      stall: { in_flight: 16, calm_us: calm, preempted_us: preempted },
    };
    process.stdout.write(`${JSON.stringify(doc)}\n`);
  }
}

// The limit line (median per-round ratios to the C loop): the floor is
// the better of the two C hand-over designs; a goal is out of reach for
// such a design when the floor alone is above it.
function floorLine(sleep, spin, pipe, ignore) {
  if (sleep === undefined && spin === undefined) return null;
  const best = Math.min(...[sleep, spin].filter((v) => v !== undefined));
  const goal = (name, limit, measured) =>
    `${name} ${measured.toFixed(2)}x, goal <= ${limit.toFixed(1)}x: ${best > limit ? 'out of reach for such a design' : `not out of reach (${(limit - best).toFixed(2)}x above the floor left for the rest)`}`;
  const part = (name, v) => (v === undefined ? `${name} not measured` : `${name} ${v.toFixed(2)}x`);
  return `floor of a loop that never runs the clone (C: worker thread + eventfd, same rounds): ${part('worker asleep', sleep)}, ${part('worker spinning', spin)}; ${goal("'pipe'", 2.0, pipe)}; ${goal("'ignore'", 1.5, ignore)}`;
}

// The Node floor's line: the least a Node program pays per spawn with
// this structure (one call into the addon, one callback out, a promise),
// against the goals, and what the package adds to it.
function nodeFloorLine(floor, pipe, ignore, what = '') {
  const left = (limit) => (floor > limit ? 'out of reach for any Node design of this structure' : `${(limit - floor).toFixed(2)}x left above it for the package's own work`);
  return `Node floor${what ? ` ${what}` : ''} (one addon call, spawn + wait on a pool thread, one threadsafe-function call back, a promise; same rounds): ${floor.toFixed(2)}x; the package adds ${(pipe - floor).toFixed(2)}x with 'pipe' (goal 2.0x: ${left(2.0)}) and ${(ignore - floor).toFixed(2)}x with 'ignore' (goal 1.5x: ${left(1.5)})`;
}

module.exports = { cClone, floorLine, nodeFloorLine, one, stall };

if (require.main !== module) return;

main().catch((err) => {
  process.stderr.write(`sequential.js: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
