/**
 * Keeps stored results current when advisories change: for every changed package that has
 * stored results, each stored version gets its CVEs, advisories and risk recomputed from the
 * basis kept beside it (analysis findings and trust), without fetching the package again.
 */
import { compileAdvisories } from '../advisories/match';
import { forEachLimit } from '../shared/concurrency';
import type { AdvisorySource } from '../advisories/ports';
import type { PackageResponse } from '../../src/contract/schemas';
import type { PackageStore } from '../shared/store/package-store';
import { docsWithRisk } from '../../src/contract/records';
import { assessPackageRisk } from './assess';
import { vulnerabilitiesFrom } from './vulnerabilities';

export interface RefreshDeps {
  readonly packages: Pick<PackageStore, 'knownNames' | 'versions' | 'replaceResult'>;
  readonly advisories: AdvisorySource;
  /** Packages refreshed in parallel. @default 4 */
  readonly concurrency?: number;
}

export interface RefreshReport {
  /** Changed package names that have stored results. */
  readonly packages: number;
  readonly versions: number;
  /** Versions whose stored result changed. */
  readonly updated: number;
  /** Versions stored without a basis (before it was kept): CVEs updated, risk kept. */
  readonly withoutBasis: number;
}

export async function refreshAfterAdvisoryChange(
  changed: Iterable<string>,
  deps: RefreshDeps,
): Promise<RefreshReport> {
  const names = await deps.packages.knownNames(changed);
  let versions = 0;
  let updated = 0;
  let withoutBasis = 0;
  await forEachLimit(names, deps.concurrency ?? 4, async (name) => {
    const compiled = compileAdvisories(name, await deps.advisories.recordsFor(name));
    for (const stored of await deps.packages.versions(name)) {
      versions++;
      const { result, basis } = stored;
      const vulnerabilities = vulnerabilitiesFrom(name, result.version, compiled);
      let risk: Pick<PackageResponse, 'risk_level' | 'risk_reasons'> = result;
      if (basis) {
        risk = assessPackageRisk({
          analysis: { risk_input: basis.risk_input as never },
          trust: { score: basis.trust.score, reasons: [...basis.trust.reasons] },
          vulnerabilities: vulnerabilities.policy,
        });
      } else {
        withoutBasis++;
      }
      const refreshed: PackageResponse = {
        ...result,
        cves: vulnerabilities.cves,
        advisories: vulnerabilities.advisories,
        risk_level: risk.risk_level,
        risk_reasons: risk.risk_reasons,
        docs_md: docsWithRisk(result.docs_md, risk.risk_level),
      };
      if (JSON.stringify(refreshed) === JSON.stringify(result)) continue;
      // False when the version was rescanned meanwhile: that newer result used the current advisories.
      if (await deps.packages.replaceResult(refreshed)) updated++;
    }
  });
  return { packages: names.length, versions, updated, withoutBasis };
}
