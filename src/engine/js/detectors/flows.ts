/**
 * Data-flow detectors: credential files, the whole environment, secret-looking variables and
 * host details flowing into a network sink (or read in the same function that sends), the whole
 * environment handed to calls in a file that talks to a remote URL, and what a page's user types
 * sent to a host written in the code.
 */
import { toCloudMetadata } from '../models/network';
import { WHOLE_ENV } from '../../capabilities';
import { SENSITIVE_PATH } from '../../indicators';
import { lineOf } from '../ast';
import { SPAWN_MODULES } from '../models/process';
import type { Scope } from '../scope';
import { asString, deepTaints, hasDeepTaint, type AstNode, type Taint, type Val } from '../values';
import { DNS_LABELS_SINK, hostOf } from './network';
import { withoutComments } from './files';
import type { Detectors } from './index';

function describeTaint(t: Taint): string {
  switch (t) {
    case 'secret_file':
      return 'credential files';
    case 'env_all':
      return 'the whole environment';
    case 'fingerprint':
      return 'host details';
    case 'secret_env':
      return 'secret environment variables';
    default:
      return t;
  }
}

/** A stratum JSON-RPC message: login, subscribe/authorize or share submission. */
const STRATUM =
  /"method"\s*:\s*"(?:mining\.(?:subscribe|authorize|submit|extranonce\.subscribe)|login|submit|eth_submitLogin|eth_submitWork|eth_getWork)"[^}]*"params"|"params"[^}]*"method"\s*:\s*"(?:mining\.\w+|login|submit)"/;

/** Sensitive data read in a function: remembered for the same-scope rule. */
export function source(scope: Scope, taint: Taint, node: AstNode): void {
  scope.sources ??= new Map();
  if (!scope.sources.has(taint)) scope.sources.set(taint, lineOf(node));
}

export function envWhole(
  d: Detectors,
  node: AstNode,
  message = 'reads the whole environment (process.env copied, spread or enumerated)',
): void {
  d.caps.envVars.add(WHOLE_ENV);
  d.capability('environment', 'js.env-whole', node, message);
}

/**
 * Whether a file writes a host anywhere (an http(s) or ws(s) address, a `host:`/`hostname:` string,
 * a dotted IP): read from its text, so where in the file it stands does not matter.
 */
const HOST_WRITTEN =
  /\b(?:https?|wss?):\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)+|\bhost(?:name)?\s*[:=]\s*['"`][a-z0-9-]+\.[a-z0-9.-]+|['"`](?:\d{1,3}\.){3}\d{1,3}['"`]/i;
function writesAHost(d: Detectors): boolean {
  const text = d.input.text;
  return (d.hostWritten ??= HOST_WRITTEN.test(text.length > 2_000_000 ? text.slice(0, 2_000_000) : text));
}

const HOSTS_WRITTEN = new RegExp(HOST_WRITTEN.source, 'gi');

const LOOPBACK = /localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]/i;

/** The addresses a text writes that are not this machine (the first `max`). */
function* remoteHostsWritten(text: string, max: number): Generator<string> {
  let n = 0;
  for (const m of text.matchAll(HOSTS_WRITTEN)) {
    if (LOOPBACK.test(m[0])) continue;
    if (++n > max) return;
    yield m[0];
  }
}

/** Whether a text writes a host that is not this machine (or 50 hosts at all). */
function namesRemoteHost(text: string): boolean {
  let n = 0;
  for (const m of text.matchAll(HOSTS_WRITTEN)) {
    if (!LOOPBACK.test(m[0])) return true;
    if (++n >= 50) return true;
  }
  return false;
}

/**
 * A request to the package's own service: a host one of whose labels is a word of the package's
 * name (`api.harbormark.dev` for `@harbormark/cli`), given as the request's address.
 */
function toOwnService(d: Detectors, args: Val[]): boolean {
  const packageName = d.input.modules?.packageName;
  if (!packageName) return false;
  // (The whole label: `envdoc-support.net` is not `envdoc`'s, an attacker names hosts too.)
  const name = packageName.toLowerCase();
  const bare = name.replace(/^@[^/]+\//, '');
  const words = new Set(
    [/^@([^/]+)\//.exec(name)?.[1], bare, bare.replace(/[-_.](?:cli|js|sdk|node)$/, '')].filter(
      (w): w is string => !!w && w.length >= 4,
    ),
  );
  const ownHost = (host: string | undefined) => {
    // (The domain it is registered under, not a subdomain an attacker names after the package.)
    const labels = host?.toLowerCase().split('.') ?? [];
    return labels.length >= 2 && words.has(labels[labels.length - 2]!);
  };
  // (An address over HTTPS, or a host an options object names: `{ host: 'api.x.dev' }`.)
  const own = (written: string) =>
    ownHost(
      (/^https:\/\/([a-z0-9.-]+)(?:[:/]|$)/i.exec(written) ??
        /^host(?:name)?\s*[:=]\s*['"`]([a-z0-9.-]+)/i.exec(written))?.[1],
    );
  const a0 = args[0];
  const url = a0?.k === 'obj' ? asString(a0.props.get('href')) : asString(a0);
  if (url !== undefined && /^[a-z][\w+.-]*:\/\/[^$]/i.test(url)) return own(url);
  // (Not when the options pick where it really connects: a `lookup`, an `agent`, a socket path.)
  if (a0?.k === 'obj' && ['lookup', 'agent', 'socketPath', 'createConnection'].some((k) => a0.props.has(k)))
    return false;
  const host =
    a0?.k === 'obj' ? (asString(a0.props.get('hostname')) ?? asString(a0.props.get('host'))) : undefined;
  if (host !== undefined && /^[a-z0-9.-]+$/i.test(host)) return ownHost(host);
  // (An address not known here: every remote host the file writes is the package's own, and no
  // request option of the file picks another place to connect to.)
  if (/\b(?:lookup|socketPath|createConnection)\s*:/.test(d.input.text.slice(0, 2_000_000))) return false;
  const hosts = [...remoteHostsWritten(withoutComments(d.input.text.slice(0, 2_000_000)), 20)];
  return hosts.length > 0 && hosts.length < 20 && hosts.every(own);
}

