import { readFileSync } from 'node:fs';
import path from 'node:path';
import { findLockfiles, parseLockfileText, readLockfile } from '../../../cli/lockfiles/index';
import type { InputPackage, ParsedInput } from '../../../cli/types';

const FIXTURES = path.resolve(__dirname, '../../fixtures/cli/lockfiles');
const REPO = path.resolve(__dirname, '../../..');

/** What every fixture project holds (see test/fixtures/cli/lockfiles/README.md). */
const EXPECTED = [
  ['@sindresorhus/is@4.6.0', 'direct', 'prod'],
  ['debug@4.3.4', 'direct', 'prod'],
  ['has-flag@4.0.0', 'transitive', 'prod'],
  ['is-number@6.0.0', 'transitive', 'dev'],
  ['is-number@7.0.0', 'direct', 'prod'],
  ['is-odd@3.0.1', 'direct', 'dev'],
  ['left-pad@1.3.0', 'direct', 'prod'],
  ['ms@2.1.2', 'transitive', 'prod'],
  ['supports-color@8.1.1', 'direct', 'prod'],
];

const summary = (p: InputPackage) => [
  `${p.name}@${p.version}`,
  p.direct ? 'direct' : 'transitive',
  p.dev ? 'dev' : 'prod',
];

/** The line a location points at must name the package. */
function expectLinesNamePackages(input: ParsedInput, dir: string) {
  const lines = readFileSync(path.join(dir, input.source), 'utf8').split('\n');
  for (const p of input.packages) {
    expect(p.locations.length).toBeGreaterThan(0);
    for (const loc of p.locations) {
      const text = lines[loc.line - 1] ?? '';
      const bare = p.name.split('/').pop()!;
      expect(text).toContain(bare);
      expect(text.trimEnd()).toMatch(/(:|: \{\}|\{)$/);
    }
  }
}

describe.each([
  ['npm-v1', 'package-lock.json', 'npm', '1'],
  ['npm-v2', 'package-lock.json', 'npm', '2'],
  ['npm-v3', 'package-lock.json', 'npm', '3'],
  ['npm-shrinkwrap', 'npm-shrinkwrap.json', 'npm', '3'],
  ['yarn-classic', 'yarn.lock', 'yarn-classic', '1'],
  ['yarn-berry', 'yarn.lock', 'yarn-berry', '8'],
  ['pnpm-v6', 'pnpm-lock.yaml', 'pnpm', '6.0'],
  ['pnpm-v9', 'pnpm-lock.yaml', 'pnpm', '9.0'],
])('%s (written by the package manager)', (dir, file, format, formatVersion) => {
  const cwd = path.join(FIXTURES, dir);
  const input = readLockfile(file, cwd);

  it('is found in its directory and tells its format', () => {
    expect(findLockfiles(cwd)).toEqual([path.join(cwd, file)]);
    expect(input.format).toBe(format);
    expect(input.formatVersion).toBe(formatVersion);
    expect(input.source).toBe(file);
  });

  it('lists every installed package once, telling direct from transitive and dev from prod', () => {
    expect(input.packages.map(summary)).toEqual(EXPECTED);
    expect(input.skipped).toEqual([]);
  });

  it('points at the lockfile lines where each package appears', () => {
    expectLinesNamePackages(input, cwd);
  });
});

describe('without a package.json beside the lockfile', () => {
  it('yarn classic cannot tell direct or dev, and says so with undefined', () => {
    const text = readFileSync(path.join(FIXTURES, 'yarn-classic/yarn.lock'), 'utf8');
    const input = parseLockfileText(text, 'yarn.lock', path.join(FIXTURES, 'no-such-dir'));
    expect(input.packages).toHaveLength(EXPECTED.length);
    expect(input.packages.every((p) => p.direct === undefined && p.dev === undefined)).toBe(true);
  });

  it('npm v1 keeps its dev flags but cannot tell direct dependencies', () => {
    const text = readFileSync(path.join(FIXTURES, 'npm-v1/package-lock.json'), 'utf8');
    const input = parseLockfileText(text, 'package-lock.json', path.join(FIXTURES, 'no-such-dir'));
    expect(input.packages.map((p) => [p.name, p.direct, p.dev])).toContainEqual(['is-odd', undefined, true]);
  });
});

describe('pnpm 9 locations', () => {
  it('records both the packages entry and the snapshot entry', () => {
    const input = readLockfile('pnpm-lock.yaml', path.join(FIXTURES, 'pnpm-v9'));
    const debug = input.packages.find((p) => p.name === 'debug')!;
    expect(debug.locations).toHaveLength(2);
  });
});

describe("the project's own package-lock.json (v3)", () => {
  const input = readLockfile('package-lock.json', REPO);
  const lock = JSON.parse(readFileSync(path.join(REPO, 'package-lock.json'), 'utf8')) as {
    lockfileVersion: number;
    packages: Record<string, { version?: string; name?: string; dev?: boolean; link?: boolean }>;
  };
  const root = lock.packages['']! as { dependencies?: object; devDependencies?: object };

  it('is a v3 lockfile read in full', () => {
    expect(input.formatVersion).toBe(String(lock.lockfileVersion));
    const expected = new Set(
      Object.entries(lock.packages)
        .filter(([k, v]) => k.startsWith('node_modules/') && !v.link && v.version)
        .map(([k, v]) => `${v.name ?? k.slice(k.lastIndexOf('node_modules/') + 13)}@${v.version}`),
    );
    expect(new Set(input.packages.map((p) => `${p.name}@${p.version}`))).toEqual(expected);
  });

  it('marks the root dependencies direct, with dev ones as dev', () => {
    const direct = input.packages.filter((p) => p.direct).map((p) => p.name);
    for (const name of Object.keys(root.dependencies ?? {})) expect(direct).toContain(name);
    for (const name of Object.keys(root.devDependencies ?? {})) expect(direct).toContain(name);
    const jest = input.packages.find((p) => p.name === 'jest')!;
    expect(jest.dev).toBe(true);
    const zod = input.packages.find((p) => p.name === 'zod')!;
    expect(zod.dev).toBe(false);
  });

  it('points each occurrence at its "node_modules/..." key', () => {
    const lines = readFileSync(path.join(REPO, 'package-lock.json'), 'utf8').split('\n');
    for (const p of input.packages) {
      for (const loc of p.locations)
        expect(lines[loc.line - 1]).toMatch(new RegExp(`"(.*/)?node_modules/.*": \\{$`));
    }
    const semver = input.packages.find((p) => p.name === 'semver' && p.direct)!;
    expect(semver.locations.map((l) => lines[l.line - 1]!.trim())).toContain('"node_modules/semver": {');
  });
});

describe('dependencies the service cannot look up', () => {
  it('skips git, file and link entries of package-lock v3 and keeps aliases under their real name', () => {
    const text = JSON.stringify(
      {
        name: 'app',
        lockfileVersion: 3,
        requires: true,
        packages: {
          '': {
            name: 'app',
            dependencies: { local: 'file:../local', gitdep: 'github:o/r', alias: 'npm:left-pad@1.3.0' },
          },
          'node_modules/local': { resolved: '../local', link: true },
          'node_modules/gitdep': { version: '1.0.0', resolved: 'git+ssh://git@github.com/o/r.git#abc' },
          'node_modules/alias': {
            name: 'left-pad',
            version: '1.3.0',
            resolved: 'https://registry.example.test/left-pad/-/left-pad-1.3.0.tgz',
          },
        },
      },
      null,
      2,
    );
    const input = parseLockfileText(text, 'package-lock.json', '/nowhere');
    expect(input.packages.map((p) => `${p.name}@${p.version}`)).toEqual(['left-pad@1.3.0']);
    expect(input.packages[0]!.direct).toBe(true);
    expect(input.skipped).toEqual([
      expect.objectContaining({ name: 'gitdep', reason: expect.stringContaining('git') }),
    ]);
  });

  it('skips non-registry yarn berry resolutions and follows patch: to the patched package', () => {
    const text = [
      '__metadata:',
      '  version: 8',
      '',
      '"app@workspace:.":',
      '  version: 0.0.0-use.local',
      '  resolution: "app@workspace:."',
      '  dependencies:',
      '    resolve: "patch:resolve@npm%3A^1.22.8#~builtin<compat/resolve>"',
      '    mine: "git+https://example.test/mine.git"',
      '',
      '"resolve@patch:resolve@npm%3A^1.22.8#~builtin<compat/resolve>":',
      '  version: 1.22.8',
      '  resolution: "resolve@patch:resolve@npm%3A1.22.8#~builtin<compat/resolve>::version=1.22.8&hash=c3c19d"',
      '',
      '"mine@git+https://example.test/mine.git":',
      '  version: 1.0.0',
      '  resolution: "mine@git+https://example.test/mine.git#commit=abc"',
      '',
    ].join('\n');
    const input = parseLockfileText(text, 'yarn.lock', '/nowhere');
    expect(input.packages.map((p) => [`${p.name}@${p.version}`, p.direct, p.locations[0]!.line])).toEqual([
      ['resolve@1.22.8', true, 11],
    ]);
    expect(input.skipped.map((s) => s.name)).toEqual(['mine']);
  });

  it('rejects pnpm lockfiles older than 6 with a clear message', () => {
    expect(() => parseLockfileText('lockfileVersion: 5.4\n', 'pnpm-lock.yaml', '/nowhere')).toThrow(
      /not supported \(6\.x and 9\.x are\)/,
    );
  });

  it('rejects unreadable and unknown files as usage errors', () => {
    expect(() => readLockfile('missing/package-lock.json', FIXTURES)).toThrow('Lockfile not found');
    expect(() => parseLockfileText('hello', 'deps.txt', '/nowhere')).toThrow(/unknown lockfile format/);
    expect(() => parseLockfileText('{ nope', 'package-lock.json', '/nowhere')).toThrow(/not valid JSON/);
  });
});

describe.each([
  ['npm-workspaces', 'package-lock.json'],
  ['pnpm-workspaces', 'pnpm-lock.yaml'],
])('%s (a workspace root and one workspace, written by the package manager)', (dir, file) => {
  it("takes every workspace's dependencies as direct, and the root's dev ones as dev", () => {
    const input = readLockfile(file, path.join(FIXTURES, dir));
    expect(input.packages.map(summary)).toEqual([
      ['is-number@6.0.0', 'transitive', 'dev'],
      ['is-odd@3.0.1', 'direct', 'dev'],
      ['left-pad@1.3.0', 'direct', 'prod'],
      ['ms@2.1.2', 'direct', 'prod'],
    ]);
    expect(input.skipped).toEqual([]);
  });
});
