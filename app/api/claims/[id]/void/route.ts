// POST /api/claims/{id}/void: create and submit a void of the claim (frequency 8) (claims:write, step-up).
import { route } from '@/lib/http/route';
import { requireClearinghouse } from '@/lib/deps';
import { voidClaimEndpoint } from '@/lib/claims/endpoints';
import { voidClaim } from '@/lib/claims/second-pass';

export const POST = route(voidClaimEndpoint, ({ params, body, actor, deps }) =>
  voidClaim({ ...deps, clearinghouse: requireClearinghouse(deps) }, { ...body, ...actor, claimId: params.id }),
);