/** Records a network sink; flags it when sensitive data flows straight into it. */
/** A secret-looking variable in a request's body (options other than headers, or a body argument). */
function secretOutsideHeaders(args: Val[], body: boolean): boolean {
  return args.some((a, i) => {
    // The first argument of a request is the address (a configured one may be built from the
    // same settings); what `req.write` / `req.end` get is all body.
    if (a.k !== 'obj') return (body || i > 0) && hasDeepTaint(a, 'secret_env');
    for (const [k, v] of a.props)
      if (!/^(?:headers|auth|agent)$/i.test(k) && hasDeepTaint(v, 'secret_env')) return true;
    return false;
  });
}

/** `hostUnknown`: the request goes to an address not known here at all (see network.request). */
/**
 * The address a request goes to was decoded at run time (base64, char codes, hex): the URL given,
 * or the host of the options given.
 */
function hiddenAddress(args: Val[]): boolean {
  const a0 = args[0];
  const parts =
    a0?.k === 'obj'
      ? ['host', 'hostname', 'href', 'url', 'origin', 'baseURL'].map((k) => a0.props.get(k))
      : [a0];
  return parts.some(
    (p) => !!p && (p.k === 'str' || p.k === 'unknown') && (p.t?.has('decoded') || !!p.viaDecoder),
  );
}

const CI_CONTEXT =
  /\b(?:process\.env|env)\.(?:CI|GITHUB_ACTIONS|GITHUB_\w+|GITLAB_CI|CI_\w+|RUNNER_\w+|BUILDKITE\w*|CIRCLECI|CIRCLE_\w+|TF_BUILD|SYSTEM_\w+|JENKINS_URL|TRAVIS\w*)\b|@actions\/core/;

/**
 * The whole environment or a credential file's contents printed encoded (base64, hex): in CI the
 * output is the job's log (public for a public project), and the runner masks the secrets it
 * knows only as they are written.
 */
export function printed(d: Detectors, node: AstNode, args: Val[]): void {
  const encoded = args.find((a) => a.t?.has('encoded'));
  if (!encoded?.t) return;
  // (Only code that runs in CI: an action, or a file that looks at the CI's variables. A manifest
  // generator printing a pull secret for kubectl does what it is asked, and so does a command its
  // user runs, `#!/usr/bin/env node`, printing a `.env` encoded to paste into a CI secret.)
  if (!d.input.modules?.ciAction && (!CI_CONTEXT.test(d.input.text) || d.input.text.startsWith('#!'))) return;
  const strong = [...encoded.t].filter((t) => t === 'secret_file' || t === 'env_all');
  if (!strong.length) return;
  d.threat(
    'js.exfil-flow',
    'data_exfiltration',
    node,
    `prints ${strong.map(describeTaint).join(' and ')} encoded to its output: in CI, a job log the runner's secret masking does not read`,
    'jobLog',
  );
}

