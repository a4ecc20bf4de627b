/**
 * Syntax-tree analysis of one JavaScript/TypeScript file: capabilities and code threats.
 *
 * One walk over the tree evaluates expressions into abstract values (`Val`): string constants
 * are folded (concatenation, templates, escapes, base64/hex/char-code decoding, simple string
 * methods), module objects and their members are tracked through aliases, destructuring and
 * computed keys, and data carries taint labels (secrets, decoded data, network data) so that
 * sinks can tell where their arguments came from. Nothing is executed.
 */
import type { ThreatType } from '../../contract/schemas';
import { CapabilityCollector, WHOLE_ENV } from '../capabilities';
import { EXFIL_HOST, SENSITIVE_PATH } from '../indicators';
import { analyzeScript, isUserDataPath } from '../script-behaviour';
import { analyzeShell, shellPrograms } from '../shell';
import { LineIndex, hasZeroWidth, isMixedScriptIdentifier, snippetOf } from '../text';
import type { Finding } from '../types';
import { parseSource } from './parse';
import {
  UNKNOWN,
  asString,
  canonicalModule,
  deepTaints,
  str,
  unknown,
  withTaint,
  type AstNode,
  type Taint,
  type Val,
} from './values';

export interface JsFileInput {
  path: string;
  text: string;
  installTime: boolean;
  /** Nesting of eval'd code analysis (decoded strings are analysed as code, bounded). */
  nested?: number;
  maxDepth: number;
  timeBudgetMs: number;
  /** Package-local modules for cross-file flow (`require('./x')` / `import … from './x.js'`). */
  modules?: ModuleHost;
  /** How many package-local requires led to this file (bounded). */
  moduleDepth?: number;
}

/** Access to the other files of a package, shared by the files of one analysis. */
export interface ModuleHost {
  /** A package-local specifier seen from a file: the file it names and its text, when present. */
  resolve(from: string, spec: string): { path: string; text: string } | undefined;
  /** Exports per file path; `null` while the file is being analysed. */
  readonly cache: Map<string, Val | null>;
  /** Results of files analysed as required modules, reused when the package loop reaches them. */
  readonly results: Map<string, { installTime: boolean; text: string; result: JsFileResult }>;
}

/** At most this many package-local modules are analysed for their exports per package, this deep. */
const MAX_LOCAL_MODULES = 40;
const MAX_MODULE_DEPTH = 3;

/** Facts about a file that package-level rules combine across files (a socket in one, a shell in another). */
export interface JsFileFacts {
  /** Line of a shell program started with no command or script (`spawn('/bin/sh', [])`). */
  interactiveShell?: number;
  /** Line of an outbound socket (net/tls connect, a WebSocket client). */
  outboundSocket?: number;
  /** The file wires process streams to something (`.pipe(`, `stdin.write(`). */
  pipesStreams?: boolean;
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
  strings: { text: string; line: number; context: 'string' | 'tool_description' }[];
  exportNames: string[];
  requires: string[];
  timedOut: boolean;
}

const NETWORK_CLIENT_MODULES = new Set([
  'axios',
  'got',
  'node-fetch',
  'undici',
  'request',
  'superagent',
  'needle',
  'cross-fetch',
  'isomorphic-fetch',
  'ky',
  'phin',
  'make-fetch-happen',
  'minipass-fetch',
  'request-promise',
  'request-promise-native',
  'axios-retry',
]);
const CHAT_SDK_MODULES = new Set([
  'discord.js',
  'discord-webhook-node',
  'webhook-discord',
  'node-telegram-bot-api',
  'telegraf',
  '@slack/webhook',
]);
const WS_MODULES = new Set(['ws', 'socket.io-client', 'websocket', 'isomorphic-ws']);
const NATIVE_LOADERS = new Set([
  'bindings',
  'node-gyp-build',
  'prebuild-install',
  'node-pre-gyp',
  '@mapbox/node-pre-gyp',
  'node-addon-api',
  'nan',
  'cmake-js',
  'node-gyp-build-optional-packages',
]);
const SPAWN_MODULES = new Set([
  'execa',
  'cross-spawn',
  'shelljs',
  'child-process-promise',
  'spawn-sync',
  'tinyexec',
]);

const FS_READ = new Set([
  'readFile',
  'readFileSync',
  'createReadStream',
  'readdir',
  'readdirSync',
  'read',
  'readSync',
  'readJson',
  'readJsonSync',
  'readJSON',
  'readlink',
  'readlinkSync',
  'opendir',
  'opendirSync',
  'readv',
  'readvSync',
]);
const FS_WRITE = new Set([
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'createWriteStream',
  'mkdir',
  'mkdirSync',
  'rm',
  'rmSync',
  'rmdir',
  'rmdirSync',
  'unlink',
  'unlinkSync',
  'rename',
  'renameSync',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
  'symlink',
  'symlinkSync',
  'link',
  'linkSync',
  'chmod',
  'chmodSync',
  'chown',
  'chownSync',
  'truncate',
  'truncateSync',
  'write',
  'writeSync',
  'writev',
  'writevSync',
  'utimes',
  'utimesSync',
  'outputFile',
  'outputFileSync',
  'outputJson',
  'outputJsonSync',
  'writeJson',
  'writeJsonSync',
  'writeJSON',
  'ensureDir',
  'ensureDirSync',
  'ensureFile',
  'ensureFileSync',
  'mkdirs',
  'mkdirsSync',
  'mkdirp',
  'mkdirpSync',
  'remove',
  'removeSync',
  'emptyDir',
  'emptyDirSync',
  'move',
  'moveSync',
  'copy',
  'copySync',
  'mkdtemp',
  'mkdtempSync',
]);
const CP_EXEC = new Set(['exec', 'execSync']);
const CP_SPAWN = new Set(['spawn', 'spawnSync', 'execFile', 'execFileSync', 'fork']);

const SECRET_ENV =
  /TOKEN|SECRET|PASSW|PASSWD|PRIVATE|CREDENTIAL|API_?KEY|ACCESS_?KEY|AUTH|SESSION|COOKIE|NPM_|GITHUB_|AWS_|AZURE_|GCP_|GOOGLE_APPLICATION|SLACK_|DISCORD_|MNEMONIC|SEED/i;
/** Webhook URLs that carry their own token: Discord, Telegram bots, Slack incoming webhooks. */
const CHAT_WEBHOOK =
  /\/api\/webhooks\/\d{6,}\/[\w-]{6,}|\/bot\d{5,}:[\w-]{20,}\/send(?:Message|Document|Photo|Media)\b|\/services\/T[A-Z0-9]{6,}\/B[A-Z0-9]{6,}\/[A-Za-z0-9]{12,}/;
const IMAGE_PATH = /\.(?:png|jpe?g|gif|bmp|ico|webp|svg)$/i;
const GLOBAL_NAMES = new Set(['global', 'globalThis', 'window', 'self']);
const KNOWN_GLOBALS = new Set([
  'process',
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
]);
/** Form fields whose value is a secret: passwords, payment cards, wallet seeds and keys. */
const SECRET_FIELD =
  /type\s*=\s*['"]?password|passw|pwd\b|\bpin\b|card|\bcc[-_]?(?:num|number|exp|csc|cvv)|cvv|cvc|csc\b|security[-_ ]?code|expir|iban|\bssn\b|mnemonic|seed|recovery[-_ ]?phrase|secret[-_ ]?(?:key|phrase|recovery)|private[-_ ]?key|autocomplete\s*=\s*['"]?(?:cc-|current-password|new-password)/i;
/** Storage keys of wallet secrets. */
const SECRET_STORAGE_KEY = /mnemonic|seed|private[-_]?key|secret[-_]?key|keystore|wallet|vault/i;
/** Event types whose event object carries what the user types. */
const KEY_EVENTS = /^(?:keydown|keypress|keyup)$/;
/** Members whose use through computed names is a red flag (key: module, or `global`). */
const SENSITIVE_MEMBERS: Record<string, Set<string>> = {
  child_process: new Set(['exec', 'execSync', 'spawn', 'spawnSync', 'execFile', 'execFileSync', 'fork']),
  os: new Set(['hostname', 'userInfo', 'networkInterfaces', 'homedir']),
  vm: new Set(['runInThisContext', 'runInNewContext', 'runInContext', 'Script', 'compileFunction']),
  http: new Set(['request', 'get']),
  https: new Set(['request', 'get']),
  net: new Set(['connect', 'createConnection', 'Socket']),
  dns: new Set(['lookup', 'resolve', 'resolve4', 'resolveTxt']),
  fs: new Set([
    'readFile',
    'readFileSync',
    'writeFile',
    'writeFileSync',
    'createWriteStream',
    'appendFileSync',
  ]),
  process: new Set(['binding', 'dlopen', 'mainModule', 'env']),
  global: new Set(['require', 'eval', 'Function', 'process', 'fetch', 'atob', 'Buffer', 'module']),
};
/** Modules where any computed access to a sensitive member counts; elsewhere the name must be decoded. */
const ALWAYS_SENSITIVE = new Set(['child_process', 'os', 'vm', 'global']);

function sensitiveMember(owner: Val, key: string, decoded: boolean): boolean {
  const mod =
    owner.k === 'mod'
      ? owner.name
      : owner.k === 'global'
        ? owner.name === 'process'
          ? 'process'
          : 'global'
        : undefined;
  if (!mod) return false;
  if (!SENSITIVE_MEMBERS[mod]?.has(key)) return false;
  return decoded || ALWAYS_SENSITIVE.has(mod) || mod === 'process';
}

const SENSITIVE_MODULES = new Set([
  'child_process',
  'os',
  'fs',
  'http',
  'https',
  'net',
  'dns',
  'vm',
  'process',
  'tls',
  'dgram',
]);

function isPublicIpv4(host: string): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  if (a === 10 || a === 127 || a === 0 || a >= 224) return false;
  if (a === 169 && b === 254) return false;
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 100 && b >= 64 && b <= 127) return false;
  return true;
}

/** Addresses of the chains address swappers target (public example addresses). */
const SAMPLE_ADDRESSES = [
  '0x52908400098527886E0F7030069857D2E4169EE7', // Ethereum (EIP-55 test vector)
  '1BoatSLRHtKNngkdXEeobR76b53LETtpyT', // Bitcoin P2PKH
  'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', // Bitcoin bech32 (BIP-173 example)
  'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW', // TRON
  '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T', // Solana
];

/** Whether a regular expression source matches a crypto address (tried on sample addresses). */
function matchesAddress(pattern: string): boolean {
  if (!/\{\s*(?:2[5-9]|3\d|4\d|5\d)\s*(?:,|\})|\{\s*\d+\s*,\s*(?:3\d|4\d|5\d|6\d)\s*\}/.test(pattern))
    return false;
  try {
    const re = new RegExp(pattern);
    return SAMPLE_ADDRESSES.some((a) => re.test(a));
  } catch {
    return false;
  }
}

/** A string literal shaped like an Ethereum, Bitcoin or TRON address (not the zero address). */
function isAddressLiteral(v: string): boolean {
  if (/^0x[0-9a-fA-F]{40}$/.test(v)) return !/^0x0{40}$|^0x[eE]{40}$/.test(v);
  return (
    /^(?:bc1[02-9ac-hj-np-z]{25,59}|[13][1-9A-HJ-NP-Za-km-z]{25,34}|T[1-9A-HJ-NP-Za-km-z]{33})$/.test(v) &&
    /\d/.test(v) &&
    /[a-z]/.test(v) &&
    /[A-Z]/.test(v.slice(1))
  );
}

function hostOf(url: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#\s]*@)?(\[[^\]]+\]|[^:/?#\s]+)/i.exec(url.trim());
  return m?.[1]?.toLowerCase();
}

class Scope {
  readonly vars = new Map<string, Val>();
  /** Taints of sensitive data read in this function (for the same-scope exfiltration rule). */
  readonly sources = new Map<Taint, number>();
  readonly sinks: { line: number; what: string; tainted: boolean }[] = [];
  /** Values returned by the function this scope belongs to (set for function scopes). */
  returns?: Val[];
  constructor(
    readonly parent: Scope | undefined,
    readonly fnName?: string,
  ) {}
  /** The nearest enclosing function scope's return list. */
  returnList(): Val[] | undefined {
    return this.returns ?? this.parent?.returnList();
  }
  lookup(name: string): Val | undefined {
    return this.vars.get(name) ?? this.parent?.lookup(name);
  }
  /** Assigns to the nearest scope declaring `name`, or creates a global (sloppy-mode assignment). */
  assign(name: string, v: Val): void {
    if (!this.assignExisting(name, v)) this.root().vars.set(name, v);
  }
  private assignExisting(name: string, v: Val): boolean {
    if (this.vars.has(name)) {
      this.vars.set(name, v);
      return true;
    }
    return this.parent?.assignExisting(name, v) ?? false;
  }
  private root(): Scope {
    return this.parent ? this.parent.root() : this;
  }
}

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

/** Line index of the file being walked (set by analyzeJsFile, restored after nested analyses). */
let currentLines: LineIndex | undefined;

function startOf(n: AstNode | undefined): number | undefined {
  if (!n) return undefined;
  if (typeof n.start === 'number') return n.start;
  return n.range?.[0];
}

function lineOf(n: AstNode | undefined): number {
  if (n?.loc) return n.loc.start.line;
  const s = startOf(n);
  return s === undefined || !currentLines ? 0 : currentLines.lineOf(s);
}

function columnOf(n: AstNode): number {
  if (n.loc) return n.loc.start.column;
  const s = startOf(n);
  return s === undefined || !currentLines ? 0 : currentLines.columnOf(s);
}

function decodeBase64(s: string): string | undefined {
  const t = s.replace(/\s+/g, '');
  if (t.length < 4 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(t)) return undefined;
  return Buffer.from(t, 'base64').toString('utf8');
}

function decodeHex(s: string): string | undefined {
  if (s.length < 2 || s.length % 2 || !/^[0-9a-fA-F]+$/.test(s)) return undefined;
  return Buffer.from(s, 'hex').toString('utf8');
}

function printable(s: string): boolean {
  // eslint-disable-next-line no-control-regex -- tab, newline and carriage return are printable here
  return s.length > 0 && /^[\x09\x0a\x0d\x20-\x7e]+$/.test(s);
}

