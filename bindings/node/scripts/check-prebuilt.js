'use strict';
// prepack of a platform package (npm/<platform>/): refuses to pack without
// the addon, or with one that still carries debug info, so that no tarball
// without a working addon is ever made. `make dist` (scripts/pack.sh at the
// repository root) copies a stripped release build in first.
//
// Usage (from npm/<platform>/): node ../../scripts/check-prebuilt.js <platform>

const fs = require('node:fs');

// Section names of an ELF64 little-endian file.
function sections(buf) {
  if (buf.readUInt32BE(0) !== 0x7f454c46 || buf[4] !== 2 || buf[5] !== 1) {
    throw new Error('not an ELF64 little-endian file');
  }
  const shoff = Number(buf.readBigUInt64LE(0x28));
  const shentsize = buf.readUInt16LE(0x3a);
  const shnum = buf.readUInt16LE(0x3c);
  const shstrndx = buf.readUInt16LE(0x3e);
  const header = (i) => shoff + i * shentsize;
  const strtab = Number(buf.readBigUInt64LE(header(shstrndx) + 0x18));
  const names = [];
  for (let i = 0; i < shnum; i++) {
    const start = strtab + buf.readUInt32LE(header(i));
    names.push(buf.toString('latin1', start, buf.indexOf(0, start)));
  }
  return names;
}

function check(platform, dir = process.cwd()) {
  const file = `fastspawn.${platform}.node`;
  const problems = [];
  if (!fs.existsSync(`${dir}/${file}`)) {
    problems.push(`${file} is missing: run \`make dist\` at the repository root, which builds it and packs this package`);
  } else {
    const debug = sections(fs.readFileSync(`${dir}/${file}`)).filter((s) => s.startsWith('.debug_'));
    if (debug.length > 0) problems.push(`${file} has debug info (${debug.join(', ')}): make dist builds it stripped`);
  }
  for (const licence of ['LICENSE-MIT', 'LICENSE-APACHE']) {
    if (!fs.existsSync(`${dir}/${licence}`)) problems.push(`${licence} is missing (make dist copies it)`);
  }
  return problems;
}

if (require.main === module) {
  const problems = check(process.argv[2]);
  if (problems.length > 0) {
    for (const p of problems) console.error(`npm pack refused: ${p}`);
    process.exit(1);
  }
}

module.exports = { check, sections };
