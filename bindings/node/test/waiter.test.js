'use strict';
// The waiter thread's epoll set (src/waiter.rs, src/registry.rs): a
// reaped child's pidfd must leave it. A close() alone removes an fd from
// an epoll set only when the file's last reference goes; while another
// process holds it (in a server, the vfork child of a concurrent spawn
// until its execve) the exited pidfd stayed in the set, readable, and
// woke the waiter again and again. Here the other holder is made on
// purpose: a copy of the pidfd in flight (SCM_RIGHTS) in the unread stdin
// of another child. Read through /proc/self/fdinfo, no timing.

const { describe, it, afterEach } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { once } = require('node:events');

const { fastspawn, quiesce, zombies } = require('../testlib/helpers');
const { addon } = require('../lib/native');

// This process's fds whose /proc link matches `pattern`, with their fdinfo.
function fdsLike(pattern) {
  const found = [];
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    let link;
    let info;
    try {
      link = fs.readlinkSync(`/proc/self/fd/${fd}`);
      info = fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
    } catch {
      continue; // closed meanwhile (readdir's own fd)
    }
    if (pattern.test(link)) found.push({ fd: Number(fd), info });
  }
  return found;
}

// The entries of every epoll set of this process watching fd `tfd` with
// the token `data` (the waiter's token of a pidfd is the child's id).
function epollEntries(tfd, data) {
  const entries = [];
  for (const { info } of fdsLike(/eventpoll/)) {
    for (const m of info.matchAll(/tfd:\s*(\d+)\s+events:\s*\S+\s+data:\s*([0-9a-f]+)/g)) {
      if (Number(m[1]) === tfd && BigInt(`0x${m[2]}`) === BigInt(data)) entries.push(m[0]);
    }
  }
  return entries;
}

describe('the waiter', () => {
  afterEach(() => assert.deepEqual(zombies(), []));

  it("takes a reaped child's pidfd out of its epoll set, even while another process holds the file", async (t) => {
    const holder = fastspawn.spawn('sleep', ['30'], { stdio: ['pipe', 'ignore', 'ignore'] });
    await once(holder, 'spawn');
    try {
      // Longer than the spawner thread's linger: reaped by the waiter.
      const target = fastspawn.spawn('sleep', ['0.2'], { stdio: 'ignore' });
      await once(target, 'spawn');
      const pidfds = fdsLike(/pidfd/).filter(({ info }) => new RegExp(`^Pid:\\s*${target.pid}$`, 'm').test(info));
      if (pidfds.length === 0) {
        // A kernel without pidfds: the child is polled, no epoll entry.
        t.skip('no pidfd for the child (a kernel before 5.3: children are polled, not in an epoll set)');
        return;
      }
      assert.equal(pidfds.length, 1);
      const pidfd = pidfds[0].fd;
      // The spawner thread posts 'spawn' before it hands the pidfd to the
      // waiter (src/registry.rs settle): wait for that hand-over.
      const deadline = Date.now() + 10000;
      while (epollEntries(pidfd, target._id).length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      assert.equal(epollEntries(pidfd, target._id).length, 1, 'the pidfd is watched by the waiter');
      // The other holder: the pidfd in flight in the holder's unread stdin.
      assert.ok(addon.sendWithFd(holder.stdin._handle.fd, Buffer.from('x'), pidfd) > 0);
      const [code, signal] = await once(target, 'close');
      assert.deepEqual([code, signal], [0, null]);
      // The exit is posted before the waiter takes the pidfd out (JS may
      // see it first, src/registry.rs reap): wait for that after-work.
      await quiesce();
      assert.deepEqual(epollEntries(pidfd, target._id), [], 'no entry left for the reaped child');
    } finally {
      holder.kill('SIGKILL');
      await once(holder, 'close');
    }
  });
});
