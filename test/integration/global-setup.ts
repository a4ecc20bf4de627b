/**
 * Starts the local AWS stand-ins once for the integration project (DynamoDB in memory, a
 * temporary folder for S3, free ports). Test workers inherit the endpoints and SDK settings through the environment; each test
 * file then creates its own tables and runs the real handlers behind the local HTTP adapter
 * (support/test-api.ts).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStandIns } from '../../local/stand-ins';
import { STAND_INS_GLOBAL, type StandInsHandle } from './support/stand-ins-handle';

export default async function setup(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const dataDir = await mkdtemp(join(tmpdir(), 'pkgscan-it-'));
  const standIns = await startStandIns({ dataDir, inMemory: true, tablePrefix: 'it-shared-' });
  const handle: StandInsHandle = { standIns, dataDir };
  (globalThis as Record<string, unknown>)[STAND_INS_GLOBAL] = handle;
  // Workers are started after global setup and inherit this environment.
  Object.assign(process.env, standIns.env, {
    PKGSCAN_IT_DYNAMODB_ENDPOINT: standIns.endpoints.dynamodb,
    PKGSCAN_IT_S3_ENDPOINT: standIns.endpoints.s3,
    PKGSCAN_IT_SQS_ENDPOINT: standIns.endpoints.sqs,
  });
}
