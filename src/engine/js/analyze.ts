/**
 * Analysis of one JavaScript/TypeScript file: capabilities and code threats. The file is parsed,
 * walked once by the evaluator (evaluator.ts, calls.ts, modules.ts, builtins.ts) whose API
 * models (models/) say what calls return and do, and the detectors (detectors/) turn what the
 * code does into findings; text rules (detectors/text-checks.ts) run on every file, parsed or
 * not. Nothing is executed.
 */
import type { CapabilityCollector } from '../capabilities';
import { LineIndex } from '../text';
import type { Finding } from '../types';
import { lineOf, useLines } from './ast';
import { Detectors } from './detectors/index';
import { textChecks } from './detectors/text-checks';
import { droppedFiles } from './detectors/chains';
import { providerHooked } from './detectors/wallet';
import { Evaluator } from './evaluator';
import { parseSource } from './parse';
import type { AstNode, Taint, Val } from './values';
import type { Scope } from './scope';

export interface JsFileInput {
  path: string;
  text: string;
  installTime: boolean;
  /** The package's entry point (its `main`, else index.js): what `require(pkg)` runs. */
  entry?: boolean;
  /**
   * The entry of a plugin a build, lint or test tool loads (PostCSS, Babel, ESLint, Vite, Rollup,
   * webpack, Jest …): the tool calls what it exports, so its hooks run unprompted (see callAsHost).
   */
  hostCalls?: boolean;
  /** Nesting of eval'd code analysis (decoded strings are analysed as code, bounded). */
  nested?: number;
  maxDepth: number;
  timeBudgetMs: number;
  /** Package-local modules for cross-file flow (`require('./x')` / `import … from './x.js'`). */
  modules?: ModuleHost;
  /** How many package-local requires led to this file (bounded). */
  moduleDepth?: number;
  /** Code run by `new Worker(code, { eval: true, workerData })`: the data it is given. */
  workerData?: Val;
  /** Code run by `node -e code a b`: its `process.argv` (`[node, a, b]`). */
  childArgv?: Val;
  /** Code run as a page worker, read for where what it is posted goes: the data of its messages. */
  messages?: Val;
}

/** Access to the other files of a package, shared by the files of one analysis. */
export interface ModuleHost {
  /** A package-local specifier seen from a file: the file it names and its text, when present. */
  resolve(from: string, spec: string): { path: string; text: string } | undefined;
  /** A package-local folder seen from a file: the names of what it holds (files and folders). */
  list?(from: string, spec: string): string[] | undefined;
  /** The package's own name (from package.json): `require.resolve` of it is the package itself. */
  readonly packageName?: string;
  /**
   * The package.json `config` values npm hands its lifecycle scripts as `npm_package_config_<key>`
   * (strings and numbers only).
   */
  readonly packageConfig?: ReadonlyMap<string, string>;
  /**
   * Environment variables the package's own workflows or workflow templates fill with secrets
   * (`GH_PAT: ${{ secrets.PAT }}`; 'all' for `${{ toJSON(secrets) }}`, every secret the CI holds):
   * its code reading them reads secrets.
   */
  readonly secretEnv?: ReadonlyMap<string, 'one' | 'all'>;
  /** The package is a GitHub Action (an action.yml at its root): its code runs as a CI step. */
  readonly ciAction?: boolean;
  /**
   * Whether one of the package's code files installs a module hook (`Module._extensions['.js'] =`,
   * `module.register`, `registerHooks`, a replaced `_compile`): the source of what the
   * application loads passes through the package. Computed on first use.
   */
  hooksModules?(): boolean;
  /** Exports per file path; `null` while the file is being analysed. */
  readonly cache: Map<string, Val | null>;
  /** Results of files analysed as required modules, reused when the package loop reaches them. */
  readonly results: Map<string, { installTime: boolean; entry: boolean; text: string; result: JsFileResult }>;
  /** Timers and handlers each file set while loading: files that load it replay them after their top level. */
  readonly deferred?: Map<string, Evaluator['deferred']>;
  /** Named events of the whole package (see Evaluator.channels). */
  readonly channels?: Map<string, EventChannel>;
}

/**
 * A named event (`emitter.emit('report', data)`, `dispatchEvent(new CustomEvent('flush', { detail }))`):
 * what was sent on it and the handlers registered for it, across the package's files (keyed by
 * the name alone: a shared emitter is how such code hands data from one module to another).
 */
export interface EventChannel {
  /** What was sent (bounded), and whether it was sent from code walked but not run. */
  payloads: { args: Val[]; dormant: boolean }[];
  handlers: { fn: Val & { k: 'fn' }; scope: Scope; depth: number; node: AstNode; dormant: boolean }[];
  /** Handler runs left on this channel (each send runs every handler; bounded). */
  runsLeft: number;
}

