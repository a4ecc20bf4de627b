/**
 * Sorted posting lists packed into blocks: one DynamoDB item holds up to BLOCK_MAX_BYTES of
 * ranks (`<inverted downloads>#<name>`), in order. A list of 2,000 names is one or two items
 * instead of 2,000, so reading it costs a few items whatever its length.
 *
 * Layout: pk = the list (`G#<trigram>`, or `ALL` for every package), sk = `B#<first rank>`,
 * except the first block, whose sk is `B#` (it takes every rank below the next block's).
 * Attributes: `e` (the ranks joined by newlines), `c` (their count), `v` (a version for
 * optimistic concurrency). A rank goes into the block with the greatest sk <= `B#<rank>`.
 * Writes are conditional on `v` and retried; a block that outgrows the limit is split in two
 * in one transaction.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from './batch';

export const BLOCK_MAX_BYTES = 48 * 1024;
const FIRST_BLOCK = 'B#';
/** Concurrent writers of one block retry; each round lets at least one of them through. */
const MAX_ATTEMPTS = 40;

interface Block {
  sk: string;
  entries: string[];
  v: number | undefined;
}

export interface BlockRead {
  readonly entries: string[];
  /** Block items read. */
  readonly itemsRead: number;
}

export class PostingBlocks {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Adds `rank` to `list` (no effect when present). */
  async add(list: string, rank: string): Promise<void> {
    await this.update(list, rank, (entries) => {
      const at = lowerBound(entries, rank);
      if (entries[at] === rank) return false;
      entries.splice(at, 0, rank);
      return true;
    });
  }

  /** Removes `rank` from `list` (no effect when absent). */
  async remove(list: string, rank: string): Promise<void> {
    await this.update(list, rank, (entries) => {
      const at = lowerBound(entries, rank);
      if (entries[at] !== rank) return false;
      entries.splice(at, 1);
      return true;
    });
  }

  /** Every entry of `list`, in order. */
  async readAll(list: string): Promise<BlockRead> {
    return this.readUntil(list, Number.POSITIVE_INFINITY);
  }

  /** The entries of `list` in order, reading blocks until at least `wanted` are collected. */
  async readUntil(list: string, wanted: number): Promise<BlockRead> {
    const entries: string[] = [];
    let itemsRead = 0;
    // Blocks are large: a few per round trip when only the first entries are wanted.
    for await (const block of this.blocksOf(list, { pageSize: Number.isFinite(wanted) ? 4 : undefined })) {
      itemsRead++;
      entries.push(...block.entries);
      if (entries.length >= wanted) break;
    }
    return { entries, itemsRead };
  }

