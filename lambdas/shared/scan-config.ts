/** Limits of the scan API, configurable through the environment (docs in README). */
function numberEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`Environment variable ${name} must be a positive number`);
  return value;
}

export const scanConfig = {
  /** Raw tarball bytes accepted inline: API Gateway/Lambda payloads cap a base64 body near 6 MB. */
  maxInlineUploadBytes: numberEnv('MAX_INLINE_UPLOAD_BYTES', 4 * 1024 * 1024),
  /** Tarball bytes accepted through a presigned upload and from the registry. */
  maxTarballBytes: numberEnv('MAX_TARBALL_BYTES', 64 * 1024 * 1024),
  /** Lifetime of a presigned upload URL. */
  uploadUrlSeconds: numberEnv('UPLOAD_URL_SECONDS', 900),
  /** Scanner functions working in parallel (its reserved concurrency), for estimates. */
  scannerConcurrency: numberEnv('SCANNER_CONCURRENCY', 4),
  /** A queued job older than this is reported failed: its message was lost (queue retention is 4 days). */
  staleQueuedSeconds: numberEnv('STALE_QUEUED_SECONDS', 4 * 86_400),
  /**
   * A running job not updated for this long is reported failed: its last attempt died without
   * reporting (the stack sets it to the receive count times the visibility timeout, plus a margin).
   */
  staleRunningSeconds: numberEnv('STALE_RUNNING_SECONDS', 2 * 3_600),
} as const;
