/**
 * A small in-memory DynamoDB for unit tests of the stores, at the level of the document client
 * (plain JavaScript values). It honours what the stores use and refuses what it does not know:
 *
 * - condition expressions: AND, OR, NOT, parentheses, = <> < <= > >=, BETWEEN, IN,
 *   attribute_exists, attribute_not_exists, begins_with, on top-level attributes;
 * - update expressions: SET (value, if_not_exists, + and -), REMOVE, ADD of numbers;
 * - key conditions of Query (partition equality, sort =, <, <=, >, >=, BETWEEN, begins_with),
 *   ScanIndexForward, Limit, ExclusiveStartKey, 1 MB pages, projections, global secondary
 *   indexes (sparse, INCLUDE projection);
 * - Get, Put, Update, Delete (ReturnValues NONE, ALL_OLD, ALL_NEW, UPDATED_NEW), BatchGet,
 *   BatchWrite, TransactWrite (all or nothing, ConditionalCheckFailed cancellation reasons,
 *   one operation per item);
 * - the validation DynamoDB does on requests: unknown or unused placeholders, overlapping
 *   update paths, key attributes in an update, items over 400 KB.
 *
 * Every call is atomic and strongly consistent (DynamoDB Local is too): eventually consistent
 * reads and index lag are not modelled. Errors are the SDK's own exception classes, so the
 * stores' `instanceof` and `name` checks see what they would see from DynamoDB.
 */
import {
  ConditionalCheckFailedException,
  DynamoDBServiceException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import type { TableSpec } from '../../../../lambdas/shared/store/tables';

export type Item = Record<string, unknown>;
type Values = Record<string, unknown>;
type Names = Record<string, string>;

const MAX_ITEM_BYTES = 400 * 1024;
const MAX_PAGE_BYTES = 1024 * 1024;

export class ValidationException extends DynamoDBServiceException {
  constructor(message: string) {
    super({ name: 'ValidationException', $fault: 'client', $metadata: {}, message });
  }
}

function conditionFailed(): ConditionalCheckFailedException {
  return new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
}

// ------------------------------------------------------------------------------ expressions

type Operand = { k: 'path'; name: string } | { k: 'value'; name: string };
type Cond =
  | { k: 'and' | 'or'; a: Cond; b: Cond }
  | { k: 'not'; a: Cond }
  | { k: 'cmp'; op: string; l: Operand; r: Operand }
  | { k: 'between'; v: Operand; lo: Operand; hi: Operand }
  | { k: 'in'; v: Operand; list: Operand[] }
  | { k: 'fn'; name: string; args: Operand[] };
type ValueExpr =
  | Operand
  | { k: 'ifNotExists'; path: Operand; value: Operand }
  | { k: 'arith'; op: '+' | '-'; a: ValueExpr; b: ValueExpr };
interface UpdatePlan {
  set: Array<{ path: string; value: ValueExpr }>;
  remove: string[];
  add: Array<{ path: string; value: Operand }>;
}

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'BETWEEN', 'IN', 'SET', 'REMOVE', 'ADD', 'DELETE']);

/** Tokens and the placeholders they use; names are resolved here (unknown `#x` is an error). */
class Tokens {
  private readonly list: string[];
  private at = 0;

