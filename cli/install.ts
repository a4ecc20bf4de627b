/**
 * `pkgscan install <spec …> [-- npm args]` and `pkgscan npx <spec> [-- args]`: a guard in front of
 * npm. It asks npm itself what the install would add (`npm install --dry-run`, which resolves
 * against the project's lockfile, workspaces, overrides and .npmrc exactly as the real install
 * will, and writes nothing), checks those package versions and the named ones with the policy,
 * requests scans of versions the service has not seen and waits for them, and runs npm only when
 * the policy passes. Versions still unscanned fail unless `--yes-unknown` lets them through with
 * a warning. Packages the install leaves as they are were checked when they came in (`pkgscan
 * check` checks the whole lockfile).
 *
 * `npx` resolves the command's package in an empty temporary project (npx installs into its own
 * cache, not the project) and runs exactly the version it checked.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EXIT, ServiceError, UsageError } from './errors';
import { checkInputs, report, suggestNames, type Session } from './main';
import { parseSpec, resolveSpecs } from './specs';
import type { InputPackage, ParsedInput } from './types';
import type { Environment } from './config';

export interface ProgramResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a program. With `capture`, its output is collected and returned; without, it shares the
 * terminal (stdio inherited) and only the exit code is meaningful.
 */
export type RunProgram = (
  command: string,
  args: readonly string[],
  opts: { readonly cwd: string; readonly env: Environment; readonly capture: boolean },
) => Promise<ProgramResult>;

const WINDOWS = process.platform === 'win32';

