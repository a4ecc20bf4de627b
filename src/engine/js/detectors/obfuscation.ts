/**
 * Obfuscation detectors: sensitive APIs reached by names computed at run time, decoded, looked up
 * through descriptors, Reflect or enumeration, or written in brackets; modules required by built
 * names; obfuscator idioms (`_0x` identifiers, `!![]` booleans, rotation-keyed string arrays,
 * self-redefining helpers, local decoders); homoglyph and zero-width characters in identifiers.
 * Minifier output has none of these shapes.
 */
import { hasZeroWidth, isAscii as isAsciiText, isMixedScriptIdentifier } from '../../text';
import { lineOf } from '../ast';
import { NETWORK_CLIENT_MODULES } from '../models/network';
import type { Scope } from '../scope';
import { asString, type AstNode, type Val } from '../values';
import type { Detectors } from './index';

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

/** Modules whose loading by a built name is the stronger signal. */
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

/** The global object itself stands for `global` in the sensitive-member table. */
function asOwner(v: Val): Val {
  return v.k === 'global' && v.name === 'globalObject' ? { k: 'global', name: 'global' } : v;
}

function describeVal(v: Val): string {
  if (v.k === 'mod') return v.name;
  if (v.k === 'global') return v.name;
  return 'value';
}

const HEX_NAME = /^_0x[0-9a-f]{3,}$/i;

function hexId(d: Detectors, n: AstNode): void {
  const name = n.name as string;
  if (!d.hexIds.has(name)) {
    d.hexIds.add(name);
    if (d.hexIdLines.length < 20) d.hexIdLines.push(lineOf(n));
  }
}