/** A country code, a locale tag or an Area/City time-zone name, as a quoted literal. */
const PLACE = /['"`](?:[A-Z]{2}|[a-z]{2}(?:[-_][A-Z]{2})?|[A-Z][a-z]+\/[A-Za-z_]+)['"`]/;
const PLACE_VALUE = /^(?:[A-Z]{2}|[a-z]{2}[-_][A-Z]{2}|[A-Z][a-z]+\/[A-Za-z_]+)$/;

function holdsPlace(v: Val, depth: number): boolean {
  if (depth > 3) return false;
  if (v.k === 'str') return PLACE_VALUE.test(v.v);
  if (v.k === 'arr') return v.items.slice(0, 50).some((i) => holdsPlace(i, depth + 1));
  if (v.k === 'obj') return [...v.props.values()].slice(0, 50).some((i) => holdsPlace(i, depth + 1));
  return false;
}

class FileAnalyzer {
  findings: Finding[] = [];
  caps = new CapabilityCollector();
  /** Install-time context (for calls from another file: the caller's). */
  installTime: boolean;
  /** Root scope of the file (closures of exported functions resolve through it). */
  rootScope: Scope | undefined;
  /** `module.exports = …` and `exports.x = …` / ESM exports, for other files of the package. */
  private moduleExportsVal: Val | undefined;
  private readonly exportsObj: Val & { k: 'obj' } = { k: 'obj', props: new Map() };
  readonly strings: JsFileResult['strings'] = [];
  readonly exportNames = new Set<string>();
  readonly requires = new Set<string>();
  readonly lines: LineIndex;
  seen = new Set<string>();
  private hexIds = new Set<string>();
  private hexIdLines: number[] = [];
  silent = 0;
  /** Inside a branch that depends on the machine's country, time zone or locale. */
  geoGate = 0;
  /** Depth of branches taken on data received from the network (a remote kill switch). */
  remoteGate = 0;
  /** The file uses locale or time-zone APIs (computed once, on the first candidate gate). */
  private localeApis?: boolean;
  deadline: number;
  timedOut = false;
  private steps = 0;
  private networkInFile = false;
  /** Values passed to `resolve` by the Promise executors being walked (innermost last). */
  private readonly resolving: Val[][] = [];
  /** Facts the package-level rules combine across files. */
  readonly facts: JsFileFacts = {};
  /** Named callbacks already walked again where a timer or an event registration receives them. */
  private readonly rewalked = new Set<AstNode>();
  /** Lines of the pieces of a wallet-address swap: an address pattern, a fixed address, an interception. */
  private wallet: { regex?: number; literal?: number; intercept?: number; how?: string } = {};
  /** A request in this file goes to a host written in the code (not a configured endpoint). */
  private literalHostInFile = false;
  private readonly urlLiterals: { url: string; line: number }[] = [];

  constructor(private readonly input: JsFileInput) {
    this.lines = new LineIndex(input.text);
    this.deadline = performance.now() + input.timeBudgetMs;
    this.installTime = input.installTime;
    // Calls analysed with their arguments may cost about a quarter of the file's own walk.
    this.inlineStepsLeft = Math.min(40_000, 1_000 + Math.floor(input.text.length / 20));
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

  // ---------------------------------------------------------------- recording

  private snippetAt(n: AstNode | number): string {
    const line = typeof n === 'number' ? n : lineOf(n);
    const col = typeof n === 'number' ? 0 : columnOf(n);
    const from = this.lines.lineLength(line) > 160 ? Math.max(0, col - 40) : 0;
    return snippetOf(this.lines.lineSlice(line, from, 400));
  }

  threat(rule: string, type: ThreatType, confidence: number, at: AstNode | number, message: string): void {
    if (this.silent) return;
    const line = typeof at === 'number' ? at : lineOf(at);
    const key = `${rule}:${this.input.path}:${line}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.findings.push({
      threat_type: type,
      rule,
      message,
      file: this.input.path,
      line,
      snippet: this.snippetAt(at),
      confidence: Math.round(confidence * 100) / 100,
      install_time: this.installTime,
    });
  }

  capability(
    capability: 'network' | 'filesystem' | 'process' | 'environment' | 'native',
    rule: string,
    at: AstNode,
    message: string,
  ): void {
    if (this.silent) return;
    const line = lineOf(at);
    const key = `${rule}:${this.input.path}:${line}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.findings.push({
      capability,
      rule,
      message,
      file: this.input.path,
      line,
      snippet: this.snippetAt(at),
      confidence: 1,
      install_time: this.installTime,
    });
  }

  private source(scope: Scope, taint: Taint, line: number): void {
    if (!this.silent && !scope.sources.has(taint)) scope.sources.set(taint, line);
  }

  private tick(): boolean {
    if ((++this.steps & 1023) === 0 && performance.now() > this.deadline) this.timedOut = true;
    return this.timedOut;
  }

  // ---------------------------------------------------------------- walk

  run(ast: AstNode): void {
    const root = new Scope(undefined);
    this.rootScope = root;
    this.hoist(ast, root);
    this.walk(ast, root, 0);
    this.endScope(root);
    this.fileLevel();
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

  /**
   * A condition on the machine's location: a country/region/time-zone/locale field or value
   * compared, where the value came from the network (a geo-IP answer) or from the locale APIs.
   */
  private isGeoGate(test: AstNode, value: Val, scope: Scope): boolean {
    const src = this.sourceOf(test, 601);
    if (!src || src.length > 600) return false;
    const fromNetwork = deepTaints(value).has('network_data');
    // Locale APIs anywhere in the file (the value is usually read into a variable first).
    this.localeApis ??=
      /\bIntl\.DateTimeFormat\b|resolvedOptions\(\)|getTimezoneOffset|process\.env\.(?:LANG|LC_ALL|LC_MESSAGES|LANGUAGE|TZ)\b|\bos-locale\b|navigator\.languages?\b/.test(
        this.input.text,
      );
    if (!fromNetwork && !this.localeApis) return false;
    const field =
      /\b(?:country(?:_?code|Code|_name|Name)?|countryISO|region(?:_?code)?|geo|time_?[zZ]ones?|zones?|tz|locales?|lang(?:uage)?s?)\b/.test(
        src,
      );
    const placeLiteral = PLACE.test(src);
    // Target lists kept in variables: `TARGETS.zones.includes(here)`.
    let placeInVars = false;
    for (const m of src.matchAll(/\b[A-Za-z_$][\w$]*\b/g)) {
      const v = scope.lookup(m[0]);
      if (v && (v.k === 'arr' || v.k === 'obj' || v.k === 'str') && holdsPlace(v, 0)) {
        placeInVars = true;
        break;
      }
    }
    return (field || placeInVars) && (placeLiteral || placeInVars);
  }

  /** Local functions called under a geo gate whose bodies destroy files (a wiper kept in a helper). */
  private gatedLocalCalls(ifNode: AstNode, scope: Scope): void {
    const src = this.sourceOf(ifNode.consequent as AstNode, 4000) ?? '';
    for (const m of src.matchAll(/\b([A-Za-z_$][\w$]*)\s*\(/g)) {
      const v = scope.lookup(m[1]!);
      if (v?.k !== 'fn') continue;
      const body = this.sourceOf(v.node, 4000) ?? '';
      if (
        /\.(?:writeFileSync|writeFile|rmSync|rm|unlinkSync|unlink|truncateSync|outputFileSync|removeSync|emptyDirSync)\s*\(|\brimraf\b/.test(
          body,
        )
      ) {
        this.threat(
          'js.geo-gated-destructive',
          'malicious_code',
          0.9,
          ifNode,
          `calls ${m[1]}(), which overwrites or deletes files, only when the machine is in a given country, time zone or locale`,
        );
        return;
      }
    }
  }

  private sourceOf(n: AstNode | undefined, max: number): string | undefined {
    if (!n) return undefined;
    const r = n.range ?? (typeof n.start === 'number' ? [n.start, n.end as number] : undefined);
    return r ? this.input.text.slice(r[0], Math.min(r[1], r[0] + max)) : undefined;
  }

  private fnVal(node: AstNode, scope?: Scope, self?: Val): Val & { k: 'fn' } {
    let decoder = false;
    const r = node.range ?? (typeof node.start === 'number' ? [node.start, node.end as number] : undefined);
    if (r && r[1] - r[0] < 1500) {
      const src = this.input.text.slice(r[0], r[1]);
      decoder =
        /fromCharCode|charCodeAt|atob\s*\(|['"]base64['"]|parseInt\(\s*[^,()]*(?:\([^()]*\))?[^,()]*,\s*16\s*\)/.test(
          src,
        );
    }
    return { k: 'fn', node, decoder, scope, self, owner: this };
  }

  /** Walks a function body with its parameters bound; returns what it returns (first known value). */
  private walkFunction(node: AstNode, scope: Scope, depth: number, paramVals?: Val[], thisVal?: Val): Val {
    const name = ((node.id as AstNode | null)?.name as string | undefined) ?? undefined;
    const inner = new Scope(scope, name);
    inner.returns = [];
    if (node.type !== 'ArrowFunctionExpression') {
      inner.vars.set('this', thisVal ?? UNKNOWN);
      inner.vars.set('arguments', paramVals ? { k: 'arr', items: paramVals.slice(0, 50) } : UNKNOWN);
    }
    const params = (node.params ?? []) as AstNode[];
    params.forEach((p, i) => {
      this.checkIdentifierNode(p);
      const v =
        p.type === 'RestElement' && paramVals
          ? ({ k: 'arr', items: paramVals.slice(i, i + 50) } as Val)
          : (paramVals?.[i] ?? UNKNOWN);
      // A string literal written at the call site (`getBuiltIn('fetch')`) is a plain name inside
      // the callee, not one computed at run time.
      const plain = v.k === 'str' && v.lit ? { ...v, listed: true } : v;
      this.bindPattern(
        p.type === 'RestElement' && paramVals ? (p.argument as AstNode) : p,
        plain,
        inner,
        depth,
      );
    });
    for (const p of params)
      if (p.type === 'Identifier' && /^_0x[0-9a-f]{3,}$/i.test(p.name as string)) this.hexId(p);
    const body = node.body as AstNode | undefined;
    if (!body) return UNKNOWN;
    if (body.type === 'BlockStatement') {
      this.hoist(body, inner);
      this.walk(body, inner, depth + 1);
    } else {
      inner.returns.push(this.walk(body, inner, depth + 1));
    }
    this.endScope(inner);
    return pickReturn(inner.returns);
  }

  /** Same-scope exfiltration: sensitive data read and a network sink in one function. */
  private endScope(scope: Scope): void {
    if (!scope.sinks.length || scope.sinks.every((s) => s.tainted)) return;
    const strong = (['secret_file', 'env_all'] as Taint[]).filter((t) => scope.sources.has(t));
    const weak = (['fingerprint', 'secret_env'] as Taint[]).filter((t) => scope.sources.has(t));
    const sink = scope.sinks.find((s) => !s.tainted)!;
    if (strong.length) {
      this.threat(
        'js.exfil-same-scope',
        'data_exfiltration',
        0.7,
        sink.line,
        `reads ${strong.map(describeTaint).join(' and ')} and sends a network request (${sink.what}) in the same function`,
      );
    } else if (weak.includes('fingerprint')) {
      this.threat(
        'js.fingerprint-same-scope',
        'data_exfiltration',
        this.installTime ? 0.7 : 0.5,
        sink.line,
        `collects host details (host name, user) and sends a network request (${sink.what}) in the same function`,
      );
    }
  }

  private hexId(n: AstNode): void {
    const name = n.name as string;
    if (!this.hexIds.has(name)) {
      this.hexIds.add(name);
      if (this.hexIdLines.length < 20) this.hexIdLines.push(lineOf(n));
    }
  }

  private checkIdentifierNode(n: AstNode | undefined): void {
    if (!n || n.type !== 'Identifier') return;
    const name = n.name as string;
    // eslint-disable-next-line no-control-regex -- plain ASCII test
    if (/^[\x00-\x7f]*$/.test(name)) {
      if (/^_0x[0-9a-f]{3,}$/i.test(name)) this.hexId(n);
      return;
    }
    if (hasZeroWidth(name)) {
      this.threat(
        'js.zero-width-identifier',
        'prompt_injection',
        0.85,
        n,
        `identifier contains an invisible zero-width character; two names that look identical differ`,
      );
    } else if (isMixedScriptIdentifier(name)) {
      this.threat(
        'js.homoglyph-identifier',
        'prompt_injection',
        0.8,
        n,
        `identifier "${name}" mixes Latin with Cyrillic/Greek look-alike letters (homoglyph)`,
      );
    }
  }

  private bindPattern(p: AstNode, v: Val, scope: Scope, depth: number): void {
    switch (p.type) {
      case 'Identifier':
        scope.vars.set(p.name as string, v);
        return;
      case 'AssignmentPattern':
        this.walk(p.right as AstNode, scope, depth + 1);
        this.bindPattern(
          p.left as AstNode,
          v.k === 'unknown' ? this.walk(p.right as AstNode, scope, depth + 1) : v,
          scope,
          depth,
        );
        return;
      case 'ObjectPattern':
        for (const prop of (p.properties ?? []) as AstNode[]) {
          if (prop.type === 'RestElement') {
            if (v.k === 'env') this.envWhole(p);
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
      case 'RegExpLiteral':
      case 'Literal':
      case 'StringLiteral':
      case 'NumericLiteral':
      case 'BooleanLiteral': {
        const rx =
          (node.regex as { pattern?: string } | undefined)?.pattern ??
          (node.type === 'RegExpLiteral' ? (node.pattern as string) : undefined);
        if (typeof rx === 'string' && !this.wallet.regex && rx.length < 300 && matchesAddress(rx))
          this.wallet.regex = lineOf(node);
        const v = node.value;
        if (typeof v === 'string') {
          if (!this.wallet.literal && v.length >= 26 && v.length <= 64 && isAddressLiteral(v))
            this.wallet.literal = lineOf(node);
          this.stringLiteral(v, node);
          return { k: 'str', v, lit: true };
        }
        if (typeof v === 'number') return { k: 'num', v };
        if (typeof v === 'boolean') return { k: 'bool', v };
        return UNKNOWN;
      }
      case 'TemplateLiteral': {
        const quasis = (node.quasis ?? []) as AstNode[];
        const exprs = (node.expressions ?? []) as AstNode[];
        const vals = exprs.map((e) => this.walk(e, scope, depth + 1));
        let out = '';
        let constant = true;
        quasis.forEach((q, i) => {
          out += ((q.value as { cooked?: string; raw?: string })?.cooked ?? '') as string;
          if (i < vals.length) {
            const s = asString(vals[i]);
            if (s === undefined) {
              constant = false;
              out += '${…}';
            } else out += s;
          }
        });
        if (out.length > 20) this.stringLiteral(out, node);
        return constant ? str(out, vals) : withTaint({ k: 'str', v: out }, vals, undefined);
      }
      case 'Identifier':
        return this.identifier(node, scope);
      case 'ThisExpression':
        return scope.lookup('this') ?? UNKNOWN;
      case 'ReturnStatement': {
        const v = node.argument ? this.walk(node.argument as AstNode, scope, depth + 1) : UNKNOWN;
        const list = scope.returnList();
        if (list && list.length < 20) list.push(v);
        return UNKNOWN;
      }
      case 'BinaryExpression': {
        const l = this.walk(node.left as AstNode, scope, depth + 1);
        const r = this.walk(node.right as AstNode, scope, depth + 1);
        if (node.operator === '+') {
          const ls = asString(l);
          const rs = asString(r);
          if (l.k === 'num' && r.k === 'num') return { k: 'num', v: l.v + r.v };
          if (ls !== undefined && rs !== undefined) return str(ls + rs, [l, r]);
          if (ls !== undefined || rs !== undefined)
            return withTaint({ k: 'str', v: (ls ?? '${…}') + (rs ?? '${…}') }, [l, r]);
        }
        if (l.k === 'num' && r.k === 'num') {
          const ops: Record<string, (a: number, b: number) => number> = {
            '-': (a, b) => a - b,
            '*': (a, b) => a * b,
            '^': (a, b) => a ^ b,
            '|': (a, b) => a | b,
            '&': (a, b) => a & b,
          };
          const f = ops[node.operator as string];
          if (f) return { k: 'num', v: f(l.v, r.v) };
        }
        return unknown([l, r]);
      }
      case 'LogicalExpression': {
        const l = this.walk(node.left as AstNode, scope, depth + 1);
        const r = this.walk(node.right as AstNode, scope, depth + 1);
        // Either side may be the value: the one we keep carries the taint of both.
        return eitherOf(l, r);
      }
      case 'IfStatement': {
        // A branch taken on where the machine is (a geo-IP answer, the time zone, the locale):
        // destructive file operations under it are protestware / targeted wipers.
        const test = this.walk(node.test as AstNode, scope, depth + 1);
        const gate = this.isGeoGate(node.test as AstNode, test, scope);
        if (gate) {
          this.geoGate++;
          this.gatedLocalCalls(node, scope);
        }
        // A branch on what a server answered or a request carried: a remote trigger.
        const remote = !gate && deepTaints(test).has('network_data');
        if (remote) this.remoteGate++;
        try {
          this.walk(node.consequent as AstNode, scope, depth + 1);
          this.walk(node.alternate as AstNode | undefined, scope, depth + 1);
        } finally {
          if (gate) this.geoGate--;
          if (remote) this.remoteGate--;
        }
        return UNKNOWN;
      }
      case 'ConditionalExpression': {
        this.walk(node.test as AstNode, scope, depth + 1);
        const a = this.walk(node.consequent as AstNode, scope, depth + 1);
        const b = this.walk(node.alternate as AstNode, scope, depth + 1);
        return eitherOf(a, b);
      }
      case 'UnaryExpression': {
        const arg = node.argument as AstNode;
        if (node.operator === '!' || node.operator === '+') {
          const inner =
            arg.type === 'UnaryExpression' && arg.operator === '!' ? (arg.argument as AstNode) : arg;
          const isEmptyArr =
            inner.type === 'ArrayExpression' && !((inner.elements as unknown[]) ?? []).length;
          const isBoolLit =
            (inner.type === 'Literal' || inner.type === 'BooleanLiteral') && typeof inner.value === 'boolean';
          if ((isEmptyArr && (node.operator === '!' || arg !== inner)) || (isBoolLit && arg !== inner)) {
            this.threat(
              'js.jsfuck-boolean',
              'malicious_code',
              0.55,
              node,
              'builds booleans/numbers from `!![]`, `+!!false` style expressions (obfuscator idiom, not minifier output)',
            );
          }
        }
        const v = this.walk(arg, scope, depth + 1);
        if (node.operator === 'typeof') return UNKNOWN;
        if (node.operator === '-' && v.k === 'num') return { k: 'num', v: -v.v };
        return unknown([v]);
      }
      case 'UpdateExpression':
        this.walk(node.argument as AstNode, scope, depth + 1);
        return UNKNOWN;
      case 'AssignmentExpression':
        return this.assignment(node, scope, depth);
      case 'SequenceExpression': {
        let last = UNKNOWN;
        for (const e of (node.expressions ?? []) as AstNode[]) last = this.walk(e, scope, depth + 1);
        return last;
      }
      case 'ArrayExpression': {
        const items: Val[] = [];
        for (const e of (node.elements ?? []) as (AstNode | null)[]) {
          if (e?.type === 'SpreadElement') {
            const v = this.walk(e.argument as AstNode, scope, depth + 1);
            if (v.k === 'env') this.envWhole(e);
            // `[...a, 'x']`: the elements of a known array are kept (bounded).
            const spread = v.k === 'arr' ? v.items : iterItems(v);
            if (spread && items.length + spread.length <= 10_000) items.push(...spread);
            else items.push(unknown([v]));
            continue;
          }
          items.push(e ? this.walk(e, scope, depth + 1) : UNKNOWN);
        }
        this.stringArrayCheck(node, items);
        return { k: 'arr', items };
      }
      case 'ObjectExpression':
        return this.objectExpr(node, scope, depth);
      case 'MemberExpression':
      case 'OptionalMemberExpression':
        return this.memberExpr(node, scope, depth);
      case 'ChainExpression':
      case 'ParenthesizedExpression':
      case 'TSAsExpression':
      case 'TSNonNullExpression':
      case 'TSSatisfiesExpression':
      case 'TSTypeAssertion':
      case 'AwaitExpression':
        return this.walk((node.expression as AstNode) ?? (node.argument as AstNode), scope, depth + 1);
      case 'CallExpression':
      case 'OptionalCallExpression':
      case 'NewExpression':
        return this.call(node, scope, depth);
      case 'ImportExpression': {
        const v = this.walk(node.source as AstNode, scope, depth + 1);
        const s = asString(v);
        if (s !== undefined) return this.loadModule(s, node, v, scope);
        return UNKNOWN;
      }
      case 'FunctionDeclaration': {
        this.checkIdentifierNode(node.id as AstNode);
        const id = (node.id as AstNode | null)?.name;
        if (typeof id === 'string' && scope.vars.get(id)?.k !== 'fn')
          scope.vars.set(id, this.fnVal(node, scope));
        this.walkFunction(node, scope, depth);
        return UNKNOWN;
      }
      case 'FunctionExpression':
      case 'ArrowFunctionExpression': {
        const v = this.fnVal(node, scope);
        this.walkFunction(node, scope, depth);
        return v;
      }
      case 'ClassDeclaration':
      case 'ClassExpression': {
        this.checkIdentifierNode(node.id as AstNode);
        const cls = this.fnVal(node, scope);
        const id = (node.id as AstNode | null)?.name;
        if (node.type === 'ClassDeclaration' && typeof id === 'string') scope.vars.set(id, cls);
        this.walkChildren(node, scope, depth);
        return cls;
      }
      case 'VariableDeclaration':
        for (const d of (node.declarations ?? []) as AstNode[]) {
          this.checkIdentifierNode(d.id as AstNode);
          const init = d.init as AstNode | null;
          const v = init ? this.walk(init, scope, depth + 1) : UNKNOWN;
          this.bindPattern(d.id as AstNode, v, scope, depth);
        }
        return UNKNOWN;
      case 'ImportDeclaration':
        return this.importDecl(node, scope);
      case 'ExportNamedDeclaration':
      case 'ExportAllDeclaration':
      case 'ExportDefaultDeclaration':
        return this.exportDecl(node, scope, depth);
      case 'ForInStatement':
      case 'ForOfStatement': {
        const right = this.walk(node.right as AstNode, scope, depth + 1);
        if (right.k === 'env') this.envWhole(node);
        const forIn = node.type === 'ForInStatement';
        const items = forIn ? keysOf(right) : iterItems(right);
        const left = node.left as AstNode;
        const pattern =
          left.type === 'VariableDeclaration'
            ? ((left.declarations as AstNode[])[0]?.id as AstNode | undefined)
            : left;
        if (left.type === 'VariableDeclaration')
          for (const d of (left.declarations ?? []) as AstNode[]) this.checkIdentifierNode(d.id as AstNode);
        // Loops over constant data: the body is walked once per element (bounded).
        if (pattern && items && items.length && this.unroll(items.length)) {
          for (const item of items) {
            this.bindPattern(pattern, item, scope, depth);
            this.walk(node.body as AstNode, scope, depth + 1);
          }
          return UNKNOWN;
        }
        if (pattern) this.bindPattern(pattern, unknown([right]), scope, depth);
        this.walk(node.body as AstNode, scope, depth + 1);
        return UNKNOWN;
      }
      case 'BlockStatement':
      case 'Program':
      case 'StaticBlock':
        for (const s of (node.body ?? []) as AstNode[]) this.walk(s, scope, depth + 1);
        return UNKNOWN;
      case 'WhileStatement':
      case 'DoWhileStatement':
        this.walk(node.test as AstNode, scope, depth + 1);
        this.walk(node.body as AstNode, scope, depth + 1);
        return UNKNOWN;
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
    this.checkIdentifierNode(node);
    const v = scope.lookup(name);
    if (v) return v;
    if (GLOBAL_NAMES.has(name)) return { k: 'global', name: 'globalObject' };
    if (KNOWN_GLOBALS.has(name)) return { k: 'global', name };
    return UNKNOWN;
  }

  private stringLiteral(v: string, node: AstNode): void {
    if (this.silent) return;
    if (
      v.length >= 8 &&
      v.length < 2048 &&
      /^(?:https?|wss?):\/\//i.test(v) &&
      this.urlLiterals.length < 500
    ) {
      this.urlLiterals.push({ url: v, line: lineOf(node) });
    }
    if (v.length >= 40 && /\s\S+\s/.test(v) && this.strings.length < 2000) {
      this.strings.push({ text: v.slice(0, 20_000), line: lineOf(node), context: 'string' });
    }
    if (/\bLD_PRELOAD\s*=|\bDYLD_INSERT_LIBRARIES\s*=|\brundll32\b/i.test(v)) {
      this.threat(
        'js.library-injection-string',
        'malicious_code',
        0.7,
        node,
        'string sets LD_PRELOAD or runs rundll32 (library injection)',
      );
    }
    if (/\/dev\/tcp\/\d|\bnc(?:at)?\s+(?:-\w+\s+)*-e\s+\/bin\/(?:ba)?sh|\bbash\s+-i\s*>&/.test(v)) {
      this.threat(
        'js.reverse-shell-string',
        'malicious_code',
        0.85,
        node,
        'string contains a reverse-shell command',
      );
    }
  }

  private objectExpr(node: AstNode, scope: Scope, depth: number): Val {
    const props = new Map<string, Val>();
    const all: Val[] = [];
    let descNode: AstNode | undefined;
    for (const p of (node.properties ?? []) as AstNode[]) {
      if (p.type === 'SpreadElement' || p.type === 'SpreadProperty') {
        const v = this.walk(p.argument as AstNode, scope, depth + 1);
        if (v.k === 'env') this.envWhole(p);
        all.push(v);
        if (v.k === 'obj') for (const [k, x] of v.props) props.set(k, x);
        continue;
      }
      const key = p.computed
        ? asString(this.walk(p.key as AstNode, scope, depth + 1))
        : keyName(p.key as AstNode);
      const valNode = p.value as AstNode;
      const v =
        p.type === 'ObjectMethod' || p.kind === 'get' || p.kind === 'set'
          ? this.fnVal(p.type === 'ObjectMethod' ? p : valNode, scope)
          : this.walk(valNode, scope, depth + 1);
      if (p.type === 'ObjectMethod') this.walkFunction(p, scope, depth);
      if (v.k === 'env') this.envWhole(p);
      all.push(v);
      if (key !== undefined) {
        props.set(key, v);
        if (key === 'description' && v.k === 'str' && v.v.length >= 20) descNode = valNode;
        if ((key === 'hostname' || key === 'host') && v.k === 'str') this.pendingHosts.push(v.v);
      }
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
    return withTaint({ k: 'obj', props }, all);
  }

  private pendingHosts: string[] = [];
  /** The object of the member expression walked last (the `this` of a method call). */
  private lastMemberObj: Val | undefined;
  /** Elements left for unrolling loops and array callbacks over known data. */
  private unrollLeft = 600;
  /** Calls of local functions left to analyse with their arguments, and the ones in progress. */
  private inlineLeft = 3000;
  /** Walk steps left for analysing calls with their arguments (bounds the cost on big bundles). */
  private inlineStepsLeft: number;
  private readonly inlineStack: AstNode[] = [];
  private readonly inlineCache = new Map<AstNode, Map<string, Val>>();
  /** Functions whose analysed calls taught nothing (no finding, capability or known result). */
  private readonly boring = new Map<AstNode, number>();

  unroll(n: number): boolean {
    if (n > MAX_UNROLL || n > this.unrollLeft) return false;
    this.unrollLeft -= n;
    return true;
  }

  private memberObjOf(calleeNode: AstNode): Val | undefined {
    let c = calleeNode;
    while (c.type === 'ChainExpression' || c.type === 'ParenthesizedExpression') c = c.expression as AstNode;
    return c.type === 'MemberExpression' || c.type === 'OptionalMemberExpression'
      ? this.lastMemberObj
      : undefined;
  }
  private lastKeyDecoded = false;

  /** A string literal written with \\x / \\u escapes in the source (`"\\x73\\x70awn"`). */
  private escapedLiteral(n: AstNode): boolean {
    const r = n.range ?? (typeof n.start === 'number' ? [n.start, n.end as number] : undefined);
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
    if (node.computed) {
      const kv = this.walk(propNode, scope, depth + 1);
      key = asString(kv);
      this.lastKeyDecoded = !!(kv.viaDecoder || kv.t?.has('decoded'));
      const literal =
        (propNode.type === 'Literal' || propNode.type === 'StringLiteral') && !this.escapedLiteral(propNode);
      obfKey = key !== undefined && !literal && !kv.listed;
      if (kv.viaDecoder && (obj.k === 'global' || obj.k === 'mod')) {
        this.threat(
          'js.decoder-computed-access',
          'malicious_code',
          0.65,
          node,
          'looks up a property whose name comes from a decoding function',
        );
      }
      if (literal && key !== undefined && obj.k === 'mod' && sensitiveMember(obj, key, true)) {
        this.threat(
          'js.bracket-api-access',
          'malicious_code',
          0.35,
          node,
          `calls ${obj.name}.${key} through a bracketed string ("${key}") instead of a plain property`,
        );
      }
    } else {
      key = keyName(propNode);
    }
    this.lastMemberObj = obj;
    if (key === undefined) return unknown([obj]);
    const v = this.member(obj, key, node, scope, obfKey);
    this.lastMemberObj = obj;
    if (
      obfKey &&
      (obj.k === 'mod' || obj.k === 'global') &&
      (v.k === 'api' || v.k === 'global' || v.k === 'mod')
    ) {
      const what = obj.k === 'mod' ? `${obj.name}.${key}` : key;
      const globalOwner: Val =
        obj.k === 'global' && obj.name === 'globalObject' ? { k: 'global', name: 'global' } : obj;
      if (sensitiveMember(globalOwner, key, !!(v.obf && this.lastKeyDecoded)))
        this.threat(
          'js.obfuscated-api-access',
          'malicious_code',
          0.7,
          node,
          `reaches ${what} through a property name computed at run time`,
        );
    }
    return v;
  }

  /** Property access on an abstract value. */
  member(obj: Val, key: string, at: AstNode, scope: Scope, obf: boolean): Val {
    const mark = (v: Val): Val => (obf ? { ...v, obf: true } : v);
    switch (obj.k) {
      case 'mod':
        if (key === 'default' || key === '__esModule') return obj;
        if (obj.name === 'process' && key === 'env') return { k: 'env' };
        return mark({ k: 'api', mod: obj.name, path: key });
      case 'api':
        if (obj.mod === 'fs' && obj.path === 'promises') return mark({ k: 'api', mod: 'fs', path: key });
        if (key === 'call' || key === 'apply' || key === 'bind')
          return mark({ ...obj, path: `${obj.path}.${key}` });
        return mark(withTaint({ k: 'api', mod: obj.mod, path: `${obj.path}.${key}` }, [obj]));
      case 'global':
        if (obj.name === 'globalObject') {
          if (GLOBAL_NAMES.has(key)) return obj;
          if (KNOWN_GLOBALS.has(key)) {
            if (obf && sensitiveMember({ k: 'global', name: 'global' }, key, this.lastKeyDecoded)) {
              this.threat(
                'js.obfuscated-global',
                'malicious_code',
                0.7,
                at,
                `reaches the global ${key} through a computed name`,
              );
            }
            return mark({ k: 'global', name: key });
          }
          return UNKNOWN;
        }
        if (obj.name === 'process') {
          if (key === 'env') return { k: 'env' };
          if (key === 'mainModule') return { k: 'global', name: 'mainModule' };
          if (key === 'binding' || key === 'dlopen') return mark({ k: 'api', mod: 'process', path: key });
          return mark({ k: 'api', mod: 'process', path: key });
        }
        if (obj.name === 'mainModule' && key === 'require') return { k: 'global', name: 'require' };
        // Function.constructor is Function itself (a common way to avoid writing `new Function`).
        if (obj.name === 'Function' && key === 'constructor') return mark(obj);
        return mark({ k: 'api', mod: `global:${obj.name}`, path: key });
      case 'env': {
        if (!this.silent) {
          this.caps.envVars.add(key);
          this.capability('environment', 'js.env-var', at, `reads environment variable ${key}`);
        }
        const v: Val = { k: 'str', v: key === 'HOME' || key === 'USERPROFILE' ? '~' : `$${key}` };
        if (SECRET_ENV.test(key)) {
          this.source(scope, 'secret_env', lineOf(at));
          return withTaint(v, [], 'secret_env');
        }
        return v;
      }
      case 'obj': {
        const v = obj.props.get(key);
        return v ?? unknown([obj]);
      }
      case 'arr': {
        const i = Number(key);
        if (Number.isInteger(i) && obj.items[i]) return obj.items[i]!;
        if (key === 'length') return { k: 'num', v: obj.items.length };
        return withTaint({ k: 'api', mod: 'array', path: key, base: obj }, [obj]);
      }
      case 'entry':
        if (key === '1') return mark({ ...this.member(obj.of, obj.key, at, scope, false), obf: true });
        if (key === '0') return { k: 'str', v: obj.key };
        return UNKNOWN;
      case 'entrylist':
        if (key === '0') return { k: 'entry', of: obj.of, key: obj.key };
        return UNKNOWN;
      case 'desc':
        if (key === 'value' || key === 'get')
          return { ...this.member(obj.of, obj.key, at, scope, false), obf: true };
        return UNKNOWN;
      case 'str':
        if (key === 'length') return { k: 'num', v: obj.v.length };
        if (/^\d+$/.test(key)) return { k: 'str', v: obj.v.charAt(Number(key)) };
        return withTaint({ k: 'api', mod: 'string', path: key, base: obj }, [obj]);
      case 'keys':
      case 'entries':
        return { k: 'api', mod: 'array', path: key, base: obj };
      case 'net':
        return withTaint({ k: 'api', mod: 'netobj', path: key }, [obj]);
      case 'fn':
        // (function () {}).constructor / (() => {}).constructor: the Function constructor.
        if (key === 'constructor') return mark({ k: 'global', name: 'Function' });
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
      // A function that replaces itself with `function () { return array }` (string-array helper).
      if (v.k === 'fn' && scope.fnName === name) {
        this.threat(
          'js.self-redefining-function',
          'malicious_code',
          0.25,
          node,
          `function ${name} redefines itself on first call (string-array helper idiom)`,
        );
      }
      if (node.operator === '+=') {
        const old = scope.lookup(name) ?? UNKNOWN;
        const a = asString(old);
        const b = asString(v);
        scope.assign(name, a !== undefined && b !== undefined ? str(a + b, [old, v]) : unknown([old, v]));
      } else scope.assign(name, v);
      if (/^_0x[0-9a-f]{3,}$/i.test(name)) this.hexId(left);
    } else if (left.type === 'MemberExpression') {
      // window.fetch = …, XMLHttpRequest.prototype.send = …, ethereum.request = …: calls hooked.
      if (this.wallet.intercept === undefined) {
        const target = this.sourceOf(left, 200) ?? '';
        if (
          /(?:^|\.)(?:fetch|request|send|open|sendTransaction|sendAsync|signTransaction|innerHTML|textContent|nodeValue|innerText|value)$/.test(
            target,
          )
        ) {
          this.wallet.intercept = lineOf(node);
          this.wallet.how = target.replace(/\s+/g, '').slice(0, 60);
        }
      }
      // img.src = 'https://host/p?d=' + data / link.href / form.action: a request by assignment.
      const prop = left.computed ? undefined : keyName(left.property as AstNode);
      // document.onkeypress = fn / form.onsubmit = fn: handlers by property, walked like
      // addEventListener callbacks (the keystroke or the form is the page user's data).
      const onType = prop ? /^on(keydown|keypress|keyup|submit)$/.exec(prop)?.[1] : undefined;
      if (onType && v.k === 'fn' && !this.rewalked.has(v.node)) {
        this.rewalked.add(v.node);
        const params =
          this.callbackParams(UNKNOWN, UNKNOWN, 1, [{ k: 'str', v: onType }], 'addEventListener') ?? [];
        const self = onType === 'submit' ? withTaint({ k: 'unknown' }, [], 'page_secret') : undefined;
        this.walkFunction(v.node, scope, depth + 1, params, self);
      }
      if (
        (prop === 'src' || prop === 'href' || prop === 'action') &&
        v.t?.has('page_secret') &&
        /^[a-z]+:\/\//i.test(asString(v) ?? (v.k === 'str' ? v.v : ''))
      )
        this.request(node, `${prop} assignment`, v, undefined, scope, undefined);
      const target = this.walk(left.object as AstNode, scope, depth + 1);
      const computedKey = left.computed
        ? asString(this.walk(left.property as AstNode, scope, depth + 1))
        : undefined;
      const key = left.computed ? undefined : keyName(left.property as AstNode);
      if (target.k === 'env' && key) {
        this.caps.envVars.add(key);
      }
      if (target.k === 'obj' && (key ?? computedKey) !== undefined && target.props.size < 1000)
        target.props.set((key ?? computedKey)!, v);
      else if ((target.k === 'obj' || target.k === 'arr') && left.computed) {
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

  // ---------------------------------------------------------------- modules

  private loadModule(spec: string, at: AstNode, specVal: Val | undefined, _scope: Scope): Val {
    const name = canonicalModule(spec);
    if (!this.silent) this.requires.add(spec);
    if (specVal && (specVal.obf || specVal.viaDecoder || (specVal.t?.has('decoded') ?? false))) {
      const sensitive = SENSITIVE_MODULES.has(name) || NETWORK_CLIENT_MODULES.has(name);
      this.threat(
        'js.obfuscated-require',
        'malicious_code',
        sensitive ? 0.75 : 0.55,
        at,
        `loads module "${spec}" by a name built at run time`,
      );
    }
    if (/\.node$/i.test(spec)) {
      this.caps.nativeModules.add(spec.replace(/^\.\//, ''));
      this.capability('native', 'js.require-node-addon', at, `loads native addon ${spec}`);
    }
    if (NATIVE_LOADERS.has(spec)) {
      this.caps.hasNative = true;
      this.capability('native', 'js.native-loader', at, `loads native code through ${spec}`);
    }
    return this.localModule(spec) ?? { k: 'mod', name };
  }

  /** The exports of a package-local module (`./util`), analysed once per package (bounded). */
  private localModule(spec: string): Val | undefined {
    const host = this.input.modules;
    if (!host || !spec.startsWith('.') || this.silent) return undefined;
    const file = host.resolve(this.input.path, spec);
    if (!file) return undefined;
    const cached = host.cache.get(file.path);
    if (cached !== undefined) return cached ?? undefined;
    if (host.cache.size >= MAX_LOCAL_MODULES || (this.input.moduleDepth ?? 0) >= MAX_MODULE_DEPTH)
      return undefined;
    host.cache.set(file.path, null); // in progress (cycles see the plain module)
    const childInput: JsFileInput = {
      ...this.input,
      path: file.path,
      text: file.text,
      installTime: this.installTime,
      nested: 0,
      moduleDepth: (this.input.moduleDepth ?? 0) + 1,
    };
    const { fa: child, result } = runFile(childInput);
    // The file's own analysis is kept for when the package loop reaches it.
    host.results.set(file.path, { installTime: this.installTime, text: file.text, result });
    if (!result.parsed) return undefined;
    const v = child.exportsValue();
    host.cache.set(file.path, v);
    return v;
  }

  private importDecl(node: AstNode, scope: Scope): Val {
    const src = (node.source as AstNode)?.value;
    if (typeof src !== 'string') return UNKNOWN;
    if (node.importKind === 'type') return UNKNOWN;
    const loaded = this.loadModule(src, node, undefined, scope);
    if (loaded.k !== 'mod') {
      // A package-local module: its exports (ESM `default`, or the CommonJS exports object).
      for (const s of (node.specifiers ?? []) as AstNode[]) {
        const local = (s.local as AstNode).name as string;
        const imported = s.type === 'ImportSpecifier' ? (keyName(s.imported as AstNode) ?? local) : undefined;
        const dflt = loaded.k === 'obj' ? loaded.props.get('default') : undefined;
        scope.vars.set(
          local,
          s.type === 'ImportNamespaceSpecifier'
            ? loaded
            : imported === undefined || imported === 'default'
              ? (dflt ?? loaded)
              : this.member(loaded, imported, node, scope, false),
        );
      }
      return UNKNOWN;
    }
    const mod = loaded;
    for (const s of (node.specifiers ?? []) as AstNode[]) {
      const local = (s.local as AstNode).name as string;
      if (s.type === 'ImportSpecifier') {
        const imported = keyName(s.imported as AstNode) ?? local;
        scope.vars.set(local, imported === 'default' ? mod : { k: 'api', mod: mod.name, path: imported });
      } else scope.vars.set(local, mod);
    }
    return UNKNOWN;
  }

  private exportDecl(node: AstNode, scope: Scope, depth: number): Val {
    if (node.source) {
      const src = (node.source as AstNode).value;
      if (typeof src === 'string') this.loadModule(src, node, undefined, scope);
    }
    if (node.type === 'ExportDefaultDeclaration') this.exportNames.add('default');
    const decl = node.declaration as AstNode | null | undefined;
    if (decl) {
      const id = (decl.id as AstNode | undefined)?.name;
      if (typeof id === 'string') this.exportNames.add(id);
      for (const d of (decl.declarations ?? []) as AstNode[]) {
        const n = (d.id as AstNode)?.name;
        if (typeof n === 'string') this.exportNames.add(n);
      }
      const v = this.walk(decl, scope, depth + 1);
      // Exported values, for the other files of the package.
      if (node.type === 'ExportDefaultDeclaration') {
        const fnDecl = decl.type === 'FunctionDeclaration';
        const named = typeof id === 'string' ? scope.lookup(id) : undefined;
        this.exportsObj.props.set('default', named ?? (fnDecl ? this.fnVal(decl, scope) : v));
      } else {
        if (typeof id === 'string') {
          const x = scope.lookup(id);
          if (x) this.exportsObj.props.set(id, x);
        }
        for (const d of (decl.declarations ?? []) as AstNode[]) {
          const n = (d.id as AstNode)?.name;
          const x = typeof n === 'string' ? scope.lookup(n) : undefined;
          if (typeof n === 'string' && x) this.exportsObj.props.set(n, x);
        }
      }
    }
    for (const s of (node.specifiers ?? []) as AstNode[]) {
      const n = keyName(s.exported as AstNode);
      if (n) this.exportNames.add(n);
      const local = keyName(s.local as AstNode);
      const x = !node.source && local ? scope.lookup(local) : undefined;
      if (n && x) this.exportsObj.props.set(n, x);
    }
    if (node.type === 'ExportAllDeclaration') {
      const n = keyName(node.exported as AstNode);
      this.exportNames.add(n ?? `* from ${String((node.source as AstNode)?.value)}`);
    }
    return UNKNOWN;
  }

  // ---------------------------------------------------------------- calls

  private call(node: AstNode, scope: Scope, depth: number): Val {
    const calleeNode = node.callee as AstNode;
    const isNew = node.type === 'NewExpression';
    this.lastMemberObj = undefined;
    let callee = this.walk(calleeNode, scope, depth + 1);
    const memberObj = this.memberObjOf(calleeNode);
    const argNodes = (node.arguments ?? []) as AstNode[];
    // new Promise((resolve) => … resolve(x)): the promise holds what its executor resolves with,
    // so `.then(v => …)` and `await` see x's taint.
    const executor = argNodes[0];
    if (
      isNew &&
      calleeNode.type === 'Identifier' &&
      calleeNode.name === 'Promise' &&
      executor &&
      (executor.type === 'FunctionExpression' || executor.type === 'ArrowFunctionExpression')
    ) {
      const resolved: Val[] = [];
      this.resolving.push(resolved);
      try {
        this.walkFunction(executor, scope, depth + 1, [
          { k: 'api', mod: 'promise', path: 'resolve' },
          { k: 'api', mod: 'promise', path: 'reject' },
        ]);
      } finally {
        this.resolving.pop();
      }
      return resolved.length === 1 ? resolved[0]! : unknown(resolved);
    }
    // Arguments that are functions are walked after we know the callee (to bind callback params).
    const args: Val[] = [];
    argNodes.forEach((a, i) => {
      if (a.type === 'FunctionExpression' || a.type === 'ArrowFunctionExpression') {
        args.push(this.fnVal(a, scope));
        return;
      }
      if (a.type === 'SpreadElement') {
        const v = this.walk(a.argument as AstNode, scope, depth + 1);
        if (v.k === 'env') this.envWhole(a);
        // `f(...list)` as the last argument: a known array's elements become the arguments.
        if (v.k === 'arr' && i === argNodes.length - 1) args.push(...v.items.slice(0, 50));
        else args.push(unknown([v]));
        return;
      }
      args.push(this.walk(a, scope, depth + 1));
    });
    let effArgs = args;
    // f.call(thisArg, ...args) / f.apply(thisArg, [args]) / f.bind(thisArg, ...args)()
    if (callee.k === 'api' && /\.(?:call|apply|bind)$/.test(callee.path)) {
      const how = callee.path.slice(callee.path.lastIndexOf('.') + 1);
      const base: Val = { ...callee, path: callee.path.slice(0, callee.path.lastIndexOf('.')) };
      if (how === 'bind') {
        return { ...base, obf: callee.obf };
      }
      callee = base;
      effArgs = how === 'call' ? args.slice(1) : args[1]?.k === 'arr' ? args[1].items : [];
    }
    // Local functions, methods and classes: analysed with the call's arguments.
    let thisVal = memberObj;
    const how = calleeNode.type === 'MemberExpression' ? keyName(calleeNode.property as AstNode) : undefined;
    if (memberObj?.k === 'fn' && (how === 'call' || how === 'apply' || how === 'bind')) {
      // localFn.call(thisArg, ...args) / .apply(thisArg, [args]) / .bind(thisArg)
      if (how === 'bind') return { ...memberObj, self: args[0] };
      thisVal = args[0];
      callee = memberObj;
      effArgs = how === 'call' ? args.slice(1) : args[1]?.k === 'arr' ? args[1].items : [];
    }
    let result =
      callee.k === 'fn'
        ? this.userCall(node, callee, effArgs, scope, depth, callee.self ?? thisVal, isNew)
        : this.dispatch(node, callee, effArgs, argNodes, scope, isNew, depth);
    if (
      calleeNode.type === 'Identifier' &&
      calleeNode.name === 'RegExp' &&
      this.wallet.regex === undefined &&
      (asString(args[0])?.length ?? 300) < 300 &&
      matchesAddress(asString(args[0])!)
    )
      this.wallet.regex = lineOf(node);
    if (how && this.wallet.intercept === undefined) {
      const type = asString(args[0]) ?? '';
      if (
        /^(?:writeText|readText|setData|getData)$/.test(how) ||
        (how === 'addEventListener' && /^(?:copy|paste|cut)$/.test(type))
      ) {
        this.wallet.intercept = lineOf(node);
        this.wallet.how = 'the clipboard';
      } else if (
        how === 'defineProperty' &&
        /^(?:request|send|sendAsync|sendTransaction|fetch|open)$/.test(asString(args[1]) ?? '')
      ) {
        this.wallet.intercept = lineOf(node);
        this.wallet.how = `${asString(args[1])} calls`;
      }
    }
    if (
      this.remoteGate > 0 &&
      ((how !== undefined && /^(?:dropDatabase|flushall|flushdb|dropCollection)$/i.test(how)) ||
        args.some((a) =>
          /\bDROP\s+(?:DATABASE|TABLE|SCHEMA)\b|\bTRUNCATE\s+TABLE\b|\bFLUSHALL\b/i.test(asString(a) ?? ''),
        ))
    )
      this.remoteTriggered(node, 'wipes a database');
    // Page secrets: the fields a skimmer selects (passwords, cards, seed phrases) and a wallet's
    // secrets in web storage.
    const selector = how ?? (calleeNode.type === 'Identifier' ? (calleeNode.name as string) : undefined);
    if (selector && callee.k !== 'fn') {
      const a0s = asString(args[0]);
      if (
        /^(?:querySelector|querySelectorAll|getElementById|getElementsByName|getElementsByClassName|closest|find|\$|jQuery)$/.test(
          selector,
        ) &&
        a0s !== undefined &&
        SECRET_FIELD.test(a0s)
      )
        result = withTaint({ k: 'unknown' }, [result], 'page_secret');
      else if (
        how === 'getItem' &&
        memberObj?.k === 'global' &&
        /^(?:localStorage|sessionStorage)$/.test(memberObj.name) &&
        a0s !== undefined &&
        SECRET_STORAGE_KEY.test(a0s)
      )
        result = withTaint({ k: 'unknown' }, [result], 'page_secret');
    }
    // arr.forEach / map / filter / … over known elements: the callback runs once per element.
    let iterated = false;
    if (
      callee.k === 'api' &&
      callee.mod === 'array' &&
      callee.base &&
      args[0]?.k === 'fn' &&
      /^(?:forEach|map|filter|some|every|find|findIndex|flatMap|reduce)$/.test(callee.path)
    ) {
      const items = iterItems(callee.base);
      const fn = args[0];
      if (items && this.unroll(items.length)) {
        iterated = true;
        const outs: Val[] = [];
        let acc: Val = args[1] ?? UNKNOWN;
        items.forEach((item, i) => {
          const params: Val[] =
            callee.path === 'reduce'
              ? [acc, item, { k: 'num', v: i }]
              : [item, { k: 'num', v: i }, callee.base!];
          const out =
            argNodes[0] &&
            (argNodes[0].type === 'FunctionExpression' || argNodes[0].type === 'ArrowFunctionExpression')
              ? this.walkFunction(fn.node, scope, depth + 1, params)
              : this.userCall(node, fn, params, scope, depth, undefined, false);
          acc = out;
          outs.push(callee.path === 'flatMap' && out.k === 'arr' ? out : out);
        });
        if (callee.path === 'map') return { k: 'arr', items: outs };
        if (callee.path === 'flatMap')
          return { k: 'arr', items: outs.flatMap((o) => (o.k === 'arr' ? o.items : [o])).slice(0, 10_000) };
        if (callee.path === 'filter') return callee.base.k === 'arr' ? callee.base : { k: 'arr', items };
        if (callee.path === 'reduce') return acc;
        if (callee.path === 'find') return items[0] ?? UNKNOWN;
        return UNKNOWN;
      }
    }
    this.callChecks(node, callee, effArgs);
    // MCP servers: server.tool(name, description, ...) / registerTool(name, { description }) — descriptions are read by agents.
    if (
      calleeNode.type === 'MemberExpression' &&
      /^(?:tool|registerTool|addTool|prompt|registerPrompt)$/.test(
        keyName(calleeNode.property as AstNode) ?? '',
      )
    ) {
      effArgs.forEach((a, i) => {
        if (a.k === 'str' && a.v.length >= 20 && !this.silent && this.strings.length < 2000) {
          this.strings.push({
            text: a.v.slice(0, 20_000),
            line: lineOf(argNodes[i]),
            context: 'tool_description',
          });
        }
      });
    }
    if (
      (calleeNode.type === 'MemberExpression' && keyName(calleeNode.property as AstNode) === '_compile') ||
      (callee.k === 'api' && callee.path.endsWith('_compile'))
    ) {
      this.dynamicCode(node, 'module._compile', effArgs[0], argNodes[0], scope, depth);
    }
    // Walk callback arguments, giving their parameters what the API passes them.
    argNodes.forEach((a, i) => {
      // A named function handed to a timer or an event registration runs later: walk it again
      // with what the program has built by then (a keylogger's buffer flushed by setInterval).
      const later =
        (calleeNode.type === 'Identifier' &&
          /^(?:setInterval|setTimeout|requestIdleCallback)$/.test(calleeNode.name as string)) ||
        (how !== undefined && /^(?:setInterval|setTimeout|addEventListener|on|once)$/.test(how));
      if (later && a.type === 'Identifier' && args[i]?.k === 'fn' && !this.rewalked.has(args[i].node)) {
        const fn = args[i] as Val & { k: 'fn' };
        this.rewalked.add(fn.node);
        this.userCall(
          node,
          fn,
          this.callbackParams(callee, result, i, args, how) ?? [],
          scope,
          depth,
          undefined,
          false,
        );
        return;
      }
      if (a.type !== 'FunctionExpression' && a.type !== 'ArrowFunctionExpression') return;
      if (iterated && i === 0) return;
      // value.then(v => …) on a value we know (what a local async function returned): v is it.
      const settled =
        how === 'then' && i === 0 && memberObj && memberObj.k !== 'unknown' && memberObj.k !== 'net'
          ? [memberObj]
          : undefined;
      const paramVals = settled ?? this.callbackParams(callee, result, i, args, how);
      // form.addEventListener('submit', function () { this.elements … }): `this` is the form.
      const thisForm =
        how === 'addEventListener' && asString(args[0]) === 'submit'
          ? withTaint({ k: 'unknown' }, [], 'page_secret')
          : undefined;
      this.walkFunction(a, scope, depth + 1, paramVals, thisForm);
    });
    // Silent detached child processes: spawn(..., { detached: true, stdio: 'ignore' })
    return result;
  }

  private envCalls: number[] = [];

  private callChecks(node: AstNode, callee: Val, args: Val[]): void {
    if (this.silent) return;
    const name = callee.k === 'api' ? callee.path : '';
    if (/inject/i.test(name) && args.some((a) => /\.dll$/i.test(asString(a) ?? ''))) {
      this.threat('js.dll-injection', 'malicious_code', 0.75, node, `injects a DLL into a process (${name})`);
    }
    const unknownSink =
      callee.k === 'unknown' ||
      (callee.k === 'api' &&
        !callee.mod.startsWith('global:') &&
        !['child_process', 'fs', 'path', 'string', 'array', 'process', 'os'].includes(callee.mod) &&
        !SPAWN_MODULES.has(callee.mod));
    if (
      unknownSink &&
      args.some(
        (a) => a.k === 'obj' && [...a.props.entries()].some(([k, v]) => v.k === 'env' && !/env/i.test(k)),
      )
    ) {
      this.envCalls.push(lineOf(node));
    }
  }

  private callbackParams(
    callee: Val,
    result: Val,
    _index: number,
    args: Val[],
    method?: string,
  ): Val[] | undefined {
    const taints = [...(result.t ?? [])];
    if (callee.k === 'api' && callee.mod === 'fs' && /^read/.test(callee.path) && taints.length) {
      return [UNKNOWN, withTaint({ k: 'unknown' }, [result])];
    }
    if (
      callee.k === 'api' &&
      (callee.mod === 'http' || callee.mod === 'https') &&
      /^(?:get|request|createServer)$/.test(callee.path)
    ) {
      // A response, or the request a server receives: both are data from the network.
      return [withTaint({ k: 'unknown' }, [], 'network_data')];
    }
    // addEventListener('keydown', e => …): the keystroke (e.key, e.keyCode…) is what the user
    // types; a 'submit' event's form holds every field. Search boxes read e.target.value, which
    // stays untainted unless the field itself is a secret one.
    if (method === 'addEventListener') {
      const type = asString(args[0]) ?? '';
      const typed = withTaint({ k: 'unknown' }, [], 'page_secret');
      if (KEY_EVENTS.test(type)) {
        const props = new Map<string, Val>();
        for (const k of ['key', 'keyCode', 'which', 'code', 'charCode']) props.set(k, typed);
        return [{ k: 'obj', props }];
      }
      if (type === 'submit') {
        const props = new Map<string, Val>([
          ['target', typed],
          ['currentTarget', typed],
          ['srcElement', typed],
        ]);
        return [{ k: 'obj', props }];
      }
    }
    // Methods of tainted objects hand their taint to callbacks (res.on('data', chunk => ...)).
    if (callee.t?.size) return [unknown([callee]), unknown([callee])];
    if (args.some((a) => a.t?.size)) return undefined;
    return undefined;
  }

  private dispatch(
    node: AstNode,
    callee: Val,
    args: Val[],
    argNodes: AstNode[],
    scope: Scope,
    isNew: boolean,
    depth: number,
  ): Val {
    const a0 = args[0];
    const s0 = asString(a0);
    if (callee.k === 'global') {
      switch (callee.name) {
        case 'require':
          if (s0 !== undefined) return this.loadModule(s0, node, a0, scope);
          return UNKNOWN;
        case 'eval':
          this.dynamicCode(node, 'eval', a0, argNodes[0], scope, depth);
          return unknown(args);
        case 'Function':
          this.dynamicCode(
            node,
            'Function',
            args[args.length - 1],
            argNodes[argNodes.length - 1],
            scope,
            depth,
          );
          return withTaint({ k: 'dyn' }, args);
        case 'setTimeout':
        case 'setInterval':
        case 'setImmediate':
          if (a0?.k === 'str' || (a0?.t?.has('decoded') ?? false))
            this.dynamicCode(node, callee.name, a0, argNodes[0], scope, depth);
          return UNKNOWN;
        case 'atob': {
          const s = s0 !== undefined ? decodeBase64(s0) : undefined;
          const out: Val = s !== undefined ? { k: 'str', v: s } : { k: 'unknown' };
          return withTaint(out, args, 'decoded');
        }
        case 'unescape':
        case 'decodeURIComponent':
          return s0 !== undefined ? str(safeDecodeUri(s0), args) : unknown(args);
        case 'fetch':
          this.request(node, 'fetch', a0, args[1], scope, undefined);
          return withTaint({ k: 'net' }, [], 'network_data');
        case 'WebSocket':
        case 'EventSource':
          this.request(node, callee.name, a0, undefined, scope, 'ws');
          return withTaint({ k: 'net' }, [], 'network_data');
        case 'XMLHttpRequest':
          this.networkInFile = true;
          this.caps.makesRequests = true;
          this.capability('network', 'js.xhr', node, 'creates an XMLHttpRequest');
          return { k: 'net' };
        case 'parseInt':
          return s0 !== undefined && /^(?:0x)?[0-9a-f]+$/i.test(s0)
            ? { k: 'num', v: parseInt(s0, asNum(args[1]) ?? 10) }
            : UNKNOWN;
        default:
          return unknown(args);
      }
    }
    if (callee.k === 'api') {
      return this.apiCall(node, callee, args, argNodes, scope, isNew, depth);
    }
    if (callee.k === 'mod') return this.moduleCall(node, callee.name, args, scope);
    if (callee.k === 'dyn') {
      if (callee.t?.has('decoded') || callee.t?.has('network_data') || callee.t?.has('image')) {
        this.threat(
          'js.eval-decoded',
          'malicious_code',
          0.85,
          node,
          'calls a function compiled at run time from decoded data',
        );
      }
      return unknown(args);
    }
    if (callee.k === 'fn') {
      return this.userCall(node, callee, args, scope, depth, callee.self, isNew);
    }
    if (callee.k === 'unknown' && callee.t?.size) return unknown([callee, ...args]);
    // Unknown callee: result carries argument taint (decoders, serialisers, wrappers). The whole
    // environment handed to an opaque function (`loadConfig(process.env)`) is not itself sent on:
    // only serialisers and encoders turn it into data.
    return unknown(opaqueArgs(node, args));
  }

  private userCall(
    node: AstNode,
    fn: Val & { k: 'fn' },
    args: Val[],
    scope: Scope,
    depth: number,
    thisVal?: Val,
    isNew = false,
  ): Val {
    if (fn.decoder) {
      const lit = args.map(asString).find((s) => s !== undefined);
      if (lit !== undefined && lit.length >= 4) {
        const hex = decodeHex(lit);
        const b64 = hex === undefined && lit.length >= 8 && strictBase64(lit) ? decodeBase64(lit) : undefined;
        const decoded = hex ?? b64;
        if (decoded !== undefined && printable(decoded) && mostlyText(decoded)) {
          this.threat(
            'js.decoder-call',
            'malicious_code',
            0.55,
            node,
            `passes an encoded literal to a local decoding function (decodes to "${decoded.slice(0, 40)}")`,
          );
          return { ...str(decoded), t: new Set(['decoded' as Taint]), viaDecoder: true };
        }
      }
      return { ...unknown(args), viaDecoder: true };
    }
    // A function of another package file (exported from a module this file requires).
    if (fn.owner && fn.owner !== this && fn.owner instanceof FileAnalyzer)
      return fn.owner.invokeFor(this, fn, args, depth, thisVal, isNew);
    return this.invoke(fn, args, scope, depth, thisVal, isNew);
  }

  /**
   * Analyses a call of a local function, method or class with the call's arguments bound to its
   * parameters (so sinks inside see them) and returns what it returns. Bounded: nesting, count per
   * file, recursion, function size; repeated calls with the same arguments reuse the first result.
   */
  private invoke(
    fn: Val & { k: 'fn' },
    args: Val[],
    callerScope: Scope,
    depth: number,
    thisVal: Val | undefined,
    isNew: boolean,
  ): Val {
    const node = fn.node;
    const isClass = node.type === 'ClassDeclaration' || node.type === 'ClassExpression';
    const defScope = fn.scope instanceof Scope ? fn.scope : callerScope;
    const instance: (Val & { k: 'obj' }) | undefined =
      isNew || isClass ? { k: 'obj', props: new Map() } : undefined;
    let target: AstNode | undefined = node;
    if (isClass) {
      target = undefined;
      const members = (((node.body as AstNode | undefined)?.body ?? []) as AstNode[]).slice(0, 200);
      for (const m of members) {
        const key = m.computed ? undefined : keyName(m.key as AstNode);
        if (m.static || key === undefined) continue;
        if ((m.type === 'MethodDefinition' || m.type === 'ClassMethod') && m.kind === 'constructor')
          target = m.type === 'ClassMethod' ? m : (m.value as AstNode);
        else if (m.type === 'MethodDefinition' || m.type === 'ClassMethod')
          instance!.props.set(
            key,
            this.fnVal(m.type === 'ClassMethod' ? m : (m.value as AstNode), defScope, instance),
          );
      }
      // Field initialisers (`cmd = 'x'`) are evaluated with `this` bound to the new instance.
      const fieldScope = new Scope(defScope);
      fieldScope.vars.set('this', instance!);
      for (const m of members) {
        if ((m.type === 'PropertyDefinition' || m.type === 'ClassProperty') && !m.static && m.value) {
          const key = m.computed ? undefined : keyName(m.key as AstNode);
          if (key !== undefined)
            instance!.props.set(key, this.walk(m.value as AstNode, fieldScope, depth + 1));
        }
      }
      if (!target) return instance!;
    }
    const size = (target.end as number | undefined) ?? target.range?.[1] ?? 0;
    const from = startOf(target) ?? 0;
    if (
      !target.body ||
      this.inlineLeft <= 0 ||
      this.inlineStepsLeft <= 0 ||
      this.inlineStack.length >= 4 ||
      this.inlineStack.includes(target) ||
      (this.boring.get(target) ?? 0) >= 2 ||
      size - from > 1_500 ||
      (!isNew &&
        args.length > 0 &&
        !thisVal?.t &&
        thisVal?.k !== 'obj' &&
        args.every((a) => a.k === 'unknown' && !a.t?.size)) ||
      this.timedOut
    ) {
      return instance ?? unknown(args);
    }
    const sig = `${args.map((a) => sigOf(a, 0)).join('|')}#${thisVal ? sigOf(thisVal, 1) : ''}`;
    const cache = this.inlineCache.get(target);
    if (!instance && cache?.has(sig)) return cache.get(sig)!;
    this.inlineLeft--;
    this.inlineStack.push(target);
    const steps0 = this.steps;
    const facts = () =>
      this.findings.length + this.caps.commands.size + this.caps.domains.size + this.caps.paths.size;
    const facts0 = facts();
    let r: Val;
    try {
      r = this.walkFunction(target, defScope, depth + 1, args, instance ?? thisVal);
    } finally {
      this.inlineStack.pop();
      if (this.inlineStack.length === 0) this.inlineStepsLeft -= this.steps - steps0;
    }
    if (instance) return instance;
    if (facts() === facts0 && r.k === 'unknown' && !r.t?.size)
      this.boring.set(target, (this.boring.get(target) ?? 0) + 1);
    // Small string helpers (`s => s.split('').reverse().join('')`) hide names: mark their output.
    const body = target.body as AstNode;
    const single =
      body.type !== 'BlockStatement' ||
      (((body.body as AstNode[]) ?? []).length === 1 &&
        (body.body as AstNode[])[0]!.type === 'ReturnStatement');
    if (r.k === 'str' && single && args.length && args.every((a) => a.k !== 'unknown'))
      r = { ...r, obf: true };
    if (r.k === 'unknown' && !r.t?.size) r = unknown(args);
    if (cache) {
      if (cache.size < 8) cache.set(sig, r);
    } else this.inlineCache.set(target, new Map([[sig, r]]));
    return r;
  }

  /** Runs one of this file's functions for a call made in another file (cross-file flow). */
  invokeFor(
    caller: FileAnalyzer,
    fn: Val & { k: 'fn' },
    args: Val[],
    depth: number,
    thisVal: Val | undefined,
    isNew: boolean,
  ): Val {
    const saved = {
      findings: this.findings,
      caps: this.caps,
      seen: this.seen,
      installTime: this.installTime,
      silent: this.silent,
      geoGate: this.geoGate,
      remoteGate: this.remoteGate,
      deadline: this.deadline,
      timedOut: this.timedOut,
      inlineStepsLeft: this.inlineStepsLeft,
    };
    // The caller pays for the walk (its budget), so calls across files stay bounded per file.
    this.inlineStepsLeft = caller.inlineStepsLeft;
    const previousLines = currentLines;
    this.findings = caller.findings;
    this.caps = caller.caps;
    this.seen = caller.seen;
    this.installTime = caller.installTime;
    this.silent = caller.silent;
    this.geoGate = caller.geoGate;
    this.remoteGate = caller.remoteGate;
    this.deadline = caller.deadline;
    this.timedOut = caller.timedOut;
    currentLines = this.lines;
    try {
      return this.invoke(fn, args, this.rootScope ?? new Scope(undefined), depth, thisVal, isNew);
    } finally {
      caller.timedOut ||= this.timedOut;
      caller.inlineStepsLeft = Math.min(caller.inlineStepsLeft, this.inlineStepsLeft);
      Object.assign(this, saved);
      currentLines = previousLines;
    }
  }

  private moduleCall(node: AstNode, mod: string, args: Val[], scope: Scope): Val {
    const a0 = args[0];
    if (NETWORK_CLIENT_MODULES.has(mod)) {
      this.request(node, mod, a0, args[1], scope, undefined);
      return withTaint({ k: 'net' }, [], 'network_data');
    }
    if (WS_MODULES.has(mod)) {
      this.request(node, mod, a0, undefined, scope, 'ws');
      return withTaint({ k: 'net' }, [], 'network_data');
    }
    if (SPAWN_MODULES.has(mod)) {
      this.spawn(node, asString(a0), args, mod === 'shelljs' ? 'shell' : 'argv', scope);
      return UNKNOWN;
    }
    if (mod === 'bindings' || mod === 'node-gyp-build' || mod === 'node-gyp-build-optional-packages') {
      const n = asString(a0);
      this.caps.hasNative = true;
      if (n && mod === 'bindings') this.caps.nativeModules.add(n.endsWith('.node') ? n : `${n}.node`);
      this.capability('native', 'js.native-loader', node, `loads a native addon through ${mod}`);
      return UNKNOWN;
    }
    return unknown(args);
  }

  private apiCall(
    node: AstNode,
    callee: Val & { k: 'api' },
    args: Val[],
    argNodes: AstNode[],
    scope: Scope,
    isNew: boolean,
    depth: number,
  ): Val {
    const { mod, path } = callee;
    const a0 = args[0];
    const s0 = asString(a0);
    const method = path.slice(path.lastIndexOf('.') + 1);
    if (mod === 'global:Buffer' && path === 'from') {
      const enc = asString(args[1]);
      if (a0?.k === 'arr') {
        const bytes = a0.items.map(asNum);
        if (bytes.every((b) => b !== undefined))
          return withTaint(str(Buffer.from(bytes as number[]).toString('utf8')), args, 'decoded');
      }
      if (s0 !== undefined && enc) {
        const d = /^base64(?:url)?$/i.test(enc) ? decodeBase64(s0) : /^hex$/i.test(enc) ? decodeHex(s0) : s0;
        return withTaint(
          d !== undefined ? str(d) : { k: 'unknown' },
          args,
          /^(?:base64(?:url)?|hex)$/i.test(enc) ? 'decoded' : undefined,
        );
      }
      if (enc && /^(?:base64(?:url)?|hex)$/i.test(enc)) return withTaint({ k: 'unknown' }, args, 'decoded');
      return s0 !== undefined ? str(s0, args) : unknown(args);
    }
    if (mod === 'global:String' && path === 'fromCharCode') {
      const codes = args.map(asNum);
      if (codes.length && codes.every((c) => c !== undefined))
        return withTaint(str(String.fromCharCode(...(codes as number[]))), args, 'decoded');
      return withTaint({ k: 'unknown' }, args, 'decoded');
    }
    if (
      ((mod === 'global:JSON' && path === 'stringify') ||
        (mod === 'global:Object' && /^(?:entries|keys|values|assign)$/.test(path))) &&
      args.some((a) => a.k === 'global' && /^(?:localStorage|sessionStorage)$/.test(a.name))
    ) {
      return withTaint({ k: 'unknown' }, [], 'page_secret');
    }
    if (mod === 'global:JSON' && path === 'stringify') {
      if (a0?.k === 'env')
        this.envWhole(node, 'serialises the whole environment (JSON.stringify(process.env))');
      const json = a0 && (a0.k === 'obj' || a0.k === 'arr') ? toJson(a0, 0) : undefined;
      if (json === undefined) return unknown(args);
      const out: Val = { k: 'str', v: json };
      const t = deepTaints(a0);
      if (t.size) out.t = t;
      return out;
    }
    if (mod === 'global:Object' || mod === 'global:Reflect') {
      if (a0?.k === 'env' && /^(?:keys|entries|values|assign|getOwnPropertyNames|ownKeys)$/.test(path))
        this.envWhole(node);
      if (args[1]?.k === 'env' && path === 'assign') this.envWhole(node);
      if (path === 'keys' || path === 'getOwnPropertyNames' || path === 'ownKeys')
        return a0 ? { k: 'keys', of: a0 } : UNKNOWN;
      if (path === 'entries') return a0 ? { k: 'entries', of: a0 } : UNKNOWN;
      if (path === 'values' && a0?.k === 'obj')
        return { k: 'arr', items: [...a0.props.values()].slice(0, 10_000) };
      if (path === 'values' && a0?.k === 'arr') return a0;
      if (path === 'getOwnPropertyDescriptor' && a0 && s0 === undefined) {
        const key = asString(args[1]);
        if (key !== undefined) {
          // A name a caller wrote plainly (`getBuiltIn('fetch')` → descriptor of globalThis[name])
          // is a polyfill's lookup, not a hidden one.
          if (
            !args[1]!.listed &&
            sensitiveMember(
              a0.k === 'global' && a0.name === 'globalObject' ? { k: 'global', name: 'global' } : a0,
              key,
              true,
            )
          ) {
            this.threat(
              'js.descriptor-api-access',
              'malicious_code',
              0.65,
              node,
              `reaches ${describeVal(a0)}.${key} through Object.getOwnPropertyDescriptor`,
            );
          }
          return { k: 'desc', of: a0, key };
        }
      }
      if (mod === 'global:Reflect' && path === 'get' && a0) {
        const key = asString(args[1]);
        if (key !== undefined) {
          const v = this.member(a0, key, node, scope, true);
          if (
            sensitiveMember(
              a0.k === 'global' && a0.name === 'globalObject' ? { k: 'global', name: 'global' } : a0,
              key,
              true,
            )
          ) {
            this.threat(
              'js.reflect-api-access',
              'malicious_code',
              0.65,
              node,
              `reaches ${describeVal(a0)}.${key} through Reflect.get`,
            );
          }
          return v;
        }
      }
      if (mod === 'global:Reflect' && path === 'apply' && a0) {
        return this.dispatch(node, a0, args[2]?.k === 'arr' ? args[2].items : [], [], scope, false, depth);
      }
      return unknown(args);
    }
    // Object.keys(x).find(n => n === 'spawn') and Object.entries(x).find(([n]) => n === 'spawn')
    if (mod === 'string') return this.stringMethod(callee, method, args);
    if (mod === 'array') return this.arrayMethod(node, callee, method, args);
    if (mod === 'global:navigator' && path === 'sendBeacon') {
      this.request(node, 'navigator.sendBeacon', a0, undefined, scope, undefined, args.slice(1));
      return { k: 'bool', v: true };
    }
    if (mod === 'netobj' && method === 'open' && args.length >= 2) {
      // xhr.open('POST', url): where the later xhr.send(body) goes.
      const u = asString(args[1]);
      const host = u && /^[a-z]+:\/\//i.test(u) ? hostOf(u) : undefined;
      if (u && host) {
        this.caps.addUrl(u);
        if (!/^(?:localhost|127\.|\[::1\]|0\.0\.0\.0)|\$\{/.test(host)) this.literalHostInFile = true;
      }
      return withTaint({ k: 'net' }, [], 'network_data');
    }
    if (mod === 'netobj') {
      if (/^(?:write|end|send|emit)$/.test(method) && args.length) {
        this.sink(node, 'request body', args, scope);
        return UNKNOWN;
      }
      // res.text() / .json() / .then(…) / .data: what comes back is still network data.
      return withTaint({ k: 'net' }, [], 'network_data');
    }
    if (mod === 'process') {
      // process.dlopen loads a native addon; process.binding('util') and other internal
      // bindings are part of Node itself (feature detection in utility libraries), not native code.
      if (path === 'cwd') return withTaint({ k: 'unknown' }, [], 'cwd');
      if (path === 'dlopen') {
        this.caps.hasNative = true;
        this.capability('native', 'js.process-dlopen', node, `uses process.${path}`);
      }
      if ((path === 'binding' || path === '_linkedBinding') && /^(?:spawn_sync|process_wrap)$/.test(s0 ?? ''))
        return { k: 'mod', name: `binding:${s0}` };
      if (path === 'mainModule.require' && s0) return this.loadModule(s0, node, a0, scope);
      return unknown(args);
    }
    if (mod === 'child_process') {
      if (CP_EXEC.has(method)) this.spawn(node, s0 ?? shellPrefix(a0), args, 'shell', scope);
      else if (CP_SPAWN.has(method))
        this.spawn(node, method === 'fork' ? 'node' : s0, args, method === 'fork' ? 'fork' : 'argv', scope);
      if (CP_EXEC.has(method) || CP_SPAWN.has(method))
        return { k: 'api', mod: 'child_process', path: 'ChildProcess' };
      return UNKNOWN;
    }
    if (mod === 'promise') {
      if (path === 'resolve' && a0) this.resolving[this.resolving.length - 1]?.push(a0);
      return UNKNOWN;
    }
    if (mod === 'fs') return this.fsCall(node, method, a0, args, scope);
    // rimraf(path) / rimraf.sync(path) / del(paths): recursive deletion by module.
    if (/^(?:rimraf|del|trash|premove)$/.test(mod)) {
      this.caps.writes = true;
      this.destroys(node, `${mod}${path ? `.${path}` : ''}`, a0);
      return UNKNOWN;
    }
    // process.binding('spawn_sync').spawn({ file, args }): a process started past child_process.
    if (mod.startsWith('binding:') && method === 'spawn' && a0?.k === 'obj') {
      const file = asString(a0.props.get('file'));
      this.threat(
        'js.internal-spawn-binding',
        'malicious_code',
        0.7,
        node,
        "starts a process through Node's internal spawn binding instead of child_process (evades hooks)",
      );
      this.spawn(
        node,
        file,
        [a0.props.get('file') ?? UNKNOWN, a0.props.get('args') ?? UNKNOWN],
        'argv',
        scope,
      );
      return UNKNOWN;
    }
    if (mod === 'path' && /^(?:join|resolve|normalize|posix\.join|win32\.join)$/.test(path)) {
      const parts = args.map(asString);
      if (parts.length && parts.every((p) => p !== undefined)) {
        return str(
          (parts as string[])
            .join('/')
            .replace(/\/{2,}/g, '/')
            .replace(/\\/g, '/'),
          args,
        );
      }
      return withTaint({ k: 'str', v: parts.map((p) => p ?? '${…}').join('/') }, args);
    }
    if (mod === 'os') {
      if (path === 'homedir') return { k: 'str', v: '~' };
      if (path === 'tmpdir') return { k: 'str', v: '$TMPDIR' };
      if (/^(?:hostname|userInfo|networkInterfaces)$/.test(path)) {
        this.source(scope, 'fingerprint', lineOf(node));
        return withTaint({ k: 'unknown' }, [], 'fingerprint');
      }
      return UNKNOWN;
    }
    if (mod === 'http' || mod === 'https' || mod === 'http2') {
      if (method === 'request' || method === 'get' || method === 'connect') {
        this.request(
          node,
          `${mod}.${method}`,
          a0,
          typeof s0 === 'string' ? args[1] : a0,
          scope,
          mod === 'http2' ? 'https' : mod,
        );
        return withTaint({ k: 'net' }, [], 'network_data');
      }
      if (method === 'createServer') {
        this.networkInFile = true;
        this.caps.protocols.add(mod === 'http2' ? 'https' : mod);
        this.capability('network', 'js.server', node, `starts an ${mod} server`);
      }
      return UNKNOWN;
    }
    if (mod === 'net' || mod === 'tls') {
      if (/^(?:connect|createConnection|Socket)$/.test(method)) {
        this.request(node, `${mod}.${method}`, a0, a0, scope, mod === 'tls' ? 'tls' : 'tcp');
        return withTaint({ k: 'net' }, [], 'network_data');
      }
      if (method === 'createServer') {
        this.caps.protocols.add(mod === 'tls' ? 'tls' : 'tcp');
        this.capability('network', 'js.server', node, `starts a ${mod} server`);
      }
      return UNKNOWN;
    }
    if (mod === 'dgram' && method === 'createSocket') {
      this.networkInFile = true;
      this.caps.makesRequests = true;
      this.caps.protocols.add('udp');
      this.capability('network', 'js.udp', node, 'opens a UDP socket');
      return { k: 'net' };
    }
    if (mod === 'dns' && /^(?:lookup|resolve\w*|reverse)$/.test(method)) {
      this.caps.makesRequests = true;
      this.caps.protocols.add('dns');
      if (s0 && /\./.test(s0) && !s0.includes('${')) this.caps.addDomain(s0);
      this.capability('network', 'js.dns', node, `performs a DNS lookup${s0 ? ` of ${s0}` : ''}`);
      this.sink(node, 'dns lookup', args, scope);
      return UNKNOWN;
    }
    if (
      mod === 'vm' &&
      /^(?:runInThisContext|runInNewContext|runInContext|compileFunction|Script|SourceTextModule)$/.test(
        method,
      )
    ) {
      this.dynamicCode(node, `vm.${method}`, a0, argNodes[0], scope, depth);
      return withTaint({ k: 'dyn' }, args);
    }
    if (mod === 'crypto' && /^createDecipher/.test(method)) {
      return withTaint({ k: 'api', mod: 'decipher', path: '' }, args, 'decoded');
    }
    if (mod === 'decipher' && (method === 'update' || method === 'final'))
      return withTaint({ k: 'unknown' }, [callee], 'decoded');
    if (mod === 'zlib' && /^(?:inflate|gunzip|brotliDecompress|unzip|inflateRaw)(?:Sync)?$/.test(method)) {
      return withTaint(s0 !== undefined ? { k: 'unknown' } : { k: 'unknown' }, args);
    }
    if (NETWORK_CLIENT_MODULES.has(mod)) {
      if (/^(?:create|extend|defaults)$/.test(method)) return { k: 'mod', name: mod };
      if (/^(?:get|post|put|patch|delete|head|options|request|fetch|stream|del)$/.test(method)) {
        this.request(
          node,
          `${mod}.${method}`,
          a0,
          args[1],
          scope,
          undefined,
          method === 'post' || method === 'put' || method === 'patch' ? args.slice(1) : undefined,
        );
        return withTaint({ k: 'net' }, [], 'network_data');
      }
      return UNKNOWN;
    }
    // Deserialisers that run functions embedded in their input (node-serialize's `_$$ND_FUNC$$_`
    // IIFEs, funcster): data given to them is code.
    if (
      (mod === 'node-serialize' && method === 'unserialize') ||
      (mod === 'funcster' && /^deepDeserialize|^deserialize/.test(method)) ||
      (mod === 'serialize-to-js' && method === 'deserialize')
    ) {
      const before = this.findings.length;
      this.dynamicCode(node, `${mod}.${method}`, a0, argNodes[0], scope, depth);
      // Even untraced input: the only thing this call adds over JSON.parse is running code.
      // (an environment variable reads as the string `$NAME`; a literal the package wrote is safe)
      if (
        this.findings.length === before &&
        a0 &&
        (a0.k !== 'str' || a0.v.startsWith('$') || a0.v.includes('${…}'))
      )
        this.threat(
          'js.unsafe-deserialize',
          'malicious_code',
          this.installTime ? 0.75 : 0.5,
          node,
          `${mod}.${method}() runs functions embedded in data it did not write (a code-execution deserialiser)`,
        );
      return unknown(args);
    }
    // Chat SDKs (a Discord webhook client, a Telegram bot): whatever they send leaves the machine.
    if (CHAT_SDK_MODULES.has(mod)) {
      this.request(node, mod, undefined, undefined, scope, 'https', args);
      return withTaint({ k: 'net' }, [], 'network_data');
    }
    if (WS_MODULES.has(mod) && (isNew || /^(?:connect|io|WebSocket)$/.test(method))) {
      this.request(node, mod, a0, undefined, scope, 'ws');
      return withTaint({ k: 'net' }, [], 'network_data');
    }
    if (mod === 'undici' && /^(?:request|fetch|stream|Client|Pool|Agent)$/.test(method)) {
      this.request(node, `undici.${method}`, a0, args[1], scope, undefined);
      return withTaint({ k: 'net' }, [], 'network_data');
    }
    if (
      SPAWN_MODULES.has(mod) &&
      /^(?:exec|execa|execaSync|execaCommand|command|sync|spawn|commandSync|\$)$/.test(method)
    ) {
      this.spawn(node, s0, args, method.startsWith('exec') && mod === 'shelljs' ? 'shell' : 'argv', scope);
      return UNKNOWN;
    }
    // Methods on things we track by identity.
    if (mod === 'child_process' && path === 'ChildProcess') return UNKNOWN;
    return unknown([callee, ...opaqueArgs(node, args)]);
  }

  private stringMethod(callee: Val & { k: 'api' }, method: string, args: Val[]): Val {
    const base = callee.base;
    const s = asString(base);
    if (s === undefined) return unknown([callee, ...args]);
    const from = [callee, ...args];
    const n = (i: number) => asNum(args[i]);
    switch (method) {
      case 'toString':
      case 'valueOf':
      case 'trim':
      case 'normalize':
        return str(s, from);
      case 'toLowerCase':
        return str(s.toLowerCase(), from);
      case 'toUpperCase':
        return str(s.toUpperCase(), from);
      case 'split': {
        const sep = asString(args[0]);
        if (sep === undefined) return unknown(from);
        return withTaint(
          {
            k: 'arr',
            items: s
              .split(sep)
              .slice(0, 10_000)
              .map((x) => ({ k: 'str', v: x }) as Val),
          },
          from,
        );
      }
      case 'replace':
      case 'replaceAll': {
        const a = asString(args[0]);
        const b = asString(args[1]);
        if (a === undefined || b === undefined) return unknown(from);
        return str(method === 'replace' ? s.replace(a, b) : s.split(a).join(b), from);
      }
      case 'slice':
      case 'substring':
        return str(s[method](n(0) ?? 0, n(1)), from);
      case 'substr':
        return str(s.substr(n(0) ?? 0, n(1)), from);
      case 'charAt':
        return str(s.charAt(n(0) ?? 0), from);
      case 'concat':
        return args.every((a) => asString(a) !== undefined)
          ? str(s + args.map(asString).join(''), from)
          : unknown(from);
      case 'repeat':
        return str(s.repeat(Math.min(n(0) ?? 0, 100)), from);
      case 'charCodeAt':
        return { k: 'num', v: s.charCodeAt(n(0) ?? 0) };
      default:
        return unknown(from);
    }
  }

  /** Array helpers: join/reverse on constants, and `Object.keys(m).find(n => n === 'x')`. */
  private arrayMethod(node: AstNode, callee: Val & { k: 'api' }, method: string, args: Val[]): Val {
    const base = callee.base;
    if (base?.k === 'arr') {
      // Taint of the elements travels with what is built from them (join, concat, …).
      const deep: Val = { k: 'unknown' };
      const dt = deepTaints(base);
      if (dt.size) deep.t = dt;
      if (method === 'join') {
        const parts = base.items.map(asString);
        const sep = args.length ? asString(args[0]) : ',';
        if (sep !== undefined && parts.every((p) => p !== undefined))
          return str(parts.join(sep), [base, deep]);
        if (sep !== undefined)
          return withTaint({ k: 'str', v: parts.map((p) => p ?? '${…}').join(sep) }, [base, deep]);
      }
      if (method === 'reverse') return { k: 'arr', items: [...base.items].reverse(), t: base.t };
      // list.push(x) / unshift(x): arrays filled step by step keep their elements (bounded).
      if ((method === 'push' || method === 'unshift') && base.items.length + args.length <= 1000) {
        if (method === 'push') base.items.push(...args);
        else base.items.unshift(...args);
        return { k: 'num', v: base.items.length };
      }
      if (method === 'concat' && args[0]?.k === 'arr')
        return { k: 'arr', items: [...base.items, ...args[0].items] };
      return unknown([base, deep, ...args]);
    }
    if ((base?.k === 'keys' || base?.k === 'entries') && (method === 'find' || method === 'filter')) {
      const fn = args[0];
      const key = fn?.k === 'fn' ? comparedLiteral(fn.node) : undefined;
      if (key === undefined) return UNKNOWN;
      if (sensitiveMember(base.of, key, true)) {
        this.threat(
          'js.enumerated-api-access',
          'malicious_code',
          0.65,
          node,
          `finds ${describeVal(base.of)}.${key} by enumerating its members instead of naming it`,
        );
      }
      if (base.k === 'keys') return { k: 'str', v: key, obf: true };
      return method === 'find' ? { k: 'entry', of: base.of, key } : { k: 'entrylist', of: base.of, key };
    }
    return unknown([callee, ...args]);
  }

  private fsCall(node: AstNode, method: string, a0: Val | undefined, args: Val[], scope: Scope): Val {
    const p = asString(a0) ?? (a0?.k === 'str' ? a0.v : undefined);
    const isRead = FS_READ.has(method);
    const isWrite = FS_WRITE.has(method);
    if (
      !isRead &&
      !isWrite &&
      !/^(?:existsSync|exists|stat|statSync|lstat|lstatSync|access|accessSync|open|openSync|watch)$/.test(
        method,
      )
    ) {
      return unknown(args);
    }
    if (p !== undefined && !/^\$\{…\}$/.test(p)) this.caps.addPath(p);
    if (isRead) {
      this.caps.reads = true;
      this.capability('filesystem', 'js.fs-read', node, `reads files (fs.${method}${p ? ` ${p}` : ''})`);
      if (p && SENSITIVE_PATH.test(p)) {
        this.source(scope, 'secret_file', lineOf(node));
        return withTaint({ k: 'unknown' }, [], 'secret_file');
      }
      if (p && IMAGE_PATH.test(p)) return withTaint({ k: 'unknown' }, [], 'image');
      // The entries of the user's home, a drive root or the project: what a wiper walks.
      if (
        /^(?:readdir|readdirSync|opendir|opendirSync)$/.test(method) &&
        (p !== undefined || a0?.t?.has('user_listing'))
      ) {
        if (a0?.t?.has('user_listing') || isUserDataPath(p!))
          return withTaint({ k: 'unknown' }, [], 'user_listing');
      }
      return UNKNOWN;
    }
    if (isWrite) {
      this.caps.writes = true;
      this.capability('filesystem', 'js.fs-write', node, `writes files (fs.${method}${p ? ` ${p}` : ''})`);
      if (
        this.geoGate > 0 &&
        /^(?:writeFile|writeFileSync|rm|rmSync|rmdir|rmdirSync|unlink|unlinkSync|truncate|truncateSync|remove|removeSync|emptyDir|emptyDirSync|outputFile|outputFileSync)$/.test(
          method,
        )
      ) {
        this.threat(
          'js.geo-gated-destructive',
          'malicious_code',
          0.9,
          node,
          `overwrites or deletes files (fs.${method}) only when the machine is in a given country, time zone or locale`,
        );
      }
      const recursive =
        /^(?:remove|removeSync|emptyDir|emptyDirSync|emptydir)$/.test(method) ||
        (/^(?:rm|rmSync|rmdir|rmdirSync)$/.test(method) &&
          args.some((a) => a?.k === 'obj' && a.props.get('recursive')?.k === 'bool'));
      if (recursive) this.destroys(node, `fs.${method}`, a0);
      if (
        this.remoteGate > 0 &&
        /^(?:rm|rmSync|rmdir|rmdirSync|remove|removeSync|emptyDir|emptyDirSync|unlink|unlinkSync|truncate|truncateSync)$/.test(
          method,
        ) &&
        (a0?.t?.has('cwd') ||
          /^(?:\.|\.\/|\.\/\*|\*)$/.test(p ?? '') ||
          (p !== undefined && isUserDataPath(p)))
      )
        this.remoteTriggered(node, `deletes the working directory's files (fs.${method})`);
      else if (
        /^(?:unlink|unlinkSync|writeFile|writeFileSync|truncate|truncateSync|rm|rmSync|rename|renameSync|createWriteStream|outputFile|outputFileSync)$/.test(
          method,
        ) &&
        a0?.t?.has('user_listing')
      ) {
        this.threat(
          'js.destructive-user-data',
          'malicious_code',
          this.installTime ? 0.9 : 0.8,
          node,
          `${/^(?:unlink|rm)/.test(method) ? 'deletes' : /^rename/.test(method) ? 'renames' : 'overwrites'} every file it lists in the user's home, a drive root or the project (fs.${method})`,
        );
      }
      if (p && /\.(?:so|dll|dylib)$/i.test(p)) {
        this.threat(
          'js.write-shared-library',
          'malicious_code',
          0.6,
          node,
          `writes a shared library file ${p} (library planting)`,
        );
      }
      if (
        p &&
        /Library\/LaunchAgents\/|\.config\/(?:systemd\/user|autostart)\/|Start Menu[\\/]Programs[\\/]Startup|\.ssh\/authorized_keys$|^\/etc\/(?:cron|systemd\/system|rc\.local|profile\.d)|\/var\/spool\/cron/i.test(
          p.replace(/\\/g, '/'),
        )
      ) {
        this.threat(
          'js.write-persistence',
          this.installTime ? 'install_script_injection' : 'malicious_code',
          this.installTime ? 0.9 : 0.75,
          node,
          `writes ${p.slice(0, 80)}: code that runs again later (autostart, scheduled job, git hook) or a key that lets someone in`,
        );
      }
      const data = args[1] ? flatStrings(args[1]).join('\n') : '';
      // Code written into another installed package (a worm spreading through node_modules):
      // what is written runs processes, reaches the network or evaluates code.
      if (
        p &&
        /(?:^|\/)node_modules\/(?!\.cache\/|\.vite\/)[^/]+\/.*\.(?:[cm]?js|json)$/.test(
          p.replace(/\\/g, '/'),
        ) &&
        /require\s*\(\s*['"](?:node:)?(?:child_process|https?|net)['"]|\beval\s*\(|new Function\s*\(|\bfetch\s*\(|"(?:pre|post)?install"\s*:/.test(
          data,
        )
      ) {
        this.threat(
          'js.infect-installed-package',
          this.installTime ? 'install_script_injection' : 'malicious_code',
          0.85,
          node,
          `writes code that runs processes, reaches the network or adds an install hook into another installed package (${p.slice(0, 60)})`,
        );
      }
      // A git hook is how simple-git-hooks and husky work; one that downloads or sends is not.
      if (p && /\.git\/hooks\/[\w-]+$/.test(p.replace(/\\/g, '/'))) {
        const body = args[1] ? flatStrings(args[1]).join('\n') : '';
        const bad = body
          ? analyzeScript(body, 'sh', true).find(
              (h) => h.confidence >= 0.8 && h.rule !== 'script.persistence',
            )
          : undefined;
        if (bad)
          this.threat(
            'js.write-persistence',
            this.installTime ? 'install_script_injection' : 'malicious_code',
            0.85,
            node,
            `writes git hook ${p.slice(0, 60)} that ${bad.message}`,
          );
      }
      if (p && /(?:^|\/)\.(?:bashrc|zshrc|bash_profile|profile)$/.test(p)) {
        this.threat(
          'js.write-shell-rc',
          this.installTime ? 'install_script_injection' : 'malicious_code',
          this.installTime ? 0.85 : 0.6,
          node,
          `writes shell start-up file ${p}`,
        );
      }
      if (p && /\.claude\/|\.cursor\/mcp\.json|\.vscode\/tasks\.json|\.github\/workflows\//.test(p)) {
        // Editor settings and tasks are written by ordinary migration and setup tools at run time;
        // a task that runs itself when the folder is opened is how fake-project loaders persist.
        const autoRun = /folderOpen/.test(data);
        const editorOnly = /\.vscode\//.test(p) && !autoRun;
        this.threat(
          'js.write-agent-config',
          this.installTime ? 'install_script_injection' : 'malicious_code',
          this.installTime ? 0.85 : autoRun ? 0.8 : editorOnly ? 0.4 : 0.6,
          node,
          `writes ${autoRun ? 'an editor task that runs when the folder is opened' : 'agent/CI configuration'} ${p}`,
        );
      }
      if (data) this.aiCliCheck(node, commandLines(data), 'writes');
      return UNKNOWN;
    }
    this.caps.reads = true;
    return UNKNOWN;
  }

  /** A destructive act under a branch taken on network data: a remote kill switch. */
  private remoteTriggered(node: AstNode, what: string): void {
    this.threat(
      'js.remote-triggered-destructive',
      'malicious_code',
      this.installTime ? 0.9 : 0.85,
      node,
      `${what} when data received from the network says so (a remote kill switch)`,
    );
  }

  /**
   * A recursive deletion: a threat when the path is the user's data (home or its data folders, a
   * drive or the file-system root, the project npm was started from) rather than the package's own
   * files or a tool's cache.
   */
  private destroys(node: AstNode, how: string, target: Val | undefined): void {
    const paths = target?.k === 'arr' ? target.items.map(asString) : [asString(target)];
    const listed = !!target?.t?.has('user_listing');
    const hit = listed
      ? (paths.find((p) => p !== undefined) ?? 'the listed entries')
      : paths.find((p) => p !== undefined && isUserDataPath(p));
    if (hit === undefined) return;
    this.threat(
      'js.destructive-user-data',
      'malicious_code',
      this.installTime ? 0.95 : 0.85,
      node,
      `deletes ${hit.slice(0, 60)} recursively (${how}): the user's files, not the package's own`,
    );
  }

  private spawn(
    node: AstNode,
    cmd: string | undefined,
    args: Val[],
    kind: 'shell' | 'argv' | 'fork',
    scope: Scope,
  ): void {
    this.caps.spawns = true;
    let programs: string[] = [];
    if (cmd !== undefined) {
      if (kind === 'shell') programs = shellPrograms(cmd.replace(/\$\{…\}/g, '%'));
      else programs = [cmd];
      // An interactive shell: a shell program started with no command or script to run (its
      // input comes from whoever holds its stdin).
      const argv =
        args[1]?.k === 'arr'
          ? flatStrings(args[1])
          : args[1] === undefined || args[1].k === 'obj'
            ? []
            : undefined;
      if (
        kind === 'argv' &&
        /^(?:sh|bash|zsh|dash|ksh|cmd|powershell|pwsh)(?:\.exe)?$/i.test(cmd.split(/[\\/]/).pop() ?? '') &&
        argv?.every((a) => /^-(?:i|l|s|-login|-norc|NoLogo|NoProfile|NoExit)$/i.test(a) || a === '/Q')
      )
        this.facts.interactiveShell ??= lineOf(node);
      for (const p of programs) if (!p.includes('${')) this.caps.addCommand(p);
      const full = kind === 'argv' && args[1]?.k === 'arr' ? `${cmd} ${flatStrings(args[1]).join(' ')}` : cmd;
      // Recursive deletion of the user's files through a shell (`rm -rf ~/…`, `rd /s /q C:\\`).
      const wipe = analyzeScript(
        full,
        /^(?:rd|rmdir|del|erase)\b/i.test(full.trim()) ? 'batch' : 'sh',
        this.installTime,
      ).find((h) => h.rule === 'script.destructive');
      if (
        this.remoteGate > 0 &&
        /\brm\s+-[a-z]*r[a-z]*\s+(?:-[a-z]+\s+)*(?:\.\/?\*?|\*)(?:\s|$)|\b(?:rd|rmdir)\s+\/s\b[^\n]*\s\.\\?(?:\s|$)|\bdel\s+(?:\/[a-z]\s+)*[^\n]*\*/i.test(
          full,
        )
      )
        this.remoteTriggered(node, `runs \`${full.slice(0, 60)}\` on the working directory`);
      // Scripts decoded inside the command line (`echo <base64> | base64 -d | python3`).
      // and the command behaviours a line rule does not see: miners, persistence, fingerprint or
      // credentials sent, capture services.
      for (const h of analyzeScript(full, 'sh', this.installTime)) {
        if (
          !h.message.startsWith('runs a base64-encoded') &&
          !/^script\.(?:crypto-miner|persistence|fingerprint-exfil|exfil-host|secret-file-exfil|env-exfil|git-push)$/.test(
            h.rule,
          )
        )
          continue;
        this.threat(
          h.rule,
          h.threat_type === 'install_script_injection' && !this.installTime
            ? 'malicious_code'
            : h.threat_type,
          h.confidence,
          node,
          `runs a command that ${h.message}`,
        );
      }
      if (wipe && !analyzeShell(full, this.installTime).some((h) => h.rule === 'shell.destructive'))
        this.threat(
          'js.exec-destructive-user-data',
          'malicious_code',
          wipe.confidence,
          node,
          `runs a command that ${wipe.message}`,
        );
      for (const hit of analyzeShell(full, this.installTime)) {
        if (hit.rule === 'shell.ai-cli-unsafe') continue; // the flow-based rule below decides
        const type =
          hit.threat_type === 'install_script_injection' && !this.installTime
            ? 'malicious_code'
            : hit.threat_type;
        this.threat(
          `js.exec-${hit.rule.replace('shell.', '')}`,
          type,
          hit.confidence,
          node,
          `runs a command that ${hit.message}`,
        );
      }
    }
    this.capability(
      'process',
      'js.spawn',
      node,
      `starts a child process${programs.length ? ` (${programs.join(', ')})` : ''}`,
    );
    // An AI command-line tool reached with its permission checks turned off, wherever the
    // program name and the flags came from (constants, arrays, loops, helpers, other files).
    const argvOpts = args.find((a) => a?.k === 'obj') as (Val & { k: 'obj' }) | undefined;
    const useShell =
      kind === 'shell' ||
      (argvOpts &&
        argvOpts.props.get('shell')?.k === 'bool' &&
        (argvOpts.props.get('shell') as { v: boolean }).v);
    const lines: string[][] =
      kind === 'shell'
        ? commandLines(cmd ?? (args[0] ? flatStrings(args[0]).join(' ') : ''))
        : kind === 'argv'
          ? useShell
            ? commandLines([cmd ?? '', ...(args[1]?.k === 'arr' ? flatStrings(args[1]) : [])].join(' '))
            : [[cmd ?? '', ...(args[1]?.k === 'arr' ? flatStrings(args[1]) : [])]]
          : [];
    this.aiCliCheck(node, lines, 'runs');
    // A command line received from the network (`fetch(u).then(r => r.text()).then(execSync)`).
    // Only when the program or the whole script is the downloaded data, not a parameter of a
    // fixed command (`npm i -g x@${latest}` is an update, not download-and-execute).
    const fromNet = (v: Val | undefined) =>
      !!v && deepTaints(v).has('network_data') && /^(?:\$\{…\})?$/.test((asString(v) ?? '').slice(0, 6));
    const inlineScript =
      kind === 'argv' &&
      /^(?:sh|bash|zsh|dash|cmd|powershell|pwsh|node|python3?|perl|ruby)(?:\.exe)?$/i.test(
        (cmd ?? '').split(/[\\/]/).pop() ?? '',
      ) &&
      args[1]?.k === 'arr' &&
      args[1].items.some(
        (v, i, all) =>
          i > 0 && /^(?:-c|\/c|-e|--eval|-Command|-p)$/i.test(asString(all[i - 1]) ?? '') && fromNet(v),
      );
    if ((kind !== 'fork' && fromNet(args[0])) || inlineScript) {
      this.threat(
        'js.exec-network-data',
        this.installTime ? 'install_script_injection' : 'malicious_code',
        this.installTime ? 0.95 : 0.85,
        node,
        'runs a command received from the network (download and execute)',
      );
    }
    const opts = argvOpts;
    if (opts) {
      const detached = opts.props.get('detached');
      const stdio = opts.props.get('stdio');
      const ignored =
        asString(stdio) === 'ignore' ||
        (stdio?.k === 'arr' && stdio.items.length > 0 && stdio.items.every((i) => asString(i) === 'ignore'));
      if (detached?.k === 'bool' && detached.v && ignored) {
        this.threat(
          'js.silent-detached-process',
          'malicious_code',
          this.installTime ? 0.75 : 0.45,
          node,
          'starts a detached child process with all output discarded (keeps running unseen)',
        );
      }
      const env = opts.props.get('env');
      if (
        env?.k === 'obj' &&
        [...env.props.keys()].some((k) => k === 'LD_PRELOAD' || k === 'DYLD_INSERT_LIBRARIES')
      ) {
        this.threat(
          'js.ld-preload-env',
          'malicious_code',
          0.75,
          node,
          'starts a process with LD_PRELOAD set',
        );
      }
    }
    void scope;
  }

  /** Reports an AI CLI run with a permission-bypass flag (install_script_injection, critical). */
  private aiCliCheck(node: AstNode, lines: string[][], verb: 'runs' | 'writes'): void {
    const hit = aiCliBypass(lines);
    if (!hit) return;
    this.threat(
      'js.ai-cli-bypass',
      'install_script_injection',
      this.installTime ? 0.95 : verb === 'runs' ? 0.85 : 0.8,
      node,
      `${verb === 'runs' ? 'runs' : 'writes a command that runs'} the AI command-line tool ${hit.cli} with ${hit.flag} (its permission checks turned off)`,
    );
  }

  /** A network request: capability, domains, protocols, and the exfiltration checks. */
  private request(
    node: AstNode,
    what: string,
    target: Val | undefined,
    options: Val | undefined,
    scope: Scope,
    protocol: string | undefined,
    payload?: Val[],
  ): void {
    this.networkInFile = true;
    this.caps.makesRequests = true;
    if (/^(?:net|tls)\.|^(?:ws|websocket|isomorphic-ws|WebSocket|socket\.io-client)$/.test(what))
      this.facts.outboundSocket ??= lineOf(node);
    let host: string | undefined;
    const url = asString(target) ?? (target?.k === 'str' ? target.v : undefined);
    if (url !== undefined && /^[a-z]+:\/\//i.test(url)) {
      this.caps.addUrl(url);
      host = hostOf(url);
      if (host && !/^(?:localhost|127\.|\[::1\]|0\.0\.0\.0)|\$\{/.test(host)) this.literalHostInFile = true;
    } else if (protocol && protocol !== 'ws') this.caps.protocols.add(protocol);
    for (const o of [target, options]) {
      if (o?.k !== 'obj') continue;
      const h = asString(o.props.get('hostname')) ?? asString(o.props.get('host'));
      if (h && !h.includes('${')) {
        this.caps.addDomain(h.replace(/:\d+$/, ''));
        host ??= h.toLowerCase();
      }
      const u = asString(o.props.get('url')) ?? asString(o.props.get('baseURL'));
      if (u && /^[a-z]+:\/\//i.test(u)) {
        this.caps.addUrl(u);
        host ??= hostOf(u);
      }
      const proto = asString(o.props.get('protocol'));
      if (proto) this.caps.protocols.add(proto.replace(/:$/, ''));
    }
    if (protocol === 'ws' && !url) this.caps.protocols.add('ws');
    this.capability(
      'network',
      'js.request',
      node,
      `makes a network request (${what}${host ? ` to ${host}` : ''})`,
    );
    const all = [target, options, ...(payload ?? [])].filter(Boolean) as Val[];
    this.sink(node, what, all, scope);
    if (host && isPublicIpv4(host)) {
      const sends =
        options?.k === 'obj' &&
        (options.props.has('body') || /post|put/i.test(asString(options.props.get('method')) ?? ''));
      this.threat(
        'js.request-public-ip',
        'data_exfiltration',
        sends ? 0.6 : 0.45,
        node,
        `${sends ? 'sends data' : 'connects'} to a hard-coded public IP address ${host}`,
      );
    }
    // A chat webhook with its token written in the package (Discord, Telegram bot, Slack): the
    // stealers' drop box. With secrets, host details or the environment in the request: critical.
    const fullUrl =
      url ??
      [target, options]
        .map((o) =>
          o?.k === 'obj' ? (asString(o.props.get('url')) ?? asString(o.props.get('path'))) : undefined,
        )
        .find(Boolean);
    if (fullUrl && CHAT_WEBHOOK.test(fullUrl)) {
      const taints = new Set<Taint>();
      for (const a of all) deepTaints(a, 0, taints);
      const carries = ['env_all', 'secret_env', 'secret_file', 'fingerprint'].some((t) =>
        taints.has(t as Taint),
      );
      this.threat(
        'js.chat-webhook-exfil',
        'data_exfiltration',
        carries ? 0.85 : this.installTime ? 0.75 : 0.5,
        node,
        `posts to a chat webhook whose token is written in the package${carries ? ', with secrets or host details' : ''}`,
      );
    }
    if (host && EXFIL_HOST.test(host)) {
      this.threat(
        'js.request-exfil-host',
        'data_exfiltration',
        0.7,
        node,
        `talks to ${host}, a request-capture/tunnelling service used for exfiltration`,
      );
    }
  }

  /** Records a network sink; flags it when sensitive data flows straight into it. */
  private sink(node: AstNode, what: string, args: Val[], scope: Scope): void {
    const taints = new Set<Taint>();
    for (const a of args) deepTaints(a, 0, taints);
    const sensitive = [...taints].filter(
      (t) => t === 'secret_file' || t === 'env_all' || t === 'fingerprint' || t === 'secret_env',
    );
    const strong = sensitive.filter((t) => t === 'secret_file' || t === 'env_all');
    if (strong.length) {
      this.threat(
        'js.exfil-flow',
        'data_exfiltration',
        0.85,
        node,
        `sends ${strong.map(describeTaint).join(' and ')} over the network (${what})`,
      );
    } else if (sensitive.includes('fingerprint')) {
      this.threat(
        'js.exfil-fingerprint',
        'data_exfiltration',
        // At install time nothing legitimate needs to report who installed it, where: the
        // dependency-confusion beacon. At run time SDKs and telemetry do, so it stays a warning.
        this.installTime ? 0.8 : 0.6,
        node,
        `sends host details (host name, user info) over the network (${what})`,
      );
    } else if (sensitive.includes('secret_env')) {
      this.threat(
        'js.secret-env-to-network',
        'data_exfiltration',
        // SDKs send their own API keys when called; nothing needs to during npm install.
        this.installTime ? 0.75 : 0.3,
        node,
        `sends a secret-looking environment variable over the network (${what})`,
      );
    }
    // What a page's user types (keystrokes, password/card/seed fields, wallet storage) sent to
    // a host written in the file: a skimmer or keylogger. Libraries that post form data send
    // it to an endpoint their caller configures.
    if (taints.has('page_secret') && this.literalHostInFile) {
      this.threat(
        'js.page-secret-exfil',
        'data_exfiltration',
        0.85,
        node,
        `sends what the page's user types (keystrokes, password, card or wallet fields) to a fixed host (${what})`,
      );
    }
    if (!this.silent) scope.sinks.push({ line: lineOf(node), what, tainted: sensitive.length > 0 });
  }

  private dynamicCode(
    node: AstNode,
    how: string,
    code: Val | undefined,
    codeNode: AstNode | undefined,
    scope: Scope,
    depth: number,
  ): void {
    if (!code) return;
    const t = code.t ?? new Set<Taint>();
    // A packer: code produced by an inline function that decodes (Dean Edwards' base-36 keyword
    // table, char codes, base64, XOR). An inline function that reads the package's own source
    // files and joins them (a build tool concatenating its modules) is not one.
    const inlineFn =
      codeNode?.type === 'CallExpression' &&
      ((codeNode.callee as AstNode).type === 'FunctionExpression' ||
        (codeNode.callee as AstNode).type === 'ArrowFunctionExpression')
        ? (codeNode.callee as AstNode)
        : undefined;
    const inlineSrc = inlineFn
      ? this.input.text.slice(
          startOf(inlineFn) ?? 0,
          Math.min(
            (startOf(inlineFn) ?? 0) + 20_000,
            (inlineFn.end as number | undefined) ?? inlineFn.range?.[1] ?? 0,
          ),
        )
      : '';
    const packer =
      !!inlineFn &&
      /fromCharCode|charCodeAt|toString\(\s*36\s*\)|parseInt\([^)]*,\s*36\s*\)|split\(\s*['"]\|['"]\s*\)|atob\s*\(|base64|\\x[0-9a-f]{2}|unescape\s*\(|\^\s*(?:\w+\.charCodeAt|key|k\b)/i.test(
        inlineSrc,
      );
    if (t.has('image')) {
      this.threat(
        'js.eval-image-payload',
        'malicious_code',
        0.9,
        node,
        `${how}() runs code extracted from an image (steganography)`,
      );
    } else if (t.has('network_data')) {
      this.threat(
        'js.eval-network',
        'malicious_code',
        0.85,
        node,
        `${how}() runs code received from the network`,
      );
    } else if (t.has('decoded') || code.viaDecoder) {
      this.threat(
        'js.eval-decoded',
        'malicious_code',
        0.85,
        node,
        `${how}() runs code decoded from an encoded string`,
      );
    } else if (packer) {
      this.threat(
        'js.eval-packer',
        'malicious_code',
        0.8,
        node,
        `${how}() runs the output of an inline decoding function (packer)`,
      );
    } else if (t.has('secret_file') || t.has('env_all')) {
      this.threat(
        'js.eval-tainted',
        'malicious_code',
        0.6,
        node,
        `${how}() runs code built from sensitive data`,
      );
    }
    // Analyse constant code strings as code (decoded payloads included).
    const src = asString(code);
    if (src !== undefined && src.length > 10 && (this.input.nested ?? 0) < 2 && !this.silent) {
      const nested = analyzeJsFile({
        ...this.input,
        text: src,
        nested: (this.input.nested ?? 0) + 1,
        timeBudgetMs: 500,
      });
      for (const f of nested.findings) {
        this.findings.push({
          ...f,
          line: lineOf(node),
          snippet: this.snippetAt(node),
          message: `${f.message} (inside code passed to ${how})`,
        });
      }
      this.caps.merge(nested.caps);
    }
    void scope;
    void depth;
  }

  private envWhole(
    node: AstNode,
    message = 'reads the whole environment (process.env copied, spread or enumerated)',
  ): void {
    if (this.silent) return;
    this.caps.envVars.add(WHOLE_ENV);
    this.capability('environment', 'js.env-whole', node, message);
  }

  private stringArrayCheck(node: AstNode, items: Val[]): void {
    if (items.length < 5) return;
    const strs = items.map(asString).filter((s): s is string => s !== undefined);
    if (strs.length < 5) return;
    const rot = strs.filter((s) => /^\d{2,}[a-zA-Z]{3,}$/.test(s)).length;
    if (rot / items.length >= 0.5) {
      this.threat(
        'js.string-array',
        'malicious_code',
        0.75,
        node,
        'array of rotation-keyed strings (obfuscator string array)',
      );
    }
  }

  private fileLevel(): void {
    // A wallet-address swap (clipboard hijacking, transaction or request rewriting): a pattern
    // that recognises crypto addresses, an address written in the code, and a place where the
    // page's data is intercepted, all in one file.
    const w = this.wallet;
    if (w.regex !== undefined && w.literal !== undefined && w.intercept !== undefined) {
      this.threat(
        'js.wallet-address-swap',
        'malicious_code',
        0.85,
        w.intercept,
        `recognises crypto wallet addresses (line ${w.regex}), holds a fixed address (line ${w.literal}) and intercepts ${w.how}: an address swapper`,
      );
    }
    // Hex-named identifiers (_0x1a2b): obfuscator.io output, never minifier output.
    if (this.hexIds.size >= 3) {
      const conf = this.hexIds.size >= 8 ? 0.85 : 0.7;
      for (const line of [...new Set(this.hexIdLines)].slice(0, 8)) {
        this.threat(
          'js.hex-identifiers',
          'malicious_code',
          conf,
          line,
          `${this.hexIds.size} identifiers named like _0x1a2b (obfuscator output)`,
        );
      }
    }
    const remote = this.urlLiterals.some((u) => {
      const h = hostOf(u.url);
      return h && h !== 'localhost' && !h.startsWith('127.');
    });
    if (remote) {
      for (const line of this.envCalls.slice(0, 3)) {
        this.threat(
          'js.env-to-remote-call',
          'data_exfiltration',
          0.55,
          line,
          'passes the whole environment to a call in a file that talks to a remote URL',
        );
      }
    }
    for (const h of this.pendingHosts)
      if (this.networkInFile && !h.includes('${')) this.caps.addDomain(h.replace(/:\d+$/, ''));
    if (this.networkInFile) {
      for (const u of this.urlLiterals) this.caps.addUrl(u.url);
    }
  }
}

function describeTaint(t: Taint): string {
  switch (t) {
    case 'secret_file':
      return 'credential files';
    case 'env_all':
      return 'the whole environment';
    case 'fingerprint':
      return 'host details';
    case 'secret_env':
      return 'secret environment variables';
    default:
      return t;
  }
}

function describeVal(v: Val): string {
  if (v.k === 'mod') return v.name;
  if (v.k === 'global') return v.name;
  return 'value';
}

/** Arguments of an opaque call, with the whole environment dropped unless the callee serialises. */
function opaqueArgs(node: AstNode, args: Val[]): Val[] {
  if (!args.some((a) => a.k === 'env')) return args;
  const c = node.callee as AstNode | undefined;
  const name =
    c?.type === 'Identifier'
      ? (c.name as string)
      : c?.type === 'MemberExpression'
        ? (keyName(c.property as AstNode) ?? '')
        : '';
  if (
    /stringify|serial|encode|escape|compress|deflate|gzip|zip|encrypt|cipher|dump|inspect|format|toString|base64|hex|btoa|pack|json|yaml|toml|query|concat|assign|from|entries/i.test(
      name,
    )
  )
    return args;
  return args.map((a) => (a.k === 'env' ? UNKNOWN : a));
}

/** JSON text of a known object or array (unknown leaves as null; bounded), as JSON.stringify would write it. */
function toJson(v: Val, depth: number): string | undefined {
  if (depth > 6) return 'null';
  switch (v.k) {
    case 'str':
      return JSON.stringify(v.v);
    case 'num':
    case 'bool':
      return String(v.v);
    case 'arr':
      return `[${v.items
        .slice(0, 500)
        .map((i) => toJson(i, depth + 1) ?? 'null')
        .join(',')}]`;
    case 'obj':
      return `{${[...v.props]
        .slice(0, 500)
        .filter(([, x]) => x.k !== 'fn')
        .map(([k, x]) => `${JSON.stringify(k)}:${toJson(x, depth + 1) ?? 'null'}`)
        .join(',')}}`;
    default:
      return depth ? 'null' : undefined;
  }
}

/** The strings in a value (arrays flattened, bounded); unknown elements become empty strings. */
function flatStrings(v: Val, depth = 0, out: string[] = []): string[] {
  if (out.length > 200 || depth > 4) return out;
  if (v.k === 'arr') for (const i of v.items.slice(0, 100)) flatStrings(i, depth + 1, out);
  else out.push(asString(v) ?? '');
  return out;
}

/** A shell command string as simple commands of words (quotes removed; approximate, never executed). */
function commandLines(cmd: string): string[][] {
  const out: string[][] = [];
  for (const part of cmd.slice(0, 20_000).split(/&&|\|\||[;|&\n]/)) {
    const words: string[] = [];
    for (const m of part.matchAll(/"((?:\\.|[^"\\])*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3]!);
    if (words.length) out.push(words.slice(0, 200));
    if (out.length > 50) break;
  }
  return out;
}

/** AI coding-agent command-line tools (the program name, or the npm package an npx-style runner starts). */
const AI_CLIS =
  /^(?:claude|claude-code|gemini|gemini-cli|codex|cursor-agent|copilot|q|amp|ampcode|aider|opencode|opencode-ai|qwen|qwen-code|crush|goose|kiro-cli|droid|kimi|auggie|cline|grok)$/i;
/** Flags that only exist to turn an agent's permission checks off (any program). */
const BYPASS_STRONG =
  /^(?:--dangerously-[a-z-]+|--trust-all-tools|--allow-all-tools|--allow-all-paths|--skip-permissions-unsafe|--yes-always|--permission-mode[= ]bypassPermissions|--approval-mode[= ]yolo)$/i;
/** Flags that bypass permissions when given to an AI CLI. */
const BYPASS_FOR_AI = /^(?:--yolo|-y|--force|-f|--full-auto|--auto-approve|--always-approve)$/i;
const SHELLS = /^(?:sh|bash|zsh|dash|ksh|cmd|cmd\.exe|powershell|pwsh)$/i;
const RUNNERS = /^(?:npx|bunx|pnpx|dlx|env|nohup|sudo|exec|time|command|start|setsid|script)$/i;

function aiCliBypass(lines: string[][], depth = 0): { cli: string; flag: string } | undefined {
  for (const words of lines) {
    let i = 0;
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++;
    // npx/env/nohup … and `pnpm dlx` / `yarn dlx` / `npm exec --`: the program is the next word.
    while (i < words.length) {
      const w = words[i]!;
      if (RUNNERS.test(w) || (/^-/.test(w) && i > 0 && RUNNERS.test(words[i - 1]!))) i++;
      else if (/^(?:pnpm|yarn|npm)$/i.test(w) && /^(?:dlx|exec|x)$/i.test(words[i + 1] ?? '')) i += 2;
      else if (w === '--' || (/^-/.test(w) && i > 0 && /^(?:dlx|exec|x)$/i.test(words[i - 1]!))) i++;
      else break;
    }
    const prog = words[i];
    if (prog === undefined) continue;
    const base = prog
      .replace(/@[\d^~.x*-]+$|@latest$/i, '')
      .split(/[\\/]/)
      .pop()!
      .replace(/\.(?:exe|cmd|js)$/i, '');
    const rest = words.slice(i + 1);
    // sh -c "…" / cmd /c "…": the script is a command line of its own.
    if (SHELLS.test(base) && depth < 2) {
      const c = rest.findIndex((w) => /^(?:-c|\/c|\/C|-Command|-command)$/.test(w));
      if (c >= 0) {
        const inner = aiCliBypass(commandLines(rest.slice(c + 1).join(' ')), depth + 1);
        if (inner) return inner;
      }
      continue;
    }
    const isAi = AI_CLIS.test(base);
    const known = base !== '' && !base.includes('${');
    for (let j = 0; j < rest.length; j++) {
      const w = rest[j]!;
      const pair = /^--(?:permission-mode|approval-mode)$/i.test(w) ? `${w} ${rest[j + 1] ?? ''}` : w;
      if (BYPASS_STRONG.test(pair) && (isAi || !known)) return { cli: isAi ? base : 'an AI CLI', flag: pair };
      if (isAi && BYPASS_FOR_AI.test(w)) return { cli: base, flag: w };
    }
  }
  return undefined;
}

/** A short signature of a value, to reuse the analysis of a call made again with the same arguments. */
function sigOf(v: Val, depth: number): string {
  const t = v.t?.size ? `[${[...v.t].sort().join(',')}]` : '';
  switch (v.k) {
    case 'str':
      return `s${v.v.length}:${v.v.slice(0, 120)}${t}`;
    case 'num':
    case 'bool':
      return `${v.k}:${v.v}`;
    case 'arr':
      return depth > 2
        ? `a${v.items.length}${t}`
        : `[${v.items.slice(0, 20).map((i) => sigOf(i, depth + 1))}]${t}`;
    case 'obj':
      return depth > 2
        ? `o${v.props.size}${t}`
        : `{${[...v.props]
            .slice(0, 20)
            .map(([k, x]) => `${k}=${sigOf(x, depth + 1)}`)
            .join(',')}}${t}`;
    case 'fn':
      return `f${startOf(v.node) ?? ''}`;
    case 'mod':
      return `m:${v.name}`;
    case 'api':
      return `p:${v.mod}.${v.path}${t}`;
    case 'global':
      return `g:${v.name}`;
    default:
      return `${v.k}${t}`;
  }
}

/** Standard or URL-safe base64 (not a mix of both alphabets), as encoders write it. */
function strictBase64(s: string): boolean {
  const t = s.replace(/\s+/g, '');
  return /^[A-Za-z0-9+/]+={0,2}$/.test(t) || /^[A-Za-z0-9_-]+={0,2}$/.test(t);
}

/** Decoded text that reads as text (names, code, URLs), not as random bytes that happen to be printable. */
function mostlyText(s: string): boolean {
  const good = s.match(/[A-Za-z0-9 ._\-/:(){}'";,=]/g)?.length ?? 0;
  return good / s.length >= 0.85;
}

/** One of two values (`a || b`, `c ? a : b`): the first known one, with the taint of both. */
function eitherOf(a: Val, b: Val): Val {
  const picked = a.k !== 'unknown' ? a : b;
  const other = picked === a ? b : a;
  if (!other.t?.size || other.k === 'env') return picked;
  if (picked.k === 'env') return picked;
  return withTaint({ ...picked }, [picked, other]);
}

/** The value a call returns: the first return that is known, else the first (taint kept). */
function pickReturn(returns: Val[]): Val {
  if (!returns.length) return UNKNOWN;
  const picked = returns.find((r) => r.k !== 'unknown') ?? returns[0]!;
  // Taint of any return path stays on the value (`try { return read(f) } catch { return '' }`).
  const others = returns.filter((r) => r !== picked && r.t?.size);
  return others.length ? withTaint({ ...picked }, [picked, ...others]) : picked;
}

/** Most elements a loop or array callback is unrolled for. */
const MAX_UNROLL = 32;

/** The elements a for…of / array method walks over, when they are known. */
function iterItems(v: Val): Val[] | undefined {
  const items = iterItemsRaw(v);
  return items?.map((i) =>
    i.k === 'str'
      ? { ...i, listed: true }
      : i.k === 'arr' && i.items[0]?.k === 'str'
        ? { ...i, items: [{ ...i.items[0], listed: true }, ...i.items.slice(1)] }
        : i,
  );
}

function iterItemsRaw(v: Val): Val[] | undefined {
  if (v.k === 'arr') return v.items.slice(0, MAX_UNROLL);
  if (v.k === 'entries') {
    const of = v.of;
    if (of.k === 'obj')
      return [...of.props]
        .slice(0, MAX_UNROLL)
        .map(([k, x]) => ({ k: 'arr', items: [{ k: 'str', v: k }, x] }) as Val);
    if (of.k === 'arr')
      return of.items
        .slice(0, MAX_UNROLL)
        .map((x, i) => ({ k: 'arr', items: [{ k: 'num', v: i }, x] }) as Val);
    return undefined;
  }
  if (v.k === 'keys') return keysOf(v.of);
  return undefined;
}

/** The keys a for…in loop or Object.keys walks over, when known. */
function keysOf(v: Val): Val[] | undefined {
  if (v.k === 'obj')
    return [...v.props.keys()].slice(0, MAX_UNROLL).map((k) => ({ k: 'str', v: k, listed: true }) as Val);
  if (v.k === 'arr')
    return v.items.slice(0, MAX_UNROLL).map((_, i) => ({ k: 'str', v: String(i), listed: true }) as Val);
  return undefined;
}

function keyName(n: AstNode | undefined): string | undefined {
  if (!n) return undefined;
  if (n.type === 'Identifier' || n.type === 'PrivateIdentifier') return n.name as string;
  if ((n.type === 'Literal' || n.type === 'StringLiteral' || n.type === 'NumericLiteral') && n.value !== null)
    return String(n.value);
  return undefined;
}

/** `n => n === 'spawn'` / `([k]) => k === 'spawn'`: the literal the callback compares with. */
function comparedLiteral(fn: AstNode): string | undefined {
  let body = fn.body as AstNode | undefined;
  if (body?.type === 'BlockStatement') {
    const ret = ((body.body as AstNode[]) ?? []).find((s) => s.type === 'ReturnStatement');
    body = ret?.argument as AstNode | undefined;
  }
  if (!body || body.type !== 'BinaryExpression' || !/^[!=]==?$/.test(body.operator as string))
    return undefined;
  for (const side of [body.left, body.right] as AstNode[]) {
    if ((side.type === 'Literal' || side.type === 'StringLiteral') && typeof side.value === 'string')
      return side.value;
  }
  return undefined;
}

function asNum(v: Val | undefined): number | undefined {
  if (!v) return undefined;
  if (v.k === 'num') return v.v;
  if (v.k === 'str' && /^\d+$/.test(v.v)) return Number(v.v);
  return undefined;
}

function shellPrefix(v: Val | undefined): string | undefined {
  if (v?.k === 'str') return v.v;
  return undefined;
}

function safeDecodeUri(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

// -------------------------------------------------------------------- text-level checks

const TEXT_RULES: {
  rule: string;
  re: RegExp;
  type: ThreatType;
  conf: number;
  message: string;
  /** Literal strings one of which the text must contain for the rule to be tried. */
  gate?: string[];
}[] = [
  {
    rule: 'text.jsfuck',
    re: /[[\]()!+]{400,}/,
    gate: ['![]', '+[]'],
    type: 'malicious_code',
    conf: 0.85,
    message: 'JSFuck-encoded code (only []()!+ characters)',
  },
  {
    rule: 'text.mining-pool',
    re: /stratum\+(?:tcp|ssl|tls):\/\/|["'](?:--donate-level|--cpu-max-threads-hint|--coin)["'=]|\b(?:xmrig|cpuminer|nanominer|lolminer|t-rex|nbminer)(?:\.exe)?["'`\s/]/i,
    gate: [
      'stratum',
      'donate-level',
      'max-threads-hint',
      '--coin',
      'xmrig',
      'XMRig',
      'XMRIG',
      'cpuminer',
      'nanominer',
      'lolminer',
      't-rex',
      'nbminer',
    ],
    type: 'malicious_code',
    conf: 0.75,
    message: 'names a cryptocurrency mining pool or miner (stratum URL, miner binary or flags)',
  },
  {
    rule: 'text.aaencode',
    re: /ﾟωﾟﾉ\s*=|ﾟДﾟ|\(ﾟｰﾟ\)/,
    type: 'malicious_code',
    conf: 0.85,
    message: 'aaencode-obfuscated code',
  },
  {
    rule: 'text.jjencode',
    re: /\$=~\[\];\s*\$=\{___:\+\+\$/,
    type: 'malicious_code',
    conf: 0.85,
    message: 'jjencode-obfuscated code',
  },
  {
    rule: 'text.packer',
    re: /eval\s*\(\s*function\s*\(\s*p\s*,\s*a\s*,\s*c\s*,\s*k\s*,\s*e\s*,\s*[dr]\s*\)/,
    gate: ['eval'],
    type: 'malicious_code',
    conf: 0.8,
    message: 'Dean Edwards packer (eval(function(p,a,c,k,e,d)...))',
  },
];

/** Text rules for code files: run on every file, parsed or not. */
function textChecks(
  input: JsFileInput,
  lines: LineIndex,
  out: Finding[],
  parsed: boolean,
  comments: { text: string; start: number }[] = [],
): CapabilityCollector {
  const caps = new CapabilityCollector();
  const text = input.text;
  const push = (rule: string, type: ThreatType, conf: number, offset: number, message: string) => {
    const line = lines.lineOf(offset);
    if (out.some((f) => f.rule === rule && f.line === line)) return;
    const col = offset - (text.lastIndexOf('\n', offset - 1) + 1);
    const lt = lines.lineSlice(line, lines.lineLength(line) > 200 ? Math.max(0, col - 40) : 0, 300);
    out.push({
      threat_type: type,
      rule,
      message,
      file: input.path,
      line,
      snippet: snippetOf(lt),
      confidence: conf,
      install_time: input.installTime,
    });
  };
  // Encoded-code shapes count in code only: a kaomoji or a table flip in a comment is not aaencode.
  const inComment = (offset: number) =>
    comments.some((c) => offset >= c.start && offset <= c.start + c.text.length + 4);
  for (const r of TEXT_RULES) {
    // Each encoder leaves a literal mark; skip the whole-text scan when it is absent.
    if (r.gate && !r.gate.some((g) => text.includes(g))) continue;
    const re = new RegExp(r.re.source, r.re.flags.includes('g') ? r.re.flags : `${r.re.flags}g`);
    let tries = 0;
    for (const m of text.matchAll(re)) {
      if (tries++ > 20) break;
      if (inComment(m.index)) continue;
      push(r.rule, r.type, r.conf, m.index, r.message);
      break;
    }
  }
  // Code pushed out of view: a long run of blanks followed by code on the same line.
  const hidden = /[^\s][ \t]{150,}([^\s/*][^\n]{2,})/g;
  let n = 0;
  for (const m of text.matchAll(hidden)) {
    if (n++ > 3) break;
    push(
      'text.whitespace-hidden-code',
      'malicious_code',
      0.75,
      m.index + m[0].length - m[1]!.length,
      'code pushed far to the right by a long run of blanks, out of view in an editor',
    );
  }
  if (!parsed) {
    // Fallbacks when there is no syntax tree.
    const fallbacks: { rule: string; re: RegExp; type: ThreatType; conf: number; message: string }[] = [
      {
        rule: 'text.eval-decoded',
        re: /\b(?:eval|Function)\s*\(\s*(?:atob|Buffer\.from)\s*\(/g,
        type: 'malicious_code',
        conf: 0.8,
        message: 'eval of decoded data',
      },
      {
        rule: 'text.serialize-env',
        re: /JSON\.stringify\s*\(\s*process\.env\s*\)/g,
        type: 'data_exfiltration',
        conf: 0.4,
        message: 'serialises the whole environment',
      },
      {
        rule: 'text.hex-identifiers',
        re: /\b_0x[0-9a-f]{4,}\b/g,
        type: 'malicious_code',
        conf: 0.7,
        message: 'identifiers named like _0x1a2b (obfuscator output)',
      },
    ];
    for (const r of fallbacks) {
      let c = 0;
      for (const m of text.matchAll(r.re)) {
        if (c++ > 5) break;
        push(r.rule, r.type, r.conf, m.index, r.message);
      }
    }
    for (const m of text.matchAll(/process\.env(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[\s*['"]([^'"]+)['"]\s*\])/g)) {
      caps.envVars.add(m[1] ?? m[2]!);
    }
    if (/\brequire\s*\(\s*['"](?:node:)?child_process['"]\s*\)/.test(text)) caps.spawns = true;
    if (/\b(?:fetch|https?\.(?:request|get)|axios\.\w+)\s*\(/.test(text)) caps.makesRequests = true;
  }
  return caps;
}

/** Analyses one JavaScript or TypeScript file. Never throws. */
export function analyzeJsFile(input: JsFileInput): JsFileResult {
  // A package file already analysed as a module another file required: same result, not twice.
  const cached = input.modules?.results.get(input.path);
  if (cached && cached.installTime === input.installTime && cached.text === input.text) {
    input.modules!.results.delete(input.path);
    return cached.result;
  }
  const { fa, result } = runFile(input);
  // Files analysed first by the package loop serve their exports to files that require them later.
  if (input.modules && result.parsed && !input.nested && !input.modules.cache.has(input.path))
    input.modules.cache.set(input.path, fa.exportsValue());
  return result;
}

function runFile(input: JsFileInput): { fa: FileAnalyzer; result: JsFileResult } {
  const parsed = parseSource(input.text, input.path);
  const t0 = performance.now();
  const fa = new FileAnalyzer(input);
  const lines = fa.lines;
  const previousLines = currentLines;
  currentLines = lines;
  let walkError: string | undefined;
  try {
    if (parsed.ast) fa.run(parsed.ast);
  } catch (err) {
    walkError = err instanceof RangeError ? 'nesting too deep' : String((err as Error).message);
  } finally {
    currentLines = previousLines;
  }
  const findings = fa.findings;
  const textCaps = textChecks(
    input,
    lines,
    findings,
    !!parsed.ast && parsed.repairedLines.length === 0,
    parsed.comments,
  );
  fa.caps.merge(textCaps);
  fa.facts.pipesStreams = /\.pipe\s*\(|\bstdin\s*\.\s*write\s*\(|\bstd(?:in|out|err)\s*\.\s*on\s*\(/.test(
    input.text,
  );
  const result: JsFileResult = {
    facts: fa.facts,
    findings,
    caps: fa.caps,
    parsed: !!parsed.ast && !walkError,
    parseError: parsed.error ?? walkError,
    repairedLines: parsed.repairedLines,
    parseMs: parsed.ms,
    walkMs: performance.now() - t0,
    comments: parsed.comments.map((c) => ({ text: c.text, line: lines.lineOf(c.start) })),
    strings: fa.strings,
    exportNames: [...fa.exportNames],
    requires: [...fa.requires],
    timedOut: fa.timedOut,
  };
  return { fa, result };
}
