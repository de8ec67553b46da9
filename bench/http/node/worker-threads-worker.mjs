// A worker thread of worker-threads.mjs: runs [id, file, args] with execFile
// and posts [id, error, stdout] back.

import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";

const { execFile } = createRequire(import.meta.url)(workerData.spawnModule);

parentPort.on("message", ([id, file, args]) => {
  execFile(file, args, { maxBuffer: 16 << 20 }, (error, stdout) => {
    parentPort.postMessage([id, error ? String(error.message) : null, stdout]);
  });
});
