// POST /api/auth/webauthn/register: passkey registration, step options then verify (step-up gated).
import { route } from '@/lib/http/route';
import { postPasskeyRegistration } from '@/lib/auth/endpoints';
import { registerPasskey } from '@/lib/auth/register-passkey';

export const POST = route(postPasskeyRegistration, ({ body, principal, deps, correlationId, request }) =>
  registerPasskey(deps, { principal, body, correlationId, headers: request.headers }));
