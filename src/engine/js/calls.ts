/**
 * Calls, for the evaluator: arguments, `call`/`apply`/`bind`, local functions analysed with the
 * call's arguments (bounded, cached), functions of other package files, array callbacks over
 * known elements, and callbacks given what the API passes them. Calls of modules and globals go
 * to the API models (models/).
 */
import { isFunctionNode, isPageLocation, keyName, lineOf, rangeOf, startOf, useLines } from './ast';
import {
  arrayMethod,
  builtinApi,
  collectionGlobal,
  encodedSecret,
  parseData,
  promiseResolve,
  promiseStatic,
  stringMethod,
} from './builtins';
import { Evaluator, SUPER_CONSTRUCTOR, type FnVal } from './evaluator';
import type { ApiCall, CallbackCall, GlobalCall } from './models/model';
import {
  browserCallbackParams,
  browserGlobal,
  cookieJar,
  pageSecretResult,
  domCallback,
  formActionHijack,
} from './models/browser';
import {
  babelTemplate,
  bundleSource,
  codeApi,
  codeGlobal,
  codeCall,
  compiles,
  dynamicCall,
  postToWorker,
} from './models/code';
import {
  decodeBase64,
  decodeHex,
  decoderApi,
  decoderGlobal,
  mostlyText,
  printable,
  strictBase64,
} from './models/decoders';
import { archiveModuleCall, fsApi, fsCallbackParams } from './models/fs';
import { requestCredentialResult } from './models/server';
import { sessionApi, sessionModuleCall } from './models/sessions';
import { SENSITIVE_PATH } from '../indicators';
import { escapeRegExp } from '../text';
import { PROMPT_PREFILTER } from '../agentic';
import { nativeModuleCall } from './models/code';
import { networkApi, networkCallbackParams, networkGlobal, networkModuleCall } from './models/network';
import { osApi } from './models/os-env';
import { processApi, processCallbackParams, processModuleCall } from './models/process';
import { loadModule } from './modules';
import { bunFileRead, runtimeApi } from './models/runtimes';
import { Scope } from './scope';
import type { EventChannel } from './analyze';
import {
  UNKNOWN,
  asString,
  deepTaints,
  hasDeepTaint,
  eitherOf,
  iterItems,
  MAX_UNROLL,
  str,
  unknown,
  withTaint,
  setterKey,
  TYPED_SECRETS,
  type AstNode,
  type Taint,
  type Val,
} from './values';

const MODULE_LOADER =
  /^(?:process\.mainModule\.)?module\.(?:constructor\.(?:_load|prototype\.require)|require)$|^process\.mainModule\.constructor\._load$/;

/** `a.b['c'].d` as "a.b.c.d", when every part is a plain name or a string literal. */
function dottedName(n: AstNode): string | undefined {
  if (n.type === 'Identifier') return n.name as string;
  if (n.type !== 'MemberExpression') return undefined;
  const obj = dottedName(n.object as AstNode);
  const prop = n.property as AstNode;
  const key = n.computed ? (typeof prop.value === 'string' ? prop.value : undefined) : keyName(prop);
  return obj !== undefined && key !== undefined ? `${obj}.${key}` : undefined;
}

/** The callee's last name is one MODULE_LOADER ends with (tested before building the dotted name). */
function loaderTail(n: AstNode): boolean {
  if (n.type !== 'MemberExpression') return false;
  const prop = n.property as AstNode;
  const key = n.computed ? (typeof prop.value === 'string' ? prop.value : undefined) : keyName(prop);
  return key === '_load' || key === 'require';
}

const LISTEN = new Set(['on', 'once', 'addListener', 'prependListener', 'addEventListener']);

/** The package's named events (shared by its files), or this file's own when analysed alone. */
function channelOf(ev: Evaluator, name: string): EventChannel | undefined {
  const all = ev.input.modules?.channels ?? (ev.ownChannels ??= new Map());
  let c = all.get(name);
  if (!c) {
    if (all.size >= 200) return undefined;
    c = { payloads: [], handlers: [], runsLeft: 64 };
    all.set(name, c);
  }
  return c;
}

/** `new CustomEvent(name, { detail })` / `new Event(name)`: the event, by name, with its detail. */
export function customEvent(c: GlobalCall): Val | undefined {
  if (c.name !== 'CustomEvent' && c.name !== 'Event' && c.name !== 'MessageEvent') return undefined;
  const detail =
    c.args[1]?.k === 'obj' ? (c.args[1].props.get('detail') ?? c.args[1].props.get('data')) : undefined;
  const props = new Map<string, Val>([['type', c.a0 ?? UNKNOWN]]);
  if (detail) props.set(c.name === 'MessageEvent' ? 'data' : 'detail', detail);
  return withTaint({ k: 'obj', props }, detail ? [detail] : []);
}

/**
 * Named events: what is sent (`emit(name, …args)`, `dispatchEvent(event)`) reaches the handlers
 * registered for that name (`on`, `once`, `addListener`, `addEventListener`), in whichever order
 * the two happen. The handlers are still walked as registrations too (with what the API hands
 * them); this adds the runs with what the package itself sends. Code walked but not run stays so
 * on either side.
 */
function eventChannel(
  ev: Evaluator,
  node: AstNode,
  how: string | undefined,
  args: Val[],
  scope: Scope,
  depth: number,
): void {
  if (!how) return;
  const send = how === 'emit' || how === 'dispatchEvent';
  if (!send && !LISTEN.has(how)) return;
  const event = how === 'dispatchEvent' && args[0]?.k === 'obj' ? args[0] : undefined;
  const name = asString(event ? event.props.get('type') : args[0]);
  if (name === undefined || name.includes('${…}')) return;
  const dormant = ev.effects.dormant > 0;
  const deliver = (
    c: EventChannel,
    h: EventChannel['handlers'][number],
    p: EventChannel['payloads'][number],
  ) => {
    if (c.runsLeft <= 0) return;
    c.runsLeft--;
    const quiet = h.dormant || p.dormant;
    if (quiet) ev.effects.dormant++;
    try {
      userCall(ev, h.node, h.fn, p.args, h.scope, h.depth, undefined, false);
    } finally {
      if (quiet) ev.effects.dormant--;
    }
  };
  if (send) {
    const payload = { args: event ? [event] : args.slice(1, 6), dormant };
    if (!payload.args.some((p) => p.k !== 'unknown' || p.t?.size)) return;
    const c = channelOf(ev, name);
    if (!c) return;
    // Kept for handlers registered later (bounded, what carries data first); delivered now to
    // those already registered either way.
    if (c.payloads.length < 4) c.payloads.push(payload);
    else if (payload.args.some((p) => p.t?.size)) {
      const plain = c.payloads.findIndex((p) => !p.args.some((a) => a.t?.size));
      if (plain >= 0) c.payloads[plain] = payload;
    }
    for (const h of c.handlers) deliver(c, h, payload);
    return;
  }
  const fn = args[1];
  if (fn?.k !== 'fn') return;
  const c = channelOf(ev, name);
  if (!c) return;
  // (The same handler registered again: from code that runs, after the walk where it is defined.)
  const known = c.handlers.find((h) => h.fn.node === fn.node);
  if (known) {
    if (known.dormant && !dormant) {
      Object.assign(known, { fn, scope, depth, node, dormant });
      for (const p of c.payloads) deliver(c, known, p);
    }
    return;
  }
  const h = { fn, scope, depth, node, dormant };
  if (c.handlers.length < 8) c.handlers.push(h);
  for (const p of c.payloads) deliver(c, h, p);
}

/**
 * Text decoded at run time, as a call gives it back: a wallet address (or another short constant)
 * is one the file holds; prose is read as text, as a literal would be (hidden that way, it is most
 * often written for a model: a tool result's hidden instructions).
 */
function decodedResult(ev: Evaluator, result: Val, node: AstNode): void {
  if (result.k !== 'str' || !result.t?.has('decoded')) return;
  if (result.v.length >= 26 && result.v.length <= 64) ev.effects.decodedText(result.v, node);
  else if (result.v.length > 64 && !result.v.includes('${…}')) ev.collectString(result.v, node);
}

/** The names a bundle gives its module loader (webpack, and ncc's build of it). */
const BUNDLE_REQUIRE = /^__(?:webpack|nccwpck)_require__$/;

/**
 * A webpack module run as the bundle's loader runs it: its function called once with a module
 * object, its exports and the loader, what it left in `module.exports` cached by id. Run apart
 * from the calls that required it (a bundle's modules nest deeper than local calls are followed),
 * bounded by the module bytes of the bundle (each is walked at most once more).
 */
export function runBundleModule(ev: Evaluator, id: string, scope: Scope, depth: number): Val | undefined {
  const cached = ev.bundleExports.get(id);
  if (cached) return cached;
  const fn = ev.bundleModules.get(id);
  if (!fn) return undefined;
  const exportsObj: Val & { k: 'obj' } = { k: 'obj', props: new Map() };
  const moduleObj: Val & { k: 'obj' } = { k: 'obj', props: new Map<string, Val>([['exports', exportsObj]]) };
  ev.bundleExports.set(id, exportsObj);
  const span = rangeOf(fn.node);
  const size = span ? span[1] - span[0] : 0;
  if (size > ev.bundleBytesLeft || ev.timedOut) return exportsObj;
  ev.bundleBytesLeft -= size;
  const outer = ev.inlineStack.splice(0);
  try {
    ev.walkFunction(fn.node, fn.scope instanceof Scope ? fn.scope : scope, depth + 1, [
      moduleObj,
      exportsObj,
      { k: 'global', name: '__webpack_require__' },
    ]);
  } finally {
    ev.inlineStack.push(...outer);
  }
  const out = moduleObj.props.get('exports') ?? exportsObj;
  ev.bundleExports.set(id, out);
  return out;
}

/** At the end of a bundle: the modules nothing required yet, each run once. */
export function runBundleModules(ev: Evaluator, root: Scope): void {
  for (const id of [...ev.bundleModules.keys()].slice(0, 500)) {
    if (ev.timedOut || ev.bundleBytesLeft <= 0) break;
    if (!ev.bundleExports.has(id)) runBundleModule(ev, id, root, 1);
  }
}

/**
 * `__webpack_require__(id)` of a module in the bundle's map, and `__webpack_require__.d(exports,
 * { name: () => value })` (harmony exports defined as getters).
 */
function bundleRequire(
  ev: Evaluator,
  calleeNode: AstNode,
  callee: Val,
  args: Val[],
  scope: Scope,
  depth: number,
): Val | undefined {
  if (!ev.bundleModules.size) return undefined;
  // (By its name, or by the loader a module run here was handed, whatever a minifier named it.)
  if (
    (calleeNode.type === 'Identifier' && BUNDLE_REQUIRE.test(calleeNode.name as string)) ||
    (callee.k === 'global' && callee.name === '__webpack_require__')
  ) {
    const a = args[0];
    const id = a?.k === 'num' ? String(a.v) : asString(a);
    return id === undefined ? undefined : runBundleModule(ev, id, scope, depth);
  }
  if (
    calleeNode.type === 'MemberExpression' &&
    (calleeNode.object as AstNode).type === 'Identifier' &&
    BUNDLE_REQUIRE.test((calleeNode.object as AstNode).name as string) &&
    keyName(calleeNode.property as AstNode) === 'd' &&
    args[0]?.k === 'obj' &&
    args[1]?.k === 'obj'
  ) {
    for (const [k, g] of args[1].props) if (g.k === 'fn') args[0].props.set(k, { ...g, getter: true });
    return UNKNOWN;
  }
  return undefined;
}

