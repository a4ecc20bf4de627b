/** yarn.lock: classic (v1, yarn's own format) and berry (yarn 2+, YAML with `__metadata`). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import npa from 'npm-package-arg';
import { UsageError } from '../errors';
import type { NpaResult } from '../specs';
import type { ParsedInput, SourceLocation } from '../types';
import {
  isRecord,
  manifestRoots,
  PackageCollector,
  reachable,
  readManifest,
  toManifest,
  type Manifest,
} from './common';
import { parseYamlWithLines } from './yaml-lines';

import * as yarnLockfileModule from '@yarnpkg/lockfile';

// A CommonJS bundle flagged `__esModule`: Node puts `parse` on the default export, bundlers and
// jest on the namespace. Take it from wherever it is.
const yarnLockfile: typeof yarnLockfileModule =
  'parse' in yarnLockfileModule
    ? yarnLockfileModule
    : (yarnLockfileModule as unknown as { default: typeof yarnLockfileModule }).default;

export function isBerryLockfile(text: string): boolean {
  return /^__metadata:/m.test(text);
}

/** Splits a lockfile header (`"a@^1", a@^1.2:`) into its descriptors. */
function splitHeader(header: string): string[] {
  return header
    .split(/,\s*/)
    .map((d) => d.trim().replace(/^"(.*)"$/, '$1'))
    .filter((d) => d.length > 0);
}

/** The package name of a descriptor `name@range` (the `@` of a scope is not the separator). */
function descriptorName(descriptor: string): string {
  const at = descriptor.indexOf('@', 1);
  return at === -1 ? descriptor : descriptor.slice(0, at);
}

interface Node {
  readonly name: string;
  readonly version: string | undefined;
  readonly skipReason: string | undefined;
  readonly spec: string;
  readonly deps: string[];
  readonly location: SourceLocation | undefined;
}

/**
 * Marks direct and dev packages by walking from the project's roots: dev when only dev roots
 * reach a node. Without roots (no package.json) both stay unknown.
 */
function classify(
  nodes: Map<string, Node>,
  prodRoots: string[] | undefined,
  devRoots: string[] | undefined,
  collector: PackageCollector,
): void {
  const edges = (id: string) => nodes.get(id)?.deps ?? [];
  const prod = prodRoots ? reachable(prodRoots, edges) : undefined;
  const direct = prodRoots && devRoots ? new Set([...prodRoots, ...devRoots]) : undefined;
  const idsOf = new Map<Node, string[]>();
  for (const [id, node] of nodes) {
    const ids = idsOf.get(node);
    if (ids) ids.push(id);
    else idsOf.set(node, [id]);
  }
  for (const [node, ids] of idsOf) {
    if (node.skipReason !== undefined) {
      collector.skip({ name: node.name, spec: node.spec, reason: node.skipReason, location: node.location });
      continue;
    }
    if (node.version === undefined) continue;
    collector.add(node.name, node.version, {
      direct: direct ? ids.some((k) => direct.has(k)) : undefined,
      dev: prod ? !ids.some((k) => prod.has(k)) : undefined,
      location: node.location,
    });
  }
}

/** Skip reason for a classic descriptor, and the registry name behind an alias. */
function classicTarget(descriptor: string): { name: string; skip?: string } {
  try {
    const spec: NpaResult = npa(descriptor);
    if (spec.type === 'alias') return { name: spec.subSpec?.name ?? descriptorName(descriptor) };
    if (spec.type === 'version' || spec.type === 'range' || spec.type === 'tag') {
      return { name: spec.name ?? descriptorName(descriptor) };
    }
    return { name: spec.name ?? descriptorName(descriptor), skip: `not a registry package (${spec.type})` };
  } catch {
    return { name: descriptorName(descriptor), skip: 'unrecognised dependency specifier' };
  }
}

