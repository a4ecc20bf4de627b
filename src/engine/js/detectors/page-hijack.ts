/**
 * Code meant to run in the visitors' browsers of the site that installs the package, read from
 * the file's text (so service-worker code kept in a string, an array of lines or a file another
 * file registers is seen the same way):
 *
 * - a service worker whose fetch handler answers the page's requests from a host written in the
 *   code: navigations redirected to it, or requests relayed through it (phishing redirects,
 *   form capture);
 * - a miner run in the page: a web-miner library loaded or started, or the mining shape without
 *   names (a worker per core fed jobs from a socket and answering with nonces).
 */
import { hostOf } from './network';

export interface PageHijack {
  /** Offset of the evidence in the text. */
  index: number;
  message: string;
}

/** A service worker's fetch handler: `addEventListener('fetch', …)` or `onfetch = …`. */
const FETCH_HANDLER = /addEventListener\s*\(\s*\\?['"`]fetch\\?['"`]|\bonfetch\s*=/;
const RESPOND_WITH = /\brespondWith\s*\(/;
/** An absolute URL literal or a name, as the first argument of a redirect or a fetch. */
const REDIRECT_OR_FETCH =
  /\b(Response\s*\.\s*redirect|fetch)\s*\(\s*(?:\\?['"`](https?:\/\/[^'"`\s\\]+)|(?:[A-Za-z_$][\w$]*\s*\.\s*)*([A-Za-z_$][\w$]*)\s*(?:[+,)]|\.\s*concat)|`(https?:\/\/[^`$\s]+))/g;
/** Hosts that are the developer's own machine. */
const LOCAL_HOST = /^https?:\/\/(?:localhost|127\.|0\.0\.0\.0|\[::1\])/i;

/** `const RELAY = 'https://…'`, `{ relay: 'https://…' }`: names bound to absolute URLs in the text. */
function urlConstants(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(
    /(?:\b(?:const|let|var)\s+|[{,]\s*['"]?)([A-Za-z_$][\w$]*)['"]?\s*[=:]\s*['"`](https?:\/\/[^'"`\s]+)['"`]/g,
  )) {
    if (out.size >= 200) break;
    out.set(m[1]!, m[2]!);
  }
  return out;
}

/**
 * A fetch handler (a file that answers with `respondWith`) that redirects to, or fetches from, a
 * host written in the code, passing on the intercepted request's address or body (near the call:
 * a helper the handler calls counts). Workers that fetch the request itself (`fetch(event.request)`,
 * caches) or same-site paths are not this.
 */
export function serviceWorkerHijack(text: string): PageHijack | undefined {
  if (text.length > 5_000_000 || !RESPOND_WITH.test(text) || !FETCH_HANDLER.test(text)) return undefined;
  const names = urlConstants(text);
  let tries = 0;
  for (const m of text.matchAll(REDIRECT_OR_FETCH)) {
    if (++tries > 200) break;
    const url = m[2] ?? m[4] ?? (m[3] ? names.get(m[3]) : undefined);
    if (!url || LOCAL_HOST.test(url)) continue;
    const redirect = /redirect/.test(m[1]!);
    const near = text.slice(Math.max(0, m.index - 300), m.index + 300);
    // A relay passes the intercepted request's address or body on; a redirect needs nothing more.
    if (!redirect && !/\.(?:url|text|clone|formData|json|body|arrayBuffer)\b/.test(near)) continue;
    return {
      index: m.index,
      message: redirect
        ? `a service worker answers the site's page requests with a redirect to ${hostOf(url) ?? url}, a host written in the code`
        : `a service worker relays the site's requests (their address or body) through ${hostOf(url) ?? url}, a host written in the code`,
    };
  }
  return undefined;
}

/** An attribute selector on a field's value by its start, end or a part (`[value$="a"]`). */
const VALUE_SELECTOR = /\[\s*value\s*[$^*]=/gi;
/** A remote image or font loaded by a rule (`url("//h/…")`, `url(' + base + …`), not a data: URL. */
const REMOTE_URL =
  /(?:url|image-set|image)\(\s*(?!["']?data:)(?:["'`]{0,2}\s*\+|["']?(?:https?:)?\/\/|["']?\$\{)/i;
/**
 * Fields whose value is a secret, as a selector names them: passwords, one-time codes, card
 * numbers, tokens (`[type=password]`, `[autocomplete^="cc-"]`, `[name*="card" i]`).
 */
const SECRET_FIELD =
  /\[\s*(?:type\s*=\s*\\?["']?password|autocomplete\s*[*^$]?=\s*\\?["']?(?:one-time-code|current-password|new-password|cc-)|name\s*[*^$]?=\s*\\?["']?[\w-]{0,20}(?:pass(?:word|wd|code)?|token|csrf|otp|card|cvc|cvv|pin|ssn)\b)/i;
/** The element a value selector is on, just before it: a `select`'s or a button's value is not typed. */
const NOT_TYPED = /\b(?:select|option|button|progress|meter|li|data)\s*(?:\[[^\]]*\]\s*)*$/i;

/**
 * A stylesheet that loads a remote image for each possible start or end of a secret field's value
 * (`input[type=password][value$="a"]{background:url(//h/a)}`): the server learns what is typed,
 * one request per character, with no script reading the field.
 */
export function cssValueLeak(text: string): PageHijack | undefined {
  if (text.length > 5_000_000 || !/value/i.test(text) || !SECRET_FIELD.test(text)) return undefined;
  let tries = 0;
  for (const m of text.matchAll(VALUE_SELECTOR)) {
    if (++tries > 50) break;
    if (!REMOTE_URL.test(text.slice(m.index, m.index + 300))) continue;
    if (NOT_TYPED.test(text.slice(Math.max(0, m.index - 80), m.index))) continue;
    return {
      index: m.index,
      message:
        "a stylesheet loads a remote image for each start or end of a password, one-time code, card or token field's value: what is typed reaches that server, one request per character, with no script reading the field",
    };
  }
  return undefined;
}

/** Web-miner libraries and services, by the names their loaders and APIs carry. */
const WEB_MINER =
  /\b(?:coin-?hive|CoinHive|crypto-?loot|CryptoLoot|coinimp|CoinImp|webminepool|WebMinePool|deepMiner|authedmine|jsecoin|JSEcoin|cryptonight(?:[-_.]?wasm)?|CryptoNight|webmr|minero\.cc|monerominer|MoneroMiner)\b/;
/** What starts a miner in the page: a script element loaded, an API's anonymous user or `start()`. */
const MINER_START =
  /\.\s*(?:Anonymous|User|Token)\s*\(|\.\s*start\s*\(|createElement\s*\(\s*['"]script['"]\s*\)|\bimportScripts\s*\(|\bnew\s+(?:Shared)?Worker\s*\(/;

/**
 * One case-blind pass for every miner name the text rules read (pool and binary names, web miner
 * services): a text without any needs neither of the longer tests.
 */
export const MINER_WORDS =
  /stratum|--(?:donate-level|cpu-max-threads-hint|coin)|xmrig|miner|t-rex|coin-?hive|crypto-?loot|coinimp|minepool|authedmine|jsecoin|cryptonight|webmr|minero\.cc/i;

/** `namesMiner`: MINER_WORDS matched the text (when false, the named-miner test is skipped). */
export function browserMiner(text: string, namesMiner = true): PageHijack | undefined {
  if (text.length > 5_000_000) return undefined;
  const name = namesMiner ? WEB_MINER.exec(text) : null;
  if (name && MINER_START.test(text) && /\b(?:window|document|navigator|self)\b/.test(text))
    return {
      index: name.index,
      message: `loads or starts a web miner (${name[0]}) in the page of the site that installs the package`,
    };
  // Without names: a worker per processor core, fed jobs from a socket, answering with nonces.
  if (
    text.includes('hardwareConcurrency') &&
    /\bnew\s+(?:Shared)?Worker\s*\(/.test(text) &&
    /\bnew\s+WebSocket\s*\(/.test(text) &&
    /\bjob(?:_id|Id)?\b/.test(text) &&
    /\bnonce\b/.test(text) &&
    /\b(?:submit|result|hashes)\b/.test(text)
  ) {
    const at = text.indexOf('hardwareConcurrency');
    return {
      index: at,
      message:
        'runs a worker per processor core fed with jobs from a socket and sends back nonces: a miner in the page',
    };
  }
  return undefined;
}
