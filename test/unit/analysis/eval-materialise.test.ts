import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { materialise } from '../../../src/engine/eval/materialise';
import type { RealCaseRef } from '../../../src/engine/eval/corpus-cases';

/** A throw-away repository: commit 1 holds a package folder, a tarball and loose files; commit 2
 * drops another package in at the root (the shape `commit-files` reads). */
let work: string;
let gitDir: string;
let out: string;
let c1: string;
let c2: string;

function sh(args: string[]): string {
  return execFileSync('git', args, {
    cwd: join(work, 'repo'),
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.test',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.test',
    },
  })
    .toString()
    .trim();
}

function put(rel: string, text: string | Buffer): void {
  const p = join(work, 'repo', rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
}

function files(dir: string, rel = ''): string[] {
  return readdirSync(join(dir, rel), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(dir, `${rel}${e.name}/`) : [`${rel}${e.name}`]))
    .sort();
}

function ref(
  id: string,
  kind: RealCaseRef['kind'],
  path: string,
  commit: string,
  extra: Partial<RealCaseRef> = {},
) {
  return {
    id,
    family: 'download-execute',
    repo: 'o/r',
    commit,
    path,
    kind,
    notes: '',
    ...extra,
  } as RealCaseRef;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'materialise-'));
  mkdirSync(join(work, 'repo'));
  sh(['init', '-q']);
  put('pkgs/evil/package.json', '{"name":"evil","scripts":{"postinstall":"node x.js"}}');
  put('pkgs/evil/x.js', 'module.exports = 1;\n');
  put('pkgs/evil/lib/a.js', 'exports.a = 1;\n');
  put('pkgs/evil/.DS_Store', 'junk');
  put('loose/beacon.js', 'console.log(1);\n');
  put('loose/run.sh', 'echo hi\n');
  put('loose/tasks.json', '{"version":"2.0.0"}');
  put('loose/pkg.json', '{"name":"pj"}');
  const staging = join(work, 'staging');
  mkdirSync(join(staging, 'package'), { recursive: true });
  writeFileSync(join(staging, 'package/package.json'), '{"name":"tgz"}');
  writeFileSync(join(staging, 'package/index.js'), 'module.exports = 2;\n');
  await tar.c({ gzip: true, cwd: staging, file: join(work, 'repo/loose/p.tgz') }, ['package']);
  sh(['add', '-A']);
  sh(['-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'one']);
  c1 = sh(['rev-parse', 'HEAD']);
  put('package.json', '{"name":"dropped"}');
  put('index.js', 'require("os");\n');
  sh(['add', '-A']);
  sh(['-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'two']);
  c2 = sh(['rev-parse', 'HEAD']);
  gitDir = join(work, 'repo/.git');
  out = join(work, 'out');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('materialise', () => {
  it('copies a package folder, without .DS_Store, and honours include', async () => {
    await materialise(ref('d', 'dir', 'pkgs/evil', c1), gitDir, out);
    expect(files(join(out, 'd'))).toEqual(['lib/a.js', 'package.json', 'x.js']);
    await materialise(ref('d2', 'dir', 'pkgs/evil', c1, { include: ['package.json', 'lib'] }), gitDir, out);
    expect(files(join(out, 'd2'))).toEqual(['lib/a.js', 'package.json']);
  });

  it('takes only the files one commit added or changed', async () => {
    await materialise(ref('c', 'commit-files', '', c2), gitDir, out);
    expect(files(join(out, 'c'))).toEqual(['index.js', 'package.json']);
  });

  it('unpacks a tarball without its first path component', async () => {
    await materialise(ref('t', 'tgz', 'loose/p.tgz', c1), gitDir, out);
    expect(files(join(out, 't'))).toEqual(['index.js', 'package.json']);
  });

  it('wraps single files as packages', async () => {
    await materialise(ref('f', 'file', 'loose/beacon.js', c1), gitDir, out);
    expect(JSON.parse(readFileSync(join(out, 'f/package.json'), 'utf8'))).toEqual({
      name: 'f',
      version: '0.0.0',
      main: 'beacon.js',
    });
    await materialise(ref('i', 'install-file', 'loose/run.sh', c1), gitDir, out);
    expect(JSON.parse(readFileSync(join(out, 'i/package.json'), 'utf8')).scripts).toEqual({
      preinstall: 'sh run.sh',
    });
    await materialise(ref('a', 'file', 'loose/tasks.json', c1, { as: '.vscode/tasks.json' }), gitDir, out);
    expect(files(join(out, 'a'))).toEqual(['.vscode/tasks.json', 'package.json']);
    expect(JSON.parse(readFileSync(join(out, 'a/package.json'), 'utf8')).main).toBeUndefined();
    await materialise(ref('p', 'package-json', 'loose/pkg.json', c1), gitDir, out);
    expect(readFileSync(join(out, 'p/package.json'), 'utf8')).toBe('{"name":"pj"}');
  });

  it('refuses paths that would leave the case folder', async () => {
    await expect(
      materialise(ref('e', 'file', 'loose/tasks.json', c1, { as: '../escape.json' }), gitDir, out),
    ).rejects.toThrow(/unsafe path/);
    expect(existsSync(join(out, 'escape.json'))).toBe(false);
  });
});
