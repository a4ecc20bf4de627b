/**
 * The store's write path against DynamoDB Local: posting blocks (inserts, splits, removals,
 * concurrent writers), rank moves when downloads change, the latest pointer, results replaced
 * in place, and recovery from a write interrupted before its cleanup.
 */
import { randomBytes } from 'node:crypto';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createTables, localDynamoClient, tableName } from '../../local/stand-ins';
import { rankOf } from '../../lambdas/shared/store/keys';
import { PackageStore } from '../../lambdas/shared/store/package-store';
import { BLOCK_MAX_BYTES, PostingBlocks } from '../../lambdas/shared/store/posting-blocks';
import { JobStore } from '../../lambdas/shared/store/job-store';
import { JOBS_TABLE, PACKAGES_TABLE } from '../../lambdas/shared/store/tables';
import { packageRecord } from '../support/records';

let doc: DynamoDBDocumentClient;
let table: string;
let jobsTable: string;

beforeAll(async () => {
  const endpoint = process.env.PKGSCAN_IT_DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('PKGSCAN_IT_DYNAMODB_ENDPOINT is not set');
  const client = localDynamoClient(endpoint);
  const prefix = `wp-${randomBytes(4).toString('hex')}-`;
  await createTables(client, [PACKAGES_TABLE, JOBS_TABLE], (spec) => tableName(spec, prefix));
  table = tableName(PACKAGES_TABLE, prefix);
  jobsTable = tableName(JOBS_TABLE, prefix);
  doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
});

afterAll(() => doc.destroy());

describe('PostingBlocks', () => {
  it('keeps entries sorted across block splits, concurrent adds and removals', async () => {
    const blocks = new PostingBlocks(doc, table);
    const list = `T#${randomBytes(3).toString('hex')}`;
    // Long entries so that a few hundred of them overflow a block several times.
    const entries = Array.from({ length: 240 }, (_, i) => `${String(i).padStart(6, '0')}#${'x'.repeat(300)}`);
    const shuffled = [...entries].sort(() => Math.random() - 0.5);
    for (let i = 0; i < shuffled.length; i += 8) {
      await Promise.all(shuffled.slice(i, i + 8).map((entry) => blocks.add(list, entry)));
    }
    const all = await blocks.readAll(list);
    expect(all.entries).toEqual(entries);
    expect(all.itemsRead).toBeGreaterThan(Math.floor((240 * 308) / BLOCK_MAX_BYTES));
    expect(all.itemsRead).toBeLessThan(20);

    await Promise.all(entries.filter((_, i) => i % 3 === 0).map((entry) => blocks.remove(list, entry)));
    await blocks.add(list, entries[5]!); // already present: no change
    expect((await blocks.readAll(list)).entries).toEqual(entries.filter((_, i) => i % 3 !== 0));
    const firstFew = await blocks.readUntil(list, 10);
    expect(firstFew.entries.slice(0, 10)).toEqual(entries.filter((_, i) => i % 3 !== 0).slice(0, 10));
  }, 60_000);
});

