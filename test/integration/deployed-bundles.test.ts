/**
 * The read functions as deployed: each bundle is built with the stack's own esbuild settings
 * (lib/bundling.ts, the credential alias included), loaded in a fresh `node` process with nothing
 * but a Lambda-like environment (credentials as environment variables, an empty HOME, no
 * node_modules next to it) and invoked against the DynamoDB stand-in.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { build } from 'esbuild';
import { PackageStore } from '../../lambdas/shared/store/package-store';
import { PACKAGES_TABLE, TABLES } from '../../lambdas/shared/store/tables';
import { esbuildOptions } from '../../lib/bundling';
import { handlerEntry } from '../../lib/paths';
import { createTables, localDynamoClient, tableName } from '../../local/stand-ins';
import { apiEvent, lambdaContext } from '../support/events';
import { scanRecord } from './support/factory';

const NAME = 'bundled-reader';
let outDir: string;
let tables: Record<string, string>;
const inputs = new Map<string, string[]>();

async function bundle(handler: string): Promise<string> {
  const outfile = join(outDir, handler, 'index.mjs');
  const result = await build(esbuildOptions(handlerEntry(handler), outfile));
  inputs.set(handler, Object.keys(result.metafile?.inputs ?? {}));
  return outfile;
}

/** Runs `handler(event)` of a bundle in a fresh process; its proxy result, or the process's stderr. */
function invoke(bundlePath: string, event: unknown, env: Record<string, string | undefined>): unknown {
  const script = [
    `const { handler } = await import(${JSON.stringify(pathToFileURL(bundlePath).href)});`,
    `const context = ${JSON.stringify({ ...lambdaContext, functionName: 'bundle-test' })};`,
    'context.getRemainingTimeInMillis = () => 10000;',
    `const result = await handler(${JSON.stringify(event)}, context);`,
    'process.stdout.write(JSON.stringify(result));',
  ].join('\n');
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: outDir,
    env: env as NodeJS.ProcessEnv,
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (child.status !== 0) throw new Error(`bundle failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as unknown;
}

/** What Lambda gives a function: region, credentials as variables, its configuration; no files. */
function lambdaEnv(home: string): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: home,
    AWS_REGION: process.env.AWS_REGION,
    AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID,
    AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY,
    AWS_SESSION_TOKEN: 'session-token',
    AWS_ENDPOINT_URL_DYNAMODB: process.env.PKGSCAN_IT_DYNAMODB_ENDPOINT,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    ...tables,
  };
}

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'pkgscan-bundles-'));
  const endpoint = process.env.PKGSCAN_IT_DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('PKGSCAN_IT_DYNAMODB_ENDPOINT is not set');
  const prefix = `it-${randomBytes(4).toString('hex')}-`;
  const client = localDynamoClient(endpoint);
  await createTables(client, TABLES, (spec) => tableName(spec, prefix));
  tables = Object.fromEntries(TABLES.map((spec) => [spec.envVar, tableName(spec, prefix)]));
  const store = new PackageStore(
    DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
    tableName(PACKAGES_TABLE, prefix),
  );
  await store.putScan(scanRecord(NAME, { version: '2.0.0' }), { distTags: ['latest'] });
  client.destroy();
}, 60_000);

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

describe('deployed read bundles', () => {
  it('GET /v1/packages/{name} answers from the table with credentials from the environment only', async () => {
    const path = await bundle('get-package');
    const home = await mkdtemp(join(outDir, 'home-'));
    const event = apiEvent({ resource: '/v1/packages/{name}', pathParameters: { name: NAME } });
    const result = invoke(path, event, lambdaEnv(home)) as { statusCode: number; body: string };
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)).toMatchObject({ name: NAME, version: '2.0.0' });
  }, 60_000);

  it('POST /v1/bulk parses its body (zod/mini, English messages) and reads the table', async () => {
    const path = await bundle('bulk');
    const home = await mkdtemp(join(outDir, 'home-'));
    const ok = invoke(
      path,
      apiEvent({
        httpMethod: 'POST',
        body: JSON.stringify({ packages: [{ name: NAME }, { name: 'absent-pkg' }] }),
      }),
      lambdaEnv(home),
    ) as { statusCode: number; body: string };
    expect(ok.statusCode).toBe(200);
    expect(JSON.parse(ok.body)).toEqual([
      expect.objectContaining({ name: NAME, version: '2.0.0' }),
      expect.objectContaining({ name: 'absent-pkg', error: expect.any(String) as unknown }),
    ]);
    const bad = invoke(
      path,
      apiEvent({ httpMethod: 'POST', body: JSON.stringify({ packages: [{ name: 7 }] }) }),
      lambdaEnv(home),
    ) as { statusCode: number; body: string };
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({
      error: 'Invalid bulk request at packages.0.name: Invalid input: expected string, received number',
    });
  }, 60_000);

  it('leave out the SDK credential chain beyond environment variables', () => {
    for (const handler of ['get-package', 'bulk']) {
      const files = inputs.get(handler) ?? [];
      expect(files.length).toBeGreaterThan(0);
      expect(
        files.filter((f) => /credential-provider-(node|sso|ini|process|web-identity)|nested-clients/.test(f)),
      ).toEqual([]);
      expect(files.some((f) => f.includes('credential-provider-env'))).toBe(true);
    }
  });

  it('fail with a JSON 500, not a crash, when the environment has no credentials', async () => {
    const path = join(outDir, 'get-package', 'index.mjs');
    const home = await mkdtemp(join(outDir, 'home-'));
    const env = { ...lambdaEnv(home), AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined };
    const event = apiEvent({ resource: '/v1/packages/{name}', pathParameters: { name: NAME } });
    const result = invoke(path, event, env) as { statusCode: number; body: string };
    expect(result.statusCode).toBe(500);
    expect(JSON.parse(result.body)).toEqual({
      error: expect.stringMatching(/^Internal error; quote request id /) as unknown,
    });
  });
});
