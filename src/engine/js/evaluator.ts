/**
 * The evaluator: one walk over a file's syntax tree that folds expressions into abstract values
 * (`Val`). String constants are folded (concatenation, templates, escapes, simple string
 * methods), module objects and their members are tracked through aliases, destructuring and
 * computed keys, functions are analysed with the arguments of their calls, and data carries taint
 * labels (secrets, decoded data, network data) so that sinks can tell where their arguments came
 * from. Nothing is executed.
 *
 * What calls do is said by the API models (models/); what the code does is reported as effects
 * (effects.ts) to the detectors, which alone name rules. Calls are in calls.ts, module loading in
 * modules.ts, the language's built-in objects in builtins.ts.
 */
import { escapeRegExp, type LineIndex } from '../text';
import { isFunctionNode, isPageLocation, keyName, lineOf, rangeOf, sourceText } from './ast';
import { asReplay, callAsHost, evaluateCall, replayDeferred, runBundleModules, userCall } from './calls';
import type { Branch, Effects } from './effects';
import type { EventChannel, JsFileInput, JsFileResult } from './analyze';
import { exportDecl, importDecl, loadModule } from './modules';
import { envMember, processMember } from './models/os-env';
import { domEventHandler, formActionHijack, networkHook, secretFieldHandlers } from './models/browser';
import { addedToBundle, addedToModules, compiles, dataUrlModule, pageScript } from './models/code';
import { requestByAssignment } from './models/network';
import { requestCredentialMember } from './models/server';
import { Scope } from './scope';
import {
  UNKNOWN,
  asString,
  deepTaints,
  hasDeepTaint,
  eitherOf,
  iterItems,
  keysOf,
  MAX_UNROLL,
  pickReturn,
  str,
  unknown,
  withTaint,
  type AstNode,
  TYPED_SECRETS,
  type Val,
  anyMember,
  setterKey,
  WALLET_PROVIDERS,
  callerRecipient,
  overridesRecipient,
  overCallerObject,
  TX_NAME,
} from './values';

export const GLOBAL_NAMES = new Set(['global', 'globalThis', 'window', 'self']);
/** The window's own event methods (`window.addEventListener`, or called bare). */
const WINDOW_EVENTS = new Set(['addEventListener', 'removeEventListener', 'dispatchEvent']);

/** A connection object: an XMLHttpRequest, a socket, or a data channel made from one. */
function isConnection(v: Val | undefined): boolean {
  return !!v && (v.k === 'net' || (v.k === 'api' && v.mod === 'netobj') || !!v.t?.has('network_data'));
}
export const KNOWN_GLOBALS = new Set([
  'process',
  'Intl',
  'Symbol',
  'Bun',
  'Deno',
  'Buffer',
  'Reflect',
  'Object',
  'String',
  'JSON',
  'Math',
  'atob',
  'btoa',
  'eval',
  'Function',
  'fetch',
  'require',
  'WebSocket',
  'XMLHttpRequest',
  'unescape',
  'decodeURIComponent',
  'encodeURIComponent',
  'encodeURI',
  'parseInt',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'Array',
  'EventSource',
  'navigator',
  'document',
  'localStorage',
  'sessionStorage',
  'FormData',
  'URLSearchParams',
  'RTCPeerConnection',
  'TextDecoder',
  'TextEncoder',
  'structuredClone',
  'Proxy',
  'CustomEvent',
  'Event',
  'MessageEvent',
  'Uint8Array',
  'Uint16Array',
  'URL',
  'Promise',
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'Blob',
  'Worker',
  'SharedWorker',
  'importScripts',
  ...WALLET_PROVIDERS,
]);

/** A compound assignment's arithmetic on two known numbers (`-=`, `*=`, `%=` …). */
function arith(op: string, a: number, b: number): number | undefined {
  switch (op) {
    case '-=':
      return a - b;
    case '*=':
      return a * b;
    case '/=':
      return b === 0 ? undefined : a / b;
    case '%=':
      return b === 0 ? undefined : a % b;
    case '|=':
      return a | b;
    case '&=':
      return a & b;
    case '^=':
      return a ^ b;
    case '<<=':
      return a << b;
    case '>>=':
      return a >> b;
    case '>>>=':
      return a >>> b;
    default:
      return undefined;
  }
}

/** Field names of a transaction's recipient. */
const RECIPIENT_FIELD = /^(?:to|toPubkey|toAddress|destination|recipient|receiver)$/;
/** Names under which a caller hands over where funds go or who may spend them. */
const RECIPIENT_NAME: ReadonlySet<string> = new Set([
  'to',
  'toPubkey',
  'toAddress',
  'destination',
  'dest',
  'recipient',
  'receiver',
  'spender',
  'operator',
]);
/** `if (burn)`, `if (!opts.wrap)`: a flag whose value is not known here (the caller's option). */
function callerFlag(test: AstNode, v: Val): boolean {
  const t = test.type === 'UnaryExpression' && test.operator === '!' ? (test.argument as AstNode) : test;
  return (
    (t.type === 'Identifier' || (t.type === 'MemberExpression' && !t.computed)) &&
    v.k === 'unknown' &&
    !v.t?.size
  );
}

/** Methods a buffer shares with arrays that go over its bytes. */
const BYTE_ITERATION: ReadonlySet<string> = new Set(['forEach', 'map', 'reduce', 'every', 'some', 'filter']);

/** Built-in constructors: their own `constructor` is Function. */
const BUILTIN_CONSTRUCTORS = new Set([
  'Function',
  'Array',
  'Object',
  'String',
  'Number',
  'Boolean',
  'RegExp',
  'Date',
  'Promise',
  'Map',
  'Set',
  'Symbol',
  'Error',
]);

const SKIP_KEYS = new Set([
  'loc',
  'range',
  'start',
  'end',
  'type',
  'extra',
  'leadingComments',
  'trailingComments',
]);

/** A function value (a declaration, expression, method or class), as `fnVal` makes it. */
export type FnVal = Val & { k: 'fn' };

/** Binary operators folded on two known numbers (obfuscators compute indexes and char codes). */
const NUMERIC_OPS: Record<string, (a: number, b: number) => number> = {
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
  '^': (a, b) => a ^ b,
  '|': (a, b) => a | b,
  '&': (a, b) => a & b,
  '%': (a, b) => a % b,
  '/': (a, b) => a / b,
  '<<': (a, b) => a << b,
  '>>': (a, b) => a >> b,
  '>>>': (a, b) => a >>> b,
};

/** A class's static method or field named `key` (not an accessor; the first 200 members). */
function staticMember(cls: AstNode, key: string): AstNode | undefined {
  const members = (((cls.body as AstNode | undefined)?.body ?? []) as AstNode[]).slice(0, 200);
  return members.find(
    (m) =>
      m.static && !m.computed && m.kind !== 'get' && m.kind !== 'set' && keyName(m.key as AstNode) === key,
  );
}

/** Turns a loop with a known test runs at most (the file's unroll budget applies too). */
const MAX_LOOP_TURNS = 1000;

/** Whether a value is truthy, when the evaluator knows it. */
function truthy(v: Val): boolean | undefined {
  if (v.k === 'num') return v.v !== 0 && !Number.isNaN(v.v);
  if (v.k === 'bool') return v.v;
  if (v.k === 'str') return v.v.length > 0;
  return undefined;
}

/** Comparisons of two known numbers (the tests of counter loops). */
const COMPARE_OPS: Record<string, <T extends number | string>(a: T, b: T) => boolean> = {
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '===': (a, b) => a === b,
  '==': (a, b) => a === b,
  '!==': (a, b) => a !== b,
  '!=': (a, b) => a !== b,
};

