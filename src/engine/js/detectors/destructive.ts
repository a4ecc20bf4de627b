/**
 * Destructive acts: the user's files (home, its data folders, a drive root, the project npm ran
 * in) deleted or overwritten, and what makes such an act targeted: a branch on the machine's
 * location (country, time zone, locale: protestware, targeted wipers) or on data received from
 * the network (a remote kill switch), which also covers dropped databases.
 */
import { isUserDataPath } from '../../script-behaviour';
import { escapeRegExp } from '../../text';
import { keyName, rangeOf, sourceText } from '../ast';
import type { Branch } from '../effects';
import { Scope } from '../scope';
import { asString, deepTaints, hasDeepTaint, type AstNode, type Taint, type Val } from '../values';
import type { Detectors } from './index';

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

/** Substring tests that every locale API name below contains (a fast pass over most files). */
function mayReadLocale(text: string): boolean {
  return (
    text.includes('Intl') ||
    text.includes('resolvedOptions') ||
    text.includes('getTimezoneOffset') ||
    text.includes('process.env.') ||
    text.includes('os-locale') ||
    text.includes('navigator.language')
  );
}

/**
 * A condition on the machine's location: a country/region/time-zone/locale field or value
 * compared, where the value came from the network (a geo-IP answer) or from the locale APIs.
 */
