/**
 * The downloads refresh against DynamoDB Local: new counts move packages in GET /v1/packages
 * without a rescan, trust is recomputed from the stored basis, the total stays exact, and a run
 * stopped early returns a cursor the next run goes on from.
 */
import { refreshDownloads } from '../../lambdas/scanner/downloads-refresh';
import type { WeeklyDownloads } from '../../lambdas/shared/downloads/weekly-downloads';
import { expectBody } from './support/contract';
import { scanRecord } from './support/factory';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;

const NAMES = ['left-pad', 'react', 'express', 'is-number', '@types/node', 'tiny-thing'];
const BASIS = {
  risk_input: { threats: [], install_scripts: [] },
  trust: { score: 50, reasons: [] },
  trust_input: {
    maintainers: 2,
    packageCreated: '2016-01-01T00:00:00.000Z',
    versionPublished: '2026-01-01T00:00:00.000Z',
    provenance: false,
  },
};

beforeAll(async () => {
  api = await startTestApi();
  // Stored before counts were known: all at the same (unknown) count.
  for (const name of NAMES) {
    await api.store.putScan(
      { ...scanRecord(name, { weeklyDownloads: 0 }), downloads_source: { kind: 'none', as_of: null } },
      { basis: BASIS },
    );
  }
  // A second stored version of one package: refreshed too, the list still shows the highest.
  await api.store.putScan(scanRecord('react', { version: '0.14.0', weeklyDownloads: 0 }), { basis: BASIS });
});
afterAll(async () => {
  await api?.stop();
});

const COUNTS: Record<string, number> = {
  'left-pad': 1_300_000,
  react: 88_000_000,
  express: 75_000_000,
  'is-number': 117_000_000,
  '@types/node': 258_000_000,
};

function fakeDownloads(calls: string[][]) {
  return {
    async weeklyMany(names: readonly string[]): Promise<Map<string, WeeklyDownloads>> {
      calls.push([...names]);
      return new Map(
        names.map((name): [string, WeeklyDownloads] => [
          name,
          COUNTS[name] === undefined
            ? { count: undefined, source: { kind: 'none', as_of: null }, unknownReason: 'not listed' }
            : { count: COUNTS[name]!, source: { kind: 'download-counts', as_of: '2026-03-01' } },
        ]),
      );
    },
  };
}

async function listNames(): Promise<string[]> {
  const page = expectBody(await api.get('/v1/packages?limit=100'), 200, 'PackageList');
  expect(page.total).toBe(NAMES.length);
  return page.packages.map((p) => p.name);
}

describe('downloads refresh', () => {
  it('stops between batches with a cursor, and the next run finishes from it', async () => {
    const calls: string[][] = [];
    const first = await refreshDownloads(
      {
        packages: api.store,
        downloads: fakeDownloads(calls),
        now: () => new Date('2026-11-25T00:00:00Z'),
        batchSize: 2,
        // Asked between batches: stop after the first.
        shouldStop: () => true,
      },
      undefined,
    );
    expect(first.cursor).toBe('express');
    expect(calls).toEqual([['@types/node', 'express']]);
    // The total stays exact while packages move.
    expect((await listNames()).slice(0, 2)).toEqual(['@types/node', 'express']);

    const rest = await refreshDownloads(
      { packages: api.store, downloads: fakeDownloads(calls), now: () => new Date('2026-11-25T00:00:00Z') },
      first.cursor,
    );
    expect(rest.cursor).toBeUndefined();
    expect(calls.slice(1).flat()).toEqual(['is-number', 'left-pad', 'react', 'tiny-thing']);
    expect(rest.unknown).toBe(1);
    expect(await listNames()).toEqual([
      '@types/node',
      'is-number',
      'react',
      'express',
      'left-pad',
      'tiny-thing',
    ]);
  });

  it('recomputes trust from the stored inputs, for every stored version, without a rescan', async () => {
    const react = expectBody(await api.get('/v1/packages/react'), 200, 'PackageResponse');
    const leftPad = expectBody(await api.get('/v1/packages/left-pad'), 200, 'PackageResponse');
    expect(react.weekly_downloads).toBe(88_000_000);
    expect(react.downloads_source).toEqual({ kind: 'download-counts', as_of: '2026-03-01' });
    expect(react.scanned_at).toBe(leftPad.scanned_at);
    expect(react.trust_score).toBeGreaterThan(leftPad.trust_score);
    expect(react.trust_components?.find((c) => c.name === 'downloads')?.why).toMatch(
      /88,000,000 downloads a week/,
    );
    const old = expectBody(await api.get('/v1/packages/react/0.14.0'), 200, 'PackageResponse');
    expect(old.weekly_downloads).toBe(88_000_000);
    // The package no source counts keeps its stored count.
    const tiny = expectBody(await api.get('/v1/packages/tiny-thing'), 200, 'PackageResponse');
    expect(tiny.weekly_downloads).toBe(0);
  });

  it('changes nothing on a second run with the same counts', async () => {
    const again = await refreshDownloads({
      packages: api.store,
      downloads: fakeDownloads([]),
      now: () => new Date('2026-11-25T00:00:00Z'),
    });
    expect(again).toMatchObject({ packages: NAMES.length, updated: 0, recounted: 0 });
  });
});
