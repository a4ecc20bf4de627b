/**
 * `npm start`: the whole service on http://localhost:${PORT:-3000}. Starts the local AWS
 * stand-ins with data under `.local/` (kept across restarts), points the AWS SDK at them, serves
 * the real handlers through the local API Gateway adapter, runs the scanner on the local queue
 * (scanner-worker.ts) and the uploads bucket's notifications (s3-notifications.ts). On first
 * start it imports the advisories and queues scans of a few popular packages (seed.ts).
 * See docs/local.md.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiServer } from './http-adapter';
import { forwardS3Notifications, type S3Notifications } from './s3-notifications';
import { createScannerWorker, type ScannerWorker } from './scanner-worker';
import { importLocalAdvisories, requestScans, seedPackageNames, watchSeed } from './seed';
import { ensureDownloadSnapshot } from '../scripts/download-snapshot';
import { MAX_RECEIVE_COUNT, startStandIns, type StandIns } from './stand-ins';
import {
  afterDelivery,
  bucketObjects,
  DEFAULT_MAX_REQUEUES,
  recoverJobs,
  sweepUploads,
  type RecoveryDeps,
} from './job-recovery';
import { S3Client } from '@aws-sdk/client-s3';
import { scanQueueFromEnv } from '../lambdas/shared/queue/clients';
import { refreshDownloads } from '../lambdas/scanner/downloads-refresh';
import { weeklyDownloadsFromEnv } from '../lambdas/shared/downloads/weekly-downloads';
import { jobStoreFromEnv, packageStoreFromEnv } from '../lambdas/shared/store/clients';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
// The SDK is pinned; its notice about future versions needing Node 22 is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

function portFromEnv(name: string, fallback?: number): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65_535) {
    console.error(`${name} must be a port number, got '${raw}'`);
    process.exit(1);
  }
  return Number(raw);
}

const port = portFromEnv('PORT', 3000) ?? 3000;
const host = process.env.HOST ?? '127.0.0.1';
const dataDir = process.env.LOCAL_DATA_DIR ?? `${repoRoot}.local`;

function positiveIntFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) < 1) {
    console.error(`${name} must be a positive whole number, got '${raw}'`);
    process.exit(1);
  }
  return Number(raw);
}

function wholeNumberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,6}$/.test(raw)) {
    console.error(`${name} must be a whole number (0 or more), got '${raw}'`);
    process.exit(1);
  }
  return Number(raw);
}

const scannerConcurrency = positiveIntFromEnv('SCANNER_CONCURRENCY', 2);
// The scanner fails a job on its last delivery; the queue's redrive policy uses the same count.
const maxReceiveCount = positiveIntFromEnv('MAX_RECEIVE_COUNT', MAX_RECEIVE_COUNT);
const retrySeconds = positiveIntFromEnv('SCAN_VISIBILITY_TIMEOUT', 30);
// Times a job interrupted by a stop of the service is queued again at the next start.
const maxRequeues = wholeNumberFromEnv('LOCAL_MAX_REQUEUES', DEFAULT_MAX_REQUEUES);
// "First start": DynamoDB Local has no database file in the data folder yet.
const firstStart = !existsSync(join(dataDir, 'dynamodb', 'shared-local-instance.db'));
const seedEnabled = process.env.LOCAL_SEED !== '0';

let standIns: StandIns | undefined;
let shuttingDown = false;
// The downloads refresh: at start, then once a day (declared before the top-level awaits below).
const DAY_MS = 86_400_000;
let refreshTimer: NodeJS.Timeout | undefined;
let refreshing = false;
async function shutdown(code: number): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  try {
    clearInterval(refreshTimer);
    await api?.close();
    await notifications?.stop();
    await worker?.stop();
    await standIns?.stop();
  } catch (error) {
    console.error('Shutdown failed:', error);
    code = code || 1;
  }
  process.exit(code);
}
process.once('SIGINT', () => void shutdown(0));
process.once('SIGTERM', () => void shutdown(0));
process.once('SIGHUP', () => void shutdown(0));
// `npm start` killed by a signal does not pass it on: when our parent goes away, stop too.
const parentAtStart = process.ppid;
setInterval(() => {
  if (process.ppid !== parentAtStart) void shutdown(0);
}, 1_000).unref();

let api: ReturnType<typeof createApiServer> | undefined;
let worker: ScannerWorker | undefined;
let notifications: S3Notifications | undefined;
try {
  // The offline download-count table (made once from the download-counts package, ≈ 10 s) is
  // built while the stand-ins start; scans use it when the live download service is unreachable.
  const snapshot =
    process.env.DOWNLOADS_SNAPSHOT_FILE === undefined
      ? ensureDownloadSnapshot().catch((error: unknown) => {
          console.error(
            'downloads: the offline table could not be made (counts fall back to unknown):',
            error,
          );
          return undefined;
        })
      : Promise.resolve(undefined);
  standIns = await startStandIns({
    dataDir,
    maxReceiveCount,
    ports: {
      dynamodb: portFromEnv('DYNAMODB_PORT'),
      s3: portFromEnv('S3_PORT'),
      sqs: portFromEnv('SQS_PORT'),
    },
  });
  // Handlers read their configuration at module load: set it before they are imported.
  Object.assign(process.env, standIns.env);
  const table = await snapshot;
  if (table) {
    process.env.DOWNLOADS_SNAPSHOT_FILE = table.file;
    if (table.built) {
      console.log(
        `downloads: made the offline table ${table.file} (${table.entries} packages) in ${table.seconds.toFixed(1)} s`,
      );
    }
  }
  // The scanner's settings as the stack gives them. NPM_REGISTRY_URL (npm's default registry when
  // unset) and DOWNLOADS_API_URL (query-registry's default when unset; `off`: the offline table
  // only) pass through as they are.
  process.env.MAX_RECEIVE_COUNT = String(maxReceiveCount);
  process.env.SCANNER_CONCURRENCY = String(scannerConcurrency);
  // Powertools: no EMF metric blobs on the terminal; warnings and errors only (the worker prints a
  // line per scan). Set POWERTOOLS_LOG_LEVEL=INFO for the handlers' structured logs.
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';

  api = createApiServer({
    accessLog: process.env.ACCESS_LOG === '1' ? (line) => console.log(line) : undefined,
  });
  for (const failure of await api.preload()) {
    console.error(`Handler ${failure.handler} failed to load (its route answers 500):`, failure.error);
  }
  // The last run's queue messages are gone (SQS is in memory): before the worker polls and the
  // API listens, its unfinished jobs are queued again or failed, so no request joins a dead job
  // (local/job-recovery.ts).
  const { scanConfig } = await import('../lambdas/shared/scan-config');
  const recovery: RecoveryDeps = {
    jobs: jobStoreFromEnv(),
    queue: scanQueueFromEnv(),
    uploads: bucketObjects(new S3Client({ forcePathStyle: true }), standIns.bucket),
    maxRequeues,
    maxReceiveCount,
    uploadUrlSeconds: scanConfig.uploadUrlSeconds,
    now: () => new Date(),
  };
  await recoverAtStart(recovery);
  worker = createScannerWorker({
    queueUrl: standIns.queueUrl,
    concurrency: scannerConcurrency,
    visibilityTimeoutSeconds: retrySeconds,
    stopTimeoutMs: 10_000,
    log: (line) => console.log(line),
    // A dead-lettered message's job failed if the scanner could not; a finished job's upload deleted.
    onHandled: (delivery) => {
      afterDelivery(recovery, delivery).catch((error: unknown) =>
        console.error(`after message ${delivery.messageId}: job or upload clean-up failed:`, error),
      );
    },
  });
  notifications = forwardS3Notifications({ source: standIns.s3Events });
  await Promise.all([worker.start(), notifications.start()]);
  const apiUrl = await api.listen(port, host);
  // performance.now() counts from process start: module loading included.
  const seconds = (performance.now() / 1000).toFixed(1);
  const shownHost = host === '127.0.0.1' || host === '0.0.0.0' ? 'localhost' : host;
  console.log(
    `pkgscan API on http://${shownHost}:${port} (data in ${dataDir}; DynamoDB ${standIns.endpoints.dynamodb}, ` +
      `S3 ${standIns.endpoints.s3}, SQS ${standIns.endpoints.sqs}; ready in ${seconds} s; Ctrl-C stops)`,
  );
  firstStartTasks(apiUrl).catch((error: unknown) => console.error('first-start tasks failed:', error));
} catch (error) {
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`Port ${port} is in use: set PORT to another port.`);
  } else {
    console.error('Local start failed:', error);
  }
  await shutdown(1);
}

/**
 * After the API is up: the repository's advisories are imported until one import has completed
 * (a marker file in the data folder says so; the import is idempotent, so one stopped half-way is
 * simply run again), then the stored results they affect are refreshed; on first start the seed
 * packages are queued for scanning, after the import so that their results carry the CVEs.
 */
