/**
 * OSV advisories in DynamoDB (table spec ADVISORIES_TABLE): one item per (npm package name,
 * advisory id), pk = name, sk = id, so a scan reads all records of a package with one Query.
 * Items carry `modified_ms` (the record's version; conditional writes keep the newest) and the
 * record itself, gzipped JSON in `osv`. The only module of lambdas/advisories that imports the
 * AWS SDK.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import { requireEnv } from '../shared/config';
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

const BATCH_GET_MAX = 100;
const BATCH_WRITE_MAX = 25;
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

function isConditionFailure(error: unknown): boolean {
  return (error as { name?: string } | undefined)?.name === 'ConditionalCheckFailedException';
}

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

  private async backoff(attempt: number, what: string): Promise<void> {
    if (attempt >= this.maxBatchAttempts) {
      throw new AdvisoryStoreError(`${what}: items still unprocessed after ${attempt} attempts`);
    }
    // Full jitter, capped at 2 s.
    await this.sleep(Math.random() * Math.min(2000, 50 * 2 ** attempt));
  }

  async storedVersions(keys: readonly AdvisoryKey[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    for (let start = 0; start < keys.length; start += BATCH_GET_MAX) {
      let pending: Item[] = keys
        .slice(start, start + BATCH_GET_MAX)
        .map((key) => ({ pk: key.name, sk: key.id }));
      for (let attempt = 1; pending.length > 0; attempt++) {
        const response = await this.client.send(
          new BatchGetCommand({
            RequestItems: {
              [this.tableName]: {
                Keys: pending,
                ProjectionExpression: 'pk, sk, modified_ms',
                ConsistentRead: true,
              },
            },
          }),
        );
        for (const item of response.Responses?.[this.tableName] ?? []) {
          found.set(keyString({ name: String(item.pk), id: String(item.sk) }), Number(item.modified_ms));
        }
        pending = (response.UnprocessedKeys?.[this.tableName]?.Keys as Item[] | undefined) ?? [];
        if (pending.length > 0) await this.backoff(attempt, 'BatchGetItem');
      }
    }
    return found;
  }

  /** Writes in BatchWriteItem calls of 25 items, the calls of one put in parallel. */
  async putNew(items: readonly StoredAdvisory[]): Promise<void> {
    const batches: Item[][] = [];
    for (let start = 0; start < items.length; start += BATCH_WRITE_MAX) {
      batches.push(
        items
          .slice(start, start + BATCH_WRITE_MAX)
          .map((item) => ({ PutRequest: { Item: this.toItem(item) } })),
      );
    }
    await Promise.all(batches.map((batch) => this.writeBatch(batch)));
  }

  private async writeBatch(batch: Item[]): Promise<void> {
    let pending = batch;
    for (let attempt = 1; pending.length > 0; attempt++) {
      const response = await this.client.send(
        new BatchWriteCommand({ RequestItems: { [this.tableName]: pending } }),
      );
      pending = (response.UnprocessedItems?.[this.tableName] as Item[] | undefined) ?? [];
      if (pending.length > 0) await this.backoff(attempt, 'BatchWriteItem');
    }
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

let documentClient: DynamoDBDocumentClient | undefined;

/** The store named by ADVISORIES_TABLE, on a client built once per container (standard SDK env). */
export function advisoryStoreFromEnv(options: AdvisoryStoreOptions = {}): AdvisoryStore {
  documentClient ??= DynamoDBDocumentClient.from(new DynamoDBClient({}), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return new AdvisoryStore(documentClient, requireEnv(ADVISORIES_TABLE.envVar), options);
}
