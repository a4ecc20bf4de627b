import semver from 'semver';
import { Cve } from '../../../src/contract/schemas';
import { Advisory, matchAdvisories } from '../../../lambdas/advisories/match';
import { parseVersion } from '../../../lambdas/advisories/version-ranges';
import type { OsvRecord } from '../../../lambdas/advisories/osv';
import { loadSharedRecords } from './support';

const records = loadSharedRecords();

function npmRange(record: OsvRecord): string {
  const range = record.affected?.[0]?.database_specific?.['vulnerable_versions'];
  if (typeof range !== 'string') throw new Error(`${record.id} has no vulnerable_versions`);
  return range;
}

/** Versions around every boundary of the record: below, at, above, and prereleases of each. */
function spreadOf(record: OsvRecord): string[] {
  const boundaries = new Set<string>(['0.0.0', '0.0.1', '1.0.0', '99.999.99999', '100.0.0']);
  for (const range of record.affected?.[0]?.ranges ?? []) {
    for (const event of range.events) {
      for (const value of Object.values(event))
        if (typeof value === 'string' && value !== '0') boundaries.add(value);
    }
  }
  for (const set of new semver.Range(npmRange(record), { loose: true }).set) {
    for (const comparator of set) if (comparator.semver.version) boundaries.add(comparator.semver.version);
  }
  const versions = new Set<string>();
  for (const boundary of boundaries) {
    const base = semver.parse(boundary, { loose: true });
    if (!base) continue;
    const release = `${base.major}.${base.minor}.${base.patch}`;
    versions.add(base.version);
    versions.add(release);
    for (const pre of ['0', 'alpha', 'alpha.1', 'beta.2', 'rc.1', 'rc.10']) versions.add(`${release}-${pre}`);
    versions.add(semver.inc(release, 'patch')!);
    versions.add(`${semver.inc(release, 'patch')}-beta`);
    versions.add(semver.inc(release, 'minor')!);
    versions.add(semver.inc(release, 'major')!);
    if (base.patch > 0) versions.add(`${base.major}.${base.minor}.${base.patch - 1}`);
    if (base.minor > 0) versions.add(`${base.major}.${base.minor - 1}.99`);
    if (base.prerelease.length > 0) versions.add(`${release}-${base.prerelease.join('.')}.1`);
  }
  return [...versions].sort(semver.compare);
}

describe('matchAdvisories on the shared OSV records', () => {
  it('has the 312 records of the repository copy', () => {
    expect(records).toHaveLength(312);
  });

  it('agrees with semver.satisfies(includePrerelease) on the npm range, for every record and version spread', () => {
    const disagreements: string[] = [];
    let checked = 0;
    for (const record of records) {
      const name = record.affected?.[0]?.package?.name as string;
      const range = npmRange(record);
      for (const version of spreadOf(record)) {
        const expected = semver.satisfies(version, range, { includePrerelease: true });
        const got = matchAdvisories(name, version, [record]).advisories.some((a) => a.id === record.id);
        checked++;
        if (got !== expected) disagreements.push(`${record.id} ${name}@${version} range "${range}": ${got}`);
      }
    }
    expect(disagreements).toEqual([]);
    expect(checked).toBeGreaterThan(15_000);
  });

  it('the OSV events alone agree too, except where the conversion lost an exclusive lower bound', () => {
    const disagreeing = new Set<string>();
    for (const record of records) {
      const affected = record.affected?.[0];
      const name = affected?.package?.name as string;
      const eventsOnly: OsvRecord = { ...record, affected: [{ ...affected, database_specific: {} }] };
      const range = npmRange(record);
      for (const version of spreadOf(record)) {
        const expected = semver.satisfies(version, range, { includePrerelease: true });
        const got = matchAdvisories(name, version, [eventsOnly]).advisories.length > 0;
        if (got !== expected) disagreeing.add(`${record.id} ${name}@${version} ${got}`);
      }
    }
    // "> 4.0.0 <4.0.5" became `introduced: 4.0.1`: npm's range also holds 4.0.1-alpha and the like.
    expect([...disagreeing].sort()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^NSWG-ECO-75 mqtt-packet@4\.0\.1-/)]),
    );
    for (const line of disagreeing) {
      expect(line).toMatch(
        /^NSWG-ECO-(49|74) mapbox\.js@2\.0\.1-\S+ false$|^NSWG-ECO-75 mqtt-packet@4\.0\.1-\S+ false$/,
      );
    }
  });

  it('returns valid CVE and Advisory objects', () => {
    for (const record of records) {
      const name = record.affected?.[0]?.package?.name as string;
      const result = matchAdvisories(name, '0.0.1', records);
      for (const cve of result.cves) expect(Cve.safeParse(cve).success).toBe(true);
      for (const advisory of result.advisories) expect(Advisory.safeParse(advisory).success).toBe(true);
    }
  });
});

