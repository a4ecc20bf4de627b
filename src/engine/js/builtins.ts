/**
 * The language's built-in objects, for the evaluator: JSON, Object, Reflect, string and array
 * methods, Promise resolution. Lookups that reach a module member indirectly (descriptors,
 * Reflect.get, enumeration) are reported as effects.
 */
import { parse as parseYaml } from 'yaml';
import { comparedLiteral, keyName } from './ast';
import { dispatch } from './calls';
import type { Evaluator } from './evaluator';
import type { ApiCall } from './models/model';
import { secretFieldHandlers, storageDump } from './models/browser';
import { compiles } from './models/code';
import {
  UNKNOWN,
  anyMember,
  asNum,
  asString,
  deepTaints,
  str,
  unknown,
  withTaint,
  type AstNode,
  type Val,
  overCallerObject,
  TX_NAME,
} from './values';

/** A parsed JSON or YAML document as a value (bounded in depth and size; what is cut is unknown). */
export function dataValue(x: unknown, budget = { left: 5_000 }, depth = 0): Val {
  if (--budget.left < 0 || depth > 8) return UNKNOWN;
  if (typeof x === 'string') return { k: 'str', v: x.slice(0, 100_000) };
  if (typeof x === 'number') return { k: 'num', v: x };
  if (typeof x === 'boolean') return { k: 'bool', v: x };
  if (Array.isArray(x))
    return { k: 'arr', items: x.slice(0, 1_000).map((i) => dataValue(i, budget, depth + 1)) };
  if (x && typeof x === 'object') {
    const props = new Map<string, Val>();
    for (const [k, v] of Object.entries(x).slice(0, 1_000)) props.set(k, dataValue(v, budget, depth + 1));
    return { k: 'obj', props };
  }
  return UNKNOWN;
}

/**
 * `JSON.parse(text)`, `YAML.parse(text)` / `yaml.load(text)` of text known here (a configuration
 * file of the package read by the code): the document, so commands and addresses kept in data
 * files reach the calls that use them. Aliases are bounded (no billion-laughs expansion).
 */
export function parseData(c: ApiCall): Val | undefined {
  const json = c.mod === 'global:JSON' && c.path === 'parse';
  const yaml = (c.mod === 'yaml' && c.path === 'parse') || (c.mod === 'js-yaml' && c.path === 'load');
  if (!json && !yaml) return undefined;
  const text = c.a0?.k === 'str' ? c.a0.v : undefined;
  if (text === undefined || text.length > 64_000) return undefined;
  try {
    const doc: unknown = json ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 20, logLevel: 'error' });
    return withTaint(dataValue(doc), [c.a0!]);
  } catch {
    return undefined;
  }
}

/** The `raw` of an object handed to String.raw: a list, or a string's characters (bounded). */
function rawOf(r: Val | undefined): Val[] | undefined {
  if (r?.k === 'arr') return r.items;
  if (r?.k === 'str') return [...r.v.slice(0, 1000)].map((ch): Val => ({ k: 'str', v: ch }));
  return undefined;
}

/**
 * The first argument is CommonJS's own `exports` or `module.exports` (not shadowed): the object
 * the module exports (the one assigned to `module.exports`, if any, else `exports`).
 */
function moduleExportsArg(ev: Evaluator, c: ApiCall): (Val & { k: 'obj' }) | undefined {
  const n = (c.node.arguments as AstNode[] | undefined)?.[0];
  if (!n) return undefined;
  const named =
    n.type === 'Identifier'
      ? n.name === 'exports' && c.scope.lookup('exports') === undefined
      : n.type === 'MemberExpression' &&
        !n.computed &&
        (n.object as AstNode).type === 'Identifier' &&
        (n.object as AstNode).name === 'module' &&
        keyName(n.property as AstNode) === 'exports' &&
        c.scope.lookup('module') === undefined;
  if (!named) return undefined;
  const m = ev.moduleExportsVal;
  return n.type === 'MemberExpression' && m?.k === 'obj' ? m : ev.exportsObj;
}

