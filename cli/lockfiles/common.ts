/** Helpers shared by the lockfile readers: merging occurrences, manifests, graph walks. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { packageNameProblem, quoted } from '../../src/contract/names';
import type { InputPackage, SkippedDependency, SourceLocation } from '../types';

export interface Occurrence {
  readonly direct?: boolean;
  readonly dev?: boolean;
  readonly location?: SourceLocation;
}

/** Why `name@version` cannot be looked up in the registry-backed service, or undefined when it can. */
export function notLookupable(name: string, version: string): string | undefined {
  if (packageNameProblem(name) !== undefined) return `${quoted(name)} is not a valid npm package name`;
  if (semver.valid(version) === null) return `'${version}' is not a registry version`;
  return undefined;
}

/** Collects occurrences and merges them into one entry per name@version. */
export class PackageCollector {
  private readonly packages = new Map<string, InputPackage & { devSeen: (boolean | undefined)[] }>();
  readonly skipped: SkippedDependency[] = [];

  add(name: string, version: string, occurrence: Occurrence): void {
    const why = notLookupable(name, version);
    if (why !== undefined) {
      this.skip({ name, spec: version, reason: why, location: occurrence.location });
      return;
    }
    const exact = semver.valid(version) ?? version;
    const id = `${name}@${exact}`;
    let entry = this.packages.get(id);
    if (!entry) {
      entry = { name, version: exact, direct: undefined, dev: undefined, locations: [], devSeen: [] };
      this.packages.set(id, entry);
    }
    if (occurrence.direct === true) entry.direct = true;
    else if (occurrence.direct === false && entry.direct === undefined) entry.direct = false;
    entry.devSeen.push(occurrence.dev);
    const loc = occurrence.location;
    if (loc && !entry.locations.some((l) => l.file === loc.file && l.line === loc.line)) {
      entry.locations.push(loc);
    }
  }

  skip(dep: SkippedDependency): void {
    const location = dep.location;
    this.skipped.push(location ? dep : { name: dep.name, spec: dep.spec, reason: dep.reason });
  }

  /** Entries sorted by name then version; `dev` is true only when every occurrence is dev. */
  result(): InputPackage[] {
    const out: InputPackage[] = [];
    for (const { devSeen, ...entry } of this.packages.values()) {
      const dev = devSeen.includes(false) ? false : devSeen.every((d) => d === true) ? true : undefined;
      entry.locations.sort((a, b) => a.line - b.line);
      out.push({ ...entry, dev });
    }
    return out.sort((a, b) =>
      a.name === b.name ? semver.compare(a.version, b.version) : a.name < b.name ? -1 : 1,
    );
  }
}

export interface Manifest {
  readonly dependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
  readonly optionalDependencies: Record<string, string>;
  readonly peerDependencies: Record<string, string>;
  readonly workspaces: boolean;
}

function stringMap(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

export function toManifest(raw: unknown): Manifest {
  const obj = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  return {
    dependencies: stringMap(obj.dependencies),
    devDependencies: stringMap(obj.devDependencies),
    optionalDependencies: stringMap(obj.optionalDependencies),
    peerDependencies: stringMap(obj.peerDependencies),
    workspaces: obj.workspaces !== undefined,
  };
}

/** The package.json in `dir`, or undefined when there is none or it is not JSON. */
export function readManifest(dir: string): Manifest | undefined {
  try {
    return toManifest(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')));
  } catch {
    return undefined;
  }
}

/** Names a manifest depends on for production (dependencies, optional, peer) and for development. */
export function manifestRoots(m: Manifest): { prod: Set<string>; dev: Set<string> } {
  const prod = new Set([
    ...Object.keys(m.dependencies),
    ...Object.keys(m.optionalDependencies),
    ...Object.keys(m.peerDependencies),
  ]);
  const dev = new Set(Object.keys(m.devDependencies).filter((n) => !prod.has(n)));
  return { prod, dev };
}

/** Every node reachable from `starts` through `edges`. */
export function reachable(starts: Iterable<string>, edges: (id: string) => Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const stack = [...starts];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const next of edges(id)) if (!seen.has(next)) stack.push(next);
  }
  return seen;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
