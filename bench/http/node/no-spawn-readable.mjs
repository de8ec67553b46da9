// A control, not a contender: the floor of any Node spawn library whose
// child.stdout is a stream.Readable of its own rather than a net.Socket.
// Each request gets the cheapest object that could stand for a child's
// stdout, already holding the workload's output and ended, as if a child
// had written it and exited; it is piped to the response.
//
// Why nothing cheaper could stand for child.stdout:
// - The server does `spawn(file, args).stdout.pipe(res)`, and real programs
//   also use stdout's 'data' and 'end' events, setEncoding(), destroy(),
//   async iteration and Readable.prototype methods on it: a drop-in must
//   hand out a stream.Readable (an object with only a `pipe` method that
//   writes the bytes would break all but this one server).
// - The Readable (common.mjs's finishedOutput) is the plainest Node
//   allows: a subclass whose _read() does nothing (its data is pushed by
//   the owner, as a native reader thread would), default options (Node's
//   child.stdout emits 'end' and then 'close', so autoDestroy and
//   emitClose stay on), no file descriptor, no libuv handle, no read
//   syscall.
// - The whole output is pushed as one Buffer followed by the end (push(null))
//   in the same tick: a real stdout gets at least one chunk and the end from
//   the child, and usually more (a pipe holds 64 KiB). The Buffer is the same
//   for every request (no allocation or copy of the bytes), which only makes
//   this floor lower.
// So its CPU per request is at most what any Readable stdout costs the
// server beyond the spawn itself (see docs/perf/node.md, Session 11).
//
//   node no-spawn-readable.mjs --port 8001 --workload echo

import http from "node:http";
import { execFileSync } from "node:child_process";
import { config, finishedOutput, listening, statsRoute, thisLoopStats } from "./common.mjs";

const cfg = config();
// The body, made once by running the workload's command at start-up.
const body = execFileSync(cfg.file, cfg.args);
const stats = thisLoopStats();
// NO_SPAWN_DEFER=1: each answer in a later turn of the loop (setImmediate),
// as a spawning server's must be (bindings/node/bench/http-ab.js).
const defer = process.env.NO_SPAWN_DEFER === "1";

http
  .createServer((req, res) => {
    if (statsRoute(req, res, stats)) return;
    if (defer) setImmediate(answer, res);
    else answer(res);
  })
  .listen(cfg.port, "127.0.0.1", () => listening("no-spawn-readable", cfg));

function answer(res) {
  finishedOutput(body).pipe(res);
}
