import type { JobStore } from '../store/job-store';
import type { ScanMessage, ScanQueue } from './scan-queue';

/** Sends a job's message; if that fails, the job is marked failed so it never waits forever. */
export async function enqueueOrFail(jobs: JobStore, queue: ScanQueue, message: ScanMessage): Promise<void> {
  try {
    await queue.send(message);
  } catch (error) {
    await jobs.fail(message.job_id, 'The scan could not be queued; request it again');
    throw error;
  }
}
