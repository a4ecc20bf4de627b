/**
 * Scoring of the labelled samples in data/samples (used by `npm run eval:detection` and the unit
 * tests, one test per sample).
 *
 * - `rules/labels.jsonl`: our own samples, one row per sample: `{ sample, rule, label, expect?, absent?,
 *   note }`. `sample` is a file or a folder under `rules/`. A file is analysed alone under its own
 *   name (a `.json` file as `package.json`); a folder is analysed as an unpacked package.
 *   A `positive` is caught when the engine reports one of the kinds in `expect`: a threat type with
 *   confidence >= 0.5, or a capability (`cap:<name>`). A `benign` sample must have no threat with
 *   confidence >= 0.5 and none of the kinds listed in `absent`.
 * - `agentic/labels.jsonl`: text aimed at agents (`label: malicious | benign`). A malicious file is
 *   caught by one of `threat_types` (default `prompt_injection`) at confidence >= 0.5; a benign file
 *   must have no threat >= 0.5.
 * - `known-misses.json`: samples the engine gets wrong today (missed positives, flagged benign
 *   samples), each with the reason. The unit test asserts they are still wrong, so a fix must also
 *   take the sample off the list.
 */
import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { analyzeDirectory, analyzeFiles } from '../index';
import { DEFAULT_LIMITS, type AnalysisResult } from '../types';

/** Threats at or above this confidence count (the risk policy's warning level). */
export const SAMPLE_MIN_CONFIDENCE = 0.5;

export interface SampleCase {
  /** Path under data/samples, e.g. `rules/npm-exec-base64/atob-eval.js`. */
  id: string;
  /** The rule or kind of text the sample illustrates. */
  rule: string;
  label: 'positive' | 'benign';
  /** Positives: threat types or `cap:<capability>` of which one must be reported. */
  expect: string[];
  /** Benign: kinds that must not be reported at all (besides any threat >= 0.5). */
  absent: string[];
  note: string;
}

export interface SampleOutcome {
  case: SampleCase;
  /** Positive reported with an expected kind; benign reported nothing it must not. */
  pass: boolean;
  /** What the engine reported: `kind:confidence@file:line`, threats and capabilities. */
  reported: string[];
  /** Benign only: the findings that broke it. */
  violations: string[];
}

export interface KnownMiss {
  id: string;
  why: string;
}

interface Reported {
  kind: string;
  confidence: number;
  where: string;
}

function reportedKinds(r: AnalysisResult): Reported[] {
  const out: Reported[] = r.evidence.map((f) => ({
    kind: 'threat_type' in f ? f.threat_type : `cap:${f.capability}`,
    confidence: 'threat_type' in f ? f.confidence : 1,
    where: `${f.file}:${f.line}`,
  }));
  for (const t of r.agentic_threats)
    out.push({ kind: t.threat_type, confidence: t.confidence, where: t.location });
  return out;
}

const isThreat = (k: string) => !k.startsWith('cap:');

/** Scores one analysis result against its label. */
export function scoreSample(c: SampleCase, r: AnalysisResult): SampleOutcome {
  const rep = reportedKinds(r);
  const reported = [...new Set(rep.map((x) => `${x.kind}:${x.confidence}@${x.where}`))];
  if (c.label === 'positive') {
    const pass = rep.some(
      (x) => c.expect.includes(x.kind) && (!isThreat(x.kind) || x.confidence >= SAMPLE_MIN_CONFIDENCE),
    );
    return { case: c, pass, reported, violations: [] };
  }
  const bad = rep.filter(
    (x) => (isThreat(x.kind) && x.confidence >= SAMPLE_MIN_CONFIDENCE) || c.absent.includes(x.kind),
  );
  const violations = [...new Set(bad.map((x) => `${x.kind}:${x.confidence}@${x.where}`))];
  return { case: c, pass: violations.length === 0, reported, violations };
}

