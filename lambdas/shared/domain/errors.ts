/**
 * Errors that carry their HTTP status. Domain and store code throw these; one middleware
 * (lambdas/shared/http/api-handler.ts) turns them into `{ "error": "..." }` responses.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string): HttpError => new HttpError(400, message);
export const notFound = (message: string): HttpError => new HttpError(404, message);

/** A 400 naming where a schema check failed first (structurally typed: no zod import here). */
export function invalidBody(
  what: string,
  error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> },
): HttpError {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
  return badRequest(`Invalid ${what} at ${where}: ${issue?.message ?? 'invalid'}`);
}

export const messages = {
  packageNotFound: (name: string) =>
    `Package '${name}' not found: it has not been scanned. Request a scan with POST /v1/scan and the body ${JSON.stringify({ name })}`,
  versionNotFound: (name: string, version: string) =>
    `Version '${version}' of '${name}' not found: the package is known, but this version has not been scanned. Request a scan with POST /v1/scan and the body ${JSON.stringify({ name, version })}`,
  bulkEntryNotFound: (name: string, version: string | undefined) =>
    version === undefined
      ? `Package '${name}' not found: it has not been scanned (request a scan with POST /v1/scan)`
      : `Package '${name}' at '${version}' not found: it has not been scanned (request a scan with POST /v1/scan)`,
} as const;
