import { gzipSync, createGzip } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { analyzeTarball } from '../../../src/engine/index';
import { pkgJson, tar, tarHeader, tgz } from './helpers';

jest.setTimeout(60_000);

const reasons = (r: { risk_reasons: string[] }) => r.risk_reasons.join('\n');

describe('hostile archives give a result with a reason, never a crash', () => {
  it('reads a normal tarball and strips the package/ folder', async () => {
    const r = await analyzeTarball(
      tgz([pkgJson(), { name: 'package/index.js', data: 'module.exports = 1;' }]),
    );
    expect(r.name).toBe('fixture');
    expect(r.limits_hit).toEqual([]);
    expect(r.risk_level).toBe('clean');
    expect(r.stats.files).toBe(2);
  });

  it('path traversal', async () => {
    const r = await analyzeTarball(tgz([pkgJson(), { name: 'package/../../../etc/cron.d/x', data: 'evil' }]));
    expect(r.limits_hit).toContain('path_traversal');
    expect(r.skipped_files[0]?.reason).toMatch(/traversal/);
    expect(reasons(r)).toMatch(/unsafe path/);
    expect(r.risk_level).not.toBe('clean');
  });

  it('absolute path', async () => {
    const r = await analyzeTarball(tgz([pkgJson(), { name: '/etc/passwd', data: 'root:x:0:0' }]));
    expect(r.limits_hit).toContain('absolute_path');
    expect(reasons(r)).toMatch(/unsafe path \(absolute path\)/);
  });

  it('symlink and hardlink entries are reported and never followed', async () => {
    const r = await analyzeTarball(
      tgz([
        pkgJson(),
        { name: 'package/link', type: '2', linkname: '/etc/passwd' },
        { name: 'package/hard', type: '1', linkname: 'package/package.json' },
      ]),
    );
    expect(r.limits_hit).toContain('link_entry');
    expect(r.skipped_files.map((s) => s.reason).join()).toMatch(/symlink to \/etc\/passwd.*hardlink/);
    expect(reasons(r)).toMatch(/symlink/);
  });

  it('100,000 tiny entries stop at the entry limit', async () => {
    const header = (i: number) => tarHeader({ name: `package/f${i}.txt` }, 0);
    const parts: Buffer[] = [tar([pkgJson()], { end: false })];
    for (let i = 0; i < 100_000; i++) parts.push(header(i));
    parts.push(Buffer.alloc(1024));
    const t0 = Date.now();
    const r = await analyzeTarball(gzipSync(Buffer.concat(parts), { level: 1 }));
    expect(r.limits_hit).toContain('max_entries');
    expect(reasons(r)).toMatch(/more than 20000 entries/);
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it('a gzip bomb is stopped by the compression-ratio limit', async () => {
    const size = 200 * 1024 * 1024;
    const gz = createGzip({ level: 9 });
    const chunks: Buffer[] = [];
    gz.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise((res) => gz.on('end', res));
    gz.write(tar([pkgJson()], { end: false }));
    gz.write(tarHeader({ name: 'package/bomb.js' }, size));
    const zeros = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < 40; i++) gz.write(zeros); // only 40 MB really compressed: enough to trip the ratio
    gz.end();
    await done;
    const r = await analyzeTarball(Buffer.concat(chunks));
    expect(r.limits_hit).toContain('max_compression_ratio');
    expect(reasons(r)).toMatch(/gzip bomb/);
  });

  it('deeply nested brackets do not overflow the stack', async () => {
    const deep = `x = ${'['.repeat(100_000)}${']'.repeat(100_000)};`;
    const r = await analyzeTarball(tgz([pkgJson(), { name: 'package/deep.js', data: deep }]));
    expect(r.name).toBe('fixture');
    expect(r.skipped_files.find((s) => s.path === 'deep.js')?.reason).toMatch(/did not parse|nesting/);
    expect(reasons(r)).toMatch(/deep\.js did not parse/);
  });

  it('invalid UTF-8 is analysed with replacement characters and reported', async () => {
    const bad = Buffer.concat([
      Buffer.from('const a = "'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('";\n'),
    ]);
    const r = await analyzeTarball(tgz([pkgJson(), { name: 'package/bad.js', data: bad }]));
    expect(r.skipped_files.find((s) => s.path === 'bad.js')?.reason).toMatch(/not valid UTF-8/);
    expect(reasons(r)).toMatch(/bad\.js is not valid UTF-8/);
  });

  it('binary junk named .js gets byte-level checks only', async () => {
    const junk = randomBytes(64 * 1024);
    junk[10] = 0;
    const r = await analyzeTarball(tgz([pkgJson(), { name: 'package/junk.js', data: junk }]));
    expect(r.skipped_files.find((s) => s.path === 'junk.js')?.reason).toMatch(/binary data/);
    expect(reasons(r)).toMatch(/junk\.js is named like code but holds binary data/);
  });

  it('a 50 MB one-line file is checked at text level only', async () => {
    const line = `var a = ${JSON.stringify('x'.repeat(50 * 1024 * 1024))};`;
    const t0 = Date.now();
    const r = await analyzeTarball(
      gzipSync(tar([pkgJson(), { name: 'package/big.js', data: line }]), { level: 1 }),
    );
    expect(r.limits_hit).toContain('max_text_file_bytes');
    expect(r.skipped_files.find((s) => s.path === 'big.js')?.reason).toMatch(/larger than/);
    expect(reasons(r)).toMatch(/\(big\.js\) were checked as text only/);
    expect(Date.now() - t0).toBeLessThan(15_000);
  });

  it('a truncated archive keeps the entries read so far', async () => {
    const full = tgz([
      pkgJson(),
      { name: 'package/a.js', data: 'require("child_process").exec("ls")' },
      { name: 'package/b.js', data: randomBytes(100_000) },
    ]);
    const r = await analyzeTarball(full.subarray(0, Math.floor(full.length / 2)));
    expect(r.limits_hit).toContain('truncated_archive');
    expect(reasons(r)).toMatch(/truncated/);
    expect(r.capabilities.process.spawns_children).toBe(true);
  });

  it('a non-gzip upload is rejected with a reason', async () => {
    const r = await analyzeTarball(Buffer.from('PK\u0003\u0004 this is a zip, not a tarball'));
    expect(r.limits_hit).toContain('not_gzip');
    expect(reasons(r)).toMatch(/not a gzip-compressed tar archive/);
    expect(r.risk_level).toBe('warning');
  });

  it('the compressed-size limit is configurable and reported', async () => {
    const r = await analyzeTarball(tgz([pkgJson(), { name: 'package/x.js', data: randomBytes(10_000) }]), {
      maxCompressedBytes: 1000,
    });
    expect(r.limits_hit).toContain('max_compressed_bytes');
  });

  it('accepts a stream as input', async () => {
    const { Readable } = await import('node:stream');
    const r = await analyzeTarball(
      Readable.from([tgz([pkgJson(), { name: 'package/i.js', data: 'fetch("https://api.example.com/x")' }])]),
    );
    expect(r.capabilities.network.domains).toEqual(['api.example.com']);
  });
});
