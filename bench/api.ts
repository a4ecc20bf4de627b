/**
 * API benchmark: `npm run bench:api [-- --sizes 2000,20000 --requests 200]`.
 *
 * Starts its own local stand-ins (DynamoDB Local in memory, a temporary folder) and the local
 * HTTP server with the real handlers, loads synthetic package records with the store's batch
 * loader, and for each table size measures, through HTTP, p50/p99 latency and the DynamoDB
 * items each request read (the handlers' `x-items-read` header, READ_STATS_HEADER=1) for: get,
 * list at offset 0 and 1,000, search with a rare and a common query, bulk of 100.
 * Prints a table and the ratios between sizes; writes bench/results/api.json.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createApiServer, type ApiServer } from '../local/http-adapter';
import { localDynamoClient, startStandIns, type StandIns } from '../local/stand-ins';
import { PackageStore } from '../lambdas/shared/store/package-store';
import { prng } from './prng';
import { pickQueries, syntheticRegistry } from './synthetic-registry';

// ---------------------------------------------------------------------------------------------
// Options

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '2000,20000' },
    requests: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '20' },
    seed: { type: 'string', default: '42' },
    out: { type: 'string', default: 'bench/results/api.json' },
  },
});

function positiveInt(raw: string, what: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw new Error(`${what} must be a positive integer, got '${raw}'`);
  return Number(raw);
}

const SIZES = [
  ...new Set(args.sizes.split(',').map((s) => positiveInt(s.trim().replaceAll('_', ''), '--sizes'))),
].sort((a, b) => a - b);
const REQUESTS = positiveInt(args.requests, '--requests');
const WARMUP = positiveInt(args.warmup, '--warmup');
const SEED = positiveInt(args.seed, '--seed');
const LIST_OFFSET_DEEP = 1_000;
const BULK_SIZE = 100;

// ---------------------------------------------------------------------------------------------
// Measurement

interface Sample {
  readonly ms: number;
  readonly itemsRead: number;
  readonly status: number;
  readonly total?: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function send(base: URL, method: string, path: string, body?: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        path,
        method,
        agent,
        headers: body
          ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
          : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          const itemsRead = Number(res.headers['x-items-read'] ?? Number.NaN);
          let total: number | undefined;
          if (path.startsWith('/v1/packages?')) {
            total = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { total?: number }).total;
          }
          resolve({ ms, itemsRead, status: res.statusCode ?? 0, total });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}

interface ScenarioResult {
  readonly scenario: string;
  readonly example: string;
  readonly requests: number;
  readonly errors: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly itemsReadMean: number;
  readonly itemsReadMax: number;
  readonly matches?: number;
}

interface Scenario {
  readonly name: string;
  readonly next: () => { method: 'GET' | 'POST'; path: string; body?: string };
  /** A search: report the number of matching packages (the response's total). */
  readonly search?: boolean;
}

async function runScenario(base: URL, scenario: Scenario, warmup: number): Promise<ScenarioResult> {
  for (let i = 0; i < warmup; i++) {
    const r = scenario.next();
    await send(base, r.method, r.path, r.body);
  }
  const samples: Sample[] = [];
  let example = '';
  for (let i = 0; i < REQUESTS; i++) {
    const r = scenario.next();
    if (i === 0) example = `${r.method} ${r.path}${r.body ? ` (${r.body.length} bytes)` : ''}`;
    samples.push(await send(base, r.method, r.path, r.body));
  }
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const items = samples.map((s) => s.itemsRead).filter((n) => Number.isFinite(n));
  return {
    scenario: scenario.name,
    example,
    requests: samples.length,
    errors: samples.filter((s) => s.status !== 200).length,
    p50Ms: round(percentile(ms, 50)),
    p99Ms: round(percentile(ms, 99)),
    maxMs: round(ms.at(-1) ?? Number.NaN),
    itemsReadMean: items.length ? round(items.reduce((a, b) => a + b, 0) / items.length) : Number.NaN,
    itemsReadMax: items.length ? Math.max(...items) : Number.NaN,
    ...(scenario.search ? { matches: samples[0]?.total ?? Number.NaN } : {}),
  };
}

