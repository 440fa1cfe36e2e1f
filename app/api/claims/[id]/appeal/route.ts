// POST /api/claims/{id}/appeal: appeal a denied or partially paid claim (claims:write, step-up).
import { route } from '@/lib/http/route';
import { appealClaimEndpoint } from '@/lib/claims/endpoints';
import { appealClaim } from '@/lib/claims/appeal-claim';

export const POST = route(appealClaimEndpoint, ({ params, body, actor, deps }) =>
  appealClaim(deps, { ...body, ...actor, claimId: params.id }),
);
