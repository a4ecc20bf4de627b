/**
 * PostingBlocks on the in-memory DynamoDB: sorted inserts and removals, splits of a full block,
 * emptied blocks, reads that stop early, bulk rewrites, and conflicts between writers of one
 * block (retried, then given up).
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BLOCK_MAX_BYTES, PostingBlocks, chunkByBytes } from '../../../lambdas/shared/store/posting-blocks';
import { PACKAGES_TABLE } from '../../../lambdas/shared/store/tables';
import { FakeDynamo, type Item } from './support/fake-dynamo';
import { MockedClient } from './support/mocked-client';
import { blockProblems } from './support/package-state';

const TABLE = 'packages-unit';
let fake: FakeDynamo;
let client: MockedClient;
let blocks: PostingBlocks;

beforeAll(() => {
  client = new MockedClient();
});
afterAll(() => client.stub.restore());
beforeEach(() => {
  fake = new FakeDynamo().addTable(TABLE, PACKAGES_TABLE);
  client.stub.resetHistory();
  client.serve = (command, input) => fake.handle(command, input);
  blocks = new PostingBlocks(client.doc, TABLE);
});

const blockItems = (list: string) => fake.scan(TABLE).filter((i) => i.pk === list);
/** Entries long enough that a few hundred fill several blocks. */
const entry = (i: number) => `${String(i).padStart(6, '0')}#${'x'.repeat(400)}`;

