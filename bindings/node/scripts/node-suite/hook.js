'use strict';
// --require hook of the node-suite runner (run.js): in this process and in
// every Node process started under it (the runner puts this file in
// NODE_OPTIONS), `require('child_process')` and `require('node:child_process')`
// return the fastspawn package, and so do the same imports from ES modules
// (loader.mjs, registered here). The package's own files still get Node's
// module, which it re-exports in part (spawnSync, execSync, execFileSync).

const Module = require('node:module');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const PACKAGE_DIR = path.resolve(__dirname, '..', '..');
const PACKAGE_MAIN = path.join(PACKAGE_DIR, 'index.js');
const NAMES = new Set(['child_process', 'node:child_process']);

function insidePackage(filename) {
  return typeof filename === 'string' &&
    filename.startsWith(PACKAGE_DIR + path.sep) &&
    !filename.startsWith(path.join(PACKAGE_DIR, 'node_modules') + path.sep) &&
    !filename.startsWith(__dirname + path.sep);
}

const originalLoad = Module._load;
Module._load = function load(request, parent, isMain) {
  if (NAMES.has(request) && !(parent && insidePackage(parent.filename))) {
    return originalLoad.call(this, PACKAGE_MAIN, parent, isMain);
  }
  return originalLoad.call(this, request, parent, isMain);
};

// The hooks run on a worker thread, which the permission model may refuse
// (a test run with --experimental-permission and no --allow-worker): then
// only require() is redirected.
const workersAllowed = process.permission === undefined || process.permission.has('worker');
if (typeof Module.register === 'function' && workersAllowed) {
  Module.register(pathToFileURL(path.join(__dirname, 'loader.mjs')), {
    data: { packageDir: PACKAGE_DIR },
  });
}
