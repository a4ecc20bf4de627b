/**
 * Network detectors: requests, servers and sockets as capabilities (domains, protocols), and the
 * destinations that are threats on their own: a hard-coded public IP, a request-capture or
 * tunnelling service, a chat webhook whose token the package carries.
 */
import { EXFIL_HOST } from '../../indicators';
import { publicIpOf } from '../../ip-address';
import { lineOf } from '../ast';
import type { Scope } from '../scope';
import { asString, deepTaints, hasDeepTaint, type AstNode, type Taint, type Val } from '../values';
import { sink } from './flows';
import type { Detectors } from './index';

/** Webhook URLs that carry their own token: Discord, Telegram bots, Slack incoming webhooks. */
const CHAT_WEBHOOK =
  /\/api\/webhooks\/\d{6,}\/[\w-]{6,}|\/bot\d{5,}:[\w-]{20,}\/send(?:Message|Document|Photo|Media)\b|\/services\/T[A-Z0-9]{6,}\/B[A-Z0-9]{6,}\/[A-Za-z0-9]{12,}/;
/**
 * A credential by the name of the field that holds it (`{ token: client.token }`,
 * `"password":…`), in a payload whose value is only known at run time.
 */
const CREDENTIAL_NAME =
  '(?:(?:bot|access|auth|refresh|session|api|discord|slack|github|npm|id)[_-]?)?(?:token|secret|password|passwd|cookie|mnemonic|seed[_-]?phrase)|(?:api|access|secret|private|auth)[_-]?key';
const CREDENTIAL_KEY = new RegExp(`^(?:${CREDENTIAL_NAME})$`, 'i');
/** The same in JSON text (nested JSON escapes its quotes), where a value not known here was written as null. */
const CREDENTIAL_JSON = new RegExp(`"(?:${CREDENTIAL_NAME})\\\\?"\\s*:\\s*null\\b`, 'i');

/** A payload that carries a credential under its field name, read at run time (bounded walk). */
function carriesNamedCredential(v: Val | undefined, depth = 0): boolean {
  if (!v || depth > 4) return false;
  if (v.k === 'str') return v.v.length <= 100_000 && CREDENTIAL_JSON.test(v.v);
  if (v.k === 'arr') return v.items.slice(0, 50).some((x) => carriesNamedCredential(x, depth + 1));
  if (v.k !== 'obj') return false;
  let n = 0;
  for (const [k, x] of v.props) {
    if (++n > 200) break;
    if (CREDENTIAL_KEY.test(k) && x.k !== 'str' && x.k !== 'num' && x.k !== 'bool' && x.k !== 'fn')
      return true;
    if (carriesNamedCredential(x, depth + 1)) return true;
  }
  return false;
}

/**
 * Hosts that stay on the machine, or that the file does not write: a template's hole, an
 * environment variable's value (`process.env.SMTP_HOST` reads as `$SMTP_HOST`), configured by
 * whoever runs it.
 */