  constructor(
    text: string,
    private readonly names: Names,
    private readonly used: { names: Set<string>; values: Set<string> },
  ) {
    this.list = text.match(/<>|<=|>=|[=<>(),+-]|[:#]?[A-Za-z0-9_]+|\S/g) ?? [];
    for (const token of this.list) {
      if (/^[.[\]]$/.test(token)) throw new ValidationException(`Unsupported path syntax in: ${text}`);
    }
  }

  peek(): string | undefined {
    return this.list[this.at];
  }

  peekKeyword(): string | undefined {
    const token = this.peek();
    return token !== undefined && KEYWORDS.has(token.toUpperCase()) ? token.toUpperCase() : undefined;
  }

  next(): string {
    const token = this.list[this.at++];
    if (token === undefined) throw new ValidationException('Unexpected end of expression');
    return token;
  }

  expect(token: string): void {
    const got = this.next();
    if (got.toUpperCase() !== token) throw new ValidationException(`Expected ${token}, got ${got}`);
  }

  done(): boolean {
    return this.at >= this.list.length;
  }

  /** An attribute name (plain or `#placeholder`), resolved. */
  path(): string {
    const token = this.next();
    if (token.startsWith('#')) {
      const name = this.names[token];
      if (name === undefined) throw new ValidationException(`Undefined attribute name ${token}`);
      this.used.names.add(token);
      return name;
    }
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(token) || KEYWORDS.has(token.toUpperCase())) {
      throw new ValidationException(`Expected an attribute name, got ${token}`);
    }
    return token;
  }

  operand(): Operand {
    const token = this.peek();
    if (token?.startsWith(':')) {
      this.at++;
      this.used.values.add(token);
      return { k: 'value', name: token };
    }
    return { k: 'path', name: this.path() };
  }
}

function parseCondition(tokens: Tokens): Cond {
  const or = (): Cond => {
    let left = and();
    while (tokens.peekKeyword() === 'OR') {
      tokens.next();
      left = { k: 'or', a: left, b: and() };
    }
    return left;
  };
  const and = (): Cond => {
    let left = not();
    while (tokens.peekKeyword() === 'AND') {
      tokens.next();
      left = { k: 'and', a: left, b: not() };
    }
    return left;
  };
  const not = (): Cond => {
    if (tokens.peekKeyword() === 'NOT') {
      tokens.next();
      return { k: 'not', a: not() };
    }
    return primary();
  };
  const primary = (): Cond => {
    if (tokens.peek() === '(') {
      tokens.next();
      const inner = or();
      tokens.expect(')');
      return inner;
    }
    const fn = tokens.peek()?.toLowerCase();
    if (fn === 'attribute_exists' || fn === 'attribute_not_exists' || fn === 'begins_with') {
      tokens.next();
      tokens.expect('(');
      const args = [tokens.operand()];
      while (tokens.peek() === ',') {
        tokens.next();
        args.push(tokens.operand());
      }
      tokens.expect(')');
      if (args[0]!.k !== 'path' || args.length !== (fn === 'begins_with' ? 2 : 1)) {
        throw new ValidationException(`Bad arguments to ${fn}`);
      }
      return { k: 'fn', name: fn, args };
    }
    const left = tokens.operand();
    const op = tokens.next();
    if (op.toUpperCase() === 'BETWEEN') {
      const lo = tokens.operand();
      tokens.expect('AND');
      return { k: 'between', v: left, lo, hi: tokens.operand() };
    }
    if (op.toUpperCase() === 'IN') {
      tokens.expect('(');
      const list = [tokens.operand()];
      while (tokens.peek() === ',') {
        tokens.next();
        list.push(tokens.operand());
      }
      tokens.expect(')');
      return { k: 'in', v: left, list };
    }
    if (!['=', '<>', '<', '<=', '>', '>='].includes(op))
      throw new ValidationException(`Unknown operator ${op}`);
    return { k: 'cmp', op, l: left, r: tokens.operand() };
  };
  const cond = or();
  if (!tokens.done()) throw new ValidationException(`Unexpected ${tokens.peek()} in condition`);
  return cond;
}

function parseUpdate(tokens: Tokens): UpdatePlan {
  const plan: UpdatePlan = { set: [], remove: [], add: [] };
  const valueExpr = (): ValueExpr => {
    const term = (): ValueExpr => {
      if (tokens.peek()?.toLowerCase() === 'if_not_exists') {
        tokens.next();
        tokens.expect('(');
        const path = tokens.operand();
        tokens.expect(',');
        const value = tokens.operand();
        tokens.expect(')');
        if (path.k !== 'path') throw new ValidationException('if_not_exists needs a path');
        return { k: 'ifNotExists', path, value };
      }
      return tokens.operand();
    };
    let left = term();
    while (tokens.peek() === '+' || tokens.peek() === '-') {
      const op = tokens.next() as '+' | '-';
      left = { k: 'arith', op, a: left, b: term() };
    }
    return left;
  };
  const seen = new Set<string>();
  if (tokens.done()) throw new ValidationException('Empty update expression');
  while (!tokens.done()) {
    const clause = tokens.peekKeyword();
    if (clause !== 'SET' && clause !== 'REMOVE' && clause !== 'ADD') {
      throw new ValidationException(`Unsupported update clause ${tokens.peek()}`);
    }
    if (seen.has(clause)) throw new ValidationException(`The ${clause} section can only be used once`);
    seen.add(clause);
    tokens.next();
    for (;;) {
      const path = tokens.path();
      if (clause === 'SET') {
        tokens.expect('=');
        plan.set.push({ path, value: valueExpr() });
      } else if (clause === 'REMOVE') {
        plan.remove.push(path);
      } else {
        const value = tokens.operand();
        if (value.k !== 'value') throw new ValidationException('ADD needs a value');
        plan.add.push({ path, value });
      }
      if (tokens.peek() !== ',') break;
      tokens.next();
    }
  }
  const paths = [...plan.set.map((s) => s.path), ...plan.remove, ...plan.add.map((a) => a.path)];
  const dup = paths.find((p, i) => paths.indexOf(p) !== i);
  if (dup !== undefined) throw new ValidationException(`Two document paths overlap with each other: ${dup}`);
  return plan;
}

// ------------------------------------------------------------------------------ values

type Kind = 'S' | 'N' | 'B' | 'BOOL' | 'NULL' | 'M' | 'L' | undefined;

function kindOf(value: unknown): Kind {
  if (value === undefined) return undefined;
  if (value === null) return 'NULL';
  if (typeof value === 'string') return 'S';
  if (typeof value === 'number' || typeof value === 'bigint') return 'N';
  if (typeof value === 'boolean') return 'BOOL';
  if (value instanceof Uint8Array) return 'B';
  if (Array.isArray(value)) return 'L';
  return 'M';
}

function bytesOf(value: string | Uint8Array): Buffer {
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** DynamoDB ordering (numbers by value, strings and binaries bytewise); undefined when not comparable. */
function compare(a: unknown, b: unknown): number | undefined {
  const ka = kindOf(a);
  if (ka === undefined || ka !== kindOf(b)) return undefined;
  if (ka === 'N') return Number(a) - Number(b);
  // Without surrogates, UTF-16 code unit order is UTF-8 byte order.
  if (ka === 'S' && !SURROGATE.test(a as string) && !SURROGATE.test(b as string)) {
    return a === b ? 0 : (a as string) < (b as string) ? -1 : 1;
  }
  if (ka === 'S' || ka === 'B') return Buffer.compare(bytesOf(a as string), bytesOf(b as string));
  return undefined;
}

function equal(a: unknown, b: unknown): boolean {
  const ka = kindOf(a);
  if (ka === undefined || ka !== kindOf(b)) return false;
  if (ka === 'N' || ka === 'S' || ka === 'B') return compare(a, b) === 0;
  return JSON.stringify(a) === JSON.stringify(b);
}

function sizeOf(value: unknown): number {
  const kind = kindOf(value);
  if (kind === 'S') return Buffer.byteLength(value as string);
  if (kind === 'B') return (value as Uint8Array).byteLength;
  if (kind === 'N') return 21;
  if (kind === 'L') return 3 + (value as unknown[]).reduce<number>((s, v) => s + 1 + sizeOf(v), 0);
  if (kind === 'M') {
    return (
      3 + Object.entries(value as Item).reduce((s, [k, v]) => s + 1 + Buffer.byteLength(k) + sizeOf(v), 0)
    );
  }
  return 1;
}

const sizes = new WeakMap<Item, number>();

/** An item's size as DynamoDB counts it (near enough: names, values, a few bytes per number). */
export function itemSize(item: Item): number {
  let size = sizes.get(item);
  if (size === undefined) {
    size = Object.entries(item).reduce((s, [k, v]) => s + Buffer.byteLength(k) + sizeOf(v), 0);
    sizes.set(item, size);
  }
  return size;
}

/** A deep copy of an attribute value (what structuredClone does, for these types, faster). */
function clone<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Uint8Array) return new Uint8Array(value) as T;
  if (Array.isArray(value)) return value.map(clone) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = clone((value as Record<string, unknown>)[key]);
  return out as T;
}

