/**
 * The scanner: consumes the scan queue, one job per message, reporting partial batch failures.
 * A message that fails on its last allowed delivery fails its job before it moves to the
 * dead-letter queue, so no job waits forever.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit, Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { advisoryStoreFromEnv } from '../advisories/advisory-store';
import { runScan, type ScanDeps } from '../scanner/run-scan';
import { assessPackageRisk } from '../scanner/assess';
import { analyzePackageTarball } from '../scanner/engine';
import { MAX_RECEIVE_COUNT } from '../shared/queue/delivery';
import { ScanMessage } from '../shared/queue/scan-queue';
import { snapshotBesideBundle, weeklyDownloadsFromEnv } from '../shared/downloads/weekly-downloads';
import { NpmRegistry } from '../shared/registry/npm-registry';
import { METRICS_NAMESPACE, pipelineServiceName } from '../shared/observability';
import { scanConfig } from '../shared/scan-config';
import { jobStoreFromEnv, packageStoreFromEnv } from '../shared/store/clients';
import { uploadStoreFromEnv } from '../shared/uploads/clients';

const serviceName = pipelineServiceName('scanner');
const logger = new Logger({ serviceName });
const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName });
const tracer = new Tracer({ serviceName });
const processor = new BatchProcessor(EventType.SQS);
const maxReceiveCount = Number(process.env.MAX_RECEIVE_COUNT ?? String(MAX_RECEIVE_COUNT));

const deps: ScanDeps = {
  jobs: jobStoreFromEnv(),
  packages: packageStoreFromEnv(),
  uploads: uploadStoreFromEnv(),
  advisories: advisoryStoreFromEnv(),
  registry: new NpmRegistry({
    ...(process.env.NPM_REGISTRY_URL ? { registry: process.env.NPM_REGISTRY_URL } : {}),
    maxTarballBytes: scanConfig.maxTarballBytes,
  }),
  downloads: weeklyDownloadsFromEnv(process.env, snapshotBesideBundle()),
  maxTarballBytes: scanConfig.maxTarballBytes,
  analyze: analyzePackageTarball,
  assess: assessPackageRisk,
  now: () => new Date(),
};

async function processRecord(record: SQSRecord): Promise<void> {
  let message: ScanMessage;
  try {
    message = ScanMessage.parse(JSON.parse(record.body));
  } catch {
    metrics.addMetric('MalformedMessages', MetricUnit.Count, 1);
    throw new Error(`Message ${record.messageId} is not a scan message`);
  }
  try {
    const outcome = await runScan(message, deps);
    metrics.addMetric(`Scans_${outcome}`, MetricUnit.Count, 1);
    logger.info('Scan finished', {
      job_id: message.job_id,
      outcome,
      name: message.name,
      version: message.version,
    });
  } catch (error) {
    const receives = Number(record.attributes.ApproximateReceiveCount ?? '1');
    metrics.addMetric('ScanAttemptsFailed', MetricUnit.Count, 1);
    logger.error('Scan attempt failed', { job_id: message.job_id, receives, error: error as Error });
    if (receives >= maxReceiveCount) {
      // The cause is in the logs (with the job id); clients get no internal error text.
      await deps.jobs.fail(
        message.job_id,
        `The scan failed ${receives} times and was abandoned; quote job ${message.job_id} when reporting it`,
      );
      metrics.addMetric('ScansAbandoned', MetricUnit.Count, 1);
    }
    throw error;
  }
}

export const handler = middy<SQSEvent, SQSBatchResponse, Error, Context>()
  .use(captureLambdaHandler(tracer))
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics))
  .handler((event, context) =>
    processPartialResponse(event, processRecord, processor, { context, throwOnFullBatchFailure: false }),
  );