async function firstStartTasks(apiUrl: string): Promise<void> {
  const marker = join(dataDir, 'advisories-imported.json');
  try {
    if (!existsSync(marker)) {
      const { report, refresh, seconds } = await importLocalAdvisories();
      await writeFile(
        marker,
        `${JSON.stringify({ at: new Date().toISOString(), records: report.added + report.updated, refresh }, null, 2)}\n`,
      );
      console.log(
        `advisories: imported ${report.added + report.updated} OSV records for ${report.changedPackages.size} ` +
          `packages in ${seconds.toFixed(1)} s (${report.failed} unreadable); ${refresh.updated} stored results refreshed`,
      );
    }
  } catch (error) {
    console.error(
      'advisories: import failed (scans carry no CVEs until it succeeds at a later start):',
      error,
    );
  }
  // Download counts of stored packages: now, then once a day (the stack runs it daily too).
  await runDownloadsRefresh();
  refreshTimer = setInterval(() => void runDownloadsRefresh(), DAY_MS);
  refreshTimer.unref();
  if (!firstStart || !seedEnabled || shuttingDown) return;
  const names = await seedPackageNames();
  const jobs = await requestScans(apiUrl, names);
  const queued = jobs.filter((job) => job.jobId !== undefined);
  console.log(
    `first start: queued scans of ${queued.length} packages (${names.slice(0, 6).join(', ')}, ...) in the background; ` +
      `watch them at ${apiUrl}/v1/packages (LOCAL_SEED=0 turns this off)`,
  );
  for (const job of jobs)
    if (job.error !== undefined) console.error(`seed scan of ${job.name} refused: ${job.error}`);
  const done = await watchSeed(
    apiUrl,
    queued.map((job) => job.jobId!),
    (line) => console.log(line),
    { stop: () => shuttingDown },
  );
  if (!shuttingDown) {
    console.log(
      `seed: finished in ${Math.round(done.seconds)} s (${done.completed} scanned, ${done.failed} failed)`,
    );
  }
}

