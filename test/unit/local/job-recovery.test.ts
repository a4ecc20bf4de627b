/**
 * Recovery of the local service's jobs after a stop (local/job-recovery.ts), against an in-memory
 * job store with the transitions of the real one (a completed job stays completed, re-queues are
 * counted and bounded), a recording queue and an in-memory bucket.
 */
import {
  abandonedReason,
  afterDelivery,
  interruptedReason,
  NEVER_UPLOADED,
  recoverJobs,
  sweepUploads,
  UPLOAD_EXPIRY_DAYS,
  type RecoveryDeps,
} from '../../../local/job-recovery';
import { messageFor } from '../../../lambdas/shared/queue/enqueue';
import type { ScanMessage } from '../../../lambdas/shared/queue/scan-queue';
import type { RequeueOutcome, StoredJob } from '../../../lambdas/shared/store/job-store';
import { emptyCapabilities, type PackageResponse } from '../../../src/contract/schemas';

const NOW = new Date('2026-11-25T12:00:00Z');
const minutesAgo = (n: number) => new Date(NOW.getTime() - n * 60_000).toISOString();
let ids = 0;
const newId = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`;

type Row = StoredJob & { requeues?: number };

function job(fields: Partial<Row> = {}): Row {
  return {
    job_id: newId(),
    status: 'queued',
    source: 'registry',
    name: 'left-pad',
    version: '1.3.0',
    registry: 'npm',
    created_at: minutesAgo(30),
    updated_at: minutesAgo(30),
    sent: true,
    ...fields,
  };
}

function tarballJob(fields: Partial<Row> = {}): Row {
  const row = job({ source: 'tarball', name: 'upload.tgz', version: 'unknown', ...fields });
  return { s3_key: `uploads/${row.job_id}.tgz`, ...row };
}

const unfinished = (row: Row) => row.status === 'queued' || row.status === 'running';

function harness(rows: Row[], options: { maxRequeues?: number; objects?: Record<string, Date> } = {}) {
  const jobs = new Map(rows.map((row) => [row.job_id, { ...row }]));
  const objects = new Map(Object.entries(options.objects ?? {}));
  const sent: ScanMessage[] = [];
  const removed: string[] = [];
  const failing = new Set<string>();
  const calls: string[] = [];
  const visible = ({ requeues: _requeues, ...row }: Row): StoredJob => row;
  const deps: RecoveryDeps = {
    jobs: {
      listUnfinished: async () => [...jobs.values()].filter(unfinished).map(visible),
      requeue: async (jobId, max): Promise<RequeueOutcome> => {
        calls.push(`requeue ${jobId}`);
        const row = jobs.get(jobId);
        if (!row || !unfinished(row)) return { outcome: 'finished' };
        const count = row.requeues ?? 0;
        if (count >= max) return { outcome: 'exhausted', job: visible(row), requeues: count };
        Object.assign(row, { status: 'queued', requeues: count + 1, updated_at: NOW.toISOString() });
        return { outcome: 'requeued', job: visible(row), requeues: count + 1 };
      },
      get: async (jobId) => {
        const row = jobs.get(jobId);
        return row ? visible(row) : undefined;
      },
      fail: async (jobId, reason) => {
        calls.push(`fail ${jobId}`);
        const row = jobs.get(jobId);
        if (row && row.status !== 'completed') Object.assign(row, { status: 'failed', error: reason });
      },
      markSent: async (jobId) => {
        calls.push(`markSent ${jobId}`);
        jobs.get(jobId)!.sent = true;
      },
      markUploaded: async (jobId) => {
        delete jobs.get(jobId)!.awaiting_upload;
      },
    },
    queue: {
      send: async (message) => {
        if (failing.has(message.job_id)) throw new Error('queue unreachable');
        sent.push(message);
      },
    },
    uploads: {
      exists: async (key) => objects.has(key),
      list: async (prefix) =>
        [...objects]
          .filter(([key]) => key.startsWith(prefix))
          .map(([key, lastModified]) => ({ key, lastModified })),
      remove: async (key) => {
        objects.delete(key);
        removed.push(key);
      },
    },
    maxRequeues: options.maxRequeues ?? 3,
    maxReceiveCount: 3,
    uploadUrlSeconds: 900,
    now: () => NOW,
  };
  return { deps, jobs, objects, sent, removed, failing, calls };
}

describe('recoverJobs', () => {
  it('queues every queued or running job again, with its own message, and leaves finished jobs alone', async () => {
    const queued = job();
    const running = job({ status: 'running', name: 'react', version: 'latest' });
    const neverSent = job({ sent: undefined, name: '@types/node' });
    const inline = tarballJob({ status: 'running' });
    const done = job({ status: 'completed' });
    const failed = job({ status: 'failed', error: 'Not found' });
    const h = harness([queued, running, neverSent, inline, done, failed]);

    const report = await recoverJobs(h.deps);

    const byId = (a: { job_id: string }, b: { job_id: string }) => a.job_id.localeCompare(b.job_id);
    const interrupted = [queued, running, neverSent, inline].sort(byId);
    expect({ ...report, requeued: [...report.requeued].sort() }).toEqual({
      requeued: interrupted.map((row) => row.job_id),
      uploaded: [],
      failed: [],
      waiting: [],
    });
    expect([...h.sent].sort(byId)).toEqual(interrupted.map((row) => messageFor(row)));
    expect(h.sent.find((m) => m.job_id === inline.job_id)).toMatchObject({
      source: 'tarball',
      s3_key: inline.s3_key,
    });
    for (const row of [queued, running, neverSent, inline]) {
      expect(h.jobs.get(row.job_id)).toMatchObject({ status: 'queued', requeues: 1, sent: true });
    }
    expect(h.jobs.get(done.job_id)?.status).toBe('completed');
    expect(h.jobs.get(failed.job_id)?.status).toBe('failed');
    expect(h.calls.filter((call) => call.startsWith('fail'))).toEqual([]);
    // Jobs whose first message was sent keep the mark: only the never-sent one is written.
    expect(h.calls.filter((call) => call.startsWith('markSent'))).toEqual([`markSent ${neverSent.job_id}`]);
  });

  it('sends the messages oldest job first, so the queue keeps the order the scans were asked in', async () => {
    const newer = job({ created_at: minutesAgo(10) });
    const oldest = job({ created_at: minutesAgo(50), status: 'running' });
    const middle = job({ created_at: minutesAgo(20) });
    const rows = Array.from({ length: 6 }, (_, i) => job({ created_at: minutesAgo(5 - i / 2) }));
    const h = harness([newer, ...rows, oldest, middle]);
    await recoverJobs(h.deps);
    expect(h.sent.map((m) => m.job_id)).toEqual([oldest, middle, newer, ...rows].map((r) => r.job_id));
  });

  it('re-queues a job interrupted again and again at most maxRequeues times, then fails it saying why', async () => {
    const stuck = job({ status: 'running' });
    const h = harness([stuck], { maxRequeues: 3 });
    for (let restart = 1; restart <= 3; restart++) {
      expect((await recoverJobs(h.deps)).requeued).toEqual([stuck.job_id]);
      expect(h.jobs.get(stuck.job_id)).toMatchObject({ status: 'queued', requeues: restart });
      // The worker picks it up and the service is stopped again mid-scan.
      h.jobs.get(stuck.job_id)!.status = 'running';
    }
    const fourth = await recoverJobs(h.deps);
    expect(fourth.requeued).toEqual([]);
    expect(fourth.failed).toEqual([{ jobId: stuck.job_id, reason: interruptedReason(4) }]);
    expect(h.jobs.get(stuck.job_id)).toMatchObject({ status: 'failed', error: interruptedReason(4) });
    expect(interruptedReason(4)).toMatch(
      /abandoned: the local service stopped 4 times while it waited or ran.*request it again/,
    );
    expect(h.sent).toHaveLength(3);
    // Nothing is left for a fifth start.
    expect(await recoverJobs(h.deps)).toEqual({ requeued: [], uploaded: [], failed: [], waiting: [] });
  });

  it('with LOCAL_MAX_REQUEUES=0 fails every interrupted job at once', async () => {
    const a = job();
    const b = job({ status: 'running' });
    const h = harness([a, b], { maxRequeues: 0 });
    const report = await recoverJobs(h.deps);
    expect(report.failed.map((f) => f.reason)).toEqual([interruptedReason(1), interruptedReason(1)]);
    expect(interruptedReason(1)).toMatch(/stopped once while/);
    expect(h.sent).toEqual([]);
    expect([...h.jobs.values()].map((row) => row.status)).toEqual(['failed', 'failed']);
  });

  it('queues a presigned upload that arrived while its notification was lost', async () => {
    const waiting = tarballJob({ awaiting_upload: true, sent: undefined, created_at: minutesAgo(5) });
    const h = harness([waiting], { objects: { [waiting.s3_key!]: NOW } });
    const report = await recoverJobs(h.deps);
    expect(report.uploaded).toEqual([waiting.job_id]);
    expect(h.sent).toEqual([messageFor(waiting)]);
    expect(h.jobs.get(waiting.job_id)).toMatchObject({ status: 'queued', sent: true });
    expect(h.jobs.get(waiting.job_id)?.awaiting_upload).toBeUndefined();
    // Not a re-queue: the count of interruptions is untouched.
    expect(h.jobs.get(waiting.job_id)?.requeues).toBeUndefined();
  });

  it('fails a presigned upload whose URL expired with no object, and lets a fresh one wait', async () => {
    const expired = tarballJob({ awaiting_upload: true, sent: undefined, created_at: minutesAgo(16) });
    const fresh = tarballJob({ awaiting_upload: true, sent: undefined, created_at: minutesAgo(14) });
    const h = harness([expired, fresh]);
    const report = await recoverJobs(h.deps);
    expect(report.failed).toEqual([{ jobId: expired.job_id, reason: NEVER_UPLOADED }]);
    expect(report.waiting).toEqual([fresh.job_id]);
    expect(h.jobs.get(fresh.job_id)).toMatchObject({ status: 'queued', awaiting_upload: true });
    expect(h.sent).toEqual([]);
  });

  it('fails a job whose message cannot be sent, and goes on with the others', async () => {
    const a = job();
    const b = job();
    const h = harness([a, b]);
    h.failing.add(a.job_id);
    const report = await recoverJobs(h.deps);
    expect(report.requeued).toEqual([b.job_id]);
    expect(report.failed).toEqual([
      { jobId: a.job_id, reason: 'The scan could not be queued; request it again' },
    ]);
    expect(h.jobs.get(a.job_id)?.status).toBe('failed');
    expect(h.sent.map((m) => m.job_id)).toEqual([b.job_id]);
  });

  it('does nothing to a job that finished between the listing and its re-queue', async () => {
    const racing = job({ status: 'running' });
    const h = harness([racing]);
    const list = h.deps.jobs.listUnfinished;
    h.deps = {
      ...h.deps,
      jobs: {
        ...h.deps.jobs,
        listUnfinished: async () => {
          const listed = await list();
          h.jobs.get(racing.job_id)!.status = 'completed';
          return listed;
        },
      },
    } as RecoveryDeps;
    expect(await recoverJobs(h.deps)).toEqual({ requeued: [], uploaded: [], failed: [], waiting: [] });
    expect(h.jobs.get(racing.job_id)?.status).toBe('completed');
  });
});

describe('afterDelivery', () => {
  const result = {
    name: 'x',
    version: '1.0.0',
    capabilities: emptyCapabilities(),
  } as unknown as PackageResponse;
  const delivery = (row: Row, receiveCount: number, failed: boolean) => ({
    body: JSON.stringify(messageFor(row)),
    receiveCount,
    failed,
  });

  it('fails the job of a message that failed its last receive without the scanner recording it, and deletes its upload', async () => {
    const row = tarballJob({ status: 'running' });
    const h = harness([row], { objects: { [row.s3_key!]: NOW } });
    await afterDelivery(h.deps, delivery(row, 3, true));
    expect(h.jobs.get(row.job_id)).toMatchObject({ status: 'failed', error: abandonedReason(3) });
    expect(abandonedReason(3)).toMatch(/failed 3 times.*dead-letter queue; request it again/);
    expect(h.removed).toEqual([row.s3_key]);
  });

  it('leaves a job whose failed delivery will be retried, and its upload', async () => {
    const row = tarballJob({ status: 'running' });
    const h = harness([row], { objects: { [row.s3_key!]: NOW } });
    await afterDelivery(h.deps, delivery(row, 2, true));
    expect(h.jobs.get(row.job_id)?.status).toBe('running');
    expect(h.removed).toEqual([]);
  });

  it('does not fail again a job the scanner already failed or completed', async () => {
    const failed = job({ status: 'failed', error: 'The scan failed 3 times and was abandoned; quote job x' });
    const completed = job({ status: 'completed', result });
    const h = harness([failed, completed]);
    await afterDelivery(h.deps, delivery(failed, 3, true));
    await afterDelivery(h.deps, delivery(completed, 3, true));
    expect(h.calls).toEqual([]);
    expect(h.jobs.get(failed.job_id)?.error).toMatch(/quote job x/);
  });

  it('deletes the upload of a finished tarball job only, and ignores what is not a scan message', async () => {
    const done = tarballJob({ status: 'completed' });
    const registry = job({ status: 'completed' });
    const h = harness([done, registry], { objects: { [done.s3_key!]: NOW } });
    await afterDelivery(h.deps, delivery(done, 1, false));
    await afterDelivery(h.deps, delivery(registry, 1, false));
    await afterDelivery(h.deps, { body: 'not json', receiveCount: 3, failed: true });
    await afterDelivery(h.deps, { body: '{"job_id":"nope"}', receiveCount: 3, failed: true });
    await afterDelivery(h.deps, delivery(job(), 3, true)); // a job that does not exist
    expect(h.removed).toEqual([done.s3_key]);
    expect(h.objects.size).toBe(0);
  });
});

describe('sweepUploads', () => {
  it('deletes uploads whose job finished or is gone, or older than the lifecycle, and keeps those still to scan', async () => {
    const finished = tarballJob({ status: 'failed' });
    const queued = tarballJob({ status: 'queued' });
    const old = tarballJob({ status: 'queued' });
    const orphan = `uploads/${newId()}.tgz`;
    const h = harness([finished, queued, old], {
      objects: {
        [finished.s3_key!]: NOW,
        [queued.s3_key!]: NOW,
        [old.s3_key!]: new Date(NOW.getTime() - UPLOAD_EXPIRY_DAYS * 86_400_000 - 1_000),
        [orphan]: NOW,
        'uploads/not-a-job.txt': NOW,
        'elsewhere/kept.tgz': NOW,
      },
    });
    const removed = await sweepUploads(h.deps);
    expect(removed.sort()).toEqual([finished.s3_key, old.s3_key, orphan, 'uploads/not-a-job.txt'].sort());
    expect([...h.objects.keys()].sort()).toEqual(['elsewhere/kept.tgz', queued.s3_key].sort());
  });
});
