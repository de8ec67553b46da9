// The seed's baseline: one spawn per request, its stdout piped to the
// response. Run by Node, Deno and Bun, and by Node with fastspawn: the only
// difference is where `spawn` comes from (--spawn-module, default
// node:child_process; bindings/node for fastspawn).
//
//   node baseline.mjs --port 8001 --workload echo
//   node baseline.mjs --port 8001 --workload cat --spawn-module ../../../bindings/node

import http from "node:http";
import { config, thisLoopStats, listening, spawnModule, statsRoute } from "./common.mjs";

const cfg = config();
const { spawn } = spawnModule(cfg);
const stats = thisLoopStats();

http
  .createServer((req, res) => {
    if (statsRoute(req, res, stats)) return;
    spawn(cfg.file, cfg.args).stdout.pipe(res);
  })
  .listen(cfg.port, "127.0.0.1", () => listening("baseline", cfg));
