/** GET /v1/scan/{job_id}: status of a scan job, and its result once completed. */
import { badRequest, notFound } from '../shared/domain/errors';
import { apiHandler } from '../shared/http/api-handler';
import { scanConfig } from '../shared/scan-config';
import { jobStoreFromEnv } from '../shared/store/clients';

const jobs = jobStoreFromEnv();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const handler = apiHandler(async (event) => {
  const raw = event.pathParameters?.job_id ?? '';
  const jobId = raw.toLowerCase();
  if (!UUID.test(jobId)) throw badRequest('Path parameter job_id must be a UUID');
  let job = await jobs.get(jobId);
  if (!job) throw notFound(`Scan job '${jobId}' does not exist (jobs expire after 30 days)`);
  const ageSeconds = (Date.now() - Date.parse(job.created_at)) / 1000;
  if (job.status === 'queued' && ageSeconds > scanConfig.staleQueuedSeconds) {
    // Its message (or, for presigned uploads, its object) never arrived: say so, once and for all.
    await jobs.fail(
      job.job_id,
      job.source === 'tarball' ? 'The tarball was never uploaded' : 'The scan never started',
    );
    job = (await jobs.get(job.job_id)) ?? job;
  }
  const { s3_key: _s3Key, ...visible } = job;
  return { status: 200, body: visible };
});
