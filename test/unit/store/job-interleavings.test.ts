/**
 * The job store's de-duplication (lambdas/shared/store/job-store.ts: one queued or running
 * registry scan per name@version, held by an `ACTIVE#<name>@<version>` marker) driven step by
 * step: two requests for the same name@version in every interleaving of their DynamoDB calls,
 * against a fresh table, an expired marker, a marker left by a finished job, a job whose sender
 * died before sending its message, and a scan finishing meanwhile; and a request crashing after
 * each of its calls, including between creating the job and sending its message.
 * Same machinery as write-interleavings.test.ts (FakeDynamo behind aws-sdk-client-mock).
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { JobStore, UNSENT_GRACE_SECONDS, type StoredJob } from '../../../lambdas/shared/store/job-store';
import { JOBS_TABLE } from '../../../lambdas/shared/store/tables';
import { enqueueOrFail, messageFor } from '../../../lambdas/shared/queue/enqueue';
import type { ScanMessage, ScanQueue } from '../../../lambdas/shared/queue/scan-queue';
import { packageRecord } from '../../support/records';
import { FakeDynamo, type Item } from './support/fake-dynamo';
import {
  exploreSchedules,
  reportSchedules,
  runSchedule,
  type Actor,
  type RunResult,
} from './support/interleave';

const TABLE = 'jobs-unit';
/**
 * Failed conditions are the normal path here (a request meets the marker of another), not only
 * contention: the bound on them is higher than for the package writes (and high enough that raising it
 * adds almost no schedule: 92 and 564 in the two largest cases, 2,394 with crashes).
 */
const MAX_CONFLICTS = 8;
const NOW = new Date('2026-11-20T12:00:00.000Z');
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);
const ID = {
  A: '00000000-0000-4000-8000-00000000000a',
  B: '00000000-0000-4000-8000-00000000000b',
  C: '00000000-0000-4000-8000-00000000000c',
};
const OLD = '00000000-0000-4000-8000-000000000001';
const SPEC = { source: 'registry', name: 'left-pad', version: '1.3.0', registry: 'npm' } as const;
const MARKER = { pk: `ACTIVE#${SPEC.name}@${SPEC.version}` };

const jobsFake = () => new FakeDynamo().addTable(TABLE, JOBS_TABLE);
const jobItem = (id: string, fields: Item): Item => ({
  pk: `JOB#${id}`,
  job_id: id,
  status: 'queued',
  ...SPEC,
  created_at: NOW.toISOString(),
  updated_at: NOW.toISOString(),
  expires_at: epoch(NOW) + 30 * 86_400,
  active_key: MARKER.pk,
  ...fields,
});

/** Messages "sent" by the requests of one run. */
let sent: ScanMessage[] = [];
const queue = { send: async (message: ScanMessage) => void sent.push(message) } as unknown as ScanQueue;

/** What POST /v1/scan does: create or join, then send the message of a job it created. */
const request = (actor: keyof typeof ID, opts: { crashAfter?: number; at?: Date } = {}): Actor => ({
  name: actor,
  run: async (doc: DynamoDBDocumentClient) => {
    const jobs = new JobStore(doc, TABLE, () => opts.at ?? NOW);
    const { job, created } = await jobs.create(SPEC, ID[actor]);
    if (created) await enqueueOrFail(jobs, queue, messageFor(job));
    return { job, created };
  },
  ...(opts.crashAfter !== undefined ? { crashAfter: opts.crashAfter } : {}),
});

/** The scanner finishing job `id`: marked running, then completed. */
const scanner = (id: string): Actor => ({
  name: 'scanner',
  run: async (doc: DynamoDBDocumentClient) => {
    const jobs = new JobStore(doc, TABLE, () => NOW);
    if (await jobs.markRunning(id))
      await jobs.complete(id, packageRecord({ name: SPEC.name, version: SPEC.version }));
  },
});

interface Answer {
  readonly job: StoredJob;
  readonly created: boolean;
}

const answerOf = (run: RunResult, actor: string) => run.outcomes[actor]?.value as Answer | undefined;
const jobsIn = (fake: FakeDynamo) => fake.scan(TABLE).filter((item) => String(item.pk).startsWith('JOB#'));

/**
 * What de-duplication promises once the requests are done: every request that answered got a
 * job that was queued or running when it looked, at most one job was created, and the marker,
 * if any, names a queued or running job whose message was sent.
 */