describe('fixed_in at the boundaries', () => {
  const lodash = records.filter((r) => r.affected?.some((a) => a.package?.name === 'lodash'));

  it('lodash@4.17.4 reports its CVEs with the lowest fix above it', () => {
    const { cves, advisories } = matchAdvisories('lodash', '4.17.4', lodash);
    expect(cves).toEqual([
      expect.objectContaining({ cve_id: 'CVE-2018-16487', fixed_in: '4.17.11' }),
      expect.objectContaining({ cve_id: 'CVE-2018-3721', fixed_in: '4.17.5' }),
    ]);
    expect(advisories.map((a) => a.id)).toEqual(['NSWG-ECO-368', 'NSWG-ECO-493']);
  });

  it.each([
    ['4.17.5-0', ['CVE-2018-16487', 'CVE-2018-3721']],
    ['4.17.5', ['CVE-2018-16487']],
    ['4.17.10', ['CVE-2018-16487']],
    ['4.17.11-rc.1', ['CVE-2018-16487']],
    ['4.17.11', []],
    ['4.17.21', []],
  ])('lodash@%s matches %j', (version, ids) => {
    expect(matchAdvisories('lodash', version, lodash).cves.map((c) => c.cve_id)).toEqual(ids);
  });

  it('a range without a CVE id still appears in advisories, with its fix', () => {
    const result = matchAdvisories('lodash', '4.17.15', lodash);
    expect(result.advisories.find((a) => a.id === 'NSWG-ECO-516')).toEqual(
      expect.objectContaining({ fixed_in: '4.17.19', malicious: false }),
    );
    expect(matchAdvisories('lodash', '4.17.19', lodash).advisories.map((a) => a.id)).toEqual([]);
  });

  it('every fixed event is the fixed_in of the version just below it and matches nothing at itself', () => {
    let checked = 0;
    for (const record of records) {
      const name = record.affected?.[0]?.package?.name as string;
      const events = record.affected?.[0]?.ranges?.[0]?.events ?? [];
      for (const event of events) {
        if (!event.fixed) continue;
        const below = `${event.fixed}-0`;
        const range = npmRange(record);
        // Overlapping intervals: a "fixed" version another interval covers is no fix (NSWG-ECO-305).
        if (semver.satisfies(event.fixed, range, { includePrerelease: true })) continue;
        if (!semver.satisfies(below, range, { includePrerelease: true })) continue;
        checked++;
        const at = matchAdvisories(name, below, [record]).advisories[0];
        expect(at?.fixed_in).toBe(event.fixed);
        expect(matchAdvisories(name, event.fixed, [record]).advisories).toEqual([]);
      }
    }
    expect(checked).toBeGreaterThan(90);
  });

  it('a fixed event still covered by another interval is not reported as the fix', () => {
    const record = records.find((r) => r.id === 'NSWG-ECO-305')!;
    const name = record.affected![0]!.package!.name;
    expect(matchAdvisories(name, '0.8.5', [record]).advisories[0]?.fixed_in).toBe('0.9.7');
  });

  it('a last_affected range takes its fix from the npm patched range; none gives an empty string', () => {
    const record: OsvRecord = {
      id: 'TEST-1',
      modified: '2024-01-01T00:00:00Z',
      aliases: ['CVE-2024-0001'],
      affected: [
        {
          package: { ecosystem: 'npm', name: 'pkg' },
          ranges: [{ type: 'SEMVER', events: [{ introduced: '1.0.0' }, { last_affected: '1.3.3' }] }],
          database_specific: { vulnerable_versions: '>=1.0.0 <=1.3.3', patched_versions: '>=1.3.4' },
        },
      ],
    };
    expect(matchAdvisories('pkg', '1.3.3', [record]).cves[0]?.fixed_in).toBe('1.3.4');
    expect(matchAdvisories('pkg', '1.3.4-0', [record]).cves).toEqual([]);
    const noPatch = { ...record, affected: [{ ...record.affected![0]!, database_specific: {} }] };
    expect(matchAdvisories('pkg', '1.3.3', [noPatch]).cves[0]?.fixed_in).toBe('');
  });
});

