'use strict';
// The JS thread's CPU per sequential spawn + 'close' cycle, for two or more
// copies of the package's JavaScript alternating process by process (the
// A/B of a JS-only change). Not a test: it prints numbers.
//
//   node bench/js-cpu-ab.js [--n 2000] [--rounds 7] [--stdio pipe,ignore,read] DIR...
//
// DIR is a package root holding index.js and lib/ (this package: `.`; a
// base: `git archive HEAD bindings/node/index.js bindings/node/lib
// bindings/node/package.json | tar -x -C /tmp/base`, then
// /tmp/base/bindings/node), or `node` for node:child_process. Every
// package side loads the addon of this checkout (FASTSPAWN_NODE_ADDON,
// unless set), so only the JavaScript differs; a side DIR@ADDON loads the
// addon ADDON instead (a native A/B: a base build copied aside).
// Each round runs every side and stdio in its own Node process, in turn;
// a process warms up 300 cycles, then reads its main thread's schedstat
// (ns on CPU, ns waiting to run) and the wall clock around N cycles of
// `spawn(noop, [], {stdio})` + await 'close' (`read`: `spawn(echo,
// ['hi'])` with 'pipe', its stdout read to the end with a 'data'
// listener, the HTTP servers' `echo` workload; `read-readable`: the same
// with `pipeAs: 'readable'`). Printed per side: the
// medians over the rounds of µs per cycle (JS thread CPU, wall), and each
// side's CPU against the first side's in the same round (median of the
// per-round ratios).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { arg, NOOP, PEERS, median } = require('./args');

const N = arg('n', 2000);
const ROUNDS = arg('rounds', 7);
const STDIO = arg('stdio', 'pipe,ignore').split(',');

// The child side: one measurement, one JSON line.
if (process.argv[2] === '--child') {
  const [, , , root, stdio, n, noop, echo] = process.argv;
  const { spawn } = require(root === 'node' ? 'node:child_process' : path.resolve(root));
  const schedstat = () => fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
  const run = () =>
    new Promise((resolve, reject) => {
      const child = spawn(noop, [], { stdio });
      child.on('error', reject);
      child.on('close', resolve);
    });
  // read-readable: the same with the package's pipeAs: 'readable' (its
  // stdout a plain Readable fed by the addon; node:child_process ignores
  // the option).
  const readOptions = stdio === 'read-readable' ? { pipeAs: 'readable' } : {};
  const read = () =>
    new Promise((resolve, reject) => {
      const child = spawn(echo, ['hi'], readOptions);
      const chunks = [];
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.on('error', reject);
      child.on('close', () => (Buffer.concat(chunks).toString() === 'hi\n' ? resolve() : reject(new Error('wrong output'))));
    });
  const cycle = stdio === 'read' || stdio === 'read-readable' ? read : run;
  (async () => {
    for (let i = 0; i < 300; i++) await cycle();
    const s0 = schedstat();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < Number(n); i++) await cycle();
    const t1 = process.hrtime.bigint();
    const s1 = schedstat();
    process.stdout.write(
      JSON.stringify({ cpu: (s1[0] - s0[0]) / 1000 / n, wall: Number(t1 - t0) / 1000 / n, switches: (s1[2] - s0[2]) / n }),
    );
  })();
  return;
}

const sides = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !(all[i - 1] || '').startsWith('--'));
if (sides.length === 0) {
  console.error('usage: node bench/js-cpu-ab.js [--n 2000] [--rounds 7] [--stdio pipe,ignore] DIR...');
  process.exit(2);
}
const env = { ...process.env };
env.FASTSPAWN_NODE_ADDON ||= path.join(__dirname, '..', 'fastspawn.node');

const results = new Map();
for (const stdio of STDIO) for (const side of sides) results.set(`${side} ${stdio}`, []);
console.log(`${new Date().toISOString()} load ${os.loadavg()[0].toFixed(2)}; ${N} cycles x ${ROUNDS} rounds`);
for (let r = 0; r < ROUNDS; r++) {
  for (const stdio of STDIO) {
    for (const side of sides) {
      // DIR@ADDON: that side loads that build of the addon (an A/B of a
      // native change: a base build copied aside).
      const [dir, addonPath] = side.split('@');
      const sideEnv = addonPath ? { ...env, FASTSPAWN_NODE_ADDON: path.resolve(addonPath) } : env;
      const out = execFileSync(process.execPath, [__filename, '--child', dir, stdio, String(N), NOOP, path.join(PEERS, 'echo')], {
        env: sideEnv,
        encoding: 'utf8',
      });
      results.get(`${side} ${stdio}`).push(JSON.parse(out));
    }
  }
}
console.log(`${new Date().toISOString()} load ${os.loadavg()[0].toFixed(2)}`);
for (const stdio of STDIO) {
  const first = results.get(`${sides[0]} ${stdio}`);
  for (const side of sides) {
    const rows = results.get(`${side} ${stdio}`);
    const ratios = rows.map((row, i) => row.cpu / first[i].cpu);
    console.log(
      `${stdio.padEnd(6)} ${side.padEnd(40)} JS CPU ${median(rows.map((x) => x.cpu)).toFixed(1)} µs ` +
        `(${Math.min(...rows.map((x) => x.cpu)).toFixed(1)}-${Math.max(...rows.map((x) => x.cpu)).toFixed(1)}), ` +
        `wall ${median(rows.map((x) => x.wall)).toFixed(1)} µs, vs first ${median(ratios).toFixed(3)}x`,
    );
  }
}
