// A measurement of a design, not a feature: what the HTTP server of issue 11
// (`spawn(file, args).stdout.pipe(res)`) would cost if child.stdout were a
// plain stream.Readable fed with the child's output at its exit, instead of
// a net.Socket over the parent's end of a socketpair (docs/perf/node.md, Session 11).
//
// Each request spawns the child with the package (default stdio, three
// lazy socketpair ends, as `spawn(file, args)` makes them) and never asks
// for child.stdout, so no net.Socket is made. In the 'exit' listener it
// reads what the child wrote from the lazy stdout end (the package's
// private `_fd1`; the end is still blocking, and the child has exited, so
// the reads return its output and then the end of stream), pushes it into
// a Readable with the end, and pipes that to the response. The package then
// drains the emptied end at its end of stream and closes it, and 'close'
// follows as usual. The reads run on the JS thread here; the design would
// run them on the addon's waiter thread and hand the bytes over with the
// exit record, the same system calls on another thread.
//
// Only for children whose whole output fits in the socketpair's buffer
// (here `echo hi` and `cat main.c`, 163 KB) and that leave no other writer
// behind: a larger output would block the child before its exit. Each
// response's body is checked by the driver.
//
// With EXIT_READABLE_STDIO=ignore in the environment the child's stdin and
// stderr are 'ignore' (what the two untouched socketpairs cost).
//
//   node bench/http-exit-readable.js --port 8001 --workload echo|cat

"use strict";
const http = require("node:http");
const fs = require("node:fs");
const path = require("node:path");
const { spawn } = require("..");
const { addon, batchCount, collectEvents } = require("../lib/native");

async function main() {
  // The HTTP benchmark's configuration and /__stats (bench/http/node).
  const { config, finishedOutput, listening, statsRoute, thisLoopStats } = await import(
    path.join(__dirname, "../../../bench/http/node/common.mjs")
  );
  const cfg = config();
  const options = process.env.EXIT_READABLE_STDIO === "ignore" ? { stdio: ["ignore", "pipe", "ignore"] } : {};
  const stats = thisLoopStats();
  // Session 12's coalesced delivery (a measurement: every event of every
  // child waits up to EXIT_READABLE_WITHIN µs, or until
  // EXIT_READABLE_COUNT records wait), and EXIT_READABLE_POLL=1: each
  // request first takes the records that wait.
  if (process.env.EXIT_READABLE_WITHIN) {
    addon.setEventDelivery(Number(process.env.EXIT_READABLE_WITHIN), Number(process.env.EXIT_READABLE_COUNT ?? 1));
  }
  const poll = process.env.EXIT_READABLE_POLL === "1";
  let polled = 0;
  // On SIGTERM: how many requests were answered in how many of the
  // addon's event batches (the JS thread's wake-ups for the children).
  let served = 0;
  process.on("SIGTERM", () => {
    console.error(`exit-readable: ${served} spawns, ${batchCount() - polled} event batches woken, ${polled} taken by requests`);
    process.exit(0);
  });
  http
    .createServer((req, res) => {
      if (statsRoute(req, res, stats)) return;
      served++;
      if (poll && collectEvents()) polled++;
      const child = spawn(cfg.file, cfg.args, options);
      child.on("exit", () => {
        finishedOutput(readToEnd(child._fd1)).pipe(res);
      });
    })
    .listen(cfg.port, "127.0.0.1", () => listening("exit-readable", cfg));
}

const scratch = Buffer.allocUnsafe(256 * 1024);

// Everything the exited child wrote to `fd`, as one Buffer (a copy).
function readToEnd(fd) {
  let chunks = null;
  for (;;) {
    const n = fs.readSync(fd, scratch, 0, scratch.length, null);
    if (n === 0) break;
    const chunk = Buffer.from(scratch.subarray(0, n));
    if (chunks === null) chunks = chunk;
    else chunks = Buffer.concat([chunks, chunk]);
  }
  return chunks;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