function isAscii(name: string): boolean {
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** A declared or referenced identifier: `_0x` names, zero-width characters, mixed scripts. */
export function identifier(d: Detectors, n: AstNode | null | undefined): void {
  if (!n || n.type !== 'Identifier') return;
  const name = n.name as string;
  // An ASCII file has only ASCII names (its text is tested once, not each identifier).
  if ((d.asciiText ??= isAsciiText(d.input.text)) || isAscii(name)) {
    // `_0x…` names only (the first character is tested before the regex: this runs per identifier).
    if (name.charCodeAt(0) === 95 && HEX_NAME.test(name)) hexId(d, n);
    return;
  }
  if (hasZeroWidth(name)) {
    d.threat(
      'js.zero-width-identifier',
      'prompt_injection',
      n,
      `identifier contains an invisible zero-width character; two names that look identical differ`,
    );
  } else if (isMixedScriptIdentifier(name)) {
    d.threat(
      'js.homoglyph-identifier',
      'prompt_injection',
      n,
      `identifier "${name}" mixes Latin with Cyrillic/Greek look-alike letters (homoglyph)`,
    );
  }
}

export function assignedIdentifier(d: Detectors, n: AstNode): void {
  if (HEX_NAME.test(n.name as string)) hexId(d, n);
}

/** Hex-named identifiers (_0x1a2b): obfuscator.io output, never minifier output. */
export function hexIdentifiers(d: Detectors): void {
  if (d.hexIds.size < 3) return;
  for (const line of [...new Set(d.hexIdLines)].slice(0, 8)) {
    d.threat(
      'js.hex-identifiers',
      'malicious_code',
      line,
      `${d.hexIds.size} identifiers named like _0x1a2b (obfuscator output)`,
      d.hexIds.size >= 8 ? 'many' : undefined,
    );
  }
}

/**
 * Plain names written as `\u` escapes (`'\u006c\u0065\u006e…'` for "length") among dense hex
 * arithmetic: the output of a custom obfuscator. Minifiers and transpilers never escape ASCII
 * letters; none of the 1,050 popular packages has 20 such escapes in one file.
 */
export function escapedNames(d: Detectors): void {
  const text = d.input.text;
  if (text.length < 4_000) return;
  const escapes = text.match(/\\u00(?:6[1-9a-f]|7[0-9a]|4[1-9a-f]|5[0-9a])/gi)?.length ?? 0;
  if (escapes < 20) return;
  const hexPerKb = (text.match(/\b0x[0-9a-fA-F]+\b/g)?.length ?? 0) / (text.length / 1024);
  if (hexPerKb < 5) return;
  const at = text.search(/\\u00(?:6[1-9a-f]|7[0-9a])/i);
  d.threat(
    'js.escaped-names',
    'malicious_code',
    d.lines.lineOf(at),
    `writes ${escapes} letters of plain names as \\u escapes among dense hex arithmetic (a custom obfuscator)`,
    d.install,
  );
}

/** A function that replaces itself with `function () { return array }` (string-array helper). */
export function selfRedefinition(d: Detectors, node: AstNode, name: string, value: Val, scope: Scope): void {
  if (value.k === 'fn' && scope.fnName === name) {
    d.threat(
      'js.self-redefining-function',
      'malicious_code',
      node,
      `function ${name} redefines itself on first call (string-array helper idiom)`,
    );
  }
}

/** `!![]`, `+!!false`, `![]`: booleans and numbers built from literals (obfuscator idiom). */
export function jsfuckBoolean(d: Detectors, node: AstNode): void {
  if (node.operator !== '!' && node.operator !== '+') return;
  const arg = node.argument as AstNode;
  const inner = arg.type === 'UnaryExpression' && arg.operator === '!' ? (arg.argument as AstNode) : arg;
  const isEmptyArr = inner.type === 'ArrayExpression' && !((inner.elements as unknown[]) ?? []).length;
  const isBoolLit =
    (inner.type === 'Literal' || inner.type === 'BooleanLiteral') && typeof inner.value === 'boolean';
  if ((isEmptyArr && (node.operator === '!' || arg !== inner)) || (isBoolLit && arg !== inner)) {
    d.threat(
      'js.jsfuck-boolean',
      'malicious_code',
      node,
      'builds booleans/numbers from `!![]`, `+!!false` style expressions (obfuscator idiom, not minifier output)',
    );
  }
}

/** An array of rotation-keyed strings (`'123abc'`): an obfuscator's string table. */
export function stringArray(d: Detectors, node: AstNode, items: Val[]): void {
  if (items.length < 5) return;
  const strs = items.map(asString).filter((s): s is string => s !== undefined);
  if (strs.length < 5) return;
  const rot = strs.filter((s) => /^\d{2,}[a-zA-Z]{3,}$/.test(s)).length;
  if (rot / items.length >= 0.5) {
    d.threat(
      'js.string-array',
      'malicious_code',
      node,
      'array of rotation-keyed strings (obfuscator string array)',
    );
  }
}

/** A local decoding function turned an encoded literal into text. */
export function decoderCall(d: Detectors, node: AstNode, decoded: string): void {
  d.threat(
    'js.decoder-call',
    'malicious_code',
    node,
    `passes an encoded literal to a local decoding function (decodes to "${decoded.slice(0, 40)}")`,
  );
}

/** `obj[key]`: a key from a decoding function, or a sensitive member named in brackets. */
export function computedKey(
  d: Detectors,
  node: AstNode,
  obj: Val,
  keyVal: Val,
  key: string | undefined,
  literal: boolean,
): void {
  if (keyVal.viaDecoder && (obj.k === 'global' || obj.k === 'mod')) {
    d.threat(
      'js.decoder-computed-access',
      'malicious_code',
      node,
      'looks up a property whose name comes from a decoding function',
    );
  }
  if (literal && key !== undefined && obj.k === 'mod' && sensitiveMember(obj, key, true)) {
    d.threat(
      'js.bracket-api-access',
      'malicious_code',
      node,
      `calls ${obj.name}.${key} through a bracketed string ("${key}") instead of a plain property`,
    );
  }
}

/** A sensitive member of a module or global reached through a key built at run time. */
export function computedMember(
  d: Detectors,
  node: AstNode,
  obj: Val,
  key: string,
  value: Val,
  keyDecoded: boolean,
): void {
  if (
    (obj.k === 'mod' || obj.k === 'global') &&
    (value.k === 'api' || value.k === 'global' || value.k === 'mod') &&
    sensitiveMember(asOwner(obj), key, !!(value.obf && keyDecoded))
  ) {
    const what = obj.k === 'mod' ? `${obj.name}.${key}` : key;
    d.threat(
      'js.obfuscated-api-access',
      'malicious_code',
      node,
      `reaches ${what} through a property name computed at run time`,
    );
  }
}

/** `global[name]` reaching eval, require, process … */
export function computedGlobal(d: Detectors, node: AstNode, key: string, keyDecoded: boolean): void {
  if (sensitiveMember({ k: 'global', name: 'global' }, key, keyDecoded)) {
    d.threat(
      'js.obfuscated-global',
      'malicious_code',
      node,
      `reaches the global ${key} through a computed name`,
    );
  }
}

/** A sensitive member reached through a property descriptor, Reflect.get, or by enumerating. */
export function indirectMember(
  d: Detectors,
  node: AstNode,
  owner: Val,
  key: string,
  how: 'descriptor' | 'reflect' | 'enumeration',
): void {
  if (how === 'enumeration') {
    if (sensitiveMember(owner, key, true))
      d.threat(
        'js.enumerated-api-access',
        'malicious_code',
        node,
        `finds ${describeVal(owner)}.${key} by enumerating its members instead of naming it`,
      );
    return;
  }
  if (!sensitiveMember(asOwner(owner), key, true)) return;
  if (how === 'descriptor')
    d.threat(
      'js.descriptor-api-access',
      'malicious_code',
      node,
      `reaches ${describeVal(owner)}.${key} through Object.getOwnPropertyDescriptor`,
    );
  else
    d.threat(
      'js.reflect-api-access',
      'malicious_code',
      node,
      `reaches ${describeVal(owner)}.${key} through Reflect.get`,
    );
}

/** A module loaded by a name built at run time (decoded, computed). */
export function moduleLoaded(
  d: Detectors,
  node: AstNode,
  spec: string,
  name: string,
  specVal: Val | undefined,
): void {
  // A path require.resolve gave is a resolved module, not a hidden name.
  const resolved = specVal?.t?.has('outside_pkg') || specVal?.t?.has('own_dir');
  if (specVal && !resolved && (specVal.obf || specVal.viaDecoder || (specVal.t?.has('decoded') ?? false))) {
    const sensitive = SENSITIVE_MODULES.has(name) || NETWORK_CLIENT_MODULES.has(name);
    d.threat(
      'js.obfuscated-require',
      'malicious_code',
      node,
      `loads module "${spec}" by a name built at run time`,
      sensitive ? 'sensitive' : undefined,
    );
  }
}
