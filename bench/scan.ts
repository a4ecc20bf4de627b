/**
 * `npm run bench:scan`: throughput of the analysis over the real-package corpus, next to the bare
 * parse time of the same files with the same parser and options, and time and peak memory for the
 * largest package (measured in a fresh child process so the peak is its own).
 *
 * Options: --limit N (first N packages), --no-xray (skip the js-x-ray side-by-side), --single
 * <file.tgz> (internal: one package, prints JSON).
 */
import { spawnSync } from 'node:child_process';
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { analyzeFiles, analyzeTarball, DEFAULT_LIMITS } from '../src/engine/index';
import { loadBenignTarballs } from '../src/engine/eval/corpus';
import { bareParse, isTypeScriptPath } from '../src/engine/js/parse';
import { readTarball } from '../src/engine/tar';
import { decodeText } from '../src/engine/text';

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

interface XrayAnalyser {
  analyse(source: string, options?: { module?: boolean }): unknown;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--single' && args[1]) return single(args[1]);
  const li = args.indexOf('--limit');
  const limit = li >= 0 ? Number(args[li + 1]) : undefined;
  // Side by side: NodeSecure's js-x-ray AstAnalyser on the same JavaScript files (the newest
  // version that runs on this Node; a dev dependency). --no-xray skips it.
  const xray = args.includes('--no-xray')
    ? undefined
    : ((await import('@nodesecure/js-x-ray')) as { AstAnalyser: new () => XrayAnalyser });
  const xrayVersion = xray
    ? (
        JSON.parse(await readFile(join(ROOT, 'node_modules/@nodesecure/js-x-ray/package.json'), 'utf8')) as {
          version: string;
        }
      ).version
    : undefined;
  let xrayMs = 0;
  let xrayBytes = 0;
  let xrayFailures = 0;
  let oursOnXrayPkgsMs = 0;
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
    const ours = performance.now() - t1;
    analysisMs += ours;
    if (xray) {
      const analyser = new xray.AstAnalyser();
      for (const f of archive.files) {
        if (!/\.[cm]?js$/i.test(f.path) || f.truncated || f.data.length > DEFAULT_LIMITS.maxAstFileBytes)
          continue;
        const dec = decodeText(f.data);
        if (dec.binary) continue;
        const t2 = performance.now();
        try {
          analyser.analyse(dec.text, {
            module:
              /\.mjs$/i.test(f.path) || /(?:^|\n)\s*(?:import|export)\s/.test(dec.text.slice(0, 50_000)),
          });
        } catch {
          xrayFailures++;
        }
        xrayMs += performance.now() - t2;
        xrayBytes += f.data.length;
      }
      oursOnXrayPkgsMs += ours;
    }
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
  if (xray)
    log(
      `- side by side, same packages: js-x-ray ${xrayVersion} AstAnalyser on their ${(xrayBytes / 1e6).toFixed(1)} MB of .js/.cjs/.mjs files (it reads no TypeScript, scripts or archives): ${(xrayMs / 1000).toFixed(1)} s = ${(xrayBytes / 1e6 / (xrayMs / 1000)).toFixed(2)} MB/s, ${xrayFailures} files it could not analyse; this engine, whole packages: ${(oursOnXrayPkgsMs / 1000).toFixed(1)} s; js-x-ray / this engine: ${(xrayMs / oursOnXrayPkgsMs).toFixed(2)}x`,
    );
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
