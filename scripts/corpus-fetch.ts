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
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { loadRealRefs } from '../src/engine/eval/corpus-cases';
import { materialise } from '../src/engine/eval/materialise';

const ROOT = process.cwd();
const OUT = join(ROOT, '.cache/corpus/real');

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
      const n = await materialise(r, gitDirFor(r.repo, mirrors), OUT);
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