describe('range semantics', () => {
  const base = (affected: NonNullable<OsvRecord['affected']>[number]): OsvRecord => ({
    id: 'GHSA-test-test-test',
    modified: '2024-01-01T00:00:00Z',
    summary: 'Test advisory',
    affected: [affected],
  });
  const ids = (record: OsvRecord, version: string): string[] =>
    matchAdvisories('pkg', version, [record]).advisories.map((a) => a.id);

  it('handles several intervals, ECOSYSTEM ranges and the lowest fix above the version', () => {
    const record = base({
      package: { ecosystem: 'npm', name: 'pkg' },
      ranges: [
        {
          type: 'ECOSYSTEM',
          events: [
            { introduced: '2.0.0' },
            { fixed: '2.3.1' },
            { introduced: '3.0.0-beta.1' },
            { fixed: '3.1.0' },
          ],
        },
      ],
    });
    expect(ids(record, '1.9.9')).toEqual([]);
    expect(matchAdvisories('pkg', '2.1.0', [record]).advisories[0]?.fixed_in).toBe('2.3.1');
    expect(ids(record, '2.3.1')).toEqual([]);
    expect(ids(record, '3.0.0-alpha')).toEqual([]);
    expect(matchAdvisories('pkg', '3.0.0-beta.2', [record]).advisories[0]?.fixed_in).toBe('3.1.0');
    expect(ids(record, '3.1.0')).toEqual([]);
  });

  it('applies limit events and ignores GIT ranges', () => {
    const record = base({
      package: { ecosystem: 'npm', name: 'pkg' },
      ranges: [
        { type: 'SEMVER', events: [{ introduced: '0' }, { limit: '2.0.0' }] },
        { type: 'GIT', repo: 'https://example.invalid/repo', events: [{ introduced: 'abc' }] },
      ],
    });
    expect(ids(record, '1.9.9')).toEqual(['GHSA-test-test-test']);
    expect(ids(record, '2.0.0')).toEqual([]);
  });

  it('orders versions too large for the quick key by full comparison', () => {
    const record = base({
      package: { ecosystem: 'npm', name: 'pkg' },
      ranges: [{ type: 'SEMVER', events: [{ introduced: '999.0.0' }, { fixed: '20240101.0.0' }] }],
    });
    expect(ids(record, '998.9.9')).toEqual([]);
    expect(ids(record, '1500.0.0-beta')).toEqual(['GHSA-test-test-test']);
    expect(ids(record, '20231231.1.0')).toEqual(['GHSA-test-test-test']);
    expect(ids(record, '20240101.0.0')).toEqual([]);
    expect(matchAdvisories('pkg', '1000.0.0', [record]).advisories[0]?.fixed_in).toBe('20240101.0.0');
  });

  it('orders prereleases of one release by their identifiers', () => {
    const record = base({
      package: { ecosystem: 'npm', name: 'pkg' },
      ranges: [{ type: 'SEMVER', events: [{ introduced: '1.0.0-beta.2' }, { fixed: '1.0.0-rc.1' }] }],
    });
    expect(ids(record, '1.0.0-beta.1')).toEqual([]);
    expect(ids(record, '1.0.0-beta.10')).toEqual(['GHSA-test-test-test']);
    expect(ids(record, '1.0.0-beta')).toEqual([]);
    expect(ids(record, '1.0.0-rc.0')).toEqual(['GHSA-test-test-test']);
    expect(ids(record, '1.0.0-rc.1')).toEqual([]);
    expect(ids(record, '1.0.0')).toEqual([]);
  });

  it('matches explicit versions lists exactly', () => {
    const record = base({ package: { ecosystem: 'npm', name: 'pkg' }, versions: ['1.0.1', '1.0.3'] });
    expect(ids(record, '1.0.1')).toEqual(['GHSA-test-test-test']);
    expect(ids(record, '1.0.2')).toEqual([]);
    expect(ids(record, '1.0.3')).toEqual(['GHSA-test-test-test']);
  });

  it('ignores other packages, other ecosystems and withdrawn records', () => {
    const other = base({
      package: { ecosystem: 'PyPI', name: 'pkg' },
      ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }] }],
    });
    expect(ids(other, '1.0.0')).toEqual([]);
    const withdrawn = {
      ...base({ package: { ecosystem: 'npm', name: 'pkg' } }),
      withdrawn: '2024-02-01T00:00:00Z',
    };
    expect(ids(withdrawn, '1.0.0')).toEqual([]);
    expect(
      matchAdvisories('other', '1.0.0', [base({ package: { ecosystem: 'npm', name: 'pkg' } })]).advisories,
    ).toEqual([]);
  });

  it('reports a MAL- record as a critical malicious advisory without a CVE', () => {
    const record: OsvRecord = {
      id: 'MAL-2024-1234',
      modified: '2024-01-01T00:00:00Z',
      summary: 'Malicious code in pkg (npm)',
      affected: [
        {
          package: { ecosystem: 'npm', name: 'pkg' },
          ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }] }],
        },
      ],
      references: [{ type: 'WEB', url: 'https://example.invalid/report' }],
    };
    expect(matchAdvisories('pkg', '0.0.1-security', [record])).toEqual({
      cves: [],
      advisories: [
        {
          id: 'MAL-2024-1234',
          aliases: [],
          severity: 'critical',
          summary: 'Malicious code in pkg (npm)',
          fixed_in: '',
          malicious: true,
          url: 'https://example.invalid/report',
        },
      ],
    });
  });

  it('takes the CVE id from the record id or its aliases, and the description from details when no summary', () => {
    const record: OsvRecord = {
      id: 'CVE-2023-12345',
      modified: '2024-01-01T00:00:00Z',
      details: '\n  First line of details.\nMore.',
      affected: [{ package: { ecosystem: 'npm', name: 'pkg' } }],
    };
    expect(matchAdvisories('pkg', '1.0.0', [record]).cves).toEqual([
      { cve_id: 'CVE-2023-12345', severity: 'medium', description: 'First line of details.', fixed_in: '' },
    ]);
  });

  it('merges two records that report the same CVE', () => {
    const a: OsvRecord = {
      id: 'GHSA-aaaa-aaaa-aaaa',
      modified: '2024-01-01T00:00:00Z',
      aliases: ['CVE-2024-0002'],
      database_specific: { severity: 'LOW' },
      affected: [
        {
          package: { ecosystem: 'npm', name: 'pkg' },
          ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.2.0' }] }],
        },
      ],
    };
    const b: OsvRecord = {
      ...a,
      id: 'NSWG-ECO-9999',
      database_specific: { severity: 'HIGH' },
      affected: [
        {
          package: { ecosystem: 'npm', name: 'pkg' },
          ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.3.0' }] }],
        },
      ],
    };
    const result = matchAdvisories('pkg', '1.1.0', [a, b]);
    expect(result.cves).toEqual([
      expect.objectContaining({ cve_id: 'CVE-2024-0002', severity: 'high', fixed_in: '1.3.0' }),
    ]);
    expect(result.advisories).toHaveLength(2);
  });
});

