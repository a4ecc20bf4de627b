/**
 * Policy evaluation: which findings of each package break the build. The service's risk level,
 * CVE severities, agentic threat types, the trust score and unknown packages each give findings;
 * the policy says which of them are violations, and the allowlist (until an entry expires) lets
 * named package versions through with a recorded reason.
 */
import semver from 'semver';
import type { Lookup } from './lookup';
import type { InputPackage } from './types';

export const RISK_LEVELS = ['clean', 'warning', 'critical'] as const;
export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type FailOn = 'critical' | 'warning' | 'none';
export type Severity = (typeof SEVERITIES)[number];

export interface AllowEntry {
  /** Exact package name, or `@scope/*` for a whole scope. */
  readonly package: string;
  /** semver range of the versions allowed (`*` for all). */
  readonly range: string;
  readonly reason: string;
  /** ISO date (`2027-01-31`, valid through that day, UTC) or date-time; absent: never expires. */
  readonly expires?: string;
}

export interface Policy {
  readonly failOn: FailOn;
  readonly minTrustScore?: number;
  readonly cveSeverity?: Severity;
  readonly threatTypes: readonly string[];
  readonly failOnUnknown: boolean;
  readonly ignoreDev: boolean;
  readonly allowlist: readonly AllowEntry[];
}

export const DEFAULT_POLICY: Policy = {
  failOn: 'critical',
  threatTypes: [],
  failOnUnknown: false,
  ignoreDev: false,
  allowlist: [],
};

export type FindingKind = 'risk' | 'cve' | 'threat' | 'trust' | 'unknown';

export interface Finding {
  readonly kind: FindingKind;
  /** SARIF rule: risk-critical, risk-warning, cve, agentic-threat, low-trust, not-scanned. */
  readonly rule: string;
  /** How serious the finding is on its own: error, warning or note. */
  readonly level: 'error' | 'warning' | 'note';
  readonly message: string;
  /** True when the policy makes this finding fail the build (before the allowlist). */
  readonly violates: boolean;
}

export type Status = 'fail' | 'allowed' | 'pass' | 'ignored';

export interface Verdict {
  readonly pkg: InputPackage;
  readonly lookup: Lookup;
  readonly findings: Finding[];
  readonly status: Status;
  readonly allowedBy?: AllowEntry;
  /** Expired entries that would have allowed this package. */
  readonly expiredMatches: AllowEntry[];
}

export interface ExpiredEntry {
  readonly entry: AllowEntry;
  readonly expiredAt: string;
  /** name@version of the packages it would still have matched. */
  readonly matched: string[];
}

export interface Evaluation {
  readonly verdicts: Verdict[];
  readonly failed: number;
  readonly allowed: number;
  readonly expired: ExpiredEntry[];
  readonly passed: boolean;
}

/** The moment an entry stops applying: the end of a date-only day (UTC), or the instant given. */
export function expiryInstant(expires: string): number {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(expires);
  return dateOnly ? Date.parse(`${expires}T23:59:59.999Z`) : Date.parse(expires);
}

export function entryMatches(entry: AllowEntry, name: string, version: string): boolean {
  const nameOk = entry.package.endsWith('/*')
    ? name.startsWith(entry.package.slice(0, -1))
    : entry.package === name;
  return nameOk && semver.satisfies(version, entry.range, { includePrerelease: true });
}

const rank = <T extends string>(list: readonly T[], value: string) => list.indexOf(value as T);