/** Evaluates a call or `new` expression. */
export function evaluateCall(ev: Evaluator, node: AstNode, scope: Scope, depth: number): Val {
  const calleeNode = node.callee as AstNode;
  const isNew = node.type === 'NewExpression';
  ev.lastMemberObj = undefined;
  let callee = ev.walk(calleeNode, scope, depth + 1);
  // `super(…)` in a constructor: the constructor of the class it extends, on the same instance.
  if (calleeNode.type === 'Super' && callee.k === 'obj')
    callee = callee.props.get(SUPER_CONSTRUCTOR) ?? UNKNOWN;
  const memberObj = memberObjOf(ev, calleeNode);
  const argNodes = (node.arguments ?? []) as AstNode[];
  // new Promise((resolve) => … resolve(x)): the promise holds what its executor resolves with,
  // so `.then(v => …)` and `await` see x's taint.
  const executor = argNodes[0];
  if (
    isNew &&
    calleeNode.type === 'Identifier' &&
    calleeNode.name === 'Promise' &&
    executor &&
    isFunctionNode(executor)
  ) {
    const resolved: Val[] = [];
    ev.resolving.push(resolved);
    try {
      ev.walkFunction(executor, scope, depth + 1, [
        { k: 'api', mod: 'promise', path: 'resolve' },
        { k: 'api', mod: 'promise', path: 'reject' },
      ]);
    } finally {
      ev.resolving.pop();
    }
    return resolved.length === 1 ? resolved[0]! : unknown(resolved);
  }
  // Arguments that are functions are walked after we know the callee (to bind callback params).
  const args: Val[] = [];
  for (let i = 0; i < argNodes.length; i++) {
    const a = argNodes[i]!;
    if (isFunctionNode(a)) {
      args.push(ev.fnVal(a, scope));
      continue;
    }
    if (a.type === 'SpreadElement') {
      const v = ev.walk(a.argument as AstNode, scope, depth + 1);
      if (v.k === 'env') ev.effects.envWhole(a);
      // `f(...list)` as the last argument: a known array's elements become the arguments.
      if (v.k === 'arr' && i === argNodes.length - 1) args.push(...v.items.slice(0, 1000));
      else args.push(unknown([v]));
      continue;
    }
    args.push(ev.walk(a, scope, depth + 1));
  }
  if (node.type === 'NewExpression') {
    bundleSource(ev, node, calleeNode, args);
    errorMessage(ev, node, calleeNode, args);
  } else if (calleeNode.type === 'MemberExpression' || calleeNode.type === 'Identifier')
    printed(ev, node, calleeNode, callee, args);
  const bundled = bundleRequire(ev, calleeNode, callee, args, scope, depth);
  if (bundled) return bundled;
  const matched = literalRegexCall(calleeNode, args);
  if (matched) return matched;
  // A loader a bundle hands each module as its `require` parameter (Browserify, UMD and
  // CommonJS wrappers): a package name given to it loads that package (relative names are the
  // bundle's own ids).
  if (
    callee.k === 'unknown' &&
    !callee.t?.size &&
    calleeNode.type === 'Identifier' &&
    /^(?:require|_dereq_|__require)$/.test(calleeNode.name as string)
  ) {
    const spec = asString(args[0]);
    if (spec !== undefined && /^(?:node:)?[@a-z]/i.test(spec)) return loadModule(ev, spec, node, args[0]);
  }
  // Node's module loader reached past `require` through the CommonJS `module` object
  // (`module.constructor._load(name)`, `module.require(name)`): the same as require.
  if (
    callee.k === 'unknown' &&
    !isNew &&
    loaderTail(calleeNode) &&
    MODULE_LOADER.test(dottedName(calleeNode) ?? '')
  ) {
    const name = asString(args[0]);
    if (name !== undefined) return loadModule(ev, name, node, args[0]);
  }
  let effArgs = args;
  // f.call(thisArg, ...args) / f.apply(thisArg, [args]) / f.bind(thisArg, ...args)()
  if (callee.k === 'api' && /\.(?:call|apply|bind)$/.test(callee.path) && !callee.thisFirst) {
    const how = callee.path.slice(callee.path.lastIndexOf('.') + 1);
    const base: Val = { ...callee, path: callee.path.slice(0, callee.path.lastIndexOf('.')) };
    if (how === 'bind') {
      // `Function.prototype.call.bind(fs.rmSync)`: calls fs.rmSync, its first argument `this`.
      const target = args[0];
      if (
        base.mod === 'global:Function' &&
        /^(?:prototype\.)?call$/.test(base.path) &&
        (target?.k === 'api' || target?.k === 'fn' || target?.k === 'global')
      )
        return { ...target, thisFirst: true, ...(args.length > 1 ? { bound: args.slice(1, 10) } : {}) };
      return { ...base, obf: callee.obf, ...(args.length > 1 ? { bound: args.slice(1, 10) } : {}) };
    }
    callee = base;
    // Array methods borrowed for another list (`Array.prototype.push.apply(acc, items)`,
    // `[].push.call(acc, x)`): the list given as `this` is the one they change.
    const arrayMethod = /^(?:prototype\.)?(\w+)$/.exec(base.path)?.[1];
    if (
      arrayMethod &&
      (base.mod === 'array' || (base.mod === 'global:Array' && base.path.startsWith('prototype.'))) &&
      // (or a list not known here that carries data: `[].forEach.call(document.querySelectorAll('input'), …)`)
      (args[0]?.k === 'arr' || (args[0]?.k === 'unknown' && !!args[0].t?.size))
    )
      // (What the list carries goes with what the method gives back: `slice.call(nodeList)`.)
      callee = {
        k: 'api',
        mod: 'array',
        path: arrayMethod,
        base: args[0],
        ...(args[0].t ? { t: args[0].t } : {}),
      };
    effArgs = how === 'call' ? args.slice(1) : spreadArgs(args[1]);
  }
  if (callee.bound?.length) effArgs = [...callee.bound, ...effArgs];
  let thisFirst: Val | undefined;
  if (callee.thisFirst) {
    thisFirst = effArgs[0];
    effArgs = effArgs.slice(1);
  }
  // `call` and `apply` reached as values (`const fromCodes = call.bind(String.fromCharCode.apply,
  // String.fromCharCode, null)`, `call.bind(call, Module._load)`): `Function.prototype.call` with
  // `this` a function calls it; `f.apply` calls f with the list spread (a few hops at most).
  // (`call` or `apply` run with `this` a function call that function, whatever object they were
  // read from: `call.bind(String.fromCharCode.apply, cp.execSync)` runs execSync.)
  for (let hop = 0; hop < 3 && callee.k === 'api' && callee.thisFirst; hop++) {
    const how = /(?:^|\.)(call|apply)$/.exec(callee.path)?.[1];
    const target = thisFirst;
    if (
      !how ||
      !target ||
      (target.k !== 'api' && target.k !== 'fn' && target.k !== 'global' && target.k !== 'mod')
    )
      break;
    thisFirst = effArgs[0];
    effArgs = how === 'call' ? effArgs.slice(1) : spreadArgs(effArgs[1]);
    callee = target;
  }
  // Local functions, methods and classes: analysed with the call's arguments.
  let thisVal = thisFirst ?? memberObj;
  const how =
    calleeNode.type === 'MemberExpression'
      ? keyName(calleeNode.property as AstNode)
      : callee.k === 'api' && callee.mod === 'global:window'
        ? callee.path
        : undefined;
  if (memberObj?.k === 'fn' && (how === 'call' || how === 'apply' || how === 'bind')) {
    // localFn.call(thisArg, ...args) / .apply(thisArg, [args]) / .bind(thisArg)
    if (how === 'bind') return { ...memberObj, self: args[0] };
    thisVal = args[0];
    callee = memberObj;
    effArgs = how === 'call' ? args.slice(1) : spreadArgs(args[1]);
  }
  // A method of an object a condition chose between two classes for (`new (win ? Win : Posix)()`):
  // the other instance's method of that name runs as well.
  const otherInstance = memberObj ? ev.otherInstances.get(memberObj) : undefined;
  if (
    callee.k === 'fn' &&
    !callee.alt &&
    otherInstance &&
    how !== undefined &&
    calleeNode.type === 'MemberExpression'
  ) {
    const other = ev.member(otherInstance, how, calleeNode, scope, false);
    if (other.k === 'fn') callee = { ...callee, alt: { ...other, self: otherInstance } };
  }
  let result =
    callee.k === 'fn'
      ? userCall(ev, node, callee, effArgs, scope, depth, callee.self ?? thisVal, isNew)
      : dispatch(ev, node, callee, effArgs, argNodes, scope, isNew, depth);
  // The other function a condition could have given runs with the same arguments.
  if (callee.k === 'fn' && callee.alt?.k === 'fn') {
    const other = userCall(ev, node, callee.alt, effArgs, scope, depth, callee.alt.self ?? thisVal, isNew);
    if (isNew && result.k === 'obj' && other.k === 'obj' && result !== other)
      ev.otherInstances.set(result, other);
    result = eitherOf(result, other);
  }
  ev.effects.call(node, calleeNode, how, args, memberObj, scope);
  // Page secrets: the fields a skimmer selects and a wallet's secrets in web storage.
  if (callee.k !== 'fn') result = pageSecretResult(calleeNode, how, memberObj, args, result);
  // Web storage written and read back by key in this file: the value read is the value written
  // (data queued in localStorage before it is sent keeps what it carries).
  if (memberObj?.k === 'global' && /^(?:localStorage|sessionStorage)$/.test(memberObj.name)) {
    const key = asString(args[0]);
    if (key !== undefined && how === 'setItem' && args[1] && ev.webStorage.size < 200)
      ev.webStorage.set(`${memberObj.name}:${key}`, args[1]);
    else if (key !== undefined && how === 'getItem') {
      const kept = ev.webStorage.get(`${memberObj.name}:${key}`);
      if (kept) result = eitherOf(kept, result);
    }
  }
  // The credentials of a request a server handles (its cookie jar, its Cookie header).
  if (callee.k !== 'fn') result = requestCredentialResult(calleeNode, how, memberObj, args, result);
  // window.open(url) (or a bare open(url) in a page): the page loads that address.
  if (argNodes.length && isWindowOpen(calleeNode, scope)) {
    ev.effects.request(node, 'window.open', args[0], undefined, scope, undefined);
    if (args[0]) ev.effects.navigation(node, args[0]);
  }
  // location.replace(url) / location.assign(url): the page goes elsewhere.
  if (
    (how === 'replace' || how === 'assign') &&
    args[0] &&
    calleeNode.type === 'MemberExpression' &&
    isPageLocation(ev.input.text, calleeNode.object as AstNode)
  )
    ev.effects.navigation(node, args[0]);
  result = trackedObject(ev, node, callee, how, memberObj, args, isNew, scope, depth, result);
  if (
    how === 'join' &&
    result.k === 'str' &&
    result.v.length >= 80 &&
    /^[\s]*$/.test(asString(args[0]) ?? ',')
  )
    ev.collectString(result.v, node);
  // A zod schema's `.describe(text)`: what an MCP server or an AI SDK hands the model as the
  // tool's parameter description (read by the agent rules as a tool description).
  if (
    how === 'describe' &&
    fromZod(calleeNode, scope) &&
    args[0]?.k === 'str' &&
    args[0].v.length >= 20 &&
    ev.strings.length < 2000
  )
    ev.strings.push({ text: args[0].v.slice(0, 20_000), line: lineOf(node), context: 'tool_description' });
  // `download.pipe(fs.createWriteStream(file))`, `pipeline(download, …, stream)`: the file is
  // written with what the source carries.
  const streamedTo =
    how === 'pipe' && memberObj && args[0]
      ? { stream: args[0], source: [memberObj] }
      : (how ?? (calleeNode.type === 'Identifier' ? calleeNode.name : undefined)) === 'pipeline' &&
          args.length >= 2
        ? (() => {
            const parts = args.filter((a) => a.k !== 'fn');
            return { stream: parts[parts.length - 1]!, source: parts.slice(0, -1) };
          })()
        : undefined;
  // …into a program's stdin: what a shell or Node reads there is what it runs, and what a
  // network program reads there it sends.
  const stdin = streamedTo?.stream.k === 'api' ? streamedTo.stream.path : undefined;
  if (stdin === 'NodeChild.stdin' && streamedTo!.source.length === 1)
    compiles(ev, node, 'node reading its program from stdin', streamedTo!.source[0], undefined);
  else if (stdin === 'ShellChild.stdin') ev.effects.shellInput(node, streamedTo!.source);
  else if (stdin === 'NetworkChild.stdin')
    ev.effects.sink(node, 'stdin of a network program', streamedTo!.source, scope);
  const file = streamedTo && ev.writeStreams.get(streamedTo.stream);
  if (file)
    ev.effects.fileWrite(node, 'writeFile', file.path, file.pathVal, [
      file.pathVal,
      { k: 'unknown', t: new Set(streamedTo.source.flatMap((v) => [...deepTaints(v)])) },
    ]);
  // A script or frame element given its src earlier, put into the page now.
  if (
    how &&
    /^(?:appendChild|append|prepend|insertBefore|after|before|replaceWith|replaceChildren)$/.test(how)
  )
    for (const a of args.slice(0, 2)) {
      const url = ev.elementSrc.get(a);
      if (url !== undefined)
        ev.effects.elementInserted(node, url, a.k === 'api' && a.path === 'frame' ? 'frame' : 'script');
    }
  // A credential file or folder added to an archive being built (adm-zip addLocalFolder, archiver
  // directory/file, a zip's addFile): the archive holds it from then on.
  if (
    how &&
    /^(?:addLocalFolder|addLocalFile|addLocalFolderAsync|directory|file|glob)$/.test(how) &&
    memberObj?.k === 'mod' &&
    args.some((a) => {
      const p = asString(a) ?? (a.k === 'str' ? a.v : undefined);
      return (p !== undefined && SENSITIVE_PATH.test(p)) || a.t?.has('secret_path');
    })
  )
    (memberObj.t ??= new Set()).add('secret_file');
  // What such an archive gives back (`zip.toBuffer()`, `archive.pipe(…)`) carries it.
  else if (
    memberObj?.k === 'mod' &&
    memberObj.t?.has('secret_file') &&
    result.k === 'unknown' &&
    !result.t?.has('secret_file')
  )
    result = withTaint({ ...result }, [result], 'secret_file');
  // form.setAttribute('action', url), jQuery's $(form).attr('action', url) / .prop(…).
  if (
    (how === 'setAttribute' || how === 'attr' || how === 'prop') &&
    memberObj &&
    args[1] &&
    asString(args[0])?.toLowerCase() === 'action'
  )
    formActionHijack(ev, node, memberObj, args[1], scope);
  // A wallet's balance read from its provider (`provider.getBalance(a)`, `request({ method:
  // 'eth_getBalance' })`): what a drainer sends on.
  if (
    callee.k !== 'fn' &&
    (how === 'getBalance' ||
      (how === 'request' &&
        args[0]?.k === 'obj' &&
        asString(args[0].props.get('method')) === 'eth_getBalance'))
  )
    result = withTaint({ ...result }, [result], 'wallet_balance');
  decodedResult(ev, result, node);
  // HTML a call builds (`wrap('script', lines.join('\n'))`): inline page code in it is read as such.
  if (result.k === 'str' && result.v.length > 60 && result.v.includes('<') && /<script/i.test(result.v))
    ev.htmlScriptTag(node, result.v, []);
  // A tool's own name for the working directory (`program.getCurrentDirectory()` of the
  // TypeScript compiler API, `host.getCwd()`): the project being built, like process.cwd().
  if (
    callee.k !== 'fn' &&
    how !== undefined &&
    /^(?:getCurrentDirectory|getCwd|getCurrentWorkingDirectory)$/.test(how)
  )
    result = withTaint({ ...result }, [result], 'cwd');
  // arr.forEach / map / filter / … over known elements: the callback runs once per element.
  let iterated = false;
  if (
    callee.k === 'api' &&
    callee.mod === 'array' &&
    callee.base &&
    effArgs[0]?.k === 'fn' &&
    /^(?:forEach|map|filter|some|every|find|findIndex|flatMap|reduce)$/.test(callee.path)
  ) {
    const fn = effArgs[0];
    // (`[].forEach.call(list, fn)`: the callback is the argument after the list.)
    const fnNode = effArgs === args ? argNodes[0] : argNodes[1];
    // A one-expression arrow (`(s, b) => s + String.fromCharCode(parseInt(b, 16))`) is cheap to
    // walk: it goes over longer lists (an address of 40 hex pairs), charged a sixteenth a turn.
    // (So is a block of one statement: `(b, i) => { buf[i] = b ^ key[i % n]; }`.)
    const fnBody = fnNode?.body as AstNode | undefined;
    const span =
      fnNode &&
      (fnNode.type === 'ArrowFunctionExpression' || fnNode.type === 'FunctionExpression') &&
      (fnBody?.type !== 'BlockStatement' || ((fnBody.body ?? []) as AstNode[]).length <= 1)
        ? rangeOf(fnNode)
        : undefined;
    const cheap = !!span && span[1] - span[0] <= 160;
    const items = iterItems(callee.base, cheap ? 512 : MAX_UNROLL);
    // An empty array here may stand for data not known (`hex.match(re) || []`): its callback is
    // then walked below like any other, with the array's taint on its element.
    if (items && items.length && ev.unroll(cheap ? Math.ceil(items.length / 16) : items.length)) {
      iterated = true;
      const outs: Val[] = [];
      let acc: Val = effArgs[1] ?? UNKNOWN;
      // A list that carries data as a whole (`(host + '.zone').split('.')`) gives it to each item.
      const listTaint = callee.base.t?.size ? callee.base : undefined;
      // (A cheap callback's turns are charged to the unroll budget, not to the budget of the call
      // analysed with its arguments that runs this, as a replacer's are.)
      const steps0 = ev.steps;
      const loop0 = ev.loopSteps;
      items.forEach((known, i) => {
        const item = listTaint && known.k !== 'fn' ? withTaint({ ...known }, [listTaint]) : known;
        const pair =
          callee.base!.k === 'arr' && callee.base!.map && item.k === 'arr' ? item.items : undefined;
        const params: Val[] =
          callee.path === 'reduce'
            ? [acc, item, { k: 'num', v: i }]
            : pair && callee.path === 'forEach'
              ? [pair[1] ?? UNKNOWN, pair[0] ?? UNKNOWN, callee.base!]
              : [item, { k: 'num', v: i }, callee.base!];
        const out =
          fnNode && isFunctionNode(fnNode)
            ? ev.walkFunction(fn.node, scope, depth + 1, params)
            : userCall(ev, node, fn, params, scope, depth, undefined, false);
        acc = out;
        outs.push(out);
      });
      if (cheap) ev.loopSteps = loop0 + (ev.steps - steps0);
      // (What each turn decoded: `list.map(unhex)`, a reduce that builds a text.)
      for (const o of callee.path === 'reduce' ? [acc] : outs.slice(0, 64)) decodedResult(ev, o, node);
      if (callee.path === 'map') return { k: 'arr', items: outs };
      if (callee.path === 'flatMap')
        return { k: 'arr', items: outs.flatMap((o) => (o.k === 'arr' ? o.items : [o])).slice(0, 10_000) };
      if (callee.path === 'filter') return callee.base.k === 'arr' ? callee.base : { k: 'arr', items };
      if (callee.path === 'reduce') return acc;
      // A search whose test gave a known answer for every item: the item (or index) it finds.
      const hit = outs.every((o) => o.k === 'bool')
        ? outs.findIndex((o) => o.k === 'bool' && o.v)
        : undefined;
      if (callee.path === 'findIndex') return hit === undefined ? UNKNOWN : { k: 'num', v: hit };
      if (callee.path === 'find')
        return hit === undefined ? (items[0] ?? UNKNOWN) : hit < 0 ? UNKNOWN : (items[hit] ?? UNKNOWN);
      return UNKNOWN;
    }
  }
  // promise.then(eval) / .then(Function): the settled value is compiled as code.
  if (
    how === 'then' &&
    memberObj &&
    args[0]?.k === 'global' &&
    (args[0].name === 'eval' || args[0].name === 'Function')
  )
    compiles(ev, node, args[0].name, withTaint({ k: 'unknown' }, [memberObj]), argNodes[0]);
  ev.effects.opaqueCall(node, callee, effArgs);
  // MCP servers: server.tool(name, description, ...) / registerTool(name, { description }) — descriptions are read by agents.
  if (
    calleeNode.type === 'MemberExpression' &&
    /^(?:tool|registerTool|addTool|prompt|registerPrompt)$/.test(
      keyName(calleeNode.property as AstNode) ?? '',
    )
  ) {
    effArgs.forEach((a, i) => {
      if (a.k === 'str' && a.v.length >= 20 && ev.strings.length < 2000) {
        ev.strings.push({
          text: a.v.slice(0, 20_000),
          line: lineOf(argNodes[i]),
          context: 'tool_description',
        });
      }
    });
  }
  codeCall(ev, node, calleeNode, callee, effArgs, argNodes);
  // Walk callback arguments, giving their parameters what the API passes them.
  let iteratedReturn: Val | undefined;
  let settledNext: Val | undefined;
  // `[].forEach.call(list, fn)`: the borrowed method goes over the list given as `this`.
  const borrowed =
    effArgs !== args && callee.k === 'api' && callee.mod === 'array' && callee.base
      ? (fnIndex: number) => (fnIndex === 1 ? taintedElements(callee.path, callee.base) : undefined)
      : () => undefined;
  // (An emitter made here has its own model, in trackedObject.)
  if (!memberObj || !ev.emitters.has(memberObj)) eventChannel(ev, node, how, args, scope, depth);
  argNodes.forEach((a, i) => {
    // A named function handed to a timer or an event registration runs later: walk it again
    // with what the program has built by then (a keylogger's buffer flushed by setInterval).
    const later =
      (calleeNode.type === 'Identifier' &&
        /^(?:setInterval|setTimeout|setImmediate|queueMicrotask|requestIdleCallback)$/.test(
          calleeNode.name as string,
        )) ||
      (how !== undefined &&
        /^(?:setInterval|setTimeout|setImmediate|nextTick|addEventListener|on|once)$/.test(how));
    // Once where the registering code is defined, and once more when it runs (a helper's body
    // walked with its closure not known yet registers the handler again later).
    const fresh =
      args[i]?.k === 'fn' &&
      (!ev.rewalked.has(args[i].node) ||
        (ev.effects.dormant === 0 && !ev.rewalkedLive.has(args[i].node)) ||
        newClosure(ev, args[i]));
    // (A handler registered for several events, each handing it what the model says: walked once
    // more for an event that hands it data, `change` after `pointerdown`; a few events at most.)
    const handler = args[i]?.k === 'fn' ? args[i].node : undefined;
    // (Counted apart in code that runs and in code walked where it is defined.)
    const type =
      later && handler && a.type === 'Identifier' && how === 'addEventListener'
        ? asString(args[0])
        : undefined;
    // (Per closure too: registered again by a call that gave the closure new values.)
    const closure = handler ? closureIndex(ev, args[i] as FnVal) : 0;
    const event =
      type !== undefined
        ? `${ev.effects.dormant === 0 ? 'live' : 'dormant'}:${type}${closure ? `@${closure}` : ''}`
        : undefined;
    const events = event !== undefined ? ev.handlerEvents.get(handler!) : undefined;
    const eventParams =
      event !== undefined && !events?.has(event) && (events?.size ?? 0) < 16
        ? callbackParams({ callee, result, args, method: how, messages: ev.input.messages })
        : undefined;
    if (event !== undefined) ev.handlerEvents.set(handler!, (events ?? new Set()).add(event));
    const newData = !fresh && !!eventParams?.some((p) => hasDeepTaint(p));
    if (later && a.type === 'Identifier' && (fresh || newData)) {
      const fn = args[i] as FnVal;
      ev.rewalked.add(fn.node);
      walkedInClosure(ev, fn);
      if (ev.effects.dormant === 0) ev.rewalkedLive.add(fn.node);
      const params =
        eventParams ??
        callbackParams({ callee, result, args, method: how, messages: ev.input.messages }) ??
        [];
      // It runs from the event loop, not inside the calls that registered it: the nesting limit
      // on calls starts again for it (a handler set in a helper of a helper of the entry).
      const registering = ev.inlineStack.splice(0);
      try {
        userCall(ev, node, fn, params, scope, depth, undefined, false);
      } finally {
        ev.inlineStack.push(...registering);
      }
      // It runs again after the file's top-level code, with what that code left behind.
      if (ev.deferred.length < 64)
        ev.deferred.push({ node, fn, params, scope, depth, dormant: ev.effects.dormant });
      return;
    }
    // A named handler given to an API that calls it with data it carries (`app.post('/x',
    // handler)` hands it the request): walked with that data, as a handler written in place is.
    if (a.type === 'Identifier' && args[i]?.k === 'fn' && fresh && how !== 'then') {
      // (What the network model hands a handler: a route's request, a socket's messages.)
      const given = networkCallbackParams({ callee, result, args, method: how });
      if (given?.some((p) => p.t?.size)) {
        const fn = args[i] as FnVal;
        ev.rewalked.add(fn.node);
        walkedInClosure(ev, fn);
        if (ev.effects.dormant === 0) ev.rewalkedLive.add(fn.node);
        const onUser = !callsBackUnprompted(ev, callee, how, memberObj, calleeNode);
        if (onUser) ev.effects.dormant++;
        try {
          userCall(ev, node, fn, given, scope, depth, undefined, false);
        } finally {
          if (onUser) ev.effects.dormant--;
        }
        return;
      }
    }
    // A named function handed to forEach/map over a collection whose items are not known but
    // tainted (`document.querySelectorAll('form').forEach(hook)`): each item carries the taint.
    if (a.type === 'Identifier' && args[i]?.k === 'fn' && !ev.rewalked.has(args[i].node)) {
      // `load().then(run)`: a named function given what the promise settles with (once).
      if (how === 'then' && i === 0 && memberObj) {
        const settledWith =
          memberObj.k !== 'unknown' && memberObj.k !== 'net'
            ? [memberObj]
            : (callbackParams({ callee, result, args, method: how, messages: ev.input.messages }) ??
              (memberObj.t?.size ? [memberObj] : undefined));
        if (settledWith) {
          const fn = args[i] as FnVal;
          ev.rewalked.add(fn.node);
          settledNext = userCall(ev, node, fn, settledWith, scope, depth, undefined, false);
        }
        return;
      }
      const items = (i === 0 ? taintedElements(how, memberObj) : undefined) ?? borrowed(i);
      if (items) {
        const fn = args[i] as FnVal;
        ev.rewalked.add(fn.node);
        userCall(ev, node, fn, items, scope, depth, undefined, false);
      }
      return;
    }
    if (!isFunctionNode(a)) return;
    if (iterated && i === 0) return;
    // value.then(v => …) on a value we know (what a local async function returned): v is it.
    // (An unknown value counts when it carries data: a promise of a credential file's contents.)
    const settled =
      how === 'then' &&
      i === 0 &&
      memberObj &&
      memberObj.k !== 'net' &&
      (memberObj.k !== 'unknown' || memberObj.t?.size)
        ? [memberObj]
        : undefined;
    const fromModel =
      settled ?? callbackParams({ callee, result, args, method: how, messages: ev.input.messages });
    let params = fromModel ?? taintedElements(how, memberObj) ?? borrowed(i);
    // reduce over items not known: the accumulator starts as the initial value given.
    if (!fromModel && how === 'reduce' && i === 0) params = [args[1] ?? UNKNOWN, params?.[1] ?? UNKNOWN];
    // A handler of what the page's user does (a click, a key, a submitted form) runs when they
    // act, not unprompted.
    const onUserAction =
      ((how === 'addEventListener' || how === 'on' || how === 'once') &&
        USER_ACTION.test(asString(args[0]) ?? '')) ||
      !callsBackUnprompted(ev, callee, how, memberObj, calleeNode);
    if (onUserAction) ev.effects.dormant++;
    // A handler of a stream of events, or an interval, runs many times.
    const repeats =
      (how !== undefined && how !== 'once' && LISTEN.has(how)) ||
      how === 'setInterval' ||
      (calleeNode.type === 'Identifier' && calleeNode.name === 'setInterval');
    if (repeats) {
      ev.repeating++;
      // (Only handlers whose text steps something: most never do, and are not read twice.)
      const span = rangeOf(a);
      const body = span ? ev.input.text.slice(span[0], Math.min(span[1], span[0] + 20_000)) : '';
      if (/\+\+|--|[-+*]=|(\b[\w$]+)\s*=\s*\1\s*[-+]/.test(body)) forgetCounters(a, scope);
    }
    let ret: Val;
    try {
      ret = ev.walkFunction(a, scope, depth + 1, params, domCallback(how, args));
    } finally {
      if (onUserAction) ev.effects.dormant--;
      if (repeats) ev.repeating--;
    }
    // `keys.map(k => process.env[k])`, `keys.reduce((acc, k) => …, {})` over items not known:
    // what the callback returns (or accumulates) is what the call returns.
    if (i === 0 && how && /^(?:map|flatMap|reduce|find)$/.test(how)) iteratedReturn = ret;
    if (i === 0 && how === 'then') settledNext = ret;
  });
  // `p.then(() => ({ host: os.hostname() })).then((info) => post(info))`: the promise `then` gives
  // back settles with what its callback returned, handed to the next callback in the chain.
  if (settledNext && (settledNext.k !== 'unknown' || settledNext.t?.size)) return settledNext;
  // (What each turn returned, taken as a whole: `keys.map((k) => [k, process.env[k]])` gives pairs
  // whose second item is the secret.)
  if (iteratedReturn && hasDeepTaint(iteratedReturn))
    return withTaint({ ...result }, [{ k: 'unknown', t: deepTaints(iteratedReturn) }], undefined);
  // `entries.filter(…)`, `list.slice(1)`, `.sort()`: part of a collection whose elements are not
  // known keeps the collection's taint (the environment's entries filtered by name).
  if (how && memberObj && SUBSET_METHOD.test(how) && !hasDeepTaint(result)) {
    const t = deepTaints(memberObj);
    if (t.size) return { ...result, t };
  }
  return result;
}

