/**
 * The unit tests' in-memory DynamoDB (test/unit/store/support/fake-dynamo.ts) against DynamoDB
 * Local: the same requests (the expressions the stores send, their failures and DynamoDB's
 * request validation) give the same answers, and the stores leave the same items in both.
 */
import { randomBytes } from 'node:crypto';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { createTables, localDynamoClient, tableName } from '../../local/stand-ins';
import { JobStore } from '../../lambdas/shared/store/job-store';
import { PackageStore } from '../../lambdas/shared/store/package-store';
import { JOBS_TABLE, PACKAGES_TABLE } from '../../lambdas/shared/store/tables';
import { packageRecord } from '../support/records';
import { FakeDynamo, type Item } from '../unit/store/support/fake-dynamo';
import { MockedClient } from '../unit/store/support/mocked-client';

let doc: DynamoDBDocumentClient;
let packages: string;
let jobs: string;
let fake: FakeDynamo;
let mocked: MockedClient;

const COMMANDS = {
  Get: GetCommand,
  Put: PutCommand,
  Update: UpdateCommand,
  Delete: DeleteCommand,
  Query: QueryCommand,
  BatchGet: BatchGetCommand,
  BatchWrite: BatchWriteCommand,
  TransactWrite: TransactWriteCommand,
} as const;
type Command = keyof typeof COMMANDS;

beforeAll(async () => {
  const endpoint = process.env.PKGSCAN_IT_DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('PKGSCAN_IT_DYNAMODB_ENDPOINT is not set');
  const client = localDynamoClient(endpoint, { maxAttempts: 1 });
  const prefix = `fc-${randomBytes(4).toString('hex')}-`;
  await createTables(client, [PACKAGES_TABLE, JOBS_TABLE], (spec) => tableName(spec, prefix));
  packages = tableName(PACKAGES_TABLE, prefix);
  jobs = tableName(JOBS_TABLE, prefix);
  doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  // The fake's tables carry the same names, so one request goes to both unchanged.
  fake = new FakeDynamo().addTable(packages, PACKAGES_TABLE).addTable(jobs, JOBS_TABLE);
  mocked = MockedClient.on(fake);
});

afterAll(() => {
  mocked.stub.restore();
  doc.destroy();
});

/** An answer reduced to what the stores read: the outcome, or the error's name and reasons. */
function outcome(result: { ok: true; value: unknown } | { ok: false; error: unknown }): unknown {
  if (!result.ok) {
    const error = result.error as { name?: string; CancellationReasons?: Array<{ Code?: string }> };
    return {
      error: error.name,
      ...(error.CancellationReasons ? { reasons: error.CancellationReasons.map((r) => r.Code) } : {}),
    };
  }
  const { $metadata: _m, ConsumedCapacity: _c, ItemCollectionMetrics: _i, ...rest } = result.value as Item;
  const out = rest as {
    Items?: Item[];
    Count?: number;
    ScannedCount?: number;
    UnprocessedKeys?: Item;
    UnprocessedItems?: Item;
  };
  delete out.ScannedCount;
  if (out.UnprocessedKeys && Object.keys(out.UnprocessedKeys).length === 0) delete out.UnprocessedKeys;
  if (out.UnprocessedItems && Object.keys(out.UnprocessedItems).length === 0) delete out.UnprocessedItems;
  return normalise(out);
}

/** Binary attributes as plain byte arrays, keys sorted, batch responses in a fixed order. */
function normalise(value: unknown): unknown {
  if (value instanceof Uint8Array) return { bytes: [...value] };
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') {
    const out: Item = {};
    for (const k of Object.keys(value).sort()) out[k] = normalise((value as Item)[k]);
    if (out.Responses) {
      for (const [t, items] of Object.entries(out.Responses as Record<string, Item[]>)) {
        (out.Responses as Record<string, Item[]>)[t] = [...items].sort((a, b) =>
          JSON.stringify(a).localeCompare(JSON.stringify(b)),
        );
      }
    }
    return out;
  }
  return value;
}

