/**
 * Matching a package version against the OSV records stored for its name: the CVE list of the
 * API and the wider `advisories` list (every matching record, including those without a CVE id
 * and reports of malicious packages). Records are compiled once per records array (cached by
 * identity), so matching costs comparisons only. Imports no AWS SDK.
 */
import type { Advisory, Cve, Severity } from '../../src/contract/schemas';
import { NPM_ECOSYSTEM, isMalicious, type OsvRecord } from './osv';
import { SEVERITY_ORDER, recordSeverity } from './severity';
import {
  affectedContains,
  compareVersions,
  compileAffected,
  lowestFixAbove,
  parseVersion,
  type CompiledAffected,
  type Fix,
} from './version-ranges';

export { Advisory } from '../../src/contract/schemas';

export interface AdvisoryMatch {
  readonly cves: Cve[];
  readonly advisories: Advisory[];
}

const CVE_ID = /^CVE-\d{4}-\d{4,}$/;
const MAX_DESCRIPTION = 500;

interface CompiledRecord {
  readonly record: OsvRecord;
  readonly affected: readonly CompiledAffected[];
  /** Envelope of every interval of `affected` (see CompiledAffected.lowKey). */
  readonly lowKey: number;
  readonly highKey: number;
  readonly cveId: string | undefined;
  readonly severity: Severity;
  readonly description: string;
  readonly malicious: boolean;
  readonly url: string | undefined;
}

/** The records of one package name, compiled for matching. */
export interface CompiledAdvisories {
  readonly name: string;
  /** Sorted by id: the output order. */
  readonly records: readonly CompiledRecord[];
  /** Indexes (into `records`) of the records with version intervals: each is tested. */
  readonly ranged: readonly number[];
  /** Records listing exact versions, by version: one look-up instead of a test per record. */
  readonly listed: ReadonlyMap<string, readonly number[]>;
}

export function cveIdOf(record: OsvRecord): string | undefined {
  if (CVE_ID.test(record.id)) return record.id;
  return (record.aliases ?? []).find((alias) => CVE_ID.test(alias));
}

export function descriptionOf(record: OsvRecord): string {
  const summary = record.summary?.trim();
  const firstLine = summary
    ? undefined
    : (record.details ?? '')
        .split('\n')
        .map((line) => line.trim())
        .find((line) => line !== '');
  const text = summary || firstLine || record.id;
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}

function urlOf(record: OsvRecord): string | undefined {
  const references = record.references ?? [];
  return (references.find((r) => r.type === 'ADVISORY') ?? references.find((r) => r.type === 'WEB'))?.url;
}

export function compileAdvisories(name: string, records: readonly OsvRecord[]): CompiledAdvisories {
  const compiled: CompiledRecord[] = [];
  for (const record of records) {
    if (record.withdrawn) continue;
    const affected = (record.affected ?? []).filter(
      (entry) => entry.package?.ecosystem === NPM_ECOSYSTEM && entry.package.name === name,
    );
    if (affected.length === 0) continue;
    const compiledAffected = affected.map(compileAffected);
    compiled.push({
      record,
      affected: compiledAffected,
      lowKey: Math.min(...compiledAffected.map((a) => a.lowKey)),
      highKey: Math.max(...compiledAffected.map((a) => a.highKey)),
      cveId: cveIdOf(record),
      severity: recordSeverity(record, affected),
      description: descriptionOf(record),
      malicious: isMalicious(record),
      url: urlOf(record),
    });
  }
  compiled.sort((a, b) => (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0));
  const ranged: number[] = [];
  const listed = new Map<string, number[]>();
  compiled.forEach((entry, index) => {
    if (entry.affected.some((affected) => affected.intervals.length > 0)) ranged.push(index);
    const versions = new Set(entry.affected.flatMap((affected) => [...affected.versions]));
    for (const version of versions) {
      const indexes = listed.get(version);
      if (indexes) indexes.push(index);
      else listed.set(version, [index]);
    }
  });
  return { name, records: compiled, ranged, listed };
}

