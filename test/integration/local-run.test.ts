/**
 * `npm start` itself (local/main.ts) as a user runs it: it serves, stops cleanly on SIGTERM and
 * SIGINT without leaving DynamoDB Local behind, and keeps its data across a restart. Its first
 * start imports the advisories and scans the seed packages, here from the fake registry
 * (NPM_REGISTRY_URL, LOCAL_SEED_PACKAGES): no outside call.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { freePort, localDynamoClient } from '../../local/stand-ins';
import { PackageStore } from '../../lambdas/shared/store/package-store';
import { startFakeRegistry, type FakeRegistry } from '../support/fake-registry';
import { scanRecord } from './support/factory';

const REPO_ROOT = resolve(__dirname, '../..');
const START_TIMEOUT_MS = 60_000;

let dataDir: string;
let registry: FakeRegistry;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pkgscan-local-run-'));
  registry = await startFakeRegistry();
});
afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await registry?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function waitForStatus(url: string, status: number, timeoutMs = 30_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(url);
    if (response.status === status || Date.now() > deadline) return response;
    await new Promise((done) => setTimeout(done, 200));
  }
}

async function startMain(
  port: number,
  dynamoPort: number,
): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'local/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DYNAMODB_PORT: String(dynamoPort),
      LOCAL_DATA_DIR: dataDir,
      NPM_REGISTRY_URL: registry.url,
      DOWNLOADS_API_URL: registry.url,
      LOCAL_SEED_PACKAGES: 'left-pad,@tootallnate/once',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
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

function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((done) => child.once('exit', (code) => done(code)));
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

it(
  'serves, stops cleanly on SIGTERM and SIGINT, and keeps data across a restart',
  async () => {
    const [port, dynamoPort] = [await freePort(), await freePort()];
    const first = await startMain(port, dynamoPort);
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(await health.json()).toEqual({ status: 'ok' });

    // First start: the seed packages are scanned by the worker, after the advisory import.
    for (const path of ['left-pad', '%40tootallnate%2Fonce']) {
      const seeded = await waitForStatus(`http://127.0.0.1:${port}/v1/packages/${path}`, 200);
      expect(seeded.status).toBe(200);
    }
    expect(first.output()).toMatch(/advisories: imported \d+ OSV records/);
    expect(first.output()).toMatch(/first start: queued scans of 2 packages/);

    const client = localDynamoClient(`http://127.0.0.1:${dynamoPort}`);
    const store = new PackageStore(
      DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
      'pkgscan-Packages',
    );
    await store.putScan(scanRecord('@persist/me', { version: '4.2.0' }));
    client.destroy();
    expect((await fetch(`http://127.0.0.1:${port}/v1/packages/%40persist%2Fme`)).status).toBe(200);

    first.child.kill('SIGTERM');
    expect(await exitOf(first.child)).toBe(0);
    expect(await portOpen(dynamoPort)).toBe(false);
    expect(await portOpen(port)).toBe(false);

    const second = await startMain(port, dynamoPort);
    const again = await fetch(`http://127.0.0.1:${port}/v1/packages/%40persist%2Fme`);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { version: string }).version).toBe('4.2.0');
    // Not a first start: nothing is seeded or imported again; the seeded results are still there.
    expect((await fetch(`http://127.0.0.1:${port}/v1/packages/left-pad`)).status).toBe(200);
    expect(second.output()).not.toMatch(/first start|advisories: imported/);
    second.child.kill('SIGINT');
    expect(await exitOf(second.child)).toBe(0);
    expect(await portOpen(dynamoPort)).toBe(false);
  },
  3 * START_TIMEOUT_MS,
);
