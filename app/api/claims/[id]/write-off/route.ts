// POST /api/claims/{id}/write-off: write off part or all of a claim's balance (svcpay:write, step-up).
import { route } from '@/lib/http/route';
import { writeOffClaimEndpoint } from '@/lib/claims/endpoints';
import { writeOffClaim } from '@/lib/claims/write-off-claim';

export const POST = route(writeOffClaimEndpoint, ({ params, body, actor, deps }) =>
  writeOffClaim(deps, { ...body, ...actor, claimId: params.id }),
);
