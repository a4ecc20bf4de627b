/**
 * The package write protocol (lambdas/shared/store/package-writes.ts, docs/storage.md "Write
 * protocol") driven step by step: two writers of one package through every interleaving of
 * their DynamoDB calls, and a crash after each step, checking the latest row, the posting lists
 * (`ALL` and the trigram lists), `total` and what readers see.
 *
 * The table is a FakeDynamo (./support/fake-dynamo.ts) behind aws-sdk-client-mock: mocking
 * each call one by one is unworkable when the calls a writer makes depend on what it read and
 * the test enumerates thousands of orders. Schedules are enumerated by ./support/interleave.ts:
 * one per class of equivalent interleavings (calls on different items commute), all of them
 * up to two failed conditional writes, after which the actors go on without preemption.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { rankOf } from '../../../lambdas/shared/store/keys';
import { PackageStore } from '../../../lambdas/shared/store/package-store';
import type { PackageResponse } from '../../../src/contract/schemas';
import { packageRecord } from '../../support/records';
import type { FakeDynamo } from './support/fake-dynamo';
import {
  exploreSchedules,
  reportSchedules,
  runSchedule,
  type Actor,
  type RunResult,
} from './support/interleave';
import { MockedClient } from './support/mocked-client';
import {
  TABLE,
  latestRow,
  latestRowCount,
  listEntries,
  packagesFake,
  postingListsOf,
  ranksIn,
  settledProblems,
  total,
} from './support/package-state';

const T0 = '2026-11-01T00:00:00.000Z';
const T1 = '2026-11-02T00:00:00.000Z';

const store = (doc: DynamoDBDocumentClient) => new PackageStore(doc, TABLE);
const scan = (name: string, version: string, downloads: number, scannedAt = T1): PackageResponse =>
  packageRecord({ name, version, weekly_downloads: downloads, scanned_at: scannedAt });
const putScan = (actor: string, result: PackageResponse, crashAfter?: number): Actor => ({
  name: actor,
  run: (doc) => store(doc).putScan(result),
  ...(crashAfter !== undefined ? { crashAfter } : {}),
});
const refresh = (actor: string, result: PackageResponse, crashAfter?: number): Actor => ({
  name: actor,
  run: (doc) => store(doc).refreshResult(result),
  ...(crashAfter !== undefined ? { crashAfter } : {}),
});

/** A table after the given results were stored one after another. */
async function tableWith(results: readonly PackageResponse[]): Promise<FakeDynamo> {
  const fake = packagesFake();
  for (const result of results) {
    const run = await runSchedule(fake, [putScan('setup', result)]);
    if (run.outcomes.setup!.status !== 'done') throw new Error('setup write failed');
  }
  return fake;
}

/** Reads through the real store against the fake (one client, rewired for each check). */
const reader = new MockedClient();

/** What readers see must hold whatever the writers did: one row per name, the exact total. */
async function readerProblems(fake: FakeDynamo, name: string): Promise<string[]> {
  reader.stub.resetHistory();
  reader.serve = (command, input) => fake.handle(command, input);
  const s = store(reader.doc);
  const problems: string[] = [];
  const latest = latestRow(fake, name);
  const first = await s.list(10, 0);
  const listed = first.value.packages.filter((p) => p.name === name);
  if (listed.length !== (latest ? 1 : 0)) problems.push(`list shows ${name} ${listed.length} times`);
  if (listed[0] && JSON.stringify(listed[0]) !== JSON.stringify(latest?.item))
    problems.push('list row ≠ latest');
  if (first.value.total !== latestRowCount(fake)) problems.push(`list total ${first.value.total}`);
  const found = await s.search(name, 10, 0);
  const hits = found.value.packages.filter((p) => p.name === name);
  if (hits.length > 1 || found.value.total > 1) problems.push(`search shows ${name} ${hits.length} times`);
  if (hits[0] && JSON.stringify(hits[0]) !== JSON.stringify(latest?.item))
    problems.push('search row ≠ latest');
  const got = (await s.getLatest(name)).value;
  if (got?.version !== latest?.version) problems.push('getLatest ≠ latest row');
  return problems;
}

interface Expected {
  readonly version: string;
  readonly downloads: number;
  readonly scannedAt?: string;
}

