/**
 * Builders of domain values, with type-only imports of the schemas: read handlers bundle this
 * without zod.
 */
import type { Capabilities, PackageListItem, PackageResponse } from './schemas';

/** The list row of a full scan result: the one place that derives list fields. */
export function toListItem(p: PackageResponse): PackageListItem {
  return {
    name: p.name,
    version: p.version,
    registry: p.registry,
    risk_level: p.risk_level,
    trust_score: p.trust_score,
    weekly_downloads: p.weekly_downloads,
    publisher_verified: p.publisher.verified,
    cve_count: p.cves.length,
    threat_count: p.agentic_threats.length,
    capabilities: p.capabilities,
    scanned_at: p.scanned_at,
  };
}

export function emptyCapabilities(): Capabilities {
  return {
    network: { makes_requests: false, domains: [], protocols: [] },
    filesystem: { reads: false, writes: false, paths: [] },
    process: { spawns_children: false, commands: [] },
    environment: { accessed_vars: [] },
    native: { has_native: false, native_modules: [] },
  };
}

/**
 * `docs_md` with the record's final risk level: the analysis writes the level its findings
 * alone give, and CVEs, trust and release changes can raise it afterwards.
 */
export function docsWithRisk(
  docs: string | undefined,
  level: PackageResponse['risk_level'],
): string | undefined {
  return docs?.replace(
    /^- Risk level: .*$/m,
    `- Risk level: ${level} (findings, known vulnerabilities, trust and release changes)`,
  );
}
