// POST /api/claims/submit: submit a draft claim or create one inline (claims:write, step-up, money).
import { route } from '@/lib/http/route';
import { submitClaimEndpoint } from '@/lib/claims/endpoints';
import { submitClaim } from '@/lib/claims/submit-claim';

export const POST = route(submitClaimEndpoint, ({ body, actor, deps }) => submitClaim(deps, { ...body, ...actor }));
