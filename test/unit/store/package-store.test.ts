/**
 * PackageStore (the facade and its modules: package-reads, package-writes, search-index,
 * seeding, package-table) one call at a time on the in-memory DynamoDB behind
 * aws-sdk-client-mock: reads, list pages, search, bulk look-ups, the write paths with their
 * guards, seeding, and the errors they pass on. The interleavings of two writers are in
 * write-interleavings.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { rankOf } from '../../../lambdas/shared/store/keys';
import { PackageStore } from '../../../lambdas/shared/store/package-store';
import { MAX_WRITE_ATTEMPTS } from '../../../lambdas/shared/store/package-writes';
import { PackageTable } from '../../../lambdas/shared/store/package-table';
import { SearchIndex } from '../../../lambdas/shared/store/search-index';
import { bulkLoadNew } from '../../../lambdas/shared/store/seeding';
import { toListItem } from '../../../src/contract/records';
import type { PackageResponse } from '../../../src/contract/schemas';
import { packageRecord } from '../../support/records';
import { MockedClient } from './support/mocked-client';
import {
  TABLE,
  latestRow,
  listEntries,
  packagesFake,
  ranksIn,
  settledProblems,
  total,
} from './support/package-state';
import type { FakeDynamo } from './support/fake-dynamo';

const T0 = '2026-11-01T00:00:00.000Z';
const T1 = '2026-11-02T00:00:00.000Z';
const rec = (name: string, version: string, downloads = 100, scannedAt = T0): PackageResponse =>
  packageRecord({ name, version, weekly_downloads: downloads, scanned_at: scannedAt });

let fake: FakeDynamo;
let client: MockedClient;
let store: PackageStore;

beforeAll(() => {
  client = new MockedClient();
});
afterAll(() => client.stub.restore());
beforeEach(() => {
  fake = packagesFake();
  client.stub.resetHistory();
  client.serve = (command, input) => fake.handle(command, input);
  store = new PackageStore(client.doc, TABLE);
});

const calls = () => fake.calls.map((c) => c.command);

describe('reads', () => {
  beforeEach(async () => {
    await store.putScan(rec('react', '18.2.0', 900, T0), { distTags: ['latest'] });
    await store.putScan(rec('react', '18.3.1', 1000, T1), { distTags: ['latest', 'next'] });
    await store.putScan(rec('vue', '3.4.0', 500));
    fake.calls.length = 0;
  });

  it('getLatest: one item, or none', async () => {
    expect(await store.getLatest('react')).toEqual({ value: rec('react', '18.3.1', 1000, T1), itemsRead: 1 });
    expect(await store.getLatest('nope')).toEqual({ value: undefined, itemsRead: 0 });
  });

  it('getVersion: exact versions, dist-tags, and the two kinds of miss', async () => {
    expect(await store.getVersion('react', { kind: 'exact', version: '18.2.0' })).toEqual({
      value: { result: rec('react', '18.2.0', 900, T0), packageKnown: true },
      itemsRead: 1,
    });
    expect(await store.getVersion('react', { kind: 'tag', tag: 'next' })).toMatchObject({
      value: { result: { version: '18.3.1' }, packageKnown: true },
      itemsRead: 2,
    });
    expect(await store.getVersion('react', { kind: 'exact', version: '0.0.1' })).toEqual({
      value: { result: undefined, packageKnown: true },
      itemsRead: 1,
    });
    expect(await store.getVersion('react', { kind: 'tag', tag: 'beta' })).toEqual({
      value: { result: undefined, packageKnown: true },
      itemsRead: 1,
    });
    expect(await store.getVersion('nope', { kind: 'tag', tag: 'latest' })).toEqual({
      value: { result: undefined, packageKnown: false },
      itemsRead: 1,
    });
  });

  it('list: the first page from the index, deeper pages from the ALL list, with the exact total', async () => {
    expect(await store.list(10, 0)).toEqual({
      value: {
        packages: [toListItem(rec('react', '18.3.1', 1000, T1)), toListItem(rec('vue', '3.4.0', 500))],
        total: 2,
        limit: 10,
        offset: 0,
      },
      itemsRead: 3,
    });
    expect(await store.list(1, 1)).toEqual({
      value: { packages: [toListItem(rec('vue', '3.4.0', 500))], total: 2, limit: 1, offset: 1 },
      itemsRead: 3,
    });
    expect((await store.list(5, 7)).value.packages).toEqual([]);
  });

  it('list and search count a name once while it briefly holds two ranks', async () => {
    // A move in progress: the new rank is added, the old not yet removed.
    await new PackageStore(client.doc, TABLE).putScan(rec('vue', '3.5.0', 2000));
    fake.seed(TABLE, [
      {
        pk: 'ALL',
        sk: 'B#',
        e: [rankOf(2000, 'vue'), rankOf(1000, 'react'), rankOf(500, 'vue')].join('\n'),
        c: 3,
        v: 99,
      },
    ]);
    expect((await store.list(10, 1)).value.packages.map((p) => p.name)).toEqual(['react']);
    expect((await store.search('e', 10, 0)).value).toMatchObject({ total: 2 });
    expect(await store.allNames()).toEqual(['react', 'vue']);
  });

  it('bulkGet: one answer per ref, in order, dist-tags resolved in a second round', async () => {
    const out = await store.bulkGet([
      { name: 'react' },
      { name: 'react', version: { kind: 'exact', version: '18.2.0' } },
      { name: 'react', version: { kind: 'tag', tag: 'latest' } },
      { name: 'react', version: { kind: 'tag', tag: 'next' } },
      { name: 'react', version: { kind: 'tag', tag: 'beta' } },
      { name: 'nope' },
      { name: 'react' },
    ]);
    expect(out.value.map((r) => r?.version)).toEqual([
      '18.3.1',
      '18.2.0',
      '18.3.1',
      '18.3.1',
      undefined,
      undefined,
      '18.3.1',
    ]);
    expect(out.itemsRead).toBe(5);
    expect(calls()).toEqual(['BatchGet', 'BatchGet']);
    expect((await store.bulkGet([{ name: 'vue' }])).itemsRead).toBe(1);
  });

  it('knownNames, allNames, storedVersion and versions', async () => {
    expect((await store.knownNames(['vue', 'nope', 'react', 'vue'])).sort()).toEqual(['react', 'vue']);
    expect(await store.allNames()).toEqual(['react', 'vue']);
    expect(await store.storedVersion('react', '18.2.0')).toEqual({
      result: rec('react', '18.2.0', 900, T0),
      basis: undefined,
    });
    expect(await store.storedVersion('react', '1.0.0')).toBeUndefined();
    expect((await store.versions('react')).map((v) => v.result.version)).toEqual(['18.2.0', '18.3.1']);
    expect(await store.versions('nope')).toEqual([]);
  });

  it('versions reads every page of a package with many large results', async () => {
    // Random text compresses little: each basis stays near 210 KB once gzipped, 1.5 MB in all.
    const basis = () => ({
      risk_input: randomBytes(210_000).toString('base64'),
      trust: { score: 1, reasons: [] },
    });
    for (let i = 0; i < 7; i++) await store.putScan(rec('big', `1.0.${i}`), { basis: basis() });
    fake.calls.length = 0;
    const versions = await store.versions('big');
    expect(versions).toHaveLength(7);
    expect(versions[0]!.basis?.trust.score).toBe(1);
    expect(calls().filter((c) => c === 'Query').length).toBeGreaterThan(1);
  });

  it('leaves out names whose posting has no latest row, and takes a query page without items as empty', async () => {
    // A posting whose package row is gone (seeded by hand: the write protocol never leaves one).
    fake.seed(TABLE, [
      { pk: 'ALL', sk: 'B#', e: [rankOf(1000, 'react'), rankOf(600, 'ghost')].join('\n'), c: 2, v: 99 },
    ]);
    expect((await store.list(5, 1)).value.packages).toEqual([]);
    expect((await store.search('o', 10, 0)).value).toMatchObject({ total: 1, packages: [] });
    client.serve = (command, input) => (command === 'Query' ? {} : fake.handle(command, input));
    expect(await store.versions('react')).toEqual([]);
  });

  it('jobState and putJobState keep a bookkeeping record', async () => {
    expect(await store.jobState('downloads-refresh')).toBeUndefined();
    await store.putJobState('downloads-refresh', { cursor: 'm' });
    expect(await store.jobState('downloads-refresh')).toEqual({ cursor: 'm' });
  });
});

describe('search', () => {
  beforeEach(async () => {
    for (const [name, downloads] of [
      ['typescript', 900],
      ['@types/node', 800],
      ['ts-node', 700],
      ['types-x', 10],
      ['prototype-kit', 5],
    ] as const) {
      await store.putScan(rec(name, '1.0.0', downloads));
    }
    fake.calls.length = 0;
  });

  it('matches a case-insensitive substring, by downloads, with the exact total and a page', async () => {
    const out = await store.search('TYPE', 2, 1);
    expect(out.value).toMatchObject({ total: 4, limit: 2, offset: 1 });
    expect(out.value.packages.map((p) => p.name)).toEqual(['@types/node', 'types-x']);
    // Counters of the query's trigrams, one posting list, the page's rows.
    expect(calls()).toEqual(['BatchGet', 'Query', 'BatchGet']);
  });

  it('reads the rarest trigram’s list, and a trigram without a counter first', async () => {
    const rare = await store.search('proto', 10, 0);
    expect(rare.value.packages.map((p) => p.name)).toEqual(['prototype-kit']);
    const query = fake.calls.find((c) => c.command === 'Query')!;
    expect(query.input.ExpressionAttributeValues).toMatchObject({ ':l': 'G#pro' });
    expect((await store.search('zzz', 10, 0)).value).toEqual({
      packages: [],
      total: 0,
      limit: 10,
      offset: 0,
    });
  });

  it('one or two characters read the ALL list', async () => {
    fake.calls.length = 0;
    expect((await store.search('ts', 10, 0)).value.packages.map((p) => p.name)).toEqual(['ts-node']);
    expect(fake.calls.find((c) => c.command === 'Query')!.input.ExpressionAttributeValues).toMatchObject({
      ':l': 'ALL',
    });
  });

  it('considers at most 24 trigrams of a long query, both ends kept', async () => {
    const long = 'abcdefghijklmnopqrstuvwxyz-0123456789';
    await store.putScan(rec(long, '1.0.0', 1));
    fake.calls.length = 0;
    expect((await store.search(long, 10, 0)).value.packages.map((p) => p.name)).toEqual([long]);
    const counters = fake.calls.find((c) => c.command === 'BatchGet')!.input.RequestItems as Record<
      string,
      { Keys: Array<{ pk: string }> }
    >;
    expect(counters[TABLE]!.Keys.map((k) => k.pk)).toHaveLength(24);
    expect(counters[TABLE]!.Keys.map((k) => k.pk)).toEqual(expect.arrayContaining(['GC#abc', 'GC#789']));
  });
});

describe('putScan', () => {
  it('a first scan: version item, tags, latest row, postings, counters, total', async () => {
    await store.putScan(rec('abc', '1.0.0', 10), {
      distTags: ['latest'],
      basis: { risk_input: 1, trust: { score: 50, reasons: [] } },
    });
    expect(settledProblems(fake, 'abc')).toEqual([]);
    expect(fake.item(TABLE, { pk: 'P#abc', sk: 'T#latest' })).toMatchObject({
      version: '1.0.0',
      scanned_at: T0,
    });
    expect(fake.item(TABLE, { pk: 'GC#abc', sk: 'N' })).toMatchObject({ n: 1 });
    expect(total(fake)).toBe(1);
    expect((await store.storedVersion('abc', '1.0.0'))?.basis).toEqual({
      risk_input: 1,
      trust: { score: 50, reasons: [] },
    });
  });

  it('moves the package when its rank changes, and only up in versions', async () => {
    await store.putScan(rec('abc', '1.0.0', 10));
    await store.putScan(rec('abc', '1.1.0', 20, T1));
    expect(ranksIn(fake, 'G#abc', 'abc')).toEqual([rankOf(20, 'abc')]);
    await store.putScan(rec('abc', '0.9.0', 99, T1));
    expect(latestRow(fake, 'abc')).toMatchObject({ version: '1.1.0', lsk: rankOf(20, 'abc') });
    expect(fake.item(TABLE, { pk: 'P#abc', sk: 'V#0.9.0' })).toBeDefined();
    expect(total(fake)).toBe(1);
    expect(fake.item(TABLE, { pk: 'GC#abc', sk: 'N' })).toMatchObject({ n: 1 });
  });

  it('a dist-tag moves only forward in time', async () => {
    await store.putScan(rec('abc', '2.0.0', 10, T1), { distTags: ['latest'] });
    await store.putScan(rec('abc', '1.0.0', 10, T0), { distTags: ['latest'] });
    expect(fake.item(TABLE, { pk: 'P#abc', sk: 'T#latest' })).toMatchObject({ version: '2.0.0' });
  });

  it('finishes markers left by an interrupted write before its own', async () => {
    await store.putScan(rec('abc', '1.0.0', 10));
    const stale = rankOf(3, 'abc');
    fake.seed(TABLE, [
      { ...latestRow(fake, 'abc')!, cleanup: stale },
      { pk: 'ALL', sk: 'B#', e: [rankOf(10, 'abc'), stale].join('\n'), c: 2, v: 50 },
    ]);
    await store.putScan(rec('abc', '1.0.1', 10));
    expect(listEntries(fake, 'ALL')).toEqual([rankOf(10, 'abc')]);
    expect(settledProblems(fake, 'abc')).toEqual([]);
  });

  it(`gives up after ${MAX_WRITE_ATTEMPTS} lost races for the latest row, and passes on other errors`, async () => {
    await store.putScan(rec('abc', '1.0.0', 10));
    let attempts = 0;
    client.serve = (command, input) => {
      if (command === 'TransactWrite') {
        attempts++;
        throw new TransactionCanceledException({ message: 'cancelled', $metadata: {} });
      }
      return fake.handle(command, input);
    };
    await expect(store.putScan(rec('abc', '1.1.0', 10))).rejects.toBeInstanceOf(TransactionCanceledException);
    expect(attempts).toBe(MAX_WRITE_ATTEMPTS);
    client.serve = (command, input) => {
      if (command === 'TransactWrite') throw new Error('throttled');
      return fake.handle(command, input);
    };
    await expect(store.putScan(rec('abc', '1.1.0', 10))).rejects.toThrow('throttled');
    client.serve = (command, input) => {
      if (command === 'Update' && String(input.UpdateExpression).startsWith('REMOVE'))
        throw new Error('throttled');
      return fake.handle(command, input);
    };
    await expect(store.putScan(rec('abc', '1.1.0', 10))).rejects.toThrow('throttled');
  });

  it('an overtaken writer reconciles again while the row keeps moving, and ends agreeing with it', async () => {
    await store.putScan(rec('abc', '1.0.0', 10));
    const [r10, r20, r30] = [rankOf(10, 'abc'), rankOf(20, 'abc'), rankOf(30, 'abc')];
    // Newer writes land each time this writer reads the row after its commit: first one that
    // moves the package to rank 30, then one that moves it back to rank 10 (neither settled yet).
    const newer = [
      { rev: 3, version: '1.2.0', lsk: r30, pending: r30, cleanup: r20 },
      { rev: 4, version: '1.3.0', lsk: r10, pending: r10, cleanup: r30 },
    ];
    let reads = 0;
    client.serve = (command, input) => {
      if (command === 'Get' && input.ConsistentRead && ++reads >= 2 && newer.length > 0) {
        fake.seed(TABLE, [{ ...latestRow(fake, 'abc')!, ...newer.shift()! }]);
      }
      return fake.handle(command, input);
    };
    await store.putScan(rec('abc', '1.1.0', 20));
    expect(newer).toEqual([]);
    // Its own rank is gone, and the old rank it removed as its cleanup is back: the row holds it.
    for (const list of ['ALL', 'G#abc']) expect(ranksIn(fake, list, 'abc')).toEqual([r10]);
  });

  it('a writer that loses the race to clear its markers leaves them to the newer row', async () => {
    await store.putScan(rec('abc', '1.0.0', 10));
    let raced = false;
    client.serve = (command, input) => {
      if (!raced && command === 'Update' && String(input.UpdateExpression).startsWith('REMOVE')) {
        raced = true;
        // A newer write lands between the writer's last read and its clearing of the markers.
        const row = latestRow(fake, 'abc')!;
        fake.seed(TABLE, [{ ...row, rev: Number(row.rev) + 1 }]);
      }
      return fake.handle(command, input);
    };
    await store.putScan(rec('abc', '1.1.0', 20));
    expect(latestRow(fake, 'abc')).toMatchObject({ pending: rankOf(20, 'abc'), cleanup: rankOf(10, 'abc') });
  });
});

describe('replaceResult and refreshResult', () => {
  beforeEach(async () => {
    await store.putScan(rec('abc', '1.0.0', 10, T0));
    await store.putScan(rec('abc', '1.1.0', 20, T0));
  });

  it('replaceResult: the version item, and the latest row when it is that version', async () => {
    expect(await store.replaceResult({ ...rec('abc', '1.1.0', 20, T0), risk_level: 'warning' })).toBe(true);
    expect((await store.getLatest('abc')).value?.risk_level).toBe('warning');
    expect(await store.replaceResult({ ...rec('abc', '1.0.0', 10, T0), risk_level: 'critical' })).toBe(true);
    expect((await store.getLatest('abc')).value?.version).toBe('1.1.0');
    expect((await store.storedVersion('abc', '1.0.0'))?.result.risk_level).toBe('critical');
    // Rescanned since it was read, or never stored: nothing replaced.
    expect(await store.replaceResult(rec('abc', '1.1.0', 20, T1))).toBe(false);
    expect(await store.replaceResult(rec('abc', '9.9.9', 20, T0))).toBe(false);
  });

  it('refreshResult moves the latest version to its new rank; other versions change only their item', async () => {
    expect(await store.refreshResult(rec('abc', '1.1.0', 70, T0))).toBe(true);
    expect(settledProblems(fake, 'abc')).toEqual([]);
    expect(latestRow(fake, 'abc')).toMatchObject({ lsk: rankOf(70, 'abc'), rev: 3 });
    expect(await store.refreshResult(rec('abc', '1.1.0', 70, T0))).toBe(true);
    expect(latestRow(fake, 'abc')).toMatchObject({ lsk: rankOf(70, 'abc'), rev: 4 });
    expect(await store.refreshResult(rec('abc', '1.0.0', 1, T0))).toBe(true);
    expect(latestRow(fake, 'abc')?.lsk).toBe(rankOf(70, 'abc'));
    expect(await store.refreshResult(rec('abc', '1.1.0', 5, T1))).toBe(false);
    expect(await store.refreshResult(rec('nope', '1.0.0', 5, T1))).toBe(false);
  });

  it('refreshResult leaves a latest row rescanned meanwhile alone', async () => {
    client.serve = (command, input) => {
      const out = fake.handle(command, input);
      if (command === 'Update' && String(input.UpdateExpression) === 'SET doc = :doc') {
        const row = latestRow(fake, 'abc')!;
        fake.seed(TABLE, [{ ...row, scanned_at: T1 }]);
      }
      return out;
    };
    expect(await store.refreshResult(rec('abc', '1.1.0', 70, T0))).toBe(true);
    expect(latestRow(fake, 'abc')?.lsk).toBe(rankOf(20, 'abc'));
  });

  it(`refreshResult retries a lost race ${MAX_WRITE_ATTEMPTS} times, then passes the error on, as it does other errors`, async () => {
    client.serve = (command, input) => {
      if (command === 'Update' && String(input.UpdateExpression).includes('rev = :next')) {
        const row = latestRow(fake, 'abc')!;
        fake.seed(TABLE, [{ ...row, rev: Number(row.rev) + 1 }]);
      }
      return fake.handle(command, input);
    };
    await expect(store.refreshResult(rec('abc', '1.1.0', 70, T0))).rejects.toThrow(
      'The conditional request failed',
    );
    client.serve = (command, input) => {
      if (command === 'Update' && String(input.UpdateExpression).includes('rev = :next'))
        throw new Error('throttled');
      return fake.handle(command, input);
    };
    await expect(store.refreshResult(rec('abc', '1.1.0', 70, T0))).rejects.toThrow('throttled');
    client.serve = () => {
      throw new Error('down');
    };
    await expect(store.refreshResult(rec('abc', '1.1.0', 70, T0))).rejects.toThrow('down');
    await expect(store.replaceResult(rec('abc', '1.1.0', 70, T0))).rejects.toThrow('down');
  });

  it('replaceResult passes on errors of the latest row update other than its condition', async () => {
    client.serve = (command, input) => {
      if (command === 'Update' && String(input.UpdateExpression).includes('#item'))
        throw new Error('throttled');
      return fake.handle(command, input);
    };
    await expect(store.replaceResult(rec('abc', '1.1.0', 20, T0))).rejects.toThrow('throttled');
  });
});

describe('bulkLoadNew (seeding)', () => {
  it('loads new packages with batch writes: rows, tags, packed postings, counters and total', async () => {
    await store.putScan(rec('existing', '1.0.0', 5));
    const results = Array.from({ length: 60 }, (_, i) =>
      rec(`pkg-${String(i).padStart(2, '0')}`, '1.0.0', i),
    );
    const progress: Array<[number, number]> = [];
    await store.bulkLoadNew(results, {
      concurrency: 2,
      onProgress: (done, all) => progress.push([done, all]),
    });
    expect(progress.at(-1)).toEqual([60, 60]);
    expect(progress.map(([done]) => done)).toEqual([...progress.map(([done]) => done)].sort((a, b) => a - b));
    expect(total(fake)).toBe(61);
    for (const name of ['pkg-00', 'pkg-59', 'existing']) expect(settledProblems(fake, name)).toEqual([]);
    expect(fake.item(TABLE, { pk: 'P#pkg-07', sk: 'T#latest' })).toEqual({
      pk: 'P#pkg-07',
      sk: 'T#latest',
      version: '1.0.0',
    });
    expect(fake.item(TABLE, { pk: 'GC#pkg', sk: 'N' })).toMatchObject({ n: 60 });
    expect((await store.list(100, 0)).value.packages.map((p) => p.name)[0]).toBe('pkg-59');
    expect((await store.search('pkg-1', 100, 0)).value.total).toBe(10);
    expect(calls().filter((c) => c === 'BatchWrite').length).toBeGreaterThanOrEqual(Math.ceil((60 * 3) / 25));
  });

  it('loads with eight writers at once unless told otherwise', async () => {
    const table = new PackageTable(client.doc, TABLE);
    await bulkLoadNew(table, new SearchIndex(table), [rec('solo', '1.0.0', 1)]);
    expect(settledProblems(fake, 'solo')).toEqual([]);
  });

  it('retries batch writes that come back unprocessed', async () => {
    fake.unprocessedOnce = { write: 5 };
    await store.bulkLoadNew([rec('one', '1.0.0', 1), rec('two', '1.0.0', 2)]);
    expect(total(fake)).toBe(2);
    expect(settledProblems(fake, 'one')).toEqual([]);
  });
});