export function sink(
  d: Detectors,
  node: AstNode,
  what: string,
  args: Val[],
  scope: Scope,
  hostUnknown = false,
): void {
  // Asking the cloud metadata service (with the role name it gave) sends nothing out.
  if (args.some((a) => toCloudMetadata(a))) return;
  const taints = new Set<Taint>();
  for (const a of args) deepTaints(a, 0, taints);
  for (const t of taints) d.sent.add(t);
  // Who is visiting (user agent, automation flag, the page they came from) sent to a server: what
  // it answers may pick what each visitor sees (a cloaking service).
  if (taints.has('visitor') || taints.has('referrer')) d.visitorSent = true;
  // A credential file named where the client reads and attaches it (`attachments: [{ path:
  // '~/.ssh/id_rsa' }]`, `{ file: '~/.npmrc' }`): its content is what is sent.
  if (args.some((a) => attachesSecretFile(a, 0))) taints.add('secret_file');
  const sensitive = [...taints].filter(
    (t) => t === 'secret_file' || t === 'env_all' || t === 'fingerprint' || t === 'secret_env',
  );
  const strong = sensitive.filter((t) => t === 'secret_file' || t === 'env_all');
  if (strong.length) {
    // (Credential files to an address the code does not name at all, from the user's own
    // configuration: a secrets tool pushes what it is asked to, below a warning outside install.
    // Not the whole environment, and not from a file that reads the package's own files, where an
    // address can be kept out of the code's sight.)
    const configured =
      hostUnknown &&
      !strong.includes('env_all') &&
      !d.installTime &&
      !/\b__dirname\b|\b__filename\b|\bimport\.meta\.(?:url|dirname|filename)\b/.test(d.input.text) &&
      !(d.hostInCode ??= namesRemoteHost(withoutComments(d.input.text.slice(0, 2_000_000))));
    d.threat(
      'js.exfil-flow',
      'data_exfiltration',
      node,
      `sends ${strong.map(describeTaint).join(' and ')} over the network (${what})${configured ? ' to an address its configuration names' : ''}`,
      configured ? 'configured' : undefined,
    );
  } else if (sensitive.includes('fingerprint')) {
    // At install time nothing legitimate needs to report who installed it, where: the
    // dependency-confusion beacon. At run time SDKs and telemetry do, so it stays a warning, unless
    // the address was decoded at run time: they name where they report; hiding it is what a thief
    // does.
    const hidden = hiddenAddress(args);
    d.threat(
      'js.exfil-fingerprint',
      'data_exfiltration',
      node,
      `sends ${hidden && sensitive.includes('secret_env') ? 'secrets and ' : ''}host details (host name, user info) over the network (${what})${hidden ? ' to an address decoded at run time' : ''}`,
      d.install ??
        (hidden
          ? 'hiddenHost'
          : what === DNS_LABELS_SINK
            ? 'dnsLabels'
            : (d.literalHostInFile || writesAHost(d)) &&
                // (Called by its user, to the package's own service: a device name in a login.)
                !(d.unprompted !== 'load' && toOwnService(d, args))
              ? undefined
              : 'configured'),
    );
  } else if (sensitive.includes('secret_env')) {
    // SDKs send their own API keys when called; nothing needs to during npm install, nor to an
    // address kept out of the code's text.
    const hidden = hiddenAddress(args);
    // (Outside the headers: a token in a request's own headers is how it is used.)
    const outside = secretOutsideHeaders(args, what === 'request body');
    d.threat(
      'js.secret-env-to-network',
      'data_exfiltration',
      node,
      `sends a secret (an environment variable named like one, or a token or password a CLI printed) over the network (${what})${hidden ? ' to an address decoded at run time' : ''}`,
      // Called by its user, an SDK sends the keys it is given; sent as soon as it is loaded, or
      // to an address it hides, the secret goes out before anyone asked for anything.
      // (A credential a command printed, the user's stored git password or CLI token, sent in a
      // request's body to a host written in the code by code that runs unprompted: nothing asked
      // for it. To an address its user configures, a login with an identity token is what it is for.)
      outside && d.unprompted && taints.has('cli_credential') && !hostUnknown && d.literalHostInFile
        ? 'cliCredential'
        : (d.install ??
            (what === DNS_LABELS_SINK
              ? 'dnsLabels'
              : !outside
                ? undefined
                : hidden
                  ? 'hiddenHost'
                  : d.unprompted === 'load'
                    ? 'load'
                    : undefined)),
    );
  }
  // What a page's user types (keystrokes, password/card/seed fields, wallet storage) sent to
  // a host written in the file: a skimmer or keylogger. Libraries that post form data send
  // it to an endpoint their caller configures.
  if (taints.has('page_secret') && d.literalHostInFile) {
    d.threat(
      'js.page-secret-exfil',
      'data_exfiltration',
      node,
      `sends the page's secrets (what its user types, its cookies or web storage, wallet fields) to a fixed host (${what})`,
    );
  }
  // The session cookies of a request the server handles (its Cookie header, its parsed jar, a
  // session cookie by name), sent to a host written in the file: its users' sessions taken. (Sent
  // as a request's own Cookie header, by a proxy or a backend-for-frontend, they are used: see
  // network.ts.)
  if (taints.has('request_secret') && d.literalHostInFile) {
    d.threat(
      'js.request-secret-exfil',
      'data_exfiltration',
      node,
      `sends the session cookies of the requests the server handles to a fixed host (${what})`,
      d.install,
    );
  }
  // A seed phrase or private key the code was handed (or a messaging session's keys), sent to a
  // host written in the code.
  if ((taints.has('key_material') || d.seedGate > 0) && d.literalHostInFile) {
    d.threat(
      'js.key-material-exfil',
      'data_exfiltration',
      node,
      `sends key material it was given (a wallet seed phrase or private key, a messaging session's keys) to a fixed host (${what})`,
      d.install,
    );
  }
  // A mining pool session: the stratum protocol's JSON-RPC login or share submission written to a
  // connection (a miner written in JavaScript, no miner binary or pool URL in sight).
  for (const a of args.slice(0, 4)) {
    const text = asString(a);
    if (text && STRATUM.test(text)) {
      d.threat(
        'js.stratum-session',
        'malicious_code',
        node,
        `speaks the mining pool protocol (${what})`,
        d.install,
      );
      break;
    }
  }
  (scope.sinks ??= []).push({
    line: lineOf(node),
    what,
    tainted: sensitive.length > 0,
    fingerprint: sensitive.includes('fingerprint'),
  });
}