/** The address of a `<script src=…>` written as text, and of `el.src = '…'` in script text. */
const SCRIPT_TAG_SRC = /<script\b[^>]*?\bsrc\s*=\s*["']?([^"'\s>]+)/i;
const SCRIPT_SRC_PROPERTY = /\.src\s*=\s*["'`]((?:https?:)?\/\/[^"'`\s]+)/i;

/** A value reached by a computed or obfuscated member access (kept out of hot closures). */
function markObfuscated(v: Val): Val {
  return { ...v, obf: true };
}

function sameValue(v: Val): Val {
  return v;
}
/** A value that stands for nothing: '', a value not known here that carries nothing, a stub. */
function emptyFallback(v: Val): boolean {
  return (
    (v.k === 'str' && v.v === '') ||
    (v.k === 'unknown' && !v.t?.size) ||
    // A stub whose methods do nothing (`worker = { postMessage() {} }` when a worker cannot start;
    // `{ postMessage: () => undefined, onmessage: null }`).
    (v.k === 'obj' &&
      v.props.size > 0 &&
      v.props.size <= 16 &&
      [...v.props.values()].some((p) => p.k === 'fn') &&
      [...v.props.values()].every((p) => (p.k === 'fn' ? doesNothing(p.node) : emptyFallback(p))))
  );
}

/** A function whose body is empty or only gives back nothing (`() => undefined`, `() => null`). */
function doesNothing(fn: AstNode): boolean {
  const body = fn.body as AstNode | undefined;
  if (!body) return false;
  if (body.type === 'BlockStatement') return !((body.body as AstNode[] | undefined) ?? []).length;
  return (
    (body.type === 'Identifier' && body.name === 'undefined') ||
    body.type === 'NullLiteral' ||
    (body.type === 'Literal' && body.value === null && !body.regex) ||
    (body.type === 'UnaryExpression' && body.operator === 'void')
  );
}

/** The scope name of a class member's `super` (see invoke in calls.ts). */
export const SUPER = '\u0000super';
/** In a `super` object: the constructor `super(…)` runs (the nearest one up the chain). */
export const SUPER_CONSTRUCTOR = '\u0000constructor';

/** A computed key: a string, or a well-known symbol (`[Symbol.toPrimitive]`) under a name of its own. */
function propertyKey(v: Val): string | undefined {
  if (v.k === 'api' && v.mod === 'global:Symbol' && /^(?:toPrimitive|iterator|asyncIterator)$/.test(v.path))
    return `\u0000symbol.${v.path}`;
  return asString(v);
}

/** Bundler options and plugin hooks whose text goes into the emitted bundles (see bundleText). */
const BUNDLE_TEXT_KEY = /^(?:banner|footer|intro|outro|renderChunk|transform)$/;

/** The words a command-line value known here may be (itself and the others a hook gives). */
function argvWords(v: Val): string[] | undefined {
  const out: string[] = [];
  for (let x: Val | undefined = v; x && out.length < 8; x = x.k === 'str' ? x.alt : undefined) {
    if (x.k !== 'str' || x.v.includes('${…}')) return undefined;
    out.push(x.v);
  }
  return out.length ? out : undefined;
}

/** `cmd === 'sync'` on a command-line word known here: a known truth value, marked as such. */
function argvCompare(l: Val, r: Val, op: string): Val | undefined {
  const words = l.argv ? argvWords(l) : argvWords(r);
  const other = asString(l.argv ? r : l);
  if (!words || other === undefined || (l.argv ? r : l).k !== 'str') return undefined;
  const hits = words.filter((w) => w === other).length;
  if (hits !== 0 && hits !== words.length) return undefined;
  const equal = hits === words.length;
  return { k: 'bool', v: op.startsWith('!') ? !equal : equal, argv: true };
}

/** `Array.isArray`, as written. */
function isArrayCheck(n: AstNode): boolean {
  return (
    n.type === 'MemberExpression' &&
    !n.computed &&
    (n.object as AstNode).type === 'Identifier' &&
    (n.object as AstNode).name === 'Array' &&
    keyName(n.property as AstNode) === 'isArray'
  );
}

export class Evaluator {
  /** Install-time context (for calls from another file: the caller's). */
  installTime: boolean;
  /** Root scope of the file (closures of exported functions resolve through it). */
  rootScope: Scope | undefined;
  /** `module.exports = …` and `exports.x = …` / ESM exports, for other files of the package. */
  moduleExportsVal: Val | undefined;
  readonly exportsObj: Val & { k: 'obj' } = { k: 'obj', props: new Map() };
  readonly strings: JsFileResult['strings'] = [];
  readonly exportNames = new Set<string>();
  readonly requires = new Set<string>();
  deadline: number;
  timedOut = false;
  steps = 0;
  /** Values passed to `resolve` by the Promise executors being walked (innermost last). */
  readonly resolving: Val[][] = [];
  /** Named callbacks already walked again where a timer or an event registration receives them. */
  readonly rewalked = new Set<AstNode>();
  /** Handlers walked again from code that runs (see rewalked: at most once more each). */
  readonly rewalkedLive = new Set<AstNode>();
  /**
   * The closures each handler was walked in (see rewalked): registered again from a call that
   * gave its closure new values (`observe(edge)` after `observe`'s own body was walked with
   * `edge` unknown), it is walked again, a few closures at most.
   */
  readonly rewalkedClosures = new Map<AstNode, object[]>();
  /**
   * The events each named handler was walked for (`for (const t of TYPES) addEventListener(t, h)`):
   * a handler given an event that hands it more (a field's value after a key) is walked again.
   */
  readonly handlerEvents = new Map<AstNode, Set<string>>();
  /**
   * Inside a handler that runs again and again (a socket's `data`, an interval): a counter kept
   * outside it (`sock.write(steps[i++])`) has no one value there.
   */
  repeating = 0;
  /**
   * Lists and objects filled so far (a push, a property set): a helper that only fills a list it
   * closes over (`const add = (x) => argv.push(x)`) does something, though it reports nothing.
   */
  mutations = 0;
  /** Lists and objects made so far, and the count when the function being walked was called. */
  made = 0;
  callStart = 0;
  /** A list or object filled: counted when it was made before the call being walked (it outlives it). */
  filled(v: Val): void {
    if ((v.made ?? -1) <= this.callStart) this.mutations++;
  }
  /** Inside branches guarded by a search of known text that found nothing (see IfStatement). */
  private unmatched = 0;
  /** Script and frame elements made in the file, with the src they were given. */
  readonly elementSrc = new WeakMap<Val, string>();
  /** Streams from `fs.createWriteStream(path)`: the file they write. */
  readonly writeStreams = new WeakMap<Val, { path: string; pathVal: Val }>();
  /** Descriptors opened for writing (`fs.openSync(file, 'r+')`): the path each writes to. */
  readonly writeDescriptors = new WeakMap<Val, Val>();
  /** Request bodies being built (`new FormData()`, `new URLSearchParams()`): what is appended joins them. */
  readonly bodies = new WeakSet<Val>();
  /** Prototype objects of functions (`F.prototype.m = …`), by function node. */
  readonly prototypes = new WeakMap<AstNode, Val & { k: 'obj' }>();
  /** Properties given to functions (`jQuery.fn = …`, `jQuery.ajax = function …`), by function node. */
  readonly fnProps = new WeakMap<AstNode, Map<string, Val>>();
  /** Methods of objects made prototypes by assignment, walked again at the end (see `run`). */
  private readonly walkAgainAtEnd: FnVal[] = [];
  /** A webpack bundle's module functions by id (`__webpack_modules__`, a chunk's `exports.modules`). */
  readonly bundleModules = new Map<string, FnVal>();
  /** Whether the file looks like a webpack chunk (`exports.ids = …`, the loader named). */
  private chunkFile?: boolean;
  /** Code written or compiled here that was already analysed, by call and text (models/code.ts). */
  readonly nestedSeen = new Set<string>();
  /** What this file wrote to web storage, by `<storage>:<key>` (see calls.ts). */
  readonly webStorage = new Map<string, Val>();
  /** What each bundle module exported, once run (see runBundleModule in calls.ts). */
  readonly bundleExports = new Map<string, Val>();
  /** Source bytes of bundle modules still to be run here (bounds the second walk of a bundle). */
  bundleBytesLeft = 0;
  /** Whether a function's source uses a decoding primitive (see `fnVal`), per function node. */
  private readonly decoders = new WeakMap<AstNode, boolean>();
  /** Instances made by `new` of a class a condition chose, with the other class's instance. */
  readonly otherInstances = new WeakMap<Val, Val>();
  /** Event emitters made in the file (`new EventEmitter()`) and the handlers given to them by event name. */
  readonly emitters = new WeakMap<Val, Map<string, FnVal[]>>();
  /** Timers and event handlers given by name, walked again once the top level is done. */
  deferred: { node: AstNode; fn: FnVal; params: Val[]; scope: Scope; depth: number; dormant: number }[] = [];
  /** Named events of this file when it is analysed alone (no package host; see EventChannel). */
  ownChannels?: Map<string, EventChannel>;
  /** How often a connection's callback was walked again once the connection was bound. */
  private readonly selfRewalks = new Map<AstNode, number>();
  /** The object of the member expression walked last (the `this` of a method call). */
  lastMemberObj: Val | undefined;
  /** The test of the `if` walked last (a guard clause's test gates what follows it). */
  private lastIfTest: { node: AstNode; test: Val } | undefined;
  /** The computed key of the member expression walked last came from decoding. */
  lastKeyDecoded = false;
  /** Elements left for unrolling loops and array callbacks over known data. */
  unrollLeft = 600;
  /** Steps spent in the second and later turns of loops run on known tests (see `loop`). */
  loopSteps = 0;
  /** Calls of local functions left to analyse with their arguments, and the ones in progress. */
  inlineLeft = 3000;
  /** Walk steps left for analysing calls with their arguments (bounds the cost on big bundles). */
  inlineStepsLeft: number;
  /** How far calls made by code that runs may overdraw it. */
  readonly inlineStepsReserve: number;
  readonly inlineStack: AstNode[] = [];
  /** The arguments (signatures) each function on the inline stack is being walked with. */
  readonly activeSigs = new Map<AstNode, string[]>();
  readonly inlineCache = new Map<AstNode, Map<string, Val>>();
  /** Functions whose analysed calls taught nothing (no finding, capability or known result). */
  readonly boring = new Map<AstNode, number>();
  /** What functions walked where they are defined return, when it carries data (by function node). */
  readonly definitionReturns = new WeakMap<AstNode, Val>();
  /** Texts the file prints, kept once each for the text rules (see calls.ts printed). */
  readonly printedSeen = new Set<string>();
  printedBytes = 0;
  /** Names the file gives console methods and output streams (see calls.ts printAliases). */
  printAliases?: Map<string, string>;
  /**
   * A test in the function being walked (an `if`, a `switch`, a `?:`) reads the recipient its
   * caller chose: what it returns in place of that recipient is a default or a check, not a swap.
   */
  private testsCallerRecipient = false;
  /** The objects of the `with` statements around the code being walked (innermost last). */
  private readonly withObjects: Val[] = [];
  /** Per `catch` block being walked: the names it assigned, with the value they had before. */
  private readonly catchFallbacks: Map<string, { scope: Scope; old: Val }>[] = [];
  /** What the function whose definition was walked last returns (its parameters unknown). */
  private lastDefinition?: { node: AstNode; returns: Val };
  /** Whole-file tests read by object literals, computed on first use. */
  private mcpServerFile: boolean | undefined;
  private loaderHookFile: boolean | undefined;
  /** The same for calls made by code that runs (not walked where it is defined). */
  readonly boringLive = new Map<AstNode, number>();

  constructor(
    readonly input: JsFileInput,
    readonly lines: LineIndex,
    readonly effects: Effects,
  ) {
    this.deadline = performance.now() + input.timeBudgetMs;
    this.installTime = input.installTime;
    // Calls analysed with their arguments may cost about a quarter of the file's own walk, and
    // at least 15,000 steps: a dense payload of a few kilobytes (a one-line stealer appended to a
    // small library, its path helper called a hundred times) is walked to its end.
    this.inlineStepsLeft = Math.min(40_000, 15_000 + Math.floor(input.text.length / 20));
    this.inlineStepsReserve = Math.floor(this.inlineStepsLeft / 2);
  }

  /** What this file exports to the other files of its package. */
  exportsValue(): Val {
    const m = this.moduleExportsVal;
    if (m?.k === 'obj') {
      for (const [k, v] of this.exportsObj.props) if (!m.props.has(k)) m.props.set(k, v);
      return m;
    }
    if (m && m.k !== 'unknown') return m;
    return this.exportsObj;
  }

  tick(): boolean {
    if ((++this.steps & 1023) === 0 && performance.now() > this.deadline) this.timedOut = true;
    return this.timedOut;
  }

  run(ast: AstNode): void {
    const root = new Scope(undefined);
    this.rootScope = root;
    this.hoist(ast, root);
    this.walk(ast, root, 0);
    // Methods of a prototype object were walked while the object was being built, before
    // `F.prototype = …` (and `init.prototype = F.fn`) made it what instances get: walked once more,
    // still as not running, now that the functions they use hold their properties.
    const methods = [...new Set(this.walkAgainAtEnd.splice(0, 200))];
    if (methods.length)
      asReplay(() => {
        const seen = new Set<AstNode>();
        for (const fn of methods) {
          const span = rangeOf(fn.node);
          if (seen.has(fn.node) || !span || span[1] - span[0] > 5000 || this.timedOut) continue;
          seen.add(fn.node);
          this.walkDefinition(fn.node, fn.scope instanceof Scope ? fn.scope : root, 1);
        }
      });
    // A webpack bundle's modules that nothing here required (a chunk file's, or modules the
    // entry reaches through code not followed): each is run as the module it is.
    runBundleModules(this, root);
    // A build, lint or test tool's plugin: its hooks run when the tool does.
    if (this.input.hostCalls && !this.timedOut) callAsHost(this, root);
    replayDeferred(this);
    this.effects.scopeEnd(root);
    this.effects.fileEnd();
  }

  private hoist(body: AstNode, scope: Scope): void {
    const stmts = (body.body ?? []) as AstNode[];
    if (!Array.isArray(stmts)) return;
    for (const st of stmts) {
      const s =
        st.type === 'ExportNamedDeclaration' || st.type === 'ExportDefaultDeclaration'
          ? (st.declaration as AstNode | null | undefined)
          : st;
      if (s?.type === 'FunctionDeclaration' && (s.id as AstNode | null)?.name) {
        scope.vars.set((s.id as AstNode).name as string, this.fnVal(s, scope));
      }
    }
  }

  fnVal(node: AstNode, scope?: Scope, self?: Val): FnVal {
    // Read once per function (its value is made again each time the code defining it is walked).
    let decoder = this.decoders.get(node);
    if (decoder === undefined) {
      decoder = false;
      const r = rangeOf(node);
      if (r && r[1] - r[0] < 1500) {
        const src = this.input.text.slice(r[0], r[1]);
        decoder =
          /fromCharCode|charCodeAt|atob\s*\(|['"]base64['"]|parseInt\(\s*[^,()]*(?:\([^()]*\))?[^,()]*,\s*16\s*\)/.test(
            src,
          );
      }
      this.decoders.set(node, decoder);
    }
    return { k: 'fn', node, decoder, scope, self, owner: this };
  }

  /**
   * `const s = net.connect(port, host, () => s.end(data))`: the callback was walked during the
   * call, before `s` was bound. A connection's callbacks that use the name being declared are
   * walked again once it holds the connection, so what they write to it is seen.
   */
  private rewalkSelfCallbacks(d: AstNode, init: AstNode | null, v: Val, scope: Scope, depth: number): void {
    const id = d.id as AstNode;
    if (v.k !== 'net' || id.type !== 'Identifier' || init?.type !== 'CallExpression') return;
    const name = id.name as string;
    for (const a of ((init.arguments ?? []) as AstNode[]).slice(0, 4)) {
      if (a.type !== 'FunctionExpression' && a.type !== 'ArrowFunctionExpression') continue;
      // Once per declaration walk: the function holding it may be walked again with the values a
      // call gave it (a connection made from a configuration object), bounded per callback.
      const times = this.selfRewalks.get(a) ?? 0;
      if (times >= 3 || !new RegExp(`\\b${name}\\b`).test(sourceText(this.input.text, a, 4000) ?? ''))
        continue;
      this.selfRewalks.set(a, times + 1);
      this.walkFunction(a, scope, depth + 1);
    }
  }

  /** A function body walked where it is defined: what it does runs only if something calls it. */
  /**
   * `BOOK[to] || to`, `book.get(to) ?? to`, `resolveName(to) || to`: the left side looks the right
   * side's name up, so what it finds is what the caller named (an address book), not an address
   * put in its place.
   */
  private looksUpCaller(node: AstNode): boolean {
    // (The whole name: `TABLE[tx.chainId] || tx.to` looks up the chain, not the recipient.)
    const name = /^[\w$]+(?:\s*\??\.\s*[\w$]+)*/.exec(
      sourceText(this.input.text, node.right as AstNode, 80) ?? '',
    )?.[0];
    if (!name) return false;
    const left = sourceText(this.input.text, node.left as AstNode, 200) ?? '';
    // (As a key or an argument: `(to && HOT) || to` reads it as a test, not a lookup.)
    return new RegExp(`[\\[(,]\\s*${escapeRegExp(name)}\\s*[\\]),]`).test(left);
  }

  private walkDefinition(node: AstNode, scope: Scope, depth: number): void {
    this.effects.dormant++;
    try {
      const r = this.walkFunction(node, scope, depth);
      this.lastDefinition = { node, returns: r };
      // What it returns whatever it is given (its parameters unknown), when that carries data:
      // a call with arguments that tell nothing more gets it (see `invoke`). So does a string it
      // builds around them (`(pid) => ['', 'proc', pid, 'environ'].join('/')`).
      if (hasDeepTaint(r) || (r.k === 'str' && r.v.length <= 4096)) this.definitionReturns.set(node, r);
    } finally {
      this.effects.dormant--;
    }
  }

  /**
   * Walks a function body with its parameters bound; returns what it returns (first known value),
   * or for a generator the list of what it yields.
   */
  walkFunction(
    node: AstNode,
    scope: Scope,
    depth: number,
    paramVals?: Val[],
    thisVal?: Val,
    home?: Val,
  ): Val {
    // A function's body sees the with statements around its definition, not its caller's.
    if (this.withObjects.length) {
      const outer = this.withObjects.splice(0);
      try {
        return this.walkFunction(node, scope, depth, paramVals, thisVal, home);
      } finally {
        this.withObjects.push(...outer);
      }
    }
    const name = ((node.id as AstNode | null)?.name as string | undefined) ?? undefined;
    const inner = new Scope(scope, name);
    inner.returns = [];
    if (node.generator) inner.yields = [];
    if (node.type !== 'ArrowFunctionExpression') {
      // A plain function called without a receiver sees the global object as `this` (sloppy code).
      inner.vars.set('this', thisVal ?? { k: 'global', name: 'globalObject' });
      inner.vars.set('arguments', paramVals ? { k: 'arr', items: paramVals.slice(0, 50) } : UNKNOWN);
      if (home) inner.vars.set(SUPER, home);
    }
    const params = (node.params ?? []) as AstNode[];
    params.forEach((p, i) => {
      this.effects.identifier(p);
      const v =
        p.type === 'RestElement' && paramVals
          ? ({ k: 'arr', items: paramVals.slice(i, i + 50) } as Val)
          : (paramVals?.[i] ?? UNKNOWN);
      // A string literal written at the call site (`getBuiltIn('fetch')`) is a plain name inside
      // the callee, not one computed at run time. A recipient or spender not known here is the
      // caller's choice.
      const plain =
        v.k === 'str' && v.lit
          ? { ...v, listed: true }
          : p.type === 'Identifier' && RECIPIENT_NAME.has(p.name as string)
            ? callerRecipient(v)
            : v;
      this.bindPattern(
        p.type === 'RestElement' && paramVals ? (p.argument as AstNode) : p,
        plain,
        inner,
        depth,
      );
    });
    const body = node.body as AstNode | undefined;
    if (!body) return UNKNOWN;
    const testedBefore = this.testsCallerRecipient;
    this.testsCallerRecipient = false;
    try {
      if (body.type === 'BlockStatement') {
        this.hoist(body, inner);
        this.walk(body, inner, depth + 1);
      } else {
        inner.returns.push(this.walk(body, inner, depth + 1));
      }
      this.effects.scopeEnd(inner);
      // A generator's call gives what it yields, as a list (`[...secrets()]`, `for (x of gen())`).
      if (inner.yields) return { k: 'arr', items: inner.yields };
      // `if (chainId === 1) return ROUTER; return spender;`: on some paths an address written in
      // the code is returned where the caller's recipient is on the others, chosen by a test that
      // does not look at that recipient.
      if (!this.testsCallerRecipient && inner.returns.length >= 2) {
        const caller = inner.returns.find((r) => r.t?.has('caller_recipient'));
        for (const r of caller ? inner.returns : []) {
          const over = r !== caller ? overridesRecipient(r, caller) : undefined;
          if (over) return over;
        }
      }
      return pickReturn(inner.returns);
    } finally {
      this.testsCallerRecipient = testedBefore;
    }
  }

  /** The word `return` in the first 4,000 characters of a statement (searched in place, on every `if`). */
  private holdsReturn(node: AstNode): boolean {
    const r = rangeOf(node);
    if (!r) return false;
    const text = this.input.text;
    const end = Math.min(r[1], r[0] + 4000);
    for (let i = text.indexOf('return', r[0]); i >= 0 && i + 6 <= end; i = text.indexOf('return', i + 6))
      if (!/[\w$]/.test(text[i - 1] ?? '') && !/[\w$]/.test(text[i + 6] ?? '')) return true;
    return false;
  }

  /** The test reads the recipient or spender the function's caller chose. */
  private namesCallerRecipient(test: AstNode, v: Val, scope: Scope): boolean {
    if (hasDeepTaint(v, 'caller_recipient')) return true;
    const text = sourceText(this.input.text, test, 300) ?? '';
    for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) {
      if (RECIPIENT_NAME.has(m[0])) return true;
      const bound = scope.lookup(m[0]);
      if (bound?.t?.has('caller_recipient')) return true;
    }
    return false;
  }

  /**
   * HTML written as text (`<script async src="${host}…">` put into a server's responses or a
   * page): a script element whose address was decoded at run time is a script loaded from a
   * hidden address, as when the element is made with the DOM.
   */
  htmlScriptTag(node: AstNode, html: string, parts: Val[]): void {
    const lower = html.length <= 200_000 ? html.toLowerCase() : '';
    if (!lower.includes('<script')) return;
    // Inline page code written into HTML the package serves or renders (a server hook appending
    // `<script>…</script>` to every response): analysed as the page code it is. Tags are found
    // by position (linear), each body ends at the next `</script`, at most four per text.
    if ((this.input.nested ?? 0) < 2) {
      let at = lower.indexOf('<script');
      for (let n = 0; at >= 0 && n < 4; at = lower.indexOf('<script', at + 7)) {
        const open = lower.indexOf('>', at);
        const close = open < 0 ? -1 : lower.indexOf('</script', open);
        if (close < 0) break;
        if (/\ssrc\s*=/.test(lower.slice(at, open))) continue;
        const body = html.slice(open + 1, close);
        if (body.trim().length >= 40 && !body.includes('${…}')) {
          n++;
          pageScript(this, node, str(body));
        }
      }
    }
    if (!parts.some((p) => hasDeepTaint(p, 'decoded'))) return;
    const src = SCRIPT_TAG_SRC.exec(html)?.[1];
    if (src && /^(?:https?:)?\/\//i.test(src)) this.effects.scriptSource(node, src, true);
  }

  bindPattern(p: AstNode, v: Val, scope: Scope, depth: number): void {
    switch (p.type) {
      case 'Identifier':
        scope.vars.set(p.name as string, keyMaterial(p.name as string, v));
        return;
      case 'AssignmentPattern': {
        // The default stands in for a value not known, not for one that carries data (a hook's
        // tainted parameter written `init = {}`).
        const dflt = this.walk(p.right as AstNode, scope, depth + 1);
        this.bindPattern(p.left as AstNode, v.k === 'unknown' && !v.t?.size ? dflt : v, scope, depth);
        return;
      }
      case 'ObjectPattern':
        for (const prop of (p.properties ?? []) as AstNode[]) {
          if (prop.type === 'RestElement') {
            if (v.k === 'env') this.effects.envWhole(p);
            let rest: Val = unknown([v]);
            if (v.k === 'obj') {
              const named = new Set(
                ((p.properties ?? []) as AstNode[]).map((q) => keyName(q.key as AstNode)).filter(Boolean),
              );
              rest = { k: 'obj', props: new Map([...v.props].filter(([k]) => !named.has(k))), t: v.t };
            }
            this.bindPattern(prop.argument as AstNode, rest, scope, depth);
            continue;
          }
          const key = prop.computed
            ? asString(this.walk(prop.key as AstNode, scope, depth + 1))
            : keyName(prop.key as AstNode);
          const target = prop.value as AstNode;
          this.bindPattern(
            target,
            key !== undefined ? this.member(v, key, p, scope, false) : unknown([v]),
            scope,
            depth,
          );
        }
        return;
      case 'ArrayPattern':
        ((p.elements ?? []) as (AstNode | null)[]).forEach((el, i) => {
          if (!el) return;
          const item =
            v.k === 'arr'
              ? el.type === 'RestElement'
                ? ({ k: 'arr', items: v.items.slice(i) } as Val)
                : v.items[i]
              : v.k === 'entry' && i === 1
                ? this.member(v.of, v.key, p, scope, true)
                : undefined;
          this.bindPattern(
            el.type === 'RestElement' ? (el.argument as AstNode) : el,
            item ?? unknown([v]),
            scope,
            depth,
          );
        });
        return;
      case 'RestElement':
        this.bindPattern(p.argument as AstNode, unknown([v]), scope, depth);
        return;
      case 'MemberExpression':
        this.walk(p, scope, depth + 1);
        return;
      default:
        return;
    }
  }

  walk(node: AstNode | null | undefined, scope: Scope, depth: number): Val {
    if (!node || this.timedOut) return UNKNOWN;
    if (depth > this.input.maxDepth) return UNKNOWN;
    if (this.tick()) return UNKNOWN;
    switch (node.type) {
      // The commonest nodes first: a switch on strings tests its cases in order.
      case 'Identifier':
        return this.identifier(node, scope);
      case 'MemberExpression':
      case 'OptionalMemberExpression':
        return this.memberExpr(node, scope, depth);
      case 'CallExpression':
      case 'OptionalCallExpression':
      case 'NewExpression':
        return evaluateCall(this, node, scope, depth);
      case 'ExpressionStatement': {
        // `cond && act()` / `cond || act()` as a statement (how minifiers write `if (cond) act()`):
        // what the right side does runs under the left side's test, as an `if` branch's would.
        const e = node.expression as AstNode;
        if (e.type === 'LogicalExpression' && (e.operator === '&&' || e.operator === '||')) {
          const test = this.walk(e.left as AstNode, scope, depth + 1);
          const asIf = { ...node, type: 'IfStatement', test: e.left, consequent: e.right } as AstNode;
          const branch = this.effects.enterBranch(asIf, test, scope, e.operator === '||');
          try {
            this.walk(e.right as AstNode, scope, depth + 1);
          } finally {
            this.effects.leaveBranch(branch);
          }
          return UNKNOWN;
        }
        this.walk(e, scope, depth + 1);
        return UNKNOWN;
      }
      case 'RegExpLiteral':
      case 'Literal':
      case 'StringLiteral':
      case 'NumericLiteral':
      case 'BooleanLiteral': {
        const rx =
          (node.regex as { pattern?: string } | undefined)?.pattern ??
          (node.type === 'RegExpLiteral' ? (node.pattern as string) : undefined);
        if (typeof rx === 'string') this.effects.regex(rx, node);
        const v = node.value;
        if (typeof v === 'string') {
          this.effects.stringLiteral(v, node, true);
          this.collectString(v, node);
          if (v.length > 60 && v.includes('<') && /<script/i.test(v)) this.htmlScriptTag(node, v, []);
          return { k: 'str', v, lit: true };
        }
        if (typeof v === 'number') return { k: 'num', v };
        if (typeof v === 'boolean') return { k: 'bool', v };
        return UNKNOWN;
      }
      case 'TaggedTemplateExpression': {
        const tag = this.walk(node.tag as AstNode, scope, depth + 1);
        // The values are walked once; the text is made from them as written or as cooked.
        const quasi = node.quasi as AstNode;
        const vals = ((quasi.expressions ?? []) as AstNode[]).map((e) => this.walk(e, scope, depth + 1));
        const text = this.templateText(quasi, vals, 'cooked');
        // Bun's shell: ``Bun.$`curl ${u} | sh` `` runs the template as a command line.
        if (tag.k === 'api' && tag.mod === 'global:Bun' && tag.path === '$')
          this.effects.spawn(node, text.k === 'str' ? text.v : undefined, [text], 'shell', scope);
        // String.raw`…` is the text as written; a function of the package (a `dedent`, a helper
        // that hands its parts to String.raw) is called with the literal parts and the values.
        if (tag.k === 'api' && tag.mod === 'global:String' && tag.path === 'raw')
          return this.templateText(quasi, vals, 'raw');
        if (tag.k === 'fn') {
          const quasis = (quasi.quasis ?? []) as AstNode[];
          const written = (q: AstNode) => q.value as { cooked?: string | null; raw?: string } | undefined;
          const parts: Val = {
            k: 'arr',
            items: quasis.map((q): Val => ({ k: 'str', v: written(q)?.cooked ?? written(q)?.raw ?? '' })),
            raw: { k: 'arr', items: quasis.map((q): Val => ({ k: 'str', v: written(q)?.raw ?? '' })) },
          };
          return userCall(this, node, tag, [parts, ...vals], scope, depth, tag.self, false);
        }
        return UNKNOWN;
      }
      case 'TemplateLiteral': {
        const vals = ((node.expressions ?? []) as AstNode[]).map((e) =>
          this.primitive(this.walk(e, scope, depth + 1), e, scope, depth),
        );
        // (`${source}\n${CODE}`, or the code written in the template's own text around the
        // source: as with `source + CODE`, see addedToModules.)
        if (vals.some((v) => v.k === 'unknown')) {
          for (const v of vals)
            if (vals.length >= 2 && v.k === 'str' && v.v.length >= 40 && !v.v.includes('${…}'))
              addedToModules(this, node, v.v);
          for (const q of (node.quasis ?? []) as AstNode[]) {
            const text = (q.value as { cooked?: string | null } | undefined)?.cooked;
            if (text && text.trim().length >= 40) addedToModules(this, node, text);
          }
        }
        return this.templateText(node, vals, 'cooked');
      }
      case 'ThisExpression':
        return scope.lookup('this') ?? UNKNOWN;
      case 'MetaProperty': {
        // `import.meta`: its `url`, `dirname` and `filename` name the module's own file and folder,
        // as `__filename` and `__dirname` do (`new URL('../assets/x.tpl', import.meta.url)`).
        if ((node.meta as AstNode | undefined)?.name !== 'import') return UNKNOWN;
        const own = (): Val => withTaint({ k: 'unknown' }, [], 'own_dir');
        return {
          k: 'obj',
          props: new Map([
            ['url', own()],
            ['dirname', own()],
            ['filename', own()],
          ]),
        };
      }
      case 'Super':
        return scope.lookup(SUPER) ?? UNKNOWN;
      case 'ReturnStatement': {
        const v = node.argument ? this.walk(node.argument as AstNode, scope, depth + 1) : UNKNOWN;
        this.concatenatedProse(node.argument as AstNode | undefined, v);
        const list = scope.returnList();
        if (list && list.length < 20) list.push(v);
        return UNKNOWN;
      }
      case 'BinaryExpression': {
        const l = this.walk(node.left as AstNode, scope, depth + 1);
        const r = this.walk(node.right as AstNode, scope, depth + 1);
        // A command-line word known here compared with a text: which branch runs is known.
        if ((l.argv || r.argv) && /^[!=]==?$/.test(node.operator as string)) {
          const picked = argvCompare(l, r, node.operator as string);
          if (picked) return picked;
        }
        if (node.operator === '+') {
          const ls = asString(l);
          const rs = asString(r);
          if (l.k === 'num' && r.k === 'num') return { k: 'num', v: l.v + r.v };
          if (ls !== undefined && rs !== undefined) return str(ls + rs, [l, r]);
          if (ls !== undefined || rs !== undefined) {
            // (Code written here joined to source not known here: see addedToModules.)
            const known = (ls ?? rs)!;
            if (known.length >= 40 && (l.k === 'unknown' || r.k === 'unknown') && !known.includes('${…}'))
              addedToModules(this, node, known);
            return withTaint({ k: 'str', v: (ls ?? '${…}') + (rs ?? '${…}') }, [l, r]);
          }
        }
        if (l.k === 'num' && r.k === 'num') {
          const f = NUMERIC_OPS[node.operator as string];
          // (Arithmetic on data's character codes is still that data: an XOR cipher's output.)
          if (f)
            return l.t || r.t
              ? withTaint({ k: 'num', v: f(l.v, r.v) }, [l, r])
              : { k: 'num', v: f(l.v, r.v) };
          const cmp = COMPARE_OPS[node.operator as string];
          if (cmp) return { k: 'bool', v: cmp(l.v, r.v) };
        }
        // Two known strings compared (`c <= 'Z'` in a rot13 helper).
        if (l.k === 'str' && r.k === 'str' && !l.v.includes('${…}') && !r.v.includes('${…}')) {
          const cmp = COMPARE_OPS[node.operator as string];
          if (cmp) return { k: 'bool', v: cmp(l.v, r.v) };
        }
        return unknown([l, r]);
      }
      case 'LogicalExpression': {
        const l = this.walk(node.left as AstNode, scope, depth + 1);
        const r = this.walk(node.right as AstNode, scope, depth + 1);
        // `node.on && node.on[event]`: an object, list or function made here is truthy, so the
        // value is the right side.
        if (node.operator === '&&' && (l.k === 'obj' || l.k === 'arr' || l.k === 'fn') && !l.t?.size)
          return r;
        // A known truth value decides (`!o.cond || guard(o)`); beside a value not known here it
        // does not (`seen || false` is not false).
        if (l.k === 'bool' && !l.t?.size)
          return node.operator === '&&' ? (l.v ? r : l) : node.operator === '||' ? (l.v ? l : r) : l;
        if (r.k === 'bool' && l.k === 'unknown') return unknown([l, r]);
        // `ROUTERS[chainId] || spender`: an address written in the code wins over the one the
        // caller chose whenever it is there (the other way round, it is a default).
        const over = node.operator !== '&&' ? overridesRecipient(l, r) : undefined;
        if (over && !this.looksUpCaller(node)) return over;
        // Either side may be the value: the one we keep carries the taint of both. (A text
        // behind a value not known here is its default.)
        if (node.operator !== '&&' && l.k === 'unknown' && r.k === 'str')
          return { ...eitherOf(l, r), dflt: true };
        return eitherOf(l, r);
      }
      case 'IfStatement': {
        // The detectors weigh what the branch depends on (the machine's location, data received
        // from the network) for what happens under it.
        const test = this.walk(node.test as AstNode, scope, depth + 1);
        // (A test that chooses what is returned counts, not a guard that throws; an option the
        // caller passes, `if (burn) return DEAD`, is the caller's choice too.)
        if (
          !this.testsCallerRecipient &&
          this.holdsReturn(node) &&
          (this.namesCallerRecipient(node.test as AstNode, test, scope) ||
            callerFlag(node.test as AstNode, test))
        )
          this.testsCallerRecipient = true;
        const branch = this.effects.enterBranch(node, test, scope);
        this.lastIfTest = { node, test };
        try {
          // A search of known text that found nothing (`if (m)` after `/re/.exec(asset)`): the
          // branch is walked for what it does, but what it assigns knowing nothing does not
          // replace what a name holds (the decoy icon after the one with the address).
          const unmatched = test.absent && (node.test as AstNode).type === 'Identifier';
          // (A test on the command line a planted hook gives: only the branch it picks runs.)
          const only = test.k === 'bool' && test.argv ? test.v : undefined;
          if (unmatched) this.unmatched++;
          try {
            if (only !== false) this.walk(node.consequent as AstNode, scope, depth + 1);
          } finally {
            if (unmatched) this.unmatched--;
          }
          if (only !== true) this.walk(node.alternate as AstNode | undefined, scope, depth + 1);
        } finally {
          this.effects.leaveBranch(branch);
        }
        return UNKNOWN;
      }
      case 'ConditionalExpression': {
        const test = this.walk(node.test as AstNode, scope, depth + 1);
        const a = this.walk(node.consequent as AstNode, scope, depth + 1);
        const b = this.walk(node.alternate as AstNode, scope, depth + 1);
        // A comparison of values known here picks the branch (`c <= 'Z' ? 65 : 97`); both are
        // still walked for what they do. Tests on the environment (`typeof window`) do not pick:
        // the package runs in more than one.
        // (So does a value read from known data: `spec.i18n[k] ? unrot(spec.i18n[k]) : ''`.)
        const t = node.test as AstNode;
        const picks =
          (test.k === 'bool' &&
            t.type === 'BinaryExpression' &&
            (t.left as AstNode).type !== 'UnaryExpression' &&
            (t.right as AstNode).type !== 'UnaryExpression') ||
          ((t.type === 'MemberExpression' || t.type === 'Identifier') &&
            ((test.k === 'str' && !test.v.includes('${…}')) || test.k === 'num')) ||
          // (`Array.isArray(spec) ? spec : [spec]`: a list or not, known of a value made here.)
          (test.k === 'bool' && t.type === 'CallExpression' && isArrayCheck(t.callee as AstNode)) ||
          (test.k === 'bool' && !!test.argv);
        if (picks) return (test as { v: unknown }).v ? a : b;
        // `CHAINS.includes(id) ? ROUTER : spender`: an address written in the code put in place of
        // the caller's recipient on a test that does not look at it (`spender ? spender : DEFAULT`
        // and `isAddress(to) ? to : BURN` do).
        if (a.t?.has('caller_recipient') || b.t?.has('caller_recipient')) {
          if (this.namesCallerRecipient(t, test, scope)) this.testsCallerRecipient = true;
          else {
            const over = overridesRecipient(a, b) ?? overridesRecipient(b, a);
            if (over) return over;
          }
        }
        return eitherOf(a, b);
      }
      case 'UnaryExpression': {
        const arg = node.argument as AstNode;
        this.effects.unary(node);
        const v = this.walk(arg, scope, depth + 1);
        // `typeof Buffer.from` is "function": obfuscators build names such as "Function" from it.
        if (node.operator === 'typeof') {
          const t = typeOf(v);
          return t ? { k: 'str', v: t } : UNKNOWN;
        }
        if (node.operator === '-' && v.k === 'num') return { k: 'num', v: -v.v };
        // `!0`, `!1` (how minifiers write true and false: `{ detached: !0 }`) and `!''`: known.
        if (node.operator === '!' && !v.t?.size) {
          if (v.k === 'num') return { k: 'bool', v: v.v === 0 || Number.isNaN(v.v) };
          if (v.k === 'bool') return { k: 'bool', v: !v.v };
          if (v.k === 'str' && !v.v.includes('${…}')) return { k: 'bool', v: v.v === '' };
        }
        return unknown([v]);
      }
      case 'YieldExpression': {
        const v = node.argument ? this.walk(node.argument as AstNode, scope, depth + 1) : UNKNOWN;
        const list = scope.yieldList();
        if (list && list.length < 1000) {
          // `yield* other()`: the items of the list it delegates to.
          const items = node.delegate ? (v.k === 'arr' ? v.items : iterItems(v)) : undefined;
          if (items) list.push(...items.slice(0, 1000 - list.length));
          else list.push(v);
        }
        // What a plain `yield` gives back is what the driver sends in. Generators written as
        // async code (TypeScript's __awaiter/__generator, co) send back the settled value of what
        // they yielded, so its taint is kept: `const s = yield fetch(u)` holds downloaded data.
        if (!node.delegate && v.t?.size) return unknown([v]);
        return UNKNOWN;
      }
      case 'UpdateExpression': {
        // `--n`, `i++` on a known number: the counter moves (loops below run on it).
        const arg = node.argument as AstNode;
        const old = this.walk(arg, scope, depth + 1);
        if (arg.type !== 'Identifier' || old.k !== 'num') return UNKNOWN;
        if (this.repeating > 0 && !scope.declaresInFunction(arg.name as string)) {
          scope.assign(arg.name as string, UNKNOWN);
          return UNKNOWN;
        }
        const next: Val = { k: 'num', v: old.v + (node.operator === '++' ? 1 : -1) };
        scope.assign(arg.name as string, next);
        return node.prefix ? next : old;
      }
      case 'AssignmentExpression':
        return this.assignment(node, scope, depth);
      case 'SequenceExpression': {
        let last = UNKNOWN;
        for (const e of (node.expressions ?? []) as AstNode[]) last = this.walk(e, scope, depth + 1);
        return last;
      }
      case 'ArrayExpression': {
        const items: Val[] = [];
        // A string spread into characters keeps what it carries on the list as a whole too.
        const carried: Val[] = [];
        for (const e of (node.elements ?? []) as (AstNode | null)[]) {
          if (e?.type === 'SpreadElement') {
            const v = this.walk(e.argument as AstNode, scope, depth + 1);
            if (v.k === 'env') this.effects.envWhole(e);
            // `[...a, 'x']`: the elements of a known array are kept (bounded).
            // (`[...text]`: a known string gives its characters.)
            const spread =
              v.k === 'arr'
                ? v.items
                : v.k === 'str' && v.v.length <= 10_000 && !v.v.includes('${…}')
                  ? (carried.push(v), Array.from(v.v, (ch): Val => withTaint({ k: 'str', v: ch }, [v])))
                  : iterItems(v);
            if (spread && items.length + spread.length <= 10_000) items.push(...spread);
            else items.push(unknown([v]));
            continue;
          }
          items.push(e ? this.walk(e, scope, depth + 1) : UNKNOWN);
        }
        this.effects.arrayLiteral(node, items);
        const list: Val = carried.length ? withTaint({ k: 'arr', items }, carried) : { k: 'arr', items };
        list.made = ++this.made;
        if (this.effects.dormant > 0) list.born = this.effects.dormant;
        return list;
      }
      case 'ObjectExpression':
        return this.objectExpr(node, scope, depth);
      case 'JSXOpeningElement':
        this.walkChildren(node, scope, depth);
        this.jsxProps(node, scope, depth);
        return UNKNOWN;
      case 'ChainExpression':
      case 'ParenthesizedExpression':
      case 'TSAsExpression':
      case 'TSNonNullExpression':
      case 'TSSatisfiesExpression':
      case 'TSTypeAssertion':
      case 'AwaitExpression':
        return this.walk((node.expression as AstNode) ?? (node.argument as AstNode), scope, depth + 1);
      case 'ImportExpression': {
        const v = this.walk(node.source as AstNode, scope, depth + 1);
        const s = asString(v);
        // import('data:text/javascript;base64,…'): the module's code is in the address.
        const data = s !== undefined ? dataUrlModule(s) : undefined;
        if (data) {
          compiles(
            this,
            node,
            'import()',
            data.code !== undefined
              ? withTaint(str(data.code), [v], data.base64 ? 'decoded' : undefined)
              : unknown([v]),
            node.source as AstNode,
          );
          return UNKNOWN;
        }
        // import('https://…') with an address decoded at run time: remote code loaded by a hidden
        // address, as a script element given one is.
        if (s !== undefined && /^(?:https?:)?\/\//i.test(s))
          this.effects.scriptSource(node, s, hasDeepTaint(v, 'decoded'));
        if (s !== undefined) return loadModule(this, s, node, v);
        return UNKNOWN;
      }
      case 'FunctionDeclaration': {
        this.effects.identifier(node.id as AstNode);
        const id = (node.id as AstNode | null)?.name;
        if (typeof id === 'string' && scope.vars.get(id)?.k !== 'fn')
          scope.vars.set(id, this.fnVal(node, scope));
        this.walkDefinition(node, scope, depth);
        return UNKNOWN;
      }
      case 'FunctionExpression':
      case 'ArrowFunctionExpression': {
        const v = this.fnVal(node, scope);
        this.walkDefinition(node, scope, depth);
        return v;
      }
      case 'ClassDeclaration':
      case 'ClassExpression': {
        this.effects.identifier(node.id as AstNode);
        const cls = this.fnVal(node, scope);
        const id = (node.id as AstNode | null)?.name;
        if (node.type === 'ClassDeclaration' && typeof id === 'string') scope.vars.set(id, cls);
        // Static fields (`static #cache = new Map()`) are properties of the class itself, set in
        // order with its static blocks (which may use them).
        const body = node.body as AstNode | undefined;
        this.walkChildren({ ...node, body: null } as AstNode, scope, depth);
        for (const m of ((body?.body ?? []) as AstNode[]).slice(0, 1000)) {
          const key = m.static && !m.computed ? keyName(m.key as AstNode) : undefined;
          if (
            (m.type === 'PropertyDefinition' ||
              m.type === 'ClassProperty' ||
              m.type === 'ClassPrivateProperty') &&
            key &&
            m.value
          ) {
            const v = this.walk(m.value as AstNode, scope, depth + 1);
            let own = this.fnProps.get(node);
            if (!own) this.fnProps.set(node, (own = new Map()));
            if (own.size < 200) own.set(key, v);
          } else this.walk(m, scope, depth + 1);
        }
        return cls;
      }
      case 'VariableDeclaration':
        for (const d of (node.declarations ?? []) as AstNode[]) {
          this.effects.identifier(d.id as AstNode);
          const init = d.init as AstNode | null;
          const v = init ? this.walk(init, scope, depth + 1) : UNKNOWN;
          this.concatenatedProse(init ?? undefined, v);
          if ((d.id as AstNode).name === '__webpack_modules__') this.bundleModulesFrom(v);
          this.bindPattern(d.id as AstNode, v, scope, depth);
          this.rewalkSelfCallbacks(d, init, v, scope, depth);
        }
        return UNKNOWN;
      case 'ImportDeclaration':
        return importDecl(this, node, scope);
      case 'ExportNamedDeclaration':
      case 'ExportAllDeclaration':
      case 'ExportDefaultDeclaration':
        return exportDecl(this, node, scope, depth);
      case 'ForInStatement':
      case 'ForOfStatement': {
        const right = this.walk(node.right as AstNode, scope, depth + 1);
        if (right.k === 'env') this.effects.envWhole(node);
        const forIn = node.type === 'ForInStatement';
        // (A short body goes over up to 256 elements: see below.)
        const bodySpan = rangeOf(node.body as AstNode);
        const shortBody = !!bodySpan && bodySpan[1] - bodySpan[0] <= 200;
        const items = forIn ? keysOf(right) : iterItems(right, shortBody ? 256 : MAX_UNROLL);
        const left = node.left as AstNode;
        const pattern =
          left.type === 'VariableDeclaration'
            ? ((left.declarations as AstNode[])[0]?.id as AstNode | undefined)
            : left;
        if (left.type === 'VariableDeclaration')
          for (const d of (left.declarations ?? []) as AstNode[]) this.effects.identifier(d.id as AstNode);
        // Loops over constant data: the body is walked once per element (bounded). A short body
        // (a name matched and kept, a value copied) goes over up to 256 elements, charged an
        // eighth a turn: a folder of the package listed, a table of names.
        if (
          pattern &&
          items &&
          items.length &&
          (this.unroll(items.length) ||
            (shortBody && items.length <= 256 && this.unrollMany(items.length / 8)))
        ) {
          for (const item of items) {
            this.bindPattern(pattern, item, scope, depth);
            this.walk(node.body as AstNode, scope, depth + 1);
          }
          return UNKNOWN;
        }
        if (pattern)
          this.bindPattern(
            pattern,
            right.k === 'keys' && right.of.k === 'env'
              ? { k: 'unknown', t: new Set(['env_key']) }
              : unknown([right]),
            scope,
            depth,
          );
        this.walk(node.body as AstNode, scope, depth + 1);
        return UNKNOWN;
      }
      case 'BlockStatement':
      case 'Program':
      case 'StaticBlock': {
        // `if (req.body.token !== KEY) return;` — a guard clause: the statements after it run only
        // when its test failed, so they depend on what the test read, as a branch's body would.
        let guards: Branch[] | undefined;
        try {
          for (const s of (node.body ?? []) as AstNode[]) {
            this.walk(s, scope, depth + 1);
            if (
              s.type === 'IfStatement' &&
              !s.alternate &&
              exits(s.consequent as AstNode) &&
              this.lastIfTest?.node === s
            )
              (guards ??= []).push(this.effects.enterBranch(s, this.lastIfTest.test, scope, true));
          }
        } finally {
          if (guards) for (const b of guards.reverse()) this.effects.leaveBranch(b);
        }
        return UNKNOWN;
      }
      case 'WithStatement': {
        const obj = this.walk(node.object as AstNode, scope, depth + 1);
        this.withObjects.push(obj);
        try {
          this.walk(node.body as AstNode, scope, depth + 1);
        } finally {
          this.withObjects.pop();
        }
        return UNKNOWN;
      }
      case 'CatchClause': {
        const fallbacks = new Map<string, { scope: Scope; old: Val }>();
        this.catchFallbacks.push(fallbacks);
        try {
          this.walkChildren(node, scope, depth);
        } finally {
          this.catchFallbacks.pop();
        }
        // (Only a fallback that says "nothing" — '', null, undefined, a value not known here —
        // gives way to the try block's value; a catch that sets another value is a path of its
        // own, often the one that runs.)
        for (const [name, { scope: at, old }] of fallbacks) {
          const now = at.lookup(name);
          if (now !== undefined && now !== old && emptyFallback(now)) at.assign(name, eitherOf(old, now));
        }
        return UNKNOWN;
      }
      case 'WhileStatement':
      case 'DoWhileStatement':
      case 'ForStatement':
        this.loop(node, scope, depth);
        return UNKNOWN;
      case 'SwitchStatement': {
        // (`switch (to) { case 'treasury': return TREASURY; … }` is an address book.)
        const d = node.discriminant as AstNode;
        const v = this.walk(d, scope, depth + 1);
        if (!this.testsCallerRecipient && this.namesCallerRecipient(d, v, scope))
          this.testsCallerRecipient = true;
        const cases = (node.cases ?? []) as AstNode[];
        // (On a command-line word known here, the cases it matches run, falling through.)
        const words = v.argv ? argvWords(v) : undefined;
        if (words) {
          const tests = cases.map((c) =>
            c.test ? asString(this.walk(c.test as AstNode, scope, depth + 1)) : undefined,
          );
          const starts = new Set<number>();
          const dflt = cases.findIndex((c) => !c.test);
          for (const w of words) {
            const at = tests.findIndex((t, i) => t === w && cases[i]!.test);
            if (at >= 0) starts.add(at);
            else if (dflt >= 0) starts.add(dflt);
          }
          const run = new Set<number>();
          for (const start of starts)
            for (let i = start; i < cases.length; i++) {
              run.add(i);
              const body = (cases[i]!.consequent ?? []) as AstNode[];
              const last = body[body.length - 1];
              if (
                last &&
                /^(?:BreakStatement|ReturnStatement|ThrowStatement|ContinueStatement)$/.test(last.type)
              )
                break;
            }
          for (const i of [...run].sort((a, b) => a - b))
            for (const st of (cases[i]!.consequent ?? []) as AstNode[]) this.walk(st, scope, depth + 1);
          return UNKNOWN;
        }
        for (const c of cases) this.walk(c, scope, depth + 1);
        return UNKNOWN;
      }
      default:
        if (
          node.type.startsWith('TS') &&
          node.type !== 'TSModuleDeclaration' &&
          node.type !== 'TSModuleBlock' &&
          node.type !== 'TSExportAssignment'
        ) {
          return UNKNOWN; // type-only syntax
        }
        this.walkChildren(node, scope, depth);
        return UNKNOWN;
    }
  }

  private walkChildren(node: AstNode, scope: Scope, depth: number): void {
    for (const key in node) {
      if (SKIP_KEYS.has(key)) continue;
      const v = node[key];
      if (Array.isArray(v)) {
        for (const c of v)
          if (c && typeof c === 'object' && typeof (c as AstNode).type === 'string')
            this.walk(c as AstNode, scope, depth + 1);
      } else if (v && typeof v === 'object' && typeof (v as AstNode).type === 'string')
        this.walk(v as AstNode, scope, depth + 1);
    }
  }

  private identifier(node: AstNode, scope: Scope): Val {
    const name = node.name as string;
    this.effects.identifier(node);
    const v = scope.lookup(name);
    // Inside `with (obj) { … }` (written around this code, not around its caller), a name the
    // object has is read from it (a name also bound is either), and a name bound nowhere is read
    // from a module or global object (`with (process) { with (binding('spawn_sync')) { spawn(req)
    // } }`), except `require` and the globals Node and browsers define.
    for (let i = this.withObjects.length - 1; i >= 0; i--) {
      const obj = this.withObjects[i]!;
      if (obj.k === 'obj' && obj.props.has(name))
        return v ? eitherOf(obj.props.get(name)!, v) : obj.props.get(name)!;
      if (
        !v &&
        (obj.k === 'global' || obj.k === 'mod' || obj.k === 'api') &&
        !GLOBAL_NAMES.has(name) &&
        !KNOWN_GLOBALS.has(name) &&
        !/^(?:require|module|exports|__dirname|__filename)$/.test(name)
      )
        return this.member(obj, name, node, scope, false);
    }
    if (v) return v;
    if (GLOBAL_NAMES.has(name)) return { k: 'global', name: 'globalObject' };
    if (KNOWN_GLOBALS.has(name)) return { k: 'global', name };
    // The page's own event methods, called bare (`addEventListener('input', h, true)`).
    if (WINDOW_EVENTS.has(name)) return { k: 'api', mod: 'global:window', path: name };
    // The package's own folder: paths that climb out of it reach other packages and the project.
    if (name === '__dirname' || name === '__filename') return withTaint({ k: 'unknown' }, [], 'own_dir');
    return UNKNOWN;
  }

  /** Prose built with `+` from pieces and returned or named (`return head + body + tail`): read whole. */
  private concatenatedProse(n: AstNode | undefined, v: Val): void {
    if (!n || n.type !== 'BinaryExpression' || n.operator !== '+' || v.k !== 'str') return;
    const text = v.v.replace(/\$\{…\}/g, ' ');
    if (text.length >= 80) this.collectString(text, n);
  }

  /**
   * Long strings are kept for the text rules (prose, prompts): literals, and prose assembled from
   * pieces (`[A, B, C].join(' ')`, `head + body`), whose sentences only make sense together.
   */
  collectString(v: string, node: AstNode): void {
    if (v.length >= 40 && /\s\S+\s/.test(v) && this.strings.length < 2000) {
      this.strings.push({ text: v.slice(0, 20_000), line: lineOf(node), context: 'string' });
    }
  }

  private objectExpr(node: AstNode, scope: Scope, depth: number): Val {
    const props = new Map<string, Val>();
    const all: Val[] = [];
    let descNode: AstNode | undefined;
    // Keys written after the spread of an object the caller handed over (see overCallerObject).
    let afterCaller: Set<string> | undefined;
    let callerName: string | undefined;
    for (const p of (node.properties ?? []) as AstNode[]) {
      if (p.type === 'SpreadElement' || p.type === 'SpreadProperty') {
        let v = this.walk(p.argument as AstNode, scope, depth + 1);
        // (Spread from a name a transaction goes by, `...tx`, `...params.transaction`.)
        const spreadName = /([\w$]+)\s*$/.exec(
          sourceText(this.input.text, p.argument as AstNode, 120) ?? '',
        )?.[1];
        if (v.k === 'unknown' && !v.t?.size && spreadName && TX_NAME.test(spreadName)) {
          afterCaller ??= new Set();
          callerName = sourceText(this.input.text, p.argument as AstNode, 120)?.replace(/\s+/g, '');
        }
        if (v.k === 'env') this.effects.envWhole(p);
        // `{ ...localStorage }`: a copy of all of the page's web storage.
        if (v.k === 'global' && /^(?:localStorage|sessionStorage)$/.test(v.name))
          v = withTaint({ k: 'unknown' }, [], 'page_secret');
        all.push(v);
        if (v.k === 'obj') for (const [k, x] of v.props) props.set(k, x);
        continue;
      }
      const key = p.computed
        ? propertyKey(this.walk(p.key as AstNode, scope, depth + 1))
        : keyName(p.key as AstNode);
      const valNode = p.value as AstNode;
      const v =
        p.type === 'ObjectMethod' || p.kind === 'get' || p.kind === 'set'
          ? { ...this.fnVal(p.type === 'ObjectMethod' ? p : valNode, scope), getter: p.kind === 'get' }
          : this.walk(valNode, scope, depth + 1);
      // (A setter is kept apart: assigning the property runs it.)
      if (p.kind === 'set' && key !== undefined) {
        props.set(setterKey(key), v);
        continue;
      }
      if (p.type === 'ObjectMethod') this.walkDefinition(p, scope, depth);
      if (key !== undefined && BUNDLE_TEXT_KEY.test(key))
        this.bundleText(p, v, p.type === 'ObjectMethod' ? p : valNode);
      if (v.k === 'env') this.effects.envWhole(p);
      all.push(v);
      if (key !== undefined) {
        // (`data: tx.data` is the caller's own call data written again, not call data of its own.)
        const copied =
          callerName !== undefined &&
          sourceText(this.input.text, valNode, 160)?.replace(/\s+/g, '') === `${callerName}.${key}`;
        if (!copied) afterCaller?.add(key);
        props.set(key, v);
        if (key === 'description' && v.k === 'str' && v.v.length >= 20) descNode = valNode;
        if ((key === 'hostname' || key === 'host') && v.k === 'str') this.effects.hostProperty(v.v);
      }
    }
    if (afterCaller?.size) overCallerObject(props, afterCaller);
    // `{ tag: 'script', children: code }` (Vite) and `{ tagName: 'script', innerHTML: code }`
    // (html-webpack-plugin): a script an HTML transform puts into built pages.
    const inline =
      asString(props.get('tag')) === 'script'
        ? props.get('children')
        : asString(props.get('tagName')) === 'script'
          ? props.get('innerHTML')
          : undefined;
    // `{ tag: 'script', attrs: { src } }` / `{ tagName: 'script', attributes: { src } }`: a script
    // element with an address, loaded by every built page.
    const scriptTag = asString(props.get('tag') ?? props.get('tagName')) === 'script';
    const attrs = scriptTag ? (props.get('attrs') ?? props.get('attributes')) : undefined;
    const tagSrc = attrs?.k === 'obj' ? attrs.props.get('src') : undefined;
    const tagUrl = tagSrc ? (asString(tagSrc) ?? (tagSrc.k === 'str' ? tagSrc.v : undefined)) : undefined;
    if (tagUrl !== undefined && /^(?:https?:)?\/\//i.test(tagUrl))
      this.effects.scriptSource(node, tagUrl, hasDeepTaint(tagSrc!, 'decoded'));
    if (inline?.k === 'str' && inline.v.length >= 40) {
      pageScript(this, node, inline);
      // Its text built from a decoded address (a URL kept reversed in a package field): the
      // script it loads comes from a hidden address.
      if (hasDeepTaint(inline, 'decoded')) {
        const src = SCRIPT_SRC_PROPERTY.exec(inline.v)?.[1] ?? SCRIPT_TAG_SRC.exec(inline.v)?.[1];
        if (src && /^(?:https?:)?\/\//i.test(src)) this.effects.scriptSource(node, src, true);
      }
    }
    // Page code not known here but decoded, downloaded or read out of a media file (a font's
    // private block XOR-decoded into a script): weighed as code compiled from that data.
    else if (inline?.t?.has('decoded') || inline?.t?.has('network_data') || inline?.t?.has('image'))
      this.effects.dynamicCode(node, 'a script injected into built pages', inline, undefined);
    // What a bundler plugin's `renderChunk` or `transform` answers (`{ code, map }`): the chunk's
    // text, with what the plugin added to the user's code.
    const chunkCode = props.has('map') ? props.get('code') : undefined;
    if (chunkCode) addedToBundle(this, node, chunkCode);
    // A module loader hook's answer (`load()` registered with module.register): its `source` is
    // the code Node runs for the module; decoded or downloaded source is code the package runs in
    // the user's own modules.
    const source = props.get('source');
    // (Shaped like a loader's answer: a format, shortCircuit or the next loader's answer spread in;
    // not a bundler's emitted asset, which names a type or a file.)
    const loaderShaped =
      (props.has('format') ||
        props.has('shortCircuit') ||
        ((node.properties ?? []) as AstNode[]).some((q) => q.type === 'SpreadElement')) &&
      !props.has('type') &&
      !props.has('fileName') &&
      !props.has('name');
    if (
      source &&
      loaderShaped &&
      (source.t?.has('decoded') || source.t?.has('network_data')) &&
      (this.loaderHookFile ??=
        /\bexport\s+(?:async\s+)?function\s+load\b|\bexports\.load\s*=|\bregisterHooks\s*\(/.test(
          this.input.text,
        ))
    )
      this.effects.dynamicCode(node, 'a module loader hook', source, undefined);
    // What a server hands the model itself: a sampling request's system prompt, and text content
    // of an MCP server's results (`{ type: 'text', text }`), read as agent-directed text.
    const prompt = props.get('systemPrompt');
    const content =
      asString(props.get('type')) === 'text' &&
      (this.mcpServerFile ??= /@modelcontextprotocol\/sdk|\bMcpServer\b/.test(this.input.text))
        ? props.get('text')
        : undefined;
    for (const t of [prompt, content])
      if (t?.k === 'str' && t.v.replace(/\$\{…\}/g, '').length >= 40 && this.strings.length < 2000)
        this.strings.push({
          text: t.v.replace(/\$\{…\}/g, ' ').slice(0, 20_000),
          line: lineOf(node),
          context: t === prompt ? 'tool_description' : 'tool_output',
        });
    // A prompt's message (`{ role: 'user', content: { type: 'text', text } }`) is said to the model,
    // not returned by a tool: its text is read as an instruction.
    const said = props.get('content');
    if (
      asString(props.get('role')) !== undefined &&
      said?.k === 'obj' &&
      asString(said.props.get('type')) === 'text'
    ) {
      const t = said.props.get('text');
      const text = t?.k === 'str' ? t.v.replace(/\$\{…\}/g, ' ').slice(0, 20_000) : undefined;
      for (const e of this.strings)
        if (e.text === text && e.context === 'tool_output') e.context = 'tool_description';
    }
    // A `description` is read by an agent when the object defines a tool (name, input schema,
    // handler), not when it documents a CLI option or a config field.
    const desc = props.get('description');
    if (
      descNode &&
      desc?.k === 'str' &&
      this.strings.length < 2000 &&
      [...props.keys()].some((k) =>
        /^(?:name|title|inputSchema|input_schema|parameters|schema|annotations|handler|execute|run|function)$/.test(
          k,
        ),
      )
    ) {
      this.strings.push({
        text: desc.v.slice(0, 20_000),
        line: lineOf(descNode),
        context: 'tool_description',
      });
    }
    if (props.size >= 2 && props.size <= 64) secretFieldHandlers(this, node, props, scope, depth);
    // The registry's publish request, written by hand: what `npm publish` sends.
    if (props.has('_attachments') && props.has('versions')) this.effects.publishDocument(node);
    const made: Val = withTaint({ k: 'obj', props }, all);
    made.made = ++this.made;
    return made;
  }

  /**
   * while / do…while / for. A short loop whose test the evaluator knows runs as the program would
   * (bounded by the file's unroll budget): the counter loops that rotate an obfuscator's string
   * table (`while (--n) arr.push(arr.shift())`) come out with the table in its final order.
   * Otherwise the body is walked once.
   */
  private loop(node: AstNode, scope: Scope, depth: number): void {
    // `for (i = 0; i < list.length; i++)`: the counter visits every item of the list; `list[i]`
    // is each of its items in turn (a table of names walked whole), not one picked out of it.
    const test = node.test as AstNode | null;
    const list = test?.type === 'BinaryExpression' ? (test.right as AstNode) : undefined;
    const counter =
      node.type === 'ForStatement' &&
      test?.type === 'BinaryExpression' &&
      (test.operator === '<' || test.operator === '<=') &&
      (test.left as AstNode).type === 'Identifier' &&
      list?.type === 'MemberExpression' &&
      !list.computed &&
      (list.object as AstNode).type === 'Identifier' &&
      keyName(list.property as AstNode) === 'length'
        ? `${(test.left as AstNode).name as string}:${(list.object as AstNode).name as string}`
        : undefined;
    if (counter === undefined) return this.loopTurns(node, scope, depth);
    this.listCounters.push(counter);
    try {
      this.loopTurns(node, scope, depth);
    } finally {
      this.listCounters.pop();
    }
  }
  /** Counters of the `for` loops being walked that run over a whole list (see loop). */
  private readonly listCounters: string[] = [];

  private loopTurns(node: AstNode, scope: Scope, depth: number): void {
    const isFor = node.type === 'ForStatement';
    if (isFor) this.walk(node.init as AstNode | null, scope, depth + 1);
    const test = node.test as AstNode | null;
    const body = node.body as AstNode;
    const span = rangeOf(body);
    const short = !!span && span[1] - span[0] <= 300;
    // One short expression a turn (`out += String.fromCharCode(parseInt(hex.substr(i, 2), 16) ^ k)`):
    // a decoding loop over a known text, cheap to walk, runs up to 4,096 turns, charged a
    // sixteenth each.
    const stmts = body.type === 'BlockStatement' ? ((body.body ?? []) as AstNode[]) : [body];
    const cheap =
      !!span && span[1] - span[0] <= 160 && stmts.length === 1 && stmts[0]!.type === 'ExpressionStatement';
    const step = () => {
      this.walk(body, scope, depth + 1);
      if (isFor) this.walk(node.update as AstNode | null, scope, depth + 1);
    };
    if (!test || !short || test.type === 'Literal' || test.type === 'BooleanLiteral') {
      this.walk(test, scope, depth + 1);
      step();
      return;
    }
    let ran = false;
    for (let i = 0; i < (cheap ? 4_096 : MAX_LOOP_TURNS); i++) {
      if (!(node.type === 'DoWhileStatement' && i === 0)) {
        const go = truthy(this.walk(test, scope, depth + 1));
        if (go === false) {
          // A body that never runs is still what the code can do: walked once as not running.
          if (!ran) {
            this.effects.dormant++;
            try {
              step();
            } finally {
              this.effects.dormant--;
            }
          }
          return;
        }
        if (go === undefined) break;
      }
      if ((!cheap || i % 16 === 0) && !this.unroll(1)) break;
      const s0 = this.steps;
      step();
      if (ran) this.loopSteps += this.steps - s0;
      ran = true;
      if (this.timedOut) return;
    }
    // A short loop whose test is not known runs more than once as a rule: its body is walked a
    // second time, so what it builds on itself (a folder climbed with `..` until a test holds,
    // a string grown) shows the step repeated.
    if (!ran) {
      step();
      if (this.unroll(1)) step();
    }
  }

  unroll(n: number): boolean {
    if (n > MAX_UNROLL || n > this.unrollLeft) return false;
    this.unrollLeft -= n;
    return true;
  }

  /** `unroll` past MAX_UNROLL, for loops whose turns are cheap (charged `cost` of the file's budget). */
  private unrollMany(cost: number): boolean {
    const n = Math.ceil(cost);
    if (n > this.unrollLeft) return false;
    this.unrollLeft -= n;
    return true;
  }

  /** A string literal written with \\x / \\u escapes in the source (`"\\x73\\x70awn"`). */
  private escapedLiteral(n: AstNode): boolean {
    const r = rangeOf(n);
    if (!r) return false;
    return /\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F{])/.test(
      this.input.text.slice(r[0], Math.min(r[1], r[0] + 400)),
    );
  }

  private memberExpr(node: AstNode, scope: Scope, depth: number): Val {
    const objNode = node.object as AstNode;
    const obj = this.walk(objNode, scope, depth + 1);
    const propNode = node.property as AstNode;
    let key: string | undefined;
    let obfKey = false;
    let kv: Val | undefined;
    let everyItem = false;
    if (node.computed) {
      kv = this.walk(propNode, scope, depth + 1);
      key = asString(kv);
      this.lastKeyDecoded = !!(kv.viaDecoder || kv.t?.has('decoded'));
      const literal =
        (propNode.type === 'Literal' || propNode.type === 'StringLiteral') && !this.escapedLiteral(propNode);
      obfKey = key !== undefined && !literal && !kv.listed;
      // (The list the loop test measures, indexed by its counter, items written as literals.)
      everyItem =
        propNode.type === 'Identifier' &&
        objNode.type === 'Identifier' &&
        obj.k === 'arr' &&
        this.listCounters.includes(`${propNode.name as string}:${objNode.name as string}`);
      this.effects.computedKey(node, obj, kv, key, literal);
    } else {
      key = keyName(propNode);
    }
    this.lastMemberObj = obj;
    if (key === undefined) {
      // One variable whose name is not known here (`process.env[opts.tokenEnv]`): not the whole
      // environment, but it may be a secret. A name taken from the environment itself (`for (k
      // in process.env)`, the keys of `Object.keys(process.env)`) or one decoded here carries
      // the whole environment.
      if (obj.k === 'env' && kv && !kv.t?.size && kv.k !== 'env') {
        this.effects.source(scope, 'secret_env', node);
        return withTaint({ k: 'unknown' }, [], 'secret_env');
      }
      // (A record of `require.cache` found by a key computed at run time.)
      if (obj.k === 'global' && obj.name === 'requireCache') return { k: 'global', name: 'mainModule' };
      return anyMember(obj);
    }
    let v = this.member(obj, key, node, scope, obfKey);
    // A table read with a key that is a default behind a value not known here (`ZONES[tz]` after
    // `tz = resolvedTimeZone() || ''`): any of its entries, the default's own first.
    if (kv?.dflt && (obj.k === 'obj' || obj.k === 'arr'))
      v = v.k === 'unknown' && !v.t?.size ? anyMember(obj) : eitherOf(v, anyMember(obj));
    this.lastMemberObj = obj;
    if (obfKey) this.effects.computedMember(node, obj, key, v, this.lastKeyDecoded);
    // `tx.to` of a transaction the caller handed over: the caller's recipient.
    if (v.k === 'unknown' && RECIPIENT_NAME.has(key)) v = callerRecipient(v);
    // (An item of a list walked whole is a name read from a table, as a key enumerated is.)
    return everyItem && v.k === 'str' && v.lit ? { ...v, listed: true } : v;
  }

  /**
   * A bundler option or plugin hook whose text goes into the bundles it emits: a banner or footer
   * (a string, esbuild's `{ js }`, or a function returning one) and what a `renderChunk` or
   * `transform` hook returns around the user's code.
   */
  private bundleText(at: AstNode, v: Val, valNode: AstNode): void {
    if (v.k === 'fn') {
      const last = this.lastDefinition;
      if (last?.node === valNode || last?.node === v.node) addedToBundle(this, at, last.returns);
    } else if (v.k === 'obj') {
      const js = v.props.get('js');
      if (js) addedToBundle(this, at, js);
    } else addedToBundle(this, at, v);
  }

  /**
   * An object turned into text (`${obj}`, `obj + ''`) runs its `Symbol.toPrimitive` or `toString`
   * method: names hidden behind a coercion (`{ [Symbol.toPrimitive]: () => 'ofnIresu'.split('').reverse().join('') }`).
   */
  private primitive(v: Val, at: AstNode, scope: Scope, depth: number): Val {
    if (v.k !== 'obj') return v;
    const fn = v.props.get('\u0000symbol.toPrimitive') ?? v.props.get('toString');
    if (fn?.k !== 'fn' || fn.getter) return v;
    return userCall(this, at, fn, [{ k: 'str', v: 'string' }], scope, depth + 1, v);
  }

  /** Reading an accessor property runs its getter with the object as `this` (once at a time). */
  private callGetter(fn: FnVal, self: Val, at: AstNode, scope: Scope): Val {
    // (A getter that reads another getter runs it, eight deep at most: a chain of three hundred
    // `get pN() { return o.pN1 }` would overflow the stack.)
    if (
      this.gettersRunning.has(fn.node) ||
      this.gettersRunning.size >= 8 ||
      this.inlineLeft <= 0 ||
      this.timedOut
    )
      return unknown([self]);
    this.gettersRunning.add(fn.node);
    this.inlineLeft--;
    try {
      // A getter of a class or object another file made (`new LayerSet().user`): walked in its
      // file, as its methods are.
      if (fn.owner && fn.owner !== this) return userCall(this, at, fn, [], scope, 1, self);
      const own = fn.scope instanceof Scope ? fn.scope : (this.rootScope ?? new Scope(undefined));
      return this.walkFunction(fn.node, own, 1, [], self);
    } finally {
      this.gettersRunning.delete(fn.node);
    }
  }
  private readonly gettersRunning = new Set<AstNode>();

  /** A read through a Proxy's `get` trap: the trap runs with the target, the key and the proxy. */
  private callTrap(proxy: Val, trap: { get: Val; target: Val }, key: string, at: AstNode, scope: Scope): Val {
    const fn = trap.get as FnVal;
    if (this.gettersRunning.has(fn.node) || this.inlineLeft <= 0 || this.timedOut) return unknown([proxy]);
    this.gettersRunning.add(fn.node);
    this.inlineLeft--;
    try {
      const v = userCall(this, at, fn, [trap.target, { k: 'str', v: key }, proxy], scope, 1);
      // (A trap that gives nothing known here leaves what the target holds.)
      return v.k === 'unknown' && !v.t?.size && trap.target.k === 'obj'
        ? (trap.target.props.get(key) ?? v)
        : v;
    } finally {
      this.gettersRunning.delete(fn.node);
    }
  }

  /** The prototype object of a function written in this file (made on first use). */
  prototypeOf(fn: AstNode): Val & { k: 'obj' } {
    let p = this.prototypes.get(fn);
    if (!p) this.prototypes.set(fn, (p = { k: 'obj', props: new Map() }));
    return p;
  }

  /**
   * A template's text from its parts (`cooked`, or as written for `String.raw`) and the values
   * already walked; a value not known here stands as `${…}`. Long texts are read as string
   * literals are (addresses, prose, page script tags).
   */
  private templateText(quasi: AstNode, vals: Val[], form: 'cooked' | 'raw'): Val {
    let out = '';
    let constant = true;
    ((quasi.quasis ?? []) as AstNode[]).forEach((q, i) => {
      const v = q.value as { cooked?: string | null; raw?: string } | undefined;
      out += (form === 'raw' ? v?.raw : v?.cooked) ?? '';
      if (i < vals.length) {
        const s = asString(vals[i]);
        if (s === undefined) {
          constant = false;
          out += '${…}';
        } else out += s;
      }
    });
    if (form === 'cooked' && out.length > 20) {
      this.effects.stringLiteral(out, quasi, false);
      this.collectString(out, quasi);
      this.htmlScriptTag(quasi, out, vals);
    }
    return constant ? str(out, vals) : withTaint({ k: 'str', v: out }, vals, undefined);
  }

  /** Module functions of a webpack bundle, by id, from its module map. */
  private bundleModulesFrom(v: Val): void {
    if (v.k !== 'obj') return;
    for (const [id, fn] of [...v.props].slice(0, 2000))
      if (fn.k === 'fn' && !this.bundleModules.has(id)) {
        this.bundleModules.set(id, fn);
        const span = rangeOf(fn.node);
        if (span) this.bundleBytesLeft += span[1] - span[0];
      }
  }

  /** An element's attributes as props (`<input type="password" onChange={…} />`), for the models. */
  private jsxProps(node: AstNode, scope: Scope, depth: number): void {
    const attrs = (node.attributes ?? []) as AstNode[];
    if (attrs.length < 2 || attrs.length > 64) return;
    const props = new Map<string, Val>();
    for (const a of attrs) {
      const name = a.type === 'JSXAttribute' ? (a.name as AstNode).name : undefined;
      const v = a.value as AstNode | null | undefined;
      if (typeof name !== 'string' || !v) continue;
      const e = v.type === 'JSXExpressionContainer' ? (v.expression as AstNode) : v;
      if (typeof e.value === 'string') props.set(name, { k: 'str', v: e.value });
      else if (isFunctionNode(e)) props.set(name, this.fnVal(e, scope));
      else if (e.type === 'Identifier') {
        const x = scope.lookup(e.name as string);
        if (x) props.set(name, x);
      }
    }
    secretFieldHandlers(this, node, props, scope, depth);
  }

  /** Property access on an abstract value. */
  member(obj: Val, key: string, at: AstNode, scope: Scope, obf: boolean): Val {
    // `keypair.secretKey`, `wallet.privateKey`, `account.mnemonic`: key material by the name of the
    // property it is read from, as by the name of a variable it is bound to.
    if (KEY_MATERIAL.test(key)) return keyMaterial(key, this.memberOf(obj, key, at, scope, obf));
    return requestCredentialMember(at, obj, key, this.memberOf(obj, key, at, scope, obf));
  }

  private memberOf(obj: Val, key: string, at: AstNode, scope: Scope, obf: boolean): Val {
    const mark = obf ? markObfuscated : sameValue;
    // A byte of a buffer decoded here (`buf[i]`), and its length in bytes.
    if (obj.k === 'str' && obj.bytes) {
      if (key === 'length') return { k: 'num', v: obj.bytes.length };
      const i = Number(key);
      // (It carries what the buffer does: bytes of decoded data.)
      if (Number.isInteger(i) && i >= 0 && i < obj.bytes.length)
        return withTaint({ k: 'num', v: obj.bytes[i]! }, [obj]);
      // Its array methods go over its bytes (`buf.forEach((b, i) => { buf[i] = b ^ k[i % n] })`).
      if (BYTE_ITERATION.has(key) && obj.bytes.length <= 4096)
        return this.memberOf(
          { k: 'arr', items: Array.from(obj.bytes, (b): Val => withTaint({ k: 'num', v: b }, [obj])) },
          key,
          at,
          scope,
          obf,
        );
    }
    // The fields of forms or inputs found by enumerating the page: what the user typed in them.
    if (/^(?:value|elements|checked)$/.test(key) && obj.t?.has('page_form'))
      return withTaint({ k: 'unknown' }, [obj], 'page_secret');
    // (`typed.replace(/\S/g, '*')`: read as the string method it is, see stringReplace.)
    if ((key === 'replace' || key === 'replaceAll') && obj.k === 'unknown' && obj.t?.size)
      return withTaint({ k: 'api', mod: 'string', path: key, base: obj }, [obj]);
    // The length of what a user typed (`pw.length > 0`, a field's length in a monitor's event) is
    // not what they typed.
    if (key === 'length' && obj.k === 'unknown' && obj.t?.size) {
      const kept = [...obj.t].filter((t) => !TYPED_SECRETS.has(t));
      return kept.length === obj.t.size
        ? withTaint({ k: 'unknown' }, [obj])
        : { k: 'unknown', t: new Set(kept) };
    }
    // A module's compiler kept under another name (`const c = m._compile; c.call(m, code, f)`,
    // a require.extensions hook): calls of it compile their source.
    if (key === '_compile' && obj.k === 'unknown') return { k: 'api', mod: 'module', path: '_compile' };
    // CommonJS's own `module` object (not shadowed): `module.require` is require, however it is
    // named; `module.constructor` is Node's Module class, whose `_load` is require reached another
    // way.
    if (
      (key === 'require' || key === 'constructor') &&
      obj.k === 'unknown' &&
      !obj.t?.size &&
      (at.object as AstNode | undefined)?.type === 'Identifier' &&
      (at.object as AstNode).name === 'module' &&
      scope.lookup('module') === undefined
    )
      return key === 'require' ? { k: 'global', name: 'require' } : { k: 'mod', name: 'module' };
    // `require.bind(module)`: the same loader (see dispatch).
    if (key === 'bind' && obj.k === 'global' && obj.name === 'require') return obj;
    switch (obj.k) {
      case 'mod':
        if (key === 'default' || key === '__esModule') return obj;
        // (`require('@babel/core').template`: Babel's template builder, as `@babel/template` is.)
        if (obj.name === '@babel/core' && key === 'template') return { k: 'mod', name: '@babel/template' };
        if (obj.name === 'process' && key === 'env') return { k: 'env' };
        // In code a `new Worker(code, { eval: true, workerData })` runs: what the parent gave it.
        if (obj.name === 'worker_threads' && key === 'workerData' && this.input.workerData)
          return this.input.workerData;
        return mark({ k: 'api', mod: obj.name, path: key });
      case 'api':
        if (obj.mod === 'fs' && obj.path === 'promises') return mark({ k: 'api', mod: 'fs', path: key });
        if (key === 'call' || key === 'apply' || key === 'bind')
          return mark({ ...obj, path: `${obj.path}.${key}` });
        return mark(withTaint({ k: 'api', mod: obj.mod, path: `${obj.path}.${key}` }, [obj]));
      case 'global':
        if (obj.name === 'globalObject') {
          if (GLOBAL_NAMES.has(key)) return obj;
          if (WINDOW_EVENTS.has(key)) return mark({ k: 'api', mod: 'global:window', path: key });
          if (KNOWN_GLOBALS.has(key)) {
            if (obf) this.effects.computedGlobal(at, key, this.lastKeyDecoded);
            return mark({ k: 'global', name: key });
          }
          return UNKNOWN;
        }
        // (In code a parent ran as `node -e code a b`: what it was handed on the command line.)
        if (obj.name === 'process' && key === 'argv' && this.input.childArgv) return this.input.childArgv;
        if (obj.name === 'process') return processMember(key, mark);
        // Bun's and Deno's environment objects are process.env.
        if (obj.name === 'Bun' && key === 'env') return { k: 'env' };
        // The page's whole cookie jar.
        if (obj.name === 'document' && key === 'cookie')
          return withTaint({ k: 'api', mod: 'cookiejar', path: '' }, [], 'page_secret');
        if (obj.name === 'document' && key === 'forms') return withTaint({ k: 'unknown' }, [], 'page_form');
        // Who is visiting: what a loader checks to show itself to some visitors only.
        if (
          (obj.name === 'navigator' && /^(?:userAgent|webdriver|platform|userAgentData)$/.test(key)) ||
          (obj.name === 'document' && key === 'referrer')
        ) {
          const who: Val = withTaint({ k: 'api', mod: `global:${obj.name}`, path: key }, [], 'visitor');
          if (key === 'referrer') who.t!.add('referrer');
          return who;
        }
        if (obj.name === 'mainModule' && key === 'require') return { k: 'global', name: 'require' };
        // `require.cache` holds the loaded modules' records: each one's `require` is require
        // (`require.cache[key].require('child_process')`).
        if (obj.name === 'require' && key === 'cache') return { k: 'global', name: 'requireCache' };
        if (obj.name === 'requireCache') return { k: 'global', name: 'mainModule' };
        // Function.constructor is Function itself (a common way to avoid writing `new Function`), and
        // so is the constructor of any built-in constructor (`[].constructor.constructor`).
        if (key === 'constructor' && BUILTIN_CONSTRUCTORS.has(obj.name))
          return mark({ k: 'global', name: 'Function' });
        return mark({ k: 'api', mod: `global:${obj.name}`, path: key });
      case 'env':
        return envMember(this, key, at, scope);
      case 'obj': {
        if (obj.trap) return this.callTrap(obj, obj.trap, key, at, scope);
        const v = obj.props.get(key);
        if (v?.k === 'fn' && v.getter) return this.callGetter(v, obj, at, scope);
        if (!v && key === 'constructor') return mark({ k: 'global', name: 'Object' });
        return v ?? unknown([obj]);
      }
      case 'arr': {
        if (key === 'constructor') return mark({ k: 'global', name: 'Array' });
        if (key === 'raw' && obj.raw) return obj.raw;
        const i = Number(key);
        if (Number.isInteger(i) && obj.items[i]) {
          // A list that carries data as a whole (one branch of a condition was a page's elements,
          // the other a list of one) hands that to each element read from it.
          const item = obj.items[i]!;
          return obj.t?.size && item !== UNKNOWN ? withTaint({ ...item } as Val, [item, obj]) : item;
        }
        if (key === 'length') return { k: 'num', v: obj.items.length };
        // Past the end of a list known here: nothing known (`v[i] ?? ''` gives the default).
        // (Not known to be absent: code walked but not run may add elements.)
        if (Number.isInteger(i) && i >= obj.items.length && !obj.t?.size) return UNKNOWN;
        return withTaint({ k: 'api', mod: 'array', path: key, base: obj }, [obj]);
      }
      case 'entry':
        if (key === '1') return mark({ ...this.member(obj.of, obj.key, at, scope, false), obf: true });
        if (key === '0') return { k: 'str', v: obj.key };
        return UNKNOWN;
      case 'entrylist':
        if (key === '0') return { k: 'entry', of: obj.of, key: obj.key };
        return UNKNOWN;
      case 'keys': {
        // `Object.keys({ process })[0]`: a name of a known object.
        const names = keysOf(obj.of);
        if (names && key === 'length') return { k: 'num', v: names.length };
        const i = Number(key);
        if (names && Number.isInteger(i)) return names[i] ?? UNKNOWN;
        return { k: 'api', mod: 'array', path: key, base: obj };
      }
      case 'desc':
        if (key === 'value' || key === 'get')
          return { ...this.member(obj.of, obj.key, at, scope, false), obf: true };
        return UNKNOWN;
      case 'str':
        if (key === 'constructor') return mark({ k: 'global', name: 'String' });
        if (key === 'length') return { k: 'num', v: obj.v.length };
        // A character of a text keeps what the text carries (decoded bytes read one by one).
        if (/^\d+$/.test(key))
          return obj.t?.size
            ? withTaint({ k: 'str', v: obj.v.charAt(Number(key)) }, [obj])
            : { k: 'str', v: obj.v.charAt(Number(key)) };
        return withTaint({ k: 'api', mod: 'string', path: key, base: obj }, [obj]);
      case 'entries':
        return withTaint({ k: 'api', mod: 'array', path: key, base: obj }, [obj]);
      case 'net':
        // What an XMLHttpRequest received.
        if (/^(?:responseText|response|responseXML)$/.test(key))
          return withTaint({ k: 'unknown' }, [obj], 'network_data');
        return withTaint({ k: 'api', mod: 'netobj', path: key }, [obj]);
      case 'fn':
        // (function () {}).constructor / (() => {}).constructor: the Function constructor.
        if (key === 'constructor') return mark({ k: 'global', name: 'Function' });
        // `F.prototype`: the object whose methods `new F()` instances get (ES5 classes,
        // transpiled code).
        if (key === 'prototype') return this.prototypeOf(obj.node);
        // `jQuery.fn`, `jQuery.ajax`: properties a function was given (libraries in the jQuery style).
        {
          const own = this.fnProps.get(obj.node)?.get(key);
          if (own) return own;
        }
        // `Reporter.send(x)`: a class's static method, `this` bound to the class.
        if (obj.node.type === 'ClassDeclaration' || obj.node.type === 'ClassExpression') {
          const m = staticMember(obj.node, key);
          if (m && (m.type === 'MethodDefinition' || m.type === 'ClassMethod'))
            return this.fnVal(
              m.type === 'ClassMethod' ? m : (m.value as AstNode),
              obj.scope instanceof Scope ? obj.scope : scope,
              obj,
            );
          // `static HOST = '…'`: the field's value (evaluated where the class was defined).
          if (m && (m.type === 'PropertyDefinition' || m.type === 'ClassProperty') && m.value)
            return this.walk(m.value as AstNode, obj.scope instanceof Scope ? obj.scope : scope, 1);
        }
        return withTaint({ k: 'unknown' }, [obj]);
      default:
        return withTaint({ k: 'unknown' }, [obj]);
    }
  }

  private assignment(node: AstNode, scope: Scope, depth: number): Val {
    const left = node.left as AstNode;
    const v = this.walk(node.right as AstNode, scope, depth + 1);
    if (left.type === 'Identifier') {
      const name = left.name as string;
      this.effects.assignment(node, name, v, scope);
      if (name === 'location' && scope.lookup('location') === undefined) this.effects.navigation(node, v);
      const old = scope.lookup(name);
      if (
        this.repeating > 0 &&
        old?.k === 'num' &&
        node.operator !== '=' &&
        !scope.declaresInFunction(name)
      ) {
        // A counter kept outside a handler that runs again and again (`i += 1`) has no one value.
        scope.assign(name, UNKNOWN);
      } else if (node.operator === '+=') {
        const was = old ?? UNKNOWN;
        const a = asString(was);
        const b = asString(v);
        scope.assign(
          name,
          was.k === 'num' && v.k === 'num'
            ? { k: 'num', v: was.v + v.v }
            : a !== undefined && b !== undefined
              ? str(a + b, [was, v])
              : // (Text added to what is not known here, `cur += 'registry=…'`: known in part, as
                // with `+`; not from holes alone: `out += ch` from `''` builds nothing known.)
                (was.k === 'str' || v.k === 'str') &&
                  (a ?? b)!.length <= 100_000 &&
                  (a ?? b)!.replace(/\$\{…\}/g, '').trim() !== ''
                ? withTaint({ k: 'str', v: (a ?? '${…}') + (b ?? '${…}') }, [was, v])
                : unknown([was, v]),
        );
      } else if (node.operator === '??=' || node.operator === '||=' || node.operator === '&&=') {
        // Logical assignment: either value may be the one kept.
        scope.assign(name, old ? eitherOf(old, v) : v);
      } else if (node.operator !== '=') {
        // `-=`, `*=` … : a number known only when both are.
        const was = old ?? UNKNOWN;
        const n = was.k === 'num' && v.k === 'num' ? arith(node.operator as string, was.v, v.v) : undefined;
        scope.assign(name, n === undefined ? unknown([was, v]) : { k: 'num', v: n });
      } else if (this.unmatched > 0 && v.k === 'unknown' && old !== undefined && old.k !== 'unknown') {
        // (Under a search that found nothing: see IfStatement.)
      } else if (this.effects.dormant > 0 && v.k === 'unknown' && !v.t?.size && old?.t?.size) {
        // Code walked but not run yet (a hook, a method nobody has called) does not erase what a
        // name is known to carry with a value it knows nothing about (`root = cfg.root` in a
        // config hook leaves `root` the working directory it was set to).
      } else {
        // A fallback set when the try block failed (`catch { shim = '' }`): inside the catch block
        // it is the value; after it, the value the try block gave stays the one followed, with
        // the fallback beside it (see CatchClause).
        const fallbacks = this.catchFallbacks[this.catchFallbacks.length - 1];
        if (fallbacks && old !== undefined && old.k !== 'unknown' && !fallbacks.has(name))
          fallbacks.set(name, { scope, old });
        scope.assign(name, v);
      }
      // A worker's own global handler (`onmessage = (m) => …`), as `self.onmessage = …` is.
      if (name === 'onmessage' && old === undefined) domEventHandler(this, name, v, scope, depth);
      this.effects.assignedIdentifier(left);
    } else if (left.type === 'MemberExpression') {
      const hooked = left.object as AstNode;
      // A computed key known here (`g[names(0)] = …`, `X[k] = …` over a list of names) is the
      // property assigned, as a written one is.
      const computedKey = left.computed
        ? asString(this.walk(left.property as AstNode, scope, depth + 1))
        : undefined;
      const prop = left.computed ? computedKey : keyName(left.property as AstNode);
      // The assigned target as written, with a computed key spelled out (`g.fetch`).
      const leftText =
        left.computed && computedKey !== undefined && /^[\w$]+$/.test(computedKey)
          ? `${sourceText(this.input.text, hooked, 160)?.replace(/\s+/g, '') ?? ''}.${computedKey}`
          : (sourceText(this.input.text, left, 200)?.replace(/\s+/g, '') ?? '');
      this.effects.memberAssignment(
        node,
        leftText,
        hooked.type === 'Identifier' ? scope.lookup(hooked.name as string) : undefined,
      );
      // `tx.to = ADDR`: an address known here (from any file) written as a transaction's recipient.
      if (prop && RECIPIENT_FIELD.test(prop)) {
        const to = asString(v);
        if (to !== undefined) this.effects.recipientValue(to, node);
      }
      // A webpack chunk file's modules (`exports.modules = { 904: (m, e, __webpack_require__) => … }`).
      if (
        prop === 'modules' &&
        /^(?:module\.)?exports$/.test(sourceText(this.input.text, left.object as AstNode, 40) ?? '') &&
        (this.chunkFile ??= /\bexports\.ids?\s*=|__webpack_require__/.test(this.input.text))
      )
        this.bundleModulesFrom(v);
      // document.onkeypress = fn / form.onsubmit = fn: handlers by property.
      domEventHandler(this, prop, v, scope, depth);
      // ws.onmessage = fn on a socket the code opened: it runs with what the server sends.
      if (prop === 'onmessage' && v.k === 'fn' && (left.object as AstNode).type === 'Identifier') {
        const socket = scope.lookup((left.object as AstNode).name as string);
        if (socket?.t?.has('network_data') && !this.rewalked.has(v.node)) {
          this.rewalked.add(v.node);
          const data = withTaint({ k: 'unknown' }, [socket], 'network_data');
          this.walkFunction(v.node, scope, depth + 1, [
            withTaint({ k: 'obj', props: new Map([['data', data]]) }, [data]),
          ]);
        }
      }
      // xhr.onload = fn / onreadystatechange: it runs once the answer is in, after the code
      // that sends the request (walked with the deferred handlers, after the top level).
      // (So do a data channel's or socket's onopen handlers: they run once it is connected.)
      if (
        (prop === 'onload' || prop === 'onreadystatechange' || prop === 'onopen') &&
        v.k === 'fn' &&
        (left.object as AstNode).type === 'Identifier' &&
        isConnection(scope.lookup((left.object as AstNode).name as string)) &&
        this.deferred.length < 64
      )
        this.deferred.push({ node, fn: v, params: [], scope, depth, dormant: this.effects.dormant });
      // window.fetch = fn / XMLHttpRequest.prototype.send = fn: hooks on the page's requests.
      if (prop === 'fetch' || prop === 'send' || prop === 'setRequestHeader') {
        // `w.fetch = …` where w is the page's global object (handed to a function as `window`).
        const onGlobal =
          prop === 'fetch' && left.object && (left.object as AstNode).type === 'Identifier'
            ? scope.lookup((left.object as AstNode).name as string)
            : undefined;
        networkHook(
          this,
          onGlobal?.k === 'global' && onGlobal.name === 'globalObject' ? 'fetch' : leftText,
          v,
          scope,
          depth,
        );
      }
      // img.src = 'https://host/p?d=' + data / link.href / form.action: a request by assignment.
      requestByAssignment(this, node, prop, v, scope);
      const target = this.walk(left.object as AstNode, scope, depth + 1);
      if (prop === 'action') formActionHijack(this, node, target, v, scope);
      if (target.k === 'api' && target.mod === 'domscript' && prop === 'src') {
        const url = asString(v) ?? (v.k === 'str' ? v.v : undefined);
        if (url) {
          this.elementSrc.set(target, url);
          this.effects.scriptSource(
            node,
            url,
            hasDeepTaint(v, 'decoded'),
            target.path === 'frame' ? 'frame' : 'script',
          );
        }
      }
      // location.href = url / window.location = url: the page goes elsewhere.
      if (
        (prop === 'href' && isPageLocation(this.input.text, left.object as AstNode)) ||
        (prop === 'location' &&
          /^(?:window|document|top|self)$/.test(
            sourceText(this.input.text, left.object as AstNode, 10) ?? '',
          ))
      )
        this.effects.navigation(node, v);
      const key = left.computed ? undefined : keyName(left.property as AstNode);
      if (target.k === 'env' && key) this.effects.envAssigned(key);
      // A chunk's text added to in a bundler hook (`chunk.code += extra`), an esbuild footer set
      // (`options.footer = { js }`): what the plugin puts into the bundles.
      if (key === 'code' && node.operator === '+=') addedToBundle(this, node, v);
      else if (key !== undefined && BUNDLE_TEXT_KEY.test(key))
        this.bundleText(node, v, node.right as AstNode);
      const setter = target.k === 'obj' ? target.props.get(setterKey(key ?? computedKey ?? '')) : undefined;
      // `buf[i] ^= key.charCodeAt(i % n)`: a byte of a buffer decoded here, changed in place.
      const byteAt =
        target.k === 'str' && target.bytes && computedKey !== undefined ? Number(computedKey) : NaN;
      if (
        target.k === 'str' &&
        target.bytes &&
        Number.isInteger(byteAt) &&
        byteAt >= 0 &&
        byteAt < target.bytes.length
      ) {
        const old = target.bytes[byteAt]!;
        const n =
          v.k === 'num'
            ? node.operator === '='
              ? v.v
              : arith(node.operator as string, old, v.v)
            : undefined;
        if (n !== undefined && Number.isFinite(n)) target.bytes[byteAt] = n & 255;
        else target.bytes = undefined;
      }
      if (setter?.k === 'fn') userCall(this, node, setter, [v], scope, depth, target);
      else if (target.k === 'obj' && (key ?? computedKey) !== undefined && target.props.size < 1000) {
        const k = (key ?? computedKey)!;
        // `out.to = ROUTE` over the `to` the caller gave: an address written in the code put in
        // its place.
        const over = RECIPIENT_NAME.has(k) ? overridesRecipient(v, target.props.get(k)) : undefined;
        target.props.set(k, over ?? v);
        this.filled(target);
      }
      // `out[i] = bytes[i] ^ key[i % n]`: a buffer or list filled element by element holds what
      // the elements carry (decrypted bytes written into a fresh buffer).
      else if (
        left.computed &&
        v.t?.size &&
        (target.k === 'unknown' || target.k === 'arr' || (target.k === 'obj' && computedKey === undefined)) &&
        target !== UNKNOWN &&
        !Object.isFrozen(target)
      )
        target.t = new Set([...(target.t ?? []), ...v.t]);
      // `F.prototype = { … }` (and `init.prototype = jQuery.fn`): what `new F()` instances get;
      // `F.x = …`: a property of the function itself.
      const fnKey = key ?? computedKey;
      if (target.k === 'fn' && fnKey !== undefined) {
        if (fnKey === 'prototype') {
          if (v.k === 'obj') {
            this.prototypes.set(target.node, v);
            for (const m of v.props.values())
              if (m.k === 'fn' && this.walkAgainAtEnd.length < 200) this.walkAgainAtEnd.push(m);
          }
        } else {
          let own = this.fnProps.get(target.node);
          if (!own) this.fnProps.set(target.node, (own = new Map()));
          if (own.size < 200) own.set(fnKey, v);
          // A function that reads this property of itself (`mw[STATE] = require('./sync')` after
          // `const mw = function () { const sync = mw[STATE]; … }`) was walked before it was set:
          // walked once more at the end, as prototype methods are.
          const prop = sourceText(this.input.text, left.property as AstNode, 200);
          const body =
            prop && this.walkAgainAtEnd.length < 200
              ? sourceText(this.input.text, target.node, 5000)
              : undefined;
          const name = prop?.replace(/[^\w$]/g, '');
          if (
            body &&
            (body.includes(`[${prop}]`) ||
              (!!name && body.includes(`.${name}`) && new RegExp(`\\.${name}\\b`).test(body)))
          )
            this.walkAgainAtEnd.push(target);
        }
      }
      // A part of a URL or a request body assigned (`u.search = '?d=' + data`): it travels with
      // the whole, and with the address read back (`u.href`).
      if (this.bodies.has(target)) {
        const t = deepTaints(v);
        if (t.size) {
          target.t = new Set([...(target.t ?? []), ...t]);
          const href = target.k === 'obj' ? target.props.get('href') : undefined;
          if (target.k === 'obj' && href && key !== 'href')
            target.props.set('href', withTaint({ ...href }, [target]));
        }
      } else if ((target.k === 'obj' || target.k === 'arr') && left.computed) {
        // data[name] = value with a name unknown here: the object holds the value's taint.
        const t = deepTaints(v);
        if (t.size) target.t = new Set([...(target.t ?? []), ...t]);
      }
      const lo = left.object as AstNode;
      const isModuleExports =
        lo.type === 'MemberExpression' &&
        (lo.object as AstNode).type === 'Identifier' &&
        (lo.object as AstNode).name === 'module' &&
        keyName(lo.property as AstNode) === 'exports';
      if (isModuleExports && key) this.exportNames.add(key);
      if (lo.type === 'Identifier' && (lo.name === 'module' || lo.name === 'exports') && key) {
        if (key !== 'exports') this.exportNames.add(key);
        else if (v.k === 'obj') for (const k of v.props.keys()) this.exportNames.add(k);
      }
      // Values exported for the other files of the package (cross-file flow).
      if (lo.type === 'Identifier' && lo.name === 'module' && key === 'exports') this.moduleExportsVal = v;
      else if (key && ((lo.type === 'Identifier' && lo.name === 'exports') || isModuleExports)) {
        const m = this.moduleExportsVal;
        (isModuleExports && m?.k === 'obj' ? m : this.exportsObj).props.set(key, v);
      }
    } else {
      this.bindPattern(left, v, scope, depth);
    }
    return v;
  }
}

/** A statement that leaves the block: return, throw, continue, break (or a block ending so). */
function exits(n: AstNode | undefined): boolean {
  if (!n) return false;
  if (/^(?:ReturnStatement|ThrowStatement|ContinueStatement|BreakStatement)$/.test(n.type)) return true;
  if (n.type === 'BlockStatement') {
    const body = (n.body ?? []) as AstNode[];
    return body.length > 0 && exits(body[body.length - 1]);
  }
  return false;
}

/** Names that hold a wallet's key material: a seed or recovery phrase, a private or secret key. */
const KEY_MATERIAL =
  /^(?:mnemonic|(?:seed|recovery|secret)_?phrase|seed(?:Words)?|private_?key|secret_?key|priv_?key|wallet_?key|keypair_?secret)s?$/i;

/**
 * A value bound to a name like `mnemonic`, `seedPhrase`, `secretKey`, `privateKey` (a parameter,
 * a variable, a state field): key material the code was given. It never legitimately leaves the
 * machine, whatever library is handed it.
 */
function keyMaterial(name: string, v: Val): Val {
  if (!KEY_MATERIAL.test(name) || v.k === 'str' || v.k === 'num' || v.k === 'fn' || v.t?.has('key_material'))
    return v;
  return withTaint({ ...v } as Val, [v], 'key_material');
}

/** What `typeof` gives for a value the evaluator knows the kind of. */
function typeOf(v: Val): string | undefined {
  switch (v.k) {
    case 'str':
      return 'string';
    case 'num':
      return 'number';
    case 'bool':
      return 'boolean';
    case 'fn':
    case 'dyn':
      return 'function';
    case 'obj':
    case 'arr':
    case 'env':
    case 'mod':
      return 'object';
    case 'api':
      return v.mod.startsWith('global:') || v.mod === 'child_process' || v.mod === 'fs'
        ? 'function'
        : undefined;
    case 'global':
      return /^(?:globalObject|process|JSON|Math|Reflect|console|document|navigator|location|localStorage|sessionStorage)$/.test(
        v.name,
      )
        ? 'object'
        : 'function';
    default:
      return undefined;
  }
}