const LOCAL_HOST = /^(?:localhost|127\.|\[::1\]|0\.0\.0\.0)|\$\{|^\$[A-Za-z_]\w*(?::\d+)?$/;

export function hostOf(url: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#\s]*@)?(\[[^\]]+\]|[^:/?#\s]+)/i.exec(url.trim());
  return m?.[1]?.toLowerCase();
}

/** URL literals: their domains count when the file makes requests (fileDomains). */
export function urlLiteral(d: Detectors, v: string, node: AstNode): void {
  if (v.length >= 8 && v.length < 2048 && /^(?:https?|wss?):\/\//i.test(v) && d.urlLiterals.length < 500) {
    d.urlLiterals.push({ url: v, line: lineOf(node) });
  }
}

/** Headers that carry the request's own credential. */
const AUTH_HEADER = /^(?:authorization|cookie|x-api-key|x-auth-token|x-access-token|api-key|npm-otp)$/i;

/**
 * Request options with the authentication headers whose taints `used` calls the credential used,
 * not sent away, left out. `always`: the options' own taint summary is dropped even when no header
 * is (what they hold is read from their entries).
 */
const TLS_OPTION = /^(?:ca|cert|key|pfx|passphrase|agent|httpsAgent|dispatcher)$/;

function withoutUsedCredentials(
  options: Val | undefined,
  used: (t: Set<Taint>) => boolean,
  always = false,
): Val | undefined {
  if (options?.k !== 'obj') return options;
  // (TLS material and agents are used for the connection, not sent as data.)
  if (always && [...options.props.keys()].some((k) => TLS_OPTION.test(k)))
    options = { ...options, props: new Map([...options.props].filter(([k]) => !TLS_OPTION.test(k))) };
  const headers = options.props.get('headers');
  if (headers?.k !== 'obj') return always ? { ...options, t: undefined } : options;
  const kept = new Map([...headers.props].filter(([k, v]) => !AUTH_HEADER.test(k) || !used(deepTaints(v))));
  if (kept.size === headers.props.size && !always) return options;
  return {
    ...options,
    t: undefined,
    props: new Map([...options.props, ['headers', { ...headers, props: kept, t: undefined }]]),
  };
}

/**
 * A page's stored session token sent as the request's own credential (an `Authorization` or API-key
 * header): what a service's SDK does with the token it stored (and what a server does with the
 * session cookie its own request came with, sent on to its backend); so is a key named like a secret key
 * there (`Authorization: Bearer ${opts.secretKey}`), an API key used, not a wallet key sent away.
 * Sent in a body or an address, it is the token taken; the headers of other secrets (the
 * environment's, a key file's) still count.
 */
/**
 * A request's options without a User-Agent header: what a client says it is (npm's own user agent
 * forwarded by a binary downloader) is not data it sends out.
 */
function withoutUserAgent(options: Val | undefined): Val | undefined {
  if (options?.k !== 'obj') return options;
  const headers = options.props.get('headers');
  if (headers?.k !== 'obj' || ![...headers.props.keys()].some((k) => /^user-agent$/i.test(k))) return options;
  // (An object literal carries what its properties carry: the copies carry what is left.)
  const carried = (props: Map<string, Val>): Set<Taint> => {
    const t = new Set<Taint>();
    for (const v of props.values()) for (const x of deepTaints(v)) t.add(x);
    return t;
  };
  const kept = new Map([...headers.props].filter(([k]) => !/^user-agent$/i.test(k)));
  const slimHeaders: Val = { k: 'obj', props: kept, t: carried(kept) };
  const props = new Map([...options.props, ['headers', slimHeaders]]);
  return { k: 'obj', props, t: carried(props) };
}

function withoutPageCredential(options: Val | undefined): Val | undefined {
  return withoutUsedCredentials(
    options,
    (t) =>
      (t.has('page_secret') || t.has('key_material') || t.has('request_secret')) &&
      !t.has('secret_env') &&
      !t.has('secret_file') &&
      !t.has('env_all'),
  );
}

/** An address with one taint left out, whatever part of it carried it (a URL object's fields too). */
function withoutTaint(v: Val, taint: Taint): Val {
  const t = deepTaints(v);
  if (!t.has(taint)) return v;
  t.delete(taint);
  return t.size ? { k: 'unknown', t } : { k: 'unknown' };
}

/**
 * The leading labels of a DNS name that carry data (`${hex}.${i}-${n}.${id}.` before a fixed
 * domain): everything up to the last label with a piece not known here (or an environment
 * variable's value, `$NAME`), when a domain follows.
 */
const DATA_LABELS = /^.*(?:\$\{…\}|\$[A-Za-z_])[^.]*\.(?=(?:[a-z0-9_-]+\.)+[a-z]{2,}$)/i;
/** `host` without its data labels (names of a sane length only: the pattern backtracks). */
function withoutDataLabels(host: string | undefined): string | undefined {
  return host && host.length <= 1_000 ? host.replace(DATA_LABELS, '') : host;
}

/** A network request: capability, domains, protocols, and the exfiltration checks. */
export function request(
  d: Detectors,
  node: AstNode,
  what: string,
  target: Val | undefined,
  options: Val | undefined,
  scope: Scope,
  protocol: string | undefined,
  payload?: Val[],
): void {
  const caps = d.caps;
  d.networkInFile = true;
  caps.makesRequests = true;
  if (/^(?:net|tls)\.|^(?:ws|websocket|isomorphic-ws|WebSocket|socket\.io-client)$/.test(what))
    d.facts.outboundSocket ??= lineOf(node);
  let host: string | undefined;
  const written = asString(target) ?? (target?.k === 'str' ? target.v : undefined);
  // A protocol-relative address (`//host/p`, a link's href) is fetched over the page's scheme.
  const url = written !== undefined && /^\/\/[^/]/.test(written) ? `https:${written}` : written;
  if (url !== undefined && /^[a-z]+:\/\//i.test(url)) {
    caps.addUrl(url);
    host = hostOf(url);
    // Sensitive data in the leading labels of a fixed domain (`${data}.x.example.net`, DNS
    // exfiltration) still names that domain; a tenant or region there (`${tenant}.auth.example`)
    // is a configured endpoint.
    const carried = target?.t;
    const dataLabels =
      !!carried &&
      (
        ['page_secret', 'request_secret', 'secret_file', 'secret_env', 'env_all', 'fingerprint'] as Taint[]
      ).some((t) => carried.has(t));
    const named = dataLabels ? withoutDataLabels(host) : host;
    if (named && !LOCAL_HOST.test(named)) d.literalHostInFile = true;
  } else if (protocol && protocol !== 'ws') caps.protocols.add(protocol);
  for (const o of [target, options]) {
    if (o?.k !== 'obj') continue;
    const h = asString(o.props.get('hostname')) ?? asString(o.props.get('host'));
    if (h && !h.includes('${')) {
      caps.addDomain(h.replace(/:\d+$/, ''));
      host ??= h.toLowerCase();
      if (!LOCAL_HOST.test(h)) d.literalHostInFile = true;
    }
    const u = asString(o.props.get('url')) ?? asString(o.props.get('baseURL'));
    if (u && /^[a-z]+:\/\//i.test(u)) {
      caps.addUrl(u);
      host ??= hostOf(u);
    }
    const proto = asString(o.props.get('protocol'));
    if (proto) caps.protocols.add(proto.replace(/:$/, ''));
  }
  if (protocol === 'ws' && !url) caps.protocols.add('ws');
  if (host && publicIpOf(host) && (url !== undefined ? /^http:\/\//i.test(url) : /^http\./.test(what)))
    d.plainIpRequest = true;
  // A CI workflow written into a repository through a hosting API (`PUT …/contents/.github/
  // workflows/x.yml`): code that spreads into the repositories a token can reach.
  if (
    url !== undefined &&
    /\/contents\/\.github(?:\/|%2F)workflows(?:\/|%2F)|\/repository\/files\/\.gitlab-ci\.yml/i.test(url)
  )
    d.threat(
      'js.remote-workflow-write',
      d.installTime ? 'install_script_injection' : 'malicious_code',
      node,
      'writes a CI workflow into a repository through the hosting API (spreads with the token it holds)',
      d.install,
    );
  d.capability(
    'network',
    'js.request',
    node,
    `makes a network request (${what}${host ? ` to ${host}` : ''})`,
  );
  // A credential file's token sent in the Authorization header to the address the same
  // configuration names (a CLI reading ~/.npmrc and calling the registry it lists): the
  // credential used where the user pointed it. The address is not written in the code and comes
  // from the user's configuration or environment, not from the network or a decoded string.
  // (So is a host an options object takes from the environment: `{ host:
  // process.env.KUBERNETES_SERVICE_HOST }` with the service account's token.)
  // (Only the credential in the Authorization header is used there; the in-cluster API server's
  // own name counts as configured too.)
  const envHost =
    host !== undefined &&
    (/^\$[a-z_]\w*$/i.test(host) ||
      /^kubernetes\.default(?:\.svc(?:\.cluster\.local)?)?(?:\$\{…\}.*)?$/i.test(host));
  const targetTaints = target && (host === undefined || envHost) ? deepTaints(target) : undefined;
  const configured =
    !!targetTaints &&
    (targetTaints.has('secret_file') || envHost || /^\$[A-Za-z_]/.test(written ?? '')) &&
    !targetTaints.has('network_data') &&
    !targetTaints.has('decoded') &&
    !/\$npm_package_/.test(written ?? '');
  const all = (
    configured
      ? [
          envHost
            ? withoutUsedCredentials(target, (t) => t.has('secret_file'), true)
            : withoutTaint(target!, 'secret_file'),
          options === target
            ? undefined
            : withoutUsedCredentials(withoutPageCredential(options), (t) => t.has('secret_file'), true),
        ]
      : [withoutPageCredential(withoutUserAgent(target)), withoutPageCredential(withoutUserAgent(options))]
  )
    .concat(payload ?? [])
    .filter(Boolean) as Val[];
  const before = scope?.sinks?.length ?? 0;
  // (An address not known here at all, not decoded, not received: one the user's configuration
  // names.)
  const hostUnknown =
    !!target &&
    host === undefined &&
    !(written !== undefined && /^[a-z]+:\/\/[^$]/i.test(written)) &&
    !hasDeepTaint(target, 'network_data') &&
    !hasDeepTaint(target, 'decoded');
  sink(d, node, what, all, scope, hostUnknown);
  // (A credential file's token used where that file's own configuration points was weighed here:
  // its read is not then a request "in the same function" as a theft. Only when this request
  // carried the credential, and only the sink this call added.)
  const usedCredential =
    configured &&
    (targetTaints?.has('secret_file') ||
      (options !== target && !!options && hasDeepTaint(options, 'secret_file')));
  const added = scope?.sinks && scope.sinks.length > before ? scope.sinks[scope.sinks.length - 1] : undefined;
  if (usedCredential && added) added.tainted = true;
  const ip = host ? publicIpOf(host) : undefined;
  if (ip) {
    const sends =
      options?.k === 'obj' &&
      (options.props.has('body') || /post|put/i.test(asString(options.props.get('method')) ?? ''));
    d.threat(
      'js.request-public-ip',
      'data_exfiltration',
      node,
      `${sends ? 'sends data' : 'connects'} to a hard-coded public IP address ${ip}`,
      sends ? 'sends' : undefined,
    );
  }
  // A chat webhook with its token written in the package (Discord, Telegram bot, Slack): the
  // stealers' drop box. With secrets, host details or the environment in the request: critical.
  const fullUrl =
    url ??
    [target, options]
      .map((o) =>
        o?.k === 'obj' ? (asString(o.props.get('url')) ?? asString(o.props.get('path'))) : undefined,
      )
      .find(Boolean);
  // A chat SDK's webhook client built with its id and token written in the package
  // (`new WebhookClient('7162…', 'fbKZ…')`): the same drop box without a URL.
  const sdkWebhook =
    /^(?:discord\.js|discord-webhook-node|webhook-discord|@slack\/webhook|node-telegram-bot-api|telegraf)$/.test(
      what,
    ) &&
    (payload ?? []).some(
      (a) => /^[\w-]{30,}(?::[\w-]{20,})?$/.test(asString(a) ?? '') && /\d/.test(asString(a) ?? ''),
    );
  if ((fullUrl && CHAT_WEBHOOK.test(fullUrl)) || sdkWebhook) {
    const taints = new Set<Taint>();
    for (const a of all) deepTaints(a, 0, taints);
    // A field named for a credential whose value is read at run time (`{ token: client.token }`)
    // is a secret too: the stealers' message to their drop box.
    const carries =
      ['env_all', 'secret_env', 'secret_file', 'fingerprint'].some((t) => taints.has(t as Taint)) ||
      all.some((a) => carriesNamedCredential(a));
    d.threat(
      'js.chat-webhook-exfil',
      'data_exfiltration',
      node,
      `posts to a chat webhook whose token is written in the package${carries ? ', with secrets or host details' : ''}`,
      carries ? 'secrets' : d.install,
    );
  }
  if (host && EXFIL_HOST.test(host)) {
    d.threat(
      'js.request-exfil-host',
      'data_exfiltration',
      node,
      `talks to ${host}, a request-capture/tunnelling service used for exfiltration`,
    );
  }
}

/** `xhr.open(method, url)`: the URL's domain, and whether it is written in the code. */
export function requestTarget(d: Detectors, u: string): void {
  const host = /^[a-z]+:\/\//i.test(u) ? hostOf(u) : undefined;
  if (!host) return;
  d.caps.addUrl(u);
  if (!LOCAL_HOST.test(host)) d.literalHostInFile = true;
}

export function xhr(d: Detectors, node: AstNode): void {
  d.networkInFile = true;
  d.caps.makesRequests = true;
  d.capability('network', 'js.xhr', node, 'creates an XMLHttpRequest');
}

export function server(d: Detectors, node: AstNode, mod: string, protocol: string): void {
  const http = mod === 'http' || mod === 'https' || mod === 'http2';
  if (http) d.networkInFile = true;
  d.caps.protocols.add(protocol);
  d.capability('network', 'js.server', node, `starts ${http ? 'an' : 'a'} ${mod} server`);
}

export function udp(d: Detectors, node: AstNode): void {
  d.networkInFile = true;
  d.caps.makesRequests = true;
  d.caps.protocols.add('udp');
  d.capability('network', 'js.udp', node, 'opens a UDP socket');
}

export function dns(d: Detectors, node: AstNode, host: string | undefined, args: Val[], scope: Scope): void {
  d.caps.makesRequests = true;
  d.caps.protocols.add('dns');
  if (host && /\./.test(host) && !host.includes('${')) d.caps.addDomain(host);
  d.capability('network', 'js.dns', node, `performs a DNS lookup${host ? ` of ${host}` : ''}`);
  // A name under a fixed domain (data in its leading labels: `${hex}.t.example.net`) is a host
  // written in the code, as a request's is.
  const fixed = withoutDataLabels(host);
  const underFixedDomain = !!fixed && /\./.test(fixed) && !fixed.includes('${') && !LOCAL_HOST.test(fixed);
  if (underFixedDomain) d.literalHostInFile = true;
  // (Data in the labels of a fixed public domain's names is DNS tunnelling, which no SDK reports
  // by; a service-discovery zone inside the network names its own nodes so.)
  const tunnel = underFixedDomain && fixed !== host && !INTERNAL_ZONE.test(fixed!);
  sink(d, node, tunnel ? DNS_LABELS_SINK : 'dns lookup', args, scope);
}

/** Zones that resolve inside a network (service discovery, mDNS, cluster DNS). */
const INTERNAL_ZONE =
  /(?:^|\.)(?:consul|local|localdomain|internal|lan|intranet|corp|home\.arpa|svc|cluster\.local)$/i;

export const DNS_LABELS_SINK = 'dns lookups with data in the names of a fixed domain';

/** Domains of host properties and URL literals, once the file is known to make requests. */
export function fileDomains(d: Detectors): void {
  for (const h of d.hostProperties)
    if (d.networkInFile && !h.includes('${')) d.caps.addDomain(h.replace(/:\d+$/, ''));
  if (d.networkInFile) {
    for (const u of d.urlLiterals) d.caps.addUrl(u.url);
  }
}
