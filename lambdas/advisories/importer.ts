/**
 * Imports OSV records into an advisory store. Idempotent: a record is written only when it is
 * new or newer (`modified`) than the stored one, and withdrawn records are removed. Records are
 * stored once per npm package they affect. A malformed entry is reported and skipped; a broken
 * source (truncated download) stops the import with an error after storing the complete records
 * read before it, so the store holds only whole, valid records. Imports no AWS SDK.
 */
import { isMalicious, modifiedMillis, npmPackageNames, parseOsvRecord, type OsvRecord } from './osv';
import { keyString, type AdvisorySink, type StoredAdvisory } from './ports';
import type { OsvEntry } from './sources';
import { forEachLimit } from '../shared/concurrency';

export interface ImportFailure {
  readonly path: string;
  readonly error: string;
}

export interface ImportReport {
  /** Entries read from the source (including skipped ones). */
  entries: number;
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  failed: number;
  /** Records affecting no npm package. */
  ignored: number;
  malicious: number;
  /** The first failures (at most MAX_REPORTED_FAILURES). */
  failures: ImportFailure[];
  /** npm package names whose stored advisories changed: their stored scan results need refreshing. */
  changedPackages: Set<string>;
  /** False when the import stopped early: a source error or the deadline. */
  complete: boolean;
  /** Source or store error that stopped the import. */
  error?: string;
  /** Entries to skip on the next run to resume where this one stopped at its deadline. */
  resumeFromEntry?: number;
}

export interface ImportOptions {
  /** Items (record × package) per store round trip; at most 100 (default 100). */
  readonly batchSize?: number;
  /** Conditional writes in flight at once, per batch (default 8). */
  readonly concurrency?: number;
  /** Batches in flight at once while the next entries are read (default 4). */
  readonly batchesInFlight?: number;
  /** Stop reading new entries after this time (epoch ms); see ImportReport.resumeFromEntry. */
  readonly deadline?: number;
  /** Skip this many entries first (resuming a run stopped at its deadline). */
  readonly skipEntries?: number;
  readonly now?: () => number;
}

export const MAX_REPORTED_FAILURES = 100;

type Outcome = 'added' | 'updated' | 'unchanged' | 'removed';
const OUTCOME_RANK: Record<Outcome, number> = { unchanged: 0, updated: 1, added: 2, removed: 3 };

interface Pending {
  readonly record: OsvRecord;
  readonly items: StoredAdvisory[];
}

export function emptyReport(): ImportReport {
  return {
    entries: 0,
    added: 0,
    updated: 0,
    unchanged: 0,
    removed: 0,
    failed: 0,
    ignored: 0,
    malicious: 0,
    failures: [],
    changedPackages: new Set(),
    complete: false,
  };
}

