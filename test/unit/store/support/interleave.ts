/**
 * Runs a few simulated processes ("actors") against one FakeDynamo, one DynamoDB call at a time,
 * in an order the test chooses, and enumerates every such order.
 *
 * Each actor has its own mocked document client. A call it sends is held until the scheduler
 * picks it; the scheduler waits until every actor is either holding a call, finished or dead
 * (microtasks drained, fake timers such as retry back-offs fired), then applies one held call to
 * the fake and hands back its result. Where more than one actor holds a call, that is a decision;
 * the sequence of decisions is a schedule, and `exploreSchedules` walks all of them depth-first
 * (stateless model checking: each schedule is a fresh run replaying a prefix of choices). Calls
 * an actor sends in parallel (Promise.all) are taken in the order it sent them: the interleaving
 * explored is between actors, which is where the write protocol's conditions matter.
 *
 * A crash is an actor dying right after its n-th call was applied: the result never reaches it,
 * calls it has in flight are dropped, and it sends nothing more.
 *
 * The test must use fake timers that leave setImmediate real:
 * `jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] })`.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { FakeDynamo, Item } from './fake-dynamo';
import { MockedClient } from './mocked-client';

export interface Actor {
  readonly name: string;
  /** The actor's work, with its own document client. */
  readonly run: (doc: DynamoDBDocumentClient) => Promise<unknown>;
  /** The actor dies right after its n-th call (1-based) is applied. */
  readonly crashAfter?: number;
}

export type ActorStatus = 'running' | 'done' | 'failed' | 'crashed';

export interface ActorOutcome {
  readonly status: ActorStatus;
  readonly calls: number;
  readonly value?: unknown;
  readonly error?: unknown;
}

export interface RunResult {
  /** Every call applied, in order: `<actor> <command> <key>` (✗ when it failed). */
  readonly steps: string[];
  /** The decisions taken: how many actors held a call, and which one was picked. */
  readonly decisions: Array<{ readonly options: number; readonly chosen: number }>;
  readonly outcomes: Record<string, ActorOutcome>;
  /** Cut short: equivalent to a schedule already explored (see `runSchedule`). */
  readonly redundant: boolean;
}

