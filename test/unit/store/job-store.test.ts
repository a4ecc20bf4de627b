/**
 * JobStore, one call at a time, on the in-memory DynamoDB behind aws-sdk-client-mock: job
 * creation (tarballs, registry scans and their markers), status changes, results, durations,
 * and the errors it passes on. The interleavings of two requests are in
 * job-interleavings.test.ts.
 */
import { gunzipSync } from 'node:zlib';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  JobStore,
  isLost,
  UNSENT_GRACE_SECONDS,
  type StoredJob,
} from '../../../lambdas/shared/store/job-store';
import { JOBS_TABLE } from '../../../lambdas/shared/store/tables';
import { packageRecord } from '../../support/records';
import { FakeDynamo, type Item } from './support/fake-dynamo';
import { MockedClient } from './support/mocked-client';

const TABLE = 'jobs-unit';
const NOW = new Date('2026-11-20T12:00:00.000Z');
const ID = '00000000-0000-4000-8000-0000000000a1';
const OTHER = '00000000-0000-4000-8000-0000000000b2';
const REGISTRY = { source: 'registry', name: 'left-pad', version: '1.3.0', registry: 'npm' } as const;

let fake: FakeDynamo;
let client: MockedClient;
let clock: Date;
let jobs: JobStore;

beforeAll(() => {
  client = new MockedClient();
});
afterAll(() => client.stub.restore());
beforeEach(() => {
  fake = new FakeDynamo().addTable(TABLE, JOBS_TABLE);
  client.stub.resetHistory();
  client.serve = (command, input) => fake.handle(command, input);
  clock = NOW;
  jobs = new JobStore(client.doc, TABLE, () => clock);
});

const item = (id: string) => fake.item(TABLE, { pk: `JOB#${id}` });
const marker = () => fake.item(TABLE, { pk: 'ACTIVE#left-pad@1.3.0' });

describe('create', () => {
  it('stores a tarball job without a marker, with its upload key and waiting state', async () => {
    const { job, created } = await jobs.create(
      {
        source: 'tarball',
        name: 'pkg',
        version: '1.0.0',
        registry: 'npm',
        s3Key: 'uploads/x',
        awaitingUpload: true,
      },
      ID,
    );
    expect(created).toBe(true);
    expect(job).toEqual({
      job_id: ID,
      status: 'queued',
      source: 'tarball',
      name: 'pkg',
      version: '1.0.0',
      registry: 'npm',
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
      s3_key: 'uploads/x',
      awaiting_upload: true,
    });
    expect(item(ID)).toMatchObject({ expires_at: Math.floor(NOW.getTime() / 1000) + 30 * 86_400 });
    expect(fake.scan(TABLE)).toHaveLength(1);
    // Tarballs are never joined: the same name and version is a new job.
    expect(
      (await jobs.create({ source: 'tarball', name: 'pkg', version: '1.0.0', registry: 'npm' }, OTHER))
        .created,
    ).toBe(true);
  });

  it('stores a registry job with its marker (an hour), and joins it while it is queued or running', async () => {
    await jobs.create(REGISTRY, ID);
    expect(marker()).toEqual({
      pk: 'ACTIVE#left-pad@1.3.0',
      job_id: ID,
      expires_at: Math.floor(NOW.getTime() / 1000) + 3600,
    });
    await jobs.markSent(ID);
    expect(await jobs.create(REGISTRY, OTHER)).toMatchObject({
      created: false,
      job: { job_id: ID, sent: true },
    });
    await jobs.markRunning(ID);
    expect(await jobs.create(REGISTRY, OTHER)).toMatchObject({ created: false, job: { status: 'running' } });
    expect(item(OTHER)).toBeUndefined();
  });

  it('replaces a marker whose job vanished (expired from the table)', async () => {
    fake.seed(TABLE, [
      { pk: 'ACTIVE#left-pad@1.3.0', job_id: OTHER, expires_at: Math.floor(NOW.getTime() / 1000) + 600 },
    ]);
    expect(await jobs.create(REGISTRY, ID)).toMatchObject({ created: true, job: { job_id: ID } });
    expect(marker()?.job_id).toBe(ID);
  });

  it('tries again when the marker it collided with is gone by the time it reads it', async () => {
    let first = true;
    client.serve = (command, input) => {
      if (command === 'TransactWrite' && first) {
        first = false;
        throw new TransactionCanceledException({ message: 'cancelled', $metadata: {} });
      }
      return fake.handle(command, input);
    };
    expect(await jobs.create(REGISTRY, ID)).toMatchObject({ created: true });
  });

  it('gives up after three collisions with markers of finished jobs', async () => {
    fake.seed(TABLE, [
      { pk: `JOB#${OTHER}`, job_id: OTHER, status: 'completed', created_at: NOW.toISOString() },
    ]);
    client.serve = (command, input) => {
      if (command === 'TransactWrite')
        throw new TransactionCanceledException({ message: 'cancelled', $metadata: {} });
      // The marker keeps coming back (another request keeps writing it).
      if (command === 'Get' && String((input.Key as Item).pk).startsWith('ACTIVE#')) {
        return { Item: { pk: 'ACTIVE#left-pad@1.3.0', job_id: OTHER } };
      }
      return fake.handle(command, input);
    };
    await expect(jobs.create(REGISTRY, ID)).rejects.toThrow('Could not create a job for left-pad@1.3.0');
    expect(client.stub.send.callCount).toBe(3 * 4);
  });

  it('passes on errors other than a cancelled transaction', async () => {
    client.serve = () => {
      throw new Error('throttled');
    };
    await expect(jobs.create(REGISTRY, ID)).rejects.toThrow('throttled');
    await expect(jobs.create({ ...REGISTRY, source: 'tarball' }, ID)).rejects.toThrow('throttled');
  });
});

