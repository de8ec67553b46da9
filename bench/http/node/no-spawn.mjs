// A control, not a contender: the baseline's HTTP server answering with
// the workload's output from memory, spawning nothing. Its requests/s and
// event-loop delay are what Node's own HTTP handling costs on this machine
// under the same load: no spawn library can do better than this.
//
//   node no-spawn.mjs --port 8001 --workload cat

import http from "node:http";
import { execFileSync } from "node:child_process";
import { config, thisLoopStats, listening, statsRoute } from "./common.mjs";

const cfg = config();
// The body, made once by running the workload's command at start-up.
const body = execFileSync(cfg.file, cfg.args);
const stats = thisLoopStats();

http
  .createServer((req, res) => {
    if (statsRoute(req, res, stats)) return;
    res.end(body);
  })
  .listen(cfg.port, "127.0.0.1", () => listening("no-spawn", cfg));