// ------------------------------------------------------------------------------ requests

interface Expressions {
  names: Names;
  values: Values;
  used: { names: Set<string>; values: Set<string> };
}

function expressions(input: {
  ExpressionAttributeNames?: Names;
  ExpressionAttributeValues?: Values;
}): Expressions {
  return {
    names: input.ExpressionAttributeNames ?? {},
    values: input.ExpressionAttributeValues ?? {},
    used: { names: new Set(), values: new Set() },
  };
}

/** DynamoDB refuses placeholders that no expression of the request uses. */
function checkAllUsed(ex: Expressions): void {
  for (const name of Object.keys(ex.names)) {
    if (!ex.used.names.has(name))
      throw new ValidationException(`Value provided in ExpressionAttributeNames unused: ${name}`);
  }
  for (const value of Object.keys(ex.values)) {
    if (!ex.used.values.has(value)) {
      throw new ValidationException(`Value provided in ExpressionAttributeValues unused: ${value}`);
    }
  }
  for (const value of ex.used.values) {
    if (!(value in ex.values)) throw new ValidationException(`Undefined attribute value ${value}`);
  }
}

function operandValue(operand: Operand, item: Item | undefined, ex: Expressions): unknown {
  if (operand.k === 'value') {
    if (!(operand.name in ex.values))
      throw new ValidationException(`Undefined attribute value ${operand.name}`);
    return ex.values[operand.name];
  }
  return item?.[operand.name];
}

