/**
 * Policy evaluation: which findings of each package break the build. The service's risk level,
 * CVE severities, agentic threat types, the trust score and unknown packages each give findings;
 * the policy says which of them are violations, and the allowlist (until an entry expires) lets
 * named package versions through with a recorded reason.
 */
import semver from 'semver';
import type { PackageResult } from './api';
import type { Lookup } from './lookup';
import type { InputPackage, NotFoundSpec } from './types';

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
  /**
   * Versions published less than this many hours ago fail (0: never). Hijacked releases are
   * usually found and pulled within a day or two; npm's `min-release-age` and pnpm's
   * `minimumReleaseAge` hold new versions back for the same reason.
   */
  readonly cooldownHours: number;
}

export const DEFAULT_COOLDOWN_HOURS = 48;

export const DEFAULT_POLICY: Policy = {
  failOn: 'critical',
  threatTypes: [],
  failOnUnknown: false,
  ignoreDev: false,
  allowlist: [],
  cooldownHours: DEFAULT_COOLDOWN_HOURS,
};

export type FindingKind = 'risk' | 'cve' | 'threat' | 'trust' | 'cooldown' | 'unknown';

export interface Finding {
  readonly kind: FindingKind;
  /** Rule id: risk-critical, risk-warning, the advisory id (CVEs), threat/<type>, low-trust, cooldown, not-scanned. */
  readonly rule: string;
  /** What the finding is about, when more than the package: the advisory, the threat and its file. */
  readonly subject?: FindingSubject;
  /** How serious the finding is on its own: error, warning or note. */
  readonly level: 'error' | 'warning' | 'note';
  readonly message: string;
  /** True when the policy makes this finding fail the build (before the allowlist). */
  readonly violates: boolean;
}

export type FindingSubject =
  | {
      readonly kind: 'advisory';
      readonly id: string;
      readonly aliases: readonly string[];
      readonly severity: string;
      readonly summary: string;
      readonly fixedIn: string;
      readonly url?: string;
    }
  | { readonly kind: 'threat'; readonly type: string; readonly file: string; readonly line?: number };

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
  /** Specs naming no package or no published version: each fails the check. */
  readonly notFound: NotFoundSpec[];
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

function findingsOf(pkg: InputPackage, lookup: Lookup, policy: Policy, dev: boolean, now: number): Finding[] {
  const counts = !dev;
  if (lookup.status === 'unknown') {
    // The release's age is known from the registry even when the service has not scanned it.
    const cooling = cooldownFinding(pkg.published, policy, now, counts);
    return [
      {
        kind: 'unknown',
        rule: 'not-scanned',
        level: policy.failOnUnknown ? 'error' : 'note',
        message: `Not scanned by the service: ${lookup.reason}`,
        violates: counts && policy.failOnUnknown,
      },
      ...(cooling ? [cooling] : []),
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
  for (const a of advisoriesOf(r)) {
    const sev = rank(SEVERITIES, a.severity);
    const fixed = a.fixedIn ? `; fixed in ${a.fixedIn}` : '; no fixed version';
    const cveIds = a.aliases.filter((x) => x.startsWith('CVE-'));
    const label = a.id.startsWith('CVE-') || cveIds.length === 0 ? a.id : `${a.id} (${cveIds.join(', ')})`;
    out.push({
      kind: 'cve',
      rule: a.id,
      subject: a,
      level: sev >= rank(SEVERITIES, 'high') ? 'error' : sev >= 1 ? 'warning' : 'note',
      message: `${label}, ${a.severity}${fixed}${a.summary ? `: ${a.summary}` : ''}`,
      violates: counts && policy.cveSeverity !== undefined && sev >= rank(SEVERITIES, policy.cveSeverity),
    });
  }
  // One finding per threat type and file: their identity (and SARIF fingerprint) is type and file.
  const seen = new Set<string>();
  for (const t of r.agentic_threats) {
    const at = /^(.*?)(?::(\d+))?$/.exec(t.location ?? '');
    const file = at?.[1] || 'package.json';
    const key = `${t.threat_type}|${file}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      kind: 'threat',
      rule: `threat/${t.threat_type}`,
      subject: {
        kind: 'threat',
        type: t.threat_type,
        file,
        ...(at?.[2] ? { line: Number(at[2]) } : {}),
      },
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
  const cooling = cooldownFinding(pkg.published ?? r.published_at ?? undefined, policy, now, counts);
  if (cooling) out.push(cooling);
  return out;
}

/**
 * A version published less than the cooldown ago. A publish time in the future (a client clock
 * behind the registry's) counts as just published, never as old.
 */
function cooldownFinding(
  published: string | undefined,
  policy: Policy,
  now: number,
  counts: boolean,
): Finding | undefined {
  const at = published ? Date.parse(published) : Number.NaN;
  if (policy.cooldownHours <= 0 || Number.isNaN(at)) return undefined;
  const ageHours = (now - at) / 3_600_000;
  if (ageHours >= policy.cooldownHours) return undefined;
  return {
    kind: 'cooldown',
    rule: 'cooldown',
    level: 'warning',
    message: `Published ${ageHours < 1 ? 'less than an hour' : `${Math.floor(ageHours)} h`} ago (${published}), within the ${policy.cooldownHours} h cooldown: hijacked releases are usually found and pulled within a day or two; wait or pin the previous version`,
    violates: counts,
  };
}

/** The advisories of a result: the `advisories` field, else one per CVE (older records). */
function advisoriesOf(r: PackageResult): Extract<FindingSubject, { kind: 'advisory' }>[] {
  if (r.advisories && r.advisories.length > 0) {
    return r.advisories.map((a) => ({
      kind: 'advisory',
      id: a.id,
      aliases: a.aliases,
      severity: a.severity,
      summary: a.summary,
      fixedIn: a.fixed_in,
      ...(a.url ? { url: a.url } : {}),
    }));
  }
  return r.cves.map((c) => ({
    kind: 'advisory',
    id: c.cve_id,
    aliases: [],
    severity: c.severity,
    summary: c.description ?? '',
    fixedIn: c.fixed_in ?? '',
  }));
}

export function evaluate(
  packages: readonly InputPackage[],
  lookups: ReadonlyMap<string, Lookup>,
  policy: Policy,
  now: Date,
  notFound: readonly NotFoundSpec[] = [],
): Evaluation {
  const t = now.getTime();
  const isExpired = (e: AllowEntry) => e.expires !== undefined && expiryInstant(e.expires) < t;
  const verdicts = packages.map((pkg): Verdict => {
    const lookup = lookups.get(`${pkg.name}@${pkg.version}`) ?? {
      status: 'unknown' as const,
      reason: 'not looked up',
    };
    const dev = policy.ignoreDev && pkg.dev === true;
    const findings = findingsOf(pkg, lookup, policy, dev, t);
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
    notFound: [...notFound],
    passed: failed === 0 && notFound.length === 0,
  };
}
