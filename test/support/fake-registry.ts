/**
 * A local npm registry for tests: serves recorded packuments and tarballs from
 * test/fixtures/registry/, packages built in memory by a test, and a download-count endpoint.
 * Failures can be scripted per path (`failNext`), so retries and errors are testable without
 * any outside call.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = fileURLToPath(new URL('../fixtures/registry/', import.meta.url));

interface StoredPackage {
  packument: Record<string, unknown> & { versions: Record<string, Record<string, unknown>> };
  tarballs: Map<string, Buffer>;
  downloads?: number;
}

export interface FakeRegistry {
  readonly url: string;
  /** Requests served, as `METHOD path`. */
  readonly requests: string[];
  /** Adds (or adds a version to) a package whose tarball the test built. */
  addPackage(name: string, version: string, tarball: Buffer, extra?: Record<string, unknown>): void;
  setDownloads(name: string, count: number | undefined): void;
  /** The next `times` requests whose path starts with `pathPrefix` answer `status`. */
  failNext(pathPrefix: string, status: number, times?: number): void;
  /**
   * Requests whose path starts with `pathPrefix` get no answer until `release()` (or until their
   * client goes away): a scan that fetches it stays `running`. `arrived` resolves at the first.
   */
  hold(pathPrefix: string): HeldRequests;
  close(): Promise<void>;
}

export interface HeldRequests {
  /** Resolves when the first held request has arrived. */
  readonly arrived: Promise<void>;
  /** Requests held so far. */
  readonly count: number;
  /** Answers the held requests normally, and stops holding. */
  release(): void;
}

function integrityOf(data: Buffer): string {
  return `sha512-${createHash('sha512').update(data).digest('base64')}`;
}

function loadFixtures(): Map<string, StoredPackage> {
  const packages = new Map<string, StoredPackage>();
  for (const dir of readdirSync(FIXTURES)) {
    const root = join(FIXTURES, dir);
    const packument = JSON.parse(
      readFileSync(join(root, 'packument.json'), 'utf8'),
    ) as StoredPackage['packument'];
    const tarballs = new Map<string, Buffer>();
    for (const file of readdirSync(root))
      if (file.endsWith('.tgz')) tarballs.set(file, readFileSync(join(root, file)));
    packages.set(String(packument.name), { packument, tarballs, downloads: 1_000_000 });
  }
  return packages;
}

export async function startFakeRegistry(): Promise<FakeRegistry> {
  const packages = loadFixtures();
  const failures: Array<{ prefix: string; status: number; left: number }> = [];
  const requests: string[] = [];
  let base = '';

  const holds: Array<{ prefix: string; waiting: Array<() => void>; arrived: () => void; count: number }> = [];

  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    requests.push(`${req.method} ${path}`);
    const held = holds.find((h) => path.startsWith(h.prefix));
    if (held) {
      held.count++;
      held.waiting.push(() => answer(res, path));
      held.arrived();
      return;
    }
    answer(res, path);
  });

  const answer = (res: ServerResponse, path: string): void => {
    const failure = failures.find((f) => f.left > 0 && path.startsWith(f.prefix));
    if (failure) {
      failure.left--;
      res.writeHead(failure.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'scripted failure' }));
      return;
    }
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const downloads = /^\/downloads\/point\/last-week\/(.+)$/.exec(path);
    if (downloads) {
      const point = (name: string) => {
        const count = packages.get(name)?.downloads;
        return count === undefined
          ? null
          : { downloads: count, package: name, start: '2026-11-14', end: '2026-11-20' };
      };
      // The download API's bulk form: comma-separated unscoped names, answered keyed by name.
      const names = downloads[1]!.split(',');
      if (names.length > 1) return json(200, Object.fromEntries(names.map((n) => [n, point(n)])));
      const one = point(names[0]!);
      return one ? json(200, one) : json(404, { error: 'package not found' });
    }
    const tarball = /^\/(.+)\/-\/([^/]+\.tgz)$/.exec(path);
    if (tarball) {
      const data = packages.get(tarball[1]!)?.tarballs.get(tarball[2]!);
      if (!data) return json(404, { error: 'Not found' });
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': data.length });
      res.end(data);
      return;
    }
    const stored = packages.get(path.slice(1));
    if (!stored) return json(404, { error: 'Not found' });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(stored.packument).replaceAll('REGISTRY/', `${base}/`));
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const add = (name: string, version: string, served: Buffer, extra: Record<string, unknown>) => {
    const stored: StoredPackage = packages.get(name) ?? {
      packument: { name, 'dist-tags': {}, versions: {}, time: { created: '2024-01-01T00:00:00.000Z' } },
      tarballs: new Map(),
      downloads: 50,
    };
    const file = `${name.split('/').pop()}-${version}.tgz`;
    stored.tarballs.set(file, served);
    stored.packument.versions[version] = {
      name,
      version,
      maintainers: [{ name: 'fixture-author' }],
      _npmUser: { name: 'fixture-author' },
      ...extra,
      dist: { tarball: `REGISTRY/${name}/-/${file}`, integrity: integrityOf(served) },
    };
    (stored.packument['dist-tags'] as Record<string, string>).latest = version;
    (stored.packument.time as Record<string, string>)[version] = '2026-01-01T00:00:00.000Z';
    packages.set(name, stored);
  };

  return {
    url: base,
    requests,
    addPackage: (name, version, tarball, extra = {}) => add(name, version, tarball, extra),
    setDownloads: (name, count) => {
      const stored = packages.get(name);
      if (stored) stored.downloads = count;
    },
    failNext: (prefix, status, times = 1) => failures.push({ prefix, status, left: times }),
    hold: (prefix) => {
      let arrived!: () => void;
      const entry = {
        prefix,
        waiting: [] as Array<() => void>,
        arrived: () => arrived(),
        count: 0,
      };
      const arrival = new Promise<void>((done) => (arrived = done));
      holds.push(entry);
      return {
        arrived: arrival,
        get count() {
          return entry.count;
        },
        release: () => {
          holds.splice(holds.indexOf(entry), 1);
          for (const go of entry.waiting.splice(0)) go();
        },
      };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
