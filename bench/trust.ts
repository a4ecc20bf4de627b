/**
 * `npm run bench:trust`: the trust score on real inputs. Three groups:
 *   popular      the names of data/benign/packages.txt (popular packages)
 *   little-used  a fixed random sample of packages with 1–500 downloads in the offline table's month
 *   young        those of the little-used sample first published within 180 days of the table's date
 * For each package the registry's packument (npm's client, its default registry or
 * NPM_REGISTRY_URL; cached under .cache/trust-inputs/) and the offline download table give the inputs the
 * scanner uses (lambdas/shared/domain/trust.ts); the figures are written to bench/results/trust.md.
 *
 * Options: --sample N (little-used sample size, default 300), --seed N, --now YYYY-MM-DD (ages are
 * measured from this day; default: the offline table's date, so young means young at that time).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { forEachLimit } from '../lambdas/shared/concurrency';
import { trustFrom, type StoredTrustInput } from '../lambdas/shared/domain/trust';
import { trustInputOf } from '../lambdas/scanner/run-scan';
import { prng } from './prng';
import { DownloadSnapshot } from '../lambdas/shared/downloads/snapshot';
import { NpmRegistry } from '../lambdas/shared/registry/npm-registry';
import { countPairs, ensureDownloadSnapshot } from '../scripts/download-snapshot';

const ROOT = process.cwd();
const CACHE = join(ROOT, '.cache', 'trust-inputs');
const require = createRequire(import.meta.url);

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}

/** The scanner's trust inputs of the package's latest version (cached; null: not in the registry). */
async function inputsOf(registry: NpmRegistry, name: string): Promise<StoredTrustInput | null> {
  const file = join(CACHE, `${encodeURIComponent(name)}.json`);
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as StoredTrustInput | null;
  let inputs: StoredTrustInput | null = null;
  try {
    const packument = await registry.packument(name);
    inputs = trustInputOf(packument, registry.resolveVersion(packument, 'latest'));
  } catch {
    // Unknown to this registry: recorded as null, not asked again.
  }
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(inputs));
  return inputs;
}

function histogram(scores: readonly number[]): string[] {
  const rows: string[] = [];
  for (let lo = 0; lo < 100; lo += 10) {
    const n = scores.filter((s) => s >= lo && (lo === 90 ? s <= 100 : s < lo + 10)).length;
    const share = scores.length ? n / scores.length : 0;
    rows.push(
      `| ${lo}–${lo === 90 ? 100 : lo + 9} | ${n} | ${(share * 100).toFixed(0)} % | ${'█'.repeat(Math.round(share * 40))} |`,
    );
  }
  return rows;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const sampleSize = Number(arg('--sample', '300'));
  const seed = Number(arg('--seed', '7'));
  const snapshotFile = (await ensureDownloadSnapshot()).file;
  const snapshot = DownloadSnapshot.open(snapshotFile);
  const now = new Date(`${arg('--now', snapshot.meta.as_of)}T00:00:00Z`);
  const registry = new NpmRegistry(
    process.env.NPM_REGISTRY_URL ? { registry: process.env.NPM_REGISTRY_URL } : {},
  );

  const popular = (await readFile(join(ROOT, 'data/benign/packages.txt'), 'utf8'))
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

  // Little-used: every name with 1-500 downloads that month, then a seeded sample of them.
  const countsFile = join(dirname(require.resolve('download-counts/package.json')), 'counts.json');
  const pool: string[] = [];
  for (const [name, count] of countPairs(await readFile(countsFile, 'utf8'))) {
    if (count >= 1 && count <= 500) pool.push(name);
  }
  const rnd = prng(seed);
  const little = new Set<string>();
  while (little.size < Math.min(sampleSize, pool.length)) little.add(pool[Math.floor(rnd() * pool.length)]!);

  const scored = new Map<string, { score: number; created?: string }>();
  const names = [...new Set([...popular, ...little])];
  let done = 0;
  await forEachLimit(names, 8, async (name) => {
    const inputs = await inputsOf(registry, name);
    done++;
    if (done % 100 === 0) process.stderr.write(`  ${done}/${names.length} packuments\n`);
    if (!inputs) return;
    const weekly = snapshot.lookup(name)?.weekly;
    const trust = trustFrom(
      inputs,
      weekly === undefined
        ? { count: undefined, source: { kind: 'none', as_of: null } }
        : { count: weekly, source: { kind: 'download-counts', as_of: snapshot.meta.as_of } },
      now,
    );
    scored.set(name, {
      score: trust.score,
      ...(inputs.packageCreated ? { created: inputs.packageCreated } : {}),
    });
  });

  const youngCutoff = now.getTime() - 180 * 86_400_000;
  const groups: Array<[string, string[]]> = [
    ['popular', popular.filter((n) => scored.has(n))],
    ['little-used', [...little].filter((n) => scored.has(n))],
    [
      'young',
      [...little].filter((n) => {
        const created = scored.get(n)?.created;
        return (
          created !== undefined && Date.parse(created) >= youngCutoff && Date.parse(created) <= now.getTime()
        );
      }),
    ],
  ];
  const out: string[] = [
    '# Trust score on real inputs',
    '',
    `Measured by \`npm run bench:trust\` (ages from ${now.toISOString().slice(0, 10)}, downloads from the offline table of ${snapshot.meta.as_of}; little-used sample of ${little.size}, seed ${seed}).`,
    '',
    '| group | packages | min | p10 | median | p90 | max |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  const tables: string[] = [];
  for (const [group, members] of groups) {
    const scores = members.map((n) => scored.get(n)!.score).sort((a, b) => a - b);
    out.push(
      `| ${group} | ${scores.length} | ${scores[0] ?? '-'} | ${percentile(scores, 10)} | ${percentile(scores, 50)} | ${percentile(scores, 90)} | ${scores.at(-1) ?? '-'} |`,
    );
    tables.push(
      '',
      `## ${group}`,
      '',
      '| score | packages | share | |',
      '|---|---:|---:|---|',
      ...histogram(scores),
    );
  }
  const popularScores = new Set(groups[0]![1].map((n) => scored.get(n)!.score));
  out.push('', `Distinct scores among popular packages: ${popularScores.size}.`, ...tables, '');
  const text = out.join('\n');
  await mkdir(join(ROOT, 'bench/results'), { recursive: true });
  await writeFile(join(ROOT, 'bench/results/trust.md'), text);
  console.log(text);
  snapshot.close();
}

await main();
