/**
 * The service's public HTTP API as the client uses it: bulk lookups, scan requests and scan job
 * follow-up. Every request goes through one retry loop (429 and 5xx with exponential backoff,
 * full jitter and Retry-After; network errors and timeouts the same way) and is counted.
 * Answers are validated leniently: fields the client relies on must be there, new fields are fine.
 */
import * as z from 'zod';
import { ApiError } from './errors';

const looseString = z.string();

export const PackageResult = z.looseObject({
  name: z.string(),
  version: z.string(),
  registry: z.string().optional(),
  risk_level: z.enum(['clean', 'warning', 'critical']),
  risk_reasons: z.array(looseString),
  trust_score: z.number(),
  publisher: z.looseObject({ name: z.string(), verified: z.boolean() }).optional(),
  weekly_downloads: z.number().optional(),
  install_scripts: z.record(z.string(), z.boolean()).optional(),
  cves: z.array(
    z.looseObject({
      cve_id: z.string(),
      severity: z.string(),
      description: z.string().optional(),
      fixed_in: z.string().optional(),
    }),
  ),
  advisories: z
    .array(
      z.looseObject({
        id: z.string(),
        aliases: z.array(z.string()),
        severity: z.string(),
        summary: z.string(),
        fixed_in: z.string(),
        url: z.string().optional(),
      }),
    )
    .optional(),
  agentic_threats: z.array(
    z.looseObject({
      threat_type: z.string(),
      confidence: z.number(),
      location: z.string().optional(),
      snippet: z.string().optional(),
    }),
  ),
  capabilities: z
    .looseObject({
      network: z.looseObject({ makes_requests: z.boolean(), domains: z.array(z.string()) }).optional(),
      process: z.looseObject({ spawns_children: z.boolean(), commands: z.array(z.string()) }).optional(),
      native: z.looseObject({ has_native: z.boolean(), native_modules: z.array(z.string()) }).optional(),
    })
    .optional(),
  install_time: z
    .looseObject({
      scripts: z.array(z.looseObject({ name: z.string(), command: z.string() })),
      makes_requests: z.boolean(),
      domains: z.array(z.string()),
      spawns_children: z.boolean(),
      commands: z.array(z.string()),
    })
    .optional(),
  published_at: z.string().nullable().optional(),
  scanned_at: z.string().optional(),
});
export type PackageResult = z.infer<typeof PackageResult>;

const BulkNotFound = z.looseObject({ name: z.string(), version: z.string(), error: z.string() });
const BulkAnswer = z.array(z.union([PackageResult, BulkNotFound]));
const ScanAck = z.looseObject({ job_id: z.string().min(1), estimated_seconds: z.number() });
export type ScanAck = z.infer<typeof ScanAck>;
export const ScanJob = z.looseObject({
  job_id: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'failed']),
  error: z.string().optional(),
  result: PackageResult.optional(),
});
export type ScanJob = z.infer<typeof ScanJob>;

export const BULK_CHUNK = 100;

export interface PackageRef {
  readonly name: string;
  readonly version: string;
}

export type BulkItem = { found: true; result: PackageResult } | { found: false; error: string };

export interface ApiOptions {
  readonly baseUrl: string;
  /** Per-request time limit. */
  readonly timeoutMs: number;
  /** Retries after the first attempt for 429, 5xx, timeouts and network errors. */
  readonly retries: number;
  /** Requests in flight at once. */
  readonly concurrency: number;
  readonly retryBaseMs?: number;
  readonly retryMaxMs?: number;
  /** Longest Retry-After honoured; longer values are cut to it. */
  readonly retryAfterMaxMs?: number;
  readonly userAgent?: string;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  /** Called before each retry: what failed and how long the client waits. */
  readonly onRetry?: (info: { method: string; path: string; reason: string; delayMs: number }) => void;
}

