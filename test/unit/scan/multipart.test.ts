import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { HttpError } from '../../../lambdas/shared/domain/errors';
import { inspectTarballPart, streamTarballPart } from '../../../lambdas/shared/http/multipart';

const BOUNDARY = '----pkgscan-test';
const CT = `multipart/form-data; boundary=${BOUNDARY}`;

function form(parts: Array<{ field: string; filename?: string; data: Buffer | string }>): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = p.filename
      ? `form-data; name="${p.field}"; filename="${p.filename}"`
      : `form-data; name="${p.field}"`;
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n`));
    chunks.push(Buffer.from(p.filename ? 'Content-Type: application/gzip\r\n\r\n' : '\r\n'));
    chunks.push(Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) return error.statusCode;
    throw error;
  }
  return 200;
}

describe('tarball multipart parts', () => {
  const tgz = gzipSync(Buffer.alloc(10_000, 7));

  it('measures a valid part and streams exactly its bytes', async () => {
    const body = form([
      { field: 'note', data: 'hello' },
      { field: 'tarball', filename: 'pkg.tgz', data: tgz },
    ]);
    await expect(inspectTarballPart(body, CT, 1 << 20)).resolves.toEqual({
      filename: 'pkg.tgz',
      size: tgz.length,
    });
    let received = Buffer.alloc(0);
    await streamTarballPart(body, CT, 1 << 20, async (stream) => {
      for await (const chunk of stream) received = Buffer.concat([received, chunk as Buffer]);
    });
    expect(received.equals(tgz)).toBe(true);
  });

  it('is 400 when the field is missing, empty or not gzip', async () => {
    expect(
      await statusOf(inspectTarballPart(form([{ field: 'other', filename: 'a.tgz', data: tgz }]), CT, 1e6)),
    ).toBe(400);
    expect(
      await statusOf(inspectTarballPart(form([{ field: 'tarball', filename: 'a.tgz', data: '' }]), CT, 1e6)),
    ).toBe(400);
    expect(
      await statusOf(
        inspectTarballPart(
          form([{ field: 'tarball', filename: 'a.tgz', data: 'PK\u0003\u0004zip' }]),
          CT,
          1e6,
        ),
      ),
    ).toBe(400);
  });

  it('is 413 above the size limit', async () => {
    const big = gzipSync(randomBytes(5_000));
    const body = form([{ field: 'tarball', filename: 'big.tgz', data: big }]);
    expect(await statusOf(inspectTarballPart(body, CT, 4_000))).toBe(413);
  });

  it('is 415 for a JSON body and 400 for a multipart type without boundary', async () => {
    expect(await statusOf(inspectTarballPart(Buffer.from('{}'), 'application/json', 1e6))).toBe(415);
    expect(await statusOf(inspectTarballPart(Buffer.from('x'), 'multipart/form-data', 1e6))).toBe(400);
  });

  it('is 400 for a truncated multipart body', async () => {
    const body = form([{ field: 'tarball', filename: 'a.tgz', data: gzipSync(randomBytes(5_000)) }]);
    expect(await statusOf(inspectTarballPart(body.subarray(0, 2_000), CT, 1e6))).toBe(400);
  });
});

describe('a failing destination', () => {
  it('rejects at once instead of hanging when the sink fails mid-stream', async () => {
    const BOUNDARY2 = 'sinkfail';
    const data = gzipSync(randomBytes(3 * 1024 * 1024));
    const body = Buffer.concat([
      Buffer.from(
        `--${BOUNDARY2}\r\nContent-Disposition: form-data; name="tarball"; filename="a.tgz"\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${BOUNDARY2}--\r\n`),
    ]);
    await expect(
      streamTarballPart(body, `multipart/form-data; boundary=${BOUNDARY2}`, 10 * 1024 * 1024, async () => {
        throw new Error('S3 is down');
      }),
    ).rejects.toThrow('S3 is down');
  });
});
