'use strict';
// Smoke test of the package under whichever runtime runs this file (Node,
// Bun, Deno): spawn with piped stdio (a socket, and pipeAs: 'readable'), stdin round trip, a missing program,
// exec with a shell, kill, an IPC round trip with fork(). Prints one line per check and a summary; exits
// non-zero if a check failed or the addon cannot be loaded.
//
//   node test/smoke.js | bun test/smoke.js | deno run -A test/smoke.js

const runtime = typeof Bun !== 'undefined' ? `bun ${Bun.version}` : typeof Deno !== 'undefined' ? `deno ${Deno.version.deno}` : `node ${process.version}`;

let fastspawn;
try {
  fastspawn = require('..');
} catch (err) {
  console.log(`${runtime}: cannot load the package: ${err && err.message}`);
  process.exit(1);
}

// A runtime whose event loop empties before the checks finish (a stream
// that never ends, an event that never comes) must not pass silently.
let finished = false;
process.exitCode = 1;
process.on('exit', () => {
  if (!finished) console.log(`${runtime}: the checks did not finish (the event loop ran out of work)`);
});

let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok' : 'FAIL'} - ${name}${ok ? '' : `: ${detail}`}`);
}

function run(file, args, input, options) {
  return new Promise((resolve) => {
    const child = fastspawn.spawn(file, args, options);
    const events = [];
    let out = '';
    child.on('spawn', () => events.push('spawn'));
    child.on('error', (err) => events.push(`error ${err.code}`));
    child.on('exit', (code, signal) => events.push(`exit ${code} ${signal}`));
    if (child.stdout) child.stdout.on('data', (d) => (out += d));
    child.on('close', (code, signal) => {
      events.push(`close ${code} ${signal}`);
      resolve({ child, out, events });
    });
    if (input !== undefined) child.stdin.end(input);
  });
}

async function main() {
  const echo = await run('echo', ['hi', 'there']);
  check('echo: output', echo.out === 'hi there\n', JSON.stringify(echo.out));
  check('echo: events', echo.events.join(',') === 'spawn,exit 0 null,close 0 null', echo.events.join(','));
  check('echo: pid', Number.isInteger(echo.child.pid) && echo.child.pid > 0, echo.child.pid);

  const readable = await run('sh', ['-c', 'seq 1 30000'], undefined, { pipeAs: 'readable' });
  const expected = Array.from({ length: 30000 }, (_, i) => `${i + 1}\n`).join('');
  check("pipeAs: 'readable': output and events", readable.out === expected && readable.events.join(',') === 'spawn,exit 0 null,close 0 null', readable.events.join(','));

  const cat = await run('cat', [], 'round trip');
  check('stdin round trip', cat.out === 'round trip', JSON.stringify(cat.out));

  const missing = await run('fastspawn-no-such-program', ['a']);
  check('missing program', missing.events.join(',') === 'error ENOENT,close -2 null', missing.events.join(','));

  const sleeper = fastspawn.spawn('sleep', ['10']);
  const exited = new Promise((resolve) => sleeper.on('exit', (code, signal) => resolve(signal)));
  check('kill returns true', sleeper.kill() === true, 'false');
  const signal = await exited;
  check('killed by SIGTERM', signal === 'SIGTERM', signal);

  const out = await new Promise((resolve) =>
    fastspawn.exec('echo $((6 * 7))', (err, stdout) => resolve(err ? String(err) : stdout)),
  );
  check('exec with a shell', out === '42\n', JSON.stringify(out));

  const sync = fastspawn.spawnSync('sh', ['-c', 'cat; exit 3'], { input: 'sync', encoding: 'utf8' });
  check('spawnSync: input, output and status', sync.stdout === 'sync' && sync.status === 3, JSON.stringify([sync.stdout, sync.status]));

  // IPC with a stock Node child (Bun's net.Socket cannot carry the
  // channel: there it is refused with a clear error).
  const fixture = require('node:path').join(__dirname, '..', 'testlib', 'ipc-child.js');
  const nodeBinary = typeof Bun === 'undefined' && typeof Deno === 'undefined' ? process.execPath : 'node';
  if (typeof Bun !== 'undefined') {
    let code = null;
    try {
      fastspawn.fork(fixture, [], { execPath: nodeBinary });
    } catch (err) {
      code = err.code;
    }
    check('fork refused on Bun', code === 'ERR_FASTSPAWN_IPC_UNSUPPORTED', code);
  } else {
    const child = fastspawn.fork(fixture, [], { execPath: nodeBinary, silent: true });
    child.send({ op: 'echo', value: 42 });
    const [reply] = await new Promise((resolve) => child.once('message', (...args) => resolve(args)));
    child.disconnect();
    await new Promise((resolve) => child.on('exit', resolve));
    check('fork: IPC round trip', reply && reply.echo === 42, JSON.stringify(reply));
  }

  finished = true;
  console.log(`${runtime}: ${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}

main().catch((err) => {
  console.log(`${runtime}: ${err && err.stack}`);
  process.exitCode = 1;
});
