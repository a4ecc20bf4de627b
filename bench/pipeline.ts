/**
 * Scan pipeline benchmark: `npm run bench:pipeline [-- --names 50 --concurrency 2 --timeout 600]`.
 *
 * Starts its own local stand-ins (DynamoDB Local in memory, a temporary folder for S3), the local
 * API, the scanner worker and the S3 notifications, imports the repository's advisories, then
 * requests scans (POST /v1/scan, latest version) of the first N names of data/benign/packages.txt
 * from the REAL registry (npm's default, or NPM_REGISTRY_URL) and waits for every job. Reports
 * end-to-end throughput (finished scans per minute, from the first request to the last job
 * finished), p50/p90 job latency from request to `completed` (the job's own `updated_at`), and
 * the failures with their reasons. Bounded: jobs not finished after `--timeout` seconds are
 * reported as unfinished. Writes bench/results/pipeline.json.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createApiServer, type ApiServer } from '../local/http-adapter';
import { forwardS3Notifications, type S3Notifications } from '../local/s3-notifications';
import { createScannerWorker, type ScannerWorker } from '../local/scanner-worker';
import { importLocalAdvisories } from '../local/seed';
import { MAX_RECEIVE_COUNT, startStandIns, type StandIns } from '../local/stand-ins';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

const { values: args } = parseArgs({
  options: {
    names: { type: 'string', default: '50' },
    concurrency: { type: 'string', default: '2' },
    timeout: { type: 'string', default: '600' },
    list: { type: 'string', default: join(REPO_ROOT, 'data/benign/packages.txt') },
    out: { type: 'string', default: join(REPO_ROOT, 'bench/results/pipeline.json') },
  },
});

function positiveInt(raw: string, what: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw new Error(`${what} must be a positive integer, got '${raw}'`);
  return Number(raw);
}

const NAMES = positiveInt(args.names, '--names');
const CONCURRENCY = positiveInt(args.concurrency, '--concurrency');
const TIMEOUT_MS = positiveInt(args.timeout, '--timeout') * 1000;
const POLL_MS = 250;

interface JobOutcome {
  name: string;
  jobId?: string;
  requestedAt: number;
  status: 'completed' | 'failed' | 'unfinished' | 'refused';
  version?: string;
  latencyMs?: number;
  error?: string;
}

function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

const seconds = (ms: number | undefined) => (ms === undefined ? 'n/a' : `${(ms / 1000).toFixed(2)} s`);

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const names = (await readFile(args.list, 'utf8'))
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .slice(0, NAMES);
  const dataDir = await mkdtemp(join(tmpdir(), 'pkgscan-bench-pipeline-'));
  let standIns: StandIns | undefined;
  let api: ApiServer | undefined;
  let worker: ScannerWorker | undefined;
  let notifications: S3Notifications | undefined;
  const handlerMs: number[] = [];
  try {
    const startedSetup = Date.now();
    standIns = await startStandIns({ dataDir, inMemory: true, fastJvmStart: false });
    Object.assign(process.env, standIns.env, {
      MAX_RECEIVE_COUNT: String(MAX_RECEIVE_COUNT),
      SCANNER_CONCURRENCY: String(CONCURRENCY),
      POWERTOOLS_METRICS_DISABLED: 'true',
      POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'ERROR',
    });
    api = createApiServer({ errorLog: (line, error) => console.error(line, error ?? '') });
    const failures = await api.preload();
    if (failures.length > 0)
      throw new Error(`Handlers failed to load: ${failures.map((f) => f.handler).join(', ')}`);
    const url = await api.listen(0, '127.0.0.1');
    const imported = await importLocalAdvisories();
    worker = createScannerWorker({
      onHandled: (delivery) => handlerMs.push(delivery.ms),
      queueUrl: standIns.queueUrl,
      concurrency: CONCURRENCY,
      visibilityTimeoutSeconds: 30,
      stopTimeoutMs: 5_000,
      errorLog: () => undefined,
    });
    notifications = forwardS3Notifications({ source: standIns.s3Events });
    await Promise.all([worker.start(), notifications.start()]);
    console.log(
      `setup ${seconds(Date.now() - startedSetup)} (advisories: ${imported.report.added} records in ` +
        `${imported.seconds.toFixed(1)} s); scanning ${names.length} packages from ` +
        `${process.env.NPM_REGISTRY_URL ?? "npm's default registry"}, worker concurrency ${CONCURRENCY}`,
    );

    // Every scan is requested at once, as a burst of users would.
    const firstRequest = Date.now();
    const outcomes: JobOutcome[] = await Promise.all(
      names.map(async (name): Promise<JobOutcome> => {
        const requestedAt = Date.now();
        const response = await fetch(`${url}/v1/scan`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name }),
        });
        const body = (await response.json()) as { job_id?: string; error?: string };
        return response.status === 202 && body.job_id
          ? { name, jobId: body.job_id, requestedAt, status: 'unfinished' }
          : { name, requestedAt, status: 'refused', error: body.error ?? `HTTP ${response.status}` };
      }),
    );
    const requestsMs = Date.now() - firstRequest;

    const deadline = firstRequest + TIMEOUT_MS;
    let open = outcomes.filter((o) => o.jobId !== undefined);
    let lastReport = Date.now();
    while (open.length > 0 && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, POLL_MS));
      for (const outcome of open) {
        const response = await fetch(`${url}/v1/scan/${outcome.jobId}`);
        const job = (await response.json()) as {
          status?: string;
          updated_at?: string;
          version?: string;
          error?: string;
        };
        if (job.status === 'completed' || job.status === 'failed') {
          outcome.status = job.status;
          outcome.version = job.version;
          outcome.error = job.error;
          // The job's own finish time (written by the scanner), not this poll's.
          outcome.latencyMs = Date.parse(job.updated_at ?? '') - outcome.requestedAt;
        }
      }
      open = open.filter((o) => o.status === 'unfinished');
      if (Date.now() - lastReport > 10_000) {
        lastReport = Date.now();
        console.log(
          `  ${outcomes.length - open.length}/${outcomes.length} finished after ${seconds(Date.now() - firstRequest)}`,
        );
      }
    }

    const finished = outcomes.filter((o) => o.status === 'completed' || o.status === 'failed');
    const completed = outcomes.filter((o) => o.status === 'completed');
    const latencies = completed.map((o) => o.latencyMs ?? 0).sort((a, b) => a - b);
    const sortedHandler = [...handlerMs].sort((a, b) => a - b);
    const lastFinish = Math.max(firstRequest, ...finished.map((o) => o.requestedAt + (o.latencyMs ?? 0)));
    const wallMs = lastFinish - firstRequest;
    const perMinute = wallMs > 0 ? (completed.length / wallMs) * 60_000 : 0;
    const summary = {
      packages: names.length,
      completed: completed.length,
      failed: outcomes.filter((o) => o.status === 'failed').length,
      refused: outcomes.filter((o) => o.status === 'refused').length,
      unfinished: outcomes.filter((o) => o.status === 'unfinished').length,
      concurrency: CONCURRENCY,
      wall_seconds: Number((wallMs / 1000).toFixed(1)),
      scans_per_minute: Number(perMinute.toFixed(1)),
      requests_seconds: Number((requestsMs / 1000).toFixed(2)),
      latency_ms: {
        p50: percentile(latencies, 50),
        p90: percentile(latencies, 90),
        max: latencies.at(-1),
      },
      scan_ms: {
        p50: percentile(sortedHandler, 50),
        p90: percentile(sortedHandler, 90),
        max: sortedHandler.at(-1),
      },
      worker: { ...worker.stats },
    };

    console.log('');
    console.log(`packages           ${summary.packages}`);
    console.log(`completed          ${summary.completed}`);
    console.log(`failed             ${summary.failed}`);
    if (summary.refused > 0) console.log(`refused            ${summary.refused}`);
    if (summary.unfinished > 0)
      console.log(`unfinished         ${summary.unfinished} (after ${TIMEOUT_MS / 1000} s)`);
    console.log(`wall time          ${seconds(wallMs)} (first request to last job finished)`);
    console.log(
      `throughput         ${summary.scans_per_minute} scans/min (worker concurrency ${CONCURRENCY})`,
    );
    console.log(`latency p50        ${seconds(summary.latency_ms.p50)} (request to completed)`);
    console.log(`latency p90        ${seconds(summary.latency_ms.p90)}`);
    console.log(`latency max        ${seconds(summary.latency_ms.max)}`);
    console.log(
      `scan time          p50 ${seconds(summary.scan_ms.p50)}, p90 ${seconds(summary.scan_ms.p90)}, ` +
        `max ${seconds(summary.scan_ms.max)} (one delivery in the scanner handler)`,
    );
    console.log(
      `requests           ${names.length} POST /v1/scan sent at once, answered within ${seconds(requestsMs)}`,
    );
    console.log(
      `deliveries         ${worker.stats.received} received, ${worker.stats.failed} failed attempts`,
    );
    for (const o of outcomes.filter((x) => x.status !== 'completed')) {
      console.log(`  ${o.status.padEnd(10)} ${o.name}: ${o.error ?? ''}`);
    }

    await mkdir(dirname(args.out), { recursive: true });
    await writeFile(
      args.out,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          machine: {
            cpus: cpus().length,
            cpuModel: cpus()[0]?.model,
            loadavg: loadavg(),
            node: process.version,
          },
          summary,
          jobs: outcomes,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`\nwritten to ${args.out}`);
  } finally {
    await notifications?.stop();
    await worker?.stop();
    await api?.close();
    await standIns?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('bench:pipeline failed:', error);
    process.exit(1);
  },
);
