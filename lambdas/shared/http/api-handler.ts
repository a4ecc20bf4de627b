/**
 * The one wrapper every API handler uses: structured logging with the Lambda context and
 * API Gateway's request id, JSON responses, and the single place where errors become
 * `{ "error": "..." }` bodies.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { HttpError } from '../domain/errors';

/** Parent of the per-invocation loggers; handlers log through `requestLogger`. */
const baseLogger = new Logger();
/**
 * Set by the function construct (lambdas/shared/observability.ts). The local service runs every
 * function in one process without it; there the invoked function's name is the service name.
 */
const configuredServiceName = process.env.POWERTOOLS_SERVICE_NAME;

export interface JsonResult {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

export type ApiHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

const BASE_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  // Every route is a public read or a public request; no credentials are ever involved.
  'access-control-allow-origin': '*',
} as const;

export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): APIGatewayProxyResult {
  return { statusCode: status, headers: { ...BASE_HEADERS, ...headers }, body: JSON.stringify(body) };
}

/**
 * The id a client quotes: API Gateway's request id, the one its access log and its own error
 * responses carry (lib/constructs/api.ts). A direct invocation without one falls back to Lambda's.
 */
export function requestIdOf(event: APIGatewayProxyEvent, context: Context): string {
  const id: unknown = (event.requestContext as { requestId?: unknown } | null | undefined)?.requestId;
  return typeof id === 'string' && id !== '' ? id : context.awsRequestId;
}

/**
 * One logger per invocation, so that concurrent invocations in one process (the local service)
 * never log each other's context: the function's service name, its Lambda context, and API
 * Gateway's request id as the correlation id.
 */
function invocationLogger(event: APIGatewayProxyEvent, context: Context): Logger {
  const log = baseLogger.createChild({ serviceName: configuredServiceName ?? context.functionName });
  log.addContext(context);
  log.setCorrelationId(requestIdOf(event, context));
  return log;
}

const loggers = new WeakMap<Context, Logger>();

/** The logger of the invocation `context` belongs to. */
export function requestLogger(context: Context): Logger {
  return loggers.get(context) ?? baseLogger;
}

function invocationLogging(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context> {
  return {
    before: (request) => {
      loggers.set(request.context, invocationLogger(request.event, request.context));
    },
  };
}

function errorResponses(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context> {
  return {
    onError: (request) => {
      const error = request.error;
      const log = requestLogger(request.context);
      if (error instanceof HttpError) {
        if (error.statusCode >= 500) log.error('Request failed', { error });
        request.response = json(error.statusCode, { error: error.message });
        return;
      }
      log.error('Unhandled error', { error: error ?? undefined });
      const requestId = requestIdOf(request.event, request.context);
      request.response = json(500, {
        error: `Internal error; quote request id ${requestId} when reporting it`,
      });
    },
  };
}

/** Wraps a handler body that returns a status and a JSON-serialisable body. */
export function apiHandler(
  fn: (event: APIGatewayProxyEvent, context: Context) => Promise<JsonResult>,
): ApiHandler {
  const wrapped = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>()
    .use(invocationLogging())
    .use(errorResponses())
    .handler(async (event, context) => {
      const result = await fn(event, context);
      return json(result.status, result.body, result.headers);
    });
  return (event, context) => wrapped(event, context);
}

/** Parses a JSON request body; any content type is accepted (curl's default form type included). */
export function jsonBody(event: APIGatewayProxyEvent): unknown {
  if (event.body === null || event.body === '') throw new HttpError(400, 'Request body is required');
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Request body is not valid JSON');
  }
}
