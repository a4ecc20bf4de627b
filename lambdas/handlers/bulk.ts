/** POST /v1/bulk: up to 100 lookups in one request, answered in request order. */
import { badRequest, invalidBody, messages } from '../shared/domain/errors';
import { BULK_MAX, BulkRequest } from '../../src/contract/requests';
import type { BulkResponse } from '../../src/contract/schemas';
import { assertPackageName, assertRegistry, parseVersionSelector } from '../shared/domain/validation';
import { apiHandler, jsonBody } from '../shared/http/api-handler';
import { readStatsHeaders } from '../shared/http/read-stats';
import { packageStoreFromEnv } from '../shared/store/clients';
import type { BulkRef } from '../shared/store/package-store';

const store = packageStoreFromEnv();

export const handler = apiHandler(async (event) => {
  const body = jsonBody(event);
  const parsed = BulkRequest.safeParse(body);
  if (!parsed.success) {
    const count = Array.isArray((body as { packages?: unknown } | null)?.packages)
      ? (body as { packages: unknown[] }).packages.length
      : undefined;
    if (count !== undefined && (count === 0 || count > BULK_MAX)) {
      throw badRequest(`packages must hold 1 to ${BULK_MAX} items, got ${count}`);
    }
    throw invalidBody('bulk request', parsed.error);
  }
  const refs: BulkRef[] = parsed.data.packages.map((p, i) => {
    const name = assertPackageName(p.name, `packages.${i}.name`);
    assertRegistry(p.registry, `packages.${i}.registry`);
    return p.version === undefined
      ? { name }
      : { name, version: parseVersionSelector(p.version, `packages.${i}.version`) };
  });
  const { value, itemsRead } = await store.bulkGet(refs);
  const answer: BulkResponse = value.map((found, i) => {
    if (found) return found;
    const requested = parsed.data.packages[i]!;
    return {
      name: requested.name,
      version: requested.version ?? 'latest',
      registry: requested.registry ?? 'npm',
      error: messages.bulkEntryNotFound(requested.name, requested.version),
    };
  });
  return { status: 200, body: answer, headers: readStatsHeaders(itemsRead) };
});
