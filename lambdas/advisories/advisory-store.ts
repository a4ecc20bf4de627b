/**
 * OSV advisories in DynamoDB (table spec ADVISORIES_TABLE): one item per (npm package name,
 * advisory id), pk = name, sk = id, so a scan reads all records of a package with one Query.
 * Items carry `modified_ms` (the record's version; conditional writes keep the newest) and the
 * record itself, gzipped JSON in `osv`. The only module of lambdas/advisories that imports the
 * AWS SDK.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { requireEnv } from '../shared/config';
import {
  batchGetAll,
  batchWriteChunk,
  chunk,
  isConditionFailure,
  type BatchRetry,
} from '../shared/store/batch';
import { dynamoDocumentClient } from '../shared/store/clients';
import { ADVISORIES_TABLE } from '../shared/store/tables';
import type { OsvRecord } from './osv';
import {
  keyString,
  type AdvisoryKey,
  type AdvisorySink,
  type AdvisorySource,
  type StoredAdvisory,
} from './ports';

type Item = Record<string, unknown>;

/** Keeps items well under DynamoDB's 400 KB item limit. */
const MAX_RECORD_BYTES = 350_000;

export interface AdvisoryStoreOptions {
  /** Attempts for a batch whose unprocessed part keeps coming back (default 10). */
  readonly maxBatchAttempts?: number;
  /** Backoff between attempts (tests pass a no-op). */
  readonly sleep?: (ms: number) => Promise<void>;
}

export class AdvisoryStoreError extends Error {
  override readonly name = 'AdvisoryStoreError';
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Gzipped JSON of the record; an oversized record loses its long texts, never its ranges. */
export function encodeRecord(record: OsvRecord): Uint8Array {
  let json = JSON.stringify(record);
  if (Buffer.byteLength(json) > MAX_RECORD_BYTES) {
    json = JSON.stringify({ ...record, details: (record.details ?? '').slice(0, 10_000), references: [] });
  }
  return gzipSync(json);
}

export function decodeRecord(value: unknown): OsvRecord {
  if (!(value instanceof Uint8Array)) throw new AdvisoryStoreError('Stored advisory has no record');
  return JSON.parse(gunzipSync(value).toString('utf8')) as OsvRecord;
}

export class AdvisoryStore implements AdvisorySink, AdvisorySource {
  private readonly maxBatchAttempts: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    options: AdvisoryStoreOptions = {},
  ) {
    this.maxBatchAttempts = options.maxBatchAttempts ?? 10;
    this.sleep = options.sleep ?? defaultSleep;
  }

  private toItem(item: StoredAdvisory): Item {
    return {
      pk: item.name,
      sk: item.id,
      modified_ms: item.modifiedMs,
      modified: item.record.modified,
      osv: encodeRecord(item.record),
    };
  }

  private get retry(): BatchRetry {
    return {
      maxAttempts: this.maxBatchAttempts,
      sleep: this.sleep,
      exhausted: (message) => new AdvisoryStoreError(message),
    };
  }

  async storedVersions(keys: readonly AdvisoryKey[]): Promise<Map<string, number>> {
    const items = await batchGetAll(
      this.client,
      this.tableName,
      keys.map((key) => ({ pk: key.name, sk: key.id })),
      { ProjectionExpression: 'pk, sk, modified_ms', ConsistentRead: true },
      this.retry,
    );
    return new Map(
      items.map((item) => [
        keyString({ name: String(item.pk), id: String(item.sk) }),
        Number(item.modified_ms),
      ]),
    );
  }

  /** Writes in BatchWriteItem calls of 25 items, the calls of one put in parallel. */
  async putNew(items: readonly StoredAdvisory[]): Promise<void> {
    const requests = items.map((item) => ({ PutRequest: { Item: this.toItem(item) } }));
    await Promise.all(
      chunk(requests, 25).map((batch) => batchWriteChunk(this.client, this.tableName, batch, this.retry)),
    );
  }

  async putIfNewer(item: StoredAdvisory): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: this.toItem(item),
          ConditionExpression: 'attribute_not_exists(pk) OR modified_ms < :modified',
          ExpressionAttributeValues: { ':modified': item.modifiedMs },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async removeIfNotNewer(key: AdvisoryKey, modifiedMs: number): Promise<boolean> {
    try {
      await this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: { pk: key.name, sk: key.id },
          ConditionExpression: 'attribute_exists(pk) AND modified_ms <= :modified',
          ExpressionAttributeValues: { ':modified': modifiedMs },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async recordsFor(name: string): Promise<OsvRecord[]> {
    const records: OsvRecord[] = [];
    let startKey: Item | undefined;
    do {
      const response = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': name },
          ProjectionExpression: 'osv',
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      for (const item of response.Items ?? []) records.push(decodeRecord(item.osv));
      startKey = response.LastEvaluatedKey;
    } while (startKey);
    return records;
  }
}

/** The store named by ADVISORIES_TABLE, on the container's one DynamoDB client (standard SDK env). */
export function advisoryStoreFromEnv(options: AdvisoryStoreOptions = {}): AdvisoryStore {
  return new AdvisoryStore(dynamoDocumentClient(), requireEnv(ADVISORIES_TABLE.envVar), options);
}
