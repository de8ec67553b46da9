#!/usr/bin/env node
// fastspawn bench peer for Node.js (see docs/peer-protocol.md).
//
// Runner node-spawn measures child_process.spawn as Node programs use it,
// stdio inherited. libuv forks (released versions) on the event-loop thread.
// Runner node-fastspawn makes the same calls to the fastspawn npm package
// (bindings/node; build it first: make -C bindings/node build), whose spawn
// runs on fastspawn's spawner threads; in spawn mode its clock covers the
// N spawn() calls and then every child's 'spawn' event (the calls only
// queue the spawns: without the events, the clock would stop before the
// processes exist).
// wait mode: each iteration awaits the child's 'exit' event, so the clock
// covers spawn + the event loop noticing SIGCHLD and reaping. spawn mode: the
// clock covers only the N synchronous spawn() calls; the 'exit' events are
// awaited after it stops (no event can fire during the synchronous loop).
//
// --extra-fds K: K fds opened once (/dev/null: Node has no public API for an
// anonymous pipe) and given as numbers in the stdio array, which makes libuv
// dup2 them to child fds 3..3+K. --set-env: one env object, process.env plus
// FASTSPAWN_BENCH=1, built once (spawn() still flattens it on every call).
// Wall time: process.hrtime.bigint() (CLOCK_MONOTONIC); CPU: process.cpuUsage().
'use strict';

const fs = require('fs');
const path = require('path');

const RUNNERS = ['node-spawn', 'node-fastspawn'];
let RUNNER = 'node-peer';
const USAGE =
  'usage: node-peer --runner node-spawn|node-fastspawn --mode wait|spawn --n N [--warmup W]\n' +
  '                 [--rss-mib M] [--set-env] [--extra-fds K] [--samples] -- CHILD [CHILD_ARGS...]';

function usage(why) {
  process.stderr.write(`node-peer: ${why}\n${USAGE}\n`);
  process.exit(2);
}

function fail(step, err) {
  process.stderr.write(`${RUNNER}: ${step}: ${err && err.message ? err.message : err}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  const opts = { warmup: 20, rssMib: 0, setEnv: false, extraFds: 0, samples: false };
  const numeric = { '--n': 'n', '--warmup': 'warmup', '--rss-mib': 'rssMib', '--extra-fds': 'extraFds' };
  const strings = { '--runner': 'runner', '--mode': 'mode', '--async-mode': 'asyncMode' };
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') { i++; break; }
    if (a === '--set-env') opts.setEnv = true;
    else if (a === '--samples') opts.samples = true;
    else if (a in strings || a in numeric) {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      const v = argv[++i];
      if (a in numeric) {
        if (!/^[0-9]+$/.test(v)) usage(`bad value for ${a}: '${v}'`);
        opts[numeric[a]] = Number(v);
      } else {
        opts[strings[a]] = v;
      }
    } else usage(`unknown option '${a}'`);
  }
  opts.child = argv.slice(i);
  if (!RUNNERS.includes(opts.runner)) usage(`unknown runner '${opts.runner}'`);
  if (opts.mode !== 'wait' && opts.mode !== 'spawn') usage('--mode must be wait or spawn');
  if (!(opts.n >= 1)) usage('--n must be >= 1');
  if (opts.asyncMode !== undefined) usage('--async-mode applies only to async runners');
  if (opts.child.length === 0) usage('missing -- CHILD [CHILD_ARGS...]');
  return opts;
}

// Resolves when the child exits with status 0, rejects otherwise.
function exited(child) {
  return new Promise((resolve, reject) => {
    const done = (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`child exited with ${code !== null ? `status ${code}` : signal}`));
    if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode, child.signalCode);
    child.once('exit', done);
    child.once('error', (err) => reject(Object.assign(err, { step: 'spawn' })));
  });
}

// Resolves when the child has started ('spawn'), or failed to ('error').
function started(child) {
  return new Promise((resolve) => {
    child.once('spawn', resolve);
    child.once('error', resolve);
  });
}

function loadSpawn(runner) {
  if (runner === 'node-spawn') return require('child_process').spawn;
  try {
    return require(path.join(__dirname, '..', '..', '..', 'bindings', 'node')).spawn;
  } catch (err) {
    return fail('load', err);
  }
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  RUNNER = o.runner;
  const spawn = loadSpawn(o.runner);

  // --rss-mib: make M MiB resident before anything else (64 MiB chunks).
  const keep = [];
  for (let left = o.rssMib; left > 0; left -= 64) {
    const buf = Buffer.allocUnsafe(Math.min(left, 64) << 20);
    for (let off = 0; off < buf.length; off += 4096) buf[off] = 1;
    keep.push(buf);
  }

  const extra = [];
  for (let i = 0; i < o.extraFds; i++) extra.push(fs.openSync('/dev/null', 'r'));
  const options = {
    stdio: extra.length ? ['inherit', 'inherit', 'inherit', ...extra] : 'inherit',
    env: o.setEnv ? { ...process.env, FASTSPAWN_BENCH: '1' } : undefined,
  };
  const [file, ...args] = o.child;
  const spawnOne = () => {
    try {
      return spawn(file, args, options);
    } catch (err) {
      return fail('spawn', err);
    }
  };
  const wait = (child) => exited(child).catch((err) => fail(err.step || 'wait', err));

  for (let i = 0; i < o.warmup; i++) await wait(spawnOne());

  const spawnMode = o.mode === 'spawn';
  const children = [];
  const samples = o.samples ? [] : null;

  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  let t = t0;
  const queued = spawnMode && o.runner === 'node-fastspawn';
  const starts = [];
  for (let i = 0; i < o.n; i++) {
    const child = spawnOne();
    if (spawnMode) children.push(child);
    else await wait(child);
    if (queued) starts.push(started(child));
    if (samples) {
      const t1 = process.hrtime.bigint();
      samples.push(Number(t1 - t));
      t = t1;
    }
  }
  if (queued) await Promise.all(starts);
  const total = process.hrtime.bigint() - t0;
  const cpu = process.cpuUsage(cpu0);

  // allSettled: on a failure, every other child is still reaped before exit.
  const settled = await Promise.allSettled(children.map(exited));
  const failure = settled.find((r) => r.status === 'rejected');
  if (failure) fail(failure.reason.step || 'wait', failure.reason);

  const out = {
    runner: RUNNER, mode: o.mode, n: o.n, total_ns: Number(total),
    cpu_user_ns: cpu.user * 1000, cpu_sys_ns: cpu.system * 1000,
  };
  if (samples) out.samples_ns = samples;
  process.stdout.write(JSON.stringify(out) + '\n');
  keep.length = 0;
}

main().catch((err) => fail('main', err));
