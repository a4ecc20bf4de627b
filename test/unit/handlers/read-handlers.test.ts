import { gzipSync } from 'node:zlib';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { handler as bulk } from '../../../lambdas/handlers/bulk';
import { handler as getPackage } from '../../../lambdas/handlers/get-package';
import { handler as getPackageVersion } from '../../../lambdas/handlers/get-package-version';
import { handler as health } from '../../../lambdas/handlers/health';
import { handler as listPackages } from '../../../lambdas/handlers/list-packages';
import { PackageResponse, toListItem } from '../../../src/contract/schemas';
import { apiEvent, lambdaContext, parseBody } from '../../support/events';
import { expectMatchesOpenApi } from '../../support/openapi';
import { packageRecord } from '../../support/records';

const ddb = mockClient(DynamoDBDocumentClient);
const react = packageRecord({ name: 'react', version: '18.3.1', weekly_downloads: 25_000_000 });
const doc = (p: PackageResponse) => gzipSync(JSON.stringify(p));

beforeEach(() => ddb.reset());

describe('GET /health', () => {
  it('answers ok', async () => {
    const res = await health(apiEvent({ path: '/health' }), lambdaContext);
    expect(res.statusCode).toBe(200);
    expect(parseBody(res)).toEqual({ status: 'ok' });
    expect(res.headers?.['content-type']).toMatch(/application\/json/);
  });
});

describe('GET /v1/packages/{name}', () => {
  it('returns the latest record for an encoded scoped name', async () => {
    const scoped = packageRecord({ name: '@types/node', version: '22.0.0' });
    ddb
      .on(GetCommand, { Key: { pk: 'P#@types/node', sk: 'LATEST' } })
      .resolves({ Item: { doc: doc(scoped) } });
    const res = await getPackage(apiEvent({ pathParameters: { name: '%40types%2Fnode' } }), lambdaContext);
    expect(res.statusCode).toBe(200);
    expect(PackageResponse.parse(parseBody(res))).toEqual(scoped);
    expectMatchesOpenApi('get', '/v1/packages/{name}', 200, parseBody(res));
  });

  it('is 404 with an error body for an unknown package', async () => {
    ddb.on(GetCommand).resolves({});
    const res = await getPackage(apiEvent({ pathParameters: { name: 'nope' } }), lambdaContext);
    expect(res.statusCode).toBe(404);
    expect(parseBody(res)).toEqual({
      error:
        'Package \'nope\' not found: it has not been scanned. Request a scan with POST /v1/scan and the body {"name":"nope"}',
    });
    expectMatchesOpenApi('get', '/v1/packages/{name}', 404, parseBody(res));
  });

  it('is 400 for a name npm would never accept', async () => {
    const res = await getPackage(apiEvent({ pathParameters: { name: 'a b' } }), lambdaContext);
    expect(res.statusCode).toBe(400);
    expect(ddb.calls()).toHaveLength(0);
  });

  it('hides store failures behind a 500 that names the request id', async () => {
    ddb.on(GetCommand).rejects(new Error('ProvisionedThroughputExceededException: arn:aws:dynamodb:secret'));
    const res = await getPackage(apiEvent({ pathParameters: { name: 'react' } }), lambdaContext);
    expect(res.statusCode).toBe(500);
    const body = parseBody(res) as { error: string };
    expect(Object.keys(body)).toEqual(['error']);
    expect(body.error).toContain('req-1');
    expect(body.error).not.toMatch(/arn:|dynamodb|Exception/i);
  });
});

