// Type declarations for the fastspawn npm package: the node:child_process
// surface it implements (spawn, execFile, exec, fork, ChildProcess, and the
// synchronous functions, whose API is Node's: their declarations are
// Node's, re-exported).

/// <reference types="node" />

import type { EventEmitter } from 'node:events';
import type { Readable, Stream, Writable } from 'node:stream';
import type {
  ExecException,
  ExecFileOptions,
  ExecOptions,
  Serializable,
  SendHandle,
  MessageOptions,
  StdioNull,
  StdioPipe,
} from 'node:child_process';

export {
  execFileSync,
  execSync,
  spawnSync,
  ExecException,
  ExecFileOptions,
  ExecOptions,
} from 'node:child_process';

/**
 * One entry of `options.stdio`: a stream counts if it has an fd or an
 * underlying handle (another child's stdout, a net.Socket). At most one
 * `'ipc'`.
 */
export type StdioEntry =
  | 'pipe'
  | 'overlapped'
  | 'ignore'
  | 'inherit'
  | 'ipc'
  | number
  | Stream
  | { fd: number }
  | null
  | undefined;

/** fastspawn's own option, also taken by execFile() and exec(). */
export interface TreeOptions {
  /** See `SpawnOptions.contain`. */
  contain?: boolean | undefined;
  /** See `SpawnOptions.pipeAs`. */
  pipeAs?: 'socket' | 'readable' | undefined;
}

export interface SpawnOptions {
  cwd?: string | URL | Buffer | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  argv0?: string | undefined;
  stdio?: 'pipe' | 'overlapped' | 'ignore' | 'inherit' | StdioEntry[] | undefined;
  /** The child leads a new session (setsid). */
  detached?: boolean | undefined;
  /**
   * fastspawn only: the child starts in a cgroup of its own (the session
   * fallback without a writable cgroup v2), so `killTree()` and
   * `waitTree()` reach everything it starts, daemons included.
   */
  contain?: boolean | undefined;
  /**
   * fastspawn only: what a piped stdout and stderr are. `'socket'` (the
   * default): a `net.Socket` over the pipe, as Node's. `'readable'`: a
   * plain `stream.Readable` fed by the addon's waiter thread (no handle,
   * no fd; cheaper for short children; README, "pipeAs").
   */
  pipeAs?: 'socket' | 'readable' | undefined;
  uid?: number | undefined;
  gid?: number | undefined;
  /** `true` runs the command with `/bin/sh -c`; a string names the shell. */
  shell?: boolean | string | undefined;
  signal?: AbortSignal | undefined;
  /** Milliseconds after which the child gets `killSignal`. */
  timeout?: number | undefined;
  killSignal?: NodeJS.Signals | number | undefined;
  /** Accepted and ignored (Linux only). */
  windowsHide?: boolean | undefined;
  /** Accepted and ignored (Linux only). */
  windowsVerbatimArguments?: boolean | undefined;
  /** The IPC channel's format, with an `'ipc'` entry in `stdio`. */
  serialization?: 'json' | 'advanced' | undefined;
}

export interface ForkOptions extends Omit<SpawnOptions, 'shell'> {
  /** The Node binary to run (default `process.execPath`). */
  execPath?: string | undefined;
  /** Its options (default `process.execArgv`). */
  execArgv?: string[] | undefined;
  /** Pipe the child's stdin, stdout and stderr instead of inheriting them. */
  silent?: boolean | undefined;
}

/**
 * A child process, with node:child_process's ChildProcess semantics.
 *
 * `pid` is known once a spawner thread has started the child; reading it
 * before then waits for that (tens of microseconds). It is `undefined` when
 * the spawn failed.
 */
export class ChildProcess extends EventEmitter {
  stdin: Writable | null;
  stdout: Readable | null;
  stderr: Readable | null;
  readonly stdio: Array<Readable | Writable | null>;
  readonly pid?: number | undefined;
  readonly killed: boolean;
  /** Whether the IPC channel is open (children with an `'ipc'` entry). */
  readonly connected: boolean;
  /** The IPC channel's control object, or null/undefined. */
  readonly channel?: { ref(): void; unref(): void; readonly fd: number | undefined } | null | undefined;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  readonly spawnfile: string;
  readonly spawnargs: string[];
  /** Sends a signal through the child's pidfd; true if it was sent. */
  kill(signal?: NodeJS.Signals | number): boolean;
  /**
   * fastspawn only, `contain: true`: signals every process of the child's
   * tree (default `'SIGTERM'`), before or after the child's own exit; false
   * once the tree is over. Throws `ERR_FASTSPAWN_NOT_CONTAINED` without
   * `contain`.
   */
  killTree(signal?: NodeJS.Signals | number): boolean;
  /**
   * fastspawn only, `contain: true`: resolves once the child and every
   * process of its tree have exited (keeping the event loop alive until
   * then); rejects with the spawn's error if it failed, or
   * `ERR_FASTSPAWN_NOT_CONTAINED` without `contain`.
   */
  waitTree(): Promise<void>;
  ref(): void;
  unref(): void;
  /**
   * Sends a message over the IPC channel (children with an `'ipc'` entry);
   * false when the write queue is full. A `sendHandle` may be a net.Server,
   * a net.Socket or a dgram.Socket, as with Node (a dgram socket whose
   * native handle cannot be found throws `ERR_FASTSPAWN_IPC_HANDLE_UNSUPPORTED`).
   */
  send?(message: Serializable, callback?: (error: Error | null) => void): boolean;
  send?(message: Serializable, sendHandle?: SendHandle, options?: MessageOptions, callback?: (error: Error | null) => void): boolean;
  /** Closes the IPC channel ('disconnect' follows). */
  disconnect?(): void;

