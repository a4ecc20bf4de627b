import type { PackageResult } from '../../../cli/api';
import type { Lookup } from '../../../cli/lookup';
import { DEFAULT_POLICY, entryMatches, evaluate, expiryInstant, type Policy } from '../../../cli/policy';
import type { InputPackage } from '../../../cli/types';
import { pkg } from './fake-api';

const NOW = new Date('2026-11-22T12:00:00Z');

function input(name: string, version: string, over: Partial<InputPackage> = {}): InputPackage {
  return {
    name,
    version,
    direct: true,
    dev: false,
    locations: [{ file: 'package-lock.json', line: 10 }],
    ...over,
  };
}

function found(result: ReturnType<typeof pkg>): Lookup {
  return { status: 'found', result: result as unknown as PackageResult };
}

function run(policy: Partial<Policy>, entries: [InputPackage, Lookup][]) {
  const lookups = new Map(entries.map(([p, l]) => [`${p.name}@${p.version}`, l]));
  return evaluate(
    entries.map(([p]) => p),
    lookups,
    { ...DEFAULT_POLICY, ...policy },
    NOW,
  );
}

const critical = pkg('evil', '1.0.0', {
  risk_level: 'critical',
  risk_reasons: ['Sends ~/.npmrc to a remote host (index.js:3).'],
});
const warning = pkg('meh', '2.0.0', {
  risk_level: 'warning',
  risk_reasons: ['CVE-2024-1 (medium).'],
  trust_score: 30,
  cves: [{ cve_id: 'CVE-2024-0001', severity: 'medium', description: 'ReDoS', fixed_in: '2.0.1' }],
  agentic_threats: [
    { threat_type: 'prompt_injection', confidence: 0.7, location: 'README.md:4', snippet: 'ignore previous' },
  ],
});
const clean = pkg('fine', '3.0.0', { trust_score: 95 });

describe('policy evaluation', () => {
  it('fails on critical by default and lets warnings pass', () => {
    const ev = run({}, [
      [input('evil', '1.0.0'), found(critical)],
      [input('meh', '2.0.0'), found(warning)],
      [input('fine', '3.0.0'), found(clean)],
    ]);
    expect(ev.passed).toBe(false);
    expect(ev.failed).toBe(1);
    expect(ev.verdicts.map((v) => v.status)).toEqual(['fail', 'pass', 'pass']);
    expect(ev.verdicts[0]!.findings[0]).toMatchObject({ rule: 'risk-critical', violates: true });
    expect(ev.verdicts[1]!.findings.every((f) => !f.violates)).toBe(true);
  });

  it('fails on warning, trust score, CVE severity and threat types when asked', () => {
    const cases: [Partial<Policy>, string][] = [
      [{ failOn: 'warning' }, 'risk-warning'],
      [{ minTrustScore: 50 }, 'low-trust'],
      [{ cveSeverity: 'medium' }, 'CVE-2024-0001'],
      [{ threatTypes: ['prompt_injection'] }, 'threat/prompt_injection'],
    ];
    for (const [policy, rule] of cases) {
      const ev = run(policy, [[input('meh', '2.0.0'), found(warning)]]);
      expect(ev.verdicts[0]!.status).toBe('fail');
      expect(ev.verdicts[0]!.findings.filter((f) => f.violates).map((f) => f.rule)).toEqual([rule]);
    }
    expect(run({ cveSeverity: 'high' }, [[input('meh', '2.0.0'), found(warning)]]).passed).toBe(true);
    expect(
      run({ threatTypes: ['data_exfiltration'] }, [[input('meh', '2.0.0'), found(warning)]]).passed,
    ).toBe(true);
    expect(run({ minTrustScore: 30 }, [[input('meh', '2.0.0'), found(warning)]]).passed).toBe(true);
    expect(run({ failOn: 'none' }, [[input('evil', '1.0.0'), found(critical)]]).passed).toBe(true);
  });

  it('reports unknown packages and fails on them only when asked', () => {
    const unknown: Lookup = { status: 'unknown', reason: 'has not been scanned' };
    const lenient = run({}, [[input('new', '0.1.0'), unknown]]);
    expect(lenient.passed).toBe(true);
    expect(lenient.verdicts[0]!.findings[0]).toMatchObject({ rule: 'not-scanned', violates: false });
    expect(run({ failOnUnknown: true }, [[input('new', '0.1.0'), unknown]]).passed).toBe(false);
  });

  it('ignores dev-only packages with ignoreDev, but not those also used in production', () => {
    const entries: [InputPackage, Lookup][] = [
      [input('evil', '1.0.0', { dev: true }), found(critical)],
      [input('evil', '1.0.1', { dev: undefined }), found({ ...critical, version: '1.0.1' })],
    ];
    const ev = run({ ignoreDev: true }, entries);
    expect(ev.verdicts.map((v) => v.status)).toEqual(['ignored', 'fail']);
    expect(run({}, entries).failed).toBe(2);
  });
});