/** Same-scope exfiltration: sensitive data read and a network sink in one function. */
export function sameScope(d: Detectors, scope: Scope): void {
  const sources = scope.sources;
  if (!scope.sinks?.length || !sources || scope.sinks.every((s) => s.tainted)) return;
  const strong = (['secret_file', 'env_all'] as Taint[]).filter((t) => sources.has(t));
  const weak = (['fingerprint', 'secret_env'] as Taint[]).filter((t) => sources.has(t));
  const sink = scope.sinks.find((s) => !s.tainted)!;
  if (strong.length) {
    d.threat(
      'js.exfil-same-scope',
      'data_exfiltration',
      sink.line,
      `reads ${strong.map(describeTaint).join(' and ')} and sends a network request (${sink.what}) in the same function`,
    );
  } else if (
    weak.includes('fingerprint') &&
    scope.sinks.filter((s) => !s.tainted).length > scope.sinks.filter((s) => s.fingerprint).length
  ) {
    // (Not when each untainted sink can be the sibling of one seen carrying the host details the
    // function read, `request(opts).end(body)`: that flow was followed and weighed. A second
    // request whose data was lost still counts.)
    d.threat(
      'js.fingerprint-same-scope',
      'data_exfiltration',
      sink.line,
      `collects host details (host name, user) and sends a network request (${sink.what}) in the same function`,
      d.install,
    );
  }
}

/** The whole environment as a property of an argument of an opaque call (`send({ env: process.env })`). */
export function envToOpaqueCall(d: Detectors, node: AstNode, callee: Val, args: Val[]): void {
  const unknownSink =
    callee.k === 'unknown' ||
    (callee.k === 'api' &&
      !callee.mod.startsWith('global:') &&
      !['child_process', 'fs', 'path', 'string', 'array', 'process', 'os'].includes(callee.mod) &&
      !SPAWN_MODULES.has(callee.mod));
  if (
    unknownSink &&
    args.some(
      (a) => a.k === 'obj' && [...a.props.entries()].some(([k, v]) => v.k === 'env' && !/env/i.test(k)),
    )
  ) {
    d.envCalls.push(lineOf(node));
  }
}

/** Those calls, in a file that talks to a remote URL. */
export function envToRemoteCall(d: Detectors): void {
  const remote = d.urlLiterals.some((u) => {
    const h = hostOf(u.url);
    return h && h !== 'localhost' && !h.startsWith('127.');
  });
  if (!remote) return;
  for (const line of d.envCalls.slice(0, 3)) {
    d.threat(
      'js.env-to-remote-call',
      'data_exfiltration',
      line,
      'passes the whole environment to a call in a file that talks to a remote URL',
    );
  }
}

/** A value under a `path`/`file`/`filename` key (an attachment, an upload) that names a credential file. */
function attachesSecretFile(v: Val | undefined, depth: number): boolean {
  if (!v || depth > 4) return false;
  if (v.k === 'arr') return v.items.slice(0, 50).some((x) => attachesSecretFile(x, depth + 1));
  if (v.k !== 'obj') return false;
  for (const [k, x] of v.props) {
    if (/^(?:path|file|filePath|filepath|filename)$/.test(k)) {
      const s = asString(x);
      if (s !== undefined && SENSITIVE_PATH.test(s)) return true;
    } else if (attachesSecretFile(x, depth + 1)) return true;
  }
  return false;
}
