/**
 * `npm run eval:detection`: measures detection quality; prints and writes bench/results/detection.md.
 *
 * 1. Labelled samples (data/samples, scored by eval/samples.ts).
 * 2. Corpus (data/corpus): real cases (references in data/corpus/real.jsonl, rebuilt into
 *    `.cache/corpus/real` by `npm run corpus:fetch`) and our own rewritten cases, reported apart.
 *    Per family: cases, caught (risk warning or critical AND a threat >= 0.5 of a type expected for
 *    the family), share rated critical, the misses with their top findings; then
 *    leave-one-family-out recall (eval/scoring.ts).
 * 3. Popular set: data/benign/packages.txt plus the most-downloaded names of `npm-high-impact` up
 *    to 1,050 names (latest versions, fetched with pacote into `.cache/benign`): share critical,
 *    share warning from threats, share with any threat >= 0.5, offending packages listed.
 *
 * Also writes bench/results/detection.json (the figures, machine-readable).
 *
 * Options: --samples-only, --corpus-only, --popular-only, --limit N (popular packages),
 * --popular N (size of the popular list, default 1050), --fetch-only (fetch the popular tarballs
 * and stop), --findings FILE (every finding of every corpus case and popular package, one JSON
 * line each, sorted: diff two runs to see what a rule change does), --show-holdout (list the
 * held-out misses; by default only their figures are printed, so that whoever tunes the rules
 * does not read them), --show-lofo (list the real and rewritten cases caught with every rule on
 * but missed under leave-one-family-out, with the findings that survive; never the held-out ones).
 * Env: NPM_REGISTRY to use another registry URL.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { analyzeDirectory, analyzeTarball, type AnalysisResult } from '../src/engine/index';
import { evaluateSamples } from '../src/engine/eval/samples';
import { loadBenignTarballs } from '../src/engine/eval/corpus';
import { loadCorpus } from '../src/engine/eval/corpus-cases';
import {
  outcomeOf,
  popularOutcome,
  scoreFamilies,
  scorePopular,
  topFindings,
  totals,
  type CaseOutcome,
  type FamilyScore,
  type PopularOutcome,
} from '../src/engine/eval/scoring';

const ROOT = process.cwd();
const SAMPLES = join(ROOT, 'data/samples');
const RESULTS = join(ROOT, 'bench/results');
const DEFAULT_POPULAR = 1050;

/** Machine-readable figures, written next to the report as detection.json. */
const summary: Record<string, unknown> = {};

/** `--findings FILE`: one line per finding (or per clean case/package), written at the end. */
const findingLines: string[] = [];

function recordFindings(set: string, id: string, r: AnalysisResult): void {
  const rows = r.evidence.map((f) =>
    JSON.stringify({
      set,
      id,
      risk: r.risk_level,
      rule: f.rule,
      kind: 'threat_type' in f ? f.threat_type : `cap:${f.capability}`,
      confidence: f.confidence,
      install_time: f.install_time,
      at: `${f.file}:${f.line}`,
    }),
  );
  findingLines.push(...(rows.length ? rows : [JSON.stringify({ set, id, risk: r.risk_level })]));
}