describe('status changes', () => {
  it('markRunning: queued or running only; started_at set once', async () => {
    await jobs.create(REGISTRY, ID);
    expect(await jobs.markRunning(ID)).toBe(true);
    clock = new Date(NOW.getTime() + 5000);
    expect(await jobs.markRunning(ID)).toBe(true);
    expect(item(ID)).toMatchObject({
      status: 'running',
      started_at: NOW.toISOString(),
      updated_at: clock.toISOString(),
    });
    await jobs.complete(ID, packageRecord({ name: 'left-pad', version: '1.3.0' }));
    expect(await jobs.markRunning(ID)).toBe(false);
    expect(await jobs.markRunning(OTHER)).toBe(false);
    client.serve = () => {
      throw new Error('throttled');
    };
    await expect(jobs.markRunning(ID)).rejects.toThrow('throttled');
  });

  it('markSent and markUploaded change existing jobs only', async () => {
    await jobs.create(
      { source: 'tarball', name: 'pkg', version: '1.0.0', registry: 'npm', awaitingUpload: true },
      ID,
    );
    clock = new Date(NOW.getTime() + 1000);
    await jobs.markUploaded(ID);
    await jobs.markSent(ID);
    expect(await jobs.get(ID)).toMatchObject({ sent: true, updated_at: clock.toISOString() });
    expect((await jobs.get(ID))?.awaiting_upload).toBeUndefined();
    await expect(jobs.markSent(OTHER)).rejects.toThrow('The conditional request failed');
    await expect(jobs.markUploaded(OTHER)).rejects.toThrow('The conditional request failed');
    expect(await jobs.get(OTHER)).toBeUndefined();
  });

  it('complete stores the result (gzip), takes name and version from it, and clears the marker', async () => {
    await jobs.create({ ...REGISTRY, version: 'latest' }, ID);
    const result = packageRecord({ name: 'left-pad', version: '1.3.0' });
    await jobs.complete(ID, result);
    const stored = item(ID)!;
    expect(JSON.parse(gunzipSync(stored.result as Uint8Array).toString('utf8'))).toEqual(result);
    expect(await jobs.get(ID)).toMatchObject({ status: 'completed', version: '1.3.0', result });
    expect(fake.item(TABLE, { pk: 'ACTIVE#left-pad@latest' })).toBeUndefined();
  });

  it('a completed job stays completed; its marker is still cleared, another job’s is not', async () => {
    await jobs.create(REGISTRY, ID);
    await jobs.complete(ID, packageRecord({ name: 'left-pad', version: '1.3.0' }));
    // A marker rewritten since (left behind by a crash, then taken over by a new request).
    fake.seed(TABLE, [{ pk: 'ACTIVE#left-pad@1.3.0', job_id: ID }]);
    await jobs.fail(ID, 'late duplicate delivery');
    expect(item(ID)).toMatchObject({ status: 'completed' });
    expect(item(ID)?.error).toBeUndefined();
    expect(marker()).toBeUndefined();
    fake.seed(TABLE, [{ pk: 'ACTIVE#left-pad@1.3.0', job_id: OTHER }]);
    await jobs.fail(ID, 'again');
    expect(marker()?.job_id).toBe(OTHER);
  });

  it('fail keeps the first 1,000 characters of the reason; failing an unknown job does nothing', async () => {
    await jobs.create({ source: 'tarball', name: 'pkg', version: '1.0.0', registry: 'npm' }, ID);
    await jobs.fail(ID, 'x'.repeat(5000));
    expect((await jobs.get(ID))?.error).toHaveLength(1000);
    await jobs.fail(OTHER, 'nothing');
    expect(item(OTHER)).toBeUndefined();
  });

  it('passes on errors of the marker clean-up other than its condition', async () => {
    await jobs.create(REGISTRY, ID);
    client.serve = (command, input) => {
      if (command === 'Delete') throw new Error('throttled');
      return fake.handle(command, input);
    };
    await expect(jobs.fail(ID, 'x')).rejects.toThrow('throttled');
  });
});

describe('durations', () => {
  it('keeps the last twenty, in a ring', async () => {
    expect(await jobs.recentDurations()).toEqual([]);
    for (let i = 1; i <= 25; i++) await jobs.recordDuration(i * 1000 + 0.4);
    const durations = await jobs.recentDurations();
    expect(durations).toHaveLength(20);
    expect([...durations].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => (i + 6) * 1000),
    );
  });
});

describe('isLost', () => {
  const job = (fields: Partial<StoredJob>): StoredJob => ({
    job_id: ID,
    status: 'queued',
    source: 'registry',
    name: 'a',
    version: '1',
    registry: 'npm',
    created_at: NOW.toISOString(),
    updated_at: NOW.toISOString(),
    ...fields,
  });
  const after = (s: number) => new Date(NOW.getTime() + s * 1000);

  it('is a queued job never sent, past the grace period', () => {
    expect(isLost(job({}), after(UNSENT_GRACE_SECONDS))).toBe(false);
    expect(isLost(job({}), after(UNSENT_GRACE_SECONDS + 1))).toBe(true);
    expect(isLost(job({ sent: true }), after(3600))).toBe(false);
    expect(isLost(job({ awaiting_upload: true }), after(3600))).toBe(false);
    expect(isLost(job({ status: 'running' }), after(3600))).toBe(false);
  });
});
