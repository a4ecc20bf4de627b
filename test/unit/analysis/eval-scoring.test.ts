import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  caughtBy,
  isCaught,
  recomputeLevel,
  rulesWrittenFrom,
  ruleFamilies,
  scoreFamilies,
  scorePopular,
  totals,
  withoutRules,
  type CaseOutcome,
  type ThreatEvidence,
} from '../../../src/engine/eval/scoring';
import {
  loadCorpus,
  parseJsonl,
  validateRealRefs,
  type RealCaseRef,
} from '../../../src/engine/eval/corpus-cases';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { expectedTypes, FAMILIES } from '../../../src/engine/eval/families';
import { popularNames } from '../../../src/engine/eval/corpus';
import type { ThreatType } from '../../../src/contract/schemas';

function threat(
  rule: string,
  threat_type: ThreatType,
  confidence: number,
  extra: Partial<ThreatEvidence> = {},
) {
  return {
    rule,
    threat_type,
    confidence,
    file: 'index.js',
    line: 1,
    snippet: '',
    message: rule,
    install_time: false,
    ...extra,
  };
}

/** A case whose stored risk level is what assessRisk gives for its threats. */
function outcome(
  id: string,
  family: string,
  threats: ThreatEvidence[],
  expected?: ThreatType[],
): CaseOutcome {
  const o: CaseOutcome = {
    id,
    family,
    source: 'real',
    expected: expectedTypes(family, expected),
    risk_level: 'clean',
    threats,
    risk_input: { threats: [], install_scripts: [] },
  };
  o.risk_level = recomputeLevel(o, threats);
  return o;
}

describe('catch definition', () => {
  it('needs warning or critical and a threat >= 0.5 of an expected type', () => {
    const exfil = [threat('r', 'data_exfiltration', 0.6)];
    expect(caughtBy('warning', exfil, ['data_exfiltration'])).toBe(true);
    expect(caughtBy('critical', exfil, ['data_exfiltration'])).toBe(true);
    expect(caughtBy('clean', exfil, ['data_exfiltration'])).toBe(false);
    // a warning from another type does not catch the case
    expect(caughtBy('warning', exfil, ['malicious_code'])).toBe(false);
    // reported but below 0.5
    expect(caughtBy('warning', [threat('r', 'malicious_code', 0.49)], ['malicious_code'])).toBe(false);
  });

  it('uses the family list unless the case has its own', () => {
    expect(isCaught(outcome('a', 'credential-theft', [threat('r', 'malicious_code', 0.9)]))).toBe(false);
    expect(
      isCaught(outcome('b', 'credential-theft', [threat('r', 'malicious_code', 0.9)], ['malicious_code'])),
    ).toBe(true);
    expect(() => expectedTypes('no-such-family')).toThrow(/unknown attack family/);
  });

  it('never counts a case that failed to analyse', () => {
    const o = outcome('a', 'destructive', [threat('r', 'malicious_code', 0.9)]);
    expect(isCaught({ ...o, error: 'boom' })).toBe(false);
  });
});

describe('leave-one-family-out', () => {
  const corpus = [
    // caught only by a rule that fires on beacons alone
    outcome('b1', 'dependency-confusion-beacon', [threat('beacon.only', 'data_exfiltration', 0.9)]),
    // caught by the beacon rule and by a shared rule strong enough on its own
    outcome('b2', 'dependency-confusion-beacon', [
      threat('beacon.only', 'data_exfiltration', 0.9),
      threat('shared.exfil', 'data_exfiltration', 0.6),
    ]),
    outcome('c1', 'credential-theft', [threat('shared.exfil', 'data_exfiltration', 0.85)]),
    outcome('d1', 'destructive', []),
  ];

  it('finds the rules whose hits stay within one family', () => {
    const byRule = ruleFamilies(corpus);
    expect([...rulesWrittenFrom('dependency-confusion-beacon', byRule)]).toEqual(['beacon.only']);
    expect([...rulesWrittenFrom('credential-theft', byRule)]).toEqual([]);
  });

  it('recomputes risk from the remaining evidence and scores each family', () => {
    const scores = scoreFamilies(corpus);
    const beacon = scores.find((s) => s.family === 'dependency-confusion-beacon')!;
    expect(beacon).toMatchObject({
      cases: 2,
      caught: 2,
      critical: 2,
      lofoCaught: 1,
      lofoRules: ['beacon.only'],
    });
    const cred = scores.find((s) => s.family === 'credential-theft')!;
    expect(cred).toMatchObject({ cases: 1, caught: 1, lofoCaught: 1, lofoRules: [] });
    const destructive = scores.find((s) => s.family === 'destructive')!;
    expect(destructive.missed.map((m) => m.id)).toEqual(['d1']);
    expect(totals(scores)).toEqual({ cases: 4, caught: 3, critical: 3, lofoCaught: 2 });
    // Caught with every rule on but not under LOFO, with what survives (for --show-lofo).
    expect(beacon.lofoMissed.map((m) => [m.outcome.id, m.rest.map((t) => t.rule)])).toEqual([['b1', []]]);
    // A case missed outright is a miss, not a LOFO miss.
    expect(destructive.lofoMissed).toEqual([]);
  });

  it('drops the level to warning when only a 0.6 finding is left', () => {
    const b2 = corpus[1]!;
    const rest = withoutRules(b2.threats, new Set(['beacon.only']));
    expect(rest.map((t) => t.rule)).toEqual(['shared.exfil']);
    expect(recomputeLevel(b2, rest)).toBe('warning');
  });

  it('keeps install-time capabilities in the recomputed risk', () => {
    const o = outcome('x', 'download-execute', [threat('only.here', 'install_script_injection', 0.9)]);
    o.risk_input = {
      threats: [],
      install_scripts: [{ name: 'postinstall', command: 'node x.js' }],
      install_time_capabilities: { makes_requests: true, spawns_children: false, domains: [], commands: [] },
    };
    // with the rule off, the install-time network use still makes a warning, but no expected threat
    const rest = withoutRules(o.threats, new Set(['only.here']));
    expect(recomputeLevel(o, rest)).toBe('warning');
    expect(caughtBy(recomputeLevel(o, rest), rest, o.expected)).toBe(false);
  });

  it('drops a derived lifecycle-script finding when its source finding is switched off', () => {
    const src = threat('js.eval-decoded', 'malicious_code', 0.85, { install_time: true, file: 'x.js' });
    const derived = threat('pkg.install-runs-malicious-file', 'install_script_injection', 0.95, {
      install_time: true,
      file: 'package.json',
    });
    expect(withoutRules([src, derived], new Set(['js.eval-decoded']))).toEqual([]);
    expect(withoutRules([src, derived], new Set()).map((t) => t.rule)).toEqual([
      'js.eval-decoded',
      'pkg.install-runs-malicious-file',
    ]);
  });
});

