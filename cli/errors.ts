/** The client's error kinds, each tied to one documented exit code. */

export const EXIT = {
  passed: 0,
  violation: 1,
  usage: 2,
  service: 3,
} as const;

/** Bad arguments, a bad config file, an unreadable or unsupported lockfile: exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly exitCode = EXIT.usage;
}

/** The service could not be reached or kept failing after retries: exit 3. */
export class ServiceError extends Error {
  override readonly name: string = 'ServiceError';
  readonly exitCode = EXIT.service;
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The pkgscan API itself failed (as opposed to the registry or npm): exit 3, with a hint. */
export class ApiError extends ServiceError {
  override readonly name = 'ApiError';
}
