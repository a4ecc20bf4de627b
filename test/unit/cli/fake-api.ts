/** A local stand-in for the public API (127.0.0.1 only) with throttling and scan jobs, for client tests. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakePackage {
  name: string;
  version: string;
  registry: string;
  risk_level: 'clean' | 'warning' | 'critical';
  risk_reasons: string[];
  trust_score: number;
  publisher: { name: string; verified: boolean };
  weekly_downloads: number;
  install_scripts: { preinstall: boolean; install: boolean; postinstall: boolean; prepare: boolean };
  cves: {
    cve_id: string;
    severity: 'low' | 'medium' | 'high' | 'critical';
    description: string;
    fixed_in: string;
  }[];
  advisories?: {
    id: string;
    aliases: string[];
    severity: string;
    summary: string;
    fixed_in: string;
    malicious: boolean;
    url?: string;
  }[];
  agentic_threats: { threat_type: string; confidence: number; location: string; snippet: string }[];
  capabilities: Record<string, unknown>;
  docs_md: string;
  scanned_at: string;
}

export function pkg(name: string, version: string, over: Partial<FakePackage> = {}): FakePackage {
  return {
    name,
    version,
    registry: 'npm',
    risk_level: 'clean',
    risk_reasons: [],
    trust_score: 80,
    publisher: { name: 'someone', verified: false },
    weekly_downloads: 1000,
    install_scripts: { preinstall: false, install: false, postinstall: false, prepare: false },
    cves: [],
    agentic_threats: [],
    capabilities: {
      network: { makes_requests: false, domains: [], protocols: [] },
      filesystem: { reads: false, writes: false, paths: [] },
      process: { spawns_children: false, commands: [] },
      environment: { accessed_vars: [] },
      native: { has_native: false, native_modules: [] },
    },
    docs_md: '',
    scanned_at: '2026-11-20T08:00:00.000Z',
    ...over,
  };
}

export interface FakeApiOptions {
  /** Answer the first N requests with 429 (Retry-After: retryAfter). */
  throttleFirst?: number;
  retryAfter?: string;
  /** Answer the first N requests with 503. */
  failFirst?: number;
  /** Polls a job takes before completing; per name, a scan that fails instead. */
  pollsToComplete?: number;
  failScansOf?: string[];
  /** Result a completed scan stores (default: a clean package). */
  scanResult?: (name: string, version: string) => FakePackage;
  /** Serve no scan routes, like a service that does not offer them yet. */
  noScanRoutes?: boolean;
}

export interface FakeApi {
  readonly url: string;
  readonly known: Map<string, FakePackage>;
  readonly log: { method: string; path: string; status: number; items?: number }[];
  maxInFlight: number;
  close(): Promise<void>;
}

const JOB_ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

export async function startFakeApi(packages: FakePackage[], opts: FakeApiOptions = {}): Promise<FakeApi> {
  const known = new Map(packages.map((p) => [`${p.name}@${p.version}`, p]));
  const log: FakeApi['log'] = [];
  const jobs = new Map<string, { name: string; version: string; polls: number }>();
  let count = 0;
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  const send = (
    res: ServerResponse,
    status: number,
    payload: unknown,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(payload));
  };
  const server: Server = createServer((req, res) => {
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    res.on('finish', () => inFlight--);
    void (async () => {
      const n = ++count;
      const path = req.url ?? '/';
      const entry: FakeApi['log'][number] = { method: req.method ?? 'GET', path, status: 200 };
      log.push(entry);
      const reply = (status: number, payload: unknown, headers?: Record<string, string>) => {
        entry.status = status;
        // Let concurrent requests overlap so the in-flight bound is observable.
        setTimeout(() => send(res, status, payload, headers), 5);
      };
      const input = await body(req);
      if (n <= (opts.throttleFirst ?? 0)) {
        return reply(
          429,
          { error: 'Too many requests' },
          opts.retryAfter === undefined ? {} : { 'retry-after': opts.retryAfter },
        );
      }
      if (n <= (opts.throttleFirst ?? 0) + (opts.failFirst ?? 0))
        return reply(503, { error: 'Service unavailable' });
      if (req.method === 'POST' && path === '/v1/bulk') {
        const items = (input as { packages: { name: string; version?: string }[] }).packages;
        entry.items = items.length;
        if (items.length < 1 || items.length > 100)
          return reply(400, { error: `packages must hold 1 to 100 items, got ${items.length}` });
        const bad = items.findIndex((i) => i.name.startsWith('bad'));
        if (bad !== -1) return reply(400, { error: `packages.${bad}.name is not a valid npm package name` });
        return reply(
          200,
          items.map((i) => {
            const found = known.get(`${i.name}@${i.version}`);
            return (
              found ?? {
                name: i.name,
                version: i.version ?? 'latest',
                registry: 'npm',
                error: `Package '${i.name}' at '${i.version}' not found: it has not been scanned (request a scan with POST /v1/scan)`,
              }
            );
          }),
        );
      }
      if (opts.noScanRoutes && path.startsWith('/v1/scan')) return reply(404, { error: 'No such route' });
      if (req.method === 'POST' && path === '/v1/scan') {
        const { name, version } = input as { name: string; version: string };
        if (name.startsWith('bad')) return reply(400, { error: `name is not a valid npm package name` });
        const id = JOB_ID(jobs.size + 1);
        jobs.set(id, { name, version, polls: 0 });
        return reply(202, { job_id: id, estimated_seconds: 1 }, { location: `/v1/scan/${id}` });
      }
      const m = /^\/v1\/scan\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && m) {
        const job = jobs.get(m[1]!);
        if (!job) return reply(404, { error: `Scan job ${m[1]} not found` });
        job.polls++;
        const base = {
          job_id: m[1],
          source: 'registry',
          name: job.name,
          version: job.version,
          registry: 'npm',
          created_at: '2026-11-20T08:00:00.000Z',
          updated_at: '2026-11-20T08:00:01.000Z',
        };
        if (job.polls < (opts.pollsToComplete ?? 2))
          return reply(200, { ...base, status: job.polls === 1 ? 'queued' : 'running' });
        if (opts.failScansOf?.includes(job.name))
          return reply(200, { ...base, status: 'failed', error: 'tarball too large' });
        const result = opts.scanResult?.(job.name, job.version) ?? pkg(job.name, job.version);
        known.set(`${job.name}@${job.version}`, result);
        return reply(200, { ...base, status: 'completed', result });
      }
      return reply(404, { error: `No route ${req.method} ${path}` });
    })().catch((error: unknown) => send(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const api: FakeApi = {
    url: `http://127.0.0.1:${port}`,
    known,
    log,
    get maxInFlight() {
      return state.maxInFlight;
    },
    set maxInFlight(v: number) {
      state.maxInFlight = v;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return api;
}

/** Collects what the CLI writes. */
export function sink(isTTY = false): {
  text: () => string;
  write: (s: string) => boolean;
  isTTY: boolean;
  columns: number;
} {
  let out = '';
  return {
    isTTY,
    columns: 200,
    write: (s: string) => {
      out += s;
      return true;
    },
    text: () => out,
  };
}
