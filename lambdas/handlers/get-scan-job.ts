/** GET /v1/scan/{job_id}: status of a scan job, and its result once completed. */
import { badRequest, notFound } from '../shared/domain/errors';
import { apiHandler } from '../shared/http/api-handler';
import { scanConfig } from '../shared/scan-config';
import { jobStoreFromEnv } from '../shared/store/clients';
import { isLost, type StoredJob } from '../shared/store/job-store';

const jobs = jobStoreFromEnv();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const handler = apiHandler(async (event) => {
  const raw = event.pathParameters?.job_id ?? '';
  const jobId = raw.toLowerCase();
  if (!UUID.test(jobId)) throw badRequest('Path parameter job_id must be a UUID');
  let job = await jobs.get(jobId);
  if (!job) throw notFound(`Scan job '${jobId}' does not exist (jobs expire after 30 days)`);
  const stale = staleReason(job, Date.now());
  if (stale !== undefined) {
    // Nothing will ever finish this job: say so, once and for all.
    await jobs.fail(job.job_id, stale);
    job = (await jobs.get(job.job_id)) ?? job;
  }
  const { s3_key: _s3Key, awaiting_upload: _awaiting, sent: _sent, ...visible } = job;
  return { status: 200, body: visible };
});

/** Why a job can no longer finish, if it cannot. */
export function staleReason(job: StoredJob, now: number): string | undefined {
  const since = (iso: string) => (now - Date.parse(iso)) / 1000;
  if (job.status === 'queued' && job.awaiting_upload) {
    return since(job.created_at) > scanConfig.uploadUrlSeconds + 600
      ? 'The tarball was never uploaded'
      : undefined;
  }
  if (isLost(job, new Date(now))) return 'The scan was never queued';
  if (job.status === 'queued' && since(job.created_at) > scanConfig.staleQueuedSeconds) {
    return 'The scan never started';
  }
  if (job.status === 'running' && since(job.updated_at) > scanConfig.staleRunningSeconds) {
    return 'The scan was abandoned: its last attempt stopped without reporting (see the dead-letter queue)';
  }
  return undefined;
}
