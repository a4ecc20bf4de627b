/** Counts and wording shared by the table, the Markdown summary, SARIF and JSON. */
import type { Evaluation, Policy, Verdict } from '../policy';
import type { ParsedInput, SkippedDependency } from '../types';

export interface CheckResult {
  readonly toolVersion: string;
  readonly apiUrl: string;
  readonly inputs: readonly ParsedInput[];
  readonly policy: Policy;
  readonly evaluation: Evaluation;
  readonly stats: { readonly requests: number; readonly retries: number; readonly durationMs: number };
  readonly exitCode: number;
}

export interface Counts {
  readonly packages: number;
  readonly direct: number;
  readonly dev: number;
  readonly clean: number;
  readonly warning: number;
  readonly critical: number;
  readonly unknown: number;
  readonly failed: number;
  readonly allowed: number;
  readonly ignored: number;
  readonly skipped: number;
  readonly notFound: number;
}

export function counts(result: CheckResult): Counts {
  const v = result.evaluation.verdicts;
  const level = (l: string) =>
    v.filter((x) => x.lookup.status === 'found' && x.lookup.result.risk_level === l).length;
  return {
    packages: v.length,
    direct: v.filter((x) => x.pkg.direct === true).length,
    dev: v.filter((x) => x.pkg.dev === true).length,
    clean: level('clean'),
    warning: level('warning'),
    critical: level('critical'),
    unknown: v.filter((x) => x.lookup.status === 'unknown').length,
    failed: result.evaluation.failed,
    allowed: result.evaluation.allowed,
    ignored: v.filter((x) => x.status === 'ignored').length,
    skipped: skippedOf(result).length,
    notFound: result.evaluation.notFound.length,
  };
}

export function skippedOf(result: CheckResult): SkippedDependency[] {
  return result.inputs.flatMap((i) => i.skipped);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The one-line verdict printed last. */
export function summaryLine(result: CheckResult): string {
  const c = counts(result);
  const parts = [`${c.critical} critical`, `${c.warning} warning`, `${c.clean} clean`];
  if (c.unknown > 0) parts.push(`${c.unknown} not scanned`);
  const extras: string[] = [];
  if (c.allowed > 0) extras.push(`${c.allowed} allowed by the allowlist`);
  if (c.ignored > 0) extras.push(`${c.ignored} dev-only ignored`);
  const expired = result.evaluation.expired.length;
  if (expired > 0) extras.push(`${expired} expired allowlist ${expired === 1 ? 'entry' : 'entries'}`);
  if (c.skipped > 0) extras.push(`${c.skipped} not from the registry, skipped`);
  const tail = `${plural(c.packages, 'package')} (${parts.join(', ')})${extras.length ? `; ${extras.join(', ')}` : ''}`;
  if (result.evaluation.passed) return `pkgscan: passed: ${tail}`;
  const why = [
    c.failed > 0
      ? `${plural(c.failed, 'package')} ${c.failed === 1 ? 'violates' : 'violate'} the policy`
      : '',
    c.notFound > 0 ? `${plural(c.notFound, 'spec')} not found in the registry` : '',
  ].filter(Boolean);
  return `pkgscan: FAILED: ${why.join('; ')}; ${tail}`;
}

export function describePolicy(p: Policy): string {
  const rules = [p.failOn === 'none' ? 'risk level: never' : `risk level ${p.failOn} or above`];
  if (p.cveSeverity) rules.push(`CVEs ${p.cveSeverity} or above`);
  if (p.minTrustScore !== undefined) rules.push(`trust score below ${p.minTrustScore}`);
  if (p.threatTypes.length > 0) rules.push(`threats ${p.threatTypes.join(', ')}`);
  if (p.failOnUnknown) rules.push('packages not scanned');
  if (p.cooldownHours > 0) rules.push(`versions published less than ${p.cooldownHours} h ago`);
  return `fails on ${rules.join('; ')}${p.ignoreDev ? '; dev-only dependencies ignored' : ''}`;
}

export function dependencyKind(v: Verdict): string {
  const rel = v.pkg.direct === true ? 'direct' : v.pkg.direct === false ? 'transitive' : '';
  const dev = v.pkg.dev === true ? 'dev' : '';
  return [rel, dev].filter(Boolean).join(', ') || '-';
}

/** Verdicts worth listing: failures first, then allowed, then any with findings. */
export function notable(result: CheckResult, all: boolean): Verdict[] {
  const order = { fail: 0, allowed: 1, pass: 2, ignored: 3 } as const;
  const riskOrder = (v: Verdict) =>
    v.lookup.status === 'found' ? { critical: 0, warning: 1, clean: 3 }[v.lookup.result.risk_level] : 2;
  return result.evaluation.verdicts
    .filter(
      (v) =>
        all ||
        v.status === 'fail' ||
        v.status === 'allowed' ||
        // Unknown packages are counted in the summary; listed only when they matter to the policy.
        v.findings.some((f) => f.kind !== 'unknown'),
    )
    .sort((a, b) => order[a.status] - order[b.status] || riskOrder(a) - riskOrder(b));
}
