'use strict';
// spawn() and ChildProcess (lib/child_process.js), side by side with
// node:child_process: every test runs the same call with both and compares
// what they did.

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');

const { once } = require('node:events');

const { both, fastspawn, nodeCp, outcome, thrown } = require('../testlib/helpers');

const SH = '/bin/sh';

describe('spawn, side by side with node:child_process', () => {
  it('echo: output, events in order, exit code', async () => {
    const r = await both((cp) => outcome(cp.spawn('echo', ['hi', 'there'])));
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn.stdout, 'hi there\n');
    assert.deepEqual(r.fastspawn.events, ['spawn', 'exit 0 null', 'close 0 null']);
  });

  it('piped ends are net.Sockets over a Pipe handle, as Node makes them', async () => {
    const net = require('node:net');
    const r = await both(async (cp) => {
      const shapes = [];
      for (let i = 0; i < 2; i++) {
        const child = cp.spawn('cat');
        for (const stream of [child.stdin, child.stdout, child.stderr]) {
          shapes.push([stream instanceof net.Socket, stream._handle.constructor.name, stream.readable, stream.writable]);
        }
        child.stdin.end('x');
        let text = '';
        child.stdout.on('data', (d) => (text += d));
        await once(child, 'close');
        shapes.push(text);
      }
      return shapes;
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn[0], [true, 'Pipe', false, true]);
  });

  it("stdout first read in a nextTick of an 'exit' listener still gets the output; 'close' comes after that tick", async () => {
    // The output of a child whose stdout nobody had read is flushed after
    // its exit: never before the ticks its 'exit' listeners queue.
    const r = await both(async (cp) => {
      const results = [];
      for (let i = 0; i < 5; i++) {
        const child = cp.spawn(SH, ['-c', 'echo hello; echo there >&2']);
        const order = [];
        let out = '';
        let err = '';
        child.on('exit', () => {
          order.push('exit');
          process.nextTick(() => {
            order.push('tick');
            child.stdout.on('data', (d) => (out += d));
            child.stderr.on('data', (d) => (err += d));
          });
        });
        await new Promise((resolve) => child.on('close', resolve));
        order.push('close');
        results.push({ out, err, order: order.join(',') });
      }
      return results;
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn[0], { out: 'hello\n', err: 'there\n', order: 'exit,tick,close' });
  });

  it("a read stdout's own events and state after its end of stream; an early end() still shuts the child's side down", async () => {
    const r = await both(async (cp) => {
      const seen = [];
      for (const args of [['-c', 'echo a'], ['-c', 'echo a; sleep 0.05; echo b >&2; echo c']]) {
        const child = cp.spawn(SH, args);
        const events = [];
        for (const name of ['data', 'end', 'prefinish', 'finish', 'close']) child.stdout.on(name, () => events.push(name));
        await once(child, 'close');
        await new Promise((resolve) => setImmediate(resolve));
        const s = child.stdout;
        seen.push([[...new Set(events)], s.writable, s.writableEnded, s.writableFinished, s.destroyed, s.readableEnded]);
      }
      // The child reads its own stdout (a socket): the parent's end() before
      // the child's end of stream reaches it as an end of file.
      const child = cp.spawn(SH, ['-c', 'cat <&1 >/dev/null; echo read-eof >&2']);
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.stdout.end();
      await once(child, 'close');
      seen.push(err);
      return seen;
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn[0], [['data', 'end', 'prefinish', 'finish', 'close'], false, true, true, true, true]);
    assert.equal(r.fastspawn[2], 'read-eof\n');
  });

  it('exit codes and stderr', async () => {
    const r = await both((cp) => outcome(cp.spawn(SH, ['-c', 'echo out; echo err >&2; exit 7'])));
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn.exitCode, 7);
    assert.equal(r.fastspawn.stderr, 'err\n');
  });

  it("'spawn' comes before any data, for children that write at once", async () => {
    for (let round = 0; round < 5; round++) {
      const runs = [];
      for (let i = 0; i < 20; i++) runs.push(outcome(fastspawn.spawn('echo', [String(i)])));
      for (const r of await Promise.all(runs)) {
        assert.equal(r.dataBeforeSpawn, false);
        assert.equal(r.events[0], 'spawn');
      }
    }
  });

  it('stdin round trip', async () => {
    const input = 'line 1\nline 2\n'.repeat(1000);
    const r = await both((cp) => outcome(cp.spawn('cat'), { input }));
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn.stdout, input);
  });

  it('large output (8 MiB) arrives whole', async () => {
    const r = await both(
      (cp) =>
        new Promise((resolve) => {
          const child = cp.spawn('head', ['-c', String(8 << 20), '/dev/urandom']);
          const hash = crypto.createHash('sha256');
          let length = 0;
          child.stdout.on('data', (chunk) => {
            length += chunk.length;
            hash.update(chunk);
          });
          child.on('close', (code) => resolve({ code, length, digest: hash.digest('hex').length }));
        }),
    );
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn.length, 8 << 20);
  });

  it('a large input and output through cat match byte for byte', async () => {
    const input = crypto.randomBytes(5 << 20);
    const digest = await new Promise((resolve) => {
      const child = fastspawn.spawn('cat');
      const hash = crypto.createHash('sha256');
      child.stdout.on('data', (chunk) => hash.update(chunk));
      child.on('close', () => resolve(hash.digest('hex')));
      child.stdin.end(input);
    });
    assert.equal(digest, crypto.createHash('sha256').update(input).digest('hex'));
  });

  it('stdin left untouched stays open until exit, then reads as a destroyed stream', async () => {
    const r = await both(async (cp) => {
      // cat waits on its stdin: it must not see an end before the kill.
      const child = cp.spawn('cat');
      await new Promise((resolve) => child.on('spawn', resolve));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const running = child.exitCode === null && child.signalCode === null;
      child.kill();
      const closed = await outcome(child);
      return { running, closed, destroyed: child.stdin.destroyed, same: child.stdio[0] === child.stdin };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn.closed.events, ['exit null SIGTERM', 'close null SIGTERM']);
    assert.equal(r.fastspawn.running, true);
  });

  it("stdout untouched: 'close' still waits for a grandchild that holds it", async () => {
    const r = await both(async (cp) => {
      const t0 = Date.now();
      const child = cp.spawn(SH, ['-c', '(sleep 0.4; echo late) & echo now']);
      const events = [];
      child.on('exit', (code) => events.push(`exit ${code}`));
      await new Promise((resolve) => child.on('close', resolve));
      events.push('close');
      return { events, waited: Date.now() - t0 >= 350 };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn, { events: ['exit 0', 'close'], waited: true });
  });

  it("stdout first used in the 'exit' listener still gets the output", async () => {
    const r = await both(
      (cp) =>
        new Promise((resolve) => {
          const child = cp.spawn(SH, ['-c', 'echo out; echo err >&2']);
          let out = '';
          let err = '';
          child.on('exit', () => {
            child.stdout.on('data', (d) => (out += d));
            child.stderr.on('data', (d) => (err += d));
          });
          child.on('close', (code) => resolve({ code, out, err, same: child.stdio[1] === child.stdout }));
        }),
    );
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn, { code: 0, out: 'out\n', err: 'err\n', same: true });
  });

  it('a child that writes nothing: its ends of stream wait for the spawn report', async () => {
    for (let i = 0; i < 50; i++) {
      const r = await outcome(fastspawn.spawn('true'));
      assert.deepEqual(r.events, ['spawn', 'exit 0 null', 'close 0 null']);
    }
  });

  it('kill(): return values, killed, signalCode', async () => {
    const r = await both(async (cp) => {
      const child = cp.spawn('sleep', ['30']);
      await new Promise((resolve) => child.on('spawn', resolve));
      const first = child.kill();
      const closed = await outcome(child);
      return { first, killed: child.killed, after: child.kill(), closed };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn.first, true);
    assert.equal(r.fastspawn.after, false);
    assert.equal(r.fastspawn.closed.signalCode, 'SIGTERM');
  });

  it('kill() with names, numbers and 0', async () => {
    const r = await both(async (cp) => {
      const child = cp.spawn('sleep', ['30']);
      const alive = child.kill(0);
      const hup = child.kill('sighup');
      const closed = await outcome(child);
      return { alive, hup, signal: closed.signalCode };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn, { alive: true, hup: true, signal: 'SIGHUP' });
    const r9 = await both(async (cp) => {
      const child = cp.spawn('sleep', ['30']);
      child.kill(9);
      return (await outcome(child)).signalCode;
    });
    assert.equal(r9.fastspawn, 'SIGKILL');
    assert.equal(r9.node, 'SIGKILL');
  });

  it('kill() right after spawn(), before the spawn is reported', async () => {
    const r = await both(async (cp) => {
      const child = cp.spawn('sleep', ['30']);
      const sent = child.kill('SIGKILL');
      return { sent, ...(await outcome(child)) };
    });
    assert.deepEqual(r.fastspawn, r.node);
  });

  it('pid is a number at once, and the same one the child sees', async () => {
    const child = fastspawn.spawn(SH, ['-c', 'echo $$']);
    const pid = child.pid;
    assert.ok(Number.isInteger(pid) && pid > 0);
    const r = await outcome(child);
    assert.equal(r.stdout, `${pid}\n`);
    assert.deepEqual(r.events, ['spawn', 'exit 0 null', 'close 0 null']);
  });

  it("a listener added after reading pid still gets 'spawn'", async () => {
    const child = fastspawn.spawn('true');
    assert.ok(child.pid > 0);
    const r = await outcome(child);
    assert.deepEqual(r.events, ['spawn', 'exit 0 null', 'close 0 null']);
  });

  it('stdio: ignore, inherit (to a file fd), fd numbers, null padding', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fastspawn-'));
    try {
      const r = await both(async (cp, name) => {
        const file = path.join(dir, name);
        const fd = fs.openSync(file, 'w');
        const child = cp.spawn(SH, ['-c', 'echo to-fd; echo err-to-fd >&2'], { stdio: ['ignore', fd, fd] });
        fs.closeSync(fd);
        const shape = child.stdio.map((s) => s === null);
        const closed = await outcome(child);
        return { shape, closed, written: fs.readFileSync(file, 'utf8'), stdin: child.stdin, stdout: child.stdout };
      });
      assert.deepEqual(r.fastspawn, r.node);
      assert.equal(r.fastspawn.written, 'to-fd\nerr-to-fd\n');

      const padded = await both(async (cp) => {
        const child = cp.spawn('true', [], { stdio: ['ignore'] });
        const shape = child.stdio.map((s) => s === null);
        await outcome(child);
        return shape;
      });
      assert.deepEqual(padded.fastspawn, padded.node);
      assert.deepEqual(padded.fastspawn, [true, false, false]);
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  });

  it("stdio 'inherit': the child writes to the parent's own stdout", async () => {
    // A child node process whose stdout is a pipe read here: its own child
    // (started by the package with 'inherit') writes into that pipe.
    const script = `
      const cp = require(${JSON.stringify(path.join(__dirname, '..', 'index.js'))});
      cp.spawn('echo', ['through inherit'], { stdio: 'inherit' }).on('close', (code) => console.log('code', code));
    `;
    const out = nodeCp.execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    assert.equal(out, 'through inherit\ncode 0\n');
  });

  it('extra fds: a pipe at fd 3 (duplex), a file at fd 4, ignore at 5', async () => {
    const r = await both(async (cp) => {
      const fd = fs.openSync(__filename, 'r');
      const child = cp.spawn(
        SH,
        ['-c', 'echo three >&3; read line <&3; echo "got $line"; head -c 11 <&4; [ -e /proc/self/fd/5 ] || echo " no5"'],
        { stdio: ['pipe', 'pipe', 'pipe', 'pipe', fd, 'ignore'] },
      );
      fs.closeSync(fd);
      const shape = child.stdio.map((s) => s === null);
      let three = '';
      child.stdio[3].on('data', (d) => {
        three += d;
        child.stdio[3].end('back\n');
      });
      const closed = await outcome(child);
      return { shape, three, closed };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn.three, 'three\n');
    assert.equal(r.fastspawn.closed.stdout, "got back\n'use strict no5\n");
  });

  it('the child sees sockets on its piped stdio, as with Node', async () => {
    const r = await both(async (cp) => {
      const { stdout } = await outcome(cp.spawn(SH, ['-c', 'readlink /proc/$$/fd/0 /proc/$$/fd/1 /proc/$$/fd/2']));
      return stdout.replace(/\[\d+\]/g, '');
    });
    assert.equal(r.fastspawn, r.node);
    assert.equal(r.fastspawn, 'socket:\nsocket:\nsocket:\n');
  });

  it("a pipeline: one child's stdout as the next one's stdin (each implementation's own sockets)", async () => {
    for (const producer of [nodeCp, fastspawn]) {
      const r = await both(async (cp) => {
        const first = producer.spawn('printf', ['x1\\ny\\nx2\\n']);
        const grep = cp.spawn('grep', ['x'], { stdio: [first.stdout, 'pipe', 'pipe'] });
        const closed = await outcome(grep);
        return { closed, firstStdoutFlowing: first.stdout.readableFlowing };
      });
      assert.deepEqual(r.fastspawn, r.node);
      assert.equal(r.fastspawn.closed.stdout, 'x1\nx2\n');
    }
  });

  it("a net.Socket connection as a child's stdout", async () => {
    const net = require('node:net');
    const r = await both(async (cp) => {
      const server = net.createServer();
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      const accepted = new Promise((resolve) => server.once('connection', resolve));
      const client = net.connect(server.address().port, '127.0.0.1');
      await once(client, 'connect');
      const peer = await accepted;
      let received = '';
      peer.on('data', (d) => (received += d));
      const child = cp.spawn('echo', ['over tcp'], { stdio: ['ignore', client, 'pipe'] });
      const closed = await outcome(child);
      client.end();
      await once(peer, 'end');
      server.close();
      return { closed, received, stdout: child.stdout };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn.received, 'over tcp\n');
  });

  it("a child's stdin reused as the next child's stdout", async () => {
    const r = await both(async (cp) => {
      const sink = cp.spawn('cat');
      // The sink's 'spawn' is awaited before anything listens, so that
      // neither implementation reports it: Node emits it on the next tick,
      // the package when the pool thread's report arrives, which on a
      // loaded machine can come after the writer below has closed.
      await new Promise((resolve) => sink.once('spawn', resolve));
      const writer = cp.spawn('echo', ['through cat'], { stdio: ['ignore', sink.stdin, 'inherit'] });
      const wrote = await outcome(writer);
      sink.stdin.end();
      // Where its data falls against 'exit' is not defined (and differs).
      const { dataBeforeSpawn, ...rest } = await outcome(sink);
      void dataBeforeSpawn;
      return { wrote, sink: rest };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn.sink.stdout, 'through cat\n');
  });

  it('a stream without a handle or fd is refused as with Node', () => {
    const { PassThrough } = require('node:stream');
    const call = (cp) => cp.spawn('true', [], { stdio: ['pipe', new PassThrough(), 'pipe'] });
    const node = thrown(() => call(nodeCp));
    assert.equal(node.code, 'ERR_INVALID_ARG_VALUE');
    assert.deepEqual(thrown(() => call(fastspawn)), node);
  });

  it('cwd (string, URL)', async () => {
    for (const cwd of ['/tmp', new URL('file:///usr')]) {
      const r = await both((cp) => outcome(cp.spawn('pwd', [], { cwd })));
      assert.deepEqual(r.fastspawn, r.node);
      assert.equal(r.fastspawn.stdout, `${cwd instanceof URL ? cwd.pathname : cwd}\n`);
    }
  });

  it('a Buffer cwd is honoured (Node validates it, then ignores it)', async () => {
    const r = await outcome(fastspawn.spawn('pwd', [], { cwd: Buffer.from('/etc') }));
    assert.equal(r.stdout, '/etc\n');
  });

  it('env: explicit, default, inherited keys, and changes to process.env', async () => {
    const cmd = ['-c', 'echo "$A|$B|${FASTSPAWN_T-unset}"; env | grep -c . >/dev/null'];
    const explicit = await both((cp) => outcome(cp.spawn(SH, cmd, { env: Object.assign(Object.create({ B: 'proto' }), { A: 'own', N: 1 }) })));
    assert.deepEqual(explicit.fastspawn, explicit.node);
    assert.equal(explicit.fastspawn.stdout, 'own|proto|unset\n');

    process.env.FASTSPAWN_T = 'set here';
    try {
      const inherited = await both((cp) => outcome(cp.spawn(SH, cmd)));
      assert.deepEqual(inherited.fastspawn, inherited.node);
      assert.equal(inherited.fastspawn.stdout, '||set here\n');
      process.env.FASTSPAWN_T = 'changed';
      const changed = await both((cp) => outcome(cp.spawn(SH, cmd)));
      assert.equal(changed.fastspawn.stdout, '||changed\n');
      assert.deepEqual(changed.fastspawn, changed.node);
    } finally {
      delete process.env.FASTSPAWN_T;
    }
    const removed = await both((cp) => outcome(cp.spawn(SH, cmd)));
    assert.equal(removed.fastspawn.stdout, '||unset\n');
    assert.deepEqual(removed.fastspawn, removed.node);

    const full = await both((cp) => outcome(cp.spawn('env', [], { env: { X: '1', Y: 'two words' } })));
    assert.deepEqual(full.fastspawn, full.node);
  });

  it('env: the inherited environment is the one at the call, also when process.env changes right after it or is replaced', async () => {
    const cmd = ['-c', 'echo "${FASTSPAWN_T-unset}|${FASTSPAWN_U-unset}"; env | grep -c .'];
    const r = await both(async (cp) => {
      // Changes made synchronously between spawns: each child has the
      // environment of its own call, not of the next change.
      process.env.FASTSPAWN_T = 'a';
      const a = outcome(cp.spawn(SH, cmd));
      process.env.FASTSPAWN_T = 'b';
      process.env.FASTSPAWN_U = 'u';
      const b = outcome(cp.spawn(SH, cmd, { stdio: 'pipe' }));
      delete process.env.FASTSPAWN_T;
      const c = outcome(cp.spawn(SH, cmd));
      delete process.env.FASTSPAWN_U;
      const d = outcome(cp.spawn(SH, cmd));
      // A replaced process.env is what the children get, undefined values
      // dropped; then Node's own again.
      const saved = process.env;
      let e;
      try {
        process.env = { PATH: saved.PATH, FASTSPAWN_T: 'replaced', FASTSPAWN_U: undefined };
        e = outcome(cp.spawn(SH, cmd));
      } finally {
        process.env = saved;
      }
      const f = outcome(cp.spawn(SH, cmd));
      return Promise.all([a, b, c, d, e, f]);
    });
    assert.deepEqual(r.fastspawn, r.node);
    const n = Object.keys(process.env).length;
    assert.deepEqual(r.fastspawn.map((o) => o.stdout), [
      `a|unset\n${n + 1}\n`, `b|u\n${n + 2}\n`, `unset|u\n${n + 1}\n`, `unset|unset\n${n}\n`, 'replaced|unset\n3\n' /* PATH, FASTSPAWN_T and sh's PWD */, `unset|unset\n${n}\n`,
    ]);
  });

  it('a bare name is found in the default PATH when env has none', async () => {
    const r = await both((cp) => outcome(cp.spawn('echo', ['found'], { env: { A: '1' } })));
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn.stdout, 'found\n');
  });

  it('argv0, spawnfile and spawnargs', async () => {
    const r = await both(async (cp) => {
      const child = cp.spawn(SH, ['-c', 'echo $0'], { argv0: 'custom-name' });
      return { file: child.spawnfile, args: child.spawnargs, closed: await outcome(child) };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn.closed.stdout, 'custom-name\n');
  });

  it('shell: true and a shell path', async () => {
    for (const shell of [true, '/bin/bash']) {
      const r = await both(async (cp) => {
        const child = cp.spawn('echo $((1 + 2)) "$0"', { shell });
        return { file: child.spawnfile, args: child.spawnargs, closed: await outcome(child) };
      });
      assert.deepEqual(r.fastspawn, r.node);
    }
  });

  it('detached: the child leads a new session', async () => {
    const r = await both(async (cp) => {
      const child = cp.spawn(SH, ['-c', 'cut -d" " -f6 /proc/$$/stat; echo $$'], { detached: true });
      const closed = await outcome(child);
      const [sid, pid] = closed.stdout.trim().split('\n');
      return { leader: sid === pid, events: closed.events };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn.leader, true);
  });

  it('uid and gid (nobody, 65534), groups dropped', { skip: process.getuid() !== 0 && 'needs root' }, async () => {
    for (const opts of [{ uid: 65534, gid: 65534 }, { uid: 65534 }, { gid: 65534 }]) {
      const r = await both((cp) =>
        outcome(cp.spawn(SH, ['-c', 'id -u; id -g; grep ^Groups: /proc/self/status'], { ...opts, cwd: '/' })),
      );
      assert.deepEqual(r.fastspawn, r.node);
    }
  });

  it('timeout and killSignal', async () => {
    const r = await both((cp) => outcome(cp.spawn('sleep', ['30'], { timeout: 50, killSignal: 'SIGINT' })));
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn.signalCode, 'SIGINT');
    assert.equal(r.fastspawn.killed, true);
  });

  it('AbortSignal: aborted later, and already aborted', async () => {
    const describeErrors = (child) => {
      const errors = [];
      child.on('error', (err) => errors.push([err.name, err.code, err.message, err.cause && err.cause.name]));
      return errors;
    };
    const later = await both(async (cp) => {
      const ac = new AbortController();
      const child = cp.spawn('sleep', ['30'], { signal: ac.signal });
      const errors = describeErrors(child);
      setTimeout(() => ac.abort(), 20);
      return { closed: await outcome(child), errors };
    });
    assert.deepEqual(later.fastspawn, later.node);
    assert.deepEqual(later.fastspawn.errors, [['AbortError', 'ABORT_ERR', 'The operation was aborted', 'AbortError']]);

    const before = await both(async (cp) => {
      const ac = new AbortController();
      ac.abort();
      const child = cp.spawn('sleep', ['30'], { signal: ac.signal, killSignal: 'SIGKILL' });
      const errors = describeErrors(child);
      return { closed: await outcome(child), errors };
    });
    assert.deepEqual(before.fastspawn, before.node);
    assert.deepEqual(before.fastspawn.closed.events, ['spawn', 'error ABORT_ERR', 'exit null SIGKILL', 'close null SIGKILL']);
  });

  it('a missing program: error on the next tick, fields like Node, then close', async () => {
    const r = await both(async (cp) => {
      const child = cp.spawn('fastspawn-no-such-program', ['x', 'y']);
      let err = null;
      child.on('error', (e) => (err = e));
      const closed = await outcome(child);
      return {
        closed,
        pid: child.pid,
        error: { ...err, message: err.message, keys: Object.keys(err) },
      };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn.closed.events, ['error ENOENT', 'close -2 null']);
    assert.equal(r.fastspawn.error.syscall, 'spawn fastspawn-no-such-program');
    assert.deepEqual(r.fastspawn.error.spawnargs, ['x', 'y']);
  });

  it('EACCES (not executable) and a missing cwd', async () => {
    for (const [file, opts] of [['/etc/passwd', {}], ['ls', { cwd: '/fastspawn-no-such-dir' }]]) {
      const r = await both(async (cp) => {
        const child = cp.spawn(file, [], opts);
        let err = null;
        child.on('error', (e) => (err = e));
        const closed = await outcome(child);
        return { closed, error: { ...err, message: err.message } };
      });
      assert.deepEqual(r.fastspawn, r.node);
    }
  });

  it('ref()/unref(): an unref\'d child lets node exit, a ref\'d one keeps it', () => {
    const index = JSON.stringify(path.join(__dirname, '..', 'index.js'));
    const script = (unref) => `
      const cp = require(${index});
      const child = cp.spawn('sleep', ['30'], { stdio: 'ignore' });
      ${unref ? 'child.unref();' : 'setTimeout(() => child.kill(), 300);'}
      child.on('exit', (code, signal) => console.log('exit', signal));
      console.log('pid', child.pid);
    `;
    const unrefd = nodeCp.spawnSync(process.execPath, ['-e', script(true)], { encoding: 'utf8', timeout: 20000 });
    assert.equal(unrefd.status, 0, unrefd.stderr);
    const pid = Number(/^pid (\d+)$/m.exec(unrefd.stdout)[1]);
    assert.doesNotMatch(unrefd.stdout, /exit/);
    process.kill(pid, 'SIGKILL');

    const refd = nodeCp.spawnSync(process.execPath, ['-e', script(false)], { encoding: 'utf8', timeout: 20000 });
    assert.equal(refd.status, 0, refd.stderr);
    assert.match(refd.stdout, /^exit SIGTERM$/m);
  });

  it('many children at once: every one reports, in order, with its own output', async () => {
    const runs = [];
    for (let i = 0; i < 200; i++) runs.push(outcome(fastspawn.spawn(SH, ['-c', `echo ${i}; exit ${i % 7}`])));
    const results = await Promise.all(runs);
    results.forEach((r, i) => {
      assert.equal(r.stdout, `${i}\n`);
      assert.deepEqual(r.events, ['spawn', `exit ${i % 7} null`, `close ${i % 7} null`]);
    });
  });

  it('is a drop-in: the same exports as node:child_process for what it offers', () => {
    for (const name of ['spawn', 'exec', 'execFile', 'spawnSync', 'execSync', 'execFileSync', 'fork', 'ChildProcess']) {
      assert.equal(typeof fastspawn[name], 'function', name);
    }
    // The synchronous functions are the package's own (test/sync.test.js).
    for (const name of ['spawnSync', 'execSync', 'execFileSync']) assert.notEqual(fastspawn[name], nodeCp[name], name);
    const child = fastspawn.spawn('true');
    assert.ok(child instanceof fastspawn.ChildProcess);
    assert.ok(child instanceof require('node:events'));
    return outcome(child);
  });
});
