/**
 * API model: the network. http/https/http2, net/tls, dgram, dns, `fetch`, XMLHttpRequest,
 * `navigator.sendBeacon`, WebSocket and EventSource, HTTP client packages (axios, got, undici,
 * node-fetch …), chat SDKs (Discord, Telegram, Slack webhooks) and WebSocket packages. A request
 * is reported with its target (URL or options object), options and payload; what comes back is
 * `network_data`, and so is what a server receives.
 */
import type { Evaluator } from '../evaluator';
import type { Scope } from '../scope';
import { SENSITIVE_PATH } from '../../indicators';
import { UNKNOWN, asString, hasDeepTaint, str, withTaint, type AstNode, type Val } from '../values';
import type { ApiCall, CallbackCall, GlobalCall, ModuleCall } from './model';

export const NETWORK_CLIENT_MODULES = new Set([
  'axios',
  'got',
  'node-fetch',
  'undici',
  'request',
  'superagent',
  'needle',
  'cross-fetch',
  'isomorphic-fetch',
  'ky',
  'phin',
  'make-fetch-happen',
  'minipass-fetch',
  'request-promise',
  'request-promise-native',
  'axios-retry',
  'npm-registry-fetch',
]);
const CHAT_SDK_MODULES = new Set([
  'discord.js',
  'discord-webhook-node',
  'webhook-discord',
  'node-telegram-bot-api',
  'telegraf',
  '@slack/webhook',
]);
const WS_MODULES = new Set(['ws', 'socket.io-client', 'websocket', 'isomorphic-ws']);
/** Mail senders: `smtp` stands for a transport a mail module created. */
const MAIL_MODULES = new Set([
  'nodemailer',
  'smtp',
  'emailjs',
  '@sendgrid/mail',
  'mailgun.js',
  'nodemailer-smtp-transport',
]);

/** File transfer clients (FTP, SFTP, SCP): what they upload leaves the machine. */
const FILE_TRANSFER_MODULES = new Set([
  'basic-ftp',
  'ftp',
  'jsftp',
  'promise-ftp',
  'ssh2-sftp-client',
  'node-scp',
  'scp2',
]);
/** Cloud storage SDKs: objects put or uploaded leave the machine. */
const CLOUD_STORAGE_MODULE = /^(?:@aws-sdk\/client-s3|aws-sdk|@google-cloud\/storage|@azure\/storage-blob)$/;

/** Upload arguments: a credential file named by its path is its content sent. */
function uploaded(args: Val[]): Val[] {
  return args.map((a) => {
    const p = asString(a);
    return p !== undefined && SENSITIVE_PATH.test(p) ? withTaint({ k: 'unknown' }, [a], 'secret_file') : a;
  });
}

/** What a request returns: a response (or socket) whose data came from the network. */
function received(target?: Val): Val {
  const v = withTaint({ k: 'net' }, [], 'network_data');
  return fromCloudMetadata(target) ? withTaint(v, [], 'secret_file') : v;
}

/**
 * The cloud instance metadata service's credential paths (AWS, ECS, GCP, Azure): what they answer
 * is the machine's cloud credentials, as secret as a key file.
 */
const CLOUD_METADATA_CREDENTIALS =
  /^(?:https?:)?\/\/(?:169\.254\.169\.254|169\.254\.170\.2|\[fd00:ec2::254\]|metadata\.google\.internal|metadata)(?::\d+)?\/[^\s]*(?:security-credentials|credentials|identity-credentials|service-accounts\/[^/]+\/token|oauth2\/token|\/token)/i;

/** A request target as text: its constant value, or the known prefix of a built one. */
function urlOf(target: Val | undefined): string | undefined {
  return asString(target) ?? (target?.k === 'str' ? target.v : undefined);
}

/** A request to the instance metadata service itself (link-local): asking it is not sending out. */
export function toCloudMetadata(target: Val | undefined): boolean {
  const url = urlOf(target);
  return (
    url !== undefined &&
    /^(?:https?:)?\/\/(?:169\.254\.169\.254|169\.254\.170\.2|\[fd00:ec2::254\]|metadata\.google\.internal)(?:[:/]|$)/i.test(
      url,
    )
  );
}

