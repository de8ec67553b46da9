// The seed's baseline server (baseline.mjs) with the fastspawn package's
// opt-ins for a server that spawns a short child per request
// (bindings/node/README.md): each child's stdout a plain Readable fed by
// the addon (`pipeAs: 'readable'`), and the children's events coalesced
// while other children run (`setDelivery({ within: 5000 })`: a child's
// events may come up to 5 ms late while others run; a lone child's are
// not delayed). Only these two differ from baseline.mjs with
// --spawn-module bindings/node.
//
//   node fastspawn-tuned.mjs --port 8001 --workload echo --spawn-module ../../../bindings/node
//
// DELIVERY_WITHIN (µs, default 5000; 0: off) and DELIVERY_COUNT (default
// 64) set the delivery; PIPE_AS ('readable' by default) the stdout;
// STDIO=rust gives the child the Rust servers' stdio (stdin /dev/null,
// stdout piped, stderr the server's) instead of spawn()'s default (all
// three piped).

import http from "node:http";
import { config, thisLoopStats, listening, spawnModule, statsRoute } from "./common.mjs";

const cfg = config();
const fastspawn = spawnModule(cfg);
const stats = thisLoopStats();
const options = { pipeAs: process.env.PIPE_AS || "readable" };
if (process.env.STDIO === "rust") options.stdio = ["ignore", "pipe", "inherit"];
const within = Number(process.env.DELIVERY_WITHIN ?? 5000);
const count = Number(process.env.DELIVERY_COUNT ?? 64);
fastspawn.setDelivery({ within, count });
// A measurement only (session 13): the addon's socketpair reserve resized
// (an internal knob, not an option of the package).
if (process.env.SOCKETPAIR_RESERVE) {
  const { createRequire } = await import("node:module");
  createRequire(import.meta.url)(`${cfg.spawnModule}/lib/native`).addon.setSocketpairReserve(Number(process.env.SOCKETPAIR_RESERVE));
}

http
  .createServer((req, res) => {
    if (statsRoute(req, res, stats)) return;
    fastspawn.spawn(cfg.file, cfg.args, options).stdout.pipe(res);
  })
  .listen(cfg.port, "127.0.0.1", () => listening("fastspawn-tuned", cfg));
