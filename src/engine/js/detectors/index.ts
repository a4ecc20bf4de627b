/**
 * The detectors of one JavaScript/TypeScript file: they receive the effects the evaluator and the
 * API models report (effects.ts), in walk order, and turn them into findings and capabilities.
 * The rules themselves live in the files beside this one, by area:
 *
 * - network.ts: requests, servers, sockets, domains and protocols; requests to public IPs,
 *   capture services and chat webhooks;
 * - flows.ts: sensitive data (credentials, the environment, host details, what a page's user
 *   types) flowing into the network, or read in the function that sends;
 * - process.ts: processes started, the command lines they run, AI CLIs with checks turned off;
 * - files.ts: files read and written (persistence, start-up files, agent configuration, other
 *   installed packages, shared libraries);
 * - destructive.ts: the user's files or databases destroyed, and branches on the machine's
 *   location or on network data above such acts;
 * - code.ts: code compiled at run time, deserialisers, native code, injection strings;
 * - obfuscation.ts: APIs reached by computed, decoded, reflected or enumerated names,
 *   obfuscator idioms, homoglyph and invisible characters in identifiers;
 * - wallet.ts: crypto-address swappers.
 */
import { CapabilityCollector } from '../../capabilities';
import { snippetOf, type LineIndex } from '../../text';
import type { ThreatType } from '../../../contract/schemas';
import { finding } from '../../findings';
import { confidence, round2, type ConfidenceQuery, type RuleId, type VariantOf } from '../../rules';
import type { Finding } from '../../types';
import type { JsFileFacts, JsFileInput } from '../analyze';
import { columnOf, lineOf } from '../ast';
import type { Branch, Effects } from '../effects';
import type { SpawnKind } from '../models/process';
import { fixedCopy } from '../models/network';
import type { Scope } from '../scope';
import { UNKNOWN, asString, deepTaints, hasDeepTaint, type AstNode, type Taint, type Val } from '../values';
import type { ScriptDialect, ScriptState } from '../../script-behaviour';
import * as chains from './chains';
import type { WrittenFile } from './chains';
import * as code from './code';
import * as destructive from './destructive';
import * as files from './files';
import * as flows from './flows';
import * as network from './network';
import * as obfuscation from './obfuscation';
import * as processes from './process';
import * as tamper from './tamper';
import * as wallet from './wallet';

/** Where findings go: the file's own, or the caller's during a call from another file. */
export interface Output {
  findings: Finding[];
  /** `rule:file:line` of the capability findings recorded (one per rule and line). */
  seen: Set<string>;
  /** The threat finding recorded per `rule:file:line`. */
  threatsAt: Map<string, Finding & { confidence: number }>;
  caps: CapabilityCollector;
  /** The code runs during `npm install`. */
  installTime: boolean;
  /** Files written (path, where, and whether the data came from the network or a decoder). */
  written: WrittenFile[];
}

/**
 * The page's developer tools and context menu blocked (F12, Ctrl+Shift+I/J/C, Ctrl+U and the
 * right-click menu cancelled): what scam pages do to keep visitors and analysts from looking.
 */
