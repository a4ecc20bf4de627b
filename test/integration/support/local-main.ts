/**
 * `npm start` (local/main.ts) as a child process, the way a user runs it, for the tests that
 * start, stop, kill and restart the whole local service (local-run.test.ts, local-restart.test.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { resolve } from 'node:path';

const REPO_ROOT = resolve(__dirname, '../../..');
export const START_TIMEOUT_MS = 60_000;

export interface LocalMain {
  readonly child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
}

const started: ChildProcess[] = [];

/**
 * Starts local/main.ts with `env` on top of this process's environment and resolves once it
 * says it serves (rejects with its output if it exits or is not ready in time).
 */
export async function startMain(env: Record<string, string>): Promise<LocalMain> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'local/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((done, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start not ready:\n${output}`)), START_TIMEOUT_MS);
    const check = (): void => {
      if (output.includes('pkgscan API on http://localhost:')) {
        clearTimeout(timer);
        done();
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${output}`));
    });
  });
  return { child, output: () => output };
}

/** Kills (SIGKILL) every child startMain started that is still running: for afterAll. */
export function killStartedMains(): void {
  for (const child of started)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** The exit code (null when killed by a signal). */
export function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((done) => child.once('exit', (code) => done(code)));
}

export function portOpen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/** Polls `url` until it answers `status` (or the time is up: the last response is returned). */
export async function waitForStatus(url: string, status: number, timeoutMs = 30_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(url);
    if (response.status === status || Date.now() > deadline) return response;
    await new Promise((done) => setTimeout(done, 200));
  }
}
