/** package-lock.json (v1, v2, v3) and npm-shrinkwrap.json. */
import npa from 'npm-package-arg';
import { UsageError } from '../errors';
import type { ParsedInput } from '../types';
import { isRecord, manifestRoots, PackageCollector, toManifest, type Manifest } from './common';
import { jsonKeyLines, PATH_SEP } from './json-lines';

const NM = 'node_modules/';

export function parseNpmLockfile(text: string, source: string, manifest?: Manifest): ParsedInput {
  let lock: unknown;
  try {
    lock = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${source} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isRecord(lock)) throw new UsageError(`${source} is not an npm lockfile (not a JSON object)`);
  const version = typeof lock.lockfileVersion === 'number' ? lock.lockfileVersion : 1;
  if (version >= 2 && isRecord(lock.packages)) return fromPackages(text, source, lock.packages, version);
  if (isRecord(lock.dependencies))
    return fromDependencies(text, source, lock.dependencies, version, manifest);
  if (version >= 2)
    throw new UsageError(`${source}: lockfileVersion ${version} without a "packages" section`);
  return { source, format: 'npm', formatVersion: String(version), packages: [], skipped: [] };
}

/** Name of the package installed at a `node_modules/...` path. */
function nameFromPath(key: string): string {
  return key.slice(key.lastIndexOf(NM) + NM.length);
}

/** Registry packages have an http(s) tarball with `/-/` in `resolved`, or no `resolved` at all. */
function nonRegistryReason(resolved: unknown): string | undefined {
  if (typeof resolved !== 'string') return undefined;
  if (/^https?:/.test(resolved))
    return resolved.includes('/-/') ? undefined : 'remote tarball, not a registry package';
  return `not a registry package (${resolved.split(':')[0]})`;
}

/** v2/v3: the flat `packages` map keyed by install path. */
function fromPackages(
  text: string,
  source: string,
  packages: Record<string, unknown>,
  version: number,
): ParsedInput {
  const lines = jsonKeyLines(text, (p) => p.length === 2 && p[0] === 'packages');
  const lineOf = (key: string) => lines.get(`packages${PATH_SEP}${key}`);

  // Projects: the root ('') and workspace folders (keys outside node_modules).
  const directPaths = new Set<string>();
  for (const [key, entry] of Object.entries(packages)) {
    if (key !== '' && key.includes(NM)) continue;
    if (!isRecord(entry)) continue;
    const m = toManifest(entry);
    const { prod, dev } = manifestRoots(m);
    for (const name of [...prod, ...dev]) {
      const own = key === '' ? `${NM}${name}` : `${key}/${NM}${name}`;
      directPaths.add(own in packages ? own : `${NM}${name}`);
    }
  }

  const collector = new PackageCollector();
  for (const [key, entry] of Object.entries(packages)) {
    if (!key.includes(NM) || !isRecord(entry)) continue;
    if (entry.link === true) continue; // a workspace symlink; the folder itself is a project
    const name = typeof entry.name === 'string' ? entry.name : nameFromPath(key);
    const line = lineOf(key);
    const location = line === undefined ? undefined : { file: source, line };
    const why = nonRegistryReason(entry.resolved);
    if (why !== undefined || typeof entry.version !== 'string') {
      collector.skip({
        name,
        spec: String(entry.resolved ?? entry.version ?? ''),
        reason: why ?? 'no version',
        location,
      });
      continue;
    }
    collector.add(name, entry.version, { direct: directPaths.has(key), dev: entry.dev === true, location });
  }
  return {
    source,
    format: 'npm',
    formatVersion: String(version),
    packages: collector.result(),
    skipped: collector.skipped,
  };
}

/** v1: the nested `dependencies` tree; direct dependencies come from package.json when there is one. */
function fromDependencies(
  text: string,
  source: string,
  deps: Record<string, unknown>,
  version: number,
  manifest: Manifest | undefined,
): ParsedInput {
  const lines = jsonKeyLines(
    text,
    (p) => p.length % 2 === 0 && p.every((part, i) => i % 2 === 1 || part === 'dependencies'),
  );
  const roots = manifest ? manifestRoots(manifest) : undefined;
  const collector = new PackageCollector();
  const walk = (level: Record<string, unknown>, jsonPath: string[]) => {
    for (const [key, entry] of Object.entries(level)) {
      if (!isRecord(entry)) continue;
      const here = [...jsonPath, 'dependencies', key];
      const line = lines.get(here.join(PATH_SEP));
      const location = line === undefined ? undefined : { file: source, line };
      const direct = roots ? jsonPath.length === 0 && (roots.prod.has(key) || roots.dev.has(key)) : undefined;
      const raw = typeof entry.version === 'string' ? entry.version : '';
      let name = key;
      let exact = raw;
      if (raw.startsWith('npm:')) {
        // An alias: `"version": "npm:real-name@1.2.3"`.
        try {
          const spec = npa(raw.slice(4));
          name = spec.name ?? key;
          exact = spec.rawSpec;
        } catch {
          exact = raw;
        }
      }
      const why = nonRegistryReason(entry.resolved);
      if (why !== undefined) collector.skip({ name, spec: raw, reason: why, location });
      else collector.add(name, exact, { direct, dev: entry.dev === true, location });
      if (isRecord(entry.dependencies)) walk(entry.dependencies, here);
    }
  };
  walk(deps, []);
  return {
    source,
    format: 'npm',
    formatVersion: String(version),
    packages: collector.result(),
    skipped: collector.skipped,
  };
}