function findingsOf(lookup: Lookup, policy: Policy, dev: boolean): Finding[] {
  const counts = !dev;
  if (lookup.status === 'unknown') {
    return [
      {
        kind: 'unknown',
        rule: 'not-scanned',
        level: policy.failOnUnknown ? 'error' : 'note',
        message: `Not scanned by the service: ${lookup.reason}`,
        violates: counts && policy.failOnUnknown,
      },
    ];
  }
  const r = lookup.result;
  const out: Finding[] = [];
  if (r.risk_level !== 'clean') {
    const reasons = r.risk_reasons.length > 0 ? r.risk_reasons.join(' ') : 'no reason given';
    out.push({
      kind: 'risk',
      rule: `risk-${r.risk_level}`,
      level: r.risk_level === 'critical' ? 'error' : 'warning',
      message: `Risk level ${r.risk_level}: ${reasons}`,
      violates:
        counts &&
        policy.failOn !== 'none' &&
        rank(RISK_LEVELS, r.risk_level) >= rank(RISK_LEVELS, policy.failOn),
    });
  }
  for (const cve of r.cves) {
    const sev = rank(SEVERITIES, cve.severity);
    const fixed = cve.fixed_in ? `; fixed in ${cve.fixed_in}` : '; no fixed version';
    out.push({
      kind: 'cve',
      rule: 'cve',
      level: sev >= rank(SEVERITIES, 'high') ? 'error' : sev >= 1 ? 'warning' : 'note',
      message: `${cve.cve_id} (${cve.severity})${fixed}${cve.description ? `: ${cve.description}` : ''}`,
      violates: counts && policy.cveSeverity !== undefined && sev >= rank(SEVERITIES, policy.cveSeverity),
    });
  }
  const seen = new Set<string>();
  for (const t of r.agentic_threats) {
    const key = `${t.threat_type}|${t.location ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      kind: 'threat',
      rule: 'agentic-threat',
      level: 'error',
      message: `Agentic threat ${t.threat_type} (confidence ${t.confidence.toFixed(2)})${t.location ? ` at ${t.location}` : ''}`,
      violates: counts && policy.threatTypes.includes(t.threat_type),
    });
  }
  if (policy.minTrustScore !== undefined && r.trust_score < policy.minTrustScore) {
    out.push({
      kind: 'trust',
      rule: 'low-trust',
      level: 'warning',
      message: `Trust score ${r.trust_score} is below the minimum ${policy.minTrustScore}`,
      violates: counts,
    });
  }
  return out;
}

export function evaluate(
  packages: readonly InputPackage[],
  lookups: ReadonlyMap<string, Lookup>,
  policy: Policy,
  now: Date,
): Evaluation {
  const t = now.getTime();
  const isExpired = (e: AllowEntry) => e.expires !== undefined && expiryInstant(e.expires) < t;
  const verdicts = packages.map((pkg): Verdict => {
    const lookup = lookups.get(`${pkg.name}@${pkg.version}`) ?? {
      status: 'unknown' as const,
      reason: 'not looked up',
    };
    const dev = policy.ignoreDev && pkg.dev === true;
    const findings = findingsOf(lookup, policy, dev);
    const matching = policy.allowlist.filter((e) => entryMatches(e, pkg.name, pkg.version));
    const live = matching.find((e) => !isExpired(e));
    const expired = matching.filter(isExpired);
    const violates = findings.some((f) => f.violates);
    let status: Status;
    if (dev) status = 'ignored';
    else if (!violates) status = 'pass';
    else status = live ? 'allowed' : 'fail';
    return {
      pkg,
      lookup,
      findings,
      status,
      ...(status === 'allowed' && live ? { allowedBy: live } : {}),
      expiredMatches: violates ? expired : [],
    };
  });
  // Every expired entry is reported, with the packages it no longer lets through.
  const expired: ExpiredEntry[] = policy.allowlist.filter(isExpired).map((entry) => {
    const matched = verdicts
      .filter((v) => v.expiredMatches.includes(entry))
      .map((v) => `${v.pkg.name}@${v.pkg.version}`);
    return { entry, expiredAt: new Date(expiryInstant(entry.expires!)).toISOString(), matched };
  });
  const failed = verdicts.filter((v) => v.status === 'fail').length;
  return {
    verdicts,
    failed,
    allowed: verdicts.filter((v) => v.status === 'allowed').length,
    expired,
    passed: failed === 0,
  };
}
