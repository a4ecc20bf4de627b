/**
 * The effects the evaluator and the API models report while they walk a file, in walk order:
 * what the code reads, sends, starts, writes, compiles and how it reaches APIs. The detectors
 * (detectors/) implement this interface and alone turn effects into findings and capabilities;
 * nothing on the evaluator's side names a rule or a confidence.
 */
import type { CapabilityCollector } from '../capabilities';
import type { Finding } from '../types';
import type { SpawnKind } from './models/process';
import type { Scope } from './scope';
import type { AstNode, Taint, Val } from './values';

/** What a branch was found to depend on; handed back when the branch is left. */
export interface Branch {
  geo: boolean;
  remote: boolean;
  /** The test picks which visitors see it (user agent, automation flag, a random sample). */
  targeted: boolean;
  /** The test checks typed text for a seed phrase's word count (12 or 24 words). */
  seedShape: boolean;
  /** The test picks visitors by the page they came from (document.referrer). */
  referrer: boolean;
  /** The test compares the current date or a random draw with a constant (a time bomb's trigger). */
  timed: boolean;
  /** The test requires a listed file's content to carry a fixed marker (the tool's own files). */
  ownMarker?: boolean;
  /** The test asks whether the page holds a password, card or recovery-phrase field or a wallet. */
  secretPage?: boolean;
}

export interface Effects {
  // ------------------------------------------------------------ names and literals
  /** A string literal (`literal`), or a template literal longer than 20 characters. */
  stringLiteral(value: string, node: AstNode, literal: boolean): void;
  /** A short text decoded at run time (`atob('MHg3…')`): a hidden constant, such as an address. */
  decodedText(value: string, node: AstNode): void;
  /** A regular expression literal, or `new RegExp(source)`'s source (see `call`). */
  regex(source: string, node: AstNode): void;
  /** A declared or referenced identifier (parameters, declarations, names read); may be absent. */
  identifier(node: AstNode | null | undefined): void;
  /** An identifier assigned to (`_0x1a2b = …`). */
  assignedIdentifier(node: AstNode): void;
  /** `name = value` (`scope` is where the assignment happens). */
  assignment(node: AstNode, name: string, value: Val, scope: Scope): void;
  /** `!x` / `+x` and other unary expressions, before their operand is walked. */
  unary(node: AstNode): void;
  /** An array literal and its evaluated elements. */
  arrayLiteral(node: AstNode, items: Val[]): void;
  /** An object property `host`/`hostname` holding a constant string. */
  hostProperty(host: string): void;

  // ------------------------------------------------------------ property access
  /** `obj[key]`: the key's value, its string when known, and whether it is a plain literal. */
  computedKey(node: AstNode, obj: Val, keyVal: Val, key: string | undefined, literal: boolean): void;
  /** A member reached through a key built at run time (`obj[a + b]`), with the value found. */
  computedMember(node: AstNode, obj: Val, key: string, value: Val, keyDecoded: boolean): void;
  /** A global (`eval`, `require`, `process` …) reached on the global object by a computed key. */
  computedGlobal(node: AstNode, key: string, keyDecoded: boolean): void;
  /** A member reached without naming it: a property descriptor, Reflect.get, or enumeration. */
  indirectMember(node: AstNode, owner: Val, key: string, how: 'descriptor' | 'reflect' | 'enumeration'): void;
  /** `a.b = value` (before the value is stored). */
  /** `target`: the assigned member as written, a computed key known here spelled out (`g.fetch`). */
  memberAssignment(node: AstNode, target: string, obj: Val | undefined): void;
  /** A known string where funds go (`tx.to = ADDR`), or in an address pool decoded here. */
  recipientValue(value: string, node: AstNode): void;

  // ------------------------------------------------------------ environment and sources
  /** One environment variable read (`process.env.NAME`). */
  envVar(node: AstNode, name: string): void;
  /** An environment variable set (`process.env.NAME = …`). */
  envAssigned(name: string): void;
  /** The whole environment read: copied, spread, enumerated or serialised. */
  envWhole(node: AstNode, message?: string): void;
  /** Sensitive data read in the function of `scope` (secrets, credential files, host details). */
  source(scope: Scope, taint: Taint, node: AstNode): void;

  // ------------------------------------------------------------ control flow and calls
  /**
   * An `if` is entered with its test's value; `leaveBranch` follows once both arms are walked.
   * `guard`: what follows a guard clause (`if (!ok) continue;`), which runs when the test fails.
   */
  enterBranch(node: AstNode, test: Val, scope: Scope, guard?: boolean): Branch;
  leaveBranch(branch: Branch): void;
  /** Inside a branch on the machine's location, on data from the network, or on a date. */
  gated(): boolean;
  /** The walk of a function (or of the file, its root scope) ends. */
  scopeEnd(scope: Scope): void;
  /** The walk of the file ends. */
  fileEnd(): void;
  /** Any call, once its result is known: the method name (`how`) and the arguments as written. */
  call(
    node: AstNode,
    calleeNode: AstNode,
    how: string | undefined,
    args: Val[],
    receiver?: Val,
    scope?: Scope,
  ): void;
  /** Data written or piped into the standard input of a shell or interpreter started with no script. */
  shellInput(node: AstNode, data: Val[]): void;
  /** A call of anything but a local function, with its effective arguments. */
  opaqueCall(node: AstNode, callee: Val, args: Val[]): void;
  /** A local decoding function turned an encoded literal into readable text. */
  decoderCall(node: AstNode, decoded: string): void;
  /** A module loaded (`require`, `import`), with the value its specifier was built from. */
  moduleLoaded(node: AstNode, spec: string, name: string, specVal: Val | undefined): void;
  /** A file loaded as code by other means than require (a native addon through process.dlopen). */
  loadsFile(node: AstNode, file: string): void;

