/**
 * POST /v1/scan/upload-url: for tarballs above the inline upload limit. Returns a short-lived
 * presigned PUT URL and a job that starts when the object lands in S3.
 */
import { randomUUID } from 'node:crypto';
import { apiHandler } from '../shared/http/api-handler';
import { scanConfig } from '../shared/scan-config';
import { jobStoreFromEnv } from '../shared/store/clients';
import { uploadStoreFromEnv } from '../shared/uploads/clients';
import { uploadKey } from '../shared/uploads/upload-store';

const jobs = jobStoreFromEnv();
const uploads = uploadStoreFromEnv();

export const handler = apiHandler(async () => {
  const jobId = randomUUID();
  const key = uploadKey(jobId);
  const url = await uploads.presignPut(key, scanConfig.uploadUrlSeconds);
  await jobs.create(
    {
      source: 'tarball',
      name: 'upload.tgz',
      version: 'unknown',
      registry: 'npm',
      s3Key: key,
      awaitingUpload: true,
    },
    jobId,
  );
  return {
    status: 201,
    body: {
      job_id: jobId,
      upload_url: url,
      method: 'PUT',
      expires_in: scanConfig.uploadUrlSeconds,
      max_bytes: scanConfig.maxTarballBytes,
    },
    headers: { location: `/v1/scan/${jobId}` },
  };
});
