/**
 * What the importer and the scanner need from an advisory store, so that domain code imports no
 * AWS SDK: DynamoDB (`advisory-store.ts`) and memory (`memory-store.ts`) implement both sides.
 */
import type { OsvRecord } from './osv';

/** One stored item: a record under one of the npm package names it affects. */
export interface AdvisoryKey {
  readonly name: string;
  readonly id: string;
}

export interface StoredAdvisory extends AdvisoryKey {
  /** `modified` in epoch milliseconds: the version of the record. */
  readonly modifiedMs: number;
  readonly record: OsvRecord;
}

export function keyString(key: AdvisoryKey): string {
  return `${key.name}\u0000${key.id}`;
}

/** The write side, used by the importer. */
export interface AdvisorySink {
  /** `modifiedMs` of the stored items among `keys` (at most 100, no duplicates), by `keyString`. */
  storedVersions(keys: readonly AdvisoryKey[]): Promise<Map<string, number>>;
  /** Writes items known to be absent, in batches (no duplicates). */
  putNew(items: readonly StoredAdvisory[]): Promise<void>;
  /** Replaces the stored item only if it is older (or absent); true when written. */
  putIfNewer(item: StoredAdvisory): Promise<boolean>;
  /** Removes the item unless the stored one is newer than `modifiedMs`; true when removed. */
  removeIfNotNewer(key: AdvisoryKey, modifiedMs: number): Promise<boolean>;
}

/** The read side, used by the scanner. */
export interface AdvisorySource {
  /** Every stored record for the package name. */
  recordsFor(name: string): Promise<OsvRecord[]>;
}
