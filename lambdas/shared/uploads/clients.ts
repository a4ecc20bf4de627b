import { S3Client } from '@aws-sdk/client-s3';
import { flagEnv, requireEnv } from '../config';
import { UploadStore } from './upload-store';

/** The upload bucket named by UPLOAD_BUCKET; S3_FORCE_PATH_STYLE=1 for S3-compatible stand-ins. */
export function uploadStoreFromEnv(): UploadStore {
  return new UploadStore(
    new S3Client({ forcePathStyle: flagEnv('S3_FORCE_PATH_STYLE') }),
    requireEnv('UPLOAD_BUCKET'),
  );
}
