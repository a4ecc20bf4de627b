/** GET /v1/packages: list (downloads descending) or, with `q`, name search; paged. */
import { parseListParams } from '../shared/domain/validation';
import { apiHandler } from '../shared/http/api-handler';
import { readStatsHeaders } from '../shared/http/read-stats';
import { packageStoreFromEnv } from '../shared/store/clients';

const store = packageStoreFromEnv();

export const handler = apiHandler(async (event) => {
  const { limit, offset, q } = parseListParams(event.multiValueQueryStringParameters);
  const { value, itemsRead } =
    q === undefined ? await store.list(limit, offset) : await store.search(q, limit, offset);
  return { status: 200, body: value, headers: readStatsHeaders(itemsRead) };
});
