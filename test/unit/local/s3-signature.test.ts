/**
 * The local S3 stand-in's signature check against requests the AWS SDK really signs: the SDK
 * sends them to a loopback server that records them, and the check runs on what arrived.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import {
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { checkS3Signature, s3ErrorXml, type S3RequestParts } from '../../../local/s3-signature';

const KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const BUCKET = 'pkgscan-uploads';

let server: Server;
let endpoint: string;
const received: Array<S3RequestParts & { at: Date }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, at: new Date() });
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end('<ListBucketResult></ListBucketResult>');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

function client(config: Partial<S3ClientConfig> = {}): S3Client {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: KEYS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...config,
  });
}

/** What the SDK sent for one command. */
async function sent(send: (s3: S3Client) => Promise<unknown>, config?: Partial<S3ClientConfig>) {
  const s3 = client(config);
  const before = received.length;
  try {
    await send(s3);
  } catch {
    // the recording server's answer need not make sense to the SDK
  } finally {
    s3.destroy();
  }
  const request = received[before];
  if (!request) throw new Error('nothing was sent');
  return request;
}

/** A presigned URL as a client would send it: only the Host header. */
function presignedRequest(url: string, method: string): S3RequestParts {
  const parsed = new URL(url);
  return { method, url: `${parsed.pathname}${parsed.search}`, headers: { host: parsed.host } };
}

describe('requests signed in the Authorization header', () => {
  it.each([
    [
      'PutObject with a hashed body',
      (s3: S3Client) =>
        s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'uploads/a.tgz', Body: 'hello' })),
    ],
    [
      'PutObject streamed (unsigned payload)',
      (s3: S3Client) =>
        s3.send(
          new PutObjectCommand({
            Bucket: BUCKET,
            Key: 'uploads/b.tgz',
            Body: Readable.from([Buffer.from('hello')]),
            ContentLength: 5,
          }),
        ),
    ],
    [
      'GetObject of a key with a space, a plus and non-ASCII',
      (s3: S3Client) => s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: "uploads/a b+c (1)*'é.tgz" })),
    ],
    [
      'ListObjectsV2 with a query',
      (s3: S3Client) => s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'uploads/', MaxKeys: 5 })),
    ],
  ])('accepts %s', async (_label, send) => {
    const request = await sent(send);
    expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=S3RVER\//);
    expect(checkS3Signature(request, KEYS, request.at)).toBeUndefined();
  });

  it('refuses a changed method, path, query or signed header, and another secret', async () => {
    const request = await sent((s3) =>
      s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'uploads/a.tgz', Body: 'hello' })),
    );
    const mismatch = { status: 403, code: 'SignatureDoesNotMatch' };
    expect(checkS3Signature({ ...request, method: 'DELETE' }, KEYS, request.at)).toMatchObject(mismatch);
    expect(
      checkS3Signature({ ...request, url: request.url.replace('a.tgz', 'b.tgz') }, KEYS, request.at),
    ).toMatchObject(mismatch);
    expect(checkS3Signature({ ...request, url: `${request.url}&acl` }, KEYS, request.at)).toMatchObject(
      mismatch,
    );
    const headers: IncomingHttpHeaders = { ...request.headers, 'content-length': '6' };
    expect(checkS3Signature({ ...request, headers }, KEYS, request.at)).toMatchObject(mismatch);
    expect(
      checkS3Signature(request, { accessKeyId: 'S3RVER', secretAccessKey: 'other' }, request.at),
    ).toMatchObject(mismatch);
  });

  it('refuses an unknown access key and a request signed more than 15 minutes away', async () => {
    const other = await sent(
      (s3) => s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'uploads/a.tgz' })),
      {
        credentials: { accessKeyId: 'SOMEONE', secretAccessKey: 'S3RVER' },
      },
    );
    expect(checkS3Signature(other, KEYS, other.at)).toMatchObject({
      status: 403,
      code: 'InvalidAccessKeyId',
    });

    const request = await sent((s3) =>
      s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'uploads/a.tgz' })),
    );
    const later = new Date(request.at.getTime() + 16 * 60_000);
    expect(checkS3Signature(request, KEYS, later)).toMatchObject({
      status: 403,
      code: 'RequestTimeTooSkewed',
    });
    const soon = new Date(request.at.getTime() + 10 * 60_000);
    expect(checkS3Signature(request, KEYS, soon)).toBeUndefined();
  });

  it('refuses a header without x-amz-date or x-amz-content-sha256, and a scope for another service', async () => {
    const request = await sent((s3) =>
      s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'uploads/a.tgz' })),
    );
    const { 'x-amz-date': _date, ...noDate } = request.headers;
    expect(checkS3Signature({ ...request, headers: noDate }, KEYS, request.at)).toMatchObject({
      status: 403,
    });
    const { 'x-amz-content-sha256': _hash, ...noHash } = request.headers;
    expect(checkS3Signature({ ...request, headers: noHash }, KEYS, request.at)).toMatchObject({
      status: 400,
      code: 'InvalidRequest',
    });
    const authorization = String(request.headers.authorization).replace('/s3/', '/sqs/');
    expect(
      checkS3Signature({ ...request, headers: { ...request.headers, authorization } }, KEYS, request.at),
    ).toMatchObject({ status: 400, code: 'AuthorizationHeaderMalformed' });
  });
});

