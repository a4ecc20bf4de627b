import { trustScore, type TrustInput } from '../../../lambdas/shared/domain/trust';

const now = new Date('2026-11-22T00:00:00Z');
const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);
const base: TrustInput = {
  weeklyDownloads: 1_000_000,
  maintainers: 3,
  packageCreated: daysAgo(3000),
  versionPublished: daysAgo(90),
  provenance: true,
  deprecated: undefined,
  now,
};

describe('trustScore', () => {
  it('gives an established, attested package a high score with all components', () => {
    const result = trustScore(base);
    expect(result.score).toBeGreaterThanOrEqual(90);
    expect(result.components.map((c) => c.name)).toEqual([
      'base',
      'downloads',
      'package_age',
      'version_age',
      'maintainers',
      'provenance',
    ]);
    expect(result.reasons).toEqual([]);
  });

  it('counts unknown downloads as neutral, with a reason, never as zero popularity', () => {
    const unknown = trustScore({ ...base, weeklyDownloads: undefined });
    const zero = trustScore({ ...base, weeklyDownloads: 0 });
    expect(unknown.score).toBeGreaterThan(zero.score);
    expect(unknown.components.find((c) => c.name === 'downloads')?.points).toBe(17.5);
    expect(unknown.reasons.join(' ')).toMatch(/downloads are unknown \(no download count was available\)/i);
    const unconfigured = trustScore({
      ...base,
      weeklyDownloads: undefined,
      downloadsUnknownReason: 'none configured',
    });
    expect(unconfigured.reasons.join(' ')).toMatch(/unknown \(none configured\)/);
  });

  it('grows with downloads on a log scale and stays within 0-100', () => {
    const scores = [0, 10, 1_000, 100_000, 10_000_000, 1e12].map(
      (d) => trustScore({ ...base, weeklyDownloads: d }).score,
    );
    expect([...scores].sort((a, b) => a - b)).toEqual(scores);
    for (const s of scores) expect(s).toBeLessThanOrEqual(100);
  });

  it('penalises deprecation and very new versions, and explains both', () => {
    const result = trustScore({ ...base, deprecated: 'use other-pkg', versionPublished: daysAgo(0.5) });
    expect(result.score).toBeLessThan(trustScore(base).score - 20);
    expect(result.reasons.join(' ')).toMatch(/deprecated: use other-pkg/);
    expect(result.reasons.join(' ')).toMatch(/less than 2 days/);
  });

  it('never goes below 0 and survives invalid dates', () => {
    const result = trustScore({
      weeklyDownloads: 0,
      maintainers: 0,
      packageCreated: new Date('nope'),
      versionPublished: undefined,
      provenance: false,
      deprecated: 'x',
      now,
    });
    expect(result.score).toBeGreaterThanOrEqual(0);
  });
});

describe('trust explained', () => {
  it('adds up its components, and explains only those that lower the score', () => {
    const strong = trustScore(base);
    expect(strong.score).toBe(Math.round(strong.components.reduce((sum, c) => sum + c.points, 0)));
    for (const c of strong.components) expect(c.points).toBeLessThanOrEqual(c.max);
    expect(strong.reasons).toEqual([]);

    const young = trustScore({
      ...base,
      weeklyDownloads: 40,
      maintainers: 1,
      packageCreated: daysAgo(20),
      versionPublished: daysAgo(5),
      provenance: false,
    });
    expect(young.score).toBeLessThan(45);
    expect(young.reasons.join('\n')).toMatch(/few downloads \(40 a week\)/);
    expect(young.reasons.join('\n')).toMatch(/young \(first published 20 days ago\)/);
    expect(young.reasons.join('\n')).toMatch(/recent \(published 5 days ago\)/);
    expect(young.reasons.join('\n')).toMatch(/one maintainer/);
    // No provenance is the norm on npm: neutral, not a reason.
    expect(young.reasons.join('\n')).not.toMatch(/provenance/);
  });

  it('tells popular packages apart by downloads up to 100 million a week', () => {
    const scores = [1_000_000, 10_000_000, 100_000_000].map(
      (d) => trustScore({ ...base, weeklyDownloads: d }).score,
    );
    expect(new Set(scores).size).toBe(3);
  });

  it('takes points away, with a reason, when the previous version had provenance and this one has none', () => {
    const lost = trustScore({ ...base, provenance: false, provenanceLost: '2.3.0' });
    expect(lost.components.find((c) => c.name === 'provenance')?.points).toBe(0);
    expect(lost.reasons.join(' ')).toMatch(/no provenance attestation, though 2\.3\.0 had one/);
    expect(lost.score).toBeLessThan(trustScore({ ...base, provenance: false }).score);
  });
});
