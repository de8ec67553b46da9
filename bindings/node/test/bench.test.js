'use strict';
// The arithmetic of the benchmark scripts' printed verdicts.

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const { floorLine, nodeFloorLine } = require('../bench/sequential');

describe('bench/sequential.js floor line', () => {
  it('takes the better of the two C hand-over floors and calls a goal out of reach only above it', () => {
    const line = floorLine(1.62, 1.41, 2.1, 1.6);
    assert.match(line, /worker asleep 1\.62x, worker spinning 1\.41x/);
    // 'pipe': the floor 1.41x is under 2.0x, 0.59x left.
    assert.match(line, /'pipe' 2\.10x, goal <= 2\.0x: not out of reach \(0\.59x above the floor left for the rest\)/);
    // 'ignore': 1.41x is under 1.5x too.
    assert.match(line, /'ignore' 1\.60x, goal <= 1\.5x: not out of reach \(0\.09x above/);
    const over = floorLine(1.55, 1.7, 2.1, 1.6);
    assert.match(over, /'ignore' 1\.60x, goal <= 1\.5x: out of reach for such a design/);
    assert.match(over, /'pipe' 2\.10x, goal <= 2\.0x: not out of reach \(0\.45x/);
  });

  it('reads one floor alone, and prints nothing without either', () => {
    assert.match(floorLine(undefined, 2.2, 2.3, 1.9), /worker asleep not measured, worker spinning 2\.20x; 'pipe' 2\.30x, goal <= 2\.0x: out of reach/);
    assert.equal(floorLine(undefined, undefined, 2, 1.5), null);
  });
});

describe('bench/sequential.js Node floor line', () => {
  it("prints what the package adds to the Node floor and what each goal leaves above it", () => {
    const line = nodeFloorLine(1.43, 2.1, 1.8);
    assert.match(line, /: 1\.43x; the package adds 0\.67x with 'pipe' \(goal 2\.0x: 0\.57x left above it/);
    assert.match(line, /and 0\.37x with 'ignore' \(goal 1\.5x: 0\.07x left above it/);
    assert.match(nodeFloorLine(1.6, 2.1, 1.8), /'ignore' \(goal 1\.5x: out of reach for any Node design of this structure\)/);
  });
});
