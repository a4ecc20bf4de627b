import { readFileSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { importOsv } from '../../../lambdas/advisories/importer';
import { MemoryAdvisoryStore } from '../../../lambdas/advisories/memory-store';
import type { OsvRecord } from '../../../lambdas/advisories/osv';
import { fetchOsvZip, openOsvSource, readOsvFolder } from '../../../lambdas/advisories/sources';
import { OSV_NPM_DIR, loadSharedRecords } from './support';
import { buildZip, type ZipInput } from './zip-writer';

const sharedFiles = readdirSync(OSV_NPM_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({ name: file, data: readFileSync(join(OSV_NPM_DIR, file)) }));
const sharedNames = new Set(loadSharedRecords().flatMap((r) => r.affected!.map((a) => a.package!.name)));

function record(id: string, name: string, modified: string, extra: Partial<OsvRecord> = {}): OsvRecord {
  return {
    id,
    modified,
    summary: `Test ${id}`,
    affected: [
      { package: { ecosystem: 'npm', name }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }] }] },
    ],
    ...extra,
  };
}

async function* entries(records: readonly (OsvRecord | string)[]) {
  let i = 0;
  for (const r of records)
    yield { path: `e${i++}.json`, text: typeof r === 'string' ? r : JSON.stringify(r) };
}

/** Serves `body` at /all.zip; `mode` cuts the body short in two ways a download can break. */
type Mode = 'full' | 'drop-connection' | 'short-chunked';
let server: Server;
let baseUrl: string;
let body: Buffer = Buffer.alloc(0);
let mode: Mode = 'full';
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    if (req.url !== '/all.zip') {
      res.writeHead(404).end();
      return;
    }
    const half = body.subarray(0, Math.floor(body.length / 2));
    if (mode === 'full') {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': body.length }).end(body);
    } else if (mode === 'drop-connection') {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': body.length });
      res.write(half, () => res.destroy());
    } else {
      res.writeHead(200, { 'content-type': 'application/zip' }).end(half); // chunked, no length
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  mode = 'full';
  requests = 0;
});

describe('importOsv from the repository folder', () => {
  it('imports every shared record, then finds them unchanged', async () => {
    const store = new MemoryAdvisoryStore();
    const first = await importOsv(readOsvFolder(OSV_NPM_DIR), store);
    expect(first).toMatchObject({
      entries: 312,
      added: 312,
      updated: 0,
      unchanged: 0,
      failed: 0,
      complete: true,
    });
    expect(first.changedPackages).toEqual(sharedNames);
    expect((await store.recordsFor('lodash')).map((r) => r.id).sort()).toEqual([
      'NSWG-ECO-368',
      'NSWG-ECO-493',
      'NSWG-ECO-516',
    ]);
    const second = await importOsv(readOsvFolder(OSV_NPM_DIR), store);
    expect(second).toMatchObject({ added: 0, updated: 0, unchanged: 312, removed: 0, complete: true });
    expect(second.changedPackages.size).toBe(0);
  });
});

describe('importOsv replace, withdraw and fan-out rules', () => {
  it('replaces a record only with a newer one and removes withdrawn records', async () => {
    const store = new MemoryAdvisoryStore();
    await importOsv(
      entries([record('GHSA-1', 'a', '2024-01-01T00:00:00Z'), record('GHSA-2', 'b', '2024-01-01T00:00:00Z')]),
      store,
    );
    const report = await importOsv(
      entries([
        record('GHSA-1', 'a', '2024-02-01T00:00:00.000Z', { summary: 'newer' }),
        record('GHSA-2', 'b', '2023-12-01T00:00:00Z', { summary: 'older' }),
        record('GHSA-3', 'c', '2024-03-01T00:00:00+01:00', { withdrawn: '2024-03-01T00:00:00Z' }),
      ]),
      store,
    );
    expect(report).toMatchObject({ added: 0, updated: 1, unchanged: 2, removed: 0 });
    expect([...report.changedPackages]).toEqual(['a']);
    expect((await store.recordsFor('a'))[0]?.summary).toBe('newer');
    expect((await store.recordsFor('b'))[0]?.summary).toBe('Test GHSA-2');

    const withdrawn = await importOsv(
      entries([record('GHSA-1', 'a', '2024-03-01T00:00:00Z', { withdrawn: '2024-03-01T00:00:00Z' })]),
      store,
    );
    expect(withdrawn).toMatchObject({ removed: 1 });
    expect(await store.recordsFor('a')).toEqual([]);
    expect([...withdrawn.changedPackages]).toEqual(['a']);
  });

  it('stores a record under each npm package it affects and ignores other ecosystems', async () => {
    const store = new MemoryAdvisoryStore();
    const two = record('GHSA-4', 'x', '2024-01-01T00:00:00Z');
    two.affected!.push(
      { package: { ecosystem: 'npm', name: '@scope/y' } },
      { package: { ecosystem: 'PyPI', name: 'z' } },
    );
    const pypiOnly = {
      ...record('PYSEC-1', 'z', '2024-01-01T00:00:00Z'),
      affected: [{ package: { ecosystem: 'PyPI', name: 'z' } }],
    };
    const report = await importOsv(entries([two, pypiOnly]), store);
    expect(report).toMatchObject({ added: 1, ignored: 1 });
    expect(store.size).toBe(2);
    expect((await store.recordsFor('@scope/y'))[0]?.id).toBe('GHSA-4');
    expect(report.changedPackages).toEqual(new Set(['x', '@scope/y']));
  });

  it('reports and skips malformed records, importing the rest', async () => {
    const store = new MemoryAdvisoryStore();
    const report = await importOsv(
      entries([
        '{"id": "X", "modified": ',
        JSON.stringify({ id: 'NO-DATE' }),
        record('MAL-2024-1', 'evil', '2024-01-01T00:00:00Z'),
      ]),
      store,
    );
    expect(report).toMatchObject({ added: 1, failed: 2, malicious: 1, complete: true });
    expect(report.failures.map((f) => f.path)).toEqual(['e0.json', 'e1.json']);
    expect(report.failures[0]?.error).toMatch(/not JSON/);
    expect(report.failures[1]?.error).toMatch(/modified/);
  });

  it('flushes when one batch would hold the same key twice', async () => {
    const store = new MemoryAdvisoryStore();
    const report = await importOsv(
      entries([
        record('GHSA-5', 'p', '2024-01-01T00:00:00Z'),
        record('GHSA-5', 'p', '2024-02-01T00:00:00Z', { summary: 'second' }),
      ]),
      store,
    );
    expect(report).toMatchObject({ added: 1, updated: 1 });
    expect((await store.recordsFor('p'))[0]?.summary).toBe('second');
  });

  it('never writes one key from two batches in flight at once', async () => {
    const store = new MemoryAdvisoryStore();
    const versions = Array.from({ length: 6 }, (_, i) =>
      record('GHSA-6', 'q', `2024-01-0${i + 1}T00:00:00Z`, { summary: `v${i}` }),
    );
    const report = await importOsv(entries(versions), store, { batchSize: 1, batchesInFlight: 4 });
    expect(report).toMatchObject({ added: 1, updated: 5, complete: true });
    expect((await store.recordsFor('q'))[0]?.summary).toBe('v5');
  });

  it('stops at its deadline and resumes from the entry it stopped at', async () => {
    const store = new MemoryAdvisoryStore();
    const records = Array.from({ length: 10 }, (_, i) =>
      record(`GHSA-${i}`, `p${i}`, '2024-01-01T00:00:00Z'),
    );
    let clock = 0;
    const first = await importOsv(entries(records), store, { deadline: 5, now: () => clock++ });
    expect(first).toMatchObject({ complete: false, resumeFromEntry: 5, added: 5 });
    const second = await importOsv(entries(records), store, { skipEntries: first.resumeFromEntry! });
    expect(second).toMatchObject({ complete: true, added: 5 });
    expect(store.size).toBe(10);
  });
});

