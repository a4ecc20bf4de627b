/**
 * What changed since the previous version: the strongest single signal of a hijacked release.
 *
 * The previous version is the highest version the registry publishes below the scanned one
 * (pre-releases only when the scanned version is one). Its manifest in the packument gives the
 * metadata differences (install scripts, dependencies, maintainers, publisher, provenance, size);
 * when its scan is stored too, the analysis differences (capabilities, agentic threats,
 * install-time behaviour) are added. Pure: no I/O.
 */
import semver from 'semver';
import type { RiskInput as PolicyInput } from '../../src/policy/risk-policy';
import type { AnalysisResult } from '../../src/engine/types';
import type { Changes, PackageResponse } from '../../src/contract/schemas';
import { hasProvenance, type Packument, type PackumentVersion } from '../shared/registry/npm-registry';
import type { StoredVersion } from '../shared/store/package-store';

/** Scripts npm runs when the package is installed from the registry. */
const INSTALL_PHASES = ['preinstall', 'install', 'postinstall'] as const;
/** Entries listed per change before "and N more". */
const LIST_MAX = 8;
/** A size jump: the unpacked size at least this many times the previous one ... */
const SIZE_RATIO = 3;
/** ... and at least this many bytes larger. */
const SIZE_MIN_BYTES = 200 * 1024;

export type ChangeItem = Changes['items'][number];

/** What the risk policy needs of the changes (stored in the scan basis). */
export type ReleaseChanges = NonNullable<PolicyInput['release_changes']>;

export interface ChangeReport {
  readonly changes: Changes;
  /** For the risk policy; undefined when there is nothing to compare or nothing it weighs. */
  readonly policy: ReleaseChanges | undefined;
  /** The previous version had a provenance attestation and this one has none: that version. */
  readonly provenanceLostSince: string | undefined;
}

/** The version `version` is compared with, or undefined for a first release. */
export function previousVersion(packument: Packument, version: string): string | undefined {
  const current = semver.parse(version);
  if (!current) return undefined;
  const allowPre = current.prerelease.length > 0;
  let best: string | undefined;
  for (const candidate of Object.keys(packument.versions ?? {})) {
    const parsed = semver.parse(candidate);
    if (!parsed || semver.gte(parsed, current)) continue;
    if (!allowPre && parsed.prerelease.length > 0) continue;
    if (best === undefined || semver.gt(parsed, best)) best = candidate;
  }
  return best;
}

export function releaseChanges(input: {
  readonly packument: Packument;
  readonly version: PackumentVersion;
  readonly analysis: Pick<AnalysisResult, 'risk_input' | 'capabilities' | 'agentic_threats'>;
  /** The version compared with: `previousVersion(packument, version.version)`. */
  readonly since: string | undefined;
  /** The stored scan of `since`, when there is one. */
  readonly previousScan: StoredVersion | undefined;
}): ChangeReport {
  const { since } = input;
  const prev = since === undefined ? undefined : input.packument.versions?.[since];
  if (since === undefined || prev === undefined) {
    return { changes: { since: null, items: [] }, policy: undefined, provenanceLostSince: undefined };
  }
  const items: ChangeItem[] = [];
  const add = (kind: ChangeItem['kind'], detail: string) => items.push({ kind, detail });

  // Install scripts, from the manifests.
  const before = installScripts(prev);
  const after = installScripts(input.version);
  const added: string[] = [];
  for (const [phase, command] of after) {
    const old = before.get(phase);
    if (old === undefined) {
      added.push(phase);
      add('install_script_added', `${phase}: ${clip(command)}`);
    } else if (old !== command) {
      add('install_script_changed', `${phase}: ${clip(old)} → ${clip(command)}`);
    }
  }

  // Dependencies.
  const newDeps = [...dependencyNames(input.version)].filter((d) => !dependencyNames(prev).has(d)).sort();
  if (newDeps.length > 0) add('dependency_added', listed(newDeps));

  // People.
  const maintainersBefore = maintainerNames(prev);
  const maintainersAfter = maintainerNames(input.version);
  if (maintainersBefore.size > 0 && maintainersAfter.size > 0) {
    const joined = [...maintainersAfter].filter((m) => !maintainersBefore.has(m)).sort();
    const left = [...maintainersBefore].filter((m) => !maintainersAfter.has(m)).sort();
    if (joined.length > 0 || left.length > 0) {
      add(
        'maintainers_changed',
        [joined.length ? `added ${listed(joined)}` : '', left.length ? `removed ${listed(left)}` : '']
          .filter(Boolean)
          .join('; '),
      );
    }
  }
  const publisherBefore = prev._npmUser?.name;
  const publisherAfter = input.version._npmUser?.name;
  if (publisherBefore && publisherAfter && publisherBefore !== publisherAfter) {
    add('publisher_changed', `${publisherBefore} → ${publisherAfter}`);
  }
  const provenanceLost = hasProvenance(prev) && !hasProvenance(input.version);
  if (provenanceLost) add('provenance_lost', `${since} had a provenance attestation; this version has none`);

  // Size.
  const sizeBefore = unpackedSize(prev);
  const sizeAfter = unpackedSize(input.version);
  if (
    sizeBefore !== undefined &&
    sizeAfter !== undefined &&
    sizeAfter >= sizeBefore * SIZE_RATIO &&
    sizeAfter - sizeBefore >= SIZE_MIN_BYTES
  ) {
    add('size_jump', `${kib(sizeBefore)} → ${kib(sizeAfter)} unpacked`);
  }

  // Analysis differences, when the previous version's scan is stored.
  const stored = input.previousScan?.result.version === since ? input.previousScan : undefined;
  const nowInstall = input.analysis.risk_input.install_time_capabilities;
  let installTimeAdded: string | undefined;
  if (stored) {
    capabilityChanges(stored.result, input.analysis, add);
    const oldThreats = new Set(stored.result.agentic_threats.map(threatKey));
    const newThreats = input.analysis.agentic_threats.filter((t) => !oldThreats.has(threatKey(t)));
    if (newThreats.length > 0) {
      add(
        'agentic_threat_added',
        listed(newThreats.map((t) => `${t.threat_type} at ${t.location.replace(/:\d+$/, '')}`)),
      );
    }
    const oldInstall = (stored.basis?.risk_input as PolicyInput | undefined)?.install_time_capabilities;
    if (oldInstall && nowInstall) {
      const what = [
        nowInstall.makes_requests && !oldInstall.makes_requests ? 'network requests' : '',
        nowInstall.spawns_children && !oldInstall.spawns_children ? 'starting processes' : '',
      ].filter(Boolean);
      if (what.length > 0) installTimeAdded = what.join(' and ');
    }
  }
  if (installTimeAdded === undefined && before.size === 0 && added.length > 0 && nowInstall) {
    const what = [
      nowInstall.makes_requests ? 'network requests' : '',
      nowInstall.spawns_children ? 'starting processes' : '',
    ].filter(Boolean);
    if (what.length > 0) installTimeAdded = what.join(' and ');
  }
  if (installTimeAdded !== undefined) {
    add('install_time_behaviour_added', `install-time code now makes ${installTimeAdded}; ${since} did not`);
  }

  const policy: ReleaseChanges | undefined =
    (before.size === 0 && added.length > 0) || installTimeAdded !== undefined
      ? {
          since,
          install_scripts_added: before.size === 0 ? added.map((p) => `${p} ("${clip(after.get(p)!)}")`) : [],
          install_time_added: installTimeAdded ?? null,
          install_time_network: Boolean(nowInstall?.makes_requests),
        }
      : undefined;
  return { changes: { since, items }, policy, provenanceLostSince: provenanceLost ? since : undefined };
}

