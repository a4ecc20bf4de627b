/**
 * The search index: one posting list per lower-case trigram of the names (`G#<trigram>`) and
 * the `ALL` list of every package, each a sorted list of ranks packed in blocks
 * (./posting-blocks.ts), with approximate per-trigram counters (`GC#<trigram>`) to pick the
 * rarest trigram of a query. The write protocol (./package-writes.ts) decides when a rank is
 * added or removed; this module does the adding, removing and reading. docs/storage.md.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PackageList } from '../../../src/contract/schemas';
import { forEachLimit } from '../concurrency';
import { ALL_LIST, GRAM, gramCountKey, nameFromRank, postingPk, trigrams } from './keys';
import { PostingBlocks, type BlockRead } from './posting-blocks';
import type { PackageTable, Read } from './package-table';

/** Search considers at most this many of the query's trigrams when picking the rarest. */
const MAX_GRAMS_CONSIDERED = 24;

/** Every posting list a name belongs to: `ALL` and one per trigram of the name. */
export function postingLists(name: string): string[] {
  return [ALL_LIST, ...trigrams(name).map(postingPk)];
}

export class SearchIndex {
  readonly blocks: PostingBlocks;

  constructor(private readonly table: PackageTable) {
    this.blocks = new PostingBlocks(table.doc, table.name);
  }

  /**
   * Case-insensitive substring search on the full name. For 3+ characters it reads one
   * posting list (the query trigram with the fewest postings), so the cost follows the
   * number of candidate names, not the table; shorter queries read the `ALL` list. Posting
   * lists are packed in blocks (a few items per thousand names), so even a common query reads
   * a handful of items; the exact total is the number of candidates that contain the query.
   */
  async search(q: string, limit: number, offset: number): Promise<Read<PackageList>> {
    const needle = q.toLowerCase();
    const chosen = needle.length >= GRAM ? await this.rarestGram(needle) : { list: ALL_LIST, itemsRead: 0 };
    const candidates = await this.blocks.readAll(chosen.list);
    const seen = new Set<string>();
    const matches: string[] = [];
    for (const rank of candidates.entries) {
      const name = nameFromRank(rank);
      // A name can briefly hold two postings while its download count changes: keep the first.
      if (seen.has(name) || !name.toLowerCase().includes(needle)) continue;
      seen.add(name);
      matches.push(name);
    }
    const page = await this.table.listRows(matches.slice(offset, offset + limit));
    return {
      value: { packages: page.rows, total: matches.length, limit, offset },
      itemsRead: chosen.itemsRead + candidates.itemsRead + page.itemsRead,
    };
  }

  /** The `ALL` list in rank order, reading blocks until at least `wanted` ranks are collected. */
  allRanksUntil(wanted: number): Promise<BlockRead> {
    return this.blocks.readUntil(ALL_LIST, wanted);
  }

  /** Every rank of the `ALL` list, in order. */
  allRanks(): Promise<BlockRead> {
    return this.blocks.readAll(ALL_LIST);
  }

  /** Adds `rank` to every posting list of `name` (no effect where present). */
  async addRank(name: string, rank: string): Promise<void> {
    await Promise.all(postingLists(name).map((list) => this.blocks.add(list, rank)));
  }

  /** Removes `rank` from every posting list of `name` (no effect where absent). */
  async removeRank(name: string, rank: string): Promise<void> {
    await Promise.all(postingLists(name).map((list) => this.blocks.remove(list, rank)));
  }

  /** Adds to the approximate per-trigram counters (hints for `rarestGram`). */
  async addGramCounts(counts: Map<string, number>, concurrency = 8): Promise<void> {
    await forEachLimit([...counts], concurrency, ([gram, n]) =>
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: gramCountKey(gram),
          UpdateExpression: 'ADD n :n',
          ExpressionAttributeValues: { ':n': n },
        }),
      ),
    );
  }

  /** The posting list of the query's rarest trigram (by the approximate counters). */
  private async rarestGram(needle: string): Promise<{ list: string; itemsRead: number }> {
    const grams = spread(trigrams(needle), MAX_GRAMS_CONSIDERED);
    const counts = await this.table.batchGet(
      grams.map((g) => gramCountKey(g)),
      'pk, n',
    );
    const countOfGram = new Map(counts.map((c) => [String(c.pk).slice(3), Number(c.n)]));
    // Counters are hints: a gram without one is still read, and is the cheapest choice.
    const rarest = grams.reduce((best, g) =>
      (countOfGram.get(g) ?? 0) < (countOfGram.get(best) ?? 0) ? g : best,
    );
    return { list: postingPk(rarest), itemsRead: counts.length };
  }
}

/** At most `max` elements, evenly spread over the array (keeps both ends). */
function spread<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const step = (items.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => items[Math.round(i * step)]!);
}
