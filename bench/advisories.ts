/**
 * Advisory matching cost and import throughput.
 *
 *   npm run bench:advisories
 *   npm run bench:advisories -- --records 50000
 *   ADVISORIES_TABLE=... AWS_ENDPOINT_URL_DYNAMODB=http://127.0.0.1:8000 npm run bench:advisories
 *
 * 1. Matching: µs per package version (one `matchAdvisories` call) for a package with 10 and with
 *    1,000 advisories of mixed shapes (fixed / last_affected / several intervals / prerelease
 *    bounds / versions lists / MAL- records), over 2,000 versions including prereleases; and the
 *    one-off cost of compiling the package's records.
 * 2. Import: records/s streaming a generated zip of N records (mostly MAL- records, like the real
 *    export) from a file: reading the zip alone; parsing and batching into a sink that keeps
 *    nothing (with the process's RSS growth meanwhile: the sync's memory); into an in-memory store;
 *    and, when ADVISORIES_TABLE and AWS_ENDPOINT_URL_DYNAMODB are set, into that table (a first
 *    import, then a re-import where every record is unchanged).
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { advisoryStoreFromEnv } from '../lambdas/advisories/advisory-store';
import { importOsv, type ImportReport } from '../lambdas/advisories/importer';
import { compileAdvisories, matchAdvisories } from '../lambdas/advisories/match';
import { MemoryAdvisoryStore } from '../lambdas/advisories/memory-store';
import type { OsvRecord } from '../lambdas/advisories/osv';
import type { AdvisorySink } from '../lambdas/advisories/ports';
import { readOsvZip } from '../lambdas/advisories/sources';
import { buildZip } from '../test/unit/advisories/zip-writer';

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function version(rand: () => number): string {
  const base = `${Math.floor(rand() * 20)}.${Math.floor(rand() * 30)}.${Math.floor(rand() * 40)}`;
  return rand() < 0.15
    ? `${base}-${['alpha', 'beta', 'rc'][Math.floor(rand() * 3)]}.${Math.floor(rand() * 5)}`
    : base;
}

/**
 * `count` advisories for one package. `typical`: bounded ranges spread over the version space
 * (a few match any one version), as for a package with a long advisory history; `all-match`:
 * every advisory covers every version (the worst case: the cost of building the output).
 */
function syntheticRecords(
  name: string,
  count: number,
  seed: number,
  mode: 'typical' | 'all-match',
): OsvRecord[] {
  const rand = random(seed);
  const records: OsvRecord[] = [];
  for (let i = 0; i < count; i++) {
    const shape = i % 5;
    const affected: NonNullable<OsvRecord['affected']>[number] = { package: { ecosystem: 'npm', name } };
    const bounds = [version(rand), version(rand), version(rand), version(rand)].sort((a, b) =>
      a.localeCompare(b, 'en', { numeric: true }),
    );
    const [b0, b1, b2, b3] = bounds as [string, string, string, string];
    if (mode === 'all-match') {
      affected.ranges = [{ type: 'SEMVER', events: [{ introduced: '0' }] }];
    } else if (shape === 3 || shape === 4) {
      affected.versions = [b0, b2]; // malicious releases / explicit lists name a few versions
    } else {
      // A narrow window above a random lower bound: fixed a few patches or a minor later.
      const above = (bound: string, patches: number): string => {
        const [major, minor, patch] = bound.split('-')[0]!.split('.').map(Number) as [number, number, number];
        return `${major}.${minor}.${patch + patches}`;
      };
      const events =
        shape === 0
          ? [{ introduced: b0 }, { fixed: above(b0, 3) }]
          : shape === 1
            ? [{ introduced: b1 }, { last_affected: above(b1, 2) }]
            : [{ introduced: b2 }, { fixed: above(b2, 2) }, { introduced: b3 }, { fixed: above(b3, 4) }];
      affected.ranges = [{ type: 'SEMVER', events }];
    }
    records.push({
      id: shape === 3 ? `MAL-2024-${seed}-${i}` : `GHSA-${seed}-${i}`,
      modified: '2024-01-01T00:00:00Z',
      aliases: shape === 3 ? [] : [`CVE-2024-${10000 + i}`],
      summary: `Synthetic advisory ${i}`,
      severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N' }],
      affected: [affected],
    });
  }
  return records;
}

