#!/usr/bin/env node
'use strict';
// Runs Node's own child_process tests against the fastspawn package.
//
//   node scripts/node-suite/run.js DIR [--filter REGEX] [-j N] [--timeout S]
//                                      [--json FILE] [--only NAME,...]
//
// DIR is a directory of Node's tests (test/parallel of a Node checkout, with
// its test/common and test/fixtures beside it). Each test file whose name
// matches REGEX (default: child-process) runs twice, each in a fresh `node`
// with the flags of its `// Flags:` comment: once as is, once with hook.js in
// NODE_OPTIONS, which makes `require('child_process')` and
// `import 'node:child_process'` return this package in the test and in every
// Node process it starts (forked children included, unless the test clears
// their environment). Prints a Markdown table: how the test did with Node and
// with the package, and the first lines of a failure. A test that fails with
// Node itself here is out of scope. Node's tests are not in this repository:
// see the package README, "Checked against Node's own tests".

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const HOOK = path.join(__dirname, 'hook.js');
const PACKAGE_MAIN = path.resolve(__dirname, '..', '..', 'index.js');

function usage(message) {
  process.stderr.write(`node-suite: ${message}\n` +
    'usage: node scripts/node-suite/run.js DIR [--filter REGEX] [-j N] [--timeout S] [--json FILE] [--only NAME,...]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { dir: null, filter: /child-process/, jobs: 1, timeout: 60, json: null, only: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === '--filter') opts.filter = new RegExp(value());
    else if (arg === '-j' || arg === '--jobs') opts.jobs = Number(value());
    else if (arg === '--timeout') opts.timeout = Number(value());
    else if (arg === '--json') opts.json = value();
    else if (arg === '--only') opts.only = new Set(value().split(','));
    else if (arg.startsWith('-')) usage(`unknown option ${arg}`);
    else if (opts.dir === null) opts.dir = path.resolve(arg);
    else usage(`unexpected argument ${arg}`);
  }
  if (opts.dir === null) usage('no test directory given');
  if (!Number.isInteger(opts.jobs) || opts.jobs < 1) usage('-j takes a positive integer');
  if (!(opts.timeout > 0)) usage('--timeout takes a positive number of seconds');
  return opts;
}

// The flags Node's test runner (tools/test.py) passes: every `// Flags:` line.
function flagsOf(file) {
  const text = fs.readFileSync(file, 'utf8');
  const flags = [];
  for (const match of text.matchAll(/^\/\/ Flags:(.*)$/gm)) {
    flags.push(...match[1].trim().split(/\s+/).filter(Boolean));
  }
  return flags;
}

function withHook(env) {
  const options = env.NODE_OPTIONS ? `${env.NODE_OPTIONS} ` : '';
  return { ...env, NODE_OPTIONS: `${options}--require ${JSON.stringify(HOOK)}` };
}

// The hook must take effect, or every "package" column would be Node's:
// in the test (require and import) and in a Node child it starts.
function checkHook(cwd) {
  const main = JSON.stringify(PACKAGE_MAIN);
  const inChild = JSON.stringify(`process.exit(require('child_process') === require(${main}) ? 0 : 5)`);
  const script =
    `const cp = require('child_process');` +
    `if (cp !== require(${main}) || require('node:child_process') !== cp) process.exit(3);` +
    `import('node:child_process').then((m) => {` +
    `  if (m.spawn !== cp.spawn || m.default !== cp) process.exit(4);` +
    `  cp.spawn(process.execPath, ['-e', ${inChild}], { stdio: 'inherit' }).on('exit', (code) => process.exit(code));` +
    `});`;
  const result = spawnSync(process.execPath, ['-e', script], { cwd, env: withHook(process.env), encoding: 'utf8' });
  if (result.status !== 0) {
    process.stderr.write(`node-suite: the require hook (${HOOK}) did not replace child_process ` +
      `(exit ${result.status}, signal ${result.signal}):\n${result.stderr}`);
    process.exit(1);
  }
}

// The first lines of a failure: the error's own lines, without stack frames.
function firstLines(stderr, stdout) {
  const lines = `${stderr}\n${stdout}`.split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '' && !/^\s+at /.test(line) && !/^node:internal/.test(line) &&
      !/^\s*\^+\s*$/.test(line) && !/^Node\.js v\d/.test(line));
  const start = lines.findIndex((line) => /Error|assert|Assert|Mismatched|expected|failed/i.test(line));
  return lines.slice(start < 0 ? 0 : start, (start < 0 ? 0 : start) + 3).join(' / ');
}

