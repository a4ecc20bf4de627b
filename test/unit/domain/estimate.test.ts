import { FALLBACK_SCAN_SECONDS, estimateSeconds } from '../../../lambdas/shared/domain/estimate';

describe('estimateSeconds', () => {
  it('uses the median of recent durations', () => {
    expect(estimateSeconds([1000, 3000, 100_000], 0, 4)).toBe(3);
  });

  it('falls back to a default with no history', () => {
    expect(estimateSeconds([], 0, 4)).toBe(FALLBACK_SCAN_SECONDS);
  });

  it('grows with the queue ahead, per round of parallel scanners', () => {
    expect(estimateSeconds([2000], 3, 4)).toBe(2);
    expect(estimateSeconds([2000], 4, 4)).toBe(4);
    expect(estimateSeconds([2000], 40, 4)).toBe(22);
  });
});
