/**
 * Looks every input package up, and with `scanMissing` asks the service to scan the unknown
 * ones, follows their jobs until they finish or the time limit passes, then reads them again.
 */
import { ApiClient, defaultSleep, mapPool, type PackageRef, type PackageResult } from './api';
import type { Progress } from './report/progress';

export type Lookup =
  | { readonly status: 'found'; readonly result: PackageResult }
  | { readonly status: 'unknown'; readonly reason: string; readonly jobId?: string };

export interface LookupOptions {
  readonly scanMissing: boolean;
  readonly scanTimeoutMs: number;
  /** First wait between polls of pending jobs; it grows to 5 s. */
  readonly pollIntervalMs: number;
  readonly concurrency: number;
  readonly progress: Progress;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

export const refId = (r: PackageRef) => `${r.name}@${r.version}`;

export async function lookupPackages(
  client: ApiClient,
  refs: readonly PackageRef[],
  opts: LookupOptions,
): Promise<Map<string, Lookup>> {
  const results = new Map<string, Lookup>();
  if (refs.length === 0) return results;
  opts.progress.start('Looking up', refs.length);
  const answers = await client.bulk(refs, (done) => opts.progress.update(done));
  answers.forEach((a, i) => {
    const ref = refs[i]!;
    results.set(
      refId(ref),
      a.found ? { status: 'found', result: a.result } : { status: 'unknown', reason: a.error },
    );
  });
  const unknown = refs.filter((r) => results.get(refId(r))?.status === 'unknown');
  opts.progress.done(
    `Looked up ${refs.length} package${refs.length === 1 ? '' : 's'}: ${unknown.length} not scanned yet`,
  );
  if (!opts.scanMissing || unknown.length === 0) return results;
  await scanUnknown(client, unknown, results, opts);
  return results;
}

interface PendingJob {
  readonly ref: PackageRef;
  readonly jobId: string;
  fallback?: PackageResult;
}

async function scanUnknown(
  client: ApiClient,
  unknown: readonly PackageRef[],
  results: Map<string, Lookup>,
  opts: LookupOptions,
): Promise<void> {
  const sleep = opts.sleep ?? defaultSleep;
  const now = opts.now ?? Date.now;
  const deadline = now() + opts.scanTimeoutMs;
  const { progress } = opts;

  progress.start('Requesting scans', unknown.length);
  let requested = 0;
  let refused = 0;
  // A 404 or 405 means this service does not offer scan requests at all: stop asking.
  let unsupported: string | undefined;
  const jobs = (
    await mapPool(unknown, opts.concurrency, async (ref) => {
      if (unsupported !== undefined) {
        results.set(refId(ref), { status: 'unknown', reason: unsupported });
        return undefined;
      }
      const answer = await client.requestScan(ref);
      progress.update(++requested);
      if ('refused' in answer) {
        refused++;
        const reason =
          answer.status === 404 || answer.status === 405
            ? `the service does not accept scan requests (POST /v1/scan answered ${answer.status}: ${answer.refused})`
            : `scan refused: ${answer.refused}`;
        if (answer.status === 404 || answer.status === 405) unsupported ??= reason;
        results.set(refId(ref), { status: 'unknown', reason });
        return undefined;
      }
      return { ref, jobId: answer.ack.job_id } satisfies PendingJob;
    })
  ).filter((j): j is PendingJob => j !== undefined);
  progress.done(
    unsupported ??
      `Requested ${jobs.length} scan${jobs.length === 1 ? '' : 's'}${refused > 0 ? ` (${refused} refused)` : ''}`,
  );
  if (jobs.length === 0) return;

  const seconds = Math.round(opts.scanTimeoutMs / 1000);
  progress.start(`Waiting for scans (up to ${seconds} s)`, jobs.length);
  let pending = jobs;
  const completed: PendingJob[] = [];
  let failed = 0;
  let interval = opts.pollIntervalMs;
  while (pending.length > 0 && now() < deadline) {
    await sleep(Math.max(0, Math.min(interval, deadline - now())));
    interval = Math.min(5000, Math.round(interval * 1.5));
    const states = await mapPool(pending, opts.concurrency, (job) => client.getJob(job.jobId));
    const still: PendingJob[] = [];
    states.forEach((state, i) => {
      const job = pending[i]!;
      if (state === undefined) {
        failed++;
        results.set(refId(job.ref), {
          status: 'unknown',
          reason: 'scan job no longer known to the service',
          jobId: job.jobId,
        });
      } else if (state.status === 'completed') {
        job.fallback = state.result;
        completed.push(job);
      } else if (state.status === 'failed') {
        failed++;
        results.set(refId(job.ref), {
          status: 'unknown',
          reason: `scan failed: ${state.error ?? 'no reason given'}`,
          jobId: job.jobId,
        });
      } else {
        still.push(job);
      }
    });
    pending = still;
    const left = Math.max(0, Math.round((deadline - now()) / 1000));
    progress.update(
      completed.length + failed,
      `${completed.length} done, ${failed} failed, ${pending.length} pending, ${left} s left`,
    );
  }
  for (const job of pending) {
    results.set(refId(job.ref), {
      status: 'unknown',
      reason: `scan not finished within ${seconds} s (job ${job.jobId})`,
      jobId: job.jobId,
    });
  }
  progress.done(
    `Scans: ${completed.length} completed, ${failed} failed, ${pending.length} unfinished at the time limit`,
  );
  if (completed.length === 0) return;

  // Read the finished ones again from the public record; the job's own result covers a lagging read.
  const again = await client.bulk(completed.map((j) => j.ref));
  again.forEach((a, i) => {
    const job = completed[i]!;
    if (a.found) results.set(refId(job.ref), { status: 'found', result: a.result });
    else if (job.fallback) results.set(refId(job.ref), { status: 'found', result: job.fallback });
    else results.set(refId(job.ref), { status: 'unknown', reason: a.error, jobId: job.jobId });
  });
}
