/**
 * What the package store's modules share: the record types, the stored document encoding, and
 * the plain table calls (get, query, batch get and write, list rows). Key layout in ./keys.ts;
 * design in docs/storage.md.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PackageListItem, PackageResponse } from '../../../src/contract/schemas';
import type { VersionSelector } from '../domain/validation';
import { BATCH_WRITE_MAX, batchGetAll, batchWriteChunk, chunk } from './batch';
import { LATEST_SK, packageKey } from './keys';
import { PACKAGES_TABLE } from './tables';

export type Key = Record<string, string>;
export type Item = Record<string, unknown>;

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

export const LIST_INDEX = PACKAGES_TABLE.indexes[0]!.name;

/** The packages table and the calls every part of the store makes on it. */
export class PackageTable {
  constructor(
    readonly doc: DynamoDBDocumentClient,
    readonly name: string,
  ) {}

  async getItem(key: Key, projection: string): Promise<Item | undefined> {
    const out = await this.doc.send(
      new GetCommand({ TableName: this.name, Key: key, ProjectionExpression: projection }),
    );
    return out.Item;
  }

  async queryAll(input: {
    IndexName?: string;
    KeyConditionExpression: string;
    ExpressionAttributeValues: Item;
    ProjectionExpression: string;
  }): Promise<Item[]> {
    const rows: Item[] = [];
    let key: Item | undefined;
    do {
      const out = await this.doc.send(
        new QueryCommand({ TableName: this.name, ...input, ExclusiveStartKey: key }),
      );
      rows.push(...(out.Items ?? []));
      key = out.LastEvaluatedKey;
    } while (key);
    return rows;
  }

  /** BatchGetItem of any number of keys (duplicates read once). Order is not kept. */
  batchGet(keys: readonly Key[], projection: string, names?: Record<string, string>): Promise<Item[]> {
    const unique = [...new Map(keys.map((k) => [flat(k), k])).values()];
    return batchGetAll(this.doc, this.name, unique, {
      ProjectionExpression: projection,
      ...(names ? { ExpressionAttributeNames: names } : {}),
    });
  }

  async batchWrite(requests: readonly Item[]): Promise<void> {
    for (const requestsChunk of chunk(requests, BATCH_WRITE_MAX)) {
      await batchWriteChunk(this.doc, this.name, requestsChunk);
    }
  }

  /** The list rows of `names`, in that order (names without a latest row are left out). */
  async listRows(names: readonly string[]): Promise<{ rows: PackageListItem[]; itemsRead: number }> {
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
}

export function encodeDoc(result: PackageResponse): Uint8Array {
  return gzipSync(JSON.stringify(result));
}

export function decodeDoc(item: Item): PackageResponse {
  const bytes = item.doc as Uint8Array;
  return JSON.parse(gunzipSync(bytes).toString('utf8')) as PackageResponse;
}

export function encodeBasis(basis: ScanBasis): Uint8Array {
  return gzipSync(JSON.stringify(basis));
}

export function decodeBasis(item: Item): ScanBasis | undefined {
  return item.basis
    ? (JSON.parse(gunzipSync(item.basis as Uint8Array).toString('utf8')) as ScanBasis)
    : undefined;
}

export function countOf(item: Item | undefined): number {
  return typeof item?.n === 'number' ? item.n : 0;
}

export function flat(key: Key): string {
  return `${key.pk}\u0000${key.sk}`;
}
