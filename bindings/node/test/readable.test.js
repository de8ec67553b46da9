'use strict';
// pipeAs: 'readable' (src/outputs.rs, ChildOutput in lib/child_process.js):
// a piped stdout/stderr read by the addon's waiter thread and handed to a
// plain Readable. Every behaviour is checked side by side with
// node:child_process (same call through both, compared), and after each
// test no fd, zombie or native output is left.

const { describe, it, afterEach } = require('node:test');
const assert = require('node:assert/strict');
const { once } = require('node:events');
const { Writable, Readable } = require('node:stream');
const { pipeline } = require('node:stream/promises');

const { both, fastspawn, nodeCp, openFds, outcome, quiesce, thrown, zombies } = require('../testlib/helpers');
const { addon } = require('../lib/native');

// Options for a call through both: fastspawn's with pipeAs: 'readable'.
const R = (name, options = {}) => (name === 'fastspawn' ? { ...options, pipeAs: 'readable' } : options);

// A Writable that keeps what it gets.
function sink() {
  const chunks = [];
  const w = new Writable({
    write(chunk, _encoding, cb) {
      chunks.push(chunk);
      cb();
    },
  });
  w.bytes = () => Buffer.concat(chunks);
  return w;
}

// Everything a child did, with its output as bytes (chunk boundaries
// dropped) and the order of the child's and the streams' events.
function record(child) {
  return new Promise((resolve) => {
    const events = [];
    const out = { stdout: [], stderr: [] };
    child.on('spawn', () => events.push('spawn'));
    child.on('error', (err) => events.push(`error ${err.code}`));
    child.on('exit', (code, signal) => events.push(`exit ${code} ${signal}`));
    for (const name of ['stdout', 'stderr']) {
      const stream = child[name];
      if (!stream) continue;
      stream.on('data', (chunk) => out[name].push(chunk));
      stream.on('end', () => events.push(`${name} end`));
      stream.on('close', () => events.push(`${name} close`));
    }
    child.on('close', (code, signal) => {
      events.push(`close ${code} ${signal}`);
      // Each stream is closed by the child's 'close'. (Its own 'close'
      // listeners may still run after it: the last stream's 'close' is
      // what emits the child's when the exit came first, in Node too.)
      const openAtClose = ['stdout', 'stderr'].filter((name) => child[name] && !child[name].closed);
      resolve({ events, openAtClose, stdout: Buffer.concat(out.stdout), stderr: Buffer.concat(out.stderr) });
    });
  });
}

// The events that must keep their order ('exit' against a stream's end is
// not ordered in Node either): the child's own, and each stream's.
function orders(events) {
  return {
    child: events.filter((e) => !e.startsWith('stdout') && !e.startsWith('stderr')),
    stdout: events.filter((e) => e.startsWith('stdout')),
    stderr: events.filter((e) => e.startsWith('stderr')),
  };
}

let fdsBefore = null;

