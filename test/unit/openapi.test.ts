import { ROUTES } from '../../lambdas/routes';
import {
  PackageList,
  PackageResponse,
  ScanJob,
  emptyCapabilities,
  toListItem,
  type BulkResponse,
} from '../../src/contract/schemas';
import {
  buildOpenApiDocument,
  type OperationObject,
  type ParameterObject,
  type Reference,
  type ResponseObject,
} from '../../scripts/openapi';
import {
  componentViolations,
  expectMatchesOpenApi,
  openApiDocument,
  openApiViolations,
} from '../support/openapi';

const doc = openApiDocument;

function operations(): Array<{ method: string; path: string; operation: OperationObject }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) =>
      operation === undefined ? [] : [{ method, path, operation }],
    ),
  );
}

/** Follows a local JSON pointer (`#/a/b`) in the document. */
function resolvePointer(ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function collectRefs(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((child) => collectRefs(child, found));
  else if (node !== null && typeof node === 'object') {
    for (const [key, child] of Object.entries(node)) {
      if (key === '$ref' && typeof child === 'string') found.push(child);
      else collectRefs(child, found);
    }
  }
  return found;
}

function deref<T>(value: T | Reference): T {
  if (typeof value === 'object' && value !== null && '$ref' in value) {
    const target = resolvePointer(value.$ref);
    if (target === undefined) throw new Error(`Unresolvable ${value.$ref}`);
    return target as T;
  }
  return value;
}

const packageResponse: PackageResponse = {
  name: '@scope/pkg',
  version: '1.2.3',
  registry: 'npm',
  risk_level: 'critical',
  risk_reasons: ['postinstall downloads and runs a remote script (scripts/install.js:3)'],
  trust_score: 12.5,
  publisher: { name: 'someone', verified: false },
  weekly_downloads: 42,
  install_scripts: { preinstall: false, install: false, postinstall: true, prepare: false },
  advisories: [],
  cves: [{ cve_id: 'CVE-2021-23337', severity: 'high', description: 'Command injection', fixed_in: '' }],
  agentic_threats: [
    {
      threat_type: 'install_script_injection',
      confidence: 1,
      location: 'scripts/install.js:3',
      snippet: 'curl | sh',
    },
  ],
  capabilities: emptyCapabilities(),
  docs_md: '# pkg\n',
  scanned_at: '2026-11-22T10:00:00.000Z',
};

const packageList: PackageList = {
  packages: [toListItem(packageResponse)],
  total: 1,
  limit: 100,
  offset: 0,
};

function without<T extends object>(value: T, key: keyof T): Omit<T, typeof key> {
  const copy = { ...value };
  delete copy[key];
  return copy;
}

describe('openapi/openapi.json', () => {
  it('equals a fresh generation (after changing the zod schemas or scripts/openapi.ts, run `npm run openapi`)', () => {
    expect(JSON.stringify(doc, null, 2)).toBe(JSON.stringify(buildOpenApiDocument(), null, 2));
  });

  it('is an OpenAPI 3.1 document with servers, tags and components', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(doc.info.title).not.toBe('');
    expect(doc.servers.map((s) => s.url)).toEqual(['/']);
    expect(doc.security).toEqual([]);
    expect(doc.info.license.identifier).toBe('Apache-2.0');
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'AgenticThreat',
        'BulkNotFound',
        'BulkRequest',
        'BulkResponse',
        'Capabilities',
        'Cve',
        'Error',
        'Health',
        'InstallScripts',
        'PackageList',
        'PackageListItem',
        'PackageResponse',
        'Publisher',
        'ScanAck',
        'ScanJob',
        'ScanRequest',
      ]),
    );
  });

  it('resolves every $ref', () => {
    const refs = collectRefs(doc);
    expect(refs.length).toBeGreaterThan(20);
    expect(refs.filter((ref) => resolvePointer(ref) === undefined)).toEqual([]);
  });

  it('documents exactly the routes the stack serves, no more and no fewer', () => {
    const documented = operations().map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    const served = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect([...documented].sort()).toEqual([...served].sort());
    expect(documented).toEqual(
      expect.arrayContaining([
        'GET /health',
        'GET /v1/packages',
        'GET /v1/packages/{name}',
        'GET /v1/packages/{name}/{version}',
        'POST /v1/bulk',
        'POST /v1/scan',
        'POST /v1/scan/tarball',
        'GET /v1/scan/{job_id}',
      ]),
    );
  });

  it.each(operations())(
    '$method $path has an operationId, a summary, tags and its error statuses',
    ({ operation }) => {
      expect(operation.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation.summary).not.toBe('');
      expect(operation.tags.length).toBeGreaterThan(0);
      const statuses = Object.keys(operation.responses);
      expect(statuses.some((s) => s.startsWith('2'))).toBe(true);
      expect(statuses).toEqual(expect.arrayContaining(['429', '500']));
      const params = (operation.parameters ?? []).map((p) => deref<ParameterObject>(p));
      if (params.length > 0 || operation.requestBody !== undefined) expect(statuses).toContain('400');
      if (params.some((p) => p.in === 'path')) expect(statuses).toContain('404');
      for (const status of statuses.filter((s) => /^[45]/.test(s))) {
        const response = deref<ResponseObject>(operation.responses[status] as ResponseObject | Reference);
        expect(response.content?.['application/json']?.schema).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
    },
  );

  it('has unique operationIds', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(operations())(
    '$method $path declares exactly the parameters of its path template',
    ({ path, operation }) => {
      const inTemplate = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = (operation.parameters ?? [])
        .map((p) => deref<ParameterObject>(p))
        .filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name).sort()).toEqual(inTemplate);
      for (const p of declared) expect(p.required).toBe(true);
    },
  );

  it('documents the 202 Location header of both scan requests', () => {
    for (const path of ['/v1/scan', '/v1/scan/tarball']) {
      const accepted = deref<ResponseObject>(doc.paths[path]?.post?.responses['202'] as ResponseObject);
      expect(accepted.headers?.Location?.required).toBe(true);
    }
  });

  it('has component schemas that all compile under Ajv strict mode', () => {
    for (const name of Object.keys(doc.components.schemas)) {
      expect(() => componentViolations(name, null)).not.toThrow();
    }
  });

  it('has examples that match their own schemas', () => {
    const withExamples = Object.entries(doc.components.schemas).filter(
      ([, schema]) => schema.examples !== undefined,
    );
    expect(withExamples.length).toBeGreaterThan(5);
    for (const [name, schema] of withExamples) {
      for (const example of schema.examples as unknown[])
        expect([name, componentViolations(name, example)]).toEqual([name, []]);
    }
  });
});

