/**
 * S3 ObjectCreated notifications for presigned uploads: queues the job the object belongs to.
 * A repeated notification finds the job no longer queued-and-unsent and does nothing twice
 * (the scanner also skips finished jobs).
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, S3Event } from 'aws-lambda';
import { pipelineServiceName } from '../shared/observability';
import { enqueueOrFail, messageFor } from '../shared/queue/enqueue';
import { jobStoreFromEnv } from '../shared/store/clients';
import { scanQueueFromEnv } from '../shared/queue/clients';
import { jobIdFromUploadKey } from '../shared/uploads/upload-store';

const logger = new Logger({ serviceName: pipelineServiceName('upload-received') });
const jobs = jobStoreFromEnv();
const queue = scanQueueFromEnv();

export async function onUploads(event: S3Event): Promise<void> {
  for (const record of event.Records) {
    const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
    const jobId = jobIdFromUploadKey(key);
    const job = jobId === undefined ? undefined : await jobs.get(jobId);
    if (!job) {
      logger.warn('Upload without a job', { key });
      continue;
    }
    if (job.status !== 'queued' || job.source !== 'tarball' || !job.awaiting_upload) {
      // Inline uploads land here too: their job was queued when the upload was received.
      logger.info('Upload already queued', { key, job_id: job.job_id });
      continue;
    }
    await jobs.markUploaded(job.job_id);
    await enqueueOrFail(jobs, queue, messageFor(job));
  }
}

export const handler = middy<S3Event, void, Error, Context>()
  .use(injectLambdaContext(logger))
  .handler((event) => onUploads(event));