/** JSON, Object and Reflect calls; `undefined` for other modules. */
export function builtinApi(ev: Evaluator, c: ApiCall): Val | undefined {
  const { node, mod, path, args, a0, s0, scope, depth } = c;
  // `Symbol.for(name)`: the same key wherever it is asked for by that name.
  if (mod === 'global:Symbol' && path === 'for') return { k: 'str', v: `\u0000symbol.for(${s0 ?? ''})` };
  // `pathToFileURL(file).href`: the file's path as a URL (what `import()` is then given); and back.
  if (mod === 'url' && path === 'pathToFileURL' && a0)
    return withTaint(
      {
        k: 'obj',
        props: new Map([
          ['href', a0],
          ['pathname', a0],
        ]),
      },
      [a0],
    );
  if (mod === 'url' && path === 'fileURLToPath' && a0?.k === 'str' && !a0.v.startsWith('file:')) return a0;
  // (`fileURLToPath(import.meta.url)`: the module's own file, as `__filename`.)
  if (mod === 'url' && path === 'fileURLToPath' && a0?.k === 'unknown' && a0.t?.has('own_dir')) return a0;
  // `String.raw(parts, ...values)` (a template tag handing its arguments on): the parts with the
  // values between them.
  // (Called directly, its first argument is any object with `raw`: a list, or a string whose
  // characters are the parts: `String.raw({ raw: 'ds' }, 'n')` is "dns".)
  const rawParts =
    mod === 'global:String' && path === 'raw'
      ? a0?.k === 'arr'
        ? a0.items
        : a0?.k === 'obj'
          ? rawOf(a0.props.get('raw'))
          : undefined
      : undefined;
  if (rawParts) {
    let out = '';
    rawParts.slice(0, 1000).forEach((p, i) => {
      out += asString(p) ?? '${…}';
      if (i < rawParts.length - 1) out += (i + 1 < args.length ? asString(args[i + 1]) : '') ?? '${…}';
    });
    return out.includes('${…}') ? withTaint({ k: 'str', v: out }, args) : str(out, args);
  }
  // `new Intl.ListFormat('en', { style: 'narrow', type: 'unit' }).format(['write', 'File', 'Sync'])`:
  // English lists joined as the API joins them (a name spelled out as a list).
  if (mod === 'global:Intl' && path === 'ListFormat') {
    const o = args[1]?.k === 'obj' ? args[1] : undefined;
    const type = asString(o?.props.get('type')) ?? 'conjunction';
    const style = asString(o?.props.get('style')) ?? 'long';
    if (/^en(?:-|$)/i.test(asString(a0) ?? 'en'))
      return { k: 'api', mod: `intl-list:${type}:${style}`, path: '' };
  }
  if (
    mod.startsWith('intl-list:') &&
    /(?:^|\.)format$/.test(path) &&
    a0?.k === 'arr' &&
    a0.items.length <= 100
  ) {
    const items = a0.items.map(asString);
    if (items.every((x): x is string => x !== undefined)) {
      const [, type, style] = mod.split(':');
      if (type === 'unit') return str(items.join(style === 'narrow' ? ' ' : ', '), args);
      const last = type === 'disjunction' ? 'or' : 'and';
      return str(
        items.length <= 2
          ? items.join(` ${last} `)
          : `${items.slice(0, -1).join(', ')}, ${last} ${items.at(-1)}`,
        args,
      );
    }
  }
  if (mod !== 'global:JSON' && mod !== 'global:Object' && mod !== 'global:Reflect') return undefined;
  const dumped = storageDump(c);
  if (dumped) return dumped;
  if (mod === 'global:JSON' && path === 'stringify') {
    if (a0?.k === 'env')
      ev.effects.envWhole(node, 'serialises the whole environment (JSON.stringify(process.env))');
    const json =
      a0 && (a0.k === 'obj' || a0.k === 'arr' || a0.k === 'str' || a0.k === 'num' || a0.k === 'bool')
        ? toJson(a0, 0)
        : undefined;
    if (json === undefined) return unknown(args);
    const out: Val = { k: 'str', v: json, ...(a0!.k === 'obj' || a0!.k === 'arr' ? { json: a0 } : {}) };
    const t = deepTaints(a0);
    if (t.size) out.t = t;
    return out;
  }
  if (mod === 'global:Object' || mod === 'global:Reflect') {
    if (a0?.k === 'env' && /^(?:keys|entries|values|assign|getOwnPropertyNames|ownKeys)$/.test(path))
      ev.effects.envWhole(node);
    if (args[1]?.k === 'env' && path === 'assign') ev.effects.envWhole(node);
    // Object.assign(target, …sources): the target gets the sources' properties (and what they
    // carry), and is what the call returns.
    if (path === 'assign' && a0?.k === 'obj') {
      const carried = new Set(a0.t);
      let afterCaller: Set<string> | undefined;
      const argNodes = (node.arguments ?? []) as AstNode[];
      for (const [i, src] of args.slice(1).entries()) {
        const argNode = argNodes[i + 1];
        const name =
          argNode?.type === 'Identifier'
            ? (argNode.name as string)
            : argNode?.type === 'MemberExpression' && !argNode.computed
              ? ((argNode.property as AstNode).name as string | undefined)
              : undefined;
        if (src?.k === 'unknown' && !src.t?.size && name && TX_NAME.test(name)) afterCaller ??= new Set();
        if (src?.k === 'obj')
          for (const [k, v] of src.props)
            if (a0.props.size < 10_000) {
              a0.props.set(k, v);
              afterCaller?.add(k);
            }
        for (const x of deepTaints(src)) carried.add(x);
      }
      if (afterCaller?.size) overCallerObject(a0.props, afterCaller);
      if (carried.size) a0.t = carried;
      // (Props merged for an input: `Object.assign({ autoComplete: 'cc-csc' }, props, { onBlur })`.)
      if (a0.props.size >= 2 && a0.props.size <= 64)
        secretFieldHandlers(ev, node, a0.props, c.scope, c.depth);
      return a0;
    }
    // `Object.defineProperty(o, 'net', { get() { return require('https'); } })`: a property read
    // through its getter (run when read, see callGetter), or set to the descriptor's value;
    // `Object.defineProperties(o, { a: desc, … })` the same for each.
    // (On CommonJS's `exports` or `module.exports`: what the module gives the files that load it.)
    const target = a0?.k === 'obj' ? a0 : moduleExportsArg(ev, c);
    if ((path === 'defineProperty' || path === 'defineProperties') && target) {
      const define = (key: string | undefined, desc: Val | undefined) => {
        if (key === undefined || desc?.k !== 'obj' || target.props.size >= 10_000) return;
        const get = desc.props.get('get');
        const value = desc.props.get('value');
        if (get?.k === 'fn') target.props.set(key, { ...get, getter: true });
        else if (value) target.props.set(key, value);
        if (target !== a0) ev.exportNames.add(key);
      };
      if (path === 'defineProperty') define(asString(args[1]), args[2]);
      else if (args[1]?.k === 'obj') for (const [k, d] of [...args[1].props].slice(0, 1000)) define(k, d);
      return mod === 'global:Reflect' ? { k: 'bool', v: true } : target;
    }
    // `Object.create(Parent.prototype)`: an object that has the prototype's methods (the ES5 way
    // to inherit: `Child.prototype = Object.create(Parent.prototype)`).
    if (path === 'create' && mod === 'global:Object' && a0?.k === 'obj' && a0.props.size <= 1000)
      return { k: 'obj', props: new Map(a0.props) };
    // `Object.getPrototypeOf(async function () {}).constructor`: the AsyncFunction constructor,
    // a Function constructor under another name (its `.constructor` is read from the function).
    if (path === 'getPrototypeOf' && a0?.k === 'fn') return a0;
    if (path === 'keys' || path === 'getOwnPropertyNames' || path === 'ownKeys')
      return a0 ? { k: 'keys', of: a0 } : UNKNOWN;
    // The entries carry the object's data (the environment's values, with its taint).
    if (path === 'entries') return a0 ? withTaint({ k: 'entries', of: a0 }, [a0]) : UNKNOWN;
    if (path === 'values' && a0?.k === 'obj')
      return { k: 'arr', items: [...a0.props.values()].slice(0, 10_000) };
    if (path === 'values' && a0?.k === 'arr') return a0;
    // Object.fromEntries(pairs or a Map): an object of those pairs, their data with it.
    if (path === 'fromEntries' && a0) {
      if (a0.k === 'arr') {
        const props = new Map<string, Val>();
        for (const p of a0.items.slice(0, 1000)) {
          const key = p.k === 'arr' ? asString(p.items[0]) : undefined;
          if (key !== undefined && p.k === 'arr') props.set(key, p.items[1] ?? UNKNOWN);
        }
        return withTaint({ k: 'obj', props }, [a0, { k: 'unknown', t: deepTaints(a0) }]);
      }
      return withTaint({ k: 'unknown' }, [{ k: 'unknown', t: deepTaints(a0) }]);
    }
    if (path === 'getOwnPropertyDescriptor' && a0 && s0 === undefined) {
      const key = asString(args[1]);
      if (key !== undefined) {
        // A name a caller wrote plainly (`getBuiltIn('fetch')` → descriptor of globalThis[name])
        // is a polyfill's lookup, not a hidden one.
        if (!args[1]!.listed) ev.effects.indirectMember(node, a0, key, 'descriptor');
        return { k: 'desc', of: a0, key };
      }
    }
    if (mod === 'global:Reflect' && path === 'get' && a0) {
      const key = asString(args[1]);
      if (key !== undefined) {
        const v = ev.member(a0, key, node, scope, true);
        ev.effects.indirectMember(node, a0, key, 'reflect');
        return v;
      }
    }
    if (mod === 'global:Reflect' && path === 'apply' && a0) {
      const list = args[2]?.k === 'arr' ? args[2].items : [];
      // `Reflect.apply(Module.prototype._compile, m, [code, file])`: the code is compiled.
      if (a0.k === 'api' && a0.path.endsWith('_compile') && list[0]) {
        compiles(ev, node, 'module._compile', list[0], undefined);
        return UNKNOWN;
      }
      return dispatch(ev, node, a0, list, [], scope, false, depth);
    }
    // `Reflect.construct(Function, [params…, body])` is `new Function(params…, body)`.
    if (mod === 'global:Reflect' && path === 'construct' && a0) {
      return dispatch(ev, node, a0, args[1]?.k === 'arr' ? args[1].items : [], [], scope, true, depth);
    }
    return unknown(args);
  }
  return undefined;
}

