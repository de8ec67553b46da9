// A control, not a contender: the baseline's handler with everything of a
// spawn but the process. Each request gets what a child's stdout is in
// Node (a net.Socket over the parent's end of a socketpair) whose other end
// already holds the workload's output and is closed, as if a child had
// written it and exited; the socket is piped to the response. Its CPU per
// request is the floor for any Node spawn library whose child.stdout is a
// net.Socket, as node:child_process's is (see docs/perf/node.md).
//
//   node no-spawn-stream.mjs --port 8001 --workload echo --spawn-module ../../../bindings/node

import http from "node:http";
import net from "node:net";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { config, thisLoopStats, listening, statsRoute } from "./common.mjs";

const cfg = config();
// The fastspawn addon makes the socketpairs (finishedOutputFd).
const { addon } = createRequire(import.meta.url)(path.join(path.resolve(cfg.spawnModule), "lib", "native.js"));
// The body, made once by running the workload's command at start-up.
const body = execFileSync(cfg.file, cfg.args);
const stats = thisLoopStats();

http
  .createServer((req, res) => {
    if (statsRoute(req, res, stats)) return;
    const fd = addon.finishedOutputFd(body);
    if (fd < 0) {
      res.statusCode = 500;
      res.end(`finishedOutputFd: errno ${-fd}\n`);
      return;
    }
    new net.Socket({ fd, readable: true, writable: true }).pipe(res);
  })
  .listen(cfg.port, "127.0.0.1", () => listening("no-spawn-stream", cfg));