  // ------------------------------------------------------------ network
  /** A request or connection: its target (URL or options), options, payload and protocol. */
  request(
    node: AstNode,
    what: string,
    target: Val | undefined,
    options: Val | undefined,
    scope: Scope,
    protocol: string | undefined,
    payload?: Val[],
  ): void;
  /** A `<script>` element given a source (`s.src = url`). */
  /** A script element's `src`; `decoded` when the address was decoded at run time. */
  scriptSource(node: AstNode, url: string, decoded?: boolean, element?: 'script' | 'frame'): void;
  /** A script or frame element whose src was set, put into the page (`appendChild`, `append` …). */
  elementInserted(node: AstNode, url: string, element: 'script' | 'frame'): void;
  /** The page sent elsewhere (`location.href = url`, `location.replace(url)`, `window.open(url)`). */
  navigation(node: AstNode, url: Val): void;
  /** Another process's memory or environment read (`/proc/<pid>/mem`). */
  processMemory(node: AstNode, path: string): void;
  /** Mail sent for a caller with a fixed copy recipient (`bcc: 'x@host'`); `hidden`: its address built from encoded parts. */
  hiddenCopy(node: AstNode, field: string, address: string, hidden: boolean): void;
  /** Values printed to the output (`console.log`, `process.stdout.write`): in CI, the job's log. */
  printedData(node: AstNode, args: Val[]): void;
  /** Where a request object will send (`xhr.open(method, url)`). */
  requestTarget(url: string): void;
  /** A package published through a registry client library (libnpmpublish), with its arguments. */
  publish(node: AstNode, how: string, args: Val[]): void;
  /** An object shaped as the registry's publish request (`versions` with `_attachments`). */
  publishDocument(node: AstNode): void;
  /** Data written to a connection or request (`req.write(body)`, `ws.send(x)`, a DNS name). */
  sink(node: AstNode, what: string, args: Val[], scope: Scope): void;
  xhr(node: AstNode): void;
  server(node: AstNode, mod: string, protocol: string): void;
  udp(node: AstNode): void;
  dns(node: AstNode, host: string | undefined, args: Val[], scope: Scope): void;

  // ------------------------------------------------------------ processes
  /** A process started: its command line or program, arguments and options. */
  spawn(node: AstNode, cmd: string | undefined, args: Val[], kind: SpawnKind, scope: Scope): void;
  /** A process started through Node's internal spawn binding. */
  internalSpawn(node: AstNode, file: string | undefined): void;

  // ------------------------------------------------------------ files
  fileRead(node: AstNode, method: string, path: string | undefined): void;
  fileWrite(
    node: AstNode,
    method: string,
    path: string | undefined,
    target: Val | undefined,
    args: Val[],
  ): void;
  fileStat(path: string | undefined): void;
  /** A recursive deletion (`rimraf(p)`, `del(paths)`). */
  recursiveDelete(node: AstNode, how: string, target: Val | undefined): void;

  // ------------------------------------------------------------ code and native code
  /** Code compiled from a value (`how`: eval, Function, vm.runInThisContext …). */
  dynamicCode(node: AstNode, how: string, code: Val, codeNode: AstNode | undefined): void;
  /** What the analysis of a constant code string found, to be placed at the compiling call. */
  nestedCode(node: AstNode, how: string, findings: Finding[], caps: CapabilityCollector): void;
  /** Code the package's module hook adds to another package's module (`target`) as it loads. */
  moduleCodeAdded(node: AstNode, target: string): void;
  /** A deserialiser that runs embedded functions was given `code`; `before` is `findingCount()` before. */
  deserialise(node: AstNode, what: string, code: Val | undefined, before: number): void;
  /** A function compiled at run time is called. */
  compiledFunctionCalled(node: AstNode, callee: Val): void;
  nativeAddon(node: AstNode, spec: string): void;
  /** A native addon loader required (`called`: false) or called (true), with the addon it names. */
  nativeLoader(node: AstNode, loader: string, called: boolean, addon: string | undefined): void;
  dlopen(node: AstNode): void;
  /** `process.chdir(dir)`: relative paths after it name files in `dir`. */
  chdir(node: AstNode, dir: Val | undefined): void;
  /** The code changed its working directory: `process.cwd()` is no longer where npm ran it. */
  readonly cwdMoved: boolean;

  // ------------------------------------------------------------ bookkeeping
  /**
   * How many function bodies the walk is inside that it reached where they are defined, not
   * through a call (0: code that runs when the file loads, or a function that code calls).
   */
  dormant: number;
  /**
   * Inside the hooks of a build, lint or test tool's plugin, called as the tool calls them (see
   * callAsHost): the project the tool runs on is theirs to change.
   */
  hostRun: number;
  /** Findings recorded so far. */
  findingCount(): number;
  /** A number that grows whenever something is learnt (findings, commands, domains, paths). */
  progress(): number;
  /**
   * For a call from another file: records into `from`'s findings and capabilities, with its
   * install-time context and branch gates, until the returned function is called.
   */
  borrow(from: Effects): () => void;
}
