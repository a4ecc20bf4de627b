import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { AdvisoryStore, decodeRecord, encodeRecord } from '../../../lambdas/advisories/advisory-store';
import { importOsv } from '../../../lambdas/advisories/importer';
import type { OsvRecord } from '../../../lambdas/advisories/osv';
import type { StoredAdvisory } from '../../../lambdas/advisories/ports';

const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'advisories-test';
const sleeps: number[] = [];
const store = new AdvisoryStore(ddb as unknown as DynamoDBDocumentClient, TABLE, {
  maxBatchAttempts: 3,
  sleep: async (ms) => {
    sleeps.push(ms);
  },
});

function osv(id: string, name = 'pkg', modified = '2024-01-01T00:00:00Z'): OsvRecord {
  return { id, modified, affected: [{ package: { ecosystem: 'npm', name } }] };
}
function stored(id: string, name = 'pkg'): StoredAdvisory {
  return { name, id, modifiedMs: Date.parse('2024-01-01T00:00:00Z'), record: osv(id, name) };
}
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'failed', $metadata: {} });

beforeEach(() => {
  ddb.reset();
  sleeps.length = 0;
});

describe('AdvisoryStore', () => {
  it('round-trips records through gzipped JSON', () => {
    const record = osv('GHSA-1');
    expect(decodeRecord(encodeRecord(record))).toEqual(record);
    const huge = { ...osv('GHSA-2'), details: 'x'.repeat(500_000), references: [{ type: 'WEB', url: 'u' }] };
    const shrunk = decodeRecord(encodeRecord(huge));
    expect(shrunk.details).toHaveLength(10_000);
    expect(shrunk.affected).toEqual(huge.affected);
  });

  it('reads stored versions with BatchGetItem, retrying unprocessed keys', async () => {
    ddb
      .on(BatchGetCommand)
      .resolvesOnce({
        Responses: { [TABLE]: [{ pk: 'pkg', sk: 'A', modified_ms: 5 }] },
        UnprocessedKeys: { [TABLE]: { Keys: [{ pk: 'pkg', sk: 'B' }] } },
      })
      .resolvesOnce({ Responses: { [TABLE]: [{ pk: 'pkg', sk: 'B', modified_ms: 7 }] } });
    const found = await store.storedVersions([
      { name: 'pkg', id: 'A' },
      { name: 'pkg', id: 'B' },
      { name: 'pkg', id: 'C' },
    ]);
    expect([...found.values()]).toEqual([5, 7]);
    const calls = ddb.commandCalls(BatchGetCommand);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.args[0].input.RequestItems![TABLE]).toMatchObject({
      ProjectionExpression: 'pk, sk, modified_ms',
      Keys: [
        { pk: 'pkg', sk: 'A' },
        { pk: 'pkg', sk: 'B' },
        { pk: 'pkg', sk: 'C' },
      ],
    });
    expect(calls[1]!.args[0].input.RequestItems![TABLE]!.Keys).toEqual([{ pk: 'pkg', sk: 'B' }]);
    expect(sleeps).toHaveLength(1);
  });

  it('splits reads into batches of 100 keys', async () => {
    ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: [] } });
    await store.storedVersions(Array.from({ length: 250 }, (_, i) => ({ name: 'pkg', id: `ID-${i}` })));
    expect(
      ddb.commandCalls(BatchGetCommand).map((c) => c.args[0].input.RequestItems![TABLE]!.Keys!.length),
    ).toEqual([100, 100, 50]);
  });

  it('writes new items in batches of 25, retrying unprocessed items', async () => {
    const items = Array.from({ length: 30 }, (_, i) => stored(`ID-${i}`));
    ddb
      .on(BatchWriteCommand)
      .resolvesOnce({ UnprocessedItems: { [TABLE]: [{ PutRequest: { Item: { pk: 'pkg', sk: 'ID-3' } } }] } })
      .resolves({});
    await store.putNew(items);
    const calls = ddb.commandCalls(BatchWriteCommand).map((c) => c.args[0].input.RequestItems![TABLE]!);
    expect(calls.map((c) => c.length).sort((a, b) => a - b)).toEqual([1, 5, 25]); // batches go in parallel
    expect(calls[0]![0]!.PutRequest!.Item).toMatchObject({
      pk: 'pkg',
      sk: 'ID-0',
      modified_ms: items[0]!.modifiedMs,
    });
    expect(decodeRecord(calls[0]![0]!.PutRequest!.Item!.osv)).toEqual(items[0]!.record);
  });

  it('gives up when a batch keeps coming back unprocessed', async () => {
    ddb
      .on(BatchWriteCommand)
      .resolves({ UnprocessedItems: { [TABLE]: [{ PutRequest: { Item: { pk: 'p' } } }] } });
    await expect(store.putNew([stored('A')])).rejects.toThrow(/unprocessed after 3 attempts/);
    expect(ddb.commandCalls(BatchWriteCommand)).toHaveLength(3);
  });

  it('replaces an item only when newer (conditional put)', async () => {
    ddb.on(PutCommand).resolvesOnce({}).rejectsOnce(conditionFailed());
    expect(await store.putIfNewer(stored('A'))).toBe(true);
    expect(await store.putIfNewer(stored('A'))).toBe(false);
    expect(ddb.commandCalls(PutCommand)[0]!.args[0].input).toMatchObject({
      TableName: TABLE,
      ConditionExpression: 'attribute_not_exists(pk) OR modified_ms < :modified',
      ExpressionAttributeValues: { ':modified': stored('A').modifiedMs },
    });
  });

  it('removes an item unless the stored one is newer (conditional delete)', async () => {
    ddb.on(DeleteCommand).resolvesOnce({}).rejectsOnce(conditionFailed());
    expect(await store.removeIfNotNewer({ name: 'pkg', id: 'A' }, 10)).toBe(true);
    expect(await store.removeIfNotNewer({ name: 'pkg', id: 'A' }, 10)).toBe(false);
    expect(ddb.commandCalls(DeleteCommand)[0]!.args[0].input).toMatchObject({
      Key: { pk: 'pkg', sk: 'A' },
      ConditionExpression: 'attribute_exists(pk) AND modified_ms <= :modified',
    });
  });

  it('passes on errors other than a failed condition', async () => {
    ddb.on(PutCommand).rejects(new Error('throttled'));
    await expect(store.putIfNewer(stored('A'))).rejects.toThrow('throttled');
  });

  it('queries every page of a package', async () => {
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [{ osv: encodeRecord(osv('A')) }], LastEvaluatedKey: { pk: 'pkg', sk: 'A' } })
      .resolvesOnce({ Items: [{ osv: encodeRecord(osv('B')) }] });
    expect((await store.recordsFor('pkg')).map((r) => r.id)).toEqual(['A', 'B']);
    const calls = ddb.commandCalls(QueryCommand);
    expect(calls[0]!.args[0].input).toMatchObject({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': 'pkg' },
    });
    expect(calls[1]!.args[0].input.ExclusiveStartKey).toEqual({ pk: 'pkg', sk: 'A' });
  });
});

