'use strict';
// Packaging (lib/prebuilt.js, scripts/check-*.js): which addon is loaded,
// the error where none is, and the prepack checks that keep a tarball from
// shipping without a usable addon.

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { locate, platform, PREBUILT } = require('../lib/prebuilt');
const prebuilt = require('../scripts/check-prebuilt');
const mainPackage = require('../scripts/check-package');

function tempDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'fastspawn-prebuilt-'));
}

function withoutEnv(fn) {
  const saved = process.env.FASTSPAWN_NODE_ADDON;
  delete process.env.FASTSPAWN_NODE_ADDON;
  try {
    return fn();
  } finally {
    if (saved !== undefined) process.env.FASTSPAWN_NODE_ADDON = saved;
  }
}

describe('choosing the addon', () => {
  it('names this platform as napi-rs does, and linux-x64-gnu is prebuilt', () => {
    assert.match(platform(), /^linux-(x64|arm64|ia32|arm|riscv64|s390x|ppc64|loong64)-(gnu|musl)$/);
    assert.ok(PREBUILT.includes('linux-x64-gnu'));
  });

  it('prefers $FASTSPAWN_NODE_ADDON, then a source build, then the platform package', () => {
    const root = tempDir();
    withoutEnv(() => {
      // Nothing installed: an error naming the package and the source build.
      const none = locate(root);
      assert.ok(none.error);
      if (PREBUILT.includes(platform())) {
        assert.match(none.error.message, new RegExp(`@fastspawn/${platform()} is not installed`));
      }
      assert.match(none.error.message, /build it from source .*make -C fastspawn\/bindings\/node build/);
      // The platform package, as npm lays it out.
      const pkgDir = path.join(root, 'node_modules', '@fastspawn', platform());
      fs.mkdirSync(pkgDir, { recursive: true });
      fs.writeFileSync(path.join(pkgDir, 'package.json'), JSON.stringify({ name: `@fastspawn/${platform()}` }));
      fs.writeFileSync(path.join(pkgDir, `fastspawn.${platform()}.node`), '');
      if (PREBUILT.includes(platform())) {
        assert.deepEqual(locate(root), {
          file: path.join(pkgDir, `fastspawn.${platform()}.node`),
          source: `@fastspawn/${platform()}`,
        });
      }
      // A build from source next to package.json wins over the package.
      fs.writeFileSync(path.join(root, 'fastspawn.node'), '');
      assert.deepEqual(locate(root), { file: path.join(root, 'fastspawn.node'), source: 'a build from source' });
    });
    process.env.FASTSPAWN_NODE_ADDON = '/elsewhere/x.node';
    try {
      assert.deepEqual(locate(root), { file: '/elsewhere/x.node', source: 'FASTSPAWN_NODE_ADDON' });
    } finally {
      delete process.env.FASTSPAWN_NODE_ADDON;
    }
    fs.rmSync(root, { recursive: true });
  });
});

describe('a platform without a prebuilt addon', () => {
  it('gets an error naming the platform, the prebuilt ones and the source build', () => {
    const arch = Object.getOwnPropertyDescriptor(process, 'arch');
    const root = tempDir();
    Object.defineProperty(process, 'arch', { value: 'riscv64', configurable: true });
    try {
      const { error } = withoutEnv(() => locate(root));
      assert.match(error.message, /^fastspawn: no prebuilt addon for linux-riscv64-(gnu|musl) \(prebuilt: linux-x64-gnu\); build it from source/);
      assert.match(error.message, /npm install \.\/fastspawn\/bindings\/node .* or set FASTSPAWN_NODE_ADDON=/);
    } finally {
      Object.defineProperty(process, 'arch', arch);
      fs.rmSync(root, { recursive: true });
    }
  });
});

describe('prepack checks', () => {
  it('refuse a platform package without its addon or licences, naming make dist', () => {
    const dir = tempDir();
    const problems = prebuilt.check('linux-x64-gnu', dir);
    assert.equal(problems.length, 3, problems.join('\n'));
    assert.match(problems[0], /fastspawn\.linux-x64-gnu\.node is missing: run `make dist`/);
    fs.rmSync(dir, { recursive: true });
  });

  it('refuse an addon with debug info and accept it stripped', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'a.c'), 'int answer(void) { return 42; }\n');
    const so = path.join(dir, 'fastspawn.linux-x64-gnu.node');
    execFileSync('gcc', ['-g', '-shared', '-fPIC', '-o', so, path.join(dir, 'a.c')]);
    for (const licence of ['LICENSE-MIT', 'LICENSE-APACHE']) fs.writeFileSync(path.join(dir, licence), '');
    const withDebug = prebuilt.check('linux-x64-gnu', dir);
    assert.equal(withDebug.length, 1);
    assert.match(withDebug[0], /has debug info \(.*\.debug_info/);
    execFileSync('strip', [so]);
    assert.deepEqual(prebuilt.check('linux-x64-gnu', dir), []);
    assert.ok(prebuilt.sections(fs.readFileSync(so)).includes('.text'));
    fs.rmSync(dir, { recursive: true });
  });

  it('refuse the main package without its platform packages, and accept the copy make dist packs', () => {
    const repo = path.join(__dirname, '..');
    const problems = mainPackage.check(repo);
    assert.equal(problems.length, 1);
    assert.match(problems[0], /would install without its native addon.*make dist/);
    // The staged copy: the same package.json with the optional dependencies.
    const stage = tempDir();
    const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
    pkg.optionalDependencies = { '@fastspawn/linux-x64-gnu': pkg.version };
    fs.writeFileSync(path.join(stage, 'package.json'), JSON.stringify(pkg));
    fs.mkdirSync(path.join(stage, 'npm', 'linux-x64-gnu'), { recursive: true });
    fs.copyFileSync(
      path.join(repo, 'npm', 'linux-x64-gnu', 'package.json'),
      path.join(stage, 'npm', 'linux-x64-gnu', 'package.json'),
    );
    assert.deepEqual(mainPackage.check(stage), []);
    pkg.optionalDependencies['@fastspawn/linux-x64-gnu'] = '0.0.1';
    fs.writeFileSync(path.join(stage, 'package.json'), JSON.stringify(pkg));
    assert.match(mainPackage.check(stage).join('\n'), /is 0\.0\.1, expected/);
    fs.rmSync(stage, { recursive: true });
  });
});
