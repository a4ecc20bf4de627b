/**
 * Scheduled advisory sync (EventBridge, daily): streams OSV's npm export (OSV_EXPORT_URL, OSV's
 * public location by default) through the importer into the advisories table. Memory stays flat
 * (one zip entry and one batch of 100 items at a time; nothing is written to /tmp). The import
 * stops reading a minute before the Lambda timeout and returns where to resume; being
 * idempotent, the next run also simply starts over and skips unchanged records cheaply
 * (docs/advisories.md, "Sync").
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit, Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { advisoryStoreFromEnv } from '../advisories/advisory-store';
import { importOsv, summariseReport, type ImportReport } from '../advisories/importer';
import { OSV_NPM_EXPORT_URL, fetchOsvZip } from '../advisories/sources';
import { refreshAfterAdvisoryChange } from '../scanner/refresh';
import { packageStoreFromEnv } from '../shared/store/clients';
import { METRICS_NAMESPACE, pipelineServiceName } from '../shared/observability';

const serviceName = pipelineServiceName('advisory-sync');
const logger = new Logger({ serviceName });
const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName });
const exportUrl = process.env.OSV_EXPORT_URL ?? OSV_NPM_EXPORT_URL;
const store = advisoryStoreFromEnv();
const packages = packageStoreFromEnv();

/** Time kept back from the Lambda timeout to finish the last batch and publish metrics. */
export const SAFETY_MARGIN_MS = 60_000;

/** The scheduled event, or a manual invocation resuming a run that hit its deadline. */
export interface AdvisorySyncEvent {
  readonly resume_from_entry?: number;
}

export type AdvisorySyncResult = Record<string, unknown>;

function publish(report: ImportReport): void {
  metrics.addMetric('AdvisoriesAdded', MetricUnit.Count, report.added);
  metrics.addMetric('AdvisoriesUpdated', MetricUnit.Count, report.updated);
  metrics.addMetric('AdvisoriesRemoved', MetricUnit.Count, report.removed);
  metrics.addMetric('AdvisoriesFailed', MetricUnit.Count, report.failed);
  metrics.addMetric('AdvisoriesUnchanged', MetricUnit.Count, report.unchanged);
  metrics.addMetric('AdvisoryPackagesChanged', MetricUnit.Count, report.changedPackages.size);
  metrics.addMetric('AdvisorySyncIncomplete', MetricUnit.Count, report.complete ? 0 : 1);
}

export const handler = middy<AdvisorySyncEvent, AdvisorySyncResult, Error, Context>()
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics))
  .handler(async (event, context) => {
    const skipEntries = typeof event?.resume_from_entry === 'number' ? event.resume_from_entry : 0;
    const report = await importOsv(fetchOsvZip(exportUrl), store, {
      deadline: Date.now() + context.getRemainingTimeInMillis() - SAFETY_MARGIN_MS,
      skipEntries,
    });
    publish(report);
    // Stored results of the changed packages get their CVEs and risk now, in this same run.
    const refreshed = await refreshAfterAdvisoryChange(report.changedPackages, {
      packages,
      advisories: store,
    });
    metrics.addMetric('StoredResultsRefreshed', MetricUnit.Count, refreshed.updated);
    const summary = { ...summariseReport(report), refreshed };
    if (report.failures.length > 0)
      logger.warn('Malformed advisories skipped', { failures: report.failures });
    if (report.error !== undefined) {
      logger.error('Advisory sync failed', { summary });
      throw new Error(`Advisory sync failed: ${report.error}`);
    }
    if (!report.complete) logger.warn('Advisory sync stopped at its deadline', { summary });
    else logger.info('Advisory sync finished', { summary });
    return summary;
  });
