/**
 * The one-file CLI's MCP server against the local service, as a coding agent starts it:
 * `node pkgscan.mjs mcp --api-url <local>` on stdio, driven by the SDK's Client. The bundle is
 * built into a temporary folder; the service is the local pipeline (API, scan queue, scanner
 * worker) with the repository's advisories imported and lodash 4.17.4 scanned from the fake
 * registry. No outside call: the API and the registry are on 127.0.0.1.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { buildCli } from '../../scripts/build-cli';
import { pkgJson, tgz } from '../unit/analysis/helpers';
import { startPipeline, type TestPipeline } from './support/pipeline';

jest.setTimeout(120_000);

let pipeline: TestPipeline;
let dir: string;
let bundle: string;
let client: Client | undefined;
let stderr = '';

type Entry = Record<string, unknown>;

async function call(name: string, args: Record<string, unknown>): Promise<Entry> {
  const result = (await client!.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { text: string }[];
  };
  const text = result.content.map((c) => c.text).join('');
  if (result.isError) throw new Error(`${name} answered a tool error: ${text}\n${stderr}`);
  return JSON.parse(text) as Entry;
}

/** Each advisory's ids (its own and its CVE aliases) → fixed_in. */
function fixes(cves: Entry[]): Record<string, unknown> {
  return Object.fromEntries(
    cves.flatMap((c) => [c.id as string, ...((c.cve as string[]) ?? [])].map((id) => [id, c.fixed_in])),
  );
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pkgscan-mcp-it-'));
  const [built, started] = await Promise.all([
    buildCli({ quiet: true, outfile: join(dir, 'bin', 'pkgscan.mjs') }),
    startPipeline({ importAdvisories: true }),
  ]);
  bundle = built;
  pipeline = started;
  pipeline.registry.addPackage(
    'lodash',
    '4.17.4',
    tgz([
      pkgJson({ name: 'lodash', version: '4.17.4', main: 'lodash.js' }),
      { name: 'package/lodash.js', data: 'module.exports = { merge: function merge() {} };\n' },
    ]),
  );
  const ack = (await pipeline.requestScan({ name: 'lodash', version: '4.17.4' })).body as { job_id: string };
  expect((await pipeline.waitForJob(ack.job_id)).status).toBe('completed');

  // The workspace the server runs in: one lockfile with lodash 4.17.4.
  const workspace = join(dir, 'project');
  await mkdir(workspace);
  await writeFile(
    join(workspace, 'package.json'),
    JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { lodash: '4.17.4' } }),
  );
  await writeFile(
    join(workspace, 'package-lock.json'),
    JSON.stringify({
      name: 'app',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'app', version: '1.0.0', dependencies: { lodash: '4.17.4' } },
        'node_modules/lodash': {
          version: '4.17.4',
          resolved: `${pipeline.registry.url}/lodash/-/lodash-4.17.4.tgz`,
        },
      },
    }),
  );

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bundle, 'mcp', '--api-url', pipeline.api.url, '--registry', pipeline.registry.url],
    cwd: workspace,
    env: getDefaultEnvironment(),
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  client = new Client({ name: 'pkgscan-integration', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await pipeline?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('answers initialize and lists the four tools', async () => {
  expect(client!.getServerVersion()).toMatchObject({ name: 'pkgscan' });
  expect(client!.getInstructions()).toMatch(/check_packages BEFORE/);
  const { tools } = await client!.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual([
    'check_lockfile',
    'check_packages',
    'get_scan',
    'request_scan',
  ]);
  expect(stderr).toContain('pkgscan mcp: ready on stdio');
});

it('check_packages answers lodash@4.17.4 with both CVEs and their fixed versions', async () => {
  const answer = await call('check_packages', { packages: ['lodash@4.17.4', 'lodahs'] });
  const [lodash, typo] = answer.results as Entry[];
  expect(lodash).toMatchObject({
    input: 'lodash@4.17.4',
    name: 'lodash',
    version: '4.17.4',
    link: `${pipeline.api.url}/v1/packages/lodash/4.17.4`,
    upgrade_to_fix_all: '4.17.11',
  });
  // Rated warning (CVEs): the default policy fails only critical packages, so it passes, with the fix.
  expect(lodash!.verdict).toBe('pass');
  expect(lodash!.risk_level).not.toBe('clean');
  expect(fixes(lodash!.cves as Entry[])).toMatchObject({
    'CVE-2018-16487': '4.17.11',
    'CVE-2018-3721': '4.17.5',
  });
  // A name the registry does not have is answered, with the real one it resembles.
  expect(typo).toMatchObject({ input: 'lodahs', verdict: 'not_found' });
  expect(typo!.did_you_mean).toContain('lodash');
});

it('check_lockfile reads the workspace lockfile and lists lodash with its CVEs', async () => {
  const answer = await call('check_lockfile', { path: 'package-lock.json' });
  expect(answer).toMatchObject({
    lockfiles: [{ path: 'package-lock.json', packages: 1 }],
    counts: { packages: 1, not_scanned: 0 },
  });
  const listed = [...(answer.failing as Entry[]), ...(answer.notable as Entry[])];
  expect(listed).toHaveLength(1);
  expect(fixes(listed[0]!.cves as Entry[])).toMatchObject({ 'CVE-2018-16487': '4.17.11' });
});

it('request_scan and get_scan scan a version the service has not seen', async () => {
  const job = await call('request_scan', { name: 'left-pad', version: '^1.2' });
  expect(job).toMatchObject({ name: 'left-pad', version: '1.3.0', status: 'queued' });
  const deadline = Date.now() + 30_000;
  let state: Entry;
  do {
    await new Promise((resolve) => setTimeout(resolve, 200));
    state = await call('get_scan', { job_id: job.job_id });
  } while (state.status !== 'completed' && state.status !== 'failed' && Date.now() < deadline);
  expect(state).toMatchObject({
    status: 'completed',
    result: { name: 'left-pad', version: '1.3.0', link: `${pipeline.api.url}/v1/packages/left-pad/1.3.0` },
  });
});
