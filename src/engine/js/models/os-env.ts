/**
 * API model: os, process and the environment. Host details (host name, user, interfaces) are
 * `fingerprint` data, environment variables named like secrets are `secret_env`, the working
 * directory is `cwd`; `process.binding('spawn_sync')` is a module of its own (models/process.ts).
 */
import type { Evaluator } from '../evaluator';
import type { Scope } from '../scope';
import { UNKNOWN, asString, unknown, withTaint, type AstNode, type Val } from '../values';
import { loadModule } from '../modules';
import type { ApiCall } from './model';

/**
 * Environment variable names that hold secrets. (npm's own `npm_config_*` and `npm_package_*`
 * settings are not, unless named so: `npm_config__authToken` has TOKEN in it.)
 */
const SECRET_ENV =
  /TOKEN|SECRET|PASSW|PASSWD|PRIVATE|CREDENTIAL|API_?KEY|ACCESS_?KEY|AUTH|SESSION|COOKIE|GITHUB_|AWS_|AZURE_|GCP_|GOOGLE_APPLICATION|SLACK_|DISCORD_|MNEMONIC|SEED/i;

/**
 * …except the addresses and places such names end with (`ACTIONS_ID_TOKEN_REQUEST_URL`,
 * `GITHUB_API_URL`, `AWS_REGION`): where a secret is asked for or kept, not the secret. (Not a
 * webhook's address, a DSN or a credentials endpoint: the address is the secret there.)
 */
const ADDRESS_ENV = /_(?:URL|URI|HOST|HOSTNAME|ENDPOINT|PORT|REGION|PATH|DIR|WORKSPACE)$/i;

/** What GitHub Actions sets for every job (the commit, the repository, the run): public, not secrets. */
const PUBLIC_CI_ENV =
  /^GITHUB_(?:SHA|REF(?:_NAME|_TYPE|_PROTECTED)?|HEAD_REF|BASE_REF|REPOSITORY(?:_OWNER|_ID|_OWNER_ID)?|RUN_(?:ID|NUMBER|ATTEMPT)|ACTOR(?:_ID)?|TRIGGERING_ACTOR|WORKFLOW(?:_REF|_SHA)?|JOB|EVENT_NAME|ACTIONS?|ACTION_(?:REF|REPOSITORY)|RETENTION_DAYS)$/;

/** A member of the `process` global. */
export function processMember(key: string, mark: (v: Val) => Val): Val {
  if (key === 'env') return { k: 'env' };
  if (key === 'mainModule') return { k: 'global', name: 'mainModule' };
  // The running Node binary: a child started with it runs JavaScript (`-e` code, a script).
  if (key === 'execPath') return { k: 'str', v: 'node' };
  return mark({ k: 'api', mod: 'process', path: key });
}

/** `process.env.NAME`: the string `$NAME` (`~` for the home folder), tainted when it looks secret. */
export function envMember(ev: Evaluator, key: string, at: AstNode, scope: Scope): Val {
  ev.effects.envVar(at, key);
  // What npm sets for lifecycle scripts from the package's own `config` field: known here, and
  // what its user may set instead (`npm config set <pkg>:<key>`), kept beside it.
  const config = /^npm_package_config_(.+)$/.exec(key)?.[1];
  const configured = config !== undefined ? ev.input.modules?.packageConfig?.get(config) : undefined;
  if (configured !== undefined) return { k: 'str', v: configured, alt: { k: 'str', v: `$${key}` } };
  const v: Val = { k: 'str', v: key === 'HOME' || key === 'USERPROFILE' ? '~' : `$${key}` };
  // A variable the package's own workflow fills with every secret (`toJSON(secrets)`) is as much
  // as the whole environment.
  const given = ev.input.modules?.secretEnv?.get(key);
  if (given === 'all') {
    ev.effects.source(scope, 'env_all', at);
    return { ...v, t: new Set(['secret_env', 'env_all']) };
  }
  if (
    given ||
    (SECRET_ENV.test(key) &&
      !PUBLIC_CI_ENV.test(key) &&
      !(ADDRESS_ENV.test(key) && !/WEBHOOK|DSN|CREDENTIALS/i.test(key)))
  ) {
    ev.effects.source(scope, 'secret_env', at);
    return withTaint(v, [], 'secret_env');
  }
  // npm's user agent names the npm, Node and OS versions: the host fingerprint a dependency
  // confusion beacon sends (not a destination, unlike npm_config_registry or a mirror setting).
  // (Only where it goes counts, not reading it: a package manager check reads it too.)
  if (/^npm_config_user_agent$/i.test(key)) return withTaint(v, [], 'fingerprint');
  return v;
}

export function osApi(ev: Evaluator, c: ApiCall): Val | undefined {
  const { node, mod, path, args, a0, s0, scope } = c;
  if (mod === 'process') {
    // process.dlopen loads a native addon; process.binding('util') and other internal
    // bindings are part of Node itself (feature detection in utility libraries), not native code.
    if (path === 'cwd') return withTaint({ k: 'unknown' }, [], 'cwd');
    if (path === 'chdir') {
      ev.effects.chdir(node, a0);
      return UNKNOWN;
    }
    // A diagnostic report: host name, user, working directory, network interfaces and every
    // environment variable, in one object. Libraries read its header for the libc version, so it
    // is not listed as reading the environment; it carries the environment where it is sent.
    if (path === 'report.getReport') {
      ev.effects.source(scope, 'fingerprint', node);
      return withTaint({ k: 'unknown' }, [withTaint({ k: 'unknown' }, [], 'env_all')], 'fingerprint');
    }
    if (path === 'dlopen') {
      ev.effects.dlopen(node);
      // A native addon loaded from a file the code wrote (downloaded or decoded) is code it dropped.
      const file = asString(args[1]);
      if (file) ev.effects.loadsFile(node, file);
    }
    if ((path === 'binding' || path === '_linkedBinding') && /^(?:spawn_sync|process_wrap)$/.test(s0 ?? ''))
      return { k: 'mod', name: `binding:${s0}` };
    // `process.getBuiltinModule('fs')` (Node 22): a require of Node's own modules by another name.
    if ((path === 'mainModule.require' || path === 'getBuiltinModule') && s0)
      return loadModule(ev, s0, node, a0);
    return unknown(args);
  }
  if (mod === 'os') {
    if (path === 'homedir') return { k: 'str', v: '~' };
    if (path === 'tmpdir') return { k: 'str', v: '$TMPDIR' };
    if (/^(?:hostname|userInfo|networkInterfaces)$/.test(path)) {
      ev.effects.source(scope, 'fingerprint', node);
      return withTaint({ k: 'unknown' }, [], 'fingerprint');
    }
    return UNKNOWN;
  }
  return undefined;
}
