/** POST /v1/scan: queue a registry scan of name@version (latest when omitted). */
import { invalidBody } from '../shared/domain/errors';
import { ScanRequest } from '../../src/contract/requests';
import { assertPackageName, assertRegistry, parseVersionSelector } from '../shared/domain/validation';
import { apiHandler, jsonBody } from '../shared/http/api-handler';
import { jobStoreFromEnv } from '../shared/store/clients';
import { scanQueueFromEnv } from '../shared/queue/clients';
import { enqueueOrFail, estimateFor, messageFor } from '../shared/queue/enqueue';
import { scanConfig } from '../shared/scan-config';

const jobs = jobStoreFromEnv();
const queue = scanQueueFromEnv();

export const handler = apiHandler(async (event) => {
  const parsed = ScanRequest.safeParse(jsonBody(event));
  if (!parsed.success) {
    throw invalidBody('scan request', parsed.error);
  }
  const name = assertPackageName(parsed.data.name, 'name');
  const registry = assertRegistry(parsed.data.registry, 'registry');
  const selector =
    parsed.data.version === undefined ? undefined : parseVersionSelector(parsed.data.version, 'version');
  const version =
    selector === undefined ? 'latest' : selector.kind === 'exact' ? selector.version : selector.tag;

  const { job, created } = await jobs.create({ source: 'registry', name, version, registry });
  if (created) {
    await enqueueOrFail(jobs, queue, messageFor(job));
  }
  return {
    status: 202,
    body: {
      job_id: job.job_id,
      estimated_seconds: await estimateFor(jobs, queue, scanConfig.scannerConcurrency),
    },
    headers: { location: `/v1/scan/${job.job_id}` },
  };
});
