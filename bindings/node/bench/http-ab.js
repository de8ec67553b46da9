// HTTP servers measured by hand, their sides interleaved round by round:
// each round starts every side's server in turn, checks its body, warms it
// up, loads it with `hey -c 30 -n N` and reads the CPU it took (the server
// with its threads and reaped children, /proc/PID/stat) and hey's (bash's
// `times`), then stops it. Prints each round and the medians, with each
// side's req/s against the first side's in the same round. For the
// experiments of the README's session 11; `fastspawn bench http` is the
// benchmark.
//
// With --threads, the server's own CPU is also split by thread name
// (/proc/PID/task/*/stat, in clock ticks; the same from
// /proc/PID/task/*/schedstat as "NAME (schedstat)", the scheduler's own
// count in ns; the JS thread is `node` for Node and the Rust server's name
// for it; fastspawn's spawner threads `fastspawn-N` are summed as
// `fastspawn-N`; threads that ended during the load are missed), with the
// main thread's user and system ticks apart and its voluntary context
// switches ("sleeps"). With --perf, the main thread is also recorded
// during the load (`perf record -e cpu-clock`), its time summed by DSO and
// by symbol (JIT code is "JIT/unknown"). Each side's medians also give the
// bound: the first side's CPU per request (server, children, hey) over
// this side's server CPU with the first side's children and hey.
//
//   node bench/http-ab.js [--workload echo|cat] [--rounds 5] [--n 5000] [--threads] [--perf] SIDE...
//
// SIDE: node-fastspawn, node-fastspawn-tuned (bench/http/node/fastspawn-tuned.mjs:
// the package's opt-ins pipeAs: 'readable' and setDelivery({ within: 5000 }),
// and each alone: node-fastspawn-tuned:readable-only, :delivery-only;
// :rust-stdio, the child's stdio as the Rust servers give it), exit-readable (bench/http-exit-readable.js),
// exit-readable-ignore (the same with stdin and stderr 'ignore'),
// exit-readable:within=5000,count=60,poll (the package's events coalesced:
// README session 12),
// ping-readable (bench/http-ping-readable.js), its variants
// ping-readable:OPT,... (cb, within=US, count=N, poll; README session 12),
// any side with `@q=N` (hey's 30 workers each limited to N requests/s,
// `hey -q N`: a control served at a spawning server's rate, so that its
// JS thread idles between requests as theirs does), and any side with `+execs`
// (e.g. node-no-spawn-readable+execs): the same while a shell loop runs
// `/bin/echo hi` without pause beside it (its CPU not counted), to see what
// other processes' execs cost the server's threads,
// rust-fastspawn, node-no-spawn-readable, node-no-spawn-stream; a package
// side with `@pkg=DIR` (e.g. node-fastspawn-tuned@pkg=/tmp/base/bindings/node)
// is served by the package copy at DIR with its own fastspawn.node (an A/B
// of two builds).

"use strict";
const { spawn, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const http = require("node:http");
const net = require("node:net");
const path = require("node:path");

const here = __dirname;
const root = path.resolve(here, "../../..");
const servers = path.join(root, "bench/http/node");
const mainC = path.join(root, "bench/http/main.c");

const opts = { workload: "echo", rounds: 5, n: 5000, threads: false, perf: false };
const sides = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const m = /^--(workload|rounds|n)$/.exec(argv[i]);
  if (argv[i] === "--threads") opts.threads = true;
  else if (argv[i] === "--perf") opts.perf = true;
  else if (m) opts[m[1]] = m[1] === "workload" ? argv[++i] : Number(argv[++i]);
  else sides.push(argv[i]);
}
if (sides.length === 0) throw new Error("name the sides, e.g. rust-fastspawn node-fastspawn exit-readable");