export function fromCloudMetadata(target: Val | undefined): boolean {
  const url = urlOf(target);
  return url !== undefined && CLOUD_METADATA_CREDENTIALS.test(url);
}

export function networkGlobal(ev: Evaluator, c: GlobalCall): Val | undefined {
  const { node, name, a0, args, scope } = c;
  switch (name) {
    case 'fetch':
      ev.effects.request(node, 'fetch', a0, args[1], scope, undefined);
      return received(a0);
    case 'WebSocket':
    case 'EventSource':
      ev.effects.request(node, name, a0, undefined, scope, 'ws');
      return received();
    case 'XMLHttpRequest':
      ev.effects.xhr(node);
      return { k: 'net' };
    // A WebRTC connection: its data channels send to the peer its STUN/TURN servers reach.
    case 'RTCPeerConnection': {
      const servers = a0?.k === 'obj' ? a0.props.get('iceServers') : undefined;
      const first = servers?.k === 'arr' ? servers.items[0] : undefined;
      const urls = first?.k === 'obj' ? first.props.get('urls') : undefined;
      const url = asString(urls?.k === 'arr' ? urls.items[0] : urls);
      const host = url ? /^(?:stuns?|turns?):([^:?/]+)/i.exec(url)?.[1] : undefined;
      // A TURN server is sent its username and credential when the connection asks it for a relay:
      // data put there leaves with the request (no fetch, no XHR).
      const sent =
        servers?.k === 'arr'
          ? servers.items
              .slice(0, 8)
              .flatMap((sv) =>
                sv.k === 'obj'
                  ? [sv.props.get('username'), sv.props.get('credential')].filter((x): x is Val => !!x)
                  : [],
              )
          : [];
      ev.effects.request(
        node,
        name,
        host ? str(`webrtc://${host}`) : undefined,
        undefined,
        scope,
        'webrtc',
        sent.length ? sent : undefined,
      );
      return received();
    }
    default:
      return undefined;
  }
}

/**
 * Whether a call of a GitHub API client sends what it is given: reads (`GET …`, `list…`, `get…`)
 * carry no data out, and repository secrets written through the API are sealed for GitHub
 * (`…/actions/secrets/{name}`, `createOrUpdateRepoSecret`).
 */
function octokitSends(method: string, route: string): boolean {
  return (
    !/^(?:get|list)[A-Z]/.test(method) &&
    !/Secret$/.test(method) &&
    !/^GET\s/i.test(route) &&
    !/\/secrets(?:\/|\s|$)/i.test(route)
  );
}

