/**
 * Registry scans end to end: POST /v1/scan through the local API Gateway adapter, the local scan
 * queue, the scanner worker running the real scanner handler, the fake registry (recorded
 * packuments and tarballs, packages built in memory, scripted failures) and DynamoDB Local;
 * then GET /v1/scan/{job_id} and GET /v1/packages/{name}. No outside call.
 */
import { PackageResponse } from '../../src/contract/schemas';
import { pkgJson, tgz } from '../unit/analysis/helpers';
import { expectBody, expectError } from './support/contract';
import { startPipeline, type TestPipeline } from './support/pipeline';

jest.setTimeout(60_000);

let pipeline: TestPipeline;

beforeAll(async () => {
  pipeline = await startPipeline({ importAdvisories: true });
});
afterAll(async () => {
  await pipeline?.stop();
});

/** POST /v1/scan → 202 with Location; returns the job id. */
async function requestScan(body: unknown): Promise<string> {
  const response = await pipeline.requestScan(body);
  const ack = expectBody(response, 202, 'ScanAck');
  expect(response.headers.get('location')).toBe(`/v1/scan/${ack.job_id}`);
  return ack.job_id;
}

/** Waits for the job to finish; its final answer is checked against the OpenAPI document. */
async function finishedJob(jobId: string) {
  await pipeline.waitForJob(jobId);
  return expectBody(await pipeline.api.get(`/v1/scan/${jobId}`), 200, 'ScanJob');
}

describe('POST /v1/scan → completed → GET /v1/packages/{name}', () => {
  it('scans a plain package at an exact version and serves the full record', async () => {
    const jobId = await requestScan({ name: 'left-pad', version: '1.2.0' });
    const job = await finishedJob(jobId);
    expect(job).toMatchObject({
      status: 'completed',
      source: 'registry',
      name: 'left-pad',
      version: '1.2.0',
    });
    const result = PackageResponse.parse(job.result);
    expect(result).toMatchObject({ name: 'left-pad', version: '1.2.0', registry: 'npm' });
    // Download counts come from the fake download-count endpoint.
    expect(result.weekly_downloads).toBe(1_000_000);

    const record = expectBody(await pipeline.api.get('/v1/packages/left-pad/1.2.0'), 200, 'PackageResponse');
    expect(record).toEqual(result);
  });

  it('scans the latest version when the version is omitted, and GET /v1/packages/{name} serves it', async () => {
    const job = await finishedJob(await requestScan({ name: 'left-pad' }));
    expect(job.status).toBe('completed');
    expect(PackageResponse.parse(job.result).version).toBe('1.3.0');
    const record = expectBody(await pipeline.api.get('/v1/packages/left-pad'), 200, 'PackageResponse');
    expect(record.version).toBe('1.3.0');
    expect(record.docs_md).toMatch(/left-pad/);
    // The dist-tag recorded at scan time resolves too.
    const tagged = expectBody(await pipeline.api.get('/v1/packages/left-pad/latest'), 200, 'PackageResponse');
    expect(tagged.version).toBe('1.3.0');
  });

  it('scans a scoped package and serves it under its encoded name', async () => {
    const job = await finishedJob(await requestScan({ name: '@tootallnate/once' }));
    expect(job).toMatchObject({ status: 'completed', name: '@tootallnate/once', version: '2.0.0' });
    for (const path of ['/v1/packages/%40tootallnate%2Fonce', '/v1/packages/@tootallnate%2Fonce']) {
      const record = expectBody(await pipeline.api.get(path), 200, 'PackageResponse');
      expect(record).toMatchObject({ name: '@tootallnate/once', version: '2.0.0' });
    }
  });

  it('reports an unknown download count as neutral with a reason, never as zero popularity', async () => {
    const tarball = tgz([
      pkgJson({ name: 'quiet-pkg', version: '1.0.0' }),
      { name: 'package/index.js', data: 'module.exports = 1;\n' },
    ]);
    pipeline.registry.addPackage('quiet-pkg', '1.0.0', tarball);
    pipeline.registry.setDownloads('quiet-pkg', undefined);
    const job = await finishedJob(await requestScan({ name: 'quiet-pkg' }));
    const result = PackageResponse.parse(job.result);
    expect(result.risk_reasons.join(' ')).toMatch(/weekly downloads are unknown/i);
  });
});

