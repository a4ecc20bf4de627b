import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { main } from '../../../cli/main';
import { pkg, sink, startFakeApi, type FakeApi } from './fake-api';

const REPO = path.resolve(__dirname, '../../..');
const FIXTURES = path.join(REPO, 'test/fixtures/cli');
const NPM_V3 = path.join(FIXTURES, 'lockfiles/npm-v3');
const NOW = () => new Date('2026-11-22T12:00:00Z');

/** Every package of the fixture projects, clean unless overridden. */
const FIXTURE_PACKAGES = [
  ['@sindresorhus/is', '4.6.0'],
  ['debug', '4.3.4'],
  ['has-flag', '4.0.0'],
  ['is-number', '6.0.0'],
  ['is-number', '7.0.0'],
  ['is-odd', '3.0.1'],
  ['left-pad', '1.3.0'],
  ['ms', '2.1.2'],
  ['supports-color', '8.1.1'],
] as const;

function known(over: Record<string, Parameters<typeof pkg>[2]> = {}, leave: string[] = []) {
  return FIXTURE_PACKAGES.filter(([n, v]) => !leave.includes(`${n}@${v}`)).map(([n, v]) =>
    pkg(n, v, over[`${n}@${v}`]),
  );
}

let api: FakeApi | undefined;
let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'pkgscan-cli-'));
});
afterEach(async () => {
  await api?.close();
  api = undefined;
  rmSync(tmp, { recursive: true, force: true });
});

