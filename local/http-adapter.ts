/**
 * A small HTTP server that plays API Gateway (REST API, Lambda proxy integration, payload v1)
 * in front of the real handlers: it matches ROUTES like API Gateway's resource tree, builds the
 * proxy event and a Lambda context, calls the handler and writes its result back.
 *
 * What it mirrors of API Gateway REST (checked against captured events of a live REST API):
 * - `path` and `pathParameters` keep the percent-encoding the client sent (`%40scope%2Fname`
 *   arrives as is; an encoded `%2F` does not split a path segment). Handlers decode.
 * - Query parameters are decoded (`+` is a space, `%2B` a plus); `queryStringParameters` holds
 *   the last value of a repeated parameter, `multiValueQueryStringParameters` all of them;
 *   both are `null` when there is no query string. Headers likewise (`headers` keeps the last
 *   value, names keep the client's case).
 * - `body` is `null` when empty, base64 with `isBase64Encoded: true` for binary media types.
 * - Gateway-made errors are JSON `{ "error": ... }` (the stack's gateway responses do the same):
 *   unknown path or method 404, body over 10 MB 413, a handler that throws 500 naming the
 *   request id, a malformed handler result 502, a handler slower than the timeout 504.
 * - Routes with `cors: true` answer the OPTIONS preflight like the stack's mock integration.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { tooLargeMessage } from '../lambdas/shared/http/multipart';
import { serviceNameOf } from '../lambdas/shared/observability';
import {
  BINARY_MEDIA_TYPES,
  CORS_PREFLIGHT,
  ROUTES,
  UNKNOWN_ROUTE_MESSAGE,
  type RouteSpec,
} from '../lambdas/routes';
import { LOCAL_ACCOUNT as ACCOUNT_ID, lambdaContext } from './lambda-context';

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** API Gateway's maximum request payload. */
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024;
/** Lambda's maximum synchronous invocation payload (the whole event, as JSON). */
export const MAX_EVENT_BYTES = 6 * 1024 * 1024;

const API_ID = 'localapi00';

export interface HttpAdapterOptions {
  /** @default ROUTES */
  readonly routes?: readonly RouteSpec[];
  /** Loads a handler module by its file name under lambdas/handlers/. @default dynamic import */
  readonly loadHandler?: (name: string) => Promise<ProxyHandler>;
  /** Stage name in requestContext. @default 'local' */
  readonly stage?: string;
  /** @default BINARY_MEDIA_TYPES (lambdas/routes.ts, as the stack) */
  readonly binaryMediaTypes?: readonly string[];
  /** Lambda timeout; a slower handler gets 504. @default 29000 (API Gateway's integration limit) */
  readonly timeoutMs?: number;
  /** Lambda memory reported by the context. @default '512' */
  readonly memoryLimitInMB?: string;
  /** One line per request when given. */
  readonly accessLog?: (line: string) => void;
  /** Handler errors and other diagnostics. @default console.error */
  readonly errorLog?: (line: string, error?: unknown) => void;
}

