/**
 * Signature Version 4 checks for the local S3 stand-in. s3rver lets an unsigned request through
 * and accepts any V4 signature without computing it, so anyone who can reach its port could read
 * or write the uploaded tarballs. S3 refuses both: this module computes the signature of a request
 * (the `Authorization` header, or the query of a presigned URL) with the local keys and says why a
 * request is refused, as S3 would (code, message, status 403).
 *
 * What is checked: the algorithm, the access key, the credential scope (service `s3`), the
 * signing date (within 15 minutes of now for a signed header; not expired for a presigned URL,
 * whose lifetime is at most 7 days), the signature over the canonical request (method, path,
 * query, the signed headers, the declared payload hash). Not checked: that the body matches a
 * declared payload hash (that would mean reading the body before s3rver does).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export interface S3Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

export interface S3RequestParts {
  readonly method: string;
  /** The request target as received: path and query, still encoded. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

export interface S3Refusal {
  readonly status: 400 | 403;
  readonly code: string;
  readonly message: string;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
const MAX_SKEW_MS = 15 * 60_000;
const MAX_PRESIGN_SECONDS = 7 * 86_400;
const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

interface SignedParts {
  readonly credential: string;
  readonly signedHeaders: string;
  readonly signature: string;
  readonly amzDate: string;
  readonly payloadHash: string;
  /** Query parameters that are part of the canonical query (all but the signature). */
  readonly query: Array<[string, string]>;
  /** Presigned URL: seconds it is valid from `amzDate`. */
  readonly expires?: number;
}

const refuse = (code: string, message: string, status: 400 | 403 = 403): S3Refusal => ({
  status,
  code,
  message,
});

/** URI encoding as SigV4 wants it: RFC 3986 unreserved characters kept, everything else %XX. */
function encodeRfc3986(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function parseQuery(raw: string): Array<[string, string]> | undefined {
  const pairs: Array<[string, string]> = [];
  if (raw === '') return pairs;
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const at = part.indexOf('=');
    const key = at < 0 ? part : part.slice(0, at);
    const value = at < 0 ? '' : part.slice(at + 1);
    try {
      pairs.push([decodeURIComponent(key), decodeURIComponent(value)]);
    } catch {
      return undefined;
    }
  }
  return pairs;
}

/** S3's canonical URI: each path segment decoded, then encoded once (no normalisation of `.`). */
function canonicalPath(rawPath: string): string | undefined {
  try {
    return rawPath
      .split('/')
      .map((segment) => encodeRfc3986(decodeURIComponent(segment)))
      .join('/');
  } catch {
    return undefined;
  }
}

