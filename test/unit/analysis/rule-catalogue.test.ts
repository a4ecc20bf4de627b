/**
 * The rule catalogue (src/engine/rules.ts) is the one list of rule ids:
 * - every rule id written in the engine's sources is in it,
 * - docs/analysis.md carries its generated table (`npm run docs:rules`),
 * - every rule emitted on the labelled samples and the rewritten corpus is in it,
 * - every confidence in it is in (0, 1] (a ladder may start at 0: reported only when raised),
 *   capabilities carry 1, and every rule's doc anchor exists,
 * - every rule in it is hit by at least one of those cases, except the ids listed in
 *   data/samples/rules-without-sample.json, which must be exactly the ones not hit (adding a
 *   sample for one forces its removal from that list).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeDirectory } from '../../../src/engine/index';
import { analyzeSample, listSamples } from '../../../src/engine/eval/samples';
import {
  ADJUSTMENTS,
  MIN_TEXT_CONFIDENCE,
  RULES,
  RULE_TABLE_BEGIN,
  RULE_TABLE_END,
  renderRuleTable,
  type Level,
} from '../../../src/engine/rules';

const ROOT = join(__dirname, '../../..');
const ENGINE = join(ROOT, 'src/engine');
/** Rule ids are `<area>.<kebab-name>`; file names in the sources are told apart by their extension. */
const ID =
  /['"`]((?:js|shell|text|pkg|file|code|agent|script|workflow|chain|big|sig|tar)\.[a-z0-9]+(?:-[a-z0-9]+)*)['"`]/g;
const FILE_EXT = /\.(?:json|gyp|js|cjs|mjs|ts|md|yml|yaml|sh|py|ps1|bat|cmd|txt|node)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return n === 'eval' ? [] : sourceFiles(p);
    return p.endsWith('.ts') && !p.endsWith('rules.ts') ? [p] : [];
  });
}

describe('rule catalogue', () => {
  it('has every rule id written in the engine', () => {
    const written = new Set<string>();
    for (const f of sourceFiles(ENGINE)) {
      for (const m of readFileSync(f, 'utf8').matchAll(ID)) if (!FILE_EXT.test(m[1]!)) written.add(m[1]!);
    }
    expect(written.size).toBeGreaterThan(50);
    expect([...written].filter((id) => !(id in RULES)).sort()).toEqual([]);
  });

  it('gives every rule confidences in (0, 1], 1 for capabilities, and a doc anchor that exists', () => {
    const doc = readFileSync(join(ROOT, 'docs/analysis.md'), 'utf8');
    const inUnit = (v: number | undefined) => v === undefined || (v > 0 && v <= 1);
    const bad: string[] = [];
    const check = (id: string, variant: string, l: Level) => {
      const ok =
        typeof l === 'number'
          ? inUnit(l)
          : inUnit(l.step) &&
            inUnit(l.max) &&
            (l.from === undefined || (l.from >= 0 && l.from + l.step <= 1));
      if (!ok) bad.push(`${id} ${variant}`);
    };
    for (const [id, r] of Object.entries(RULES)) {
      const entries = Object.entries(r.confidence);
      if (!entries.length) bad.push(`${id}: no confidence`);
      for (const [variant, l] of entries) check(id, variant, l);
      if (r.kinds.some((k) => k.startsWith('cap:')) && JSON.stringify(r.confidence) !== '{"base":1}')
        bad.push(`${id}: a capability is a fact (confidence 1)`);
      const anchor = /^docs\/analysis\.md#(rule-[a-z0-9-]+)$/.exec(r.doc)?.[1];
      if (!anchor || !doc.includes(`id="${anchor}"`)) bad.push(`${id}: doc ${r.doc}`);
    }
    for (const [name, g] of Object.entries(ADJUSTMENTS) as [string, Record<string, number>][])
      for (const v of Object.values(g)) if (!inUnit(v)) bad.push(`adjustment ${name}`);
    if (!inUnit(MIN_TEXT_CONFIDENCE)) bad.push('MIN_TEXT_CONFIDENCE');
    expect(bad).toEqual([]);
  });

  it('is not named by the evaluator or the API models (only detectors name rules)', () => {
    const js = join(ENGINE, 'js');
    const files = [
      ...readdirSync(js)
        .filter((n) => n.endsWith('.ts'))
        .map((n) => join(js, n)),
      ...readdirSync(join(js, 'models')).map((n) => join(js, 'models', n)),
    ];
    const named = files.flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(ID)]
        .map((m) => m[1]!)
        .filter((id) => !FILE_EXT.test(id))
        .map((id) => `${f.slice(js.length + 1)}: ${id}`),
    );
    expect(files.length).toBeGreaterThan(15);
    expect(named).toEqual([]);
  });

  it('is the only place confidences are written: emitters go through the sink (findings.ts)', () => {
    const written = sourceFiles(ENGINE).flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/\bconf(?:idence)?\s*:\s*(?:[\d.]+|[^,\n]*\?\s*[\d.]+)/g)].map(
        (m) => `${f.slice(ENGINE.length + 1)}: ${m[0]}`,
      ),
    );
    expect(written).toEqual([]);
  });

  it('is documented in docs/analysis.md (npm run docs:rules)', () => {
    const doc = readFileSync(join(ROOT, 'docs/analysis.md'), 'utf8');
    const start = doc.indexOf(RULE_TABLE_BEGIN);
    const end = doc.indexOf(RULE_TABLE_END);
    expect(start).toBeGreaterThan(0);
    // prettier pads the columns; compare cell by cell.
    const cells = (t: string) =>
      t
        .trim()
        .replace(/-{3,}/g, '---')
        .replace(/[ \t]+/g, ' ');
    expect(cells(doc.slice(start + RULE_TABLE_BEGIN.length, end))).toBe(cells(renderRuleTable()));
  });

  it('covers every rule emitted on the samples and corpus, and each rule is hit by one', async () => {
    const hit = new Set<string>();
    const samples = join(ROOT, 'data/samples');
    for (const c of listSamples(samples)) {
      for (const f of (await analyzeSample(samples, c.id)).evidence) hit.add(f.rule);
    }
    const rewritten = join(ROOT, 'data/corpus/rewritten');
    for (const family of readdirSync(rewritten)) {
      const dir = join(rewritten, family);
      if (!statSync(dir).isDirectory()) continue;
      for (const id of readdirSync(dir)) {
        for (const f of (await analyzeDirectory(join(dir, id))).evidence) hit.add(f.rule);
      }
    }
    expect([...hit].filter((id) => !(id in RULES)).sort()).toEqual([]);
    const withoutSample = JSON.parse(readFileSync(join(samples, 'rules-without-sample.json'), 'utf8')) as {
      id: string;
      why: string;
    }[];
    expect(
      Object.keys(RULES)
        .filter((id) => !hit.has(id))
        .sort(),
    ).toEqual(withoutSample.map((r) => r.id).sort());
  }, 120_000);
});
