/**
 * Module loading, for the evaluator: `require`, `import`, dynamic `import()`, exports, and the
 * package-local modules whose exports are analysed once per package (cross-file flow, bounded).
 */
import { isBuiltin } from 'node:module';
import { keyName } from './ast';
import { runFile, type JsFileInput } from './analyze';
import type { Evaluator } from './evaluator';
import { dataValue } from './builtins';
import { nativeLoad } from './models/code';
import { NETWORK_CLIENT_MODULES } from './models/network';
import { SPAWN_MODULES } from './models/process';
import type { Scope } from './scope';
import { UNKNOWN, canonicalModule, type AstNode, type Val } from './values';

/** At most this many package-local modules are analysed for their exports per package, this deep. */
const MAX_LOCAL_MODULES = 40;
const MAX_MODULE_DEPTH = 6;

/** The value a module specifier loads: a package-local module's exports, or the module itself. */
export function loadModule(ev: Evaluator, spec: string, at: AstNode, specVal: Val | undefined): Val {
  const name = canonicalModule(spec);
  ev.requires.add(spec);
  ev.effects.moduleLoaded(at, spec, name, specVal);
  nativeLoad(ev, spec, at);
  // Compilers' module-interop helpers shipped as packages (Babel's runtime, SWC's helpers): what
  // they give back is the module they are handed (`_interopRequireDefault(require('fs')).default`).
  if (INTEROP_HELPER.test(spec)) return { k: 'api', mod: 'interop', path: '' };
  // `require(path.join(__dirname, '..', 'plan.json'))`: a file of the package by its path.
  const own = /^\$\{…\}\/(.+)$/.exec(spec)?.[1];
  // (A file of its own folder picked at run time, `path.join(__dirname, 'platform', `${os}.mjs`)`:
  // the pattern is kept, for the install analysis to read every file it can name.)
  if (own !== undefined && specVal?.t?.has('own_dir') && own.includes('${…}')) ev.requires.add(`./${own}`);
  const local = own !== undefined && specVal?.t?.has('own_dir') && !own.includes('${…}') ? `./${own}` : spec;
  return localModule(ev, local) ?? { k: 'mod', name };
}

/** Packages the API models read by name (HTTP clients, process runners, archives, …). */
const MODELLED_PACKAGE =
  /^(?:ws|socket\.io-client|websocket|isomorphic-ws|discord\.js|discord-webhook-node|webhook-discord|node-telegram-bot-api|telegraf|@slack\/webhook|nodemailer|emailjs|@sendgrid\/mail|mailgun\.js|basic-ftp|ftp|jsftp|ssh2-sftp-client|node-scp|scp2|@aws-sdk\/client-s3|aws-sdk|@google-cloud\/storage|@azure\/storage-blob|form-data|tar|unzipper|adm-zip|asar|@electron\/asar|electron|glob|fast-glob|globby|tiny-glob|rimraf|del|trash|premove|bindings|node-gyp-build|prebuild-install|node-pre-gyp|@mapbox\/node-pre-gyp|js-yaml|yaml|libnpmpublish|magic-string|node-serialize|funcster|serialize-to-js|open|tslib|zod|@whiskeysockets\/baileys|baileys)(?:\/|$)/;

function modelled(spec: string): boolean {
  const name = /^(?:@[^/]+\/)?[^/]+/.exec(spec)?.[0] ?? spec;
  return (
    // (Node's own modules load before anything under node_modules/ of the same name.)
    isBuiltin(spec) ||
    canonicalModule(name) !== name ||
    NETWORK_CLIENT_MODULES.has(name) ||
    SPAWN_MODULES.has(name) ||
    MODELLED_PACKAGE.test(spec)
  );
}

const INTEROP_HELPER =
  /^@babel\/runtime(?:-corejs\d)?\/helpers\/(?:esm\/)?interopRequire(?:Default|Wildcard)(?:\.js)?$|^@swc\/helpers\/(?:_\/)?_interop_require_(?:default|wildcard)(?:\.c?js)?$/;

