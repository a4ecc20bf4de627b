/**
 * Scan results in DynamoDB: one facade over the store's modules, for the handlers and the
 * scanner. Each concern lives in its own module:
 *
 *   package-table.ts   record types, document encoding, the plain table calls
 *   package-reads.ts   the reads the API serves (latest, versions, list pages, bulk)
 *   package-writes.ts  the write protocol (version items, revision-marked latest row, postings)
 *   search-index.ts    trigram and `ALL` posting lists, search
 *   seeding.ts         batch loading for benchmarks and fixtures
 *
 * Key layout in ./keys.ts; design, write protocol and figures in docs/storage.md.
 */
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PackageList, PackageResponse } from '../../../src/contract/schemas';
import type { VersionSelector } from '../domain/validation';
import { META_KEY } from './keys';
import { PackageReads } from './package-reads';
import {
  PackageTable,
  type BulkRef,
  type Read,
  type ScanBasis,
  type StoredVersion,
  type VersionLookup,
} from './package-table';
import { PackageWrites } from './package-writes';
import { SearchIndex } from './search-index';
import { bulkLoadNew, type BulkLoadOptions } from './seeding';

export type { BulkRef, Read, ScanBasis, StoredVersion, VersionLookup } from './package-table';

export class PackageStore {
  private readonly table: PackageTable;
  private readonly index: SearchIndex;
  private readonly reads: PackageReads;
  private readonly writes: PackageWrites;

  constructor(doc: DynamoDBDocumentClient, tableName: string) {
    this.table = new PackageTable(doc, tableName);
    this.index = new SearchIndex(this.table);
    this.reads = new PackageReads(this.table, this.index);
    this.writes = new PackageWrites(this.table, this.index);
  }

  // ---------------------------------------------------------------- reads (package-reads.ts)

  getLatest(name: string): Promise<Read<PackageResponse | undefined>> {
    return this.reads.getLatest(name);
  }

  getVersion(name: string, selector: VersionSelector): Promise<Read<VersionLookup>> {
    return this.reads.getVersion(name, selector);
  }

  list(limit: number, offset: number): Promise<Read<PackageList>> {
    return this.reads.list(limit, offset);
  }

  bulkGet(refs: readonly BulkRef[]): Promise<Read<Array<PackageResponse | undefined>>> {
    return this.reads.bulkGet(refs);
  }

  knownNames(names: Iterable<string>): Promise<string[]> {
    return this.reads.knownNames(names);
  }

  allNames(): Promise<string[]> {
    return this.reads.allNames();
  }

  storedVersion(name: string, version: string): Promise<StoredVersion | undefined> {
    return this.reads.storedVersion(name, version);
  }

  versions(name: string): Promise<StoredVersion[]> {
    return this.reads.versions(name);
  }

  // ---------------------------------------------------------------- search (search-index.ts)

  search(q: string, limit: number, offset: number): Promise<Read<PackageList>> {
    return this.index.search(q, limit, offset);
  }

  // ---------------------------------------------------------------- writes (package-writes.ts)

  putScan(
    result: PackageResponse,
    opts: { distTags?: readonly string[]; basis?: ScanBasis } = {},
  ): Promise<void> {
    return this.writes.putScan(result, opts);
  }

  replaceResult(result: PackageResponse): Promise<boolean> {
    return this.writes.replaceResult(result);
  }

  refreshResult(result: PackageResponse): Promise<boolean> {
    return this.writes.refreshResult(result);
  }

  // ---------------------------------------------------------------- seeding (seeding.ts)

  bulkLoadNew(results: readonly PackageResponse[], options?: BulkLoadOptions): Promise<void> {
    return bulkLoadNew(this.table, this.index, results, options);
  }

  // ---------------------------------------------------------------- scheduled jobs' bookkeeping

  /** A bookkeeping record of a scheduled job (pk `META`, sk `JOB#<name>`), or undefined. */
  async jobState(job: string): Promise<Record<string, unknown> | undefined> {
    const item = await this.table.getItem({ pk: META_KEY.pk, sk: `JOB#${job}` }, 'st');
    return item?.st as Record<string, unknown> | undefined;
  }

  async putJobState(job: string, state: Record<string, unknown>): Promise<void> {
    await this.table.doc.send(
      new PutCommand({ TableName: this.table.name, Item: { pk: META_KEY.pk, sk: `JOB#${job}`, st: state } }),
    );
  }
}
