import { readFileSync } from 'node:fs';
import type { OsvRecord } from '../../../lambdas/advisories/osv';
import { assessPackageRisk } from '../../../lambdas/scanner/assess';
import type { AnalysisResult } from '../../../src/engine/types';
import { runScan, type ScanDeps } from '../../../lambdas/scanner/run-scan';
import { emptyCapabilities, type PackageResponse } from '../../../src/contract/schemas';
import type { ScanMessage } from '../../../lambdas/shared/queue/scan-queue';
import {
  RegistryDataError,
  RegistryNotFoundError,
  type Packument,
  type PackumentVersion,
} from '../../../lambdas/shared/registry/npm-registry';
import type { StoredJob } from '../../../lambdas/shared/store/job-store';

const JOB_ID = '7d1f0a52-3c4e-4a8b-9f6e-2b1c0d9e8f7a';
const NOW = new Date('2026-11-22T10:00:00Z');

function analysis(overrides: Partial<AnalysisResult> = {}): AnalysisResult {
  return {
    name: 'demo',
    version: '1.2.0',
    metadata: {
      name: 'demo',
      version: '1.2.0',
      bin: {},
      scripts: {},
      dependencies: {},
      optionalDependencies: {},
      peerDependencies: {},
      keywords: [],
    },
    install_scripts: { preinstall: false, install: false, postinstall: true, prepare: false },
    capabilities: emptyCapabilities(),
    agentic_threats: [],
    risk_level: 'clean',
    risk_reasons: [],
    docs_md: '# demo',
    evidence: [],
    risk_input: { threats: [], install_scripts: [{ name: 'postinstall', command: 'node setup.js' }] },
    skipped_files: [],
    limits_hit: [],
    stats: {
      files: 3,
      bytes: 100,
      js_files: 1,
      js_bytes: 50,
      parsed_files: 1,
      parse_failures: 0,
      parse_ms: 1,
      analysis_ms: 1,
      total_ms: 2,
    },
    ...overrides,
  };
}

const version: PackumentVersion = {
  name: 'demo',
  version: '1.2.0',
  maintainers: [{ name: 'alice' }, { name: 'bob' }],
  _npmUser: { name: 'alice' },
  dist: {
    tarball: 'http://registry.test/demo/-/demo-1.2.0.tgz',
    integrity: 'sha512-x',
    attestations: { provenance: {} },
  },
};
const packument: Packument = {
  name: 'demo',
  'dist-tags': { latest: '1.2.0', next: '1.2.0' },
  versions: { '1.2.0': version },
  time: { created: '2020-01-01T00:00:00Z', '1.2.0': '2026-10-01T00:00:00Z' },
};

function job(status: StoredJob['status'], source: StoredJob['source'] = 'registry'): StoredJob {
  return {
    job_id: JOB_ID,
    status,
    source,
    name: 'demo',
    version: 'latest',
    registry: 'npm',
    created_at: NOW.toISOString(),
    updated_at: NOW.toISOString(),
  };
}