/** The exports of a package-local module (`./util`, or a bundled dependency), analysed once per package (bounded). */
function localModule(ev: Evaluator, spec: string): Val | undefined {
  const host = ev.input.modules;
  if (!host) return undefined;
  // (A package name resolves only to a dependency the package ships under node_modules/, and not
  // when an API model reads that package by its name: a bundled graceful-fs is still fs.)
  if (!spec.startsWith('.') && modelled(spec)) return undefined;
  const file = host.resolve(ev.input.path, spec);
  if (!file) return undefined;
  // `require('./defaults.json')`: the document (what it keeps reaches the calls that use it).
  if (/\.json$/i.test(file.path)) {
    if (file.text.length > 256_000) return undefined;
    try {
      return dataValue(JSON.parse(file.text));
    } catch {
      return undefined;
    }
  }
  const cached = host.cache.get(file.path);
  if (cached !== undefined) {
    // Timers and handlers the module set while loading run after the importer's top level too.
    for (const d of host.deferred?.get(file.path) ?? []) if (ev.deferred.length < 64) ev.deferred.push(d);
    return cached ?? undefined;
  }
  if (host.cache.size >= MAX_LOCAL_MODULES || (ev.input.moduleDepth ?? 0) >= MAX_MODULE_DEPTH)
    return undefined;
  host.cache.set(file.path, null); // in progress (cycles see the plain module)
  const childInput: JsFileInput = {
    ...ev.input,
    path: file.path,
    text: file.text,
    installTime: ev.installTime,
    // Required by code that runs when the package loads: its top level runs then too.
    entry: !!ev.input.entry && ev.effects.dormant === 0,
    nested: 0,
    moduleDepth: (ev.input.moduleDepth ?? 0) + 1,
  };
  const { evaluator: child, result } = runFile(childInput);
  if (child.deferred.length) host.deferred?.set(file.path, child.deferred);
  for (const d of child.deferred) if (ev.deferred.length < 64) ev.deferred.push(d);
  // The file's own analysis is kept for when the package loop reaches it.
  host.results.set(file.path, {
    installTime: ev.installTime,
    entry: !!childInput.entry,
    text: file.text,
    result,
  });
  if (!result.parsed) return undefined;
  const v = child.exportsValue();
  host.cache.set(file.path, v);
  return v;
}

export function importDecl(ev: Evaluator, node: AstNode, scope: Scope): Val {
  const src = (node.source as AstNode)?.value;
  if (typeof src !== 'string') return UNKNOWN;
  if (node.importKind === 'type') return UNKNOWN;
  const loaded = loadModule(ev, src, node, undefined);
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
            : ev.member(loaded, imported, node, scope, false),
      );
    }
    return UNKNOWN;
  }
  const mod = loaded;
  for (const s of (node.specifiers ?? []) as AstNode[]) {
    const local = (s.local as AstNode).name as string;
    if (s.type === 'ImportSpecifier') {
      const imported = keyName(s.imported as AstNode) ?? local;
      // (In a worker's code, `import { workerData } from 'node:worker_threads'` is what its parent
      // gave it.)
      if (mod.name === 'worker_threads' && imported === 'workerData' && ev.input.workerData) {
        scope.vars.set(local, ev.input.workerData);
        continue;
      }
      scope.vars.set(local, imported === 'default' ? mod : { k: 'api', mod: mod.name, path: imported });
    } else scope.vars.set(local, mod);
  }
  return UNKNOWN;
}

export function exportDecl(ev: Evaluator, node: AstNode, scope: Scope, depth: number): Val {
  if (node.source) {
    const src = (node.source as AstNode).value;
    if (typeof src === 'string') loadModule(ev, src, node, undefined);
  }
  if (node.type === 'ExportDefaultDeclaration') ev.exportNames.add('default');
  const decl = node.declaration as AstNode | null | undefined;
  if (decl) {
    const id = (decl.id as AstNode | undefined)?.name;
    if (typeof id === 'string') ev.exportNames.add(id);
    for (const d of (decl.declarations ?? []) as AstNode[]) {
      const n = (d.id as AstNode)?.name;
      if (typeof n === 'string') ev.exportNames.add(n);
    }
    const v = ev.walk(decl, scope, depth + 1);
    // Exported values, for the other files of the package.
    if (node.type === 'ExportDefaultDeclaration') {
      const fnDecl = decl.type === 'FunctionDeclaration';
      const named = typeof id === 'string' ? scope.lookup(id) : undefined;
      ev.exportsObj.props.set('default', named ?? (fnDecl ? ev.fnVal(decl, scope) : v));
    } else {
      if (typeof id === 'string') {
        const x = scope.lookup(id);
        if (x) ev.exportsObj.props.set(id, x);
      }
      for (const d of (decl.declarations ?? []) as AstNode[]) {
        const n = (d.id as AstNode)?.name;
        const x = typeof n === 'string' ? scope.lookup(n) : undefined;
        if (typeof n === 'string' && x) ev.exportsObj.props.set(n, x);
      }
    }
  }
  for (const s of (node.specifiers ?? []) as AstNode[]) {
    const n = keyName(s.exported as AstNode);
    if (n) ev.exportNames.add(n);
    const local = keyName(s.local as AstNode);
    const x = !node.source && local ? scope.lookup(local) : undefined;
    if (n && x) ev.exportsObj.props.set(n, x);
  }
  if (node.type === 'ExportAllDeclaration') {
    const n = keyName(node.exported as AstNode);
    ev.exportNames.add(n ?? `* from ${String((node.source as AstNode)?.value)}`);
  }
  return UNKNOWN;
}