export function networkApi(ev: Evaluator, c: ApiCall): Val | undefined {
  const { node, mod, path, method, args, a0, s0, scope, isNew } = c;
  // npm's own publishing library: a request to the registry carrying a tarball and a token.
  if (mod === 'libnpmpublish' && (method === 'publish' || method === 'unpublish')) {
    ev.effects.request(node, `libnpmpublish.${method}`, undefined, args[2], scope, 'https', args);
    if (method === 'publish') ev.effects.publish(node, 'libnpmpublish', args);
    return received();
  }
  // GitHub's API clients (`@actions/github`'s getOctokit, `@octokit/rest`'s Octokit): every call
  // under one (`octokit.rest.issues.createComment({ body })`, `octokit.request(route, params)`,
  // `octokit.graphql(query, vars)`) is a request to GitHub carrying its arguments, where a comment,
  // an issue or a gist is public. (Repository secrets set through it are sealed for GitHub.)
  // (`Octokit.plugin(…)` makes a client class too; `@octokit/request` and `@octokit/graphql` are
  // the bare request functions.)
  if (
    (mod === '@actions/github' && method === 'getOctokit') ||
    (/^(?:@octokit\/(?:rest|core)|octokit)$/.test(mod) && /^(?:Octokit|plugin|defaults)$/.test(method))
  )
    return { k: 'mod', name: 'octokit' };
  if (mod === 'octokit' || /^@octokit\/(?:request|graphql)$/.test(mod)) {
    if (args.length && octokitSends(method, asString(a0) ?? ''))
      ev.effects.request(node, `octokit.${path}`, undefined, undefined, scope, 'https', args);
    return received();
  }
  if (mod === 'global:navigator' && path === 'sendBeacon') {
    ev.effects.request(node, 'navigator.sendBeacon', a0, undefined, scope, undefined, args.slice(1));
    return { k: 'bool', v: true };
  }
  if (mod === 'netobj') {
    // pc.setRemoteDescription({ type: 'answer', sdp }): a peer written into the code (its address
    // in the session description) is where the connection's data channels send.
    if (method === 'setRemoteDescription' && a0?.k === 'obj') {
      const sdp = asString(a0.props.get('sdp'));
      const ip = sdp
        ? /\bc=IN IP[46] ([0-9a-fA-F.:]+)|\ba=candidate:\S+ \d+ \w+ \d+ ([0-9a-fA-F.:]+) \d+/.exec(sdp)
        : null;
      if (ip) ev.effects.requestTarget(`webrtc://${ip[1] ?? ip[2]}`);
      return received();
    }
    // xhr.open('POST', url): where the later xhr.send(body) goes.
    if (method === 'open' && args.length >= 2) {
      const u = asString(args[1]);
      if (u) ev.effects.requestTarget(u);
      return received();
    }
    // (`postMessage`: a page worker running code it downloaded, see codeGlobal's Worker.)
    if (/^(?:write|end|send|emit|postMessage)$/.test(method) && args.length) {
      ev.effects.sink(node, 'request body', args, scope);
      return UNKNOWN;
    }
    // A bot or client uploading a file by its path (`bot.sendDocument(chat, '~/.ssh/id_rsa')`):
    // the client reads the file and sends it; a credential file's path is its content sent.
    if (/^(?:send(?:Document|Photo|File|Audio|Video|Animation|Message)|upload\w*|attach\w*)$/.test(method)) {
      ev.effects.sink(node, `${method} upload`, uploaded(args), scope);
      return received();
    }
    // res.text() / .json() / .then(…) / .data: what comes back is still network data (and still
    // the cloud credentials, when the response came from the metadata service).
    const response = received();
    return c.callee?.t?.has('secret_file') ? withTaint({ ...response }, [response], 'secret_file') : response;
  }
  // Electron's main-process client: `net.request(options | url)` is Node's request, `net.fetch`
  // the page's fetch.
  if (mod === 'electron' && path === 'net.request') {
    ev.effects.request(node, 'electron.net.request', a0, a0, scope, 'https');
    return received();
  }
  if (mod === 'electron' && path === 'net.fetch') {
    ev.effects.request(node, 'electron.net.fetch', a0, args[1], scope, undefined);
    return received(a0);
  }
  if (mod === 'http' || mod === 'https' || mod === 'http2') {
    if (method === 'request' || method === 'get' || method === 'connect') {
      const protocol = mod === 'http2' ? 'https' : mod;
      ev.effects.request(
        node,
        `${mod}.${method}`,
        a0,
        // request(url, options, cb) when an options object follows the address (a string, a URL
        // object or a value not known); request(options, cb) otherwise.
        typeof s0 === 'string' || args[1]?.k === 'obj' ? args[1] : a0,
        scope,
        protocol,
      );
      return received();
    }
    if (method === 'createServer') ev.effects.server(node, mod, mod === 'http2' ? 'https' : mod);
    return UNKNOWN;
  }
  if (mod === 'net' || mod === 'tls') {
    if (/^(?:connect|createConnection|Socket)$/.test(method)) {
      // A target not known here (a socket path read from a cache, a port from the caller) sends
      // nothing by being connected to: what it carries is not data sent (writes are).
      const target = a0?.k === 'unknown' ? UNKNOWN : a0;
      ev.effects.request(node, `${mod}.${method}`, target, target, scope, mod === 'tls' ? 'tls' : 'tcp');
      return received();
    }
    if (method === 'createServer') ev.effects.server(node, mod, mod === 'tls' ? 'tls' : 'tcp');
    return UNKNOWN;
  }
  // A UDP socket: what its 'message' handler is given came from the network.
  if (mod === 'dgram' && method === 'createSocket') {
    ev.effects.udp(node);
    return received();
  }
  // DNS answers (TXT records above all) are data from the network: a channel for commands.
  // (A resolver of its own, `new dns.Resolver()`, asks the same questions.)
  if (mod === 'dns' && method === 'Resolver') return { k: 'mod', name: 'dns' };
  if (mod === 'dns' && /^(?:lookup|resolve\w*|reverse)$/.test(method)) {
    ev.effects.dns(node, s0, args, scope);
    return withTaint({ k: 'unknown' }, [], 'network_data');
  }
  // undici's dispatchers: `new Client(origin)`, `new Pool(origin)`, `new Agent()` connect out.
  if (mod === 'undici' && /^(?:Client|Pool|Agent)$/.test(method)) {
    ev.effects.request(node, `undici.${method}`, a0, args[1], scope, undefined);
    return received();
  }
  if (NETWORK_CLIENT_MODULES.has(mod)) {
    if (/^(?:create|extend|defaults)$/.test(method)) return { k: 'mod', name: mod };
    if (/^(?:get|post|put|patch|delete|head|options|request|fetch|stream|del)$/.test(method)) {
      ev.effects.request(
        node,
        `${mod}.${method}`,
        a0,
        args[1],
        scope,
        undefined,
        method === 'post' || method === 'put' || method === 'patch' ? args.slice(1) : undefined,
      );
      return received();
    }
    return UNKNOWN;
  }
  // Mail: a transport (`nodemailer.createTransport`) and what it sends (`sendMail`), SendGrid.
  if (MAIL_MODULES.has(mod)) {
    if (/^(?:createTransport|createTransporter|server|client|SMTPClient)$/.test(method)) {
      // A mail server written in the code is a fixed destination, as a URL's host is.
      const host = a0?.k === 'obj' ? asString(a0.props.get('host')) : undefined;
      if (host && /^[\w.-]+\.[a-z]{2,}$/i.test(host)) ev.effects.requestTarget(`smtp://${host}`);
      return { k: 'mod', name: 'smtp' };
    }
    if (/^(?:send|sendMail|sendMultiple)$/.test(method)) {
      ev.effects.request(node, `${mod}.${method}`, undefined, undefined, scope, 'smtp', args);
      // A fixed copy recipient on mail whose recipient the caller chooses: every message copied.
      const opts = args[0]?.k === 'obj' ? args[0] : undefined;
      const to = opts?.props.get('to');
      // So is a recipient address written in the code.
      const fixedTo = /@([\w.-]+\.[a-z]{2,})$/i.exec(asString(to) ?? '')?.[1];
      if (fixedTo) ev.effects.requestTarget(`smtp://${fixedTo}`);
      const copy = opts && fixedCopy(opts);
      if (copy && (to === undefined || copy.callerTo))
        ev.effects.hiddenCopy(node, copy.field, copy.address, copy.hidden);
      return received();
    }
    return UNKNOWN;
  }
  // File transfer and cloud storage clients: a client (and what its methods return) stays the
  // module; connecting is a request to its host; uploads and puts send their arguments (a
  // credential file's path is its content); an S3 command object carries its input.
  if (FILE_TRANSFER_MODULES.has(mod) || CLOUD_STORAGE_MODULE.test(mod)) {
    if (/^(?:access|connect)$/.test(method)) {
      ev.effects.request(
        node,
        `${mod}.${method}`,
        a0,
        a0,
        scope,
        FILE_TRANSFER_MODULES.has(mod) ? 'ftp' : 'https',
      );
      return { k: 'mod', name: mod };
    }
    if (/^(?:upload\w*|put\w*|fastPut|append\w*|send|createWriteStream)$/.test(method)) {
      ev.effects.request(node, `${mod}.${method}`, undefined, undefined, scope, 'https', uploaded(args));
      return received();
    }
    if (isNew && /Command$/.test(method) && a0) return a0;
    return { k: 'mod', name: mod };
  }
  // Chat SDKs (a Discord webhook client, a Telegram bot): whatever they send leaves the machine.
  if (CHAT_SDK_MODULES.has(mod)) {
    ev.effects.request(node, mod, undefined, undefined, scope, 'https', args);
    return received();
  }
  // `new WebSocketServer({ port })`: a server the package runs; its clients connect to it.
  if (WS_MODULES.has(mod) && isNew && /^(?:WebSocketServer|Server)$/.test(method)) {
    return withTaint({ k: 'api', mod: 'wsserver', path: '' }, [], 'inbound');
  }
  if (WS_MODULES.has(mod) && (isNew || /^(?:connect|io|WebSocket)$/.test(method))) {
    ev.effects.request(node, mod, a0, undefined, scope, 'ws');
    return received();
  }
  return undefined;
}

