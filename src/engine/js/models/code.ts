/**
 * API model: code compiled or loaded at run time. `eval`, `Function`, string timers,
 * `vm.run*`/`vm.Script`, `module._compile`, deserialisers that run functions embedded in their
 * input (node-serialize, funcster, serialize-to-js), and native addons (`require('x.node')`,
 * bindings, node-gyp-build). Constant code strings are analysed as code themselves (bounded).
 */
import { builtinModules } from 'node:module';
import { isHighImpactPackage } from '../../package-signals';
import { analyzeJsFile } from '../analyze';
import { escapeRegExp } from '../../text';
import { keyName } from '../ast';
import type { Evaluator } from '../evaluator';
import {
  UNKNOWN,
  asString,
  deepTaints,
  hasDeepTaint,
  str,
  unknown,
  withTaint,
  type AstNode,
  type Taint,
  type Val,
} from '../values';
import type { ApiCall, GlobalCall, ModuleCall } from './model';

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

/**
 * A JavaScript module written in a `data:` address (`data:text/javascript;base64,…` or
 * percent-encoded): its code (undefined when it does not decode), and whether it was base64.
 */
export function dataUrlModule(href: string): { code: string | undefined; base64: boolean } | undefined {
  const data = /^data:(?:text|application)\/(?:x-)?(?:javascript|ecmascript)(;base64)?,([\s\S]*)$/i.exec(
    href,
  );
  if (!data) return undefined;
  // (An address built around a value not known here: its code is not known either.)
  if (data[2]!.includes('${…}')) return { code: undefined, base64: !!data[1] };
  try {
    return {
      code: data[1] ? Buffer.from(data[2]!, 'base64').toString('utf8') : decodeURIComponent(data[2]!),
      base64: !!data[1],
    };
  } catch {
    return { code: undefined, base64: !!data[1] };
  }
}

/**
 * Code compiled from `code` (`how`: eval, Function, vm.runInThisContext …): reported, and when
 * the code is a known string, analysed as code of its own (its findings placed at the call).
 */
export function compiles(
  ev: Evaluator,
  node: AstNode,
  how: string,
  code: Val | undefined,
  codeNode: AstNode | undefined,
  workerData?: Val,
  childArgv?: Val,
): void {
  if (!code) return;
  ev.effects.dynamicCode(node, how, code, codeNode);
  // Analyse constant code strings as code (decoded payloads included).
  const src = asString(code);
  if (src !== undefined && src.length > 10 && (ev.input.nested ?? 0) < 2) {
    const nested = analyzeJsFile({
      ...ev.input,
      text: src,
      nested: (ev.input.nested ?? 0) + 1,
      timeBudgetMs: 500,
      workerData,
      childArgv,
    });
    ev.effects.nestedCode(node, how, nested.findings, nested.caps);
  }
}

/**
 * A script a build tool puts into the pages it builds (a Vite plugin's `{ tag: 'script',
 * children }`): the page runs it, so it is analysed as code, its findings placed here.
 */
export function pageScript(
  ev: Evaluator,
  node: AstNode,
  code: Val,
  where = 'a script it injects into the pages it builds',
): void {
  const src = asString(code);
  if (src === undefined || src.length < 40 || src.length > 256_000 || (ev.input.nested ?? 0) >= 2) return;
  if (!onceHere(ev, node, src)) return;
  const nested = analyzeJsFile({
    ...ev.input,
    path: ev.input.path,
    text: src,
    entry: true,
    nested: (ev.input.nested ?? 0) + 1,
    timeBudgetMs: 500,
  });
  ev.effects.nestedCode(node, where, nested.findings, nested.caps);
}

const ADDED_TO_BUNDLE = 'code it adds to the bundles it builds';

/**
 * Text a build plugin adds to the bundles it emits, beside the user's own code (not known here):
 * each known piece is page code the user's visitors run, analysed as such. (A piece not known
 * here says nothing: the hooks' names are common words, and bytes decoded into an emitted asset
 * are as often an image.)
 */
export function addedToBundle(ev: Evaluator, node: AstNode, code: Val): void {
  if (code.k === 'str' && code.v.length <= 512_000)
    for (const piece of code.v
      .split('${…}')
      .filter((p) => p.trim().length >= 40)
      .slice(0, 2))
      pageScript(ev, node, { k: 'str', v: piece }, ADDED_TO_BUNDLE);
}