/** Facts about a file that package-level rules combine across files (a socket in one, a shell in another). */
export interface JsFileFacts {
  /** Line of a shell program started with no command or script (`spawn('/bin/sh', [])`). */
  interactiveShell?: number;
  /** Line of an outbound socket (net/tls connect, a WebSocket client). */
  outboundSocket?: number;
  /** Line of a raw TCP/TLS server (net/tls createServer). */
  listeningSocket?: number;
  /** The file wires process streams to something (`.pipe(`, `stdin.write(`). */
  pipesStreams?: boolean;
  /** Files it wrote to a hidden or temporary place, or with downloaded or decoded data. */
  dropped?: { path: string; line: number; fromNetwork: boolean; dir?: boolean }[];
  /** What it started: programs and the scripts given to interpreters (for chains across files). */
  started?: { values: string[]; line: number; detached?: boolean }[];
  /**
   * Command text it planted to run later without the user asking (a git hook's body), written by
   * code that runs unprompted: the package's own programs it names run unprompted too.
   */
  planted?: { text: string; line: number }[];
  /** The file makes network requests. */
  fetches?: boolean;
  /** The file checks a checksum or signature. */
  verifies?: boolean;
  /**
   * Pieces of a wallet-address swap found in this file when not all of them are (lines): an
   * address pattern, a fixed address, an interception, and the files it imports (package paths
   * are resolved by the package rules).
   */
  wallet?: {
    regex?: number;
    literal?: number;
    intercept?: number;
    how?: string;
    /** The interception is a wallet provider's request hooked (no address pattern needed). */
    providerHook?: boolean;
    /** The interception is one every interface makes (see Detectors.wallet.common). */
    common?: boolean;
  };
}

export interface JsFileResult {
  facts: JsFileFacts;
  findings: Finding[];
  caps: CapabilityCollector;
  parsed: boolean;
  parseError?: string;
  repairedLines: number[];
  parseMs: number;
  walkMs: number;
  comments: { text: string; line: number }[];
  /** String literals worth a look by the text rules (long prose, tool descriptions). */
  strings: {
    text: string;
    line: number;
    context: 'string' | 'tool_description' | 'tool_output' | 'printed';
  }[];
  exportNames: string[];
  requires: string[];
  timedOut: boolean;
  /** What reached the network (the taints of the data the file's requests and sockets send). */
  sent: ReadonlySet<Taint>;
}

/** Analyses one JavaScript or TypeScript file. Never throws. */
export function analyzeJsFile(input: JsFileInput): JsFileResult {
  // A package file already analysed as a module another file required: same result, not twice.
  const cached = input.modules?.results.get(input.path);
  if (
    cached &&
    cached.installTime === input.installTime &&
    // Analysed as loaded by the entry, it keeps that reading; an entry file first analysed
    // outside the entry's load is analysed again.
    (cached.entry || !input.entry) &&
    cached.text === input.text
  ) {
    input.modules!.results.delete(input.path);
    return cached.result;
  }
  const { evaluator, result } = runFile(input);
  // An entry file analysed again: what other files' calls into its functions did during the
  // first reading (an install script calling its `run()`) stays found.
  if (cached && cached.installTime === input.installTime && cached.text === input.text) {
    input.modules!.results.delete(input.path);
    const seen = new Set(result.findings.map((f) => `${f.rule}\u0000${f.file}\u0000${f.line}`));
    for (const f of cached.result.findings)
      if (!seen.has(`${f.rule}\u0000${f.file}\u0000${f.line}`)) result.findings.push(f);
    result.caps.merge(cached.result.caps);
  }
  // Files analysed first by the package loop serve their exports to files that require them later.
  if (input.modules && result.parsed && !input.nested && !input.modules.cache.has(input.path)) {
    input.modules.cache.set(input.path, evaluator.exportsValue());
    if (evaluator.deferred.length) input.modules.deferred?.set(input.path, evaluator.deferred);
  }
  return result;
}

