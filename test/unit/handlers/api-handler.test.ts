/**
 * The API wrapper's logging: each invocation logs under its function's service name with API
 * Gateway's request id as the correlation id, and a 500 body quotes that same id.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { apiEvent, lambdaContext, parseBody } from '../../support/events';

type Wrapper = typeof import('../../../lambdas/shared/http/api-handler');

/** Loads the wrapper afresh with logging on and captures the JSON lines it writes. */
function loadWithLogs(env: Record<string, string | undefined>): {
  wrapper: Wrapper;
  lines: () => Record<string, unknown>[];
} {
  const saved = { ...process.env };
  Object.assign(process.env, { POWERTOOLS_LOG_LEVEL: 'INFO', ...env });
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete process.env[key];
  let wrapper!: Wrapper;
  jest.isolateModules(() => {
    wrapper = jest.requireActual<Wrapper>('../../../lambdas/shared/http/api-handler');
  });
  process.env = saved;
  const written: string[] = [];
  for (const stream of [process.stdout, process.stderr])
    jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
  return {
    wrapper,
    lines: () =>
      written
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

const context = (functionName: string): Context => ({
  ...lambdaContext,
  functionName,
  awsRequestId: 'lambda-id',
});
const event = (requestId: string): APIGatewayProxyEvent =>
  apiEvent({ requestContext: { ...apiEvent().requestContext, requestId } });

afterEach(() => jest.restoreAllMocks());

describe('apiHandler', () => {
  it('answers an unexpected error with a 500 that quotes API Gateway’s request id', async () => {
    const { wrapper, lines } = loadWithLogs({ POWERTOOLS_SERVICE_NAME: undefined });
    const failing = wrapper.apiHandler(() => Promise.reject(new Error('boom')));
    const res = await failing(event('gw-123'), context('pkgscan-get-package'));
    expect(res.statusCode).toBe(500);
    expect(res.headers?.['content-type']).toMatch(/^application\/json/);
    expect(parseBody(res)).toEqual({ error: 'Internal error; quote request id gw-123 when reporting it' });
    const [line] = lines().filter((l) => l.level === 'ERROR');
    expect(line).toMatchObject({
      service: 'pkgscan-get-package',
      correlation_id: 'gw-123',
      function_name: 'pkgscan-get-package',
      function_request_id: 'lambda-id',
    });
  });

  it('logs under the construct’s service name when the function has one', async () => {
    const { wrapper, lines } = loadWithLogs({ POWERTOOLS_SERVICE_NAME: 'pkgscan-bulk' });
    const failing = wrapper.apiHandler(() => Promise.reject(new Error('boom')));
    await failing(event('gw-9'), context('Stack-ApiBulkFn-1A2B'));
    expect(lines().filter((l) => l.level === 'ERROR')).toEqual([
      expect.objectContaining({ service: 'pkgscan-bulk', correlation_id: 'gw-9' }),
    ]);
  });

  it('keeps concurrent invocations of different functions apart', async () => {
    const { wrapper, lines } = loadWithLogs({ POWERTOOLS_SERVICE_NAME: undefined });
    const slow = wrapper.apiHandler(async (_event, ctx) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      wrapper.requestLogger(ctx).info('slow done');
      return { status: 200, body: {} };
    });
    const fast = wrapper.apiHandler((_event, ctx) => {
      wrapper.requestLogger(ctx).info('fast done');
      return Promise.resolve({ status: 200, body: {} });
    });
    await Promise.all([
      slow(event('gw-slow'), context('pkgscan-get-package')),
      fast(event('gw-fast'), context('pkgscan-upload-received')),
    ]);
    const byMessage = Object.fromEntries(lines().map((l) => [l.message, l]));
    expect(byMessage['slow done']).toMatchObject({
      service: 'pkgscan-get-package',
      correlation_id: 'gw-slow',
    });
    expect(byMessage['fast done']).toMatchObject({
      service: 'pkgscan-upload-received',
      correlation_id: 'gw-fast',
    });
  });

  it('falls back to Lambda’s request id when the event has none (a direct invocation)', async () => {
    const { wrapper } = loadWithLogs({});
    const failing = wrapper.apiHandler(() => Promise.reject(new Error('boom')));
    const direct = { ...event('x'), requestContext: undefined } as unknown as APIGatewayProxyEvent;
    const res = await failing(direct, context('pkgscan-health'));
    expect(parseBody(res)).toEqual({ error: 'Internal error; quote request id lambda-id when reporting it' });
  });
});
