'use strict';
// What running Node's own child_process tests against the package found
// (scripts/node-suite/run.js, docs/node-suite.md), checked here side by
// side with node:child_process: the same calls through both, compared.

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const http = require('node:http');
const net = require('node:net');
const { once } = require('node:events');
const { spawnSync } = require('node:child_process');

const { both, thrown } = require('../testlib/helpers');

const FIXTURE = path.join(__dirname, '..', 'testlib', 'ipc-child.js');
const PACKAGE = path.join(__dirname, '..', 'index.js');
const NODE_MAJOR = Number.parseInt(process.versions.node, 10);
// The permission model's flag: --permission from Node 22.13/23.5 (Node 24
// no longer knows --experimental-permission), --experimental-permission on
// Node 20.
const PERMISSION_FLAG = process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';

function nextMessage(child) {
  return once(child, 'message').then(([message]) => message);
}

function connections(server) {
  return new Promise((resolve) => {
    server.getConnections((err, count) => resolve(err ? { code: err.code, message: err.message } : count));
  });
}

describe("Node's own tests, checked side by side", () => {
  it('ChildProcess#spawn refuses an envPairs that is not an array, null included (test-child-process-constructor)', async () => {
    const r = await both(async (cp) => {
      const out = [];
      for (const envPairs of [null, 0, NaN, true, {}, 'foo']) {
        const child = new cp.ChildProcess();
        out.push(thrown(() => child.spawn({ envPairs, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] })));
      }
      return out;
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.equal(r.fastspawn[0].code, 'ERR_INVALID_ARG_TYPE');
    assert.match(r.fastspawn[0].message, /"options\.envPairs" property must be an instance of Array\. Received null/);
  });

  it('a forked child has _channel, the same object as channel (test-child-process-fork)', async () => {
    const r = await both(async (cp) => {
      const child = cp.fork(FIXTURE, ['--hello']);
      await nextMessage(child);
      const same = child._channel === child.channel && child.channel != null;
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
      const plain = cp.spawn('true');
      await once(plain, 'close');
      return { same, plain: plain._channel };
    });
    assert.deepEqual(r.fastspawn, r.node);
    // Node 26 removed _channel (DEP0129's end of life).
    assert.deepEqual(r.fastspawn, { same: NODE_MAJOR < 26, plain: undefined });
  });

  it('_channel warns once with DEP0129 (test-child-process-fork)', () => {
    const warning = (module) => {
      const script = `const c = require(${JSON.stringify(module)}).fork(${JSON.stringify(FIXTURE)}, ['--hello']);` +
        `c._channel; c._channel = c.channel; c.on('message', () => c.disconnect());`;
      const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
      assert.equal(result.status, 0, result.stderr);
      return result.stderr.split('\n').filter((line) => line.includes('Warning'));
    };
    const node = warning('node:child_process').map((line) => line.replace(/\(node:\d+\)/, ''));
    const fast = warning(PACKAGE).map((line) => line.replace(/\(node:\d+\)/, ''));
    assert.deepEqual(fast, node);
    if (NODE_MAJOR >= 26) {
      // No _channel, so no warning.
      assert.deepEqual(fast, []);
      return;
    }
    assert.equal(fast.length, 1);
    assert.match(fast[0], /\[DEP0129\] DeprecationWarning: _channel is deprecated/);
  });

  it("a server's connections sent to a child: counted there, and close() waits for them (test-child-process-fork-getconnections, -fork-net-socket)", async () => {
    const r = await both(async (cp) => {
      const child = cp.fork(FIXTURE);
      const server = net.createServer();
      const clients = [];
      let sent = 0;
      const holding = new Promise((resolve) => {
        child.on('message', (m) => {
          if (m === 'holding 2') resolve();
        });
      });
      server.on('connection', (socket) => {
        child.send({ hold: true }, socket);
        sent++;
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      for (let i = 0; i < 2; i++) clients.push(net.connect(server.address().port, '127.0.0.1'));
      await holding;
      const out = { sent, local: server._connections, counted: await connections(server) };
      let closed = false;
      server.close(() => (closed = true));
      await new Promise((resolve) => setTimeout(resolve, 100));
      out.closedWhileHeld = closed;
      child.send({ op: 'close-held' });
      // The child answers the server (NODE_SOCKET_ALL_CLOSED) as its
      // sockets close, before its own reply on the same channel.
      out.reply = await nextMessage(child);
      await new Promise((resolve) => setImmediate(resolve));
      out.closed = closed;
      const exited = once(child, 'exit');
      child.disconnect();
      out.afterDisconnect = await connections(server);
      await exited;
      // The server forgets the child's list at its exit (getConnections()
      // would then never answer, with either implementation: no worker).
      out.listsAfterExit = server._workers.length;
      for (const client of clients) client.destroy();
      return out;
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn, {
      sent: 2,
      local: 0,
      counted: 2,
      closedWhileHeld: false,
      reply: 'closed 2',
      closed: true,
      afterDisconnect: { code: 'ERR_CHILD_CLOSED_BEFORE_REPLY', message: 'Child closed before reply received' },
      listsAfterExit: 0,
    });
  });

  it("an HTTP connection sent to a child lets go of its parser and response (test-child-process-http-socket-leak)", async () => {
    const r = await both(async (cp) => {
      const child = cp.fork(FIXTURE);
      let state = null;
      const server = http.createServer((req, res) => {
        const socket = res.socket;
        child.send('r', socket);
        state = { parser: socket.parser, httpMessage: socket._httpMessage };
        server.close();
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      const client = net.connect(server.address().port, '127.0.0.1');
      client.end('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      let text = '';
      client.setEncoding('utf8').on('data', (d) => (text += d));
      await once(client, 'close');
      const reply = await nextMessage(child);
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
      return { ...state, text, reply };
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn, { parser: null, httpMessage: null, text: 'child writes r\n', reply: 'wrote r' });
  });

  it("exec() reports a kill() that throws when maxBuffer is passed (test-child-process-exec-kill-throws)", async () => {
    const r = await both(async (cp) => {
      const proto = cp.ChildProcess.prototype;
      const kill = proto.kill;
      proto.kill = function killThenThrow(...args) {
        kill.apply(this, args);
        throw new Error('mock error');
      };
      try {
        return await new Promise((resolve) => {
          const child = cp.exec('echo foo; sleep 5', { maxBuffer: 0, killSignal: 'SIGKILL' }, (err, stdout, stderr) => {
            resolve({ message: err && err.message, stdout, stderr, killed: child.killed });
          });
        });
      } finally {
        proto.kill = kill;
      }
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn, { message: 'mock error', stdout: '', stderr: '', killed: true });
  });

  it('spawn() and execFile() go through ChildProcess#spawn with windowsHide (test-child-process-windows-hide)', async () => {
    const r = await both(async (cp) => {
      const proto = cp.ChildProcess.prototype;
      const original = proto.spawn;
      const seen = [];
      proto.spawn = function record(options) {
        seen.push(options.windowsHide);
        return original.apply(this, arguments);
      };
      try {
        const child = cp.spawn(process.execPath, ['-p', '42'], { windowsHide: true });
        const [code] = await once(child, 'exit');
        const stdout = await new Promise((resolve, reject) => {
          cp.execFile(process.execPath, ['-p', '42'], { windowsHide: true }, (err, out) => (err ? reject(err) : resolve(out)));
        });
        return { seen, code, stdout };
      } finally {
        proto.spawn = original;
      }
    });
    assert.deepEqual(r.fastspawn, r.node);
    assert.deepEqual(r.fastspawn, { seen: [true, true], code: 0, stdout: '42\n' });
  });

  it('under the permission model with --allow-addons, no child without --allow-child-process: the same refusal (test-permission-child-process-cli)', (t) => {
    const marker = path.join(require('node:os').tmpdir(), `fastspawn-permission-${process.pid}`);
    const script = `
      const fs = require('node:fs');
      const out = {};
      for (const [name, module] of [['node', 'node:child_process'], ['fastspawn', ${JSON.stringify(PACKAGE)}]]) {
        const cp = require(module);
        const marker = ${JSON.stringify(marker)} + '-' + name;
        const calls = {
          spawn: () => cp.spawn('touch', [marker]),
          exec: () => cp.exec('touch ' + marker),
          execFile: () => cp.execFile('touch', [marker]),
          fork: () => cp.fork(${JSON.stringify(FIXTURE)}),
          'ChildProcess#spawn': () => new cp.ChildProcess().spawn({ file: 'touch', args: ['touch', marker] }),
          spawnSync: () => cp.spawnSync('touch', [marker]),
          execFileSync: () => cp.execFileSync('touch', [marker]),
          execSync: () => cp.execSync('touch ' + marker),
        };
        out[name] = {};
        for (const [call, fn] of Object.entries(calls)) {
          try {
            const child = fn();
            out[name][call] = 'no throw';
            // A child that ran after all must not keep this script alive.
            if (child && typeof child.kill === 'function') {
              child.kill('SIGKILL');
              if (child.connected) child.disconnect();
            }
          } catch (e) {
            out[name][call] = [e.constructor.name, e.code, e.message, e.permission, e.resource, String(e), Object.keys(e).join()];
          }
        }
      }
      setTimeout(() => {
        for (const name of ['node', 'fastspawn']) out[name].ran = fs.existsSync(${JSON.stringify(marker)} + '-' + name);
        console.log(JSON.stringify(out));
      }, 300);`;
    const result = spawnSync(process.execPath, [PERMISSION_FLAG, '--allow-fs-read=*', '--allow-addons', '-e', script], {
      encoding: 'utf8',
    });
    if (/bad option/.test(result.stderr)) {
      const reason = `this Node (${process.version}) has no permission model or no --allow-addons (${result.stderr.trim()})`;
      console.log(`skipped: ${reason}`);
      t.skip(reason);
      return;
    }
    assert.equal(result.status, 0, result.stderr);
    const out = JSON.parse(result.stdout);
    assert.deepEqual(out.fastspawn, out.node);
    // Node 22 added the flag to the message and the program as `resource`.
    const message = NODE_MAJOR >= 22
      ? 'Access to this API has been restricted. Use --allow-child-process to manage permissions.'
      : 'Access to this API has been restricted';
    assert.deepEqual(out.fastspawn.spawn, [
      'Error', 'ERR_ACCESS_DENIED', message, 'ChildProcess', NODE_MAJOR >= 22 ? 'touch' : '',
      `Error: ${message}`, 'code,permission,resource',
    ]);
    assert.equal(out.fastspawn.ran, false);
  });

  it('under the permission model the package refuses to load, naming its addon (test-permission-child-process-cli)', (t) => {
    const script = `require(${JSON.stringify(PACKAGE)})`;
    const result = spawnSync(process.execPath, [PERMISSION_FLAG, '--allow-fs-read=*', '-e', script], {
      encoding: 'utf8',
    });
    if (/bad option/.test(result.stderr)) {
      const reason = `this Node (${process.version}) has no permission model (${result.stderr.trim()})`;
      console.log(`skipped: ${reason}`);
      t.skip(reason);
      return;
    }
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /fastspawn: cannot load the native addon .*fastspawn\.node/);
    assert.match(result.stderr, /ERR_DLOPEN_DISABLED/);
    // Node's own child_process still answers there, with its own refusal.
    const node = spawnSync(process.execPath, [PERMISSION_FLAG, '--allow-fs-read=*', '-e',
      "try { require('node:child_process').spawnSync('true') } catch (e) { console.log(e.code) }"], { encoding: 'utf8' });
    assert.equal(node.stdout.trim(), 'ERR_ACCESS_DENIED');
  });
});

