/** pnpm-lock.yaml, lockfile versions 6.x (pnpm 8) and 9.x (pnpm 9 and 10). */
import { UsageError } from '../errors';
import type { ParsedInput } from '../types';
import { isRecord, PackageCollector, reachable } from './common';
import { parseYamlWithLines } from './yaml-lines';

const DEP_FIELDS = ['dependencies', 'optionalDependencies', 'devDependencies'] as const;

/** `name@version(peer@1)(other@2)` without the peer suffix. */
function stripPeers(key: string): string {
  const paren = key.indexOf('(');
  return paren === -1 ? key : key.slice(0, paren);
}

/** Splits `name@version` at the separator `@` (not a scope's). */
function splitKey(key: string): { name: string; version: string } {
  const at = key.indexOf('@', 1);
  return at === -1 ? { name: key, version: '' } : { name: key.slice(0, at), version: key.slice(at + 1) };
}

export function parsePnpmLockfile(text: string, source: string): ParsedInput {
  const { data, keyLines } = parseYamlWithLines(text, source);
  if (!isRecord(data)) throw new UsageError(`${source} is not a pnpm lockfile`);
  const formatVersion = String(data.lockfileVersion ?? '');
  const major = Number.parseInt(formatVersion, 10);
  if (!(major === 6 || major === 9)) {
    throw new UsageError(
      `${source}: pnpm lockfile version '${formatVersion}' is not supported (6.x and 9.x are); ` +
        'regenerate it with a current pnpm',
    );
  }
  const v6 = major === 6;
  const packages = isRecord(data.packages) ? data.packages : {};
  const snapshots = v6 ? packages : isRecord(data.snapshots) ? data.snapshots : {};

  /** Node id (a snapshot key) for a dependency `name: ref`. */
  const nodeId = (name: string, ref: string): string | undefined => {
    if (/^(link|file|workspace):/.test(ref)) return undefined;
    const base = stripPeers(v6 ? ref.replace(/^\//, '') : ref);
    const full = base.includes('@') ? ref.replace(/^\//, '') : `${name}@${ref}`;
    return v6 ? `/${full}` : full;
  };
  const edges = (id: string): string[] => {
    const snap = snapshots[id];
    if (!isRecord(snap)) return [];
    return ['dependencies', 'optionalDependencies'].flatMap((f) => {
      const deps = snap[f];
      return isRecord(deps)
        ? Object.entries(deps).flatMap(([n, r]) => {
            const id2 = nodeId(n, String(r));
            return id2 === undefined ? [] : [id2];
          })
        : [];
    });
  };

  // Importers: v9 always; v6 only for workspaces, else the root sections sit at the top level.
  const importers = isRecord(data.importers) ? data.importers : { '.': data };
  const prodRoots: string[] = [];
  const devRoots: string[] = [];
  for (const importer of Object.values(importers)) {
    if (!isRecord(importer)) continue;
    for (const field of DEP_FIELDS) {
      const deps = importer[field];
      if (!isRecord(deps)) continue;
      for (const [name, dep] of Object.entries(deps)) {
        const ref = isRecord(dep) ? String(dep.version ?? '') : String(dep);
        const id = nodeId(name, ref);
        if (id !== undefined) (field === 'devDependencies' ? devRoots : prodRoots).push(id);
      }
    }
  }
  const prod = reachable(prodRoots, edges);
  const direct = new Set([...prodRoots, ...devRoots]);

  const packageLines = keyLines('packages');
  const snapshotLines = v6 ? new Map<string, number>() : keyLines('snapshots');
  const collector = new PackageCollector();
  const snapshotBases = new Set(Object.keys(snapshots).map(stripPeers));
  const ids = new Set([...Object.keys(snapshots), ...(v6 ? [] : Object.keys(packages))]);
  for (const id of ids) {
    const pkgKey = v6 ? id : stripPeers(id);
    const { name, version } = splitKey(stripPeers(id.replace(/^\//, '')));
    const lines = [packageLines.get(id), packageLines.get(pkgKey), snapshotLines.get(id)];
    const locations = [...new Set(lines.filter((l): l is number => l !== undefined))];
    const entry = packages[pkgKey];
    const resolution = isRecord(entry) && isRecord(entry.resolution) ? entry.resolution : {};
    const isSnapshot = id in snapshots;
    const occurrence = {
      direct: isSnapshot ? direct.has(id) : undefined,
      dev: isSnapshot ? !prod.has(id) : undefined,
    };
    if (resolution.tarball !== undefined || resolution.type === 'git' || resolution.repo !== undefined) {
      collector.skip({
        name,
        spec: version,
        reason: 'not a registry package',
        location: locations[0] === undefined ? undefined : { file: source, line: locations[0] },
      });
      continue;
    }
    if (!isSnapshot && !v6) {
      // A package listed without a snapshot of its own is covered by its snapshots, if any.
      if (snapshotBases.has(id)) continue;
    }
    for (const line of locations.length > 0 ? locations : [undefined]) {
      collector.add(name, version, {
        ...occurrence,
        location: line === undefined ? undefined : { file: source, line },
      });
    }
  }
  return { source, format: 'pnpm', formatVersion, packages: collector.result(), skipped: collector.skipped };
}
