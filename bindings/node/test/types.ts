// Type-checks index.d.ts against typical calls: `npm run typecheck`
// (Deno's bundled TypeScript with @types/node; part of `make check`).
import * as fsp from '../index.d.ts';
const c: fsp.ChildProcessWithoutNullStreams = fsp.spawn('echo', ['hi']);
c.stdout.on('data', (d: Buffer) => d.length);
c.on('exit', (code: number | null, signal: NodeJS.Signals | null) => [code, signal]);
const k: boolean = c.kill('SIGTERM');
const p: number | undefined = c.pid;
fsp.execFile('ls', ['-l'], { cwd: '/' }, (err, stdout: string, stderr: string) => [err, stdout, stderr]);
fsp.exec('ls', { encoding: 'buffer' }, (err, stdout: Buffer) => [err, stdout]);
fsp.spawn('x', [], { stdio: ['pipe', 'inherit', 3, 'ignore'], detached: true, uid: 1, timeout: 5, killSignal: 'SIGKILL' });
const f: fsp.ChildProcess = fsp.fork('worker.js', ['a'], { serialization: 'advanced', silent: true, execArgv: [] });
f.on('message', (m) => m);
const sent: boolean | undefined = f.send?.({ x: 1 }, (err) => err);
f.disconnect?.();
const connected: boolean = f.connected;
const t: fsp.ChildProcess = fsp.spawn('sh', ['-c', 'sleep 1 &'], { contain: true });
const killed: boolean = t.killTree('SIGKILL');
const ended: Promise<void> = t.waitTree();
fsp.execFile('sh', ['-c', 'true'], { contain: true }, (err, stdout: string) => [err, stdout]);
export { k, p, sent, connected, killed, ended };
