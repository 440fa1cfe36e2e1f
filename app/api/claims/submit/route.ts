// POST /api/claims/submit: scrub and send a draft claim, or one created inline, through the clearinghouse
// (claims:write, step-up, money). The clearinghouse is required first: production without one is 503, zero calls.
import { route } from '@/lib/http/route';
import { requireClearinghouse } from '@/lib/deps';
import { submitClaimEndpoint } from '@/lib/claims/endpoints';
import { submitClaim } from '@/lib/claims/submit-claim';

export const POST = route(submitClaimEndpoint, ({ body, actor, deps }) =>
  submitClaim({ ...deps, clearinghouse: requireClearinghouse(deps) }, { ...body, ...actor }),
);
