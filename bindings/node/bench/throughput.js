'use strict';
// Spawn throughput from Node, node:child_process against fastspawn, with
// and without 1 GiB of Buffers held (in one run, so both see the same
// machine). Not a test: it prints numbers.
//
//   node bench/throughput.js [--n 2000] [--concurrency 16] [--ballast-mib 1024]
//
// Each measurement starts N children of /bin/true, at most C at a time
// (each one awaited to 'close', stdio piped as in most programs), and
// reports children per second.

const nodeCp = require('node:child_process');
const fastspawn = require('..');

const { arg } = require('./args');
const N = arg('n', 2000);
const C = arg('concurrency', 16);
const BALLAST = arg('ballast-mib', 1024);

function once(cp) {
  return new Promise((resolve, reject) => {
    const child = cp.spawn('/bin/true');
    child.on('error', reject);
    child.on('close', resolve);
  });
}

async function measure(cp, n) {
  let started = 0;
  const t0 = process.hrtime.bigint();
  const worker = async () => {
    while (started < n) {
      started++;
      await once(cp);
    }
  };
  await Promise.all(Array.from({ length: C }, worker));
  return n / (Number(process.hrtime.bigint() - t0) / 1e9);
}

async function main() {
  const results = [];
  const run = async (label, cp, n) => {
    await measure(cp, Math.min(50, n)); // warm up
    const rate = await measure(cp, n);
    results.push([label, rate]);
    console.log(`${label.padEnd(42)} ${rate.toFixed(0).padStart(7)} spawns/s`);
  };
  await run('node:child_process', nodeCp, N);
  await run('fastspawn', fastspawn, N);
  const ballast = [];
  for (let left = BALLAST; left > 0; left -= 64) ballast.push(Buffer.alloc(Math.min(64, left) << 20, 1));
  const rss = Math.round(process.memoryUsage().rss / 2 ** 20);
  // node:child_process forks: far fewer in the same time.
  await run(`node:child_process, ${BALLAST} MiB held (rss ${rss} MiB)`, nodeCp, Math.max(50, Math.round(N / 20)));
  await run(`fastspawn, ${BALLAST} MiB held (rss ${rss} MiB)`, fastspawn, N);
  const rate = Object.fromEntries(results);
  const [a, b, c, d] = results.map((r) => r[1]);
  console.log(`fastspawn with/without ballast: ${(d / b).toFixed(3)}; node:child_process: ${(c / a).toFixed(3)} (${(a / c).toFixed(1)}x slower)`);
  console.log(`fastspawn / node:child_process: ${(b / a).toFixed(2)}x without ballast, ${(d / c).toFixed(1)}x with`);
  void rate;
  ballast.length = 0;
}

main();