describe('importOsv from a zip over HTTP', () => {
  const malformed: ZipInput = { name: 'osv/BROKEN-1.json', data: '{"id": "BROKEN-1", "affected": [' };
  const extras: ZipInput[] = [
    malformed,
    { name: 'README.txt', data: 'not a record', method: 'store' },
    {
      name: 'osv/MAL-2024-9.json',
      data: JSON.stringify(record('MAL-2024-9', 'evil-pkg', '2024-01-01T00:00:00Z')),
      dataDescriptor: true,
    },
  ];

  it('streams the export, skipping and reporting a malformed record', async () => {
    body = buildZip([...sharedFiles, ...extras]);
    const store = new MemoryAdvisoryStore();
    const report = await importOsv(fetchOsvZip(`${baseUrl}/all.zip`), store);
    expect(report).toMatchObject({ added: 313, failed: 1, malicious: 1, complete: true });
    expect(report.error).toBeUndefined();
    expect(report.failures).toEqual([
      { path: 'osv/BROKEN-1.json', error: expect.stringMatching(/not JSON/) },
    ]);
    expect(await store.recordsFor('evil-pkg')).toHaveLength(1);
    expect(requests).toBe(1);
  });

  it.each<Mode>(['drop-connection', 'short-chunked'])(
    'reports a truncated download (%s) as an error and stores only whole records',
    async (cut) => {
      body = buildZip([...sharedFiles, ...extras]);
      mode = cut;
      const store = new MemoryAdvisoryStore();
      const report = await importOsv(fetchOsvZip(`${baseUrl}/all.zip`), store);
      expect(report.complete).toBe(false);
      expect(report.error).toMatch(/truncated|broke off|ended|terminated/i);
      expect(report.added).toBeLessThan(313);
      // Every stored record is a whole, valid record from the export.
      const byId = new Map(loadSharedRecords().map((r) => [r.id, r]));
      for (const name of sharedNames) {
        for (const stored of await store.recordsFor(name)) expect(stored).toEqual(byId.get(stored.id));
      }
      // A complete download afterwards finishes the job.
      mode = 'full';
      const retry = await importOsv(fetchOsvZip(`${baseUrl}/all.zip`), store);
      expect(retry).toMatchObject({ complete: true, added: 313 - report.added, unchanged: report.added });
    },
  );

  it('reports an HTTP error status as an error', async () => {
    const report = await importOsv(fetchOsvZip(`${baseUrl}/missing.zip`), new MemoryAdvisoryStore());
    expect(report).toMatchObject({ complete: false, added: 0, error: expect.stringMatching(/HTTP 404/) });
  });

  it('opens folders, zip files and URLs alike', async () => {
    body = buildZip(sharedFiles.slice(0, 3));
    const fromUrl = await importOsv(await openOsvSource(`${baseUrl}/all.zip`), new MemoryAdvisoryStore());
    expect(fromUrl).toMatchObject({ added: 3, complete: true });
    const fromFolder = await importOsv(await openOsvSource(OSV_NPM_DIR), new MemoryAdvisoryStore());
    expect(fromFolder).toMatchObject({ added: 312, complete: true });
  });
});
