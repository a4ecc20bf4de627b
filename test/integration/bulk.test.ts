/** POST /v1/bulk: request order, duplicates, not-found entries, limits and validation. */
import { BulkNotFound, PackageResponse } from '../../src/contract/schemas';
import { expectBody, expectError } from './support/contract';
import { scanRecord } from './support/factory';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
  await api.store.putScan(scanRecord('react', { version: '18.2.0', weeklyDownloads: 25_000_000 }), {
    distTags: ['latest'],
  });
  await api.store.putScan(scanRecord('react', { version: '19.0.0', weeklyDownloads: 25_000_000 }), {
    distTags: ['latest', 'next'],
  });
  await api.store.putScan(scanRecord('@types/node', { version: '22.1.0', weeklyDownloads: 90_000_000 }));
  await api.store.bulkLoadNew(
    Array.from({ length: 60 }, (_, i) => scanRecord(`bulk-pkg-${i}`, { weeklyDownloads: 1_000 + i })),
  );
}, 120_000);
afterAll(async () => {
  await api?.stop();
});

const isFound = (entry: unknown): entry is PackageResponse => PackageResponse.safeParse(entry).success;

describe('POST /v1/bulk', () => {
  it('answers every item in request order, found ones as full records', async () => {
    const answer = expectBody(
      await api.postJson('/v1/bulk', {
        packages: [
          { name: '@types/node' },
          { name: 'react', version: '18.2.0' },
          { name: 'unknown-package' },
          { name: 'react' },
          { name: 'react', version: 'next', registry: 'npm' },
        ],
      }),
      200,
      'BulkResponse',
    );
    expect(answer).toHaveLength(5);
    expect(answer[0]).toEqual(scanRecord('@types/node', { version: '22.1.0', weeklyDownloads: 90_000_000 }));
    expect(answer[1]).toMatchObject({ name: 'react', version: '18.2.0', registry: 'npm' });
    expect(BulkNotFound.safeParse(answer[2]).success).toBe(true);
    expect(answer[3]).toMatchObject({ name: 'react', version: '19.0.0' });
    expect(answer[4]).toMatchObject({ name: 'react', version: '19.0.0' });
    expect([answer[0], answer[1], answer[3], answer[4]].every(isFound)).toBe(true);
  });

  it('answers duplicates each time', async () => {
    const answer = expectBody(
      await api.postJson('/v1/bulk', {
        packages: [
          { name: 'react' },
          { name: 'nope' },
          { name: 'react' },
          { name: 'nope' },
          { name: 'react' },
        ],
      }),
      200,
      'BulkResponse',
    );
    expect(answer).toHaveLength(5);
    expect(answer[0]).toEqual(answer[2]);
    expect(answer[2]).toEqual(answer[4]);
    expect(answer[1]).toEqual(answer[3]);
    expect(isFound(answer[0])).toBe(true);
  });

  it('answers unknown items with {name, version, registry, error}', async () => {
    const answer = expectBody(
      await api.postJson('/v1/bulk', {
        packages: [
          { name: 'unknown-a' },
          { name: '@nobody/nothing', version: '1.2.3' },
          { name: 'react', version: '0.0.1' },
          { name: 'unknown-b', version: 'beta', registry: 'npm' },
        ],
      }),
      200,
      'BulkResponse',
    );
    expect(answer).toHaveLength(4);
    for (const entry of answer) {
      const notFound = BulkNotFound.parse(entry);
      expect(Object.keys(notFound).sort()).toEqual(['error', 'name', 'registry', 'version']);
      expect(notFound.registry).toBe('npm');
      expect(notFound.error.length).toBeGreaterThan(0);
    }
    expect(answer.map((e) => [e.name, e.version])).toEqual([
      ['unknown-a', expect.any(String)],
      ['@nobody/nothing', '1.2.3'],
      ['react', '0.0.1'],
      ['unknown-b', 'beta'],
    ]);
  });

  it('answers 3 unknown items with 3 errors in request order', async () => {
    const names = ['zz-unknown-1', '@zz/unknown-2', 'zz-unknown-3'];
    const answer = expectBody(
      await api.postJson('/v1/bulk', { packages: names.map((name) => ({ name })) }),
      200,
      'BulkResponse',
    );
    expect(answer.map((entry) => entry.name)).toEqual(names);
    expect(answer.every((entry) => 'error' in entry)).toBe(true);
  });

  it('accepts 100 items and keeps their order', async () => {
    const packages = Array.from({ length: 100 }, (_, i) =>
      i % 3 === 2 ? { name: `missing-${i}` } : { name: `bulk-pkg-${i % 60}` },
    );
    const answer = expectBody(await api.postJson('/v1/bulk', { packages }), 200, 'BulkResponse');
    expect(answer.map((entry) => entry.name)).toEqual(packages.map((p) => p.name));
    answer.forEach((entry, i) => expect(isFound(entry)).toBe(i % 3 !== 2));
  });

  it.each([
    ['0 items', { packages: [] }, /packages/],
    ['101 items', { packages: Array.from({ length: 101 }, (_, i) => ({ name: `p-${i}` })) }, /packages/],
    ['packages not an array', { packages: 'react' }, /packages/],
    ['packages missing', {}, /packages/],
    ['a bare array', [{ name: 'react' }], /./],
    ['an item without name', { packages: [{ version: '1.0.0' }] }, /name/],
    ['an item that is not an object', { packages: ['react'] }, /packages/],
    ['an invalid name', { packages: [{ name: 'Bad Name!' }] }, /name/],
    ['an invalid scoped name', { packages: [{ name: '@scope/' }] }, /name/],
    ['an invalid version', { packages: [{ name: 'react', version: '^18' }] }, /version/],
    ['an unsupported registry', { packages: [{ name: 'react', registry: 'pypi' }] }, /npm/],
    ['an unknown field', { packages: [{ name: 'react', extra: true }] }, /./],
  ])('is 400 {error} for %s', async (_what, body, message) => {
    expectError(await api.postJson('/v1/bulk', body), 400, message);
  });

  it('is 400 {error} for a body that is not JSON, or none', async () => {
    expectError(await api.postJson('/v1/bulk', '{"packages": ['), 400, /JSON/);
    expectError(await api.request('/v1/bulk', { method: 'POST' }), 400);
  });
});