function isGeoGate(d: Detectors, test: AstNode, taints: ReadonlySet<Taint>, scope: Scope): boolean {
  const src = sourceText(d.input.text, test, 601);
  if (!src || src.length > 600) return false;
  const fromNetwork = taints.has('network_data');
  // Locale APIs anywhere in the file (the value is usually read into a variable first).
  d.localeApis ??=
    mayReadLocale(d.input.text) &&
    /\bIntl\.DateTimeFormat\b|resolvedOptions\(\)|getTimezoneOffset|process\.env\.(?:LANG|LC_ALL|LC_MESSAGES|LANGUAGE|TZ)\b|\bos-locale\b|navigator\.languages?\b/.test(
      d.input.text,
    );
  if (!fromNetwork && !d.localeApis) return false;
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
function gatedLocalCalls(d: Detectors, ifNode: AstNode, scope: Scope): void {
  const src = sourceText(d.input.text, ifNode.consequent as AstNode, 4000) ?? '';
  for (const m of src.matchAll(/\b([A-Za-z_$][\w$]*)\s*\(/g)) {
    const v = scope.lookup(m[1]!);
    if (v?.k !== 'fn') continue;
    const body = sourceText(d.input.text, v.node, 4000) ?? '';
    if (
      /\.(?:writeFileSync|writeFile|rmSync|rm|unlinkSync|unlink|truncateSync|outputFileSync|removeSync|emptyDirSync)\s*\(|\brimraf\b/.test(
        body,
      )
    ) {
      d.threat(
        'js.geo-gated-destructive',
        'malicious_code',
        ifNode,
        `calls ${m[1]}(), which overwrites or deletes files, only when the machine is in a given country, time zone or locale`,
      );
      return;
    }
  }
}

const NO_TAINTS: ReadonlySet<Taint> = new Set();
/** Words one of which a test must hold for the visitor, referrer, seed-phrase or time gates. */
const GATE_WORDS =
  /userAgent|webdriver|platform|referrer|\bua\b|location|URL|pathname|12|24|Date|random|get(?:UTC)?(?:FullYear|Month|Day|Hours)/;

/** An `if`: its branches are under a geo gate or a remote gate when the test says so. */
export function enterBranch(d: Detectors, node: AstNode, test: Val, scope: Scope, guard = false): Branch {
  // What the test's value carries, read once for every gate below.
  const taints: ReadonlySet<Taint> = hasDeepTaint(test) ? deepTaints(test) : NO_TAINTS;
  const geo = isGeoGate(d, node.test as AstNode, taints, scope);
  if (geo) {
    d.geoGate++;
    gatedLocalCalls(d, node, scope);
  }
  // A branch on what a server answered or a request carried: a remote trigger.
  const remote = !geo && taints.has('network_data');
  if (remote) d.remoteGate++;
  // Which visitors see what follows: a user-agent match or an automation check (skimmer and miner
  // loaders that show themselves to phones and hide from developers and crawlers).
  const testSrc = sourceText(d.input.text, node.test as AstNode, 600) ?? '';
  // A listed file's content required to carry a fixed marker: only the tool's own files (the hooks
  // or blocks it wrote earlier) pass, which a wiper has no reason to ask. After a guard clause the
  // test is the one that failed (`if (!isOurs(file)) continue;`).
  const markerTest = guard ? negated(node.test as AstNode) : (node.test as AstNode);
  const ownMarker = taints.has('listed_content') && requiresMarker(markerTest, scope);
  if (ownMarker) d.ownMarkerGate++;
  // A test that, where what follows runs, found the page holding secrets (a password, card or
  // recovery-phrase field, a wallet provider), read in the test or in a function it calls: what
  // follows runs where it pays. (Read with the test's sense: after `if (!fields()) return;` the
  // page has them; after `if (fields()) return;` or under `if (!window.ethereum)` it has not.)
  const secretPage = presentWhen(d, node.test as AstNode, !guard, scope);
  if (secretPage) d.secretPageGate++;
  // Most tests name none of what the gates below read: one pass decides (each gate's words are here).
  if (!GATE_WORDS.test(testSrc) && !taints.has('visitor') && !taints.has('referrer'))
    return {
      geo,
      remote,
      targeted: false,
      seedShape: false,
      referrer: false,
      timed: false,
      ownMarker,
      secretPage,
    };
  // So does a test on the page it came from (search-engine visitors only) or on which page of
  // the site this is (the checkout, the payment form): a loader that shows itself where it pays.
  const targeted =
    /\bnavigator\.(?:userAgent|webdriver|platform)\b|\buserAgent\b|\bdocument\.referrer\b/.test(testSrc) ||
    (/\bua\b/.test(testSrc) && /navigator\.userAgent/.test(d.input.text)) ||
    taints.has('visitor') ||
    (/\b(?:location|document\.URL|pathname)\b/.test(testSrc) &&
      /checkout|payment|billing|\bcart\b|onepage/i.test(testSrc));
  if (targeted) d.targetGate++;
  // Visitors picked by where they came from (search engines): the cloaking of scam redirects.
  const referrer = /\bdocument\.referrer\b/.test(testSrc) || taints.has('referrer');
  if (referrer) d.referrerGate++;
  // Text checked for a recovery phrase's shape: 12 and 24 words (the BIP-39 lengths).
  const seedShape =
    ((/={2,3}\s*12\b|\b12\s*={2,3}/.test(testSrc) && /={2,3}\s*24\b|\b24\s*={2,3}/.test(testSrc)) ||
      /\[\s*12\s*,(?:\s*\d+\s*,)*\s*24\s*\]/.test(testSrc)) &&
    /\.split\s*\(/.test(d.input.text);
  if (seedShape) d.seedGate++;
  // The current date or a random draw compared with a constant: what follows runs only after a
  // set day, or now and then (a time bomb that waits past its first weeks of installs).
  const timed =
    /\bDate\.now\(\)|\bnew\s+Date\(\s*\)|\.get(?:UTC)?(?:FullYear|Month|Date|Day|Hours)\(\)|\bMath\.random\(\)/.test(
      testSrc,
    ) &&
    /[<>]=?|[!=]==?/.test(testSrc) &&
    // (A file's age, `Date.now() - st.mtimeMs > week`, is what a cleaner prunes by, not a date.)
    !/\b(?:mtime|ctime|atime|birthtime)(?:Ms)?\b/.test(testSrc);
  if (timed) d.timeGate++;
  return { geo, remote, targeted, seedShape, referrer, timed, ownMarker, secretPage };
}

/** The test a negation negates (`!x` is `x`), when it is one. */
function negated(test: AstNode | undefined): AstNode | undefined {
  return test?.type === 'UnaryExpression' && test.operator === '!' ? (test.argument as AstNode) : undefined;
}

const FUNCTION = /^(?:FunctionDeclaration|FunctionExpression|ArrowFunctionExpression)$/;

/**
 * Text a marker test searches that is what was read (`text`, `fs.readFileSync(f, 'utf8')`,
 * `await readFile(f)`), not text built around the marker (`'# ' + MARK + read(f)`, a helper that
 * prepends it), which holds it whatever the file says.
 */
function readText(n: AstNode | undefined, depth = 0): boolean {
  if (!n || depth > 4) return false;
  if (n.type === 'Identifier' || n.type === 'MemberExpression') return true;
  if (n.type === 'AwaitExpression') return readText(n.argument as AstNode, depth + 1);
  if (n.type !== 'CallExpression') return false;
  const callee = n.callee as AstNode;
  // (`read(f).toString()`, `.trim()`, `.slice(0, 512)` of what was read.)
  const name = callee.type === 'MemberExpression' ? keyName(callee.property as AstNode) : keyName(callee);
  if (
    callee.type === 'MemberExpression' &&
    /^(?:toString|trim\w*|slice|substring|toLowerCase)$/.test(name ?? '')
  )
    return readText(callee.object as AstNode, depth + 1);
  return /^(?:read\w*|load\w*|\w*[Cc]ontents?|\w*[Tt]ext)$/.test(name ?? '');
}

/** The `return` statements of a function body, not of the functions inside it. */
function returnsOf(n: AstNode, out: AstNode[], depth = 0): AstNode[] {
  if (depth > 12 || out.length > 8) return out;
  if (n.type === 'ReturnStatement') out.push(n);
  else if (!FUNCTION.test(n.type))
    for (const k of ['body', 'consequent', 'alternate', 'block', 'handler', 'finalizer', 'cases'] as const) {
      const c = n[k] as AstNode | AstNode[] | null | undefined;
      if (Array.isArray(c)) for (const x of c) returnsOf(x, out, depth + 1);
      else if (c && typeof c === 'object') returnsOf(c, out, depth + 1);
    }
  return out;
}

/**
 * A test that holds only when some text carries a fixed string (`text.includes(MARKER)`,
 * `.startsWith('# generated by')`), as one of the conditions all required (not negated), written
 * there or in a local helper that returns such a test or `false` (`isOurs(file)`).
 */
function requiresMarker(test: AstNode | undefined, scope: Scope, depth = 0): boolean {
  if (!test || depth > 8) return false;
  if (test.type === 'LogicalExpression' && test.operator === '&&')
    return (
      requiresMarker(test.left as AstNode, scope, depth + 1) ||
      requiresMarker(test.right as AstNode, scope, depth + 1)
    );
  // (Either of two markers, the current one and a legacy one: both are the tool's own.)
  if (test.type === 'LogicalExpression' && test.operator === '||')
    return (
      requiresMarker(test.left as AstNode, scope, depth + 1) &&
      requiresMarker(test.right as AstNode, scope, depth + 1)
    );
  if (test.type !== 'CallExpression') return false;
  const callee = test.callee as AstNode;
  const args = (test.arguments ?? []) as AstNode[];
  if (callee.type === 'Identifier') {
    const fn = scope.lookup(callee.name as string);
    if (fn?.k !== 'fn' || !(fn.scope instanceof Scope) || !FUNCTION.test(fn.node.type)) return false;
    const body = fn.node.body as AstNode;
    const results =
      body.type === 'BlockStatement' ? returnsOf(body, []).map((r) => r.argument as AstNode | null) : [body];
    const isFalse = (r: AstNode | null) =>
      (r?.type === 'Literal' || r?.type === 'BooleanLiteral') && r.value === false;
    return (
      results.some((r) => requiresMarker(r ?? undefined, fn.scope as Scope, depth + 1)) &&
      results.every((r) => isFalse(r) || requiresMarker(r ?? undefined, fn.scope as Scope, depth + 1))
    );
  }
  if (
    callee.type !== 'MemberExpression' ||
    !/^(?:includes|startsWith)$/.test(keyName(callee.property as AstNode) ?? '') ||
    args.length !== 1 ||
    !readText(callee.object as AstNode)
  )
    return false;
  // The marker: a string of eight characters or more, written there or in a constant (not '').
  const arg = args[0]!;
  const marker =
    arg.type === 'Literal' || arg.type === 'StringLiteral'
      ? arg.value
      : arg.type === 'Identifier'
        ? asString(scope.lookup(arg.name as string))
        : undefined;
  return typeof marker === 'string' && marker.trim().length >= 8;
}

/** Fields and objects a page holds secrets in: password, card and recovery-phrase inputs, wallets. */
const PAGE_SECRET_PROBE =
  /input\[[^\]\n]{0,80}(?:type=["']?password|autocomplete\*?=["']?cc-|name\*?=["']?(?:card|cc|cvv|cvc|seed|mnemonic|secret)|password)|\b(?:window|globalThis|self)\s*(?:\.\s*|\[\s*['"])(?:ethereum|solana|phantom)\b|['"](?:ethereum|solana|phantom)['"]\s+in\s+(?:window|globalThis|self)\b|['"](?:password|current-password|cc-number|cc-csc)['"]/i;
/** Per file (its evaluator, or the detectors for the file walked): whether its text names one. */
const FILE_PROBES = new WeakMap<object, boolean>();
/** Per function: whether its body, or a constant it names, names one. */
const BODY_PROBES = new WeakMap<AstNode, boolean>();

/**
 * Whether a test being `truth` means the page holds secrets (PAGE_SECRET_PROBE read where the test
 * calls or names it): `fields()` true, `!fields()` false, `fields() < 1` false, `a && b` true when
 * either part says so, `a || b` true when both do.
 */
function presentWhen(d: Detectors, n: AstNode, truth: boolean, scope: Scope, depth = 0): boolean {
  if (depth > 6) return false;
  const reads = (x: AstNode) => testReads(d, sourceText(d.input.text, x, 600) ?? '', scope);
  switch (n.type) {
    case 'UnaryExpression':
      return n.operator === '!' && presentWhen(d, n.argument as AstNode, !truth, scope, depth + 1);
    case 'LogicalExpression': {
      const a = (t: boolean) => presentWhen(d, n.left as AstNode, t, scope, depth + 1);
      const b = (t: boolean) => presentWhen(d, n.right as AstNode, t, scope, depth + 1);
      if (n.operator === '&&') return truth ? a(true) || b(true) : a(false) && b(false);
      if (n.operator === '||') return truth ? a(true) && b(true) : a(false) || b(false);
      return false;
    }
    case 'BinaryExpression': {
      // A count compared with a small number: `n < 1`, `n === 0` (none), `n > 0`, `n >= 1` (some).
      const right = n.right as AstNode;
      const num = typeof right.value === 'number' ? right.value : undefined;
      if (num === undefined) return false;
      const op = n.operator as string;
      const none = (op === '<' && num <= 1) || (op === '<=' && num <= 0) || (/^==?=$/.test(op) && num === 0);
      const some = (op === '>' && num >= 0) || (op === '>=' && num >= 1) || (/^!==?$/.test(op) && num === 0);
      return (none || some) && presentWhen(d, n.left as AstNode, none ? !truth : truth, scope, depth + 1);
    }
    case 'CallExpression':
    case 'OptionalCallExpression':
    case 'MemberExpression':
    case 'OptionalMemberExpression':
    case 'ChainExpression':
      return truth && reads(n);
    case 'Identifier': {
      // A name given the count just before (`const n = sensitive(); if (n < 1) return;`): what it
      // was given, declared in the 1,500 characters before the test.
      const r = rangeOf(n);
      if (!r) return false;
      const before = d.input.text.slice(Math.max(0, r[0] - 1500), r[0]);
      const name = escapeRegExp(n.name as string);
      let init: string | undefined;
      for (const m of before.matchAll(
        new RegExp(`\\b(?:const|let|var)\\s+${name}\\s*=\\s*([^;\\n]{1,300})`, 'g'),
      ))
        init = m[1];
      return truth && init !== undefined && testReads(d, init, scope);
    }
    default:
      return false;
  }
}

/**
 * Whether a test reads what PAGE_SECRET_PROBE names, in its own text or in the body of a function
 * it calls (one level, in whichever file the function was written, with the constants it names
 * declared above it). Read only in files whose text names it somewhere, once per function.
 */
function testReads(d: Detectors, testSrc: string, scope: Scope): boolean {
  const probe = PAGE_SECRET_PROBE;
  if (probe.test(testSrc)) return true;
  if (!testSrc.includes('(')) return false;
  // (A function of its own or of a module's exports: `weight()`, `probe.weight()`.)
  for (const m of testSrc.matchAll(/\b(?:([A-Za-z_$][\w$]*)\s*\.\s*)?([A-Za-z_$][\w$]*)\s*\(/g)) {
    const held = m[1] ? scope.lookup(m[1]) : undefined;
    const v = m[1] ? (held?.k === 'obj' ? held.props.get(m[2]!) : undefined) : scope.lookup(m[2]!);
    if (v?.k !== 'fn') continue;
    const owner = (v.owner as { input?: { text?: string } } | undefined) ?? d;
    const text = owner.input?.text ?? d.input.text;
    let inFile = FILE_PROBES.get(owner);
    if (inFile === undefined)
      FILE_PROBES.set(
        owner,
        (inFile = probe.test(text.length > 2_000_000 ? text.slice(0, 2_000_000) : text)),
      );
    if (!inFile) continue;
    let hit = BODY_PROBES.get(v.node);
    if (hit === undefined) {
      // (With the constants it names, declared above it: `pageWeight()` reads `const selectors = […]`.)
      const r = rangeOf(v.node);
      const body = r ? text.slice(r[0], Math.min(r[1], r[0] + 4000)) : '';
      hit = probe.test(body);
      if (!hit && r) {
        const above = text.slice(Math.max(0, r[0] - 3000), r[0]);
        const names = new Set([...body.matchAll(/\b[A-Za-z_$][\w$]*\b/g)].slice(0, 300).map((x) => x[0]));
        for (const decl of above.matchAll(/\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=[^;]{0,1000}/g))
          if (names.has(decl[1]!) && probe.test(decl[0])) {
            hit = true;
            break;
          }
      }
      BODY_PROBES.set(v.node, hit);
    }
    if (hit) return true;
  }
  return false;
}

export function leaveBranch(d: Detectors, branch: Branch): void {
  if (branch.secretPage) d.secretPageGate--;
  if (branch.geo) d.geoGate--;
  if (branch.remote) d.remoteGate--;
  if (branch.targeted) d.targetGate--;
  if (branch.referrer) d.referrerGate--;
  if (branch.seedShape) d.seedGate--;
  if (branch.timed) d.timeGate--;
  if (branch.ownMarker) d.ownMarkerGate--;
}

/** A destructive act under a branch taken on network data: a remote kill switch. */
export function remoteTriggered(d: Detectors, node: AstNode, what: string): void {
  d.threat(
    'js.remote-triggered-destructive',
    'malicious_code',
    node,
    `${what} when data received from the network says so (a remote kill switch)`,
    d.install,
  );
}

/**
 * `db.dropDatabase()`, `DROP TABLE …`: under a remote gate, or in code that runs while the package
 * installs (no install step has a reason to wipe the user's databases).
 */
export function databaseWipe(d: Detectors, node: AstNode, how: string | undefined, args: Val[]): void {
  if (d.remoteGate <= 0 && !d.installTime) return;
  const wipe =
    (how !== undefined && /^(?:dropDatabase|flushall|flushdb|dropCollection)$/i.test(how)) ||
    args.some((a) =>
      /\bDROP\s+(?:DATABASE|TABLE|SCHEMA)\b|\bTRUNCATE\s+TABLE\b|\bFLUSHALL\b/i.test(asString(a) ?? ''),
    );
  if (!wipe) return;
  if (d.remoteGate > 0) remoteTriggered(d, node, 'wipes a database');
  else
    d.threat(
      'js.destructive-user-data',
      'malicious_code',
      node,
      `wipes a database while the package installs (${how ?? 'a DROP or TRUNCATE statement'})`,
      'install',
    );
}

/**
 * A recursive deletion: a threat when the path is the user's data (home or its data folders, a
 * drive or the file-system root, the project npm was started from) rather than the package's own
 * files or a tool's cache.
 */
export function destroys(d: Detectors, node: AstNode, how: string, target: Val | undefined): void {
  const paths = target?.k === 'arr' ? target.items.map(asString) : [asString(target)];
  const listed = !!target?.t?.has('user_listing');
  // A folder above the package itself (`path.resolve(__dirname, '..', '..')`): the project that
  // installed it and everything in it, not a file the package owns.
  const above = target?.t?.has('outside_pkg')
    ? paths.find((p) => p !== undefined && /(?:^|\/)\.\.\/?$/.test(p))
    : undefined;
  const hit = listed
    ? (paths.find((p) => p !== undefined) ?? 'the listed entries')
    : (above ?? paths.find((p) => p !== undefined && isUserDataPath(p)));
  if (hit === undefined) return;
  d.threat(
    'js.destructive-user-data',
    'malicious_code',
    node,
    above
      ? `deletes ${above.replace(/^\$\{…\}/, 'its folder').slice(0, 60)} recursively (${how}): the project that installed it, not the package's own files`
      : `deletes ${hit.slice(0, 60)} recursively (${how}): the user's files, not the package's own`,
    d.install,
  );
}

/**
 * A listed file written back with what was read from it (a formatter, a codemod): a transform,
 * not destruction, unless a cipher made the new content (ransomware).
 */
function rewrites(method: string, data: Val | undefined): boolean {
  if (!/^(?:writeFile|writeFileSync|outputFile|outputFileSync)$/.test(method)) return false;
  const t = deepTaints(data);
  return t.has('listed_content') && !t.has('encrypted');
}

/**
 * `fs.unlinkSync(dst); fs.symlinkSync(src, dst)`: a file removed to put another in its place (a
 * dotfiles manager relinking, an updater swapping a file), the next lines making the same path.
 * A wiper removes what it lists and leaves nothing behind.
 */
function replacedAfter(d: Detectors, node: AstNode, method: string): boolean {
  if (!/^(?:unlink|unlinkSync|rm|rmSync)$/.test(method)) return false;
  const arg = ((node.arguments ?? []) as AstNode[])[0];
  const name = arg ? sourceText(d.input.text, arg, 80) : undefined;
  const end = node.end as number | undefined;
  if (!name || !/^[\w$.]+$/.test(name) || end === undefined) return false;
  // (Code only: a `// TODO: fs.symlinkSync(backup, f)` puts nothing back.)
  const after = d.input.text
    .slice(end, end + 600)
    .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, ' ')
    .replace(/\/\/[^\n]*/g, ' ');
  // (Put back as a link to nothing, the file's data is gone all the same.)
  if (/\/dev\/null|['"]NUL['"]/.test(after)) return false;
  return new RegExp(
    `\\b(?:symlink|link|writeFile|copyFile|rename|cp|outputFile|ensureSymlink|createSymlink|move)(?:Sync)?\\s*\\([^;]*?(?<![\\w$.])${escapeRegExp(name)}(?![\\w$])`,
  ).test(after);
}

/** A file write or deletion that destroys: under a geo or remote gate, recursive, or over listed user files. */
export function destructiveWrite(
  d: Detectors,
  node: AstNode,
  method: string,
  p: string | undefined,
  a0: Val | undefined,
  args: Val[],
): void {
  if (
    d.geoGate > 0 &&
    /^(?:writeFile|writeFileSync|rm|rmSync|rmdir|rmdirSync|unlink|unlinkSync|truncate|truncateSync|remove|removeSync|emptyDir|emptyDirSync|outputFile|outputFileSync)$/.test(
      method,
    )
  ) {
    d.threat(
      'js.geo-gated-destructive',
      'malicious_code',
      node,
      `overwrites or deletes files (fs.${method}) only when the machine is in a given country, time zone or locale`,
    );
  }
  // The project's own files (its sources, its dependencies) deleted only after a set date or by
  // chance: a time bomb. Caches and temporary folders expire on dates; project folders do not.
  if (
    d.timeGate > 0 &&
    /^(?:rm|rmSync|rmdir|rmdirSync|remove|removeSync|emptyDir|emptyDirSync|unlink|unlinkSync|truncate|truncateSync)$/.test(
      method,
    ) &&
    // (Files a listing of the project gave, `git ls-files`, and its repository's `.git` are the
    // project's too.)
    (a0?.t?.has('cwd') ||
      a0?.t?.has('outside_pkg') ||
      a0?.t?.has('project_files') ||
      (p !== undefined && (isUserDataPath(p) || /(?:^|[\\/])\.git(?:[\\/]|$)/.test(p)))) &&
    !/(?:^|[\\/])(?:\.cache|cache|tmp|temp|\.tmp|logs?)(?:[\\/]|$)/i.test(p ?? '')
  )
    d.threat(
      'js.geo-gated-destructive',
      'malicious_code',
      node,
      `deletes the project's files (fs.${method}${p ? ` ${p.slice(0, 40)}` : ''}) only after a set date or by chance (a time bomb)`,
    );
  const recursive =
    /^(?:remove|removeSync|emptyDir|emptyDirSync|emptydir)$/.test(method) ||
    (/^(?:rm|rmSync|rmdir|rmdirSync)$/.test(method) &&
      args.some((a) => a?.k === 'obj' && a.props.get('recursive')?.k === 'bool'));
  if (recursive) destroys(d, node, `fs.${method}`, a0);
  if (
    d.remoteGate > 0 &&
    /^(?:rm|rmSync|rmdir|rmdirSync|remove|removeSync|emptyDir|emptyDirSync|unlink|unlinkSync|truncate|truncateSync)$/.test(
      method,
    ) &&
    (a0?.t?.has('cwd') || /^(?:\.|\.\/|\.\/\*|\*)$/.test(p ?? '') || (p !== undefined && isUserDataPath(p)))
  )
    remoteTriggered(d, node, `deletes the working directory's files (fs.${method})`);
  else if (
    /^(?:unlink|unlinkSync|writeFile|writeFileSync|truncate|truncateSync|rm|rmSync|rename|renameSync|createWriteStream|outputFile|outputFileSync)$/.test(
      method,
    ) &&
    a0?.t?.has('user_listing') &&
    !rewrites(method, args[1]) &&
    !replacedAfter(d, node, method) &&
    d.ownMarkerGate <= 0
  ) {
    d.threat(
      'js.destructive-user-data',
      'malicious_code',
      node,
      `${/^(?:unlink|rm)/.test(method) ? 'deletes' : /^rename/.test(method) ? 'renames' : 'overwrites'} every file it lists in the user's home, a drive root or the project (fs.${method})`,
      d.installTime ? 'eachListedInstall' : 'eachListed',
    );
  }
}
