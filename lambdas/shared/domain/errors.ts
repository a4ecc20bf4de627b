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
  packageNotFound: (name: string) => `Package '${name}' has not been scanned`,
  versionNotFound: (name: string, version: string) =>
    `Package '${name}' is known, but version '${version}' has not been scanned`,
  bulkEntryNotFound: (name: string, version: string | undefined) =>
    version === undefined
      ? `Package '${name}' has not been scanned`
      : `Package '${name}' at '${version}' has not been scanned`,
} as const;
