/**
 * The local runtime's event sources with stub handlers: the scanner worker against the SQS
 * stand-in (record shape, delete or leave, redelivery with a growing receive count, a handler that
 * throws, concurrency, a clean stop) and the S3 notifications against s3rver (event shape, key
 * encoding, prefix filter, retries), and the S3 stand-in's refusal of unsigned requests.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { S3Event, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { forwardS3Notifications } from '../../local/s3-notifications';
import { createScannerWorker, queueArn, type ScannerWorker } from '../../local/scanner-worker';
import {
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  UPLOAD_BUCKET,
  createScanQueues,
  startLocalS3,
} from '../../local/stand-ins';

jest.setTimeout(30_000);

const sqsEndpoint = process.env.PKGSCAN_IT_SQS_ENDPOINT ?? '';
const sqs = new SQSClient({ endpoint: sqsEndpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
const workers: ScannerWorker[] = [];

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  sqs.destroy();
});

async function queues(maxReceiveCount = 3) {
  const prefix = `it-${randomBytes(4).toString('hex')}`;
  return createScanQueues(sqsEndpoint, { queue: `${prefix}-q`, dlq: `${prefix}-dlq` }, { maxReceiveCount });
}

async function until(what: string, check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

function startWorker(
  queueUrl: string,
  handler: (event: SQSEvent) => Promise<SQSBatchResponse | void>,
  concurrency = 1,
) {
  const worker = createScannerWorker({
    queueUrl,
    sqs,
    concurrency,
    waitTimeSeconds: 1,
    visibilityTimeoutSeconds: 1,
    loadHandler: async () => handler,
    errorLog: () => undefined,
  });
  workers.push(worker);
  return worker;
}

describe('scanner worker', () => {
  it('hands real-shaped records to the handler and redelivers what it reports as failed', async () => {
    const { queueUrl } = await queues();
    const seen: SQSEvent[] = [];
    const worker = startWorker(queueUrl, async (event) => {
      seen.push(event);
      const record = event.Records[0];
      // Fail the first two deliveries, accept the third.
      return record && Number(record.attributes.ApproximateReceiveCount) < 3
        ? { batchItemFailures: [{ itemIdentifier: record.messageId }] }
        : { batchItemFailures: [] };
    });
    await worker.start();
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: '{"hello":"world"}',
        MessageAttributes: { kind: { DataType: 'String', StringValue: 'test' } },
      }),
    );
    await until('three deliveries and a delete', () => worker.stats.succeeded === 1);

    expect(seen).toHaveLength(3);
    for (const event of seen) expect(event.Records).toHaveLength(1);
    const records = seen.map((event) => event.Records[0]!);
    expect(records.map((r) => r.attributes.ApproximateReceiveCount)).toEqual(['1', '2', '3']);
    expect(new Set(records.map((r) => r.messageId)).size).toBe(1);
    expect(records[0]).toMatchObject({
      body: '{"hello":"world"}',
      eventSource: 'aws:sqs',
      eventSourceARN: queueArn(queueUrl),
      awsRegion: LOCAL_REGION,
      messageAttributes: { kind: { dataType: 'String', stringValue: 'test' } },
    });
    expect(records[0]?.eventSourceARN).toMatch(/^arn:aws:sqs:us-east-1:000000000000:it-[0-9a-f]+-q$/);
    expect(records[0]?.attributes.SentTimestamp).toMatch(/^\d+$/);
    expect(records[0]?.md5OfBody).toMatch(/^[0-9a-f]{32}$/);
    expect(worker.stats).toMatchObject({ received: 3, failed: 2, succeeded: 1 });
    // Deleted after the success: it does not come back once its visibility timeout (1 s) is over.
    await new Promise((done) => setTimeout(done, 1_200));
    expect(worker.stats.received).toBe(3);
  });

  it('leaves the message when the invocation throws, until the queue moves it to the dead-letter queue', async () => {
    const { queueUrl, dlqUrl } = await queues(2);
    let calls = 0;
    const worker = startWorker(queueUrl, async () => {
      calls++;
      throw new Error('handler crashed');
    });
    await worker.start();
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'poison' }));
    await until('two failed deliveries', () => calls === 2);
    const dlqWorker = startWorker(dlqUrl, async () => ({ batchItemFailures: [] }));
    await dlqWorker.start();
    await until('the message in the dead-letter queue', () => dlqWorker.stats.succeeded === 1);
    expect(calls).toBe(2);
  });

  it('runs deliveries in parallel up to its concurrency and stops cleanly', async () => {
    const { queueUrl } = await queues();
    let running = 0;
    let peak = 0;
    const worker = startWorker(
      queueUrl,
      async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((done) => setTimeout(done, 300));
        running--;
      },
      3,
    );
    await worker.start();
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: `m${i}` })),
      ),
    );
    await until('six deliveries', () => worker.stats.succeeded === 6);
    expect(peak).toBe(3);
    // Stopping aborts the idle long polls at once.
    const started = Date.now();
    await worker.stop();
    expect(Date.now() - started).toBeLessThan(1_000);
    await worker.stop();
  });
});

describe('S3 notifications', () => {
  it('forwards ObjectCreated under uploads/ as real-shaped S3 events, with retries', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pkgscan-it-notify-'));
    const s3 = await startLocalS3({ directory: dir });
    const events: S3Event[] = [];
    let failOnce = true;
    const notifications = forwardS3Notifications({
      source: s3.s3rver,
      retryDelaysMs: [50, 50],
      errorLog: () => undefined,
      loadHandler: async () => async (event) => {
        if (failOnce) {
          failOnce = false;
          throw new Error('first invocation fails');
        }
        events.push(event);
      },
    });
    await notifications.start();
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: LOCAL_REGION,
      credentials: LOCAL_CREDENTIALS,
      forcePathStyle: true,
    });
    try {
      await client.send(new PutObjectCommand({ Bucket: UPLOAD_BUCKET, Key: 'elsewhere/x.tgz', Body: 'a' }));
      await client.send(
        new PutObjectCommand({ Bucket: UPLOAD_BUCKET, Key: 'uploads/a b+c.tgz', Body: 'hello' }),
      );
      await until('the notification', () => events.length === 1);
      await notifications.settled();
      expect(events).toHaveLength(1);
      const record = events[0]?.Records[0];
      expect(events[0]?.Records).toHaveLength(1);
      expect(record).toMatchObject({
        eventSource: 'aws:s3',
        eventName: 'ObjectCreated:Put',
        awsRegion: LOCAL_REGION,
        s3: {
          bucket: { name: UPLOAD_BUCKET, arn: `arn:aws:s3:::${UPLOAD_BUCKET}` },
          object: { key: 'uploads/a+b%2Bc.tgz', size: 5 },
        },
      });
      expect(record?.s3.object.eTag).toMatch(/^[0-9a-f]{32}$/);
      // What upload-received does with the key gives back the stored one.
      expect(decodeURIComponent((record?.s3.object.key ?? '').replace(/\+/g, ' '))).toBe('uploads/a b+c.tgz');
    } finally {
      client.destroy();
      await notifications.stop();
      await s3.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('S3 stand-in', () => {
  it('serves nothing without a valid signature: the SDK and presigned URLs work, anything else is 403', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pkgscan-it-s3-auth-'));
    const s3 = await startLocalS3({ directory: dir });
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: LOCAL_REGION,
      credentials: LOCAL_CREDENTIALS,
      forcePathStyle: true,
    });
    const stranger = new S3Client({
      endpoint: s3.endpoint,
      region: LOCAL_REGION,
      credentials: { accessKeyId: LOCAL_CREDENTIALS.accessKeyId, secretAccessKey: 'guessed' },
      forcePathStyle: true,
      maxAttempts: 1,
    });
    const object = `${s3.endpoint}/${UPLOAD_BUCKET}/uploads/secret.tgz`;
    try {
      await client.send(
        new PutObjectCommand({ Bucket: UPLOAD_BUCKET, Key: 'uploads/secret.tgz', Body: 'private' }),
      );
      const got = await client.send(
        new GetObjectCommand({ Bucket: UPLOAD_BUCKET, Key: 'uploads/secret.tgz' }),
      );
      expect(await got.Body?.transformToString()).toBe('private');

      for (const [method, url] of [
        ['GET', object],
        ['HEAD', object],
        ['PUT', `${s3.endpoint}/${UPLOAD_BUCKET}/uploads/planted.tgz`],
        ['DELETE', object],
        ['GET', `${s3.endpoint}/${UPLOAD_BUCKET}?list-type=2`],
        ['GET', `${s3.endpoint}/`],
      ] as const) {
        const response = await fetch(url, { method, ...(method === 'PUT' ? { body: 'planted' } : {}) });
        expect([method, url, response.status]).toEqual([method, url, 403]);
        if (method !== 'HEAD') expect(await response.text()).toMatch(/<Code>AccessDenied<\/Code>/);
      }
      await expect(
        stranger.send(new GetObjectCommand({ Bucket: UPLOAD_BUCKET, Key: 'uploads/secret.tgz' })),
      ).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });

      const url = await getSignedUrl(
        client,
        new PutObjectCommand({ Bucket: UPLOAD_BUCKET, Key: 'uploads/p.tgz' }),
        {
          expiresIn: 60,
        },
      );
      expect((await fetch(url, { method: 'PUT', body: 'uploaded' })).status).toBe(200);
      // The URL is for that PUT only.
      expect((await fetch(url)).status).toBe(403);
      expect((await fetch(url.replace('p.tgz', 'other.tgz'), { method: 'PUT', body: 'x' })).status).toBe(403);
      // Nothing planted, nothing deleted.
      const listed = await client.send(new ListObjectsV2Command({ Bucket: UPLOAD_BUCKET }));
      expect((listed.Contents ?? []).map((o) => o.Key).sort()).toEqual([
        'uploads/p.tgz',
        'uploads/secret.tgz',
      ]);
    } finally {
      client.destroy();
      stranger.destroy();
      await s3.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
