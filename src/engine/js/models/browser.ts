/**
 * API model: the browser page. What a page's user types is `page_secret` data: keystrokes of key
 * events, the fields of a submitted form, fields selected by secret-looking selectors
 * (passwords, cards, seed phrases) and a wallet's secrets in web storage.
 */
import type { Evaluator } from '../evaluator';
import type { Scope } from '../scope';
import { sourceText } from '../ast';
import { UNKNOWN, asString, withTaint, type AstNode, type Val } from '../values';
import type { ApiCall, CallbackCall, GlobalCall } from './model';
import { userCall } from '../calls';

/** Form fields whose value is a secret: passwords, payment cards, wallet seeds and keys. */
const SECRET_FIELD =
  /type\s*=\s*['"]?password|passw|pwd\b|\bpin\b|card|\bcc[-_]?(?:num|number|exp|csc|cvv)|cvv|cvc|csc\b|security[-_ ]?code|expir|iban|\bssn\b|mnemonic|seed|recovery[-_ ]?phrase|secret[-_ ]?(?:key|phrase|recovery)|private[-_ ]?key|autocomplete\s*=\s*['"]?(?:cc-|current-password|new-password)/i;
/**
 * Storage keys of secrets: a wallet's, or a session's token stored under its usual names
 * (`access_token`, `jwt`, `authToken` …, the whole key, so an SDK's own prefixed keys stay out).
 */
const SECRET_STORAGE_KEY =
  /mnemonic|seed|private[-_]?key|secret[-_]?key|keystore|wallet|vault|^(?:access[-_]?token|id[-_]?token|refresh[-_]?token|auth[-_]?token|session[-_]?token|token|jwt|bearer|api[-_]?key|auth)$/i;
/** Selectors of every form or every field of a page (`form`, `input`, `input, select, textarea`). */
const ALL_FIELDS = /^\s*(?:form|input|textarea|select)(?:\s*,\s*(?:form|input|textarea|select))*\s*$/i;
/**
 * Selectors that pick forms: by their tag (every comma-separated part starts with `form`), or by
 * an id or class naming a form, a checkout, a payment or a login.
 */
const FORM_TAG = /^\s*form(?![\w-])[^,]*(?:,\s*form(?![\w-])[^,]*)*$/i;
const FORM_NAMED = /form|checkout|payment|billing|log-?in|sign-?in/i;
/** Events of a field whose value changed or was left. */
const FIELD_EVENTS = /^(?:change|input|blur|focusout)$/;
/** Event types whose event object carries what the user types. */
const KEY_EVENTS = /^(?:keydown|keypress|keyup)$/;

/** An event whose target is `target` (a field, a form: what its handler reads as `e.target`). */
function eventOn(target: Val): Val {
  return {
    k: 'obj',
    props: new Map<string, Val>([
      ['target', target],
      ['currentTarget', target],
      ['srcElement', target],
    ]),
  };
}

/**
 * The field an input event comes from: what it holds is what its user typed; which element it is
 * (its tag, id, name, type) is not (a performance library records which element was used).
 */
function fieldTarget(): Val {
  const secret = typed();
  return {
    k: 'obj',
    props: new Map<string, Val>([
      ['value', secret],
      ['textContent', secret],
      ['innerText', secret],
      // (The form it belongs to holds every field: `new FormData(e.target.form)`.)
      ['form', withTaint({ k: 'unknown' }, [], 'page_form')],
    ]),
  };
}

function typed(): Val {
  return withTaint({ k: 'unknown' }, [], 'page_secret');
}

/** `querySelector('input[type=password]')`, `localStorage.getItem('mnemonic')`: the result is a page secret. */
export function pageSecretResult(
  calleeNode: AstNode,
  how: string | undefined,
  memberObj: Val | undefined,
  args: Val[],
  result: Val,
): Val {
  const selector = how ?? (calleeNode.type === 'Identifier' ? (calleeNode.name as string) : undefined);
  if (!selector) return result;
  const a0s = asString(args[0]);
  if (
    /^(?:querySelector|querySelectorAll|getElementById|getElementsByName|getElementsByClassName|closest|find|\$|jQuery)$/.test(
      selector,
    ) &&
    a0s !== undefined &&
    SECRET_FIELD.test(a0s)
  )
    return withTaint({ k: 'unknown' }, [result], 'page_secret');
  // What the user copied (addresses, seed phrases, passwords): navigator.clipboard.readText(),
  // and a paste event's clipboardData.getData().
  if (
    (how === 'readText' || how === 'read') &&
    memberObj?.k === 'api' &&
    memberObj.mod === 'global:navigator' &&
    memberObj.path === 'clipboard'
  )
    return withTaint({ k: 'unknown' }, [result], 'page_secret');
  if (how === 'getData' && memberObj?.t?.has('page_secret'))
    return withTaint({ k: 'unknown' }, [result], 'page_secret');
  // Every form, or every input, of the page: a skimmer's way to reach whatever is typed.
  if (
    /^(?:querySelectorAll|getElementsByTagName|\$|jQuery)$/.test(selector) &&
    a0s !== undefined &&
    ALL_FIELDS.test(a0s)
  )
    return withTaint({ k: 'unknown' }, [result], 'page_form');
  if (
    a0s !== undefined &&
    ((/^(?:querySelector|querySelectorAll|getElementsByTagName|closest|\$|jQuery)$/.test(selector) &&
      FORM_TAG.test(a0s)) ||
      (/^(?:getElementById|querySelector|\$|jQuery)$/.test(selector) && FORM_NAMED.test(a0s)))
  )
    return withTaint({ k: 'unknown' }, [result], 'dom_form');
  const storage = memberObj?.k === 'global' && /^(?:localStorage|sessionStorage)$/.test(memberObj.name);
  // `localStorage.key(i)`: the storage enumerated, every entry reached by its key.
  if (storage && how === 'key') return withTaint({ k: 'unknown' }, [result], 'storage_key');
  if (
    storage &&
    how === 'getItem' &&
    ((a0s !== undefined && SECRET_STORAGE_KEY.test(a0s)) ||
      args[0]?.t?.has('storage_key') ||
      args[0]?.t?.has('page_secret'))
  )
    return withTaint({ k: 'unknown' }, [result], 'page_secret');
  return result;
}

/** `JSON.stringify(localStorage)`, `Object.entries(sessionStorage)`: all of web storage. */
export function storageDump(c: ApiCall): Val | undefined {
  const { mod, path, args } = c;
  if (
    ((mod === 'global:JSON' && path === 'stringify') ||
      (mod === 'global:Object' && /^(?:entries|keys|values|assign)$/.test(path))) &&
    args.some((a) => a.k === 'global' && /^(?:localStorage|sessionStorage)$/.test(a.name))
  )
    return typed();
  return undefined;
}

/**
 * addEventListener('keydown', e => …): the keystroke (e.key, e.keyCode…) is what the user
 * types; a 'submit' event's form holds every field. Search boxes read e.target.value, which
 * stays untainted unless the field itself is a secret one.
 */
export function browserCallbackParams(c: CallbackCall): Val[] | undefined {
  if (c.method !== 'addEventListener') return undefined;
  const type = asString(c.args[0]) ?? '';
  const secret = typed();
  if (KEY_EVENTS.test(type)) {
    const props = new Map<string, Val>();
    for (const k of ['key', 'keyCode', 'which', 'code', 'charCode']) props.set(k, secret);
    return [{ k: 'obj', props }];
  }
  if (type === 'paste') return [{ k: 'obj', props: new Map<string, Val>([['clipboardData', secret]]) }];
  // change/input/blur on any field, in a handler that itself picks the secret fields by their
  // name, id, type or autocomplete (`if (/card|cvv/.test(e.target.name))`): the value is a secret.
  // (Or registered on the whole page, `document.addEventListener('input', …, true)`: every field's
  // value as it is typed, the keylogger's reach with input events instead of key events.)
  if (FIELD_EVENTS.test(type)) {
    const callee = c.callee;
    const pageWide =
      callee.k === 'api' &&
      (callee.mod === 'global:document' || callee.mod === 'global:window') &&
      /^(?:body\.|documentElement\.)?addEventListener$/.test(callee.path);
    if (pageWide) return [eventOn(fieldTarget())];
    const fn = c.args[1];
    const owner = fn?.k === 'fn' ? (fn.owner as { input?: { text?: string } } | undefined) : undefined;
    const src =
      fn?.k === 'fn' && owner?.input?.text ? (sourceText(owner.input.text, fn.node, 2000) ?? '') : '';
    if (/\.(?:name|id|type|autocomplete)\b/.test(src) && /\.value\b/.test(src) && SECRET_FIELD.test(src))
      return [eventOn(fieldTarget())];
  }
  // A service worker's `fetch` event: the page's own request, with what its user submitted in the
  // body and the session in its headers (cookies, authorization). Forwarding it to where it was
  // going (`fetch(event.request)`) names no host; copying it to one written in the file does.
  if (type === 'fetch') return [{ k: 'obj', props: new Map<string, Val>([['request', secret]]) }];
  if (type === 'submit') return [eventOn(secret)];
  return undefined;
}

/** form.addEventListener('submit', function () { this.elements … }): `this` is the form. */
export function domCallback(how: string | undefined, args: Val[]): Val | undefined {
  return how === 'addEventListener' && asString(args[0]) === 'submit' ? typed() : undefined;
}

/**
 * `document.onkeypress = fn` / `form.onsubmit = fn`: handlers by property, walked like
 * addEventListener callbacks (the keystroke or the form is the page user's data).
 */
export function domEventHandler(
  ev: Evaluator,
  prop: string | undefined,
  v: Val,
  scope: Scope,
  depth: number,
): void {
  // (In a page worker's code read for where its messages go, `onmessage` gets what it is posted.)
  if (prop === 'onmessage' && ev.input.messages && v.k === 'fn' && !ev.rewalked.has(v.node)) {
    ev.rewalked.add(v.node);
    ev.walkFunction(v.node, scope, depth + 1, [{ k: 'obj', props: new Map([['data', ev.input.messages]]) }]);
    return;
  }
  const onType = prop ? /^on(keydown|keypress|keyup|submit)$/.exec(prop)?.[1] : undefined;
  if (!onType || v.k !== 'fn' || ev.rewalked.has(v.node)) return;
  ev.rewalked.add(v.node);
  const params =
    browserCallbackParams({
      callee: UNKNOWN,
      result: UNKNOWN,
      args: [{ k: 'str', v: onType }],
      method: 'addEventListener',
    }) ?? [];
  const self = onType === 'submit' ? typed() : undefined;
  // It runs when the page's user types or submits, not unprompted.
  ev.effects.dormant++;
  try {
    ev.walkFunction(v.node, scope, depth + 1, params, self);
  } finally {
    ev.effects.dormant--;
  }
}

/** Autocomplete tokens of secret fields (payment cards, passwords, one-time codes). */
const SECRET_AUTOCOMPLETE =
  /^(?:cc-(?:number|csc|exp(?:-month|-year)?|name)|current-password|new-password|one-time-code)$/i;
/** Names or ids of secret fields. */
const SECRET_NAME =
  /^(?:card[-_]?(?:number|num|no)|cardnumber|cc[-_]?(?:num(?:ber)?|exp|csc|cvv|cvc)|cvc2?|cvv2?|csc|security[-_]?code|password|passwd|pwd|pin|mnemonic|seed(?:[-_]?phrase)?|recovery[-_]?phrase|private[-_]?key)$/i;
/** Handlers a field's props give the framework (React, Preact, Vue render functions, Solid). */
const FIELD_HANDLER = /^on(?:Change|Input|Blur|KeyUp|KeyDown|KeyPress|Paste|FocusOut|ChangeText)$/i;

/**
 * The props of a secret input (`{ autoComplete: 'cc-csc', onBlur }`, `<input type="password"
 * onChange={…} />`): a framework calls its handlers with events whose target is that field, so
 * what `e.target.value` holds there is what the user types into it. Each handler is walked once
 * more with such an event (it runs when the user acts, not unprompted).
 */
export function secretFieldHandlers(
  ev: Evaluator,
  node: AstNode,
  props: ReadonlyMap<string, Val>,
  scope: Scope,
  depth: number,
): void {
  // (Every object literal passes here: a few lookups by name first, the loop only for a field.)
  const text = (k: string) => {
    const v = props.get(k);
    return v?.k === 'str' ? v.v : undefined;
  };
  const ac = text('autoComplete') ?? text('autocomplete');
  const named = text('name') ?? text('id');
  const secret =
    (ac !== undefined && SECRET_AUTOCOMPLETE.test(ac.trim())) ||
    /^password$/i.test(text('type') ?? '') ||
    (named !== undefined && SECRET_NAME.test(named));
  if (!secret) return;
  for (const [k, v] of props) {
    if (!FIELD_HANDLER.test(k) || v.k !== 'fn' || ev.rewalked.has(v.node)) continue;
    ev.rewalked.add(v.node);
    const value = typed();
    const field = withTaint({ k: 'obj', props: new Map([['value', value]]) }, [value]);
    const event = withTaint(eventOn(field), [value]);
    ev.effects.dormant++;
    try {
      userCall(ev, node, v, [/^onChangeText$/i.test(k) ? value : event], scope, depth, undefined, false);
    } finally {
      ev.effects.dormant--;
    }
  }
}

/**
 * `document.cookie` is the whole jar: sent as it is (concatenated, serialised) it stays a page
 * secret; cut down to one named cookie (`split`, `match`, `indexOf` …, what analytics SDKs do to
 * read their own id) it is no longer the jar.
 */
export function cookieJar(c: ApiCall): Val | undefined {
  // `document.createElement('script')`: an element whose `src` loads code into the page.
  if (c.mod === 'global:document' && c.method === 'createElement' && /^script$/i.test(c.s0 ?? ''))
    return { k: 'api', mod: 'domscript', path: '' };
  // An iframe: its `src` puts another site's page into this one.
  if (c.mod === 'global:document' && c.method === 'createElement' && /^i?frame$/i.test(c.s0 ?? ''))
    return { k: 'api', mod: 'domscript', path: 'frame' };
  if (c.mod !== 'cookiejar') return undefined;
  if (
    /^(?:split|match|matchAll|indexOf|lastIndexOf|search|slice|substring|substr|startsWith|includes|charAt|at)$/.test(
      c.method,
    )
  )
    return UNKNOWN;
  return withTaint({ k: 'api', mod: 'cookiejar', path: '' }, [c.callee]);
}

/**
 * `window.fetch = function (url, opts) {…}`, `XMLHttpRequest.prototype.send = function (body) {…}`:
 * a hook on the page's own requests. Its parameters are what the page sends (logins, forms,
 * tokens): page data, so a hook that copies them to a host written in the code is a skimmer.
 */
export function networkHook(ev: Evaluator, target: string, v: Val, scope: Scope, depth: number): void {
  if (v.k !== 'fn' || ev.rewalked.has(v.node)) return;
  // What is sent, not where: fetch's init (its body and headers), send's body, a header's value.
  // Monitoring SDKs record request addresses and timings; skimmers copy what the page posts.
  const hook =
    /^(?:(?:window|self|globalThis|global)\.)?(fetch)$|(?:^|\.)XMLHttpRequest\.prototype\.(send|setRequestHeader)$/.exec(
      target,
    );
  if (!hook) return;
  const secretAt = hook[2] === 'send' ? 0 : 1;
  ev.rewalked.add(v.node);
  const params = ((v.node.params ?? []) as AstNode[]).map((_, i) => (i === secretAt ? typed() : UNKNOWN));
  ev.walkFunction(v.node, scope, depth + 1, params);
}

/**
 * `form.action = 'https://host/…'`, `form.setAttribute('action', …)` on a form of the page (found
 * by a selector, `document.forms`, a submit event): what its users submit goes to that host
 * (form-jacking). Forms a library builds itself (`createElement('form')`) are not the page's.
 */
export function formActionHijack(ev: Evaluator, node: AstNode, form: Val, url: Val, scope: Scope): void {
  const t = form.t;
  if (!t || !(t.has('dom_form') || t.has('page_form') || t.has('page_secret'))) return;
  const u = asString(url) ?? (url.k === 'str' ? url.v : undefined);
  if (!u || !/^https?:\/\/[^/]/i.test(u)) return;
  ev.effects.request(node, 'form action', url, undefined, scope, undefined, [typed()]);
}

/** `new FormData(form)` of a form found by enumerating the page: its fields' values. */
export function browserGlobal(g: GlobalCall): Val | undefined {
  if (g.name === 'FormData' && g.a0?.t?.has('page_form'))
    return withTaint({ k: 'unknown' }, [g.a0], 'page_secret');
  return undefined;
}