function holds(cond: Cond, item: Item | undefined, ex: Expressions): boolean {
  const v = (operand: Operand) => operandValue(operand, item, ex);
  switch (cond.k) {
    case 'and':
      return holds(cond.a, item, ex) && holds(cond.b, item, ex);
    case 'or':
      return holds(cond.a, item, ex) || holds(cond.b, item, ex);
    case 'not':
      return !holds(cond.a, item, ex);
    case 'between': {
      const lo = compare(v(cond.v), v(cond.lo));
      const hi = compare(v(cond.v), v(cond.hi));
      return lo !== undefined && hi !== undefined && lo >= 0 && hi <= 0;
    }
    case 'in':
      return cond.list.some((o) => equal(v(cond.v), v(o)));
    case 'fn': {
      const [first, second] = cond.args;
      if (cond.name === 'attribute_exists') return v(first!) !== undefined;
      if (cond.name === 'attribute_not_exists') return v(first!) === undefined;
      const value = v(first!);
      const prefix = v(second!);
      const kind = kindOf(value);
      if ((kind !== 'S' && kind !== 'B') || kind !== kindOf(prefix)) return false;
      const bytes = bytesOf(value as string);
      const start = bytesOf(prefix as string);
      return bytes.subarray(0, start.length).equals(start);
    }
    case 'cmp': {
      const l = v(cond.l);
      const r = v(cond.r);
      if (cond.op === '=') return equal(l, r);
      if (cond.op === '<>') return !equal(l, r);
      const c = compare(l, r);
      if (c === undefined) return false;
      return cond.op === '<' ? c < 0 : cond.op === '<=' ? c <= 0 : cond.op === '>' ? c > 0 : c >= 0;
    }
  }
}

function parseProjection(text: string, ex: Expressions): string[] {
  const tokens = new Tokens(text, ex.names, ex.used);
  const paths = [tokens.path()];
  while (!tokens.done()) {
    tokens.expect(',');
    paths.push(tokens.path());
  }
  return paths;
}

function project(item: Item, paths: string[] | undefined): Item {
  if (!paths) return clone(item);
  const out: Item = {};
  for (const path of paths) if (item[path] !== undefined) out[path] = clone(item[path]);
  return out;
}

// ------------------------------------------------------------------------------ tables

class FakeTable {
  readonly items = new Map<string, Item>();

  constructor(readonly spec: TableSpec) {}

  keyOf(item: Item): Item {
    const key: Item = { [this.spec.partitionKey]: item[this.spec.partitionKey] };
    if (this.spec.sortKey) key[this.spec.sortKey] = item[this.spec.sortKey];
    return key;
  }

  /** The storage key of a key or item; refuses keys with missing, extra or empty attributes. */
  id(key: Item, exact = true): string {
    const names = [this.spec.partitionKey, ...(this.spec.sortKey ? [this.spec.sortKey] : [])];
    if (exact && Object.keys(key).length !== names.length) {
      throw new ValidationException('The provided key element does not match the schema');
    }
    return names
      .map((name) => {
        const value = key[name];
        if (typeof value !== 'string')
          throw new ValidationException('The provided key element does not match the schema');
        if (value === '')
          throw new ValidationException('One or more parameter values are not valid: empty key');
        if (Buffer.byteLength(value) > (name === this.spec.partitionKey ? 2048 : 1024)) {
          throw new ValidationException('One or more parameter values were invalid: key too long');
        }
        return value;
      })
      .join('\u0000');
  }
}

