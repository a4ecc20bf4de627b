/**
 * The local API Gateway adapter itself, with stub handlers: the proxy event it builds (as a
 * REST API sends it), how it writes handler results, and the gateway's own error answers.
 */
import { request } from 'node:http';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import {
  createApiServer,
  MAX_REQUEST_BYTES,
  type ApiServer,
  type ProxyHandler,
} from '../../local/http-adapter';
import { ROUTES } from '../../lambdas/routes';

let server: ApiServer;
let url: string;
const calls: Array<{ event: APIGatewayProxyEvent; context: Context; remaining: number }> = [];
let reply: (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult> = async () => ({
  statusCode: 200,
  body: '{"ok":true}',
});

const stub: ProxyHandler = async (event, context) => {
  calls.push({ event, context, remaining: context.getRemainingTimeInMillis() });
  return reply(event);
};

beforeAll(async () => {
  server = createApiServer({ loadHandler: async () => stub, timeoutMs: 300, errorLog: () => undefined });
  url = await server.listen(0, '127.0.0.1');
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  calls.length = 0;
  reply = async () => ({ statusCode: 200, body: '{"ok":true}' });
});

function lastEvent(): APIGatewayProxyEvent {
  const call = calls.at(-1);
  if (!call) throw new Error('the handler was not called');
  return call.event;
}

describe('proxy event', () => {
  it('keeps path and path parameters percent-encoded as sent, like a REST API', async () => {
    await fetch(`${url}/v1/packages/%40scope%2Fname/1.0.0`);
    expect(lastEvent()).toMatchObject({
      resource: '/v1/packages/{name}/{version}',
      path: '/v1/packages/%40scope%2Fname/1.0.0',
      httpMethod: 'GET',
      pathParameters: { name: '%40scope%2Fname', version: '1.0.0' },
      body: null,
      isBase64Encoded: false,
      stageVariables: null,
    });
    await fetch(`${url}/v1/packages/@scope%2Fname`);
    expect(lastEvent()).toMatchObject({
      resource: '/v1/packages/{name}',
      pathParameters: { name: '@scope%2Fname' },
    });
  });

  it('decodes query parameters and keeps every value of a repeated one', async () => {
    await fetch(`${url}/v1/packages?q=a+b&plus=%2B&limit=1&limit=2&empty=`);
    const event = lastEvent();
    expect(event.queryStringParameters).toEqual({ q: 'a b', plus: '+', limit: '2', empty: '' });
    expect(event.multiValueQueryStringParameters).toEqual({
      q: ['a b'],
      plus: ['+'],
      limit: ['1', '2'],
      empty: [''],
    });
    await fetch(`${url}/v1/packages`);
    expect(lastEvent()).toMatchObject({
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters: null,
    });
  });

  it('passes headers single- and multi-valued, and adds the gateway headers', async () => {
    // Two separate header lines (fetch would merge them into one).
    await new Promise<void>((done, reject) => {
      const req = request(`${url}/health`, {
        headers: { 'X-Probe': ['first', 'second'], 'User-Agent': 'probe/1.0' },
      });
      req
        .on('response', (res) => res.resume().on('end', done))
        .on('error', reject)
        .end();
    });
    const event = lastEvent();
    expect(event.multiValueHeaders['X-Probe']).toEqual(['first', 'second']);
    expect(event.headers['X-Probe']).toBe('second');
    expect(Object.keys(event.headers)).toEqual(
      expect.arrayContaining(['X-Forwarded-For', 'X-Amzn-Trace-Id']),
    );
    expect(event.requestContext.identity.userAgent).toBe('probe/1.0');
    expect(event.requestContext.identity.sourceIp).toBe('127.0.0.1');
  });

  it('fills requestContext and the Lambda context', async () => {
    const response = await fetch(`${url}/health`);
    const call = calls.at(-1)!;
    expect(call.event.requestContext).toMatchObject({
      httpMethod: 'GET',
      resourcePath: '/health',
      path: '/local/health',
      stage: 'local',
      protocol: 'HTTP/1.1',
    });
    expect(call.event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('x-amzn-requestid')).toBe(call.event.requestContext.requestId);
    expect(call.context.functionName).toBe('pkgscan-health');
    expect(call.context.awsRequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(call.context.invokedFunctionArn).toContain(':function:pkgscan-health');
    expect(call.remaining).toBeGreaterThan(0);
    expect(call.remaining).toBeLessThanOrEqual(300);
  });

  it('passes a JSON body as text and a multipart body as base64', async () => {
    await fetch(`${url}/v1/bulk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":"é"}',
    });
    expect(lastEvent()).toMatchObject({ body: '{"a":"é"}', isBase64Encoded: false });

    const form = new FormData();
    form.append('tarball', new Blob([new Uint8Array([0x1f, 0x8b, 0x08, 0x00])]), 'pkg.tgz');
    await fetch(`${url}/v1/bulk`, { method: 'POST', body: form });
    const event = lastEvent();
    expect(event.isBase64Encoded).toBe(true);
    const raw = Buffer.from(event.body ?? '', 'base64');
    expect(raw.includes(Buffer.from([0x1f, 0x8b, 0x08, 0x00]))).toBe(true);
  });
});

describe('handler results', () => {
  it('writes status, headers, multi-value headers and a default JSON content type', async () => {
    reply = async () => ({
      statusCode: 201,
      headers: { 'x-one': '1' },
      multiValueHeaders: { 'set-cookie': ['a=1', 'b=2'] },
      body: '{"made":true}',
    });
    const response = await fetch(`${url}/health`);
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-one')).toBe('1');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.json()).toEqual({ made: true });
  });

  it('decodes a base64 body', async () => {
    reply = async () => ({
      statusCode: 200,
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.from([1, 2, 3, 250]).toString('base64'),
      isBase64Encoded: true,
    });
    const response = await fetch(`${url}/health`);
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([1, 2, 3, 250]);
  });
});

describe('gateway errors (JSON {error}) and routing', () => {
  it('500 naming the request id when the handler throws', async () => {
    reply = async () => {
      throw new Error('database password is hunter2');
    };
    const response = await fetch(`${url}/health`);
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: string };
    expect(Object.keys(body)).toEqual(['error']);
    expect(body.error).toContain(response.headers.get('x-amzn-requestid') ?? 'missing');
    expect(body.error).not.toContain('hunter2');
  });

  it('502 for a malformed handler result', async () => {
    reply = async () => ({ body: 'no status' }) as unknown as APIGatewayProxyResult;
    const response = await fetch(`${url}/health`);
    expect(response.status).toBe(502);
    expect(Object.keys((await response.json()) as object)).toEqual(['error']);
  });

  it('504 when the handler outlives its timeout', async () => {
    reply = () => new Promise((done) => setTimeout(() => done({ statusCode: 200, body: '{}' }), 1_000));
    const response = await fetch(`${url}/health`);
    expect(response.status).toBe(504);
    expect(Object.keys((await response.json()) as object)).toEqual(['error']);
  });

  it('413 for a body over 10 MB, without calling the handler', async () => {
    const response = await fetch(`${url}/v1/bulk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(MAX_REQUEST_BYTES + 1, 0x20),
    });
    expect(response.status).toBe(413);
    expect(Object.keys((await response.json()) as object)).toEqual(['error']);
    expect(calls).toHaveLength(0);
  });

  it('404 for every path outside the routes, 405 with Allow for a method a resource lacks', async () => {
    for (const [method, path, status] of [
      ['GET', '/', 404],
      ['GET', '/v1/packages//1.0.0', 404],
      ['OPTIONS', '/nope', 404],
      ['POST', '/v1/packages', 405],
    ] as const) {
      const response = await fetch(`${url}${path}`, { method });
      expect({ method, path, status: response.status }).toEqual({ method, path, status });
      expect(response.headers.get('content-type')).toBe('application/json');
    }
    expect(calls).toHaveLength(0);
  });

  it('ignores one trailing slash, as API Gateway does', async () => {
    const response = await fetch(`${url}/v1/packages/?limit=5`);
    expect(response.status).toBe(200);
    expect(lastEvent()).toMatchObject({ resource: '/v1/packages', path: '/v1/packages/' });
  });

  it('prefers a literal segment to a {param} sibling, as API Gateway does', async () => {
    const names: string[] = [];
    const local = createApiServer({
      routes: [
        { method: 'GET', path: '/jobs/{job_id}', handler: 'by-id', tables: [], cors: false },
        { method: 'GET', path: '/jobs/latest', handler: 'latest', tables: [], cors: false },
        { method: 'GET', path: '/jobs/{job_id}/log', handler: 'log', tables: [], cors: false },
      ],
      loadHandler: async (name) => async () => {
        names.push(name);
        return { statusCode: 200, body: '{}' };
      },
    });
    const base = await local.listen(0, '127.0.0.1');
    try {
      for (const path of ['/jobs/latest', '/jobs/other', '/jobs/latest/log']) await fetch(`${base}${path}`);
      expect(names).toEqual(['latest', 'by-id', 'log']);
    } finally {
      await local.close();
    }
  });

  it('routes every ROUTES entry to its handler', async () => {
    for (const route of ROUTES) {
      const path = route.path.replace(/\{[^}]+\}/g, 'x');
      const response = await fetch(`${url}${path}`, {
        method: route.method,
        body: route.method === 'POST' ? '{}' : undefined,
      });
      expect({ route: route.path, status: response.status }).toEqual({ route: route.path, status: 200 });
      expect(lastEvent().resource).toBe(route.path);
    }
  });
});
