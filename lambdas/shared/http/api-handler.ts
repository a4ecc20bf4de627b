/**
 * The one wrapper every API handler uses: structured logging with the Lambda context,
 * JSON responses, and the single place where errors become `{ "error": "..." }` bodies.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { HttpError } from '../domain/errors';

export const logger = new Logger({ serviceName: 'pkgscan-api' });

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

function errorResponses(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context> {
  return {
    onError: (request) => {
      const error = request.error;
      if (error instanceof HttpError) {
        if (error.statusCode >= 500) logger.error('Request failed', { error });
        request.response = json(error.statusCode, { error: error.message });
        return;
      }
      logger.error('Unhandled error', { error: error ?? undefined });
      request.response = json(500, {
        error: `Internal error; quote request id ${request.context.awsRequestId} when reporting it`,
      });
    },
  };
}

/** Wraps a handler body that returns a status and a JSON-serialisable body. */
export function apiHandler(
  fn: (event: APIGatewayProxyEvent, context: Context) => Promise<JsonResult>,
): ApiHandler {
  const wrapped = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>()
    .use(injectLambdaContext(logger))
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
