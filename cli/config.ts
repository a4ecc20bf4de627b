/**
 * Settings from the command line, the environment and an optional config file
 * (`--config FILE`, else `.pkgscanrc.json` or `pkgscan.config.json` in the working directory).
 * Precedence: flags, then environment, then the config file, then defaults.
 * The file is validated with zod; every problem is reported with its path (exit 2).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import semver from 'semver';
import * as z from 'zod';
import { THREAT_TYPES } from '../src/contract/schemas';
import { UsageError } from './errors';
import { DEFAULT_POLICY, expiryInstant, SEVERITIES, type FailOn, type Policy, type Severity } from './policy';

export const CONFIG_NAMES = ['.pkgscanrc.json', 'pkgscan.config.json'] as const;
export const DEFAULT_API_URL = 'http://localhost:3000';

const httpUrl = z
  .string()
  .refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), 'must be an http(s) URL');

const AllowEntrySchema = z.strictObject({
  package: z.string().min(1, 'must name a package'),
  range: z
    .string()
    .refine((r) => semver.validRange(r) !== null, 'must be a semver range (use "*" for every version)'),
  reason: z.string().trim().min(1, 'must say why the package is allowed'),
  expires: z
    .string()
    .refine((d) => !Number.isNaN(expiryInstant(d)), 'must be an ISO date such as 2027-01-31')
    .optional(),
});

const ThreatTypeSchema = z.enum(THREAT_TYPES);

export const ConfigFileSchema = z.strictObject({
  $schema: z.string().optional(),
  apiUrl: httpUrl.optional(),
  registry: httpUrl.optional(),
  failOn: z.enum(['critical', 'warning', 'none']).optional(),
  minTrustScore: z.number().min(0).max(100).optional(),
  cveSeverity: z
    .enum([...SEVERITIES, 'moderate'])
    .transform((v): Severity => (v === 'moderate' ? 'medium' : v))
    .optional(),
  cooldownHours: z.number().min(0).optional(),
  threatTypes: z.array(ThreatTypeSchema).optional(),
  failOnUnknown: z.boolean().optional(),
  ignoreDev: z.boolean().optional(),
  scanMissing: z.boolean().optional(),
  scanTimeout: z.number().positive().optional(),
  timeout: z.number().positive().optional(),
  concurrency: z.number().int().min(1).max(32).optional(),
  retries: z.number().int().min(0).max(10).optional(),
  allowlist: z.array(AllowEntrySchema).optional(),
});
export type ConfigFile = z.infer<typeof ConfigFileSchema>;

export interface Settings {
  readonly inputs: string[];
  readonly apiUrl: string;
  readonly registry: string | undefined;
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly retries: number;
  readonly scanMissing: boolean;
  readonly scanTimeoutMs: number;
  readonly pollIntervalMs: number;
  readonly json: boolean;
  readonly sarif: string | undefined;
  readonly markdown: string | undefined;
  readonly all: boolean;
  readonly quiet: boolean;
  readonly color: boolean;
  readonly progress: 'bar' | 'lines' | 'off';
  readonly policy: Policy;
  readonly configFile: string | undefined;
  readonly help: boolean;
  readonly version: boolean;
  /** install/npx: let packages the service has not scanned through, with a warning. */
  readonly yesUnknown: boolean;
  /** mcp: serve streamable HTTP on this port instead of stdio. */
  readonly httpPort: number | undefined;
}

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
  'api-url': { type: 'string' },
  registry: { type: 'string' },
  config: { type: 'string', short: 'c' },
  json: { type: 'boolean' },
  sarif: { type: 'string' },
  markdown: { type: 'string' },
  'fail-on': { type: 'string' },
  'fail-on-warning': { type: 'boolean' },
  'min-trust': { type: 'string' },
  'fail-on-cve': { type: 'string' },
  'fail-on-threat': { type: 'string', multiple: true },
  'fail-on-unknown': { type: 'boolean' },
  'ignore-dev': { type: 'boolean' },
  'scan-missing': { type: 'boolean' },
  'scan-timeout': { type: 'string' },
  'poll-interval': { type: 'string' },
  timeout: { type: 'string' },
  concurrency: { type: 'string' },
  retries: { type: 'string' },
  all: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  'no-progress': { type: 'boolean' },
  cooldown: { type: 'string' },
  'yes-unknown': { type: 'boolean' },
  http: { type: 'string' },
} as const;