export interface ApiServer {
  readonly server: Server;
  /** Loads every handler now; returns the names that failed to load (they answer 500). */
  preload(): Promise<Array<{ handler: string; error: unknown }>>;
  /** Starts listening; returns the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

async function importHandler(name: string): Promise<ProxyHandler> {
  const module = (await import(`../lambdas/handlers/${name}`)) as { handler?: unknown };
  if (typeof module.handler !== 'function') {
    throw new Error(`lambdas/handlers/${name} does not export a handler function`);
  }
  return module.handler as ProxyHandler;
}

// ---------------------------------------------------------------------------------------------
// Resource tree

interface ResourceNode {
  readonly literals: Map<string, ResourceNode>;
  param?: { readonly name: string; readonly node: ResourceNode };
  readonly methods: Map<string, RouteSpec>;
  resourcePath: string;
}

function newNode(resourcePath: string): ResourceNode {
  return { literals: new Map(), methods: new Map(), resourcePath };
}

function buildTree(routes: readonly RouteSpec[]): ResourceNode {
  const root = newNode('/');
  for (const route of routes) {
    let node = root;
    const segments = route.path.split('/').filter(Boolean);
    let resourcePath = '';
    for (const segment of segments) {
      resourcePath += `/${segment}`;
      const param = /^\{([A-Za-z0-9_]+)\}$/.exec(segment)?.[1];
      if (param) {
        if (node.param && node.param.name !== param) {
          throw new Error(`Conflicting path parameters {${node.param.name}} and {${param}} in ${route.path}`);
        }
        node.param ??= { name: param, node: newNode(resourcePath) };
        node = node.param.node;
      } else {
        let next = node.literals.get(segment);
        if (!next) {
          next = newNode(resourcePath);
          node.literals.set(segment, next);
        }
        node = next;
      }
    }
    if (node.methods.has(route.method)) throw new Error(`Duplicate route ${route.method} ${route.path}`);
    node.methods.set(route.method, route);
  }
  return root;
}

interface ResourceMatch {
  readonly node: ResourceNode;
  readonly params: Record<string, string>;
}

/** Literal segments win over a `{param}` sibling, as in API Gateway; backtracks when needed. */
function matchResource(
  node: ResourceNode,
  segments: readonly string[],
  index = 0,
): ResourceMatch | undefined {
  if (index === segments.length) return { node, params: {} };
  const segment = segments[index] ?? '';
  if (segment === '') return undefined;
  const literal = node.literals.get(segment);
  if (literal) {
    const found = matchResource(literal, segments, index + 1);
    if (found) return found;
  }
  if (node.param) {
    const found = matchResource(node.param.node, segments, index + 1);
    if (found) return { node: found.node, params: { ...found.params, [node.param.name]: segment } };
  }
  return undefined;
}

/** Splits a raw (still percent-encoded) path into segments; one trailing slash is ignored. */
function pathSegments(rawPath: string): string[] {
  const trimmed = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
  return trimmed === '/' ? [] : trimmed.slice(1).split('/');
}

// ---------------------------------------------------------------------------------------------
// Event and context

/** Sets an own property whatever its name (`constructor`, `__proto__` and `toString` included). */
function setOwn<T>(o: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

function multiMap(pairs: Iterable<[string, string]>): {
  single: Record<string, string>;
  multi: Record<string, string[]>;
} | null {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  let any = false;
  for (const [key, value] of pairs) {
    any = true;
    setOwn(single, key, value);
    if (Object.prototype.hasOwnProperty.call(multi, key)) multi[key]!.push(value);
    else setOwn(multi, key, [value]);
  }
  return any ? { single, multi } : null;
}

function headerPairs(req: IncomingMessage): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    pairs.push([req.rawHeaders[i] ?? '', req.rawHeaders[i + 1] ?? '']);
  }
  return pairs;
}

function hasHeader(pairs: ReadonlyArray<[string, string]>, name: string): boolean {
  const lower = name.toLowerCase();
  return pairs.some(([key]) => key.toLowerCase() === lower);
}

