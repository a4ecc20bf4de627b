/** Builders of realistic records for tests and benchmarks. */
import { emptyCapabilities, type PackageResponse } from '../../src/contract/schemas';

export function packageRecord(overrides: Partial<PackageResponse> & { name: string }): PackageResponse {
  return {
    version: '1.0.0',
    registry: 'npm',
    risk_level: 'clean',
    risk_reasons: [],
    trust_score: 72,
    publisher: { name: 'maintainer', verified: false },
    weekly_downloads: 1000,
    install_scripts: { preinstall: false, install: false, postinstall: false, prepare: false },
    cves: [],
    advisories: [],
    agentic_threats: [],
    capabilities: emptyCapabilities(),
    docs_md: `# ${overrides.name}\n`,
    scanned_at: '2026-11-01T12:00:00.000Z',
    ...overrides,
  };
}
