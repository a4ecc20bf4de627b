/**
 * Jobs survive a stop of `npm start` (local/main.ts as a child process, the fake registry: no
 * outside call). The service is killed with SIGKILL (no graceful shutdown) while one scan runs
 * (the fake registry holds its packument request) and others wait in the in-memory queue, then
 * started again on the same data folder: every job finishes within a bounded time, a request
 * for the same name@version then starts a new job instead of returning the dead one, and the
 * uploaded tarball is deleted once scanned. A job interrupted more often than LOCAL_MAX_REQUEUES
 * allows is failed at start, with the reason, and a new request starts a new job.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { interruptedReason } from '../../local/job-recovery';
import { freePort, LOCAL_CREDENTIALS, LOCAL_REGION, UPLOAD_BUCKET } from '../../local/stand-ins';
import { pkgJson, tgz } from '../unit/analysis/helpers';
import { startFakeRegistry, type FakeRegistry } from '../support/fake-registry';
import { exitOf, killStartedMains, startMain, START_TIMEOUT_MS, type LocalMain } from './support/local-main';

/** The bound on "every job finishes": minutes at most, whatever the machine's load. */
const FINISH_TIMEOUT_MS = 90_000;

interface Job {
  job_id: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  name: string;
  error?: string;
}

let dataDir: string;
let registry: FakeRegistry;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pkgscan-local-restart-'));
  // The advisories count as imported: this test is about jobs, and the import costs seconds of CPU.
  await writeFile(join(dataDir, 'advisories-imported.json'), '{}\n');
  registry = await startFakeRegistry();
  for (const name of ['slow-a', 'queued-b', 'queued-c', 'queued-d', 'slow-x']) {
    registry.addPackage(name, '1.0.0', packageTarball(name, '1.0.0'));
  }
});
afterAll(async () => {
  killStartedMains();
  await registry?.close();
  await rm(dataDir, { recursive: true, force: true });
});

function packageTarball(name: string, version: string): Buffer {
  return tgz([
    pkgJson({ name, version, main: 'index.js' }),
    { name: 'package/index.js', data: `module.exports = ${JSON.stringify(name)};\n` },
  ]);
}

/** One run of the service on the shared data folder, with fresh ports. */
async function start(env: Record<string, string> = {}) {
  const [port, dynamoPort, s3Port] = [await freePort(), await freePort(), await freePort()];
  const main: LocalMain = await startMain({
    PORT: String(port),
    DYNAMODB_PORT: String(dynamoPort),
    S3_PORT: String(s3Port),
    LOCAL_DATA_DIR: dataDir,
    NPM_REGISTRY_URL: registry.url,
    DOWNLOADS_API_URL: registry.url,
    DOWNLOADS_SNAPSHOT_FILE: 'off',
    LOCAL_SEED: '0',
    // One scan at a time: while the held scan runs, the others wait in the queue.
    SCANNER_CONCURRENCY: '1',
    ...env,
  });
  const api = `http://127.0.0.1:${port}`;
  const scan = async (name: string): Promise<string> => {
    const response = await fetch(`${api}/v1/scan`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, version: '1.0.0' }),
    });
    expect(response.status).toBe(202);
    return ((await response.json()) as { job_id: string }).job_id;
  };
  const job = async (id: string): Promise<Job> => {
    const response = await fetch(`${api}/v1/scan/${id}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Job;
  };
  /** Polls the jobs until every one has completed or failed. */
  const finished = async (ids: readonly string[], timeoutMs = FINISH_TIMEOUT_MS): Promise<Job[]> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const jobs = await Promise.all(ids.map(job));
      if (jobs.every((j) => j.status === 'completed' || j.status === 'failed')) return jobs;
      if (Date.now() > deadline) {
        throw new Error(`Jobs not finished after ${timeoutMs} ms: ${JSON.stringify(jobs)}\n${main.output()}`);
      }
      await new Promise((done) => setTimeout(done, 200));
    }
  };
  const s3 = new S3Client({
    endpoint: `http://127.0.0.1:${s3Port}`,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
    forcePathStyle: true,
  });
  const uploads = async (): Promise<string[]> => {
    const out = await s3.send(new ListObjectsV2Command({ Bucket: UPLOAD_BUCKET, Prefix: 'uploads/' }));
    return (out.Contents ?? []).map((object) => object.Key ?? '');
  };
  const kill = async () => {
    main.child.kill('SIGKILL');
    await exitOf(main.child);
    s3.destroy();
  };
  return { main, api, scan, job, finished, uploads, kill, s3 };
}