/** `axios(config)`, `got(url)`, `new WebSocket(url)` from `ws`. */
export function networkModuleCall(ev: Evaluator, c: ModuleCall): Val | undefined {
  const { node, mod, args, scope } = c;
  // (`new Kit(…)` of a class `Octokit.plugin(…)` made: a client.)
  if (mod === 'octokit') return { k: 'mod', name: 'octokit' };
  // `request('POST /repos/{owner}/{repo}/issues', params)` from `@octokit/request`: see networkApi.
  if (/^@octokit\/(?:request|graphql)$/.test(mod)) {
    if (args.length > 1 && octokitSends('', asString(args[0]) ?? ''))
      ev.effects.request(node, mod, undefined, undefined, scope, 'https', args);
    return received();
  }
  if (NETWORK_CLIENT_MODULES.has(mod)) {
    ev.effects.request(node, mod, args[0], args[1], scope, undefined);
    return received();
  }
  if (WS_MODULES.has(mod)) {
    ev.effects.request(node, mod, args[0], undefined, scope, 'ws');
    return received();
  }
  // `new TelegramBot(token)`, `new Webhook(url)`: a chat client whose methods send.
  if (CHAT_SDK_MODULES.has(mod)) {
    ev.effects.request(node, mod, undefined, undefined, scope, 'https', args);
    return received();
  }
  return undefined;
}

