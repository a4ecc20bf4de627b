/**
 * One test file's view of the service: fresh tables of its own in the shared DynamoDB Local (so
 * totals are exact whatever other files insert), the real handlers loaded against them, the
 * local API Gateway adapter on a free port, and the store to insert records with.
 */
import { randomBytes } from 'node:crypto';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createApiServer, type ApiServer } from '../../../local/http-adapter';
import { createTables, localDynamoClient, tableName } from '../../../local/stand-ins';
import { PackageStore } from '../../../lambdas/shared/store/package-store';
import { PACKAGES_TABLE, TABLES } from '../../../lambdas/shared/store/tables';

export interface ApiResponse {
  readonly method: string;
  /** The request path as sent, query string included. */
  readonly path: string;
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** Parsed JSON body (undefined when the body is empty). */
  readonly body: unknown;
}

export interface TestApi {
  readonly url: string;
  readonly store: PackageStore;
  readonly server: ApiServer;
  /** Sends a request; `path` is used as written (no re-encoding), so `%40scope%2Fname` stays so. */
  request(path: string, init?: RequestInit): Promise<ApiResponse>;
  get(path: string): Promise<ApiResponse>;
  postJson(path: string, body: unknown): Promise<ApiResponse>;
  stop(): Promise<void>;
}

export async function startTestApi(): Promise<TestApi> {
  const endpoint = process.env.PKGSCAN_IT_DYNAMODB_ENDPOINT;
  if (!endpoint)
    throw new Error('PKGSCAN_IT_DYNAMODB_ENDPOINT is not set: run through jest --selectProjects integration');
  const prefix = `it-${randomBytes(4).toString('hex')}-`;
  const client = localDynamoClient(endpoint);
  await createTables(client, TABLES, (spec) => tableName(spec, prefix));
  // Handlers read their table names at module load, which happens below (once per test file).
  for (const spec of TABLES) process.env[spec.envVar] = tableName(spec, prefix);

  const server = createApiServer({ errorLog: () => undefined });
  const failures = await server.preload();
  if (failures.length > 0) {
    client.destroy();
    throw new Error(
      `Handlers failed to load: ${failures.map((f) => `${f.handler}: ${String(f.error)}`).join('; ')}`,
    );
  }
  const url = await server.listen(0, '127.0.0.1');
  const store = new PackageStore(
    DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
    tableName(PACKAGES_TABLE, prefix),
  );

  const request = async (path: string, init?: RequestInit): Promise<ApiResponse> => {
    const response = await fetch(`${url}${path}`, init);
    const text = await response.text();
    let body: unknown;
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    }
    return {
      method: init?.method ?? 'GET',
      path,
      status: response.status,
      headers: response.headers,
      text,
      body,
    };
  };

  return {
    url,
    store,
    server,
    request,
    get: (path) => request(path),
    postJson: (path, body) =>
      request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    async stop() {
      await server.close();
      client.destroy();
    },
  };
}