describe("pipeAs: 'readable'", () => {
  afterEach(async () => {
    await quiesce();
    if (fdsBefore !== null) assert.deepEqual(openFds(), fdsBefore, 'no fd left');
    assert.deepEqual(zombies(), [], 'no zombie left');
    assert.equal(addon.openOutputs(), 0, 'no native output left');
    assert.equal(addon.liveChildren(), 0);
  });

  it('child.stdout is a Readable, not a net.Socket; the default stays a net.Socket', async () => {
    // The first spawns make the native side's own fds (threads, epoll).
    await outcome(fastspawn.spawn('true', [], { pipeAs: 'readable' }));
    await quiesce();
    fdsBefore = openFds();
    const child = fastspawn.spawn('echo', ['hi'], { pipeAs: 'readable' });
    assert.ok(child.stdout instanceof Readable);
    assert.equal(child.stdout instanceof require('node:net').Socket, false);
    assert.equal(child.stdin instanceof require('node:net').Socket, true, 'stdin stays a socket');
    const plain = fastspawn.spawn('echo', ['hi']);
    assert.ok(plain.stdout instanceof require('node:net').Socket);
    await Promise.all([outcome(child), outcome(plain)]);
  });

  it("'data' and the events, stdout and stderr, side by side", async () => {
    const script = 'echo out; echo err >&2; printf "%s" "no newline"; exit 3';
    const r = await both((impl, name) => record(impl.spawn('sh', ['-c', script], R(name))));
    assert.equal(r.fastspawn.stdout.toString(), 'out\nno newline');
    assert.equal(r.fastspawn.stderr.toString(), 'err\n');
    assert.deepEqual(r.fastspawn.stdout, r.node.stdout);
    assert.deepEqual(r.fastspawn.stderr, r.node.stderr);
    assert.deepEqual(orders(r.fastspawn.events), orders(r.node.events));
    assert.deepEqual(r.fastspawn.events.filter((e) => !e.startsWith('std')), ['spawn', 'exit 3 null', 'close 3 null']);
    assert.deepEqual(r.node.openAtClose, []);
    assert.deepEqual(r.fastspawn.openAtClose, []);
  });

  it('pipe() to a Writable: the same bytes', async () => {
    const r = await both(async (impl, name) => {
      const child = impl.spawn('seq', ['1', '20000'], R(name));
      const w = sink();
      await Promise.all([pipeline(child.stdout, w), once(child, 'close')]);
      return w.bytes();
    });
    assert.equal(r.fastspawn.length, r.node.length);
    assert.ok(r.fastspawn.equals(r.node));
  });

  it('a child writing far more than the buffer: backpressure, no loss, no deadlock (slow reader)', { timeout: 60000 }, async () => {
    // ~6.9 MB through a reader that pauses after every chunk: the native
    // side must stop at each budget and go on when asked.
    const r = await both(async (impl, name) => {
      const child = impl.spawn('seq', ['1', '1000000'], R(name));
      const chunks = [];
      let paused = 0;
      child.stdout.on('data', (chunk) => {
        chunks.push(chunk);
        child.stdout.pause();
        paused++;
        setImmediate(() => child.stdout.resume());
      });
      await once(child, 'close');
      return { bytes: Buffer.concat(chunks), paused };
    });
    assert.equal(r.fastspawn.bytes.length, r.node.bytes.length);
    assert.ok(r.fastspawn.bytes.equals(r.node.bytes));
    assert.ok(r.fastspawn.paused > 10);
  });

  it('the native side stops at the highWaterMark while nobody reads, and reads on when asked', { timeout: 30000 }, async () => {
    const child = fastspawn.spawn('seq', ['1', '1000000'], { pipeAs: 'readable' });
    const stdout = child.stdout;
    // Not read: the stream fills to its highWaterMark, the native side
    // stops watching the end (its budget spent), the child blocks.
    const hwm = addon.outputHighWaterMark();
    assert.equal(stdout.readableHighWaterMark, hwm);
    const deadline = Date.now() + 10000;
    let state = null;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const d = addon.outputsDebug();
      for (let k = 0; k < d.length; k += 4) if (d[k + 1] === 1) state = { id: d[k], budget: d[k + 2], watching: d[k + 3] };
      if (stdout.readableLength >= hwm && state.budget === 0) break;
    }
    assert.equal(state.id, child._id);
    assert.equal(state.budget, 0);
    assert.equal(state.watching, 0);
    assert.equal(stdout.readableLength, hwm);
    assert.equal(child.exitCode, null, 'the child is blocked on its full pipe');
    let bytes = 0;
    stdout.on('data', (chunk) => (bytes += chunk.length));
    await once(child, 'close');
    assert.equal(bytes, 6888896);
  });

  it('an output read while JS is busy comes as one chunk of all its bytes (reads of one output merged in the queue), the same bytes as Node\'s', async () => {
    const script = "head -c 200000 /dev/zero | tr '\\0' x; printf end";
    const r = await both(async (impl, name) => {
      const child = impl.spawn('sh', ['-c', script], R(name));
      const chunks = [];
      child.stdout.on('data', (chunk) => chunks.push(chunk.length));
      // The JS thread blocked while the child writes and exits: the
      // native side reads on (up to its budget of 256 KiB) and queues.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
      await once(child, 'close');
      return { bytes: chunks.reduce((a, b) => a + b, 0), chunks };
    });
    assert.equal(r.fastspawn.bytes, 200003);
    assert.equal(r.fastspawn.bytes, r.node.bytes);
    assert.deepEqual(r.fastspawn.chunks, [200003]);
    assert.ok(r.node.chunks.length > 1, 'Node reads 64 KiB per call');
  });

  it('setEncoding with multi-byte characters split across chunks', async () => {
    // "€" (e2 82 ac) and "😀" (f0 9f 98 80) each split across two writes
    // with a pause between, so they come in two reads.
    const script = "printf '\\342\\202'; sleep 0.05; printf '\\254 \\360\\237'; sleep 0.05; printf '\\230\\200!'";
    const r = await both(async (impl, name) => {
      const child = impl.spawn('sh', ['-c', script], R(name));
      child.stdout.setEncoding('utf8');
      const chunks = [];
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      await once(child, 'close');
      return { text: chunks.join(''), allStrings: chunks.every((c) => typeof c === 'string'), n: chunks.length };
    });
    assert.equal(r.fastspawn.text, '€ 😀!');
    assert.equal(r.fastspawn.text, r.node.text);
    assert.ok(r.fastspawn.allStrings);
    assert.ok(r.fastspawn.n >= 2, 'the characters did come split');
  });

  it('pause() at once and resume() after the exit: nothing lost, close after', async () => {
    const r = await both(async (impl, name) => {
      const child = impl.spawn('sh', ['-c', 'echo one; echo two'], R(name));
      const chunks = [];
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stdout.pause();
      const events = [];
      child.on('exit', () => {
        events.push('exit');
        setTimeout(() => child.stdout.resume(), 50);
      });
      await once(child, 'close');
      events.push('close');
      return { text: Buffer.concat(chunks).toString(), events };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn.text, 'one\ntwo\n');
  });

  it('async iteration', async () => {
    const r = await both(async (impl, name) => {
      const child = impl.spawn('seq', ['1', '50000'], R(name));
      const chunks = [];
      for await (const chunk of child.stdout) chunks.push(chunk);
      const [code] = child.exitCode === null ? await once(child, 'exit') : [child.exitCode];
      return { bytes: Buffer.concat(chunks), code };
    });
    assert.ok(r.fastspawn.bytes.equals(r.node.bytes));
    assert.equal(r.fastspawn.code, 0);
  });

  it('destroy() before the exit: the child gets EPIPE/SIGPIPE as with Node; close comes', async () => {
    const r = await both(async (impl, name) => {
      const child = impl.spawn('sh', ['-c', 'sleep 0.2; exec yes'], R(name));
      child.stdout.destroy();
      const r = await record(child);
      return { events: r.events.filter((e) => !e.startsWith('std')), destroyed: child.stdout.destroyed };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn.events, ['spawn', 'exit null SIGPIPE', 'close null SIGPIPE']);
  });

  it('destroy() right after spawn(), before the spawn is reported', async () => {
    const child = fastspawn.spawn('echo', ['hi'], { pipeAs: 'readable' });
    child.stdout.destroy();
    child.stderr.destroy();
    const r = await record(child);
    // echo wrote before the close (0) or after it (SIGPIPE), as with Node.
    const events = r.events.filter((e) => !e.startsWith('std'));
    const end = events[1].slice('exit '.length);
    assert.ok(['0 null', 'null SIGPIPE'].includes(end), end);
    assert.deepEqual(events, ['spawn', `exit ${end}`, `close ${end}`]);
  });

  it("destroy() after the exit, in the 'exit' listener", async () => {
    const r = await both(async (impl, name) => {
      const child = impl.spawn('echo', ['hi'], R(name));
      const events = [];
      child.on('exit', () => {
        events.push('exit');
        child.stdout.destroy();
        child.stdout.on('close', () => events.push('stdout close'));
      });
      child.on('close', () => events.push('close'));
      await once(child, 'close');
      await new Promise((resolve) => setImmediate(resolve));
      // ('stdout close' may come before or after the child's 'close': its
      // listener is added after the child's own.)
      return { events: events.sort(), destroyed: child.stdout.destroyed };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn, { events: ['close', 'exit', 'stdout close'], destroyed: true });
  });

  it("stdout first asked for in the 'exit' listener still has the output", async () => {
    const r = await both(async (impl, name) => {
      const child = impl.spawn('sh', ['-c', 'echo late; echo e >&2'], R(name));
      const [, text] = await Promise.all([
        once(child, 'close'),
        new Promise((resolve) => {
          child.on('exit', () => {
            const chunks = [];
            child.stdout.on('data', (c) => chunks.push(c));
            child.stdout.on('end', () => resolve(Buffer.concat(chunks).toString()));
          });
        }),
      ]);
      return text;
    });
    assert.equal(r.fastspawn, 'late\n');
    assert.equal(r.fastspawn, r.node);
  });

  it('outputs nobody reads: close still comes (discarded after the exit)', async () => {
    const r = await both(async (impl, name) => {
      const child = impl.spawn('sh', ['-c', 'seq 1 5000; seq 1 5000 >&2'], R(name));
      const events = [];
      child.on('exit', (code) => events.push(`exit ${code}`));
      await once(child, 'close');
      events.push('close');
      return events;
    });
    assert.deepEqual(r.fastspawn, r.node);
  });

  it("a grandchild holding the end: 'exit' first, 'close' once the end comes", async () => {
    const script = 'echo parent; (sleep 0.3; echo grandchild) & exit 0';
    const r = await both(async (impl, name) => {
      const child = impl.spawn('sh', ['-c', script], R(name));
      const r = await record(child);
      return { ...orders(r.events), openAtClose: r.openAtClose, stdout: r.stdout.toString() };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn.openAtClose, []);
    assert.equal(r.fastspawn.stdout, 'parent\ngrandchild\n');
    assert.deepEqual(r.fastspawn.child, ['spawn', 'exit 0 null', 'close 0 null']);
  });

  it('a grandchild holding an unread end keeps the loop alive until it ends', async () => {
    const script = 'echo parent; (sleep 0.3; echo grandchild) & exit 0';
    const started = Date.now();
    const child = fastspawn.spawn('sh', ['-c', script], { pipeAs: 'readable', stdio: ['ignore', 'pipe', 'ignore'] });
    const [[code]] = await Promise.all([once(child, 'exit')]);
    assert.equal(code, 0);
    await once(child, 'close');
    assert.ok(Date.now() - started >= 250, "'close' waited for the grandchild's end");
  });

  it('exec and execFile with maxBuffer, stdout and stderr', async () => {
    const run = (impl, name, fn, ...args) =>
      new Promise((resolve) => {
        impl[fn](...args, R(name, { maxBuffer: 1000 }), (err, stdout, stderr) =>
          resolve({ code: err && err.code, message: err && err.message, stdout, stderr }),
        );
      });
    for (const [fn, ...args] of [
      ['execFile', 'seq', ['1', '100000']],
      ['exec', 'seq 1 100000 >&2'],
      ['exec', 'echo small; echo also >&2'],
    ]) {
      const r = await both((impl, name) => run(impl, name, fn, ...args));
      assert.deepEqual(r.fastspawn, r.node, `${fn} ${args}`);
    }
    const r = await both((impl, name) =>
      new Promise((resolve) =>
        impl.execFile('head', ['-c', '300000', '/dev/zero'], R(name, { encoding: 'buffer', maxBuffer: 1e6 }), (err, stdout) =>
          resolve({ err, length: stdout.length, zeros: stdout.every((b) => b === 0) }),
        ),
      ),
    );
    assert.deepEqual(r.fastspawn, { err: null, length: 300000, zeros: true });
  });

  it('a failed spawn (ENOENT): the same events', async () => {
    const r = await both(async (impl, name) => {
      const child = impl.spawn('/nonexistent/program', [], R(name));
      const r = await record(child);
      // (Node's stdout may close after the child's 'close'.)
      const { child: events, stdout, stderr } = orders(r.events);
      return { events, stdout, stderr };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn.stdout, ['stdout end', 'stdout close']);
  });

  it('stdio arrays, other fds and ipc keep working (only fds 1 and 2 become readables)', async () => {
    const child = fastspawn.spawn('sh', ['-c', 'echo one; echo three >&3'], { pipeAs: 'readable', stdio: ['ignore', 'pipe', 'inherit', 'pipe'] });
    assert.ok(child.stdout instanceof Readable && !(child.stdout instanceof require('node:net').Socket));
    assert.equal(child.stderr, null);
    assert.ok(child.stdio[3] instanceof require('node:net').Socket);
    assert.equal(child.stdio[1], child.stdout);
    const out = [];
    const three = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stdio[3].on('data', (c) => three.push(c));
    await once(child, 'close');
    assert.equal(Buffer.concat(out).toString(), 'one\n');
    assert.equal(Buffer.concat(three).toString(), 'three\n');
  });

  it('300 children at once, outputs read: every byte, no leak', { timeout: 60000 }, async () => {
    const runs = [];
    for (let i = 0; i < 300; i++) runs.push(record(fastspawn.spawn('echo', [`child ${i}`], { pipeAs: 'readable' })));
    const results = await Promise.all(runs);
    results.forEach((r, i) => {
      assert.equal(r.stdout.toString(), `child ${i}\n`);
      assert.deepEqual(orders(r.events).child, ['spawn', 'exit 0 null', 'close 0 null']);
    });
  });

  it('pipeAs is validated as Node validates options, and read from own properties only', () => {
    for (const bad of ['Readable', 'pipe', 42, null, true, {}]) {
      const err = thrown(() => fastspawn.spawn('true', [], { pipeAs: bad }));
      assert.equal(err && err.code, 'ERR_INVALID_ARG_VALUE', String(bad));
      assert.match(err.message, /options\.pipeAs/);
    }
    assert.equal(thrown(() => fastspawn.execFile('true', [], { pipeAs: 'nope' })).code, 'ERR_INVALID_ARG_VALUE');
    // Inherited from a polluted prototype: ignored.
    Object.prototype.pipeAs = 'readable';
    let child;
    try {
      child = fastspawn.spawn('true');
    } finally {
      delete Object.prototype.pipeAs;
    }
    assert.ok(child.stdout instanceof require('node:net').Socket);
    return outcome(child);
  });
});

describe("pipeAs: 'readable' differences (README, \"Differences\")", () => {
  afterEach(async () => {
    await quiesce();
    assert.equal(addon.openOutputs(), 0);
  });

  it('no _handle, no fd, no socket methods (ref/unref, setNoDelay, bytesRead, address)', async () => {
    const child = fastspawn.spawn('echo', ['hi'], { pipeAs: 'readable' });
    const node = nodeCp.spawn('echo', ['hi']);
    for (const name of ['ref', 'unref', 'setNoDelay', 'address']) {
      assert.equal(typeof node.stdout[name], 'function');
      assert.equal(typeof child.stdout[name], 'undefined', name);
    }
    assert.equal(typeof node.stdout._handle.fd, 'number');
    assert.equal(child.stdout._handle, undefined);
    assert.equal(child.stdout.fd, undefined);
    assert.equal(typeof node.stdout.bytesRead, 'number');
    assert.equal(child.stdout.bytesRead, undefined);
    await Promise.all([outcome(child), outcome(node)]);
  });

  it("the child's piped stdout and stderr are pipes, not sockets (its stdin stays a socket, as Node's)", async () => {
    // What each of the shell's fds 0-2 is, as /proc names it (pipe:[...],
    // socket:[...]), without the inode.
    const script = 'for f in 0 1 2; do readlink /proc/$$/fd/$f | cut -d: -f1; done';
    const kinds = async (name, impl) => {
      const child = impl.spawn('sh', ['-c', script], R(name));
      const result = await record(child);
      assert.ok(result.events.includes('close 0 null'), result.events.join());
      return result.stdout.toString();
    };
    assert.equal(await kinds('node', nodeCp), 'socket\nsocket\nsocket\n');
    assert.equal(await kinds('fastspawn', fastspawn), 'socket\npipe\npipe\n');
  });

  it("as another spawn's stdio entry: ERR_INVALID_ARG_VALUE (it has no fd)", async () => {
    const child = fastspawn.spawn('echo', ['hi'], { pipeAs: 'readable' });
    const err = thrown(() => fastspawn.spawn('cat', [], { stdio: [child.stdout, 'pipe', 'pipe'] }));
    assert.equal(err.code, 'ERR_INVALID_ARG_VALUE');
    await outcome(child);
  });
});
