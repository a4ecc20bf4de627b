/**
 * The pkgscan command: inputs (lockfiles, name@version specs) → lookups against the public API →
 * policy verdict → table, summary line, JSON, SARIF and Markdown. `main` takes its argv, env,
 * working directory and streams as arguments so tests run it in-process; it returns the exit code.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ApiClient } from './api';
import { HELP, resolveSettings, type Environment, type Settings } from './config';
import { EXIT, ServiceError, UsageError } from './errors';
import { findLockfiles, looksLikeLockfile, readLockfile } from './lockfiles/index';
import { lookupPackages } from './lookup';
import { evaluate } from './policy';
import { buildJson } from './report/json';
import { renderMarkdown } from './report/markdown';
import { createProgress, type ProgressStream } from './report/progress';
import { buildSarif } from './report/sarif';
import { summaryLine, type CheckResult } from './report/summary';
import { COLOURS, PLAIN, renderTable } from './report/table';
import { resolveSpecs, type Packument } from './specs';
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
  readonly fetchPackument?: (name: string) => Promise<Packument>;
  readonly sleep?: (ms: number) => Promise<void>;
}

export function clientVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

async function readInputs(settings: Settings, ctx: CliContext): Promise<ParsedInput[]> {
  const lockfiles: string[] = [];
  const specs: string[] = [];
  for (const arg of settings.inputs) (looksLikeLockfile(arg, ctx.cwd) ? lockfiles : specs).push(arg);
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
  if (specs.length > 0) {
    inputs.push(
      await resolveSpecs(specs, {
        registry: settings.registry,
        timeoutMs: settings.timeoutMs,
        ...(ctx.fetchPackument ? { fetchPackument: ctx.fetchPackument } : {}),
      }),
    );
  }
  return inputs;
}

/** One entry per name@version across all inputs. */
function mergePackages(inputs: readonly ParsedInput[]): InputPackage[] {
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
      seen.locations.push(...p.locations);
    }
  }
  return [...merged.values()];
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

export async function main(ctx: CliContext): Promise<number> {
  const started = performance.now();
  const now = ctx.now ?? (() => new Date());
  const err = (line: string) => ctx.stderr.write(`${line}\n`);
  let settings: Settings;
  try {
    settings = resolveSettings(ctx.argv, ctx.env, ctx.cwd, {
      stdoutTTY: ctx.stdout.isTTY === true,
      stderrTTY: ctx.stderr.isTTY === true,
    });
  } catch (error) {
    if (error instanceof UsageError) {
      err(`pkgscan: ${error.message}`);
      return EXIT.usage;
    }
    throw error;
  }
  if (settings.help) {
    ctx.stdout.write(HELP);
    return EXIT.passed;
  }
  const version = clientVersion();
  if (settings.version) {
    ctx.stdout.write(`${version}\n`);
    return EXIT.passed;
  }

  const progress = createProgress(ctx.stderr, settings.progress);
  const client = new ApiClient({
    baseUrl: settings.apiUrl,
    timeoutMs: settings.timeoutMs,
    retries: settings.retries,
    concurrency: settings.concurrency,
    userAgent: `pkgscan-cli/${version}`,
    ...(ctx.sleep ? { sleep: ctx.sleep } : {}),
    onRetry: ({ method, path: p, reason, delayMs }) => {
      progress.log(`${method} ${p}: ${reason}; retrying in ${(delayMs / 1000).toFixed(1)} s`);
    },
  });

  try {
    const inputs = await readInputs(settings, ctx);
    const packages = mergePackages(inputs);
    const lookups = await lookupPackages(client, packages, {
      scanMissing: settings.scanMissing,
      scanTimeoutMs: settings.scanTimeoutMs,
      pollIntervalMs: settings.pollIntervalMs,
      concurrency: settings.concurrency,
      progress,
      ...(ctx.sleep ? { sleep: ctx.sleep } : {}),
    });
    const evaluation = evaluate(packages, lookups, settings.policy, now());
    const exitCode = evaluation.passed ? EXIT.passed : EXIT.violation;
    const result: CheckResult = {
      toolVersion: version,
      apiUrl: settings.apiUrl,
      inputs,
      policy: settings.policy,
      evaluation,
      stats: {
        requests: client.requests,
        retries: client.retries,
        durationMs: Math.round(performance.now() - started),
      },
      exitCode,
    };

    if (settings.sarif)
      writeReport(settings.sarif, `${JSON.stringify(buildSarif(result), null, 2)}\n`, ctx.cwd);
    if (settings.markdown) writeReport(settings.markdown, renderMarkdown(result), ctx.cwd);

    for (const e of evaluation.expired) {
      const matched = e.matched.length > 0 ? `; it no longer allows ${e.matched.join(', ')}` : '';
      err(
        `warning: allowlist entry ${e.entry.package} ${e.entry.range} expired ${e.entry.expires} (${e.entry.reason})${matched}`,
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
    } else {
      const palette = settings.color ? COLOURS : PLAIN;
      if (!settings.quiet) {
        const table = renderTable(result, {
          all: settings.all,
          width: ctx.stdout.isTTY ? (ctx.stdout.columns ?? 120) : Infinity,
          palette,
        });
        ctx.stdout.write(table || 'No package has findings to list (--all lists every package).\n');
      }
      ctx.stdout.write(`${evaluation.passed ? palette.green(line) : palette.red(palette.bold(line))}\n`);
    }
    return exitCode;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ServiceError) {
      err(`pkgscan: ${error.message}`);
      if (error instanceof ServiceError)
        err(`pkgscan: is the service running at ${settings.apiUrl}? (--api-url or PKGSCAN_API_URL)`);
      return error.exitCode;
    }
    err(`pkgscan: unexpected error: ${(error as Error).stack ?? String(error)}`);
    return EXIT.service;
  }
}
