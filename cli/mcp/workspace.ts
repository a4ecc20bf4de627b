/**
 * The lockfiles an MCP client may have read: only inside the server's working directory (the
 * workspace), only through paths that stay inside it once symbolic links are followed, and only
 * files named as lockfiles. A directory names the lockfiles in it, as `pkgscan` with no argument.
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { findLockfiles, LOCKFILE_NAMES } from '../lockfiles/index';

/** Largest lockfile read (a monorepo's lockfile is a few MB). */
export const MAX_LOCKFILE_BYTES = 64 * 1024 * 1024;

/** A path the tool refuses to read, with the reason; answered as a tool error. */
export class RefusedPath extends Error {
  override readonly name = 'RefusedPath';
}

function inside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** The real paths of the lockfiles `given` names in `workspace`; throws RefusedPath otherwise. */
export function workspaceLockfiles(workspace: string, given: string): string[] {
  if (given.trim() === '' || given.includes('\0')) throw new RefusedPath('The path is empty or invalid');
  const root = realpathSync(workspace);
  const full = path.resolve(workspace, given);
  if (!inside(workspace, full) && !inside(root, full)) {
    throw new RefusedPath(
      `'${given}' is outside the workspace (${root}); only lockfiles inside it can be checked`,
    );
  }
  let real: string;
  try {
    real = realpathSync(full);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new RefusedPath(
      code === 'ENOENT' ? `'${given}' does not exist in the workspace` : `Cannot read '${given}': ${code}`,
    );
  }
  if (!inside(root, real)) {
    throw new RefusedPath(
      `'${given}' leads outside the workspace through a symbolic link; only lockfiles inside it can be checked`,
    );
  }
  const stat = statSync(real);
  if (stat.isDirectory()) {
    const found = findLockfiles(real);
    if (found.length === 0) {
      throw new RefusedPath(`No lockfile in '${given}' (looked for ${LOCKFILE_NAMES.join(', ')})`);
    }
    // findLockfiles names files in a directory already inside; the files themselves may be links.
    return found.map((f) => workspaceLockfiles(root, path.relative(root, f))[0]!);
  }
  if (!(LOCKFILE_NAMES as readonly string[]).includes(path.basename(real))) {
    throw new RefusedPath(
      `'${given}' is not a lockfile: the file must be named ${LOCKFILE_NAMES.join(', ')} (or give its directory)`,
    );
  }
  if (!stat.isFile()) throw new RefusedPath(`'${given}' is not a regular file`);
  if (stat.size > MAX_LOCKFILE_BYTES) {
    throw new RefusedPath(`'${given}' is larger than ${MAX_LOCKFILE_BYTES / 1024 / 1024} MB`);
  }
  return [real];
}
