/**
 * One test per labelled sample in data/samples (rules/ and agentic/), scored by eval/samples.ts:
 * a positive must be reported with one of its expected threat types (confidence >= 0.5) or
 * capabilities; a benign sample must have no threat >= 0.5. Samples on data/samples/known-misses.json
 * are asserted to be still wrong, so whoever fixes one must take it off the list (with the reason
 * gone, the sample then runs as a normal test).
 */
import { join } from 'node:path';
import {
  listSamples,
  readKnownMisses,
  runSample,
  type SampleOutcome,
} from '../../../src/engine/eval/samples';

const DIR = join(__dirname, '../../../data/samples');
const cases = listSamples(DIR);
const known = new Map(readKnownMisses(DIR).map((m) => [m.id, m.why]));

const explain = (o: SampleOutcome) =>
  o.case.label === 'positive'
    ? `expected ${o.case.expect.join(' | ')}; reported: ${o.reported.join(', ') || 'nothing'}`
    : `must stay quiet; reported: ${o.violations.join(', ')}`;

describe('labelled samples (data/samples)', () => {
  it('has labels for every rule family and both kinds', () => {
    expect(cases.filter((c) => c.label === 'positive').length).toBeGreaterThanOrEqual(40);
    expect(cases.filter((c) => c.label === 'benign').length).toBeGreaterThanOrEqual(20);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  });

  it('lists only existing samples as known misses, each with a reason', () => {
    const ids = new Set(cases.map((c) => c.id));
    for (const id of known.keys()) expect(ids.has(id) ? id : `${id} (no such sample)`).toBe(id);
  });

  describe.each(cases.filter((c) => !known.has(c.id)).map((c) => [`${c.label}: ${c.id}`, c] as const))(
    '%s',
    (_name, c) => {
      it(
        c.label === 'positive' ? `is reported as ${c.expect.join(' or ')}` : 'reports no threat',
        async () => {
          const o = await runSample(DIR, c);
          if (!o.pass) throw new Error(`${c.id} (${c.note}): ${explain(o)}`);
        },
      );
    },
  );

  describe.each(cases.filter((c) => known.has(c.id)).map((c) => [`known miss: ${c.id}`, c] as const))(
    '%s',
    (_name, c) => {
      it(`is still scored wrong (${known.get(c.id)})`, async () => {
        const o = await runSample(DIR, c);
        if (o.pass)
          throw new Error(
            `${c.id} now passes: remove it from data/samples/known-misses.json so it runs as a normal test`,
          );
      });
    },
  );
});