function command(side, port) {
  // SIDE@pkg=DIR: a package side served by the package at DIR (a copy of
  // another build: its index.js, lib/ and fastspawn.node), for an A/B of
  // two builds in the same rounds.
  const pkg = /@pkg=([^@]+)$/.exec(side);
  if (pkg) {
    const [program, args, env] = command(side.slice(0, pkg.index), port);
    const at = args.indexOf("--spawn-module");
    if (at < 0) throw new Error(`side ${side}: @pkg= is for the package's servers`);
    args[at + 1] = path.resolve(pkg[1]);
    return [program, args, { ...env, FASTSPAWN_NODE_ADDON: path.join(path.resolve(pkg[1]), "fastspawn.node") }];
  }
  const common = ["--port", String(port), "--workload", opts.workload, "--main-c", mainC];
  const node = (script, extra = []) => [process.execPath, [script, ...common, ...extra]];
  // ping-readable:OPT,OPT... (README session 12): cb (a callback),
  // within=US and count=N (coalesced answers), poll (each request takes
  // what waits); see bench/http-ping-readable.js.
  const variant = /^ping-readable:(.+)$/.exec(side);
  if (variant) {
    const env = {};
    for (const opt of variant[1].split(",")) {
      const [key, value] = opt.split("=");
      if (key === "cb") env.PING_CALLBACK = "1";
      else if (key === "poll") env.PING_POLL = "1";
      else if (key === "within") env.PING_WITHIN = value;
      else if (key === "count") env.PING_COUNT = value;
      else throw new Error(`unknown option ${opt} of side ${side}`);
    }
    return [...node(path.join(here, "http-ping-readable.js")), env];
  }
  switch (side) {
    case "node-fastspawn":
      return node(path.join(servers, "baseline.mjs"), ["--spawn-module", path.join(root, "bindings/node")]);
    case "node-fastspawn-tuned":
      return node(path.join(servers, "fastspawn-tuned.mjs"), ["--spawn-module", path.join(root, "bindings/node")]);
    // The tuned server's opt-ins one at a time.
    case "node-fastspawn-tuned:readable-only":
      return [
        ...node(path.join(servers, "fastspawn-tuned.mjs"), ["--spawn-module", path.join(root, "bindings/node")]),
        { DELIVERY_WITHIN: "0" },
      ];
    case "node-fastspawn-tuned:rust-stdio":
      return [
        ...node(path.join(servers, "fastspawn-tuned.mjs"), ["--spawn-module", path.join(root, "bindings/node")]),
        { STDIO: "rust" },
      ];
    case "node-fastspawn-tuned:reserve=48":
      return [
        ...node(path.join(servers, "fastspawn-tuned.mjs"), ["--spawn-module", path.join(root, "bindings/node")]),
        { SOCKETPAIR_RESERVE: "48" },
      ];
    case "node-fastspawn-tuned:delivery-only":
      return [
        ...node(path.join(servers, "fastspawn-tuned.mjs"), ["--spawn-module", path.join(root, "bindings/node")]),
        { PIPE_AS: "socket" },
      ];
    case "node-no-spawn-stream":
      return node(path.join(servers, "no-spawn-stream.mjs"), ["--spawn-module", path.join(root, "bindings/node")]);
    case "node-no-spawn-readable":
      return node(path.join(servers, "no-spawn-readable.mjs"));
    case "exit-readable":
      return node(path.join(here, "http-exit-readable.js"));
    case "exit-readable:within=5000,count=60,poll":
      return [
        ...node(path.join(here, "http-exit-readable.js")),
        { EXIT_READABLE_WITHIN: "5000", EXIT_READABLE_COUNT: "60", EXIT_READABLE_POLL: "1" },
      ];
    case "exit-readable-ignore":
      return [...node(path.join(here, "http-exit-readable.js")), { EXIT_READABLE_STDIO: "ignore" }];
    case "node-no-spawn-readable-deferred":
      return [...node(path.join(servers, "no-spawn-readable.mjs")), { NO_SPAWN_DEFER: "1" }];
    case "ping-readable":
      return node(path.join(here, "http-ping-readable.js"));
    case "ping-readable-cb":
      return [...node(path.join(here, "http-ping-readable.js")), { PING_CALLBACK: "1" }];
    case "rust-fastspawn":
      return [path.join(root, "target/peers/http/rust-http-server"), [...common, "--spawner", "fastspawn"]];
    default:
      throw new Error(`unknown side ${side}`);
  }
}

const expected = opts.workload === "echo" ? Buffer.from("hi\n") : fs.readFileSync(mainC);
const tick = 1e9 / 100; // ns per clock tick (USER_HZ)

// A /proc stat line's CPU (ns): its own (utime + stime) and its reaped
// children's (cutime + cstime), fields 14-17 (1-based), 12-15 after the name.
function statCpu(text) {
  const f = text.slice(text.lastIndexOf(")") + 2).split(" ").map(Number);
  return { own: (f[11] + f[12]) * tick, children: (f[13] + f[14]) * tick };
}

function procCpu(pid) {
  return statCpu(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
}

// CPU (ns) of each thread name of process `pid`.
function threadCpu(pid) {
  const by = {};
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    let text;
    try {
      text = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    } catch {
      continue;
    }
    const name = text.slice(text.indexOf("(") + 1, text.lastIndexOf(")")).replace(/^fastspawn-\d+$/, "fastspawn-N");
    by[name] = (by[name] ?? 0) + statCpu(text).own;
    // The scheduler's own count of the time on a CPU (ns, not ticks).
    let exact = 0;
    try {
      exact = Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      continue;
    }
    by[`${name} (schedstat)`] = (by[`${name} (schedstat)`] ?? 0) + exact;
  }
  // The main thread's user and system time apart, as "main user" and
  // "main system".
  const main = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8");
  const mf = main.slice(main.lastIndexOf(")") + 2).split(" ").map(Number);
  by["main user"] = mf[11] * tick;
  by["main system"] = mf[12] * tick;
  // The main thread's voluntary context switches (its sleeps), as "sleeps"
  // (a count, scaled so that the per-request figure below is a count too).
  const status = fs.readFileSync(`/proc/${pid}/task/${pid}/status`, "utf8");
  by.sleeps = Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(status)[1]) * 1e3;
  return by;
}