/**
 * `chunks.forEach(c => …)` over a collection whose items are not known but whose data is tainted
 * (a key file's hex cut into pieces by a regular expression): each element carries the taint.
 */
function taintedElements(how: string | undefined, collection: Val | undefined): Val[] | undefined {
  if (!how || !collection || !/^(?:forEach|map|flatMap|filter|some|every|find|findIndex|reduce)$/.test(how))
    return undefined;
  const t = deepTaints(collection);
  // The names of the environment's variables: each read back from it (`process.env[k]`) is the
  // whole environment; the names alone are not.
  if (collection.k === 'keys' && collection.of.k === 'env') t.add('env_key');
  if (!t.size) return undefined;
  const item: Val = { k: 'unknown', t };
  return how === 'reduce' ? [UNKNOWN, item] : [item];
}

/** Node's own modules and the page's globals: what they call back, they call without a user asking. */
const RUNTIME_MODULE =
  /^(?:fs|fs\/promises|http|https|http2|net|tls|dgram|dns|child_process|zlib|stream|readline|events|crypto|os|util|worker_threads|process|netobj|domscript|cookiejar|promise|array|ws|global:.*)$/;

/**
 * A plugin a build, lint or test tool loads (see JsFileInput.hostCalls): its export called as the
 * tool calls it, as code that runs when the tool does, not walked where it is defined. A factory
 * is called with options not known here and the hooks of the plugin object it returns are called
 * (and those of the objects inside it: an ESLint plugin's `rules.x.create`); a class is made and
 * its methods called (a webpack plugin's `apply`, a test environment's `setup`). Bounded.
 */
