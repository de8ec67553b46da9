'use strict';
// fastspawn: node:child_process's spawn/execFile/exec, with the processes
// started by fastspawn's spawner threads (clone(CLONE_VM|CLONE_VFORK) /
// clone3 with pidfds) instead of fork() on the event loop. See README.md
// for what differs from node:child_process.
//
// The synchronous functions are the package's too (lib/sync.js): they
// block the caller by design, as Node's do, but do not fork.

const { ChildProcess, setDelivery, spawn } = require('./lib/child_process');
const { exec, execFile } = require('./lib/exec');
const { fork } = require('./lib/fork');
const { execFileSync, execSync, spawnSync } = require('./lib/sync');

module.exports = {
  ChildProcess,
  spawn,
  exec,
  execFile,
  fork,
  // fastspawn's own: coalesced delivery of the children's events (README).
  setDelivery,
  execFileSync,
  execSync,
  spawnSync,
};
