/**
 * Scan results in DynamoDB: the reads the API serves and the write path the scanner uses.
 * Key layout in ./keys.ts; design and figures in docs/storage.md.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  BatchGetCommand,
  BatchWriteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import semver from 'semver';
import { toListItem } from '../domain/records';
import type { PackageList, PackageListItem, PackageResponse } from '../domain/schemas';
import type { VersionSelector } from '../domain/validation';
import {
  GRAM,
  LATEST_SK,
  LIST_PARTITION,
  META_KEY,
  gramCountKey,
  nameFromRank,
  packageKey,
  postingPk,
  rankOf,
  tagSk,
  trigrams,
  versionSk,
} from './keys';
import { PACKAGES_TABLE } from './tables';

type Key = Record<string, string>;
type Item = Record<string, unknown>;

/** A read result with the number of DynamoDB items the read touched (for the benchmarks). */
export interface Read<T> {
  readonly value: T;
  readonly itemsRead: number;
}

export interface VersionLookup {
  readonly result: PackageResponse | undefined;
  /** Whether any version of the package is stored (tells the two 404s apart). */
  readonly packageKnown: boolean;
}

/**
 * What a result's risk was computed from, stored beside it so the risk can be recomputed when
 * the advisories change, without fetching or analysing the package again.
 */
export interface ScanBasis {
  readonly risk_input: unknown;
  readonly trust: { readonly score: number; readonly reasons: readonly string[] };
}

export interface StoredVersion {
  readonly result: PackageResponse;
  readonly basis: ScanBasis | undefined;
}

/** Where a search looks: one posting list, or the list index for 1–2 character queries. */
interface MatchSource {
  readonly keyCondition: Record<string, string>;
  readonly index?: string;
  /** Attribute holding `<rank>#<name>`. */
  readonly rankAttribute: 'sk' | 'lsk';
  /** Items read to choose the source. */
  readonly itemsRead: number;
}

export interface BulkRef {
  readonly name: string;
  readonly version?: VersionSelector;
}

const LIST_INDEX = PACKAGES_TABLE.indexes[0]!.name;
const BATCH_GET_MAX = 100;
const BATCH_WRITE_MAX = 25;
const MAX_BATCH_ATTEMPTS = 8;
const MAX_WRITE_ATTEMPTS = 5;
/** Search considers at most this many of the query's trigrams when picking the rarest. */
const MAX_GRAMS_CONSIDERED = 24;