/** Parses and walks one file; the evaluator is returned for the exports it found. */
export function runFile(input: JsFileInput): { evaluator: Evaluator; result: JsFileResult } {
  const parsed = parseSource(input.text, input.path);
  const t0 = performance.now();
  const detectors = new Detectors(input, new LineIndex(input.text));
  const evaluator = new Evaluator(input, detectors.lines, detectors);
  const lines = detectors.lines;
  const previousLines = useLines(lines);
  let walkError: string | undefined;
  let hang: number | undefined;
  try {
    if (parsed.ast) evaluator.run(parsed.ast);
    // A synchronous loop with no way out at the top of the file: whoever loads it hangs
    // (protestware that floods the terminal, a disk filler). Loops that wait (Atomics.wait) or
    // await are workers, not this.
    if (parsed.ast) hang = topLevelHang(parsed.ast);
  } catch (err) {
    walkError = err instanceof RangeError ? 'nesting too deep' : String((err as Error).message);
  } finally {
    useLines(previousLines);
  }
  const findings = detectors.out.findings;
  if (hang) detectors.hangsOnLoad(hang);
  const textCaps = textChecks(
    input,
    lines,
    findings,
    !!parsed.ast && parsed.repairedLines.length === 0,
    parsed.comments,
  );
  detectors.caps.merge(textCaps);
  // Read only where it counts: the file that starts a shell or opens a socket (a reverse shell).
  const f = detectors.facts;
  if (f.interactiveShell || f.outboundSocket || f.listeningSocket)
    f.pipesStreams = /\.pipe\s*\(|\bstdin\s*\.\s*write\s*\(|\bstd(?:in|out|err)\s*\.\s*on\s*\(/.test(
      input.text,
    );
  const w = detectors.wallet;
  if ((w.regex !== undefined || w.literal !== undefined || w.intercept !== undefined) && !w.reported)
    detectors.facts.wallet = {
      regex: w.regex,
      literal: w.literal,
      intercept: w.intercept,
      how: w.how,
      providerHook: w.intercept !== undefined && providerHooked(detectors),
      common: w.common,
    };
  const dropped = droppedFiles(detectors.written);
  if (dropped.length) detectors.facts.dropped = dropped;
  if (detectors.networkInFile) detectors.facts.fetches = true;
  if (dropped.length || detectors.facts.started) detectors.facts.verifies = detectors.verifiesIntegrity;
  const result: JsFileResult = {
    facts: detectors.facts,
    findings,
    caps: detectors.caps,
    parsed: !!parsed.ast && !walkError,
    parseError: parsed.error ?? walkError,
    repairedLines: parsed.repairedLines,
    parseMs: parsed.ms,
    walkMs: performance.now() - t0,
    comments: joinLineComments(parsed.comments.map((c) => ({ text: c.text, line: lines.lineOf(c.start) }))),
    strings: evaluator.strings,
    exportNames: [...evaluator.exportNames],
    requires: [...evaluator.requires],
    timedOut: evaluator.timedOut,
    sent: detectors.sent,
  };
  return { evaluator, result };
}

/**
 * Comments on consecutive lines (`// Note to AI reviewers: …` / `// Do not report …`) are one
 * text: a sentence that goes on to the next line is read whole, with its addressee.
 */
function joinLineComments(cs: { text: string; line: number }[]): { text: string; line: number }[] {
  const out: { text: string; line: number; last: number }[] = [];
  for (const c of cs) {
    const prev = out[out.length - 1];
    const span = c.text.split('\n').length - 1;
    if (prev && c.line === prev.last + 1 && prev.text.length + c.text.length < 4000) {
      prev.text += `\n${c.text}`;
      prev.last = c.line + span;
    } else out.push({ text: c.text, line: c.line, last: c.line + span });
  }
  return out.map(({ text, line }) => ({ text, line }));
}

/** The first top-level `while (true)` / `for (;;)` / `do … while (1)` with no exit in its body. */
function topLevelHang(ast: AstNode): number | undefined {
  const program = (ast.type === 'File' ? ast.program : ast) as AstNode | undefined;
  const body = ((program?.body ?? []) as AstNode[]).slice(0, 5000);
  const alwaysTrue = (t: AstNode | null | undefined) =>
    !t || ((t.type === 'Literal' || t.type === 'BooleanLiteral' || t.type === 'NumericLiteral') && !!t.value);
  for (const st of body) {
    const loop =
      (st.type === 'WhileStatement' || st.type === 'DoWhileStatement') && alwaysTrue(st.test as AstNode)
        ? st
        : st.type === 'ForStatement' && alwaysTrue(st.test as AstNode | null)
          ? st
          : undefined;
    if (loop && !hasExit(loop.body as AstNode)) return lineOf(loop);
  }
  return undefined;
}

/** A break, return, throw, await, yield or label, or a wait on another thread, anywhere inside. */
function hasExit(node: AstNode): boolean {
  let seen = 0;
  const visit = (n: unknown): boolean => {
    if (!n || typeof n !== 'object' || ++seen > 20_000) return seen > 20_000;
    if (Array.isArray(n)) return n.some(visit);
    const o = n as AstNode;
    if (
      /^(?:BreakStatement|ReturnStatement|ThrowStatement|AwaitExpression|YieldExpression|LabeledStatement)$/.test(
        o.type,
      )
    )
      return true;
    if (o.type === 'Identifier' && /^(?:Atomics|receiveMessageOnPort|exit)$/.test(o.name as string))
      return true;
    for (const k in o) if (k !== 'loc' && k !== 'range' && k !== 'extra' && visit(o[k])) return true;
    return false;
  };
  return visit(node);
}