describe('presigned URLs', () => {
  async function presignedPut(key = 'uploads/p.tgz', expiresIn = 900): Promise<{ url: string; at: Date }> {
    const s3 = client();
    try {
      const at = new Date();
      const url = await getSignedUrl(s3, new PutObjectCommand({ Bucket: BUCKET, Key: key }), { expiresIn });
      return { url, at };
    } finally {
      s3.destroy();
    }
  }

  it('accepts the PUT it was signed for, within its lifetime', async () => {
    const { url, at } = await presignedPut();
    expect(url).toContain('X-Amz-Signature=');
    expect(checkS3Signature(presignedRequest(url, 'PUT'), KEYS, at)).toBeUndefined();
    const nearEnd = new Date(at.getTime() + 890_000);
    expect(checkS3Signature(presignedRequest(url, 'PUT'), KEYS, nearEnd)).toBeUndefined();
  });

  it('refuses it expired, for another method or key, or with a parameter added', async () => {
    const { url, at } = await presignedPut();
    expect(checkS3Signature(presignedRequest(url, 'PUT'), KEYS, new Date(at.getTime() + 902_000))).toEqual({
      status: 403,
      code: 'AccessDenied',
      message: 'Request has expired',
    });
    const mismatch = { status: 403, code: 'SignatureDoesNotMatch' };
    expect(checkS3Signature(presignedRequest(url, 'GET'), KEYS, at)).toMatchObject(mismatch);
    expect(checkS3Signature(presignedRequest(url.replace('p.tgz', 'q.tgz'), 'PUT'), KEYS, at)).toMatchObject(
      mismatch,
    );
    expect(checkS3Signature(presignedRequest(`${url}&acl=`, 'PUT'), KEYS, at)).toMatchObject(mismatch);
    const longer = url.replace('X-Amz-Expires=900', 'X-Amz-Expires=3600');
    expect(checkS3Signature(presignedRequest(longer, 'PUT'), KEYS, at)).toMatchObject(mismatch);
  });

  it('refuses an incomplete presigned query and a lifetime above a week', async () => {
    const { url, at } = await presignedPut();
    const noCredential = url.replace(/X-Amz-Credential=[^&]+&/, '');
    expect(checkS3Signature(presignedRequest(noCredential, 'PUT'), KEYS, at)).toMatchObject({
      status: 400,
      code: 'AuthorizationQueryParametersError',
    });
    const long = url.replace('X-Amz-Expires=900', 'X-Amz-Expires=604801');
    expect(checkS3Signature(presignedRequest(long, 'PUT'), KEYS, at)).toMatchObject({ status: 400 });
  });
});

describe('unsigned and malformed requests', () => {
  it('refuses an anonymous request with AccessDenied', () => {
    const refusal = checkS3Signature(
      { method: 'GET', url: `/${BUCKET}/uploads/a.tgz`, headers: { host: '127.0.0.1' } },
      KEYS,
    );
    expect(refusal).toMatchObject({ status: 403, code: 'AccessDenied' });
    expect(refusal?.message).toMatch(/anonymous/);
  });

  it('refuses a request with both mechanisms, another algorithm, or a path that does not decode', async () => {
    const request = await sent((s3) =>
      s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'uploads/a.tgz' })),
    );
    const both = { ...request, url: `${request.url}&X-Amz-Algorithm=AWS4-HMAC-SHA256` };
    expect(checkS3Signature(both, KEYS, request.at)).toMatchObject({ status: 400, code: 'InvalidArgument' });
    const v2 = { ...request, headers: { ...request.headers, authorization: 'AWS S3RVER:c2lnbmF0dXJl' } };
    expect(checkS3Signature(v2, KEYS, request.at)).toMatchObject({ status: 403, code: 'AccessDenied' });
    expect(
      checkS3Signature({ ...request, url: `/${BUCKET}/uploads/%E0%A4%A.tgz` }, KEYS, request.at),
    ).toMatchObject({ status: 400, code: 'InvalidURI' });
  });

  it('writes S3-shaped XML errors with the text escaped', () => {
    expect(s3ErrorXml({ status: 403, code: 'AccessDenied', message: 'a <b> & "c"' }, '/b/k<1>')).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<Error><Code>AccessDenied</Code><Message>a &#60;b&#62; &#38; &#34;c&#34;</Message>' +
        '<Resource>/b/k&#60;1&#62;</Resource></Error>',
    );
  });
});
