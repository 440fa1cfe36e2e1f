// GET /api/remittances/postings: the clinic's big ERAs posting in the background, with their progress (svcpay:read).
import { route } from '@/lib/http/route';
import { listEraPostingsEndpoint } from '@/lib/remittances/endpoints';
import { listEraPostings } from '@/lib/remittances/list-era-postings';

export const GET = route(listEraPostingsEndpoint, ({ actor, deps }) =>
  listEraPostings(deps, { clinicId: actor.clinicId }),
);