/** Everything that must hold once every writer has finished. */
async function finalProblems(fake: FakeDynamo, name: string, expected: Expected): Promise<string[]> {
  const problems = [...settledProblems(fake, name), ...(await readerProblems(fake, name))];
  const latest = latestRow(fake, name);
  if (latest?.version !== expected.version) problems.push(`latest version ${String(latest?.version)}`);
  if (latest?.lsk !== rankOf(expected.downloads, name)) problems.push(`latest rank ${String(latest?.lsk)}`);
  if (expected.scannedAt !== undefined && latest?.scanned_at !== expected.scannedAt) {
    problems.push(`latest scanned_at ${String(latest?.scanned_at)}`);
  }
  if (total(fake) !== 1) problems.push(`total ${total(fake)}`);
  return problems;
}

/** Failures keyed by their problems, each with the first schedule that showed them. */
class Failures {
  private readonly seen = new Map<string, string[]>();

  add(problems: readonly string[], run: RunResult): void {
    if (problems.length === 0) return;
    const key = problems.join('; ');
    if (!this.seen.has(key)) this.seen.set(key, run.steps);
  }

  /** For `expect(...).toEqual([])`: each distinct failure with its schedule. */
  list(): string[] {
    return [...this.seen].slice(0, 3).map(([problems, steps]) => `${problems}\n  ${steps.join('\n  ')}`);
  }
}

function outcomeProblems(run: RunResult): string[] {
  return Object.entries(run.outcomes)
    .filter(([, o]) => o.status !== 'done' && o.status !== 'crashed')
    .map(([name, o]) => `${name} ${o.status}: ${String(o.error)}`);
}

beforeAll(() => {
  jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
});
afterAll(() => {
  jest.useRealTimers();
  reader.stub.restore();
});

// ------------------------------------------------------------------------------ two writers

interface Scenario {
  readonly title: string;
  readonly name: string;
  readonly before: readonly PackageResponse[];
  readonly a: (crashAfter?: number) => Actor;
  readonly b: (crashAfter?: number) => Actor;
  readonly expected: Expected;
  /** Extra checks of the final state. */
  readonly also?: (fake: FakeDynamo) => string[];
  /**
   * Schedules explored at least (about half of today's count: guards against the exploration
   * silently collapsing, for example every run becoming redundant).
   */
  readonly atLeast: number;
}

const SCENARIOS: readonly Scenario[] = [
  {
    title: 'two first scans of a new package',
    name: 'ab',
    before: [],
    a: (c) => putScan('A', scan('ab', '1.0.0', 10), c),
    b: (c) => putScan('B', scan('ab', '1.1.0', 20), c),
    expected: { version: '1.1.0', downloads: 20 },
    atLeast: 150,
  },
  {
    title: 'two newer versions that both move the package up',
    name: 'ab',
    before: [scan('ab', '1.0.0', 10, T0)],
    a: (c) => putScan('A', scan('ab', '1.1.0', 20), c),
    b: (c) => putScan('B', scan('ab', '1.2.0', 30), c),
    expected: { version: '1.2.0', downloads: 30 },
    atLeast: 700,
  },
  {
    title: 'the second newer version moves the package back to its old rank',
    name: 'ab',
    before: [scan('ab', '1.0.0', 10, T0)],
    a: (c) => putScan('A', scan('ab', '1.1.0', 20), c),
    b: (c) => putScan('B', scan('ab', '1.2.0', 10), c),
    expected: { version: '1.2.0', downloads: 10 },
    atLeast: 900,
  },
  {
    title: 'an older version lands while a newer one is written',
    name: 'ab',
    before: [scan('ab', '1.0.0', 10, T0)],
    a: (c) => putScan('A', scan('ab', '1.2.0', 20), c),
    b: (c) => putScan('B', scan('ab', '1.1.0', 30), c),
    expected: { version: '1.2.0', downloads: 20 },
    atLeast: 700,
  },
  {
    title: 'the same version delivered twice',
    name: 'ab',
    before: [scan('ab', '1.0.0', 10, T0)],
    a: (c) => putScan('A', scan('ab', '1.1.0', 20), c),
    b: (c) => putScan('B', scan('ab', '1.1.0', 20), c),
    expected: { version: '1.1.0', downloads: 20 },
    atLeast: 800,
  },
  {
    title: 'a new version and a downloads refresh of the current one',
    name: 'ab',
    before: [scan('ab', '1.0.0', 10, T0)],
    a: (c) => putScan('A', scan('ab', '1.1.0', 20), c),
    b: (c) => refresh('B', scan('ab', '1.0.0', 30, T0), c),
    expected: { version: '1.1.0', downloads: 20 },
    also: (fake) => {
      const v1 = fake.item(TABLE, { pk: 'P#ab', sk: 'V#1.0.0' });
      return v1 ? [] : ['version item 1.0.0 lost'];
    },
    atLeast: 650,
  },
  {
    title: 'a downloads refresh and a rescan of the same version (the rescan wins)',
    name: 'ab',
    before: [scan('ab', '1.0.0', 10, T0)],
    a: (c) => refresh('A', scan('ab', '1.0.0', 30, T0), c),
    b: (c) => putScan('B', scan('ab', '1.0.0', 15, T1), c),
    expected: { version: '1.0.0', downloads: 15, scannedAt: T1 },
    atLeast: 650,
  },
  {
    title: 'two first scans of a name with a trigram (parallel posting writes, gram counter)',
    name: 'abc',
    before: [],
    a: (c) => putScan('A', scan('abc', '1.0.0', 10), c),
    b: (c) => putScan('B', scan('abc', '1.1.0', 20), c),
    expected: { version: '1.1.0', downloads: 20 },
    also: (fake) => {
      const counter = fake.item(TABLE, { pk: 'GC#abc', sk: 'N' });
      return counter?.n === 1 ? [] : [`gram counter ${String(counter?.n)}`];
    },
    atLeast: 700,
  },
];