function harness(initial: StoredJob | undefined) {
  const state = {
    job: initial,
    stored: [] as Array<{ result: PackageResponse; tags: readonly string[] }>,
    advisories: [] as OsvRecord[],
  };
  const calls: string[] = [];
  const deps: ScanDeps = {
    jobs: {
      get: async () => state.job,
      markRunning: async () => {
        calls.push('running');
        if (!state.job || state.job.status === 'completed' || state.job.status === 'failed') return false;
        state.job = { ...state.job, status: 'running' };
        return true;
      },
      complete: async (_id, result) => {
        calls.push('complete');
        state.job = { ...state.job!, status: 'completed', result };
      },
      fail: async (_id, reason) => {
        calls.push('fail');
        state.job = { ...state.job!, status: 'failed', error: reason };
      },
      recordDuration: async () => undefined,
    },
    packages: {
      putScan: async (result, opts) => {
        calls.push('putScan');
        state.stored.push({ result, tags: opts?.distTags ?? [] });
      },
      getLatest: async (name) => ({
        value: state.stored.filter((s) => s.result.name === name).at(-1)?.result,
        itemsRead: 1,
      }),
      storedVersion: async (name, version) => {
        const found = state.stored
          .filter((s) => s.result.name === name && s.result.version === version)
          .at(-1);
        return found ? { result: found.result, basis: undefined } : undefined;
      },
    },
    registry: {
      packument: async (name) => {
        if (name !== 'demo')
          throw new RegistryNotFoundError(`Package '${name}' does not exist in the registry`);
        return packument;
      },
      resolveVersion: (p) => p.versions!['1.2.0']!,
      tarball: async () => Buffer.from('tgz'),
    },
    downloads: {
      weekly: async () => ({ count: 12_345, source: { kind: 'download-api' as const, as_of: '2026-11-20' } }),
    },
    uploads: { read: async () => Buffer.from('tgz') },
    advisories: {
      recordsFor: async (name) =>
        state.advisories.filter((r) => r.affected?.some((a) => a.package?.name === name)),
    },
    maxTarballBytes: 1_000_000,
    analyze: async () => analysis(),
    assess: ({ analysis: a, trust }) => ({
      risk_level: a.risk_input.install_scripts.length > 0 ? 'warning' : 'clean',
      risk_reasons: [...trust.reasons, 'postinstall script'],
    }),
    now: () => NOW,
  };
  return { deps, state, calls };
}

const message = (source: ScanMessage['source'] = 'registry'): ScanMessage => ({
  job_id: JOB_ID,
  source,
  name: 'demo',
  version: 'latest',
  registry: 'npm',
  ...(source === 'tarball' ? { s3_key: `uploads/${JOB_ID}.tgz` } : {}),
});

