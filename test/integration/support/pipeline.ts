/**
 * One test file's scan pipeline: its own scan queue and dead-letter queue in the shared SQS
 * stand-in, its own s3rver (so upload notifications reach this file's handler only), the fake
 * registry (NPM_REGISTRY_URL and DOWNLOADS_API_URL point at it: no outside call), the API of
 * support/test-api.ts, the local scanner worker and the S3 notifications of `npm start`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
  type Message,
} from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { forwardS3Notifications, type S3Notifications } from '../../../local/s3-notifications';
import { createScannerWorker, type ScannerWorker } from '../../../local/scanner-worker';
import { importLocalAdvisories } from '../../../local/seed';
import {
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  MAX_RECEIVE_COUNT,
  UPLOAD_BUCKET,
  createScanQueues,
  localDynamoClient,
  startLocalS3,
  type LocalS3,
} from '../../../local/stand-ins';
import type { ScanJob } from '../../../src/contract/schemas';
import { JobStore } from '../../../lambdas/shared/store/job-store';
import { JOBS_TABLE } from '../../../lambdas/shared/store/tables';
import { startFakeRegistry, type FakeRegistry } from '../../support/fake-registry';
import { startTestApi, type ApiResponse, type TestApi } from './test-api';

export interface PipelineOptions {
  /** Visibility timeout of each receive: the retry delay of a failed scan. @default 2 */
  readonly visibilityTimeoutSeconds?: number;
  /** Import data/advisories/osv-npm/ into this file's advisories table. @default false */
  readonly importAdvisories?: boolean;
  /** More environment for the handlers (read when they load, at start). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface TestPipeline {
  readonly api: TestApi;
  readonly registry: FakeRegistry;
  readonly worker: ScannerWorker;
  readonly s3: LocalS3;
  readonly jobs: JobStore;
  readonly sqs: SQSClient;
  readonly queueUrl: string;
  readonly dlqUrl: string;
  /** POST /v1/scan with a JSON body. */
  requestScan(body: unknown): Promise<ApiResponse>;
  /** Polls GET /v1/scan/{id} until the job is completed or failed. */
  waitForJob(jobId: string, timeoutMs?: number): Promise<ScanJob & { result?: unknown }>;
  /** Messages visible in the dead-letter queue (received without deleting, then released). */
  dlqMessages(): Promise<Message[]>;
  /** Messages waiting or in flight in the scan queue. */
  queueDepth(): Promise<number>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

export async function startPipeline(options: PipelineOptions = {}): Promise<TestPipeline> {
  const sqsEndpoint = process.env.PKGSCAN_IT_SQS_ENDPOINT;
  if (!sqsEndpoint)
    throw new Error('PKGSCAN_IT_SQS_ENDPOINT is not set: run through jest --selectProjects integration');
  const prefix = `it-${randomBytes(4).toString('hex')}`;
  const { queueUrl, dlqUrl } = await createScanQueues(sqsEndpoint, {
    queue: `${prefix}-scan-jobs`,
    dlq: `${prefix}-scan-jobs-dlq`,
  });
  const s3Dir = await mkdtemp(join(tmpdir(), 'pkgscan-it-s3-'));
  const s3 = await startLocalS3({ directory: s3Dir });
  const registry = await startFakeRegistry();

  Object.assign(process.env, {
    SCAN_QUEUE_URL: queueUrl,
    SCAN_DLQ_URL: dlqUrl,
    AWS_ENDPOINT_URL_S3: s3.endpoint,
    UPLOAD_BUCKET,
    NPM_REGISTRY_URL: registry.url,
    DOWNLOADS_API_URL: registry.url,
    MAX_RECEIVE_COUNT: String(MAX_RECEIVE_COUNT),
    SCANNER_CONCURRENCY: '2',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    POWERTOOLS_METRICS_DISABLED: 'true',
    ...options.env,
  });
  // Creates this file's tables (and sets their env) and loads the API handlers.
  const api = await startTestApi();
  if (options.importAdvisories) await importLocalAdvisories();

  const worker = createScannerWorker({
    queueUrl,
    concurrency: 2,
    waitTimeSeconds: 1,
    visibilityTimeoutSeconds: options.visibilityTimeoutSeconds ?? 2,
    stopTimeoutMs: 10_000,
    errorLog: () => undefined,
  });
  const notifications: S3Notifications = forwardS3Notifications({
    source: s3.s3rver,
    errorLog: () => undefined,
  });
  await Promise.all([worker.start(), notifications.start()]);

  const dynamo = localDynamoClient(process.env.PKGSCAN_IT_DYNAMODB_ENDPOINT ?? '');
  const jobs = new JobStore(
    DynamoDBDocumentClient.from(dynamo, { marshallOptions: { removeUndefinedValues: true } }),
    process.env[JOBS_TABLE.envVar] ?? '',
  );
  const sqs = new SQSClient({ endpoint: sqsEndpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });

  const waitForJob = async (jobId: string, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    let last: unknown;
    while (Date.now() < deadline) {
      const response = await api.get(`/v1/scan/${jobId}`);
      last = response.body;
      const job = response.body as ScanJob;
      if (response.status === 200 && (job.status === 'completed' || job.status === 'failed')) return job;
      await sleep(100);
    }
    throw new Error(`Job ${jobId} did not finish within ${timeoutMs} ms; last seen: ${JSON.stringify(last)}`);
  };

  return {
    api,
    registry,
    worker,
    s3,
    jobs,
    sqs,
    queueUrl,
    dlqUrl,
    requestScan: (body) => api.postJson('/v1/scan', body),
    waitForJob,
    async dlqMessages() {
      const out = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: dlqUrl,
          // All of them at once (no wait: the stand-in would wait it out with 10).
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 0,
          VisibilityTimeout: 0,
          AttributeNames: ['All'],
        }),
      );
      return out.Messages ?? [];
    },
    async queueDepth() {
      const out = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: queueUrl,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      return (
        Number(out.Attributes?.ApproximateNumberOfMessages ?? 0) +
        Number(out.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0)
      );
    },
    async stop() {
      await notifications.stop();
      await worker.stop();
      await api.stop();
      await registry.close();
      await s3.stop();
      sqs.destroy();
      dynamo.destroy();
      await rm(s3Dir, { recursive: true, force: true });
    },
  };
}
