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

/**
 * Loads results of packages that are not in the table yet, with batch writes: for seeding
 * benchmarks and fixtures. Each name must be new and appear once.
 */
export async function bulkLoadNew(
  table: PackageTable,
  index: SearchIndex,
  results: readonly PackageResponse[],
  concurrency = 8,
): Promise<void> {
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
  const writeAll = (items: readonly Item[]) =>
    forEachLimit(chunk(items, BATCH_WRITE_MAX), concurrency, (requestsChunk) =>
      table.batchWrite(requestsChunk),
    );
  await writeAll(requests);
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