function traceId(): string {
  return `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomBytes(12).toString('hex')}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** API Gateway's requestTime format: `10/Jul/2026:19:19:04 +0000`. */
function requestTime(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return (
    `${pad(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`
  );
}

function isBinary(contentType: string | undefined, binaryMediaTypes: readonly string[]): boolean {
  if (!contentType) return false;
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return binaryMediaTypes.some((pattern) => {
    const p = pattern.toLowerCase();
    if (p === '*/*') return true;
    if (p.endsWith('/*')) return type.startsWith(p.slice(0, -1));
    return type === p;
  });
}

// ---------------------------------------------------------------------------------------------
// Server

class GatewayError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** Reads the body, refusing more than `limit` bytes (by Content-Length or as it streams in). */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (Number.isFinite(declared) && declared > limit) {
    throw new GatewayError(413, tooLargeMessage(limit));
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) throw new GatewayError(413, tooLargeMessage(limit));
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

export function createApiServer(options: HttpAdapterOptions = {}): ApiServer {
  const routes = options.routes ?? ROUTES;
  const tree = buildTree(routes);
  const load = options.loadHandler ?? importHandler;
  const stage = options.stage ?? 'local';
  const binaryMediaTypes = options.binaryMediaTypes ?? BINARY_MEDIA_TYPES;
  const timeoutMs = options.timeoutMs ?? 29_000;
  const memoryLimitInMB = options.memoryLimitInMB ?? '512';
  const errorLog = options.errorLog ?? ((line: string, error?: unknown) => console.error(line, error ?? ''));

  // Each handler module is imported once, on first use or by preload().
  const loaded = new Map<string, Promise<ProxyHandler>>();
  const handlerFor = (name: string): Promise<ProxyHandler> => {
    let promise = loaded.get(name);
    if (!promise) {
      promise = load(name);
      loaded.set(name, promise);
    }
    return promise;
  };

  const sendJson = (
    res: ServerResponse,
    statusCode: number,
    body: unknown,
    requestId: string,
    extra: Record<string, string> = {},
  ): void => {
    const text = JSON.stringify(body);
    res.writeHead(statusCode, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(text),
      'Access-Control-Allow-Origin': '*',
      'x-amzn-RequestId': requestId,
      ...extra,
    });
    res.end(text);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    const requestId = randomUUID();
    const started = new Date();
    const rawUrl = req.url ?? '/';
    const queryAt = rawUrl.indexOf('?');
    const rawPath = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
    const rawQuery = queryAt === -1 ? '' : rawUrl.slice(queryAt + 1);
    const method = (req.method ?? 'GET').toUpperCase();

    const match = rawPath.startsWith('/') ? matchResource(tree, pathSegments(rawPath)) : undefined;
    // HEAD is answered as GET without the body, as API Gateway does for GET methods.
    const route =
      match?.node.methods.get(method) ?? (method === 'HEAD' ? match?.node.methods.get('GET') : undefined);

    if (match && !route && method === 'OPTIONS') {
      const corsRoutes = [...match.node.methods.values()].filter((r) => r.cors);
      if (corsRoutes.length > 0) {
        req.resume();
        res.writeHead(204, {
          'Access-Control-Allow-Origin': '*',
          'Access-Control-Allow-Methods': [...corsRoutes.map((r) => r.method), 'OPTIONS'].join(','),
          'Access-Control-Allow-Headers': CORS_PREFLIGHT.allowHeaders.join(','),
          'Access-Control-Max-Age': String(CORS_PREFLIGHT.maxAgeSeconds),
          'x-amzn-RequestId': requestId,
        });
        res.end();
        return 204;
      }
    }
    if (match && !route && match.node.methods.size > 0) {
      // The resource exists, the method does not: 405 with the methods it has.
      req.resume();
      const allowed = [...match.node.methods.keys()];
      if (allowed.includes('GET')) allowed.push('HEAD');
      sendJson(
        res,
        405,
        { error: `Method ${method.slice(0, 20)} is not allowed here; allowed: ${allowed.join(', ')}` },
        requestId,
        { Allow: allowed.join(', ') },
      );
      return 405;
    }
    if (!match || !route) {
      req.resume();
      sendJson(res, 404, { error: UNKNOWN_ROUTE_MESSAGE }, requestId);
      return 404;
    }

    let body: Buffer;
    try {
      body = await readBody(req, MAX_REQUEST_BYTES);
    } catch (error) {
      if (error instanceof GatewayError) {
        // Stop reading an oversized upload: answer, then close the connection.
        sendJson(res, error.statusCode, { error: error.message }, requestId, { Connection: 'close' });
        res.on('finish', () => req.destroy());
        return error.statusCode;
      }
      throw error;
    }

    const headers = headerPairs(req);
    const sourceIp = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
    const gatewayHeaders: Array<[string, string]> = [
      ['X-Amzn-Trace-Id', traceId()],
      ['X-Forwarded-For', sourceIp],
      ['X-Forwarded-Port', String(req.socket.localPort ?? '')],
      ['X-Forwarded-Proto', 'http'],
    ];
    for (const header of gatewayHeaders) if (!hasHeader(headers, header[0])) headers.push(header);
    const headerMaps = multiMap(headers) ?? { single: {}, multi: {} };
    const queryMaps = rawQuery === '' ? null : multiMap(new URLSearchParams(rawQuery).entries());
    const contentType = req.headers['content-type'];
    const binary = body.length > 0 && isBinary(contentType, binaryMediaTypes);

    const event: APIGatewayProxyEvent = {
      resource: route.path,
      path: rawPath,
      httpMethod: method,
      headers: headerMaps.single,
      multiValueHeaders: headerMaps.multi,
      queryStringParameters: queryMaps?.single ?? null,
      multiValueQueryStringParameters: queryMaps?.multi ?? null,
      pathParameters: Object.keys(match.params).length > 0 ? match.params : null,
      stageVariables: null,
      requestContext: {
        accountId: ACCOUNT_ID,
        apiId: API_ID,
        authorizer: null,
        domainName: req.headers.host ?? 'localhost',
        domainPrefix: (req.headers.host ?? 'localhost').split('.')[0],
        extendedRequestId: randomBytes(12).toString('base64url').slice(0, 16),
        httpMethod: method,
        identity: {
          accessKey: null,
          accountId: null,
          apiKey: null,
          apiKeyId: null,
          caller: null,
          clientCert: null,
          cognitoAuthenticationProvider: null,
          cognitoAuthenticationType: null,
          cognitoIdentityId: null,
          cognitoIdentityPoolId: null,
          principalOrgId: null,
          sourceIp,
          user: null,
          userAgent: req.headers['user-agent'] ?? null,
          userArn: null,
        },
        path: `/${stage}${rawPath}`,
        protocol: `HTTP/${req.httpVersion}`,
        requestId,
        requestTime: requestTime(started),
        requestTimeEpoch: started.getTime(),
        resourceId:
          route.path
            .replace(/[^a-z0-9]/gi, '')
            .slice(-6)
            .toLowerCase() || 'root00',
        resourcePath: route.path,
        stage,
      },
      body: body.length === 0 ? null : binary ? body.toString('base64') : body.toString('utf8'),
      isBase64Encoded: binary,
    };

    if (Buffer.byteLength(JSON.stringify(event)) > MAX_EVENT_BYTES) {
      sendJson(res, 413, { error: tooLargeMessage(MAX_EVENT_BYTES) }, requestId);
      return 413;
    }

    const functionName = serviceNameOf(route.handler);
    let result: APIGatewayProxyResult;
    try {
      const handler = await handlerFor(route.handler);
      const context = lambdaContext(functionName, memoryLimitInMB, timeoutMs);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new GatewayError(504, 'Endpoint request timed out')), timeoutMs);
      });
      try {
        result = await Promise.race([handler(event, context), timeout]);
      } finally {
        clearTimeout(timer);
      }
    } catch (error) {
      if (error instanceof GatewayError) {
        errorLog(`[${requestId}] ${functionName}: ${error.message}`);
        sendJson(res, error.statusCode, { error: `${error.message} (request id ${requestId})` }, requestId);
        return error.statusCode;
      }
      errorLog(`[${requestId}] ${functionName} failed`, error);
      sendJson(res, 500, { error: `Internal server error (request id ${requestId})` }, requestId);
      return 500;
    }

    if (
      typeof result !== 'object' ||
      result === null ||
      typeof result.statusCode !== 'number' ||
      (result.body !== undefined && result.body !== null && typeof result.body !== 'string')
    ) {
      errorLog(`[${requestId}] ${functionName} returned a malformed proxy result`, result);
      sendJson(res, 502, { error: `Malformed Lambda proxy response (request id ${requestId})` }, requestId);
      return 502;
    }

    const out = new Map<string, { name: string; values: string[] }>();
    for (const [name, value] of Object.entries(result.headers ?? {})) {
      out.set(name.toLowerCase(), { name, values: [String(value)] });
    }
    for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) {
      out.set(name.toLowerCase(), { name, values: values.map(String) });
    }
    if (!out.has('content-type'))
      out.set('content-type', { name: 'Content-Type', values: ['application/json'] });
    out.set('x-amzn-requestid', { name: 'x-amzn-RequestId', values: [requestId] });
    const payload =
      typeof result.body === 'string'
        ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8')
        : Buffer.alloc(0);
    out.set('content-length', { name: 'Content-Length', values: [String(payload.length)] });
    for (const { name, values } of out.values())
      res.setHeader(name, values.length === 1 ? (values[0] ?? '') : values);
    res.writeHead(result.statusCode);
    res.end(method === 'HEAD' ? undefined : payload);
    return result.statusCode;
  };

  const server = createServer((req, res) => {
    const started = process.hrtime.bigint();
    handle(req, res)
      .then((status) => {
        if (options.accessLog) {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          options.accessLog(`${req.method} ${req.url} ${status} ${ms.toFixed(1)} ms`);
        }
      })
      .catch((error: unknown) => {
        errorLog('local API server: unexpected error', error);
        if (!res.headersSent) sendJson(res, 500, { error: 'Internal server error' }, 'local');
        else res.destroy();
      });
  });

  // Requests Node's HTTP parser refuses (malformed headers, headers over its size limit) get a
  // JSON error like every other answer, not an empty reply.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const text = JSON.stringify({
      error: tooLarge ? 'Request headers too large' : 'Malformed HTTP request',
    });
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  });

  return {
    server,
    async preload() {
      const names = [...new Set(routes.map((route) => route.handler))];
      const failures: Array<{ handler: string; error: unknown }> = [];
      await Promise.all(
        names.map((name) =>
          handlerFor(name).catch((error: unknown) => {
            failures.push({ handler: name, error });
          }),
        ),
      );
      return failures;
    },
    async listen(port = 0, host = '127.0.0.1') {
      await new Promise<void>((done, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          done();
        });
      });
      const address = server.address() as AddressInfo;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      return `http://${shownHost}:${address.port}`;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
