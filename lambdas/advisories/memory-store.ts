/** An in-memory advisory store: the local default's and the tests' and benchmark's sink. */
import type { OsvRecord } from './osv';
import {
  keyString,
  type AdvisoryKey,
  type AdvisorySink,
  type AdvisorySource,
  type StoredAdvisory,
} from './ports';

export class MemoryAdvisoryStore implements AdvisorySink, AdvisorySource {
  private readonly items = new Map<string, StoredAdvisory>();
  private readonly byName = new Map<string, Map<string, StoredAdvisory>>();

  get size(): number {
    return this.items.size;
  }

  async storedVersions(keys: readonly AdvisoryKey[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    for (const key of keys) {
      const item = this.items.get(keyString(key));
      if (item) found.set(keyString(key), item.modifiedMs);
    }
    return found;
  }

  async putNew(items: readonly StoredAdvisory[]): Promise<void> {
    for (const item of items) this.set(item);
  }

  async putIfNewer(item: StoredAdvisory): Promise<boolean> {
    const stored = this.items.get(keyString(item));
    if (stored && stored.modifiedMs >= item.modifiedMs) return false;
    this.set(item);
    return true;
  }

  async removeIfNotNewer(key: AdvisoryKey, modifiedMs: number): Promise<boolean> {
    const stored = this.items.get(keyString(key));
    if (!stored || stored.modifiedMs > modifiedMs) return false;
    this.items.delete(keyString(key));
    this.byName.get(key.name)?.delete(key.id);
    return true;
  }

  async recordsFor(name: string): Promise<OsvRecord[]> {
    return [...(this.byName.get(name)?.values() ?? [])].map((item) => item.record);
  }

  private set(item: StoredAdvisory): void {
    this.items.set(keyString(item), item);
    let records = this.byName.get(item.name);
    if (!records) this.byName.set(item.name, (records = new Map()));
    records.set(item.id, item);
  }
}