async function both(command: Command, input: Item): Promise<{ real: unknown; fake: unknown }> {
  const Type = COMMANDS[command];
  let real: { ok: true; value: unknown } | { ok: false; error: unknown };
  try {
    real = { ok: true, value: await doc.send(new Type(input as never) as never) };
  } catch (error) {
    real = { ok: false, error };
  }
  let faked: { ok: true; value: unknown } | { ok: false; error: unknown };
  try {
    faked = { ok: true, value: fake.handle(command, input) };
  } catch (error) {
    faked = { ok: false, error };
  }
  return { real: outcome(real), fake: outcome(faked) };
}

async function tableItems(table: string): Promise<unknown> {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const out = await doc.send(
      new ScanCommand({ TableName: table, ConsistentRead: true, ExclusiveStartKey: start }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  const order = (i: Item) => `${String(i.pk)}\u0000${String(i.sk ?? '')}`;
  return normalise(items.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0)));
}

describe('the fake answers as DynamoDB Local does', () => {
  const P = () => packages;
  const J = () => jobs;
  const steps: Array<[string, () => [Command, Item]]> = [
    [
      'a put on a new item',
      () => [
        'Put',
        {
          TableName: P(),
          Item: {
            pk: 'P#a',
            sk: 'LATEST',
            rev: 1,
            version: '1.0.0',
            scanned_at: 'T1',
            lpk: 'ALL',
            lsk: '5#a',
            item: { name: 'a' },
            doc: new Uint8Array([1, 2, 3]),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      ],
    ],
    [
      'the same put again',
      () => [
        'Put',
        {
          TableName: P(),
          Item: { pk: 'P#a', sk: 'LATEST' },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      ],
    ],
    [
      'an update on rev',
      () => [
        'Update',
        {
          TableName: P(),
          Key: { pk: 'P#a', sk: 'LATEST' },
          UpdateExpression: 'SET rev = :next, pending = :p',
          ConditionExpression: 'rev = :rev',
          ExpressionAttributeValues: { ':rev': 1, ':next': 2, ':p': '4#a' },
          ReturnValues: 'ALL_NEW',
        },
      ],
    ],
    [
      'a stale update on rev',
      () => [
        'Update',
        {
          TableName: P(),
          Key: { pk: 'P#a', sk: 'LATEST' },
          UpdateExpression: 'SET rev = :next',
          ConditionExpression: 'rev = :rev',
          ExpressionAttributeValues: { ':rev': 1, ':next': 2 },
        },
      ],
    ],
    [
      'the refresh condition',
      () => [
        'Update',
        {
          TableName: P(),
          Key: { pk: 'P#a', sk: 'LATEST' },
          UpdateExpression: 'SET #item = :item',
          ConditionExpression:
            'rev = :rev AND version = :version AND (attribute_not_exists(scanned_at) OR scanned_at = :s)',
          ExpressionAttributeNames: { '#item': 'item' },
          ExpressionAttributeValues: {
            ':rev': 2,
            ':version': '1.0.0',
            ':s': 'T1',
            ':item': { name: 'a', n: 1 },
          },
        },
      ],
    ],
    [
      'REMOVE markers',
      () => [
        'Update',
        {
          TableName: P(),
          Key: { pk: 'P#a', sk: 'LATEST' },
          UpdateExpression: 'REMOVE pending, cleanup',
          ConditionExpression: 'rev = :rev',
          ExpressionAttributeValues: { ':rev': 2 },
          ReturnValues: 'ALL_OLD',
        },
      ],
    ],
    [
      'a tag put, older scan',
      () => [
        'Put',
        {
          TableName: P(),
          Item: { pk: 'P#a', sk: 'T#latest', version: '0.9.0', scanned_at: 'T0' },
          ConditionExpression: 'attribute_not_exists(scanned_at) OR scanned_at <= :s',
          ExpressionAttributeValues: { ':s': 'T0' },
        },
      ],
    ],
    [
      'a tag put, newer scan first',
      () => [
        'Put',
        { TableName: P(), Item: { pk: 'P#a', sk: 'T#next', version: '1.0.0', scanned_at: 'T2' } },
      ],
    ],
    [
      'a tag put, then an older one',
      () => [
        'Put',
        {
          TableName: P(),
          Item: { pk: 'P#a', sk: 'T#next', version: '0.1.0', scanned_at: 'T1' },
          ConditionExpression: 'attribute_not_exists(scanned_at) OR scanned_at <= :s',
          ExpressionAttributeValues: { ':s': 'T1' },
        },
      ],
    ],
    [
      'a counter',
      () => [
        'Update',
        {
          TableName: P(),
          Key: { pk: 'META', sk: 'TOTAL' },
          UpdateExpression: 'ADD n :one',
          ExpressionAttributeValues: { ':one': 1 },
          ReturnValues: 'UPDATED_NEW',
        },
      ],
    ],
    [
      'a cancelled transaction',
      () => [
        'TransactWrite',
        {
          TransactItems: [
            {
              Put: {
                TableName: P(),
                Item: { pk: 'P#a', sk: 'LATEST', rev: 9 },
                ConditionExpression: 'rev = :rev',
                ExpressionAttributeValues: { ':rev': 7 },
              },
            },
            {
              Update: {
                TableName: P(),
                Key: { pk: 'META', sk: 'TOTAL' },
                UpdateExpression: 'ADD n :one',
                ExpressionAttributeValues: { ':one': 1 },
              },
            },
          ],
        },
      ],
    ],
    [
      'a transaction touching one item twice',
      () => [
        'TransactWrite',
        {
          TransactItems: [
            { Put: { TableName: P(), Item: { pk: 'P#z', sk: 'LATEST' } } },
            { Put: { TableName: P(), Item: { pk: 'P#z', sk: 'LATEST' } } },
          ],
        },
      ],
    ],
    [
      'blocks',
      () => [
        'BatchWrite',
        {
          RequestItems: {
            [P()]: ['B#', 'B#m', 'B#t'].map((sk, i) => ({
              PutRequest: { Item: { pk: 'ALL', sk, e: `${sk}x`, c: 1, v: i + 1 } },
            })),
          },
        },
      ],
    ],
    [
      'the block for a rank',
      () => [
        'Query',
        {
          TableName: P(),
          KeyConditionExpression: 'pk = :l AND sk BETWEEN :first AND :upto',
          ExpressionAttributeValues: { ':l': 'ALL', ':first': 'B#', ':upto': 'B#p' },
          ScanIndexForward: false,
          Limit: 1,
          ConsistentRead: true,
        },
      ],
    ],
    [
      'blocks in order, one page of two',
      () => [
        'Query',
        {
          TableName: P(),
          KeyConditionExpression: 'pk = :l AND begins_with(sk, :b)',
          ExpressionAttributeValues: { ':l': 'ALL', ':b': 'B#' },
          Limit: 2,
        },
      ],
    ],
    [
      'the next page',
      () => [
        'Query',
        {
          TableName: P(),
          KeyConditionExpression: 'pk = :l AND begins_with(sk, :b)',
          ExpressionAttributeValues: { ':l': 'ALL', ':b': 'B#' },
          Limit: 2,
          ExclusiveStartKey: { pk: 'ALL', sk: 'B#m' },
        },
      ],
    ],
    [
      'a block write on its version',
      () => [
        'Put',
        {
          TableName: P(),
          Item: { pk: 'ALL', sk: 'B#', e: 'a', c: 1, v: 9 },
          ConditionExpression: 'v = :v',
          ExpressionAttributeValues: { ':v': 3 },
        },
      ],
    ],
    [
      'the list index',
      () => [
        'Query',
        {
          TableName: P(),
          IndexName: 'by-downloads',
          KeyConditionExpression: 'lpk = :p',
          ExpressionAttributeValues: { ':p': 'ALL' },
          ProjectionExpression: '#item',
          ExpressionAttributeNames: { '#item': 'item' },
          Limit: 10,
        },
      ],
    ],
    [
      'a consistent read of the index',
      () => [
        'Query',
        {
          TableName: P(),
          IndexName: 'by-downloads',
          KeyConditionExpression: 'lpk = :p',
          ExpressionAttributeValues: { ':p': 'ALL' },
          ConsistentRead: true,
        },
      ],
    ],
    [
      'a batch get with a projection',
      () => [
        'BatchGet',
        {
          RequestItems: {
            [P()]: {
              Keys: [
                { pk: 'P#a', sk: 'LATEST' },
                { pk: 'P#none', sk: 'LATEST' },
                { pk: 'META', sk: 'TOTAL' },
              ],
              ProjectionExpression: 'pk, #item, n',
              ExpressionAttributeNames: { '#item': 'item' },
            },
          },
        },
      ],
    ],
    [
      'a get with a projection',
      () => [
        'Get',
        {
          TableName: P(),
          Key: { pk: 'P#a', sk: 'LATEST' },
          ProjectionExpression: 'version, lsk, rev, pending, cleanup, scanned_at',
          ConsistentRead: true,
        },
      ],
    ],
    [
      'an unused value',
      () => [
        'Update',
        {
          TableName: P(),
          Key: { pk: 'P#a', sk: 'LATEST' },
          UpdateExpression: 'SET a = :a',
          ExpressionAttributeValues: { ':a': 1, ':b': 2 },
        },
      ],
    ],
    [
      'an unused name',
      () => [
        'Get',
        {
          TableName: P(),
          Key: { pk: 'P#a', sk: 'LATEST' },
          ProjectionExpression: 'pk',
          ExpressionAttributeNames: { '#x': 'x' },
        },
      ],
    ],
    [
      'an undefined value',
      () => ['Update', { TableName: P(), Key: { pk: 'P#a', sk: 'LATEST' }, UpdateExpression: 'SET a = :a' }],
    ],
    [
      'overlapping paths',
      () => [
        'Update',
        {
          TableName: P(),
          Key: { pk: 'P#a', sk: 'LATEST' },
          UpdateExpression: 'SET a = :a REMOVE a',
          ExpressionAttributeValues: { ':a': 1 },
        },
      ],
    ],
    [
      'a key attribute updated',
      () => [
        'Update',
        {
          TableName: P(),
          Key: { pk: 'P#a', sk: 'LATEST' },
          UpdateExpression: 'SET sk = :a',
          ExpressionAttributeValues: { ':a': 'x' },
        },
      ],
    ],
    ['an incomplete key', () => ['Get', { TableName: P(), Key: { pk: 'P#a' } }]],
    [
      'a marker takeover',
      () => [
        'TransactWrite',
        {
          TransactItems: [
            {
              Put: {
                TableName: J(),
                Item: { pk: 'ACTIVE#a@1', job_id: 'j1', expires_at: 100 },
                ConditionExpression: 'attribute_not_exists(pk) OR expires_at < :now',
                ExpressionAttributeValues: { ':now': 50 },
              },
            },
            { Put: { TableName: J(), Item: { pk: 'JOB#j1', status: 'queued' } } },
          ],
        },
      ],
    ],
    [
      'a second one, refused',
      () => [
        'TransactWrite',
        {
          TransactItems: [
            {
              Put: {
                TableName: J(),
                Item: { pk: 'ACTIVE#a@1', job_id: 'j2', expires_at: 100 },
                ConditionExpression: 'attribute_not_exists(pk) OR expires_at < :now',
                ExpressionAttributeValues: { ':now': 50 },
              },
            },
            { Put: { TableName: J(), Item: { pk: 'JOB#j2', status: 'queued' } } },
          ],
        },
      ],
    ],
    [
      'markRunning',
      () => [
        'Update',
        {
          TableName: J(),
          Key: { pk: 'JOB#j1' },
          UpdateExpression:
            'SET #s = :running, updated_at = :now, started_at = if_not_exists(started_at, :now)',
          ConditionExpression: 'attribute_exists(pk) AND #s IN (:queued, :running)',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':running': 'running', ':queued': 'queued', ':now': 'T1' },
          ReturnValues: 'ALL_NEW',
        },
      ],
    ],
    [
      'finish',
      () => [
        'Update',
        {
          TableName: J(),
          Key: { pk: 'JOB#j1' },
          UpdateExpression: 'SET #s = :status, updated_at = :now',
          ConditionExpression: 'attribute_exists(pk) AND #s <> :completed',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':status': 'completed', ':now': 'T2', ':completed': 'completed' },
        },
      ],
    ],
    [
      'finish again, refused',
      () => [
        'Update',
        {
          TableName: J(),
          Key: { pk: 'JOB#j1' },
          UpdateExpression: 'SET #s = :status',
          ConditionExpression: 'attribute_exists(pk) AND #s <> :completed',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':status': 'failed', ':completed': 'completed' },
        },
      ],
    ],
    [
      'a marker delete for another job',
      () => [
        'Delete',
        {
          TableName: J(),
          Key: { pk: 'ACTIVE#a@1' },
          ConditionExpression: 'attribute_not_exists(pk) OR job_id = :id',
          ExpressionAttributeValues: { ':id': 'j9' },
        },
      ],
    ],
    [
      'the marker delete',
      () => [
        'Delete',
        {
          TableName: J(),
          Key: { pk: 'ACTIVE#a@1' },
          ConditionExpression: 'job_id = :old',
          ExpressionAttributeValues: { ':old': 'j1' },
        },
      ],
    ],
    [
      'a delete of a missing marker on its job',
      () => [
        'Delete',
        {
          TableName: J(),
          Key: { pk: 'ACTIVE#a@1' },
          ConditionExpression: 'job_id = :old',
          ExpressionAttributeValues: { ':old': 'j1' },
        },
      ],
    ],
  ];

  it.each(steps.map(([title, step]) => [title, step] as const))('%s', async (_title, step) => {
    const [command, input] = step();
    const { real, fake: faked } = await both(command, input);
    expect(faked).toEqual(real);
  });

  it('leaves the same items', async () => {
    expect(fake.scan(packages).length).toBeGreaterThan(0);
    expect(normalise([...fake.scan(packages)])).toEqual(await tableItems(packages));
    expect(normalise([...fake.scan(jobs)])).toEqual(await tableItems(jobs));
  });
});