function capabilityChanges(
  before: PackageResponse,
  after: Pick<AnalysisResult, 'capabilities'>,
  add: (kind: ChangeItem['kind'], detail: string) => void,
): void {
  const a = before.capabilities;
  const b = after.capabilities;
  const fresh = (was: readonly string[], now: readonly string[]) => now.filter((x) => !was.includes(x));
  const parts: Array<[string, string[]]> = [
    ['domains', fresh(a.network.domains, b.network.domains)],
    ['commands', fresh(a.process.commands, b.process.commands)],
    ['environment variables', fresh(a.environment.accessed_vars, b.environment.accessed_vars)],
    ['native modules', fresh(a.native.native_modules, b.native.native_modules)],
  ];
  for (const [what, list] of parts) if (list.length > 0) add('capability_added', `${what}: ${listed(list)}`);
  if (!a.network.makes_requests && b.network.makes_requests)
    add('capability_added', 'now makes network requests');
  if (!a.process.spawns_children && b.process.spawns_children)
    add('capability_added', 'now starts processes');
  if (!a.native.has_native && b.native.has_native) add('capability_added', 'now contains native code');
}

function installScripts(version: PackumentVersion): Map<string, string> {
  const scripts = version.scripts as Record<string, unknown> | undefined;
  const out = new Map<string, string>();
  if (!scripts || typeof scripts !== 'object') return out;
  for (const phase of INSTALL_PHASES) {
    const command = scripts[phase];
    if (typeof command === 'string' && command.trim() !== '') out.set(phase, command);
  }
  return out;
}

function dependencyNames(version: PackumentVersion): Set<string> {
  const names = new Set<string>();
  for (const field of ['dependencies', 'optionalDependencies'] as const) {
    const deps = version[field];
    if (deps && typeof deps === 'object') for (const name of Object.keys(deps)) names.add(name);
  }
  return names;
}

function maintainerNames(version: PackumentVersion): Set<string> {
  const list = version.maintainers;
  const names = new Set<string>();
  if (!Array.isArray(list)) return names;
  for (const m of list as unknown[]) {
    const name = typeof m === 'string' ? m.replace(/\s*[<(].*$/, '') : (m as { name?: unknown })?.name;
    if (typeof name === 'string' && name !== '') names.add(name);
  }
  return names;
}

function unpackedSize(version: PackumentVersion): number | undefined {
  const size = (version.dist as { unpackedSize?: unknown } | undefined)?.unpackedSize;
  return typeof size === 'number' && size > 0 ? size : undefined;
}

function threatKey(t: { threat_type: string; location: string }): string {
  return `${t.threat_type}\u0000${t.location.replace(/:\d+$/, '')}`;
}

function listed(items: readonly string[]): string {
  const shown = items.slice(0, LIST_MAX).join(', ');
  return items.length > LIST_MAX ? `${shown} and ${items.length - LIST_MAX} more` : shown;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}

function kib(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.round(bytes / 1024)} KiB`;
}
