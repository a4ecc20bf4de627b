import { estimateSeconds } from '../domain/estimate';
import type { JobStore, StoredJob } from '../store/job-store';
import type { ScanMessage, ScanQueue } from './scan-queue';

/** The queue message of a job: everything the scanner (and the dead-letter handling) needs. */
export function messageFor(job: StoredJob): ScanMessage {
  return {
    job_id: job.job_id,
    source: job.source,
    name: job.name,
    version: job.version,
    registry: job.registry,
    ...(job.s3_key !== undefined ? { s3_key: job.s3_key } : {}),
  };
}

/** Seconds until a job queued now completes, from recent scan durations and the queue depth. */
export async function estimateFor(jobs: JobStore, queue: ScanQueue, concurrency: number): Promise<number> {
  const [durations, depth] = await Promise.all([jobs.recentDurations(), queue.depth()]);
  return estimateSeconds(durations, depth, concurrency);
}

/** Sends a job's message; if that fails, the job is marked failed so it never waits forever. */
export async function enqueueOrFail(
  jobs: Pick<JobStore, 'fail' | 'markSent'>,
  queue: Pick<ScanQueue, 'send'>,
  message: ScanMessage,
): Promise<void> {
  try {
    await queue.send(message);
  } catch (error) {
    await jobs.fail(message.job_id, 'The scan could not be queued; request it again');
    throw error;
  }
  // Recorded so that a job whose sender died before this point is recognised as lost.
  await jobs.markSent(message.job_id);
}
