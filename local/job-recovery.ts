/**
 * Scan jobs across stops of the local service. Its SQS stand-in keeps messages in memory, so a
 * stop (Ctrl-C, `kill -9`, a crash, a machine going to sleep for good) loses every queued and
 * in-flight message, while the jobs table (DynamoDB Local, on disk) keeps their jobs `queued` or
 * `running`: nothing would ever finish them, and a request for the same name@version would join
 * the dead job.
 *
 * `recoverJobs`, at start, before the API listens (no request can join a job before it has been
 * dealt with) and before the worker polls:
 * - a queued or running job (registry scan, or uploaded tarball) is handed back to the queue:
 *   `queued` again, its message sent again. At most `maxRequeues` times per job across restarts:
 *   a job still unfinished after that (one that keeps being interrupted, or takes the process
 *   down with it) is failed, saying why; a new request then starts a new job;
 * - a presigned upload whose object is stored but whose notification was lost (stopped between
 *   the PUT and upload-received) is queued, as upload-received would have; one whose URL has
 *   expired with no object is failed ("never uploaded"); any other keeps waiting for its PUT.
 *
 * `afterDelivery`, after each message the worker handled:
 * - a delivery that failed on the last receive the queue allows leaves its job unfinished only
 *   when the scanner could not record the failure (the invocation timed out or threw outside
 *   the record): the job is failed then, as its message moves to the dead-letter queue;
 * - the uploaded tarball of a finished job is deleted. On AWS the bucket's lifecycle rule deletes
 *   uploads after 3 days (no function may delete them); locally they go once their scan is done.
 *
 * `sweepUploads`, at start: objects under `uploads/` whose job has finished or is gone, or older
 * than the bucket's lifecycle (3 days), are deleted (left over from a stop before their clean-up).
 */
import {
  DeleteObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  type S3Client,
} from '@aws-sdk/client-s3';
import { enqueueOrFail, messageFor } from '../lambdas/shared/queue/enqueue';
import { ScanMessage, type ScanQueue } from '../lambdas/shared/queue/scan-queue';
import type { JobStore, StoredJob } from '../lambdas/shared/store/job-store';
import { jobIdFromUploadKey } from '../lambdas/shared/uploads/upload-store';

/** Times a job interrupted by a stop is queued again at later starts (LOCAL_MAX_REQUEUES). */
export const DEFAULT_MAX_REQUEUES = 3;

/** The uploads bucket's lifecycle rule (lib/constructs/scan-pipeline.ts: `uploads/` expire after 3 days). */
export const UPLOAD_EXPIRY_DAYS = 3;
const UPLOADS_PREFIX = 'uploads/';
const RECOVERY_CONCURRENCY = 4;

/** The uploaded objects, as recovery needs them. */
export interface UploadObjects {
  exists(key: string): Promise<boolean>;
  list(prefix: string): Promise<Array<{ key: string; lastModified: Date }>>;
  remove(key: string): Promise<void>;
}

export interface RecoveryDeps {
  readonly jobs: Pick<JobStore, 'listUnfinished' | 'requeue' | 'get' | 'fail' | 'markSent' | 'markUploaded'>;
  readonly queue: Pick<ScanQueue, 'send'>;
  readonly uploads: UploadObjects;
  /** Times one job's lost message is sent again before the job is failed (0: fail at once). */
  readonly maxRequeues: number;
  /** Receives of a message before the queue moves it to the dead-letter queue. */
  readonly maxReceiveCount: number;
  /** Lifetime of a presigned upload URL. */
  readonly uploadUrlSeconds: number;
  readonly now: () => Date;
}

export interface RecoveryReport {
  /** Jobs whose message was sent again. */
  readonly requeued: string[];
  /** Presigned uploads that had arrived, now queued. */
  readonly uploaded: string[];
  /** Jobs failed, with the reason. */
  readonly failed: Array<{ readonly jobId: string; readonly reason: string }>;
  /** Presigned uploads still waiting for their PUT. */
  readonly waiting: string[];
}

/** What the worker tells after handling one delivery. */
export interface Delivery {
  readonly body: string;
  readonly receiveCount: number;
  readonly failed: boolean;
}

const unfinished = (job: StoredJob) => job.status === 'queued' || job.status === 'running';

export function interruptedReason(times: number): string {
  return (
    `The scan was abandoned: the local service stopped ${times === 1 ? 'once' : `${times} times`} ` +
    'while it waited or ran, and a stop loses its queue message; request it again'
  );
}

/** enqueueOrFail's reason. */
const COULD_NOT_QUEUE = 'The scan could not be queued; request it again';

export const NEVER_UPLOADED = 'The tarball was never uploaded (its upload URL has expired)';

export function abandonedReason(receives: number): string {
  return (
    `The scan failed ${receives} times and was abandoned: its last attempt ended without reporting ` +
    '(timed out or crashed) and its message is in the dead-letter queue; request it again'
  );
}