export const HELP = `Usage: pkgscan [check] [options] [lockfile | name@version ...]
       pkgscan install [options] <spec ...> [-- npm install arguments]
       pkgscan npx [options] <spec> [-- arguments of the command]
       pkgscan allow-scripts [options] [lockfile]
       pkgscan mcp [--api-url URL] [--http PORT]

check (the default) checks a project's npm dependencies against the pkgscan API and fails by
policy. With no arguments, the lockfile in the working directory is used (npm-shrinkwrap.json,
package-lock.json, pnpm-lock.yaml or yarn.lock). Arguments are lockfile paths or package specs
(name, name@1.2.3, name@^1, name@next); a name or version the registry does not have fails the
check, with the closest real names.

install resolves what \`npm install <spec ...>\` would add (the packages and their whole
dependency tree, from a dry-run lockfile), checks it, requests scans of versions the service
has not seen and waits for them, and runs npm install only when the policy passes. npx does
the same for the package a command comes from, then runs it.

allow-scripts lists the packages of a lockfile that have install scripts and says which of them
need those scripts (native builds, downloads the package needs) and which do not.

mcp serves the checks to AI coding agents over the Model Context Protocol (stdio by default).

Policy
  --fail-on LEVEL          fail on packages at this risk level or above: critical (default), warning, none
  --fail-on-warning        same as --fail-on warning
  --min-trust N            fail on packages whose trust score is below N (0-100)
  --fail-on-cve SEVERITY   fail on CVEs of this severity or above: low, medium (or moderate), high, critical
  --cooldown HOURS         fail on versions published less than HOURS ago (default 48; 0 turns it off)
  --fail-on-threat TYPES   fail on these agentic threat types (comma-separated, repeatable; "any" for all)
  --fail-on-unknown        fail on packages the service has not scanned
  --ignore-dev             leave dev-only dependencies out of the verdict
  --yes-unknown            install/npx: let packages the service has not scanned through, with a warning
  -c, --config FILE        config file (default: .pkgscanrc.json or pkgscan.config.json if present)

Service
  --api-url URL            API base URL (env PKGSCAN_API_URL; default ${DEFAULT_API_URL})
  --scan-missing           request scans of unknown packages and wait for them
  --scan-timeout SECONDS   how long to wait for those scans (default 300)
  --poll-interval SECONDS  first wait between job polls (default 2; grows to 5)
  --timeout SECONDS        time limit of one HTTP request (default 30)
  --retries N              retries of a request on 429, 5xx and network errors (default 4)
  --concurrency N          requests in flight at once (default 4)
  --registry URL           npm registry for resolving ranges and tags (env PKGSCAN_REGISTRY)
  --http PORT              mcp: serve streamable HTTP on 127.0.0.1:PORT instead of stdio

Output
  --json                   the result as JSON on stdout (no table)
  --sarif FILE             write a SARIF 2.1.0 report
  --markdown FILE          write a Markdown summary (pull-request comment, CI step summary)
  --all                    list every package in the table, not only those with findings
  -q, --quiet              no progress, no table; the summary line only
  --color, --no-color      force colours on or off (default: on a terminal, unless NO_COLOR is set)
  --no-progress            no progress output
  -h, --help               this help
  -V, --version            the client's version

Exit codes: 0 passed, 1 policy violation, 2 usage or configuration error,
3 service unreachable or failing.
`;

function number(
  flag: string,
  raw: string | undefined,
  opts: { min: number; max?: number; integer?: boolean },
) {
  if (raw === undefined) return undefined;
  const ok = opts.integer ? /^\d+$/.test(raw) : /^\d+(\.\d+)?$/.test(raw);
  const value = Number(raw);
  if (!ok || value < opts.min || (opts.max !== undefined && value > opts.max)) {
    const range = opts.max === undefined ? `at least ${opts.min}` : `${opts.min} to ${opts.max}`;
    throw new UsageError(
      `--${flag} must be ${opts.integer ? 'an integer' : 'a number'} ${range}, got '${raw}'`,
    );
  }
  return value;
}

function oneOf<T extends string>(flag: string, raw: string | undefined, values: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if (!(values as readonly string[]).includes(raw)) {
    throw new UsageError(`--${flag} must be one of ${values.join(', ')}; got '${raw}'`);
  }
  return raw as T;
}

function checkUrl(flag: string, raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!httpUrl.safeParse(raw).success) throw new UsageError(`${flag} must be an http(s) URL, got '${raw}'`);
  return raw;
}

export function loadConfigFile(file: string): ConfigFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT'
        ? `Config file not found: ${file}`
        : `Config file ${file} is not valid JSON: ${(error as Error).message}`,
    );
  }
  const parsed = ConfigFileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (i) => `  ${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`,
    );
    throw new UsageError(`Config file ${file} is invalid:\n${problems.join('\n')}`);
  }
  return parsed.data;
}

export interface Environment {
  readonly [name: string]: string | undefined;
}

