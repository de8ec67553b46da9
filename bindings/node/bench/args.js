'use strict';
// What the measuring scripts of this directory share: their command-line
// options and where the benchmark's peers are.

const path = require('node:path');

// `--name value`: a number when the default is one, else the string.
function arg(name, value) {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return value;
  return typeof value === 'number' ? Number(process.argv[i + 1]) : process.argv[i + 1];
}

// DIR holds `noop` and `c-peer` (make -C bench/peers OUT=DIR noop c-peer).
const PEERS = arg('peers', path.join(__dirname, '..', '..', '..', 'target', 'peers'));

module.exports = { arg, PEERS, NOOP: path.join(PEERS, 'noop'), C_PEER: path.join(PEERS, 'c-peer') };
