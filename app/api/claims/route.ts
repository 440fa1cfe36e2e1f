// GET /api/claims: the clinic's claims, newest first, at most 100 (scope claims:read).
import { route } from '@/lib/http/route';
import { listClaimsEndpoint } from '@/lib/claims/endpoints';
import { listClaims } from '@/lib/claims/list-claims';

export const GET = route(listClaimsEndpoint, ({ query, actor, deps }) =>
  listClaims(deps, { ...query, clinicId: actor.clinicId }),
);
