/**
 * The in-memory DynamoDB the store tests run on (./support/fake-dynamo.ts): the condition,
 * update and key-condition expressions the stores send, with DynamoDB's answers.
 * test/integration/fake-dynamo-conformance.test.ts sends the same requests to DynamoDB Local.
 */
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { JOBS_TABLE, PACKAGES_TABLE } from '../../../lambdas/shared/store/tables';
import { FakeDynamo, ValidationException, type Item } from './support/fake-dynamo';

const P = 'packages';
const J = 'jobs';
let fake: FakeDynamo;

beforeEach(() => {
  fake = new FakeDynamo().addTable(P, PACKAGES_TABLE).addTable(J, JOBS_TABLE);
});

const put = (item: Item, extra: Item = {}) => fake.handle('Put', { TableName: P, Item: item, ...extra });
const update = (key: Item, extra: Item) => fake.handle('Update', { TableName: P, Key: key, ...extra });
const failsWith = (fn: () => unknown, type: new (...args: never[]) => Error) => expect(fn).toThrow(type);

describe('condition expressions', () => {
  const row = { pk: 'P#a', sk: 'LATEST', rev: 2, version: '1.0.0', scanned_at: 'T1' };

  it('attribute_not_exists and attribute_exists on new and existing items', () => {
    put(row, { ConditionExpression: 'attribute_not_exists(pk)' });
    failsWith(
      () => put(row, { ConditionExpression: 'attribute_not_exists(pk)' }),
      ConditionalCheckFailedException,
    );
    put(row, { ConditionExpression: 'attribute_exists(pk)' });
    failsWith(
      () => put({ pk: 'P#b', sk: 'LATEST' }, { ConditionExpression: 'attribute_exists(pk)' }),
      ConditionalCheckFailedException,
    );
  });

  it('comparisons, AND, OR, NOT and parentheses', () => {
    put(row);
    const holds = (expr: string, values: Item = {}, names?: Record<string, string>) => {
      try {
        update(
          { pk: 'P#a', sk: 'LATEST' },
          {
            UpdateExpression: 'SET touched = :t',
            ConditionExpression: expr,
            ExpressionAttributeValues: { ':t': true, ...values },
            ...(names ? { ExpressionAttributeNames: names } : {}),
          },
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    };
    expect(holds('rev = :rev', { ':rev': 2 })).toBe(true);
    expect(holds('rev = :rev', { ':rev': '2' })).toBe(false); // types differ
    expect(holds('rev <> :rev', { ':rev': 3 })).toBe(true);
    expect(holds('missing <> :v', { ':v': 'x' })).toBe(true);
    expect(holds('missing = :v', { ':v': 'x' })).toBe(false);
    expect(holds('missing < :v', { ':v': 'x' })).toBe(false);
    expect(holds('scanned_at <= :s', { ':s': 'T1' })).toBe(true);
    expect(holds('scanned_at < :s', { ':s': 'T1' })).toBe(false);
    expect(holds('scanned_at >= :s AND scanned_at > :r', { ':s': 'T1', ':r': 'T0' })).toBe(true);
    expect(holds('attribute_not_exists(scanned_at) OR scanned_at = :s', { ':s': 'T9' })).toBe(false);
    expect(holds('attribute_not_exists(other) OR scanned_at = :s', { ':s': 'T9' })).toBe(true);
    expect(holds('NOT (rev = :a OR rev = :b)', { ':a': 1, ':b': 3 })).toBe(true);
    expect(
      holds('rev = :a AND version = :v AND (attribute_not_exists(scanned_at) OR scanned_at = :s)', {
        ':a': 2,
        ':v': '1.0.0',
        ':s': 'T1',
      }),
    ).toBe(true);
    expect(holds('#s IN (:a, :b)', { ':a': '1.0.0', ':b': 'x' }, { '#s': 'version' })).toBe(true);
    expect(holds('#s IN (:a, :b)', { ':a': 'y', ':b': 'x' }, { '#s': 'version' })).toBe(false);
    expect(holds('rev BETWEEN :a AND :b', { ':a': 1, ':b': 2 })).toBe(true);
    expect(holds('begins_with(version, :p)', { ':p': '1.' })).toBe(true);
    expect(holds('begins_with(rev, :p)', { ':p': '2' })).toBe(false);
    expect(holds('rev < :ten', { ':ten': 10 })).toBe(true); // numbers by value, not as text
  });

  it('refuses placeholders that are undefined or unused, and syntax it does not know', () => {
    put(row);
    const key = { pk: 'P#a', sk: 'LATEST' };
    failsWith(() => update(key, { UpdateExpression: 'SET a = :a' }), ValidationException);
    failsWith(
      () => update(key, { UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1, ':b': 2 } }),
      ValidationException,
    );
    failsWith(
      () =>
        update(key, {
          UpdateExpression: 'SET a = :a',
          ExpressionAttributeValues: { ':a': 1 },
          ExpressionAttributeNames: { '#x': 'x' },
        }),
      ValidationException,
    );
    failsWith(
      () => update(key, { UpdateExpression: 'SET #x = :a', ExpressionAttributeValues: { ':a': 1 } }),
      ValidationException,
    );
    failsWith(
      () => update(key, { UpdateExpression: 'SET a.b = :a', ExpressionAttributeValues: { ':a': 1 } }),
      ValidationException,
    );
    failsWith(
      () =>
        update(key, {
          UpdateExpression: 'SET a = :a',
          ConditionExpression: 'size(a) > :a',
          ExpressionAttributeValues: { ':a': 1 },
        }),
      ValidationException,
    );
  });
});

describe('update expressions', () => {
  const key = { pk: 'P#a', sk: 'LATEST' };

  it('SET, if_not_exists, arithmetic, REMOVE and ADD, with what each ReturnValues gives', () => {
    expect(
      update(key, {
        UpdateExpression: 'ADD n :one',
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    ).toEqual({
      Attributes: { n: 1 },
    });
    expect(
      update(key, {
        UpdateExpression:
          'SET started = if_not_exists(started, :now), b = :b, c = n + :two REMOVE gone ADD n :one',
        ExpressionAttributeValues: { ':now': 'T1', ':b': 'x', ':two': 2, ':one': 1 },
        ReturnValues: 'ALL_NEW',
      }),
    ).toEqual({ Attributes: { ...key, n: 2, started: 'T1', b: 'x', c: 3 } });
    update(key, {
      UpdateExpression: 'SET started = if_not_exists(started, :now)',
      ExpressionAttributeValues: { ':now': 'T2' },
    });
    expect(fake.item(P, key)?.started).toBe('T1');
    expect(update(key, { UpdateExpression: 'REMOVE b, c', ReturnValues: 'ALL_OLD' })).toMatchObject({
      Attributes: { b: 'x', c: 3 },
    });
    expect(fake.item(P, key)).toEqual({ ...key, n: 2, started: 'T1' });
  });

  it('refuses overlapping paths, key attributes, and a second clause of one kind', () => {
    failsWith(
      () => update(key, { UpdateExpression: 'SET a = :a REMOVE a', ExpressionAttributeValues: { ':a': 1 } }),
      ValidationException,
    );
    failsWith(
      () => update(key, { UpdateExpression: 'SET sk = :a', ExpressionAttributeValues: { ':a': 'x' } }),
      ValidationException,
    );
    failsWith(
      () =>
        update(key, { UpdateExpression: 'SET a = :a SET b = :a', ExpressionAttributeValues: { ':a': 1 } }),
      ValidationException,
    );
    failsWith(() => update(key, { UpdateExpression: 'SET a = missing' }), ValidationException);
  });

  it('creates the item when there is none and the condition allows it', () => {
    update(key, { UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1 } });
    expect(fake.item(P, key)).toEqual({ ...key, a: 1 });
  });
});

describe('transactions', () => {
  it('apply all or nothing, with a reason per item', () => {
    put({ pk: 'P#a', sk: 'LATEST', rev: 1 });
    const attempt = (rev: number) =>
      fake.handle('TransactWrite', {
        TransactItems: [
          {
            Put: {
              TableName: P,
              Item: { pk: 'P#a', sk: 'LATEST', rev: rev + 1 },
              ConditionExpression: 'rev = :rev',
              ExpressionAttributeValues: { ':rev': rev },
            },
          },
          {
            Update: {
              TableName: P,
              Key: { pk: 'META', sk: 'TOTAL' },
              UpdateExpression: 'ADD n :one',
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
        ],
      });
    let error: unknown;
    try {
      attempt(5);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TransactionCanceledException);
    expect((error as TransactionCanceledException).CancellationReasons?.map((r) => r.Code)).toEqual([
      'ConditionalCheckFailed',
      'None',
    ]);
    expect(fake.item(P, { pk: 'META', sk: 'TOTAL' })).toBeUndefined();
    attempt(1);
    expect(fake.item(P, { pk: 'META', sk: 'TOTAL' })).toMatchObject({ n: 1 });
    expect(fake.item(P, { pk: 'P#a', sk: 'LATEST' })).toMatchObject({ rev: 2 });
  });

  it('refuses two operations on one item', () => {
    const op = { Put: { TableName: P, Item: { pk: 'P#a', sk: 'LATEST' } } };
    failsWith(() => fake.handle('TransactWrite', { TransactItems: [op, op] }), ValidationException);
  });
});

describe('queries', () => {
  beforeEach(() => {
    for (const sk of ['B#', 'B#m', 'B#t']) put({ pk: 'ALL', sk, e: sk, v: 1 });
    put({ pk: 'ALLX', sk: 'B#', e: 'other' });
    put({ pk: 'P#a', sk: 'LATEST', lpk: 'ALL', lsk: '2#a', item: { name: 'a' }, doc: new Uint8Array([1]) });
    put({ pk: 'P#b', sk: 'LATEST', lpk: 'ALL', lsk: '1#b', item: { name: 'b' } });
    put({ pk: 'P#c', sk: 'V#1' });
  });
  const query = (extra: Item) =>
    fake.handle('Query', { TableName: P, ...extra }) as { Items: Item[]; LastEvaluatedKey?: Item };

  it('the block for a rank: greatest sort key at most the rank (BETWEEN, backwards, Limit 1)', () => {
    const out = query({
      KeyConditionExpression: 'pk = :l AND sk BETWEEN :first AND :upto',
      ExpressionAttributeValues: { ':l': 'ALL', ':first': 'B#', ':upto': 'B#p' },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    });
    expect(out.Items.map((i) => i.sk)).toEqual(['B#m']);
    expect(out.LastEvaluatedKey).toEqual({ pk: 'ALL', sk: 'B#m' });
  });

  it('pages with Limit and ExclusiveStartKey, within one partition', () => {
    const first = query({
      KeyConditionExpression: 'pk = :l AND begins_with(sk, :b)',
      ExpressionAttributeValues: { ':l': 'ALL', ':b': 'B#' },
      Limit: 2,
    });
    expect(first.Items.map((i) => i.sk)).toEqual(['B#', 'B#m']);
    const rest = query({
      KeyConditionExpression: 'pk = :l AND begins_with(sk, :b)',
      ExpressionAttributeValues: { ':l': 'ALL', ':b': 'B#' },
      Limit: 2,
      ExclusiveStartKey: first.LastEvaluatedKey,
    });
    expect(rest.Items.map((i) => i.sk)).toEqual(['B#t']);
    expect(rest.LastEvaluatedKey).toBeUndefined();
  });

  it('the index: sparse, in index key order, with its projection only', () => {
    const out = query({
      IndexName: 'by-downloads',
      KeyConditionExpression: 'lpk = :p',
      ExpressionAttributeValues: { ':p': 'ALL' },
      ProjectionExpression: '#item',
      ExpressionAttributeNames: { '#item': 'item' },
    });
    expect(out.Items).toEqual([{ item: { name: 'b' } }, { item: { name: 'a' } }]);
    const keys = query({
      IndexName: 'by-downloads',
      KeyConditionExpression: 'lpk = :p',
      ExpressionAttributeValues: { ':p': 'ALL' },
    });
    expect(keys.Items[1]).toEqual({ pk: 'P#a', sk: 'LATEST', lpk: 'ALL', lsk: '2#a', item: { name: 'a' } });
    failsWith(
      () =>
        query({
          IndexName: 'by-downloads',
          KeyConditionExpression: 'lpk = :p',
          ExpressionAttributeValues: { ':p': 'ALL' },
          ConsistentRead: true,
        }),
      ValidationException,
    );
  });

  it('refuses key conditions that are not a partition equality and one sort condition', () => {
    failsWith(
      () => query({ KeyConditionExpression: 'sk = :s', ExpressionAttributeValues: { ':s': 'B#' } }),
      ValidationException,
    );
    failsWith(
      () =>
        query({
          KeyConditionExpression: 'pk = :l AND e = :e',
          ExpressionAttributeValues: { ':l': 'ALL', ':e': 'x' },
        }),
      ValidationException,
    );
  });

  it('stops a page at 1 MB', () => {
    const big = 'x'.repeat(300 * 1024);
    for (let i = 0; i < 5; i++) put({ pk: 'BIG', sk: `B#${i}`, e: big });
    const out = query({ KeyConditionExpression: 'pk = :l', ExpressionAttributeValues: { ':l': 'BIG' } });
    expect(out.Items.length).toBe(4);
    expect(out.LastEvaluatedKey).toEqual({ pk: 'BIG', sk: 'B#3' });
  });
});

describe('items, keys and batches', () => {
  it('gets with a projection, and hands out copies', () => {
    put({ pk: 'P#a', sk: 'LATEST', doc: new Uint8Array([1, 2]), version: '1' });
    const out = fake.handle('Get', {
      TableName: P,
      Key: { pk: 'P#a', sk: 'LATEST' },
      ProjectionExpression: 'doc, missing',
    }) as { Item: Item };
    expect(out.Item).toEqual({ doc: new Uint8Array([1, 2]) });
    (out.Item.doc as Uint8Array)[0] = 9;
    expect(fake.item(P, { pk: 'P#a', sk: 'LATEST' })?.doc).toEqual(new Uint8Array([1, 2]));
    expect(fake.handle('Get', { TableName: P, Key: { pk: 'P#z', sk: 'LATEST' } })).toEqual({});
  });

  it('refuses keys that do not match the schema, items over 400 KB and unknown tables', () => {
    failsWith(() => fake.handle('Get', { TableName: P, Key: { pk: 'P#a' } }), ValidationException);
    failsWith(() => fake.handle('Get', { TableName: P, Key: { pk: 'P#a', sk: '' } }), ValidationException);
    failsWith(
      () => fake.handle('Get', { TableName: P, Key: { pk: 'x'.repeat(2049), sk: 's' } }),
      ValidationException,
    );
    failsWith(() => put({ pk: 'P#a', sk: 'V#1', doc: 'x'.repeat(401 * 1024) }), ValidationException);
    expect(() => fake.handle('Get', { TableName: 'nope', Key: { pk: 'a' } })).toThrow(/not found/);
    expect(() => fake.handle('Scan', { TableName: P })).toThrow(/does not serve/);
  });

  it('deletes on condition, on a table keyed by pk alone', () => {
    fake.handle('Put', { TableName: J, Item: { pk: 'ACTIVE#a@1', job_id: 'j1' } });
    const del = (id: string) =>
      fake.handle('Delete', {
        TableName: J,
        Key: { pk: 'ACTIVE#a@1' },
        ConditionExpression: 'job_id = :old',
        ExpressionAttributeValues: { ':old': id },
      });
    failsWith(() => del('j2'), ConditionalCheckFailedException);
    del('j1');
    expect(fake.item(J, { pk: 'ACTIVE#a@1' })).toBeUndefined();
  });

  it('batch gets and writes, with unprocessed keys when asked for', () => {
    fake.handle('BatchWrite', {
      RequestItems: {
        [P]: [
          { PutRequest: { Item: { pk: 'a', sk: '1', x: 1 } } },
          { PutRequest: { Item: { pk: 'b', sk: '1' } } },
        ],
      },
    });
    fake.unprocessedOnce = { get: 1, write: 1 };
    const got = fake.handle('BatchGet', {
      RequestItems: {
        [P]: {
          Keys: [
            { pk: 'a', sk: '1' },
            { pk: 'b', sk: '1' },
          ],
          ProjectionExpression: 'pk, x',
        },
      },
    }) as { Responses: Record<string, Item[]>; UnprocessedKeys: Record<string, { Keys: Item[] }> };
    expect(got.Responses[P]).toEqual([{ pk: 'a', x: 1 }]);
    expect(got.UnprocessedKeys[P]!.Keys).toEqual([{ pk: 'b', sk: '1' }]);
    const wrote = fake.handle('BatchWrite', {
      RequestItems: {
        [P]: [
          { DeleteRequest: { Key: { pk: 'a', sk: '1' } } },
          { PutRequest: { Item: { pk: 'c', sk: '1' } } },
        ],
      },
    }) as { UnprocessedItems: Record<string, Item[]> };
    expect(wrote.UnprocessedItems[P]).toHaveLength(1);
    expect(fake.item(P, { pk: 'a', sk: '1' })).toBeUndefined();
    failsWith(
      () =>
        fake.handle('BatchGet', {
          RequestItems: {
            [P]: {
              Keys: [
                { pk: 'a', sk: '1' },
                { pk: 'a', sk: '1' },
              ],
            },
          },
        }),
      ValidationException,
    );
  });

  it('copies: a twin shares nothing that a write could change', () => {
    put({ pk: 'P#a', sk: 'LATEST', rev: 1 });
    const twin = fake.copy();
    twin.handle('Update', {
      TableName: P,
      Key: { pk: 'P#a', sk: 'LATEST' },
      UpdateExpression: 'SET rev = :r',
      ExpressionAttributeValues: { ':r': 2 },
    });
    expect(fake.item(P, { pk: 'P#a', sk: 'LATEST' })?.rev).toBe(1);
    expect(twin.item(P, { pk: 'P#a', sk: 'LATEST' })?.rev).toBe(2);
  });
});
