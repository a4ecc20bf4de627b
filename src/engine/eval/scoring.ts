/**
 * Scoring of the detection corpus (used by `npm run eval:detection`, unit-tested on synthetic
 * results). Pure: no I/O.
 *
 * - A case is **caught** when its risk level is `warning` or `critical` AND it carries a threat
 *   finding with confidence >= 0.5 whose type is one expected for its family (or its own list).
 * - **Leave-one-family-out (LOFO)**: for a family F, the rules "written from F" are the rules whose
 *   threat findings, across the whole corpus, hit only cases of F. They are switched off, the risk
 *   is recomputed with `assessRisk` from the remaining evidence (the rest of `risk_input` is kept:
 *   install scripts, install-time capabilities, archive problems), and recall on F is measured
 *   again. Derived findings (a lifecycle script that runs a file with malicious code) are dropped
 *   when none of the findings they derive from survives.
 */
import { assessRisk, type RiskInput } from '../../policy/risk-policy';
import type { AnalysisResult, Finding } from '../types';
import type { RiskLevel, ThreatType } from '../../contract/schemas';

export const CATCH_CONFIDENCE = 0.5;

export interface ThreatEvidence {
  rule: string;
  threat_type: ThreatType;
  confidence: number;
  file: string;
  line: number;
  snippet: string;
  message: string;
  install_time: boolean;
}

/** What the eval keeps of one analysed case (small: no docs, no capabilities). */
export interface CaseOutcome {
  id: string;
  family: string;
  source: 'real' | 'rewritten' | 'holdout';
  expected: ThreatType[];
  risk_level: RiskLevel;
  threats: ThreatEvidence[];
  risk_input: RiskInput;
  error?: string;
}

export function threatEvidence(evidence: Finding[]): ThreatEvidence[] {
  const out: ThreatEvidence[] = [];
  for (const f of evidence) {
    if (!('threat_type' in f)) continue;
    out.push({
      rule: f.rule,
      threat_type: f.threat_type,
      confidence: f.confidence,
      file: f.file,
      line: f.line,
      snippet: f.snippet,
      message: f.message,
      install_time: f.install_time,
    });
  }
  return out;
}

export function outcomeOf(
  c: { id: string; family: string; source: 'real' | 'rewritten' | 'holdout'; expected: ThreatType[] },
  r: AnalysisResult,
): CaseOutcome {
  return { ...c, risk_level: r.risk_level, threats: threatEvidence(r.evidence), risk_input: r.risk_input };
}

/** The catch definition on a level and a list of threat findings. */
export function caughtBy(
  level: RiskLevel,
  threats: ThreatEvidence[],
  expected: readonly ThreatType[],
): boolean {
  return (
    (level === 'warning' || level === 'critical') &&
    threats.some((t) => t.confidence >= CATCH_CONFIDENCE && expected.includes(t.threat_type))
  );
}

export function isCaught(o: CaseOutcome): boolean {
  return !o.error && caughtBy(o.risk_level, o.threats, o.expected);
}

/** Findings derived from other findings: kept only while `keep` holds on the surviving ones. */
const DERIVED: { rule: RegExp; keep: (rest: ThreatEvidence[]) => boolean }[] = [
  {
    rule: /^pkg\.install-runs-/,
    keep: (rest) =>
      rest.some(
        (t) =>
          t.install_time &&
          t.threat_type === 'malicious_code' &&
          t.confidence >= CATCH_CONFIDENCE &&
          t.file !== 'package.json',
      ),
  },
];

/** The threat findings left when `disabled` rules are switched off. */
export function withoutRules(threats: ThreatEvidence[], disabled: ReadonlySet<string>): ThreatEvidence[] {
  const rest = threats.filter((t) => !disabled.has(t.rule));
  const base = rest.filter((t) => !DERIVED.some((d) => d.rule.test(t.rule)));
  return rest.filter((t) => {
    const d = DERIVED.find((x) => x.rule.test(t.rule));
    return !d || d.keep(base);
  });
}

/** Risk level recomputed with assessRisk from the remaining threat findings. */
export function recomputeLevel(o: CaseOutcome, threats: ThreatEvidence[]): RiskLevel {
  return assessRisk({
    ...o.risk_input,
    threats: threats.map((t) => ({
      threat_type: t.threat_type,
      confidence: t.confidence,
      file: t.file,
      line: t.line,
      message: t.message,
      install_time: t.install_time,
    })),
  }).risk_level;
}

/** For each rule, the families of the cases its threat findings hit. */
export function ruleFamilies(outcomes: CaseOutcome[]): Map<string, Set<string>> {
  const m = new Map<string, Set<string>>();
  for (const o of outcomes)
    for (const t of o.threats) {
      let s = m.get(t.rule);
      if (!s) m.set(t.rule, (s = new Set()));
      s.add(o.family);
    }
  return m;
}

