'use strict';
// The process-per-request HTTP server of issue 5, for a quick comparison:
// every request spawns a child and pipes its stdout into the response.
//
//   node bench/http.js node|fastspawn [port] [-- CHILD ARGS...]
//
// Listens on 127.0.0.1 only; default child `echo hi`. On SIGINT/SIGTERM it
// prints the event loop's delay (p50/p99/max, ms) during its life, then
// exits; with STOP_AFTER=N in the environment it does so after N requests
// (so that `node --cpu-prof` writes its profile). Drive it with e.g.
// `hey -c 30 -n 10000 http://127.0.0.1:PORT/`.

const http = require('node:http');
const { monitorEventLoopDelay } = require('node:perf_hooks');

const which = process.argv[2];
const port = Number(process.argv[3] || 8080);
const dash = process.argv.indexOf('--');
const [file, ...args] = dash === -1 ? ['echo', 'hi'] : process.argv.slice(dash + 1);
const { spawn } = which === 'fastspawn' ? require('..') : require('node:child_process');

const delay = monitorEventLoopDelay({ resolution: 1 });
const stopAfter = Number(process.env.STOP_AFTER || 0);
let served = 0;
const server = http.createServer((req, res) => {
  const child = spawn(file, args);
  child.stdout.pipe(res);
  if (++served === stopAfter) res.on('finish', () => setTimeout(stop, 100));
});
server.listen(port, '127.0.0.1', () => {
  delay.enable();
  console.log(`${which} listening on 127.0.0.1:${port}, child: ${[file, ...args].join(' ')}`);
});
function stop() {
  delay.disable();
  const ms = (ns) => (ns / 1e6).toFixed(3);
  console.log(`event loop delay ms: p50 ${ms(delay.percentile(50))} p99 ${ms(delay.percentile(99))} max ${ms(delay.max)}`);
  server.close();
  server.closeAllConnections();
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
