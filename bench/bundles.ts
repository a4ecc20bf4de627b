/**
 * Bundle size and module load time of every Lambda handler, built with the stack's own esbuild
 * settings (lib/bundling.ts).
 *
 *   npm run bench:bundles                  # 7 load runs per bundle
 *   npm run bench:bundles -- --runs 15
 *   npm run bench:bundles -- --alternatives  # the read bundles under each bundling choice
 *
 * For each handler of lambdas/routes.ts and each function of the scan pipeline (scanner,
 * upload-received, advisory-sync): minified size of the bundle (goal < 300 KB), its gzip size,
 * its three largest packages, and the time to import the bundle in a fresh `node` process (median of
 * the runs; goal < 150 ms), with `--enable-source-maps` as the functions run, and without.
 * Bundles and a JSON summary are written to bench/results/bundles/.
 *
 * `--alternatives` builds the read functions (GET /v1/packages/{name}, POST /v1/bulk) under each
 * choice considered for them, as deployed and with one choice undone at a time, and prints size
 * and load side by side (docs/infrastructure.md, bundles).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { ROUTES } from '../lambdas/routes';
import { TABLES } from '../lambdas/shared/store/tables';
import { BUNDLE_FILE, CREDENTIALS_ALIAS, esbuildOptions, EXTERNAL_MODULES } from '../lib/bundling';
import { PIPELINE_HANDLERS } from '../lib/constructs/scan-pipeline';
import { handlerEntry, PROJECT_ROOT } from '../lib/paths';

const SIZE_GOAL_BYTES = 300 * 1024;
const LOAD_GOAL_MS = 150;

// Inside the project, so that a module left external would resolve from node_modules as on Lambda.
const OUT_DIR = join(PROJECT_ROOT, 'bench', 'results', 'bundles');

interface BundleFigures {
  readonly handler: string;
  readonly routes: string[];
  readonly bytes: number;
  readonly gzipBytes: number;
  readonly largestPackages: Array<{ name: string; bytes: number }>;
  /** Medians, with `--enable-source-maps` (as deployed) and without. */
  readonly loadMs: { readonly sourceMaps: LoadSample; readonly plain: LoadSample } | undefined;
  readonly loadError?: string;
}

function parseRuns(argv: readonly string[]): number {
  const at = argv.indexOf('--runs');
  if (at === -1) return 7;
  const runs = Number(argv[at + 1]);
  if (!Number.isInteger(runs) || runs < 1 || runs > 100)
    throw new Error('--runs takes an integer from 1 to 100');
  return runs;
}

/** Bytes each npm package (or the project's own code) contributes to the output. */
function largestPackages(metafile: Metafile, count: number): Array<{ name: string; bytes: number }> {
  const byPackage = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      const name = match?.[1] ?? '(project code)';
      byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...byPackage]
    .map(([name, bytes]) => ({ name, bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, count);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The environment a function starts with: its configuration variables are set (values unused). */
function functionEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
  };
  for (const table of TABLES) env[table.envVar] = `bench-${table.id}`;
  env.SCAN_QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/bench';
  env.UPLOAD_BUCKET = 'bench-uploads';
  return env;
}

/** One import of the bundle in a fresh node process (process startup excluded). */
interface LoadSample {
  /** Wall-clock milliseconds. */
  readonly wall: number;
  /** CPU milliseconds (user + system): less disturbed than wall time when the machine is busy. */
  readonly cpu: number;
}