describe('runScan', () => {
  it('scans a registry package, stores it with its dist-tags and completes the job', async () => {
    const { deps, state } = harness(job('queued'));
    await expect(runScan(message(), deps)).resolves.toBe('completed');
    expect(state.job?.status).toBe('completed');
    const stored = state.stored[0]!;
    expect(stored.tags).toEqual(['latest', 'next']);
    expect(stored.result).toMatchObject({
      name: 'demo',
      version: '1.2.0',
      publisher: { name: 'alice', verified: true },
      weekly_downloads: 12_345,
      risk_level: 'warning',
      install_scripts: { postinstall: true },
      scanned_at: NOW.toISOString(),
    });
    expect(stored.result.trust_score).toBeGreaterThan(50);
  });

  it('skips a job that already finished (a duplicate delivery)', async () => {
    const { deps, calls } = harness(job('completed'));
    await expect(runScan(message(), deps)).resolves.toBe('skipped');
    expect(calls).toEqual([]);
  });

  it('redoes a job left running by a crashed worker', async () => {
    const { deps, state } = harness(job('running'));
    await expect(runScan(message(), deps)).resolves.toBe('completed');
    expect(state.job?.status).toBe('completed');
  });

  it('fails the job with a not-found reason for an unknown package', async () => {
    const { deps, state } = harness({ ...job('queued'), name: 'ghost' });
    await expect(runScan({ ...message(), name: 'ghost' }, deps)).resolves.toBe('failed');
    expect(state.job?.error).toMatch(/Not found: Package 'ghost' does not exist/);
  });

  it('fails the job when the tarball does not match its integrity', async () => {
    const { deps, state } = harness(job('queued'));
    deps.registry.tarball = async () => {
      throw Object.assign(new Error('integrity mismatch'), { code: 'EINTEGRITY' });
    };
    await expect(runScan(message(), deps)).resolves.toBe('failed');
    expect(state.job?.error).toMatch(/integrity/);
  });

  it('fails the job when the archive cannot be read at all', async () => {
    const { deps, state } = harness(job('queued'));
    deps.analyze = async () =>
      analysis({ limits_hit: ['not a gzip file'], stats: { ...analysis().stats, files: 0 } });
    await expect(runScan(message(), deps)).resolves.toBe('failed');
    expect(state.job?.error).toMatch(/could not be read: not a gzip file/);
  });

  it('rethrows transient failures so the queue retries them', async () => {
    const { deps, state } = harness(job('queued'));
    deps.registry.packument = async () => {
      throw Object.assign(new Error('registry answered 503'), { statusCode: 503 });
    };
    await expect(runScan(message(), deps)).rejects.toThrow('503');
    expect(state.job?.status).toBe('running');
  });

  it('reports CVEs with fixed_in from the advisory store, and malware as critical whatever the code says', async () => {
    const { deps, state } = harness(job('queued'));
    deps.assess = assessPackageRisk;
    const lodash = JSON.parse(readFileSync('data/advisories/osv-npm/NSWG-ECO-368.json', 'utf8')) as OsvRecord;
    const affected = lodash.affected!.map((a) => ({ ...a, package: { ...a.package!, name: 'demo' } }));
    state.advisories = [
      { ...lodash, affected },
      {
        id: 'MAL-2026-0001',
        modified: '2026-11-01T00:00:00Z',
        summary: 'Malicious code in demo',
        affected: [{ package: { ecosystem: 'npm', name: 'demo' }, versions: ['1.2.0'] }],
      } as OsvRecord,
    ];
    await expect(runScan(message(), deps)).resolves.toBe('completed');
    const result = state.stored[0]!.result;
    expect(result.risk_level).toBe('critical');
    expect(result.risk_reasons[0]).toMatch(/MAL-2026-0001/);
    expect(result.advisories.map((a) => a.id)).toEqual(expect.arrayContaining(['MAL-2026-0001']));
    expect(result.advisories.find((a) => a.id === 'MAL-2026-0001')?.malicious).toBe(true);
    expect(result.cves).toEqual([expect.objectContaining({ cve_id: 'CVE-2018-3721', fixed_in: '4.17.5' })]);
  });

  it('keeps the stored download count when the count service fails, so the package does not move', async () => {
    const { deps, state } = harness(job('queued'));
    await runScan(message(), deps);
    state.job = job('queued');
    (deps as { downloads: ScanDeps['downloads'] }).downloads = {
      weekly: async () => ({
        count: undefined,
        source: { kind: 'none', as_of: null },
        unknownReason: 'timed out',
      }),
    };
    await runScan(message(), deps);
    expect(state.stored.map((s) => s.result.weekly_downloads)).toEqual([12_345, 12_345]);
    // The stored count came from a source: trust is scored on it, not as unknown.
    expect(state.stored[1]!.result.downloads_source).toEqual({ kind: 'download-api', as_of: '2026-11-20' });
    expect(state.stored[1]!.result.risk_reasons.join(' ')).not.toMatch(/unknown/);
  });

  it('fails, without retrying, a result too large to store and a version without a tarball', async () => {
    const big = harness(job('queued'));
    big.deps.packages.putScan = async () => {
      throw Object.assign(new Error('Item size has exceeded the maximum allowed size'), {
        name: 'ValidationException',
      });
    };
    await expect(runScan(message(), big.deps)).resolves.toBe('failed');
    expect(big.state.job?.error).toMatch(/too large to store/);
    expect(big.state.job?.error).not.toMatch(/Item size/);

    const broken = harness(job('queued'));
    broken.deps.registry.tarball = async () => {
      throw new RegistryDataError('demo@1.2.0 has no tarball in its packument');
    };
    await expect(runScan(message(), broken.deps)).resolves.toBe('failed');
  });

  it('keeps tarball results private to the job', async () => {
    const { deps, state } = harness(job('queued', 'tarball'));
    await expect(runScan(message('tarball'), deps)).resolves.toBe('completed');
    expect(state.stored).toEqual([]);
    expect(state.job?.result).toMatchObject({ name: 'demo', version: '1.2.0', weekly_downloads: 0 });
    expect(state.job?.result?.risk_reasons.join(' ')).toMatch(/downloads are unknown/i);
  });
});
