/**
 * Weekly download counts, live or offline.
 *
 * Live: npm's download-count API through `query-registry`, which carries the service's address
 * as its default (no host is written in this project); `DOWNLOADS_API_URL` overrides it.
 * Offline: when the live service cannot be reached (a machine without it, an outage) or has no
 * count for the package, the monthly count of the offline table (snapshot.ts, made from the
 * `download-counts` package) scaled to a week. Every figure says where it came from and the day
 * it was taken (`DownloadsSource`).
 *
 * After a failed live request the live service is not asked again for `retryLiveAfterMs`, so a
 * batch of scans on a machine without it does not wait on each one.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getBulkPackageDownloads, getPackageDownloads } from 'query-registry';
import { DownloadSnapshot } from './snapshot';
import { SNAPSHOT_FILE_NAME } from './snapshot-file';

export interface DownloadsSource {
  /** `download-api`: the live service's last week; `download-counts`: the offline monthly table, scaled to a week; `none`: unknown. */
  readonly kind: 'download-api' | 'download-counts' | 'none';
  /** The last day the count covers (YYYY-MM-DD); null when unknown. */
  readonly as_of: string | null;
}

export interface WeeklyDownloads {
  /** Undefined when no source had a count. */
  readonly count: number | undefined;
  readonly source: DownloadsSource;
  /** Why the count is unknown, when it is. */
  readonly unknownReason?: string;
}

/** The live service's answer for one package: its count and the last day counted. */
export interface LiveCount {
  readonly downloads: number;
  readonly end: string;
}

export interface LiveDownloads {
  /** Undefined when the service has no count for the package (it answered, without one). */
  one(name: string): Promise<LiveCount | undefined>;
  /** Counts of up to 128 unscoped names in one request; names without a count are absent. */
  many(names: readonly string[]): Promise<Map<string, LiveCount>>;
}

export interface WeeklyDownloadsOptions {
  /** Live service; undefined asks no live service (offline table only). */
  readonly live?: LiveDownloads;
  /** The offline table, or a function opening it on first use. */
  readonly snapshot?: DownloadSnapshot | (() => DownloadSnapshot | undefined);
  /** Time limit of one live request. @default 5000 */
  readonly timeoutMs?: number;
  /** After a failed live request, the live service is skipped this long. @default 300000 */
  readonly retryLiveAfterMs?: number;
  readonly now?: () => number;
}

/** Names the live bulk endpoint takes per request (it refuses scoped names). */
export const BULK_LIMIT = 128;

/** The live service through query-registry; `apiUrl` undefined uses the library's default. */
export function queryRegistryLive(apiUrl?: string): LiveDownloads {
  const base = apiUrl?.replace(/\/$/, '');
  return {
    async one(name) {
      try {
        const answer = await getPackageDownloads(name, 'last-week', ...(base ? [base] : []));
        return { downloads: answer.downloads, end: answer.end };
      } catch (error) {
        if (isNoCount(error)) return undefined;
        throw error;
      }
    },
    async many(names) {
      const out = new Map<string, LiveCount>();
      if (names.length === 0) return out;
      // One name is answered in the single-package shape, not keyed by name.
      if (names.length === 1) {
        const single = await this.one(names[0]!);
        if (single) out.set(names[0]!, single);
        return out;
      }
      let answer: Awaited<ReturnType<typeof getBulkPackageDownloads>>;
      try {
        answer = await getBulkPackageDownloads(
          names as [string, string, ...string[]],
          'last-week',
          ...(base ? [base] : []),
        );
      } catch (error) {
        if (isNoCount(error)) return out;
        throw error;
      }
      for (const [name, value] of Object.entries(answer)) {
        if (value) out.set(name, { downloads: value.downloads, end: value.end });
      }
      return out;
    },
  };
}

/** The service answered, but not with a count (unknown package: `{ error }`, which the schema refuses). */
function isNoCount(error: unknown): boolean {
  return (error as Error).name === 'ZodError' || /invalid package name/i.test((error as Error).message);
}

export class WeeklyDownloadsClient {
  private liveSkippedUntil = 0;
  private lastLiveFailure: string | undefined;
  private snapshot: DownloadSnapshot | undefined | null = null;
  private snapshotError: string | undefined;

  constructor(private readonly options: WeeklyDownloadsOptions = {}) {}

  /** Last week's downloads of one package. */
  async weekly(name: string): Promise<WeeklyDownloads> {
    const live = this.liveAvailable();
    if (live) {
      try {
        const count = await this.withTimeout(live.one(name));
        if (count) return fromLive(count);
      } catch (error) {
        this.liveFailed(error);
      }
    }
    return this.offline(name);
  }

