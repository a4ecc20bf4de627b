/**
 * Differential test: the engine must see the files npm writes. Each archive is crafted in memory,
 * read by the engine, and extracted into a temporary folder by node-tar the way npm (pacote)
 * extracts a package: `strip: 1`, links and special entries filtered out, only regular files
 * written. Both listings (paths, sizes and content) must be equal.
 */
import { mkdtemp, readdir, readFile, rm, lstat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { x as extract } from 'tar';
import { readTarball } from '../../../src/engine/tar';
import { DEFAULT_LIMITS } from '../../../src/engine/index';
import { blocks, paxBody, rawEntry, rawTarHeader } from './helpers';

jest.setTimeout(60_000);

type Listing = Record<string, { size: number; sha: string }>;

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex').slice(0, 16);
const END = Buffer.alloc(1024);

async function walk(root: string, rel = ''): Promise<Listing> {
  const out: Listing = {};
  for (const name of await readdir(join(root, rel))) {
    const p = rel ? `${rel}/${name}` : name;
    const st = await lstat(join(root, p));
    if (st.isDirectory()) Object.assign(out, await walk(root, p));
    else if (st.isFile()) {
      const data = await readFile(join(root, p));
      out[p] = { size: data.length, sha: sha(data) };
    }
  }
  return out;
}

/** What npm writes to disk: pacote's extraction options around node-tar's `x`. */
async function npmListing(tgz: Buffer): Promise<Listing> {
  const dir = await mkdtemp(join(tmpdir(), 'tar-diff-'));
  try {
    const file = join(dir, 'in.tgz');
    const { writeFile, mkdir } = await import('node:fs/promises');
    await writeFile(file, tgz);
    const cwd = join(dir, 'out');
    await mkdir(cwd);
    await extract({
      file,
      cwd,
      strip: 1,
      noChmod: true,
      noMtime: true,
      preserveOwner: false,
      onwarn: () => undefined,
      filter: (_p, entry) => {
        const type = (entry as { type?: string }).type ?? '';
        return !/Link$/.test(type) && /File$/.test(type);
      },
    });
    return await walk(cwd);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function engineListing(tgz: Buffer): Promise<Listing> {
  const r = await readTarball(tgz, { ...DEFAULT_LIMITS });
  const out: Listing = {};
  for (const f of r.files) {
    expect(f.truncated).toBe(false);
    out[f.path] = { size: f.size, sha: sha(f.data) };
  }
  return out;
}

const file = (name: string, data: string) => rawEntry({ name }, data);
const pkg = file('package/package.json', '{"name":"diff","version":"1.0.0"}');

const cases: Array<[string, Buffer]> = [];

// pax header `size=0` followed by a ustar entry whose own size covers a second, embedded entry.
{
  const inner = Buffer.concat([file('package/install.js', 'console.log("embedded")\n'), Buffer.alloc(0)]);
  const pax = rawEntry({ name: 'PaxHeader/logo.png', type: 'x' }, paxBody({ size: '0' }));
  const outer = rawTarHeader({ name: 'package/logo.png', size: inner.length });
  cases.push(['pax size=0 hides an embedded entry', Buffer.concat([pkg, pax, outer, inner, END])]);
}
// pax header with a size larger than the ustar size field.
{
  const body = 'x'.repeat(700);
  const pax = rawEntry({ name: 'PaxHeader/big.txt', type: 'x' }, paxBody({ size: String(body.length) }));
  cases.push([
    'pax size overrides the ustar size',
    Buffer.concat([pkg, pax, rawTarHeader({ name: 'package/big.txt', size: 10 }), blocks(body), END]),
  ]);
}
// pax path replaces the ustar name.
{
  const pax = rawEntry({ name: 'PaxHeader/decoy', type: 'x' }, paxBody({ path: 'package/lib/real.js' }));
  cases.push([
    'pax path',
    Buffer.concat([pkg, pax, file('package/decoy.js', 'module.exports = "real";\n'), END]),
  ]);
}
// A global pax header cannot rename entries.
{
  const g = rawEntry({ name: 'pax_global_header', type: 'g' }, paxBody({ path: 'package/global.js' }));
  cases.push(['global pax path is ignored', Buffer.concat([g, pkg, file('package/a.js', 'a\n'), END])]);
}
// GNU long name.
{
  const long = `package/${'deep/'.repeat(40)}long-name.js`;
  const l = rawEntry({ name: '././@LongLink', type: 'L', magic: 'gnu' }, `${long}\0`);
  cases.push([
    'GNU long name',
    Buffer.concat([pkg, l, rawEntry({ name: 'package/short.js', magic: 'gnu' }, 'long\n'), END]),
  ]);
}
// ustar prefix field, filled to 155 bytes and shorter.
{
  const prefix155 = `package/${'p'.repeat(147)}`;
  if (prefix155.length !== 155) throw new Error('prefix must fill the field');
  cases.push([
    'ustar prefix (full 155 bytes and short)',
    Buffer.concat([
      pkg,
      rawEntry({ name: 'in-prefix.js', prefix: prefix155 }, 'full prefix\n'),
      rawEntry({ name: 'x.js', prefix: 'package/short' }, 'short prefix\n'),
      END,
    ]),
  ]);
}
// GNU magic with a filled prefix field: npm ignores the prefix there.
{
  cases.push([
    'GNU magic with a filled prefix field',
    Buffer.concat([
      pkg,
      rawEntry({ name: 'package/install.js', prefix: `package/${'q'.repeat(147)}`, magic: 'gnu' }, 'gnu\n'),
      END,
    ]),
  ]);
}
// base-256 size.
cases.push([
  'base-256 size',
  Buffer.concat([pkg, rawEntry({ name: 'package/b256.js', base256Size: true }, 'y'.repeat(1300)), END]),
]);
// Duplicate entries: the last one wins on disk.
cases.push([
  'duplicate entries',
  Buffer.concat([
    pkg,
    file('package/index.js', 'first\n'),
    file('package/index.js', 'second, the one npm keeps\n'),
    END,
  ]),
]);
// Names that differ only in case are distinct files on a case-sensitive disk.
cases.push([
  'names differing only in case',
  Buffer.concat([pkg, file('package/Setup.js', 'upper\n'), file('package/setup.js', 'lower\n'), END]),
]);
// Trailing garbage after the end-of-archive blocks.
cases.push([
  'trailing garbage',
  Buffer.concat([
    pkg,
    file('package/a.js', 'a\n'),
    END,
    rawEntry({ name: 'package/after-end.js' }, 'not installed\n'),
    Buffer.from('garbage'.repeat(100)),
  ]),
]);
// Odd path spellings.
cases.push([
  'dot, double slash, absolute, no folder, traversal',
  Buffer.concat([
    file('./package.json', '{"name":"dots","version":"1.0.0"}'),
    file('package//double//slash.js', 'ds\n'),
    file('package/./dot/x.js', 'dot\n'),
    file('/abs/evil.js', 'abs\n'),
    file('top-level.js', 'no folder\n'),
    file('package/../escape.js', 'up\n'),
    file('other-root/other.js', 'any first folder is stripped\n'),
    END,
  ]),
]);
// A corrupt header block is skipped and reading goes on, as npm does.
{
  const bad = rawTarHeader({ name: 'package/bad.js', size: 0, badChecksum: true });
  cases.push([
    'corrupt header skipped',
    Buffer.concat([pkg, bad, file('package/after-bad.js', 'after\n'), END]),
  ]);
}
// Links and special entries are not written by npm.
cases.push([
  'links, directories and fifos',
  Buffer.concat([
    pkg,
    rawEntry({ name: 'package/lib/', type: '5' }),
    rawEntry({ name: 'package/link.js', type: '2', linkname: '/etc/passwd' }),
    rawEntry({ name: 'package/hard.js', type: '1', linkname: 'package/package.json' }),
    rawEntry({ name: 'package/fifo', type: '6' }),
    file('package/lib/real.js', 'real\n'),
    END,
  ]),
]);
// A file entry whose name ends in a slash.
cases.push([
  'file named like a folder',
  Buffer.concat([pkg, file('package/weird/', 'slash\n'), file('package/ok.js', 'ok\n'), END]),
]);

describe('the engine lists the files npm writes (node-tar differential)', () => {
  it.each(cases)('%s', async (_name, tarBytes) => {
    const tgz = gzipSync(tarBytes);
    const [engine, npm] = await Promise.all([engineListing(tgz), npmListing(tgz)]);
    expect(Object.keys(npm).length).toBeGreaterThan(0);
    expect(engine).toEqual(npm);
  });

  it('the embedded entry of the pax size=0 archive is visible', async () => {
    const r = await readTarball(gzipSync(cases[0]![1]), { ...DEFAULT_LIMITS });
    expect(r.files.map((f) => f.path).sort()).toEqual(['install.js', 'logo.png', 'package.json']);
  });

  it('hostile spellings are reported', async () => {
    const odd = cases.find(([n]) => n.startsWith('dot, double'))![1];
    const r = await readTarball(gzipSync(odd), { ...DEFAULT_LIMITS });
    expect(r.limitsHit).toEqual(expect.arrayContaining(['absolute_path', 'path_traversal']));
    expect(r.problems.join('\n')).toMatch(/"\/abs\/evil\.js".*npm writes it as abs\/evil\.js/);
    expect(r.files.map((f) => f.path)).toContain('abs/evil.js');
  });
});
