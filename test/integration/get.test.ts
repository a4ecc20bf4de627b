/** GET /v1/packages/{name} and /v1/packages/{name}/{version}, scoped names included. */
import { expectBody, expectError } from './support/contract';
import { scanRecord } from './support/factory';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;

const NAME = 'express-like';
const SCOPED = '@acme/widget-kit';

beforeAll(async () => {
  api = await startTestApi();
  // Scanned out of order: 2.0.0 first, then an older 1.9.0 backport; latest stays 2.0.0.
  await api.store.putScan(scanRecord(NAME, { version: '1.0.0', scannedAt: '2026-09-01T00:00:00.000Z' }), {
    distTags: ['latest'],
  });
  await api.store.putScan(
    scanRecord(NAME, { version: '2.0.0', risk: 'warning', scannedAt: '2026-10-01T00:00:00.000Z' }),
    { distTags: ['latest'] },
  );
  await api.store.putScan(scanRecord(NAME, { version: '1.9.0', scannedAt: '2026-11-01T00:00:00.000Z' }), {
    distTags: ['legacy'],
  });
  await api.store.putScan(scanRecord(SCOPED, { version: '0.3.1', risk: 'critical' }), {
    distTags: ['latest'],
  });
  await api.store.putScan(scanRecord(SCOPED, { version: '0.10.0' }), { distTags: ['latest'] });
}, 120_000);
afterAll(async () => {
  await api?.stop();
});

describe('GET /v1/packages/{name}', () => {
  it('returns the full record of the highest semver version, not the most recent scan', async () => {
    const pkg = expectBody(await api.get(`/v1/packages/${NAME}`), 200, 'PackageResponse');
    expect(pkg.version).toBe('2.0.0');
    expect(pkg).toEqual(
      scanRecord(NAME, { version: '2.0.0', risk: 'warning', scannedAt: '2026-10-01T00:00:00.000Z' }),
    );
  });

  it('compares versions as semver (0.10.0 is above 0.3.1)', async () => {
    const pkg = expectBody(await api.get('/v1/packages/%40acme%2Fwidget-kit'), 200, 'PackageResponse');
    expect(pkg).toMatchObject({ name: SCOPED, version: '0.10.0', risk_level: 'clean' });
  });

  it.each([
    ['%40acme%2Fwidget-kit', 'fully encoded'],
    ['@acme%2Fwidget-kit', 'with a literal @'],
    ['%40acme%2fwidget-kit', 'with a lower-case %2f'],
  ])('finds a scoped package by %s (%s)', async (encoded) => {
    const pkg = expectBody(await api.get(`/v1/packages/${encoded}`), 200, 'PackageResponse');
    expect(pkg.name).toBe(SCOPED);
  });

  it('is 404 {error} for an unknown package, plain and scoped', async () => {
    const plain = expectError(await api.get('/v1/packages/no-such-package'), 404);
    expect(plain).toContain('no-such-package');
    const scoped = expectError(await api.get('/v1/packages/%40nobody%2Fnothing'), 404);
    expect(scoped).toContain('@nobody/nothing');
    expectError(await api.get('/v1/packages/@nobody%2Fnothing'), 404);
  });

  it.each([
    ['a space', 'bad%20name'],
    ['a leading dot', '.hidden'],
    ['a leading underscore', '_private'],
    ['broken percent-encoding', '%E0%A4%A'],
    ['a scope without a name', '%40acme%2F'],
  ])('is 400 {error} for a name with %s', async (_what, raw) => {
    expectError(await api.get(`/v1/packages/${raw}`), 400, /name/);
  });
});

describe('GET /v1/packages/{name}/{version}', () => {
  it('returns the scan of an exact version', async () => {
    const pkg = expectBody(await api.get(`/v1/packages/${NAME}/1.9.0`), 200, 'PackageResponse');
    expect(pkg).toEqual(scanRecord(NAME, { version: '1.9.0', scannedAt: '2026-11-01T00:00:00.000Z' }));
    const older = expectBody(await api.get(`/v1/packages/${NAME}/1.0.0`), 200, 'PackageResponse');
    expect(older.version).toBe('1.0.0');
  });

  it('resolves the dist-tag latest as recorded at scan time', async () => {
    expect(expectBody(await api.get(`/v1/packages/${NAME}/latest`), 200, 'PackageResponse').version).toBe(
      '2.0.0',
    );
    expect(expectBody(await api.get(`/v1/packages/${NAME}/legacy`), 200, 'PackageResponse').version).toBe(
      '1.9.0',
    );
  });

  it('works with scoped names in both encodings', async () => {
    for (const encoded of ['%40acme%2Fwidget-kit', '@acme%2Fwidget-kit']) {
      const pkg = expectBody(await api.get(`/v1/packages/${encoded}/0.3.1`), 200, 'PackageResponse');
      expect(pkg).toMatchObject({ name: SCOPED, version: '0.3.1', risk_level: 'critical' });
      const latest = expectBody(await api.get(`/v1/packages/${encoded}/latest`), 200, 'PackageResponse');
      expect(latest.version).toBe('0.10.0');
    }
  });

  it('tells an unknown package from a known package at an unscanned version', async () => {
    const unknownPackage = expectError(await api.get('/v1/packages/no-such-package/1.0.0'), 404);
    const unknownVersion = expectError(await api.get(`/v1/packages/${NAME}/3.0.0`), 404);
    const unknownTag = expectError(await api.get(`/v1/packages/${NAME}/next`), 404);
    expect(unknownVersion).not.toEqual(unknownPackage);
    expect(unknownVersion).toContain('3.0.0');
    expect(unknownTag).toContain('next');
    expect(expectError(await api.get('/v1/packages/%40nobody%2Fnothing/1.0.0'), 404)).toEqual(
      expectError(await api.get('/v1/packages/%40nobody%2Fnothing'), 404),
    );
  });

  it.each([
    ['an incomplete version', '1.0'],
    ['a range', '%5E1.0.0'],
    ['a wildcard', '1.x'],
    ['junk', '%3C%3E'],
  ])('is 400 {error} for %s', async (_what, version) => {
    expectError(await api.get(`/v1/packages/${NAME}/${version}`), 400, /version/);
  });
});