export const runProgram: RunProgram = (command, args, opts) =>
  new Promise((resolve, reject) => {
    const child = spawn(WINDOWS ? `${command}.cmd` : command, [...args], {
      cwd: opts.cwd,
      env: opts.env as NodeJS.ProcessEnv,
      stdio: opts.capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      // npm and npx are .cmd scripts on Windows, which only a shell starts.
      shell: WINDOWS,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (b: Buffer) => out.push(b));
    child.stderr?.on('data', (b: Buffer) => err.push(b));
    child.on('error', (error) =>
      reject(
        new UsageError(`Cannot run ${command}: ${(error as NodeJS.ErrnoException).code ?? error.message}`),
      ),
    );
    child.on('close', (code, signal) =>
      resolve({
        code: code ?? (signal ? 128 : 1),
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });

/** npm options that make an install global (resolved in an empty project, like npx). */
const GLOBAL = /^(?:-g|--global|--location=global)$/;

/** Lines of `npm install --dry-run`: `add <name> <version>`, `change <name> <from> => <to>`. */
export function parseDryRun(stdout: string): { name: string; version: string }[] {
  const out: { name: string; version: string }[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const add = /^add (\S+) (\S+)$/.exec(line.trim());
    if (add) {
      out.push({ name: add[1]!, version: add[2]! });
      continue;
    }
    const change = /^change (\S+) \S+ => (\S+)$/.exec(line.trim());
    if (change) out.push({ name: change[1]!, version: change[2]! });
  }
  return out;
}

function registryArgs(session: Session): string[] {
  return session.settings.registry ? ['--registry', session.settings.registry] : [];
}

/** What `npm install <args>` would add or change in `dir`, asked of npm without writing anything. */
async function dryRun(session: Session, dir: string, args: readonly string[]): Promise<InputPackage[]> {
  const run = session.ctx.runProgram ?? runProgram;
  const res = await run(
    'npm',
    [
      'install',
      '--dry-run',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      ...registryArgs(session),
      ...args,
    ],
    { cwd: dir, env: session.ctx.env, capture: true },
  );
  if (res.code !== 0) {
    const why = res.stderr.trim().split('\n').slice(-6).join('\n') || `exit code ${res.code}`;
    throw new ServiceError(`npm could not resolve the install (npm install --dry-run):\n${why}`);
  }
  return parseDryRun(res.stdout).map((p) => ({
    ...p,
    direct: undefined,
    dev: undefined,
    locations: [],
  }));
}

export async function runInstall(
  session: Session,
  sub: 'install' | 'npx',
  specArgs: readonly string[],
  passthrough: readonly string[],
): Promise<number> {
  const { ctx, settings, err } = session;
  if (sub === 'npx' && specArgs.length !== 1)
    throw new UsageError('pkgscan npx takes exactly one package spec: pkgscan npx <spec> [-- arguments]');
  // Named packages must be registry specs: git, file and URL specs have no scan to check.
  for (const s of specArgs) parseSpec(s);
  // Anything after -- goes to npm unchecked, so it may hold options only, never packages.
  const positional = sub === 'install' ? passthrough.filter((a) => !a.startsWith('-')) : [];
  if (positional.length > 0)
    throw new UsageError(
      `'${positional[0]}' after -- would be installed unchecked: name packages before --, and give npm options as --name=value`,
    );

  const named =
    specArgs.length > 0 ? await resolveSpecs(specArgs, session.fetchPackument, suggestNames) : undefined;
  const notFound = named?.notFound ?? [];
  const global = sub === 'npx' || passthrough.some((a) => GLOBAL.test(a));

  let added: InputPackage[] = [];
  if (notFound.length === 0) {
    session.progress.log(`Asking npm what ${sub === 'npx' ? 'npx' : 'npm install'} would add…`);
    // Pinned to the versions resolved above, so what is checked is what gets installed.
    const pinned = named ? named.packages.map((p) => `${p.name}@${p.version}`) : [];
    if (global) {
      const dir = await mkdtemp(path.join(tmpdir(), 'pkgscan-install-'));
      try {
        await writeFile(path.join(dir, 'package.json'), '{"private":true}\n');
        added = await dryRun(session, dir, pinned);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    } else {
      added = await dryRun(session, ctx.cwd, [...pinned, ...passthrough.filter((a) => a.startsWith('-'))]);
    }
  }

  const inputs: ParsedInput[] = [];
  if (named) inputs.push(named);
  inputs.push({
    source: sub === 'npx' ? 'npx (dry run)' : 'npm install (dry run)',
    format: 'spec',
    formatVersion: '',
    packages: added,
    skipped: [],
  });
  if (!named && added.length === 0) {
    err('pkgscan: npm would install nothing new; nothing to check');
    return runNpm(session, sub, [], passthrough);
  }

  // For an install, a version nobody has scanned is a risk in itself: scan it, and fail on what
  // stays unknown unless the user lets it through.
  const guarded: Session = {
    ...session,
    settings: { ...settings, policy: { ...settings.policy, failOnUnknown: !settings.yesUnknown } },
  };
  const result = await checkInputs(guarded, inputs, { scanMissing: true });
  report(guarded, result);
  const unknown = result.evaluation.verdicts.filter((v) => v.lookup.status === 'unknown');
  if (!result.evaluation.passed) {
    err(
      `pkgscan: not running ${sub === 'npx' ? 'npx' : 'npm install'}: the policy failed${
        unknown.length > 0 && !settings.yesUnknown
          ? ` (${unknown.length} version${unknown.length === 1 ? '' : 's'} not scanned; --yes-unknown lets them through)`
          : ''
      }`,
    );
    return EXIT.violation;
  }
  if (unknown.length > 0)
    err(
      `pkgscan: warning: ${unknown.length} version${unknown.length === 1 ? ' is' : 's are'} not scanned and let through by --yes-unknown: ${unknown
        .slice(0, 5)
        .map((v) => `${v.pkg.name}@${v.pkg.version}`)
        .join(', ')}${unknown.length > 5 ? ', …' : ''}`,
    );
  const pinned = named ? named.packages.map((p) => `${p.name}@${p.version}`) : [];
  return runNpm(session, sub, pinned, passthrough);
}

async function runNpm(
  session: Session,
  sub: 'install' | 'npx',
  pinned: readonly string[],
  passthrough: readonly string[],
): Promise<number> {
  const run = session.ctx.runProgram ?? runProgram;
  const [command, args] =
    sub === 'npx'
      ? ['npx', ['--yes', ...registryArgs(session), pinned[0]!, ...passthrough]]
      : ['npm', ['install', ...registryArgs(session), ...pinned, ...passthrough]];
  session.err(`pkgscan: running ${command} ${args.join(' ')}`);
  const res = await run(command, args, { cwd: session.ctx.cwd, env: session.ctx.env, capture: false });
  return res.code;
}
