/**
 * Keeps download counts current without rescanning: for every stored package, in name order and
 * in batches (one bulk request to the download-count service per 128 unscoped names), the new
 * weekly count is written to each stored version, the trust score and its reasons are
 * recomputed from the inputs kept in the scan basis (ages move on too), the risk is recomputed
 * from the stored findings, and the latest version moves in the list (PackageStore.refreshResult).
 *
 * Runs until done or until `shouldStop()` says so; it then returns a cursor to continue from
 * (the last name finished), so a time-limited function can resume on its next run.
 */
import { forEachLimit } from '../shared/concurrency';
import { docsWithRisk } from '../../src/contract/records';
import type { PackageResponse } from '../../src/contract/schemas';
import { trustFields, trustFrom, type StoredTrustInput } from '../shared/domain/trust';
import type { WeeklyDownloads, WeeklyDownloadsClient } from '../shared/downloads/weekly-downloads';
import type { PackageStore, StoredVersion } from '../shared/store/package-store';
import { assessPackageRisk } from './assess';
import { toPolicyInput } from './vulnerabilities';

export interface DownloadsRefreshDeps {
  readonly packages: Pick<PackageStore, 'allNames' | 'versions' | 'refreshResult'>;
  readonly downloads: Pick<WeeklyDownloadsClient, 'weeklyMany'>;
  readonly now: () => Date;
  /** Names asked for per round. @default 128 */
  readonly batchSize?: number;
  /** Packages written in parallel. @default 4 */
  readonly concurrency?: number;
  /** Checked between batches; true stops the run with a cursor. */
  readonly shouldStop?: () => boolean;
}

export interface DownloadsRefreshReport {
  readonly packages: number;
  /** Stored versions whose record changed. */
  readonly updated: number;
  /** Packages whose weekly count changed (their list position follows). */
  readonly recounted: number;
  /** Packages no source had a count for (their stored count is kept). */
  readonly unknown: number;
  /** Set when the run stopped early: the last name done; pass it as `startAfter` to go on. */
  readonly cursor?: string;
  readonly seconds: number;
}

export async function refreshDownloads(
  deps: DownloadsRefreshDeps,
  startAfter?: string,
): Promise<DownloadsRefreshReport> {
  const started = Date.now();
  const names = (await deps.packages.allNames()).filter((n) => startAfter === undefined || n > startAfter);
  const batchSize = deps.batchSize ?? 128;
  let packages = 0;
  let updated = 0;
  let recounted = 0;
  let unknown = 0;
  for (let i = 0; i < names.length; i += batchSize) {
    if (i > 0 && deps.shouldStop?.()) {
      return { packages, updated, recounted, unknown, cursor: names[i - 1]!, seconds: elapsed(started) };
    }
    const batch = names.slice(i, i + batchSize);
    const counts = await deps.downloads.weeklyMany(batch);
    await forEachLimit(batch, deps.concurrency ?? 4, async (name) => {
      packages++;
      const count = counts.get(name);
      if (count === undefined || count.count === undefined) unknown++;
      let changed = false;
      for (const stored of await deps.packages.versions(name)) {
        const next = refreshed(stored, count, deps.now());
        if (next === undefined) continue;
        if (!(await deps.packages.refreshResult(next))) continue;
        updated++;
        changed ||= next.weekly_downloads !== stored.result.weekly_downloads;
      }
      if (changed) recounted++;
    });
  }
  return { packages, updated, recounted, unknown, seconds: elapsed(started) };
}

/** The stored result with the new count, trust and risk; undefined when nothing changed. */
export function refreshed(
  stored: StoredVersion,
  count: WeeklyDownloads | undefined,
  now: Date,
): PackageResponse | undefined {
  const { result, basis } = stored;
  const known = count !== undefined && count.count !== undefined;
  const weekly = known ? count.count! : result.weekly_downloads;
  const source = known ? count.source : result.downloads_source;
  let next: PackageResponse = {
    ...result,
    weekly_downloads: weekly,
    ...(source ? { downloads_source: source } : {}),
  };
  const trustInput = basis?.trust_input as StoredTrustInput | undefined;
  if (basis && trustInput) {
    const trust = trustFrom(
      trustInput,
      source === undefined || source.kind === 'none'
        ? { count: undefined, source, unknownReason: count?.unknownReason }
        : { count: weekly, source },
      now,
    );
    const risk = assessPackageRisk({
      analysis: { risk_input: basis.risk_input as never },
      trust,
      vulnerabilities: toPolicyInput(result.cves, result.advisories),
    });
    next = {
      ...next,
      ...trustFields(trust),
      risk_level: risk.risk_level,
      risk_reasons: risk.risk_reasons,
      docs_md: docsWithRisk(result.docs_md, risk.risk_level),
    };
  }
  return JSON.stringify(next) === JSON.stringify(result) ? undefined : next;
}

function elapsed(started: number): number {
  return (Date.now() - started) / 1000;
}
