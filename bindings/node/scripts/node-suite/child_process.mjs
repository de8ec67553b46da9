// The fastspawn package as an ES module with node:child_process's named
// exports, for the node-suite runner's loader (loader.mjs).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const cp = require('../../index.js');

export default cp;
export const {
  ChildProcess, spawn, exec, execFile, fork, execFileSync, execSync, spawnSync,
} = cp;