export interface FakeDynamoOptions {
  /** Called before each operation is applied (after validation): throw to inject a failure. */
  readonly beforeWrite?: (command: string, input: Item) => void;
}

/** Every call the fake served, in order: command name and input. */
export interface CallRecord {
  readonly command: string;
  readonly input: Item;
}

export class FakeDynamo {
  private readonly tables = new Map<string, FakeTable>();
  readonly calls: CallRecord[] = [];
  /** Keys returned as unprocessed by the next BatchGet / BatchWrite calls (then cleared). */
  unprocessedOnce: { get?: number; write?: number } = {};

  addTable(name: string, spec: TableSpec): this {
    this.tables.set(name, new FakeTable(spec));
    return this;
  }

  /** A copy of one item, or undefined. */
  item(table: string, key: Item): Item | undefined {
    const t = this.table(table);
    const found = t.items.get(t.id(key));
    return found ? clone(found) : undefined;
  }

  /**
   * Every item of a table, in key order. Stored items are never changed in place (every write
   * stores a new object), so these are the stored objects themselves: read them, do not change
   * them.
   */
  scan(table: string): readonly Item[] {
    return this.sorted(this.table(table), undefined);
  }

  /** Writes items directly (seeding a state, or corrupting one to simulate a crash). */
  seed(table: string, items: readonly Item[]): void {
    const t = this.table(table);
    for (const item of items) t.items.set(t.id(t.keyOf(item)), clone(item));
  }

  /** A new fake with the same tables and a copy of their items (the call log starts empty). */
  copy(): FakeDynamo {
    const twin = new FakeDynamo();
    for (const [name, table] of this.tables) {
      twin.addTable(name, table.spec);
      // Stored items are replaced, never changed in place: the twin can share them.
      const items = twin.table(name).items;
      for (const [id, item] of table.items) items.set(id, item);
    }
    return twin;
  }

  /** Serves one document-client command by its name (`GetCommand` → 'Get'). */
  handle(command: string, input: Item): unknown {
    this.calls.push({ command, input });
    switch (command) {
      case 'Get':
        return this.get(input);
      case 'Put':
        return this.put(input);
      case 'Update':
        return this.update(input);
      case 'Delete':
        return this.delete(input);
      case 'Query':
        return this.query(input);
      case 'BatchGet':
        return this.batchGet(input);
      case 'BatchWrite':
        return this.batchWrite(input);
      case 'TransactWrite':
        return this.transactWrite(input);
      default:
        throw new ValidationException(`The fake does not serve ${command}`);
    }
  }

  private table(name: unknown): FakeTable {
    const table = this.tables.get(String(name));
    if (!table)
      throw new DynamoDBServiceException({
        name: 'ResourceNotFoundException',
        $fault: 'client',
        $metadata: {},
        message: `Requested resource not found: ${String(name)}`,
      });
    return table;
  }

  private get(input: Item): unknown {
    const t = this.table(input.TableName);
    const ex = expressions(input as never);
    const paths = input.ProjectionExpression
      ? parseProjection(String(input.ProjectionExpression), ex)
      : undefined;
    checkAllUsed(ex);
    const found = t.items.get(t.id(input.Key as Item));
    return found ? { Item: project(found, paths) } : {};
  }

  /** Validates a write and returns a function that applies it (for transactions). */
  private preparePut(input: Item): {
    check: () => boolean;
    apply: () => Item | undefined;
    id: string;
    table: FakeTable;
  } {
    const t = this.table(input.TableName);
    const item = input.Item as Item;
    const id = t.id(t.keyOf(item), false);
    if (itemSize(item) > MAX_ITEM_BYTES)
      throw new ValidationException('Item size has exceeded the maximum allowed size');
    const ex = expressions(input as never);
    const cond = input.ConditionExpression
      ? parseCondition(new Tokens(String(input.ConditionExpression), ex.names, ex.used))
      : undefined;
    checkAllUsed(ex);
    return {
      id,
      table: t,
      check: () => !cond || holds(cond, t.items.get(id), ex),
      apply: () => {
        const old = t.items.get(id);
        t.items.set(id, clone(item));
        return old;
      },
    };
  }

