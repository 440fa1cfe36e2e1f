// GET /api/openapi.json: public; the OpenAPI 3.1 document generated from the endpoint registry.
import { route } from '@/lib/http/route';
import { getOpenApi } from '@/lib/health/endpoints';
import { buildOpenApi } from '@/lib/api/build-openapi';

export const GET = route(getOpenApi, ({ deps }) => buildOpenApi(deps.config.appUrl));
