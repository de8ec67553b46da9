// A measurement, not a feature: the least the JS thread of any design
// built like this package (the loop never runs the clone; a pool thread
// spawns and waits; one call in, one answer back per spawn) can spend per
// request of issue 11's HTTP server, with a Readable stdout.
//
// Each request calls the addon's pingSpawn(file, 2) (lib/native.js: the
// workload's program with no arguments and stdio /dev/null, spawned with
// the clone's pidfd and spawn()'s linger, waited for on a pool thread,
// answered by one Pong record and a promise) and, when it is answered,
// pipes to the response a plain Readable holding the workload's output
// (made once at start-up) and ended. So its server CPU is Node's HTTP, the
// Readable, and the least a spawn costs such a design, with no pipes: a
// floor for the package's spawn path (bench/http-exit-readable.js is the
// package's own, README session 11). The child does less than the
// workload's (`echo` without its argument, `cat` reading /dev/null): only
// the server's CPU is comparable.
//
// Variants (README session 12), from the environment:
// - PING_CALLBACK=1: answered by a callback (pingSpawnCallback): no
//   promise, no hold per request;
// - PING_WITHIN=us, PING_COUNT=n: the answers are coalesced
//   (setPingDelivery): the JS thread is woken once n answers wait or us
//   µs after the first, not at the first;
// - PING_POLL=1: each request first takes the answers that wait
//   (collectEvents), so that answers finished while the JS thread runs
//   anyway need no wake-up.
// On SIGTERM it prints to stderr its spawns, the wake-ups that found
// answers, and the requests that found answers waiting (PING_POLL).
//
//   node bench/http-ping-readable.js --port 8001 --workload echo|cat

"use strict";
const http = require("node:http");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const { addon, batchCount, collectEvents, pingSpawn, pingSpawnCallback } = require("../lib/native");

async function main() {
  // The HTTP benchmark's configuration and /__stats (bench/http/node).
  const { config, finishedOutput, listening, statsRoute, thisLoopStats } = await import(
    path.join(__dirname, "../../../bench/http/node/common.mjs")
  );
  const cfg = config();
  const body = execFileSync(cfg.file, cfg.args);
  const stats = thisLoopStats();
  const env = process.env;
  const callback = env.PING_CALLBACK === "1";
  const poll = env.PING_POLL === "1";
  if (env.PING_WITHIN) addon.setPingDelivery(Number(env.PING_WITHIN), Number(env.PING_COUNT ?? 1));
  let served = 0;
  let polled = 0;
  process.on("SIGTERM", () => {
    console.error(`ping-readable (${Object.keys(env).filter((k) => k.startsWith("PING_")).map((k) => `${k}=${env[k]}`).join(" ") || "default"}): ${served} spawns, ${batchCount() - polled} wake-ups with answers, ${polled} requests that found answers`);
    process.exit(0);
  });
  http
    .createServer((req, res) => {
      if (statsRoute(req, res, stats)) return;
      served++;
      if (poll && collectEvents()) polled++;
      if (callback) pingSpawnCallback(cfg.file, 2, () => finishedOutput(body).pipe(res));
      else pingSpawn(cfg.file, 2).then(() => finishedOutput(body).pipe(res));
    })
    .listen(cfg.port, "127.0.0.1", () => listening("ping-readable", cfg));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