function dedupProblems(fake: FakeDynamo, run: RunResult, requests: readonly string[]): string[] {
  const problems: string[] = [];
  for (const [name, outcome] of Object.entries(run.outcomes)) {
    if (outcome.status === 'failed') problems.push(`${name} failed: ${String(outcome.error)}`);
  }
  const answers = requests.map((r) => answerOf(run, r)).filter((a): a is Answer => a !== undefined);
  const created = answers.filter((a) => a.created);
  if (created.length > 1) problems.push(`${created.length} jobs created`);
  for (const answer of answers) {
    if (answer.job.status !== 'queued' && answer.job.status !== 'running') {
      problems.push(`answered with a ${answer.job.status} job`);
    }
  }
  const ids = new Set(answers.map((a) => a.job.job_id));
  if (ids.size > 1) problems.push(`requests answered with different jobs: ${[...ids].join(', ')}`);
  const marker = fake.item(TABLE, MARKER);
  if (marker) {
    const job = fake.item(TABLE, { pk: `JOB#${String(marker.job_id)}` });
    if (job?.status !== 'queued' && job?.status !== 'running') {
      problems.push(`marker names a ${String(job?.status)} job`);
    } else if (marker.expires_at !== undefined && Number(marker.expires_at) < epoch(NOW)) {
      problems.push('marker already expired');
    }
  }
  const newJobs = jobsIn(fake).filter((j) => j.job_id !== OLD);
  if (newJobs.length > 1) problems.push(`${newJobs.length} job items`);
  for (const job of newJobs) {
    if (!sent.some((m) => m.job_id === job.job_id) && run.outcomes.A?.status !== 'crashed') {
      problems.push(`job ${String(job.job_id)} never sent`);
    }
  }
  return problems;
}

class Failures {
  private readonly seen = new Map<string, string[]>();
  add(problems: readonly string[], run: RunResult): void {
    if (problems.length > 0 && !this.seen.has(problems.join('; ')))
      this.seen.set(problems.join('; '), run.steps);
  }
  list(): string[] {
    return [...this.seen].slice(0, 3).map(([p, steps]) => `${p}\n  ${steps.join('\n  ')}`);
  }
}

beforeAll(() => {
  jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
});
afterAll(() => jest.useRealTimers());

interface Case {
  readonly title: string;
  readonly before: readonly Item[];
  readonly actors: () => Actor[];
  /** Extra checks. */
  readonly also?: (fake: FakeDynamo, run: RunResult) => string[];
  /** Schedules explored at least, without and with crashes (guards against the exploration collapsing). */
  readonly atLeast: number;
  readonly crashSchedules: number;
}

const CASES: readonly Case[] = [
  {
    title: 'no marker yet: one job, the other request joins it',
    before: [],
    actors: () => [request('A'), request('B')],
    also: (fake, run) => {
      const a = answerOf(run, 'A')!;
      const b = answerOf(run, 'B')!;
      return a.created === b.created
        ? ['both or neither created']
        : jobsIn(fake).length === 1
          ? []
          : ['job count'];
    },
    atLeast: 4,
    crashSchedules: 10,
  },
  {
    title: 'an expired marker (its job long gone): taken over once',
    before: [{ ...MARKER, job_id: OLD, expires_at: epoch(NOW) - 1 }],
    actors: () => [request('A'), request('B')],
    also: (fake, run) =>
      answerOf(run, 'A')!.created !== answerOf(run, 'B')!.created ? [] : ['both or neither created'],
    atLeast: 4,
    crashSchedules: 10,
  },
  {
    title: 'a marker left by a completed job: cleared, one new job',
    before: [
      { ...MARKER, job_id: OLD, expires_at: epoch(NOW) + 600 },
      jobItem(OLD, { status: 'completed', sent: true }),
    ],
    actors: () => [request('A'), request('B')],
    also: (fake) =>
      fake.item(TABLE, { pk: `JOB#${OLD}` })?.status === 'completed' ? [] : ['the completed job changed'],
    atLeast: 80,
    crashSchedules: 300,
  },
  {
    title:
      'a job whose sender died before sending its message, past the grace period: failed and replaced once',
    before: [
      { ...MARKER, job_id: OLD, expires_at: epoch(NOW) + 600 },
      jobItem(OLD, { created_at: later(-UNSENT_GRACE_SECONDS - 1).toISOString() }),
    ],
    actors: () => [request('A'), request('B')],
    also: (fake) => {
      const old = fake.item(TABLE, { pk: `JOB#${OLD}` });
      return old?.status === 'failed' && old.error === 'The scan was never queued'
        ? []
        : [`old job ${String(old?.status)}`];
    },
    atLeast: 450,
    crashSchedules: 1800,
  },
  {
    title:
      'a job whose message is not sent yet, within the grace period: joined (its sender is still working)',
    before: [{ ...MARKER, job_id: OLD, expires_at: epoch(NOW) + 600 }, jobItem(OLD, {})],
    actors: () => [request('A'), request('B')],
    also: (_fake, run) =>
      answerOf(run, 'A')!.job.job_id === OLD && answerOf(run, 'B')!.job.job_id === OLD
        ? []
        : ['did not join'],
    atLeast: 4,
    crashSchedules: 0,
  },
  {
    title: 'a request while the running scan of that version completes',
    before: [
      { ...MARKER, job_id: OLD, expires_at: epoch(NOW) + 600 },
      jobItem(OLD, { status: 'running', sent: true }),
    ],
    actors: () => [request('A'), scanner(OLD)],
    also: (fake, run) => {
      const answer = answerOf(run, 'A')!;
      const problems: string[] = [];
      if (fake.item(TABLE, { pk: `JOB#${OLD}` })?.status !== 'completed')
        problems.push('the scan did not complete');
      // Joined the running scan (its result will answer), or started a new one once it finished.
      if (!answer.created && answer.job.job_id !== OLD) problems.push('joined an unknown job');
      if (answer.created && fake.item(TABLE, MARKER)?.job_id !== ID.A)
        problems.push('new job without its marker');
      return problems;
    },
    atLeast: 7,
    crashSchedules: 0,
  },
];