export function callAsHost(ev: Evaluator, root: Scope): void {
  let left = 40;
  // (A Babel plugin is called with Babel's API: its `template` and `types`.)
  const babel =
    /(?:^|\/)babel-(?:plugin|preset)-|^@babel\//.test(ev.input.modules?.packageName ?? '') ||
    /['"`]@babel\/(?:helper-plugin-utils|core)['"`]/.test(ev.input.text.slice(0, 200_000));
  const api: Val = babel
    ? {
        k: 'obj',
        props: new Map<string, Val>([
          ['template', { k: 'mod', name: '@babel/template' }],
          ['types', { k: 'mod', name: '@babel/types' }],
        ]),
      }
    : UNKNOWN;
  const args = (): Val[] => [api, UNKNOWN, UNKNOWN];
  const call = (fn: FnVal, self?: Val, isNew = false): Val =>
    userCall(ev, fn.node, fn, args(), fn.scope instanceof Scope ? fn.scope : root, 1, self, isNew);
  const hooks = (obj: Val | undefined, level: number): void => {
    if (obj?.k !== 'obj' || level > 2) return;
    for (const v of [...obj.props.values()].slice(0, 24)) {
      if (left <= 0 || ev.timedOut) return;
      if (v.k === 'fn' && !v.getter) {
        left--;
        made(v, call(v, obj, isClass(v.node)), level + 1);
      } else if (v.k === 'obj') hooks(v, level + 1);
    }
  };
  /** What a call gave: a plugin object's hooks, or a class's methods on the instance made. */
  const made = (fn: FnVal, result: Val, level: number): void => {
    if (!isClass(fn.node)) return hooks(result, level);
    const body = ((fn.node.body as AstNode | undefined)?.body ?? []) as AstNode[];
    for (const m of body.slice(0, 24)) {
      if (left <= 0 || ev.timedOut) return;
      if ((m.type !== 'MethodDefinition' && m.type !== 'ClassMethod') || m.kind !== 'method' || m.static)
        continue;
      left--;
      const method = ev.fnVal(
        m.type === 'ClassMethod' ? m : (m.value as AstNode),
        fn.scope instanceof Scope ? fn.scope : root,
        result,
      );
      call(method, result);
    }
  };
  const exported = ev.exportsValue();
  const fallback = exported.k === 'obj' ? exported.props.get('default') : undefined;
  ev.effects.hostRun++;
  try {
    for (const target of fallback && fallback !== exported ? [exported, fallback] : [exported]) {
      if (left <= 0 || ev.timedOut) return;
      if (target.k === 'fn') {
        left--;
        made(target, call(target, undefined, isClass(target.node)), 0);
      } else hooks(target, 0);
    }
  } finally {
    ev.effects.hostRun--;
  }
}

function isClass(n: AstNode): boolean {
  return n.type === 'ClassDeclaration' || n.type === 'ClassExpression';
}

/**
 * The call a function value was made in: the scope of the function around its definition (the
 * turns of a loop in one call share it), or the file's top level.
 */
function closureOf(fn: FnVal): Scope | undefined {
  let s = fn.scope instanceof Scope ? fn.scope : undefined;
  while (s?.parent && !s.returns) s = s.parent;
  return s;
}

/** A handler registered in a closure it was not walked in yet (see Evaluator.rewalkedClosures). */
function newClosure(ev: Evaluator, fn: FnVal): boolean {
  const seen = ev.rewalkedClosures.get(fn.node);
  const closure = closureOf(fn);
  return !!closure && !!seen && seen.length < 3 && !seen.includes(closure);
}

/** Which of its closures a handler is registered in: the index it has, or will have, in rewalkedClosures. */
function closureIndex(ev: Evaluator, fn: FnVal): number {
  const seen = ev.rewalkedClosures.get(fn.node);
  if (!seen) return 0;
  const i = seen.indexOf(closureOf(fn)!);
  return i >= 0 ? i : Math.min(seen.length, 3);
}

function walkedInClosure(ev: Evaluator, fn: FnVal): void {
  const closure = closureOf(fn);
  if (!closure) return;
  const seen = ev.rewalkedClosures.get(fn.node);
  if (!seen) ev.rewalkedClosures.set(fn.node, [closure]);
  else if (!seen.includes(closure) && seen.length < 3) seen.push(closure);
}

/**
 * Whether a callback given to this call runs without anyone calling the package: timers, promise
 * and array methods, Node's modules and the page's globals (a socket's `data`, a response's `end`,
 * `window`'s `load`). A callback handed to anything else (a CLI framework's `.action(fn)`, a web
 * framework's route, a jQuery `.click(fn)`) runs when its user asks.
 */
function callsBackUnprompted(
  ev: Evaluator,
  callee: Val,
  how: string | undefined,
  memberObj: Val | undefined,
  calleeNode: AstNode,
): boolean {
  if (
    how &&
    /^(?:then|catch|finally|forEach|map|flatMap|filter|reduce|reduceRight|some|every|find|findIndex|findLast|sort|setTimeout|setInterval|setImmediate|queueMicrotask|nextTick|requestAnimationFrame|requestIdleCallback)$/.test(
      how,
    )
  )
    return true;
  if (calleeNode.type === 'Identifier') return true;
  if (callee.k === 'api') return RUNTIME_MODULE.test(callee.mod);
  // An object that carries data (a stream of a file read, a response): its events come when the
  // data does (`fs.createReadStream(f).on('data', …)` through a chain of calls).
  if (memberObj?.t?.size) return true;
  if (memberObj?.k === 'net' || memberObj?.k === 'global' || memberObj?.k === 'arr') return true;
  // A file stream the code opened (`fs.createWriteStream(f).on('finish', …)`): Node calls it
  // when the write is done.
  if (memberObj && ev.writeStreams.has(memberObj)) return true;
  return false;
}

/** Events the page's user causes: what their handlers do happens because the user acted. */
const USER_ACTION =
  /^(?:click|dblclick|auxclick|contextmenu|mousedown|mouseup|pointerdown|pointerup|touchstart|touchend|keydown|keypress|keyup|submit|change|input|paste|copy|cut|drop)$/;

function memberObjOf(ev: Evaluator, calleeNode: AstNode): Val | undefined {
  let c = calleeNode;
  while (c.type === 'ChainExpression' || c.type === 'ParenthesizedExpression') c = c.expression as AstNode;
  return c.type === 'MemberExpression' || c.type === 'OptionalMemberExpression'
    ? ev.lastMemberObj
    : undefined;
}

/** What the parameters of a callback handed to an API receive. */
function callbackParams(c: CallbackCall): Val[] | undefined {
  // Timers and the tick queue call the function with the arguments given after it (and after
  // the delay): `setImmediate(sweep, os.homedir())`.
  const timer =
    c.callee.k === 'global'
      ? c.callee.name
      : c.callee.k === 'api' && (c.callee.mod === 'process' || c.callee.mod === 'timers')
        ? c.callee.path
        : undefined;
  const skip =
    timer === 'setImmediate' || timer === 'nextTick'
      ? 1
      : timer === 'setTimeout' || timer === 'setInterval'
        ? 2
        : 0;
  if (skip && c.args.length > skip) return c.args.slice(skip, skip + 20);
  // A page worker's `message` events carry what the page posts to it.
  if (c.messages && c.method === 'addEventListener' && asString(c.args[0]) === 'message')
    return [{ k: 'obj', props: new Map([['data', c.messages]]) }];
  const fromModel =
    fsCallbackParams(c) ?? networkCallbackParams(c) ?? browserCallbackParams(c) ?? processCallbackParams(c);
  if (fromModel) return fromModel;
  // Methods of tainted objects hand their taint to callbacks (res.on('data', chunk => ...)).
  if (c.callee.t?.size) return [unknown([c.callee]), unknown([c.callee])];
  return undefined;
}

/** The pattern and flags of a regular expression literal (meriyah and Babel shapes). */
function regexLiteral(n: AstNode | undefined): { pattern: string; flags: string } | undefined {
  if (!n) return undefined;
  const rx = n.regex as { pattern?: string; flags?: string } | undefined;
  if (n.type === 'Literal' && typeof rx?.pattern === 'string')
    return { pattern: rx.pattern, flags: rx.flags ?? '' };
  if (n.type === 'RegExpLiteral' && typeof n.pattern === 'string')
    return { pattern: n.pattern, flags: (n.flags as string | undefined) ?? '' };
  return undefined;
}

/**
 * A package's own regular expression, compiled only where it cannot backtrack badly on the text
 * it is given: no backreferences or quantified groups, and the more open-ended quantifiers it has
 * the shorter the text (a hostile pattern must not stall the scan).
 */
export function safePackageRegex(pattern: string, flags: string, textLength: number): RegExp | undefined {
  if (pattern.length > 200 || !/^[gimsuy]*$/.test(flags)) return undefined;
  if (/\\[1-9]|\\k<|\)(?:[*+?]|\{\d)/.test(pattern)) return undefined;
  // Backtracking is bounded by the text's length to the power of one more than the repeats
  // (`*`, `+`, bounds: a large one, `{0,2500}`, backtracks like an open one), times two per
  // optional character (`\r?`: forty `.?` in a row backtrack exponentially). A lazy `*?` is one
  // repeat; a group's `(?` is none. Patterns whose bound passes 5·10⁷ steps, with four repeats
  // or more, or with more than three optional characters, are not run.
  const body = pattern.replace(/\\./g, '');
  const optional = (body.match(/(?<![(*+?}])\?/g) ?? []).length;
  const open = (body.match(/[*+]|\{\d+,\d*\}/g) ?? []).length;
  if (open > 3 || optional > 3 || textLength > 200_000 || 2 ** optional * textLength ** (open + 1) > 5e7)
    return undefined;
  try {
    return new RegExp(pattern, flags);
  } catch {
    return undefined;
  }
}

/**
 * `JSON.parse(text)` / `YAML.parse(text)` of known text; when the text was decoded here (a
 * base64 blob, reversed), wallet addresses in the document are fixed addresses of the file, as
 * written ones are (an address pool kept encoded).
 */
function parsedData(ev: Evaluator, c: ApiCall): Val | undefined {
  const v = parseData(c);
  if (!v || !c.a0?.t?.has('decoded')) return v;
  let seen = 0;
  const visit = (x: Val, depth: number): void => {
    if (++seen > 500 || depth > 4) return;
    if (x.k === 'str') ev.effects.recipientValue(x.v, c.node);
    else if (x.k === 'arr') for (const i of x.items) visit(i, depth + 1);
    else if (x.k === 'obj') for (const p of x.props.values()) visit(p, depth + 1);
  };
  visit(v, 0);
  return v;
}

/**
 * `text.match(re)` / `text.matchAll(re)` / `text.split(re)` of a known text with the package's own
 * regular expression (compiled only when safe, as for replace): the pieces (`hex.match(/../g)` cuts
 * an encoded address into bytes).
 */
function stringMatch(c: ApiCall): Val | undefined {
  const s = asString(c.callee.base);
  if (s === undefined || s.length > 200_000) return undefined;
  const rx = regexLiteral(c.argNodes[0]);
  const re = rx ? safePackageRegex(rx.pattern, rx.flags, s.length) : undefined;
  if (!re) return undefined;
  // (No match: `null` here, or a text not fully known; what the text carried stays.)
  const from = [c.callee, ...(c.callee.base ? [c.callee.base] : []), ...c.args];
  const strs = (xs: readonly (string | undefined)[]): Val => ({
    k: 'arr',
    items: xs.map((x): Val => (x === undefined ? UNKNOWN : { k: 'str', v: x })),
  });
  if (c.method === 'split') return withTaint(strs(s.split(re, 10_000)), from);
  if (c.method === 'match' && !re.global) {
    const m = re.exec(s);
    return m ? withTaint(strs([...m]), from) : { ...unknown(from), absent: wholeText(c.callee.base) };
  }
  if (!re.global) return undefined;
  const found: RegExpExecArray[] = [];
  for (const m of s.matchAll(re)) if (found.push(m) >= 10_000) break;
  if (c.method === 'match')
    return found.length ? withTaint(strs(found.map((m) => m[0])), from) : unknown(from);
  return withTaint({ k: 'arr', items: found.map((m) => strs([...m])) }, from);
}

/**
 * A text known whole here (no part left unknown, no other value a condition could give, no
 * environment variable stood in by its name: `$LANG` is what the machine has, not those letters).
 */
function wholeText(v: Val | undefined): boolean {
  return v?.k === 'str' && !v.alt && !v.v.includes('${…}') && !/\$[A-Za-z_]/.test(v.v);
}

/**
 * `/<metadata>([^<]+)</.exec(text)` / `.test(text)`: the package's own regular expression literal
 * on a known text, as `text.match(re)` (what an asset or config file of the package keeps is
 * picked out of it this way).
 */
function literalRegexCall(calleeNode: AstNode, args: Val[]): Val | undefined {
  if (calleeNode.type !== 'MemberExpression' || calleeNode.computed) return undefined;
  const method = (calleeNode.property as AstNode).name;
  if (method !== 'exec' && method !== 'test') return undefined;
  const rx = regexLiteral(calleeNode.object as AstNode);
  // `/(?:^|; )sid=([^;]*)/.exec(document.cookie)`: one cookie picked by name, as
  // `document.cookie.match(re)` picks it (the jar whole is what a skimmer takes).
  if (rx && args[0]?.k === 'api' && args[0].mod === 'cookiejar') return UNKNOWN;
  const s = asString(args[0]);
  if (!rx || s === undefined || s.length > 200_000) return undefined;
  // (A literal's first `exec` starts at 0 whatever its flags.)
  const re = safePackageRegex(rx.pattern, rx.flags.replace(/[gy]/g, ''), s.length);
  if (!re) return undefined;
  const m = re.exec(s);
  // (Text with parts not known here: a match is certain, a miss is not.)
  if (method === 'test')
    return m !== null || wholeText(args[0]) ? { k: 'bool', v: m !== null } : unknown(args);
  return m
    ? withTaint(
        { k: 'arr', items: [...m].map((x): Val => (x === undefined ? UNKNOWN : { k: 'str', v: x })) },
        args,
      )
    : { ...unknown(args), absent: wholeText(args[0]) };
}

/**
 * `s.replace(/\^/g, '')`, `s.replace(/[a-z]/gi, (c) => '^' + c)`, `hex.replace(/../g, (h) =>
 * String.fromCharCode(parseInt(h, 16)))`: names and commands built by rewriting a known string,
 * with a regular expression or a function called per match (walked with the match, its groups,
 * offset and the whole string, up to 2,000 matches of a short function).
 */
function stringReplace(ev: Evaluator, c: ApiCall): Val | undefined {
  const s = asString(c.callee.base);
  // Text not known here with every character (or every one but spaces) replaced by a constant
  // (`value.replace(/[^\s]/g, '*')`, a session recorder's mask): its shape, not what was typed.
  if (s === undefined) {
    const rx = regexLiteral(c.argNodes[0]);
    const rep = asString(c.args[1]);
    const base = c.callee.base;
    if (
      rx &&
      rx.flags.includes('g') &&
      /^(?:\.|\\S|\[\^\\s\]|\[\\s\\S\]|\[\\S\\s\]|\[\^\]|\\w|\[\^\\s\]\+|\\S\+|\.\+)$/.test(rx.pattern) &&
      rep !== undefined &&
      !rep.includes('$') &&
      base?.t &&
      [...base.t].some((t) => TYPED_SECRETS.has(t))
    ) {
      // (A text of unknown length: not "unknown", which a helper's result would fill with what it
      // was given.)
      const kept = [...base.t].filter((t) => !TYPED_SECRETS.has(t));
      return kept.length ? { k: 'str', v: '${…}', t: new Set(kept) } : { k: 'str', v: '${…}' };
    }
    return undefined;
  }
  if (s.length > 200_000) return undefined;
  const all = c.method === 'replaceAll';
  const rx = regexLiteral(c.argNodes[0]);
  let re: RegExp | undefined;
  if (rx) re = safePackageRegex(rx.pattern, rx.flags, s.length);
  else if (c.s0 !== undefined && c.args[0]?.k === 'str') re = new RegExp(escapeRegExp(c.s0), all ? 'g' : '');
  if (!re) return undefined;
  const fn = c.args[1];
  const from = [c.callee, ...c.args];
  if (fn?.k !== 'fn') {
    // A replacement not known here stands where it goes (`'--pass {host}'.replace('{host}',
    // os.hostname())` is `--pass ${…}`); a pattern that is not there leaves the string as it is.
    const rep = asString(fn);
    if (rep === undefined) {
      re.lastIndex = 0;
      if (!re.test(s)) return str(s, [c.callee]);
      re.lastIndex = 0;
      return withTaint({ k: 'str', v: s.replace(re, () => '${…}') }, from);
    }
    return str(s.replace(re, rep), from);
  }
  const fnNode = c.argNodes[1];
  const span = rangeOf(fn.node);
  if (!span || span[1] - span[0] > 400) return undefined;
  const matches: RegExpExecArray[] = [];
  if (re.global) {
    for (const m of s.matchAll(re)) if (matches.push(m) > 2000) return undefined;
  } else {
    const m = re.exec(s);
    if (m) matches.push(m);
  }
  if (!ev.unroll(Math.min(32, Math.ceil(matches.length / 32) || 1))) return undefined;
  let out = '';
  let last = 0;
  const parts: Val[] = [];
  // The turns are charged to the unroll budget above, not to the budget of calls analysed with
  // their arguments (a helper that rot13-decodes a paragraph would spend it all).
  const steps0 = ev.steps;
  const loop0 = ev.loopSteps;
  try {
    for (const m of matches) {
      const params: Val[] = [
        { k: 'str', v: m[0] },
        ...m.slice(1).map((g): Val => (g === undefined ? UNKNOWN : { k: 'str', v: g })),
        { k: 'num', v: m.index },
        { k: 'str', v: s },
      ];
      const r =
        fnNode && isFunctionNode(fnNode)
          ? ev.walkFunction(fn.node, c.scope, c.depth + 1, params)
          : userCall(ev, c.node, fn, params, c.scope, c.depth, undefined, false);
      const rs = asString(r);
      if (rs === undefined) return unknown([...from, r]);
      out += s.slice(last, m.index) + rs;
      last = m.index + m[0].length;
      if (parts.length < 50) parts.push(r);
    }
  } finally {
    ev.loopSteps = loop0 + (ev.steps - steps0);
  }
  return str(out + s.slice(last), [...from, ...parts]);
}

/**
 * Before a handler that runs again and again is walked: the numbers it steps (`i++`, `i += 1`)
 * and that live outside it have no one value in it (`sock.write(steps[i]); i += 1`).
 */
function forgetCounters(fn: AstNode, scope: Scope): void {
  const stack: AstNode[] = [fn.body as AstNode];
  // (`i = i + 1` steps it too.)
  const steps = (a: AstNode, name: unknown) =>
    a.type === 'BinaryExpression' &&
    [a.left, a.right].some((x) => (x as AstNode).type === 'Identifier' && (x as AstNode).name === name);
  for (let seen = 0; stack.length && seen < 2000; seen++) {
    const n = stack.pop()!;
    const target =
      n.type === 'UpdateExpression'
        ? (n.argument as AstNode)
        : n.type === 'AssignmentExpression' &&
            (n.operator !== '=' || steps(n.right as AstNode, (n.left as AstNode).name))
          ? (n.left as AstNode)
          : undefined;
    if (target?.type === 'Identifier' && scope.lookup(target.name as string)?.k === 'num')
      scope.assign(target.name as string, UNKNOWN);
    for (const key in n) {
      if (key === 'loc' || key === 'range') continue;
      const v = n[key];
      if (Array.isArray(v)) {
        for (const c of v)
          if (c && typeof c === 'object' && typeof (c as AstNode).type === 'string') stack.push(c as AstNode);
      } else if (v && typeof v === 'object' && typeof (v as AstNode).type === 'string')
        stack.push(v as AstNode);
    }
  }
}

const PRINT_METHOD = /^(?:log|error|warn|info|debug|write|call|notice|warning)$/;

/**
 * Names a file gives the console's methods and the process's output streams (`const { log } =
 * console`, `const out = process.stdout`, `const print = console.log`): what each stands for.
 */
function printAliases(ev: Evaluator): Map<string, string> {
  if (ev.printAliases) return ev.printAliases;
  const out = new Map<string, string>();
  const text = ev.input.text.length > 2_000_000 ? ev.input.text.slice(0, 2_000_000) : ev.input.text;
  // (Found from what is assigned, then the declaration read backwards from it: a search that
  // starts at every `const`, `let` and `var` of a large file costs far more.)
  for (const m of text.matchAll(/\}\s*=\s*console\b/g)) {
    const d = /\b(?:const|let|var)\s*\{([^{}]{1,200})$/.exec(text.slice(Math.max(0, m.index - 220), m.index));
    for (const part of d ? d[1]!.split(',') : []) {
      const [from, to] = part.split(':').map((x) => x.trim());
      if (from && /^(?:log|error|warn|info|debug)$/.test(from)) out.set(to || from, `console.${from}`);
    }
  }
  for (const m of text.matchAll(
    /\b(?:console\.(?:log|error|warn|info|debug)|process\.(?:stdout|stderr))\b(?!\s*\.)/g,
  )) {
    const d = /\b(?:const|let|var)\s+([\w$]+)\s*=\s*$/.exec(text.slice(Math.max(0, m.index - 120), m.index));
    if (d) out.set(d[1]!, m[0]);
  }
  return (ev.printAliases = out);
}
// (`core.info(…)` and its kin print to a GitHub Action's log.)
const ACTIONS_LOG = /^(?:info|notice|warning|debug|error)$/;

const PRINT =
  /^(?:console\.(?:log|error|warn|info|debug)|process\.(?:stdout|stderr)\.write|core\.(?:info|notice|warning|debug|error))$/;

/**
 * `console.log(text)`, `process.stderr.write(text)`: what a tool prints, an agent that runs it
 * (a test reporter, a linter, a CLI) reads as the tool's output. Text known here is kept for the
 * text rules read that way: addressed to the model or pressing it, not as a program's literals.
 */
function printed(ev: Evaluator, node: AstNode, calleeNode: AstNode, callee: Val, args: Val[]): void {
  // The Actions toolkit's log functions under any name (`require('@actions/core').info(…)`,
  // `const gh = require('@actions/core'); gh.notice(…)`): the job's log.
  if (callee.k === 'api' && callee.mod === '@actions/core' && ACTIONS_LOG.test(callee.path)) {
    ev.effects.printedData(node, args);
    keepPrinted(ev, node, args);
    return;
  }
  const method =
    calleeNode.type === 'Identifier' ? (calleeNode.name as string) : keyName(calleeNode.property as AstNode);
  if (
    method === undefined ||
    (!PRINT_METHOD.test(method) && !(calleeNode.type === 'Identifier' && printAliases(ev).has(method)))
  )
    return;
  // (`console.log.call(console, …)`: the method itself.)
  let name = dottedName(calleeNode);
  if (name !== undefined && /\.(?:call|apply)$/.test(name)) {
    name = name.replace(/\.(?:call|apply)$/, '');
    args = args.slice(1);
    if (name.endsWith('.apply')) return;
  }
  // (Under another name: `const { log } = console`, `const out = process.stdout; out.write(…)`.)
  if (name !== undefined && !PRINT.test(name)) {
    const head = name.split('.')[0]!;
    const alias = printAliases(ev).get(head);
    if (alias !== undefined) name = alias + name.slice(head.length);
  }
  if (name === undefined || !PRINT.test(name)) return;
  ev.effects.printedData(node, args);
  keepPrinted(ev, node, args);
}

/**
 * `new Error(text)`, `new ConfigError(text)`: an error's message is what a tool that fails prints
 * (uncaught, or shown by the command that ran it), read by an agent that runs it as the tool's
 * output.
 */
function errorMessage(ev: Evaluator, node: AstNode, calleeNode: AstNode, args: Val[]): void {
  const name =
    calleeNode.type === 'Identifier' ? (calleeNode.name as string) : keyName(calleeNode.property as AstNode);
  // (Only a message that names an AI: "you need to add a token" is a message to the user.)
  if (
    name !== undefined &&
    /(?:Error|Exception)$/.test(name) &&
    /\b(?:AI|assistants?|agents?|LLMs?|Claude|Copilot|Cursor|Codex|Gemini)\b/i.test(asString(args[0]) ?? '')
  )
    keepPrinted(ev, node, args.slice(0, 1));
}

/** Text a tool prints, kept once for the text rules (bounded per file). */
function keepPrinted(ev: Evaluator, node: AstNode, args: Val[]): void {
  if (!args.some((a) => a.k === 'str')) return;
  // (Printed as console.log prints: the arguments formatted into one line.)
  const text = (asString(formatted(args.slice(0, 8))) ?? '').replace(/\$\{…\}/g, ' ');
  // (Each text once, and at most 100 texts or 64 KB per file: a print in a loop is one text.)
  if (text.length < 40 || !/\s\S+\s/.test(text) || ev.printedSeen.size >= 100) return;
  const kept = text.slice(0, 20_000);
  if (ev.printedSeen.has(kept) || ev.strings.length >= 2000 || ev.printedBytes + kept.length > 65_536) return;
  // (Only text the agent rules could read counts against the budget.)
  if (!PROMPT_PREFILTER.test(kept)) return;
  ev.printedSeen.add(kept);
  ev.printedBytes += kept.length;
  ev.strings.push({ text: kept, line: lineOf(node), context: 'printed' });
}

/**
 * `util.format(fmt, …args)` (and what `console.log` prints): `%s`, `%d`, `%j` … replaced by the
 * arguments in turn, the rest appended with spaces. Known in part when an argument is not.
 */
function formatted(args: Val[]): Val {
  const parts = args.map((a) => asString(a) ?? '${…}');
  let rest = parts.slice(1);
  let text = parts[0] ?? '';
  if (args[0]?.k === 'str' && /%[sdifjoOc%]/.test(text)) {
    let i = 0;
    text = text.replace(/%([sdifjoOc%])/g, (m, c: string) =>
      c === '%' ? '%' : i < rest.length ? rest[i++]! : m,
    );
    rest = rest.slice(i);
  }
  const out = [text, ...rest].join(' ');
  return out.includes('${…}') ? withTaint({ k: 'str', v: out }, args) : str(out, args);
}

/** A call of anything but a local function: globals, module members, modules, compiled code. */
export function dispatch(
  ev: Evaluator,
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
    // (`module.require.bind(module)`: the loader itself, to be called later.)
    if (
      callee.name === 'require' &&
      (node.callee as AstNode | undefined)?.type === 'MemberExpression' &&
      keyName((node.callee as AstNode).property as AstNode) === 'bind'
    )
      return callee;
    if (callee.name === 'require') return s0 !== undefined ? loadModule(ev, s0, node, a0) : UNKNOWN;
    const g: GlobalCall = { node, name: callee.name, args, argNodes, a0, s0, scope, depth };
    return (
      codeGlobal(ev, g) ??
      decoderGlobal(g) ??
      customEvent(g) ??
      networkGlobal(ev, g) ??
      browserGlobal(g) ??
      collectionGlobal(g) ??
      unknown(args)
    );
  }
  if (callee.k === 'api') {
    const { mod, path } = callee;
    const c: ApiCall = {
      node,
      callee,
      mod,
      path,
      method: path.slice(path.lastIndexOf('.') + 1),
      args,
      argNodes,
      a0,
      s0,
      scope,
      isNew,
      depth,
    };
    if (mod === 'string') {
      if (c.method === 'replace' || c.method === 'replaceAll') {
        const replaced = stringReplace(ev, c);
        if (replaced) return replaced;
      }
      if (c.method === 'match' || c.method === 'matchAll' || c.method === 'split') {
        const matched = stringMatch(c);
        if (matched) return matched;
      }
      return stringMethod(callee, c.method, args);
    }
    if (mod === 'array') return arrayMethod(ev, node, callee, c.method, args);
    // `declare((api) => plugin)` of Babel's helper: the plugin function itself.
    if (mod === '@babel/helper-plugin-utils' && /^declare(?:Preset)?$/.test(path) && a0?.k === 'fn')
      return a0;
    if (mod === 'promise') return promiseResolve(ev, c);
    const settled = promiseStatic(c);
    if (settled) return settled;
    // util.promisify(fs.readFile): the same function, returning a promise of what it gives.
    if (mod === 'util' && path === 'promisify' && a0) return a0;
    // util.inherits(Child, Parent) (`Object.setPrototypeOf(Child.prototype, Parent.prototype)`):
    // instances of the child have the parent's methods it does not write over.
    if (
      ((mod === 'util' && path === 'inherits') || (mod === 'global:Object' && path === 'setPrototypeOf')) &&
      args.length >= 2
    ) {
      const proto = (v: Val | undefined): (Val & { k: 'obj' }) | undefined =>
        v?.k === 'fn' ? ev.prototypeOf(v.node) : v?.k === 'obj' ? v : undefined;
      const child = proto(args[0]);
      const parent = proto(args[1]);
      if (child && parent && child !== parent)
        for (const [k, v] of [...parent.props].slice(0, 200)) if (!child.props.has(k)) child.props.set(k, v);
    }
    if (mod === 'util' && path === 'format' && args.length) return formatted(args);
    // Module-interop helpers (Babel's runtime, SWC's helpers, tslib's __importDefault and
    // __importStar): the module they are handed (its `.default` is the module itself).
    if (
      a0 &&
      ((mod === 'interop' && (path === '' || path === 'default' || path === '_')) ||
        (mod === 'tslib' && /^__import(?:Default|Star)$/.test(path)))
    )
      return a0;
    // `require.resolve('other-pkg/lib/x.js')`: a file of another installed package.
    if (mod === 'global:require' && path === 'resolve' && s0 !== undefined && !/^\.{0,2}\//.test(s0)) {
      const own = ev.input.modules?.packageName;
      const self = own !== undefined && (s0 === own || s0.startsWith(`${own}/`));
      return withTaint(str(`node_modules/${s0}`), [], self ? 'own_dir' : 'outside_pkg');
    }
    // `createRequire(import.meta.url)`: a require function for ES modules, the same loader.
    if (mod === 'module' && path === 'createRequire') return { k: 'global', name: 'require' };
    // Node's module loader reached past `require`: require('module')._load / Module._load.
    if (mod === 'module' && /^(?:_load|Module\._load|prototype\.require)$/.test(path) && s0 !== undefined)
      return loadModule(ev, s0, node, a0);
    // setAttribute('src', url) on a script element: the same as assigning its src property.
    if (mod === 'domscript' && c.method === 'setAttribute' && /^src$/i.test(s0 ?? '') && args[1]) {
      const v = args[1];
      const url = asString(v) ?? (v.k === 'str' ? v.v : undefined);
      if (url)
        ev.effects.scriptSource(
          node,
          url,
          hasDeepTaint(v, 'decoded'),
          c.path.startsWith('frame') ? 'frame' : 'script',
        );
    }
    return (
      cookieJar(c) ??
      runtimeApi(ev, c) ??
      bunFileRead(ev, c) ??
      parsedData(ev, c) ??
      builtinApi(ev, c) ??
      decoderApi(c) ??
      fsApi(ev, c) ??
      processApi(ev, c) ??
      osApi(ev, c) ??
      networkApi(ev, c) ??
      sessionApi(c) ??
      codeApi(ev, c) ??
      postToWorker(ev, c) ??
      (ENCODING_MODULE.test(mod)
        ? unknown([callee, ...opaqueArgs(node, args)])
        : derived(unknown([callee, ...opaqueArgs(node, args)])))
    );
  }
  if (callee.k === 'mod') {
    const m = { node, mod: callee.name, args, scope };
    return (
      networkModuleCall(ev, m) ??
      sessionModuleCall(m) ??
      processModuleCall(ev, m) ??
      nativeModuleCall(ev, m) ??
      archiveModuleCall(m) ??
      // `new MagicString(code)`: an editor of the chunk's text (see codeApi).
      (callee.name === 'magic-string' ? { k: 'api', mod: 'magic-string', path: '' } : undefined) ??
      // `template(code)` of Babel: the code goes into the files it compiles (see babelTemplate).
      (callee.name === '@babel/template' ? (babelTemplate(ev, node, a0), UNKNOWN) : undefined) ??
      unknown(args)
    );
  }
  if (callee.k === 'dyn') {
    dynamicCall(ev, node, callee, args);
    // `Function('return this')()`: the global object, the usual way to reach eval or require by
    // a computed name.
    if (
      callee.code !== undefined &&
      /^\s*return\s+(?:this|globalThis|global|window|self)\s*;?\s*$/.test(callee.code)
    )
      return { k: 'global', name: 'globalObject' };
    return unknown(args);
  }
  if (callee.k === 'fn') {
    return userCall(ev, node, callee, args, scope, depth, callee.self, isNew);
  }
  // (A method of data not known here: `Buffer.from(JSON.stringify(env)).toString('base64')`
  // marks the secrets it holds encoded, as for a known string.)
  if (callee.k === 'unknown' && callee.t?.size)
    return (node.callee as AstNode | undefined)?.type === 'MemberExpression'
      ? encodedSecret(
          unknown([callee, ...args]),
          keyName((node.callee as AstNode).property as AstNode) ?? '',
          args,
        )
      : unknown([callee, ...args]);
  // Unknown callee: result carries argument taint (decoders, serialisers, wrappers). The whole
  // environment handed to an opaque function (`loadConfig(process.env)`) is not itself sent on:
  // only serialisers, encoders and copies (`structuredClone`, `cloneDeep`) turn it into data.
  const opaque = unknown(opaqueArgs(node, args));
  // An object built from data (`new Blob([bytes])`, `new File([data], name)`, `new Uint8Array(buf)`)
  // holds that data, also when it sits inside the array or options given (the environment aside).
  if (isNew && opaque === UNKNOWN) {
    const t = new Set<Taint>();
    for (const a of args) if (a.k === 'arr' || a.k === 'obj') deepTaints(a, 0, t);
    t.delete('env_all');
    if (t.size) return { k: 'unknown', t };
  }
  return opaque;
}

