/**
 * Item keys of the packages table. Pure functions, no AWS import; docs/storage.md explains
 * the layout and the access patterns it serves.
 *
 *   pk            sk                      what
 *   P#<name>      V#<version>             one scan result (gzip JSON in `doc`)
 *   P#<name>      LATEST                  latest = highest semver scanned; `doc`, `item`, GSI keys
 *   P#<name>      T#<dist-tag>            dist-tag recorded at scan time -> `version`
 *   G#<trigram>   B#<first rank>          posting block: sorted ranks of names holding the trigram
 *   ALL           B#<first rank>          posting block of every package (see posting-blocks.ts)
 *   GC#<trigram>  N                       approximate posting count (a hint to pick the rarest)
 *   META          TOTAL                   exact number of packages (`n`)
 *
 * GSI `by-downloads`: lpk = 'ALL', lsk = <rank>, projects `item` (the list row).
 * rank = <inverted weekly downloads, 15 digits>#<name>: ascending order is downloads
 * descending, ties by name ascending.
 */

export const LATEST_SK = 'LATEST';
export const LIST_PARTITION = 'ALL';
export const META_KEY = { pk: 'META', sk: 'TOTAL' } as const;
/** Posting list of every package, in rank order (deep list pages, 1–2 character searches). */
export const ALL_LIST = 'ALL';

const RANK_DIGITS = 15;
const RANK_CEILING = 10 ** RANK_DIGITS - 1;

export const packageKey = (name: string, sk: string) => ({ pk: `P#${name}`, sk });
export const versionSk = (version: string) => `V#${version}`;
export const tagSk = (tag: string) => `T#${tag}`;
export const postingPk = (gram: string) => `G#${gram}`;
export const gramCountKey = (gram: string) => ({ pk: `GC#${gram}`, sk: 'N' });

export function rankOf(weeklyDownloads: number, name: string): string {
  const downloads = Math.min(Math.max(0, Math.floor(weeklyDownloads)), RANK_CEILING);
  return `${String(RANK_CEILING - downloads).padStart(RANK_DIGITS, '0')}#${name}`;
}

export function nameFromRank(rank: string): string {
  return rank.slice(RANK_DIGITS + 1);
}

export const GRAM = 3;

/** Distinct lower-case trigrams of a string (empty for strings shorter than 3). */
export function trigrams(text: string): string[] {
  const lower = text.toLowerCase();
  const grams = new Set<string>();
  for (let i = 0; i + GRAM <= lower.length; i++) grams.add(lower.slice(i, i + GRAM));
  return [...grams];
}
