/**
 * Benchmark and fixture seeding: loads results of packages that are not in the table yet with
 * batch writes, bypassing the write protocol (./package-writes.ts). Not safe against concurrent
 * writers of the same packages or lists.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { toListItem } from '../../../src/contract/records';
import type { PackageResponse } from '../../../src/contract/schemas';
import { forEachLimit } from '../concurrency';
import { BATCH_WRITE_MAX, chunk } from './batch';
import { LATEST_SK, LIST_PARTITION, META_KEY, packageKey, rankOf, tagSk, trigrams, versionSk } from './keys';
import { encodeDoc, type Item, type PackageTable } from './package-table';
import { postingLists, type SearchIndex } from './search-index';

export interface BulkLoadOptions {
  /** Batch writes in flight at once. @default 8 */
  readonly concurrency?: number;
  /** Called as package rows are written (`done` of `total` results). */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * Loads results of packages that are not in the table yet, with batch writes: for seeding
 * benchmarks and fixtures. Each name must be new and appear once. Load many results per call:
 * every call rewrites each posting list it touches and adds to each trigram counter once, so
 * the cost of a load grows with the number of calls times the lists' sizes.
 */
export async function bulkLoadNew(
  table: PackageTable,
  index: SearchIndex,
  results: readonly PackageResponse[],
  options: BulkLoadOptions = {},
): Promise<void> {
  const concurrency = options.concurrency ?? 8;
  const requests: Item[] = [];
  const gramCounts = new Map<string, number>();
  const lists = new Map<string, string[]>();
  for (const result of results) {
    const rank = rankOf(result.weekly_downloads, result.name);
    const docBytes = encodeDoc(result);
    const put = (item: Item) => requests.push({ PutRequest: { Item: item } });
    put({ ...packageKey(result.name, versionSk(result.version)), version: result.version, doc: docBytes });
    put({ ...packageKey(result.name, tagSk('latest')), version: result.version });
    put({
      ...packageKey(result.name, LATEST_SK),
      version: result.version,
      doc: docBytes,
      item: toListItem(result),
      lpk: LIST_PARTITION,
      lsk: rank,
      rev: 1,
    });
    for (const list of postingLists(result.name)) {
      const entries = lists.get(list) ?? [];
      entries.push(rank);
      lists.set(list, entries);
    }
    for (const gram of trigrams(result.name)) gramCounts.set(gram, (gramCounts.get(gram) ?? 0) + 1);
  }
  const writeAll = (items: readonly Item[], progress?: (written: number) => void) => {
    let written = 0;
    return forEachLimit(chunk(items, BATCH_WRITE_MAX), concurrency, async (requestsChunk) => {
      await table.batchWrite(requestsChunk);
      written += requestsChunk.length;
      progress?.(written);
    });
  };
  const perResult = requests.length / Math.max(1, results.length);
  let reported = 0;
  await writeAll(requests, (written) => {
    const done = Math.floor(written / perResult);
    // About every 5 %, and at the end.
    if (options.onProgress && (done - reported >= results.length / 20 || done === results.length)) {
      reported = done;
      options.onProgress(done, results.length);
    }
  });
  await index.blocks.rewrite(lists, (items) =>
    writeAll(items.map((item) => ({ PutRequest: { Item: item } }))),
  );
  await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: META_KEY,
      UpdateExpression: 'ADD n :n',
      ExpressionAttributeValues: { ':n': results.length },
    }),
  );
  await index.addGramCounts(gramCounts, concurrency);
}
