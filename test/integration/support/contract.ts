/**
 * Response checks shared by the integration tests. A body is validated twice: against the
 * committed OpenAPI document (test/support/openapi.ts, for every route it describes) and against
 * the contract's zod schemas (src/contract/schemas.ts), which also types the result.
 */
import {
  BulkResponse,
  ErrorBody,
  Health,
  PackageList,
  PackageResponse,
  ScanAck,
  ScanJob,
  UploadTicket,
} from '../../../src/contract/schemas';
import { ROUTES } from '../../../lambdas/routes';
import { expectMatchesOpenApi } from '../../support/openapi';
import type { ApiResponse } from './test-api';

const SCHEMAS = {
  Health,
  PackageResponse,
  PackageList,
  BulkResponse,
  ErrorBody,
  ScanAck,
  ScanJob,
  UploadTicket,
} as const;

export type SchemaName = keyof typeof SCHEMAS;

/** The route template a request path belongs to (literal segments before parameters). */
export function routeTemplate(method: string, path: string): string | undefined {
  const segments = (path.split('?')[0] ?? '').split('/').slice(1);
  const candidates = ROUTES.filter((route) => route.method === method.toUpperCase()).filter((route) => {
    const parts = route.path.split('/').slice(1);
    return (
      parts.length === segments.length &&
      parts.every((part, i) => (part.startsWith('{') ? (segments[i] ?? '') !== '' : part === segments[i]))
    );
  });
  // A literal route wins over a parameter one, as in API Gateway.
  return candidates.sort((a, b) => b.path.split('{').length - a.path.split('{').length).at(-1)?.path;
}

/**
 * Asserts the status, the JSON content type and that the body matches both the OpenAPI
 * document and the named schema; returns the parsed body.
 */
export function expectBody<N extends SchemaName>(
  response: ApiResponse,
  status: number,
  schema: N,
): ReturnType<(typeof SCHEMAS)[N]['parse']> {
  expect({ status: response.status, body: response.body }).toMatchObject({ status });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const template = routeTemplate(response.method, response.path);
  if (template !== undefined) expectMatchesOpenApi(response.method, template, response.status, response.body);
  const result = SCHEMAS[schema].safeParse(response.body);
  if (!result.success) {
    throw new Error(`Body does not match ${schema}: ${result.error.message}\n${response.text.slice(0, 500)}`);
  }
  return result.data as ReturnType<(typeof SCHEMAS)[N]['parse']>;
}

/** Every error is exactly `{ "error": "<message>" }` as JSON with the given status. */
export function expectError(response: ApiResponse, status: number, message?: RegExp): string {
  const body = expectBody(response, status, 'ErrorBody');
  expect(Object.keys(response.body as object)).toEqual(['error']);
  if (message) expect(body.error).toMatch(message);
  return body.error;
}