interface PackageRow {
  spec: string;
  outcome?: PopularOutcome;
  /** Spot checks that apply to this package: true when passed. */
  spot?: boolean[];
  row: string;
  error?: string;
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

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function numArg(args: string[], name: string): number | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const n = Number(args[i + 1]);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} needs a number`);
  return n;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const only = ['--samples-only', '--corpus-only', '--popular-only'].filter((a) => args.includes(a));
  if (only.length > 1) throw new Error(`give at most one of ${only.join(', ')}`);
  const run = (part: 'samples' | 'corpus' | 'popular') => !only.length || only[0] === `--${part}-only`;
  const limit = numArg(args, '--limit');
  const findingsIdx = args.indexOf('--findings');
  const findingsFile = findingsIdx >= 0 ? args[findingsIdx + 1] : undefined;
  if (findingsIdx >= 0 && !findingsFile) throw new Error('--findings needs a file');
  const showHoldout = args.includes('--show-holdout');
  const showLofo = args.includes('--show-lofo');
  const popularSize = numArg(args, '--popular') ?? DEFAULT_POPULAR;

  if (args.includes('--fetch-only')) {
    const t = await loadBenignTarballs(ROOT, limit, { popular: popularSize });
    process.stdout.write(
      `popular set: ${t.filter((x) => x.file).length} tarballs cached, ${t.filter((x) => x.skipped).length} skipped (size caps), ${t.filter((x) => x.error).length} errors\n`,
    );
    for (const x of t.filter((y) => y.skipped || y.error))
      process.stdout.write(`  - ${x.name}: ${x.skipped ?? x.error}\n`);
    return;
  }

  const lines: string[] = [];
  const log = (x = '') => {
    lines.push(x);
    process.stdout.write(`${x}\n`);
  };
  log('# Detection evaluation');

  if (run('samples')) {
    const s = await evaluateSamples(SAMPLES);
    log();
    log('## Labelled samples');
    log(`- recall: ${s.caught}/${s.positives} = ${pct(s.caught, s.positives)}`);
    log(
      `- recall counting only capabilities and threats with confidence >= 0.5: ${s.caughtStrong}/${s.positives} = ${pct(s.caughtStrong, s.positives)}`,
    );
    log(`- ok-line violations: ${s.okViolations.length}/${s.okLines}`);
    log(`- benign files flagged: ${s.benignFlagged.length}/${s.benignFiles} (goal 0)`);
    for (const m of s.missed) log(`  - missed: ${m}`);
    for (const m of s.okViolations) log(`  - ok-line violation: ${m}`);
    for (const m of s.benignFlagged) log(`  - benign flagged: ${m}`);
    summary.samples = {
      positives: s.positives,
      caught: s.caught,
      benign_files: s.benignFiles,
      benign_flagged: s.benignFlagged.length,
    };
  }

  if (run('corpus')) await corpusSection(log, showHoldout, showLofo);

  let table: string[] = [];
  if (run('popular')) table = await popularSection(log, limit, popularSize);

  await mkdir(RESULTS, { recursive: true });
  await writeFile(join(RESULTS, 'detection.json'), `${JSON.stringify(summary, null, 2)}\n`);
  const out = join(RESULTS, 'detection.md');
  await writeFile(
    out,
    `${lines.join('\n')}\n${table.length ? `\n## Popular set, per package\n\n${table.join('\n')}\n` : ''}`,
  );
  process.stdout.write(`\nWritten to ${out}\n`);
  if (findingsFile) {
    await writeFile(findingsFile, `${[...findingLines].sort().join('\n')}\n`);
    process.stdout.write(`Findings (${findingLines.length} lines) written to ${findingsFile}\n`);
  }
}

async function corpusSection(
  log: (x?: string) => void,
  showHoldout: boolean,
  showLofo: boolean,
): Promise<void> {
  const { cases, missing } = await loadCorpus(ROOT);
  log();
  log('## Corpus');
  log(
    `- cases: ${cases.filter((c) => c.source === 'real').length} real (data/corpus/real.jsonl), ${cases.filter((c) => c.source === 'rewritten').length} rewritten (data/corpus/rewritten), ${cases.filter((c) => c.source === 'holdout').length} held out (data/corpus/holdout)`,
  );
  if (missing.length)
    log(
      `- not materialised (run \`npm run corpus:fetch -- --mirrors DIR\`): ${missing.length} (${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''})`,
    );
  log(
    '- caught = risk warning or critical AND a threat >= 0.5 of a type expected for the family; LOFO = caught with the rules that fire only on that family (across the whole corpus) switched off, risk recomputed with assessRisk',
  );
  const outcomes: CaseOutcome[] = [];
  for (const c of cases) {
    const meta = { id: c.id, family: c.family, source: c.source, expected: c.expected };
    try {
      const result = await analyzeDirectory(c.dir);
      recordFindings(c.source, `${c.family}/${c.id}`, result);
      outcomes.push(outcomeOf(meta, result));
    } catch (err) {
      outcomes.push({
        ...meta,
        risk_level: 'clean',
        threats: [],
        risk_input: { threats: [], install_scripts: [] },
        error: String((err as Error).message ?? err).slice(0, 200),
      });
    }
  }
  const table = (title: string, scores: FamilyScore[], listMisses = true) => {
    const t = totals(scores);
    summary[
      title === 'Real cases'
        ? 'corpus_real'
        : title === 'Rewritten cases'
          ? 'corpus_rewritten'
          : 'corpus_holdout'
    ] = {
      ...t,
      families: scores.map((x) => ({
        family: x.family,
        cases: x.cases,
        caught: x.caught,
        critical: x.critical,
        lofo_caught: x.lofoCaught,
      })),
    };
    log();
    log(`### ${title}`);
    log();
    log('| family | cases | caught | recall | critical | LOFO caught | LOFO recall | rules off for LOFO |');
    log('|---|---|---|---|---|---|---|---|');
    for (const s of scores)
      log(
        `| ${s.family} | ${s.cases} | ${s.caught} | ${pct(s.caught, s.cases)} | ${pct(s.critical, s.cases)} | ${s.lofoCaught} | ${pct(s.lofoCaught, s.cases)} | ${s.lofoRules.join(', ') || '—'} |`,
      );
    log(
      `| **all** | ${t.cases} | ${t.caught} | ${pct(t.caught, t.cases)} | ${pct(t.critical, t.cases)} | ${t.lofoCaught} | ${pct(t.lofoCaught, t.cases)} | |`,
    );
    const missed = scores.flatMap((s) => s.missed);
    if (missed.length && !listMisses) {
      log();
      log(`Misses: ${missed.length} (not listed: run with --show-holdout to see them)`);
    } else if (missed.length) {
      log();
      log(`Misses (${missed.length}):`);
      for (const o of missed) log(`- ${o.family} / ${o.id} (${o.risk_level}): ${topFindings(o)}`);
    }
    const lofoMissed = scores.flatMap((s) => s.lofoMissed);
    if (showLofo && listMisses && lofoMissed.length) {
      log();
      log(`Caught, but missed under LOFO (${lofoMissed.length}), with the findings left:`);
      for (const { outcome: o, rest } of lofoMissed)
        log(`- ${o.family} / ${o.id}: ${topFindings({ ...o, threats: rest })}`);
    }
  };
  // Rule hit sets (for LOFO) are taken over the real and rewritten cases together; the held-out
  // cases are scored against the same rule sets and reported apart.
  const real = outcomes.filter((o) => o.source === 'real');
  const rewritten = outcomes.filter((o) => o.source === 'rewritten');
  const held = outcomes.filter((o) => o.source === 'holdout');
  const tuned = [...real, ...rewritten];
  if (real.length) table('Real cases', scoreFamilies(real, tuned));
  if (rewritten.length) table('Rewritten cases', scoreFamilies(rewritten, tuned));
  if (held.length)
    table('Held-out cases (written blind, never tuned on)', scoreFamilies(held, tuned), showHoldout);
  if (real.length && rewritten.length) {
    const all = totals(scoreFamilies(tuned));
    log();
    log(
      `Whole corpus: ${all.caught}/${all.cases} caught (${pct(all.caught, all.cases)}), LOFO ${all.lofoCaught}/${all.cases} (${pct(all.lofoCaught, all.cases)}), critical ${pct(all.critical, all.cases)}`,
    );
  }
}

