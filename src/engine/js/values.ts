/**
 * The abstract values the JavaScript analysis folds expressions into. Enough to see through the
 * usual indirection (aliases, string building, decoding) without running anything.
 */

/** Labels that travel with data: where a value came from. */
export type Taint =
  | 'env_all' // the whole process.env
  | 'secret_env' // an environment variable whose name looks like a secret
  | 'cli_credential' // a credential a command printed (`git credential fill`, `gh auth token`, a keychain item); also secret_env
  | 'secret_file' // contents of a credential or key file
  | 'fingerprint' // host name, user info, network interfaces
  | 'decoded' // produced by base64/hex/char-code decoding
  | 'network_data' // bytes received from the network
  | 'image' // bytes read from an image, font, media or binary data file
  | 'user_listing' // names listed from the user's home, a drive root or the project npm ran in
  | 'env_key' // a name of one of the environment's variables, taken from the environment itself
  | 'page_secret' // what a page's user types: keystrokes, password/card/seed fields, a wallet's storage
  | 'secret_path' // the path of a credential file found by a pattern (its contents are secret_file)
  | 'wallet_balance' // a crypto wallet's balance read from its provider (getBalance, eth_getBalance)
  | 'page_form' // every form or input of the page, found by enumerating the document (their values are page secrets)
  | 'dom_form' // a form of the page picked by a selector on the form tag (`form#checkout`, `form[action*=pay]`)
  | 'cwd' // the working directory (process.cwd()) or a path under it
  | 'own_dir' // the package's own folder (__dirname, __filename) or a path inside it
  | 'outside_pkg' // a path climbed out of the package's folder: its parent, sibling packages
  | 'listed_content' // the contents of a file reached through such a listing (read to be rewritten)
  | 'encrypted' // output of a cipher
  | 'encoded' // the whole environment or a credential file's contents encoded to base64 or hex
  | 'visitor' // who is visiting the page: its user agent, the page it came from, an automation flag
  | 'referrer' // the page the visitor came from (document.referrer)
  | 'storage_key' // a key of the page's web storage found by enumerating it (`localStorage.key(i)`)
  | 'key_material' // a wallet seed phrase or private key the code was handed (by its name)
  | 'request_secret' // the session cookies of a request a server handles (its Cookie header, its jar)
  | 'inbound' // a connection to a WebSocket server the package runs, and what its clients send
  | 'project_files' // the project's tracked files, as `git ls-files` prints them (read by the gated-deletion rules only)
  | 'caller_recipient' // a recipient or spender its caller chose (a parameter, a request's `to`)
  | 'recipient_override'; // an address written in the code put where the caller's recipient was

export interface AstNode {
  type: string;
  loc?: { start: { line: number; column: number }; end: { line: number; column: number } };
  range?: [number, number];
  start?: number;
  end?: number;
  [key: string]: unknown;
}

