import { ApiClient, parseRetryAfter } from '../../../cli/api';
import { ServiceError } from '../../../cli/errors';
import { pkg, startFakeApi, type FakeApi } from './fake-api';

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

function client(url: string, over: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) {
  return new ApiClient({
    baseUrl: url,
    timeoutMs: 2000,
    retries: 4,
    concurrency: 4,
    retryBaseMs: 1,
    ...over,
  });
}

const refs = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `p${i}`, version: '1.0.0' }));

describe('bulk lookups', () => {
  it('sends chunks of at most 100 with bounded concurrency and keeps request order', async () => {
    api = await startFakeApi(
      refs(250)
        .filter((_, i) => i % 2 === 0)
        .map((r) => pkg(r.name, r.version)),
    );
    const c = client(api.url, { concurrency: 2 });
    const progress: number[] = [];
    const answers = await c.bulk(refs(250), (done) => progress.push(done));
    expect(api.log.map((l) => l.items)).toEqual([100, 100, 50]);
    expect(api.maxInFlight).toBeLessThanOrEqual(2);
    expect(answers).toHaveLength(250);
    expect(answers.map((a) => a.found)).toEqual(refs(250).map((_, i) => i % 2 === 0));
    expect(answers[0]).toMatchObject({ found: true, result: { name: 'p0', version: '1.0.0' } });
    expect(answers[1]).toMatchObject({ found: false, error: expect.stringContaining('not been scanned') });
    expect(progress.at(-1)).toBe(250);
    expect(c.requests).toBe(3);
  });

  it('retries 429 answers against a throttling server, honouring Retry-After', async () => {
    api = await startFakeApi([pkg('p0', '1.0.0')], { throttleFirst: 2, retryAfter: '1' });
    const waits: number[] = [];
    const c = client(api.url, { sleep: async (ms) => void waits.push(ms) });
    const answers = await c.bulk(refs(1));
    expect(answers[0]!.found).toBe(true);
    expect(api.log.map((l) => l.status)).toEqual([429, 429, 200]);
    expect(waits).toEqual([1000, 1000]);
    expect(c.requests).toBe(3);
    expect(c.retries).toBe(2);
  });

  it('really waits when throttled without a Retry-After, with exponential backoff and jitter', async () => {
    api = await startFakeApi([pkg('p0', '1.0.0')], { throttleFirst: 3 });
    const waits: number[] = [];
    const c = client(api.url, {
      retryBaseMs: 100,
      random: () => 0.5,
      sleep: async (ms) => {
        waits.push(ms);
        await new Promise((r) => setTimeout(r, ms / 10));
      },
    });
    await c.bulk(refs(1));
    expect(waits).toEqual([50, 100, 200]);
  });

  it('retries 5xx, then gives up with a ServiceError', async () => {
    api = await startFakeApi([], { failFirst: 10 });
    const c = client(api.url, { retries: 2 });
    await expect(c.bulk(refs(1))).rejects.toThrow(ServiceError);
    expect(api.log).toHaveLength(3);
    await expect(client(api.url, { retries: 0 }).bulk(refs(1))).rejects.toThrow(
      /503 \(Service unavailable\)/,
    );
  });

  it('fails with a ServiceError when nothing listens', async () => {
    const c = client('http://127.0.0.1:9', { retries: 1 });
    await expect(c.bulk(refs(1))).rejects.toThrow(/failed after 2 attempts/);
  });

  it('isolates an item the service rejects by splitting the chunk, and reports it as not looked up', async () => {
    api = await startFakeApi(refs(8).map((r) => pkg(r.name, r.version)));
    const items = [...refs(8).slice(0, 5), { name: 'bad-one', version: '1.0.0' }, ...refs(8).slice(5)];
    const answers = await client(api.url).bulk(items);
    expect(answers.map((a) => a.found)).toEqual([true, true, true, true, true, false, true, true, true]);
    expect(answers[5]).toEqual({
      found: false,
      error: expect.stringContaining('rejected by the service: packages.'),
    });
    expect(api.log.map((l) => l.items)).toEqual([9, 5, 4, 2, 1, 1, 2]);
  });

  it('rejects answers that do not match the contract', async () => {
    api = await startFakeApi([{ ...pkg('p0', '1.0.0'), risk_level: 'purple' as 'clean' }]);
    await expect(client(api.url).bulk(refs(1))).rejects.toThrow(/unexpected answer/);
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:05 GMT', now)).toBe(5000);
  });
});

describe('scans', () => {
  it('requests a scan and follows its job', async () => {
    api = await startFakeApi([], { pollsToComplete: 2 });
    const c = client(api.url);
    const ack = await c.requestScan({ name: 'new-pkg', version: '1.0.0' });
    expect('ack' in ack && ack.ack.job_id).toMatch(/^0{8}-/);
    const id = 'ack' in ack ? ack.ack.job_id : '';
    expect((await c.getJob(id))?.status).toBe('queued');
    expect((await c.getJob(id))?.status).toBe('completed');
    expect(await c.getJob('00000000-0000-4000-8000-999999999999')).toBeUndefined();
    expect(await c.requestScan({ name: 'bad-name', version: '1.0.0' })).toEqual({
      refused: 'name is not a valid npm package name',
      status: 400,
    });
  });
});