export async function importOsv(
  source: AsyncIterable<OsvEntry>,
  sink: AdvisorySink,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const batchSize = Math.min(100, Math.max(1, options.batchSize ?? 100));
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const now = options.now ?? Date.now;
  const skip = options.skipEntries ?? 0;
  const report = emptyReport();
  let pending: Pending[] = [];
  let pendingKeys = new Set<string>();
  let pendingItems = 0;

  const fail = (path: string, error: string): void => {
    report.failed++;
    if (report.failures.length < MAX_REPORTED_FAILURES) report.failures.push({ path, error });
  };

  // Batches are written while the next entries are read. A record whose key is still in flight
  // waits for every batch in flight, so one key is never written by two batches at once.
  const maxInFlight = Math.max(1, options.batchesInFlight ?? 4);
  const inFlight = new Set<Promise<void>>();
  const inFlightKeys = new Set<string>();
  let writeError: unknown;

  const drain = async (): Promise<void> => {
    await Promise.all(inFlight);
    if (writeError !== undefined) throw writeError;
  };

  const flush = async (): Promise<void> => {
    const batch = pending;
    const keys = pendingKeys;
    pending = [];
    pendingKeys = new Set();
    pendingItems = 0;
    if (batch.length === 0) return;
    while (inFlight.size >= maxInFlight) await Promise.race(inFlight);
    if (writeError !== undefined) throw writeError;
    for (const key of keys) inFlightKeys.add(key);
    const write = writeBatch(batch)
      .catch((error: unknown) => {
        writeError ??= error;
      })
      .finally(() => {
        for (const key of keys) inFlightKeys.delete(key);
        inFlight.delete(write);
      });
    inFlight.add(write);
  };

  const writeBatch = async (batch: readonly Pending[]): Promise<void> => {
    const stored = await sink.storedVersions(batch.flatMap((p) => p.items));
    const outcomes = new Map<StoredAdvisory, Outcome>();
    const fresh: StoredAdvisory[] = [];
    const newer: StoredAdvisory[] = [];
    const withdrawn: StoredAdvisory[] = [];
    for (const { record, items } of batch) {
      for (const item of items) {
        const storedMs = stored.get(keyString(item));
        outcomes.set(item, 'unchanged');
        if (record.withdrawn) {
          if (storedMs !== undefined && storedMs <= item.modifiedMs) withdrawn.push(item);
        } else if (storedMs === undefined) {
          fresh.push(item);
        } else if (storedMs < item.modifiedMs) {
          newer.push(item);
        }
      }
    }
    // Absent items go in batches; a concurrent writer can only be this same export (the sync
    // runs one at a time), so the check above stands in for a condition.
    await sink.putNew(fresh);
    for (const item of fresh) outcomes.set(item, 'added');
    await forEachLimit(newer, concurrency, async (item) => {
      if (await sink.putIfNewer(item)) outcomes.set(item, 'updated');
    });
    await forEachLimit(withdrawn, concurrency, async (item) => {
      if (await sink.removeIfNotNewer(item, item.modifiedMs)) outcomes.set(item, 'removed');
    });
    for (const { items } of batch) {
      let outcome: Outcome = 'unchanged';
      for (const item of items) {
        const itemOutcome = outcomes.get(item) ?? 'unchanged';
        if (itemOutcome !== 'unchanged') report.changedPackages.add(item.name);
        if (OUTCOME_RANK[itemOutcome] > OUTCOME_RANK[outcome]) outcome = itemOutcome;
      }
      report[outcome]++;
    }
  };

  try {
    for await (const entry of source) {
      const index = report.entries++;
      if (index < skip) continue;
      if (options.deadline !== undefined && now() >= options.deadline) {
        report.entries--;
        report.resumeFromEntry = index;
        break;
      }
      let record: OsvRecord;
      try {
        record = parseOsvRecord(entry.text);
        if (Number.isNaN(modifiedMillis(record))) throw new Error('modified is not a timestamp');
      } catch (error) {
        fail(entry.path, (error as Error).message);
        continue;
      }
      const names = npmPackageNames(record);
      if (names.length === 0) {
        report.ignored++;
        continue;
      }
      if (isMalicious(record)) report.malicious++;
      const modifiedMs = modifiedMillis(record);
      const items = names.map((name) => ({ name, id: record.id, modifiedMs, record }));
      // The same key twice in one batch is refused by DynamoDB: flush first.
      if (items.some((item) => pendingKeys.has(keyString(item))) || pendingItems + items.length > batchSize) {
        await flush();
      }
      if (items.some((item) => inFlightKeys.has(keyString(item)))) await drain();
      pending.push({ record, items });
      pendingItems += items.length;
      for (const item of items) pendingKeys.add(keyString(item));
    }
    await flush();
    await drain();
    report.complete = report.resumeFromEntry === undefined;
  } catch (error) {
    // Whole records read before a source error are still stored; a store error is final.
    try {
      if (writeError === undefined) await flush();
      await drain();
    } catch {
      // the first error is the one to report
    }
    report.error = ((writeError ?? error) as Error).message;
    report.complete = false;
  }
  return report;
}

/** A JSON-friendly, snake_case copy of the report (the package set as a count and a sample). */
export function summariseReport(report: ImportReport): Record<string, unknown> {
  const { changedPackages, resumeFromEntry, ...counts } = report;
  return {
    ...counts,
    changed_packages: changedPackages.size,
    changed_packages_sample: [...changedPackages].slice(0, 20),
    ...(resumeFromEntry === undefined ? {} : { resume_from_entry: resumeFromEntry }),
  };
}