  private prepareUpdate(input: Item): {
    check: () => boolean;
    apply: () => { old?: Item; next: Item; changed: string[] };
    id: string;
    table: FakeTable;
  } {
    const t = this.table(input.TableName);
    const key = input.Key as Item;
    const id = t.id(key);
    const ex = expressions(input as never);
    const plan = parseUpdate(new Tokens(String(input.UpdateExpression ?? ''), ex.names, ex.used));
    const cond = input.ConditionExpression
      ? parseCondition(new Tokens(String(input.ConditionExpression), ex.names, ex.used))
      : undefined;
    checkAllUsed(ex);
    const keyNames = Object.keys(key);
    for (const path of [...plan.set.map((s) => s.path), ...plan.remove, ...plan.add.map((a) => a.path)]) {
      if (keyNames.includes(path))
        throw new ValidationException(`Cannot update attribute ${path}. This attribute is part of the key`);
    }
    return {
      id,
      table: t,
      check: () => !cond || holds(cond, t.items.get(id), ex),
      apply: () => {
        const old = t.items.get(id);
        const next: Item = old ? clone(old) : clone(key);
        const evaluate = (value: ValueExpr): unknown => {
          if (value.k === 'ifNotExists') return old?.[value.path.name] ?? operandValue(value.value, old, ex);
          if (value.k === 'arith') {
            const a = evaluate(value.a);
            const b = evaluate(value.b);
            if (kindOf(a) !== 'N' || kindOf(b) !== 'N')
              throw new ValidationException('An operand in the update expression has an incorrect data type');
            return value.op === '+' ? Number(a) + Number(b) : Number(a) - Number(b);
          }
          const v = operandValue(value, old, ex);
          if (v === undefined)
            throw new ValidationException(
              'The provided expression refers to an attribute that does not exist in the item',
            );
          return v;
        };
        const sets = plan.set.map((s) => [s.path, evaluate(s.value)] as const);
        for (const [path, value] of sets) next[path] = clone(value);
        for (const path of plan.remove) delete next[path];
        for (const { path, value } of plan.add) {
          const amount = operandValue(value, old, ex);
          const current = next[path];
          if (kindOf(amount) !== 'N' || (current !== undefined && kindOf(current) !== 'N')) {
            throw new ValidationException('The fake ADDs numbers only');
          }
          next[path] = Number(current ?? 0) + Number(amount);
        }
        if (itemSize(next) > MAX_ITEM_BYTES)
          throw new ValidationException('Item size to update has exceeded the maximum allowed size');
        t.items.set(id, next);
        return {
          ...(old ? { old } : {}),
          next,
          changed: [...plan.set.map((s) => s.path), ...plan.add.map((a) => a.path)],
        };
      },
    };
  }

  private prepareDelete(input: Item): {
    check: () => boolean;
    apply: () => Item | undefined;
    id: string;
    table: FakeTable;
  } {
    const t = this.table(input.TableName);
    const id = t.id(input.Key as Item);
    const ex = expressions(input as never);
    const cond = input.ConditionExpression
      ? parseCondition(new Tokens(String(input.ConditionExpression), ex.names, ex.used))
      : undefined;
    checkAllUsed(ex);
    return {
      id,
      table: t,
      check: () => !cond || holds(cond, t.items.get(id), ex),
      apply: () => {
        const old = t.items.get(id);
        t.items.delete(id);
        return old;
      },
    };
  }

  private put(input: Item): unknown {
    const op = this.preparePut(input);
    if (!op.check()) throw conditionFailed();
    const old = op.apply();
    return input.ReturnValues === 'ALL_OLD' && old ? { Attributes: clone(old) } : {};
  }

  private update(input: Item): unknown {
    const op = this.prepareUpdate(input);
    if (!op.check()) throw conditionFailed();
    const { old, next, changed } = op.apply();
    switch (input.ReturnValues) {
      case 'ALL_NEW':
        return { Attributes: clone(next) };
      case 'ALL_OLD':
        return old ? { Attributes: clone(old) } : {};
      case 'UPDATED_NEW':
        return { Attributes: project(next, changed) };
      case undefined:
      case 'NONE':
        return {};
      default:
        throw new ValidationException(`The fake does not return ${String(input.ReturnValues)}`);
    }
  }

  private delete(input: Item): unknown {
    const op = this.prepareDelete(input);
    if (!op.check()) throw conditionFailed();
    const old = op.apply();
    return input.ReturnValues === 'ALL_OLD' && old ? { Attributes: clone(old) } : {};
  }