/** Rules whose hits across the corpus are all on cases of `family`. */
export function rulesWrittenFrom(family: string, byRule: Map<string, Set<string>>): Set<string> {
  const out = new Set<string>();
  for (const [rule, fams] of byRule) if (fams.size === 1 && fams.has(family)) out.add(rule);
  return out;
}

export interface FamilyScore {
  family: string;
  cases: number;
  caught: number;
  critical: number;
  /** Caught with the family's own rules switched off. */
  lofoCaught: number;
  /** The rules switched off for LOFO. */
  lofoRules: string[];
  missed: CaseOutcome[];
  /** Cases caught with every rule on but missed under LOFO, with the findings that survive. */
  lofoMissed: { outcome: CaseOutcome; rest: ThreatEvidence[] }[];
}

export function scoreFamilies(outcomes: CaseOutcome[], lofoBase: CaseOutcome[] = outcomes): FamilyScore[] {
  const byRule = ruleFamilies(lofoBase);
  const families = [...new Set(outcomes.map((o) => o.family))].sort();
  return families.map((family) => {
    const cases = outcomes.filter((o) => o.family === family);
    const off = rulesWrittenFrom(family, byRule);
    let lofoCaught = 0;
    const lofoMissed: FamilyScore['lofoMissed'] = [];
    for (const o of cases) {
      if (o.error) continue;
      const rest = withoutRules(o.threats, off);
      if (caughtBy(recomputeLevel(o, rest), rest, o.expected)) lofoCaught++;
      else if (isCaught(o)) lofoMissed.push({ outcome: o, rest });
    }
    return {
      family,
      cases: cases.length,
      caught: cases.filter(isCaught).length,
      critical: cases.filter((o) => !o.error && o.risk_level === 'critical').length,
      lofoCaught,
      lofoRules: [...off].sort(),
      missed: cases.filter((o) => !isCaught(o)),
      lofoMissed,
    };
  });
}

export function totals(scores: FamilyScore[]): {
  cases: number;
  caught: number;
  critical: number;
  lofoCaught: number;
} {
  return scores.reduce(
    (a, s) => ({
      cases: a.cases + s.cases,
      caught: a.caught + s.caught,
      critical: a.critical + s.critical,
      lofoCaught: a.lofoCaught + s.lofoCaught,
    }),
    { cases: 0, caught: 0, critical: 0, lofoCaught: 0 },
  );
}

/** The strongest findings of a case, for the list of misses. */
export function topFindings(o: CaseOutcome, n = 3): string {
  if (o.error) return `error: ${o.error}`;
  const top = [...o.threats].sort((a, b) => b.confidence - a.confidence).slice(0, n);
  if (!top.length) return 'no threat finding';
  return top
    .map((t) => `${t.rule} ${t.threat_type} ${t.confidence.toFixed(2)} ${t.file}:${t.line}`)
    .join('; ');
}

/** Popular-set summary of one package. */
export interface PopularOutcome {
  spec: string;
  risk_level: RiskLevel;
  /** Threat findings with confidence >= 0.5 (the ones that make a warning or worse). */
  strong: ThreatEvidence[];
}

export function popularOutcome(spec: string, r: AnalysisResult): PopularOutcome {
  return {
    spec,
    risk_level: r.risk_level,
    strong: threatEvidence(r.evidence).filter((t) => t.confidence >= CATCH_CONFIDENCE),
  };
}

export interface PopularScore {
  analysed: number;
  critical: PopularOutcome[];
  /** Warning or worse because of a threat finding >= 0.5. */
  warningFromThreats: PopularOutcome[];
  /** Any reported threat (the result's `agentic_threats`) with confidence >= 0.5. */
  anyThreat: PopularOutcome[];
  /** Text aimed at agents (prompt injection, instruction override, social engineering) >= 0.5. */
  agentDirected: PopularOutcome[];
}

export const AGENT_DIRECTED: readonly ThreatType[] = [
  'prompt_injection',
  'instruction_override',
  'social_engineering',
];

export function scorePopular(rows: PopularOutcome[]): PopularScore {
  return {
    analysed: rows.length,
    critical: rows.filter((r) => r.risk_level === 'critical'),
    warningFromThreats: rows.filter((r) => r.risk_level === 'warning' && r.strong.length > 0),
    anyThreat: rows.filter((r) => r.strong.length > 0),
    agentDirected: rows.filter((r) => r.strong.some((t) => AGENT_DIRECTED.includes(t.threat_type))),
  };
}
