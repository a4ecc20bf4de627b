/**
 * `pkgscan install <spec …> [-- npm options]` and `pkgscan npx <spec> [-- arguments]`: a guard in
 * front of npm.
 *
 * 1. The named specs are resolved as npm resolves them (not found → an answer, nothing runs).
 * 2. npm plans the install in a temporary copy of the project (package.json, the lockfile, .npmrc
 *    and the workspaces' package.json files): `npm install --package-lock-only --ignore-scripts`
 *    writes the lockfile the install would produce and nothing else. The lockfile reader then gives
 *    every package by its real name (aliases resolved), and marks what is not from the registry.
 * 3. The packages the plan adds or changes (and the named ones) are checked with the policy;
 *    versions the service has not scanned are scanned and waited for. What stays unscanned, and
 *    new dependencies that are not registry packages, fail unless `--yes-unknown`.
 * 4. Only when the policy passes does npm run: for a project install, the planned package.json and
 *    lockfile are put in place and `npm install` installs exactly them; `-g` installs and `npx` run
 *    with `--before` set to the time of the plan, so npm cannot pick a version published since.
 *
 * npm runs under this Node (its npm-cli.js), never through a shell: arguments reach it as they are.
 */
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Environment } from './config';
import { EXIT, UsageError } from './errors';
import { findLockfiles, readLockfile } from './lockfiles/index';
import { checkInputs, report, suggestNames, type Session } from './main';
import { parseSpec, resolveSpecs } from './specs';
import type { InputPackage, ParsedInput, SkippedDependency } from './types';

export interface ProgramResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs npm with `args`. With `capture`, its output is collected and returned; without, it shares
 * the terminal (stdio inherited) and only the exit code is meaningful.
 */
export type RunProgram = (
  args: readonly string[],
  opts: { readonly cwd: string; readonly env: Environment; readonly capture: boolean },
) => Promise<ProgramResult>;

/** npm's own CLI script, so it runs under this Node with no shell in between. */
export function npmCliScript(env: Environment, execPath = process.execPath): string | undefined {
  const candidates: string[] = [];
  const fromNpm = env.npm_execpath;
  if (fromNpm && /(?:npm|npx)-cli\.js$/.test(fromNpm))
    candidates.push(path.join(path.dirname(fromNpm), 'npm-cli.js'));
  const bin = path.dirname(execPath);
  candidates.push(path.join(bin, 'node_modules', 'npm', 'bin', 'npm-cli.js')); // Windows layout
  candidates.push(path.join(bin, '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js')); // Unix prefix
  return candidates.find((c) => existsSync(c));
}