it(
  'killed with scans queued and running, restarted: every job finishes and a new request starts a new job',
  async () => {
    // First run: slow-a is scanned and held by the registry; the others wait behind it.
    const first = await start();
    const held = registry.hold('/slow-a');
    const a = await first.scan('slow-a');
    await held.arrived;
    expect((await first.job(a)).status).toBe('running');
    const [b, c, d] = [
      await first.scan('queued-b'),
      await first.scan('queued-c'),
      await first.scan('queued-d'),
    ];
    // A presigned upload, stored and queued.
    const ticket = (await (await fetch(`${first.api}/v1/scan/upload-url`, { method: 'POST' })).json()) as {
      job_id: string;
      upload_url: string;
    };
    const put = await fetch(ticket.upload_url, {
      method: 'PUT',
      body: packageTarball('private-pkg', '0.1.0'),
    });
    expect(put.status).toBe(200);
    const u = ticket.job_id;
    expect(await first.uploads()).toEqual([`uploads/${u}.tgz`]);
    for (const id of [b, c, d, u]) expect((await first.job(id)).status).toBe('queued');
    // A second request for queued-b joins its job: after a stop, without recovery, a dead one.
    expect(await first.scan('queued-b')).toBe(b);

    await first.kill();
    held.release();

    // Second run, same data: the lost messages are sent again before the API answers.
    const restartedAt = Date.now();
    const second = await start();
    expect(second.main.output()).toMatch(/restart: unfinished jobs of the last run: \d.*queued/);
    expect(second.main.output()).not.toMatch(/restart: job .* failed/);
    // Asked again at once, queued-b is its re-queued job (or, already scanned, a new one): either runs.
    const bAgain = await second.scan('queued-b');
    const jobs = await second.finished([a, b, c, d, u, bAgain]);
    const finishedIn = Date.now() - restartedAt;
    expect(jobs.map((j) => [j.job_id, j.status])).toEqual(
      [a, b, c, d, u, bAgain].map((id) => [id, 'completed']),
    );
    expect(finishedIn).toBeLessThan(FINISH_TIMEOUT_MS);
    expect(jobs[4]).toMatchObject({ name: 'private-pkg' });
    // The upload is deleted once its scan is over.
    const deadline = Date.now() + 10_000;
    while ((await second.uploads()).length > 0 && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 200));
    }
    expect(await second.uploads()).toEqual([]);
    // New requests for the same name@version start new jobs, which complete.
    const [bNew, aNew] = [await second.scan('queued-b'), await second.scan('slow-a')];
    expect(bNew).not.toBe(b);
    expect(aNew).not.toBe(a);
    expect((await second.finished([bNew, aNew])).map((j) => j.status)).toEqual(['completed', 'completed']);

    // A job interrupted more often than LOCAL_MAX_REQUEUES allows (0 here) fails at the next start.
    const heldAgain = registry.hold('/slow-x');
    const x = await second.scan('slow-x');
    await heldAgain.arrived;
    expect((await second.job(x)).status).toBe('running');
    await second.kill();
    heldAgain.release();

    const third = await start({ LOCAL_MAX_REQUEUES: '0' });
    expect(third.main.output()).toContain(`restart: job ${x} failed: ${interruptedReason(1)}`);
    expect(await third.job(x)).toMatchObject({ status: 'failed', error: interruptedReason(1) });
    // The failed job cleared the way: a new request is a new job, and it runs.
    const xNew = await third.scan('slow-x');
    expect(xNew).not.toBe(x);
    expect((await third.finished([xNew]))[0]?.status).toBe('completed');
    third.main.child.kill('SIGTERM');
    expect(await exitOf(third.main.child)).toBe(0);
    third.s3.destroy();
  },
  3 * START_TIMEOUT_MS + 2 * FINISH_TIMEOUT_MS,
);