/** Jobs and uploads the last run left behind (local/job-recovery.ts), with one line on what was done. */
async function recoverAtStart(deps: RecoveryDeps): Promise<void> {
  const started = performance.now();
  const report = await recoverJobs(deps);
  const removed = await sweepUploads(deps);
  const ms = Math.round(performance.now() - started);
  for (const { jobId, reason } of report.failed) console.log(`restart: job ${jobId} failed: ${reason}`);
  const parts = [
    report.requeued.length > 0 ? `${report.requeued.length} queued again` : '',
    report.uploaded.length > 0
      ? `${report.uploaded.length} uploads queued (their notification was lost)`
      : '',
    report.failed.length > 0 ? `${report.failed.length} failed` : '',
    report.waiting.length > 0 ? `${report.waiting.length} still waiting for their upload` : '',
  ].filter(Boolean);
  if (parts.length > 0)
    console.log(`restart: unfinished jobs of the last run: ${parts.join(', ')} (${ms} ms)`);
  if (removed.length > 0) console.log(`restart: deleted ${removed.length} uploads whose scan is over`);
}

/** One pass of the downloads refresh over the stored packages (lambdas/scanner/downloads-refresh.ts). */
async function runDownloadsRefresh(): Promise<void> {
  if (refreshing || shuttingDown) return;
  refreshing = true;
  try {
    const report = await refreshDownloads({
      packages: packageStoreFromEnv(),
      downloads: weeklyDownloadsFromEnv(),
      now: () => new Date(),
      shouldStop: () => shuttingDown,
    });
    if (report.packages > 0) {
      console.log(
        `downloads: refreshed ${report.packages} packages in ${report.seconds.toFixed(1)} s ` +
          `(${report.recounted} new counts, ${report.updated} records updated, ${report.unknown} without a count)`,
      );
    }
  } catch (error) {
    console.error('downloads: refresh failed (it runs again in a day or at the next start):', error);
  } finally {
    refreshing = false;
  }
}
