/**
 * The packages table's state as the write protocol sees it, read straight from a FakeDynamo:
 * the latest row and its markers, a name's ranks in each posting list, the total, and checks of
 * the invariants docs/storage.md states.
 */
import { ALL_LIST, nameFromRank, postingPk, trigrams } from '../../../../lambdas/shared/store/keys';
import { PACKAGES_TABLE } from '../../../../lambdas/shared/store/tables';
import { FakeDynamo, type Item } from './fake-dynamo';

export const TABLE = 'packages-unit';

export function packagesFake(): FakeDynamo {
  return new FakeDynamo().addTable(TABLE, PACKAGES_TABLE);
}

export function latestRow(fake: FakeDynamo, name: string): Item | undefined {
  return fake.item(TABLE, { pk: `P#${name}`, sk: 'LATEST' });
}

/** Every entry of a posting list, block by block in key order. */
export function listEntries(fake: FakeDynamo, list: string): string[] {
  return fake
    .scan(TABLE)
    .filter((item) => item.pk === list && String(item.sk).startsWith('B#'))
    .flatMap((block) => (block.e === '' || block.e === undefined ? [] : String(block.e).split('\n')));
}

/** The ranks `name` holds in a posting list. */
export function ranksIn(fake: FakeDynamo, list: string, name: string): string[] {
  return listEntries(fake, list).filter((rank) => nameFromRank(rank) === name);
}

export function postingListsOf(name: string): string[] {
  return [ALL_LIST, ...trigrams(name).map(postingPk)];
}

export function total(fake: FakeDynamo): number {
  const meta = fake.item(TABLE, { pk: 'META', sk: 'TOTAL' });
  return typeof meta?.n === 'number' ? meta.n : 0;
}

export function latestRowCount(fake: FakeDynamo): number {
  return fake.scan(TABLE).filter((item) => item.sk === 'LATEST').length;
}

/** Posting blocks are sorted, free of duplicates, counted, and hold only ranks of their range. */
export function blockProblems(fake: FakeDynamo): string[] {
  const problems: string[] = [];
  const byList = new Map<string, Item[]>();
  for (const item of fake.scan(TABLE)) {
    if (!String(item.sk).startsWith('B#')) continue;
    const blocks = byList.get(String(item.pk)) ?? [];
    blocks.push(item);
    byList.set(String(item.pk), blocks);
  }
  for (const [list, blocks] of byList) {
    if (blocks[0]!.sk !== 'B#') problems.push(`${list}: no first block`);
    blocks.forEach((block, i) => {
      const entries = block.e === '' ? [] : String(block.e).split('\n');
      if (block.c !== entries.length) problems.push(`${list}/${String(block.sk)}: c=${String(block.c)}`);
      const sorted = [...new Set(entries)].sort();
      if (sorted.join('\n') !== entries.join('\n'))
        problems.push(`${list}/${String(block.sk)}: not sorted/unique`);
      const from = String(block.sk).slice(2);
      const next = blocks[i + 1] ? String(blocks[i + 1]!.sk).slice(2) : undefined;
      for (const entry of entries) {
        if (entry < from || (next !== undefined && entry >= next)) {
          problems.push(`${list}/${String(block.sk)}: ${entry} out of range`);
        }
      }
    });
  }
  return problems;
}

/**
 * A package at rest: its latest row has no markers, every posting list of the name holds
 * exactly the row's rank, the total counts every latest row, and blocks are well formed.
 */
export function settledProblems(fake: FakeDynamo, name: string): string[] {
  const problems = blockProblems(fake);
  const latest = latestRow(fake, name);
  if (!latest) return [...problems, `${name}: no latest row`];
  if (latest.pending !== undefined) problems.push(`${name}: pending=${String(latest.pending)}`);
  if (latest.cleanup !== undefined) problems.push(`${name}: cleanup=${String(latest.cleanup)}`);
  for (const list of postingListsOf(name)) {
    const ranks = ranksIn(fake, list, name);
    if (ranks.length !== 1 || ranks[0] !== latest.lsk) {
      problems.push(`${list}: ranks [${ranks.join(', ')}], latest row lsk ${String(latest.lsk)}`);
    }
  }
  if (total(fake) !== latestRowCount(fake))
    problems.push(`total ${total(fake)} ≠ ${latestRowCount(fake)} latest rows`);
  return problems;
}
