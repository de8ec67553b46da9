'use strict';
// The addon's own threads (the waiter, the coalescer of setDelivery and
// setPingDelivery, the lone thread of setLone) are started by the call
// that needs them, on the JS thread: a thread that cannot start is that
// call's error, never a panic on a spawner thread with a child left
// unreaped. The failure is made real: a child Node process is put in a
// cgroup (v1 `pids` controller) whose pids.max is the number of threads
// it has, so that no thread can start in it any more; it then reports what
// each call did.

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const nodeCp = require('node:child_process');

const PIDS = '/sys/fs/cgroup/pids';
const PACKAGE = path.resolve(__dirname, '..');

function cgroupsUsable() {
  try {
    fs.accessSync(PIDS, fs.constants.W_OK);
    return fs.existsSync(path.join(PIDS, 'cgroup.procs'));
  } catch {
    return false;
  }
}
const skip = cgroupsUsable()
  ? false
  : `no writable cgroup v1 pids controller at ${PIDS} (needs root and that mount): cannot make a thread start fail`;
if (skip) console.log(`# skipped: ${skip}`);

// The child: runs `before` (source), prints "ready", waits for a line on
// stdin (the parent has capped its threads meanwhile), runs `after`, and
// prints the JSON of what `after` returned.
const CHILD = `
const fs = require('node:fs');
const PACKAGE = process.argv[1];
const before = new Function('require', 'PACKAGE', process.argv[2]);
const after = new Function('require', 'PACKAGE', 'state', process.argv[3]);
(async () => {
  const state = await before(require, PACKAGE);
  fs.writeSync(1, 'ready\\n');
  const buf = Buffer.alloc(16);
  fs.readSync(0, buf);
  const result = await after(require, PACKAGE, state);
  fs.writeSync(1, JSON.stringify(result) + '\\n');
  process.exit(0);
})();
`;

// Runs CHILD with `before` and `after` in a Node process whose threads are
// capped to those it has when it prints "ready".
function runCapped(before, after) {
  const dir = fs.mkdtempSync(path.join(PIDS, 'fastspawn-test-'));
  return new Promise((resolve, reject) => {
    const child = nodeCp.spawn(process.execPath, ['-e', CHILD, PACKAGE, before, after], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.stdout.on('data', (d) => {
      out += d;
      if (out === 'ready\n') {
        try {
          const tasks = fs.readdirSync(`/proc/${child.pid}/task`).length;
          fs.writeFileSync(path.join(dir, 'pids.max'), String(tasks));
          fs.writeFileSync(path.join(dir, 'cgroup.procs'), String(child.pid));
        } catch (e) {
          child.kill();
          reject(e);
          return;
        }
        child.stdin.write('go\n');
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      fs.rmdirSync(dir);
      const lines = out.trim().split('\n');
      resolve({ code, signal, stderr: err, result: lines.length === 2 ? JSON.parse(lines[1]) : undefined });
    });
  });
}

describe("the addon's threads start where they are asked for, or that call fails", { skip }, () => {
  it('init (loading the package) with no thread free: an error, not a crash', async () => {
    const got = await runCapped(
      'return null;',
      `try { require(PACKAGE); return { loaded: true }; } catch (e) { return { message: e.message }; }`,
    );
    assert.equal(got.code, 0, `the process ended cleanly (stderr: ${got.stderr})`);
    assert.equal(got.signal, null);
    assert.match(got.result.message, /^fastspawn: init: cannot start the waiter thread: .*os error 11/);
  });

  it('setDelivery, setPingDelivery and setLone with no thread free: errors, the settings unchanged', async () => {
    const got = await runCapped(
      // A child first, so that the spawner threads run before the cap.
      `const cp = require(PACKAGE);
       return new Promise((resolve) => cp.spawn('true').on('close', (code) => resolve(code)));`,
      `const cp = require(PACKAGE);
       const { addon } = require(PACKAGE + '/lib/native');
       const result = { first: state };
       const attempt = (name, fn) => {
         try { fn(); result[name] = 'no error'; } catch (e) { result[name] = e.message; }
       };
       attempt('setDelivery', () => cp.setDelivery({ within: 1000 }));
       attempt('setPingDelivery', () => addon.setPingDelivery(1000, 4));
       attempt('setLone', () => addon.setLone(true));
       result.delivery = addon.eventDelivery();
       result.lone = addon.loneStats();
       result.loneOn = addon.setLone(false);
       return result;`,
    );
    assert.equal(got.code, 0, `the process ended cleanly (stderr: ${got.stderr})`);
    const r = got.result;
    assert.equal(r.first, 0, 'the child before the cap ran');
    assert.match(r.setDelivery, /^fastspawn: setDelivery: cannot start the coalescer thread: .*os error 11/);
    assert.match(r.setPingDelivery, /^fastspawn: setPingDelivery: cannot start the coalescer thread: .*os error 11/);
    assert.match(r.setLone, /^fastspawn: setLone: cannot start the lone path's threads: .*os error 11/);
    assert.deepEqual(r.delivery, [0, 64], 'the delivery setting did not change');
    assert.deepEqual(r.lone, [0, 0], 'no child took the lone path');
    assert.equal(r.loneOn, false, 'the lone path stayed off');
  });

  it("the first spawn with no thread free: Node's 'error' event (EAGAIN), no thread left, and the next spawn works once threads are free", async () => {
    const got = await runCapped(
      // Loaded (its waiter runs), nothing spawned: the pool has not started.
      'require(PACKAGE); return null;',
      `return (async () => {
       const cp = require(PACKAGE);
       const nodeCp = require('node:child_process');
       const fs = require('node:fs');
       const os = require('node:os');
       const tasks = () => fs.readdirSync('/proc/self/task').length;
       const line = fs.readFileSync('/proc/self/cgroup', 'utf8').split('\\n').find((l) => /:pids:/.test(l));
       const group = '/sys/fs/cgroup/pids' + line.split(':')[2];
       const failure = (mod) => new Promise((resolve) => {
         const child = mod.spawn('true');
         child.on('error', (e) => resolve({ code: e.code, errno: e.errno, syscall: e.syscall, path: e.path, pid: child.pid }));
         child.on('spawn', () => resolve({ spawned: true }));
       });
       const result = { before: tasks() };
       result.node = await failure(nodeCp);
       // Room for one spawner thread of several: the one started is joined.
       const threads = os.availableParallelism();
       fs.writeFileSync(group + '/pids.max', String(result.before + threads - 1));
       result.ours = await failure(cp);
       // A joined thread may still be listed for a moment while the kernel
       // ends it: a thread left behind stays listed.
       const deadline = Date.now() + 2000;
       result.after = tasks();
       while (result.after !== result.before && Date.now() < deadline) {
         await new Promise((resolve) => setTimeout(resolve, 10));
         result.after = tasks();
       }
       fs.writeFileSync(group + '/pids.max', 'max');
       result.next = await new Promise((resolve) => cp.spawn('true').on('close', (code) => resolve(code)));
       return result;
       })();`,
    );
    assert.equal(got.code, 0, `the process ended cleanly (stderr: ${got.stderr})`);
    const r = got.result;
    assert.equal(r.node.code, 'EAGAIN', "node:child_process's spawn failed as expected under the cap");
    assert.deepEqual(r.ours, r.node, "the package's 'error' is Node's");
    assert.equal(r.after, r.before, 'no spawner thread is left after the failed start');
    assert.equal(r.next, 0, 'the next spawn, with threads free, ran');
  });
});