describe('known advisories', () => {
  it('returns the CVEs of a vulnerable version with fixed_in (lodash 4.17.4 built in memory)', async () => {
    const tarball = tgz([
      pkgJson({ name: 'lodash', version: '4.17.4', main: 'lodash.js' }),
      { name: 'package/lodash.js', data: 'module.exports = { merge: function merge() {} };\n' },
    ]);
    pipeline.registry.addPackage('lodash', '4.17.4', tarball);
    const job = await finishedJob(await requestScan({ name: 'lodash', version: '4.17.4' }));
    expect(job.status).toBe('completed');
    const record = expectBody(await pipeline.api.get('/v1/packages/lodash'), 200, 'PackageResponse');
    const cves = Object.fromEntries(record.cves.map((cve) => [cve.cve_id, cve.fixed_in]));
    // From data/advisories/osv-npm (NSWG-ECO-368, NSWG-ECO-493): fixed in 4.17.5 and 4.17.11.
    expect(cves).toMatchObject({ 'CVE-2018-3721': '4.17.5', 'CVE-2018-16487': '4.17.11' });
    expect(record.risk_level).not.toBe('clean');
    expect(record.risk_reasons.join(' ')).toMatch(/CVE-2018-16487/);
    // docs_md states the record's final level, CVEs included, not the findings' own "clean".
    expect(record.docs_md).toContain(`- Risk level: ${record.risk_level} (`);
  });
});

describe('registry failures', () => {
  it('retries a registry 500 and completes', async () => {
    pipeline.registry.failNext('/is-number', 500, 1);
    const before = pipeline.registry.requests.filter((r) => r === 'GET /is-number').length;
    const job = await finishedJob(await requestScan({ name: 'is-number', version: '7.0.0' }));
    expect(job.status).toBe('completed');
    // The packument was asked for twice: the scripted 500, then the answer.
    expect(pipeline.registry.requests.filter((r) => r === 'GET /is-number').length - before).toBe(2);
    expectBody(await pipeline.api.get('/v1/packages/is-number/7.0.0'), 200, 'PackageResponse');
  });

  it('fails an unknown package with a clear reason', async () => {
    const job = await finishedJob(await requestScan({ name: 'no-such-package-here' }));
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/no-such-package-here.*does not exist/);
    expectError(await pipeline.api.get('/v1/packages/no-such-package-here'), 404);
  });

  it('fails an unknown version of a known package with a clear reason', async () => {
    const job = await finishedJob(await requestScan({ name: 'left-pad', version: '9.9.9' }));
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/9\.9\.9.*does not exist/);
  });

  it('fails a corrupt tarball (non-gzip bytes published with a matching integrity) with a reason', async () => {
    pipeline.registry.addPackage('corrupt-pkg', '1.0.0', Buffer.from('this is not a gzip file, just text\n'));
    const job = await finishedJob(await requestScan({ name: 'corrupt-pkg' }));
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/tarball could not be read/i);
    expectError(await pipeline.api.get('/v1/packages/corrupt-pkg'), 404);
  });
});

describe('de-duplication', () => {
  it('gives concurrent requests for the same name@version one job', async () => {
    const tarball = tgz([pkgJson({ name: 'popular-now', version: '2.0.0' })]);
    pipeline.registry.addPackage('popular-now', '2.0.0', tarball);
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => pipeline.requestScan({ name: 'popular-now', version: '2.0.0' })),
    );
    const ids = responses.map((response) => expectBody(response, 202, 'ScanAck').job_id);
    expect(new Set(ids).size).toBe(1);
    const job = await finishedJob(ids[0] ?? '');
    expect(job.status).toBe('completed');
    expect(await pipeline.api.store.versions('popular-now')).toHaveLength(1);
  });
});

describe('POST /v1/scan validation', () => {
  it.each([
    ['an invalid name', { name: 'Bad Name!' }, /name/],
    ['an invalid version', { name: 'left-pad', version: '1.x' }, /version/],
    ['an unsupported registry', { name: 'left-pad', registry: 'pypi' }, /npm/],
    ['a missing name', { version: '1.0.0' }, /name/],
    ['unknown fields', { name: 'left-pad', extra: true }, /.+/],
  ])('answers 400 for %s', async (_label, body, message) => {
    expectError(await pipeline.requestScan(body), 400, message);
  });

  it('answers 400 for a body that is not JSON, and for no body', async () => {
    expectError(await pipeline.requestScan('{"name":'), 400, /JSON/);
    expectError(await pipeline.api.request('/v1/scan', { method: 'POST' }), 400, /body/i);
  });

  it('answers 400 for a job id that is not a UUID and 404 for an unknown one', async () => {
    expectError(await pipeline.api.get('/v1/scan/not-a-uuid'), 400, /UUID/);
    expectError(await pipeline.api.get('/v1/scan/3f1e5a0c-1111-4222-8333-444455556666'), 404);
  });
});
