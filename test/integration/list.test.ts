/** GET /v1/packages: order, paging, totals and parameter validation against DynamoDB Local. */
import type { PackageListItem, PackageResponse } from '../../src/contract/schemas';
import { expectBody, expectError } from './support/contract';
import { scanRecord } from './support/factory';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;

// 130 packages, downloads in tie groups of 3–4 (same downloads: ordered by name), some scoped,
// some risky; plus one package scanned at three versions that must appear once, at 2.0.0.
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
const records: PackageResponse[] = Array.from({ length: 130 }, (_, i) => {
  const word = WORDS[i % WORDS.length] ?? 'x';
  const name = i % 5 === 0 ? `@team-${i % 3}/${word}-${i}` : `${word}-kit-${i}`;
  return scanRecord(name, {
    weeklyDownloads: Math.floor(10_000_000 / (1 + (i % 40))),
    risk: i % 17 === 0 ? 'critical' : i % 7 === 0 ? 'warning' : 'clean',
  });
});
const MULTI = 'multi-version-pkg';
const multiVersions = [
  scanRecord(MULTI, { version: '1.0.0', weeklyDownloads: 2_500_000, scannedAt: '2026-10-01T00:00:00.000Z' }),
  scanRecord(MULTI, { version: '2.0.0', weeklyDownloads: 2_500_000, scannedAt: '2026-10-02T00:00:00.000Z' }),
  scanRecord(MULTI, { version: '1.5.0', weeklyDownloads: 2_500_000, scannedAt: '2026-10-03T00:00:00.000Z' }),
];

const TOTAL = records.length + 1;
const expectedOrder = [
  ...records.map((r) => ({ name: r.name, downloads: r.weekly_downloads })),
  { name: MULTI, downloads: 2_500_000 },
]
  .sort((a, b) => b.downloads - a.downloads || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  .map((r) => r.name);

beforeAll(async () => {
  api = await startTestApi();
  // Most rows through the store's batch loader (fast), the rest through the scanner's write
  // path: totals and order must come out the same whichever way a package was written.
  await api.store.bulkLoadNew(records.slice(0, 110));
  for (const record of records.slice(110)) await api.store.putScan(record);
  for (const version of multiVersions) await api.store.putScan(version);
}, 120_000);
afterAll(async () => {
  await api?.stop();
});

const names = (items: readonly PackageListItem[]): string[] => items.map((item) => item.name);

describe('list', () => {
  it('returns the first 50 by weekly downloads, descending, with the exact total', async () => {
    const list = expectBody(await api.get('/v1/packages'), 200, 'PackageList');
    expect(list.limit).toBe(50);
    expect(list.offset).toBe(0);
    expect(list.total).toBe(TOTAL);
    expect(names(list.packages)).toEqual(expectedOrder.slice(0, 50));
  });

  it('orders equal downloads by name, ascending', async () => {
    const list = expectBody(await api.get('/v1/packages?limit=100'), 200, 'PackageList');
    for (let i = 1; i < list.packages.length; i++) {
      const previous = list.packages[i - 1]!;
      const current = list.packages[i]!;
      expect(previous.weekly_downloads).toBeGreaterThanOrEqual(current.weekly_downloads);
      if (previous.weekly_downloads === current.weekly_downloads)
        expect(previous.name < current.name).toBe(true);
    }
  });

  it('pages through every package exactly once', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < TOTAL; offset += 30) {
      const page = expectBody(await api.get(`/v1/packages?limit=30&offset=${offset}`), 200, 'PackageList');
      expect(page).toMatchObject({ limit: 30, offset, total: TOTAL });
      seen.push(...names(page.packages));
    }
    expect(seen).toEqual(expectedOrder);
  });

  it('clamps limit to 100 and says so', async () => {
    const list = expectBody(await api.get('/v1/packages?limit=200'), 200, 'PackageList');
    expect(list.limit).toBe(100);
    expect(list.packages).toHaveLength(100);
    expect(names(list.packages)).toEqual(expectedOrder.slice(0, 100));
  });

  it('accepts limit=1 and limit=100', async () => {
    const one = expectBody(await api.get('/v1/packages?limit=1'), 200, 'PackageList');
    expect(names(one.packages)).toEqual(expectedOrder.slice(0, 1));
    const hundred = expectBody(await api.get('/v1/packages?limit=100&offset=100'), 200, 'PackageList');
    expect(names(hundred.packages)).toEqual(expectedOrder.slice(100));
  });

  it('returns the short last page and an empty page past the end', async () => {
    const last = expectBody(await api.get(`/v1/packages?limit=10&offset=${TOTAL - 3}`), 200, 'PackageList');
    expect(names(last.packages)).toEqual(expectedOrder.slice(TOTAL - 3));
    const atEnd = expectBody(await api.get(`/v1/packages?offset=${TOTAL}`), 200, 'PackageList');
    expect(atEnd).toEqual({ packages: [], total: TOTAL, limit: 50, offset: TOTAL });
    const far = expectBody(await api.get('/v1/packages?offset=5000&limit=5'), 200, 'PackageList');
    expect(far).toEqual({ packages: [], total: TOTAL, limit: 5, offset: 5000 });
  });

  it('lists a package scanned at several versions once, at its highest version', async () => {
    const list = expectBody(await api.get('/v1/packages?limit=100'), 200, 'PackageList');
    const rows = list.packages.filter((item) => item.name === MULTI);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.version).toBe('2.0.0');
  });

  it('derives list fields from the scan', async () => {
    const list = expectBody(await api.get('/v1/packages?limit=100'), 200, 'PackageList');
    const critical = records.find((r) => r.risk_level === 'critical')!;
    const row = list.packages.find((item) => item.name === critical.name);
    expect(row).toMatchObject({
      name: critical.name,
      version: critical.version,
      registry: 'npm',
      risk_level: 'critical',
      trust_score: critical.trust_score,
      weekly_downloads: critical.weekly_downloads,
      publisher_verified: critical.publisher.verified,
      cve_count: 1,
      threat_count: 1,
      scanned_at: critical.scanned_at,
    });
  });
});

describe('invalid list parameters are 400 {error} naming the parameter', () => {
  it.each([
    ['limit=abc', /limit/],
    ['limit=0', /limit/],
    ['limit=-1', /limit/],
    ['limit=10abc', /limit/],
    ['limit=1.5', /limit/],
    ['limit=', /limit/],
    ['limit=10&limit=20', /limit/],
    ['offset=abc', /offset/],
    ['offset=-1', /offset/],
    ['offset=1e3', /offset/],
    ['offset=5x', /offset/],
    ['offset=0&offset=10', /offset/],
  ])('?%s', async (query, message) => {
    expectError(await api.get(`/v1/packages?${query}`), 400, message);
  });
});
