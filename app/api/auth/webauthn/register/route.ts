// POST /api/auth/webauthn/register: passkey registration, step options then verify (step-up gated).
import { route } from '@/lib/http/route';
import { runCeremonyStep } from '@/lib/http/ceremony-cookie';
import { renderPasskeyRegistration } from '@/lib/http/passkey-registration-response';
import { postPasskeyRegistration } from '@/lib/auth/endpoints';
import { registerPasskey } from '@/lib/auth/register-passkey';

export const POST = route(
  { ...postPasskeyRegistration, render: renderPasskeyRegistration },
  ({ body, principal, deps, correlationId, request }) =>
    runCeremonyStep(request, deps.config, { purpose: 'register', isVerify: body.step === 'verify' }, (sealedPointer) =>
      registerPasskey(deps, { principal, body, correlationId, sealedPointer }),
    ),
);
