/** GET /v1/scan/{job_id}: status of a scan job, and its result once completed. */
import { z } from 'zod';
import { badRequest, notFound } from '../shared/domain/errors';
import { apiHandler } from '../shared/http/api-handler';
import { scanConfig } from '../shared/scan-config';
import { jobStoreFromEnv } from '../shared/store/clients';

const jobs = jobStoreFromEnv();
const JobId = z.uuid();

export const handler = apiHandler(async (event) => {
  const raw = event.pathParameters?.job_id ?? '';
  const parsed = JobId.safeParse(raw.toLowerCase());
  if (!parsed.success) throw badRequest('Path parameter job_id must be a UUID');
  let job = await jobs.get(parsed.data);
  if (!job) throw notFound(`Scan job '${parsed.data}' does not exist (jobs expire after 30 days)`);
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
