/**
 * Scan results in DynamoDB: the reads the API serves and the write path the scanner uses.
 * Key layout in ./keys.ts; design and figures in docs/storage.md.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import semver from 'semver';
import { toListItem } from '../../../src/contract/records';
import type { PackageList, PackageListItem, PackageResponse } from '../../../src/contract/schemas';
import type { VersionSelector } from '../domain/validation';
import {
  GRAM,
  LATEST_SK,
  ALL_LIST,
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
import { forEachLimit } from '../concurrency';
import {
  BATCH_WRITE_MAX,
  batchGetAll,
  batchWriteChunk,
  chunk,
  ignoreConditionFailure,
  isConditionFailure,
} from './batch';
import { PostingBlocks } from './posting-blocks';
import { PACKAGES_TABLE } from './tables';

type Key = Record<string, string>;
type Item = Record<string, unknown>;

/** Posting bookkeeping on a latest row (see `settle`). */
interface Markers {
  readonly rev: number;
  readonly lsk: string;
  /** Rank whose postings may not be written yet. */
  readonly pending?: string;
  /** Rank whose postings must be removed. */
  readonly cleanup?: string;
}

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
  /** Trust inputs that do not change with time or downloads (absent on older results). */
  readonly trust_input?: unknown;
}

export interface StoredVersion {
  readonly result: PackageResponse;
  readonly basis: ScanBasis | undefined;
}

export interface BulkRef {
  readonly name: string;
  readonly version?: VersionSelector;
}

const LIST_INDEX = PACKAGES_TABLE.indexes[0]!.name;
const MAX_WRITE_ATTEMPTS = 5;
/** Search considers at most this many of the query's trigrams when picking the rarest. */
const MAX_GRAMS_CONSIDERED = 24;