interface Held {
  readonly command: string;
  readonly input: Item;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

interface ActorState {
  readonly actor: Actor;
  readonly held: Held[];
  calls: number;
  status: ActorStatus;
  value?: unknown;
  error?: unknown;
}

/** Clients are built once (mocking a client is not free) and rewired for every run. */
const pool: MockedClient[] = [];

function client(i: number): MockedClient {
  while (pool.length <= i) pool.push(new MockedClient());
  return pool[i]!;
}

/** Lets every actor run until it holds a call, finishes or waits on nothing the test controls. */
async function quiesce(): Promise<void> {
  for (let round = 0; round < 1000; round++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (jest.getTimerCount() === 0) return;
    jest.runOnlyPendingTimers();
  }
  throw new Error('quiesce: timers keep being scheduled');
}

export interface ScheduleOptions {
  /**
   * Failed conditional writes (and cancelled transactions) after which the actors run without
   * preemption: retry loops can be driven into conflict forever by an adversarial scheduler, and
   * each further round repeats a pattern already explored. @default 2
   */
  readonly maxConflicts?: number;
}

/**
 * Runs the actors once, following `choices` where given and taking the first option after.
 *
 * Sleep sets (Godefroid) keep one schedule per class of equivalent ones: two calls are
 * independent when neither writes what the other reads or writes (see `footprint`), and
 * swapping adjacent independent calls changes nothing. After exploring actor X's call at a
 * decision, the other branches keep X asleep until a call dependent on X's runs; a run in
 * which only sleeping actors are left is equivalent to one already explored and is cut short
 * (`redundant`).
 */
export async function runSchedule(
  fake: FakeDynamo,
  actors: readonly Actor[],
  choices: readonly number[] = [],
  options: ScheduleOptions = {},
): Promise<RunResult> {
  const maxConflicts = options.maxConflicts ?? 2;
  const steps: string[] = [];
  const decisions: Array<{ options: number; chosen: number }> = [];
  const states: ActorState[] = actors.map((actor) => ({ actor, held: [], calls: 0, status: 'running' }));
  let sleeping = new Set<ActorState>();
  let conflicts = 0;
  let redundant = false;
  let last: ActorState | undefined;
  states.forEach((state, i) => {
    const mocked = client(i);
    mocked.stub.resetHistory();
    mocked.serve = (command, input) =>
      state.status === 'crashed'
        ? new Promise<never>(() => undefined)
        : new Promise((resolve, reject) => state.held.push({ command, input, resolve, reject }));
    void state.actor.run(mocked.doc).then(
      (value) => {
        if (state.status !== 'running') return;
        state.status = 'done';
        state.value = value;
      },
      (error: unknown) => {
        if (state.status !== 'running') return;
        state.status = 'failed';
        state.error = error;
      },
    );
  });

  for (;;) {
    await quiesce();
    const ready = states.filter((s) => s.status === 'running' && s.held.length > 0);
    if (ready.length === 0) {
      const stuck = states.find((s) => s.status === 'running');
      if (stuck) throw new Error(`runSchedule: ${stuck.actor.name} waits on something other than a call`);
      break;
    }
    const awake = ready.filter((s) => !sleeping.has(s));
    if (awake.length === 0) {
      redundant = true;
      break;
    }
    // Past the conflict bound the actor that ran last goes on while it can (no preemption).
    let pick = Math.max(
      0,
      awake.findIndex((s) => s === last),
    );
    if (awake.length > 1 && conflicts < maxConflicts) {
      pick = choices[decisions.length] ?? 0;
      if (pick >= awake.length) throw new Error('runSchedule: the replayed schedule diverged');
      decisions.push({ options: awake.length, chosen: pick });
    }
    const state = awake[pick]!;
    last = state;
    const call = state.held[0]!;
    const touched = footprint(call.command, call.input);
    // Options explored before this one at this decision sleep, with those already asleep,
    // as long as they are independent of the call about to run.
    const next = new Set<ActorState>();
    for (const s of [...sleeping, ...awake.slice(0, pick)]) {
      if (!dependent(footprint(s.held[0]!.command, s.held[0]!.input), touched)) next.add(s);
    }
    sleeping = next;
    state.held.shift();
    state.calls++;
    let result: { ok: true; value: unknown } | { ok: false; error: unknown };
    try {
      result = { ok: true, value: fake.handle(call.command, call.input) };
    } catch (error) {
      result = { ok: false, error };
      const name = (error as { name?: string }).name;
      if (name === 'ConditionalCheckFailedException' || name === 'TransactionCanceledException') conflicts++;
    }
    steps.push(`${state.actor.name} ${describe(call.command, call.input)}${result.ok ? '' : ' ✗'}`);
    if (state.actor.crashAfter !== undefined && state.calls >= state.actor.crashAfter) {
      state.status = 'crashed';
      state.held.length = 0;
      continue;
    }
    if (result.ok) call.resolve(result.value);
    else call.reject(result.error);
  }

  // Nothing of this run may reach the next one through the shared clients.
  states.forEach((_, i) => {
    client(i).serve = () => new Promise<never>(() => undefined);
  });
  const outcomes: Record<string, ActorOutcome> = {};
  for (const s of states) {
    outcomes[s.actor.name] = {
      status: s.status,
      calls: s.calls,
      ...(s.value !== undefined ? { value: s.value } : {}),
      ...(s.error !== undefined ? { error: s.error } : {}),
    };
  }
  return { steps, decisions, outcomes, redundant };
}

/**
 * Runs `once` for every schedule (depth-first over the decisions) and returns how many complete
 * (non-redundant) schedules there were. `once` builds a fresh state, calls `runSchedule` with the
 * choices it is given, checks what it must (unless the run is `redundant`) and returns the run.
 */
export async function exploreSchedules(
  once: (choices: readonly number[]) => Promise<RunResult>,
  max = 100_000,
): Promise<number> {
  // Every mocked call records a stack (sinon's call history) and every conflict builds an SDK
  // exception: with hundreds of thousands of them, capturing stacks is most of the time.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return await explore(once, max);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

async function explore(
  once: (choices: readonly number[]) => Promise<RunResult>,
  max: number,
): Promise<number> {
  let prefix: number[] = [];
  let complete = 0;
  for (let runs = 1; ; runs++) {
    const { decisions, redundant } = await once(prefix);
    if (!redundant) complete++;
    let i = decisions.length - 1;
    while (i >= 0 && decisions[i]!.chosen + 1 >= decisions[i]!.options) i--;
    if (i < 0) return complete;
    if (runs >= max) throw new Error(`exploreSchedules: more than ${max} runs`);
    prefix = [...decisions.slice(0, i).map((d) => d.chosen), decisions[i]!.chosen + 1];
  }
}

/** What a call reads and writes: items, and partitions or indexes read as a whole. */
interface Footprint {
  readonly readItems: readonly string[];
  readonly writeItems: readonly string[];
  /** Partitions and indexes read by queries. */
  readonly readRanges: readonly string[];
  /** Partitions and indexes whose content the writes change. */
  readonly writeRanges: readonly string[];
}

function footprint(command: string, input: Item): Footprint {
  const readItems: string[] = [];
  const writeItems: string[] = [];
  const readRanges: string[] = [];
  const writeRanges: string[] = [];
  const itemId = (table: unknown, key: Item) =>
    `${String(table)}\u0000${String(key.pk)}\u0000${String(key.sk)}`;
  const write = (table: unknown, key: Item) => {
    writeItems.push(itemId(table, key));
    writeRanges.push(`${String(table)}\u0000${String(key.pk)}`);
    // Any write may change what a secondary index holds.
    writeRanges.push(`${String(table)}\u0001index`);
  };
  switch (command) {
    case 'Get':
      readItems.push(itemId(input.TableName, input.Key as Item));
      break;
    case 'Put':
      write(input.TableName, input.Item as Item);
      break;
    case 'Update':
    case 'Delete':
      write(input.TableName, input.Key as Item);
      break;
    case 'Query': {
      if (input.IndexName !== undefined) {
        readRanges.push(`${String(input.TableName)}\u0001index`);
      } else {
        // The partition is one of the values; taking them all is conservative.
        for (const value of Object.values((input.ExpressionAttributeValues ?? {}) as Item)) {
          readRanges.push(`${String(input.TableName)}\u0000${String(value)}`);
        }
      }
      break;
    }
    case 'BatchGet':
      for (const [table, request] of Object.entries(input.RequestItems as Record<string, Item>)) {
        for (const key of request.Keys as Item[]) readItems.push(itemId(table, key));
      }
      break;
    case 'BatchWrite':
      for (const [table, writes] of Object.entries(input.RequestItems as Record<string, Item[]>)) {
        for (const w of writes) {
          write(table, ((w.PutRequest as Item | undefined)?.Item ?? (w.DeleteRequest as Item).Key) as Item);
        }
      }
      break;
    case 'TransactWrite':
      for (const entry of input.TransactItems as Array<Record<string, Item>>) {
        const body = Object.values(entry)[0]!;
        write(body.TableName, (body.Key ?? body.Item) as Item);
      }
      break;
    default:
      // Unknown: dependent on everything.
      readRanges.push('*');
      writeRanges.push('*');
  }
  return { readItems, writeItems, readRanges, writeRanges };
}

function dependent(a: Footprint, b: Footprint): boolean {
  const meets = (x: readonly string[], y: readonly string[]) =>
    x.some((v) => y.includes(v)) || (x.includes('*') && y.length > 0) || (y.includes('*') && x.length > 0);
  return (
    meets(a.writeItems, [...b.readItems, ...b.writeItems]) ||
    meets(b.writeItems, a.readItems) ||
    meets(a.writeRanges, b.readRanges) ||
    meets(b.writeRanges, a.readRanges)
  );
}

/** A short label of a call, for failure messages. */
export function describe(command: string, input: Item): string {
  const key = (k: unknown) => {
    const o = k as Item | undefined;
    return o ? [o.pk, o.sk].filter((x) => x !== undefined).join('/') : '?';
  };
  switch (command) {
    case 'Get':
    case 'Delete':
      return `${command} ${key(input.Key)}`;
    case 'Update':
      return `Update ${key(input.Key)} ${String(input.UpdateExpression)}`;
    case 'Put':
      return `Put ${key(input.Item)}${input.Item && (input.Item as Item).e !== undefined ? ` [${String((input.Item as Item).e).replace(/\n/g, ',')}]` : ''}`;
    case 'Query':
      return `Query ${JSON.stringify(input.ExpressionAttributeValues)}`;
    case 'TransactWrite':
      return `TransactWrite ${(input.TransactItems as Array<Record<string, Item>>)
        .map((entry) => {
          const [kind, body] = Object.entries(entry)[0]!;
          return `${kind} ${key(body.Key ?? body.Item)}`;
        })
        .join(' + ')}`;
    default:
      return command;
  }
}

/** Prints how many schedules a test explored, when STORE_SCHEDULES is set (for docs/storage.md). */
export function reportSchedules(what: string, figures: Record<string, number>): void {
  if (!process.env.STORE_SCHEDULES) return;
  const text = Object.entries(figures)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  process.stdout.write(`schedules | ${what} | ${text}\n`);
}
