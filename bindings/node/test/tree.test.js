'use strict';
// Process trees: spawn(..., {contain: true}), child.killTree(),
// child.waitTree() (the core's Command::contain, Child::kill_tree and
// Child::wait_tree_empty through the addon). node:child_process has no
// such thing: its nearest, a process-group kill of a detached child, is
// run side by side to show what it leaves behind.

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const nodeCp = require('node:child_process');
const { once } = require('node:events');

const fastspawn = require('..');

const IPC_CHILD = path.join(__dirname, '..', 'testlib', 'ipc-child.js');

// Leaves three kinds of escapees, prints the pid of every process it
// started, then `ready`: a grandchild in a new session (setsid) with a
// child of its own, a double-forked orphan, a plain background process.
// With `exit` it exits after `ready`, else it waits for them.
function daemonizing(exit) {
  return `
setsid sh -c 'sleep 300 & echo $!; echo $$; exec sleep 300' </dev/null &
( sleep 300 </dev/null & echo $! ) &
sleep 300 </dev/null &
echo $!
sleep 0.2
echo ready
${exit ? 'exit 0' : 'wait'}
`;
}

// The pids the script printed before `ready` (its stdout stays open: the
// grandchildren hold it).
async function readPids(stream) {
  let text = '';
  for await (const chunk of stream) {
    text += chunk;
    if (text.includes('ready\n')) break;
  }
  return text
    .split('\n')
    .filter((l) => /^[0-9]+$/.test(l))
    .map(Number);
}

const inProc = (pid) => fs.existsSync(`/proc/${pid}`);

function sessionOf(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
}

// Killed grandchildren are re-parented to init, which reaps them.
async function gone(pids) {
  const deadline = Date.now() + 5000;
  while (pids.some(inProc) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  return pids.filter(inProc);
}

describe('process trees (contain: true)', () => {
  it('a daemonizing tree that outlives its root is killed and waited, nothing left in /proc', async () => {
    const child = fastspawn.spawn('sh', ['-c', daemonizing(true)], { contain: true, stdio: ['ignore', 'pipe', 'inherit'] });
    const pids = await readPids(child.stdout);
    assert.equal(pids.length, 4, `pids: ${pids}`);
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
    // The tree outlived its root, and part of it left the root's session.
    assert.deepEqual(pids.filter(inProc), pids);
    assert.ok(pids.some((pid) => sessionOf(pid) !== sessionOf(process.pid)));
    let ended = false;
    const waited = child.waitTree().then(() => {
      ended = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(ended, false, 'waitTree() resolved while the tree ran');
    assert.equal(child.killTree('SIGKILL'), true);
    await waited;
    assert.deepEqual(await gone(pids), []);
    // Once the tree is over, there is nothing to signal; waitTree() resolves at once.
    assert.equal(child.killTree('SIGKILL'), false);
    await child.waitTree();
  });

  it('killTree() while the root runs: SIGTERM reaches every member, the root reports it', async () => {
    const child = fastspawn.spawn('sh', ['-c', daemonizing(false)], { contain: true, stdio: ['ignore', 'pipe', 'inherit'] });
    const pids = await readPids(child.stdout);
    assert.equal(child.killTree(), true);
    const [[code, signal]] = await Promise.all([once(child, 'exit'), child.waitTree()]);
    assert.equal(code, null);
    assert.equal(signal, 'SIGTERM');
    assert.deepEqual(await gone([child.pid, ...pids]), []);
  });

  it('side by side: a process-group kill of a detached node:child_process child leaves the setsid escapees running', async () => {
    const child = nodeCp.spawn('sh', ['-c', daemonizing(false)], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    const pids = await readPids(child.stdout);
    process.kill(-child.pid, 'SIGKILL');
    await once(child, 'exit');
    await new Promise((r) => setTimeout(r, 100));
    const left = pids.filter(inProc);
    for (const pid of left) process.kill(pid, 'SIGKILL');
    assert.ok(left.length >= 2, `escaped: ${left}`);
    assert.deepEqual(await gone(pids), []);
  });

  it('a tree that ends with its root: waitTree() resolves after the exit, no thread needed', async () => {
    const child = fastspawn.spawn('true', [], { contain: true, stdio: 'ignore' });
    const order = [];
    child.on('exit', () => order.push('exit'));
    await child.waitTree();
    order.push('tree');
    assert.deepEqual(order, ['exit', 'tree']);
  });

  it('execFile() and fork() take contain too', async () => {
    const child = fastspawn.execFile('sh', ['-c', 'sleep 300 & wait'], { contain: true }, () => {});
    await once(child, 'spawn');
    assert.equal(child.killTree('SIGKILL'), true);
    await child.waitTree();
    const forked = fastspawn.fork(IPC_CHILD, [], { contain: true, silent: true });
    await once(forked, 'spawn');
    assert.equal(forked.killTree('SIGKILL'), true);
    await forked.waitTree();
    assert.equal(forked.signalCode, 'SIGKILL');
  });

  it('without contain: killTree() throws and waitTree() rejects, ERR_FASTSPAWN_NOT_CONTAINED', async () => {
    const child = fastspawn.spawn('true', [], { stdio: 'ignore' });
    assert.throws(() => child.killTree(), { code: 'ERR_FASTSPAWN_NOT_CONTAINED' });
    await assert.rejects(child.waitTree(), { code: 'ERR_FASTSPAWN_NOT_CONTAINED' });
    await once(child, 'exit');
  });

  it('contain is validated, and read as an own property only', async () => {
    assert.throws(() => fastspawn.spawn('true', [], { contain: 'yes' }), { code: 'ERR_INVALID_ARG_TYPE' });
    Object.prototype.contain = true;
    let child;
    try {
      child = fastspawn.spawn('true', [], { stdio: 'ignore' });
    } finally {
      delete Object.prototype.contain;
    }
    assert.throws(() => child.killTree(), { code: 'ERR_FASTSPAWN_NOT_CONTAINED' });
    await once(child, 'exit');
  });

  it('a failed contained spawn rejects waitTree() with its error', async () => {
    const child = fastspawn.spawn('/nonexistent/program', [], { contain: true, stdio: 'ignore' });
    child.on('error', () => {});
    await assert.rejects(child.waitTree(), { code: 'ENOENT' });
  });
});