export type Val = (
  | {
      k: 'str';
      v: string;
      /** The other string a condition could give (`win ? 'cmd /c …' : 'rm -rf …'`), read by sinks. */
      alt?: Val;
      /** The object or array this is the JSON text of (`JSON.stringify(typed)`), read by sinks. */
      json?: Val;
      /**
       * The bytes of a buffer made here (`Buffer.from(blob, 'base64')` before an XOR loop decrypts
       * it in place, `Buffer.from('key')`): indexes read and write them.
       */
      bytes?: Uint8Array;
    }
  | { k: 'num'; v: number }
  | { k: 'bool'; v: boolean }
  | { k: 'mod'; name: string }
  | { k: 'api'; mod: string; path: string }
  | { k: 'global'; name: string }
  | { k: 'env' }
  | {
      k: 'fn';
      node: AstNode;
      decoder: boolean;
      /** Scope the function was defined in (closures); opaque to this module. */
      scope?: object;
      /** The object a method was read from or bound to (`this`). */
      self?: Val;
      /** The file analyser that owns the node (functions exported by another package file). */
      owner?: object;
      /** An accessor (`get x() { … }`): reading the property runs it. */
      getter?: boolean;
      /** The other function a condition could give (`isBun ? runBun : runNode`): both are called. */
      alt?: Val;
      /** A class member's `super`: the members of the class it extends, bound to the instance. */
      home?: Val;
    }
  | {
      k: 'arr';
      items: Val[];
      /** A Map built from [key, value] pairs (`new Map([[k, v]])`): its items are the pairs. */
      map?: boolean;
      /** A template's literal parts handed to its tag function: the parts as written (`.raw`). */
      raw?: Val;
    }
  | {
      k: 'obj';
      props: Map<string, Val>;
      /** A Proxy with a `get` trap: every property read runs it with the target and the key. */
      trap?: { get: Val; target: Val };
    }
  | { k: 'keys'; of: Val }
  | { k: 'entries'; of: Val }
  | { k: 'entry'; of: Val; key: string }
  | { k: 'entrylist'; of: Val; key: string }
  | { k: 'desc'; of: Val; key: string }
  | { k: 'net' }
  | {
      k: 'dyn';
      code?: string;
      /** `Function('r', 'x', body)`: the parameter names the body uses. */
      params?: string[];
    }
  | { k: 'unknown' }
) & {
  t?: Set<Taint>;
  /** The value was reached through obfuscated access (computed keys built at run time, Reflect.get, ...). */
  obf?: boolean;
  /** Came from a call of a local decoding function. */
  viaDecoder?: boolean;
  /** An element of a constant list walked by a loop or array callback (a plain name, not computed). */
  listed?: boolean;
  /** A string literal as written in the source (not built, decoded or received). */
  lit?: boolean;
  /**
   * `null` known here: a search of a known text with the package's own pattern that found nothing
   * (`/x/.exec(text)`), so a branch it guards does not run.
   */
  absent?: boolean;
  /**
   * A list made by code walked but not run (`dormant` > 0, the level it was made at): that same
   * walk may fill it (a command line built up in a function nobody has called yet).
   */
  born?: number;
  /** When a list or object literal was made (Evaluator.made): fills of ones made before a call count for it. */
  made?: number;
  /** For string/array methods: the value the method was read from. */
  base?: Val;
  /** Arguments fixed by `bind` (`Reflect.construct.bind(Reflect, Function)`): they come first. */
  bound?: Val[];
  /**
   * `Function.prototype.call.bind(f)`: a function that calls f with its first argument as `this`
   * and the rest as f's arguments.
   */
  thisFirst?: boolean;
  /** A default for a value the caller may give (`opts.cc || DEFAULT_CC`): the caller's choice wins. */
  dflt?: boolean;
  /**
   * A command-line word known here (the arguments a planted git hook runs the package's bin
   * with), or a comparison of one: the branch it picks is the one that runs.
   */
  argv?: boolean;
};

export const UNKNOWN: Val = Object.freeze({ k: 'unknown' }) as Val;

export function str(v: string, from?: Val[]): Val {
  // (Text doubled in a loop, `s += s`, outgrows what an engine can hold: past 4 MB it is not known.)
  if (v.length > 4_000_000) return withTaint({ k: 'unknown' }, from);
  return withTaint({ k: 'str', v }, from);
}

/** An unknown value; shares one frozen object unless taint has to be carried. */
export function unknown(from?: Val[]): Val {
  if (!from || !from.some((f) => f.k === 'env' || f.t?.size)) return UNKNOWN;
  return withTaint({ k: 'unknown' }, from);
}

export function withTaint<T extends Val>(v: T, from?: (Val | undefined)[], extra?: Taint): T {
  let t: Set<Taint> | undefined;
  for (const f of from ?? []) {
    if (f?.k === 'env') {
      t ??= new Set();
      t.add('env_all');
    }
    if (f?.t?.size) {
      t ??= new Set();
      for (const x of f.t) t.add(x);
    }
  }
  if (extra) {
    t ??= new Set();
    t.add(extra);
  }
  if (t) v.t = t;
  return v;
}

/** Every taint in a value, looking inside arrays and objects (bounded). */
export function deepTaints(v: Val | undefined, depth = 0, acc = new Set<Taint>()): Set<Taint> {
  if (!v || depth > 4) return acc;
  if (v.t) for (const x of v.t) acc.add(x);
  if (v.k === 'env') acc.add('env_all');
  // The first 50 items or properties (no copies: this runs for most calls).
  if (v.k === 'arr') {
    const n = Math.min(v.items.length, 50);
    for (let i = 0; i < n; i++) deepTaints(v.items[i], depth + 1, acc);
  }
  if (v.k === 'obj') {
    let i = 0;
    for (const x of v.props.values()) {
      if (i++ >= 50) break;
      deepTaints(x, depth + 1, acc);
    }
  }
  return acc;
}

/**
 * Whether a value carries `taint` (or, without one, any taint), looking inside arrays and objects
 * as deepTaints does, without building the set: most calls check one taint on values that carry
 * none.
 */
export function hasDeepTaint(v: Val | undefined, taint?: Taint, depth = 0): boolean {
  if (!v || depth > 4) return false;
  if (v.t?.size && (taint === undefined || v.t.has(taint))) return true;
  if (v.k === 'env' && (taint === undefined || taint === 'env_all')) return true;
  if (v.k === 'arr') {
    const n = Math.min(v.items.length, 50);
    for (let i = 0; i < n; i++) if (hasDeepTaint(v.items[i], taint, depth + 1)) return true;
  } else if (v.k === 'obj') {
    let i = 0;
    for (const x of v.props.values()) {
      if (i++ >= 50) break;
      if (hasDeepTaint(x, taint, depth + 1)) return true;
    }
  }
  return false;
}

