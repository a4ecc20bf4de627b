/**
 * Scoring of the labelled samples in data/samples (used by `npm run eval:detection` and the unit
 * tests). A positive counts as caught when a finding with the expected threat type or capability
 * sits on the labelled line or within the two lines after it (a statement the label points at may
 * continue), or anywhere in the file for whole-file labels. An `ok:` line is violated by a finding
 * of the same rule family (confidence >= 0.5) on that exact line. A benign file is flagged by any
 * agentic threat with confidence >= 0.5.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { analyzeFiles } from '../index';
import { DEFAULT_LIMITS, type AnalysisResult, type Finding } from '../types';

interface Expectation {
  types: string[];
  /** My rules that implement the labelled rule: used to judge `ok:` lines. */
  family: RegExp;
}

/** Which threat types or capabilities count as catching each labelled rule. */
export const RULE_MAP: Record<string, Expectation> = {
  'npm-api-obfuscation': {
    types: ['malicious_code', 'cap:process', 'cap:network'],
    family: /obfuscated|bracket|reflect|descriptor|enumerated/,
  },
  'npm-dll-hijacking': { types: ['malicious_code'], family: /dll|library|preload|shared-library/ },
  'npm-exec-base64': { types: ['malicious_code'], family: /eval/ },
  'npm-exfiltrate-sensitive-data': {
    types: ['data_exfiltration'],
    family: /exfil|env-to-remote|fingerprint/,
  },
  'npm-install-script': {
    types: ['cap:install_scripts', 'install_script_injection'],
    family: /install-script/,
  },
  'npm-obfuscation': {
    types: ['malicious_code'],
    family: /hex-identifiers|jsfuck|string-array|decoder|obfuscated|packer|eval|aaencode|jjencode/,
  },
  'npm-serialize-environment': {
    types: ['data_exfiltration', 'cap:environment'],
    family: /env-whole|serialize-env/,
  },
  'npm-silent-process-execution': { types: ['malicious_code'], family: /silent/ },
  'npm-steganography': { types: ['malicious_code'], family: /eval/ },
  'threat-network-exfiltration': { types: ['data_exfiltration'], family: /exfil|public-ip/ },
  'threat-npm-http-dependency': { types: ['install_script_injection'], family: /url-dependency/ },
  'threat-process-hooks': { types: ['install_script_injection'], family: /shell\./ },
  'threat-process-download-exec': {
    types: ['install_script_injection', 'malicious_code'],
    family: /download|exec-/,
  },
  'threat-runtime-obfuscation': { types: ['malicious_code'], family: /./ },
  'threat-runtime-obfuscation-dynamic-eval': { types: ['malicious_code'], family: /eval/ },
  'threat-runtime-obfuscation-hidden-code': { types: ['malicious_code'], family: /whitespace-hidden/ },
  'threat-runtime-obfuscation-js-mangling': { types: ['malicious_code'], family: /hex-identifiers|jsfuck/ },
  'threat-runtime-self-propagation': {
    types: ['malicious_code', 'install_script_injection'],
    family: /publish/,
  },
};

function kindOf(f: Finding): string {
  return 'threat_type' in f ? f.threat_type : `cap:${f.capability}`;
}

async function analyzeSample(samplesDir: string, rel: string): Promise<AnalysisResult> {
  const data = await readFile(join(samplesDir, rel));
  const base = rel.slice(rel.lastIndexOf('/') + 1);
  const path = base.endsWith('.json') ? 'package.json' : base;
  return analyzeFiles([{ path, data, size: data.length, truncated: false }], { ...DEFAULT_LIMITS });
}

export interface SampleReport {
  positives: number;
  caught: number;
  /** Caught by a capability or by a threat finding with confidence >= 0.5. */
  caughtStrong: number;
  missed: string[];
  okLines: number;
  okViolations: string[];
  benignFiles: number;
  benignFlagged: string[];
}

export async function evaluateSamples(samplesDir: string): Promise<SampleReport> {
  const rep: SampleReport = {
    positives: 0,
    caught: 0,
    caughtStrong: 0,
    missed: [],
    okLines: 0,
    okViolations: [],
    benignFiles: 0,
    benignFlagged: [],
  };
  const cache = new Map<string, AnalysisResult>();
  const get = async (rel: string) => {
    let r = cache.get(rel);
    if (!r) {
      r = await analyzeSample(samplesDir, rel);
      cache.set(rel, r);
    }
    return r;
  };
  // GuardDog-derived samples.
  const gd = (await readFile(join(samplesDir, 'guarddog/labels.jsonl'), 'utf8')).split('\n').filter(Boolean);
  for (const row of gd) {
    const l = JSON.parse(row) as {
      file: string;
      scheme: string;
      rule: string;
      label: string;
      target_line?: number;
    };
    const exp = RULE_MAP[l.rule];
    if (!exp) throw new Error(`no mapping for rule ${l.rule}`);
    const r = await get(`guarddog/${l.file}`);
    const id = `guarddog/${l.file}${l.target_line ? `:${l.target_line}` : ''} (${l.rule})`;
    if (l.label === 'positive') {
      rep.positives++;
      const hits = r.evidence.filter(
        (f) =>
          exp.types.includes(kindOf(f)) &&
          (l.scheme !== 'line' || (f.line >= l.target_line! && f.line <= l.target_line! + 2)),
      );
      if (hits.length) rep.caught++;
      else rep.missed.push(id);
      if (hits.some((f) => !('threat_type' in f) || f.confidence >= 0.5)) rep.caughtStrong++;
    } else if (l.scheme === 'line') {
      rep.okLines++;
      const bad = r.evidence.filter(
        (f) => f.line === l.target_line && exp.family.test(f.rule) && f.confidence >= 0.5,
      );
      if (bad.length) rep.okViolations.push(`${id}: ${bad.map((b) => b.rule).join(', ')}`);
    } else {
      rep.benignFiles++;
      const bad = r.agentic_threats.filter((t) => t.confidence >= 0.5);
      if (bad.length)
        rep.benignFlagged.push(`${id}: ${bad.map((b) => `${b.threat_type}@${b.location}`).join(', ')}`);
    }
  }
  // Agentic samples: whole files.
  const ag = (await readFile(join(samplesDir, 'agentic/labels.jsonl'), 'utf8')).split('\n').filter(Boolean);
  for (const row of ag) {
    const l = JSON.parse(row) as { file: string; label: string; kind: string };
    const r = await get(`agentic/${l.file}`);
    const id = `agentic/${l.file} (${l.kind})`;
    if (l.label === 'malicious') {
      rep.positives++;
      if (r.agentic_threats.some((t) => t.threat_type === 'prompt_injection' && t.confidence >= 0.5)) {
        rep.caught++;
        rep.caughtStrong++;
      } else rep.missed.push(id);
    } else {
      rep.benignFiles++;
      const bad = r.agentic_threats.filter((t) => t.confidence >= 0.5);
      if (bad.length)
        rep.benignFlagged.push(`${id}: ${bad.map((b) => `${b.threat_type}@${b.location}`).join(', ')}`);
    }
  }
  return rep;
}
