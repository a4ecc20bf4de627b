import { join } from 'node:path';
import { evaluateSamples } from '../../../lambdas/analysis/eval/samples';

describe('labelled samples (data/samples, a copy of the shared set)', () => {
  it('catches at least 95% of positives with the right type, flags no benign file, keeps ok lines quiet', async () => {
    const r = await evaluateSamples(join(__dirname, '../../../data/samples'));
    expect(r.positives).toBeGreaterThan(100);
    expect(r.caught / r.positives).toBeGreaterThanOrEqual(0.95);
    expect(r.benignFlagged).toEqual([]);
    expect(r.okViolations).toEqual([]);
  });
});
