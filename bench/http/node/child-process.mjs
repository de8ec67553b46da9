// The seed's child-process pool: N processes started once with fork(); the
// HTTP loop sends each spawn to one of them (round-robin) over the IPC
// channel, the process runs it with execFile and sends the output back.
// The channel uses `serialization: "advanced"`, which the seed found the
// fast choice for large outputs (the cat workload).

import { fork } from "node:child_process";
import http from "node:http";
import { config, thisLoopStats, listening, statsRoute } from "./common.mjs";

const cfg = config();
const stats = thisLoopStats();

let nextId = 0;
const pending = new Map();
let ready = 0;
const workers = Array.from({ length: cfg.workers }, () => {
  const child = fork(
    new URL("./child-process-worker.mjs", import.meta.url),
    ["--spawn-module", cfg.spawnModule],
    { serialization: "advanced" },
  );
  child.on("message", (msg) => {
    if (msg === "ready") {
      if (++ready === cfg.workers) start();
      return;
    }
    const [id, error, stdout] = msg;
    pending.get(id)(error, stdout);
    pending.delete(id);
  });
  child.on("exit", (code, signal) => {
    console.error(`pool process ${child.pid} exited (${signal ?? code})`);
    process.exit(1);
  });
  return child;
});
// The pool processes die with the server.
process.on("SIGTERM", () => {
  for (const w of workers) w.removeAllListeners("exit").kill();
  process.exit(0);
});

let turn = 0;
const spawnInWorker = (file, args) =>
  new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, (error, stdout) => (error ? reject(new Error(error)) : resolve(stdout)));
    workers[turn++ % workers.length].send([id, file, args]);
  });

function start() {
  http
    .createServer(async (req, res) => {
      if (statsRoute(req, res, stats)) return;
      try {
        res.end(await spawnInWorker(cfg.file, cfg.args));
      } catch (err) {
        res.statusCode = 500;
        res.end(String(err.message));
      }
    })
    .listen(cfg.port, "127.0.0.1", () => listening(`child-process pool (${workers.length})`, cfg));
}
