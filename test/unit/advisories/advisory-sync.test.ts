import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { buildZip } from './zip-writer';

const ddb = mockClient(DynamoDBDocumentClient);
let server: Server;
let body: Buffer = Buffer.alloc(0);
let truncate = false;
let handler: (event: unknown, context: Context) => Promise<Record<string, unknown>>;

const context = {
  awsRequestId: 'sync-test',
  functionName: 'advisory-sync',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:advisory-sync',
  memoryLimitInMB: '512',
  logGroupName: '/aws/lambda/advisory-sync',
  logStreamName: 'stream',
  callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => 900_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
} as Context;

const record = (id: string, name: string) =>
  JSON.stringify({
    id,
    modified: '2024-01-01T00:00:00Z',
    aliases: ['CVE-2024-1234'],
    affected: [
      {
        package: { ecosystem: 'npm', name },
        ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.0.1' }] }],
      },
    ],
  });

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-length': body.length });
    if (truncate) res.write(body.subarray(0, body.length - 30), () => res.destroy());
    else res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.ADVISORIES_TABLE = 'advisories-test';
  process.env.OSV_EXPORT_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/npm/all.zip`;
  ({ handler } = (await import('../../../lambdas/handlers/advisory-sync')) as unknown as {
    handler: typeof handler;
  });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  ddb.reset();
  ddb.on(BatchGetCommand).resolves({ Responses: { 'advisories-test': [] } });
  ddb.on(BatchWriteCommand).resolves({});
  truncate = false;
  body = buildZip([
    { name: 'GHSA-1.json', data: record('GHSA-1', 'a') },
    { name: 'BAD.json', data: '{ "id": "BAD" ' },
    { name: 'GHSA-2.json', data: record('GHSA-2', 'b') },
  ]);
});

afterEach(() => jest.restoreAllMocks());

describe('advisory-sync handler', () => {
  it('imports the export and publishes added/updated/removed/failed metrics', async () => {
    const addMetric = jest.spyOn(Metrics.prototype, 'addMetric');
    const result = await handler({}, context);
    expect(result).toMatchObject({ added: 2, failed: 1, complete: true, changed_packages: 2 });
    const published = Object.fromEntries(addMetric.mock.calls.map(([name, , value]) => [name, value]));
    expect(published).toMatchObject({
      AdvisoriesAdded: 2,
      AdvisoriesUpdated: 0,
      AdvisoriesRemoved: 0,
      AdvisoriesFailed: 1,
    });
    expect(
      ddb.commandCalls(BatchWriteCommand)[0]!.args[0].input.RequestItems!['advisories-test'],
    ).toHaveLength(2);
  });

  it('fails the invocation on a truncated download, after publishing its metrics', async () => {
    truncate = true;
    const addMetric = jest.spyOn(Metrics.prototype, 'addMetric');
    await expect(handler({}, context)).rejects.toThrow(/Advisory sync failed/);
    expect(addMetric.mock.calls.map(([name]) => name)).toContain('AdvisorySyncIncomplete');
  });

  it('resumes from an entry given in the event', async () => {
    const result = await handler({ resume_from_entry: 2 }, context);
    expect(result).toMatchObject({ entries: 3, added: 1, failed: 0 });
  });
});
