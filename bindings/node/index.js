'use strict';
// fastspawn: node:child_process's spawn/execFile/exec, with the processes
// started by fastspawn's spawner threads (clone(CLONE_VM|CLONE_VFORK) /
// clone3 with pidfds) instead of fork() on the event loop. See README.md
// for what differs from node:child_process.
//
// The synchronous functions and fork() are node:child_process's own,
// re-exported so that this module can replace it unchanged.

const nodeChildProcess = require('node:child_process');
const { ChildProcess, spawn } = require('./lib/child_process');
const { exec, execFile } = require('./lib/exec');

module.exports = {
  ChildProcess,
  spawn,
  exec,
  execFile,
  // Not reimplemented: Node's own.
  execFileSync: nodeChildProcess.execFileSync,
  execSync: nodeChildProcess.execSync,
  fork: nodeChildProcess.fork,
  spawnSync: nodeChildProcess.spawnSync,
};
