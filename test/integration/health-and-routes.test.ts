/** Gateway-level behaviour through the local adapter: health, unknown routes, CORS. */
import { expectBody, expectError } from './support/contract';
import { startTestApi, type TestApi } from './support/test-api';
import { UNKNOWN_ROUTE_MESSAGE } from '../../lambdas/routes';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.stop();
});

describe('GET /health', () => {
  it('answers {"status":"ok"}', async () => {
    const response = await api.get('/health');
    expect(expectBody(response, 200, 'Health')).toEqual({ status: 'ok' });
  });

  it('allows cross-origin reads', async () => {
    const response = await api.get('/health');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('routes the API does not have', () => {
  it.each([
    ['an unknown path', 'GET', '/nope'],
    ['an unknown version prefix', 'GET', '/v2/packages'],
    ['an unknown version prefix with a name', 'GET', '/v2/packages/react'],
    ['a path below a version', 'GET', '/v1/packages/react/1.0.0/extra'],
    ['the bare version prefix', 'GET', '/v1'],
  ])('%s is 404 {error}', async (_what, method, path) => {
    const response = await api.request(path, { method });
    expectError(response, 404);
    expect(response.body).toEqual({ error: UNKNOWN_ROUTE_MESSAGE });
  });
  it.each([
    ['an unknown method on a known path', 'DELETE', '/v1/packages/react', 'GET, HEAD'],
    ['GET on a POST-only path', 'GET', '/v1/bulk', 'POST'],
  ])('%s is 405 {error} with Allow', async (_what, method, path, allow) => {
    const response = await api.request(path, { method });
    expectError(response, 405);
    expect(response.headers.get('allow')).toBe(allow);
  });
  it('HEAD /health answers like GET, without a body', async () => {
    const response = await api.request('/health', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
  });
});

describe('CORS preflight', () => {
  it('answers OPTIONS for a read route with the allowed methods', async () => {
    const response = await api.request('/v1/packages/react', {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.com', 'Access-Control-Request-Method': 'GET' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('GET');
  });
});
