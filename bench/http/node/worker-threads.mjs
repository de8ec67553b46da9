// The seed's worker-threads server: the HTTP loop hands each spawn to one of
// N worker threads (round-robin), which runs it with execFile and posts the
// output back; the main thread answers with it.

import http from "node:http";
import { Worker } from "node:worker_threads";
import { config, thisLoopStats, listening, statsRoute } from "./common.mjs";

const cfg = config();
const stats = thisLoopStats();

let nextId = 0;
const pending = new Map();
const workers = Array.from({ length: cfg.workers }, () => {
  const worker = new Worker(new URL("./worker-threads-worker.mjs", import.meta.url), {
    workerData: { spawnModule: cfg.spawnModule },
  });
  worker.on("message", ([id, error, stdout]) => {
    pending.get(id)(error, stdout);
    pending.delete(id);
  });
  worker.on("error", (err) => {
    console.error("worker thread failed:", err);
    process.exit(1);
  });
  return worker;
});
let turn = 0;
const spawnInWorker = (file, args) =>
  new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, (error, stdout) => (error ? reject(new Error(error)) : resolve(stdout)));
    workers[turn++ % workers.length].postMessage([id, file, args]);
  });

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
  .listen(cfg.port, "127.0.0.1", () => listening(`worker threads (${workers.length})`, cfg));
