/**
 * `npm run bench:scan`: throughput of the analysis over the real-package corpus, next to the bare
 * parse time of the same files with the same parser and options, and time and peak memory for the
 * largest package (measured in a fresh child process so the peak is its own).
 *
 * Options: --limit N (first N packages), --single <file.tgz> (internal: one package, prints JSON).
 */
import { spawnSync } from 'node:child_process';
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { analyzeFiles, analyzeTarball, DEFAULT_LIMITS } from '../lambdas/analysis/index';
import { loadBenignTarballs } from '../lambdas/analysis/eval/corpus';
import { bareParse, isTypeScriptPath } from '../lambdas/analysis/js/parse';
import { readTarball } from '../lambdas/analysis/tar';
import { decodeText } from '../lambdas/analysis/text';

const ROOT = process.cwd();
const CODE = /\.(?:[cm]?jsx?|[cm]?tsx?)$/i;

async function single(file: string): Promise<void> {
  const buf = await readFile(file);
  const t0 = performance.now();
  const r = await analyzeTarball(buf);
  const ms = performance.now() - t0;
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(
    JSON.stringify({ ms, maxRssMb, js_bytes: r.stats.js_bytes, files: r.stats.files, risk: r.risk_level }),
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--single' && args[1]) return single(args[1]);
  const li = args.indexOf('--limit');
  const limit = li >= 0 ? Number(args[li + 1]) : undefined;
  const corpus = (await loadBenignTarballs(ROOT, limit)).filter((c) => c.file);
  let parseMs = 0;
  let analysisMs = 0;
  let astBytes = 0;
  let jsBytes = 0;
  let largest: { spec: string; file: string; bytes: number } | undefined;
  let mostCode: { spec: string; file: string; bytes: number } | undefined;
  for (const c of corpus) {
    const buf = await readFile(c.file!);
    const archive = await readTarball(buf, { ...DEFAULT_LIMITS });
    const unpacked = archive.files.reduce((n, f) => n + f.size, 0);
    if (!largest || unpacked > largest.bytes) largest = { spec: c.spec!, file: c.file!, bytes: unpacked };
    // Bare parse of exactly the files the engine parses (code, not .d.ts, within the AST size limit).
    let pkgAst = 0;
    for (const f of archive.files) {
      if (
        !CODE.test(f.path) ||
        /\.d\.[cm]?ts$/i.test(f.path) ||
        f.truncated ||
        f.data.length > DEFAULT_LIMITS.maxAstFileBytes
      )
        continue;
      const dec = decodeText(f.data);
      if (dec.binary) continue;
      astBytes += f.data.length;
      pkgAst += f.data.length;
      const t0 = performance.now();
      bareParse(dec.text, f.path);
      parseMs += performance.now() - t0;
      void isTypeScriptPath;
    }
    if (!mostCode || pkgAst > mostCode.bytes) mostCode = { spec: c.spec!, file: c.file!, bytes: pkgAst };
    const t1 = performance.now();
    const r = analyzeFiles(archive.files, { ...DEFAULT_LIMITS }, archive);
    analysisMs += performance.now() - t1;
    jsBytes += r.stats.js_bytes;
  }
  const lines: string[] = [];
  const log = (s: string) => {
    lines.push(s);
    process.stdout.write(`${s}\n`);
  };
  log(
    `# Scan benchmark (${corpus.length} packages, load average ${loadavg()[0]!.toFixed(1)} on ${process.arch})`,
  );
  log('');
  log(
    `- JavaScript/TypeScript parsed into a syntax tree: ${(astBytes / 1e6).toFixed(1)} MB; all code files seen: ${(jsBytes / 1e6).toFixed(1)} MB`,
  );
  log(
    `- bare parse (same parser, same options): ${(parseMs / 1000).toFixed(1)} s = ${(astBytes / 1e6 / (parseMs / 1000)).toFixed(2)} MB/s`,
  );
  log(
    `- full analysis (tar already read; parse + walk + text rules + docs): ${(analysisMs / 1000).toFixed(1)} s = ${(astBytes / 1e6 / (analysisMs / 1000)).toFixed(2)} MB/s of parsed code`,
  );
  log(`- full analysis / bare parse: ${(analysisMs / parseMs).toFixed(2)}x (goal <= 2.5x)`);
  const measure = (file: string) => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'bench/scan.ts', '--single', file], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    return JSON.parse(child.stdout || '{}') as { ms?: number; maxRssMb?: number; js_bytes?: number };
  };
  for (const [label, pkg] of [
    ['largest package (unpacked size)', largest],
    ['package with the most code parsed', mostCode],
  ] as const) {
    if (!pkg) continue;
    const out = measure(pkg.file);
    log(
      `- ${label}: ${pkg.spec} (${(pkg.bytes / 1e6).toFixed(1)} MB ${label.startsWith('largest') ? 'unpacked' : 'parsed'}, ${((out.js_bytes ?? 0) / 1e6).toFixed(1)} MB of code files): ` +
        `${((out.ms ?? NaN) / 1000).toFixed(1)} s from tarball to result, peak RSS ${Math.round(out.maxRssMb ?? NaN)} MB (goal < 10 s, < 1 GB)`,
    );
  }
  await mkdir(join(ROOT, 'bench/results'), { recursive: true });
  await writeFile(join(ROOT, 'bench/results/scan.md'), `${lines.join('\n')}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
