/**
 * The reads the API and the scheduled jobs make: latest and versioned results, list pages, bulk
 * look-ups, stored versions with their basis. Eventually consistent, one item per row read.
 * Access patterns and their costs: docs/storage.md.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { PackageList, PackageListItem, PackageResponse } from '../../../src/contract/schemas';
import type { VersionSelector } from '../domain/validation';
import { LATEST_SK, LIST_PARTITION, META_KEY, nameFromRank, packageKey, tagSk, versionSk } from './keys';
import {
  LIST_INDEX,
  countOf,
  decodeBasis,
  decodeDoc,
  flat,
  type BulkRef,
  type Key,
  type PackageTable,
  type Read,
  type StoredVersion,
  type VersionLookup,
} from './package-table';
import type { SearchIndex } from './search-index';

export class PackageReads {
  constructor(
    private readonly table: PackageTable,
    private readonly index: SearchIndex,
  ) {}

  async getLatest(name: string): Promise<Read<PackageResponse | undefined>> {
    const item = await this.table.getItem(packageKey(name, LATEST_SK), 'doc');
    return { value: item ? decodeDoc(item) : undefined, itemsRead: item ? 1 : 0 };
  }

  async getVersion(name: string, selector: VersionSelector): Promise<Read<VersionLookup>> {
    let itemsRead = 0;
    let version: string | undefined;
    if (selector.kind === 'exact') {
      version = selector.version;
    } else {
      const tag = await this.table.getItem(packageKey(name, tagSk(selector.tag)), 'version');
      itemsRead += tag ? 1 : 0;
      version = typeof tag?.version === 'string' ? tag.version : undefined;
    }
    if (version !== undefined) {
      const found = await this.table.getItem(packageKey(name, versionSk(version)), 'doc');
      if (found) return { value: { result: decodeDoc(found), packageKnown: true }, itemsRead: itemsRead + 1 };
    }
    const latest = await this.table.getItem(packageKey(name, LATEST_SK), 'pk');
    return { value: { result: undefined, packageKnown: latest !== undefined }, itemsRead: itemsRead + 1 };
  }

  /**
   * One page of the list, downloads descending. The first page is one index query; deeper pages
   * walk the `ALL` posting blocks to the offset (a few items per thousand names) and fetch the
   * page's rows.
   */
  async list(limit: number, offset: number): Promise<Read<PackageList>> {
    const totalItem = this.table.getItem(META_KEY, 'n');
    if (offset > 0) {
      const [total, walked] = await Promise.all([totalItem, this.index.allRanksUntil(offset + limit)]);
      // A name can briefly hold two ranks while it moves: count it once, at its first.
      const names = [...new Set(walked.entries.map(nameFromRank))];
      const page = await this.table.listRows(names.slice(offset, offset + limit));
      return {
        value: { packages: page.rows, total: countOf(total), limit, offset },
        itemsRead: 1 + walked.itemsRead + page.itemsRead,
      };
    }
    const [total, out] = await Promise.all([
      totalItem,
      this.table.doc.send(
        new QueryCommand({
          TableName: this.table.name,
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
    const first = await this.table.batchGet(refs.map(keyOf), 'pk, sk, doc, version');
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
    const second =
      tagTargets.size > 0 ? await this.table.batchGet([...tagTargets.values()], 'pk, sk, doc') : [];
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

  /** Names among `names` that have stored results (BatchGetItem of their latest rows). */
  async knownNames(names: Iterable<string>): Promise<string[]> {
    const rows = await this.table.batchGet(
      [...new Set(names)].map((name) => packageKey(name, LATEST_SK)),
      'pk',
    );
    return rows.map((row) => String(row.pk).slice(2));
  }

  /** Names of every stored package, sorted (the `ALL` posting list; a name moving is listed once). */
  async allNames(): Promise<string[]> {
    const { entries } = await this.index.allRanks();
    return [...new Set(entries.map(nameFromRank))].sort();
  }

  /** One stored version with its basis, or undefined when that version is not stored. */
  async storedVersion(name: string, version: string): Promise<StoredVersion | undefined> {
    const item = await this.table.getItem(packageKey(name, versionSk(version)), 'doc, basis');
    return item ? { result: decodeDoc(item), basis: decodeBasis(item) } : undefined;
  }

  /** Every stored version of a package, with the basis its risk was computed from. */
  async versions(name: string): Promise<StoredVersion[]> {
    const rows = await this.table.queryAll({
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :v)',
      ExpressionAttributeValues: { ':p': `P#${name}`, ':v': 'V#' },
      ProjectionExpression: 'doc, basis',
    });
    return rows.map((row) => ({ result: decodeDoc(row), basis: decodeBasis(row) }));
  }
}
