'use strict';
// What a synchronous spawn costs a process that holds a large heap:
// node:child_process's `execFileSync` (libuv forks the whole process)
// against the package's (a clone that shares the memory, lib/sync.js) and
// the package's `execFile` awaited one call at a time, at no ballast and
// at `--gib` GiB of touched Buffers, every side in every round. Not a
// test: it prints numbers.
//
//   node --expose-gc bench/sync-fork.js [--n 40] [--rounds 5] [--gib 1]
//
// Printed per heap: each side's median over the rounds of µs per call, and
// the medians of the per-round ratios of Node's execFileSync to the
// package's two.

const cp = require('node:child_process');
const { promisify } = require('node:util');
const fastspawn = require('..');
const { arg, NOOP, median } = require('./args');

const N = arg('n', 40);
const ROUNDS = arg('rounds', 5);
const GIB = arg('gib', 1);
const execFile = promisify(fastspawn.execFile);

async function perCall(fn) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await fn();
  return Number(process.hrtime.bigint() - t0) / 1000 / N;
}

async function sides(out, heap) {
  const node = await perCall(() => cp.execFileSync(NOOP));
  const sync = await perCall(() => fastspawn.execFileSync(NOOP));
  const pkg = await perCall(() => execFile(NOOP));
  const o = out[heap];
  o.node.push(node);
  o.sync.push(sync);
  o.pkg.push(pkg);
  o.toSync.push(node / sync);
  o.toAsync.push(node / pkg);
}

(async () => {
  const out = {};
  for (const heap of ['none', 'ballast']) out[heap] = { node: [], sync: [], pkg: [], toSync: [], toAsync: [] };
  for (let r = 0; r < ROUNDS; r++) {
    await sides(out, 'none');
    const ballast = [];
    for (let i = 0; i < GIB * 16; i++) ballast.push(Buffer.alloc(64 << 20, i + 1));
    await sides(out, 'ballast');
    ballast.length = 0;
    if (global.gc) global.gc();
  }
  console.log(`${ROUNDS} rounds of ${N} calls of ${NOOP}, each side in every round`);
  for (const [heap, label] of [['none', 'no ballast'], ['ballast', `${GIB} GiB held`]]) {
    const o = out[heap];
    console.log(
      `${label}: node:child_process.execFileSync ${median(o.node).toFixed(0)} µs per call, ` +
        `the package's execFileSync ${median(o.sync).toFixed(0)} µs, its execFile (awaited) ${median(o.pkg).toFixed(0)} µs; ` +
        `Node's / the package's execFileSync ${median(o.toSync).toFixed(1)}x, / its execFile ${median(o.toAsync).toFixed(1)}x ` +
        "(medians of the rounds' ratios)",
    );
  }
})();
