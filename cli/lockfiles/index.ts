/** Finding and reading lockfiles: the format is told by the file name, then by the content. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors';
import type { ParsedInput } from '../types';
import { readManifest } from './common';
import { parseNpmLockfile } from './npm';
import { parsePnpmLockfile } from './pnpm';
import { isBerryLockfile, parseYarnBerry, parseYarnClassic } from './yarn';

export const LOCKFILE_NAMES = [
  'npm-shrinkwrap.json',
  'package-lock.json',
  'pnpm-lock.yaml',
  'yarn.lock',
] as const;

/**
 * Lockfiles in `dir`, one per package manager. npm reads npm-shrinkwrap.json instead of
 * package-lock.json when both exist, and so does this.
 */
export function findLockfiles(dir: string): string[] {
  const present = LOCKFILE_NAMES.filter((name) => existsSync(path.join(dir, name)));
  return present
    .filter((name) => !(name === 'package-lock.json' && present.includes('npm-shrinkwrap.json')))
    .map((name) => path.join(dir, name));
}

/** A positional argument names a lockfile when it is an existing file or has a lockfile-like name. */
export function looksLikeLockfile(arg: string, cwd: string): boolean {
  const base = path.basename(arg);
  if ((LOCKFILE_NAMES as readonly string[]).includes(base)) return true;
  if (/\.(json|ya?ml|lock)$/.test(base)) return true;
  const full = path.resolve(cwd, arg);
  return existsSync(full) && statSync(full).isFile();
}

/** The path shown in reports and SARIF: relative to the working directory, with forward slashes. */
export function displayPath(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  const shown = rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
  return shown.split(path.sep).join('/');
}

export function readLockfile(file: string, cwd: string): ParsedInput {
  const full = path.resolve(cwd, file);
  let text: string;
  try {
    text = readFileSync(full, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT' ? `Lockfile not found: ${file}` : `Cannot read lockfile ${file}: ${code ?? error}`,
    );
  }
  return parseLockfileText(text, displayPath(full, cwd), path.dirname(full));
}

export function parseLockfileText(text: string, source: string, dir: string): ParsedInput {
  const base = path.basename(source);
  const trimmed = text.trimStart();
  if (base.endsWith('.json') || trimmed.startsWith('{'))
    return parseNpmLockfile(text, source, readManifest(dir));
  if (base === 'pnpm-lock.yaml' || /^lockfileVersion:/m.test(text)) return parsePnpmLockfile(text, source);
  if (isBerryLockfile(text)) return parseYarnBerry(text, source, dir);
  if (base === 'yarn.lock' || text.includes('# yarn lockfile v1')) {
    return parseYarnClassic(text, source, readManifest(dir));
  }
  throw new UsageError(`${source}: unknown lockfile format (supported: ${LOCKFILE_NAMES.join(', ')})`);
}
