'use strict';
// fork() and stdio 'ipc' (lib/fork.js, lib/ipc.js), side by side with
// node:child_process: the child is stock Node (testlib/ipc-child.js),
// talking to each implementation's parent end of the channel.

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { once } = require('node:events');

const { both, fastspawn } = require('../testlib/helpers');
const { addon } = require('../lib/native');

const FIXTURE = path.join(__dirname, '..', 'testlib', 'ipc-child.js');

// Records a child's events (messages included) in order.
function record(child) {
  const events = [];
  for (const name of ['spawn', 'disconnect', 'exit', 'close']) {
    child.on(name, (...args) => events.push([name, ...args.map(String)].join(' ')));
  }
  child.on('error', (err) => events.push(`error ${err.code}`));
  return events;
}

// The next message of `child`.
function nextMessage(child) {
  return once(child, 'message').then(([message]) => message);
}

describe('fork(), side by side with node:child_process.fork', () => {
  for (const serialization of ['json', 'advanced']) {
    it(`a round trip, send()'s return and callback, events in order (${serialization})`, async () => {
      const r = await both(async (cp) => {
        const child = cp.fork(FIXTURE, ['--hello'], { silent: true, serialization });
        const events = record(child);
        const hello = await nextMessage(child);
        const callback = [];
        const sent = child.send({ op: 'echo', value: { nested: [1, 'two', null] } }, (err) => callback.push(err));
        const echo = await nextMessage(child);
        const connected = child.connected;
        child.disconnect();
        const afterDisconnect = { connected: child.connected, channel: child.channel };
        await once(child, 'exit');
        await new Promise((resolve) => setTimeout(resolve, 100));
        return { hello, sent, echo, callback, connected, afterDisconnect, events };
      });
      // The one difference: after the parent's disconnect(), Node never
      // emits 'close' (the channel's end is never counted); the package
      // does, once the child exited and its streams closed (README).
      assert.deepEqual(r.fastspawn.events.at(-1), 'close 0 null');
      const withoutClose = (x) => ({ ...x, events: x.events.filter((e) => !e.startsWith('close')) });
      assert.deepEqual(withoutClose(r.fastspawn), withoutClose(r.node));
      assert.deepEqual(r.fastspawn.echo, { echo: { nested: [1, 'two', null] } });
      assert.equal(r.fastspawn.sent, true);
      assert.deepEqual(r.fastspawn.callback, [null]);
      assert.deepEqual(r.fastspawn.events.slice(0, 2), ['spawn', 'disconnect']);
    });
  }

  it("the child sees Node's channel: argv, execArgv, its NODE_CHANNEL_FD removed", async () => {
    const r = await both(async (cp) => {
      const child = cp.fork(FIXTURE, ['a', 'b'], { silent: true, execArgv: ['--no-warnings'] });
      child.send({ op: 'env', binary: new Uint8Array([1]) });
      const report = await nextMessage(child);
      child.disconnect();
      await once(child, 'exit');
      return { report, spawnargs: child.spawnargs.slice(1), file: child.spawnfile === process.execPath };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn.report, { argv: ['a', 'b'], execArgv: ['--no-warnings'], binary: false });
  });

  it("'advanced' carries typed arrays, Maps, Dates, BigInts", async () => {
    const value = { buf: Buffer.from('abc'), u16: new Uint16Array([1, 65535]), map: new Map([[1, 'a']]), date: new Date(0), big: 2n ** 70n };
    const r = await both(async (cp) => {
      const child = cp.fork(FIXTURE, [], { silent: true, serialization: 'advanced' });
      child.send({ op: 'echo', value });
      const { echo } = await nextMessage(child);
      child.disconnect();
      await once(child, 'exit');
      return { echo, types: Object.values(echo).map((v) => v.constructor.name) };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn.types, ['Buffer', 'Uint16Array', 'Map', 'Date', 'BigInt']);
  });

  for (const serialization of ['json', 'advanced']) {
    it(`large messages split across reads, and many small ones (${serialization})`, async () => {
      const r = await both(async (cp) => {
        const child = cp.fork(FIXTURE, [], { silent: true, serialization });
        child.send({ op: 'big', size: 3 << 20 });
        const big = await nextMessage(child);
        const bigSummary = { length: big.big.length, buf: serialization === 'json' ? big.buf.data.length : big.buf.length };
        const sentBig = child.send({ op: 'echo', value: 'z'.repeat(2 << 20) });
        const echoed = (await nextMessage(child)).echo.length;
        const got = [];
        child.on('message', (m) => got.push(m.i));
        child.send({ op: 'many', count: 2000, size: 10 });
        while (got.length < 2000) await new Promise((resolve) => setTimeout(resolve, 10));
        child.disconnect();
        await once(child, 'exit');
        return { bigSummary, sentBig, echoed, inOrder: got.every((v, i) => v === i) };
      });
      assert.deepEqual(r.fastspawn, r.node);
      assert.deepEqual(r.fastspawn.bigSummary, { length: 3 << 20, buf: 3 << 20 });
      assert.equal(r.fastspawn.sentBig, false);
      assert.equal(r.fastspawn.echoed, 2 << 20);
      assert.equal(r.fastspawn.inOrder, true);
    });
  }

  it('messages that come before any listener wait for the first one', async () => {
    const r = await both(async (cp) => {
      const child = cp.fork(FIXTURE, ['--hello'], { silent: true });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const hello = await nextMessage(child);
      child.disconnect();
      await once(child, 'exit');
      return hello;
    });
    assert.deepEqual(r, { node: 'hello', fastspawn: 'hello' });
  });

  it('the child disconnects, then exits; Node-internal messages are not messages', async () => {
    const r = await both(async (cp) => {
      const child = cp.fork(FIXTURE, [], { silent: true });
      const events = record(child);
      const messages = [];
      const internal = [];
      child.on('message', (m) => messages.push(m));
      child.on('internalMessage', (m) => internal.push(m.cmd));
      child.send({ op: 'internal' });
      child.send({ op: 'disconnect' });
      await once(child, 'disconnect');
      const connected = child.connected;
      // With its channel gone and nothing else to do, the child exits.
      await once(child, 'close');
      return { events, messages, internal, connected };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn.internal, ['NODE_fastspawn_test']);
    assert.deepEqual(r.fastspawn.events, ['spawn', 'disconnect', 'exit 0 null', 'close 0 null']);
  });

  it("'disconnect' before 'exit' when both wait while the loop is blocked", async () => {
    // The channel's end and the exit both come while the loop is busy; the
    // package's exit arrives through the addon's event batch, which the
    // loop may run before it reads the channel: the exit is held until the
    // end is read, for the order Node gives when its loop is not held up.
    const r = await both(async (cp) => {
      const child = cp.fork(FIXTURE, [], { silent: true });
      const events = record(child);
      child.send({ op: 'echo', value: 1 });
      await nextMessage(child);
      child.send({ op: 'disconnect' });
      // Blocked until the child has exited (a zombie for Node, whose loop
      // reaps it; gone for the package, whose waiter thread does).
      const stat = `/proc/${child.pid}/stat`;
      const deadline = Date.now() + 10000;
      while (Date.now() < deadline) {
        let state;
        try {
          state = fs.readFileSync(stat, 'latin1').split(') ')[1][0];
        } catch {
          break;
        }
        if (state === 'Z') break;
      }
      // And a little longer, for the exit's report to reach the loop.
      const settle = Date.now() + 100;
      while (Date.now() < settle);
      await once(child, 'close');
      return events;
    });
    assert.deepEqual(r.fastspawn, ['spawn', 'disconnect', 'exit 0 null', 'close 0 null']);
    // Node's own order varies here (its exit comes through libuv's SIGCHLD
    // pipe; seen both ways): the same events.
    assert.deepEqual([...r.node].sort(), [...r.fastspawn].sort());
  });

  it('send() after disconnect, disconnect() twice, bad messages', async () => {
    const r = await both(async (cp) => {
      const child = cp.fork(FIXTURE, [], { silent: true });
      const errors = [];
      child.on('error', (err) => errors.push([err.code, err.message]));
      const thrown = [];
      for (const bad of [undefined, () => {}, Symbol('s')]) {
        try {
          child.send(bad);
        } catch (err) {
          thrown.push(String(err));
        }
      }
      child.disconnect();
      const callbackErr = await new Promise((resolve) => child.send('late', resolve));
      const exited = new Promise((resolve) => child.on('exit', resolve));
      const returned = child.send('late, no callback');
      child.disconnect();
      await exited;
      await new Promise((resolve) => setImmediate(resolve));
      return { thrown, callbackErr: [callbackErr.code, callbackErr.message], returned, errors };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn.errors.map((e) => e[0]), ['ERR_IPC_DISCONNECTED', 'ERR_IPC_CHANNEL_CLOSED']);
  });

  it("silent: false inherits stdout; silent: true pipes it", async () => {
    const r = await both(async (cp) => {
      const result = {};
      for (const silent of [false, true]) {
        const child = cp.fork(FIXTURE, [], { silent });
        let out = '';
        if (child.stdout) child.stdout.on('data', (d) => (out += d));
        child.send({ op: 'stdout' });
        await nextMessage(child);
        const ended = child.stdout ? once(child.stdout, 'end') : null;
        child.disconnect();
        await once(child, 'exit');
        await ended;
        result[silent] = { stdio: child.stdio.map((s) => s === null), out };
      }
      return result;
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn.true, { stdio: [false, false, false, true], out: 'to stdout\n' });
  });

  it("stdio 'ipc' at another index, with spawn()", async () => {
    const r = await both(async (cp) => {
      const child = cp.spawn(process.execPath, [FIXTURE], { stdio: ['pipe', 'ipc', 'pipe'] });
      child.send({ op: 'env' });
      const report = await nextMessage(child);
      child.disconnect();
      await once(child, 'exit');
      return { report, stdout: child.stdout, stdio: child.stdio.map((s) => s === null) };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn.stdout, null);
  });

  it('a failed execPath: error, then disconnect and close, as Node', async () => {
    const r = await both(async (cp) => {
      const child = cp.fork(FIXTURE, [], { execPath: '/fastspawn/no/such/node', silent: true });
      const events = record(child);
      await new Promise((resolve) => child.on('close', resolve));
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { events, connected: child.connected };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn.events[0], 'error ENOENT');
  });

  it('the child is started by a fastspawn spawner thread, not by fork()', async () => {
    addon.debug(true);
    try {
      const child = fastspawn.fork(FIXTURE, [], { silent: true });
      await once(child, 'spawn');
      const [thread] = addon.debugInfo(child._id);
      assert.match(thread, /^fastspawn-\d+$/);
      child.disconnect();
      await once(child, 'close');
    } finally {
      addon.debug(false);
    }
  });

  it('a net.Server handle: the child answers its connections', async () => {
    const net = require('node:net');
    const r = await both(async (cp) => {
      const server = net.createServer((socket) => socket.end('parent answers\n'));
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      const child = cp.fork(FIXTURE, [], { silent: true });
      const callback = [];
      const sent = child.send('s1', server, (err) => callback.push(err));
      // A message sent behind the handle waits for the child's ACK, in order.
      child.send({ op: 'echo', value: 'after the handle' });
      const first = await nextMessage(child);
      const second = await nextMessage(child);
      // The parent stops accepting: every connection now goes to the child.
      const { port } = server.address();
      server.close();
      const answers = [];
      for (let i = 0; i < 3; i++) {
        const socket = net.connect(port, '127.0.0.1');
        let text = '';
        socket.on('data', (d) => (text += d));
        await once(socket, 'end');
        answers.push(text);
      }
      child.kill();
      await once(child, 'exit');
      return { sent, callback, first, second, answers };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn.answers, ['child answers s1\n', 'child answers s1\n', 'child answers s1\n']);
    assert.deepEqual(r.fastspawn.second, { echo: 'after the handle' });
  });

  it('net.Socket handles: the child writes to them, the parent closes its copy after the ACK', async () => {
    const net = require('node:net');
    const r = await both(async (cp) => {
      const accepted = [];
      const server = net.createServer((socket) => accepted.push(socket));
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      const child = cp.fork(FIXTURE, [], { silent: true });
      const results = [];
      for (const name of ['one', 'two']) {
        const client = net.connect(server.address().port, '127.0.0.1');
        let text = '';
        client.on('data', (d) => (text += d));
        // Listen for 'end' now: the child may write and end the socket
        // before its reply message reaches us.
        const ended = once(client, 'end');
        while (accepted.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        const socket = accepted.shift();
        child.send(name, socket);
        const reply = await nextMessage(child);
        await ended;
        await new Promise((resolve) => setTimeout(resolve, 20));
        results.push({ reply, text, detached: socket._handle === null, destroyed: socket.destroyed });
      }
      server.close();
      child.disconnect();
      await once(child, 'exit');
      return results;
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn[1].text, 'child writes two\n');
  });

  for (const serialization of ['json', 'advanced']) it(`handles sent by the child: a net.Server, a net.Socket, a dgram socket arrive with their message (${serialization})`, async () => {
    const net = require('node:net');
    const dgram = require('node:dgram');
    const r = await both(async (cp) => {
      const child = cp.fork(FIXTURE, [], { silent: true, serialization });
      const got = () => once(child, 'message');
      const out = {};

      child.send({ op: 'send-server' });
      const [serverMessage, server] = await got();
      out.server = { message: { ...serverMessage, port: typeof serverMessage.port }, isServer: server instanceof net.Server };
      await new Promise((resolve) => (server.listening ? resolve() : server.once('listening', resolve)));
      out.server.samePort = server.address().port === serverMessage.port;
      // A connection reaches whichever process accepts it: the answer is
      // the child's either way (the parent's copy has no listener).
      server.on('connection', (socket) => socket.end('child server answers\n'));
      const client = net.connect(serverMessage.port, '127.0.0.1');
      let text = '';
      client.on('data', (d) => (text += d));
      await once(client, 'end');
      out.server.answer = text;
      server.close();

      child.send({ op: 'send-socket' });
      const [socketMessage, socket] = await got();
      out.socket = { message: socketMessage, isSocket: socket instanceof net.Socket };
      socket.end('parent writes\n');
      out.socket.clientRead = (await got())[0];
      out.socket.serverClosed = (await got())[0];

      child.send({ op: 'send-dgram' });
      const [dgramMessage, udp] = await got();
      out.dgram = { message: { ...dgramMessage, port: typeof dgramMessage.port }, isDgram: udp instanceof dgram.Socket, samePort: udp.address().port === dgramMessage.port };
      udp.close();

      child.kill();
      await once(child, 'exit');
      return out;
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn.server.isServer, true);
    assert.equal(r.fastspawn.server.samePort, true);
    assert.equal(r.fastspawn.server.answer, 'child server answers\n');
    assert.deepEqual(r.fastspawn.socket.clientRead, { kind: 'client read', text: 'parent writes\n' });
    assert.deepEqual(r.fastspawn.socket.serverClosed, { kind: 'server closed' });
    assert.equal(r.fastspawn.dgram.samePort, true);
  });

  it('handle errors: a bad handle type', () => {
    const nodeCp = require('node:child_process');
    const r = {};
    for (const [name, cp] of [['node', nodeCp], ['fastspawn', fastspawn]]) {
      const child = cp.fork(FIXTURE, [], { silent: true });
      try {
        child.send('x', {});
        r[name] = null;
      } catch (err) {
        r[name] = String(err);
      }
      child.kill();
    }
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn, 'TypeError [ERR_INVALID_HANDLE_TYPE]: This handle type cannot be sent');
  });

  it('a dgram socket sent to the child: bound to the same port there, the parent keeps its copy', async () => {
    const dgram = require('node:dgram');
    const r = await both(async (cp) => {
      const socket = dgram.createSocket('udp4');
      await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));
      const child = cp.fork(FIXTURE, [], { silent: true });
      const callback = [];
      child.send('u1', socket, (err) => callback.push(err));
      const reply = await nextMessage(child);
      const samePort = reply.port === socket.address().port;
      // The parent's copy is still open: it can send from that port.
      const peer = dgram.createSocket('udp4');
      await new Promise((resolve) => peer.bind(0, '127.0.0.1', resolve));
      socket.send('ping', peer.address().port, '127.0.0.1');
      const [data] = await once(peer, 'message');
      peer.close();
      socket.close();
      child.kill();
      await once(child, 'exit');
      return { callback, reply: { ...reply, port: typeof reply.port }, samePort, fromParentCopy: String(data) };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn, { callback: [null], reply: { dgram: 'u1', port: 'number' }, samePort: true, fromParentCopy: 'ping' });
  });
});
