/** GET /v1/packages/{name}: the latest (highest semver) stored scan of a package. */
import { messages, notFound } from '../shared/domain/errors';
import { decodeNameParam } from '../shared/domain/validation';
import { apiHandler } from '../shared/http/api-handler';
import { readStatsHeaders } from '../shared/http/read-stats';
import { packageStoreFromEnv } from '../shared/store/clients';

const store = packageStoreFromEnv();

export const handler = apiHandler(async (event) => {
  const name = decodeNameParam(event.pathParameters?.name);
  const { value, itemsRead } = await store.getLatest(name);
  if (!value) throw notFound(messages.packageNotFound(name));
  return { status: 200, body: value, headers: readStatsHeaders(itemsRead) };
});
