/**
 * `npm start`: the whole service on http://localhost:${PORT:-3000}. Starts the local AWS
 * stand-ins with data under `.local/` (kept across restarts), points the AWS SDK at them and
 * serves the real handlers through the local API Gateway adapter. See docs/local.md.
 */
import { fileURLToPath } from 'node:url';
import { createApiServer } from './http-adapter';
import { startStandIns, type StandIns } from './stand-ins';

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

let standIns: StandIns | undefined;
let shuttingDown = false;
async function shutdown(code: number): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  try {
    await api?.close();
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
try {
  standIns = await startStandIns({
    dataDir,
    ports: {
      dynamodb: portFromEnv('DYNAMODB_PORT'),
      s3: portFromEnv('S3_PORT'),
      sqs: portFromEnv('SQS_PORT'),
    },
  });
  // Handlers read their configuration at module load: set it before they are imported.
  Object.assign(process.env, standIns.env);

  api = createApiServer({
    accessLog: process.env.ACCESS_LOG === '1' ? (line) => console.log(line) : undefined,
  });
  for (const failure of await api.preload()) {
    console.error(`Handler ${failure.handler} failed to load (its route answers 500):`, failure.error);
  }
  await api.listen(port, host);
  // performance.now() counts from process start: module loading included.
  const seconds = (performance.now() / 1000).toFixed(1);
  const shownHost = host === '127.0.0.1' || host === '0.0.0.0' ? 'localhost' : host;
  console.log(
    `pkgscan API on http://${shownHost}:${port} (data in ${dataDir}; DynamoDB ${standIns.endpoints.dynamodb}, ` +
      `S3 ${standIns.endpoints.s3}, SQS ${standIns.endpoints.sqs}; ready in ${seconds} s; Ctrl-C stops)`,
  );
} catch (error) {
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`Port ${port} is in use: set PORT to another port.`);
  } else {
    console.error('Local start failed:', error);
  }
  await shutdown(1);
}
