/**
 * Weekly downloads: the live path through query-registry against a local fake of the
 * download-count API (single and bulk forms), the offline table when the service is unreachable
 * or has no count, and the pause after a failure. No outside call.
 */
import { DownloadSnapshot, encodeSnapshot } from '../../../lambdas/shared/downloads/snapshot';
import {
  queryRegistryLive,
  WeeklyDownloadsClient,
  type LiveDownloads,
} from '../../../lambdas/shared/downloads/weekly-downloads';
import { pkgJson, tgz } from '../analysis/helpers';
import { startFakeRegistry, type FakeRegistry } from '../../support/fake-registry';

let registry: FakeRegistry;

const snapshot = DownloadSnapshot.fromBuffer(
  encodeSnapshot(
    [
      ['left-pad', 4_000_000],
      ['offline-only', 2_800],
      ['@scope/thing', 28],
    ],
    { source: 'download-counts', version: '2.20260301.0', as_of: '2026-03-01', period_days: 28 },
  ),
);

beforeAll(async () => {
  registry = await startFakeRegistry();
  for (const name of ['bulk-a', 'bulk-b', '@scope/thing']) {
    registry.addPackage(name, '1.0.0', tgz([pkgJson({ name, version: '1.0.0' })]));
  }
  registry.setDownloads('bulk-a', 10);
  registry.setDownloads('bulk-b', 20);
  registry.setDownloads('@scope/thing', 30);
});
afterAll(() => registry.close());

describe('live counts from the download-count API (local fake)', () => {
  it("gives last week's count with the day it ends", async () => {
    const client = new WeeklyDownloadsClient({ live: queryRegistryLive(registry.url), snapshot });
    await expect(client.weekly('left-pad')).resolves.toEqual({
      count: 1_000_000,
      source: { kind: 'download-api', as_of: '2026-11-20' },
    });
    expect(registry.requests).toContain('GET /downloads/point/last-week/left-pad');
  });

  it('asks for unscoped names in bulk and for scoped names one by one', async () => {
    const client = new WeeklyDownloadsClient({ live: queryRegistryLive(registry.url), snapshot });
    const before = registry.requests.length;
    const counts = await client.weeklyMany(['bulk-a', 'bulk-b', '@scope/thing', 'bulk-a']);
    expect(Object.fromEntries([...counts].map(([name, c]) => [name, c.count]))).toEqual({
      'bulk-a': 10,
      'bulk-b': 20,
      '@scope/thing': 30,
    });
    expect(registry.requests.slice(before)).toEqual([
      'GET /downloads/point/last-week/bulk-a,bulk-b',
      'GET /downloads/point/last-week/@scope/thing',
    ]);
  });

  it('falls back to the offline table for a package the service has no count for', async () => {
    const client = new WeeklyDownloadsClient({ live: queryRegistryLive(registry.url), snapshot });
    await expect(client.weekly('offline-only')).resolves.toEqual({
      count: 700,
      source: { kind: 'download-counts', as_of: '2026-03-01' },
    });
  });
});

describe('when the service cannot be reached', () => {
  it('uses the offline table, says so, and does not ask the service again for a while', async () => {
    let calls = 0;
    let now = 0;
    const unreachable: LiveDownloads = {
      one: async () => {
        calls++;
        throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } });
      },
      many: async () => {
        calls++;
        throw new TypeError('fetch failed');
      },
    };
    const client = new WeeklyDownloadsClient({
      live: unreachable,
      snapshot,
      retryLiveAfterMs: 60_000,
      now: () => now,
    });
    await expect(client.weekly('left-pad')).resolves.toEqual({
      count: 1_000_000,
      source: { kind: 'download-counts', as_of: '2026-03-01' },
    });
    await client.weekly('left-pad');
    await client.weeklyMany(['left-pad', 'offline-only']);
    expect(calls).toBe(1);
    const missing = await client.weekly('not-in-the-table');
    expect(missing).toMatchObject({ count: undefined, source: { kind: 'none', as_of: null } });
    expect(missing.unknownReason).toMatch(
      /not reachable \(ENOTFOUND\).*offline table of 2026-03-01 does not list/,
    );
    now = 61_000;
    await client.weekly('left-pad');
    expect(calls).toBe(2);
  });

  it('gives up on a service that does not answer within the time limit', async () => {
    const hanging: LiveDownloads = {
      one: () => new Promise(() => undefined),
      many: () => new Promise(() => undefined),
    };
    const client = new WeeklyDownloadsClient({ live: hanging, snapshot, timeoutMs: 50 });
    await expect(client.weekly('left-pad')).resolves.toMatchObject({ source: { kind: 'download-counts' } });
  });

  it('reports unknown, never zero, with neither a service nor a table', async () => {
    const result = await new WeeklyDownloadsClient({}).weekly('left-pad');
    expect(result.count).toBeUndefined();
    expect(result.unknownReason).toMatch(
      /no live download-count service is configured, and no offline table/,
    );
  });
});

describe('an offline table that cannot be opened', () => {
  it('says why in the reason instead of failing the scan', async () => {
    const client = new WeeklyDownloadsClient({
      snapshot: () => DownloadSnapshot.fromBuffer(Buffer.from('pkgscan-download-counts 1\n{}\n')),
    });
    const result = await client.weekly('left-pad');
    expect(result.count).toBeUndefined();
    expect(result.unknownReason).toMatch(/offline table could not be opened \(Not a download-count snapshot/);
  });
});