async function run(
  argv: string[],
  opts: {
    cwd?: string;
    env?: Record<string, string>;
    tty?: boolean;
    fetchPackument?: (name: string) => Promise<Record<string, unknown> | undefined>;
  } = {},
) {
  const stdout = sink(opts.tty);
  const stderr = sink(opts.tty);
  const code = await main({
    argv,
    env: { ...(api ? { PKGSCAN_API_URL: api.url } : {}), ...opts.env },
    cwd: opts.cwd ?? NPM_V3,
    stdout,
    stderr,
    now: NOW,
    sleep: async () => {},
    ...(opts.fetchPackument ? { fetchPackument: opts.fetchPackument } : {}),
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

function sarifValidator() {
  const schema = JSON.parse(readFileSync(path.join(FIXTURES, 'sarif-2.1.0-rtm.5.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  // The vendored schema is draft-04; ajv 8 reads it once its two draft-04 keywords are dropped.
  delete schema.$schema;
  delete schema.id;
  // Its `language` pattern is not valid with the `u` flag ajv uses by default.
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

const EVIL = {
  risk_level: 'critical' as const,
  risk_reasons: ['Posts process.env to a remote host (lib/index.js:12).'],
};

describe('exit codes', () => {
  it('0 when every package passes: the table lists findings and the summary line closes', async () => {
    api = await startFakeApi(
      known({ 'ms@2.1.2': { risk_level: 'warning', risk_reasons: ['Has an install script.'] } }),
    );
    const r = await run([]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('PACKAGE');
    expect(r.stdout).toMatch(/note\s+ms\s+2\.1\.2\s+transitive\s+warning/);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe(
      'pkgscan: passed: 9 packages (0 critical, 1 warning, 8 clean)',
    );
    expect(r.stdout).not.toContain('\x1b[');
    expect(r.stderr).toContain('Looking up: 0/9');
    expect(api.log).toEqual([expect.objectContaining({ path: '/v1/bulk', items: 9 })]);
  });

  it('1 on a policy violation', async () => {
    api = await startFakeApi(known({ 'debug@4.3.4': EVIL }));
    const r = await run(['package-lock.json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL\s+debug\s+4\.3\.4\s+direct\s+critical/);
    expect(r.stdout).toContain('pkgscan: FAILED: 1 package violates the policy');
  });

  it('2 on usage and configuration errors', async () => {
    expect((await run(['--frobnicate'])).code).toBe(2);
    expect((await run(['--fail-on', 'purple'])).stderr).toContain(
      '--fail-on must be one of critical, warning, none',
    );
    expect((await run(['--concurrency', '0'])).code).toBe(2);
    expect((await run([], { cwd: tmp })).stderr).toContain('No lockfile in');
    expect((await run(['missing/package-lock.json'])).stderr).toContain('Lockfile not found');
    expect((await run(['git+https://example.test/x.git'])).code).toBe(2);
    writeFileSync(
      path.join(tmp, 'bad.json'),
      JSON.stringify({
        failOn: 'sometimes',
        allowlist: [{ package: 'x', range: 'not a range' }],
        colour: true,
      }),
    );
    const bad = await run(['--config', path.join(tmp, 'bad.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is invalid:');
    expect(bad.stderr).toMatch(/failOn: .*"critical"/);
    expect(bad.stderr).toContain('allowlist.0.range: must be a semver range');
    expect(bad.stderr).toContain('allowlist.0.reason');
    expect(bad.stderr).toMatch(/colour/);
    expect((await run(['--config', path.join(tmp, 'nope.json')])).stderr).toContain('Config file not found');
  });

  it('3 when the service is unreachable or keeps failing', async () => {
    const down = await run(['--retries', '1'], { env: { PKGSCAN_API_URL: 'http://127.0.0.1:9' } });
    expect(down.code).toBe(3);
    expect(down.stderr).toContain('is the service running at http://127.0.0.1:9');
    api = await startFakeApi([], { failFirst: 100 });
    expect((await run(['--retries', '2'])).code).toBe(3);
  });

  it('0 for --help and --version', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes: 0 passed, 1 policy violation');
    expect((await run(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('runs as a child process through bin/pkgscan.mjs', async () => {
    api = await startFakeApi(known({ 'left-pad@1.3.0': EVIL }));
    const child = promisify(execFile)(
      process.execPath,
      [path.join(REPO, 'bin/pkgscan.mjs'), '--no-progress'],
      {
        cwd: NPM_V3,
        env: { ...process.env, PKGSCAN_API_URL: api.url, NO_COLOR: '1' },
      },
    );
    await expect(child).rejects.toMatchObject({
      code: 1,
      stdout: expect.stringMatching(/FAIL +left-pad +1\.3\.0/),
    });
  }, 30_000);
});

describe('policy from flags and config file', () => {
  it('reads .pkgscanrc.json from the working directory; an expired allowlist entry is reported', async () => {
    api = await startFakeApi(known({ 'debug@4.3.4': EVIL, 'left-pad@1.3.0': EVIL }));
    const dir = path.join(tmp, 'project');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    copyFileSync(path.join(NPM_V3, 'package-lock.json'), path.join(dir, 'package-lock.json'));
    copyFileSync(path.join(NPM_V3, 'package.json'), path.join(dir, 'package.json'));
    writeFileSync(
      path.join(dir, '.pkgscanrc.json'),
      JSON.stringify({
        allowlist: [
          { package: 'debug', range: '4.3.x', reason: 'reviewed by security team' },
          { package: 'left-pad', range: '*', reason: 'was fine last year', expires: '2026-01-31' },
        ],
      }),
    );
    const r = await run(['--json'], { cwd: dir });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.summary).toMatchObject({ packages: 9, critical: 2, failed: 1, allowed: 1 });
    const byName = Object.fromEntries(
      out.packages.map((p: { name: string; version: string }) => [`${p.name}@${p.version}`, p]),
    );
    expect(byName['debug@4.3.4']).toMatchObject({
      status: 'allowed',
      allowedBy: { reason: 'reviewed by security team' },
    });
    expect(byName['left-pad@1.3.0']).toMatchObject({
      status: 'fail',
      expiredAllowlistEntries: [expect.objectContaining({ expires: '2026-01-31' })],
    });
    expect(out.expiredAllowlist).toEqual([expect.objectContaining({ matched: ['left-pad@1.3.0'] })]);
    expect(r.stderr).toContain('warning: allowlist entry left-pad * expired 2026-01-31');
  });

  it('--ignore-dev leaves dev-only packages out of the verdict', async () => {
    api = await startFakeApi(known({ 'is-odd@3.0.1': EVIL }));
    expect((await run([])).code).toBe(1);
    expect((await run(['--ignore-dev'])).code).toBe(0);
  });

  it('--fail-on-warning, --min-trust, --fail-on-cve and --fail-on-threat', async () => {
    api = await startFakeApi(
      known({
        'ms@2.1.2': {
          risk_level: 'warning',
          trust_score: 20,
          cves: [{ cve_id: 'CVE-2017-20162', severity: 'medium', description: 'ReDoS', fixed_in: '2.0.0' }],
          agentic_threats: [
            { threat_type: 'social_engineering', confidence: 0.6, location: 'README.md:1', snippet: '' },
          ],
        },
      }),
    );
    expect((await run([])).code).toBe(0);
    expect((await run(['--fail-on-warning'])).code).toBe(1);
    expect((await run(['--min-trust', '50'])).code).toBe(1);
    expect((await run(['--fail-on-cve', 'medium'])).code).toBe(1);
    expect((await run(['--fail-on-cve', 'high'])).code).toBe(0);
    expect((await run(['--fail-on-threat', 'prompt_injection,social_engineering'])).code).toBe(1);
    expect((await run(['--fail-on-threat', 'nonsense'])).code).toBe(2);
  });
});

describe('reports', () => {
  it('writes SARIF 2.1.0 that validates against the schema and points at lockfile lines', async () => {
    api = await startFakeApi(
      known(
        {
          'debug@4.3.4': EVIL,
          'ms@2.1.2': {
            cves: [{ cve_id: 'CVE-2017-20162', severity: 'medium', description: 'ReDoS', fixed_in: '2.0.0' }],
          },
        },
        ['left-pad@1.3.0'],
      ),
    );
    const file = path.join(tmp, 'out.sarif');
    const r = await run(['--sarif', file, '--markdown', path.join(tmp, 'summary.md')]);
    expect(r.code).toBe(1);
    const sarif = JSON.parse(readFileSync(file, 'utf8'));
    const validate = sarifValidator();
    expect(validate.errors ?? validate(sarif)).toBe(true);
    const results = sarif.runs[0].results as {
      ruleId: string;
      level: string;
      locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[];
    }[];
    expect(results.map((x) => [x.ruleId, x.level])).toEqual([
      ['risk-critical', 'error'],
      ['not-scanned', 'note'],
      ['CVE-2017-20162', 'warning'],
    ]);
    const lockLines = readFileSync(path.join(NPM_V3, 'package-lock.json'), 'utf8').split('\n');
    const loc = results[0]!.locations[0]!.physicalLocation;
    // Paths are relative to the checkout (the git top level here), as code scanning expects.
    expect(loc.artifactLocation.uri).toBe('test/fixtures/cli/lockfiles/npm-v3/package-lock.json');
    expect(lockLines[loc.region.startLine - 1]!.trim()).toBe('"node_modules/debug": {');
    const rules = sarif.runs[0].tool.driver.rules.map((x: { id: string }) => x.id);
    expect(rules).toEqual([
      'risk-critical',
      'risk-warning',
      'low-trust',
      'cooldown',
      'not-scanned',
      'not-found',
      'CVE-2017-20162',
    ]);

    const md = readFileSync(path.join(tmp, 'summary.md'), 'utf8');
    expect(md).toContain('## ❌ pkgscan: 1 package violates the policy');
    expect(md).toContain('| ❌ | `debug` | 4.3.4 | direct | critical |');
    expect(md).toContain('<details><summary>Other findings (1 package)</summary>');
  });

  it('marks allowed findings as suppressed in SARIF, still valid', async () => {
    api = await startFakeApi(known({ 'debug@4.3.4': EVIL }));
    writeFileSync(
      path.join(tmp, 'c.json'),
      JSON.stringify({
        allowlist: [{ package: 'debug', range: '*', reason: 'reviewed', expires: '2027-01-01' }],
      }),
    );
    const file = path.join(tmp, 'out.sarif');
    expect((await run(['--config', path.join(tmp, 'c.json'), '--sarif', file])).code).toBe(0);
    const sarif = JSON.parse(readFileSync(file, 'utf8'));
    const validate = sarifValidator();
    expect(validate.errors ?? validate(sarif)).toBe(true);
    expect(sarif.runs[0].results[0].suppressions).toEqual([
      { kind: 'external', status: 'accepted', justification: 'reviewed (until 2027-01-01)' },
    ]);
  });

  it('SARIF: one rule per advisory with its own severity, a location for every result, fingerprints from identity', async () => {
    const advisory = (id: string, severity: string, fixed: string, summary: string) => ({
      id,
      aliases: [],
      severity,
      summary,
      fixed_in: fixed,
      malicious: false,
    });
    const withCves = (summaryHigh: string) =>
      known({
        'ms@2.1.2': {
          risk_level: 'warning',
          risk_reasons: ['Known vulnerabilities.'],
          cves: [],
          advisories: [
            advisory('GHSA-aaaa-bbbb-cccc', 'high', '2.1.3', summaryHigh),
            advisory('GHSA-dddd-eeee-ffff', 'low', '', 'Timing side channel'),
          ],
          agentic_threats: [
            { threat_type: 'prompt_injection', confidence: 0.9, location: 'README.md:3', snippet: 'x' },
          ],
        },
      });
    const sarifOf = async (summaryHigh: string) => {
      api = await startFakeApi(withCves(summaryHigh));
      const file = path.join(tmp, 'cves.sarif');
      await run(['--sarif', file, '--fail-on-cve', 'moderate']);
      await api.close();
      const sarif = JSON.parse(readFileSync(file, 'utf8'));
      const validate = sarifValidator();
      expect(validate.errors ?? validate(sarif)).toBe(true);
      return sarif.runs[0] as {
        tool: {
          driver: { rules: { id: string; help: { markdown: string }; properties: Record<string, string> }[] };
        };
        results: {
          ruleId: string;
          message: { text: string };
          locations: { physicalLocation?: { region: { startLine: number } } }[];
          partialFingerprints: Record<string, string>;
        }[];
      };
    };
    const first = await sarifOf('Regular expression denial of service');
    const rules = new Map(first.tool.driver.rules.map((r) => [r.id, r]));
    expect(rules.get('GHSA-aaaa-bbbb-cccc')!.properties['security-severity']).toBe('8.0');
    expect(rules.get('GHSA-dddd-eeee-ffff')!.properties['security-severity']).toBe('2.5');
    expect(rules.get('GHSA-aaaa-bbbb-cccc')!.help.markdown).toContain('| ms | 2.1.2 | 2.1.3 |');
    expect(rules.get('threat/prompt_injection')).toBeDefined();
    expect(first.results.length).toBeGreaterThanOrEqual(3);
    for (const r of first.results)
      expect(r.locations[0]!.physicalLocation?.region.startLine).toBeGreaterThan(0);
    // Reworded advisory text: the messages change, the fingerprints do not.
    const second = await sarifOf('ReDoS in the duration parser');
    const prints = (run: typeof first) =>
      run.results.map((r) => `${r.ruleId} ${r.partialFingerprints['pkgscanFinding/v2']}`);
    expect(second.results.map((r) => r.message.text)).not.toEqual(first.results.map((r) => r.message.text));
    expect(prints(second)).toEqual(prints(first));
  });

  it('SARIF paths are relative to GITHUB_WORKSPACE when the check runs inside it', async () => {
    api = await startFakeApi(known({ 'debug@4.3.4': EVIL }));
    const file = path.join(tmp, 'ws.sarif');
    await run(['--sarif', file], { env: { GITHUB_WORKSPACE: path.dirname(NPM_V3) } });
    const sarif = JSON.parse(readFileSync(file, 'utf8'));
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({
      uri: 'npm-v3/package-lock.json',
      uriBaseId: '%SRCROOT%',
    });
  });

  it('SARIF locates command-line specs at the package.json line that names them', async () => {
    api = await startFakeApi(known({ 'debug@4.3.4': EVIL }));
    const file = path.join(tmp, 'spec.sarif');
    writeFileSync(
      path.join(tmp, 'package.json'),
      `${JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { 'left-pad': '^1', debug: '^4' } }, null, 2)}\n`,
    );
    const r = await run(['debug@4.3.4', '--sarif', file], {
      cwd: tmp,
      fetchPackument: async (name) =>
        name === 'debug'
          ? { name, 'dist-tags': { latest: '4.3.4' }, versions: { '4.3.4': { name, version: '4.3.4' } } }
          : undefined,
    });
    expect(r.code).toBe(1);
    const sarif = JSON.parse(readFileSync(file, 'utf8'));
    const loc = sarif.runs[0].results[0].locations[0].physicalLocation;
    expect(loc.artifactLocation.uri).toBe('package.json');
    const lines = readFileSync(path.join(tmp, 'package.json'), 'utf8').split('\n');
    expect(lines[loc.region.startLine - 1]).toContain('"debug"');
  });

  it('allow-scripts says which install scripts to allow, skip or deny, with the npm and pnpm settings', async () => {
    const hooks = (command: string, over: Record<string, unknown> = {}) => ({
      install_scripts: { preinstall: false, install: true, postinstall: false, prepare: false },
      install_time: {
        scripts: [{ name: 'install', command }],
        makes_requests: false,
        domains: [],
        spawns_children: false,
        commands: [],
        ...over,
      },
    });
    api = await startFakeApi(
      known({
        'supports-color@8.1.1': hooks('node-gyp rebuild'),
        'has-flag@4.0.0': hooks('echo thanks for installing'),
        'debug@4.3.4': {
          ...EVIL,
          ...hooks('node setup.js', { makes_requests: true, domains: ['203.0.113.9'] }),
        },
      } as Record<string, Parameters<typeof pkg>[2]>),
    );
    const r = await run(['allow-scripts']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/deny\s+debug@4\.3\.4/);
    expect(r.stdout).toMatch(/allow\s+supports-color@8\.1\.1\s+builds or fetches its native addon/);
    expect(r.stdout).toMatch(/skip\s+has-flag@4\.0\.0/);
    expect(r.stdout).toContain('npm install-scripts approve supports-color');
    expect(r.stdout).toContain('npm install-scripts deny debug has-flag');
    expect(r.stdout).toContain('"onlyBuiltDependencies": ["supports-color"]');
    const json = JSON.parse((await run(['allow-scripts', '--json'])).stdout);
    expect(json.npm).toEqual({ approve: ['supports-color'], deny: ['debug', 'has-flag'], review: [] });
  });

  it('shows attacker-controlled text escaped: no terminal title, no screen clear, no bidi override', async () => {
    api = await startFakeApi(
      known({
        'debug@4.3.4': {
          risk_level: 'critical',
          risk_reasons: [
            'Runs \x1b]0;pwned\x07 then \x1b[2J\x1b[H and \u202eevil\u202c ![x](https://t.example/p.png) [click](https://t.example)',
          ],
          agentic_threats: [
            { threat_type: 'prompt_injection', confidence: 0.9, location: 'lib/\x1b[2Jx.js:1', snippet: 's' },
          ],
        },
      }),
    );
    const md = path.join(tmp, 'summary.md');
    const sarif = path.join(tmp, 'out.sarif');
    const r = await run(['--all', '--markdown', md, '--sarif', sarif], { tty: true });
    expect(r.code).toBe(1);
    for (const out of [r.stdout, readFileSync(md, 'utf8'), readFileSync(sarif, 'utf8')]) {
      expect(out).not.toContain('\x1b]');
      expect(out).not.toContain('\x1b[2J');
      expect(out).not.toContain('\u202e');
    }
    // No link or image the Markdown renderer would follow.
    expect(readFileSync(md, 'utf8')).not.toMatch(/!?\[[^\]\\]*\]\(/);
    expect(r.stdout).toContain('\\u{1b}]0;pwned\\u{7}');
  });

  it('--json prints only JSON on stdout', async () => {
    api = await startFakeApi(known());
    const r = await run(['--json']);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      schemaVersion: 1,
      passed: true,
      exitCode: 0,
      summary: { packages: 9, direct: 6, dev: 2 },
    });
    expect(out.packages[0]).toMatchObject({
      name: '@sindresorhus/is',
      status: 'pass',
      locations: [{ file: 'package-lock.json', line: 21 }],
    });
    expect(out.stats).toMatchObject({ requests: 1, retries: 0 });
    expect(r.stderr).toContain('pkgscan: passed');
  });

  it('colours only on a terminal, and not with NO_COLOR; a progress bar on a terminal', async () => {
    api = await startFakeApi(known({ 'debug@4.3.4': EVIL }));
    const tty = await run([], { tty: true });
    expect(tty.stdout).toContain('\x1b[31m');
    expect(tty.stderr).toContain('[------------------------] 0/9');
    expect((await run([], { tty: true, env: { NO_COLOR: '1' } })).stdout).not.toContain('\x1b[');
    expect((await run(['--quiet'])).stderr).toBe('');
  });
});

describe('--scan-missing', () => {
  it('requests scans of unknown packages, follows the jobs and re-reads them', async () => {
    api = await startFakeApi(known({}, ['ms@2.1.2', 'has-flag@4.0.0']), {
      pollsToComplete: 3,
      failScansOf: ['has-flag'],
      scanResult: (name, version) => pkg(name, version, EVIL),
    });
    const r = await run(['--scan-missing', '--json', '--poll-interval', '0']);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    const ms = out.packages.find((p: { name: string }) => p.name === 'ms');
    expect(ms).toMatchObject({ scanned: true, riskLevel: 'critical', status: 'fail' });
    const hasFlag = out.packages.find((p: { name: string }) => p.name === 'has-flag');
    expect(hasFlag).toMatchObject({ scanned: false, notScannedReason: 'scan failed: tarball too large' });
    const paths = api.log.map((l) => `${l.method} ${l.path.replace(/[0-9a-f-]{36}/, 'ID')}`);
    expect(paths.filter((p) => p === 'POST /v1/scan')).toHaveLength(2);
    expect(paths.filter((p) => p === 'GET /v1/scan/ID')).toHaveLength(6);
    expect(paths.filter((p) => p === 'POST /v1/bulk')).toHaveLength(2);
    expect(r.stderr).toContain('Scans: 1 completed, 1 failed, 0 unfinished at the time limit');
  });

  it('stops asking when the service offers no scan route, and says so', async () => {
    api = await startFakeApi(known({}, ['ms@2.1.2', 'has-flag@4.0.0', 'left-pad@1.3.0']), {
      noScanRoutes: true,
    });
    const r = await run(['--scan-missing', '--concurrency', '1']);
    expect(r.code).toBe(0);
    expect(api.log.filter((l) => l.path === '/v1/scan')).toHaveLength(1);
    expect(r.stderr).toContain('the service does not accept scan requests (POST /v1/scan answered 404');
    expect(r.stdout).toContain('3 not scanned');
  });

  it('without --scan-missing, unknown packages are counted, not listed, and the option is suggested', async () => {
    api = await startFakeApi(known({}, ['ms@2.1.2']));
    const r = await run([]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('PACKAGE');
    expect(r.stdout).toContain('No package has findings to list (--all lists every package).');
    expect(r.stderr).toContain('1 package is not scanned yet: --scan-missing requests scans');
    expect((await run(['--fail-on-unknown'])).stdout).toMatch(/FAIL\s+ms\s+2\.1\.2/);
  });

  it('stops waiting at --scan-timeout', async () => {
    api = await startFakeApi(known({}, ['ms@2.1.2']), { pollsToComplete: 1_000_000 });
    const r = await run(['--scan-missing', '--scan-timeout', '0.3', '--poll-interval', '0.05', '--json'], {});
    const out = JSON.parse(r.stdout);
    const ms = out.packages.find((p: { name: string }) => p.name === 'ms');
    expect(ms.notScannedReason).toMatch(/^scan not finished within 0 s \(job /);
    expect(r.code).toBe(0);
  });
});

describe('name@version arguments', () => {
  let registry: Server;
  let registryUrl: string;
  const served: string[] = [];
  beforeAll(async () => {
    registry = createServer((req, res) => {
      served.push(req.url ?? '');
      if (req.url === '/ms') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            name: 'ms',
            'dist-tags': { latest: '2.1.3' },
            versions: { '2.1.2': {}, '2.1.3': {} },
          }),
        );
      } else if (req.url === '/left-pad') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            name: 'left-pad',
            'dist-tags': { latest: '1.3.0', next: '2.0.0-beta.1' },
            versions: { '1.0.0': {}, '1.2.0': {}, '1.3.0': {}, '2.0.0-beta.1': {} },
          }),
        );
      } else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":"Not found"}');
      }
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => registry.close(() => resolve())));

  it('resolves ranges and dist-tags through the registry and checks the result', async () => {
    api = await startFakeApi([
      pkg('left-pad', '1.3.0'),
      pkg('left-pad', '2.0.0-beta.1', EVIL),
      pkg('ms', '2.1.2'),
    ]);
    const ok = await run(['left-pad@^1', 'ms@2.1.2', '--json'], { env: { PKGSCAN_REGISTRY: registryUrl } });
    expect(ok.code).toBe(0);
    expect(
      JSON.parse(ok.stdout).packages.map((p: { name: string; version: string }) => `${p.name}@${p.version}`),
    ).toEqual(['left-pad@1.3.0', 'ms@2.1.2']);
    expect([...served].sort()).toEqual(['/left-pad', '/ms']);
    const next = await run(['left-pad@next', '--registry', registryUrl]);
    expect(next.code).toBe(1);
    expect(next.stdout).toMatch(/FAIL\s+left-pad\s+2\.0\.0-beta\.1/);
  });

  it('answers a name or version that does not exist with NOT FOUND and fails, never dropping it', async () => {
    api = await startFakeApi([pkg('left-pad', '1.3.0')]);
    const none = await run(['left-pad@^9', 'left-pad@^1'], { env: { PKGSCAN_REGISTRY: registryUrl } });
    expect(none.code).toBe(1);
    expect(none.stdout).toContain(
      "NOT FOUND  left-pad@^9: no version of 'left-pad' matches '^9' (latest is 1.3.0)",
    );
    expect(none.stdout).toContain('did you mean left-pad@1.3.0?');
    // An invented name close to a popular one gets the real name as a suggestion.
    const missing = await run(['expresss@^4', '--json'], { env: { PKGSCAN_REGISTRY: registryUrl } });
    expect(missing.code).toBe(1);
    const json = JSON.parse(missing.stdout);
    expect(json.passed).toBe(false);
    expect(json.notFound).toEqual([
      expect.objectContaining({
        spec: 'expresss@^4',
        reason: 'no_such_package',
        suggestions: expect.arrayContaining(['express']),
      }),
    ]);
  });
});