export function parseYarnClassic(text: string, source: string, manifest?: Manifest): ParsedInput {
  const parsed = yarnLockfile.parse(text);
  if (parsed.type === 'conflict') throw new UsageError(`${source} has unresolved merge conflicts`);
  const headerLines = new Map<string, number>();
  text.split('\n').forEach((line, i) => {
    if (/^[^\s#].*:\s*$/.test(line)) {
      for (const d of splitHeader(line.replace(/:\s*$/, ''))) headerLines.set(d, i + 1);
    }
  });
  const nodes = new Map<string, Node>();
  const byEntry = new Map<unknown, Node>();
  for (const [descriptor, entry] of Object.entries(parsed.object)) {
    if (!isRecord(entry)) continue;
    let node = byEntry.get(entry);
    if (!node) {
      const target = classicTarget(descriptor);
      const resolved = typeof entry.resolved === 'string' ? entry.resolved : '';
      const skip =
        target.skip ?? (resolved && !/^https?:/.test(resolved) ? 'not a registry package' : undefined);
      const line = headerLines.get(descriptor);
      const deps = [entry.dependencies, entry.optionalDependencies].flatMap((m) =>
        isRecord(m) ? Object.entries(m).map(([n, r]) => `${n}@${String(r)}`) : [],
      );
      node = {
        name: target.name,
        version: typeof entry.version === 'string' ? entry.version : undefined,
        skipReason: skip,
        spec: descriptor,
        deps,
        location: line === undefined ? undefined : { file: source, line },
      };
      byEntry.set(entry, node);
    }
    nodes.set(descriptor, node);
  }
  const collector = new PackageCollector();
  // Workspaces put their own dependencies in the lockfile too; without reading each one, stay unknown.
  const roots = manifest && !manifest.workspaces ? manifestRoots(manifest) : undefined;
  const rootIds = (names: Set<string>, m: Manifest) =>
    [...names].map((n) => {
      const range =
        m.dependencies[n] ?? m.optionalDependencies[n] ?? m.devDependencies[n] ?? m.peerDependencies[n];
      return `${n}@${range}`;
    });
  classify(
    nodes,
    roots && manifest ? rootIds(roots.prod, manifest) : undefined,
    roots && manifest ? rootIds(roots.dev, manifest) : undefined,
    collector,
  );
  return {
    source,
    format: 'yarn-classic',
    formatVersion: '1',
    packages: collector.result(),
    skipped: collector.skipped,
  };
}

/** A berry resolution `name@protocol:rest` as name, protocol and the part after it. */
function splitResolution(resolution: string): { name: string; protocol: string; rest: string } {
  const name = descriptorName(resolution);
  const after = resolution.slice(name.length + 1);
  const colon = after.indexOf(':');
  return colon === -1
    ? { name, protocol: '', rest: after }
    : { name, protocol: after.slice(0, colon), rest: after.slice(colon + 1) };
}

/** Registry name and version behind a berry resolution, following `patch:` to the patched package. */
function berryTarget(resolution: string): {
  name: string;
  version?: string;
  workspace?: string;
  skip?: string;
} {
  const { name, protocol, rest } = splitResolution(resolution);
  if (protocol === 'npm') return { name, version: rest };
  if (protocol === 'workspace') return { name, workspace: rest };
  if (protocol === 'patch') {
    const inner = decodeURIComponent(rest.split('#')[0] ?? '');
    const target = splitResolution(inner);
    if (target.protocol === 'npm') return { name: target.name, version: target.rest };
  }
  return { name, skip: `not a registry package (${protocol || 'unknown protocol'})` };
}

export function parseYarnBerry(text: string, source: string, lockDir: string): ParsedInput {
  const { data, keyLines } = parseYamlWithLines(text, source);
  if (!isRecord(data)) throw new UsageError(`${source} is not a yarn lockfile`);
  const meta = isRecord(data.__metadata) ? data.__metadata : {};
  const lines = keyLines();
  const nodes = new Map<string, Node>();
  const prodRoots: string[] = [];
  const devRoots: string[] = [];
  let rootsKnown = true;
  for (const [key, entry] of Object.entries(data)) {
    if (key === '__metadata' || !isRecord(entry)) continue;
    const line = lines.get(key);
    const location = line === undefined ? undefined : { file: source, line };
    const resolution = typeof entry.resolution === 'string' ? entry.resolution : (splitHeader(key)[0] ?? key);
    const target = berryTarget(resolution);
    const depMap = isRecord(entry.dependencies) ? entry.dependencies : {};
    const deps = Object.entries(depMap).map(([n, r]) => `${n}@${String(r)}`);
    const node: Node = {
      name: target.name,
      version: target.version,
      skipReason: target.skip,
      spec: resolution,
      deps,
      location,
    };
    for (const d of splitHeader(key)) nodes.set(d, node);
    if (target.workspace !== undefined) {
      const manifest = readWorkspaceManifest(lockDir, target.workspace);
      if (!manifest) {
        rootsKnown = false;
        prodRoots.push(...deps);
        continue;
      }
      const { prod, dev } = manifestRoots(manifest);
      for (const [n, r] of Object.entries(depMap))
        (prod.has(n) || !dev.has(n) ? prodRoots : devRoots).push(`${n}@${String(r)}`);
    }
  }
  const collector = new PackageCollector();
  // Without every workspace's package.json, direct dependencies are still known; dev ones are not.
  classify(nodes, rootsKnown ? prodRoots : undefined, rootsKnown ? devRoots : undefined, collector);
  const packages = collector.result();
  if (!rootsKnown) {
    const direct = new Set(
      prodRoots.map((id) => nodes.get(id)).flatMap((n) => (n ? [`${n.name}@${n.version ?? ''}`] : [])),
    );
    for (const pkg of packages) pkg.direct = direct.has(`${pkg.name}@${pkg.version}`);
  }
  return {
    source,
    format: 'yarn-berry',
    formatVersion: String(meta.version ?? ''),
    packages,
    skipped: collector.skipped,
  };
}

function readWorkspaceManifest(lockDir: string, workspace: string): Manifest | undefined {
  if (workspace === '.') return readManifest(lockDir);
  try {
    return toManifest(JSON.parse(readFileSync(path.join(lockDir, workspace, 'package.json'), 'utf8')));
  } catch {
    return undefined;
  }
}