describe('the stores leave the same items in both', () => {
  it('after scans, moves, refreshes, replacements, seeding and jobs', async () => {
    const endpoint = process.env.PKGSCAN_IT_DYNAMODB_ENDPOINT!;
    const prefix = `fs-${randomBytes(4).toString('hex')}-`;
    await createTables(localDynamoClient(endpoint), [PACKAGES_TABLE, JOBS_TABLE], (spec) =>
      tableName(spec, prefix),
    );
    const [p, j] = [tableName(PACKAGES_TABLE, prefix), tableName(JOBS_TABLE, prefix)];
    const run = async (client: DynamoDBDocumentClient) => {
      const store = new PackageStore(client, p);
      const rec = (name: string, version: string, weekly_downloads: number) =>
        packageRecord({ name, version, weekly_downloads });
      await store.putScan(rec('conf-pkg', '1.0.0', 10), { distTags: ['latest'] });
      await store.putScan(rec('conf-pkg', '1.1.0', 20), {
        distTags: ['latest'],
        basis: { risk_input: 1, trust: { score: 3, reasons: [] } },
      });
      await store.putScan(rec('conf-pkg', '0.9.0', 99));
      await store.refreshResult(rec('conf-pkg', '1.1.0', 5));
      await store.replaceResult({ ...rec('conf-pkg', '1.1.0', 5), risk_level: 'warning' });
      await store.bulkLoadNew(Array.from({ length: 30 }, (_, i) => rec(`conf-bulk-${i}`, '1.0.0', i)));
      await store.putScan(rec('conf-bulk-3', '2.0.0', 3000));
      await store.putJobState('conf', { cursor: 'x' });
      const jobStore = new JobStore(client, j, () => new Date('2026-11-20T12:00:00.000Z'));
      const spec = { source: 'registry', name: 'conf-pkg', version: '1.1.0', registry: 'npm' } as const;
      const { job } = await jobStore.create(spec, '00000000-0000-4000-8000-0000000000c1');
      await jobStore.markSent(job.job_id);
      await jobStore.markRunning(job.job_id);
      const joined = await jobStore.create(spec, '00000000-0000-4000-8000-0000000000c2');
      await jobStore.complete(job.job_id, packageRecord({ name: 'conf-pkg', version: '1.1.0' }));
      await jobStore.fail(job.job_id, 'late');
      await jobStore.recordDuration(1234);
      return {
        search: await store.search('conf', 50, 0),
        list: await store.list(5, 2),
        first: await store.list(3, 0),
        versions: (await store.versions('conf-pkg')).map((v) => v.result.version),
        joined,
        durations: await jobStore.recentDurations(),
      };
    };
    const twin = new FakeDynamo().addTable(p, PACKAGES_TABLE).addTable(j, JOBS_TABLE);
    const client = MockedClient.on(twin);
    try {
      const real = await run(doc);
      const faked = await run(client.doc);
      expect(normalise(faked)).toEqual(normalise(real));
      expect(normalise([...twin.scan(p)])).toEqual(await tableItems(p));
      expect(normalise([...twin.scan(j)])).toEqual(await tableItems(j));
    } finally {
      client.stub.restore();
    }
  }, 60_000);
});
