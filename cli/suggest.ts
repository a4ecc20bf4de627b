/**
 * Real names close to one that does not exist: the typo or the invented name an AI agent wrote.
 * Candidates are the most-downloaded packages (npm-high-impact); a name that folds to the same
 * form (separators, look-alike characters) comes first, then names within two edits, then names
 * that contain the missing one or are contained in it (`express-validator-pro` → `express-validator`).
 * Loaded only when a name is missing, so the list costs nothing on ordinary runs.
 */
import { npmTopDownloads } from 'npm-high-impact';
import { bareName, editDistance, fold } from '../src/engine/name-similarity';

const CANDIDATES = 10_000;

export function closestNames(name: string, max = 3): string[] {
  const wanted = name.toLowerCase();
  const bare = bareName(wanted);
  const folded = fold(wanted);
  const scored: { name: string; score: number; rank: number }[] = [];
  const list = npmTopDownloads.slice(0, CANDIDATES);
  list.forEach((cand, rank) => {
    if (cand === wanted) return;
    const cb = bareName(cand);
    let score: number | undefined;
    if (fold(cand) === folded) score = 0;
    else {
      const d = editDistance(bare, cb, 2);
      if (d <= 2 && cb.length >= 3) score = d;
      else if (cb.length >= 4 && bare.length >= 4 && (bare.includes(cb) || cb.includes(bare))) score = 3;
    }
    if (score !== undefined) scored.push({ name: cand, score, rank });
  });
  return scored
    .sort((a, b) => a.score - b.score || a.rank - b.rank)
    .slice(0, max)
    .map((s) => s.name);
}