export const runNpmProgram: RunProgram = (args, opts) =>
  new Promise((resolve, reject) => {
    const script = npmCliScript(opts.env);
    if (!script && process.platform === 'win32')
      return reject(new UsageError('Cannot find npm-cli.js beside this Node to run npm without a shell'));
    const [command, argv] = script ? [process.execPath, [script, ...args]] : ['npm', [...args]];
    const child = spawn(command, argv, {
      cwd: opts.cwd,
      env: opts.env as NodeJS.ProcessEnv,
      stdio: opts.capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      shell: false,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (b: Buffer) => out.push(b));
    child.stderr?.on('data', (b: Buffer) => err.push(b));
    child.on('error', (error) =>
      reject(new UsageError(`Cannot run npm: ${(error as NodeJS.ErrnoException).code ?? error.message}`)),
    );
    child.on('close', (code, signal) =>
      resolve({
        code: code ?? (signal ? 128 : 1),
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });

/** npm options that make an install global (planned in an empty project, like npx). */
const GLOBAL = /^(?:-g|--global|--location=global)$/;
/** Options npm must see in the plan and the install alike, never ones that change output format. */
const QUIET = ['--no-audit', '--no-fund', '--color=false', '--json=false', '--loglevel=error'];

function registryArgs(session: Session): string[] {
  return session.settings.registry ? [`--registry=${session.settings.registry}`] : [];
}

/** Folders a `workspaces` field names: literal paths and `dir/*` patterns (what npm projects use). */
function workspaceDirs(root: string, manifest: Record<string, unknown>): string[] {
  const field = manifest.workspaces;
  const patterns = Array.isArray(field)
    ? field
    : field && typeof field === 'object' && Array.isArray((field as { packages?: unknown }).packages)
      ? (field as { packages: unknown[] }).packages
      : [];
  const dirs: string[] = [];
  for (const p of patterns) {
    if (typeof p !== 'string' || p.includes('..')) continue;
    const star = /^(.*?)\/\*{1,2}$/.exec(p);
    if (!star) {
      dirs.push(p);
      continue;
    }
    const parent = path.join(root, star[1]!);
    if (!existsSync(parent)) continue;
    for (const d of readdirSync(parent))
      if (statSync(path.join(parent, d)).isDirectory()) dirs.push(`${star[1]}/${d}`);
  }
  return dirs.filter((d) => existsSync(path.join(root, d, 'package.json')));
}

interface Plan {
  /** The planned lockfile, read. */
  readonly planned: ParsedInput;
  /** Where the plan was made (a temporary folder, removed by `dispose`). */
  readonly dir: string;
  readonly lockName: string;
  dispose(): void;
}

/** Copies what npm reads to plan a project install: package.json, the lockfile, .npmrc, workspaces. */
function copyProject(project: string, dir: string): string {
  const manifestFile = path.join(project, 'package.json');
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
  } catch {
    throw new UsageError('package.json in this folder is not valid JSON');
  }
  copyFileSync(manifestFile, path.join(dir, 'package.json'));
  let lockName = 'package-lock.json';
  const lock = findLockfiles(project).find((f) => f.endsWith('.json'));
  if (lock) {
    lockName = path.basename(lock);
    copyFileSync(lock, path.join(dir, lockName));
  }
  if (existsSync(path.join(project, '.npmrc')))
    copyFileSync(path.join(project, '.npmrc'), path.join(dir, '.npmrc'));
  for (const ws of workspaceDirs(project, manifest)) {
    mkdirSync(path.join(dir, ws), { recursive: true });
    copyFileSync(path.join(project, ws, 'package.json'), path.join(dir, ws, 'package.json'));
  }
  return lockName;
}

/**
 * Asks npm to write the lockfile `npm install <args>` would produce, in a temporary folder that
 * `seed` fills (a copy of the project, or an empty project) and that returns the lockfile name.
 */
async function plan(session: Session, seed: (dir: string) => string, args: readonly string[]): Promise<Plan> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pkgscan-plan-'));
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  try {
    const lockName = seed(dir);
    const run = session.ctx.runProgram ?? runNpmProgram;
    const res = await run(
      ['install', '--package-lock-only', '--ignore-scripts', ...QUIET, ...registryArgs(session), ...args],
      { cwd: dir, env: session.ctx.env, capture: true },
    );
    if (res.code !== 0) {
      const why = res.stderr.trim().split('\n').slice(-8).join('\n') || `exit code ${res.code}`;
      throw new UsageError(`npm could not plan the install (npm install --package-lock-only):\n${why}`);
    }
    return { planned: readLockfile(path.join(dir, lockName), dir), dir, lockName, dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}

const key = (p: { name: string; version: string }) => `${p.name}@${p.version}`;

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
  // Anything after -- goes to npm unchecked, so for an install it may hold options only.
  const positional = sub === 'install' ? passthrough.filter((a) => !a.startsWith('-')) : [];
  if (positional.length > 0)
    throw new UsageError(
      `'${positional[0]}' after -- would be installed unchecked: name packages before --, and give npm options as --name=value`,
    );
  const global = sub === 'npx' || passthrough.some((a) => GLOBAL.test(a));
  if (!global && !existsSync(path.join(ctx.cwd, 'package.json')))
    throw new UsageError('No package.json in this folder: run npm init first (or install with -g)');

  const named =
    specArgs.length > 0 ? await resolveSpecs(specArgs, session.fetchPackument, suggestNames) : undefined;
  const pinned = named ? named.packages.map(key) : [];
  const options = sub === 'install' ? passthrough.filter((a) => !GLOBAL.test(a)) : [];
  const before = session.now().toISOString();

  let thePlan: Plan | undefined;
  try {
    const inputs: ParsedInput[] = named ? [named] : [];
    let notRegistry: SkippedDependency[] = [];
    if ((named?.notFound ?? []).length === 0) {
      session.progress.log(`Planning ${sub === 'npx' ? 'npx' : 'npm install'} ${pinned.join(' ')}…`);
      thePlan = global
        ? await plan(session, emptyProject, [...pinned, ...options, `--before=${before}`])
        : await plan(session, (dir) => copyProject(ctx.cwd, dir), [...pinned, ...options]);
      const old = new Set<string>();
      const oldSkipped = new Set<string>();
      const existing = global ? undefined : findLockfiles(ctx.cwd).find((f) => f.endsWith('.json'));
      if (existing) {
        const was = readLockfile(existing, ctx.cwd);
        for (const p of was.packages) old.add(key(p));
        for (const s of was.skipped) oldSkipped.add(`${s.name} ${s.spec}`);
      }
      const added: InputPackage[] = thePlan.planned.packages
        .filter((p) => !old.has(key(p)))
        .map((p) => ({ ...p, locations: [] }));
      notRegistry = thePlan.planned.skipped.filter((s) => !oldSkipped.has(`${s.name} ${s.spec}`));
      inputs.push({
        source: `${sub === 'npx' ? 'npx' : 'npm install'} (planned lockfile)`,
        format: 'spec',
        formatVersion: '',
        packages: added,
        skipped: notRegistry.map(({ location: _drop, ...s }) => s),
      });
      if (!named && added.length === 0 && notRegistry.length === 0) {
        err('pkgscan: the install adds or changes no package; nothing to check');
        return await apply(session, sub, thePlan, pinned, options, passthrough, before);
      }
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
    const unchecked = [
      ...unknown.map((v) => key(v.pkg)),
      ...notRegistry.map((s) => `${s.name} (${s.reason}: ${s.spec})`),
    ];
    if (notRegistry.length > 0 && !settings.yesUnknown) {
      err(
        `pkgscan: ${notRegistry.length} new dependenc${notRegistry.length === 1 ? 'y is' : 'ies are'} not from the registry and cannot be checked: ${notRegistry
          .slice(0, 5)
          .map((s) => `${s.name} (${s.spec})`)
          .join(', ')}`,
      );
    }
    if (!result.evaluation.passed || (notRegistry.length > 0 && !settings.yesUnknown)) {
      err(
        `pkgscan: not running ${sub === 'npx' ? 'npx' : 'npm install'}: the policy failed${
          unchecked.length > 0 && !settings.yesUnknown
            ? ` (${unchecked.length} not checked; --yes-unknown lets them through)`
            : ''
        }`,
      );
      return EXIT.violation;
    }
    if (unchecked.length > 0)
      err(
        `pkgscan: warning: ${unchecked.length} not checked and let through by --yes-unknown: ${unchecked
          .slice(0, 5)
          .join(', ')}${unchecked.length > 5 ? ', …' : ''}`,
      );
    return await apply(session, sub, thePlan, pinned, options, passthrough, before);
  } finally {
    thePlan?.dispose();
  }
}

/** The plan of a global install or an npx run: an empty project. */
function emptyProject(dir: string): string {
  writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
  return 'package-lock.json';
}

/** Runs npm for real: the planned files put in place for a project install, `--before` otherwise. */
async function apply(
  session: Session,
  sub: 'install' | 'npx',
  thePlan: Plan | undefined,
  pinned: readonly string[],
  options: readonly string[],
  passthrough: readonly string[],
  before: string,
): Promise<number> {
  const { ctx } = session;
  const run = ctx.runProgram ?? runNpmProgram;
  let args: string[];
  if (sub === 'npx') {
    args = [
      'exec',
      '--yes',
      `--before=${before}`,
      ...registryArgs(session),
      '--',
      pinned[0]!,
      ...passthrough,
    ];
  } else if (passthrough.some((a) => GLOBAL.test(a))) {
    args = ['install', `--before=${before}`, ...registryArgs(session), ...pinned, ...passthrough];
  } else {
    // Exactly what was checked: the planned manifest and lockfile, installed as they are.
    if (thePlan) {
      copyFileSync(path.join(thePlan.dir, 'package.json'), path.join(ctx.cwd, 'package.json'));
      copyFileSync(path.join(thePlan.dir, thePlan.lockName), path.join(ctx.cwd, thePlan.lockName));
    }
    args = ['install', ...registryArgs(session), ...options];
  }
  session.err(`pkgscan: running npm ${args.join(' ')}`);
  const res = await run(args, { cwd: ctx.cwd, env: ctx.env, capture: false });
  return res.code;
}