describe('PostingBlocks', () => {
  it('keeps entries sorted and unique across inserts in any order', async () => {
    for (const rank of ['b', 'a', 'c', 'a']) await blocks.add('L', rank);
    expect(blockItems('L')).toEqual([{ pk: 'L', sk: 'B#', e: 'a\nb\nc', c: 3, v: 3 }]);
    expect((await blocks.readAll('L')).entries).toEqual(['a', 'b', 'c']);
    await blocks.remove('L', 'b');
    await blocks.remove('L', 'zz');
    expect((await blocks.readAll('L')).entries).toEqual(['a', 'c']);
    expect(await blocks.readAll('none')).toEqual({ entries: [], itemsRead: 0 });
  });

  it('splits a block that outgrows the limit into half-full blocks, in one transaction', async () => {
    const n = Math.floor(BLOCK_MAX_BYTES / 407) + 1; // one more than a block holds
    for (let i = 0; i < n; i++) await blocks.add('L', entry(i));
    const items = blockItems('L');
    expect(items.map((i) => i.sk)).toEqual(['B#', `B#${entry(n >> 1)}`]);
    expect(items.map((i) => i.c)).toEqual([n >> 1, n - (n >> 1)]);
    expect(fake.calls.filter((c) => c.command === 'TransactWrite')).toHaveLength(1);
    expect(blockProblems(fake)).toEqual([]);
    // Inserts go to the block whose range holds them.
    await blocks.add('L', `${entry(n)}z`);
    await blocks.add('L', '0');
    expect(blockItems('L').map((i) => i.c)).toEqual([(n >> 1) + 1, n - (n >> 1) + 1]);
    expect((await blocks.readAll('L')).entries).toEqual([
      '0',
      ...Array.from({ length: n }, (_, i) => entry(i)),
      `${entry(n)}z`,
    ]);
    // A read that wants only the first entries stops after the block that holds them.
    expect(await blocks.readUntil('L', 3)).toMatchObject({ itemsRead: 1 });
    expect((await blocks.readAll('L')).itemsRead).toBe(2);
  });

  it('deletes a block other than the first once it is empty, and keeps an empty first block', async () => {
    const n = Math.floor(BLOCK_MAX_BYTES / 407) + 1; // one more than a block holds
    for (let i = 0; i < n; i++) await blocks.add('L', entry(i));
    for (let i = n >> 1; i < n; i++) await blocks.remove('L', entry(i));
    expect(blockItems('L').map((i) => i.sk)).toEqual(['B#']);
    for (let i = 0; i < n >> 1; i++) await blocks.remove('L', entry(i));
    expect(blockItems('L')).toEqual([{ pk: 'L', sk: 'B#', e: '', c: 0, v: expect.any(Number) }]);
    expect(await blocks.readAll('L')).toEqual({ entries: [], itemsRead: 1 });
  });

  it('rewrites whole lists, merged with what they hold, and deletes blocks no longer needed', async () => {
    const n = Math.floor(BLOCK_MAX_BYTES / 407) + 1; // one more than a block holds
    for (let i = 0; i < n; i++) await blocks.add('L', entry(i));
    expect(blockItems('L')).toHaveLength(2);
    const written: Item[][] = [];
    await blocks.rewrite(
      new Map([
        ['L', [entry(n + 1), entry(0)]],
        ['M', ['m']],
      ]),
      async (items) => {
        written.push(items);
        fake.seed(TABLE, items);
      },
    );
    expect(written).toHaveLength(1);
    // Densely packed again: the merged list fills the first block to the limit.
    const merged = [...Array.from({ length: n }, (_, i) => entry(i)), entry(n + 1)];
    expect(blockItems('L').map((i) => i.sk)).toEqual(
      chunkByBytes(merged).map((c, i) => (i === 0 ? 'B#' : `B#${c[0]}`)),
    );
    expect((await blocks.readAll('L')).entries).toEqual(merged);
    expect((await blocks.readAll('M')).entries).toEqual(['m']);
    expect(blockProblems(fake)).toEqual([]);
    // A list packed into fewer blocks loses the others.
    fake.seed(TABLE, [
      { pk: 'S', sk: 'B#', e: 'a', c: 1, v: 1 },
      { pk: 'S', sk: 'B#y', e: 'y', c: 1, v: 1 },
    ]);
    await blocks.rewrite(new Map([['S', []]]), async (items) => fake.seed(TABLE, items));
    expect(blockItems('S')).toEqual([{ pk: 'S', sk: 'B#', e: 'a\ny', c: 2, v: 1 }]);
  });

  it('packs entries densely for bulk loads', () => {
    expect(chunkByBytes([])).toEqual([]);
    const chunks = chunkByBytes(Array.from({ length: 500 }, (_, i) => entry(i)));
    expect(chunks.flat()).toHaveLength(500);
    for (const c of chunks)
      expect(c.reduce((s, e) => s + e.length + 1, 0)).toBeLessThanOrEqual(BLOCK_MAX_BYTES);
    expect(chunks.length).toBe(Math.ceil((500 * 408) / BLOCK_MAX_BYTES));
  });

  it('retries a write that lost a race for its block, and gives up after forty', async () => {
    jest.useFakeTimers();
    try {
      let conflicts = 1;
      client.serve = (command, input) => {
        if (command === 'Put' && conflicts-- > 0) {
          // Another writer got there first.
          fake.handle('Put', { TableName: TABLE, Item: { pk: 'L', sk: 'B#', e: 'b', c: 1, v: 7 } });
        }
        return fake.handle(command, input);
      };
      const adding = blocks.add('L', 'a');
      await jest.runAllTimersAsync();
      await adding;
      expect((await blocks.readAll('L')).entries).toEqual(['a', 'b']);

      client.serve = (command, input) => {
        if (command === 'Put')
          throw new TransactionCanceledException({ message: 'cancelled', $metadata: {} });
        return fake.handle(command, input);
      };
      const failing = blocks.add('L', 'c').catch((error: unknown) => error);
      await jest.runAllTimersAsync();
      expect(await failing).toBeInstanceOf(TransactionCanceledException);
      expect(client.stub.send.callCount).toBeGreaterThanOrEqual(80);

      client.serve = (command, input) => {
        if (command === 'Put') throw new Error('throttled');
        return fake.handle(command, input);
      };
      await expect(blocks.add('L', 'c')).rejects.toThrow('throttled');
    } finally {
      jest.useRealTimers();
    }
  });
});
