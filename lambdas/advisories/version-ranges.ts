/**
 * OSV version ranges for npm, compiled once into sorted intervals so that matching a scanned
 * version costs a few integer comparisons per interval.
 *
 * Semantics (OSV schema, "Evaluation"): events of a `SEMVER` or `ECOSYSTEM` range are sorted by
 * version; a version is affected when the last event at or below it is an `introduced`
 * (`fixed` closes the interval before its version, `last_affected` after it); `limit` events
 * bound the whole range from above. npm's ECOSYSTEM ordering is semver, so both types compile the
 * same way; `GIT` ranges name commits, not versions, and are ignored.
 *
 * Prereleases are ordered as semver orders them, with no special exclusion: `1.0.0-beta` lies
 * below `1.0.0` and above `0.9.9`. That is exactly `semver.satisfies(v, range,
 * { includePrerelease: true })`, the option npm itself uses when it tests versions against
 * advisories (npm audit).
 */
import semver from 'semver';
import type { OsvAffected } from './osv';

/** A parsed version reduced to what ordering needs (build metadata is ignored, as semver does). */
export interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly pre: readonly (string | number)[];
  /**
   * Order-preserving number (major·10¹² + minor·10⁶ + patch, less ½ for a prerelease) for quick
   * rejection: different keys order as the versions do; NaN when a part is too large to encode.
   */
  readonly key: number;
}

export function versionKey(major: number, minor: number, patch: number, prerelease: boolean): number {
  if (major >= 1000 || minor >= 1e6 || patch >= 1e6) return Number.NaN;
  return major * 1e12 + minor * 1e6 + patch - (prerelease ? 0.5 : 0);
}

/** An interval of versions; `undefined` bounds are unbounded. */
export interface Interval {
  readonly low: Version | undefined;
  readonly lowInclusive: boolean;
  readonly high: Version | undefined;
  readonly highInclusive: boolean;
}

export interface CompiledAffected {
  readonly intervals: readonly Interval[];
  /** Keys bounding every interval (±Infinity when unbounded or not encodable): a quick reject. */
  readonly lowKey: number;
  readonly highKey: number;
  /** Exact versions listed in `versions` (as written and normalised). */
  readonly versions: ReadonlySet<string>;
  /** Fixed versions (ones the entry does not cover), ascending, with the text to report. */
  readonly fixes: readonly { readonly version: Version; readonly text: string }[];
}

const LOOSE = { loose: true } as const;

/** `major.minor.patch[-prerelease][+build]`, the form registry versions take. */
const PLAIN_VERSION = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]+)?$/;
const DIGITS = /^\d+$/;

/**
 * Parses as `semver.parse(text, { loose: true })` does (identifiers of digits only are numbers),
 * with a fast path for the plain form; anything else goes to semver itself.
 */
export function parseVersion(text: string): Version | undefined {
  const plain = PLAIN_VERSION.exec(text);
  if (plain) {
    const [major, minor, patch] = [Number(plain[1]), Number(plain[2]), Number(plain[3])];
    if (Number.isSafeInteger(major) && Number.isSafeInteger(minor) && Number.isSafeInteger(patch)) {
      const pre = plain[4]
        ? plain[4].split('.').map((id) => {
            if (!DIGITS.test(id)) return id;
            const n = Number(id);
            return Number.isSafeInteger(n) ? n : id;
          })
        : [];
      return { major, minor, patch, pre, key: versionKey(major, minor, patch, pre.length > 0) };
    }
  }
  const parsed = semver.parse(text.trim(), LOOSE);
  if (!parsed) return undefined;
  const { major, minor, patch, prerelease } = parsed;
  return {
    major,
    minor,
    patch,
    pre: prerelease,
    key: versionKey(major, minor, patch, prerelease.length > 0),
  };
}

