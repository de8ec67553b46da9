// Shared by the JavaScript servers of the HTTP benchmark (see ../README.md):
// the configuration, the command of each workload, and the event-loop delay
// monitor behind the /__stats endpoints.
//
// Configuration, from argv or else the environment:
//   --port N            PORT              port on 127.0.0.1 (required)
//   --workload W        WORKLOAD          echo (`echo hi`) or cat (`cat MAIN_C`)
//   --main-c PATH       MAIN_C            the file of the cat workload (default ../main.c)
//   --spawn-module M    SPAWN_MODULE      where spawn/execFile come from (default node:child_process)
//   --workers N         WORKERS           cluster workers / threads / pool processes (default: cores)

import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Readable } from "node:stream";

const require = createRequire(import.meta.url);

/** The server's configuration (see above). */
export function config(argv = process.argv.slice(2), env = process.env) {
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m) throw new Error(`unexpected argument ${argv[i]}`);
    opts[m[1]] = m[2] ?? argv[++i];
  }
  const pick = (flag, name, dflt) => opts[flag] ?? env[name] ?? dflt;
  const port = Number(pick("port", "PORT"));
  if (!Number.isInteger(port) || port <= 0) throw new Error("--port (or PORT) is required");
  const workload = pick("workload", "WORKLOAD", "echo");
  const mainC = pick("main-c", "MAIN_C", fileURLToPath(new URL("../main.c", import.meta.url)));
  const commands = { echo: ["echo", ["hi"]], cat: ["cat", [mainC]] };
  if (!commands[workload]) throw new Error(`unknown workload ${workload} (echo or cat)`);
  const [file, args] = commands[workload];
  return {
    port,
    workload,
    file,
    args,
    spawnModule: pick("spawn-module", "SPAWN_MODULE", "node:child_process"),
    workers: Number(pick("workers", "WORKERS", availableParallelism())),
  };
}

/** The module that provides spawn/execFile: node:child_process, or a path to
 * a package with the same API (bindings/node, the fastspawn package). */
export function spawnModule(cfg) {
  return require(cfg.spawnModule);
}

/** Which runtime runs this script. */
export function runtime() {
  if (typeof globalThis.Bun !== "undefined") return `bun ${globalThis.Bun.version}`;
  if (typeof globalThis.Deno !== "undefined") return `deno ${globalThis.Deno.version.deno}`;
  return `node ${process.versions.node}`;
}

// 1 ms is the finest resolution monitorEventLoopDelay accepts (an integer
// number of milliseconds). Node's histogram records the whole interval
// between two ticks of a 1 ms timer, so its lateness is the recorded value
// minus the resolution; Deno and Bun record the lateness itself.
const RESOLUTION_MS = 1;
const RECORDS_INTERVAL = runtime().startsWith("node");

/** Starts monitoring this thread's event loop; returns the stats helpers. */
export function eventLoop() {
  let histogram = null;
  let error = null;
  try {
    histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
  } catch (err) {
    error = String(err?.message ?? err);
  }
  const excess = (ns) =>
    RECORDS_INTERVAL ? Math.max(0, ns - RESOLUTION_MS * 1e6) : ns;
  return {
    reset() {
      histogram?.reset();
    },
    /** Percentiles of the lateness of the loop's 1 ms tick since the last reset, in ns. */
    snapshot(name = "main") {
      if (!histogram) return { name, error };
      const p = (q) => histogram.percentile(q);
      return {
        name,
        count: histogram.count,
        p50_ns: excess(p(50)),
        p99_ns: excess(p(99)),
        max_ns: excess(histogram.max),
        raw_p99_ns: p(99),
      };
    },
  };
}

/** The stats of a server with one event loop (this thread's), for
 * statsRoute: starts monitoring it. */
export function thisLoopStats() {
  const loop = eventLoop();
  return { collect: () => [loop.snapshot()], reset: () => loop.reset() };
}

// The plainest stream.Readable: its data is pushed by its owner, so
// _read() does nothing; default options, so 'end' and then 'close' come as
// from Node's child.stdout.
class FinishedOutput extends Readable {
  _read() {}
}

/** A child's stdout that already holds everything the child wrote: a
 * FinishedOutput holding `body` (a Buffer, or null for no output) and
 * ended (see no-spawn-readable.mjs). */
export function finishedOutput(body) {
  const out = new FinishedOutput();
  if (body !== null) out.push(body);
  out.push(null);
  return out;
}

/** The stats document: one entry per monitored event loop. */
export function statsDocument(loops) {
  return {
    runtime: runtime(),
    resolution_ms: RESOLUTION_MS,
    records: RECORDS_INTERVAL ? "interval" : "lateness",
    loops,
  };
}

/** Answers /__stats (JSON) and /__stats/reset; returns false for other URLs.
 * `collect` and `reset` may be async (the cluster asks every process). */
export function statsRoute(req, res, { collect, reset }) {
  if (!req.url.startsWith("/__stats")) return false;
  const reply = (doc) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(doc));
  };
  if (req.url === "/__stats/reset") {
    Promise.resolve(reset()).then(() => reply({ reset: true }));
  } else {
    Promise.resolve(collect()).then((loops) => reply(statsDocument(loops)));
  }
  return true;
}

/** Prints the line the driver and a person wait for. */
export function listening(kind, cfg) {
  console.log(
    `${kind} (${runtime()}) listening on 127.0.0.1:${cfg.port}, workload ${cfg.workload}: ${cfg.file} ${cfg.args.join(" ")}`,
  );
}