export class PackageStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  // ---------------------------------------------------------------- reads

  async getLatest(name: string): Promise<Read<PackageResponse | undefined>> {
    const out = await this.doc.send(
      new GetCommand({
        TableName: this.tableName,
        Key: packageKey(name, LATEST_SK),
        ProjectionExpression: 'doc',
      }),
    );
    return { value: out.Item ? decodeDoc(out.Item) : undefined, itemsRead: out.Item ? 1 : 0 };
  }

  async getVersion(name: string, selector: VersionSelector): Promise<Read<VersionLookup>> {
    let itemsRead = 0;
    let version: string | undefined;
    if (selector.kind === 'exact') {
      version = selector.version;
    } else {
      const tag = await this.getItem(packageKey(name, tagSk(selector.tag)), 'version');
      itemsRead += tag ? 1 : 0;
      version = typeof tag?.version === 'string' ? tag.version : undefined;
    }
    if (version !== undefined) {
      const found = await this.getItem(packageKey(name, versionSk(version)), 'doc');
      if (found) return { value: { result: decodeDoc(found), packageKnown: true }, itemsRead: itemsRead + 1 };
    }
    const latest = await this.getItem(packageKey(name, LATEST_SK), 'pk');
    return { value: { result: undefined, packageKnown: latest !== undefined }, itemsRead: itemsRead + 1 };
  }

  /** One page of the list, downloads descending: reads about offset + limit index entries. */
  async list(limit: number, offset: number): Promise<Read<PackageList>> {
    const [totalItem, start] = await Promise.all([
      this.getItem(META_KEY, 'n'),
      offset > 0 ? this.skipListEntries(offset) : Promise.resolve({ key: undefined, done: false, read: 0 }),
    ]);
    const total = typeof totalItem?.n === 'number' ? totalItem.n : 0;
    let itemsRead = 1 + start.read;
    const packages: PackageListItem[] = [];
    let exclusiveStartKey = start.key;
    while (!start.done && packages.length < limit) {
      const out = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: LIST_INDEX,
          KeyConditionExpression: 'lpk = :p',
          ExpressionAttributeValues: { ':p': LIST_PARTITION },
          ProjectionExpression: '#item',
          ExpressionAttributeNames: { '#item': 'item' },
          Limit: limit - packages.length,
          ExclusiveStartKey: exclusiveStartKey,
        }),
      );
      for (const row of out.Items ?? []) packages.push(row.item as PackageListItem);
      itemsRead += out.Items?.length ?? 0;
      exclusiveStartKey = out.LastEvaluatedKey;
      if (!exclusiveStartKey) break;
    }
    return { value: { packages, total, limit, offset }, itemsRead };
  }

  /**
   * Case-insensitive substring search on the full name. For 3+ characters it reads one
   * posting list (the query trigram with the fewest postings), so the cost follows the
   * number of candidate names, not the table; shorter queries fall back to the list index.
   * The substring test runs inside DynamoDB (a filter on the lower-cased name `ln`): the exact
   * total comes from a COUNT pass, and only the page's entries travel back.
   */
  async search(q: string, limit: number, offset: number): Promise<Read<PackageList>> {
    const needle = q.toLowerCase();
    const source: MatchSource =
      needle.length >= GRAM
        ? await this.rarestPosting(needle)
        : { keyCondition: { lpk: LIST_PARTITION }, index: LIST_INDEX, rankAttribute: 'lsk', itemsRead: 0 };
    const [total, page] = await Promise.all([
      this.countMatches(source, needle),
      this.firstMatches(source, needle, offset + limit),
    ]);
    const pageNames = page.names.slice(offset, offset + limit);
    const rows = await this.batchGet(
      pageNames.map((name) => packageKey(name, LATEST_SK)),
      'pk, #item',
      { '#item': 'item' },
    );
    const byName = new Map(rows.map((row) => [String(row.pk).slice(2), row.item as PackageListItem]));
    const packages = pageNames.flatMap((name) => {
      const row = byName.get(name);
      return row ? [row] : [];
    });
    return {
      value: { packages, total: total.count, limit, offset },
      itemsRead: source.itemsRead + total.scanned + page.scanned + rows.length,
    };
  }

  /** Looks up many packages at once; the result has one entry per ref, in order. */
  async bulkGet(refs: readonly BulkRef[]): Promise<Read<Array<PackageResponse | undefined>>> {
    const keyOf = (ref: BulkRef): Key =>
      packageKey(
        ref.name,
        ref.version === undefined
          ? LATEST_SK
          : ref.version.kind === 'exact'
            ? versionSk(ref.version.version)
            : tagSk(ref.version.tag),
      );
    const first = await this.batchGet(refs.map(keyOf), 'pk, sk, doc, version');
    const found = new Map(first.map((item) => [`${item.pk}\u0000${item.sk}`, item]));
    // Dist-tags resolve in a second round: tag item -> version item.
    const tagTargets = new Map<string, Key>();
    for (const ref of refs) {
      if (ref.version?.kind !== 'tag') continue;
      const tagItem = found.get(flat(keyOf(ref)));
      if (typeof tagItem?.version === 'string') {
        const key = packageKey(ref.name, versionSk(tagItem.version));
        tagTargets.set(flat(key), key);
      }
    }
    const second = tagTargets.size > 0 ? await this.batchGet([...tagTargets.values()], 'pk, sk, doc') : [];
    for (const item of second) found.set(`${item.pk}\u0000${item.sk}`, item);
    const decoded = new Map<string, PackageResponse>();
    const value = refs.map((ref) => {
      let key = flat(keyOf(ref));
      if (ref.version?.kind === 'tag') {
        const tagItem = found.get(key);
        if (typeof tagItem?.version !== 'string') return undefined;
        key = flat(packageKey(ref.name, versionSk(tagItem.version)));
      }
      const item = found.get(key);
      if (!item) return undefined;
      let result = decoded.get(key);
      if (!result) {
        result = decodeDoc(item);
        decoded.set(key, result);
      }
      return result;
    });
    return { value, itemsRead: first.length + second.length };
  }

  // ---------------------------------------------------------------- writes

  /**
   * Stores one scan result. Safe to repeat and to resume after a crash at any step:
   * 1. the version item and dist-tags (idempotent puts);
   * 2. if this version is the package's highest: postings under the new rank, then the
   *    latest row (optimistic concurrency on `rev`) together with the package count in one
   *    transaction, recording the old rank as `cleanup`;
   * 3. deletion of the old rank's postings, then `cleanup` is cleared.
   * A retry that finds `cleanup` set finishes step 3 first.
   */
  async putScan(
    result: PackageResponse,
    opts: { distTags?: readonly string[]; basis?: ScanBasis } = {},
  ): Promise<void> {
    const { name, version } = result;
    const docBytes = encodeDoc(result);
    await this.doc.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...packageKey(name, versionSk(version)),
          version,
          doc: docBytes,
          ...(opts.basis ? { basis: gzipSync(JSON.stringify(opts.basis)) } : {}),
        },
      }),
    );
    await this.promoteIfLatest(result, docBytes, opts.distTags ?? []);
  }

  /** Names among `names` that have stored results (BatchGetItem of their latest rows). */
  async knownNames(names: Iterable<string>): Promise<string[]> {
    const rows = await this.batchGet(
      [...new Set(names)].map((name) => packageKey(name, LATEST_SK)),
      'pk',
    );
    return rows.map((row) => String(row.pk).slice(2));
  }

  /** Every stored version of a package, with the basis its risk was computed from. */
  async versions(name: string): Promise<StoredVersion[]> {
    const rows = await this.queryAll({
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :v)',
      ExpressionAttributeValues: { ':p': `P#${name}`, ':v': 'V#' },
      ProjectionExpression: 'doc, basis',
    });
    return rows.map((row) => ({
      result: decodeDoc(row),
      basis: row.basis
        ? (JSON.parse(gunzipSync(row.basis as Uint8Array).toString('utf8')) as ScanBasis)
        : undefined,
    }));
  }

  /**
   * Replaces a stored version's result in place (same name, version and downloads; for example
   * new CVEs and risk after an advisory sync), and the latest row when it is that version.
   */
  async replaceResult(result: PackageResponse): Promise<void> {
    const { name, version } = result;
    const docBytes = encodeDoc(result);
    await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: packageKey(name, versionSk(version)),
        UpdateExpression: 'SET doc = :doc',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':doc': docBytes },
      }),
    );
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: packageKey(name, LATEST_SK),
          UpdateExpression: 'SET doc = :doc, #item = :item',
          ConditionExpression: 'version = :version',
          ExpressionAttributeNames: { '#item': 'item' },
          ExpressionAttributeValues: { ':doc': docBytes, ':item': toListItem(result), ':version': version },
        }),
      );
    } catch (error) {
      // Not the latest version (or no latest row): only the version item changes.
      if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    }
  }

  /** Dist-tags, then the latest row, list row and postings when this version is the highest. */
  private async promoteIfLatest(
    result: PackageResponse,
    docBytes: Uint8Array,
    distTags: readonly string[],
  ): Promise<void> {
    const { name, version } = result;
    await Promise.all(
      distTags.map((tag) =>
        this.doc.send(
          new PutCommand({ TableName: this.tableName, Item: { ...packageKey(name, tagSk(tag)), version } }),
        ),
      ),
    );

    for (let attempt = 1; ; attempt++) {
      const current = await this.doc.send(
        new GetCommand({
          TableName: this.tableName,
          Key: packageKey(name, LATEST_SK),
          ConsistentRead: true,
          ProjectionExpression: 'version, lsk, rev, cleanup',
        }),
      );
      const latest = current.Item as
        { version: string; lsk: string; rev: number; cleanup?: string } | undefined;
      if (latest?.cleanup !== undefined) {
        await this.finishCleanup(name, latest.cleanup, latest.rev);
        latest.cleanup = undefined;
      }
      if (latest && semver.gt(latest.version, version)) return;

      const rank = rankOf(result.weekly_downloads, name);
      const grams = trigrams(name);
      if (!latest || latest.lsk !== rank) {
        const ln = name.toLowerCase();
        await this.batchWrite(
          grams.map((g) => ({ PutRequest: { Item: { pk: postingPk(g), sk: rank, ln } } })),
        );
      }
      const rev = (latest?.rev ?? 0) + 1;
      const cleanup = latest && latest.lsk !== rank ? latest.lsk : undefined;
      try {
        await this.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: this.tableName,
                  Item: {
                    ...packageKey(name, LATEST_SK),
                    version,
                    doc: docBytes,
                    item: toListItem(result),
                    lpk: LIST_PARTITION,
                    lsk: rank,
                    ln: name.toLowerCase(),
                    rev,
                    ...(cleanup !== undefined ? { cleanup } : {}),
                  },
                  ConditionExpression: latest ? 'rev = :rev' : 'attribute_not_exists(pk)',
                  ...(latest ? { ExpressionAttributeValues: { ':rev': latest.rev } } : {}),
                },
              },
              ...(latest
                ? []
                : [
                    {
                      Update: {
                        TableName: this.tableName,
                        Key: META_KEY,
                        UpdateExpression: 'ADD n :one',
                        ExpressionAttributeValues: { ':one': 1 },
                      },
                    },
                  ]),
            ],
          }),
        );
      } catch (error) {
        if (error instanceof TransactionCanceledException && attempt < MAX_WRITE_ATTEMPTS) continue;
        throw error;
      }
      if (!latest) await this.addGramCounts(new Map(grams.map((g) => [g, 1])));
      if (cleanup !== undefined) await this.finishCleanup(name, cleanup, rev);
      return;
    }
  }

  /**
   * Loads results of packages that are not in the table yet, with batch writes: for seeding
   * benchmarks and fixtures. Each name must be new and appear once.
   */
  async bulkLoadNew(results: readonly PackageResponse[], concurrency = 8): Promise<void> {
    const requests: Item[] = [];
    const gramCounts = new Map<string, number>();
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
        ln: result.name.toLowerCase(),
        rev: 1,
      });
      for (const gram of trigrams(result.name)) {
        put({ pk: postingPk(gram), sk: rank, ln: result.name.toLowerCase() });
        gramCounts.set(gram, (gramCounts.get(gram) ?? 0) + 1);
      }
    }
    const chunks = chunk(requests, BATCH_WRITE_MAX);
    await mapPool(chunks, concurrency, (requestsChunk) => this.batchWrite(requestsChunk));
    await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: META_KEY,
        UpdateExpression: 'ADD n :n',
        ExpressionAttributeValues: { ':n': results.length },
      }),
    );
    await this.addGramCounts(gramCounts, concurrency);
  }

  // ---------------------------------------------------------------- internals

  private async getItem(key: Key, projection: string): Promise<Item | undefined> {
    const out = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: key, ProjectionExpression: projection }),
    );
    return out.Item;
  }

  /**
   * Walks past `count` list entries and returns where the page starts. `Select: COUNT` with a
   * `Limit` still yields the key to resume from, without sending the skipped items back.
   */
  private async skipListEntries(
    count: number,
  ): Promise<{ key: Item | undefined; done: boolean; read: number }> {
    let key: Item | undefined;
    let read = 0;
    while (read < count) {
      const out = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: LIST_INDEX,
          KeyConditionExpression: 'lpk = :p',
          ExpressionAttributeValues: { ':p': LIST_PARTITION },
          Select: 'COUNT',
          Limit: count - read,
          ExclusiveStartKey: key,
        }),
      );
      read += out.Count ?? 0;
      key = out.LastEvaluatedKey;
      if (!key) return { key: undefined, done: true, read };
    }
    return { key, done: false, read };
  }

  /** The posting list of the query's rarest trigram (by the approximate counters). */
  private async rarestPosting(needle: string): Promise<MatchSource> {
    const grams = spread(trigrams(needle), MAX_GRAMS_CONSIDERED);
    const counts = await this.batchGet(
      grams.map((g) => gramCountKey(g)),
      'pk, n',
    );
    const countOf = new Map(counts.map((c) => [String(c.pk).slice(3), Number(c.n)]));
    // Counters are hints: a gram without one is still read, and is the cheapest choice.
    const rarest = grams.reduce((best, g) => ((countOf.get(g) ?? 0) < (countOf.get(best) ?? 0) ? g : best));
    return { keyCondition: { pk: postingPk(rarest) }, rankAttribute: 'sk', itemsRead: counts.length };
  }

  private matchQuery(source: MatchSource, needle: string) {
    const [keyName, keyValue] = Object.entries(source.keyCondition)[0]!;
    return {
      TableName: this.tableName,
      ...(source.index ? { IndexName: source.index } : {}),
      KeyConditionExpression: '#k = :k',
      FilterExpression: 'contains(ln, :q)',
      ExpressionAttributeNames: { '#k': keyName },
      ExpressionAttributeValues: { ':k': keyValue, ':q': needle },
    };
  }

  /** Exact number of names matching, counted inside DynamoDB. */
  private async countMatches(
    source: MatchSource,
    needle: string,
  ): Promise<{ count: number; scanned: number }> {
    let count = 0;
    let scanned = 0;
    let key: Item | undefined;
    do {
      const out = await this.doc.send(
        new QueryCommand({ ...this.matchQuery(source, needle), Select: 'COUNT', ExclusiveStartKey: key }),
      );
      count += out.Count ?? 0;
      scanned += out.ScannedCount ?? 0;
      key = out.LastEvaluatedKey;
    } while (key);
    return { count, scanned };
  }

  /** The first `wanted` matching names, in rank order (downloads descending, then name). */
  private async firstMatches(
    source: MatchSource,
    needle: string,
    wanted: number,
  ): Promise<{ names: string[]; scanned: number }> {
    const names: string[] = [];
    const seen = new Set<string>();
    let scanned = 0;
    let key: Item | undefined;
    do {
      const out = await this.doc.send(
        new QueryCommand({
          ...this.matchQuery(source, needle),
          ProjectionExpression: source.rankAttribute,
          // Evaluate in chunks: a common query fills its page from the first few hundred entries.
          Limit: Math.max(200, (wanted - names.length) * 2),
          ExclusiveStartKey: key,
        }),
      );
      scanned += out.ScannedCount ?? 0;
      for (const row of out.Items ?? []) {
        const name = nameFromRank(String(row[source.rankAttribute]));
        // A name can briefly hold two postings while its download count changes: keep the first.
        if (seen.has(name)) continue;
        seen.add(name);
        names.push(name);
      }
      key = out.LastEvaluatedKey;
    } while (key && names.length < wanted);
    return { names, scanned };
  }

  private async queryAll(input: {
    IndexName?: string;
    KeyConditionExpression: string;
    ExpressionAttributeValues: Item;
    ProjectionExpression: string;
  }): Promise<Item[]> {
    const rows: Item[] = [];
    let key: Item | undefined;
    do {
      const out = await this.doc.send(
        new QueryCommand({ TableName: this.tableName, ...input, ExclusiveStartKey: key }),
      );
      rows.push(...(out.Items ?? []));
      key = out.LastEvaluatedKey;
    } while (key);
    return rows;
  }

  /** BatchGetItem in chunks of 100, retrying unprocessed keys with backoff. Order is not kept. */
  private async batchGet(
    keys: readonly Key[],
    projection: string,
    names?: Record<string, string>,
  ): Promise<Item[]> {
    const unique = [...new Map(keys.map((k) => [flat(k), k])).values()];
    const chunks = chunk(unique, BATCH_GET_MAX);
    const results = await Promise.all(
      chunks.map(async (chunkKeys) => {
        const items: Item[] = [];
        let pending: Key[] = chunkKeys;
        for (let attempt = 0; pending.length > 0; attempt++) {
          if (attempt >= MAX_BATCH_ATTEMPTS)
            throw new Error('BatchGetItem left keys unprocessed after retries');
          if (attempt > 0) await backoff(attempt);
          const out = await this.doc.send(
            new BatchGetCommand({
              RequestItems: {
                [this.tableName]: {
                  Keys: pending,
                  ProjectionExpression: projection,
                  ...(names ? { ExpressionAttributeNames: names } : {}),
                },
              },
            }),
          );
          items.push(...(out.Responses?.[this.tableName] ?? []));
          pending = (out.UnprocessedKeys?.[this.tableName]?.Keys ?? []) as Key[];
        }
        return items;
      }),
    );
    return results.flat();
  }

  /** BatchWriteItem in chunks of 25, retrying unprocessed requests with backoff. */
  private async batchWrite(requests: readonly Item[]): Promise<void> {
    for (const chunkRequests of chunk(requests, BATCH_WRITE_MAX)) {
      let pending: Item[] = chunkRequests;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt >= MAX_BATCH_ATTEMPTS)
          throw new Error('BatchWriteItem left requests unprocessed after retries');
        if (attempt > 0) await backoff(attempt);
        const out = await this.doc.send(
          new BatchWriteCommand({ RequestItems: { [this.tableName]: pending as never } }),
        );
        pending = (out.UnprocessedItems?.[this.tableName] ?? []) as Item[];
      }
    }
  }

  private async finishCleanup(name: string, oldRank: string, rev: number): Promise<void> {
    await this.batchWrite(
      trigrams(name).map((g) => ({ DeleteRequest: { Key: { pk: postingPk(g), sk: oldRank } } })),
    );
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: packageKey(name, LATEST_SK),
          UpdateExpression: 'REMOVE cleanup',
          ConditionExpression: 'rev = :rev',
          ExpressionAttributeValues: { ':rev': rev },
        }),
      );
    } catch (error) {
      // A newer write took over the row; it carries its own cleanup marker.
      if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    }
  }

  private async addGramCounts(counts: Map<string, number>, concurrency = 8): Promise<void> {
    await mapPool([...counts], concurrency, ([gram, n]) =>
      this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: gramCountKey(gram),
          UpdateExpression: 'ADD n :n',
          ExpressionAttributeValues: { ':n': n },
        }),
      ),
    );
  }
}

function encodeDoc(result: PackageResponse): Uint8Array {
  return gzipSync(JSON.stringify(result));
}

function decodeDoc(item: Item): PackageResponse {
  const bytes = item.doc as Uint8Array;
  return JSON.parse(gunzipSync(bytes).toString('utf8')) as PackageResponse;
}

function flat(key: Key): string {
  return `${key.pk}\u0000${key.sk}`;
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** At most `max` elements, evenly spread over the array (keeps both ends). */
function spread<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const step = (items.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => items[Math.round(i * step)]!);
}

async function backoff(attempt: number): Promise<void> {
  const ms = Math.min(1000, 25 * 2 ** attempt) * (0.5 + Math.random() / 2);
  await new Promise((resolve) => setTimeout(resolve, ms));
}

async function mapPool<T>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await fn(item);
    }
  });
  await Promise.all(workers);
}