export class PackageStore {
  private readonly blocks: PostingBlocks;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.blocks = new PostingBlocks(doc, tableName);
  }

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

  /**
   * One page of the list, downloads descending. The first page is one index query; deeper pages
   * walk the `ALL` posting blocks to the offset (a few items per thousand names) and fetch the
   * page's rows.
   */
  async list(limit: number, offset: number): Promise<Read<PackageList>> {
    const totalItem = this.getItem(META_KEY, 'n');
    if (offset > 0) {
      const [total, walked] = await Promise.all([totalItem, this.blocks.readUntil(ALL_LIST, offset + limit)]);
      // A name can briefly hold two ranks while it moves: count it once, at its first.
      const names = [...new Set(walked.entries.map(nameFromRank))];
      const page = await this.listRows(names.slice(offset, offset + limit));
      return {
        value: { packages: page.rows, total: countOf(total), limit, offset },
        itemsRead: 1 + walked.itemsRead + page.itemsRead,
      };
    }
    const [total, out] = await Promise.all([
      totalItem,
      this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: LIST_INDEX,
          KeyConditionExpression: 'lpk = :p',
          ExpressionAttributeValues: { ':p': LIST_PARTITION },
          ProjectionExpression: '#item',
          ExpressionAttributeNames: { '#item': 'item' },
          Limit: limit,
        }),
      ),
    ]);
    const packages = (out.Items ?? []).map((row) => row.item as PackageListItem);
    return { value: { packages, total: countOf(total), limit, offset }, itemsRead: 1 + packages.length };
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
    const page = await this.listRows(matches.slice(offset, offset + limit));
    return {
      value: { packages: page.rows, total: matches.length, limit, offset },
      itemsRead: chosen.itemsRead + candidates.itemsRead + page.itemsRead,
    };
  }

  /** The list rows of `names`, in that order (names without a latest row are left out). */
  private async listRows(names: readonly string[]): Promise<{ rows: PackageListItem[]; itemsRead: number }> {
    const rows = await this.batchGet(
      names.map((name) => packageKey(name, LATEST_SK)),
      'pk, #item',
      { '#item': 'item' },
    );
    const byName = new Map(rows.map((row) => [String(row.pk).slice(2), row.item as PackageListItem]));
    return {
      rows: names.flatMap((name) => {
        const row = byName.get(name);
        return row ? [row] : [];
      }),
      itemsRead: rows.length,
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
   * 2. if this version is the package's highest: the latest row (optimistic concurrency on
   *    `rev`) together with the package count in one transaction, recording the new rank as
   *    `pending` and the old one as `cleanup`;
   * 3. the posting lists: the new rank added, the old removed, then both markers cleared.
   * Any later write of the package finishes step 3 first if it finds markers left by a crash.
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
          scanned_at: result.scanned_at,
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

  /** A bookkeeping record of a scheduled job (pk `META`, sk `JOB#<name>`), or undefined. */
  async jobState(job: string): Promise<Record<string, unknown> | undefined> {
    const item = await this.getItem({ pk: META_KEY.pk, sk: `JOB#${job}` }, 'st');
    return item?.st as Record<string, unknown> | undefined;
  }

  async putJobState(job: string, state: Record<string, unknown>): Promise<void> {
    await this.doc.send(
      new PutCommand({ TableName: this.tableName, Item: { pk: META_KEY.pk, sk: `JOB#${job}`, st: state } }),
    );
  }

  /** Names of every stored package, sorted (the `ALL` posting list; a name moving is listed once). */
  async allNames(): Promise<string[]> {
    const { entries } = await this.blocks.readAll(ALL_LIST);
    return [...new Set(entries.map(nameFromRank))].sort();
  }

  /** One stored version with its basis, or undefined when that version is not stored. */
  async storedVersion(name: string, version: string): Promise<StoredVersion | undefined> {
    const item = await this.getItem(packageKey(name, versionSk(version)), 'doc, basis');
    return item ? { result: decodeDoc(item), basis: decodeBasis(item) } : undefined;
  }

  /** Every stored version of a package, with the basis its risk was computed from. */
  async versions(name: string): Promise<StoredVersion[]> {
    const rows = await this.queryAll({
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :v)',
      ExpressionAttributeValues: { ':p': `P#${name}`, ':v': 'V#' },
      ProjectionExpression: 'doc, basis',
    });
    return rows.map((row) => ({ result: decodeDoc(row), basis: decodeBasis(row) }));
  }

  /**
   * Replaces a stored version's result in place (same name, version and downloads; for example
   * new CVEs and risk after an advisory sync), and the latest row when it is that version.
   */
  async replaceResult(result: PackageResponse): Promise<boolean> {
    const { name, version } = result;
    const docBytes = encodeDoc(result);
    // Only the scan the caller read: a rescan in between is newer and wins.
    const sameScan = {
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(scanned_at) OR scanned_at = :s)',
      ExpressionAttributeValues: { ':doc': docBytes, ':s': result.scanned_at },
    };
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: packageKey(name, versionSk(version)),
          UpdateExpression: 'SET doc = :doc',
          ...sameScan,
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: packageKey(name, LATEST_SK),
          UpdateExpression: 'SET doc = :doc, #item = :item',
          ConditionExpression: `version = :version AND ${sameScan.ConditionExpression}`,
          ExpressionAttributeNames: { '#item': 'item' },
          ExpressionAttributeValues: {
            ...sameScan.ExpressionAttributeValues,
            ':item': toListItem(result),
            ':version': version,
          },
        }),
      );
    } catch (error) {
      // Not the latest version (or no latest row): only the version item changes.
      ignoreConditionFailure(error);
    }
    return true;
  }

  /**
   * Replaces a stored version's result whose download count may have changed (the downloads
   * refresh), without a rescan: the version item, and when it is the latest version, the latest
   * row with its list position. The move follows the write protocol of `putScan` (rank recorded
   * as `pending`, the old one as `cleanup`, postings settled after), so the list order and the
   * total stay exact while it runs. Only the scan the caller read is replaced (same
   * `scanned_at`): false when the version was rescanned meanwhile.
   */
  async refreshResult(result: PackageResponse): Promise<boolean> {
    if (!(await this.replaceVersionItem(result))) return false;
    const { name, version } = result;
    const docBytes = encodeDoc(result);
    for (let attempt = 1; ; attempt++) {
      const latest = await this.latestMarkers(name);
      // Not the latest version, or rescanned meanwhile (that newer scan carries its own count).
      if (!latest || latest.version !== version) return true;
      if (latest.scanned_at !== undefined && latest.scanned_at !== result.scanned_at) return true;
      if (latest.pending !== undefined || latest.cleanup !== undefined) await this.settle(name, latest);
      const rank = rankOf(result.weekly_downloads, name);
      const moved = latest.lsk !== rank;
      const markers: Markers = {
        rev: latest.rev + 1,
        lsk: rank,
        ...(moved ? { pending: rank, cleanup: latest.lsk } : {}),
      };
      try {
        await this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: packageKey(name, LATEST_SK),
            UpdateExpression: moved
              ? 'SET doc = :doc, #item = :item, lsk = :lsk, rev = :next, pending = :pending, cleanup = :cleanup'
              : 'SET doc = :doc, #item = :item, rev = :next',
            ConditionExpression:
              'rev = :rev AND version = :version AND (attribute_not_exists(scanned_at) OR scanned_at = :s)',
            ExpressionAttributeNames: { '#item': 'item' },
            ExpressionAttributeValues: {
              ':doc': docBytes,
              ':item': toListItem(result),
              ':next': markers.rev,
              ':rev': latest.rev,
              ':version': version,
              ':s': result.scanned_at,
              ...(moved ? { ':lsk': rank, ':pending': rank, ':cleanup': latest.lsk } : {}),
            },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        if (attempt >= MAX_WRITE_ATTEMPTS) throw error;
        continue;
      }
      if (moved) await this.settle(name, markers);
      return true;
    }
  }

  /** The version item's doc, replaced only if it is still the scan the caller read. */
  private async replaceVersionItem(result: PackageResponse): Promise<boolean> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: packageKey(result.name, versionSk(result.version)),
          UpdateExpression: 'SET doc = :doc',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(scanned_at) OR scanned_at = :s)',
          ExpressionAttributeValues: { ':doc': encodeDoc(result), ':s': result.scanned_at },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Dist-tags, then the latest row, list row and postings when this version is the highest. */
  private async promoteIfLatest(
    result: PackageResponse,
    docBytes: Uint8Array,
    distTags: readonly string[],
  ): Promise<void> {
    const { name, version } = result;
    // A tag moves only forward in time: a slow scan of an older version cannot take it back.
    await Promise.all(
      distTags.map((tag) =>
        this.doc
          .send(
            new PutCommand({
              TableName: this.tableName,
              Item: { ...packageKey(name, tagSk(tag)), version, scanned_at: result.scanned_at },
              ConditionExpression: 'attribute_not_exists(scanned_at) OR scanned_at <= :s',
              ExpressionAttributeValues: { ':s': result.scanned_at },
            }),
          )
          .catch(ignoreConditionFailure),
      ),
    );

    for (let attempt = 1; ; attempt++) {
      const latest = await this.latestMarkers(name);
      if (latest && (latest.pending !== undefined || latest.cleanup !== undefined)) {
        await this.settle(name, latest);
      }
      if (latest && semver.gt(latest.version, version)) return;

      const rank = rankOf(result.weekly_downloads, name);
      const moved = !latest || latest.lsk !== rank;
      const markers: Markers = {
        rev: (latest?.rev ?? 0) + 1,
        lsk: rank,
        ...(moved ? { pending: rank } : {}),
        ...(latest && moved ? { cleanup: latest.lsk } : {}),
      };
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
                    scanned_at: result.scanned_at,
                    doc: docBytes,
                    item: toListItem(result),
                    lpk: LIST_PARTITION,
                    ...markers,
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
      if (!latest) await this.addGramCounts(new Map(trigrams(name).map((g) => [g, 1])));
      await this.settle(name, markers);
      return;
    }
  }

  private async latestMarkers(
    name: string,
  ): Promise<(Markers & { version: string; scanned_at?: string }) | undefined> {
    const out = await this.doc.send(
      new GetCommand({
        TableName: this.tableName,
        Key: packageKey(name, LATEST_SK),
        ConsistentRead: true,
        ProjectionExpression: 'version, lsk, rev, pending, cleanup, scanned_at',
      }),
    );
    return out.Item as (Markers & { version: string; scanned_at?: string }) | undefined;
  }

  /**
   * Brings the posting lists in line with a committed latest row: adds its `pending` rank,
   * removes the `cleanup` rank, then clears both markers if the row is unchanged. Only the
   * winner of a row's revision (or a later writer finishing its work) gets here, so losers of a
   * race never leave postings behind; a writer overtaken while settling removes its own rank
   * again unless the newer row kept it. Every step is idempotent.
   */
  private async settle(name: string, markers: Markers): Promise<void> {
    const lists = [ALL_LIST, ...trigrams(name).map(postingPk)];
    const { pending, cleanup } = markers;
    if (pending !== undefined) await Promise.all(lists.map((list) => this.blocks.add(list, pending)));
    if (cleanup !== undefined && cleanup !== pending) {
      await Promise.all(lists.map((list) => this.blocks.remove(list, cleanup)));
    }
    const now = await this.latestMarkers(name);
    if (now?.rev !== markers.rev) {
      if (pending !== undefined && now?.lsk !== pending) {
        await Promise.all(lists.map((list) => this.blocks.remove(list, pending)));
      }
      // The newer row may hold the very rank this (slower) writer just removed as its cleanup
      // (downloads went back): once that row is settled, put its rank back. Adding is
      // idempotent, and a row still carrying markers adds its rank itself when it settles.
      if (now && now.lsk === cleanup && now.pending === undefined && now.cleanup === undefined) {
        await Promise.all(lists.map((list) => this.blocks.add(list, now.lsk)));
      }
      return;
    }
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: packageKey(name, LATEST_SK),
          UpdateExpression: 'REMOVE pending, cleanup',
          ConditionExpression: 'rev = :rev',
          ExpressionAttributeValues: { ':rev': markers.rev },
        }),
      );
    } catch (error) {
      // A newer write took over the row; it carries its own markers.
      ignoreConditionFailure(error);
    }
  }

  /**
   * Loads results of packages that are not in the table yet, with batch writes: for seeding
   * benchmarks and fixtures. Each name must be new and appear once.
   */
  async bulkLoadNew(results: readonly PackageResponse[], concurrency = 8): Promise<void> {
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
      for (const list of [ALL_LIST, ...trigrams(result.name).map(postingPk)]) {
        const entries = lists.get(list) ?? [];
        entries.push(rank);
        lists.set(list, entries);
      }
      for (const gram of trigrams(result.name)) gramCounts.set(gram, (gramCounts.get(gram) ?? 0) + 1);
    }
    const writeAll = (items: readonly Item[]) =>
      forEachLimit(chunk(items, BATCH_WRITE_MAX), concurrency, (requestsChunk) =>
        this.batchWrite(requestsChunk),
      );
    await writeAll(requests);
    await this.blocks.rewrite(lists, (items) =>
      writeAll(items.map((item) => ({ PutRequest: { Item: item } }))),
    );
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

  /** The posting list of the query's rarest trigram (by the approximate counters). */
  private async rarestGram(needle: string): Promise<{ list: string; itemsRead: number }> {
    const grams = spread(trigrams(needle), MAX_GRAMS_CONSIDERED);
    const counts = await this.batchGet(
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

  /** BatchGetItem of any number of keys (duplicates read once). Order is not kept. */
  private batchGet(
    keys: readonly Key[],
    projection: string,
    names?: Record<string, string>,
  ): Promise<Item[]> {
    const unique = [...new Map(keys.map((k) => [flat(k), k])).values()];
    return batchGetAll(this.doc, this.tableName, unique, {
      ProjectionExpression: projection,
      ...(names ? { ExpressionAttributeNames: names } : {}),
    });
  }

  private async batchWrite(requests: readonly Item[]): Promise<void> {
    for (const requestsChunk of chunk(requests, BATCH_WRITE_MAX)) {
      await batchWriteChunk(this.doc, this.tableName, requestsChunk);
    }
  }

  private async addGramCounts(counts: Map<string, number>, concurrency = 8): Promise<void> {
    await forEachLimit([...counts], concurrency, ([gram, n]) =>
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

function decodeBasis(item: Item): ScanBasis | undefined {
  return item.basis
    ? (JSON.parse(gunzipSync(item.basis as Uint8Array).toString('utf8')) as ScanBasis)
    : undefined;
}

function countOf(item: Item | undefined): number {
  return typeof item?.n === 'number' ? item.n : 0;
}

function flat(key: Key): string {
  return `${key.pk}\u0000${key.sk}`;
}

/** At most `max` elements, evenly spread over the array (keeps both ends). */
function spread<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const step = (items.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => items[Math.round(i * step)]!);
}