function machine() {
  const f = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const all = f.reduce((a, b) => a + b, 0);
  return { busy: all - f[3] - f[4], all };
}

function get(port) {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/", agent: false }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

// A new connection each time (agent: false): a kept-alive one would have
// been closed by the server's keep-alive timeout during a long load.
async function checkBody(port, side, when) {
  const { status, body } = await get(port).catch((err) => {
    throw new Error(`${side}, ${when}: ${err.message}`);
  });
  if (status !== 200 || !body.equals(expected)) throw new Error(`${side}: status ${status}, ${body.length} bytes, not the expected output`);
}

async function listening(port, child) {
  for (let i = 0; i < 250; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    const ok = await new Promise((resolve) => {
      const s = net.connect(port, "127.0.0.1", () => {
        s.destroy();
        resolve(true);
      });
      s.on("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("the server did not listen");
}

// hey's requests/s and its CPU (ns), from bash's `times` of its children.
function hey(port, n, qps = 0) {
  const rate = qps > 0 ? ` -q ${qps}` : "";
  const r = spawnSync("bash", ["-c", `hey -c 30${rate} -n ${n} http://127.0.0.1:${port}/; times`], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`hey: ${r.stderr}`);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(r.stdout)[1]);
  const ok = Number((/\[200\]\s+(\d+) responses/.exec(r.stdout) ?? [0, 0])[1]);
  const lines = r.stdout.trim().split("\n");
  const secs = (s) => {
    const m = /(\d+)m([\d.]+)s/.exec(s);
    return (Number(m[1]) * 60 + Number(m[2])) * 1e9;
  };
  const [u, s] = lines[lines.length - 1].trim().split(/\s+/);
  return { rps, ok, cpu: secs(u) + secs(s) };
}

// With --perf: `perf record -e cpu-clock` of the server's main thread (the
// JS thread) during the load; its samples by DSO and by symbol, in µs
// (samples / frequency).
const PERF_HZ = 4999;
function startPerf(pid) {
  const file = path.join(require("node:os").tmpdir(), `http-ab-perf-${process.pid}-${pid}.data`);
  const proc = spawn("perf", ["record", "-q", "-e", "cpu-clock", "-F", String(PERF_HZ), "-t", String(pid), "-o", file], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  spawnSync("sleep", ["0.2"]);
  return { proc, file };
}

async function stopPerf({ proc, file }) {
  const exited = new Promise((r) => proc.once("exit", r));
  proc.kill("SIGINT");
  await exited;
  const r = spawnSync("perf", ["report", "-i", file, "--stdio", "-q", "-n", "--sort", "dso,sym"], {
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  fs.rmSync(file, { force: true });
  const bySym = {};
  const byDso = {};
  for (const line of r.stdout.split("\n")) {
    const m = /^\s*[\d.]+%\s+(\d+)\s+(\S+)\s+\[(.)\]\s+(.*?)\s*$/.exec(line);
    if (!m) continue;
    const us = (Number(m[1]) / PERF_HZ) * 1e6;
    const dso = m[2].startsWith("perf-") || m[2] === "[unknown]" ? "JIT/unknown" : m[2];
    bySym[`${dso} ${m[4]}`] = (bySym[`${dso} ${m[4]}`] ?? 0) + us;
    byDso[dso] = (byDso[dso] ?? 0) + us;
  }
  return { bySym, byDso };
}

let port = 18700 + (process.pid % 200);
async function measure(side) {
  port += 1;
  // SIDE@q=N: hey's 30 workers each send at most N requests/s (hey -q).
  const qps = Number((/@q=(\d+)$/.exec(side) ?? [0, 0])[1]);
  const [program, args, env = {}] = command(side.replace(/@q=\d+$/, "").replace(/\+execs$/, ""), port);
  const child = spawn(program, args, { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...env } });
  const execs = side.replace(/@q=\d+$/, "").endsWith("+execs")
    ? spawn("bash", ["-c", "while :; do /bin/echo hi >/dev/null; done"], { stdio: "ignore" })
    : null;
  try {
    await listening(port, child);
    await checkBody(port, side, "before the load");
    hey(port, Math.min(1000, opts.n));
    const threadsBefore = opts.threads ? threadCpu(child.pid) : null;
    const before = procCpu(child.pid);
    const m0 = machine();
    const perf = opts.perf ? startPerf(child.pid) : null;
    const load = hey(port, opts.n, qps);
    const m1 = machine();
    const profile = perf ? await stopPerf(perf) : null;
    const after = procCpu(child.pid);
    const threadsAfter = opts.threads ? threadCpu(child.pid) : null;
    await checkBody(port, side, "after the load");
    if (load.ok !== Math.floor(opts.n / 30) * 30) throw new Error(`${side}: ${load.ok} responses were 200`);
    const per = (ns) => ns / 1e3 / load.ok;
    const threads = {};
    for (const [name, ns] of Object.entries(threadsAfter ?? {})) threads[name] = per(ns - (threadsBefore[name] ?? 0));
    return {
      profile,
      ok: load.ok,
      threads,
      rps: load.rps,
      server: per(after.own - before.own),
      children: per(after.children - before.children),
      hey: per(load.cpu),
      busy: (m1.busy - m0.busy) / (m1.all - m0.all),
    };
  } finally {
    if (execs) {
      execs.kill("SIGKILL");
      await new Promise((r) => (execs.exitCode !== null || execs.signalCode !== null ? r() : execs.once("exit", r)));
    }
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once("exit", r)));
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
};
async function main() {
  const results = Object.fromEntries(sides.map((s) => [s, []]));
  const load = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  console.log(`${new Date().toISOString()} workload ${opts.workload}, ${opts.rounds} rounds of hey -c 30 -n ${opts.n}, load ${load()}`);
  for (let round = 1; round <= opts.rounds; round++) {
    const row = [];
    for (const side of sides) {
      const r = await measure(side);
      results[side].push(r);
      row.push(`${side} ${r.rps.toFixed(0)}/s ${r.server.toFixed(0)}+${r.children.toFixed(0)}+${r.hey.toFixed(0)} µs busy ${(r.busy * 100).toFixed(0)}%`);
    }
    console.log(`round ${round}: ${row.join("; ")}`);
  }
  const first = sides[0];
  console.log(`${new Date().toISOString()} load ${load()}; medians (CPU per request: server + children + hey):`);
  for (const side of sides) {
    const rs = results[side];
    const ratios = rs.map((r, i) => r.rps / results[first][i].rps);
    const total = median(rs.map((r) => r.server + r.children + r.hey));
    // What the first side would do with this side's server CPU and the
    // first side's children and hey, per round (the CPU model's bound).
    const bounds = rs.map((r, i) => {
      const f = results[first][i];
      return (f.server + f.children + f.hey) / (r.server + f.children + f.hey);
    });
    const names = [...new Set(rs.flatMap((r) => Object.keys(r.threads)))];
    const split = names
      .map((name) => [name, median(rs.map((r) => r.threads[name] ?? 0))])
      .filter(([name, us]) => us >= 1 || name === "sleeps")
      .sort((a, b) => b[1] - a[1])
      .map(([name, us]) => (name === "sleeps" ? `main thread's sleeps ${us.toFixed(2)}` : `${name} ${us.toFixed(0)}`))
      .join(", ");
    if (opts.perf) {
      // Summed over the rounds, per request.
      const requests = rs.reduce((a, r) => a + r.ok, 0);
      const sum = (key) => {
        const by = {};
        for (const r of rs) for (const [k, us] of Object.entries(r.profile[key])) by[k] = (by[k] ?? 0) + us;
        return Object.entries(by)
          .map(([k, us]) => [k, us / requests])
          .sort((a, b) => b[1] - a[1]);
      };
      const dsos = sum("byDso");
      const total = dsos.reduce((a, [, us]) => a + us, 0);
      console.log(`  ${side} main thread by perf (µs per request, all rounds): ${total.toFixed(1)} in all; ${dsos.filter(([, us]) => us >= 0.5).map(([k, us]) => `${k} ${us.toFixed(1)}`).join(", ")}`);
      console.log(`    top symbols: ${sum("bySym").slice(0, 25).map(([k, us]) => `${k} ${us.toFixed(1)}`).join("; ")}`);
    }
    if (opts.threads) console.log(`  ${side} threads (µs per request, medians): ${split}`);
    console.log(
      `${side}: ${median(rs.map((r) => r.rps)).toFixed(0)} req/s, vs ${first} per round ${median(ratios).toFixed(2)}x (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}x), bound with ${first}'s children and hey ${median(bounds).toFixed(3)}x (${Math.min(...bounds).toFixed(3)}-${Math.max(...bounds).toFixed(3)}x); server ${median(rs.map((r) => r.server)).toFixed(0)} µs, children ${median(rs.map((r) => r.children)).toFixed(0)} µs, hey ${median(rs.map((r) => r.hey)).toFixed(0)} µs, total ${total.toFixed(0)} µs; busy >= ${(Math.min(...rs.map((r) => r.busy)) * 100).toFixed(0)}%`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