function blocksDevtools(text: string): boolean {
  return (
    /\bcontextmenu\b/.test(text) &&
    /preventDefault/.test(text) &&
    /["']F12["']|keyCode\s*={2,3}\s*123\b|which\s*={2,3}\s*123\b/.test(text)
  );
}

/** A request document with npm's `_attachments` (a package tarball being published). */
function carriesAttachments(v: Val, depth: number): boolean {
  if (depth > 3) return false;
  if (v.k === 'obj')
    return (
      v.props.has('_attachments') ||
      [...v.props.values()].slice(0, 40).some((x) => carriesAttachments(x, depth + 1))
    );
  const s = asString(v) ?? (v.k === 'str' ? v.v : undefined);
  return s !== undefined && s.includes('"_attachments"');
}

/** The developer's own machine. */
const LOCAL_PAGE = /^(?:localhost|127\.|0\.0\.0\.0|\[::1\])/i;

/** A checksum or signature check in a file's text. */
const INTEGRITY =
  /\bcreate(?:Hash|Verify)\s*\(|\bintegrity\b|\bchecksum|\bsha(?:256|512)sum\b|\bsubtle\.digest\b/i;

export class Detectors implements Effects {
  /** The state of the commands this file starts, read as one script (downloads, chmod +x). */
  spawnedScript?: ScriptState;
  /** Scripts the code wrote with text known here (`fs.writeFileSync(tmp + '.ps1', PS)`), by file name. */
  readonly writtenScripts = new Map<string, { text: string; dialect: ScriptDialect }>();
  out: Output;
  /** Inside branches that depend on the machine's country, time zone or locale. */
  geoGate = 0;
  /** Inside branches taken on data received from the network (a remote kill switch). */
  remoteGate = 0;
  /** Inside branches taken only after a date or by chance (see destructive.enterBranch). */
  timeGate = 0;
  /** Inside branches that pick which visitors run them (user agent, automation, random sample). */
  targetGate = 0;
  /** Inside branches taken when the page holds secrets (see destructive.presentWhen). */
  secretPageGate = 0;
  /** Inside branches taken when typed text has a recovery phrase's word count. */
  seedGate = 0;
  /** The file sent a server who is visiting (user agent, automation flag, referrer). */
  visitorSent = false;
  /** Inside branches that pick visitors by the page they came from. */
  referrerGate = 0;
  /** Inside branches taken only for listed files that carry a fixed marker (the tool's own). */
  ownMarkerGate = 0;
  /** The file uses locale or time-zone APIs (computed once, on the first candidate gate). */
  localeApis?: boolean;
  /** Where `process.chdir` moved to, when the package does not own it (see tamper.ts). */
  foreignCwd?: string;
  /** The code changed its working directory (`process.chdir`): `process.cwd()` is no longer npm's. */
  cwdMoved = false;
  /** The file's text is all ASCII (read once, by the identifier checks). */
  asciiText?: boolean;
  /** See `Effects.dormant`: 0 while the walk is in code that runs when the file loads. */
  dormant = 0;
  /** See `Effects.hostRun`. */
  hostRun = 0;
  /** The file runs when the package is loaded (its entry point, or a module the entry requires). */
  private loadedFile: boolean;
  /** Facts the package-level rules combine across files. */
  readonly facts: JsFileFacts = {};
  /** A request in this file goes somewhere (domains of URL literals and host properties count then). */
  networkInFile = false;
  /** A request of this file goes over plain HTTP to a bare public IP address (see chains.chain). */
  plainIpRequest = false;
  /** The taints of what the file's requests and sockets send (see flows.sink). */
  readonly sent = new Set<Taint>();
  /** A request in this file goes to a host written in the code (not a configured endpoint). */
  literalHostInFile = false;
  /** The file's code (comments aside) writes a host somewhere (read once: see flows.sink). */
  hostInCode?: boolean;
  /** The file's text writes a host somewhere (read once, on first need: see flows.writesAHost). */
  hostWritten?: boolean;
  /** The file tests names against an identifier's shape (read once: see code.checksIdentifiers). */
  identifierTest?: boolean;
  readonly urlLiterals: { url: string; line: number }[] = [];
  readonly hostProperties: string[] = [];
  /** Lines of the whole environment passed to an opaque call. */
  readonly envCalls: number[] = [];
  /** Identifiers named like `_0x1a2b`, and the lines of the first ones. */
  readonly hexIds = new Set<string>();
  readonly hexIdLines: number[] = [];
  /** Files written by this file, or by helpers of other files it calls (shared with them). */
  get written(): WrittenFile[] {
    return this.out.written;
  }
  /** Files written that the code had started earlier by the same path (see chains.wrote). */
  readonly earlierRuns: chains.EarlierRun[] = [];
  /** A helper of another file this file called checks a checksum or signature. */
  helperVerifies = false;
  /** The file checks a checksum or signature (a downloader that verifies what it runs). */
  get verifiesIntegrity(): boolean {
    if (this.helperVerifies) return true;
    return (this.integrityInText ??= INTEGRITY.test(this.input.text));
  }
  private integrityInText: boolean | undefined;
  /** Lines of the pieces of a wallet-address swap: an address pattern, a fixed address, an interception. */
  readonly wallet: {
    regex?: number;
    literal?: number;
    intercept?: number;
    how?: string;
    /** The hooked object is a wallet provider the page injects (`window.ethereum`, however reached). */
    provider?: boolean;
    /**
     * The interception is one every interface makes (text written to the clipboard or the page, a
     * paste read, a class's own `send`), not a hook on what the whole page reads or signs: its
     * pieces must sit in this file or the modules it imports itself.
     */
    common?: boolean;
    reported?: boolean;
  } = {};

  constructor(
    readonly input: JsFileInput,
    readonly lines: LineIndex,
  ) {
    this.loadedFile = !!input.entry;
    this.out = {
      findings: [],
      seen: new Set(),
      threatsAt: new Map(),
      caps: new CapabilityCollector(),
      installTime: input.installTime,
      written: [],
    };
  }

  get caps(): CapabilityCollector {
    return this.out.caps;
  }

  get installTime(): boolean {
    return this.out.installTime;
  }

  /**
   * What the code at this point of the walk does happens without anyone calling the package:
   * while it installs, or when it is loaded (the entry's top level and what that calls).
   */
  get unprompted(): 'install' | 'load' | undefined {
    if (this.dormant > 0) return undefined;
    if (this.installTime) return 'install';
    return this.loadedFile ? 'load' : undefined;
  }

  // ---------------------------------------------------------------- recording

  snippetAt(n: AstNode | number): string {
    const line = typeof n === 'number' ? n : lineOf(n);
    const col = typeof n === 'number' ? 0 : columnOf(n);
    const from = this.lines.lineLength(line) > 160 ? Math.max(0, col - 40) : 0;
    return snippetOf(this.lines.lineSlice(line, from, 400));
  }

  /** A threat finding at a node or line, once per rule and line; its confidence comes from the catalogue. */
  threat<R extends RuleId>(
    rule: R,
    type: ThreatType,
    at: AstNode | number,
    message: string,
    level?: VariantOf<R> | ConfidenceQuery<R>,
  ): void {
    const line = typeof at === 'number' ? at : lineOf(at);
    const key = `${rule}:${this.input.path}:${line}`;
    const seen = this.out.threatsAt.get(key);
    const query = typeof level === 'string' ? ({ variant: level } as ConfidenceQuery<R>) : level;
    // Once per rule and line; a function walked where it is defined and again when it runs keeps
    // the higher reading (its body's acts weigh more when the code runs unprompted).
    if (seen && !(round2(confidence(rule, query)) > seen.confidence)) return;
    const f = finding({
      threat_type: type,
      rule,
      message,
      file: this.input.path,
      line,
      snippet: this.snippetAt(at),
      install_time: this.out.installTime,
      rounded: true,
      ...query,
    }) as Finding & { confidence: number };
    if (seen) this.out.findings[this.out.findings.indexOf(seen)] = f;
    else this.out.findings.push(f);
    this.out.threatsAt.set(key, f);
  }

  /** `install` when the code runs during npm install. */
  get install(): 'install' | undefined {
    return this.out.installTime ? 'install' : undefined;
  }

  capability(
    capability: 'network' | 'filesystem' | 'process' | 'environment' | 'native',
    rule: RuleId,
    at: AstNode,
    message: string,
  ): void {
    const line = lineOf(at);
    const key = `${rule}:${this.input.path}:${line}`;
    if (this.out.seen.has(key)) return;
    this.out.seen.add(key);
    this.out.findings.push(
      finding({
        capability,
        rule,
        message,
        file: this.input.path,
        line,
        snippet: this.snippetAt(at),
        install_time: this.out.installTime,
      }),
    );
  }

  findingCount(): number {
    return this.out.findings.length;
  }

  progress(): number {
    const c = this.out.caps;
    // (Every process started, request sent, lookup made, data written to a connection and wallet
    // request made counts: a helper that runs `npm`, posts to one host, resolves one name, writes
    // to one socket or asks the wallet with the arguments it is given does something
    // new with each call, though the program, host or method is the same; two harmless calls
    // first must not let the third go unread.)
    return this.out.findings.length + c.commands.size + c.domains.size + c.paths.size + this.acts;
  }
  /** Processes started, requests sent, lookups, connection writes and wallet requests so far (see progress). */
  private acts = 0;

  borrow(from: Effects): () => void {
    const caller = from as Detectors;
    const saved = {
      out: this.out,
      geoGate: this.geoGate,
      remoteGate: this.remoteGate,
      targetGate: this.targetGate,
      secretPageGate: this.secretPageGate,
      seedGate: this.seedGate,
      referrerGate: this.referrerGate,
      dormant: this.dormant,
      hostRun: this.hostRun,
      loadedFile: this.loadedFile,
    };
    this.out = caller.out;
    this.dormant = caller.dormant;
    this.hostRun = caller.hostRun;
    this.loadedFile = caller.loadedFile;
    this.geoGate = caller.geoGate;
    this.remoteGate = caller.remoteGate;
    this.targetGate = caller.targetGate;
    this.secretPageGate = caller.secretPageGate;
    this.seedGate = caller.seedGate;
    this.referrerGate = caller.referrerGate;
    return () => {
      // A helper of another file that fetches, or verifies a checksum, does so for the caller's
      // chains too (a dropper's download in one module and its run in another).
      if (this.networkInFile) caller.networkInFile = true;
      if (this.plainIpRequest) caller.plainIpRequest = true;
      if (this.verifiesIntegrity) caller.helperVerifies = true;
      Object.assign(this, saved);
    };
  }

  // ---------------------------------------------------------------- effects

  stringLiteral(value: string, node: AstNode, literal: boolean): void {
    if (literal) wallet.addressLiteral(this, value, node);
    network.urlLiteral(this, value, node);
    code.injectionString(this, value, node);
  }
  decodedText(value: string, node: AstNode): void {
    wallet.addressLiteral(this, value, node);
  }
  regex(source: string, node: AstNode): void {
    wallet.addressPattern(this, source, node);
  }
  identifier(node: AstNode | null | undefined): void {
    obfuscation.identifier(this, node);
  }
  assignedIdentifier(node: AstNode): void {
    obfuscation.assignedIdentifier(this, node);
  }
  assignment(node: AstNode, name: string, value: Val, scope: Scope): void {
    obfuscation.selfRedefinition(this, node, name, value, scope);
  }
  unary(node: AstNode): void {
    obfuscation.jsfuckBoolean(this, node);
  }
  arrayLiteral(node: AstNode, items: Val[]): void {
    obfuscation.stringArray(this, node, items);
  }
  hostProperty(host: string): void {
    this.hostProperties.push(host);
  }
  computedKey(node: AstNode, obj: Val, keyVal: Val, key: string | undefined, literal: boolean): void {
    obfuscation.computedKey(this, node, obj, keyVal, key, literal);
  }
  computedMember(node: AstNode, obj: Val, key: string, value: Val, keyDecoded: boolean): void {
    obfuscation.computedMember(this, node, obj, key, value, keyDecoded);
  }
  computedGlobal(node: AstNode, key: string, keyDecoded: boolean): void {
    obfuscation.computedGlobal(this, node, key, keyDecoded);
  }
  indirectMember(
    node: AstNode,
    owner: Val,
    key: string,
    how: 'descriptor' | 'reflect' | 'enumeration',
  ): void {
    obfuscation.indirectMember(this, node, owner, key, how);
  }
  memberAssignment(node: AstNode, target: string, obj: Val | undefined): void {
    wallet.interceptByAssignment(this, node, target, obj);
  }
  /** A known string written to a transaction's recipient field (`tx.to = ADDR`), from any file. */
  recipientValue(value: string, node: AstNode): void {
    wallet.addressLiteral(this, value, node);
  }
  envVar(node: AstNode, name: string): void {
    this.caps.envVars.add(name);
    this.capability('environment', 'js.env-var', node, `reads environment variable ${name}`);
  }
  envAssigned(name: string): void {
    this.caps.envVars.add(name);
  }
  envWhole(node: AstNode, message?: string): void {
    flows.envWhole(this, node, message);
  }
  source(scope: Scope, taint: Taint, node: AstNode): void {
    flows.source(scope, taint, node);
  }
  gated(): boolean {
    return this.geoGate > 0 || this.remoteGate > 0 || this.timeGate > 0;
  }
  enterBranch(node: AstNode, test: Val, scope: Scope, guard?: boolean): Branch {
    return destructive.enterBranch(this, node, test, scope, guard);
  }
  leaveBranch(branch: Branch): void {
    destructive.leaveBranch(this, branch);
  }
  scopeEnd(scope: Scope): void {
    flows.sameScope(this, scope);
  }
  fileEnd(): void {
    chains.runEarlier(this);
    wallet.swap(this);
    obfuscation.hexIdentifiers(this);
    obfuscation.escapedNames(this);
    flows.envToRemoteCall(this);
    network.fileDomains(this);
  }
  call(
    node: AstNode,
    calleeNode: AstNode,
    how: string | undefined,
    args: Val[],
    receiver?: Val,
    scope?: Scope,
  ): void {
    // A wallet provider asked something (`request({ method: 'eth_…' })`): an act (see progress).
    if (how === 'request' && args[0]?.k === 'obj' && args[0].props.has('method')) this.acts++;
    wallet.interceptByCall(this, node, calleeNode, how, args);
    // `frame.contentWindow.postMessage(data, '*')`: data handed to another window, which any site
    // framed there can read ('*'), or the site named.
    if (how === 'postMessage' && scope && args[0] && args.length >= 2) {
      const origin = asString(args[1]);
      const host = origin ? /^https?:\/\/([^/?#:]+)/i.exec(origin)?.[1] : undefined;
      if (host && !LOCAL_PAGE.test(host)) this.literalHostInFile = true;
      if (origin === '*' || host)
        flows.sink(this, node, `postMessage to ${origin === '*' ? 'any window' : host}`, [args[0]], scope);
    }
    destructive.databaseWipe(this, node, how, args);
    // `document.write('<script src="https://…">')`, `el.insertAdjacentHTML(…)`: a remote script
    // element written as markup is the same as one created and given a src.
    if (how === 'write' || how === 'writeln' || how === 'insertAdjacentHTML') {
      for (const a of args.slice(0, 2)) {
        const html = asString(a) ?? (a.k === 'str' ? a.v : undefined);
        const src = html ? /<script\b[^>]*\bsrc\s*=\s*["']?([^"'\s>]+)/i.exec(html)?.[1] : undefined;
        if (src) this.scriptSource(node, src, hasDeepTaint(a, 'decoded'));
        // `<meta http-equiv="refresh" content="0;url=…">`: the page sent elsewhere.
        const refresh = html
          ? /<meta\b[^>]*http-equiv\s*=\s*["']?refresh[^>]*content\s*=\s*["']?\s*\d*\s*;?\s*url\s*=\s*([^"'\s>]+)/i.exec(
              html,
            )?.[1]
          : undefined;
        if (refresh) this.navigation(node, { k: 'str', v: refresh, t: deepTaints(a) });
        const frame = html ? /<iframe\b[^>]*\bsrc\s*=\s*["']?([^"'\s>]+)/i.exec(html)?.[1] : undefined;
        if (frame) this.scriptSource(node, frame, false, 'frame');
      }
    }
    wallet.drain(this, node, how, args, scope);
    wallet.approvalOnLoad(this, node, how, args);
    // `socket.pipe(shell.stdin)`: what the connection receives is what the shell runs.
    if (how === 'pipe' && receiver && args[0]?.k === 'api' && /ShellChild\.stdin$/.test(args[0].path))
      processes.shellInput(this, node, [receiver]);
    // `fs.createReadStream(file).pipe(req)`, `pipeline(source, gzip, req)`: what the source
    // streams is the request's body.
    if (scope) {
      const name = how ?? (calleeNode.type === 'Identifier' ? (calleeNode.name as string) : undefined);
      if (name === 'pipe' && receiver && args[0]?.k === 'net')
        flows.sink(this, node, 'request body (a stream piped into it)', [receiver], scope);
      if (name === 'pipeline') {
        const parts = args.filter((a) => a.k !== 'fn');
        if (parts.length >= 2 && parts[parts.length - 1]!.k === 'net')
          flows.sink(this, node, 'request body (a stream piped into it)', parts.slice(0, -1), scope);
      }
    }
  }
  /** A top-level loop with no exit at `line`: loading the file never returns. */
  hangsOnLoad(line: number): void {
    this.threat(
      'js.hangs-on-load',
      'malicious_code',
      line,
      'runs a loop with no exit at the top of the file: loading it never returns',
      this.installTime ? 'install' : this.input.entry ? 'entry' : undefined,
    );
  }
  publish(node: AstNode, how: string, args: Val[]): void {
    // Release tools publish for their user when asked; code that does it while it is being
    // installed, or with a token it scraped from a credentials file, is spreading itself.
    if (!this.installTime && !args.some((a) => hasDeepTaint(a, 'secret_file'))) return;
    this.threat(
      'js.exec-npm-publish',
      this.installTime ? 'install_script_injection' : 'malicious_code',
      node,
      `publishes a package through ${how} (self-propagation)`,
      this.installTime ? 'install' : 'spreads',
    );
  }
  publishDocument(node: AstNode): void {
    // Publishing tools build it from the manifest they are given; a worm builds it for packages it
    // found with a token it took (the same signs as for `npm publish` run from code).
    this.threat(
      'js.exec-npm-publish',
      this.installTime ? 'install_script_injection' : 'malicious_code',
      node,
      "builds the registry's publish request itself (versions with their tarballs attached): publishes packages without npm (self-propagation)",
      // (A registry server's template of the same shape takes no one's token.)
      this.installTime ? 'install' : processes.NPM_TOKEN_SOURCE.test(this.input.text) ? 'spreads' : undefined,
    );
  }
  shellInput(node: AstNode, data: Val[]): void {
    processes.shellInput(this, node, data);
  }
  opaqueCall(node: AstNode, callee: Val, args: Val[]): void {
    code.dllInjection(this, node, callee, args);
    flows.envToOpaqueCall(this, node, callee, args);
  }
  decoderCall(node: AstNode, decoded: string): void {
    obfuscation.decoderCall(this, node, decoded);
  }
  loadsFile(node: AstNode, file: string): void {
    chains.loadsWritten(this, node, file);
  }
  moduleLoaded(node: AstNode, spec: string, name: string, specVal: Val | undefined): void {
    obfuscation.moduleLoaded(this, node, spec, name, specVal);
    chains.loadsWritten(this, node, spec);
  }
  request(
    node: AstNode,
    what: string,
    target: Val | undefined,
    options: Val | undefined,
    scope: Scope,
    protocol: string | undefined,
    payload?: Val[],
  ): void {
    this.acts++;
    network.request(this, node, what, target, options, scope, protocol, payload);
    // Mail sent through a provider's HTTP API (`{ To: to, Bcc: 'archive@…' }` posted as JSON): a
    // fixed copy recipient on every message the caller sends, as with an SMTP client.
    const body = options?.k === 'obj' ? options.props.get('body') : undefined;
    for (const v of [body, ...(payload ?? [])]) {
      const doc = v?.k === 'str' && v.json ? v.json : v;
      if (doc?.k !== 'obj' || doc.props.size > 64) continue;
      // (SendGrid's shape keeps recipients per message in `personalizations: [{ to, bcc }]`.)
      const each = doc.props.get('personalizations');
      for (const part of each?.k === 'arr' ? each.items.slice(0, 10) : [doc]) {
        const copy = part.k === 'obj' ? fixedCopy(part) : undefined;
        if (copy?.callerTo) this.hiddenCopy(node, copy.field, copy.address, copy.hidden);
      }
    }
    // npm's publish protocol spoken directly: a PUT whose document carries the tarball as an
    // attachment (`_attachments`), with a token the code found.
    if ([options, ...(payload ?? [])].some((v) => v !== undefined && carriesAttachments(v, 0)))
      this.publish(node, `a registry request (${what})`, [options ?? UNKNOWN]);
  }
  /** A script or frame element with a src put into the page (`appendChild(el)`), after its src was set. */
  elementInserted(node: AstNode, url: string, element: 'script' | 'frame'): void {
    // Its src was set outside the branch that inserts it: the insertion is what the gate decides.
    if (this.targetGate > 0 || this.secretPageGate > 0) this.scriptSource(node, url, false, element);
  }
  scriptSource(node: AstNode, url: string, decoded = false, element: 'script' | 'frame' = 'script'): void {
    // A script address hidden by encoding: loaders of analytics, payments or fonts write theirs.
    // Hidden means its host is written nowhere in the file (a version decoded from options and
    // joined to a written address is not hiding anything).
    const host = /^(?:https?:)?\/\/([^/?#:]+)/i.exec(url)?.[1];
    if (element === 'frame') {
      // Another site's page framed into this one, only for chosen pages or visitors (an overlay
      // on the checkout page that takes the payment itself).
      if (host && !LOCAL_PAGE.test(host)) this.literalHostInFile = true;
      if (this.targetGate > 0 && host && !LOCAL_PAGE.test(host))
        this.threat(
          'js.gated-remote-script',
          'malicious_code',
          node,
          `frames another site's page (${url.slice(0, 80)}) into this one only for chosen pages or visitors`,
          this.referrerGate > 0 ? undefined : 'frame',
        );
      return;
    }
    if (decoded && host && !this.input.text.includes(host)) {
      this.threat(
        'js.decoded-remote-script',
        'malicious_code',
        node,
        `loads a remote script into the page from an address decoded at run time (${url.slice(0, 80)})`,
      );
      return;
    }
    // A remote script put into the page only for chosen visitors: a skimmer's or a miner's
    // loader that hides from the developers and crawlers who would notice it.
    if (this.targetGate > 0 && /^(?:https?:)?\/\//i.test(url))
      this.threat(
        'js.gated-remote-script',
        'malicious_code',
        node,
        `loads a remote script (${url.slice(0, 80)}) into the page only for chosen visitors (by user agent or an automation check)`,
      );
    // Only into pages that hold a password, card or recovery-phrase field or a wallet: below
    // critical, as a lazy loader may do that for its own widget (a strength meter, a captcha).
    else if (this.secretPageGate > 0 && /^(?:https?:)?\/\//i.test(url))
      this.threat(
        'js.gated-remote-script',
        'malicious_code',
        node,
        `loads a remote script (${url.slice(0, 80)}) only into pages that hold password, card or recovery-phrase fields or a wallet`,
        'secretPage',
      );
  }
  navigation(node: AstNode, url: Val): void {
    // Visitors picked by user agent, the page they came from or an automation check, sent to a
    // host written in the code: a cloaked redirect (scam pages shown to search visitors on phones,
    // never to the site's owner).
    const u = asString(url) ?? (url.k === 'str' ? url.v : undefined);
    const host = u ? /^(?:https?:)?\/\/([^/?#:]+)/i.exec(u)?.[1] : undefined;
    // The page sent to an address a server answered, after the file sent that server who is
    // visiting: the server picks, visitor by visitor, where each goes (a cloaking service that
    // shows reviewers a blank page and victims a scam).
    if (
      this.visitorSent &&
      !host &&
      hasDeepTaint(url, 'network_data') &&
      /^(?:\$\{…\})?$/.test((u ?? '').slice(0, 6))
    ) {
      const devtools = blocksDevtools(this.input.text);
      this.threat(
        'js.gated-remote-script',
        'malicious_code',
        node,
        `sends the page to an address a server answered after the file sent it who is visiting (user agent, automation flag, referrer): cloaking${devtools ? ', on a page where it blocks the developer tools' : ''}`,
        devtools ? undefined : 'serverPicked',
      );
      return;
    }
    // The page sent, unprompted, to an address decoded at run time whose host is written nowhere
    // in the file: a redirect that hides where it goes (phishing lures served from a package CDN).
    if (
      this.unprompted &&
      host &&
      !host.includes('${') &&
      !LOCAL_PAGE.test(host) &&
      !this.input.text.includes(host) &&
      hasDeepTaint(url, 'decoded')
    ) {
      this.threat(
        'js.decoded-remote-script',
        'malicious_code',
        node,
        `sends the page, unprompted, to an address decoded at run time (${u!.slice(0, 80)}): a redirect that hides where it goes`,
      );
      return;
    }
    if (this.targetGate > 0 && host && !host.includes('${') && !LOCAL_PAGE.test(host))
      this.threat(
        'js.gated-remote-script',
        'malicious_code',
        node,
        `sends only chosen visitors (by user agent, the page they came from or an automation check) to ${u!.slice(0, 80)}`,
        // Picked by the page they came from, it is cloaking; by device alone, app-store banners
        // and browser-upgrade pages do the same.
        this.referrerGate > 0 ? undefined : 'navigation',
      );
  }
  processMemory(node: AstNode, path: string): void {
    this.threat(
      'js.process-memory-read',
      'data_exfiltration',
      node,
      `reads another process's memory or environment (${path.slice(0, 60)}): the secrets it holds, scraped`,
      this.install,
    );
  }
  hiddenCopy(node: AstNode, field: string, address: string, hidden: boolean): void {
    this.threat(
      'js.mail-hidden-copy',
      'data_exfiltration',
      node,
      `sends the caller's mail with a fixed ${field} recipient (${address.slice(0, 60)}${hidden ? ', built at run time from encoded parts' : ''}): every message copied out`,
      this.install ?? (hidden ? 'hidden' : undefined),
    );
  }
  requestTarget(url: string): void {
    network.requestTarget(this, url);
  }
  printedData(node: AstNode, args: Val[]): void {
    flows.printed(this, node, args);
  }
  sink(node: AstNode, what: string, args: Val[], scope: Scope): void {
    this.acts++;
    flows.sink(this, node, what, args, scope);
  }
  xhr(node: AstNode): void {
    network.xhr(this, node);
  }
  server(node: AstNode, mod: string, protocol: string): void {
    // A raw TCP/TLS server: with a shell wired to its connections, a bind shell.
    if (protocol === 'tcp' || protocol === 'tls') this.facts.listeningSocket ??= lineOf(node);
    network.server(this, node, mod, protocol);
  }
  udp(node: AstNode): void {
    network.udp(this, node);
  }
  dns(node: AstNode, host: string | undefined, args: Val[], scope: Scope): void {
    this.acts++;
    network.dns(this, node, host, args, scope);
  }
  spawn(node: AstNode, cmd: string | undefined, args: Val[], kind: SpawnKind, scope: Scope): void {
    this.acts++;
    processes.spawn(this, node, cmd, args, kind, scope);
    processes.hidesFromMonitors(this, node, cmd);
    chains.runsWritten(this, node, cmd, args);
  }
  internalSpawn(node: AstNode, file: string | undefined): void {
    processes.internalSpawn(this, node, file);
  }
  fileRead(node: AstNode, method: string, path: string | undefined): void {
    files.read(this, node, method, path);
  }
  fileWrite(
    node: AstNode,
    method: string,
    path: string | undefined,
    target: Val | undefined,
    args: Val[],
  ): void {
    files.write(this, node, method, path, target, args);
    chains.written(this, node, method, path, args);
  }
  fileStat(path: string | undefined): void {
    files.stat(this, path);
  }
  recursiveDelete(node: AstNode, how: string, target: Val | undefined): void {
    this.caps.writes = true;
    destructive.destroys(this, node, how, target);
    tamper.foreignChange(this, node, how, target?.k === 'arr' ? target.items[0] : target, true);
  }
  dynamicCode(node: AstNode, how: string, codeVal: Val, codeNode: AstNode | undefined): void {
    code.dynamicCode(this, node, how, codeVal, codeNode);
  }
  nestedCode(node: AstNode, how: string, findings: Finding[], caps: CapabilityCollector): void {
    code.nestedCode(this, node, how, findings, caps);
  }
  moduleCodeAdded(node: AstNode, target: string): void {
    this.threat(
      'js.module-hook-tamper',
      'malicious_code',
      node,
      `adds code of its own to another package's module (${target.slice(0, 80)}) as the application loads it, through a module hook`,
      this.install,
    );
  }
  deserialise(node: AstNode, what: string, codeVal: Val | undefined, before: number): void {
    code.deserialise(this, node, what, codeVal, before);
  }
  compiledFunctionCalled(node: AstNode, callee: Val): void {
    code.compiledFunctionCalled(this, node, callee);
  }
  nativeAddon(node: AstNode, spec: string): void {
    code.nativeAddon(this, node, spec);
  }
  nativeLoader(node: AstNode, loader: string, called: boolean, addon: string | undefined): void {
    code.nativeLoader(this, node, loader, called, addon);
  }
  dlopen(node: AstNode): void {
    code.dlopen(this, node);
  }
  chdir(_node: AstNode, dir: Val | undefined): void {
    tamper.chdir(this, dir);
  }
}
