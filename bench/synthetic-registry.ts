/**
 * The benchmarks' synthetic registry: word-based names (substrings repeat as in the real
 * registry), about a quarter scoped, word popularity Zipf-like (the top word in ~10% of names, as
 * 'react' or 'plugin' in npm), heavy-tailed weekly downloads (Pareto, alpha 0.6: median ~15, top
 * ~10^7). Deterministic for a seed. Used by bench/api.ts.
 */
import type { PackageResponse } from '../src/contract/schemas';
import { scanRecord } from '../test/integration/support/factory';
import { prng } from './prng';

const WORDS = (
  'react vue angular svelte node express koa fastify next nuxt webpack vite rollup esbuild babel eslint ' +
  'prettier jest mocha chai vitest plugin loader config utils util core cli parser lint test mock types ' +
  'router redux store state hooks query client server api http fetch request json yaml toml xml csv ' +
  'markdown md html css sass less style theme icon icons ui kit components component button modal form ' +
  'input date time moment format string array object deep merge clone equal debounce throttle async ' +
  'promise stream buffer file fs path glob watch build bundle compile transform polyfill shim env dotenv ' +
  'log logger debug color chalk table progress spinner prompt args argv command shell exec process ' +
  'crypto hash uuid random token auth jwt oauth session cookie cache redis mongo mysql postgres sql orm ' +
  'graphql schema validate validator zod ajv type typescript ts js esm cjs module resolve import export ' +
  'aws azure gcp cloud lambda serverless docker deploy git github semver version release changelog ' +
  'image svg canvas chart graph map geo animation motion scroll drag drop editor text i18n intl locale ' +
  'email mail sms socket websocket event emitter queue worker job cron schedule retry timeout rate limit ' +
  'proxy cors helmet security sanitize escape encode decode base64 compress zip tar gzip minify uglify ' +
  'terser source sourcemap coverage bench benchmark perf metrics trace monitor health status mini tiny ' +
  'simple fast super smart easy awesome native mobile electron tauri wasm worker service pwa ssr static'
).split(/\s+/);
const SCOPES = [
  'types',
  'babel',
  'aws-sdk',
  'angular',
  'vue',
  'nestjs',
  'storybook',
  'emotion',
  'mui',
  'radix-ui',
  'tanstack',
  'vitest',
  'rollup',
  'octokit',
  'sentry',
  'firebase',
  'google-cloud',
  'azure',
  'nx',
  'acme',
  'corp-internal',
  'opentelemetry',
  'smithy',
  'swc',
  'esbuild',
];

function zipfPicker<T>(items: readonly T[], random: () => number, exponent = 1.05): () => T {
  const weights = items.map((_, i) => 1 / (i + 1) ** exponent);
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative: number[] = [];
  let sum = 0;
  for (const w of weights) cumulative.push((sum += w / total));
  return () => {
    const r = random();
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] ?? 1) < r) lo = mid + 1;
      else hi = mid;
    }
    return items[lo] as T;
  };
}

export function syntheticRegistry(count: number, seed: number): PackageResponse[] {
  const random = prng(seed);
  // Shuffle so that word popularity is not alphabetical.
  const words = [...WORDS].sort(() => random() - 0.5);
  const word = zipfPicker(words, random, 0.7);
  const scope = zipfPicker(SCOPES, random, 1.2);
  const names = new Set<string>();
  const makeName = (): string => {
    const shape = random();
    const parts = shape < 0.15 ? [word()] : shape < 0.75 ? [word(), word()] : [word(), word(), word()];
    let base = [...new Set(parts)].join('-');
    if (random() < 0.05) base += String(Math.floor(random() * 10));
    return random() < 0.25 ? `@${scope()}/${base}` : base;
  };
  while (names.size < count) {
    let name = makeName();
    for (let attempt = 0; names.has(name) && attempt < 5; attempt++) name = makeName();
    if (names.has(name)) name = `${name}-${names.size}`;
    names.add(name);
  }
  return [...names].map((name) => {
    const downloads = Math.min(100_000_000, Math.floor(5 / random() ** (1 / 0.6)) - 5);
    const r = random();
    const version = `${Math.floor(random() * 12)}.${Math.floor(random() * 20)}.${Math.floor(random() * 30)}`;
    return scanRecord(name, {
      version,
      weeklyDownloads: downloads,
      risk: r < 0.03 ? 'critical' : r < 0.15 ? 'warning' : 'clean',
      scannedAt: new Date(
        Date.parse('2026-11-01T00:00:00Z') - Math.floor(random() * 90 * 86_400_000),
      ).toISOString(),
    });
  });
}

/** Query choices, made on the full data set so that every size uses the same queries. */
export function pickQueries(all: readonly PackageResponse[], smallest: readonly PackageResponse[]) {
  const names = all.map((p) => p.name.toLowerCase());
  const smallNames = smallest.map((p) => p.name.toLowerCase());
  const count = (list: readonly string[], q: string): number => list.filter((n) => n.includes(q)).length;
  // Rare: a two-word fragment of a name of the smallest set ('toml-zip'), found in few names
  // overall: what a user types to find one package whose name they half remember.
  let rare = { q: '', matches: Number.POSITIVE_INFINITY };
  for (const name of smallNames) {
    const words = name.replace(/^@[^/]+\//, '').split('-');
    for (let i = 0; i + 1 < words.length; i++) {
      const candidate = `${words[i]}-${words[i + 1]}`;
      if (!/^[a-z]{3,}-[a-z]{3,}$/.test(candidate)) continue;
      const matches = count(names, candidate);
      if (matches >= 2 && matches < rare.matches) rare = { q: candidate, matches };
    }
    if (rare.matches === 2) break;
  }
  if (rare.q === '') {
    const fallback = smallNames[0] ?? 'react';
    rare = { q: fallback, matches: count(names, fallback) };
  }
  // Common: the word found in the most names (what a user types: 'react', 'plugin'...).
  let common = { q: 'act', matches: 0 };
  for (const candidate of WORDS) {
    if (candidate.length < 3) continue;
    const matches = count(names, candidate);
    if (matches > common.matches) common = { q: candidate, matches };
  }
  return { rare, common };
}
