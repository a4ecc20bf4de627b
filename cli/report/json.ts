/** The machine-readable result printed by --json. Its shape is documented in docs/cli.md. */
import { scriptAdvice } from '../script-advice';
import { counts, skippedOf, type CheckResult } from './summary';

export const JSON_SCHEMA_VERSION = 1;

export function buildJson(result: CheckResult): Record<string, unknown> {
  const ev = result.evaluation;
  return {
    schemaVersion: JSON_SCHEMA_VERSION,
    tool: { name: 'pkgscan', version: result.toolVersion },
    apiUrl: result.apiUrl,
    passed: ev.passed,
    exitCode: result.exitCode,
    summary: counts(result),
    policy: result.policy,
    inputs: result.inputs.map((i) => ({
      source: i.source,
      format: i.format,
      formatVersion: i.formatVersion,
      packages: i.packages.length,
      skipped: i.skipped.length,
    })),
    packages: ev.verdicts.map((v) => {
      const r = v.lookup.status === 'found' ? v.lookup.result : undefined;
      const advice = r && scriptAdvice(r);
      return {
        name: v.pkg.name,
        version: v.pkg.version,
        direct: v.pkg.direct ?? null,
        dev: v.pkg.dev ?? null,
        locations: v.pkg.locations,
        status: v.status,
        scanned: v.lookup.status === 'found',
        ...(v.lookup.status === 'unknown' ? { notScannedReason: v.lookup.reason } : {}),
        riskLevel: r?.risk_level ?? null,
        riskReasons: r?.risk_reasons ?? [],
        trustScore: r?.trust_score ?? null,
        cves: r?.cves ?? [],
        agenticThreats:
          r?.agentic_threats.map((t) => ({
            threat_type: t.threat_type,
            confidence: t.confidence,
            location: t.location,
          })) ?? [],
        findings: v.findings,
        ...(advice ? { installScripts: advice } : {}),
        ...(v.allowedBy ? { allowedBy: v.allowedBy } : {}),
        ...(v.expiredMatches.length > 0 ? { expiredAllowlistEntries: v.expiredMatches } : {}),
      };
    }),
    notFound: ev.notFound,
    expiredAllowlist: ev.expired,
    skipped: skippedOf(result),
    stats: result.stats,
  };
}
