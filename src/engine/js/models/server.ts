/**
 * API model: the requests a server handles. The sessions the application's users send with them
 * (the `Cookie` header, parsed cookie jars, the request's headers whole) are `request_secret`
 * data: middleware or a framework hook that copies them to a host of its own is a session skimmer,
 * the server-side twin of a page skimmer.
 *
 * Read by shape, not by type: `<x>.headers.cookie`, `<x>.headers.get('cookie')`, `req.headers`,
 * `<x>.cookies` / `<x>.signedCookies` (Express, Koa, SvelteKit, Next and others all spell them so),
 * on values not known here. A bearer token in `Authorization` is not one: it is also sent, by
 * design, to the identity provider that checks it (a token-info or introspection request).
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

/** `req`, `request`, `<x>.req`, `<x>.request`: what servers and frameworks call the request they handle. */
function isRequestObject(n: AstNode | undefined): boolean {
  const name =
    n?.type === 'Identifier'
      ? (n.name as string)
      : n?.type === 'MemberExpression' && !n.computed
        ? keyName(n.property as AstNode)
        : undefined;
  return name === 'req' || name === 'request';
}

/**
 * A property read off a value not known here: `req.headers.cookie` and `req.cookies` hold the
 * credentials of the request's user.
 */
export function requestCredentialMember(at: AstNode, obj: Val, key: string, v: Val): Val {
  if (obj.k !== 'unknown') return v;
  // `req.headers`, `ctx.request.headers`: all of them, the credentials with the rest.
  if (key === 'headers' && isRequestObject(at.object as AstNode | undefined))
    return withTaint({ k: 'unknown' }, [v], 'request_secret');
  if (isHeadersMember(at.object as AstNode | undefined)) {
    if (CREDENTIAL_HEADER.test(key)) return withTaint({ k: 'unknown' }, [v], 'request_secret');
    // Another header of the same request (`req.headers['user-agent']`): no credential.
    if (v.t?.has('request_secret')) return without(v, 'request_secret');
  }
  if (key === 'cookies' || key === 'signedCookies') return withTaint({ k: 'unknown' }, [v], 'request_secret');
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
  if (how !== 'get' && how !== 'getAll' && how !== 'entries' && how !== 'toString') return result;
  const name = asString(args[0]);
  if (
    how === 'get' &&
    name !== undefined &&
    calleeNode.type === 'MemberExpression' &&
    isHeadersMember(calleeNode.object as AstNode)
  ) {
    if (CREDENTIAL_HEADER.test(name)) return withTaint({ k: 'unknown' }, [result], 'request_secret');
    // Another header (`headers.get('user-agent')`): no credential.
    return result.t?.has('request_secret') ? without(result, 'request_secret') : result;
  }
  if (memberObj?.t?.has('request_secret')) return withTaint({ k: 'unknown' }, [result], 'request_secret');
  return result;
}
