// POST /api/claims/{id}/correct: create and submit a replacement claim (frequency 7) (claims:write, step-up).
import { route } from '@/lib/http/route';
import { requireClearinghouse } from '@/lib/deps';
import { correctClaimEndpoint } from '@/lib/claims/endpoints';
import { correctClaim } from '@/lib/claims/second-pass';

export const POST = route(correctClaimEndpoint, ({ params, body, actor, deps }) =>
  correctClaim({ ...deps, clearinghouse: requireClearinghouse(deps) }, { ...body, ...actor, claimId: params.id }),
);
