/**
 * The pkgscan command. `check` (the default): inputs (lockfiles, name@version specs) → lookups
 * against the public API → policy verdict → table, summary line, JSON, SARIF and Markdown.
 * `install`/`npx`, `allow-scripts` and `mcp` are loaded only when asked for. `main` takes its
 * argv, env, working directory and streams as arguments so tests run it in-process; it returns
 * the exit code.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ApiClient } from './api';
import { HELP, resolveSettings, type Environment, type Settings } from './config';
import { ApiError, EXIT, ServiceError, UsageError } from './errors';
import { findLockfiles, looksLikeLockfile, readLockfile } from './lockfiles/index';
import { lookupPackages, type LookupOptions } from './lookup';
import { evaluate } from './policy';
import { registryFetcher, type FetchPackument } from './registry';
import { visible } from './report/escape';
import { buildJson } from './report/json';
import { renderMarkdown } from './report/markdown';
import { createProgress, type Progress, type ProgressStream } from './report/progress';
import { buildSarif, sarifRoot } from './report/sarif';
import { summaryLine, type CheckResult } from './report/summary';
import { COLOURS, PLAIN, renderNotFound, renderTable } from './report/table';
import { resolveSpecs } from './specs';
import type { RunProgram } from './install';
import type { InputPackage, ParsedInput } from './types';

export interface CliStream extends ProgressStream {
  write(chunk: string): unknown;
}

export interface CliContext {
  readonly argv: readonly string[];
  readonly env: Environment;
  readonly cwd: string;
  readonly stdout: CliStream;
  readonly stderr: CliStream;
  readonly now?: () => Date;
  /** Test seams. */
  readonly fetchPackument?: FetchPackument;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly runProgram?: RunProgram;
  readonly stdin?: NodeJS.ReadableStream;
}

export const SUBCOMMANDS = ['check', 'install', 'npx', 'allow-scripts', 'mcp'] as const;
export type Subcommand = (typeof SUBCOMMANDS)[number];

/** Set by the one-file build (scripts/build-cli.ts); from source, package.json is read. */
declare const PKGSCAN_VERSION: string | undefined;

