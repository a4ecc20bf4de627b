/**
 * Known vulnerabilities of a package version, from the service's own advisory store, in the two
 * shapes the scanner needs: the response's `cves` and `advisories`, and the risk policy's input.
 */
import semver from 'semver';
import validatePackageName from 'validate-npm-package-name';
import { matchAdvisories } from '../advisories/match';
import type { AdvisorySource } from '../advisories/ports';
import type { PackageResponse } from '../../src/contract/schemas';

/** Vulnerability findings in the risk policy's terms (from the advisory store). */
export interface VulnerabilityInput {
  readonly cves: Array<{
    id: string;
    severity: 'low' | 'medium' | 'high' | 'critical';
    fixed_in?: string;
    summary?: string;
  }>;
  readonly advisories: Array<{
    id: string;
    severity?: 'low' | 'medium' | 'high' | 'critical';
    malicious?: boolean;
    summary?: string;
  }>;
}

export interface Vulnerabilities {
  readonly cves: PackageResponse['cves'];
  readonly advisories: PackageResponse['advisories'];
  readonly policy: VulnerabilityInput;
}

/** Known vulnerabilities of name@version from the service's own advisory store (no outside call). */
export async function vulnerabilitiesOf(
  name: string,
  version: string,
  deps: { readonly advisories: AdvisorySource },
): Promise<Vulnerabilities> {
  // An upload's package.json may carry any name: only a possible npm name has advisories.
  const lookup = semver.valid(version) !== null && validatePackageName(name).validForOldPackages;
  const records = lookup ? await deps.advisories.recordsFor(name) : [];
  return vulnerabilitiesFrom(name, version, records);
}

export function vulnerabilitiesFrom(
  name: string,
  version: string,
  records: Parameters<typeof matchAdvisories>[2],
): Vulnerabilities {
  const { cves, advisories } = matchAdvisories(name, version, records);
  return { cves, advisories, policy: toPolicyInput(cves, advisories) };
}

/** CVEs once each; advisories only where no CVE already counts them, or where they report malware. */
export function toPolicyInput(
  cves: PackageResponse['cves'],
  advisories: PackageResponse['advisories'],
): VulnerabilityInput {
  const isCve = (id: string) => /^CVE-\d{4}-\d+$/.test(id);
  return {
    cves: cves.map((c) => ({
      id: c.cve_id,
      severity: c.severity,
      ...(c.fixed_in ? { fixed_in: c.fixed_in } : {}),
      summary: c.description,
    })),
    advisories: advisories
      .filter((a) => a.malicious || !(isCve(a.id) || a.aliases.some(isCve)))
      .map((a) => ({ id: a.id, severity: a.severity, malicious: a.malicious, summary: a.summary })),
  };
}
