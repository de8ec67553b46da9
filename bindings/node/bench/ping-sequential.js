// Does coalesced delivery (setPingDelivery, README session 12) keep a lone
// child's answer immediate? Sequential pingSpawn(file, 2) + await, with
// the default delivery and with each WITHIN,COUNT setting given,
// alternated round by round in this process; prints each round and the
// medians (µs per ping), with the load.
//
//   node bench/ping-sequential.js [--rounds 7] [--n 300] [--file /bin/true] 5000,0 5000,30

"use strict";
const fs = require("node:fs");
const { addon, pingSpawn } = require("../lib/native");

const opts = { rounds: 7, n: 300, file: "/bin/true" };
const settings = [[0, 1]];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const m = /^--(rounds|n|file)$/.exec(argv[i]);
  if (m) opts[m[1]] = m[1] === "file" ? argv[++i] : Number(argv[++i]);
  else {
    const [within, count] = argv[i].split(",").map(Number);
    if (!Number.isInteger(within) || !Number.isInteger(count)) throw new Error(`ping-sequential: not WITHIN,COUNT: ${argv[i]}`);
    settings.push([within, count]);
  }
}
const load = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
};

async function main() {
  console.log(`${new Date().toISOString()} ${opts.rounds} rounds of ${opts.n} sequential pingSpawn(${opts.file}, 2), load ${load()}`);
  const results = settings.map(() => []);
  for (let i = 0; i < 50; i++) await pingSpawn(opts.file, 2);
  try {
    for (let round = 1; round <= opts.rounds; round++) {
      const row = [];
      for (const [k, [within, count]] of settings.entries()) {
        addon.setPingDelivery(within, count);
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < opts.n; i++) await pingSpawn(opts.file, 2);
        const us = Number(process.hrtime.bigint() - t0) / 1e3 / opts.n;
        results[k].push(us);
        row.push(`${within},${count} ${us.toFixed(0)}`);
      }
      console.log(`round ${round}: ${row.join("; ")} µs`);
    }
  } finally {
    addon.setPingDelivery(0, 1);
  }
  console.log(`${new Date().toISOString()} load ${load()}; medians:`);
  for (const [k, [within, count]] of settings.entries()) {
    const label = within === 0 ? "default (at once)" : `within ${within} µs, count ${count}`;
    console.log(`  ${label}: ${median(results[k]).toFixed(0)} µs per ping (${Math.min(...results[k]).toFixed(0)}-${Math.max(...results[k]).toFixed(0)})`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
