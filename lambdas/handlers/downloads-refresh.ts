/**
 * Scheduled downloads refresh (EventBridge, hourly): one pass a day over every stored package
 * (lambdas/scanner/downloads-refresh.ts). A pass that reaches the Lambda's time limit saves where
 * it stopped and the next hourly run goes on from there; once a pass completes, runs skip until
 * it is a day old. State: the packages table's `META`/`JOB#downloads-refresh` item.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit, Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { refreshDownloads, type DownloadsRefreshReport } from '../scanner/downloads-refresh';
import { snapshotBesideBundle, weeklyDownloadsFromEnv } from '../shared/downloads/weekly-downloads';
import { packageStoreFromEnv } from '../shared/store/clients';
import { METRICS_NAMESPACE, pipelineServiceName } from '../shared/observability';

const serviceName = pipelineServiceName('downloads-refresh');
const logger = new Logger({ serviceName });
const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName });
const packages = packageStoreFromEnv();
const downloads = weeklyDownloadsFromEnv(process.env, snapshotBesideBundle());

export const JOB = 'downloads-refresh';
/** A completed pass is repeated after this long. */
export const PASS_INTERVAL_MS = 22 * 3_600_000;
/** Time kept back from the Lambda timeout to finish the batch in hand and save the cursor. */
export const SAFETY_MARGIN_MS = 120_000;

interface State {
  readonly cursor?: string;
  readonly completed_at?: string;
}

export const handler = middy<unknown, Record<string, unknown>, Error, Context>()
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics))
  .handler(async (_event, context) => {
    const state = ((await packages.jobState(JOB)) ?? {}) as State;
    const last = state.completed_at ? Date.parse(state.completed_at) : 0;
    if (state.cursor === undefined && Date.now() - last < PASS_INTERVAL_MS) {
      return { skipped: true, completed_at: state.completed_at };
    }
    const report: DownloadsRefreshReport = await refreshDownloads(
      {
        packages,
        downloads,
        now: () => new Date(),
        shouldStop: () => context.getRemainingTimeInMillis() < SAFETY_MARGIN_MS,
      },
      state.cursor,
    );
    await packages.putJobState(JOB, {
      ...(report.cursor !== undefined
        ? { cursor: report.cursor, ...(state.completed_at ? { completed_at: state.completed_at } : {}) }
        : { completed_at: new Date().toISOString() }),
    });
    metrics.addMetric('DownloadsRefreshPackages', MetricUnit.Count, report.packages);
    metrics.addMetric('DownloadsRefreshUpdated', MetricUnit.Count, report.updated);
    metrics.addMetric('DownloadsRefreshUnknown', MetricUnit.Count, report.unknown);
    logger.info('Downloads refresh', { ...report });
    return { ...report };
  });
