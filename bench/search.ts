/**
 * Where a search request's time goes, phase by phase, at one table size.
 *
 *   npm run bench:search                         # 100,000 packages, 40 runs per figure
 *   npm run bench:search -- --size 20000 --runs 60
 *
 * Starts DynamoDB Local in memory, loads the synthetic registry of bench/api.ts with the store's
 * batch loader, then times the phases of `SearchIndex.search` separately, through the SDK (no
 * HTTP adapter): the trigram counters, the posting list of the rarest trigram (and the same
 * query projecting only the block counts), the substring filter, and the page's rows; the whole
 * search for comparison; and the `ALL` list that 1–2 character queries read. Medians and 90th
 * percentiles in milliseconds. bench:api gives the end-to-end figures through HTTP.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { localDynamoClient, startStandIns, type StandIns } from '../local/stand-ins';
import { ALL_LIST, gramCountKey, nameFromRank, postingPk, trigrams } from '../lambdas/shared/store/keys';
import { PackageStore } from '../lambdas/shared/store/package-store';
import { PackageTable } from '../lambdas/shared/store/package-table';
import { SearchIndex } from '../lambdas/shared/store/search-index';
import { pickQueries, syntheticRegistry } from './synthetic-registry';

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '40' },
    seed: { type: 'string', default: '42' },
  },
});
const positive = (raw: string, what: string): number => {
  if (!/^\d+$/.test(raw.replaceAll('_', '')) || Number(raw.replaceAll('_', '')) < 1)
    throw new Error(`${what} must be a positive integer, got '${raw}'`);
  return Number(raw.replaceAll('_', ''));
};
const SIZE = positive(args.size, '--size');
const RUNS = positive(args.runs, '--runs');
const SEED = positive(args.seed, '--seed');
const PAGE = 50;

interface Timing {
  readonly p50: number;
  readonly p90: number;
}

async function timed<T>(runs: number, task: () => Promise<T>): Promise<{ timing: Timing; last: T }> {
  const ms: number[] = [];
  let last!: T;
  for (let i = 0; i < runs + 3; i++) {
    const start = performance.now();
    last = await task();
    if (i >= 3) ms.push(performance.now() - start); // three warm-up runs
  }
  ms.sort((a, b) => a - b);
  const at = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))] ?? 0;
  return { timing: { p50: at(0.5), p90: at(0.9) }, last };
}

function row(label: string, timing: Timing, note = ''): void {
  console.log(
    `  ${label.padEnd(44)}${timing.p50.toFixed(2).padStart(8)}${timing.p90.toFixed(2).padStart(8)}  ${note}`,
  );
}

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const dataDir = await mkdtemp(join(tmpdir(), 'pkgscan-bench-search-'));
  let standIns: StandIns | undefined;
  try {
    standIns = await startStandIns({ dataDir, inMemory: true, fastJvmStart: false });
    const doc = DynamoDBDocumentClient.from(localDynamoClient(standIns.endpoints.dynamodb), {
      marshallOptions: { removeUndefinedValues: true },
    });
    const tableName = standIns.tables.PACKAGES_TABLE ?? 'pkgscan-Packages';
    const store = new PackageStore(doc, tableName);
    const table = new PackageTable(doc, tableName);
    const index = new SearchIndex(table);

    let queries: ReturnType<typeof pickQueries>;
    {
      const records = syntheticRegistry(SIZE, SEED);
      queries = pickQueries(records, records.slice(0, Math.min(SIZE, 20_000)));
      const start = performance.now();
      await store.bulkLoadNew(records);
      console.log(`${SIZE} packages loaded in ${((performance.now() - start) / 1000).toFixed(1)} s`);
    }
    console.log(`phase timings, ms (median and 90th percentile of ${RUNS} runs)\n`);
    console.log(`  ${''.padEnd(44)}${'p50'.padStart(8)}${'p90'.padStart(8)}`);

    const common = queries.common.q;
    const twoLetters = common.slice(0, 2);
    for (const q of [common, queries.rare.q]) {
      const needle = q.toLowerCase();
      const grams = trigrams(needle);
      console.log(`query '${q}' (${grams.length} trigrams)`);
      const counters = await timed(RUNS, () =>
        table.batchGet(
          grams.map((g) => gramCountKey(g)),
          'pk, n',
        ),
      );
      row('trigram counters (BatchGetItem)', counters.timing);
      const counts = new Map(counters.last.map((c) => [String(c.pk).slice(3), Number(c.n)]));
      const rarest = grams.reduce((best, g) => ((counts.get(g) ?? 0) < (counts.get(best) ?? 0) ? g : best));
      const list = postingPk(rarest);
      const postings = await timed(RUNS, () => index.blocks.readAll(list));
      row(
        `postings of '${rarest}' (Query, all blocks)`,
        postings.timing,
        `${postings.last.entries.length} entries in ${postings.last.itemsRead} blocks`,
      );
      const countsOnly = await timed(RUNS, async () => {
        let key: Record<string, unknown> | undefined;
        let n = 0;
        do {
          const out = await doc.send(
            new QueryCommand({
              TableName: tableName,
              KeyConditionExpression: 'pk = :l AND begins_with(sk, :b)',
              ExpressionAttributeValues: { ':l': list, ':b': 'B#' },
              ProjectionExpression: 'c',
              ExclusiveStartKey: key,
            }),
          );
          for (const item of out.Items ?? []) n += Number(item.c);
          key = out.LastEvaluatedKey;
        } while (key);
        return n;
      });
      row('  the same Query projecting block counts only', countsOnly.timing, `${countsOnly.last} counted`);
      const filter = await timed(RUNS, () => {
        const seen = new Set<string>();
        const matches: string[] = [];
        for (const rank of postings.last.entries) {
          const name = nameFromRank(rank);
          if (seen.has(name) || !name.toLowerCase().includes(needle)) continue;
          seen.add(name);
          matches.push(name);
        }
        return Promise.resolve(matches);
      });
      row('substring filter (in process)', filter.timing, `${filter.last.length} matches`);
      const page = await timed(RUNS, () => table.listRows(filter.last.slice(0, PAGE)));
      row(`page rows (BatchGetItem of ${PAGE})`, page.timing);
      const whole = await timed(RUNS, () => index.search(q, PAGE, 0));
      row('whole search', whole.timing, `total ${whole.last.value.total}, ${whole.last.itemsRead} items`);
    }
    console.log(`query '${twoLetters}' (shorter than a trigram: reads the ALL list)`);
    const all = await timed(Math.max(5, Math.floor(RUNS / 4)), () => index.blocks.readAll(ALL_LIST));
    row(
      'ALL list (Query, all blocks)',
      all.timing,
      `${all.last.entries.length} entries in ${all.last.itemsRead} blocks`,
    );
    const short = await timed(Math.max(5, Math.floor(RUNS / 4)), () => index.search(twoLetters, PAGE, 0));
    row('whole search', short.timing, `total ${short.last.value.total}`);
    console.log(
      `\nNode ${process.version}, ${cpus().length} cores, load average ${loadavg()[0]?.toFixed(1) ?? '?'}.`,
    );
  } finally {
    await standIns?.stop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
