/**
 * The detection corpus: real cases (references in data/corpus/real.jsonl, materialised by
 * `scripts/corpus-fetch.ts` into `.cache/corpus/real/<id>/`) and our own rewritten cases
 * (data/corpus/rewritten/<family>/<id>/ with data/corpus/rewritten/manifest.jsonl).
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expectedTypes, FAMILY_EXPECTED } from './families';
import type { ThreatType } from '../../contract/schemas';

export type CaseKind = 'dir' | 'commit-files' | 'tgz' | 'file' | 'install-file' | 'package-json';

/** One row of data/corpus/real.jsonl. */
export interface RealCaseRef {
  id: string;
  family: string;
  repo: string;
  commit: string;
  path: string;
  kind: CaseKind;
  notes: string;
  expected?: ThreatType[];
  /** For single files: where to put the file inside the case (default: its base name). */
  as?: string;
  /** For folders: only these files and sub-folders (relative to `path`). */
  include?: string[];
}

/** One row of data/corpus/rewritten/manifest.jsonl. */
export interface RewrittenCaseRef {
  id: string;
  family: string;
  based_on?: string;
  description?: string;
  expected?: ThreatType[];
}

export interface CorpusCase {
  id: string;
  family: string;
  source: 'real' | 'rewritten' | 'holdout';
  expected: ThreatType[];
  dir: string;
}

const KINDS: CaseKind[] = ['dir', 'commit-files', 'tgz', 'file', 'install-file', 'package-json'];

export function parseJsonl<T>(text: string, file: string): T[] {
  return text
    .split('\n')
    .map((l, i) => [l.trim(), i + 1] as const)
    .filter(([l]) => l && !l.startsWith('//'))
    .map(([l, n]) => {
      try {
        return JSON.parse(l) as T;
      } catch {
        throw new Error(`${file}:${n}: not JSON`);
      }
    });
}

/** Checks the rows: unique ids, known families and kinds, safe ids. */
export function validateRealRefs(rows: RealCaseRef[]): RealCaseRef[] {
  const seen = new Set<string>();
  for (const r of rows) {
    if (!/^[a-z0-9][a-z0-9._-]*$/i.test(r.id)) throw new Error(`bad case id "${r.id}"`);
    if (seen.has(r.id)) throw new Error(`duplicate case id "${r.id}"`);
    seen.add(r.id);
    if (!FAMILY_EXPECTED[r.family]) throw new Error(`${r.id}: unknown family "${r.family}"`);
    if (!KINDS.includes(r.kind)) throw new Error(`${r.id}: unknown kind "${r.kind}"`);
    if (!/^[0-9a-f]{40}$/.test(r.commit)) throw new Error(`${r.id}: commit must be 40 hex digits`);
    if (!/^[\w.-]+\/[\w.-]+$/.test(r.repo)) throw new Error(`${r.id}: repo must be owner/name`);
  }
  return rows;
}

export async function loadRealRefs(root: string): Promise<RealCaseRef[]> {
  const file = join(root, 'data/corpus/real.jsonl');
  return validateRealRefs(parseJsonl<RealCaseRef>(await readFile(file, 'utf8'), file));
}

export async function loadCorpus(root: string): Promise<{ cases: CorpusCase[]; missing: string[] }> {
  const cases: CorpusCase[] = [];
  const missing: string[] = [];
  for (const r of await loadRealRefs(root)) {
    const dir = join(root, '.cache/corpus/real', r.id);
    if (!existsSync(dir)) {
      missing.push(r.id);
      continue;
    }
    cases.push({
      id: r.id,
      family: r.family,
      source: 'real',
      expected: expectedTypes(r.family, r.expected),
      dir,
    });
  }
  const manifest = join(root, 'data/corpus/rewritten/manifest.jsonl');
  if (existsSync(manifest)) {
    for (const r of parseJsonl<RewrittenCaseRef>(await readFile(manifest, 'utf8'), manifest)) {
      const dir = join(root, 'data/corpus/rewritten', r.family, r.id);
      if (!existsSync(dir)) {
        missing.push(`rewritten/${r.family}/${r.id}`);
        continue;
      }
      cases.push({
        id: r.id,
        family: r.family,
        source: 'rewritten',
        expected: expectedTypes(r.family, r.expected),
        dir,
      });
    }
  }
  // Held-out cases: written blind by someone who had not read the rules, after they were written;
  // measured, never tuned on (data/corpus/holdout/<family>/<id>/, manifests manifest-*.jsonl).
  const holdout = join(root, 'data/corpus/holdout');
  if (existsSync(holdout)) {
    for (const name of (await readdir(holdout)).filter((n) => /^manifest.*\.jsonl$/.test(n)).sort()) {
      const file = join(holdout, name);
      for (const r of parseJsonl<RewrittenCaseRef>(await readFile(file, 'utf8'), file)) {
        const dir = join(holdout, r.family, r.id);
        if (!existsSync(dir) || !FAMILY_EXPECTED[r.family]) {
          missing.push(`holdout/${r.family}/${r.id}`);
          continue;
        }
        cases.push({
          id: r.id,
          family: r.family,
          source: 'holdout',
          expected: expectedTypes(r.family, r.expected),
          dir,
        });
      }
    }
  }
  return { cases, missing };
}
