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
    expect(unknown.components.find((c) => c.name === 'downloads')?.points).toBe(15);
    expect(unknown.reasons.join(' ')).toMatch(
      /downloads are unknown \(the download-count service was not reachable\)/i,
    );
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
