// The seed's `cluster` server: the baseline in one process per core, sharing
// the port (the primary accepts and hands connections out round-robin).
// /__stats asks every process (primary included: it accepts the
// connections) for its event-loop delay.

import cluster from "node:cluster";
import http from "node:http";
import { config, eventLoop, listening, spawnModule, statsRoute } from "./common.mjs";

const cfg = config();
const loop = eventLoop();

if (cluster.isPrimary) {
  const workers = Array.from({ length: cfg.workers }, () => cluster.fork());
  let online = 0;
  cluster.on("listening", () => {
    if (++online === workers.length) listening(`cluster of ${workers.length}`, cfg);
  });
  cluster.on("exit", (worker, code, signal) => {
    if (!worker.exitedAfterDisconnect) {
      console.error(`cluster worker ${worker.id} died (${signal ?? code})`);
      process.exit(1);
    }
  });
  // A worker asks on behalf of a /__stats request; the primary gathers
  // every process's answer and replies to that worker.
  let next = 0;
  const pending = new Map();
  for (const worker of workers) {
    worker.on("message", (msg) => {
      if (msg?.kind === "stats-request") {
        const id = next++;
        pending.set(id, { from: worker, op: msg.op, ref: msg.ref, loops: [], left: workers.length });
        for (const w of workers) w.send({ kind: "stats-collect", id, op: msg.op });
      } else if (msg?.kind === "stats-part") {
        const job = pending.get(msg.id);
        job.loops.push(msg.loop);
        if (--job.left === 0) {
          pending.delete(msg.id);
          if (job.op === "reset") loop.reset();
          else job.loops.unshift(loop.snapshot("primary"));
          job.from.send({ kind: "stats-reply", ref: job.ref, loops: job.loops });
        }
      }
    });
  }
} else {
  const { spawn } = spawnModule(cfg);
  const name = `worker ${cluster.worker.id}`;
  let ref = 0;
  const waiting = new Map();
  const ask = (op) =>
    new Promise((resolve) => {
      waiting.set(ref, resolve);
      process.send({ kind: "stats-request", op, ref: ref++ });
    });
  process.on("message", (msg) => {
    if (msg?.kind === "stats-collect") {
      if (msg.op === "reset") loop.reset();
      process.send({ kind: "stats-part", id: msg.id, loop: loop.snapshot(name) });
    } else if (msg?.kind === "stats-reply") {
      waiting.get(msg.ref)(msg.loops);
      waiting.delete(msg.ref);
    }
  });
  const stats = { collect: () => ask("collect"), reset: () => ask("reset") };
  http
    .createServer((req, res) => {
      if (statsRoute(req, res, stats)) return;
      spawn(cfg.file, cfg.args).stdout.pipe(res);
    })
    .listen(cfg.port, "127.0.0.1");
}