function loadOnce(bundle: string, nodeFlags: readonly string[]): LoadSample {
  const script = [
    'const cpu0 = process.cpuUsage();',
    'const start = performance.now();',
    `await import(${JSON.stringify(pathToFileURL(bundle).href)});`,
    'const wall = performance.now() - start;',
    'const cpu = process.cpuUsage(cpu0);',
    'process.stdout.write(JSON.stringify({ wall, cpu: (cpu.user + cpu.system) / 1000 }));',
  ].join('\n');
  const child = spawnSync(process.execPath, [...nodeFlags, '--input-type=module', '-e', script], {
    env: functionEnvironment(),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (child.status !== 0 || !child.stdout.startsWith('{')) {
    const reason = child.stderr.split('\n').find((line) => /Error/.test(line)) ?? child.stderr.trim();
    throw new Error(reason || `exit ${String(child.status)}`);
  }
  return JSON.parse(child.stdout) as LoadSample;
}

function medianSample(samples: readonly LoadSample[]): LoadSample {
  return { wall: median(samples.map((s) => s.wall)), cpu: median(samples.map((s) => s.cpu)) };
}

/** One bundling choice undone at a time, against the deployed settings. */
const ALTERNATIVES: ReadonlyArray<{ name: string; change: (options: BuildOptions) => BuildOptions }> = [
  { name: 'as deployed', change: (options) => options },
  {
    name: "SDK's default credential chain",
    change: (options) => ({ ...options, alias: withoutCredentialsAlias(options.alias) }),
  },
  {
    name: 'full zod API instead of zod/mini',
    change: (options) => ({ ...options, alias: { ...options.alias, 'zod/mini': 'zod' } }),
  },
  {
    name: 'SDK left to the Lambda runtime',
    change: (options) => ({
      ...options,
      alias: withoutCredentialsAlias(options.alias),
      external: [...EXTERNAL_MODULES, '@aws-sdk/*', '@smithy/*', '@aws-crypto/*'],
    }),
  },
];

function withoutCredentialsAlias(alias: Record<string, string> | undefined): Record<string, string> {
  const rest = { ...alias };
  for (const name of Object.keys(CREDENTIALS_ALIAS)) delete rest[name];
  return rest;
}

const READ_HANDLERS = ['get-package', 'bulk'] as const;

async function alternatives(runs: number): Promise<void> {
  console.log(
    'Read bundles under each bundling choice (one choice undone at a time). Load: import in a fresh\n' +
      `node process with --enable-source-maps, median of ${runs}; a bundle whose SDK is external loads\n` +
      "it from the project's node_modules, as the runtime's own copy would be.\n",
  );
  console.log(
    `${'handler'.padEnd(14)}${'choice'.padEnd(36)}${'size'.padStart(10)}${'gzip'.padStart(10)}${'wall'.padStart(10)}${'cpu'.padStart(10)}`,
  );
  const rows: unknown[] = [];
  for (const handler of READ_HANDLERS) {
    for (const [index, { name, change }] of ALTERNATIVES.entries()) {
      const outfile = join(OUT_DIR, 'alternatives', `${handler}-${index}`, BUNDLE_FILE);
      await build(change(esbuildOptions(handlerEntry(handler), outfile)));
      const code = readFileSync(outfile);
      const load = medianSample(
        Array.from({ length: runs }, () => loadOnce(outfile, ['--enable-source-maps'])),
      );
      rows.push({
        handler,
        choice: name,
        bytes: code.length,
        gzipBytes: gzipSync(code).length,
        loadMs: load,
      });
      console.log(
        `${handler.padEnd(14)}${name.padEnd(36)}${`${(code.length / 1024).toFixed(1)} KB`.padStart(10)}` +
          `${`${(gzipSync(code).length / 1024).toFixed(1)} KB`.padStart(10)}` +
          `${`${load.wall.toFixed(1)} ms`.padStart(10)}${`${load.cpu.toFixed(1)} ms`.padStart(10)}`,
      );
    }
  }
  console.log(
    `\nGoals: size < ${(SIZE_GOAL_BYTES / 1024).toFixed(0)} KB, load < ${LOAD_GOAL_MS} ms. Node ${process.version}, ` +
      `load average ${loadavg()[0]?.toFixed(1) ?? '?'} on ${availableParallelism()} cores.`,
  );
  writeFileSync(
    join(OUT_DIR, 'alternatives.json'),
    `${JSON.stringify({ node: process.version, runs, rows }, null, 2)}\n`,
  );
}

async function main(): Promise<void> {
  const runs = parseRuns(process.argv.slice(2));
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  if (process.argv.includes('--alternatives')) {
    await alternatives(runs);
    return;
  }

  const triggers = new Map<string, string[]>();
  for (const r of ROUTES)
    triggers.set(r.handler, [...(triggers.get(r.handler) ?? []), `${r.method} ${r.path}`]);
  for (const { handler, trigger } of Object.values(PIPELINE_HANDLERS)) triggers.set(handler, [trigger]);
  const figures: BundleFigures[] = [];
  const buildErrors: Array<{ handler: string; error: string }> = [];
  for (const [handler, routes] of triggers) {
    const outfile = join(OUT_DIR, handler, BUNDLE_FILE);
    let metafile: Metafile;
    try {
      metafile = (await build(esbuildOptions(handlerEntry(handler), outfile))).metafile as Metafile;
    } catch (error) {
      // A handler whose imports do not resolve yet: reported, the others still measured.
      const message =
        error instanceof Error ? error.message.split('\n').slice(0, 3).join(' ') : String(error);
      buildErrors.push({ handler, error: message });
      continue;
    }
    const code = readFileSync(outfile);
    let loadMs: BundleFigures['loadMs'];
    let loadError: string | undefined;
    try {
      const withMaps = Array.from({ length: runs }, () => loadOnce(outfile, ['--enable-source-maps']));
      const plain = Array.from({ length: runs }, () => loadOnce(outfile, []));
      loadMs = { sourceMaps: medianSample(withMaps), plain: medianSample(plain) };
    } catch (error) {
      loadError = error instanceof Error ? error.message : String(error);
    }
    figures.push({
      handler,
      routes,
      bytes: code.length,
      gzipBytes: gzipSync(code).length,
      largestPackages: largestPackages(metafile, 3),
      loadMs,
      loadError,
    });
  }

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const mark = (ok: boolean) => (ok ? 'ok  ' : 'OVER');
  const columns = (cells: ReadonlyArray<[string, number]>) =>
    cells.map(([text, width]) => (width < 0 ? text.padEnd(-width) : text.padStart(width))).join(' ');
  console.log(
    `Bundles: esbuild ${BUNDLE_FILE}, minified. Load: import of the bundle in a fresh node process,\n` +
      `median of ${runs}; wall and CPU time, with --enable-source-maps (as deployed) and without.\n`,
  );
  console.log(
    columns([
      ['handler', -22],
      ['size', 10],
      ['', 4],
      ['gzip', 9],
      ['wall+maps', 10],
      ['', 4],
      ['cpu+maps', 9],
      ['wall', 9],
      ['cpu', 9],
    ]),
  );
  for (const f of figures) {
    const load: Array<[string, number]> = f.loadMs
      ? [
          [ms(f.loadMs.sourceMaps.wall), 10],
          [mark(f.loadMs.sourceMaps.wall < LOAD_GOAL_MS), 4],
          [ms(f.loadMs.sourceMaps.cpu), 9],
          [ms(f.loadMs.plain.wall), 9],
          [ms(f.loadMs.plain.cpu), 9],
        ]
      : [[`load failed: ${f.loadError ?? ''}`, 0]];
    console.log(
      columns([
        [f.handler, -22],
        [kb(f.bytes), 10],
        [mark(f.bytes < SIZE_GOAL_BYTES), 4],
        [kb(f.gzipBytes), 9],
        ...load,
      ]),
    );
    console.log(
      `${''.padEnd(26)}largest: ${f.largestPackages.map((p) => `${p.name} ${kb(p.bytes)}`).join(', ')}`,
    );
  }
  for (const { handler, error } of buildErrors) console.log(`${handler.padEnd(22)} build failed: ${error}`);
  console.log(
    `\nGoals: size < ${kb(SIZE_GOAL_BYTES)}, load < ${LOAD_GOAL_MS} ms. Node ${process.version}, ` +
      `load average ${loadavg()[0]?.toFixed(1) ?? '?'} on ${availableParallelism()} cores.`,
  );

  writeFileSync(
    join(OUT_DIR, 'summary.json'),
    `${JSON.stringify({ node: process.version, runs, goals: { bytes: SIZE_GOAL_BYTES, loadMs: LOAD_GOAL_MS }, bundles: figures, buildErrors }, null, 2)}\n`,
  );
  if (figures.some((f) => f.loadError) || buildErrors.length > 0) process.exitCode = 1;
}

await main();
