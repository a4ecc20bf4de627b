/**
 * Tarball scans end to end: POST /v1/scan/tarball (multipart/form-data, passed base64 by the
 * local API Gateway as the stack's binary media type), the presigned flow (POST
 * /v1/scan/upload-url, PUT to s3rver, the bucket's notification to upload-received), the scanner
 * worker and GET /v1/scan/{job_id}. Tarball results are private: GET /v1/packages/{name} stays 404.
 */
import { PackageResponse } from '../../src/contract/schemas';
import { pkgJson, tgz } from '../unit/analysis/helpers';
import { expectBody, expectError } from './support/contract';
import { startPipeline, type TestPipeline } from './support/pipeline';
import type { ApiResponse } from './support/test-api';

jest.setTimeout(60_000);

/** Inline uploads above this many bytes are refused (413); kept small so the test stays light. */
const INLINE_LIMIT = 64 * 1024;

let pipeline: TestPipeline;

beforeAll(async () => {
  pipeline = await startPipeline({
    importAdvisories: true,
    env: { MAX_INLINE_UPLOAD_BYTES: String(INLINE_LIMIT) },
  });
});
afterAll(async () => {
  await pipeline?.stop();
});

function uploadForm(field: string, data: Buffer, filename = 'package.tgz'): FormData {
  const form = new FormData();
  form.append(field, new Blob([data], { type: 'application/gzip' }), filename);
  return form;
}

function postTarball(body: FormData | string | Buffer, contentType?: string): Promise<ApiResponse> {
  return pipeline.api.request('/v1/scan/tarball', {
    method: 'POST',
    body,
    ...(contentType !== undefined ? { headers: { 'content-type': contentType } } : {}),
  });
}

async function acceptedJob(response: ApiResponse): Promise<string> {
  const ack = expectBody(response, 202, 'ScanAck');
  expect(response.headers.get('location')).toBe(`/v1/scan/${ack.job_id}`);
  return ack.job_id;
}

async function finishedJob(jobId: string) {
  await pipeline.waitForJob(jobId);
  return expectBody(await pipeline.api.get(`/v1/scan/${jobId}`), 200, 'ScanJob');
}

const samplePackage = (name: string, version: string) =>
  tgz([
    pkgJson({ name, version, scripts: { postinstall: 'node setup.js' } }),
    {
      name: 'package/index.js',
      data: "const fs = require('fs');\nmodule.exports = () => fs.readFileSync('x');\n",
    },
    { name: 'package/setup.js', data: "console.log('setup');\n" },
  ]);

describe('POST /v1/scan/tarball', () => {
  it('scans a multipart upload; the result lives only in its job', async () => {
    const jobId = await acceptedJob(
      await postTarball(uploadForm('tarball', samplePackage('private-upload-pkg', '3.1.4'))),
    );
    const job = await finishedJob(jobId);
    expect(job).toMatchObject({ status: 'completed', source: 'tarball' });
    expect(job.error).toBeUndefined();
    const result = PackageResponse.parse(job.result);
    expect(result).toMatchObject({ name: 'private-upload-pkg', version: '3.1.4' });
    expect(result.install_scripts.postinstall).toBe(true);
    expect(result.publisher.verified).toBe(false);
    // Never written to the public records.
    expectError(await pipeline.api.get('/v1/packages/private-upload-pkg'), 404);
    expect(await pipeline.api.store.versions('private-upload-pkg')).toHaveLength(0);
  });

  it('matches an upload named and versioned like a vulnerable package against the advisories', async () => {
    const lodash = tgz([
      pkgJson({ name: 'lodash', version: '4.17.4' }),
      { name: 'package/lodash.js', data: 'module.exports = {};\n' },
    ]);
    const job = await finishedJob(
      await acceptedJob(await postTarball(uploadForm('tarball', lodash, 'lodash-4.17.4.tgz'))),
    );
    expect(job.status).toBe('completed');
    const cves = Object.fromEntries(
      PackageResponse.parse(job.result).cves.map((cve) => [cve.cve_id, cve.fixed_in]),
    );
    expect(cves).toMatchObject({ 'CVE-2018-3721': '4.17.5', 'CVE-2018-16487': '4.17.11' });
    // Someone's "lodash" upload does not become the public lodash record.
    expectError(await pipeline.api.get('/v1/packages/lodash'), 404);
  });

  it('fails a gzip upload that holds no readable archive, with a reason', async () => {
    const garbage = Buffer.concat([
      Buffer.from([0x1f, 0x8b, 0x08, 0x00]),
      Buffer.from('definitely not deflate data'),
    ]);
    const job = await finishedJob(await acceptedJob(await postTarball(uploadForm('tarball', garbage))));
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/tarball could not be read/i);
  });

  it('answers 400 without a tarball field, for a file that is not gzip, and for no body', async () => {
    expectError(await postTarball(uploadForm('file', samplePackage('x', '1.0.0'))), 400, /tarball.*missing/);
    expectError(await postTarball(uploadForm('tarball', Buffer.from('plain text, not gzip'))), 400, /gzip/);
    expectError(await postTarball(''), 400, /body/i);
  });

  it('answers 413 for a tarball above the inline upload limit', async () => {
    const big = Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.alloc(INLINE_LIMIT + 1024, 7)]);
    expectError(await postTarball(uploadForm('tarball', big)), 413, new RegExp(String(INLINE_LIMIT)));
  });

  it('answers 415 for a body that is not multipart/form-data', async () => {
    expectError(await postTarball('{"tarball":"..."}', 'application/json'), 415, /multipart\/form-data/);
  });
});

describe('presigned upload: POST /v1/scan/upload-url, then PUT', () => {
  it('starts the job when the object lands in S3, and completes it', async () => {
    const response = await pipeline.api.request('/v1/scan/upload-url', { method: 'POST' });
    const ticket = expectBody(response, 201, 'UploadTicket');
    expect(response.headers.get('location')).toBe(`/v1/scan/${ticket.job_id}`);
    // Waiting for its upload: not started.
    await new Promise((done) => setTimeout(done, 300));
    expect(expectBody(await pipeline.api.get(`/v1/scan/${ticket.job_id}`), 200, 'ScanJob').status).toBe(
      'queued',
    );

    const put = await fetch(ticket.upload_url, {
      method: 'PUT',
      body: samplePackage('big-private-pkg', '0.9.0'),
    });
    expect(put.status).toBe(200);
    const job = await finishedJob(ticket.job_id);
    expect(job.status).toBe('completed');
    expect(PackageResponse.parse(job.result)).toMatchObject({ name: 'big-private-pkg', version: '0.9.0' });
    expectError(await pipeline.api.get('/v1/packages/big-private-pkg'), 404);
  });
});
