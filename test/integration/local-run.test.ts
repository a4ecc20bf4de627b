/**
 * `npm start` itself (local/main.ts) as a user runs it: it serves, stops cleanly on SIGTERM and
 * SIGINT without leaving DynamoDB Local behind, and keeps its data across a restart. Its first
 * start imports the advisories and scans the seed packages, here from the fake registry
 * (NPM_REGISTRY_URL, LOCAL_SEED_PACKAGES): no outside call.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { freePort, localDynamoClient } from '../../local/stand-ins';
import { encodeSnapshot } from '../../lambdas/shared/downloads/snapshot';
import { PackageStore } from '../../lambdas/shared/store/package-store';
import { startFakeRegistry, type FakeRegistry } from '../support/fake-registry';
import { scanRecord } from './support/factory';
import {
  exitOf,
  killStartedMains,
  portOpen,
  START_TIMEOUT_MS,
  startMain as startLocalMain,
  waitForStatus,
} from './support/local-main';

let dataDir: string;
let tableFile: string;
let registry: FakeRegistry;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pkgscan-local-run-'));
  registry = await startFakeRegistry();
  // A small offline download table (the real one is made from the download-counts package).
  tableFile = join(dataDir, 'download-counts.pkdl');
  await writeFile(
    tableFile,
    encodeSnapshot(
      [
        ['is-number', 470_275_132],
        ['left-pad', 5_532_379],
        ['@tootallnate/once', 120_000],
      ],
      { source: 'download-counts', version: '2.20260301.0', as_of: '2026-03-01', period_days: 28 },
    ),
  );
});
afterAll(async () => {
  killStartedMains();
  await registry?.close();
  await rm(dataDir, { recursive: true, force: true });
});

function startMain(
  port: number,
  dynamoPort: number,
  env: Record<string, string> = {},
): ReturnType<typeof startLocalMain> {
  return startLocalMain({
    PORT: String(port),
    DYNAMODB_PORT: String(dynamoPort),
    LOCAL_DATA_DIR: dataDir,
    NPM_REGISTRY_URL: registry.url,
    DOWNLOADS_API_URL: registry.url,
    DOWNLOADS_SNAPSHOT_FILE: tableFile,
    LOCAL_SEED_PACKAGES: 'left-pad,@tootallnate/once',
    ...env,
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

it(
  'with no download-count service reachable, counts come from the offline table and order the list',
  async () => {
    const [port, dynamoPort, closed] = [await freePort(), await freePort(), await freePort()];
    const run = await startMain(port, dynamoPort, {
      LOCAL_DATA_DIR: await mkdtemp(join(tmpdir(), 'pkgscan-local-offline-')),
      // Nothing listens there: every live request fails.
      DOWNLOADS_API_URL: `http://127.0.0.1:${closed}`,
      LOCAL_SEED_PACKAGES: 'left-pad,is-number,@tootallnate/once',
    });
    for (const path of ['left-pad', 'is-number', '%40tootallnate%2Fonce']) {
      expect((await waitForStatus(`http://127.0.0.1:${port}/v1/packages/${path}`, 200)).status).toBe(200);
    }
    const list = (await (await fetch(`http://127.0.0.1:${port}/v1/packages`)).json()) as {
      packages: Array<{ name: string; weekly_downloads: number; trust_score: number }>;
    };
    expect(list.packages.map((p) => p.name)).toEqual(['is-number', 'left-pad', '@tootallnate/once']);
    for (const p of list.packages) expect(p.weekly_downloads).toBeGreaterThan(0);
    expect(new Set(list.packages.map((p) => p.trust_score)).size).toBeGreaterThan(1);
    const leftPad = (await (await fetch(`http://127.0.0.1:${port}/v1/packages/left-pad`)).json()) as {
      weekly_downloads: number;
      downloads_source: unknown;
    };
    // 5,532,379 in the table's 28 days is 1,383,095 a week.
    expect(leftPad).toMatchObject({
      weekly_downloads: 1_383_095,
      downloads_source: { kind: 'download-counts', as_of: '2026-03-01' },
    });
    run.child.kill('SIGTERM');
    expect(await exitOf(run.child)).toBe(0);
  },
  2 * START_TIMEOUT_MS,
);
