/**
 * CLI benchmark: `npm run bench:cli [-- --runs 5]`.
 *
 * Times the client checking this project's own package-lock.json against the service at
 * PKGSCAN_API_URL (default http://localhost:3000, e.g. `npm start` in another terminal) and counts
 * the HTTP requests it made. When nothing answers GET /health there, it starts a stub server on
 * 127.0.0.1 that answers every bulk item as a clean package (so every package is "known") and
 * says so in its output. Runs the client's `main` in-process: one warm-up run, then `--runs`.
 *
 * Then the one-file build (`npm run build:cli`, built here into a temporary folder): its size,
 * its start time (`node pkgscan.mjs --version` in a fresh process, median of `--runs` × 4, with
 * bare `node -e 0` beside it) and a whole check of the lockfile in a fresh process.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { DEFAULT_API_URL } from '../cli/config';
import { main } from '../cli/main';
import { buildCli } from '../scripts/build-cli';
import { packageRecord } from '../test/support/records';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
if (!/^\d+$/.test(args.runs) || Number(args.runs) < 1) {
  throw new Error(`--runs must be a positive integer, got '${args.runs}'`);
}
const runs = Number(args.runs);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url.replace(/\/+$/, '')}/health`, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

/** Answers POST /v1/bulk with a clean PackageResponse per item; counts requests. */
async function startStub(): Promise<{ url: string; server: Server; requests: () => number }> {
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/bulk') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      const { packages } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        packages: { name: string; version: string }[];
      };
      const body = packages.map((p) =>
        packageRecord({ name: p.name, version: p.version, trust_score: 90, weekly_downloads: 0 }),
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, requests: () => requests };
}

interface Run {
  ms: number;
  requests: number;
  retries: number;
  exitCode: number;
  packages: number;
  unknown: number;
}

async function once(apiUrl: string): Promise<Run> {
  let out = '';
  const started = performance.now();
  const exitCode = await main({
    argv: ['package-lock.json', '--json', '--quiet'],
    env: { PKGSCAN_API_URL: apiUrl },
    cwd: repoRoot,
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: () => true },
  });
  const ms = performance.now() - started;
  if (exitCode > 1) throw new Error(`pkgscan exited ${exitCode} against ${apiUrl}`);
  const result = JSON.parse(out) as {
    summary: { packages: number; unknown: number };
    stats: { requests: number; retries: number };
  };
  return {
    ms,
    exitCode,
    ...result.stats,
    packages: result.summary.packages,
    unknown: result.summary.unknown,
  };
}

const target = process.env.PKGSCAN_API_URL || DEFAULT_API_URL;
let stub: Awaited<ReturnType<typeof startStub>> | undefined;
let apiUrl = target;
if (!(await answers(target))) {
  stub = await startStub();
  apiUrl = stub.url;
  console.log(
    `No service answered ${target}/health: using a stub server at ${apiUrl} that answers every bulk item as a clean package.`,
  );
} else {
  console.log(`Service: ${target}`);
}

try {
  await once(apiUrl); // warm-up: module loading, connection set-up
  const results: Run[] = [];
  for (let i = 0; i < runs; i++) results.push(await once(apiUrl));
  const times = results.map((r) => r.ms).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const last = results.at(-1)!;
  console.log(
    `Machine: ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(`Lockfile: package-lock.json, ${last.packages} unique name@version entries`);
  console.log(
    `Known to the service: ${last.packages - last.unknown} of ${last.packages} (${last.unknown} not scanned)`,
  );
  console.log(
    `Time to check (${runs} runs after a warm-up): median ${median.toFixed(0)} ms, min ${times[0]!.toFixed(0)} ms, max ${times.at(-1)!.toFixed(0)} ms`,
  );
  console.log(
    `HTTP requests per check: ${last.requests} (${last.retries} retries); exit code ${last.exitCode}` +
      (stub ? `; the stub counted ${stub.requests()} requests over ${runs + 1} checks` : ''),
  );
  await bundleFigures(apiUrl);
} finally {
  stub?.server.close();
}

/** Median wall time of `fn` over `times` runs (child processes, so the stub server keeps answering). */
async function medianMs(times: number, fn: () => Promise<unknown>): Promise<number> {
  const all: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await fn();
    all.push(performance.now() - t0);
  }
  return all.sort((a, b) => a - b)[Math.floor(all.length / 2)]!;
}

async function bundleFigures(api: string): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pkgscan-bench-cli-'));
  try {
    const file = await buildCli({ quiet: true, outfile: path.join(dir, 'pkgscan.mjs') });
    const node = process.execPath;
    const n = runs * 4;
    const bare = await medianMs(n, () => run(node, ['-e', '0']));
    const start = await medianMs(n, () => run(node, [file, '--version'], { cwd: dir }));
    const lockfile = path.join(repoRoot, 'package-lock.json');
    const check = await medianMs(runs, async () => {
      try {
        await run(node, [file, lockfile, '--json', '--quiet', '--api-url', api], {
          cwd: dir,
          maxBuffer: 64 * 1024 * 1024,
        });
      } catch (error) {
        if ((error as { code?: number }).code !== 1) throw error;
      }
    });
    console.log(`One-file CLI: ${(statSync(file).size / 1024).toFixed(0)} KB, no runtime dependencies`);
    console.log(
      `Start (node pkgscan.mjs --version, median of ${n}): ${start.toFixed(0)} ms; bare node -e 0: ${bare.toFixed(0)} ms; the CLI's own share ${(start - bare).toFixed(0)} ms (goal: start < 200 ms)`,
    );
    console.log(`Whole check in a fresh process (median of ${runs}): ${check.toFixed(0)} ms`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