describe.each(CASES.map((c) => [c.title, c] as const))('two requests for one name@version: %s', (_t, c) => {
  it('in every interleaving', async () => {
    const initial = jobsFake();
    initial.seed(TABLE, c.before);
    const failures = new Failures();
    const count = await exploreSchedules(async (choices) => {
      const fake = initial.copy();
      sent = [];
      const run = await runSchedule(fake, c.actors(), choices, { maxConflicts: MAX_CONFLICTS });
      if (!run.redundant) {
        failures.add([...dedupProblems(fake, run, ['A', 'B']), ...(c.also?.(fake, run) ?? [])], run);
      }
      return run;
    });
    reportSchedules(`two requests: ${c.title}`, { explored: count });
    expect(failures.list()).toEqual([]);
    expect(count).toBeGreaterThanOrEqual(c.atLeast);
  }, 60_000);
});

describe('a request crashing after each of its calls', () => {
  const STARTS = CASES.slice(0, 4);

  it.each(STARTS.map((c) => [c.title, c] as const))(
    '%s — with another request in every interleaving, then a third request past the grace period',
    async (_t, c) => {
      const initial = jobsFake();
      initial.seed(TABLE, c.before);
      const failures = new Failures();
      let schedules = 0;
      for (let k = 1; ; k++) {
        let crashes = 0;
        schedules += await exploreSchedules(async (choices) => {
          const fake = initial.copy();
          sent = [];
          const run = await runSchedule(fake, [request('A', { crashAfter: k }), request('B')], choices, {
            maxConflicts: MAX_CONFLICTS,
          });
          if (run.redundant || run.outcomes.A!.status !== 'crashed') return run;
          crashes++;
          const problems = dedupProblems(fake, run, ['B']);
          // B may have joined A's job whose message A never sent: nothing will run it. Past the
          // grace period a new request notices (isLost), fails it and starts a job that runs.
          const third = await runSchedule(fake, [request('C', { at: later(UNSENT_GRACE_SECONDS + 1) })]);
          const answer = answerOf(third, 'C');
          if (!answer)
            problems.push(`third request ${third.outcomes.C!.status}: ${String(third.outcomes.C!.error)}`);
          else {
            const job = fake.item(TABLE, { pk: `JOB#${answer.job.job_id}` });
            const runnable = sent.some((m) => m.job_id === answer.job.job_id) && job?.sent === true;
            if (!runnable) problems.push(`third request answered with job ${answer.job.job_id}, never sent`);
            if (fake.item(TABLE, MARKER)?.job_id !== answer.job.job_id)
              problems.push('marker does not name it');
          }
          failures.add(problems, run);
          return run;
        });
        if (crashes === 0) break;
      }
      reportSchedules(`crash of a request: ${c.title}`, { explored: schedules });
      expect(failures.list()).toEqual([]);
      expect(schedules).toBeGreaterThanOrEqual(c.crashSchedules);
    },
    60_000,
  );

  it('between creating the job and sending its message: the job waits unsent, is joined within the grace period and replaced after it', async () => {
    const fake = jobsFake();
    sent = [];
    const crashed = await runSchedule(fake, [request('A', { crashAfter: 1 })]);
    expect(crashed.steps).toEqual([
      expect.stringMatching(/^A TransactWrite Put ACTIVE#left-pad@1\.3\.0 \+ Put JOB#/),
    ]);
    expect(fake.item(TABLE, { pk: `JOB#${ID.A}` })).toMatchObject({ status: 'queued' });
    expect(fake.item(TABLE, { pk: `JOB#${ID.A}` })?.sent).toBeUndefined();
    expect(sent).toEqual([]);

    const within = await runSchedule(fake, [request('B', { at: later(UNSENT_GRACE_SECONDS - 1) })]);
    expect(answerOf(within, 'B')).toMatchObject({ created: false, job: { job_id: ID.A } });

    const after = await runSchedule(fake, [request('C', { at: later(UNSENT_GRACE_SECONDS + 1) })]);
    expect(answerOf(after, 'C')).toMatchObject({ created: true, job: { job_id: ID.C } });
    expect(fake.item(TABLE, { pk: `JOB#${ID.A}` })).toMatchObject({
      status: 'failed',
      error: 'The scan was never queued',
    });
    expect(sent.map((m) => m.job_id)).toEqual([ID.C]);
    expect(fake.item(TABLE, { pk: `JOB#${ID.C}` })).toMatchObject({ status: 'queued', sent: true });
  });
});