export function asString(v: Val | undefined): string | undefined {
  if (!v) return undefined;
  if (v.k === 'str') return v.v;
  if (v.k === 'num') return String(v.v);
  if (v.k === 'bool') return String(v.v);
  return undefined;
}

/** Canonical module name: `node:fs` → `fs`, `fs/promises` → `fs`, fs-extra family → `fs`. */
export function canonicalModule(name: string): string {
  let n = name.startsWith('node:') ? name.slice(5) : name;
  if (n === 'fs/promises' || n === 'fs-extra' || n === 'graceful-fs' || n === 'original-fs') n = 'fs';
  if (n === 'child_process' || n === 'node:child_process') n = 'child_process';
  if (n === 'dns/promises') n = 'dns';
  if (n === 'timers/promises') n = 'timers';
  return n;
}

export function asNum(v: Val | undefined): number | undefined {
  if (!v) return undefined;
  if (v.k === 'num') return v.v;
  if (v.k === 'str' && /^\d+$/.test(v.v)) return Number(v.v);
  return undefined;
}

/** One of two values (`a || b`, `c ? a : b`): the first known one, with the taint of both. */
export function eitherOf(a: Val, b: Val): Val {
  const picked = notAbsent(a.k !== 'unknown' ? a : b);
  const other = picked === a ? b : a;
  // An empty string is the fallback when there is nothing (`n ? decode(p, n) : ''`): what the
  // other side carries is the value.
  if (picked.k === 'str' && picked.v === '' && other.k === 'unknown' && other.t?.size) return other;
  // Two different strings (a command per platform): the first, with the second kept beside it.
  if (picked.k === 'str' && other.k === 'str' && other.v !== picked.v && !picked.alt)
    return withTaint({ ...picked, alt: other }, [picked, other]);
  // Two functions (a runner per runtime): the first, the second kept to be called as well.
  if (picked.k === 'fn' && other.k === 'fn' && other.node !== picked.node && !picked.alt)
    return { ...picked, alt: other };
  if (!other.t?.size || other.k === 'env') return picked;
  if (picked.k === 'env') return picked;
  return withTaint({ ...picked }, [picked, other]);
}

/** A value without the `absent` mark (it holds only where the search itself is tested). */
function notAbsent(v: Val): Val {
  if (!v.absent) return v;
  const { absent: _, ...rest } = v;
  return rest as Val;
}

/** The value a call returns: the first return that is known, else the first (taint kept). */
export function pickReturn(returns: Val[]): Val {
  if (!returns.length) return UNKNOWN;
  const known = notAbsent(returns.find((r) => r.k !== 'unknown') ?? returns[0]!);
  // (An empty string returned when there is nothing to read is not the value: see eitherOf.)
  const picked =
    known.k === 'str' && known.v === ''
      ? (returns.find((r) => r.k === 'unknown' && r.t?.size) ?? known)
      : known;
  // Taint of any return path stays on the value (`try { return read(f) } catch { return '' }`),
  // and so does what an object or list returned on another path carries (`if (hint) return hint;
  // … return report`, where the report holds the credentials read).
  const others = returns.filter(
    (r) => r !== picked && (r.t?.size || ((r.k === 'obj' || r.k === 'arr') && hasDeepTaint(r))),
  );
  if (!others.length) return picked;
  const carried: Val = { k: 'unknown', t: new Set() };
  for (const o of others) for (const x of deepTaints(o)) carried.t!.add(x);
  return withTaint({ ...picked }, [picked, carried]);
}

/**
 * Taints of what a page's user types or a wallet holds: its length, or the text masked whole
 * (`value.replace(/\S/g, '*')`), does not carry them. (A body's length still carries the host
 * details or environment in it: `'Content-Length': body.length` tells what a request sends.)
 */
export const TYPED_SECRETS: ReadonlySet<Taint> = new Set<Taint>([
  'page_secret',
  'key_material',
  'request_secret',
]);

