'use strict';
// Shared by the tests (outside test/, which node --test runs whole): run the same call with node:child_process and with
// fastspawn, and describe what each did in comparable terms.

const fs = require('node:fs');
const nodeCp = require('node:child_process');
const fastspawn = require('../index.js');

const implementations = { node: nodeCp, fastspawn };

// Everything observable about one child, once it closed: its events in
// order (stream data excluded: its timing against 'exit' is not defined),
// the output, the final fields, and whether data ever came before 'spawn'.
function outcome(child, { input } = {}) {
  return new Promise((resolve) => {
    const events = [];
    const out = { stdout: '', stderr: '' };
    let dataBeforeSpawn = false;
    let spawned = false;
    child.on('spawn', () => {
      spawned = true;
      events.push('spawn');
    });
    child.on('error', (err) => events.push(`error ${err.code}`));
    child.on('exit', (code, signal) => events.push(`exit ${code} ${signal}`));
    for (const name of ['stdout', 'stderr']) {
      const stream = child[name];
      if (!stream) continue;
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        if (!spawned && events.length === 0) dataBeforeSpawn = true;
        out[name] += chunk;
      });
    }
    child.on('close', (code, signal) => {
      events.push(`close ${code} ${signal}`);
      resolve({
        events,
        stdout: out.stdout,
        stderr: out.stderr,
        exitCode: child.exitCode,
        signalCode: child.signalCode,
        killed: child.killed,
        dataBeforeSpawn,
      });
    });
    if (input !== undefined && child.stdin) child.stdin.end(input);
  });
}

// Runs `fn(impl)` with each implementation; returns { node, fastspawn }.
async function both(fn) {
  const [node, fast] = await Promise.all([fn(nodeCp, 'node'), fn(fastspawn, 'fastspawn')]);
  return { node, fastspawn: fast };
}

// What a thrown error looks like, to compare Node's with fastspawn's.
function thrown(fn) {
  try {
    fn();
  } catch (err) {
    return {
      ctor: err.constructor.name,
      name: err.name,
      code: err.code,
      message: err.message,
      errno: err.errno,
      syscall: err.syscall,
      string: String(err),
    };
  }
  return null;
}

// The fds open in this process, by number, but those of the addon's
// reserve of socketpairs (bounded, made ahead by the spawner threads) and
// the listing's own directory fd (the lowest free number, which the
// reserve moves).
function openFds() {
  const reserved = new Set(require('../lib/native').addon.reservedFds());
  const isOpen = (fd) => {
    try {
      fs.fstatSync(fd);
      return true;
    } catch {
      return false;
    }
  };
  return fs
    .readdirSync('/proc/self/fd')
    .map(Number)
    .filter((fd) => !reserved.has(fd) && isOpen(fd))
    .sort((a, b) => a - b);
}

// Children of this process that are zombies.
function zombies() {
  const found = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' && Number(fields[1]) === process.pid) found.push(Number(entry));
  }
  return found;
}

// Lets the streams close on their own ticks after 'close', then waits for
// what the native threads do after posting what JS already saw (the
// spawner and waiter threads close a reaped child's pidfd and given-up
// ends, and top up the socketpair reserve): a loaded machine can preempt
// them there. For the leak checks.
async function quiesce() {
  const { addon } = require('../lib/native');
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  const deadline = Date.now() + 5000;
  while (addon.afterWorkPending() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
  for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
}

module.exports = { both, fastspawn, implementations, nodeCp, openFds, outcome, quiesce, thrown, zombies };
