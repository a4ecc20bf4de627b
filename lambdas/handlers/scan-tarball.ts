/**
 * POST /v1/scan/tarball: multipart/form-data with a `tarball` file field. The part is
 * validated (gzip, size), streamed to S3, and a private scan job is queued.
 */
import { randomUUID } from 'node:crypto';
import { HttpError } from '../shared/domain/errors';
import { apiHandler } from '../shared/http/api-handler';
import { inspectTarballPart, streamTarballPart } from '../shared/http/multipart';
import { enqueueOrFail, estimateFor, messageFor } from '../shared/queue/enqueue';
import { scanConfig } from '../shared/scan-config';
import { jobStoreFromEnv } from '../shared/store/clients';
import { scanQueueFromEnv } from '../shared/queue/clients';
import { uploadStoreFromEnv } from '../shared/uploads/clients';
import { uploadKey } from '../shared/uploads/upload-store';

const jobs = jobStoreFromEnv();
const queue = scanQueueFromEnv();
const uploads = uploadStoreFromEnv();

export const handler = apiHandler(async (event) => {
  const contentType = headerValue(event.headers, 'content-type') ?? '';
  if (event.body === null || event.body === '') throw new HttpError(400, 'Request body is required');
  const body = Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'binary');
  const max = scanConfig.maxInlineUploadBytes;
  const part = await inspectTarballPart(body, contentType, max);

  const jobId = randomUUID();
  const key = uploadKey(jobId);
  const label = part.filename === '' ? 'upload.tgz' : part.filename.slice(0, 200);
  // The job exists before its object, so the bucket's upload notification finds it already
  // queued (not awaiting a presigned upload) and leaves it alone.
  const { job } = await jobs.create(
    { source: 'tarball', name: label, version: 'unknown', registry: 'npm', s3Key: key },
    jobId,
  );
  try {
    await streamTarballPart(body, contentType, max, (stream) => uploads.putStream(key, stream, part.size));
  } catch (error) {
    await jobs.fail(jobId, 'The upload could not be stored; send it again');
    throw error;
  }
  await enqueueOrFail(jobs, queue, messageFor(job));
  return {
    status: 202,
    body: {
      job_id: jobId,
      estimated_seconds: await estimateFor(jobs, queue, scanConfig.scannerConcurrency),
    },
    headers: { location: `/v1/scan/${jobId}` },
  };
});

function headerValue(headers: Record<string, string | undefined> | null, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers ?? {})) if (key.toLowerCase() === name) return value;
  return undefined;
}
