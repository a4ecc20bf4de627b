/** GET /v1/packages/{name}/{version}: one version, by exact version or recorded dist-tag. */
import { badRequest, messages, notFound } from '../shared/domain/errors';
import { decodeNameParam, parseVersionSelector } from '../shared/domain/validation';
import { apiHandler } from '../shared/http/api-handler';
import { readStatsHeaders } from '../shared/http/read-stats';
import { packageStoreFromEnv } from '../shared/store/clients';

const store = packageStoreFromEnv();

export const handler = apiHandler(async (event) => {
  const name = decodeNameParam(event.pathParameters?.name);
  const rawVersion = event.pathParameters?.version;
  if (rawVersion === undefined || rawVersion === '') throw badRequest('Path parameter version is required');
  const selector = parseVersionSelector(decodeURIComponentSafe(rawVersion), 'version');
  const { value, itemsRead } = await store.getVersion(name, selector);
  if (!value.result) {
    const asked = selector.kind === 'exact' ? selector.version : selector.tag;
    throw notFound(
      value.packageKnown ? messages.versionNotFound(name, asked) : messages.packageNotFound(name),
    );
  }
  return { status: 200, body: value.result, headers: readStatsHeaders(itemsRead) };
});

function decodeURIComponentSafe(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw badRequest('Path parameter version is not valid URL encoding');
  }
}