/**
 * `http.get(u, res => …)`, `http.createServer((req) => …)`: the response and the request are
 * network data; so is what a web framework's route handler receives (`app.post('/x', (req, res)
 * => …)`, Express, Koa, Fastify and the like: a method named like an HTTP verb or `use`/`all`
 * with a path first) and what a socket's event handler is given (`socket.on('cmd', (data) => …)`).
 */
export function networkCallbackParams(c: CallbackCall): Val[] | undefined {
  const { callee, args, method } = c;
  // A client connecting to the package's WebSocket server: what it sends is network data, inbound.
  if (
    callee.k === 'api' &&
    callee.mod === 'wsserver' &&
    method === 'on' &&
    asString(args[0]) === 'connection'
  ) {
    const socket: Val = withTaint({ k: 'net' }, [withTaint({ k: 'unknown' }, [], 'inbound')], 'network_data');
    return [socket, socket];
  }
  const routePath = asString(args[0]);
  if (
    method !== undefined &&
    /^(?:get|post|put|patch|delete|del|all|use|route|options|head)$/i.test(method) &&
    routePath !== undefined &&
    routePath.startsWith('/')
  ) {
    const req = withTaint({ k: 'unknown' }, [], 'network_data');
    return [req, req, req];
  }
  if (
    method === 'on' &&
    callee.t?.has('network_data') &&
    routePath !== undefined &&
    !/^(?:error|close|end|connect|open|drain|timeout|ready|listening)$/.test(routePath)
  ) {
    // What arrives keeps what the connection carries (a metadata service's credentials).
    const data = withTaint({ k: 'unknown' }, [callee], 'network_data');
    return [data, data];
  }
  // dns.resolveTxt(name, (err, records) => …): the records came from the network.
  if (callee.k === 'api' && callee.mod === 'dns' && /^(?:lookup|resolve\w*|reverse)$/.test(callee.path)) {
    const answer = withTaint({ k: 'unknown' }, [], 'network_data');
    return [UNKNOWN, answer, answer];
  }
  // A TCP/TLS server's connections: what they carry comes from the network.
  if (callee.k === 'api' && (callee.mod === 'net' || callee.mod === 'tls') && callee.path === 'createServer')
    return [withTaint({ k: 'net' }, [], 'network_data')];
  if (
    callee.k === 'api' &&
    (callee.mod === 'http' || callee.mod === 'https') &&
    /^(?:get|request|createServer)$/.test(callee.path)
  )
    return [
      fromCloudMetadata(args[0])
        ? withTaint(withTaint({ k: 'unknown' }, [], 'network_data'), [], 'secret_file')
        : withTaint({ k: 'unknown' }, [], 'network_data'),
    ];
  return undefined;
}

