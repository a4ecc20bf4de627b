/**
 * At-least-once delivery, end to end through the local queue and the real scanner handler: a
 * message delivered twice gives one result, a scan whose worker died between the result write and
 * the job update is finished by the redelivery, and a message that fails every time ends in the
 * dead-letter queue with its job failed. Visibility timeout 4 s: a failed scan is retried 4 s
 * after its receive (the fake registry's scripted 500s cost the client's own retries, up to 3.5 s).
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { PackageResponse } from '../../src/contract/schemas';
import { scanRecord } from './support/factory';
import { expectBody } from './support/contract';
import { startPipeline, type TestPipeline } from './support/pipeline';

jest.setTimeout(90_000);

let pipeline: TestPipeline;

beforeAll(async () => {
  pipeline = await startPipeline({ visibilityTimeoutSeconds: 4 });
});
afterAll(async () => {
  await pipeline?.stop();
});

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function send(body: unknown): Promise<void> {
  await pipeline.sqs.send(
    new SendMessageCommand({
      QueueUrl: pipeline.queueUrl,
      MessageBody: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(200);
  }
  throw new Error(`Timed out waiting for ${what}`);
}

async function newJob(name: string, version: string): Promise<string> {
  const { job, created } = await pipeline.jobs.create({ source: 'registry', name, version, registry: 'npm' });
  expect(created).toBe(true);
  return job.job_id;
}

const message = (jobId: string, name: string, version: string) => ({
  job_id: jobId,
  source: 'registry',
  name,
  version,
  registry: 'npm',
});

it('gives one result when the same message is delivered twice, one after the other', async () => {
  const jobId = await newJob('left-pad', '1.2.0');
  await send(message(jobId, 'left-pad', '1.2.0'));
  const first = await pipeline.waitForJob(jobId);
  expect(first.status).toBe('completed');
  const stored = await pipeline.api.store.versions('left-pad');

  await send(message(jobId, 'left-pad', '1.2.0'));
  await waitFor('the duplicate to be consumed', async () =>
    (await pipeline.queueDepth()) === 0 ? true : undefined,
  );

  const again = expectBody(await pipeline.api.get(`/v1/scan/${jobId}`), 200, 'ScanJob');
  expect(again).toEqual(first);
  const after = await pipeline.api.store.versions('left-pad');
  expect(after).toHaveLength(1);
  expect(after[0]?.result).toEqual(stored[0]?.result);
  expect(after[0]?.result.scanned_at).toBe(PackageResponse.parse(first.result).scanned_at);
});

it('gives one result when two deliveries of one message are scanned at the same time', async () => {
  const jobId = await newJob('left-pad', '1.3.0');
  await Promise.all([send(message(jobId, 'left-pad', '1.3.0')), send(message(jobId, 'left-pad', '1.3.0'))]);
  const job = await pipeline.waitForJob(jobId);
  expect(job.status).toBe('completed');
  await waitFor('both deliveries to be consumed', async () =>
    (await pipeline.queueDepth()) === 0 ? true : undefined,
  );
  const versions = (await pipeline.api.store.versions('left-pad')).map((v) => v.result.version).sort();
  expect(versions).toEqual(['1.2.0', '1.3.0']);
  expect(expectBody(await pipeline.api.get(`/v1/scan/${jobId}`), 200, 'ScanJob').status).toBe('completed');
});

it('completes a job whose worker died between the result write and the job update', async () => {
  // The dead worker's doing: job marked running, result written, job never completed, message not deleted.
  const jobId = await newJob('is-number', '7.0.0');
  expect(await pipeline.jobs.markRunning(jobId)).toBe(true);
  await pipeline.api.store.putScan(scanRecord('is-number', { version: '7.0.0' }));
  expect((await pipeline.jobs.get(jobId))?.status).toBe('running');

  // Its message comes back.
  await send(message(jobId, 'is-number', '7.0.0'));
  const job = await pipeline.waitForJob(jobId);
  expect(job.status).toBe('completed');
  const versions = await pipeline.api.store.versions('is-number');
  expect(versions).toHaveLength(1);
  // The redelivered scan's result replaced the half-written one, and the job carries the same.
  expect(versions[0]?.result).toEqual(job.result);
  expectBody(await pipeline.api.get('/v1/packages/is-number'), 200, 'PackageResponse');
});

it('moves a poison message to the dead-letter queue and fails its job with a reason', async () => {
  // The registry answers 500 to everything about this package, every time.
  pipeline.registry.failNext('/always-broken', 500, 1_000);
  const response = await pipeline.requestScan({ name: 'always-broken' });
  const jobId = expectBody(response, 202, 'ScanAck').job_id;
  // A message that is not a scan message at all goes the same way (no job to fail).
  await send('{"this is": "not a scan message"}');

  const job = await pipeline.waitForJob(jobId, 45_000);
  expect(job.status).toBe('failed');
  expect(job.error).toMatch(/failed 3 times/);
  expect(expectBody(await pipeline.api.get(`/v1/scan/${jobId}`), 200, 'ScanJob').error).toBe(job.error);

  const bodies = await waitFor(
    'both messages in the dead-letter queue',
    async () => {
      const seen = new Set<string>();
      for (const m of await pipeline.dlqMessages()) seen.add(m.Body ?? '');
      return seen.size >= 2 ? [...seen] : undefined;
    },
    20_000,
  );
  expect(bodies.some((body) => body.includes(jobId))).toBe(true);
  expect(bodies).toContain('{"this is": "not a scan message"}');
  expect(await pipeline.queueDepth()).toBe(0);
  // Three deliveries, each asking the registry (with the client's own retries).
  expect(pipeline.registry.requests.filter((r) => r === 'GET /always-broken').length).toBeGreaterThanOrEqual(
    3,
  );
});
