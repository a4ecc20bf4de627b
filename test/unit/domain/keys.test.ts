import { nameFromRank, rankOf, trigrams } from '../../../lambdas/shared/store/keys';

describe('rankOf', () => {
  it('orders by downloads descending, then name ascending', () => {
    const ranks = [
      rankOf(10, 'b'),
      rankOf(1_000_000_000, 'z'),
      rankOf(10, 'a'),
      rankOf(0, 'c'),
      rankOf(11, 'y'),
    ].sort();
    expect(ranks.map(nameFromRank)).toEqual(['z', 'y', 'a', 'b', 'c']);
  });

  it('keeps scoped names intact', () => {
    expect(nameFromRank(rankOf(5, '@scope/pkg'))).toBe('@scope/pkg');
  });
});

describe('trigrams', () => {
  it('gives distinct lower-case trigrams', () => {
    expect(trigrams('ReActAct').sort()).toEqual(['act', 'cta', 'rea', 'tac', 'eac'].sort());
    expect(trigrams('ab')).toEqual([]);
  });
});
