// GET /api/auth/step-up: usable step-up factors. POST: re-authenticate and receive the 300 s step-up claim.
import { route } from '@/lib/http/route';
import { getStepUpFactors, postStepUp } from '@/lib/auth/endpoints';
import { describeStepUpFactors } from '@/lib/auth/describe-step-up-factors';
import { grantStepUp } from '@/lib/auth/grant-step-up';

export const GET = route(getStepUpFactors, ({ principal, deps }) => describeStepUpFactors(deps, { userId: principal.userId }));

export const POST = route(postStepUp, ({ body, principal, deps, correlationId, request }) =>
  grantStepUp(deps, { principal, body, correlationId, headers: request.headers }));