export function resolveSettings(
  argv: readonly string[],
  env: Environment,
  cwd: string,
  streams: { stdoutTTY: boolean; stderrTTY: boolean },
): Settings {
  let values: Record<string, string | boolean | string[] | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\nRun pkgscan --help for the options.`);
  }
  const str = (k: keyof typeof OPTIONS) => values[k] as string | undefined;
  const bool = (k: keyof typeof OPTIONS) => values[k] === true;

  const explicit = str('config');
  const found = explicit ?? CONFIG_NAMES.map((n) => path.join(cwd, n)).find((f) => existsSync(f));
  const configFile = found === undefined ? undefined : path.resolve(cwd, found);
  const file: ConfigFile = configFile ? loadConfigFile(configFile) : {};

  const threatFlags = ((values['fail-on-threat'] as string[] | undefined) ?? []).flatMap((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  for (const t of threatFlags) {
    if (t !== 'any' && !(THREAT_TYPES as readonly string[]).includes(t)) {
      throw new UsageError(
        `--fail-on-threat: unknown threat type '${t}'; known: ${THREAT_TYPES.join(', ')}, any`,
      );
    }
  }
  const threatTypes = threatFlags.includes('any')
    ? [...THREAT_TYPES]
    : [...new Set([...(file.threatTypes ?? []), ...threatFlags])];

  const failOn: FailOn =
    (bool('fail-on-warning')
      ? 'warning'
      : oneOf('fail-on', str('fail-on'), ['critical', 'warning', 'none'] as const)) ??
    file.failOn ??
    DEFAULT_POLICY.failOn;
  const minTrustScore = number('min-trust', str('min-trust'), { min: 0, max: 100 }) ?? file.minTrustScore;
  const cveFlag = oneOf('fail-on-cve', str('fail-on-cve'), [...SEVERITIES, 'moderate'] as const);
  // npm audit calls the second level `moderate`; the service calls it `medium`.
  const cveSeverity: Severity | undefined = (cveFlag === 'moderate' ? 'medium' : cveFlag) ?? file.cveSeverity;
  const cooldownHours =
    number('cooldown', str('cooldown'), { min: 0 }) ?? file.cooldownHours ?? DEFAULT_POLICY.cooldownHours;
  const policy: Policy = {
    failOn,
    ...(minTrustScore === undefined ? {} : { minTrustScore }),
    ...(cveSeverity === undefined ? {} : { cveSeverity }),
    threatTypes,
    failOnUnknown: bool('fail-on-unknown') || (file.failOnUnknown ?? false),
    ignoreDev: bool('ignore-dev') || (file.ignoreDev ?? false),
    allowlist: file.allowlist ?? [],
    cooldownHours,
  };

  const apiUrl =
    checkUrl('--api-url', str('api-url')) ??
    checkUrl('PKGSCAN_API_URL', env.PKGSCAN_API_URL) ??
    file.apiUrl ??
    DEFAULT_API_URL;
  const registry =
    checkUrl('--registry', str('registry')) ??
    checkUrl('PKGSCAN_REGISTRY', env.PKGSCAN_REGISTRY) ??
    file.registry ??
    checkUrl('npm_config_registry', env.npm_config_registry);

  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== '';
  const color = bool('no-color')
    ? false
    : bool('color') || forced || (streams.stdoutTTY && !noColor && env.TERM !== 'dumb');
  const quiet = bool('quiet');
  const progress =
    quiet || bool('no-progress') ? 'off' : streams.stderrTTY && env.TERM !== 'dumb' ? 'bar' : 'lines';

  return {
    inputs: positionals,
    apiUrl,
    registry,
    timeoutMs: (number('timeout', str('timeout'), { min: 0.1 }) ?? file.timeout ?? 30) * 1000,
    concurrency:
      number('concurrency', str('concurrency'), { min: 1, max: 32, integer: true }) ?? file.concurrency ?? 4,
    retries: number('retries', str('retries'), { min: 0, max: 10, integer: true }) ?? file.retries ?? 4,
    scanMissing: bool('scan-missing') || (file.scanMissing ?? false),
    scanTimeoutMs:
      (number('scan-timeout', str('scan-timeout'), { min: 0 }) ?? file.scanTimeout ?? 300) * 1000,
    pollIntervalMs: (number('poll-interval', str('poll-interval'), { min: 0 }) ?? 2) * 1000,
    json: bool('json'),
    sarif: str('sarif'),
    markdown: str('markdown'),
    all: bool('all'),
    quiet,
    color,
    progress,
    policy,
    configFile,
    help: bool('help'),
    version: bool('version'),
    yesUnknown: bool('yes-unknown'),
    httpPort: number('http', str('http'), { min: 1, max: 65535, integer: true }),
  };
}