/**
 * `Promise.resolve(x)` holds x; `Promise.all([a, b])` / `allSettled` the list of what they hold;
 * `race` / `any` one of them.
 */
export function promiseStatic(c: ApiCall): Val | undefined {
  // `Readable.from(items)`: a stream of the items, carrying what they carry (piped on later).
  if (c.mod === 'stream' && /^(?:Readable\.)?from$/.test(c.path) && c.a0) {
    // (Of known text, the text itself: what a pipe into a program's stdin hands it.)
    if (c.a0.k === 'str') return c.a0;
    if (c.a0.k === 'arr' && c.a0.items.length <= 256 && c.a0.items.every((i) => i.k === 'str')) {
      const text = c.a0.items.map((i) => (i as { v: string }).v).join('');
      if (text.length <= 1_000_000) return withTaint({ k: 'str', v: text }, c.a0.items);
    }
    const t = deepTaints(c.a0);
    return t.size ? { k: 'unknown', t } : UNKNOWN;
  }
  // `Array.from(list)` / `Array.from(text)` copy, `Array.of(a, b)` lists (a mapping function is
  // left to the general case).
  if (c.mod === 'global:Array' && c.path === 'of') return { k: 'arr', items: c.args.slice(0, 10_000) };
  // `Array.isArray(spec) ? spec : [spec]`: a list made here is one, a text, number, function or
  // object literal is not (a Map kept as its pairs is not either).
  if (c.mod === 'global:Array' && c.path === 'isArray' && c.a0) {
    const a = c.a0;
    if (a.k === 'arr') return { k: 'bool', v: !a.map };
    if (a.k === 'str' || a.k === 'num' || a.k === 'bool' || a.k === 'fn' || (a.k === 'obj' && !a.trap))
      return { k: 'bool', v: false };
  }
  // `await Array.fromAsync(iterable)`: the items the iterable gives, with what they carry.
  if (c.mod === 'global:Array' && c.path === 'fromAsync' && c.a0)
    return c.a0.k === 'arr' ? { k: 'arr', items: [...c.a0.items], t: c.a0.t } : unknown([c.a0]);
  if (c.mod === 'global:Array' && c.path === 'from' && c.args.length === 1) {
    const a = c.a0;
    if (a?.k === 'arr') return { k: 'arr', items: [...a.items], t: a.t };
    if (a?.k === 'str' && !a.v.includes('${…}') && a.v.length <= 10_000)
      return withTaint({ k: 'arr', items: Array.from(a.v, (ch): Val => ({ k: 'str', v: ch })) }, [a]);
  }
  if (c.mod !== 'global:Promise') return undefined;
  if (c.path === 'resolve') return c.a0 ?? UNKNOWN;
  if ((c.path === 'all' || c.path === 'allSettled') && c.a0) return c.a0;
  if ((c.path === 'race' || c.path === 'any') && c.a0?.k === 'arr')
    return withTaint({ ...(c.a0.items.find((i) => i.k !== 'unknown') ?? UNKNOWN) }, c.a0.items);
  return undefined;
}