/** Names of functions that turn what they are given into data: serialisers, encoders, copies. */
const SERIALISER =
  /stringify|serial|encode|escape|compress|deflate|gzip|zip|encrypt|cipher|dump|inspect|format|toString|base64|hex|btoa|pack|json|yaml|toml|query|concat|assign|from|entries|clone|copy|merge|extend/i;

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
  return withoutEnv(name, args);
}

/** `args` with the whole environment dropped, unless a function called `name` serialises. */
function withoutEnv(name: string, args: Val[]): Val[] {
  if (!args.some((a) => a.k === 'env') || SERIALISER.test(name)) return args;
  return args.map((a) => (a.k === 'env' ? UNKNOWN : a));
}

export function userCall(
  ev: Evaluator,
  node: AstNode,
  fn: FnVal,
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
        // A name or a command hidden this way is the obfuscator's idiom; a long text (a worker's
        // code inlined by a bundler) is judged where it is used: compiled, written, run.
        if (decoded.length <= 256) ev.effects.decoderCall(node, decoded);
        return { ...str(decoded), t: new Set(['decoded' as Taint]), viaDecoder: true };
      }
    }
    // Otherwise the function runs with its arguments like any other (a helper that base64-encodes
    // what it then sends is a sender, not only a decoder), and an index into a string table
    // (`_0x3c(3)`) shows the name it gives.
    const owner = fn.owner && fn.owner !== ev && fn.owner instanceof Evaluator ? fn.owner : undefined;
    const walked = owner
      ? invokeFor(owner, ev, fn, args, depth, thisVal, isNew)
      : invoke(ev, fn, args, scope, depth, thisVal, isNew);
    // With no arguments it decodes a constant of the file (`addr()` returning the char codes of a
    // table as text); with numbers it indexes a string table.
    // What it returns keeps the taint of what it read or was given (a helper that base64-encodes
    // a credential file it reads returns the file).
    // Lists and objects it builds are returned as they are.
    // A text it computed whole (`rot('Shapgvba')` is "Function") is kept as that text.
    const kept = (): Val =>
      walked.k === 'arr' || walked.k === 'obj'
        ? walked
        : walked.k === 'str' && walked.v.length >= 2 && !walked.v.includes('${…}')
          ? { ...walked, viaDecoder: true }
          : { ...unknown([walked, ...args]), viaDecoder: true };
    if (!args.every((a) => a.k === 'num')) return kept();
    // What it returns is decoded only when a decoding primitive made it (base64, hex, char codes);
    // the call itself is not reported, as decoding helpers are common in ordinary code.
    const text = asString(walked);
    if (
      walked.t?.has('decoded') &&
      text !== undefined &&
      text.length >= 3 &&
      printable(text) &&
      mostlyText(text)
    )
      return { ...walked, viaDecoder: true };
    return kept();
  }
  // A function of another package file (exported from a module this file requires).
  if (fn.owner && fn.owner !== ev && fn.owner instanceof Evaluator)
    return invokeFor(fn.owner, ev, fn, args, depth, thisVal, isNew);
  return invoke(ev, fn, args, scope, depth, thisVal, isNew);
}