  private transactWrite(input: Item): unknown {
    const entries = input.TransactItems as Array<Record<string, Item>>;
    if (!Array.isArray(entries) || entries.length === 0 || entries.length > 100) {
      throw new ValidationException('TransactItems must hold 1 to 100 operations');
    }
    const ops = entries.map((entry) => {
      const [kind, ...rest] = Object.keys(entry);
      if (rest.length > 0) throw new ValidationException('One operation per transaction entry');
      const body = entry[kind!]!;
      if (kind === 'Put') return this.preparePut(body);
      if (kind === 'Update') return this.prepareUpdate(body);
      if (kind === 'Delete') return this.prepareDelete(body);
      if (kind === 'ConditionCheck') {
        const t = this.table(body.TableName);
        const id = t.id(body.Key as Item);
        const ex = expressions(body as never);
        const cond = parseCondition(new Tokens(String(body.ConditionExpression), ex.names, ex.used));
        checkAllUsed(ex);
        return { id, table: t, check: () => holds(cond, t.items.get(id), ex), apply: () => undefined };
      }
      throw new ValidationException(`Unknown transaction operation ${String(kind)}`);
    });
    const ids = ops.map((op) => `${op.table.spec.id}\u0001${op.id}`);
    if (new Set(ids).size !== ids.length) {
      throw new ValidationException('Transaction request cannot include multiple operations on one item');
    }
    const reasons = ops.map((op) =>
      op.check()
        ? { Code: 'None' }
        : { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' },
    );
    if (reasons.some((r) => r.Code !== 'None')) {
      throw new TransactionCanceledException({
        message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
        $metadata: {},
        CancellationReasons: reasons,
      });
    }
    for (const op of ops) op.apply();
    return {};
  }

  private batchGet(input: Item): unknown {
    const requests = input.RequestItems as Record<string, Item>;
    const responses: Record<string, Item[]> = {};
    const unprocessed: Record<string, Item> = {};
    let total = 0;
    for (const [name, request] of Object.entries(requests)) {
      const t = this.table(name);
      const keys = request.Keys as Item[];
      total += keys.length;
      if (total > 100) throw new ValidationException('Too many items requested for the BatchGetItem call');
      const ids = keys.map((key) => t.id(key));
      if (new Set(ids).size !== ids.length)
        throw new ValidationException('Provided list of item keys contains duplicates');
      const ex = expressions(request as never);
      const paths = request.ProjectionExpression
        ? parseProjection(String(request.ProjectionExpression), ex)
        : undefined;
      checkAllUsed(ex);
      const skip = Math.min(this.unprocessedOnce.get ?? 0, keys.length);
      this.unprocessedOnce.get = undefined;
      if (skip > 0) unprocessed[name] = { ...request, Keys: keys.slice(keys.length - skip) };
      responses[name] = keys.slice(0, keys.length - skip).flatMap((key) => {
        const found = t.items.get(t.id(key));
        return found ? [project(found, paths)] : [];
      });
    }
    return { Responses: responses, UnprocessedKeys: unprocessed };
  }

  private batchWrite(input: Item): unknown {
    const requests = input.RequestItems as Record<string, Item[]>;
    const unprocessed: Record<string, Item[]> = {};
    const count = Object.values(requests).reduce((s, r) => s + r.length, 0);
    if (count > 25) throw new ValidationException('Too many items requested for the BatchWriteItem call');
    for (const [name, writes] of Object.entries(requests)) {
      const t = this.table(name);
      const skip = Math.min(this.unprocessedOnce.write ?? 0, writes.length);
      this.unprocessedOnce.write = undefined;
      if (skip > 0) unprocessed[name] = writes.slice(writes.length - skip);
      for (const write of writes.slice(0, writes.length - skip)) {
        if (write.PutRequest)
          this.preparePut({ TableName: name, Item: (write.PutRequest as Item).Item }).apply();
        else if (write.DeleteRequest) t.items.delete(t.id((write.DeleteRequest as Item).Key as Item));
        else throw new ValidationException('Unknown batch write request');
      }
    }
    return { UnprocessedItems: unprocessed };
  }

  private sorted(t: FakeTable, indexName: string | undefined): Item[] {
    const index = indexName === undefined ? undefined : t.spec.indexes.find((i) => i.name === indexName);
    if (indexName !== undefined && !index)
      throw new ValidationException(`The table does not have the specified index: ${indexName}`);
    const pk = index ? index.partitionKey : t.spec.partitionKey;
    const sk = index ? index.sortKey : t.spec.sortKey;
    const items = [...t.items.values()].filter(
      (item) => !index || (item[pk] !== undefined && item[sk!] !== undefined),
    );
    const tableOrder = (a: Item, b: Item) => compare(t.id(t.keyOf(a)), t.id(t.keyOf(b))) ?? 0;
    return items.sort((a, b) => {
      const byPk = compare(a[pk], b[pk]) ?? 0;
      if (byPk !== 0) return byPk;
      const bySk = sk ? (compare(a[sk], b[sk]) ?? 0) : 0;
      return bySk !== 0 ? bySk : tableOrder(a, b);
    });
  }

  private query(input: Item): unknown {
    const t = this.table(input.TableName);
    const indexName = input.IndexName as string | undefined;
    const index = indexName === undefined ? undefined : t.spec.indexes.find((i) => i.name === indexName);
    if (index && input.ConsistentRead)
      throw new ValidationException('Consistent reads are not supported on global secondary indexes');
    const pk = index ? index.partitionKey : t.spec.partitionKey;
    const sk = index ? index.sortKey : t.spec.sortKey;
    const ex = expressions(input as never);
    const keyCond = parseCondition(new Tokens(String(input.KeyConditionExpression), ex.names, ex.used));
    checkKeyCondition(keyCond, pk, sk);
    const paths = input.ProjectionExpression
      ? parseProjection(String(input.ProjectionExpression), ex)
      : undefined;
    checkAllUsed(ex);
    let rows = this.sorted(t, indexName).filter((item) => holds(keyCond, item, ex));
    if (input.ScanIndexForward === false) rows.reverse();
    const start = input.ExclusiveStartKey as Item | undefined;
    if (start) {
      const startId = t.id(t.keyOf(start));
      const at = rows.findIndex((item) => t.id(t.keyOf(item)) === startId);
      rows =
        at >= 0
          ? rows.slice(at + 1)
          : rows.filter((item) => {
              const c = sk ? (compare(item[sk], start[sk]) ?? 0) : 0;
              return input.ScanIndexForward === false ? c < 0 : c > 0;
            });
    }
    const limit = typeof input.Limit === 'number' ? input.Limit : Number.POSITIVE_INFINITY;
    const page: Item[] = [];
    let bytes = 0;
    for (const item of rows) {
      if (page.length >= limit || bytes >= MAX_PAGE_BYTES) break;
      page.push(item);
      bytes += itemSize(item);
    }
    const more = page.length < rows.length;
    const last = page[page.length - 1];
    const projected = page.map((item) => {
      // An index holds its keys, the table's keys and the included attributes only.
      const visible = index ? pick(item, [pk, sk!, ...Object.keys(t.keyOf(item)), ...index.include]) : item;
      return project(visible, paths);
    });
    return {
      Items: projected,
      Count: projected.length,
      ...(more && last
        ? {
            LastEvaluatedKey: pick(last, [
              ...new Set([pk, ...(sk ? [sk] : []), ...Object.keys(t.keyOf(last))]),
            ]),
          }
        : {}),
    };
  }
}

function pick(item: Item, names: readonly string[]): Item {
  const out: Item = {};
  for (const name of names) if (item[name] !== undefined) out[name] = item[name];
  return out;
}

/** A key condition: equality on the partition key, optionally AND one condition on the sort key. */
function checkKeyCondition(cond: Cond, pk: string, sk: string | undefined): void {
  const parts = cond.k === 'and' ? [cond.a, cond.b] : [cond];
  const onPk = parts.find((p) => p.k === 'cmp' && p.op === '=' && p.l.k === 'path' && p.l.name === pk);
  const rest = parts.filter((p) => p !== onPk);
  const onSk = (p: Cond) =>
    (p.k === 'cmp' && p.op !== '<>' && p.l.k === 'path' && p.l.name === sk) ||
    (p.k === 'between' && p.v.k === 'path' && p.v.name === sk) ||
    (p.k === 'fn' && p.name === 'begins_with' && p.args[0]!.k === 'path' && p.args[0]!.name === sk);
  if (!onPk || rest.length > 1 || (rest.length === 1 && !onSk(rest[0]!))) {
    throw new ValidationException('Query key condition not supported');
  }
}
