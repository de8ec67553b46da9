'use strict';
// What the measuring scripts of this directory share: their command-line
// options, where the benchmark's peers are, two order statistics and the
// numbers of the addon's trace steps.

const path = require('node:path');

// `--name value`: a number when the default is one, else the string.
function arg(name, value) {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return value;
  return typeof value === 'number' ? Number(process.argv[i + 1]) : process.argv[i + 1];
}

// DIR holds `noop` and `c-peer` (make -C bench/peers OUT=DIR noop c-peer).
const PEERS = arg('peers', path.join(__dirname, '..', '..', '..', 'target', 'peers'));

// The upper median of the finite values (NaN when there are none).
function median(values) {
  const sorted = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : NaN;
}

// The p-th percentile (nearest rank, rounded down) of sorted values.
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

// The native steps `addon.traceTake()` reports (src/trace.rs, `Step`).
const STEP = {
  POOL_START: 1,
  BUILT: 2,
  SPAWNED: 3,
  WAITER_WOKE: 4,
  EXIT_POSTED: 5,
  DELIVERED: 6,
};

module.exports = {
  STEP,
  arg,
  median,
  percentile,
  PEERS,
  NOOP: path.join(PEERS, 'noop'),
  C_PEER: path.join(PEERS, 'c-peer'),
};
