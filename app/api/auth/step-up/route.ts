// GET /api/auth/step-up: usable step-up factors. POST: re-authenticate and receive the 300 s step-up claim.
import { route } from '@/lib/http/route';
import { runCeremonyStep } from '@/lib/http/ceremony-cookie';
import { renderStepUpOutcome } from '@/lib/http/step-up-response';
import { getStepUpFactors, postStepUp } from '@/lib/auth/endpoints';
import { describeStepUpFactors } from '@/lib/auth/describe-step-up-factors';
import { grantStepUp } from '@/lib/auth/grant-step-up';

export const GET = route(getStepUpFactors, ({ principal, deps }) =>
  describeStepUpFactors(deps, { userId: principal.userId }),
);

export const POST = route(
  { ...postStepUp, render: renderStepUpOutcome },
  ({ body, principal, deps, correlationId, request }) =>
    runCeremonyStep(
      request,
      deps.config,
      { purpose: 'step-up', isVerify: body.factor === 'webauthn' && body.step === 'verify' },
      (sealedPointer) => grantStepUp(deps, { principal, body, correlationId, sealedPointer }),
    ),
);