describe('expectMatchesOpenApi', () => {
  it('accepts a PackageResponse, a PackageList, a BulkResponse, a ScanJob and error bodies', () => {
    // The fixtures are valid by the zod schemas too, so both descriptions agree on them.
    expect(() => PackageResponse.parse(packageResponse)).not.toThrow();
    expect(() => PackageList.parse(packageList)).not.toThrow();
    const bulk: BulkResponse = [
      packageResponse,
      {
        name: 'nope',
        version: '1.0.0',
        registry: 'npm',
        error: "Package 'nope' not found: it has not been scanned (request a scan with POST /v1/scan)",
      },
      packageResponse,
    ];
    const job: ScanJob = {
      job_id: '3f2b8a1c-5d4e-4f6a-8b9c-0d1e2f3a4b5c',
      status: 'completed',
      source: 'tarball',
      name: packageResponse.name,
      version: packageResponse.version,
      registry: 'npm',
      created_at: '2026-11-22T10:00:00Z',
      updated_at: '2026-11-22T10:00:05+01:00',
      result: packageResponse,
    };
    expect(() => expectMatchesOpenApi('GET', '/v1/packages/{name}', 200, packageResponse)).not.toThrow();
    expect(() =>
      expectMatchesOpenApi('get', '/v1/packages/{name}/{version}', 200, packageResponse),
    ).not.toThrow();
    expect(() => expectMatchesOpenApi('GET', '/v1/packages', 200, packageList)).not.toThrow();
    expect(() => expectMatchesOpenApi('POST', '/v1/bulk', 200, bulk)).not.toThrow();
    expect(() => expectMatchesOpenApi('GET', '/v1/scan/{job_id}', 200, job)).not.toThrow();
    expect(() => expectMatchesOpenApi('GET', '/health', 200, { status: 'ok' })).not.toThrow();
    expect(() =>
      expectMatchesOpenApi('GET', '/v1/packages', 400, { error: 'limit must be a whole number' }),
    ).not.toThrow();
    expect(() =>
      expectMatchesOpenApi('GET', '/v1/packages/{name}', 404, { error: 'not found' }),
    ).not.toThrow();
    expect(() =>
      expectMatchesOpenApi('GET', '/health', 500, { error: 'Internal error; request id x' }),
    ).not.toThrow();
    expect(() => expectMatchesOpenApi('POST', '/v1/scan/tarball', 413, { error: 'too large' })).not.toThrow();
  });

  it('accepts a response without docs_md (the one optional PackageResponse field)', () => {
    expect(openApiViolations('GET', '/v1/packages/{name}', 200, without(packageResponse, 'docs_md'))).toEqual(
      [],
    );
  });

  it('rejects a missing field and names it', () => {
    expect(() =>
      expectMatchesOpenApi('GET', '/v1/packages/{name}', 200, without(packageResponse, 'risk_level')),
    ).toThrow(/risk_level/);
    expect(openApiViolations('GET', '/v1/packages', 200, without(packageList, 'total'))).not.toEqual([]);
  });

  it('rejects a value outside an enum', () => {
    expect(() =>
      expectMatchesOpenApi('GET', '/v1/packages/{name}', 200, { ...packageResponse, risk_level: 'unknown' }),
    ).toThrow(/\/risk_level .*clean, warning, critical/);
    const threat = { ...packageResponse.agentic_threats[0], threat_type: 'phishing' };
    expect(
      openApiViolations('GET', '/v1/packages/{name}', 200, { ...packageResponse, agentic_threats: [threat] }),
    ).not.toEqual([]);
  });

  it('rejects extra fields on strict objects, nested ones included', () => {
    expect(() =>
      expectMatchesOpenApi('GET', '/v1/packages/{name}', 200, { ...packageResponse, extra: 1 }),
    ).toThrow(/'extra'/);
    const capabilities = {
      ...packageResponse.capabilities,
      network: { ...packageResponse.capabilities.network, x: 1 },
    };
    expect(
      openApiViolations('GET', '/v1/packages/{name}', 200, { ...packageResponse, capabilities }),
    ).not.toEqual([]);
    expect(openApiViolations('GET', '/v1/packages', 404, { error: 'x', message: 'x' })).not.toEqual([]);
  });

  it('rejects out-of-range numbers and malformed formats', () => {
    const tooConfident = [{ ...packageResponse.agentic_threats[0], confidence: 1.01 }];
    expect(() =>
      expectMatchesOpenApi('GET', '/v1/packages/{name}', 200, {
        ...packageResponse,
        agentic_threats: tooConfident,
      }),
    ).toThrow(/confidence/);
    expect(
      openApiViolations('GET', '/v1/packages/{name}', 200, { ...packageResponse, trust_score: 101 }),
    ).not.toEqual([]);
    expect(openApiViolations('GET', '/v1/packages', 200, { ...packageList, limit: 101 })).not.toEqual([]);
    expect(
      openApiViolations('GET', '/v1/packages/{name}', 200, { ...packageResponse, scanned_at: 'yesterday' }),
    ).not.toEqual([]);
    expect(
      openApiViolations('POST', '/v1/scan', 202, { job_id: 'not-a-uuid', estimated_seconds: 5 }),
    ).not.toEqual([]);
  });

  it('rejects a bulk entry that is neither a PackageResponse nor a complete not-found entry', () => {
    expect(
      openApiViolations('POST', '/v1/bulk', 200, [{ name: 'nope', version: '1.0.0', registry: 'npm' }]),
    ).not.toEqual([]);
    expect(openApiViolations('POST', '/v1/bulk', 200, { packages: [] })).not.toEqual([]);
  });

  it('rejects empty or malformed error bodies', () => {
    expect(openApiViolations('GET', '/v1/packages/{name}', 404, {})).not.toEqual([]);
    expect(openApiViolations('GET', '/v1/packages/{name}', 404, { error: '' })).not.toEqual([]);
    expect(openApiViolations('GET', '/v1/packages/{name}', 404, 'Not Found')).not.toEqual([]);
  });

  it('rejects a status the operation does not document, and an unknown operation', () => {
    expect(() => expectMatchesOpenApi('GET', '/v1/packages/{name}', 201, packageResponse)).toThrow(
      /status 201 is not documented/,
    );
    expect(() => expectMatchesOpenApi('GET', '/health', 404, { error: 'x' })).toThrow(
      /status 404 is not documented/,
    );
    expect(() => expectMatchesOpenApi('DELETE', '/v1/packages/{name}', 200, packageResponse)).toThrow(
      /not an operation/,
    );
    expect(() => expectMatchesOpenApi('GET', '/v1/packages/react', 200, packageResponse)).toThrow(
      /not an operation/,
    );
  });

  it('checks documented response headers when they are given', () => {
    const ack = { job_id: '3f2b8a1c-5d4e-4f6a-8b9c-0d1e2f3a4b5c', estimated_seconds: 30 };
    expect(
      openApiViolations('POST', '/v1/scan', 202, ack, { headers: { location: `/v1/scan/${ack.job_id}` } }),
    ).toEqual([]);
    expect(openApiViolations('POST', '/v1/scan', 202, ack, { headers: {} })).toEqual([
      'header Location is missing',
    ]);
  });
});
