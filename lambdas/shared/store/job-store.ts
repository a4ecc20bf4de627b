/**
 * Scan jobs in DynamoDB (jobs table, key `pk`):
 *
 *   JOB#<uuid>            the job: status, source, name, version, timestamps, error, result (gzip)
 *   ACTIVE#<name>@<spec>  job id of the queued or running registry scan of that spec (de-duplication)
 *   DUR#N                 ring-buffer position; DUR#<0..19> recent scan durations (for estimates)
 *
 * A job's `requeues` counts how often its lost message was sent again (`requeue`, used by the
 * local service's recovery at start; never set on AWS).
 *
 * Jobs expire (`expires_at`, TTL) 30 days after creation; ACTIVE markers after one hour, so a
 * lost marker can never block a package for long.
 */
import { randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  ScanCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { PackageResponse, ScanJob, ScanJobStatus } from '../../../src/contract/schemas';
import { ignoreConditionFailure, isConditionFailure } from './batch';

export const JOB_TTL_SECONDS = 30 * 86_400;
/** Lifetime of an ACTIVE marker: after it, a request for the same name@version starts a new job. */
export const ACTIVE_TTL_SECONDS = 3_600;
const DURATION_SLOTS = 20;

export type JobSource = 'registry' | 'tarball';

export interface NewJob {
  readonly source: JobSource;
  readonly name: string;
  /** Exact version, dist-tag, or for tarballs the version read later from package.json. */
  readonly version: string;
  readonly registry: string;
  /** S3 key of an uploaded tarball. */
  readonly s3Key?: string;
  /** A presigned upload: the job waits for its object before it is queued. */
  readonly awaitingUpload?: boolean;
}

export interface StoredJob extends ScanJob {
  readonly s3_key?: string;
  readonly awaiting_upload?: boolean;
  /** Its queue message was sent. */
  readonly sent?: boolean;
}

/** What `requeue` did: `requeues` counts the re-queues of the job, this one included. */
export type RequeueOutcome =
  | { readonly outcome: 'requeued'; readonly job: StoredJob; readonly requeues: number }
  | { readonly outcome: 'exhausted'; readonly job: StoredJob; readonly requeues: number }
  | { readonly outcome: 'finished' };

/** A queued job whose message was never sent after this long was lost (its sender died). */
export const UNSENT_GRACE_SECONDS = 120;

interface JobItem {
  pk: string;
  job_id: string;
  status: ScanJobStatus;
  source: JobSource;
  name: string;
  version: string;
  registry: string;
  created_at: string;
  updated_at: string;
  expires_at: number;
  error?: string;
  result?: Uint8Array;
  s3_key?: string;
  active_key?: string;
  started_at?: string;
  awaiting_upload?: boolean;
  sent?: boolean;
}

const jobKey = (jobId: string) => ({ pk: `JOB#${jobId}` });
const activeKey = (name: string, version: string) => ({ pk: `ACTIVE#${name}@${version}` });

export class JobStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Creates a queued job. For registry scans, a scan of the same name@version that is still
   * queued or running is returned instead (`created: false`).
   */
  async create(input: NewJob, jobId: string = randomUUID()): Promise<{ job: StoredJob; created: boolean }> {
    const now = this.clock();
    const item: JobItem = {
      ...jobKey(jobId),
      job_id: jobId,
      status: 'queued',
      source: input.source,
      name: input.name,
      version: input.version,
      registry: input.registry,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      expires_at: epoch(now) + JOB_TTL_SECONDS,
      ...(input.s3Key !== undefined ? { s3_key: input.s3Key } : {}),
      ...(input.awaitingUpload ? { awaiting_upload: true } : {}),
    };
    if (input.source === 'tarball') {
      await this.doc.send(new PutCommand({ TableName: this.tableName, Item: item }));
      return { job: toJob(item), created: true };
    }
    const active = activeKey(input.name, input.version);
    item.active_key = active.pk;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await this.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: this.tableName,
                  Item: { ...active, job_id: jobId, expires_at: epoch(now) + ACTIVE_TTL_SECONDS },
                  ConditionExpression: 'attribute_not_exists(pk) OR expires_at < :now',
                  ExpressionAttributeValues: { ':now': epoch(now) },
                },
              },
              { Put: { TableName: this.tableName, Item: item } },
            ],
          }),
        );
        return { job: toJob(item), created: true };
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const marker = await this.doc.send(
          new GetCommand({ TableName: this.tableName, Key: active, ConsistentRead: true }),
        );
        const existingId = marker.Item?.job_id as string | undefined;
        if (existingId !== undefined) {
          const existing = await this.get(existingId);
          const lost = existing !== undefined && isLost(existing, now);
          if (existing && !lost && (existing.status === 'queued' || existing.status === 'running')) {
            return { job: existing, created: false };
          }
          if (existing && lost) await this.fail(existing.job_id, 'The scan was never queued');
          // The marker belongs to a finished (or vanished) job that did not clear it: clear it
          // now, unless another request replaced it meanwhile, and try again.
          await this.doc
            .send(
              new DeleteCommand({
                TableName: this.tableName,
                Key: active,
                ConditionExpression: 'job_id = :old',
                ExpressionAttributeValues: { ':old': existingId },
              }),
            )
            .catch(ignoreConditionFailure);
        }
      }
    }
    throw new Error(`Could not create a job for ${input.name}@${input.version}`);
  }

  async get(jobId: string): Promise<StoredJob | undefined> {
    const out = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: jobKey(jobId), ConsistentRead: true }),
    );
    return out.Item ? toJob(out.Item as JobItem) : undefined;
  }

  /** Marks a job running unless it already finished. Returns false when it has finished. */
  async markRunning(jobId: string): Promise<boolean> {
    const now = this.clock().toISOString();
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: jobKey(jobId),
          UpdateExpression:
            'SET #s = :running, updated_at = :now, started_at = if_not_exists(started_at, :now)',
          ConditionExpression: 'attribute_exists(pk) AND #s IN (:queued, :running)',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':running': 'running', ':queued': 'queued', ':now': now },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** The job's queue message was sent. */
  async markSent(jobId: string): Promise<void> {
    await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: jobKey(jobId),
        UpdateExpression: 'SET sent = :t',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':t': true },
      }),
    );
  }

  /** The presigned upload of a job arrived: it now waits in the queue like any other. */
  async markUploaded(jobId: string): Promise<void> {
    await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: jobKey(jobId),
        UpdateExpression: 'REMOVE awaiting_upload SET updated_at = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': this.clock().toISOString() },
      }),
    );
  }

  async complete(jobId: string, result: PackageResponse): Promise<void> {
    await this.finish(jobId, 'completed', {
      result: gzipSync(JSON.stringify(result)),
      name: result.name,
      version: result.version,
    });
  }

  async fail(jobId: string, reason: string): Promise<void> {
    await this.finish(jobId, 'failed', { error: reason.slice(0, 1000) });
  }

  /**
   * Every job still `queued` or `running` (the queue messages of which the local service loses
   * when it stops: its SQS stand-in is in memory). A Scan of the whole table, without results:
   * for recovery at start, never on a request path.
   */
  async listUnfinished(): Promise<StoredJob[]> {
    const jobs: StoredJob[] = [];
    const fields = [
      'pk',
      'job_id',
      'status',
      'source',
      'name',
      'version',
      'registry',
      'created_at',
      'updated_at',
      's3_key',
      'awaiting_upload',
      'sent',
    ];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.doc.send(
        new ScanCommand({
          TableName: this.tableName,
          ConsistentRead: true,
          FilterExpression: 'begins_with(#pk, :job) AND #status IN (:queued, :running)',
          ProjectionExpression: fields.map((field) => `#${field}`).join(', '),
          ExpressionAttributeNames: Object.fromEntries(fields.map((field) => [`#${field}`, field])),
          ExpressionAttributeValues: { ':job': 'JOB#', ':queued': 'queued', ':running': 'running' },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of out.Items ?? []) jobs.push(toJob(item as JobItem));
      start = out.LastEvaluatedKey;
    } while (start);
    return jobs;
  }

  /**
   * Hands an unfinished job back to the queue after its message was lost: `queued` again, and
   * one more in its count of re-queues, unless it has been re-queued `maxRequeues` times already
   * (`exhausted`: the caller fails it) or has finished meanwhile (`finished`: nothing to do). The
   * caller sends the message afterwards.
   */
  async requeue(jobId: string, maxRequeues: number): Promise<RequeueOutcome> {
    // With a limit of 0 nothing is re-queued: the job is only read.
    const updated = maxRequeues > 0 ? await this.countRequeue(jobId, maxRequeues) : undefined;
    if (updated) return { outcome: 'requeued', job: toJob(updated), requeues: Number(updated.requeues) };
    const current = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: jobKey(jobId), ConsistentRead: true }),
    );
    const item = current.Item as (JobItem & { requeues?: number }) | undefined;
    if (!item || (item.status !== 'queued' && item.status !== 'running')) return { outcome: 'finished' };
    return { outcome: 'exhausted', job: toJob(item), requeues: Number(item.requeues ?? 0) };
  }

  /** The job, queued again with one more re-queue; undefined when finished, gone or at the limit. */
  private async countRequeue(
    jobId: string,
    maxRequeues: number,
  ): Promise<(JobItem & { requeues: number }) | undefined> {
    try {
      const out = await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: jobKey(jobId),
          UpdateExpression:
            'SET #s = :queued, updated_at = :now, requeues = if_not_exists(requeues, :zero) + :one',
          ConditionExpression:
            'attribute_exists(pk) AND #s IN (:queued, :running) AND (attribute_not_exists(requeues) OR requeues < :max)',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: {
            ':queued': 'queued',
            ':running': 'running',
            ':now': this.clock().toISOString(),
            ':zero': 0,
            ':one': 1,
            ':max': maxRequeues,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes as JobItem & { requeues: number };
    } catch (error) {
      ignoreConditionFailure(error);
      return undefined;
    }
  }

  /** Records how long a scan took, for estimates (a ring of the last 20). */
  async recordDuration(ms: number): Promise<void> {
    const out = await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: 'DUR#N' },
        UpdateExpression: 'ADD n :one',
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const slot = Number(out.Attributes?.n ?? 0) % DURATION_SLOTS;
    await this.doc.send(
      new PutCommand({ TableName: this.tableName, Item: { pk: `DUR#${slot}`, ms: Math.round(ms) } }),
    );
  }

  async recentDurations(): Promise<number[]> {
    const keys = Array.from({ length: DURATION_SLOTS }, (_, i) => ({ pk: `DUR#${i}` }));
    const out = await this.doc.send(
      new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: keys } } }),
    );
    return (out.Responses?.[this.tableName] ?? []).map((item) => Number(item.ms)).filter((n) => n > 0);
  }

  private async finish(
    jobId: string,
    status: 'completed' | 'failed',
    fields: { result?: Uint8Array; error?: string; name?: string; version?: string },
  ): Promise<void> {
    const now = this.clock().toISOString();
    const values: Record<string, unknown> = { ':status': status, ':now': now, ':completed': 'completed' };
    const sets = ['#s = :status', 'updated_at = :now'];
    for (const [field, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      sets.push(`#${field} = :${field}`);
      values[`:${field}`] = value;
    }
    const names: Record<string, string> = { '#s': 'status' };
    for (const field of Object.keys(fields))
      if (fields[field as keyof typeof fields] !== undefined) names[`#${field}`] = field;
    let activeKeyPk: string | undefined;
    try {
      const out = await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: jobKey(jobId),
          UpdateExpression: `SET ${sets.join(', ')}`,
          // A completed job stays completed: a late duplicate delivery cannot overwrite it.
          ConditionExpression: 'attribute_exists(pk) AND #s <> :completed',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      activeKeyPk = out.Attributes?.active_key as string | undefined;
    } catch (error) {
      ignoreConditionFailure(error);
      const job = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: jobKey(jobId) }));
      activeKeyPk = job.Item?.active_key as string | undefined;
    }
    if (activeKeyPk !== undefined) {
      await this.doc
        .send(
          new DeleteCommand({
            TableName: this.tableName,
            Key: { pk: activeKeyPk },
            ConditionExpression: 'attribute_not_exists(pk) OR job_id = :id',
            ExpressionAttributeValues: { ':id': jobId },
          }),
        )
        .catch((error: { name?: string }) => {
          if (error.name !== 'ConditionalCheckFailedException') throw error;
        });
    }
  }
}

function toJob(item: JobItem): StoredJob {
  return {
    job_id: item.job_id,
    status: item.status,
    source: item.source,
    name: item.name,
    version: item.version,
    registry: item.registry,
    created_at: item.created_at,
    updated_at: item.updated_at,
    ...(item.error !== undefined ? { error: item.error } : {}),
    ...(item.result !== undefined
      ? { result: JSON.parse(gunzipSync(item.result).toString('utf8')) as PackageResponse }
      : {}),
    ...(item.s3_key !== undefined ? { s3_key: item.s3_key } : {}),
    ...(item.awaiting_upload ? { awaiting_upload: true } : {}),
    ...(item.sent ? { sent: true } : {}),
  };
}

/** Queued, not waiting for an upload, and its message never sent within the grace period. */
export function isLost(job: StoredJob, now: Date): boolean {
  return (
    job.status === 'queued' &&
    !job.awaiting_upload &&
    !job.sent &&
    (now.getTime() - Date.parse(job.created_at)) / 1000 > UNSENT_GRACE_SECONDS
  );
}

function epoch(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
