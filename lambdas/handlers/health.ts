/** GET /health */
import { apiHandler } from '../shared/http/api-handler';

export const handler = apiHandler(async () => ({ status: 200, body: { status: 'ok' } }));