function compareIdentifiers(a: string | number, b: string | number): number {
  const aNumber = typeof a === 'number';
  const bNumber = typeof b === 'number';
  if (aNumber && bNumber) return a < b ? -1 : a > b ? 1 : 0;
  if (aNumber) return -1; // numeric identifiers sort below alphanumeric ones
  if (bNumber) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** semver precedence: -1, 0 or 1. */
export function compareVersions(a: Version, b: Version): number {
  if (a.key !== b.key && !Number.isNaN(a.key) && !Number.isNaN(b.key)) return a.key < b.key ? -1 : 1;
  if (a.major !== b.major) return a.major < b.major ? -1 : 1;
  if (a.minor !== b.minor) return a.minor < b.minor ? -1 : 1;
  if (a.patch !== b.patch) return a.patch < b.patch ? -1 : 1;
  const aPre = a.pre;
  const bPre = b.pre;
  if (aPre.length === 0) return bPre.length === 0 ? 0 : 1; // a release is above its prereleases
  if (bPre.length === 0) return -1;
  const n = Math.min(aPre.length, bPre.length);
  for (let i = 0; i < n; i++) {
    const order = compareIdentifiers(aPre[i] as string | number, bPre[i] as string | number);
    if (order !== 0) return order;
  }
  return aPre.length === bPre.length ? 0 : aPre.length < bPre.length ? -1 : 1;
}

export function intervalContains(interval: Interval, version: Version): boolean {
  if (interval.low) {
    const low = compareVersions(version, interval.low);
    if (interval.lowInclusive ? low < 0 : low <= 0) return false;
  }
  if (!interval.high) return true;
  const order = compareVersions(version, interval.high);
  return interval.highInclusive ? order <= 0 : order < 0;
}

type EventKind = 'introduced' | 'fixed' | 'last_affected' | 'limit';
interface SortedEvent {
  readonly kind: EventKind;
  /** `undefined` is the lowest version (`introduced: "0"`). */
  readonly version: Version | undefined;
}

const KIND_ORDER: Record<EventKind, number> = { introduced: 0, last_affected: 1, fixed: 2, limit: 3 };

function compareEvents(a: SortedEvent, b: SortedEvent): number {
  if (a.version === undefined || b.version === undefined) {
    if (a.version === b.version) return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
    return a.version === undefined ? -1 : 1;
  }
  return compareVersions(a.version, b.version) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
}

/**
 * Intervals of one SEMVER/ECOSYSTEM range. An `introduced` that does not parse counts as the
 * lowest version and a `fixed`/`last_affected` that does not parse is dropped, so bad data errs
 * towards reporting, never towards a silent "clean".
 *
 * The schema's evaluation sorts the events and walks them. Converted data sometimes lists
 * overlapping intervals in one range (`introduced 0, fixed 2.0.18, introduced 0, fixed 3.0.16`,
 * meaning "<2.0.18 || <3.0.16"), which the sorted walk would shrink; so the intervals formed by
 * the events in their written order (each `introduced` closed by the next `fixed` or
 * `last_affected`) are added too. For well-formed data both readings are the same.
 */
export function compileRangeEvents(events: readonly Record<string, unknown>[]): Interval[] {
  const written: SortedEvent[] = [];
  const limits: Version[] = [];
  for (const event of events) {
    for (const kind of ['introduced', 'fixed', 'last_affected', 'limit'] as const) {
      const text = event[kind];
      if (typeof text !== 'string') continue;
      const version = text === '0' ? undefined : parseVersion(text);
      if (kind === 'introduced') written.push({ kind, version });
      else if (version === undefined) continue;
      else if (kind === 'limit') limits.push(version);
      else written.push({ kind, version });
    }
  }
  const sorted = walk([...written].sort(compareEvents));
  const intervals = [...sorted, ...walk(written).filter((a) => !sorted.some((b) => sameInterval(a, b)))];
  if (limits.length === 0) return intervals;
  // A version must lie below some limit: clip every interval at the highest limit.
  const limit = limits.reduce((a, b) => (compareVersions(a, b) >= 0 ? a : b));
  const clipped: Interval[] = [];
  for (const interval of intervals) {
    if (interval.low && compareVersions(interval.low, limit) >= 0) continue;
    if (interval.high && compareVersions(interval.high, limit) < 0) clipped.push(interval);
    else clipped.push({ ...interval, high: limit, highInclusive: false });
  }
  return clipped;
}

function sameBound(a: Version | undefined, b: Version | undefined): boolean {
  return a === undefined || b === undefined ? a === b : compareVersions(a, b) === 0;
}

function sameInterval(a: Interval, b: Interval): boolean {
  return (
    sameBound(a.low, b.low) &&
    sameBound(a.high, b.high) &&
    a.lowInclusive === b.lowInclusive &&
    a.highInclusive === b.highInclusive
  );
}

function walk(events: readonly SortedEvent[]): Interval[] {
  const intervals: Interval[] = [];
  let open: { low: Version | undefined } | undefined;
  for (const event of events) {
    if (event.kind === 'introduced') {
      open ??= { low: event.version };
    } else if (open) {
      const highInclusive = event.kind === 'last_affected';
      intervals.push({ low: open.low, lowInclusive: true, high: event.version, highInclusive });
      open = undefined;
    }
  }
  if (open) intervals.push({ low: open.low, lowInclusive: true, high: undefined, highInclusive: false });
  return intervals;
}

/**
 * Intervals of an npm range (`>=1.2.0 <1.4.1 || ~2.0.0`), equal to `semver.satisfies(v, range,
 * { includePrerelease: true, loose: true })`: with that option semver tests plain ordering.
 * Throws on a range semver cannot read.
 */
export function compileNpmRange(range: string): Interval[] {
  const intervals: Interval[] = [];
  for (const comparators of new semver.Range(range, { includePrerelease: true, loose: true }).set) {
    let low: Version | undefined;
    let lowInclusive = true;
    let high: Version | undefined;
    let highInclusive = false;
    for (const comparator of comparators) {
      if (comparator.value === '') continue; // "any version"
      const version = parseVersion(comparator.semver.version);
      if (!version) continue;
      const op = comparator.operator;
      if (op === '>' || op === '>=' || op === '' || op === '=') {
        const order = low ? compareVersions(version, low) : 1;
        if (order > 0 || (order === 0 && op === '>')) [low, lowInclusive] = [version, op !== '>'];
      }
      if (op === '<' || op === '<=' || op === '' || op === '=') {
        const order = high ? compareVersions(version, high) : -1;
        if (order < 0 || (order === 0 && op === '<')) [high, highInclusive] = [version, op !== '<'];
      }
    }
    intervals.push({ low, lowInclusive, high, highInclusive });
  }
  return intervals;
}

const ALL_VERSIONS: Interval = { low: undefined, lowInclusive: true, high: undefined, highInclusive: false };

/** Compiles one `affected[]` entry of an npm package. */
export function compileAffected(affected: OsvAffected): CompiledAffected {
  const intervals: Interval[] = [];
  const fixes: { version: Version; text: string }[] = [];
  const ranges = affected.ranges ?? [];
  for (const range of ranges) {
    if (range.type !== 'SEMVER' && range.type !== 'ECOSYSTEM') continue;
    intervals.push(...compileRangeEvents(range.events));
    for (const event of range.events) {
      const version = event.fixed === undefined ? undefined : parseVersion(event.fixed);
      if (version && event.fixed !== undefined) fixes.push({ version, text: event.fixed });
    }
  }
  // The GitHub/NSWG export keeps npm's own ranges beside the events. The vulnerable range is
  // matched too (the union errs towards reporting: the events cannot say "above 4.0.0" and may
  // have lost the prereleases in between); the lower ends of the patched range are fixed
  // versions (the only source of a fix when a range ends with `last_affected`).
  const vulnerable = affected.database_specific?.['vulnerable_versions'];
  if (typeof vulnerable === 'string') {
    try {
      intervals.push(...compileNpmRange(vulnerable));
    } catch {
      // not a range npm understands: the events alone decide
    }
  }
  const patched = affected.database_specific?.['patched_versions'];
  if (typeof patched === 'string') fixes.push(...patchedRangeFloors(patched));
  const versions = new Set<string>();
  for (const text of affected.versions ?? []) {
    versions.add(text);
    const normalised = semver.valid(text, LOOSE);
    if (normalised) versions.add(normalised);
  }
  // An entry that names the package but gives neither ranges nor versions covers every version.
  if (ranges.length === 0 && versions.size === 0 && typeof vulnerable !== 'string')
    intervals.push(ALL_VERSIONS);
  // A "fix" that another interval still covers fixes nothing: keep only unaffected versions.
  const realFixes = fixes.filter(
    (fix) =>
      !versions.has(fix.text) && !intervals.some((interval) => intervalContains(interval, fix.version)),
  );
  realFixes.sort((a, b) => compareVersions(a.version, b.version));
  let lowKey = Number.POSITIVE_INFINITY;
  let highKey = Number.NEGATIVE_INFINITY;
  for (const interval of intervals) {
    const low = interval.low ? interval.low.key : Number.NEGATIVE_INFINITY;
    const high = interval.high ? interval.high.key : Number.POSITIVE_INFINITY;
    lowKey = Math.min(lowKey, Number.isNaN(low) ? Number.NEGATIVE_INFINITY : low);
    highKey = Math.max(highKey, Number.isNaN(high) ? Number.POSITIVE_INFINITY : high);
  }
  return { intervals, lowKey, highKey, versions, fixes: realFixes };
}

function patchedRangeFloors(range: string): { version: Version; text: string }[] {
  const floors: { version: Version; text: string }[] = [];
  for (const set of range.split('||')) {
    if (set.trim() === '') continue;
    try {
      const floor = semver.minVersion(set, LOOSE);
      if (!floor || !semver.satisfies(floor, set, { includePrerelease: true })) continue;
      if (floor.major === 0 && floor.minor === 0 && floor.patch === 0 && floor.prerelease.length === 0)
        continue;
      floors.push({ version: parseVersion(floor.version) as Version, text: floor.version });
    } catch {
      // not a range npm understands: no fixed version from it
    }
  }
  return floors;
}

export function affectedContains(
  compiled: CompiledAffected,
  text: string,
  version: Version | undefined,
): boolean {
  if (compiled.versions.size > 0 && compiled.versions.has(text)) return true;
  if (!version) return false;
  // Keys order exactly when they differ; equal or NaN keys fall through to the full comparison.
  if (version.key < compiled.lowKey || version.key > compiled.highKey) return false;
  for (const interval of compiled.intervals) if (intervalContains(interval, version)) return true;
  return false;
}

export interface Fix {
  readonly version: Version;
  readonly text: string;
}

/** Lowest fixed version strictly above `version`, or undefined. */
export function lowestFixAbove(compiled: CompiledAffected, version: Version): Fix | undefined {
  for (const fix of compiled.fixes) if (compareVersions(fix.version, version) > 0) return fix;
  return undefined;
}