describe('popular set', () => {
  it('counts critical, warnings from threats and any threat >= 0.5 apart', () => {
    const s = scorePopular([
      { spec: 'a@1.0.0', risk_level: 'critical', strong: [threat('r', 'malicious_code', 0.85)] },
      { spec: 'b@1.0.0', risk_level: 'warning', strong: [threat('r', 'malicious_code', 0.55)] },
      { spec: 'c@1.0.0', risk_level: 'warning', strong: [] },
      { spec: 'd@1.0.0', risk_level: 'clean', strong: [] },
      { spec: 'e@1.0.0', risk_level: 'warning', strong: [threat('r', 'prompt_injection', 0.5)] },
    ]);
    expect(s.analysed).toBe(5);
    expect(s.critical.map((x) => x.spec)).toEqual(['a@1.0.0']);
    expect(s.warningFromThreats.map((x) => x.spec)).toEqual(['b@1.0.0', 'e@1.0.0']);
    expect(s.anyThreat.map((x) => x.spec)).toEqual(['a@1.0.0', 'b@1.0.0', 'e@1.0.0']);
    expect(s.agentDirected.map((x) => x.spec)).toEqual(['e@1.0.0']);
  });

  it('extends the base list with top downloads, without @types and duplicates', () => {
    expect(popularNames(['a', 'b'], ['b', '@types/node', 'c', 'd', 'e'], 4)).toEqual(['a', 'b', 'c', 'd']);
    expect(popularNames(['a', 'b', 'c'], ['d'], 2)).toEqual(['a', 'b', 'c']);
  });
});

describe('corpus references', () => {
  const ref: RealCaseRef = {
    id: 'x-1',
    family: 'credential-theft',
    repo: 'owner/name',
    commit: 'a'.repeat(40),
    path: 'p',
    kind: 'dir',
    notes: '',
  };

  it('rejects duplicate ids, unknown families and kinds, and unsafe ids', () => {
    expect(() => validateRealRefs([ref, ref])).toThrow(/duplicate/);
    expect(() => validateRealRefs([{ ...ref, family: 'other' }])).toThrow(/unknown family/);
    expect(() => validateRealRefs([{ ...ref, kind: 'zip' as never }])).toThrow(/unknown kind/);
    expect(() => validateRealRefs([{ ...ref, id: '../up' }])).toThrow(/bad case id/);
    expect(() => validateRealRefs([{ ...ref, commit: 'HEAD' }])).toThrow(/commit/);
  });

  it('the committed real.jsonl is valid and uses only the shared families', () => {
    const file = join(__dirname, '../../../data/corpus/real.jsonl');
    const rows = validateRealRefs(parseJsonl<RealCaseRef>(readFileSync(file, 'utf8'), file));
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(FAMILIES).toContain(r.family);
  });
});

describe('loadCorpus', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'corpus-'));
    const real: RealCaseRef[] = [
      {
        id: 'here',
        family: 'reverse-shell',
        repo: 'o/r',
        commit: 'b'.repeat(40),
        path: 'x',
        kind: 'dir',
        notes: '',
      },
      {
        id: 'not-fetched',
        family: 'crypto-miner',
        repo: 'o/r',
        commit: 'b'.repeat(40),
        path: 'y',
        kind: 'file',
        notes: '',
        expected: ['install_script_injection'],
      },
    ];
    mkdirSync(join(root, 'data/corpus/rewritten/destructive/wiper-1'), { recursive: true });
    mkdirSync(join(root, '.cache/corpus/real/here'), { recursive: true });
    writeFileSync(join(root, 'data/corpus/real.jsonl'), real.map((r) => JSON.stringify(r)).join('\n'));
    writeFileSync(
      join(root, 'data/corpus/rewritten/manifest.jsonl'),
      [
        JSON.stringify({ id: 'wiper-1', family: 'destructive', expected: ['malicious_code'] }),
        JSON.stringify({ id: 'gone', family: 'destructive' }),
      ].join('\n'),
    );
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lists materialised real cases and rewritten folders apart, and reports the missing ones', async () => {
    const { cases, missing } = await loadCorpus(root);
    expect(cases.map((c) => [c.source, c.id, c.family, c.expected])).toEqual([
      ['real', 'here', 'reverse-shell', expectedTypes('reverse-shell')],
      ['rewritten', 'wiper-1', 'destructive', ['malicious_code']],
    ]);
    expect(missing).toEqual(['not-fetched', 'rewritten/destructive/gone']);
  });
});
