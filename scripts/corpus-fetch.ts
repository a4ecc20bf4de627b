/**
 * `npm run corpus:fetch`: rebuilds `.cache/corpus/real/<id>/` (git-ignored) from the references in
 * data/corpus/real.jsonl. Nothing is executed: files are read out of git objects and written.
 *
 *   --mirrors DIR   local bare git mirrors, one per repository: DIR/<owner>+<name>/repo or
 *                   DIR/<owner>+<name> (a bare git directory)
 *   CORPUS_GIT_BASE (env) otherwise: a git base URL; <base>/<owner>/<name> is cloned bare (blobs on
 *                   demand) into .cache/corpus/git/
 *   --force         rebuild cases that already exist
 *
 * Kinds: `dir` (a package folder), `tgz` (a package tarball, unpacked without its first path
 * component), `file` (one file, wrapped as a package whose `main` it is), `install-file` (one file
 * wrapped as a package whose `preinstall` runs it, the way the reference describes it),
 * `package-json` (the file is the package.json). For `file`, `as` places the file at that path inside
 * the case instead of at its base name. For `dir`, `include` keeps only those files and folders (an
 * empty `path` is the repository root). `commit-files` takes the files the commit added or changed
 * (under `path`), for repositories where each commit drops one package in.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, posix } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import { loadRealRefs, type RealCaseRef } from '../lambdas/analysis/eval/corpus-cases';

const ROOT = process.cwd();
const OUT = join(ROOT, '.cache/corpus/real');
const MAX_FILE = 20 * 1024 * 1024;

function git(gitDir: string, args: string[]): Buffer {
  return execFileSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 256 * 1024 * 1024 });
}

function gitDirFor(repo: string, mirrors: string | undefined): string {
  const key = repo.replace('/', '+');
  if (mirrors) {
    for (const c of [join(mirrors, key, 'repo'), join(mirrors, key)])
      if (existsSync(join(c, 'HEAD'))) return c;
    throw new Error(`no mirror of ${repo} under ${mirrors}`);
  }
  const base = process.env.CORPUS_GIT_BASE;
  if (!base) throw new Error('give --mirrors DIR or set CORPUS_GIT_BASE');
  const dir = join(ROOT, '.cache/corpus/git', key);
  if (!existsSync(join(dir, 'HEAD')))
    execFileSync(
      'git',
      ['clone', '--bare', '--filter=blob:none', `${base.replace(/\/$/, '')}/${repo}`, dir],
      {
        stdio: 'inherit',
      },
    );
  return dir;
}

/** Only relative, non-escaping paths are written. */
function safeJoin(dir: string, rel: string): string {
  const n = posix.normalize(rel);
  if (n.startsWith('..') || posix.isAbsolute(n)) throw new Error(`unsafe path ${rel}`);
  return join(dir, n);
}

async function materialise(r: RealCaseRef, gitDir: string): Promise<number> {
  const dir = join(OUT, r.id);
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

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const m = args.indexOf('--mirrors');
  const mirrors = m >= 0 ? args[m + 1] : undefined;
  const force = args.includes('--force');
  const refs = await loadRealRefs(ROOT);
  let built = 0;
  const failed: string[] = [];
  for (const r of refs) {
    if (!force && existsSync(join(OUT, r.id))) continue;
    try {
      const n = await materialise(r, gitDirFor(r.repo, mirrors));
      built++;
      process.stdout.write(`${r.id}: ${n} file(s)\n`);
    } catch (err) {
      failed.push(`${r.id}: ${(err as Error).message.split('\n')[0]}`);
      await rm(join(OUT, r.id), { recursive: true, force: true });
    }
  }
  process.stdout.write(
    `built ${built}, already there ${refs.length - built - failed.length}, failed ${failed.length}\n`,
  );
  for (const f of failed) process.stdout.write(`  - ${f}\n`);
  if (failed.length) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`corpus-fetch: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