function readJsonl(path: string): Record<string, unknown>[] {
  const text = readFileSync(path, 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** Every labelled sample under `samplesDir`, in a stable order (synchronous: tests are built from it). */
export function listSamples(samplesDir: string): SampleCase[] {
  const out: SampleCase[] = [];
  for (const row of readJsonl(join(samplesDir, 'rules/labels.jsonl'))) {
    const label = row.label === 'positive' ? 'positive' : row.label === 'benign' ? 'benign' : null;
    if (!label || typeof row.sample !== 'string') throw new Error(`bad label row ${JSON.stringify(row)}`);
    const expect = strings(row.expect);
    if (label === 'positive' && !expect.length) throw new Error(`positive without expect: ${row.sample}`);
    out.push({
      id: `rules/${row.sample}`,
      rule: String(row.rule ?? ''),
      label,
      expect,
      absent: strings(row.absent),
      note: String(row.note ?? ''),
    });
  }
  for (const row of readJsonl(join(samplesDir, 'agentic/labels.jsonl'))) {
    if (typeof row.file !== 'string') throw new Error(`bad agentic row ${JSON.stringify(row)}`);
    const malicious = row.label === 'malicious';
    const types = strings(row.threat_types);
    out.push({
      id: `agentic/${row.file}`,
      rule: String(row.kind ?? 'agentic'),
      label: malicious ? 'positive' : 'benign',
      expect: malicious ? (types.length ? types : ['prompt_injection']) : [],
      absent: [],
      note: String(row.kind ?? ''),
    });
  }
  return out;
}

/** Analyses one sample: a single file under its own name, or a folder as an unpacked package. */
export async function analyzeSample(samplesDir: string, id: string): Promise<AnalysisResult> {
  const path = join(samplesDir, id);
  if ((await stat(path)).isDirectory()) return analyzeDirectory(path, { ...DEFAULT_LIMITS });
  const data = await readFile(path);
  const base = basename(id);
  const name = base.endsWith('.json') ? 'package.json' : base;
  return analyzeFiles([{ path: name, data, size: data.length, truncated: false }], { ...DEFAULT_LIMITS });
}

export async function runSample(samplesDir: string, c: SampleCase): Promise<SampleOutcome> {
  return scoreSample(c, await analyzeSample(samplesDir, c.id));
}

/** Samples the engine is known to get wrong today: missed positives and flagged benign samples. */
export function readKnownMisses(samplesDir: string): KnownMiss[] {
  const raw = JSON.parse(readFileSync(join(samplesDir, 'known-misses.json'), 'utf8')) as unknown;
  if (!Array.isArray(raw)) throw new Error('known-misses.json must be an array');
  return raw.map((m: { id?: unknown; why?: unknown }) => {
    if (typeof m.id !== 'string' || typeof m.why !== 'string' || !m.why.trim())
      throw new Error(`known miss needs id and why: ${JSON.stringify(m)}`);
    return { id: m.id, why: m.why };
  });
}

export interface SampleReport {
  positives: number;
  caught: number;
  /** Same as `caught`: threats count only at confidence >= 0.5. Kept for report compatibility. */
  caughtStrong: number;
  missed: string[];
  /** Line-level `ok:` labels no longer exist; always 0 / empty. */
  okLines: number;
  okViolations: string[];
  benignFiles: number;
  benignFlagged: string[];
  /** Samples scored wrong that are on the known-miss list (missed positives, flagged benign samples). */
  knownMissed: string[];
  outcomes: SampleOutcome[];
}

export async function evaluateSamples(samplesDir: string): Promise<SampleReport> {
  const cases = listSamples(samplesDir);
  const known = new Set(readKnownMisses(samplesDir).map((m) => m.id));
  const rep: SampleReport = {
    positives: 0,
    caught: 0,
    caughtStrong: 0,
    missed: [],
    okLines: 0,
    okViolations: [],
    benignFiles: 0,
    benignFlagged: [],
    knownMissed: [],
    outcomes: [],
  };
  for (const c of cases) {
    const o = await runSample(samplesDir, c);
    rep.outcomes.push(o);
    if (c.label === 'positive') {
      rep.positives++;
      if (o.pass) {
        rep.caught++;
        rep.caughtStrong++;
      } else {
        rep.missed.push(`${c.id} (${c.rule}; expected ${c.expect.join('|')})`);
        if (known.has(c.id)) rep.knownMissed.push(c.id);
      }
    } else {
      rep.benignFiles++;
      if (!o.pass) {
        rep.benignFlagged.push(`${c.id}: ${o.violations.join(', ')}`);
        if (known.has(c.id)) rep.knownMissed.push(c.id);
      }
    }
  }
  return rep;
}
