/**
 * One scan job, start to finish: fetch (registry or upload), analyse, score, store, complete.
 *
 * Idempotent: a job already completed or failed is skipped, every write can be repeated, and a
 * redelivered message after a crash at any point finishes the job. Failures that retrying cannot
 * fix (unknown package, bad integrity, unreadable archive) fail the job and consume the message;
 * anything else is thrown so the queue retries and, in the end, the dead-letter queue takes it.
 */
import type { AdvisorySource } from '../advisories/ports';
import { analyzeFiles, DEFAULT_LIMITS } from '../../src/engine/index';
import type { AnalysisResult } from '../../src/engine/types';
import type { RiskInput as PolicyInput } from '../../src/policy/risk-policy';
import { packageNameProblem, versionSelector } from '../../src/contract/names';
import { docsWithRisk } from '../../src/contract/records';
import type {
  Changes,
  DownloadsSource,
  InstallTime,
  PackageResponse,
  Publisher,
} from '../../src/contract/schemas';
import {
  trustFields,
  trustFrom,
  trustScore,
  type StoredTrustInput,
  type TrustResult,
} from '../shared/domain/trust';
import type { WeeklyDownloadsClient } from '../shared/downloads/weekly-downloads';
import { previousVersion, releaseChanges } from './changes';
import { vulnerabilitiesOf, type Vulnerabilities, type VulnerabilityInput } from './vulnerabilities';
import type { ScanMessage } from '../shared/queue/scan-queue';
import {
  hasProvenance,
  RegistryDataError,
  RegistryNotFoundError,
  TarballTooLargeError,
  type NpmRegistry,
  type Packument,
  type PackumentVersion,
} from '../shared/registry/npm-registry';
import type { JobStore } from '../shared/store/job-store';
import type { PackageStore } from '../shared/store/package-store';
import type { UploadStore } from '../shared/uploads/upload-store';

/** A failure that retrying cannot fix: the job fails with this message. */
export class PermanentScanError extends Error {
  override readonly name = 'PermanentScanError';
}

export interface RiskInput {
  readonly analysis: Pick<AnalysisResult, 'risk_input'>;
  readonly trust: Pick<TrustResult, 'score' | 'reasons'>;
  readonly vulnerabilities?: VulnerabilityInput;
}

export interface ScanDeps {
  readonly jobs: Pick<JobStore, 'get' | 'markRunning' | 'complete' | 'fail' | 'recordDuration'>;
  readonly packages: Pick<PackageStore, 'putScan' | 'getLatest' | 'storedVersion'>;
  readonly registry: Pick<NpmRegistry, 'packument' | 'resolveVersion' | 'tarball'>;
  readonly downloads: Pick<WeeklyDownloadsClient, 'weekly'>;
  readonly uploads: Pick<UploadStore, 'read'>;
  readonly advisories: AdvisorySource;
  readonly maxTarballBytes: number;
  analyze(tarball: Buffer): Promise<AnalysisResult>;
  /** The final risk of a package from its analysis and its trust (CVEs join here later). */
  assess(input: RiskInput): { risk_level: PackageResponse['risk_level']; risk_reasons: string[] };
  now(): Date;
}

export type ScanOutcome = 'completed' | 'failed' | 'skipped';

export async function runScan(message: ScanMessage, deps: ScanDeps): Promise<ScanOutcome> {
  const job = await deps.jobs.get(message.job_id);
  if (!job) throw new PermanentScanError(`Scan job ${message.job_id} does not exist`);
  if (job.status === 'completed' || job.status === 'failed') return 'skipped';
  if (!(await deps.jobs.markRunning(job.job_id))) return 'skipped';

  const started = Date.now();
  try {
    const result =
      message.source === 'registry' ? await scanFromRegistry(message, deps) : await scanUpload(message, deps);
    await deps.jobs.complete(job.job_id, result);
    await deps.jobs.recordDuration(Date.now() - started);
    return 'completed';
  } catch (error) {
    const permanent = asPermanent(error);
    if (!permanent) throw error;
    await deps.jobs.fail(job.job_id, permanent.message);
    return 'failed';
  }
}