const round = (n: number, digits = 2): number => Math.round(n * 10 ** digits) / 10 ** digits;

// ---------------------------------------------------------------------------------------------
// Main

const TARGETS: Record<string, number> = {
  get: 15,
  'list offset 0': 50,
  'list offset 1000': 50,
  'search rare': 50,
  'search common': 50,
  'bulk 100': 60,
};

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const dataDir = await mkdtemp(join(tmpdir(), 'pkgscan-bench-'));
  let standIns: StandIns | undefined;
  let api: ApiServer | undefined;
  const cleanup = async (): Promise<void> => {
    agent.destroy();
    await api?.close().catch(() => undefined);
    await standIns?.stop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  };
  const onSignal = (): void => {
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    const started = performance.now();
    // Full JIT for DynamoDB Local: the figures are about steady-state latency.
    standIns = await startStandIns({ dataDir, inMemory: true, fastJvmStart: false });
    Object.assign(process.env, standIns.env, { READ_STATS_HEADER: '1' });
    api = createApiServer({ errorLog: (line, error) => log(`${line} ${String(error ?? '')}`) });
    const failures = await api.preload();
    if (failures.length > 0)
      throw new Error(`Handlers failed to load: ${failures.map((f) => f.handler).join(', ')}`);
    const base = new URL(await api.listen(0, '127.0.0.1'));
    log(`stand-ins and server up in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const maxSize = SIZES.at(-1) ?? 0;
    const records = syntheticRegistry(maxSize, SEED);
    const queries = pickQueries(records, records.slice(0, SIZES[0]));
    log(
      `queries: rare '${queries.rare.q}' (${queries.rare.matches} of ${maxSize}), ` +
        `common '${queries.common.q}' (${queries.common.matches} of ${maxSize})`,
    );
    const store = new PackageStore(
      DynamoDBDocumentClient.from(localDynamoClient(standIns.endpoints.dynamodb), {
        marshallOptions: { removeUndefinedValues: true },
      }),
      standIns.tables.PACKAGES_TABLE ?? 'pkgscan-Packages',
    );

    const results: Array<{ size: number; loadSeconds: number; scenarios: ScenarioResult[] }> = [];
    let loaded = 0;
    const random = prng(SEED + 1);
    for (const size of SIZES) {
      const loadStart = performance.now();
      // One call per size: each call rewrites every posting list it touches once.
      await store.bulkLoadNew(records.slice(loaded, size), {
        onProgress: (done) => log(`  loaded ${loaded + done} / ${size}`),
      });
      const loadSeconds = round((performance.now() - loadStart) / 1000, 1);
      loaded = size;
      log(`size ${size}: loaded in ${loadSeconds} s; measuring ${REQUESTS} requests per scenario`);

      const anyName = (): string => records[Math.floor(random() * size)]?.name ?? 'react';
      const scenarios: Scenario[] = [
        {
          name: 'get',
          next: () => ({ method: 'GET', path: `/v1/packages/${encodeURIComponent(anyName())}` }),
        },
        { name: 'list offset 0', next: () => ({ method: 'GET', path: '/v1/packages?limit=50' }) },
        {
          name: 'list offset 1000',
          next: () => ({ method: 'GET', path: `/v1/packages?limit=50&offset=${LIST_OFFSET_DEEP}` }),
        },
        {
          name: 'search rare',
          next: () => ({
            method: 'GET',
            path: `/v1/packages?q=${encodeURIComponent(queries.rare.q)}&limit=50`,
          }),
          search: true,
        },
        {
          name: 'search common',
          next: () => ({
            method: 'GET',
            path: `/v1/packages?q=${encodeURIComponent(queries.common.q)}&limit=50`,
          }),
          search: true,
        },
        {
          name: 'bulk 100',
          next: () => ({
            method: 'POST',
            path: '/v1/bulk',
            body: JSON.stringify({
              packages: Array.from({ length: BULK_SIZE }, () => ({ name: anyName() })),
            }),
          }),
        },
      ];
      if (size === SIZES[0]) {
        // The JVM behind DynamoDB Local (and V8) still compile hot code during the first
        // requests: one discarded round of every scenario first, so sizes compare fairly.
        log('  warming up');
        for (const scenario of scenarios) {
          for (let i = 0; i < REQUESTS; i++) {
            const r = scenario.next();
            await send(base, r.method, r.path, r.body);
          }
        }
      }
      const scenarioResults: ScenarioResult[] = [];
      for (const scenario of scenarios) {
        const result = await runScenario(base, scenario, WARMUP);
        scenarioResults.push(result);
        log(
          `  ${scenario.name}: p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, items ${result.itemsReadMean}`,
        );
      }
      results.push({ size, loadSeconds, scenarios: scenarioResults });
    }

    // Report
    const lines: string[] = [];
    const header = [
      'size',
      'scenario',
      'p50 ms',
      'p99 ms',
      'max ms',
      'items/req',
      'items max',
      'matches',
      'errors',
    ];
    const rows = results.flatMap(({ size, scenarios }) =>
      scenarios.map((s) => [
        size.toLocaleString('en-US'),
        s.scenario,
        s.p50Ms.toFixed(1),
        s.p99Ms.toFixed(1),
        s.maxMs.toFixed(1),
        String(s.itemsReadMean),
        String(s.itemsReadMax),
        s.matches === undefined ? '' : String(s.matches),
        String(s.errors),
      ]),
    );
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    const fmt = (cells: readonly string[]): string =>
      cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
    lines.push(fmt(header), ...rows.map(fmt));

    const ratios: Array<{ scenario: string; p50: number; p99: number; itemsRead: number }> = [];
    const first = results[0];
    const last = results.at(-1);
    if (first && last && first !== last) {
      lines.push('', `ratios ${last.size.toLocaleString('en-US')} / ${first.size.toLocaleString('en-US')}:`);
      for (const s of last.scenarios) {
        const f = first.scenarios.find((x) => x.scenario === s.scenario);
        if (!f) continue;
        const ratio = {
          scenario: s.scenario,
          p50: round(s.p50Ms / f.p50Ms),
          p99: round(s.p99Ms / f.p99Ms),
          itemsRead: round(s.itemsReadMean / f.itemsReadMean),
        };
        ratios.push(ratio);
        lines.push(
          `  ${s.scenario.padEnd(17)} p50 x${ratio.p50}  p99 x${ratio.p99}  items read x${ratio.itemsRead}`,
        );
      }
    }
    const targets = (last?.scenarios ?? []).map((s) => ({
      scenario: s.scenario,
      targetP99Ms: TARGETS[s.scenario] ?? Number.NaN,
      p99Ms: s.p99Ms,
      met: s.p99Ms < (TARGETS[s.scenario] ?? Number.POSITIVE_INFINITY) && s.errors === 0,
    }));
    lines.push('', `targets at ${last?.size.toLocaleString('en-US')} packages (p99):`);
    for (const t of targets)
      lines.push(
        `  ${t.scenario.padEnd(17)} ${t.p99Ms} ms < ${t.targetP99Ms} ms: ${t.met ? 'met' : 'MISSED'}`,
      );
    process.stdout.write(`${lines.join('\n')}\n`);

    const output = {
      generatedAt: new Date().toISOString(),
      machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, loadavg: loadavg(), node: process.version },
      options: {
        sizes: SIZES,
        requests: REQUESTS,
        warmup: WARMUP,
        seed: SEED,
        listLimit: 50,
        bulkSize: BULK_SIZE,
      },
      dynamodb:
        'DynamoDB Local (in memory) via the local HTTP adapter, sequential requests on one keep-alive connection',
      queries,
      results,
      ratios,
      targets,
    };
    await mkdir(join(args.out, '..'), { recursive: true });
    await writeFile(args.out, `${JSON.stringify(output, null, 2)}\n`);
    log(`results written to ${args.out}`);
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    await cleanup();
  }
}

main().catch((error: unknown) => {
  console.error('bench:api failed:', error);
  process.exitCode = 1;
});
