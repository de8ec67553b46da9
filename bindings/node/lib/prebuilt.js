'use strict';
// Which native addon to load, the way napi-rs packages do it: the `fastspawn`
// package is JavaScript only, and one package per platform
// (`@fastspawn/linux-x64-gnu`, an optional dependency whose `os`, `cpu` and
// `libc` fields let npm install it only where it runs) holds the prebuilt,
// stripped addon.
//
// Looked for, in order:
//   1. $FASTSPAWN_NODE_ADDON, a path to any build of the addon;
//   2. fastspawn.node next to package.json: a build from source
//      (`make -C bindings/node build` in the repository);
//   3. the platform package for this process's platform.
// If none is there, the error says what the platform is, which platforms
// have a prebuilt addon, and how to build one from source.

const fs = require('node:fs');
const path = require('node:path');

const SCOPE = '@fastspawn';
// Platforms with a prebuilt addon (an npm/<platform>/ package each).
const PREBUILT = ['linux-x64-gnu'];
const SOURCE_BUILD =
  'build it from source (needs Rust >= 1.88 and gcc): ' +
  'git clone https://github.com/fastspawn/fastspawn && make -C fastspawn/bindings/node build, ' +
  'then npm install ./fastspawn/bindings/node (it loads the fastspawn.node built there) ' +
  'or set FASTSPAWN_NODE_ADDON=$PWD/fastspawn/bindings/node/fastspawn.node';

// glibc or musl: what the C library of this process is (napi-rs's rule:
// Node's report names the glibc it runs on; a musl Node has none).
function libc() {
  if (process.platform !== 'linux') return null;
  try {
    const header = process.report && process.report.getReport().header;
    if (header && header.glibcVersionRuntime) return 'gnu';
    if (header) return 'musl';
  } catch {
    // Bun and Deno may not implement process.report: look at the loader.
  }
  const musl = [`/lib/ld-musl-${process.arch === 'x64' ? 'x86_64' : process.arch}.so.1`];
  return musl.some((f) => fs.existsSync(f)) ? 'musl' : 'gnu';
}

// `linux-x64-gnu`, `linux-arm64-musl`, `darwin-arm64`...
function platform() {
  const c = libc();
  return [process.platform, process.arch, c].filter(Boolean).join('-');
}

// The addon's path, or an Error explaining why there is none.
function locate(root = path.join(__dirname, '..')) {
  const env = process.env.FASTSPAWN_NODE_ADDON;
  if (env) return { file: env, source: 'FASTSPAWN_NODE_ADDON' };
  const local = path.join(root, 'fastspawn.node');
  if (fs.existsSync(local)) return { file: local, source: 'a build from source' };
  const name = platform();
  const pkg = `${SCOPE}/${name}`;
  if (!PREBUILT.includes(name)) {
    return {
      error: new Error(
        `fastspawn: no prebuilt addon for ${name} (prebuilt: ${PREBUILT.join(', ')}); ${SOURCE_BUILD}`,
      ),
    };
  }
  try {
    return { file: require.resolve(`${pkg}/fastspawn.${name}.node`, { paths: [root] }), source: pkg };
  } catch {
    return {
      error: new Error(
        `fastspawn: the prebuilt addon package ${pkg} is not installed (it is an optional dependency: ` +
          `reinstall without --no-optional/--omit=optional, or npm install ${pkg}); or ${SOURCE_BUILD}`,
      ),
    };
  }
}

module.exports = { locate, platform, PREBUILT, SCOPE };