async function scanFromRegistry(message: ScanMessage, deps: ScanDeps): Promise<PackageResponse> {
  // The queue's messages come from the API, which validated them; a message from anywhere else is
  // held to the same rules before its name reaches the registry.
  const nameProblem = packageNameProblem(message.name);
  if (nameProblem !== undefined) throw new PermanentScanError(`The package name ${nameProblem}`);
  const selector = versionSelector(message.version);
  if ('problem' in selector) throw new PermanentScanError(`The version ${selector.problem}`);
  const packument = await deps.registry.packument(message.name);
  const version = deps.registry.resolveVersion(packument, message.version);
  const [tarball, downloads] = await Promise.all([
    deps.registry.tarball(version).catch((error: unknown) => {
      if (error instanceof TarballTooLargeError) return error;
      throw error;
    }),
    deps.downloads.weekly(packument.name),
  ]);
  const analysis =
    tarball instanceof TarballTooLargeError
      ? manifestOnlyAnalysis(version, tarball.message)
      : await analyzeReadable(tarball, deps);
  const vulnerabilities = await vulnerabilitiesOf(packument.name, version.version, deps);
  const since = previousVersion(packument, version.version);
  const previousScan =
    since === undefined ? undefined : await deps.packages.storedVersion(packument.name, since);
  const changed = releaseChanges({ packument, version, analysis, since, previousScan });
  // An unknown count keeps the stored one: one failed lookup must not move a package in the list.
  const counted =
    downloads.count === undefined ? ((await storedDownloads(packument.name, deps)) ?? downloads) : downloads;
  const trustInput = trustInputOf(packument, version, changed.provenanceLostSince);
  const trust = trustFrom(trustInput, counted, deps.now());
  const riskInput = {
    ...analysis.risk_input,
    ...(changed.policy ? { release_changes: changed.policy } : {}),
  };
  const risk = deps.assess({
    analysis: { risk_input: riskInput },
    trust,
    vulnerabilities: vulnerabilities.policy,
  });
  const result: PackageResponse = {
    ...responseFields(analysis, risk, trust, vulnerabilities, deps.now(), changed.changes),
    name: packument.name,
    version: version.version,
    publisher: publisherOf(version),
    weekly_downloads: counted.count ?? 0,
    downloads_source: counted.source,
    published_at: trustInput.versionPublished ?? null,
  };
  const distTags = Object.entries(packument['dist-tags'] ?? {})
    .filter(([, v]) => v === version.version)
    .map(([tag]) => tag);
  await deps.packages.putScan(result, {
    distTags,
    basis: {
      risk_input: riskInput,
      trust: { score: trust.score, reasons: trust.reasons },
      trust_input: trustInput,
    },
  });
  return result;
}

async function scanUpload(message: ScanMessage, deps: ScanDeps): Promise<PackageResponse> {
  if (message.s3_key === undefined) throw new PermanentScanError('The tarball job has no uploaded object');
  let tarball: Buffer;
  try {
    tarball = await deps.uploads.read(message.s3_key, deps.maxTarballBytes);
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'NoSuchKey' || name === 'NotFound')
      throw new PermanentScanError('The uploaded tarball is gone');
    if (/exceeds the limit|the limit is/.test((error as Error).message)) {
      throw new PermanentScanError((error as Error).message);
    }
    throw error;
  }
  const analysis = await analyzeReadable(tarball, deps);
  // A private upload claiming a known name and version is checked against that version's advisories.
  const vulnerabilities = await vulnerabilitiesOf(analysis.name, analysis.version, deps);
  const trust = trustScore({
    weeklyDownloads: undefined,
    downloadsUnknownReason: 'an uploaded tarball has no registry data',
    maintainers: undefined,
    packageCreated: undefined,
    versionPublished: undefined,
    provenance: undefined,
    deprecated: undefined,
    now: deps.now(),
  });
  const risk = deps.assess({ analysis, trust, vulnerabilities: vulnerabilities.policy });
  // Private result: it is never written to the public package records.
  return {
    ...responseFields(analysis, risk, trust, vulnerabilities, deps.now(), { since: null, items: [] }),
    name: analysis.name,
    version: analysis.version,
    publisher: { name: 'unknown (uploaded tarball)', verified: false },
    weekly_downloads: 0,
    downloads_source: { kind: 'none', as_of: null },
    published_at: null,
  };
}

/** The stored count of the package, when it came from a source (a stored 0 from "unknown" does not count). */
async function storedDownloads(
  name: string,
  deps: ScanDeps,
): Promise<{ count: number; source: DownloadsSource } | undefined> {
  const { value } = await deps.packages.getLatest(name);
  const source = value?.downloads_source;
  return value && source && source.kind !== 'none' ? { count: value.weekly_downloads, source } : undefined;
}

/**
 * The trust inputs of a registry version that do not change with time or downloads (kept in the
 * scan basis, so the downloads refresh can recompute the score).
 */
export function trustInputOf(
  packument: Packument,
  version: PackumentVersion,
  provenanceLost?: string,
): StoredTrustInput {
  return {
    maintainers: maintainerCount(packument, version),
    packageCreated: packageCreated(packument)?.toISOString(),
    versionPublished: dateOf(packument.time?.[version.version])?.toISOString(),
    provenance: hasProvenance(version),
    ...(provenanceLost !== undefined ? { provenanceLost } : {}),
    ...(typeof version.deprecated === 'string' ? { deprecated: version.deprecated } : {}),
  };
}

/**
 * Limits that stop or thin the reading of an archive that is readable: npm would still install
 * such a package, so the scan stores a rated result (at least `warning`, with the reason) instead
 * of leaving the version "not scanned".
 */
const READING_LIMITS = new Set([
  'max_compression_ratio',
  'max_unpacked_bytes',
  'max_entries',
  'max_compressed_bytes',
  'archive_time_budget',
]);

/**
 * A registry tarball over the download limit is not analysed, but npm would still install it: the
 * version gets a rated result (at least `warning`, saying why) whose install scripts come from
 * the registry's manifest of the version (its package.json as published).
 */
