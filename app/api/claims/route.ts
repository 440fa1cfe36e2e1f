// GET /api/claims: the clinic's claims, newest first, at most 100 (claims:read).
// POST /api/claims: create a draft claim (claims:write, 201).
import { route } from '@/lib/http/route';
import { createClaimEndpoint, listClaimsEndpoint } from '@/lib/claims/endpoints';
import { listClaims } from '@/lib/claims/list-claims';
import { createClaim } from '@/lib/claims/create-claim';

export const GET = route(listClaimsEndpoint, ({ query, actor, deps }) =>
  listClaims(deps, { ...query, clinicId: actor.clinicId }),
);

export const POST = route(createClaimEndpoint, ({ body, actor, deps }) => createClaim(deps, { ...body, ...actor }));