/**
 * Code a Babel plugin builds from text with `@babel/template` (or the `template` Babel hands it):
 * inserted into the files the user's build compiles, it runs in their application, a page's code
 * as often as not. A template with placeholders (`NAME.displayName = LABEL`) is read as it is.
 */
export function babelTemplate(ev: Evaluator, node: AstNode, code: Val | undefined): void {
  if (code) addedToBundle(ev, node, code);
}

const ADDED_TO_MODULES = 'code its module hook adds to the modules the application loads';
/** Another package's module named by its path (`/node_modules/express/lib/response.js`). */
const OTHER_MODULE = /node_modules\/((?:@[\w.-]+\/)?[\w][\w.-]*)\/([\w./-]*?\.[cm]?js)\b/;
/**
 * A module path that starts with a package's name (`/express[\\/]lib[\\/]response\.js$/`, written
 * without `node_modules`): another package's module when the name is one of the high-impact
 * packages, not one of Node's own modules, not a folder name packages give their own code (`esm`,
 * `util`) and not a file the package ships.
 */
const NAMED_MODULE = /(?:^|[\s'"`/(=,])((?:@[\w.-]+\/)?[a-z][\w.-]*)\/((?:[\w.-]+\/)*[\w.-]+\.[cm]?js)\b/g;
const NODE_MODULES = new Set(builtinModules);
/** Folder names packages give their own code that are also names of packages (`esm`, `util`). */
const PACKAGE_FOLDER =
  /^(?:esm|cjs|mjs|umd|es|es5|es6|lib|src|dist|build|out|util|utils|config|configs|test|tests|types|internal|core|common|shared|server|client|api|app|node|browser|bin|scripts|public|static|assets|vendor)$/;
/** `const T = require.resolve('express/lib/response')`: another package's module, by name. */
const RESOLVED_MODULE =
  /\b([A-Za-z_$][\w$]*)\s*=\s*(?:[\w$.]+\.)?resolve\s*\(\s*['"`]((?:@[\w.-]+\/)?[a-z][\w.-]*)\/([\w./-]+)['"`]/g;

/**
 * `source + CODE` / `CODE + String(source)` in a package that hooks the module loader: code
 * written in the package, joined to source it does not know (what the application loads), runs in
 * the application. Analysed as such, its findings placed here; and when the file names another
 * package's module, the package changes that module's code as it loads (a backdoor added to a
 * JWT check, a script tag added to every HTML response).
 */
export function addedToModules(ev: Evaluator, node: AstNode, code: string): void {
  if (code.length < 40 || code.length > 256_000 || (ev.input.nested ?? 0) >= 2) return;
  if (!code.includes('(') || !/[;{]/.test(code) || !ev.input.modules?.hooksModules?.()) return;
  if (!onceHere(ev, node, code)) return;
  const nested = analyzeJsFile({
    ...ev.input,
    text: code,
    entry: true,
    nested: (ev.input.nested ?? 0) + 1,
    timeBudgetMs: 500,
  });
  if (nested.parseError) return;
  ev.effects.nestedCode(node, ADDED_TO_MODULES, nested.findings, nested.caps);
  // (Named just before the join: the test that picks the module, `/\/express\/lib\/response\.js$/`
  // written as a regular expression, `\/`, `[\\/]` and `\.` read as the path's characters; or a
  // name the file resolves, compared there: `if (filename === TARGET)`.)
  const at = node.start ?? node.range?.[0] ?? 0;
  const before = ev.input.text.slice(Math.max(0, at - 300), at + 1);
  const named = OTHER_MODULE.exec(before.replace(/[\\[\]]/g, ''));
  let target = named ? `${named[1]}/${named[2]}` : undefined;
  if (!target)
    for (const m of before.replace(/[\\[\]]/g, '').matchAll(NAMED_MODULE))
      if (
        isHighImpactPackage(m[1]!) &&
        !NODE_MODULES.has(m[1]!) &&
        !PACKAGE_FOLDER.test(m[1]!) &&
        !ev.input.modules?.resolve('package.json', `./${m[1]}/${m[2]}`)
      )
        target = `${m[1]}/${m[2]}`;
  if (!target && ev.input.text.includes('resolve'))
    for (const r of ev.input.text.slice(0, 200_000).matchAll(RESOLVED_MODULE)) {
      const id = escapeRegExp(r[1]!);
      if (
        new RegExp(
          `(?:[!=]==?|\\.(?:endsWith|includes|startsWith|test)\\()\\s*${id}\\b|\\b${id}\\s*[!=]==?`,
        ).test(before)
      ) {
        target = `${r[2]}/${r[3]}`;
        break;
      }
    }
  if (
    target &&
    !target.startsWith(`${ev.input.modules?.packageName}/`) &&
    /\b(?:\w+\s*\(|\w+\s*=[^=])/.test(code)
  )
    ev.effects.moduleCodeAdded(node, target);
}

/** webpack-sources, the text of the assets webpack emits: `new ConcatSource(old, '\n', code)`. */
const BUNDLE_SOURCE = /^(?:ConcatSource|RawSource|OriginalSource|PrefixSource)$/;

/** `new sources.ConcatSource(…)` / `new RawSource(code)`: what goes into an emitted bundle. */
export function bundleSource(ev: Evaluator, node: AstNode, calleeNode: AstNode, args: Val[]): void {
  const name =
    calleeNode.type === 'Identifier'
      ? (calleeNode.name as string)
      : calleeNode.type === 'MemberExpression'
        ? keyName(calleeNode.property as AstNode)
        : undefined;
  if (name === undefined || !BUNDLE_SOURCE.test(name)) return;
  for (const a of args.slice(0, 8)) addedToBundle(ev, node, a);
}

/**
 * Whether code at this call has not been analysed with this text yet (the call is walked more than
 * once: where it is defined, when it runs, in loops and replays), and the file has time left.
 */
function onceHere(ev: Evaluator, node: AstNode, text: string): boolean {
  if (ev.timedOut) return false;
  const key = `${node.start ?? node.range?.[0] ?? 0}:${text.length}:${text.slice(0, 64)}`;
  if (ev.nestedSeen.has(key) || ev.nestedSeen.size >= 200) return false;
  ev.nestedSeen.add(key);
  return true;
}

/**
 * A JavaScript file the package writes with text known here (a dropper's payload, a browser
 * extension's content script): analysed as code, its findings placed at the write. It runs once
 * something loads it, as the package's own files do.
 */
export function writtenCode(ev: Evaluator, node: AstNode, path: string, data: Val | undefined): void {
  const src = asString(data);
  if (src === undefined || src.length < 40 || src.length > 256_000 || (ev.input.nested ?? 0) >= 2) return;
  if (!onceHere(ev, node, src)) return;
  const nested = analyzeJsFile({
    ...ev.input,
    text: src,
    entry: true,
    nested: (ev.input.nested ?? 0) + 1,
    timeBudgetMs: 500,
  });
  const name = path.replace(/\\/g, '/').split('/').pop() ?? path;
  ev.effects.nestedCode(node, `the file it writes (${name.slice(0, 60)})`, nested.findings, nested.caps);
}

/** The file of the package a page worker is started from (`./batch.worker.js`, next to the page's). */
function workerFile(ev: Evaluator, href: string): { path: string; text: string } | undefined {
  if (/^[a-z][\w+.-]*:/i.test(href) || href.includes('${…}')) return undefined;
  const file = ev.input.modules?.resolve(ev.input.path, /^\.{0,2}\//.test(href) ? href : `./${href}`);
  return file && file.text.length <= 256_000 ? file : undefined;
}

/** The page workers a file starts from code it knows, by the id their value carries. */
const workersOf = new WeakMap<Evaluator, Map<string, { code: string; path: string; reads: number }>>();
function pageWorkers(ev: Evaluator): Map<string, { code: string; path: string; reads: number }> {
  let m = workersOf.get(ev);
  if (!m) workersOf.set(ev, (m = new Map()));
  return m;
}

/** Taints that make data worth following into a worker (what the sinks report when sent). */
const FOLLOWED: readonly Taint[] = [
  'page_secret',
  'secret_env',
  'secret_file',
  'env_all',
  'fingerprint',
  'key_material',
  'request_secret',
];

/**
 * `worker.postMessage(msg)` to a page worker started from code known here: its code is read with
 * `msg` as what its `message` events carry (at most 8 times a worker); when the data `msg` holds
 * leaves in the worker's requests (in a body or an address, not as the credential of its own
 * requests), the post is a way out, to the hosts its code names or the address it was told.
 */
export function postToWorker(ev: Evaluator, c: ApiCall): Val | undefined {
  const worker = c.mod.startsWith('pageworker:') ? pageWorkers(ev).get(c.mod) : undefined;
  if (!worker || c.method !== 'postMessage') return undefined;
  const msg = c.a0;
  if (!msg) return UNKNOWN;
  // (A worker told where to send what it is posted: `worker.postMessage({ endpoint: URL })`.)
  if (msg.k === 'obj')
    for (const v of [...msg.props.values()].slice(0, 20)) {
      const u = asString(v);
      if (u && /^(?:https?|wss?):\/\//i.test(u)) ev.effects.requestTarget(u);
    }
  const carried = deepTaints(msg);
  if (!FOLLOWED.some((t) => carried.has(t)) || worker.reads >= 8 || (ev.input.nested ?? 0) >= 2)
    return UNKNOWN;
  worker.reads++;
  const r = analyzeJsFile({
    ...ev.input,
    path: worker.path,
    text: worker.code,
    nested: (ev.input.nested ?? 0) + 1,
    timeBudgetMs: 500,
    // (An object posted is read by its fields: a field it does not have is not its data.)
    messages: msg.k === 'obj' ? { k: 'obj', props: msg.props } : msg,
  });
  if (!FOLLOWED.some((t) => carried.has(t) && r.sent.has(t))) return UNKNOWN;
  for (const host of [...r.caps.domains].slice(0, 8)) ev.effects.requestTarget(`https://${host}/`);
  ev.effects.sink(c.node, 'postMessage to a worker that sends it on', [msg], c.scope);
  return UNKNOWN;
}

export function codeGlobal(ev: Evaluator, c: GlobalCall): Val | undefined {
  const { node, name, args, argNodes, a0 } = c;
  switch (name) {
    // `new Blob([code])`: the text it holds, read back through its address (createObjectURL).
    case 'Blob': {
      // (Parts that carry data keep it, as any object built from data does: see calls.ts.)
      const parts = a0?.k === 'arr' && a0.items.length <= 64 ? a0.items : [];
      // (Text decoded here too, as a bundler's inline worker is: its code is then read for what it
      // does, not for having been encoded. What else the parts carry, a page's secrets, stays.)
      if (parts.length && parts.every((p) => p.k === 'str' && !p.json && !p.v.includes('${…}'))) {
        const text = str(parts.map((p) => asString(p)!).join(''), parts);
        if (text.k !== 'str' || !(text.t?.has('decoded') || text.t?.has('env_all'))) return text;
        const t = new Set(text.t);
        t.delete('decoded');
        t.delete('env_all');
        return { ...text, t: t.size ? t : undefined };
      }
      const t = deepTaints(a0);
      t.delete('env_all');
      return t.size ? { k: 'unknown', t } : UNKNOWN;
    }
    // A page's worker started from code in the package (a Blob or data: address, or a file): the
    // code is analysed as code, and what the page posts to it is followed into it (a worker that
    // batches the fields it is posted to a host is a way out for them: see postToWorker).
    case 'Worker':
    case 'SharedWorker': {
      // A worker whose code came from the network (`URL.createObjectURL(await res.blob())`): what
      // the page posts to it goes to code a server chose.
      if (hasDeepTaint(a0, 'network_data')) return { k: 'net' };
      const given = asString(a0) ?? (a0?.k === 'obj' ? asString(a0.props.get('href')) : undefined);
      // (A file beside this module, `new URL('./w.js', import.meta.url)`, is its own path here.)
      const href = a0?.t?.has('own_dir') && given?.startsWith('${…}/') ? `./${given.slice(5)}` : given;
      const module = href !== undefined ? dataUrlModule(href) : undefined;
      // Code in a Blob or data: address is analysed as code here; a file of the package
      // (`new Worker(new URL('./batch.worker.js', import.meta.url))`) has its own findings.
      if (module?.code !== undefined)
        compiles(ev, node, `${name} (its code)`, withTaint(str(module.code), [a0]), argNodes[0]);
      const file = module === undefined && href !== undefined ? workerFile(ev, href) : undefined;
      const code = module?.code ?? file?.text;
      if (code === undefined) return undefined;
      // What the page posts to it is followed into its code at each postMessage (see postToWorker).
      const id = `pageworker:${pageWorkers(ev).size}`;
      if (pageWorkers(ev).size < 20)
        pageWorkers(ev).set(id, { code, path: file?.path ?? ev.input.path, reads: 0 });
      return { k: 'api', mod: id, path: '' };
    }
    // A page worker loading scripts from elsewhere: the code it then runs is a server's, and has
    // what the page posts to the worker (read for where its messages go: see postToWorker).
    case 'importScripts':
      if (!ev.input.messages) return undefined;
      for (const a of args.slice(0, 8))
        ev.effects.request(node, 'importScripts', a, undefined, c.scope, undefined, [ev.input.messages]);
      return UNKNOWN;
    case 'eval':
      compiles(ev, node, 'eval', a0, argNodes[0]);
      return unknown(args);
    case 'Function': {
      compiles(ev, node, 'Function', args[args.length - 1], argNodes[argNodes.length - 1]);
      const params = args
        .slice(0, -1)
        .flatMap((a) => asString(a)?.split(',') ?? ['?'])
        .map((p) => p.trim());
      return withTaint(
        {
          k: 'dyn',
          code: asString(args[args.length - 1]),
          ...(params.length && params.every((p) => /^[A-Za-z_$][\w$]*$/.test(p)) ? { params } : {}),
        },
        args,
      );
    }
    case 'setTimeout':
    case 'setInterval':
    case 'setImmediate':
      if (a0?.k === 'str' || (a0?.t?.has('decoded') ?? false)) compiles(ev, node, name, a0, argNodes[0]);
      return UNKNOWN;
    default:
      return undefined;
  }
}

export function codeApi(ev: Evaluator, c: ApiCall): Val | undefined {
  const { node, mod, method, args, argNodes, a0 } = c;
  // `URL.createObjectURL(blob)` of a text: an address that loads that text (as a data: one does).
  if (mod === 'global:URL' && method === 'createObjectURL' && a0?.k === 'str' && !a0.v.includes('${…}'))
    return str(`data:text/javascript,${encodeURIComponent(a0.v)}`, [a0]);
  // magic-string, the text editor bundler plugins change chunks with: what it appends, prepends
  // or writes over goes into the bundle (the call's result is left to the default).
  if (
    mod === 'magic-string' &&
    /^(?:append|prepend|appendLeft|appendRight|prependLeft|prependRight|overwrite|update)$/.test(method) &&
    args.length
  )
    addedToBundle(ev, node, args[args.length - 1]!);
  // Babel's templates (`template.statements.ast(code)`, `template.statement(code)`): what a plugin
  // builds from text and inserts into the files it compiles (see babelTemplate).
  if (mod === '@babel/template') babelTemplate(ev, node, a0);
  if (
    mod === 'vm' &&
    /^(?:runInThisContext|runInNewContext|runInContext|compileFunction|Script|SourceTextModule)$/.test(method)
  ) {
    compiles(ev, node, `vm.${method}`, a0, argNodes[0]);
    return withTaint({ k: 'dyn' }, args);
  }
  // `new Worker(code, { eval: true })`: the first argument is JavaScript, run in a thread.
  if (
    mod === 'worker_threads' &&
    method === 'Worker' &&
    args[1]?.k === 'obj' &&
    args[1].props.get('eval')?.k === 'bool' &&
    (args[1].props.get('eval') as { v: boolean }).v
  ) {
    compiles(ev, node, 'Worker (eval: true)', a0, argNodes[0], args[1].props.get('workerData'));
    return withTaint({ k: 'dyn' }, args);
  }
  // `new Worker(new URL('data:text/javascript,' + encodeURIComponent(code)))`: the module is in
  // the address, run in a thread with the data it is given.
  if (mod === 'worker_threads' && method === 'Worker') {
    const href = asString(a0) ?? (a0?.k === 'obj' ? asString(a0.props.get('href')) : undefined);
    const module = href !== undefined ? dataUrlModule(href) : undefined;
    if (module) {
      const opts = args[1]?.k === 'obj' ? args[1] : undefined;
      if (module.code !== undefined)
        compiles(
          ev,
          node,
          'Worker (data: URL)',
          withTaint(str(module.code), [a0]),
          argNodes[0],
          opts?.props.get('workerData'),
        );
      return withTaint({ k: 'dyn' }, args);
    }
  }
  // Deserialisers that run functions embedded in their input (node-serialize's `_$$ND_FUNC$$_`
  // IIFEs, funcster): data given to them is code.
  if (
    (mod === 'node-serialize' && method === 'unserialize') ||
    (mod === 'funcster' && /^deepDeserialize|^deserialize/.test(method)) ||
    (mod === 'serialize-to-js' && method === 'deserialize')
  ) {
    const before = ev.effects.findingCount();
    compiles(ev, node, `${mod}.${method}`, a0, argNodes[0]);
    ev.effects.deserialise(node, `${mod}.${method}`, a0, before);
    return unknown(args);
  }
  return undefined;
}

/** `module._compile(code)`, however `module` was reached. */
export function codeCall(
  ev: Evaluator,
  node: AstNode,
  calleeNode: AstNode,
  callee: Val,
  args: Val[],
  argNodes: AstNode[],
): void {
  if (
    (calleeNode.type === 'MemberExpression' && keyName(calleeNode.property as AstNode) === '_compile') ||
    (callee.k === 'api' && callee.path.endsWith('_compile'))
  ) {
    compiles(ev, node, 'module._compile', args[0], argNodes[0]);
    return;
  }
  // `Module.prototype._compile.call(m, code)` / `.apply(m, [code])`, the receiver not followed.
  const via = calleeNode.type === 'MemberExpression' ? keyName(calleeNode.property as AstNode) : undefined;
  const fn = calleeNode.object as AstNode | undefined;
  if (
    (via === 'call' || via === 'apply') &&
    fn?.type === 'MemberExpression' &&
    keyName(fn.property as AstNode) === '_compile'
  ) {
    const code = via === 'call' ? args[1] : args[1]?.k === 'arr' ? args[1].items[0] : undefined;
    if (code) compiles(ev, node, 'module._compile', code, argNodes[1]);
  }
}

/** A function compiled at run time (`new Function(code)`, `vm.compileFunction`) is called. */
export function dynamicCall(ev: Evaluator, node: AstNode, callee: Val, args: Val[]): void {
  ev.effects.compiledFunctionCalled(node, callee);
  // `Function('r', code)(require)`: the code analysed again with its parameters bound to what
  // the call gives them (a module loader, a module, a known string), so `r('https')` is a require.
  if (callee.k !== 'dyn' || !callee.params || callee.code === undefined || (ev.input.nested ?? 0) >= 2)
    return;
  const lines: string[] = [];
  callee.params.forEach((p, i) => {
    const a = args[i];
    if (!a) return;
    const s = asString(a);
    if (a.k === 'global' && /^(?:require|process|globalThis|global|module|exports|Buffer)$/.test(a.name))
      lines.push(`var ${p} = ${a.name};`);
    else if (a.k === 'mod') lines.push(`var ${p} = require(${JSON.stringify(a.name)});`);
    else if (s !== undefined && !s.includes('${…}')) lines.push(`var ${p} = ${JSON.stringify(s)};`);
  });
  if (!lines.length || callee.code.length > 256_000 || !onceHere(ev, node, lines.join(' ') + callee.code))
    return;
  const nested = analyzeJsFile({
    ...ev.input,
    text: `${lines.join(' ')}\n${callee.code}`,
    nested: (ev.input.nested ?? 0) + 1,
    timeBudgetMs: 500,
  });
  ev.effects.nestedCode(node, 'Function (called with its arguments)', nested.findings, nested.caps);
}

/** `require('./build/Release/addon.node')`, `require('bindings')`. */
export function nativeLoad(ev: Evaluator, spec: string, at: AstNode): void {
  if (/\.node$/i.test(spec)) ev.effects.nativeAddon(at, spec);
  if (NATIVE_LOADERS.has(spec)) ev.effects.nativeLoader(at, spec, false, undefined);
}

/** `bindings('addon')`, `nodeGypBuild(dir)`: a native addon loaded. */
export function nativeModuleCall(ev: Evaluator, c: ModuleCall): Val | undefined {
  const { mod } = c;
  if (mod !== 'bindings' && mod !== 'node-gyp-build' && mod !== 'node-gyp-build-optional-packages')
    return undefined;
  const n = asString(c.args[0]);
  const addon = n && mod === 'bindings' ? (n.endsWith('.node') ? n : `${n}.node`) : undefined;
  ev.effects.nativeLoader(c.node, mod, true, addon);
  return UNKNOWN;
}