/**
 * Objects whose later calls the analysis follows: request bodies built piece by piece
 * (`new FormData()`, `new URLSearchParams()`, `new URL()`, whose appended values join them) and
 * event emitters (what `emit(name, …)` passes reaches the handlers `on(name, fn)` gave them).
 * Returns the call's result: for these constructors, the new object.
 */
function trackedObject(
  ev: Evaluator,
  node: AstNode,
  callee: Val,
  how: string | undefined,
  memberObj: Val | undefined,
  args: Val[],
  isNew: boolean,
  scope: Scope,
  depth: number,
  result: Val,
): Val {
  // A request body being built: `new FormData()` (the global or the form-data package) and
  // `new URLSearchParams()`; `body.append(name, value)` / `.set(…)` adds the value's taint to it.
  if (
    isNew &&
    ((callee.k === 'global' && (callee.name === 'FormData' || callee.name === 'URLSearchParams')) ||
      (callee.k === 'mod' && callee.name === 'form-data'))
  ) {
    const built: Val = result === UNKNOWN ? { k: 'unknown' } : result;
    ev.bodies.add(built);
    return built;
  } else if ((how === 'append' || how === 'set') && memberObj && ev.bodies.has(memberObj)) {
    const t = deepTaints(args[1]);
    if (t.size) memberObj.t = new Set([...(memberObj.t ?? []), ...t]);
  } else if (isNew && callee.k === 'global' && callee.name === 'URL') {
    // `new URL(address)`: its host is the request's; what `searchParams.set/append` add and
    // `u.search = …` assigns travel with it (its searchParams is itself here).
    // (`new URL('/v1/s', base)`: the address resolved against a base known here.)
    const base = args.length > 1 ? asString(args[1]) : undefined;
    let href = asString(args[0]);
    // A file of the package's own beside this module (`new URL('../assets/x.tpl', import.meta.url)`):
    // its path, as `path.join(__dirname, …)` gives it, so reading it reads the package's file.
    if (
      href !== undefined &&
      !/^[a-z][\w+.-]*:|^\/|\$\{…\}/i.test(href) &&
      args[1]?.k === 'unknown' &&
      args[1].t?.has('own_dir')
    )
      return withTaint({ k: 'str', v: `\${…}/${href.replace(/^\.\//, '')}` }, [], 'own_dir');
    if (
      href !== undefined &&
      base !== undefined &&
      !/^[a-z][\w+.-]*:/i.test(href) &&
      !base.includes('${…}') &&
      !href.includes('${…}')
    )
      try {
        href = new URL(href, base).href;
      } catch {
        // not an address: left as written
      }
    const host = href ? /^[a-z][\w+.-]*:\/\/([^/:?#]+)/i.exec(href)?.[1] : undefined;
    const u: Val & { k: 'obj' } = withTaint({ k: 'obj', props: new Map<string, Val>() }, args);
    if (href !== undefined) u.props.set('href', str(href));
    if (host) u.props.set('hostname', str(host));
    u.props.set('searchParams', u);
    ev.bodies.add(u);
    return u;
  } else if (
    isNew &&
    ((callee.k === 'mod' && callee.name === 'events') ||
      (callee.k === 'api' && callee.mod === 'events' && callee.path === 'EventEmitter'))
  ) {
    // An event emitter: what `emit(name, …)` passes reaches the handlers `on(name, fn)` gave it.
    const emitter: Val = { k: 'obj', props: new Map() };
    ev.emitters.set(emitter, new Map());
    return emitter;
  } else if (memberObj && ev.emitters.has(memberObj) && how) {
    const handlers = ev.emitters.get(memberObj)!;
    const name = asString(args[0]);
    if (/^(?:on|once|addListener|prependListener)$/.test(how) && name !== undefined && args[1]?.k === 'fn') {
      const list = handlers.get(name) ?? [];
      if (list.length < 8) list.push(args[1] as FnVal);
      handlers.set(name, list);
    } else if (how === 'emit' && name !== undefined)
      for (const h of handlers.get(name) ?? [])
        userCall(ev, node, h, args.slice(1), scope, depth, undefined, false);
  } else if (how === 'submit' && memberObj && ev.bodies.has(memberObj) && args[0]) {
    // form-data's `form.submit(url)`: the form posted there.
    ev.effects.request(node, 'form-data.submit', args[0], undefined, scope, undefined, [memberObj]);
  }
  return result;
}

/** A method chain that starts at the zod module (`z.object({…}).describe`, `zod_1.z.string()…`). */
function fromZod(n: AstNode, scope: Scope): boolean {
  let cur: AstNode | undefined = n;
  for (let i = 0; cur && i < 30; i++) {
    if (cur.type === 'Identifier') {
      const v = scope.lookup(cur.name as string);
      return (v?.k === 'mod' && v.name === 'zod') || (v?.k === 'api' && v.mod === 'zod');
    }
    cur = (cur.type === 'CallExpression' ? cur.callee : cur.object) as AstNode | undefined;
  }
  return false;
}

/** `window.open`, `self.open`, `globalThis.open`, or `open` not bound in the file. */
function isWindowOpen(n: AstNode, scope: Scope): boolean {
  if (n.type === 'Identifier') return n.name === 'open' && scope.lookup('open') === undefined;
  if (n.type !== 'MemberExpression' || n.computed) return false;
  const o = n.object as AstNode;
  return (
    keyName(n.property as AstNode) === 'open' &&
    o.type === 'Identifier' &&
    /^(?:window|self|globalThis)$/.test(o.name as string) &&
    scope.lookup(o.name as string) === undefined
  );
}

/** How many times one function may be on the stack of calls analysed (see invoke). */
const MAX_RECURSION = 8;

/** The different functions on a stack of calls (a recursive one counts once). */
function distinctFrames(stack: readonly AstNode[]): number {
  let n = 0;
  for (let i = 0; i < stack.length; i++) if (stack.indexOf(stack[i]!) === i) n++;
  return n;
}

/** Array methods whose result is part of the collection they are called on. */
const SUBSET_METHOD =
  /^(?:filter|slice|sort|toSorted|reverse|toReversed|concat|flat|splice|at|find|findLast)$/;

/** Set while deferred callbacks are replayed: calls are walked again, not taken from the cache. */
let replaying = false;

/** Runs `walk` as a replay: calls are walked again, not skipped as uneventful or cached. */
export function asReplay(walk: () => void): void {
  const was = replaying;
  replaying = true;
  try {
    walk();
  } finally {
    replaying = was;
  }
}

/**
 * Timers and event handlers given by name run after the file's top-level code: once it has
 * been walked, they are walked again (twice, so what one handler leaves another sees), with the
 * values the program holds by then (a key buffer filled by one handler, sent by a timer).
 */
export function replayDeferred(ev: Evaluator): void {
  if (!ev.deferred.length) return;
  replaying = true;
  try {
    for (let round = 0; round < 2 && !ev.timedOut; round++)
      for (const c of ev.deferred) {
        // A handler set by a function nobody called runs no more than that function does.
        const dormant = ev.effects.dormant;
        ev.effects.dormant = c.dormant;
        try {
          userCall(ev, c.node, c.fn, c.params, c.scope, c.depth, undefined, false);
        } finally {
          ev.effects.dormant = dormant;
        }
      }
  } finally {
    replaying = false;
  }
}

/**
 * Analyses a call of a local function, method or class with the call's arguments bound to its
 * parameters (so sinks inside see them) and returns what it returns. Bounded: nesting, count per
 * file, recursion, function size; repeated calls with the same arguments reuse the first result.
 */
function invoke(
  ev: Evaluator,
  fn: FnVal,
  args: Val[],
  callerScope: Scope,
  depth: number,
  thisVal: Val | undefined,
  isNew: boolean,
  superOverride?: FnVal,
): Val {
  const node = fn.node;
  const isClass = node.type === 'ClassDeclaration' || node.type === 'ClassExpression';
  // The other class a condition gave as the one extended: an instance made with it too, whose
  // methods run beside this one's (see otherInstances).
  let otherParent: Val | undefined;
  const made = (inst: Val): Val => {
    if (otherParent?.k === 'fn' && inst.k === 'obj' && !ev.otherInstances.has(inst))
      ev.otherInstances.set(inst, invoke(ev, fn, args, callerScope, depth, thisVal, isNew, otherParent));
    return inst;
  };
  const defScope = fn.scope instanceof Scope ? fn.scope : callerScope;
  const instance: (Val & { k: 'obj' }) | undefined =
    isNew || isClass ? { k: 'obj', props: new Map() } : undefined;
  // `new F()` of a function with methods on `F.prototype`: the instance has them, bound to it.
  const withPrototype = (f: AstNode, max: number) => {
    for (const [k, v] of [...(ev.prototypes.get(f)?.props ?? [])].slice(0, max))
      instance!.props.set(k, v.k === 'fn' ? { ...v, self: instance } : v);
  };
  if (isNew && !isClass && instance) withPrototype(node, 100);
  let target: AstNode | undefined = node;
  let targetScope = defScope;
  let home = fn.home;
  if (isClass) {
    target = undefined;
    // The classes it extends, the farthest first (`class Linux extends Posix`, `class Posix
    // extends Shell`): the instance has their members with its own written over them, and a
    // member's `super` is what the class it is written in extends (`super[APPLY]()`, `super(…)`).
    // (A function written the ES5 way ends the chain: its prototype's methods, and itself as the
    // constructor `super(…)` runs. A class that extends one of two, `extends (win ? A : B)`, is
    // made with each: see otherParent.)
    const chain: { node: AstNode; scope: Scope; es5?: FnVal }[] = [{ node, scope: defScope }];
    for (let c = node; chain.length < 8 && c.superClass;) {
      let sup =
        c === node && superOverride
          ? superOverride
          : ev.walk(c.superClass as AstNode, chain[0]!.scope, depth + 1);
      if (sup.k === 'fn' && c === node && !superOverride && sup.alt?.k === 'fn') {
        otherParent = sup.alt;
        sup = { ...sup, alt: undefined };
      }
      if (sup.k !== 'fn' || chain.some((x) => x.node === sup.node)) break;
      const scope = sup.scope instanceof Scope ? sup.scope : defScope;
      if (sup.node.type !== 'ClassDeclaration' && sup.node.type !== 'ClassExpression') {
        chain.unshift({ node: sup.node, scope, es5: sup });
        break;
      }
      c = sup.node;
      chain.unshift({ node: c, scope });
    }
    let ctor: { fn: FnVal; scope: Scope; home: Val } | undefined;
    for (const cls of chain) {
      const classHome: Val & { k: 'obj' } = { k: 'obj', props: new Map(instance!.props) };
      if (cls.es5) {
        withPrototype(cls.node, 200);
        ctor = { fn: { ...cls.es5, self: instance }, scope: cls.scope, home: classHome };
        continue;
      }
      if (ctor) classHome.props.set(SUPER_CONSTRUCTOR, { ...ctor.fn, home: ctor.home });
      const members = (((cls.node.body as AstNode | undefined)?.body ?? []) as AstNode[]).slice(0, 200);
      // (A computed name is evaluated where the class is: `[MERGED]()` with a Symbol.for key.)
      const memberKey = (m: AstNode): string | undefined =>
        m.computed ? asString(ev.walk(m.key as AstNode, cls.scope, depth + 1)) : keyName(m.key as AstNode);
      for (const m of members) {
        const key = memberKey(m);
        if (m.static || key === undefined) continue;
        const method = m.type === 'ClassMethod' ? m : (m.value as AstNode);
        if ((m.type === 'MethodDefinition' || m.type === 'ClassMethod') && m.kind === 'constructor')
          ctor = { fn: ev.fnVal(method, cls.scope, instance), scope: cls.scope, home: classHome };
        else if (m.type === 'MethodDefinition' || m.type === 'ClassMethod')
          // (`get loop() { … }`: reading `this.loop` runs it; `set extra(v) { … }`: assigning does.)
          instance!.props.set(m.kind === 'set' ? setterKey(key) : key, {
            ...ev.fnVal(method, cls.scope, instance),
            ...(m.kind === 'get' ? { getter: true } : {}),
            ...(chain.length > 1 ? { home: classHome } : {}),
          });
      }
      // Field initialisers (`cmd = 'x'`) are evaluated with `this` bound to the new instance.
      const fieldScope = new Scope(cls.scope);
      fieldScope.vars.set('this', instance!);
      for (const m of members) {
        if ((m.type === 'PropertyDefinition' || m.type === 'ClassProperty') && !m.static && m.value) {
          const key = memberKey(m);
          if (key !== undefined) instance!.props.set(key, ev.walk(m.value as AstNode, fieldScope, depth + 1));
        }
      }
    }
    if (ctor) {
      target = ctor.fn.node;
      targetScope = ctor.scope;
      home = ctor.home;
    }
    if (!target) return made(instance!);
  }
  const size = (target.end as number | undefined) ?? target.range?.[1] ?? 0;
  const from = startOf(target) ?? 0;
  // A function calling itself (a state machine's `send(next.type)`, a countdown) is walked again
  // for arguments it has not been walked with on the way down, a few times, in code that runs.
  let recursion = 0;
  for (const t of ev.inlineStack) if (t === target) recursion++;
  if (
    !target.body ||
    ev.inlineLeft <= 0 ||
    // Code that runs may overdraw the budget by half again: walking helpers where they are
    // defined can spend it all before an install script's main call that comes after them.
    ev.inlineStepsLeft <= (ev.effects.dormant ? 0 : -ev.inlineStepsReserve) ||
    (ev.inlineStack.length >= 4 && distinctFrames(ev.inlineStack) >= 4) ||
    (recursion > 0 && (recursion >= MAX_RECURSION || ev.effects.dormant > 0)) ||
    (!replaying && ((ev.effects.dormant ? ev.boring : ev.boringLive).get(target) ?? 0) >= 2) ||
    // (A long function is walked where it is defined, not again per call; called from code that
    // runs on load, outside any other call, it is walked with what it is given: a module's
    // `register(container)` or `setup(app)` entry, run once.)
    size - from > (ev.inlineStack.length === 0 && ev.effects.dormant === 0 ? 20_000 : 1_500) ||
    ev.timedOut
  ) {
    return instance ?? unknown(args);
  }
  // Arguments that tell nothing: the walk where it is defined saw the same (what it returns then
  // carries what it read: `summary(lockfile)` returning the credential files it collects). Not
  // under a gate, though: what the function does there is weighed by the gate (a sweep of the
  // project run when a server says "revoked").
  if (
    !ev.effects.gated() &&
    !isNew &&
    args.length > 0 &&
    !thisVal?.t &&
    thisVal?.k !== 'obj' &&
    args.every((a) => a.k === 'unknown' && !a.t?.size)
  )
    return ev.definitionReturns.get(target) ?? instance ?? unknown(args);
  // Called from code that runs on load or from a function nobody calls: analysed apart.
  // (A closure made by each call of a factory, `(s) => () => s`, is one node over many scopes:
  // the scope it closes over is part of the key.)
  const sig = `${args.map((a) => sigOf(a, 0)).join('|')}#${thisVal ? sigOf(thisVal, 1) : ''}${ev.effects.dormant ? '~' : ''}@${scopeId(defScope)}`;
  const cache = ev.inlineCache.get(target);
  if (!instance && !replaying && cache?.has(sig)) return cache.get(sig)!;
  const active = ev.activeSigs.get(target);
  if (recursion > 0 && active?.includes(sig)) return instance ?? unknown(args);
  ev.inlineLeft--;
  ev.inlineStack.push(target);
  if (active) active.push(sig);
  else ev.activeSigs.set(target, [sig]);
  const steps0 = ev.steps;
  const loop0 = ev.loopSteps;
  const progress0 = ev.effects.progress();
  const mutations0 = ev.mutations;
  const callStart0 = ev.callStart;
  ev.callStart = ev.made;
  let r: Val;
  try {
    r = ev.walkFunction(target, targetScope, depth + 1, args, instance ?? thisVal, home);
  } finally {
    ev.callStart = callStart0;
    ev.inlineStack.pop();
    const sigs = ev.activeSigs.get(target)!;
    sigs.pop();
    if (!sigs.length) ev.activeSigs.delete(target);
    // Turns of short loops run on known counters have their own budget (see Evaluator.loop).
    if (ev.inlineStack.length === 0) ev.inlineStepsLeft -= ev.steps - steps0 - (ev.loopSteps - loop0);
  }
  if (instance) return made(instance);
  if (ev.effects.progress() === progress0 && ev.mutations === mutations0 && r.k === 'unknown' && !r.t?.size) {
    // Counted apart for code that runs and code walked where it is defined: a function that did
    // nothing with its closure unknown may act once the code that sets it up has run.
    const boring = ev.effects.dormant ? ev.boring : ev.boringLive;
    boring.set(target, (boring.get(target) ?? 0) + 1);
  }
  // Small string helpers (`s => s.split('').reverse().join('')`) hide names: mark their output.
  const body = target.body as AstNode;
  const single =
    body.type !== 'BlockStatement' ||
    (((body.body as AstNode[]) ?? []).length === 1 &&
      (body.body as AstNode[])[0]!.type === 'ReturnStatement');
  if (r.k === 'str' && single && args.length && args.every((a) => a.k !== 'unknown')) r = { ...r, obf: true };
  // (What it returns, not known, carries what it was given; handed the whole environment to read a
  // name or two from, `prNumber(env)`, it returns what its walk says of it.)
  if (r.k === 'unknown' && !r.t?.size)
    r = unknown(withoutEnv(((target.id as AstNode | undefined)?.name as string | undefined) ?? '', args));
  if (cache) {
    if (cache.size < 8) cache.set(sig, r);
  } else ev.inlineCache.set(target, new Map([[sig, r]]));
  return r;
}

/** Runs one of `callee`'s functions for a call made in another file (cross-file flow). */
function invokeFor(
  callee: Evaluator,
  caller: Evaluator,
  fn: FnVal,
  args: Val[],
  depth: number,
  thisVal: Val | undefined,
  isNew: boolean,
): Val {
  const saved = {
    installTime: callee.installTime,
    deadline: callee.deadline,
    timedOut: callee.timedOut,
    inlineStepsLeft: callee.inlineStepsLeft,
    deferred: callee.deferred,
  };
  // The caller pays for the walk (its budget), so calls across files stay bounded per file.
  callee.inlineStepsLeft = caller.inlineStepsLeft;
  // Timers the function sets run after the caller's top level: the caller replays them.
  callee.deferred = caller.deferred;
  const previousLines = useLines(callee.lines);
  const restoreEffects = callee.effects.borrow(caller.effects);
  callee.installTime = caller.installTime;
  callee.deadline = caller.deadline;
  callee.timedOut = caller.timedOut;
  try {
    return invoke(callee, fn, args, callee.rootScope ?? new Scope(undefined), depth, thisVal, isNew);
  } finally {
    caller.timedOut ||= callee.timedOut;
    caller.inlineStepsLeft = Math.min(caller.inlineStepsLeft, callee.inlineStepsLeft);
    Object.assign(callee, saved);
    restoreEffects();
    useLines(previousLines);
  }
}

/** A short signature of a value, to reuse the analysis of a call made again with the same arguments. */
const scopeIds = new WeakMap<Scope, number>();
let nextScopeId = 0;
function scopeId(s: Scope): number {
  let id = scopeIds.get(s);
  if (id === undefined) scopeIds.set(s, (id = nextScopeId++));
  return id;
}

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

/** Libraries that only re-encode bytes (base58, base64, hex): what they give is the same data. */
const ENCODING_MODULE =
  /^(?:bs58|bs58check|base-x|base58|base-58|base58-js|base64-js|js-base64|base64url|@scure\/base|multibase|hex-lite|@stablelib\/(?:base64|hex)|global:(?:Uint8Array|Buffer|TextEncoder|TextDecoder))$/;

/**
 * What a module's function makes from key material (`Wallet.fromPhrase(mnemonic)`, a derived
 * address or signature) is not the key material itself: that label stays only on the value and
 * on what merely re-encodes it (strings, buffers, JSON).
 */
function derived(v: Val): Val {
  if (!v.t?.has('key_material')) return v;
  const t = new Set(v.t);
  t.delete('key_material');
  return { ...v, t };
}

/**
 * The arguments `f.apply(thisArg, list)` passes: a known list's items, else one unknown value that
 * carries what the list carried (a list read from a file or a request still brings its taint).
 */
function spreadArgs(list: Val | undefined): Val[] {
  if (!list) return [];
  if (list.k === 'arr') return list.items;
  const t = deepTaints(list);
  return t.size ? [{ k: 'unknown', t }] : [];
}