describe('parseVersion', () => {
  it.each([
    '1.2.3',
    '01.2.3',
    '1.2.3-alpha.1',
    '1.2.3-0',
    '1.2.3-alpha.01',
    '1.2.3+build.5',
    '1.2.3-rc.1+b',
    '99999999999999999.0.0',
    '1.2.3-9007199254740993',
    ' 1.2.3 ',
    'v1.2.3',
    '1.2',
    '1.2.3.4',
    '1.2.3-a..b',
    '1.2.3-x-y.z--1',
  ])('reads %j as semver (loose) does', (text) => {
    const expected = semver.parse(text.trim(), { loose: true });
    const got = parseVersion(text);
    expect(got && [got.major, got.minor, got.patch, got.pre]).toEqual(
      expected ? [expected.major, expected.minor, expected.patch, expected.prerelease] : undefined,
    );
  });

  it('orders keys as semver orders versions', () => {
    const versions = [
      '0.0.0-0',
      '0.0.0',
      '0.0.1-rc.1',
      '0.0.1',
      '0.9.99',
      '1.0.0-alpha',
      '1.0.0',
      '1.0.1',
      '999.999.999999',
    ];
    for (let i = 1; i < versions.length; i++) {
      expect(parseVersion(versions[i - 1]!)!.key).toBeLessThan(parseVersion(versions[i]!)!.key);
    }
    expect(parseVersion('1000.0.0')!.key).toBeNaN();
  });
});