describe('PackageStore write path', () => {
  it('moves a package in list and search when its downloads change, and keeps one posting', async () => {
    const store = new PackageStore(doc, table);
    await store.putScan(packageRecord({ name: 'mover-pkg', version: '1.0.0', weekly_downloads: 10 }));
    await store.putScan(packageRecord({ name: 'mover-other', version: '1.0.0', weekly_downloads: 50 }));
    let found = await store.search('mover', 10, 0);
    expect(found.value.packages.map((p) => p.name)).toEqual(['mover-other', 'mover-pkg']);

    await store.putScan(packageRecord({ name: 'mover-pkg', version: '1.1.0', weekly_downloads: 500 }));
    found = await store.search('mover', 10, 0);
    expect(found.value.packages.map((p) => [p.name, p.version])).toEqual([
      ['mover-pkg', '1.1.0'],
      ['mover-other', '1.0.0'],
    ]);
    expect(found.value.total).toBe(2);
    const blocks = new PostingBlocks(doc, table);
    const all = (await blocks.readAll('ALL')).entries.filter((rank) => rank.includes('#mover-'));
    expect(all).toEqual([rankOf(500, 'mover-pkg'), rankOf(50, 'mover-other')]);
  });

  it('never moves latest down to a lower version, and replaces results in place', async () => {
    const store = new PackageStore(doc, table);
    await store.putScan(packageRecord({ name: 'semver-pkg', version: '2.0.0' }));
    await store.putScan(packageRecord({ name: 'semver-pkg', version: '1.9.9' }));
    expect((await store.getLatest('semver-pkg')).value?.version).toBe('2.0.0');

    const updated = packageRecord({ name: 'semver-pkg', version: '2.0.0', risk_level: 'warning' });
    await store.replaceResult(updated);
    expect((await store.getLatest('semver-pkg')).value?.risk_level).toBe('warning');
    const versions = await store.versions('semver-pkg');
    expect(versions.map((v) => v.result.version).sort()).toEqual(['1.9.9', '2.0.0']);
    expect(await store.knownNames(['semver-pkg', 'never-stored'])).toEqual(['semver-pkg']);
  });

  it('finishes a cleanup left behind by an interrupted write on the next write', async () => {
    const store = new PackageStore(doc, table);
    await store.putScan(packageRecord({ name: 'crash-pkg', version: '1.0.0', weekly_downloads: 7 }));
    // Simulate a crash after the latest row moved to a new rank but before old postings were removed.
    const blocks = new PostingBlocks(doc, table);
    const stale = rankOf(3, 'crash-pkg');
    await blocks.add('ALL', stale);
    await doc.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: 'P#crash-pkg', sk: 'LATEST' },
        UpdateExpression: 'SET cleanup = :c',
        ExpressionAttributeValues: { ':c': stale },
      }),
    );
    await store.putScan(packageRecord({ name: 'crash-pkg', version: '1.0.1', weekly_downloads: 7 }));
    const ranks = (await blocks.readAll('ALL')).entries.filter((rank) => rank.endsWith('#crash-pkg'));
    expect(ranks).toEqual([rankOf(7, 'crash-pkg')]);
  });

  it('counts each package once in the total, even when written concurrently', async () => {
    const store = new PackageStore(doc, table);
    const before = (await store.list(1, 0)).value.total;
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        store.putScan(packageRecord({ name: 'racy-pkg', version: `1.0.${i}`, weekly_downloads: i })),
      ),
    );
    const after = await store.list(1, 0);
    expect(after.value.total).toBe(before + 1);
    expect((await store.getLatest('racy-pkg')).value?.version).toBe('1.0.5');
    const all = (await new PostingBlocks(doc, table).readAll('ALL')).entries.filter((r) =>
      r.endsWith('#racy-pkg'),
    );
    expect(all).toEqual([rankOf(5, 'racy-pkg')]);
  }, 30_000);
});

describe('a newer scan wins over an advisory refresh of an older one', () => {
  it('does not replace a result that was rescanned after it was read', async () => {
    const store = new PackageStore(doc, table);
    const first = packageRecord({
      name: 'refresh-race',
      version: '1.0.0',
      scanned_at: '2026-11-01T00:00:00.000Z',
    });
    await store.putScan(first);
    const [read] = await store.versions('refresh-race');
    const rescan = packageRecord({
      name: 'refresh-race',
      version: '1.0.0',
      weekly_downloads: 900_000,
      scanned_at: '2026-11-02T00:00:00.000Z',
    });
    await store.putScan(rescan);
    expect(await store.replaceResult({ ...read!.result, risk_level: 'warning' })).toBe(false);
    expect((await store.getLatest('refresh-race')).value).toEqual(rescan);
  });
});

describe('JobStore de-duplication markers', () => {
  it('takes over a marker left behind by a finished job', async () => {
    const jobs = new JobStore(doc, jobsTable);
    const { job: first } = await jobs.create({
      source: 'registry',
      name: 'left',
      version: 'latest',
      registry: 'npm',
    });
    // Finished, but its marker was never deleted (a transient error after the status update).
    await doc.send(
      new UpdateCommand({
        TableName: jobsTable,
        Key: { pk: `JOB#${first.job_id}` },
        UpdateExpression: 'SET #s = :c',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':c': 'completed' },
      }),
    );
    const again = await jobs.create({ source: 'registry', name: 'left', version: 'latest', registry: 'npm' });
    expect(again.created).toBe(true);
    expect(again.job.job_id).not.toBe(first.job_id);
    const same = await jobs.create({ source: 'registry', name: 'left', version: 'latest', registry: 'npm' });
    expect(same).toMatchObject({ created: false, job: { job_id: again.job.job_id } });
  });

  it('replaces a job whose sender died before queueing it, and keeps one that was sent', async () => {
    const past = new JobStore(doc, jobsTable, () => new Date(Date.now() - 10 * 60_000));
    const jobs = new JobStore(doc, jobsTable);
    const { job: lost } = await past.create({
      source: 'registry',
      name: 'lost',
      version: '1.0.0',
      registry: 'npm',
    });
    const replaced = await jobs.create({
      source: 'registry',
      name: 'lost',
      version: '1.0.0',
      registry: 'npm',
    });
    expect(replaced.created).toBe(true);
    expect((await jobs.get(lost.job_id))?.status).toBe('failed');

    const { job: sent } = await past.create({
      source: 'registry',
      name: 'sent',
      version: '1.0.0',
      registry: 'npm',
    });
    await past.markSent(sent.job_id);
    const same = await jobs.create({ source: 'registry', name: 'sent', version: '1.0.0', registry: 'npm' });
    expect(same).toMatchObject({ created: false, job: { job_id: sent.job_id } });
  });
});