// The process groups of the tests running now: killed if the runner is
// interrupted, so that no test outlives it.
const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const pid of running) {
      try { process.kill(-pid, 'SIGKILL'); } catch { /* gone */ }
    }
    process.exit(130);
  });
}

function runOnce(file, side, opts, cwd) {
  const args = [...flagsOf(file), file];
  const env = side === 'package' ? withHook(process.env) : { ...process.env };
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => { if (stdout.length < 1e6) stdout += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk) => { if (stderr.length < 1e6) stderr += chunk; });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    }, opts.timeout * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child.pid);
      // The test's process group: whatever it left running goes too.
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* none left */ }
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const skipped = /^1\.\.0 # Skipped: (.*)$/m.exec(stdout);
      let status;
      let detail = '';
      if (timedOut) {
        status = 'fail';
        detail = `timed out after ${opts.timeout} s; ${firstLines(stderr, stdout)}`;
      } else if (code === 0 && skipped) {
        status = 'skip';
        detail = skipped[1];
      } else if (code === 0) {
        status = 'pass';
      } else {
        status = 'fail';
        detail = `exit ${code}${signal ? ` (${signal})` : ''}: ${firstLines(stderr, stdout)}`;
      }
      resolve({ status, detail, ms: Math.round(ms) });
    });
  });
}

function verdict(node, pkg) {
  if (node.status === 'fail') return 'out of scope: fails with Node here';
  if (node.status === 'skip') return 'skipped by the test';
  if (pkg.status === 'pass') return 'same';
  if (pkg.status === 'skip') return 'skipped with the package only';
  return 'DIFFERS';
}

function cell(text) {
  return String(text).replace(/\|/g, '\\|').replace(/\s+/g, ' ').slice(0, 240);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!fs.statSync(opts.dir, { throwIfNoEntry: false })?.isDirectory()) usage(`${opts.dir} is not a directory`);
  const cwd = path.resolve(opts.dir, '..', '..');
  const files = fs.readdirSync(opts.dir)
    .filter((name) => /\.(c|m)?js$/.test(name) && opts.filter.test(name))
    .filter((name) => opts.only === null || opts.only.has(name))
    .sort();
  if (files.length === 0) usage(`no test in ${opts.dir} matches ${opts.filter}`);
  checkHook(cwd);

  const results = new Array(files.length);
  let next = 0;
  async function worker() {
    while (next < files.length) {
      const index = next++;
      const file = path.join(opts.dir, files[index]);
      // Node first, then the package, back to back.
      const node = await runOnce(file, 'node', opts, cwd);
      const pkg = await runOnce(file, 'package', opts, cwd);
      results[index] = { test: files[index], node, package: pkg, verdict: verdict(node, pkg) };
      process.stderr.write(`${files[index]}: node ${node.status}, package ${pkg.status}\n`);
    }
  }
  await Promise.all(Array.from({ length: Math.min(opts.jobs, files.length) }, worker));

  const out = [];
  out.push(`Node ${process.version}, ${files.length} tests from ${opts.dir}, ${new Date().toISOString()}`);
  out.push('');
  out.push('| test | Node | package | verdict | first lines of the failure |');
  out.push('| --- | --- | --- | --- | --- |');
  for (const r of results) {
    const detail = r.node.status !== 'pass' ? r.node.detail : r.package.detail;
    out.push(`| ${r.test} | ${r.node.status} | ${r.package.status} | ${r.verdict} | ${cell(detail)} |`);
  }
  const count = (v) => results.filter((r) => r.verdict === v).length;
  out.push('');
  out.push(`same: ${count('same')}, differs: ${count('DIFFERS')}, ` +
    `out of scope (fail with Node): ${count('out of scope: fails with Node here')}, ` +
    `skipped: ${count('skipped by the test') + count('skipped with the package only')}`);
  process.stdout.write(out.join('\n') + '\n');
  if (opts.json !== null) {
    fs.writeFileSync(opts.json, JSON.stringify({ node: process.version, dir: opts.dir, date: new Date().toISOString(), results }, null, 2));
  }
  process.exitCode = count('DIFFERS') === 0 ? 0 : 1;
}

main();
