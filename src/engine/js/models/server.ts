/**
 * API model: the requests a server handles. The sessions the application's users send with them
 * (the `Cookie` header, the parsed cookie jar, a session cookie read by name) are `request_secret`
 * data: middleware or a framework hook that copies them to a host of its own is a session
 * skimmer, the server-side twin of a page skimmer.
 *
 * Read by shape, not by type: `<x>.headers.cookie`, `<x>.headers.get('cookie')`,
 * `req.get('cookie')`, and the jar of a request-like object (`req.cookies`, `ctx.cookies`,
 * `event.cookies`: Express, Koa, SvelteKit, Next and others spell them so), on values not known
 * here. A cookie read by a name that is not a session's (`cookies.get('theme')`, a visitor or
 * feature-flag id) is not one; nor are a request's headers whole (error reporters send them,
 * scrubbed, to their service) or a bearer token (token-info and introspection requests send it to
 * the identity provider by design).
 */
import { keyName } from '../ast';
import { asString, withTaint, type AstNode, type Taint, type Val } from '../values';

/** The request header that carries the user's session with the application. */
const CREDENTIAL_HEADER = /^cookie$/i;

function without(v: Val, taint: Taint): Val {
  const t = new Set(v.t);
  t.delete(taint);
  return { ...v, t };
}

/** `<x>.headers` written as a plain member read. */
function isHeadersMember(n: AstNode | undefined): boolean {
  return n?.type === 'MemberExpression' && !n.computed && keyName(n.property as AstNode) === 'headers';
}

/**
 * `req`, `request`, `ctx`, `context`, `event` (or `<x>.req` …): what servers and frameworks call the
 * request they handle, or the context that holds it.
 */
function isRequestObject(n: AstNode | undefined): boolean {
  const name =
    n?.type === 'Identifier'
      ? (n.name as string)
      : n?.type === 'MemberExpression' && !n.computed
        ? keyName(n.property as AstNode)
        : undefined;
  return name !== undefined && /^(?:req|request|ctx|context|event)$/.test(name);
}

/** Methods of a cookie jar (what they give is decided when they are called). */
const JAR_METHOD = /^(?:get|getAll|has|entries|toString|keys|values|forEach)$/;

/** Cookie names of sessions and logins (`connect.sid`, `koa.sess`, `session`, `token`, `jwt` …). */
const SESSION_COOKIE = /sess|sid\b|^sid|token|auth|jwt|login|remember|csrf|xsrf/i;

/**
 * A property read off a value not known here: `req.headers.cookie` and `req.cookies` hold the
 * sessions of the request's user.
 */
export function requestCredentialMember(at: AstNode, obj: Val, key: string, v: Val): Val {
  if (obj.k !== 'unknown') return v;
  if (isHeadersMember(at.object as AstNode | undefined)) {
    if (CREDENTIAL_HEADER.test(key)) return withTaint({ k: 'unknown' }, [v], 'request_secret');
    return v;
  }
  if ((key === 'cookies' || key === 'signedCookies') && isRequestObject(at.object as AstNode | undefined))
    return withTaint({ k: 'unknown' }, [v], 'request_secret');
  // One cookie of the jar by a name that is not a session's (`req.cookies[\`ph_${key}_posthog\`]`).
  if (
    obj.t?.has('request_secret') &&
    v.t?.has('request_secret') &&
    !SESSION_COOKIE.test(key) &&
    !JAR_METHOD.test(key)
  )
    return without(v, 'request_secret');
  return v;
}

/**
 * `request.headers.get('cookie')` (the Fetch API's headers, as web-standard frameworks hand them),
 * and what a cookie jar read above gives (`event.cookies.getAll()`, `cookies.get('sid')`).
 */
export function requestCredentialResult(
  calleeNode: AstNode,
  how: string | undefined,
  memberObj: Val | undefined,
  args: Val[],
  result: Val,
): Val {
  if (how !== 'get' && how !== 'getAll' && how !== 'header' && how !== 'toString') return result;
  const name = asString(args[0]);
  const owner = calleeNode.type === 'MemberExpression' ? (calleeNode.object as AstNode) : undefined;
  // `headers.get('cookie')`, Express's `req.get('cookie')` / `req.header('cookie')`.
  if (
    (how === 'get' || how === 'header') &&
    name !== undefined &&
    CREDENTIAL_HEADER.test(name) &&
    (isHeadersMember(owner) || isRequestObject(owner))
  )
    return withTaint({ k: 'unknown' }, [result], 'request_secret');
  if (!memberObj?.t?.has('request_secret')) return result;
  // The jar whole (`getAll()`, `toString()`), or a session cookie by its name.
  if (how === 'get' && name !== undefined && !SESSION_COOKIE.test(name))
    return result.t?.has('request_secret') ? without(result, 'request_secret') : result;
  return withTaint({ k: 'unknown' }, [result], 'request_secret');
}