/** `new Promise((resolve) => resolve(x))`: the promise holds x. */
export function promiseResolve(ev: Evaluator, c: ApiCall): Val {
  if (c.path === 'resolve' && c.a0) ev.resolving[ev.resolving.length - 1]?.push(c.a0);
  return UNKNOWN;
}

/**
 * Secrets encoded (`Buffer.from(JSON.stringify(env)).toString('base64')`, `btoa(…)`): marked so,
 * for the job-log rule (a CI runner masks the secrets it knows only as they are written).
 */
export function markEncoded(out: Val): Val {
  return out.t?.has('env_all') || out.t?.has('secret_file') ? withTaint(out, [out], 'encoded') : out;
}

/** `x.toString('base64' | 'hex')` of secrets: see markEncoded. */
export function encodedSecret(out: Val, method: string, args: Val[]): Val {
  return method === 'toString' && /^(?:base64(?:url)?|hex)$/i.test(asString(args[0]) ?? '')
    ? markEncoded(out)
    : out;
}

export function stringMethod(callee: Val & { k: 'api' }, method: string, args: Val[]): Val {
  const base = callee.base;
  const s = asString(base);
  // An unknown string keeps its data's taint through any method (`hex.match(/.{1,60}/g)`).
  if (s === undefined)
    return encodedSecret(unknown([callee, ...(base ? [base] : []), ...args]), method, args);
  const from = [callee, ...args];
  const n = (i: number) => asNum(args[i]);
  switch (method) {
    case 'toString':
      // A buffer whose bytes were changed in place (decrypted by a loop): the text they make, in
      // the encoding asked for (decoded data; a buffer left as it was is its text, as before).
      if (base?.k === 'str' && base.bytes && !/^(?:base64(?:url)?|hex)$/i.test(asString(args[0]) ?? '')) {
        const enc = /^(?:latin1|binary|ascii)$/i.test(asString(args[0]) ?? '') ? 'latin1' : 'utf8';
        const text = Buffer.from(base.bytes).toString(enc);
        if (text !== s) return withTaint(str(text), [callee, base], 'decoded');
      }
      // Bytes of a string only partly known, encoded (`Buffer.from(prefix + script).toString('base64')`):
      // the encoding of the unknown part is not known either; its data stays with it.
      if (s.includes('${…}') && /^(?:base64(?:url)?|hex)$/i.test(asString(args[0]) ?? ''))
        return encodedSecret(unknown(from), method, args);
      return encodedSecret(str(s, from), method, args);
    case 'valueOf':
    case 'trim':
    case 'normalize':
      return str(s, from);
    case 'trimStart':
    case 'trimEnd':
      return str(s[method](), from);
    case 'at': {
      const i = n(0) ?? 0;
      return str(s.at(i) ?? '', from);
    }
    case 'padStart':
    case 'padEnd': {
      const fill = args.length > 1 ? asString(args[1]) : ' ';
      if (fill === undefined) return unknown(from);
      return str(s[method](Math.min(n(0) ?? 0, 10_000), fill), from);
    }
    case 'toLowerCase':
    case 'toLocaleLowerCase':
      return str(s.toLowerCase(), from);
    case 'toUpperCase':
    case 'toLocaleUpperCase':
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
    case 'codePointAt':
      // (A character of data is still that data: `[...json].map((c) => c.charCodeAt(0).toString(16))`.)
      return withTaint({ k: 'num', v: s[method](n(0) ?? 0) ?? NaN }, [...from, ...(base ? [base] : [])]);
    default:
      return unknown(from);
  }
}

