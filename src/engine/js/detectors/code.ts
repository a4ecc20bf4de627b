/**
 * Code detectors: code compiled at run time from decoded, downloaded, image or sensitive data or
 * from a packer's output, functions compiled from such data called, deserialisers that run
 * functions embedded in data the package did not write, native code loaded, and strings that
 * carry library-injection or reverse-shell commands.
 */
import type { CapabilityCollector } from '../../capabilities';
import type { Finding } from '../../types';
import { lineOf, startOf } from '../ast';
import { asString, type AstNode, type Taint, type Val } from '../values';
import type { Detectors } from './index';

/** Code compiled from `code` at `node` (`how`: eval, Function, vm.runInThisContext …). */
export function dynamicCode(
  d: Detectors,
  node: AstNode,
  how: string,
  code: Val,
  codeNode: AstNode | undefined,
): void {
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
    ? d.input.text.slice(
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
    d.threat(
      'js.eval-image-payload',
      'malicious_code',
      node,
      `${called(how)} runs code extracted from an image, font or media file (steganography)`,
    );
  } else if (t.has('network_data')) {
    d.threat('js.eval-network', 'malicious_code', node, `${called(how)} runs code received from the network`);
  } else if ((t.has('decoded') || code.viaDecoder) && !(code.k === 'str' && onlyNamesUnknown(d, code.v))) {
    d.threat(
      'js.eval-decoded',
      'malicious_code',
      node,
      `${called(how)} runs code decoded from an encoded string`,
    );
  } else if (packer) {
    d.threat(
      'js.eval-packer',
      'malicious_code',
      node,
      `${how}() runs the output of an inline decoding function (packer)`,
    );
  } else if (t.has('secret_file') || t.has('env_all')) {
    d.threat('js.eval-tainted', 'malicious_code', node, `${called(how)} runs code built from sensitive data`);
  }
}

/**
 * Code written whole in the package but for the names of the functions or classes it declares
 * (`new Function('_', 'return function ' + name + '(){ return _.apply(this, arguments) }')`, how
 * bindings give a wrapper the name a native or wasm export carries): what runs is the written code,
 * whatever decoder the name came through.
 */
function onlyNamesUnknown(d: Detectors, code: string): boolean {
  if (code.length > 100_000 || !code.includes('${…}') || !checksIdentifiers(d)) return false;
  const rest = code.replace(/\b(function\s*\*?|class)\s*\$\{…\}(?=\s*[({]|\s+extends\b)/g, '$1 named');
  return !rest.includes('${…}') && /\b(?:function|class)\b/.test(rest);
}

/**
 * The file tests names against an identifier's shape (`/^[_$a-zA-Z][_$a-zA-Z0-9]*$/.test(name)`):
 * what it then puts where a function's name goes cannot be code.
 */
const IDENTIFIER_TEST = /\/\^\[[^\]\n]{0,24}\]\[[^\]\n]{0,24}\][*+]\$\/[a-z]*\.test\(/;
function checksIdentifiers(d: Detectors): boolean {
  return (d.identifierTest ??= IDENTIFIER_TEST.test(d.input.text.length > 5_000_000 ? '' : d.input.text));
}

/** What the analysis of a constant code string found, placed at the call that compiles it. */
export function nestedCode(
  d: Detectors,
  node: AstNode,
  how: string,
  findings: Finding[],
  caps: CapabilityCollector,
): void {
  for (const f of findings) {
    d.out.findings.push({
      ...f,
      line: lineOf(node),
      snippet: d.snippetAt(node),
      // (`how` names a compile call, or describes where the code goes: "the file it writes (x.js)".)
      message: `${f.message} (${how.includes(' ') ? 'in' : 'inside code passed to'} ${how})`,
    });
  }
  d.caps.merge(caps);
}

/**
 * A deserialiser that runs embedded functions, given data. Even untraced input: the only thing
 * this call adds over JSON.parse is running code (an environment variable reads as the string
 * `$NAME`; a literal the package wrote is safe). Reported when nothing more specific was.
 */
export function deserialise(
  d: Detectors,
  node: AstNode,
  what: string,
  code: Val | undefined,
  before: number,
): void {
  if (
    d.out.findings.length === before &&
    code &&
    (code.k !== 'str' ||
      code.v.startsWith('$') ||
      code.v.includes('${…}') ||
      // (A default its user can replace: an npm config value.)
      (code.alt?.k === 'str' && code.alt.v.startsWith('$')))
  )
    d.threat(
      'js.unsafe-deserialize',
      'malicious_code',
      node,
      `${what}() runs functions embedded in data it did not write (a code-execution deserialiser)`,
      d.install,
    );
}

/** A function compiled at run time from decoded, downloaded or image data is called. */
export function compiledFunctionCalled(d: Detectors, node: AstNode, callee: Val): void {
  if (callee.k === 'dyn' && callee.code !== undefined && onlyNamesUnknown(d, callee.code)) return;
  if (callee.t?.has('decoded') || callee.t?.has('network_data') || callee.t?.has('image')) {
    d.threat(
      'js.eval-decoded',
      'malicious_code',
      node,
      'calls a function compiled at run time from decoded data',
    );
  }
}

/** Strings that set LD_PRELOAD, run rundll32 or hold a reverse-shell command. */
export function injectionString(d: Detectors, v: string, node: AstNode): void {
  if (/\bLD_PRELOAD\s*=|\bDYLD_INSERT_LIBRARIES\s*=|\brundll32\b/i.test(v)) {
    d.threat(
      'js.library-injection-string',
      'malicious_code',
      node,
      'string sets LD_PRELOAD or runs rundll32 (library injection)',
    );
  }
  if (/\/dev\/tcp\/\d|\bnc(?:at)?\s+(?:-\w+\s+)*-e\s+\/bin\/(?:ba)?sh|\bbash\s+-i\s*>&/.test(v)) {
    d.threat('js.reverse-shell-string', 'malicious_code', node, 'string contains a reverse-shell command');
  }
}

/** A call named like an injector given a `.dll`. */
export function dllInjection(d: Detectors, node: AstNode, callee: Val, args: Val[]): void {
  const name = callee.k === 'api' ? callee.path : '';
  if (/inject/i.test(name) && args.some((a) => /\.dll$/i.test(asString(a) ?? ''))) {
    d.threat('js.dll-injection', 'malicious_code', node, `injects a DLL into a process (${name})`);
  }
}

export function nativeAddon(d: Detectors, node: AstNode, spec: string): void {
  d.caps.nativeModules.add(spec.replace(/^\.\//, ''));
  d.capability('native', 'js.require-node-addon', node, `loads native addon ${spec}`);
}

export function nativeLoader(
  d: Detectors,
  node: AstNode,
  loader: string,
  called: boolean,
  addon: string | undefined,
): void {
  d.caps.hasNative = true;
  if (addon) d.caps.nativeModules.add(addon);
  d.capability(
    'native',
    'js.native-loader',
    node,
    called ? `loads a native addon through ${loader}` : `loads native code through ${loader}`,
  );
}

export function dlopen(d: Detectors, node: AstNode): void {
  d.caps.hasNative = true;
  d.capability('native', 'js.process-dlopen', node, 'uses process.dlopen');
}

/** How a compile sink is named in a message: `eval()`, `vm.Script()`, `Worker (eval: true)`. */
function called(how: string): string {
  return how.endsWith(')') || how.includes(' ') ? how : `${how}()`;
}