function benchMatching(count: number, mode: 'typical' | 'all-match'): Record<string, unknown> {
  const records = syntheticRecords('bench-pkg', count, count, mode);
  const rand = random(7);
  const versions = Array.from({ length: 2000 }, () => version(rand));
  const compileStart = performance.now();
  const compiled = compileAdvisories('bench-pkg', records);
  const compileMs = performance.now() - compileStart;
  for (const v of versions.slice(0, 200)) matchAdvisories('bench-pkg', v, compiled); // warm-up
  const rounds = Math.max(1, Math.floor(20_000 / count));
  let matched = 0;
  const start = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (const v of versions) matched += matchAdvisories('bench-pkg', v, compiled).advisories.length;
  }
  const perVersionUs = ((performance.now() - start) * 1000) / (rounds * versions.length);
  // Through the records array as the store returns it (compiled once, cached by array identity).
  matchAdvisories('bench-pkg', versions[0]!, records); // compiles once and caches
  const cachedStart = performance.now();
  for (const v of versions) matchAdvisories('bench-pkg', v, records);
  const cachedUs = ((performance.now() - cachedStart) * 1000) / versions.length;
  return {
    advisories: count,
    ranges: mode,
    us_per_version: round(perVersionUs),
    us_per_version_via_records: round(cachedUs),
    compile_ms_once_per_package: round(compileMs),
    mean_matches_per_version: round(matched / (rounds * versions.length)),
  };
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

function exportZip(count: number): Buffer {
  const rand = random(42);
  const entries = [];
  for (let i = 0; i < count; i++) {
    // Like the real export: mostly malicious-package reports, one package each.
    const malicious = i % 10 !== 0;
    const id = malicious ? `MAL-2024-${i}` : `GHSA-bench-${i}`;
    const record: OsvRecord = {
      schema_version: '1.6.0',
      id,
      modified: '2024-05-01T12:00:00Z',
      published: '2024-05-01T12:00:00Z',
      summary: malicious ? `Malicious code in pkg-${i} (npm)` : `Prototype pollution in pkg-${i}`,
      details: 'Details of the report. '.repeat(20),
      aliases: malicious ? [] : [`CVE-2024-${20000 + i}`],
      affected: [
        {
          package: {
            ecosystem: 'npm',
            name: `pkg-${i % Math.max(1, Math.floor(count * 0.8))}`,
            purl: `pkg:npm/pkg-${i}`,
          },
          ranges: [
            {
              type: 'SEMVER',
              events: malicious ? [{ introduced: '0' }] : [{ introduced: '0' }, { fixed: version(rand) }],
            },
          ],
          database_specific: { source: 'bench' },
        },
      ],
      references: [{ type: 'WEB', url: `https://example.invalid/${id}` }],
    };
    entries.push({ name: `${id}.json`, data: JSON.stringify(record) });
  }
  return buildZip(entries);
}

/** A sink that keeps nothing: the importer's own memory and CPU, as in the sync Lambda. */
const discard: AdvisorySink = {
  storedVersions: async () => new Map(),
  putNew: async () => undefined,
  putIfNewer: async () => true,
  removeIfNotNewer: async () => false,
};

async function timedImport(
  file: string,
  sink: AdvisorySink,
): Promise<{ report: ImportReport; seconds: number }> {
  const start = performance.now();
  const report = await importOsv(readOsvZip(createReadStream(file)), sink);
  if (report.error) throw new Error(report.error);
  return { report, seconds: (performance.now() - start) / 1000 };
}

async function benchImport(count: number): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-advisories-'));
  try {
    const file = join(dir, 'all.zip');
    await writeFile(file, exportZip(count));
    const figures: Record<string, unknown> = { records: count, zip_mb: round((await stat(file)).size / 1e6) };

    const start = performance.now();
    let read = 0;
    for await (const _entry of readOsvZip(createReadStream(file))) read++;
    figures.zip_read_records_per_s = Math.round(read / ((performance.now() - start) / 1000));

    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peakRss = baseline;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
    const discarded = await timedImport(file, discard);
    clearInterval(sampler);
    figures.parse_and_batch_records_per_s = Math.round(count / discarded.seconds);
    figures.importer_rss_growth_mb = Math.round((peakRss - baseline) / 1e6);

    const memory = await timedImport(file, new MemoryAdvisoryStore());
    figures.memory_store_records_per_s = Math.round(memory.report.added / memory.seconds);

    if (process.env.ADVISORIES_TABLE && process.env.AWS_ENDPOINT_URL_DYNAMODB) {
      const tableCount = arg('table-records', Math.min(count, 5000));
      const tableFile = join(dir, 'table.zip');
      await writeFile(tableFile, exportZip(tableCount));
      const store = advisoryStoreFromEnv();
      const first = await timedImport(tableFile, store);
      const again = await timedImport(tableFile, store);
      figures.table = {
        table: process.env.ADVISORIES_TABLE,
        records: tableCount,
        first_import: { added: first.report.added, records_per_s: Math.round(tableCount / first.seconds) },
        re_import: {
          unchanged: again.report.unchanged,
          records_per_s: Math.round(tableCount / again.seconds),
        },
      };
    } else {
      figures.table = 'skipped: set ADVISORIES_TABLE and AWS_ENDPOINT_URL_DYNAMODB to import into a table';
    }
    return figures;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const records = arg('records', 20_000);
  const matching = [
    benchMatching(10, 'typical'),
    benchMatching(1000, 'typical'),
    benchMatching(10, 'all-match'),
    benchMatching(1000, 'all-match'),
  ];
  const imports = await benchImport(records);
  process.stdout.write(`${JSON.stringify({ node: process.version, matching, import: imports }, null, 2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:advisories failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