describe('GET /v1/packages/{name}/{version}', () => {
  it('resolves a recorded dist-tag to its version', async () => {
    ddb.on(GetCommand, { Key: { pk: 'P#react', sk: 'T#latest' } }).resolves({ Item: { version: '18.3.1' } });
    ddb.on(GetCommand, { Key: { pk: 'P#react', sk: 'V#18.3.1' } }).resolves({ Item: { doc: doc(react) } });
    const res = await getPackageVersion(
      apiEvent({ pathParameters: { name: 'react', version: 'latest' } }),
      lambdaContext,
    );
    expect(res.statusCode).toBe(200);
    expect((parseBody(res) as PackageResponse).version).toBe('18.3.1');
  });

  it('tells an unknown version of a known package from an unknown package', async () => {
    ddb.on(GetCommand).resolves({});
    ddb.on(GetCommand, { Key: { pk: 'P#react', sk: 'LATEST' } }).resolves({ Item: { pk: 'P#react' } });
    ddb.on(GetCommand, { Key: { pk: 'P#react', sk: 'V#0.0.1' } }).resolves({});
    ddb.on(GetCommand, { Key: { pk: 'P#ghost', sk: 'LATEST' } }).resolves({});
    const known = await getPackageVersion(
      apiEvent({ pathParameters: { name: 'react', version: '0.0.1' } }),
      lambdaContext,
    );
    const unknown = await getPackageVersion(
      apiEvent({ pathParameters: { name: 'ghost', version: '0.0.1' } }),
      lambdaContext,
    );
    expect(known.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(parseBody(known)).toEqual({
      error:
        'Version \'0.0.1\' of \'react\' not found: the package is known, but this version has not been scanned. Request a scan with POST /v1/scan and the body {"name":"react","version":"0.0.1"}',
    });
    expect((parseBody(unknown) as { error: string }).error).toMatch(
      /^Package 'ghost' not found: .*POST \/v1\/scan/,
    );
  });

  it('is 400 for a range instead of a version', async () => {
    const res = await getPackageVersion(
      apiEvent({ pathParameters: { name: 'react', version: '%5E18.0.0' } }),
      lambdaContext,
    );
    expect(res.statusCode).toBe(400);
    expect((parseBody(res) as { error: string }).error).toContain('version');
  });
});

describe('GET /v1/packages', () => {
  it('lists a page with the stored total and the clamped limit', async () => {
    ddb.on(GetCommand, { Key: { pk: 'META', sk: 'TOTAL' } }).resolves({ Item: { n: 1234 } });
    ddb.on(QueryCommand).resolves({ Items: [{ item: toListItem(react) }] });
    const res = await listPackages(
      apiEvent({ multiValueQueryStringParameters: { limit: ['500'] } }),
      lambdaContext,
    );
    expect(res.statusCode).toBe(200);
    expect(parseBody(res)).toEqual({ packages: [toListItem(react)], total: 1234, limit: 100, offset: 0 });
    expectMatchesOpenApi('get', '/v1/packages', 200, parseBody(res));
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      IndexName: 'by-downloads',
      Limit: 100,
    });
  });

  it('is 400 naming the parameter for limit=abc', async () => {
    const res = await listPackages(
      apiEvent({ multiValueQueryStringParameters: { limit: ['abc'] } }),
      lambdaContext,
    );
    expect(res.statusCode).toBe(400);
    expect((parseBody(res) as { error: string }).error).toMatch(/limit/);
  });

  it('searches the posting blocks of the rarest trigram of the query', async () => {
    ddb
      .on(BatchGetCommand)
      .callsFake((input: { RequestItems: Record<string, { Keys: Array<{ pk: string }> }> }) => {
        const keys = input.RequestItems['packages-test']!.Keys;
        if (keys[0]!.pk.startsWith('GC#')) {
          return {
            Responses: {
              'packages-test': [
                { pk: 'GC#rea', n: 900 },
                { pk: 'GC#eac', n: 40 },
              ],
            },
          };
        }
        return { Responses: { 'packages-test': [{ pk: 'P#react', item: toListItem(react) }] } };
      });
    ddb.on(QueryCommand).resolves({
      Items: [{ e: ['000000000000001#react', '000000000000002#teacher'].join('\n') }],
    });
    const res = await listPackages(
      apiEvent({ multiValueQueryStringParameters: { q: ['REAC'] } }),
      lambdaContext,
    );
    expect(res.statusCode).toBe(200);
    expect(parseBody(res)).toMatchObject({ total: 1, packages: [{ name: 'react' }] });
    const query = ddb.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(query.ExpressionAttributeValues).toMatchObject({ ':l': 'G#eac' });
  });
});

describe('POST /v1/bulk', () => {
  const post = (body: unknown) =>
    bulk(
      apiEvent({ httpMethod: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) }),
      lambdaContext,
    );

  it('answers in request order, retrying unprocessed keys, with errors for unknown items', async () => {
    ddb
      .on(BatchGetCommand)
      .resolvesOnce({
        Responses: { 'packages-test': [] },
        UnprocessedKeys: {
          'packages-test': {
            Keys: [
              { pk: 'P#react', sk: 'LATEST' },
              { pk: 'P#ghost', sk: 'LATEST' },
            ],
          },
        },
      })
      .resolves({ Responses: { 'packages-test': [{ pk: 'P#react', sk: 'LATEST', doc: doc(react) }] } });
    const res = await post({ packages: [{ name: 'ghost' }, { name: 'react' }, { name: 'react' }] });
    expect(res.statusCode).toBe(200);
    const body = parseBody(res) as Array<Record<string, unknown>>;
    expect(body).toHaveLength(3);
    expect(body[0]).toEqual({
      name: 'ghost',
      version: 'latest',
      registry: 'npm',
      error: "Package 'ghost' not found: it has not been scanned (request a scan with POST /v1/scan)",
    });
    expect(body[1]).toEqual(react);
    expect(body[2]).toEqual(react);
    expectMatchesOpenApi('post', '/v1/bulk', 200, body);
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(2);
  });

  it.each([
    ['not json', /not valid JSON/],
    [{ packages: [] }, /1 to 100/],
    [{ packages: Array.from({ length: 101 }, () => ({ name: 'a' })) }, /1 to 100/],
    [{ packages: 'react' }, /packages/],
    [{ packages: [{ name: 'a b' }] }, /packages\.0\.name/],
    [{ packages: [{ name: 'react', registry: 'pypi' }] }, /supported: npm/],
    [{ packages: [{ name: 'react', version: '^1' }] }, /packages\.0\.version/],
  ])('is 400 for %j', async (body, message) => {
    const res = await post(body);
    expect(res.statusCode).toBe(400);
    expect((parseBody(res) as { error: string }).error).toMatch(message);
    expect(ddb.calls()).toHaveLength(0);
  });
});