async function popularSection(
  log: (x?: string) => void,
  limit: number | undefined,
  popularSize: number,
): Promise<string[]> {
  log();
  log('## Popular set (latest versions)');
  const tarballs = await loadBenignTarballs(ROOT, limit, { popular: popularSize });
  const rows: PackageRow[] = [];
  for (const t of tarballs) {
    if (!t.file) {
      if (t.error)
        rows.push({
          spec: t.name,
          error: t.error,
          row: `| ${t.name} | error: ${cell(t.error)} |||||||||| |`,
        });
      continue;
    }
    const t0 = performance.now();
    try {
      const result = await analyzeTarball(await readFile(t.file));
      const ms = performance.now() - t0;
      recordFindings('popular', t.spec!, result);
      // Keep only a summary: the full results of 1,000+ packages would not fit in memory.
      rows.push({
        spec: t.spec!,
        outcome: popularOutcome(t.spec!, result),
        spot: SPOT_CHECKS.filter((c) => c.pkg === t.name).map((c) => c.ok(result)),
        row: tableRow(t.spec!, result, ms),
      });
    } catch (err) {
      rows.push({
        spec: t.spec!,
        error: String(err),
        row: `| ${t.spec} | error: ${cell(String(err))} |||||||||| |`,
      });
    }
  }
  const skipped = tarballs.filter((t) => t.skipped);
  const ok = rows.filter((r) => r.outcome);
  const p = scorePopular(ok.map((r) => r.outcome!));
  log(
    `- listed: ${tarballs.length} (data/benign/packages.txt + npm-high-impact top downloads, no @types/*); analysed: ${ok.length}; fetch/analysis errors: ${rows.length - ok.length}; skipped by size caps: ${skipped.length}`,
  );
  for (const s of skipped) log(`  - skipped: ${s.skipped}`);
  summary.popular = {
    analysed: p.analysed,
    critical: p.critical.map((o) => o.spec),
    warning_from_threats: p.warningFromThreats.map((o) => o.spec),
    any_threat: p.anyThreat.map((o) => o.spec),
    agent_directed: p.agentDirected.map((o) => o.spec),
  };
  log(`- critical: ${p.critical.length} = ${pct(p.critical.length, p.analysed)} (goal 0)`);
  log(
    `- warning from threats (>= 0.5): ${p.warningFromThreats.length} = ${pct(p.warningFromThreats.length, p.analysed)} (goal <= 1%)`,
  );
  log(`- any threat >= 0.5: ${p.anyThreat.length} = ${pct(p.anyThreat.length, p.analysed)} (goal <= 1%)`);
  log(
    `- agent-directed threat (prompt injection, instruction override, social engineering) >= 0.5: ${p.agentDirected.length} = ${pct(p.agentDirected.length, p.analysed)}`,
  );
  const warnAll = ok.filter((r) => r.outcome!.risk_level === 'warning').length;
  log(
    `- warning for any reason (incl. install-time capabilities, limits): ${warnAll} = ${pct(warnAll, p.analysed)}`,
  );
  if (p.anyThreat.length) {
    log();
    log('Packages with a threat >= 0.5 (rule, file:line, snippet):');
    for (const o of [...p.anyThreat].sort(
      (a, b) => (a.risk_level === 'critical' ? -1 : 0) - (b.risk_level === 'critical' ? -1 : 0),
    )) {
      log(`- ${o.spec} (${o.risk_level})`);
      for (const t of [...o.strong].sort((a, b) => b.confidence - a.confidence).slice(0, 3))
        log(
          `  - ${t.rule} ${t.threat_type} ${t.confidence.toFixed(2)}${t.install_time ? ' install-time' : ''} ${t.file}:${t.line} \`${t.snippet.slice(0, 120).replace(/`/g, "'")}\``,
        );
    }
  }
  const byRule = new Map<string, number>();
  for (const o of p.anyThreat)
    for (const r of new Set(o.strong.map((t) => t.rule))) byRule.set(r, (byRule.get(r) ?? 0) + 1);
  if (byRule.size) {
    log();
    log(
      `Rules behind them (packages): ${[...byRule.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([r, n]) => `${r} ${n}`)
        .join(', ')}`,
    );
  }
  log();
  log('## Spot checks');
  let passed = 0;
  for (const c of SPOT_CHECKS) {
    const row = ok.find((r) => r.spec.startsWith(`${c.pkg}@`));
    const i = SPOT_CHECKS.filter((x) => x.pkg === c.pkg).indexOf(c);
    const res = row ? row.spot![i] : undefined;
    if (res) passed++;
    log(`- ${c.pkg} ${c.what}: ${res === undefined ? 'not analysed' : res ? 'yes' : 'NO'}`);
  }
  log(`- spot checks passed: ${passed}/${SPOT_CHECKS.length}`);

  return [
    '| package | risk | threats >= 0.5 | threats (all) | network | fs r/w | spawns | env vars | native | install scripts | JS KB | ms |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => r.row),
  ];
}

function tableRow(spec: string, x: AnalysisResult, ms: number): string {
  const c = x.capabilities;
  const scripts = Object.entries(x.install_scripts)
    .filter(([, v]) => v)
    .map(([k]) => k)
    .join(' ');
  return `| ${spec} | ${x.risk_level} | ${x.agentic_threats.filter((t) => t.confidence >= 0.5).length} | ${x.agentic_threats.length} | ${c.network.makes_requests ? 'yes' : ''} | ${c.filesystem.reads ? 'r' : ''}${c.filesystem.writes ? 'w' : ''} | ${c.process.spawns_children ? 'yes' : ''} | ${c.environment.accessed_vars.length} | ${c.native.has_native ? 'yes' : ''} | ${scripts} | ${Math.round(x.stats.js_bytes / 1024)} | ${Math.round(ms)} |`;
}

main().catch((err: unknown) => {
  process.stderr.write(`eval-detection: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
