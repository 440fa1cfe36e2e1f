// GET /api/claims/{id}: the claim with its timeline and appeals (claims:read).
// PATCH /api/claims/{id}: edit a draft (claims:write).
import { route } from '@/lib/http/route';
import { getClaimEndpoint, updateClaimEndpoint } from '@/lib/claims/endpoints';
import { getClaim } from '@/lib/claims/get-claim';
import { updateClaim } from '@/lib/claims/update-claim';

export const GET = route(getClaimEndpoint, ({ params, actor, deps }) =>
  getClaim(deps, { clinicId: actor.clinicId, claimId: params.id }),
);

export const PATCH = route(updateClaimEndpoint, ({ params, body, actor, deps }) =>
  updateClaim(deps, { body, claimId: params.id, ...actor }),
);
