/**
 * Property-based fuzzing of every route of the local API (the real handlers behind the local API
 * Gateway adapter, on the local stand-ins), over raw HTTP so nothing normalises the input first:
 * random paths built on the routes (percent-encoded or not, over-long, lone surrogates, `..`),
 * query strings and header names that are prototype keys, JSON bodies with wrong types, deep
 * nesting, huge strings and `__proto__`/`constructor` keys, multipart bodies, raw bytes.
 *
 * Properties: no 5xx; every error is `application/json` with `{ "error": string }`; every answer
 * comes within a few seconds. Bounded by run count and time (fast-check's interruptAfterTimeLimit).
 */
import { connect } from 'node:net';
import fc from 'fast-check';
import { ROUTES } from '../../lambdas/routes';
import { startPipeline, type TestPipeline } from './support/pipeline';

jest.setTimeout(120_000);

let pipeline: TestPipeline;
let port: number;

beforeAll(async () => {
  pipeline = await startPipeline();
  port = Number(new URL(pipeline.api.url).port);
});
afterAll(async () => {
  await pipeline?.stop();
});

interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
  ms: number;
}

/** One HTTP/1.1 request written byte for byte on a socket; the answer read until the server closes. */
function raw(method: string, path: string, headers: [string, string][], body: Buffer): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () =>
      socket.destroy(new Error(`no answer within 10 s: ${method} ${path.slice(0, 80)}`)),
    );
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      const head = all.subarray(0, split < 0 ? all.length : split).toString('latin1');
      const [statusLine, ...lines] = head.split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0);
      const map = new Map<string, string>();
      for (const l of lines) {
        const i = l.indexOf(':');
        if (i > 0) map.set(l.slice(0, i).trim().toLowerCase(), l.slice(i + 1).trim());
      }
      resolve({
        status,
        headers: map,
        body: split < 0 ? Buffer.alloc(0) : all.subarray(split + 4),
        ms: performance.now() - started,
      });
    });
    const head = [
      `${method} ${path} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      'Connection: close',
      ...headers.map(([k, v]) => `${k}: ${v}`),
      `Content-Length: ${body.length}`,
      '',
      '',
    ].join('\r\n');
    socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  });
}

const PROTO_KEYS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype'];

/** Text that may hold anything: ASCII, any code point, lone surrogates, control characters. */
const anyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    ...PROTO_KEYS,
    '..',
    '%',
    '%zz',
    '%ED%A0%80',
    '\uD800',
    'react',
    '@scope/pkg',
    'a'.repeat(3000),
  ),
);

/** A path segment: encoded as a client would, left raw (only bytes HTTP allows), or garbage. */
const segment = fc.tuple(anyText, fc.constantFrom('encoded', 'raw', 'double')).map(([text, how]) => {
  let s: string;
  try {
    s = how === 'raw' ? text : encodeURIComponent(text);
  } catch {
    s = '%ED%A0%80'; // a lone surrogate as the bytes a client would send
  }
  if (how === 'double') s = encodeURIComponent(s);
  return s.replace(/[^\x21-\x7e]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').slice(-2)}`);
});

const path = fc.oneof(
  // A route with its {params} filled.
  fc
    .tuple(fc.constantFrom(...ROUTES.map((r) => r.path)), fc.array(segment, { minLength: 2, maxLength: 2 }))
    .map(([template, values]) => {
      let i = 0;
      return template.replace(/\{[^}]+\}/g, () => values[i++ % values.length]!);
    }),
  // Something under the API's prefixes.
  fc.array(segment, { maxLength: 5 }).map((parts) => `/v1/${parts.join('/')}`),
  fc.constantFrom('/', '/health', '/v1', '//', '/v1/packages/', '/v1/scan/upload-url'),
);

const query = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom('limit', 'offset', 'q', ...PROTO_KEYS), anyText), anyText), {
    maxLength: 4,
  })
  .map((pairs) => {
    if (pairs.length === 0) return '';
    const enc = (s: string) => {
      try {
        return encodeURIComponent(s);
      } catch {
        return '%ED%A0%80';
      }
    };
    return `?${pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')}`;
  });

