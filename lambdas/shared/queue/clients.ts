import { SQSClient } from '@aws-sdk/client-sqs';
import { requireEnv } from '../config';
import { ScanQueue } from './scan-queue';

/** The scan queue named by SCAN_QUEUE_URL (AWS_ENDPOINT_URL_SQS points at a local stand-in). */
export function scanQueueFromEnv(): ScanQueue {
  return new ScanQueue(new SQSClient({}), requireEnv('SCAN_QUEUE_URL'));
}