/** Re-queues or fails every job whose queue message was lost with the last run of the service. */
export async function recoverJobs(deps: RecoveryDeps): Promise<RecoveryReport> {
  const report: RecoveryReport = { requeued: [], uploaded: [], failed: [], waiting: [] };
  const fail = async (jobId: string, reason: string) => {
    await deps.jobs.fail(jobId, reason);
    report.failed.push({ jobId, reason });
  };
  /** Sends the job's message; when that fails, enqueueOrFail has failed the job. */
  const send = async (job: StoredJob): Promise<boolean> => {
    // A job whose first message was sent keeps its `sent` mark: one write less per job.
    const jobs = {
      fail: (jobId: string, reason: string) => deps.jobs.fail(jobId, reason),
      markSent: async (jobId: string) => (job.sent ? undefined : deps.jobs.markSent(jobId)),
    };
    try {
      await enqueueOrFail(jobs, deps.queue, messageFor(job));
      return true;
    } catch {
      report.failed.push({ jobId: job.job_id, reason: COULD_NOT_QUEUE });
      return false;
    }
  };
  const recover = async (job: StoredJob): Promise<void> => {
    if (job.awaiting_upload) {
      if (job.s3_key !== undefined && (await deps.uploads.exists(job.s3_key))) {
        // Stored, but its notification never reached upload-received.
        await deps.jobs.markUploaded(job.job_id);
        if (await send(job)) report.uploaded.push(job.job_id);
      } else if (deps.now().getTime() - Date.parse(job.created_at) > deps.uploadUrlSeconds * 1000) {
        await fail(job.job_id, NEVER_UPLOADED);
      } else {
        report.waiting.push(job.job_id);
      }
      return;
    }
    const requeued = await deps.jobs.requeue(job.job_id, deps.maxRequeues);
    if (requeued.outcome === 'exhausted') {
      await fail(job.job_id, interruptedReason(requeued.requeues + 1));
    } else if (requeued.outcome === 'requeued' && (await send(requeued.job))) {
      report.requeued.push(job.job_id);
    }
  };
  // Oldest first, so the queue keeps roughly the order in which the scans were asked for; a few
  // at a time (three writes each, synced to disk by DynamoDB Local).
  const pending = (await deps.jobs.listUnfinished()).sort((a, b) => a.created_at.localeCompare(b.created_at));
  const next = async (): Promise<void> => {
    for (let job = pending.shift(); job !== undefined; job = pending.shift()) await recover(job);
  };
  await Promise.all(Array.from({ length: RECOVERY_CONCURRENCY }, next));
  return report;
}

/** After one handled delivery: the job of a dead-lettered message failed, a finished job's upload deleted. */
export async function afterDelivery(
  deps: Pick<RecoveryDeps, 'jobs' | 'uploads' | 'maxReceiveCount'>,
  delivery: Delivery,
): Promise<void> {
  let message: ScanMessage;
  try {
    message = ScanMessage.parse(JSON.parse(delivery.body));
  } catch {
    return; // not a scan message: no job to look after
  }
  let job = await deps.jobs.get(message.job_id);
  if (!job) return;
  if (delivery.failed && delivery.receiveCount >= deps.maxReceiveCount && unfinished(job)) {
    await deps.jobs.fail(job.job_id, abandonedReason(delivery.receiveCount));
    job = (await deps.jobs.get(job.job_id)) ?? job;
  }
  if (job.source === 'tarball' && job.s3_key !== undefined && !unfinished(job)) {
    await deps.uploads.remove(job.s3_key);
  }
}

/** Deletes uploads whose job has finished or is gone, and any older than the bucket's lifecycle. */
export async function sweepUploads(deps: Pick<RecoveryDeps, 'jobs' | 'uploads' | 'now'>): Promise<string[]> {
  const removed: string[] = [];
  const expiry = deps.now().getTime() - UPLOAD_EXPIRY_DAYS * 86_400_000;
  for (const object of await deps.uploads.list(UPLOADS_PREFIX)) {
    const jobId = jobIdFromUploadKey(object.key);
    const job = jobId === undefined ? undefined : await deps.jobs.get(jobId);
    if (job === undefined || !unfinished(job) || object.lastModified.getTime() < expiry) {
      await deps.uploads.remove(object.key);
      removed.push(object.key);
    }
  }
  return removed;
}

/** UploadObjects over a bucket (the local S3 stand-in). */
export function bucketObjects(s3: S3Client, bucket: string): UploadObjects {
  return {
    async exists(key) {
      try {
        await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (error) {
        const name = (error as { name?: string }).name;
        if (name === 'NotFound' || name === 'NoSuchKey') return false;
        throw error;
      }
    },
    async list(prefix) {
      const objects: Array<{ key: string; lastModified: Date }> = [];
      let token: string | undefined;
      do {
        const out = await s3.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const object of out.Contents ?? []) {
          if (object.Key !== undefined) {
            objects.push({ key: object.Key, lastModified: object.LastModified ?? new Date(0) });
          }
        }
        token = out.IsTruncated ? out.NextContinuationToken : undefined;
      } while (token);
      return objects;
    },
    async remove(key) {
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}