/** JSON values that are deep, huge or shaped against the handlers' expectations. */
const jsonBody = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc
    .record({ name: anyText, version: fc.oneof(anyText, fc.integer(), fc.constant(null)) })
    .map((o) => JSON.stringify(o)),
  fc
    .array(fc.record({ name: fc.oneof(anyText, fc.integer()), version: fc.option(anyText) }), {
      maxLength: 120,
    })
    .map((packages) => JSON.stringify({ packages })),
  fc.constantFrom(...PROTO_KEYS).map((k) => `{"${k}": {"name": "react"}, "packages": {"${k}": 1}}`),
  fc.integer({ min: 100, max: 5000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.integer({ min: 1, max: 3 }).map((n) => JSON.stringify({ name: 'x'.repeat(n * 200_000) })),
  fc.constantFrom('', 'null', '"just a string"', '{', '{"name":', '\u0000\u0001binary'),
);

const multipart = fc
  .tuple(
    fc.array(fc.constantFrom('tarball', 'file', '__proto__', 'name'), { minLength: 0, maxLength: 3 }),
    fc.uint8Array({ maxLength: 64 }),
    fc.boolean(),
  )
  .map(([fields, bytes, closed]) => {
    const boundary = 'fuzzboundary';
    const parts = fields.map(
      (f) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${f}"; filename="p.tgz"\r\nContent-Type: application/gzip\r\n\r\n${Buffer.from([0x1f, 0x8b, ...bytes]).toString('latin1')}\r\n`,
    );
    return {
      type: `multipart/form-data; boundary=${boundary}`,
      body: Buffer.from(`${parts.join('')}${closed ? `--${boundary}--\r\n` : ''}`, 'latin1'),
    };
  });

/** A route's own method with its {params} filled: the handlers themselves get the input. */
const routed = fc
  .tuple(fc.constantFrom(...ROUTES), fc.array(segment, { minLength: 2, maxLength: 2 }))
  .map(([route, values]) => {
    let i = 0;
    return {
      method: route.method as string,
      path: route.path.replace(/\{[^}]+\}/g, () => values[i++ % values.length]!),
    };
  });

const target = fc.oneof(
  { weight: 3, arbitrary: routed },
  {
    weight: 2,
    arbitrary: fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH'),
      path,
    }),
  },
);

const request = fc.record({
  target,
  query,
  headers: fc.array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(...PROTO_KEYS, 'X-Test', 'Accept'),
        fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/),
      ),
      fc.stringMatching(/^[\x20-\x7e]{0,60}$/),
    ),
    { maxLength: 3 },
  ),
  payload: fc.oneof(
    jsonBody.map((body) => ({ type: 'application/json', body: Buffer.from(body) })),
    multipart,
    fc
      .uint8Array({ maxLength: 256 })
      .map((b) => ({ type: 'application/octet-stream', body: Buffer.from(b) })),
  ),
});

it('no 5xx, JSON errors and prompt answers on every route, whatever the input', async () => {
  const slow: string[] = [];
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(request, async ({ target: { method, path: p }, ...rest }) => {
      const r = { method, path: p, ...rest };
      const withBody = r.method !== 'GET' && r.method !== 'HEAD';
      const headers: [string, string][] = [...r.headers];
      if (withBody) headers.push(['Content-Type', r.payload.type]);
      const answer = await raw(
        r.method,
        `${r.path}${r.query}`,
        headers,
        withBody ? r.payload.body : Buffer.alloc(0),
      );
      const where = `${r.method} ${r.path.slice(0, 120)}${r.query.slice(0, 60)} → ${answer.status}`;
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.ms > 5_000) slow.push(`${where} (${Math.round(answer.ms)} ms)`);
      if (answer.status < 100 || answer.status >= 500)
        throw new Error(`server error: ${where}: ${answer.body.toString('utf8').slice(0, 200)}`);
      if (answer.status >= 400 && r.method !== 'HEAD') {
        expect({
          where,
          json: /^application\/json\b/.test(answer.headers.get('content-type') ?? ''),
        }).toEqual({
          where,
          json: true,
        });
        const parsed = JSON.parse(answer.body.toString('utf8')) as { error?: unknown };
        expect(typeof parsed.error).toBe('string');
        // An error quotes at most a short prefix of what was sent.
        expect((parsed.error as string).length).toBeLessThan(600);
      }
    }),
    { numRuns: 2500, interruptAfterTimeLimit: 60_000, seed: 20261125, endOnFailure: true },
  );
  expect(slow).toEqual([]);
  // The run covered the API, not only its 404s: successes, client errors and rejections all seen.
  const runs = [...statuses.values()].reduce((a, b) => a + b, 0);
  expect(runs).toBeGreaterThanOrEqual(1000);
  for (const status of [200, 400, 404, 405]) expect(statuses.get(status) ?? 0).toBeGreaterThan(0);
  process.stdout.write(`fuzz: ${runs} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}\n`);
});

it('a 3,000-character package name in the path is a 400 that quotes only its start', async () => {
  const answer = await raw('GET', `/v1/packages/${'a'.repeat(3000)}`, [], Buffer.alloc(0));
  expect(answer.status).toBe(400);
  const { error } = JSON.parse(answer.body.toString('utf8')) as { error: string };
  expect(error).toMatch(/longer than 214 characters/);
  expect(error.length).toBeLessThan(200);
});

it('requests Node refuses to parse get a JSON error too', async () => {
  const bad = await raw('GET', '/health', [['Bad Header', 'x']], Buffer.alloc(0));
  expect(bad.status).toBe(400);
  expect(bad.headers.get('content-type')).toBe('application/json');
  const huge = await raw('GET', '/health', [['X-Big', 'y'.repeat(70_000)]], Buffer.alloc(0));
  expect(huge.status).toBe(431);
  expect(JSON.parse(huge.body.toString('utf8'))).toEqual({ error: 'Request headers too large' });
});
