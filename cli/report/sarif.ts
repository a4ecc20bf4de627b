/**
 * SARIF 2.1.0 for code-scanning upload. One rule per finding kind; one result per finding,
 * located at the lockfile lines where the package appears. Allowed findings carry an accepted
 * external suppression with the allowlist reason; dev-only ones ignored by policy are notes.
 */
import { createHash } from 'node:crypto';
import type { Finding, Verdict } from '../policy';
import { dependencyKind, type CheckResult } from './summary';

interface RuleSpec {
  readonly id: string;
  readonly name: string;
  readonly short: string;
  readonly full: string;
  readonly level: 'error' | 'warning' | 'note';
  readonly securitySeverity: string;
}

export const RULES: readonly RuleSpec[] = [
  {
    id: 'risk-critical',
    name: 'CriticalRiskPackage',
    short: 'Package rated critical by the scanning service',
    full: 'The service rated this package version critical: malicious code, threats aimed at AI agents, or severe vulnerabilities. The result message lists its reasons.',
    level: 'error',
    securitySeverity: '9.0',
  },
  {
    id: 'risk-warning',
    name: 'WarningRiskPackage',
    short: 'Package rated warning by the scanning service',
    full: 'The service rated this package version warning: install scripts, vulnerabilities or risky capabilities worth a look. The result message lists its reasons.',
    level: 'warning',
    securitySeverity: '5.0',
  },
  {
    id: 'cve',
    name: 'KnownVulnerability',
    short: 'Package version affected by a CVE',
    full: 'A published vulnerability (CVE) affects this package version. Upgrade to the fixed version named in the message.',
    level: 'warning',
    securitySeverity: '7.0',
  },
  {
    id: 'agentic-threat',
    name: 'AgenticThreat',
    short: 'Package contains content aimed at AI agents',
    full: 'The scanner found prompt injection, instruction override, data exfiltration, social engineering, install-script injection or other malicious code aimed at AI coding agents.',
    level: 'error',
    securitySeverity: '8.0',
  },
  {
    id: 'low-trust',
    name: 'LowTrustScore',
    short: 'Package trust score below the policy minimum',
    full: 'The trust score (maintainers, downloads, age, provenance) of this package version is below the minimum the policy sets.',
    level: 'warning',
    securitySeverity: '4.0',
  },
  {
    id: 'not-scanned',
    name: 'NotScanned',
    short: 'Package not scanned by the service',
    full: 'The service has no scan of this package version, so nothing is known about it. Run pkgscan with --scan-missing to request scans.',
    level: 'note',
    securitySeverity: '3.0',
  },
];

function resultLevel(v: Verdict, f: Finding): 'error' | 'warning' | 'note' {
  if (v.status === 'ignored') return 'note';
  if (f.violates) return 'error';
  return f.level === 'error' ? 'warning' : f.level;
}

export function buildSarif(result: CheckResult): Record<string, unknown> {
  const ruleIndex = new Map(RULES.map((r, i) => [r.id, i]));
  const results = result.evaluation.verdicts.flatMap((v) =>
    v.findings.map((f) => {
      const fingerprint = createHash('sha256')
        .update(
          `${f.rule}\u0000${v.pkg.name}\u0000${v.pkg.version}\u0000${f.kind === 'unknown' ? '' : f.message}`,
        )
        .digest('hex');
      const located = v.pkg.locations.length > 0;
      return {
        ruleId: f.rule,
        ruleIndex: ruleIndex.get(f.rule) ?? 0,
        level: resultLevel(v, f),
        message: { text: `${v.pkg.name}@${v.pkg.version} (${dependencyKind(v)}): ${f.message}` },
        locations: located
          ? v.pkg.locations.map((l) => ({
              physicalLocation: {
                artifactLocation: l.file.startsWith('/')
                  ? { uri: encodeURI(`file://${l.file}`) }
                  : { uri: encodeURI(l.file), uriBaseId: '%SRCROOT%' },
                region: { startLine: l.line },
              },
              logicalLocations: [{ name: v.pkg.name, fullyQualifiedName: `${v.pkg.name}@${v.pkg.version}` }],
            }))
          : [
              {
                logicalLocations: [
                  { name: v.pkg.name, fullyQualifiedName: `${v.pkg.name}@${v.pkg.version}` },
                ],
              },
            ],
        partialFingerprints: { 'pkgscanFinding/v1': fingerprint },
        ...(v.status === 'allowed' && v.allowedBy
          ? {
              suppressions: [
                {
                  kind: 'external',
                  status: 'accepted',
                  justification: `${v.allowedBy.reason}${v.allowedBy.expires ? ` (until ${v.allowedBy.expires})` : ''}`,
                },
              ],
            }
          : {}),
        properties: {
          package: v.pkg.name,
          version: v.pkg.version,
          direct: v.pkg.direct ?? null,
          dev: v.pkg.dev ?? null,
          policyStatus: v.status,
          violatesPolicy: f.violates,
        },
      };
    }),
  );
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'pkgscan',
            version: result.toolVersion,
            semanticVersion: result.toolVersion,
            rules: RULES.map((r) => ({
              id: r.id,
              name: r.name,
              shortDescription: { text: r.short },
              fullDescription: { text: r.full },
              help: { text: r.full },
              defaultConfiguration: { level: r.level },
              properties: { tags: ['security', 'supply-chain'], 'security-severity': r.securitySeverity },
            })),
          },
        },
        invocations: [{ executionSuccessful: true, exitCode: result.exitCode }],
        results,
        properties: { apiUrl: result.apiUrl, inputs: result.inputs.map((i) => i.source) },
      },
    ],
  };
}