describe('allowlist', () => {
  const evil = input('evil', '1.0.0');

  it('lets a matching package through with its reason', () => {
    const entry = { package: 'evil', range: '^1.0.0', reason: 'vendored and reviewed' };
    const ev = run({ allowlist: [entry] }, [[evil, found(critical)]]);
    expect(ev.passed).toBe(true);
    expect(ev.allowed).toBe(1);
    expect(ev.verdicts[0]).toMatchObject({ status: 'allowed', allowedBy: entry });
  });

  it('does not match other versions or names', () => {
    const entry = { package: 'evil', range: '>=2', reason: 'later versions reviewed' };
    expect(run({ allowlist: [entry] }, [[evil, found(critical)]]).passed).toBe(false);
    expect(entryMatches({ package: '@acme/*', range: '*', reason: 'ours' }, '@acme/tool', '1.0.0')).toBe(
      true,
    );
    expect(entryMatches({ package: '@acme/*', range: '*', reason: 'ours' }, '@other/tool', '1.0.0')).toBe(
      false,
    );
    expect(entryMatches({ package: 'x', range: '^1', reason: 'r' }, 'x', '1.2.0-beta.1')).toBe(true);
  });

  it('stops applying after its expiry date, and the expired entry is reported', () => {
    const expired = { package: 'evil', range: '*', reason: 'temporary', expires: '2026-11-21' };
    const ev = run({ allowlist: [expired] }, [[evil, found(critical)]]);
    expect(ev.passed).toBe(false);
    expect(ev.verdicts[0]).toMatchObject({ status: 'fail', expiredMatches: [expired] });
    expect(ev.expired).toEqual([
      { entry: expired, expiredAt: '2026-11-21T23:59:59.999Z', matched: ['evil@1.0.0'] },
    ]);
  });

  it('still applies on its expiry day (dates are inclusive, UTC) and before a given instant', () => {
    const today = { package: 'evil', range: '*', reason: 'until end of today', expires: '2026-11-22' };
    expect(run({ allowlist: [today] }, [[evil, found(critical)]]).passed).toBe(true);
    const instant = { package: 'evil', range: '*', reason: 'until 11:00', expires: '2026-11-22T11:00:00Z' };
    const ev = run({ allowlist: [instant] }, [[evil, found(critical)]]);
    expect(ev.passed).toBe(false);
    expect(expiryInstant('2026-11-22T11:00:00Z')).toBe(Date.parse('2026-11-22T11:00:00Z'));
  });

  it('reports expired entries that match nothing, and prefers a live entry over an expired one', () => {
    const old = { package: 'gone', range: '*', reason: 'removed long ago', expires: '2025-01-01' };
    const expired = { package: 'evil', range: '*', reason: 'old', expires: '2026-01-01' };
    const live = { package: 'evil', range: '1.0.0', reason: 'renewed' };
    const ev = run({ allowlist: [old, expired, live] }, [[evil, found(critical)]]);
    expect(ev.passed).toBe(true);
    expect(ev.verdicts[0]!.allowedBy).toBe(live);
    expect(ev.expired.map((e) => [e.entry.package, e.matched])).toEqual([
      ['gone', []],
      ['evil', ['evil@1.0.0']],
    ]);
  });
});

describe('cooldown', () => {
  const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();
  const fresh = (published: string) => found({ ...pkg('fresh', '1.0.1'), published_at: published } as never);
  const cooled = (ev: ReturnType<typeof run>) =>
    ev.verdicts[0]!.findings.filter((f) => f.rule === 'cooldown' && f.violates).length;

  it('fails versions younger than the cooldown (48 h by default), passes older ones', () => {
    expect(cooled(run({}, [[input('fresh', '1.0.1'), fresh(hoursAgo(3))]]))).toBe(1);
    expect(cooled(run({}, [[input('fresh', '1.0.1'), fresh(hoursAgo(72))]]))).toBe(0);
    expect(cooled(run({ cooldownHours: 100 }, [[input('fresh', '1.0.1'), fresh(hoursAgo(72))]]))).toBe(1);
    expect(cooled(run({ cooldownHours: 0 }, [[input('fresh', '1.0.1'), fresh(hoursAgo(1))]]))).toBe(0);
  });

  it('counts a publish time ahead of the local clock as just published', () => {
    const ahead = new Date(NOW.getTime() + 10 * 60_000).toISOString();
    expect(cooled(run({}, [[input('fresh', '1.0.1'), fresh(ahead)]]))).toBe(1);
  });

  it('applies to versions the service has not scanned, from the publish time the registry gave', () => {
    const unknown: Lookup = { status: 'unknown', reason: 'not scanned' };
    const ev = run({}, [[input('fresh', '1.0.1', { published: hoursAgo(2) }), unknown]]);
    expect(ev.passed).toBe(false);
    expect(cooled(ev)).toBe(1);
    expect(run({}, [[input('old', '1.0.0', { published: hoursAgo(500) }), unknown]]).passed).toBe(true);
  });
});
