// POST /api/claims/{id}/secondary: create and submit the secondary claim of a primary (claims:write, step-up).
import { route } from '@/lib/http/route';
import { requireClearinghouse } from '@/lib/deps';
import { secondaryClaimEndpoint } from '@/lib/claims/endpoints';
import { billSecondary } from '@/lib/claims/second-pass';

export const POST = route(secondaryClaimEndpoint, ({ params, body, actor, deps }) =>
  billSecondary({ ...deps, clearinghouse: requireClearinghouse(deps) }, { ...body, ...actor, claimId: params.id }),
);
