// DELETE /api/auth/webauthn/credentials/{id}: removes one of the caller's passkeys (step-up gated).
import { route } from '@/lib/http/route';
import { noContent } from '@/lib/http/responses';
import { deletePasskey } from '@/lib/auth/endpoints';
import { removePasskey } from '@/lib/auth/remove-passkey';

export const DELETE = route(deletePasskey, async ({ params, principal, deps, correlationId }) => {
  await removePasskey(deps, { principal, credentialId: params.id, correlationId });
  return noContent();
});