function canonicalQuery(pairs: ReadonlyArray<[string, string]>): string {
  return pairs
    .map(([key, value]) => [encodeRfc3986(key), encodeRfc3986(value)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** `20261125T101155Z` → epoch ms, or NaN. */
function amzDateMs(value: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!m) return Number.NaN;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
}

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

/** Reads the signature's parts from the Authorization header or the presigned query. */
function signedParts(
  request: S3RequestParts,
  query: Array<[string, string]>,
): SignedParts | S3Refusal | undefined {
  const authorization = headerValue(request.headers, 'authorization');
  const queryValue = (name: string) => query.find(([key]) => key === name)?.[1];
  const presigned = queryValue('X-Amz-Algorithm') !== undefined;
  if (authorization !== undefined && presigned) {
    return refuse('InvalidArgument', 'Only one auth mechanism allowed', 400);
  }
  if (authorization !== undefined) {
    const m = /^(\S+) Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/.exec(
      authorization.trim(),
    );
    if (!m) {
      return refuse(
        'AccessDenied',
        'Unsupported Authorization header: sign requests with AWS Signature Version 4',
      );
    }
    if (m[1] !== ALGORITHM) return refuse('AccessDenied', `Unsupported signing algorithm ${m[1]}`);
    const amzDate = headerValue(request.headers, 'x-amz-date');
    if (amzDate === undefined) return refuse('AccessDenied', 'A signed request needs an x-amz-date header');
    const payloadHash = headerValue(request.headers, 'x-amz-content-sha256');
    if (payloadHash === undefined) {
      return refuse('InvalidRequest', 'Missing required header for this request: x-amz-content-sha256', 400);
    }
    return { credential: m[2]!, signedHeaders: m[3]!, signature: m[4]!, amzDate, payloadHash, query };
  }
  if (!presigned) return undefined;
  if (queryValue('X-Amz-Algorithm') !== ALGORITHM) {
    return refuse('AccessDenied', `Unsupported signing algorithm ${queryValue('X-Amz-Algorithm')}`);
  }
  const credential = queryValue('X-Amz-Credential');
  const signedHeaders = queryValue('X-Amz-SignedHeaders');
  const signature = queryValue('X-Amz-Signature');
  const amzDate = queryValue('X-Amz-Date');
  const expires = queryValue('X-Amz-Expires');
  if (
    credential === undefined ||
    signedHeaders === undefined ||
    signature === undefined ||
    amzDate === undefined ||
    expires === undefined ||
    !/^\d{1,7}$/.test(expires)
  ) {
    return refuse(
      'AuthorizationQueryParametersError',
      'A presigned URL needs X-Amz-Credential, X-Amz-Date, X-Amz-Expires, X-Amz-SignedHeaders and X-Amz-Signature',
      400,
    );
  }
  return {
    credential,
    signedHeaders,
    signature,
    amzDate,
    payloadHash: queryValue('X-Amz-Content-Sha256') ?? UNSIGNED_PAYLOAD,
    query: query.filter(([key]) => key !== 'X-Amz-Signature'),
    expires: Number(expires),
  };
}

/**
 * Why S3 would refuse this request, or `undefined` when it is signed with `credentials` and
 * valid at `now`. An unsigned request is refused (AccessDenied): the bucket allows no anonymous
 * access.
 */
export function checkS3Signature(
  request: S3RequestParts,
  credentials: S3Credentials,
  now: Date = new Date(),
): S3Refusal | undefined {
  const target = request.url;
  const q = target.indexOf('?');
  const rawPath = q < 0 ? target : target.slice(0, q);
  const query = parseQuery(q < 0 ? '' : target.slice(q + 1));
  const path = canonicalPath(rawPath);
  if (query === undefined || path === undefined) {
    return refuse('InvalidURI', "Couldn't parse the specified URI.", 400);
  }
  const parts = signedParts(request, query);
  if (parts === undefined) {
    return refuse(
      'AccessDenied',
      'Access Denied: anonymous requests are refused; sign the request (the local keys) or use a presigned URL',
    );
  }
  if ('code' in parts) return parts;

  const [accessKeyId, date, region, service, terminal, ...extra] = parts.credential.split('/');
  if (accessKeyId !== credentials.accessKeyId) {
    return refuse('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  }
  if (
    date === undefined ||
    region === undefined ||
    region === '' ||
    service !== 's3' ||
    terminal !== 'aws4_request' ||
    extra.length > 0 ||
    !parts.amzDate.startsWith(date)
  ) {
    return refuse(
      'AuthorizationHeaderMalformed',
      `The credential scope is malformed: ${parts.credential}`,
      400,
    );
  }
  const signedAt = amzDateMs(parts.amzDate);
  if (Number.isNaN(signedAt)) {
    return refuse('AccessDenied', `X-Amz-Date must be in the ISO 8601 basic format, got ${parts.amzDate}`);
  }
  if (parts.expires === undefined) {
    if (Math.abs(now.getTime() - signedAt) > MAX_SKEW_MS) {
      return refuse(
        'RequestTimeTooSkewed',
        "The difference between the request time and the server's time is too large.",
      );
    }
  } else {
    if (parts.expires > MAX_PRESIGN_SECONDS) {
      return refuse(
        'AuthorizationQueryParametersError',
        'X-Amz-Expires must be less than a week (in seconds) that is 604800',
        400,
      );
    }
    if (now.getTime() > signedAt + parts.expires * 1000) return refuse('AccessDenied', 'Request has expired');
    if (signedAt - now.getTime() > MAX_SKEW_MS) {
      return refuse('AccessDenied', 'Request is not valid yet');
    }
  }

  const signedHeaderNames = parts.signedHeaders.split(';');
  if (!signedHeaderNames.includes('host')) {
    return refuse('AccessDenied', 'The host header must be signed');
  }
  const headers = signedHeaderNames
    .map((name) => `${name}:${(headerValue(request.headers, name) ?? '').trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  const canonicalRequest = [
    request.method.toUpperCase(),
    path,
    canonicalQuery(parts.query),
    headers,
    parts.signedHeaders,
    parts.payloadHash,
  ].join('\n');
  const scope = `${date}/${region}/${service}/${terminal}`;
  const stringToSign = [
    ALGORITHM,
    parts.amzDate,
    scope,
    createHash('sha256').update(canonicalRequest, 'utf8').digest('hex'),
  ].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, date), region), service), terminal);
  const expected = hmac(key, stringToSign);
  const provided = Buffer.from(parts.signature, 'hex');
  if (provided.length !== expected.length || !timingSafeEqual(provided, expected)) {
    return refuse(
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    );
  }
  return undefined;
}

/** The XML error body S3 sends with a refusal. */
export function s3ErrorXml(refusal: S3Refusal, resource: string): string {
  const escape = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${refusal.code}</Code><Message>${escape(refusal.message)}</Message>` +
    `<Resource>${escape(resource)}</Resource></Error>`
  );
}
