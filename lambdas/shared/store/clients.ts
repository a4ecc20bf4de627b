/**
 * AWS clients and stores, built once per Lambda container. Endpoints come from the SDK's
 * standard environment (AWS_ENDPOINT_URL_DYNAMODB / _SQS / _S3 point them at local stand-ins).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { flagEnv, requireEnv } from '../config';
import { ScanQueue } from '../queue/scan-queue';
import { UploadStore } from '../uploads/upload-store';
import { JobStore } from './job-store';
import { PackageStore } from './package-store';
import { JOBS_TABLE, PACKAGES_TABLE } from './tables';

let documentClient: DynamoDBDocumentClient | undefined;

export function dynamoDocumentClient(): DynamoDBDocumentClient {
  documentClient ??= DynamoDBDocumentClient.from(new DynamoDBClient({}), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
}

export function packageStoreFromEnv(): PackageStore {
  return new PackageStore(dynamoDocumentClient(), requireEnv(PACKAGES_TABLE.envVar));
}

export function jobStoreFromEnv(): JobStore {
  return new JobStore(dynamoDocumentClient(), requireEnv(JOBS_TABLE.envVar));
}

export function scanQueueFromEnv(): ScanQueue {
  return new ScanQueue(new SQSClient({}), requireEnv('SCAN_QUEUE_URL'));
}

export function uploadStoreFromEnv(): UploadStore {
  // Path-style addressing for S3-compatible local stand-ins (S3_FORCE_PATH_STYLE=1).
  return new UploadStore(
    new S3Client({ forcePathStyle: flagEnv('S3_FORCE_PATH_STYLE') }),
    requireEnv('UPLOAD_BUCKET'),
  );
}