export const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `fn` over `items` with at most `limit` calls in flight; results keep the input order. */
export async function mapPool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/** Milliseconds to wait from a Retry-After header (seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

export class ApiClient {
  /** HTTP requests sent, retries included. */
  requests = 0;
  retries = 0;
  private readonly base: string;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;

  constructor(private readonly opts: ApiOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.sleep = opts.sleep ?? defaultSleep;
    this.random = opts.random ?? Math.random;
  }

  private backoff(attempt: number): number {
    const cap = Math.min(this.opts.retryMaxMs ?? 10_000, (this.opts.retryBaseMs ?? 500) * 2 ** attempt);
    return Math.round(cap * this.random());
  }

  private async request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
    const url = `${this.base}${path}`;
    for (let attempt = 0; ; attempt++) {
      this.requests++;
      let reason: string;
      let delayMs: number;
      try {
        const res = await fetch(url, {
          method,
          headers: {
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            'user-agent': this.opts.userAgent ?? 'pkgscan-cli',
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(this.opts.timeoutMs),
        });
        const text = await res.text();
        let parsed: unknown;
        try {
          parsed = text === '' ? undefined : JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        if (res.status !== 429 && res.status < 500) {
          if (parsed === undefined && res.status < 300) {
            throw new ApiError(`${method} ${path} answered ${res.status} without a JSON body`, res.status);
          }
          return { status: res.status, body: parsed };
        }
        reason = `${res.status}${errorText(parsed) ? ` (${errorText(parsed)})` : ''}`;
        const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
        delayMs =
          retryAfter === undefined
            ? this.backoff(attempt)
            : Math.min(retryAfter, this.opts.retryAfterMaxMs ?? 60_000);
      } catch (error) {
        if (error instanceof ApiError) throw error;
        const e = error as Error & {
          cause?: { code?: string; message?: string; errors?: { code?: string }[] };
        };
        reason =
          e.name === 'TimeoutError'
            ? `no answer within ${this.opts.timeoutMs} ms`
            : (e.cause?.code ?? e.cause?.errors?.[0]?.code ?? e.cause?.message ?? e.message ?? String(error));
        delayMs = this.backoff(attempt);
      }
      if (attempt >= this.opts.retries) {
        throw new ApiError(
          `${method} ${url} failed after ${attempt + 1} attempt${attempt === 0 ? '' : 's'}: ${reason}`,
        );
      }
      this.retries++;
      this.opts.onRetry?.({ method, path, reason, delayMs });
      await this.sleep(delayMs);
    }
  }

  /** Looks up `refs` in chunks of at most 100, `concurrency` chunks at a time; one answer per ref. */
  async bulk(
    refs: readonly PackageRef[],
    onChunk?: (done: number, total: number) => void,
  ): Promise<BulkItem[]> {
    const chunks: PackageRef[][] = [];
    for (let i = 0; i < refs.length; i += BULK_CHUNK) chunks.push(refs.slice(i, i + BULK_CHUNK));
    let done = 0;
    const answers = await mapPool(chunks, this.opts.concurrency, async (chunk) => {
      const items = await this.bulkChunk(chunk);
      done += chunk.length;
      onChunk?.(done, refs.length);
      return items;
    });
    return answers.flat();
  }

  /**
   * One bulk request. A 400 rejects the whole chunk for one item the service finds invalid: the
   * chunk is then split in halves until that item is isolated and reported as not looked up.
   */
  private async bulkChunk(chunk: readonly PackageRef[]): Promise<BulkItem[]> {
    const packages = chunk.map((r) => ({ name: r.name, version: r.version }));
    const answer = await this.request('POST', '/v1/bulk', { packages });
    if (answer.status === 400) {
      if (chunk.length === 1) {
        return [
          { found: false, error: `rejected by the service: ${errorText(answer.body) ?? 'bad request'}` },
        ];
      }
      const half = Math.ceil(chunk.length / 2);
      return [...(await this.bulkChunk(chunk.slice(0, half))), ...(await this.bulkChunk(chunk.slice(half)))];
    }
    if (answer.status !== 200) {
      throw new ApiError(
        `POST /v1/bulk answered ${answer.status}: ${errorText(answer.body) ?? 'no error message'}`,
        answer.status,
      );
    }
    const parsed = BulkAnswer.safeParse(answer.body);
    if (!parsed.success || parsed.data.length !== chunk.length) {
      throw new ApiError(
        `POST /v1/bulk gave an unexpected answer: ${parsed.success ? `${parsed.data.length} entries for ${chunk.length} packages` : describe(parsed.error)}`,
      );
    }
    return parsed.data.map((entry): BulkItem =>
      'risk_level' in entry
        ? { found: true, result: entry as PackageResult }
        : { found: false, error: entry.error },
    );
  }

  /** Requests a scan: the job, or the service's reason for refusing it (a 4xx). */
  async requestScan(ref: PackageRef): Promise<{ ack: ScanAck } | { refused: string; status: number }> {
    const answer = await this.request('POST', '/v1/scan', { name: ref.name, version: ref.version });
    if (answer.status === 200 || answer.status === 202) {
      const parsed = ScanAck.safeParse(answer.body);
      if (!parsed.success)
        throw new ApiError(`POST /v1/scan gave an unexpected answer: ${describe(parsed.error)}`);
      return { ack: parsed.data };
    }
    return { refused: errorText(answer.body) ?? `status ${answer.status}`, status: answer.status };
  }

  /** The job, or undefined when the service no longer knows it (404). */
  async getJob(jobId: string): Promise<ScanJob | undefined> {
    const answer = await this.request('GET', `/v1/scan/${encodeURIComponent(jobId)}`);
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) {
      throw new ApiError(`GET /v1/scan/${jobId} answered ${answer.status}: ${errorText(answer.body) ?? ''}`);
    }
    const parsed = ScanJob.safeParse(answer.body);
    if (!parsed.success)
      throw new ApiError(`GET /v1/scan/${jobId} gave an unexpected answer: ${describe(parsed.error)}`);
    return parsed.data;
  }
}

function errorText(body: unknown): string | undefined {
  if (typeof body === 'object' && body !== null && 'error' in body) {
    const e = (body as { error: unknown }).error;
    if (typeof e === 'string') return e;
  }
  return undefined;
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid';
}
