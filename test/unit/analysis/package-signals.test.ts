/**
 * Package signals: the dependency-confusion shape and names that imitate high-impact packages
 * (checked against the npm-high-impact list). Names here are made up or ordinary misspellings.
 */
import { confusionVersion, imitatedPackage } from '../../../src/engine/package-signals';
import { editDistance } from '../../../src/engine/name-similarity';
import { analyzeSource } from './helpers';

describe('names that imitate high-impact packages', () => {
  it.each([
    ['lodahs', 'lodash'],
    ['l0dash', 'lodash'],
    ['expres', 'express'],
    ['axois', 'axios'],
    ['webpack-dev-serve', 'webpack-dev-server'],
    ['@typescript_eslint/parser', '@typescript-eslint/parser'],
  ])('%s imitates %s', (name, target) => {
    expect(imitatedPackage(name)?.target).toBe(target);
  });

  it.each(['lodash', 'express', 'react', 'my-cool-lib', 'chalk-animation', '@storybook/react', 'ms', 'qs'])(
    '%s does not',
    (name) => {
      expect(imitatedPackage(name)).toBeUndefined();
    },
  );

  it('edit distance counts a transposition as one edit', () => {
    expect(editDistance('reqeust', 'request')).toBe(1);
    expect(editDistance('abc', 'xyz', 1)).toBe(2);
  });
});

describe('the dependency-confusion shape', () => {
  it.each([
    ['99.0.0', true],
    ['1.999.0', true],
    ['100.2.3', true],
    ['38.2.0', false],
    ['1.0.30001700', false],
    ['4.17.21', false],
  ])('version %s: %s', (v, expected) => {
    expect(confusionVersion(v)).toBe(expected);
  });

  it('a 99.x scoped package with a postinstall and no repository is flagged even when its code only prints', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({
        name: '@internal-tools/build-config',
        version: '99.0.2',
        scripts: { postinstall: 'node i.js' },
      }),
      'i.js': 'console.log("ok")',
    });
    const f = r.evidence.find((e) => e.rule === 'pkg.dependency-confusion-shape');
    expect(f?.confidence).toBeGreaterThanOrEqual(0.6);
    expect(r.risk_level).not.toBe('clean');
  });

  it('the same version with a repository, or without an install script, is not', () => {
    for (const pkg of [
      {
        name: 'x-tools',
        version: '99.0.0',
        repository: 'git+https://git.example/x.git',
        scripts: { postinstall: 'node i.js' },
      },
      { name: 'x-tools', version: '99.0.0' },
    ]) {
      const r = analyzeSource({ 'package.json': JSON.stringify(pkg), 'i.js': 'console.log(1)' });
      expect(r.evidence.map((e) => e.rule)).not.toContain('pkg.dependency-confusion-shape');
    }
  });
});

describe('a bin named like a command tools run by name', () => {
  const bin = (name: string, bins: Record<string, string>) =>
    analyzeSource({
      'package.json': JSON.stringify({ name, version: '1.0.0', bin: bins }),
      'bin/x.js':
        '#!/usr/bin/env node\nrequire("child_process").spawnSync("/usr/bin/git", process.argv.slice(2));\n',
    }).evidence.filter((e) => e.rule === 'pkg.bin-shadows-command');
  it('git from a package that is not git, npx from a color library', () => {
    expect(bin('color-lite-x', { git: 'bin/x.js' })).toHaveLength(1);
    expect(bin('color-lite-x', { npx: 'bin/x.js', 'color-lite': 'bin/x.js' })[0]?.message).toMatch(
      /named npx/,
    );
  });
  it('quiet: the commands their own packages provide (npm, corepack, node-gyp) and ordinary bin names', () => {
    expect(bin('npm', { npm: 'bin/x.js', npx: 'bin/x.js' })).toEqual([]);
    expect(bin('corepack', { yarn: 'bin/x.js', pnpm: 'bin/x.js' })).toEqual([]);
    expect(bin('node-gyp', { 'node-gyp': 'bin/x.js' })).toEqual([]);
    expect(bin('typescript', { tsc: 'bin/x.js', tsserver: 'bin/x.js' })).toEqual([]);
  });
});