describe.each(SCENARIOS.map((s) => [s.title, s] as const))('two writers: %s', (_title, scenario) => {
  it('every interleaving ends settled, with the right latest row, postings and total', async () => {
    const initial = await tableWith(scenario.before);
    const failures = new Failures();
    const count = await exploreSchedules(async (choices) => {
      const fake = initial.copy();
      const run = await runSchedule(fake, [scenario.a(), scenario.b()], choices);
      if (!run.redundant) {
        failures.add(
          [
            ...outcomeProblems(run),
            ...(await finalProblems(fake, scenario.name, scenario.expected)),
            ...(scenario.also?.(fake) ?? []),
          ],
          run,
        );
      }
      return run;
    });
    reportSchedules(`two writers: ${scenario.title}`, { explored: count });
    expect(failures.list()).toEqual([]);
    expect(count).toBeGreaterThanOrEqual(scenario.atLeast);
  }, 120_000);
});

// ------------------------------------------------------------------------------ crashes

/** Whether `actor` had committed a latest row that the other actor replaced before it crashed. */
function overtakenBeforeCrash(run: RunResult, actor: string): boolean {
  const commit = (step: string) => /(TransactWrite Put P#\S+\/LATEST|Update P#\S+\/LATEST SET)/.test(step);
  const ok = (step: string) => !step.endsWith('✗');
  const mine = run.steps.findIndex((s) => s.startsWith(`${actor} `) && commit(s) && ok(s));
  if (mine < 0) return false;
  return run.steps.slice(mine + 1).some((s) => !s.startsWith(`${actor} `) && commit(s) && ok(s));
}

const CRASHING = SCENARIOS.filter((s) =>
  [
    'two newer versions that both move the package up',
    'the second newer version moves the package back to its old rank',
    'a new version and a downloads refresh of the current one',
    'two first scans of a new package',
  ].includes(s.title),
);

describe.each(CRASHING.map((s) => [s.title, s] as const))(
  'a crash with two writers: %s',
  (_title, scenario) => {
    it.each(['A', 'B'])(
      'writer %s crashing after each of its calls, in every interleaving: readers stay right, and its retry settles the package unless it had been overtaken',
      async (crashing) => {
        const initial = await tableWith(scenario.before);
        const failures = new Failures();
        let schedules = 0;
        let unrepaired = 0;
        for (let k = 1; ; k++) {
          let crashes = 0;
          schedules += await exploreSchedules(async (choices) => {
            const fake = initial.copy();
            const actors = [
              scenario.a(crashing === 'A' ? k : undefined),
              scenario.b(crashing === 'B' ? k : undefined),
            ];
            const run = await runSchedule(fake, actors, choices, { maxConflicts: 1 });
            if (run.redundant) return run;
            if (run.outcomes[crashing]!.status !== 'crashed') return run;
            crashes++;
            const problems = [...outcomeProblems(run), ...(await readerProblems(fake, scenario.name))];
            // The scanner retries the crashed message: the same write, run again to its end.
            const retry = await runSchedule(fake, [crashing === 'A' ? scenario.a() : scenario.b()]);
            problems.push(...outcomeProblems(retry), ...(await readerProblems(fake, scenario.name)));
            const final = await finalProblems(fake, scenario.name, scenario.expected);
            if (overtakenBeforeCrash(run, crashing)) {
              // Documented gap (docs/storage.md): a stale or missing posting of the name can remain.
              if (final.length > 0) unrepaired++;
              problems.push(...settledProblems(fake, scenario.name).filter((p) => !p.includes(': ranks [')));
            } else {
              problems.push(...final);
            }
            failures.add(problems, run);
            return run;
          });
          if (crashes === 0) break;
        }
        reportSchedules(`crash of ${crashing}: ${scenario.title}`, { explored: schedules, unrepaired });
        expect(failures.list()).toEqual([]);
        expect(schedules).toBeGreaterThan(250);
        expect(unrepaired).toBeLessThan(schedules / 5);
      },
      300_000,
    );
  },
);

// ------------------------------------------------------------------------------ one writer, step by step

describe('one writer crashing after each step of a move (docs/storage.md, table of crash points)', () => {
  const r0 = rankOf(10, 'ab');
  const r1 = rankOf(20, 'ab');
  /** After a crash following call k: the latest row's version, rev and markers, and the `ALL` list. */
  const expectedAfter: Record<
    number,
    { version: string; rev: number; pending?: string; cleanup?: string; all: string[] }
  > = {
    1: { version: '1.0.0', rev: 1, all: [r0] }, // version item written
    2: { version: '1.0.0', rev: 1, all: [r0] }, // latest row read
    3: { version: '1.1.0', rev: 2, pending: r1, cleanup: r0, all: [r0] }, // latest row committed
    4: { version: '1.1.0', rev: 2, pending: r1, cleanup: r0, all: [r0] }, // block read
    5: { version: '1.1.0', rev: 2, pending: r1, cleanup: r0, all: [r1, r0] }, // new rank added
    6: { version: '1.1.0', rev: 2, pending: r1, cleanup: r0, all: [r1, r0] }, // block read
    7: { version: '1.1.0', rev: 2, pending: r1, cleanup: r0, all: [r1] }, // old rank removed
    8: { version: '1.1.0', rev: 2, pending: r1, cleanup: r0, all: [r1] }, // row re-read
    9: { version: '1.1.0', rev: 2, all: [r1] }, // markers cleared: done
  };

  it.each(Object.keys(expectedAfter).map(Number))('crash after call %d', async (k) => {
    const fake = await tableWith([scan('ab', '1.0.0', 10, T0)]);
    const run = await runSchedule(fake, [putScan('A', scan('ab', '1.1.0', 20), k)]);
    expect(run.outcomes.A!.status).toBe('crashed');
    const latest = latestRow(fake, 'ab')!;
    const want = expectedAfter[k]!;
    expect({
      version: latest.version,
      rev: latest.rev,
      ...(latest.pending !== undefined ? { pending: latest.pending } : {}),
      ...(latest.cleanup !== undefined ? { cleanup: latest.cleanup } : {}),
      all: listEntries(fake, 'ALL'),
    }).toEqual(want);
    expect(await readerProblems(fake, 'ab')).toEqual([]);
    expect(fake.item(TABLE, { pk: 'P#ab', sk: 'V#1.1.0' })).toBeDefined();

    // The next write of the package (here a retry of the same message) completes the work.
    await runSchedule(fake, [putScan('retry', scan('ab', '1.1.0', 20))]);
    expect(settledProblems(fake, 'ab')).toEqual([]);
    expect(latestRow(fake, 'ab')).toMatchObject({ version: '1.1.0', lsk: r1 });
  });

  it('makes nine calls when nothing fails', async () => {
    const fake = await tableWith([scan('ab', '1.0.0', 10, T0)]);
    const run = await runSchedule(fake, [putScan('A', scan('ab', '1.1.0', 20))]);
    expect(run.outcomes.A!.status).toBe('done');
    expect(run.steps).toHaveLength(9);
  });

  it('a first scan that crashes after its commit is listed and counted, and found once settled', async () => {
    for (let k = 1; k <= 7; k++) {
      const fake = packagesFake();
      await runSchedule(fake, [putScan('A', scan('abc', '1.0.0', 10), k)]);
      expect(await readerProblems(fake, 'abc')).toEqual([]);
      expect(total(fake)).toBe(latestRowCount(fake));
      await runSchedule(fake, [putScan('retry', scan('abc', '1.0.0', 10))]);
      expect(settledProblems(fake, 'abc')).toEqual([]);
      for (const list of postingListsOf('abc'))
        expect(ranksIn(fake, list, 'abc')).toEqual([rankOf(10, 'abc')]);
    }
  });
});