/** `img.src = 'https://host/p?d=' + data` / `link.href` / `form.action`: a request by assignment. */
export function requestByAssignment(
  ev: Evaluator,
  node: AstNode,
  prop: string | undefined,
  v: Val,
  scope: Scope,
): void {
  if (
    (prop === 'src' || prop === 'href' || prop === 'action' || prop === 'srcset' || prop === 'poster') &&
    v.t?.has('page_secret') &&
    /^(?:[a-z]+:)?\/\/[^/]/i.test(asString(v) ?? (v.k === 'str' ? v.v : ''))
  )
    ev.effects.request(node, `${prop} assignment`, v, undefined, scope, undefined);
}

/**
 * A copy recipient written in the code on a message (`bcc`/`cc`, as a text, `Name <a@b>`, or a list
 * of texts or `{ email }` objects; not a default the caller can override), and whether the message's
 * own recipient is one the caller chooses (`to` present and not known here). An SMTP envelope's
 * recipients (`envelope: { to: [...callerTo, FIXED] }`) and a recipient list that adds an address
 * written here to the caller's count too: the envelope decides who gets the message, whatever its
 * headers say.
 */
export function fixedCopy(
  msg: Val & { k: 'obj' },
): { field: string; address: string; callerTo: boolean; hidden: boolean } | undefined {
  if (msg.props.size > 64) return undefined;
  let to: Val | undefined;
  let copy: [string, string] | undefined;
  let hidden = false;
  let callerList = false;
  const envelope = msg.props.get('envelope');
  const fields: [string, Val][] = [...msg.props];
  if (envelope?.k === 'obj' && envelope.props.size <= 16)
    for (const [k, x] of envelope.props) fields.push([`envelope ${k}`, x]);
  for (const [k, x] of fields) {
    if (/^to$/i.test(k)) to = x;
    const recipients = /^(?:envelope )?(?:to|b?cc)$/i.test(k);
    // (A list holding the caller's recipients, not known here, beside an address written here;
    // or the same list joined into one text, `${…},arc@host`.)
    const joined = asString(x);
    const mixed =
      recipients &&
      ((x.k === 'arr' && x.items.some((i) => asString(i) === undefined && i.k !== 'obj')) ||
        (joined !== undefined && joined.split(',').some((part) => part.trim() === '${…}')));
    if (!(/^(?:envelope )?b?cc$/i.test(k) || mixed) || x.dflt) continue;
    // (A list, or a text of comma-separated addresses.)
    for (const item of x.k === 'arr' ? x.items.slice(0, 20) : [x]) {
      const text =
        item.k === 'obj' ? asString(item.props.get('email') ?? item.props.get('address')) : asString(item);
      for (const t of text && text.length <= 2_000 ? text.split(',') : [text]) {
        const address = t && /^(?:[^<>@]*<)?([^@\s${}<>]+@[\w.-]+\.[a-z]{2,})>?$/i.exec(t.trim())?.[1];
        if (!address) continue;
        copy = [k, address];
        if (mixed) callerList = true;
        // (Built from char codes or base64 at run time: an address kept out of the source's text.)
        if (hasDeepTaint(item, 'decoded') || item.viaDecoder) hidden = true;
      }
    }
  }
  return (
    copy && {
      field: copy[0],
      address: copy[1],
      callerTo: callerList || (to !== undefined && asString(to) === undefined),
      hidden,
    }
  );
}
