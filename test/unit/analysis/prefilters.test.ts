/**
 * Cheap tests that decide whether a costly whole-text regex runs at all: each must agree with the
 * regex it stands in front of on every text, or a rule would go blind.
 */
import { hasBlankRun } from '../../../src/engine/js/detectors/text-checks';

/** A deterministic generator (the same texts on every run). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('hasBlankRun', () => {
  it('agrees with /[ \\t]{n,}/ on random texts of blanks and code', () => {
    const r = rng(7);
    const pieces = [' ', '\t', 'a', '\n', ';', '  ', '\t\t'];
    for (let t = 0; t < 3000; t++) {
      const len = 2 + Math.floor(r() * 40);
      let text = '';
      const parts = Math.floor(r() * 60);
      for (let i = 0; i < parts; i++) {
        const p = pieces[Math.floor(r() * pieces.length)]!;
        text += r() < 0.1 ? p.repeat(Math.floor(r() * 2 * len)) : p;
      }
      expect([text, hasBlankRun(text, len)]).toEqual([text, new RegExp(`[ \\t]{${len},}`).test(text)]);
    }
  });

  it('finds a run at the very start, the very end and one of exactly the length', () => {
    expect(hasBlankRun(`${' '.repeat(150)}x`, 150)).toBe(true);
    expect(hasBlankRun(`x${'\t '.repeat(75)}`, 150)).toBe(true);
    expect(hasBlankRun(`x${' '.repeat(149)}x`, 150)).toBe(false);
    expect(hasBlankRun(`${' '.repeat(100)}x${' '.repeat(100)}`, 150)).toBe(false);
  });
});