  on(event: 'spawn', listener: () => void): this;
  on(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  on(event: 'close', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  on(event: 'error', listener: (err: Error) => void): this;
  on(event: 'message', listener: (message: Serializable, sendHandle: SendHandle) => void): this;
  on(event: 'disconnect', listener: () => void): this;
  on(event: string | symbol, listener: (...args: any[]) => void): this;
  once(event: 'spawn', listener: () => void): this;
  once(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  once(event: 'close', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  once(event: 'error', listener: (err: Error) => void): this;
  once(event: 'message', listener: (message: Serializable, sendHandle: SendHandle) => void): this;
  once(event: 'disconnect', listener: () => void): this;
  once(event: string | symbol, listener: (...args: any[]) => void): this;
}

export interface ChildProcessWithoutNullStreams extends ChildProcess {
  stdin: Writable;
  stdout: Readable;
  stderr: Readable;
}

export interface SpawnOptionsWithStdioTuple<Stdin extends StdioNull | StdioPipe, Stdout extends StdioNull | StdioPipe, Stderr extends StdioNull | StdioPipe>
  extends SpawnOptions {
  stdio: [Stdin, Stdout, Stderr];
}

export function spawn(command: string, options?: SpawnOptions & { stdio?: 'pipe' | 'overlapped' | undefined }): ChildProcessWithoutNullStreams;
export function spawn(command: string, args?: readonly string[], options?: SpawnOptions & { stdio?: 'pipe' | 'overlapped' | undefined }): ChildProcessWithoutNullStreams;
export function spawn(command: string, options: SpawnOptions): ChildProcess;
export function spawn(command: string, args: readonly string[], options: SpawnOptions): ChildProcess;

/** Runs a Node module in a new Node process with an IPC channel, started without fork(). */
/** The coalesced delivery of `setDelivery()`: `within` µs (0: off), `count` records. */
export interface DeliveryOptions {
  within?: number | undefined;
  count?: number | undefined;
}

/**
 * fastspawn only, process-wide: while other children of the process run,
 * a child's events may come up to `within` µs late (at most 100,000; 0,
 * the default, turns it off), or once `count` records wait (default 64);
 * a lone child's are not delayed. Returns the previous setting.
 */
export function setDelivery(options: DeliveryOptions): Required<DeliveryOptions>;

export function fork(modulePath: string | URL, options?: ForkOptions): ChildProcess;
export function fork(modulePath: string | URL, args?: readonly string[], options?: ForkOptions): ChildProcess;

type ExecCallback<T> = (error: ExecException | null, stdout: T, stderr: T) => void;

export function execFile(file: string, callback?: ExecCallback<string>): ChildProcess;
export function execFile(file: string, args: readonly string[] | undefined | null, callback?: ExecCallback<string>): ChildProcess;
export function execFile(file: string, options: ExecFileOptions & TreeOptions & { encoding: 'buffer' | null }, callback?: ExecCallback<Buffer>): ChildProcess;
export function execFile(
  file: string,
  args: readonly string[] | undefined | null,
  options: ExecFileOptions & TreeOptions & { encoding: 'buffer' | null },
  callback?: ExecCallback<Buffer>,
): ChildProcess;
export function execFile(file: string, options: ExecFileOptions & TreeOptions & { encoding?: BufferEncoding | undefined }, callback?: ExecCallback<string>): ChildProcess;
export function execFile(
  file: string,
  args: readonly string[] | undefined | null,
  options: ExecFileOptions & TreeOptions & { encoding?: BufferEncoding | undefined },
  callback?: ExecCallback<string>,
): ChildProcess;
export namespace execFile {
  function __promisify__(file: string, args?: readonly string[] | null, options?: ExecFileOptions & TreeOptions & { encoding?: BufferEncoding }): PromiseWithChild<{ stdout: string; stderr: string }>;
  function __promisify__(file: string, args: readonly string[] | null | undefined, options: ExecFileOptions & TreeOptions & { encoding: 'buffer' | null }): PromiseWithChild<{ stdout: Buffer; stderr: Buffer }>;
}

export function exec(command: string, callback?: ExecCallback<string>): ChildProcess;
export function exec(command: string, options: ExecOptions & TreeOptions & { encoding: 'buffer' | null }, callback?: ExecCallback<Buffer>): ChildProcess;
export function exec(command: string, options: ExecOptions & TreeOptions & { encoding?: BufferEncoding | undefined }, callback?: ExecCallback<string>): ChildProcess;
export namespace exec {
  function __promisify__(command: string, options?: ExecOptions & TreeOptions & { encoding?: BufferEncoding }): PromiseWithChild<{ stdout: string; stderr: string }>;
  function __promisify__(command: string, options: ExecOptions & TreeOptions & { encoding: 'buffer' | null }): PromiseWithChild<{ stdout: Buffer; stderr: Buffer }>;
}

export interface PromiseWithChild<T> extends Promise<T> {
  child: ChildProcess;
}