  /** The blocks of `list` in key order, page by page. */
  private async *blocksOf(
    list: string,
    opts: { pageSize?: number; consistent?: boolean } = {},
  ): AsyncGenerator<Block> {
    let key: Record<string, unknown> | undefined;
    do {
      const out = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :l AND begins_with(sk, :b)',
          ExpressionAttributeValues: { ':l': list, ':b': FIRST_BLOCK },
          ...(opts.pageSize !== undefined ? { Limit: opts.pageSize } : {}),
          ...(opts.consistent ? { ConsistentRead: true } : {}),
          ExclusiveStartKey: key,
        }),
      );
      for (const item of out.Items ?? []) yield toBlock(item);
      key = out.LastEvaluatedKey;
    } while (key);
  }

  /**
   * Replaces the whole of each list with the given entries (sorted here). Not safe against
   * concurrent writers of the same lists: for seeding benchmarks and fixtures.
   */
  async rewrite(
    lists: Map<string, string[]>,
    put: (items: Record<string, unknown>[]) => Promise<void>,
  ): Promise<void> {
    const items: Record<string, unknown>[] = [];
    const stale: Array<{ pk: string; sk: string }> = [];
    for (const [list, added] of lists) {
      const existing: Block[] = [];
      for await (const block of this.blocksOf(list, { consistent: true })) existing.push(block);
      const merged = [...new Set([...existing.flatMap((b) => b.entries), ...added])].sort();
      const blocks = chunkByBytes(merged);
      const keep = new Set<string>();
      blocks.forEach((entries, i) => {
        const sk = i === 0 ? FIRST_BLOCK : `${FIRST_BLOCK}${entries[0]}`;
        keep.add(sk);
        items.push({ pk: list, sk, e: entries.join('\n'), c: entries.length, v: 1 });
      });
      for (const block of existing) if (!keep.has(block.sk)) stale.push({ pk: list, sk: block.sk });
    }
    await put(items);
    await Promise.all(
      stale.map((key) => this.doc.send(new DeleteCommand({ TableName: this.tableName, Key: key }))),
    );
  }

  /** The block `rank` belongs to (the first block, empty, when the list has none yet). */
  private async blockFor(list: string, rank: string): Promise<Block> {
    const out = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :l AND sk BETWEEN :first AND :upto',
        ExpressionAttributeValues: { ':l': list, ':first': FIRST_BLOCK, ':upto': `${FIRST_BLOCK}${rank}` },
        ScanIndexForward: false,
        Limit: 1,
        ConsistentRead: true,
      }),
    );
    const item = out.Items?.[0];
    return item ? toBlock(item) : { sk: FIRST_BLOCK, entries: [], v: undefined };
  }

  private async update(list: string, rank: string, change: (entries: string[]) => boolean): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const block = await this.blockFor(list, rank);
      if (!change(block.entries)) return;
      try {
        await this.write(list, block);
        return;
      } catch (error) {
        const conflict = error instanceof TransactionCanceledException || isConditionFailure(error);
        if (!conflict || attempt >= MAX_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 10 * attempt)));
      }
    }
  }

  private async write(list: string, block: Block): Promise<void> {
    const condition =
      block.v === undefined
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : { ConditionExpression: 'v = :v', ExpressionAttributeValues: { ':v': block.v } };
    const v = (block.v ?? 0) + 1;
    const parts = splitInHalves(block.entries);
    if (block.entries.length === 0 && block.sk !== FIRST_BLOCK) {
      await this.doc.send(
        new DeleteCommand({ TableName: this.tableName, Key: { pk: list, sk: block.sk }, ...condition }),
      );
      return;
    }
    if (parts.length <= 1) {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: list, sk: block.sk, e: block.entries.join('\n'), c: block.entries.length, v },
          ...condition,
        }),
      );
      return;
    }
    // Split: the block keeps its key for the first part; the others get keys of their own.
    await this.doc.send(
      new TransactWriteCommand({
        TransactItems: parts.map((entries, i) => ({
          Put: {
            TableName: this.tableName,
            Item: {
              pk: list,
              sk: i === 0 ? block.sk : `${FIRST_BLOCK}${entries[0]}`,
              e: entries.join('\n'),
              c: entries.length,
              v: i === 0 ? v : 1,
            },
            ...(i === 0 ? condition : { ConditionExpression: 'attribute_not_exists(pk)' }),
          },
        })),
      }),
    );
  }
}

function toBlock(item: Record<string, unknown>): Block {
  const e = typeof item.e === 'string' ? item.e : '';
  return { sk: String(item.sk), entries: e === '' ? [] : e.split('\n'), v: Number(item.v) };
}

/**
 * The entries as one block, or halved (recursively) until each part fits: a block that
 * overflows splits into two half-full ones, so the next inserts do not split it again.
 */
function splitInHalves(entries: string[]): string[][] {
  const bytes = entries.reduce((sum, entry) => sum + Buffer.byteLength(entry) + 1, 0);
  if (bytes <= BLOCK_MAX_BYTES || entries.length < 2) return [entries];
  const mid = entries.length >> 1;
  return [...splitInHalves(entries.slice(0, mid)), ...splitInHalves(entries.slice(mid))];
}

/** Consecutive runs of entries, each under BLOCK_MAX_BYTES once joined (dense packing for bulk loads). */
export function chunkByBytes(entries: readonly string[]): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = Buffer.byteLength(entry) + 1;
    if (current.length > 0 && bytes + size > BLOCK_MAX_BYTES) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(entry);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

function lowerBound(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