  /** Last week's downloads of many packages: unscoped names in bulk requests, scoped ones one by one. */
  async weeklyMany(names: readonly string[]): Promise<Map<string, WeeklyDownloads>> {
    const out = new Map<string, WeeklyDownloads>();
    const unique = [...new Set(names)];
    const unscoped = unique.filter((name) => !name.startsWith('@'));
    for (let i = 0; i < unscoped.length; i += BULK_LIMIT) {
      const live = this.liveAvailable();
      if (!live) break;
      const chunk = unscoped.slice(i, i + BULK_LIMIT);
      try {
        const counts = await this.withTimeout(live.many(chunk));
        for (const [name, count] of counts) out.set(name, fromLive(count));
      } catch (error) {
        this.liveFailed(error);
      }
    }
    for (const name of unique) {
      if (out.has(name)) continue;
      out.set(name, name.startsWith('@') ? await this.weekly(name) : this.offline(name));
    }
    return out;
  }

  private liveAvailable(): LiveDownloads | undefined {
    if (!this.options.live) return undefined;
    return this.now() >= this.liveSkippedUntil ? this.options.live : undefined;
  }

  private liveFailed(error: unknown): void {
    const e = error as Error & { cause?: { code?: string } };
    this.lastLiveFailure = e.cause?.code ?? e.name ?? 'error';
    this.liveSkippedUntil = this.now() + (this.options.retryLiveAfterMs ?? 300_000);
  }

  private offline(name: string): WeeklyDownloads {
    const snapshot = this.openSnapshot();
    const why =
      this.options.live === undefined
        ? 'no live download-count service is configured'
        : `the download-count service ${this.lastLiveFailure ? `was not reachable (${this.lastLiveFailure})` : 'had no count'}`;
    if (!snapshot) {
      return unknown(
        this.snapshotError !== undefined
          ? `${why}, and the offline table could not be opened (${this.snapshotError})`
          : `${why}, and no offline table is installed`,
      );
    }
    let found;
    try {
      found = snapshot.lookup(name);
    } catch (error) {
      return unknown(`${why}, and the offline table could not be read (${(error as Error).message})`);
    }
    if (!found) {
      return unknown(`${why}, and the offline table of ${snapshot.meta.as_of} does not list the package`);
    }
    return { count: found.weekly, source: { kind: 'download-counts', as_of: snapshot.meta.as_of } };
  }

  private openSnapshot(): DownloadSnapshot | undefined {
    if (this.snapshot === null) {
      const option = this.options.snapshot;
      try {
        this.snapshot = typeof option === 'function' ? option() : option;
      } catch (error) {
        this.snapshot = undefined;
        this.snapshotError = (error as Error).message;
      }
    }
    return this.snapshot;
  }

  private withTimeout<T>(promise: Promise<T>): Promise<T> {
    const ms = this.options.timeoutMs ?? 5_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error('timed out'), { name: 'TimeoutError' })), ms);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}

function fromLive(count: LiveCount): WeeklyDownloads {
  return {
    count: Math.max(0, Math.floor(count.downloads)),
    source: { kind: 'download-api', as_of: /^\d{4}-\d{2}-\d{2}$/.test(count.end) ? count.end : null },
  };
}

function unknown(reason: string): WeeklyDownloads {
  return { count: undefined, source: { kind: 'none', as_of: null }, unknownReason: reason };
}

/** Where the bundling puts the offline table: beside the bundled handler (lib/bundling.ts). */
export function snapshotBesideBundle(moduleUrl: string = import.meta.url): string {
  return join(dirname(fileURLToPath(moduleUrl)), SNAPSHOT_FILE_NAME);
}

/**
 * The client the scanner uses, from the environment: `DOWNLOADS_API_URL` (live service override;
 * `off` asks no live service), `DOWNLOADS_SNAPSHOT_FILE` (offline table; default: beside the
 * bundle; `off` uses none).
 */
export function weeklyDownloadsFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  besideBundle?: string,
): WeeklyDownloadsClient {
  const api = env.DOWNLOADS_API_URL;
  const file = env.DOWNLOADS_SNAPSHOT_FILE ?? besideBundle;
  return new WeeklyDownloadsClient({
    ...(api === 'off' ? {} : { live: queryRegistryLive(api === '' ? undefined : api) }),
    snapshot: () => (file && file !== 'off' && existsSync(file) ? DownloadSnapshot.open(file) : undefined),
  });
}
