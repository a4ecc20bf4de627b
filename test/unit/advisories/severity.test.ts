import { cvss3BaseScore, cvss4BaseScore, cvssBaseScore } from '../../../lambdas/advisories/cvss';
import type { OsvRecord } from '../../../lambdas/advisories/osv';
import { labelSeverity, recordSeverity, scoreSeverity } from '../../../lambdas/advisories/severity';
import { loadSharedRecords } from './support';

describe('CVSS v3.x base scores', () => {
  it.each([
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 9.8],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N', 6.1],
    ['CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N', 5.3],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H', 10],
    ['CVSS:3.1/AV:L/AC:H/PR:H/UI:R/S:U/C:N/I:N/A:L', 1.8],
    ['CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:H/I:N/A:N', 7.7],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N', 0],
  ])('%s → %d', (vector, score) => {
    expect(cvss3BaseScore(vector)).toBe(score);
    expect(cvssBaseScore(vector)).toBe(score);
  });

  it.each([
    'CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:U/A:U',
    'CVSS:3.1/AV:N',
    'AV:N/AC:L/Au:N/C:P/I:P/A:P',
    'CVSS:2.0/x',
  ])('reads no score from %s', (vector) => expect(cvssBaseScore(vector)).toBeUndefined());
});

describe('CVSS v4.0 base scores', () => {
  const v4 = 'CVSS:4.0/';
  it.each([
    ['AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', 9.3],
    ['AV:N/AC:L/AT:N/PR:N/UI:N/VC:L/VI:L/VA:L/SC:N/SI:N/SA:N', 6.9],
    ['AV:N/AC:L/AT:N/PR:L/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', 8.7],
    ['AV:L/AC:L/AT:N/PR:L/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', 8.5],
    ['AV:N/AC:L/AT:N/PR:N/UI:A/VC:N/VI:N/VA:N/SC:L/SI:L/SA:N', 5.1],
    ['AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:H/SI:H/SA:H', 10],
    ['AV:N/AC:H/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', 9.2],
    ['AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N', 0],
  ])('%s → %d', (vector, score) => {
    expect(cvss4BaseScore(v4 + vector)).toBe(score);
  });

  it('applies threat and environmental metrics', () => {
    const base = `${v4}AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N`;
    expect(cvss4BaseScore(`${base}/E:U`)!).toBeLessThan(9.3);
    expect(cvss4BaseScore(`${base}/MSI:S`)).toBe(10);
  });

  it.each(['CVSS:4.0/AV:N/AC:L', 'CVSS:4.0/AV:X/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N'])(
    'reads no score from %s',
    (vector) => expect(cvss4BaseScore(vector)).toBeUndefined(),
  );
});

describe('severity levels', () => {
  it.each([
    [0, 'low'],
    [3.9, 'low'],
    [4, 'medium'],
    [6.9, 'medium'],
    [7, 'high'],
    [8.9, 'high'],
    [9, 'critical'],
    [10, 'critical'],
  ])('score %d is %s', (score, level) => expect(scoreSeverity(score)).toBe(level));

  it.each([
    ['LOW', 'low'],
    ['MODERATE', 'medium'],
    ['medium', 'medium'],
    ['HIGH', 'high'],
    ['CRITICAL', 'critical'],
    ['UNKNOWN', undefined],
    [7, undefined],
  ])('label %s is %s', (label, level) => expect(labelSeverity(label)).toBe(level));

  const record = (extra: Partial<OsvRecord>): OsvRecord => ({
    id: 'GHSA-x',
    modified: '2024-01-01T00:00:00Z',
    ...extra,
  });
  const critical3 = { type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' };
  const medium4 = {
    type: 'CVSS_V4',
    score: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:L/VI:L/VA:L/SC:N/SI:N/SA:N',
  };

  it('prefers the label of the affected entry, then of the record, then vectors (v4 first), then cvss_score', () => {
    const affected = [{ package: { ecosystem: 'npm', name: 'p' }, ecosystem_specific: { severity: 'LOW' } }];
    const full = record({
      database_specific: { severity: 'HIGH', cvss_score: 9.9 },
      severity: [critical3, medium4],
    });
    expect(recordSeverity(full, affected)).toBe('low');
    expect(recordSeverity(full)).toBe('high');
    expect(recordSeverity(record({ severity: [critical3, medium4] }))).toBe('medium');
    expect(recordSeverity(record({ severity: [critical3] }))).toBe('critical');
    expect(recordSeverity(record({ database_specific: { cvss_score: 7.5 } }))).toBe('high');
    expect(recordSeverity(record({}))).toBe('medium');
  });

  it('makes every malicious-package report critical', () => {
    expect(recordSeverity(record({ id: 'MAL-2024-1', database_specific: { severity: 'LOW' } }))).toBe(
      'critical',
    );
    expect(recordSeverity(record({ aliases: ['MAL-2024-2'] }))).toBe('critical');
  });

  it('gives every shared record a level, and its vector agrees with its label within one level', () => {
    const order = { low: 0, medium: 1, high: 2, critical: 3 };
    let far = 0;
    for (const r of loadSharedRecords()) {
      const fromLabel = recordSeverity(r);
      const fromVector = recordSeverity({ ...r, database_specific: {} });
      expect(order[fromLabel]).toBeDefined();
      if (Math.abs(order[fromLabel] - order[fromVector]) > 1) far++;
    }
    expect(far).toBeLessThan(5);
  });
});
