/**
 * Materialises one corpus reference (data/corpus/real.jsonl) from a git directory into a case
 * folder. Nothing is executed: files are read out of git objects (`git show`) and written;
 * tarballs are unpacked with node-tar. Used by `scripts/corpus-fetch.ts`.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, posix } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import type { RealCaseRef } from './corpus-cases';

const MAX_FILE = 20 * 1024 * 1024;

export function git(gitDir: string, args: string[]): Buffer {
  return execFileSync('git', ['--git-dir', gitDir, ...args], {
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Only relative, non-escaping paths are written. */
function safeJoin(dir: string, rel: string): string {
  const n = posix.normalize(rel);
  if (n.startsWith('..') || posix.isAbsolute(n)) throw new Error(`unsafe path ${rel}`);
  return join(dir, n);
}

/** Writes the case into `outRoot/<id>/`; returns the number of files written. */
export async function materialise(r: RealCaseRef, gitDir: string, outRoot: string): Promise<number> {
  const dir = join(outRoot, r.id);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const show = (p: string) => git(gitDir, ['show', `${r.commit}:${p}`]);
  if (r.kind === 'dir' || r.kind === 'commit-files') {
    // commit-files: only the files the commit added or changed (a package dropped into a repository)
    const changed =
      r.kind === 'commit-files'
        ? new Set(
            git(gitDir, [
              'diff-tree',
              '-r',
              '-z',
              '--no-commit-id',
              '--name-only',
              '--diff-filter=AM',
              r.commit,
            ])
              .toString('utf8')
              .split('\0')
              .filter(Boolean),
          )
        : undefined;
    const list = git(gitDir, ['ls-tree', '-r', '-z', '-l', r.commit, ...(r.path ? ['--', r.path] : [])])
      .toString('utf8')
      .split('\0')
      .filter(Boolean);
    let n = 0;
    for (const line of list) {
      const [meta, path] = line.split('\t') as [string, string];
      const [, type, , size] = meta.split(/\s+/);
      if (type !== 'blob' || Number(size) > MAX_FILE || basename(path) === '.DS_Store') continue;
      if (changed && !changed.has(path)) continue;
      const rel = r.path ? posix.relative(r.path, path) : path;
      if (r.include && !r.include.some((p) => rel === p || rel.startsWith(`${p}/`))) continue;
      const to = safeJoin(dir, rel);
      let data: Buffer;
      try {
        data = show(path);
      } catch {
        // objects a partial mirror lacks (its largest files): the case is kept without them
        process.stderr.write(`${r.id}: ${path} is not in the mirror, left out\n`);
        continue;
      }
      await mkdir(dirname(to), { recursive: true });
      await writeFile(to, data);
      n++;
    }
    return n;
  }
  const data = show(r.path);
  if (r.kind === 'tgz') {
    await pipeline(
      Readable.from([data]),
      tar.x({ cwd: dir, strip: 1, preservePaths: false, filter: (p) => !/(^|\/)\.\.(\/|$)/.test(p) }),
    );
    return 1;
  }
  if (r.kind === 'package-json') {
    await writeFile(join(dir, 'package.json'), data);
    return 1;
  }
  // `as` keeps the file where the tool that runs it looks for it (e.g. `.vscode/tasks.json`).
  const name = r.as ?? basename(r.path);
  const to = safeJoin(dir, name);
  await mkdir(dirname(to), { recursive: true });
  await writeFile(to, data);
  const pkg: Record<string, unknown> = { name: r.id, version: '0.0.0' };
  if (/\.[cm]?[jt]s$/.test(name)) pkg.main = name;
  if (r.kind === 'install-file')
    pkg.scripts = { preinstall: `${/\.(?:sh|bash)$/.test(name) ? 'sh' : 'node'} ${name}` };
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  return 2;
}
