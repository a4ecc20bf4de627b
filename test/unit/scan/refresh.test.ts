import { importOsv } from '../../../lambdas/advisories/importer';
import { MemoryAdvisoryStore } from '../../../lambdas/advisories/memory-store';
import { readOsvFolder } from '../../../lambdas/advisories/sources';
import { refreshAfterAdvisoryChange } from '../../../lambdas/scanner/refresh';
import type { PackageResponse } from '../../../src/contract/schemas';
import type { StoredVersion } from '../../../lambdas/shared/store/package-store';
import { packageRecord } from '../../support/records';

const cleanBasis = { risk_input: { threats: [], install_scripts: [] }, trust: { score: 80, reasons: [] } };

function fakePackages(stored: Record<string, StoredVersion[]>) {
  const replaced: PackageResponse[] = [];
  return {
    replaced,
    store: {
      knownNames: async (names: Iterable<string>) => [...names].filter((n) => n in stored),
      versions: async (name: string) => stored[name] ?? [],
      replaceResult: async (result: PackageResponse) => {
        replaced.push(result);
        return true;
      },
    },
  };
}

describe('refreshAfterAdvisoryChange', () => {
  it('adds CVEs and recomputes the risk of stored versions from their basis, without refetching', async () => {
    const advisories = new MemoryAdvisoryStore();
    const report = await importOsv(readOsvFolder('data/advisories/osv-npm'), advisories);
    expect(report.changedPackages.has('lodash')).toBe(true);

    const old = packageRecord({ name: 'lodash', version: '4.17.4' });
    const current = packageRecord({ name: 'lodash', version: '4.17.21' });
    const { store, replaced } = fakePackages({
      lodash: [
        { result: old, basis: cleanBasis },
        { result: current, basis: cleanBasis },
      ],
    });
    const result = await refreshAfterAdvisoryChange(report.changedPackages, { packages: store, advisories });

    expect(result).toMatchObject({ packages: 1, versions: 2, updated: 1, withoutBasis: 0 });
    expect(replaced).toHaveLength(1);
    const refreshed = replaced[0]!;
    expect(refreshed.version).toBe('4.17.4');
    expect(refreshed.cves.map((c) => c.cve_id)).toEqual(
      expect.arrayContaining(['CVE-2018-3721', 'CVE-2018-16487']),
    );
    expect(refreshed.cves.find((c) => c.cve_id === 'CVE-2018-3721')?.fixed_in).toBe('4.17.5');
    expect(refreshed.risk_level).not.toBe('clean');
    expect(refreshed.risk_reasons.join(' ')).toMatch(/CVE-2018-16487/);
  });

  it('keeps the stored risk of a result without a basis, but still updates its CVEs', async () => {
    const advisories = new MemoryAdvisoryStore();
    await importOsv(readOsvFolder('data/advisories/osv-npm'), advisories);
    const old = packageRecord({ name: 'lodash', version: '4.17.4', risk_level: 'clean' });
    const { store, replaced } = fakePackages({ lodash: [{ result: old, basis: undefined }] });
    const result = await refreshAfterAdvisoryChange(['lodash', 'never-scanned'], {
      packages: store,
      advisories,
    });
    expect(result).toMatchObject({ packages: 1, withoutBasis: 1, updated: 1 });
    expect(replaced[0]!.risk_level).toBe('clean');
    expect(replaced[0]!.cves.length).toBeGreaterThan(0);
  });
});
