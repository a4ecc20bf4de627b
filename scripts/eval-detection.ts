/**
 * `npm run eval:detection`: measures detection quality.
 *
 * 1. Labelled samples (data/samples): recall on positives (a finding with the expected threat type
 *    or capability on the labelled line or within the two lines after it, or anywhere in the file
 *    for whole-file labels), violations of `ok:` lines (a finding of the same rule family on that
 *    exact line), and benign whole files flagged (any threat with confidence >= 0.5).
 * 2. Real packages (data/benign/packages.txt, latest versions fetched with pacote into .cache/):
 *    share rated critical / warning / carrying a threat >= 0.5, spot checks of well-known
 *    capabilities, and a per-package table written to bench/results/detection.md.
 *
 * Options: --samples-only, --limit N. Env: NPM_REGISTRY to use another registry URL.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { analyzeTarball, type AnalysisResult } from '../lambdas/analysis/index';
import { evaluateSamples } from '../lambdas/analysis/eval/samples';
import { loadBenignTarballs } from '../lambdas/analysis/eval/corpus';

const ROOT = process.cwd();
const SAMPLES = join(ROOT, 'data/samples');
const RESULTS = join(ROOT, 'bench/results');

// ------------------------------------------------------------------ real packages

interface PackageRow {
  spec: string;
  result?: AnalysisResult;
  error?: string;
  ms: number;
}

const SPOT_CHECKS: { pkg: string; what: string; ok: (r: AnalysisResult) => boolean }[] = [
  { pkg: 'ws', what: 'makes network requests', ok: (r) => r.capabilities.network.makes_requests },
  {
    pkg: '@smithy/node-http-handler',
    what: 'makes network requests',
    ok: (r) => r.capabilities.network.makes_requests,
  },
  { pkg: 'openai', what: 'makes network requests', ok: (r) => r.capabilities.network.makes_requests },
  {
    pkg: 'https-proxy-agent',
    what: 'makes network requests',
    ok: (r) => r.capabilities.network.makes_requests,
  },
  { pkg: 'fs-extra', what: 'writes files', ok: (r) => r.capabilities.filesystem.writes },
  { pkg: 'mkdirp', what: 'writes files', ok: (r) => r.capabilities.filesystem.writes },
  { pkg: 'tar', what: 'writes files', ok: (r) => r.capabilities.filesystem.writes },
  { pkg: 'flat-cache', what: 'writes files', ok: (r) => r.capabilities.filesystem.writes },
  { pkg: 'bcrypt', what: 'has native code', ok: (r) => r.capabilities.native.has_native },
  { pkg: 'canvas', what: 'has native code', ok: (r) => r.capabilities.native.has_native },
  {
    pkg: '@esbuild/linux-x64',
    what: 'has native code (bundled executable)',
    ok: (r) => r.capabilities.native.has_native,
  },
  { pkg: '@img/sharp-linuxmusl-x64', what: 'has native code', ok: (r) => r.capabilities.native.has_native },
  { pkg: 'cross-env', what: 'spawns child processes', ok: (r) => r.capabilities.process.spawns_children },
  { pkg: 'open', what: 'spawns child processes', ok: (r) => r.capabilities.process.spawns_children },
  { pkg: 'dotenv', what: 'reads files', ok: (r) => r.capabilities.filesystem.reads },
  { pkg: 'esbuild', what: 'has an install script', ok: (r) => r.install_scripts.postinstall },
];

function pct(n: number, d: number): string {
  return d ? `${((100 * n) / d).toFixed(1)}%` : 'n/a';
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const samplesOnly = args.includes('--samples-only');
  const limitArg = args.indexOf('--limit');
  const limit = limitArg >= 0 ? Number(args[limitArg + 1]) : undefined;

  const s = await evaluateSamples(SAMPLES);
  const lines: string[] = [];
  const log = (x = '') => {
    lines.push(x);
    process.stdout.write(`${x}\n`);
  };
  log('# Detection evaluation');
  log();
  log('## Labelled samples');
  log(`- recall: ${s.caught}/${s.positives} = ${pct(s.caught, s.positives)} (goal >= 95%)`);
  log(
    `- recall counting only capabilities and threats with confidence >= 0.5: ${s.caughtStrong}/${s.positives} = ${pct(s.caughtStrong, s.positives)}`,
  );
  log(`- ok-line violations: ${s.okViolations.length}/${s.okLines}`);
  log(`- benign files flagged: ${s.benignFlagged.length}/${s.benignFiles} (goal 0)`);
  for (const m of s.missed) log(`  - missed: ${m}`);
  for (const m of s.okViolations) log(`  - ok-line violation: ${m}`);
  for (const m of s.benignFlagged) log(`  - benign flagged: ${m}`);
  if (samplesOnly) return;

  log();
  log('## Real packages (latest versions)');
  const tarballs = await loadBenignTarballs(ROOT, limit);
  const rows: PackageRow[] = [];
  for (const t of tarballs) {
    if (!t.file) {
      rows.push({ spec: t.name, error: t.error, ms: 0 });
      continue;
    }
    const t0 = performance.now();
    try {
      const result = await analyzeTarball(await readFile(t.file));
      rows.push({ spec: t.spec!, result, ms: performance.now() - t0 });
    } catch (err) {
      rows.push({ spec: t.spec!, error: String(err), ms: performance.now() - t0 });
    }
  }
  const ok = rows.filter((r) => r.result);
  const crit = ok.filter((r) => r.result!.risk_level === 'critical');
  const warn = ok.filter((r) => r.result!.risk_level === 'warning');
  const threat = ok.filter((r) => r.result!.agentic_threats.some((t) => t.confidence >= 0.5));
  log(`- analysed: ${ok.length}/${rows.length} (fetch/analysis errors: ${rows.length - ok.length})`);
  log(`- critical: ${crit.length} = ${pct(crit.length, ok.length)} (goal 0)`);
  log(`- warning: ${warn.length} = ${pct(warn.length, ok.length)}`);
  log(`- any agentic threat >= 0.5: ${threat.length} = ${pct(threat.length, ok.length)} (goal <= 2%)`);
  const weak = ok.filter((r) => r.result!.agentic_threats.length > 0);
  log(`- any reported agentic threat (confidence >= 0.35): ${weak.length} = ${pct(weak.length, ok.length)}`);
  for (const r of [...crit, ...threat.filter((x) => !crit.includes(x))]) {
    const top = r.result!.agentic_threats.filter((t) => t.confidence >= 0.5).slice(0, 3);
    log(
      `  - ${r.spec} (${r.result!.risk_level}): ${top.map((t) => `${t.threat_type} ${t.confidence} ${t.location}`).join('; ')}`,
    );
  }
  log();
  log('## Spot checks');
  let passed = 0;
  for (const c of SPOT_CHECKS) {
    const row = ok.find((r) => r.spec.startsWith(`${c.pkg}@`));
    const res = row ? c.ok(row.result!) : undefined;
    if (res) passed++;
    log(`- ${c.pkg} ${c.what}: ${res === undefined ? 'not analysed' : res ? 'yes' : 'NO'}`);
  }
  log(`- spot checks passed: ${passed}/${SPOT_CHECKS.length}`);

  const table: string[] = [
    '| package | risk | threats >= 0.5 | threats (all) | network | fs r/w | spawns | env vars | native | install scripts | JS KB | ms |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    if (!r.result) {
      table.push(`| ${r.spec} | error: ${r.error?.replace(/\|/g, '/')} |||||||||| `);
      continue;
    }
    const x = r.result;
    const c = x.capabilities;
    const scripts = Object.entries(x.install_scripts)
      .filter(([, v]) => v)
      .map(([k]) => k)
      .join(' ');
    table.push(
      `| ${r.spec} | ${x.risk_level} | ${x.agentic_threats.filter((t) => t.confidence >= 0.5).length} | ${x.agentic_threats.length} | ${c.network.makes_requests ? 'yes' : ''} | ${c.filesystem.reads ? 'r' : ''}${c.filesystem.writes ? 'w' : ''} | ${c.process.spawns_children ? 'yes' : ''} | ${c.environment.accessed_vars.length} | ${c.native.has_native ? 'yes' : ''} | ${scripts} | ${Math.round(x.stats.js_bytes / 1024)} | ${Math.round(r.ms)} |`,
    );
  }
  await mkdir(RESULTS, { recursive: true });
  const out = join(RESULTS, 'detection.md');
  await writeFile(out, `${lines.join('\n')}\n\n## Per package\n\n${table.join('\n')}\n`);
  log();
  log(`Per-package table written to ${out}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`eval-detection: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