describe('importOsv into the DynamoDB store', () => {
  async function* entries(records: OsvRecord[]) {
    for (const r of records) yield { path: `${r.id}.json`, text: JSON.stringify(r) };
  }

  it('batches new records, updates newer ones conditionally and deletes withdrawn ones', async () => {
    const older = Date.parse('2023-01-01T00:00:00Z');
    ddb.on(BatchGetCommand).resolves({
      Responses: {
        [TABLE]: [
          { pk: 'pkg', sk: 'OLD', modified_ms: older },
          { pk: 'pkg', sk: 'GONE', modified_ms: older },
          { pk: 'pkg', sk: 'SAME', modified_ms: Date.parse('2024-01-01T00:00:00Z') },
        ],
      },
    });
    ddb.on(BatchWriteCommand).resolves({});
    ddb.on(PutCommand).resolves({});
    ddb.on(DeleteCommand).resolves({});
    const report = await importOsv(
      entries([
        osv('NEW', 'other'),
        osv('OLD'),
        osv('SAME'),
        { ...osv('GONE'), withdrawn: '2024-01-01T00:00:00Z' },
      ]),
      store,
    );
    expect(report).toMatchObject({
      added: 1,
      updated: 1,
      unchanged: 1,
      removed: 1,
      failed: 0,
      complete: true,
    });
    expect(report.changedPackages).toEqual(new Set(['other', 'pkg']));
    expect(ddb.commandCalls(BatchWriteCommand)[0]!.args[0].input.RequestItems![TABLE]).toHaveLength(1);
    expect(ddb.commandCalls(PutCommand).map((c) => c.args[0].input.Item!.sk)).toEqual(['OLD']);
    expect(ddb.commandCalls(DeleteCommand).map((c) => c.args[0].input.Key)).toEqual([
      { pk: 'pkg', sk: 'GONE' },
    ]);
  });

  it('reports a store failure as the import error', async () => {
    ddb.on(BatchGetCommand).rejects(new Error('ProvisionedThroughputExceeded'));
    const report = await importOsv(entries([osv('A')]), store);
    expect(report).toMatchObject({ complete: false, added: 0, error: 'ProvisionedThroughputExceeded' });
  });
});