/** An address written in the code (EVM, or a base58 one of 32–44 characters). */
export const FIXED_ADDRESS = /^(?:0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/;

/** What the caller chose as recipient, marked (a copy: values are shared). */
export function callerRecipient(v: Val): Val {
  return v.k === 'unknown' && !v.t?.has('caller_recipient')
    ? withTaint({ k: 'unknown' }, [v], 'caller_recipient')
    : v;
}
/** An address written in the code, put where the caller's recipient was. */
export function overridesRecipient(fixed: Val, caller: Val | undefined): Val | undefined {
  const a = asString(fixed);
  return a !== undefined && FIXED_ADDRESS.test(a) && /\d/.test(a) && caller?.t?.has('caller_recipient')
    ? withTaint({ ...fixed }, [fixed, caller], 'recipient_override')
    : undefined;
}

/**
 * An object built over one its caller handed over (`{ ...tx, to: HOT }`, `Object.assign({}, tx,
 * { to: HOT })`): a recipient written in the code replaces the caller's, unless the object also
 * gets call data of its own (a wrapper: a multicall, a forwarder, an entry point).
 */
export function overCallerObject(props: Map<string, Val>, setAfterCaller: ReadonlySet<string>): void {
  // (An amount set here too builds a transaction of its own, as a WETH wrap over `overrides`
  // does; a swap keeps what the caller asked to send.)
  if (setAfterCaller.has('data') || setAfterCaller.has('input') || setAfterCaller.has('value')) return;
  for (const k of setAfterCaller) {
    if (!RECIPIENT_KEYS.has(k)) continue;
    const over = overridesRecipient(props.get(k)!, callerRecipient(UNKNOWN));
    if (over) props.set(k, over);
  }
}
/** Names of a transaction a caller hands over (`tx`, `txParams`, `transaction`, `request` …). */
export const TX_NAME =
  /^(?:tx|txn|transaction|tx[A-Z]\w*|transaction[A-Z]\w*|unsigned\w*|txRequest|request|req|call)$/;
const RECIPIENT_KEYS: ReadonlySet<string> = new Set([
  'to',
  'toPubkey',
  'toAddress',
  'destination',
  'recipient',
  'receiver',
  'spender',
]);

/** Most elements a loop or array callback is unrolled for. */
export const MAX_UNROLL = 32;

/** The elements a for…of / array method walks over, when they are known. */
export function iterItems(v: Val, max = MAX_UNROLL): Val[] | undefined {
  const items = iterItemsRaw(v, max);
  return items?.map((i) =>
    i.k === 'str'
      ? { ...i, listed: true }
      : i.k === 'arr' && i.items[0]?.k === 'str'
        ? { ...i, items: [{ ...i.items[0], listed: true }, ...i.items.slice(1)] }
        : i,
  );
}

function iterItemsRaw(v: Val, max: number): Val[] | undefined {
  if (v.k === 'arr') return v.items.slice(0, max);
  if (v.k === 'entries') {
    const of = v.of;
    if (of.k === 'obj')
      return [...of.props]
        .slice(0, max)
        .map(([k, x]) => ({ k: 'arr', items: [{ k: 'str', v: k }, x] }) as Val);
    if (of.k === 'arr')
      return of.items.slice(0, max).map((x, i) => ({ k: 'arr', items: [{ k: 'num', v: i }, x] }) as Val);
    return undefined;
  }
  if (v.k === 'keys') return keysOf(v.of);
  return undefined;
}

/** The keys a for…in loop or Object.keys walks over, when known. */
export function keysOf(v: Val): Val[] | undefined {
  if (v.k === 'obj')
    return [...v.props.keys()].slice(0, MAX_UNROLL).map((k) => ({ k: 'str', v: k, listed: true }) as Val);
  if (v.k === 'arr')
    return v.items.slice(0, MAX_UNROLL).map((_, i) => ({ k: 'str', v: String(i), listed: true }) as Val);
  return undefined;
}

/** The strings in a value (arrays flattened, bounded); unknown elements become empty strings. */
export function flatStrings(v: Val, depth = 0, out: string[] = []): string[] {
  if (out.length > 200 || depth > 4) return out;
  if (v.k === 'arr') for (const i of v.items.slice(0, 100)) flatStrings(i, depth + 1, out);
  else out.push(asString(v) ?? '');
  return out;
}

/**
 * `table[key]` with a key not known statically (`MAP[process.platform]`, `list[i]`): one of the
 * table's own values stands for the lot (the first known one), carrying the taint of all of them,
 * so what the chosen entry leads to is still followed. Anything else stays unknown.
 */
export function anyMember(obj: Val): Val {
  const items = obj.k === 'obj' ? [...obj.props.values()] : obj.k === 'arr' ? obj.items : undefined;
  if (!items?.length || items.length > 64) return unknown([obj]);
  let picked = items.find((v) => v.k !== 'unknown') ?? items[0]!;
  for (const other of items) if (other !== picked) picked = eitherOf(picked, other);
  return picked;
}

/** The wallet providers a browser extension injects into the page (`window.ethereum` …): globals. */
export const WALLET_PROVIDERS: ReadonlySet<string> = new Set([
  'ethereum',
  'solana',
  'phantom',
  'tronWeb',
  'tronLink',
]);

/** Where an object keeps the setter of a property (`set extra(v) { … }`): assigning runs it. */
export const setterKey = (name: string): string => `\u0000set:${name}`;
