'use strict';
// fastspawn: node:child_process's spawn/execFile/exec, with the processes
// started by fastspawn's spawner threads (clone(CLONE_VM|CLONE_VFORK) /
// clone3 with pidfds) instead of fork() on the event loop. See README.md
// for what differs from node:child_process.
//
// The synchronous functions are node:child_process's own, re-exported so
// that this module can replace it unchanged (they block the caller by
// design).

const nodeChildProcess = require('node:child_process');
const { ChildProcess, setDelivery, spawn } = require('./lib/child_process');
const { exec, execFile } = require('./lib/exec');
const { fork } = require('./lib/fork');

module.exports = {
  ChildProcess,
  spawn,
  exec,
  execFile,
  fork,
  // fastspawn's own: coalesced delivery of the children's events (README).
  setDelivery,
  // Not reimplemented: Node's own.
  execFileSync: nodeChildProcess.execFileSync,
  execSync: nodeChildProcess.execSync,
  spawnSync: nodeChildProcess.spawnSync,
};