/** `list.flat(depth)`, bounded at every level (nested lists can repeat one another, or themselves). */
function flatten(items: Val[], depth: number): Val[] | undefined {
  let out = items;
  for (let d = depth; d > 0; d--) {
    const next: Val[] = [];
    for (const i of out) {
      const add = i.k === 'arr' ? i.items : [i];
      if (next.length + add.length > 10_000) return undefined;
      next.push(...add);
    }
    out = next;
  }
  return out;
}

/** Array helpers: join/reverse on constants, and `Object.keys(m).find(n => n === 'x')`. */
/** A list an array method made: code walked but not run that made it may fill it, as a literal's. */
function newList(ev: Evaluator, items: Val[], t: Val['t']): Val {
  const list: Val = { k: 'arr', items, t };
  if (ev.effects.dormant > 0) list.born = ev.effects.dormant;
  return list;
}

export function arrayMethod(
  ev: Evaluator,
  node: AstNode,
  callee: Val & { k: 'api' },
  method: string,
  args: Val[],
): Val {
  const base = callee.base;
  // A Map from pairs: get/set/keys/values/entries on its pairs; forEach gets (value, key).
  if (base?.k === 'arr' && base.map) {
    const key = asString(args[0]);
    const pairs = base.items.filter((p): p is Val & { k: 'arr' } => p.k === 'arr' && p.items.length >= 2);
    // (A key that is an object, as in a WeakMap: the pair set with that very value, else the only
    // pair there is.)
    if (method === 'get')
      return (
        pairs.find((p) =>
          key !== undefined ? asString(p.items[0]) === key : args[0] !== undefined && p.items[0] === args[0],
        )?.items[1] ??
        (args[0]?.k === 'obj' && pairs.length === 1 ? pairs[0]!.items[1] : undefined) ??
        // (A key not known here: any of its values, as for an object's property.)
        (key === undefined && args[0]?.k === 'unknown' && pairs.length
          ? anyMember({ k: 'arr', items: pairs.map((p) => p.items[1]!) })
          : undefined) ??
        unknown([base])
      );
    if (method === 'set' && args.length >= 2 && base.items.length < 1000) {
      base.items.push({ k: 'arr', items: [args[0]!, args[1]!] });
      ev.filled(base);
      return base;
    }
    if (method === 'keys') return { k: 'arr', items: pairs.map((p) => p.items[0]!) };
    if (method === 'values') return { k: 'arr', items: pairs.map((p) => p.items[1]!) };
    if (method === 'entries') return { k: 'arr', items: pairs };
  }
  if (base?.k === 'arr') {
    // Taint of the elements travels with what is built from them (join, concat, …).
    const deep: Val = { k: 'unknown' };
    const dt = deepTaints(base);
    if (dt.size) deep.t = dt;
    if (method === 'join') {
      const parts = base.items.map(asString);
      const sep = args.length ? asString(args[0]) : ',';
      if (sep !== undefined && parts.every((p) => p !== undefined)) return str(parts.join(sep), [base, deep]);
      if (sep !== undefined)
        return withTaint({ k: 'str', v: parts.map((p) => p ?? '${…}').join(sep) }, [base, deep]);
    }
    // `list.toString()` is `list.join()`.
    if (method === 'toString' && args.length === 0) {
      const parts = base.items.map(asString);
      if (parts.every((p) => p !== undefined)) return str(parts.join(','), [base, deep]);
    }
    // `list.at(-1)`: one element.
    if (method === 'at' && args[0]?.k === 'num') {
      const item = base.items.at(args[0].v);
      if (item) return base.t?.size ? withTaint({ ...item } as Val, [item, base]) : item;
    }
    if (method === 'reverse' || method === 'toReversed') {
      // A text cut into its characters and reversed (`s.split('').reverse().join('')`): a string
      // written backwards to hide it, decoded here.
      const chars = base.items.length >= 20 && base.items.every((i) => i.k === 'str' && i.v.length <= 1);
      return withTaint({ k: 'arr', items: [...base.items].reverse() }, [base], chars ? 'decoded' : undefined);
    }
    // cmd.slice(1): the rest of a command kept as one list.
    if (method === 'slice' && args.every((a) => a.k === 'num')) {
      const [from, to] = args.map((a) => (a as { v: number }).v);
      return { k: 'arr', items: base.items.slice(from, to), t: base.t };
    }
    // list.push(x) / unshift(x) / set.add(x): collections filled step by step keep their elements
    // (bounded); past the bound they keep at least what the elements carried.
    // Code walked where it is defined but not run (a function nobody has called yet) does not
    // move elements: only what it would add is remembered, as taint. (Unless that same code made
    // the list: `const args = [...]; if (x) args.push(...)` inside the function.)
    const dormant = ev.effects.dormant;
    const live = dormant === 0 || (base.born !== undefined && dormant >= base.born);
    if (method === 'push' || method === 'unshift' || method === 'add') {
      if (live && base.items.length + args.length <= 1000) {
        if (method === 'unshift') base.items.unshift(...args);
        else base.items.push(...args);
        ev.filled(base);
      } else {
        const carried = new Set(base.t);
        for (const a of args) for (const x of deepTaints(a)) carried.add(x);
        if (carried.size) base.t = carried;
      }
      return method === 'add' ? base : { k: 'num', v: base.items.length };
    }
    // list.shift() / pop(): the element taken out (a string table rotated by push(shift())).
    if ((method === 'shift' || method === 'pop') && args.length === 0) {
      const item = live
        ? method === 'shift'
          ? base.items.shift()
          : base.items.pop()
        : base.items[method === 'shift' ? 0 : base.items.length - 1];
      if (!item) return unknown([base, deep]);
      // (In a handler that runs again and again, or walked where it is defined and not run, which
      // element it takes is not known: it carries what any of them carries, as `const next =
      // steps.shift()` in a socket's data handler walks a whole conversation.)
      if ((!live || ev.repeating > 0) && dt.size) return withTaint({ ...item } as Val, [item, base, deep]);
      return base.t?.size ? withTaint({ ...item } as Val, [item, base]) : item;
    }
    // list.splice(at, n, ...items): the items inserted are kept too.
    if (method === 'splice' && args.length > 2) {
      const at = args[0]?.k === 'num' ? args[0].v : base.items.length;
      const n = args[1]?.k === 'num' ? args[1].v : 0;
      if (live && base.items.length + args.length <= 1000) base.items.splice(at, n, ...args.slice(2));
      else {
        const carried = new Set(base.t);
        for (const a of args.slice(2)) for (const x of deepTaints(a)) carried.add(x);
        if (carried.size) base.t = carried;
      }
      return UNKNOWN;
    }
    // list.filter(test) with a test not walked here (`[opts.bcc, extra].filter(Boolean)`): the
    // items, as for a callback, less the ones known to be falsy (they carry nothing).
    if (method === 'filter' && args[0]?.k !== 'fn' && base.items.length <= 10_000) {
      const falsy = (v: Val) =>
        (v.k === 'str' && v.v === '' && !v.t?.size) ||
        (v.k === 'num' && (v.v === 0 || Number.isNaN(v.v))) ||
        (v.k === 'bool' && !v.v);
      return newList(
        ev,
        base.items.filter((v) => !falsy(v)),
        base.t,
      );
    }
    // list.concat(more, 'x'): lists given are spread, anything else is one more element.
    if (method === 'concat') {
      // (Counted before anything is copied: a thousand lists of ten thousand would not fit.)
      const total = args.reduce((n, a) => n + (a.k === 'arr' ? a.items.length : 1), base.items.length);
      if (total <= 10_000) {
        const items = [...base.items];
        for (const a of args) items.push(...(a.k === 'arr' ? a.items : [a]));
        return newList(ev, items, base.t);
      }
    }
    // list.flat(depth): the nested lists' elements in order (bounded).
    if (method === 'flat' && (args.length === 0 || args[0]?.k === 'num')) {
      const items = flatten(base.items, args.length ? Math.min((args[0] as { v: number }).v, 4) : 1);
      if (items) return { k: 'arr', items, t: base.t };
    }
    return unknown([base, deep, ...args]);
  }
  // The environment's names sorted, reversed or copied (`Object.keys(process.env).sort()`) are
  // still its names.
  if (
    base?.k === 'keys' &&
    base.of.k === 'env' &&
    /^(?:sort|reverse|slice|toSorted|toReversed|concat)$/.test(method)
  )
    return base;
  // Object.keys(x).find(n => n === 'spawn') and Object.entries(x).find(([n]) => n === 'spawn')
  if ((base?.k === 'keys' || base?.k === 'entries') && (method === 'find' || method === 'filter')) {
    const fn = args[0];
    const key = fn?.k === 'fn' ? comparedLiteral(fn.node) : undefined;
    // (Some of the environment's names, picked by a test not known here, are still its names.)
    if (key === undefined)
      return base.k === 'keys' && base.of.k === 'env' && method === 'filter' ? base : UNKNOWN;
    ev.effects.indirectMember(node, base.of, key, 'enumeration');
    if (base.k === 'keys') return { k: 'str', v: key, obf: true };
    return method === 'find' ? { k: 'entry', of: base.of, key } : { k: 'entrylist', of: base.of, key };
  }
  return unknown([callee, ...args]);
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

/** `new Map([[k, v], …])` / `new Set([…])`: collections built from a known list keep its items. */
export function collectionGlobal(c: {
  name: string;
  a0: Val | undefined;
  args?: Val[];
  node?: AstNode;
}): Val | undefined {
  // `Symbol('state')`: a key no other code can spell, one per place it is made, so that
  // `obj[STATE] = x` and `obj[STATE]` meet (`Symbol.for(name)` is the same key everywhere).
  if (c.name === 'Symbol')
    return {
      k: 'str',
      v: `\u0000symbol(${asString(c.a0) ?? ''})@${(c.node?.start as number | undefined) ?? 0}`,
    };
  // `String(k)` of a string or a number known here: its text, with what it carries.
  if (c.name === 'String' && (c.a0?.k === 'str' || c.a0?.k === 'num'))
    return c.a0.k === 'str' ? c.a0 : { k: 'str', v: String(c.a0.v) };
  // A deep copy holds what the original held; a Proxy stands for its target (wrappers that
  // forward every call: what is done through it is done to the target), unless its handler has a
  // `get` trap: then what a read gives is what the trap returns for the key (a lazy loader:
  // `new Proxy({}, { get: (_, k) => require(k) })`).
  if (c.name === 'Proxy') {
    const handler = c.args?.[1];
    const get = handler?.k === 'obj' ? handler.props.get('get') : undefined;
    // (A Proxy of anything but a plain object, `process.env` say, is still that thing.)
    if (get?.k === 'fn' && c.a0?.k === 'obj')
      return { k: 'obj', props: c.a0.props, trap: { get, target: c.a0 } };
    // (A target not known here, an empty cache made some other way: the trap still answers.)
    if (get?.k === 'fn' && c.a0?.k === 'unknown' && !c.a0.t?.size) {
      const target: Val & { k: 'obj' } = { k: 'obj', props: new Map() };
      return { k: 'obj', props: target.props, trap: { get, target } };
    }
    return c.a0 ?? UNKNOWN;
  }
  if (c.name === 'structuredClone') return c.a0 ?? UNKNOWN;
  if (c.name !== 'Map' && c.name !== 'Set' && c.name !== 'WeakMap' && c.name !== 'WeakSet') return undefined;
  // (`new Map(Object.entries(obj))`: the object's properties as pairs.)
  const a0 = c.a0;
  const items =
    a0?.k === 'arr'
      ? [...a0.items]
      : a0?.k === 'entries' && a0.of.k === 'obj'
        ? [...a0.of.props].slice(0, 1000).map(([k, v]): Val => ({ k: 'arr', items: [{ k: 'str', v: k }, v] }))
        : [];
  return c.name === 'Map' || c.name === 'WeakMap' ? { k: 'arr', items, map: true } : { k: 'arr', items };
}
