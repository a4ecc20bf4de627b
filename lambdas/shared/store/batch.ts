/**
 * BatchGetItem and BatchWriteItem with DynamoDB's limits (100 keys, 25 writes per call) and
 * retries of what comes back unprocessed, with full-jitter backoff. One implementation for
 * every store of the service.
 */
import { BatchGetCommand, BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

type Item = Record<string, unknown>;

export const BATCH_GET_MAX = 100;
export const BATCH_WRITE_MAX = 25;

export interface BatchRetry {
  /** Calls for one batch before giving up. @default 8 */
  readonly maxAttempts?: number;
  /** @default setTimeout */
  readonly sleep?: (ms: number) => Promise<void>;
  /** The error thrown when a batch keeps coming back unprocessed. */
  readonly exhausted?: (message: string) => Error;
}

export interface BatchGetParams {
  readonly ProjectionExpression?: string;
  readonly ExpressionAttributeNames?: Record<string, string>;
  readonly ConsistentRead?: boolean;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function untilProcessed(
  what: string,
  retry: BatchRetry,
  call: (pending: Item[]) => Promise<Item[]>,
  first: Item[],
): Promise<void> {
  const maxAttempts = retry.maxAttempts ?? 8;
  let pending = first;
  for (let attempt = 1; pending.length > 0; attempt++) {
    pending = await call(pending);
    if (pending.length === 0) return;
    if (attempt >= maxAttempts) {
      const message = `${what}: items still unprocessed after ${attempt} attempts`;
      throw retry.exhausted ? retry.exhausted(message) : new Error(message);
    }
    await (retry.sleep ?? defaultSleep)(Math.random() * Math.min(2000, 50 * 2 ** attempt));
  }
}

/** Every item found for `keys` (any number; chunks read in parallel). Order is not kept. */
export async function batchGetAll(
  doc: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly Item[],
  params: BatchGetParams = {},
  retry: BatchRetry = {},
): Promise<Item[]> {
  const chunks = chunk(keys, BATCH_GET_MAX);
  const results = await Promise.all(
    chunks.map(async (chunkKeys) => {
      const items: Item[] = [];
      await untilProcessed(
        'BatchGetItem',
        retry,
        async (pending) => {
          const out = await doc.send(
            new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ...params } } }),
          );
          items.push(...(out.Responses?.[tableName] ?? []));
          return (out.UnprocessedKeys?.[tableName]?.Keys ?? []) as Item[];
        },
        [...chunkKeys],
      );
      return items;
    }),
  );
  return results.flat();
}

/** Writes up to 25 put/delete requests in one call, retrying what comes back unprocessed. */
export async function batchWriteChunk(
  doc: DynamoDBDocumentClient,
  tableName: string,
  requests: readonly Item[],
  retry: BatchRetry = {},
): Promise<void> {
  await untilProcessed(
    'BatchWriteItem',
    retry,
    async (pending) => {
      const out = await doc.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending as never } }));
      return (out.UnprocessedItems?.[tableName] ?? []) as Item[];
    },
    [...requests],
  );
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Whether a DynamoDB call failed on its condition expression. */
export function isConditionFailure(error: unknown): boolean {
  return (error as { name?: string } | undefined)?.name === 'ConditionalCheckFailedException';
}

/** For writes whose condition may legitimately fail: swallows that failure, rethrows the rest. */
export function ignoreConditionFailure(error: unknown): void {
  if (!isConditionFailure(error)) throw error;
}