export function clientVersion(): string {
  if (typeof PKGSCAN_VERSION === 'string') return PKGSCAN_VERSION;
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** What every subcommand shares: settings, the API client, progress output and the clock. */
export interface Session {
  readonly ctx: CliContext;
  readonly settings: Settings;
  readonly client: ApiClient;
  readonly progress: Progress;
  readonly version: string;
  readonly fetchPackument: FetchPackument;
  readonly now: () => Date;
  readonly err: (line: string) => void;
}

export function openSession(ctx: CliContext, settings: Settings, progress?: Progress): Session {
  const version = clientVersion();
  const err = (line: string) => ctx.stderr.write(`${line}\n`);
  const shown = progress ?? createProgress(ctx.stderr, settings.progress);
  const client = new ApiClient({
    baseUrl: settings.apiUrl,
    timeoutMs: settings.timeoutMs,
    retries: settings.retries,
    concurrency: settings.concurrency,
    userAgent: `pkgscan-cli/${version}`,
    ...(ctx.sleep ? { sleep: ctx.sleep } : {}),
    onRetry: ({ method, path: p, reason, delayMs }) => {
      shown.log(`${method} ${p}: ${reason}; retrying in ${(delayMs / 1000).toFixed(1)} s`);
    },
  });
  return {
    ctx,
    settings,
    client,
    progress: shown,
    version,
    fetchPackument:
      ctx.fetchPackument ?? registryFetcher({ registry: settings.registry, timeoutMs: settings.timeoutMs }),
    now: ctx.now ?? (() => new Date()),
    err,
  };
}

/** Closest real names of a missing one (the list is loaded only when a name is missing). */
export async function suggestNames(name: string): Promise<string[]> {
  const { closestNames } = await import('./suggest');
  return closestNames(name);
}

export async function readInputs(session: Session, args: readonly string[]): Promise<ParsedInput[]> {
  const { ctx } = session;
  const lockfiles: string[] = [];
  const specs: string[] = [];
  for (const arg of args) (looksLikeLockfile(arg, ctx.cwd) ? lockfiles : specs).push(arg);
  if (lockfiles.length === 0 && specs.length === 0) {
    const found = findLockfiles(ctx.cwd);
    if (found.length === 0) {
      throw new UsageError(
        `No lockfile in ${ctx.cwd} (looked for npm-shrinkwrap.json, package-lock.json, pnpm-lock.yaml, yarn.lock); ` +
          'name one, or give name@version specs',
      );
    }
    lockfiles.push(...found);
  }
  const inputs = lockfiles.map((f) => readLockfile(f, ctx.cwd));
  if (specs.length > 0) inputs.push(await resolveSpecs(specs, session.fetchPackument, suggestNames));
  return inputs;
}

/** One entry per name@version across all inputs. */
export function mergePackages(inputs: readonly ParsedInput[]): InputPackage[] {
  const merged = new Map<string, InputPackage>();
  for (const input of inputs) {
    for (const p of input.packages) {
      const key = `${p.name}@${p.version}`;
      const seen = merged.get(key);
      if (!seen) {
        merged.set(key, { ...p, locations: [...p.locations] });
        continue;
      }
      seen.direct = seen.direct === true || p.direct === true ? true : (seen.direct ?? p.direct);
      seen.dev =
        seen.dev === false || p.dev === false
          ? false
          : seen.dev === true && p.dev === true
            ? true
            : undefined;
      seen.published ??= p.published;
      seen.locations.push(...p.locations);
    }
  }
  return [...merged.values()];
}

/** How lookups run for this session; `scanMissing` overrides the setting. */
export function lookupOptions(session: Session, scanMissing?: boolean): LookupOptions {
  const { settings } = session;
  return {
    scanMissing: scanMissing ?? settings.scanMissing,
    scanTimeoutMs: settings.scanTimeoutMs,
    pollIntervalMs: settings.pollIntervalMs,
    concurrency: settings.concurrency,
    progress: session.progress,
    ...(session.ctx.sleep ? { sleep: session.ctx.sleep } : {}),
  };
}

/** Looks the inputs up (scanning unknown ones when asked) and applies the policy. */
export async function checkInputs(
  session: Session,
  inputs: readonly ParsedInput[],
  opts: { scanMissing?: boolean } = {},
): Promise<CheckResult> {
  const started = performance.now();
  const { settings, client } = session;
  const packages = mergePackages(inputs);
  const notFound = inputs.flatMap((i) => i.notFound ?? []);
  if (packages.length === 0 && notFound.length === 0) {
    const sources = inputs.map((i) => (i.format === 'spec' ? 'the command line' : i.source)).join(', ');
    const skipped = inputs.reduce((n, i) => n + i.skipped.length, 0);
    throw new UsageError(
      `No registry packages to check in ${sources}${skipped > 0 ? ` (${skipped} dependencies not from the registry were skipped)` : ''}`,
    );
  }
  const lookups = await lookupPackages(client, packages, lookupOptions(session, opts.scanMissing));
  const evaluation = evaluate(packages, lookups, settings.policy, session.now(), notFound);
  return {
    toolVersion: session.version,
    apiUrl: settings.apiUrl,
    inputs,
    policy: settings.policy,
    evaluation,
    stats: {
      requests: client.requests,
      retries: client.retries,
      durationMs: Math.round(performance.now() - started),
    },
    exitCode: evaluation.passed ? EXIT.passed : EXIT.violation,
  };
}

function writeReport(file: string, content: string, cwd: string): void {
  try {
    writeFileSync(path.resolve(cwd, file), content);
  } catch (error) {
    throw new UsageError(
      `Cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** Writes the reports asked for and prints the table (or JSON) and the summary line. */
export function report(session: Session, result: CheckResult): void {
  const { settings, ctx, err } = session;
  const evaluation = result.evaluation;
  if (settings.sarif)
    writeReport(
      settings.sarif,
      `${JSON.stringify(buildSarif(result, ctx.cwd, sarifRoot(ctx.cwd, ctx.env)), null, 2)}\n`,
      ctx.cwd,
    );
  if (settings.markdown) writeReport(settings.markdown, renderMarkdown(result), ctx.cwd);

  for (const e of evaluation.expired) {
    const matched = e.matched.length > 0 ? `; it no longer allows ${e.matched.join(', ')}` : '';
    err(
      visible(
        `warning: allowlist entry ${e.entry.package} ${e.entry.range} expired ${e.entry.expires} (${e.entry.reason})${matched}`,
      ),
    );
  }
  const notScanned = evaluation.verdicts.filter((v) => v.lookup.status === 'unknown').length;
  if (notScanned > 0 && !settings.scanMissing && !settings.quiet) {
    err(
      `${notScanned} package${notScanned === 1 ? ' is' : 's are'} not scanned yet: --scan-missing requests scans and waits for them`,
    );
  }
  const line = summaryLine(result);
  if (settings.json) {
    ctx.stdout.write(`${JSON.stringify(buildJson(result), null, 2)}\n`);
    if (!settings.quiet) err(line);
    return;
  }
  const palette = settings.color ? COLOURS : PLAIN;
  if (!settings.quiet) {
    const table = renderTable(result, {
      all: settings.all,
      width: ctx.stdout.isTTY ? (ctx.stdout.columns ?? 120) : Infinity,
      palette,
    });
    ctx.stdout.write(renderNotFound(evaluation.notFound, palette));
    ctx.stdout.write(
      table ||
        (evaluation.verdicts.length > 0
          ? 'No package has findings to list (--all lists every package).\n'
          : ''),
    );
  }
  ctx.stdout.write(`${evaluation.passed ? palette.green(line) : palette.red(palette.bold(line))}\n`);
}

/** Prints what went wrong and returns the exit code for it. */
export function failure(session: Pick<Session, 'err' | 'settings'>, error: unknown): number {
  const { err } = session;
  if (error instanceof UsageError || error instanceof ServiceError) {
    err(`pkgscan: ${visible(error.message)}`);
    if (error instanceof ApiError)
      err(`pkgscan: is the service running at ${session.settings.apiUrl}? (--api-url or PKGSCAN_API_URL)`);
    return error.exitCode;
  }
  err(`pkgscan: unexpected error: ${(error as Error).stack ?? String(error)}`);
  return EXIT.service;
}

function splitCommand(argv: readonly string[]): {
  sub: Subcommand;
  own: string[];
  passthrough: string[];
} {
  const first = argv[0];
  const named = (SUBCOMMANDS as readonly string[]).includes(first ?? '');
  const sub = named ? (first as Subcommand) : 'check';
  const rest = named ? argv.slice(1) : [...argv];
  const dashes = rest.indexOf('--');
  return dashes === -1
    ? { sub, own: rest, passthrough: [] }
    : { sub, own: rest.slice(0, dashes), passthrough: rest.slice(dashes + 1) };
}

export async function main(ctx: CliContext): Promise<number> {
  const err = (line: string) => ctx.stderr.write(`${line}\n`);
  const { sub, own, passthrough } = splitCommand(ctx.argv);
  let settings: Settings;
  try {
    settings = resolveSettings(own, ctx.env, ctx.cwd, {
      stdoutTTY: ctx.stdout.isTTY === true,
      stderrTTY: ctx.stderr.isTTY === true,
    });
    if (sub === 'check' && passthrough.length > 0)
      throw new UsageError(
        `'--' passes arguments to npm; it belongs after 'pkgscan install' or 'pkgscan npx'`,
      );
  } catch (error) {
    if (error instanceof UsageError) {
      err(`pkgscan: ${visible(error.message)}`);
      return EXIT.usage;
    }
    throw error;
  }
  if (settings.help) {
    ctx.stdout.write(HELP);
    return EXIT.passed;
  }
  if (settings.version) {
    ctx.stdout.write(`${clientVersion()}\n`);
    return EXIT.passed;
  }
  if (sub === 'mcp') {
    const { runMcp } = await import('./mcp/server');
    return runMcp(ctx, settings);
  }
  const session = openSession(ctx, settings);
  try {
    if (sub === 'install' || sub === 'npx') {
      const { runInstall } = await import('./install');
      return await runInstall(session, sub, settings.inputs, passthrough);
    }
    if (sub === 'allow-scripts') {
      const { runAllowScripts } = await import('./allow-scripts');
      return await runAllowScripts(session, settings.inputs);
    }
    const result = await checkInputs(session, await readInputs(session, settings.inputs));
    report(session, result);
    return result.exitCode;
  } catch (error) {
    return failure(session, error);
  }
}