const cache = new WeakMap<readonly OsvRecord[], Map<string, CompiledAdvisories>>();

function compiledFor(name: string, records: readonly OsvRecord[]): CompiledAdvisories {
  let byName = cache.get(records);
  if (!byName) cache.set(records, (byName = new Map()));
  let compiled = byName.get(name);
  if (!compiled) byName.set(name, (compiled = compileAdvisories(name, records)));
  return compiled;
}

function isCompiled(source: readonly OsvRecord[] | CompiledAdvisories): source is CompiledAdvisories {
  return !Array.isArray(source);
}

/**
 * The CVEs and advisories of `name@version`. `records` are the OSV records stored for the name
 * (records for other packages are ignored; compiled once per array, which must not change
 * afterwards), or the result of `compileAdvisories` to skip even the cache look-up. Output is sorted (CVEs by id, advisories by id): same input, same output.
 */
export function matchAdvisories(
  name: string,
  version: string,
  records: readonly OsvRecord[] | CompiledAdvisories,
): AdvisoryMatch {
  const compiled = isCompiled(records) ? records : compiledFor(name, records);
  const parsed = parseVersion(version);
  const candidates: number[] = [];
  if (parsed) {
    const key = parsed.key;
    for (const index of compiled.ranged) {
      const entry = compiled.records[index] as CompiledRecord;
      if (key < entry.lowKey || key > entry.highKey) continue; // false for NaN: tested in full
      for (const affected of entry.affected) {
        if (affectedContains(affected, version, parsed)) {
          candidates.push(index);
          break;
        }
      }
    }
  }
  // Registry versions are canonical; `versions` lists hold both the written and canonical forms.
  const listed = compiled.listed.get(version);
  if (listed) {
    candidates.push(...listed);
    candidates.sort((a, b) => a - b);
  }
  const advisories: Advisory[] = [];
  const cves = new Map<string, Cve>();
  let previous = -1;
  for (const index of candidates) {
    if (index === previous) continue;
    previous = index;
    const entry = compiled.records[index] as CompiledRecord;
    let matched = false;
    let fixedIn: Fix | undefined;
    for (const affected of entry.affected) {
      if (!affectedContains(affected, version, parsed)) continue;
      matched = true;
      const fix = parsed && lowestFixAbove(affected, parsed);
      if (fix && (!fixedIn || compareVersions(fix.version, fixedIn.version) < 0)) fixedIn = fix;
    }
    if (!matched) continue;
    const { record } = entry;
    advisories.push({
      id: record.id,
      aliases: [...(record.aliases ?? [])],
      severity: entry.severity,
      summary: entry.description,
      fixed_in: fixedIn?.text ?? '',
      malicious: entry.malicious,
      ...(entry.url ? { url: entry.url } : {}),
    });
    if (entry.cveId)
      addCve(cves, {
        cve_id: entry.cveId,
        severity: entry.severity,
        description: entry.description,
        fixed_in: fixedIn?.text ?? '',
      });
  }
  return { cves: [...cves.values()].sort((a, b) => (a.cve_id < b.cve_id ? -1 : 1)), advisories };
}

/**
 * Several records can report one CVE (a GitHub advisory and a working-group one, say): keep one
 * entry with the highest severity and the highest fixed version any of them gives.
 */
function addCve(cves: Map<string, Cve>, cve: Cve): void {
  const seen = cves.get(cve.cve_id);
  if (!seen) {
    cves.set(cve.cve_id, cve);
    return;
  }
  if (SEVERITY_ORDER[cve.severity] > SEVERITY_ORDER[seen.severity]) seen.severity = cve.severity;
  const a = parseVersion(seen.fixed_in);
  const b = parseVersion(cve.fixed_in);
  if (b && (!a || compareVersions(b, a) > 0)) seen.fixed_in = cve.fixed_in;
}