function manifestOnlyAnalysis(version: PackumentVersion, why: string): AnalysisResult {
  const { dist: _dist, _npmUser: _user, ...manifest } = version;
  const pkg = Buffer.from(JSON.stringify(manifest));
  return analyzeFiles(
    [{ path: 'package.json', size: pkg.length, data: pkg, truncated: false }],
    DEFAULT_LIMITS,
    {
      skipped: [],
      limitsHit: ['max_compressed_bytes'],
      problems: [
        `${why}: the package code was not analysed (only the registry's manifest of this version), and npm would still install it.`,
      ],
      incomplete: true,
    },
  );
}

/** Analyses a tarball; an archive that cannot be read at all (and hit no limit) fails the job. */
async function analyzeReadable(tarball: Buffer, deps: ScanDeps): Promise<AnalysisResult> {
  const analysis = await deps.analyze(tarball);
  if (analysis.stats.files === 0 && !analysis.limits_hit.some((l) => READING_LIMITS.has(l))) {
    const why = analysis.limits_hit.length > 0 ? analysis.limits_hit.join('; ') : 'it holds no files';
    throw new PermanentScanError(`The tarball could not be read: ${why}`);
  }
  return analysis;
}

function responseFields(
  analysis: AnalysisResult,
  risk: { risk_level: PackageResponse['risk_level']; risk_reasons: string[] },
  trust: TrustResult,
  vulnerabilities: Vulnerabilities,
  now: Date,
  changes: Changes,
): Omit<PackageResponse, 'name' | 'version' | 'publisher' | 'weekly_downloads'> {
  return {
    registry: 'npm',
    risk_level: risk.risk_level,
    risk_reasons: risk.risk_reasons,
    ...trustFields(trust),
    changes,
    install_scripts: analysis.install_scripts,
    install_time: installTimeOf(analysis.risk_input),
    cves: vulnerabilities.cves,
    advisories: vulnerabilities.advisories,
    agentic_threats: analysis.agentic_threats,
    capabilities: analysis.capabilities,
    docs_md: docsWithRisk(analysis.docs_md, risk.risk_level),
    scanned_at: now.toISOString(),
  };
}

/** The install hooks and what the code they run does, from what the risk policy saw. */
function installTimeOf(input: PolicyInput): InstallTime {
  const caps = input.install_time_capabilities;
  return {
    scripts: input.install_scripts.map((s) => ({ name: s.name, command: s.command })),
    makes_requests: caps?.makes_requests ?? false,
    domains: [...(caps?.domains ?? [])].sort(),
    spawns_children: caps?.spawns_children ?? false,
    commands: [...(caps?.commands ?? [])].sort(),
  };
}

function asPermanent(error: unknown): PermanentScanError | undefined {
  if (error instanceof PermanentScanError) return error;
  if (error instanceof RegistryNotFoundError) return new PermanentScanError(`Not found: ${error.message}`);
  if (error instanceof TarballTooLargeError) return new PermanentScanError(error.message);
  if (error instanceof RegistryDataError) return new PermanentScanError(error.message);
  if (/Item size has exceeded|exceeds the maximum allowed size/i.test((error as Error).message ?? '')) {
    return new PermanentScanError(
      'The scan result is too large to store (the package inflates its own findings)',
    );
  }
  if ((error as { code?: string }).code === 'EINTEGRITY') {
    return new PermanentScanError('The tarball does not match the integrity checksum the registry published');
  }
  return undefined;
}

/**
 * Publisher rule: the npm user who published this version (`_npmUser`), else the first
 * maintainer listed on the version. `verified` when the version carries a provenance
 * attestation (or was published by a trusted publisher), i.e. built and signed in CI.
 */
export function publisherOf(version: PackumentVersion): Publisher {
  const maintainers = version.maintainers as Array<{ name?: string }> | undefined;
  const name = version._npmUser?.name ?? maintainers?.[0]?.name ?? authorName(version.author) ?? 'unknown';
  return { name, verified: hasProvenance(version) };
}

function authorName(author: unknown): string | undefined {
  if (typeof author === 'string') return author.replace(/\s*[<(].*$/, '') || undefined;
  if (author && typeof author === 'object' && typeof (author as { name?: unknown }).name === 'string') {
    return (author as { name: string }).name;
  }
  return undefined;
}

function maintainerCount(packument: Packument, version: PackumentVersion): number | undefined {
  const list = packument.maintainers ?? (version.maintainers as unknown[] | undefined);
  return Array.isArray(list) ? list.length : undefined;
}

function packageCreated(packument: Packument): Date | undefined {
  const time = packument.time ?? {};
  if (time.created) return dateOf(time.created);
  const stamps = Object.entries(time)
    .filter(([key]) => key !== 'modified')
    .map(([, value]) => Date.parse(value))
    .filter((n) => !Number.isNaN(n));
  return stamps.length > 0 ? new Date(Math.min(...stamps)) : undefined;
}

function dateOf(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}
