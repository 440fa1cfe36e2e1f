// DELETE /api/auth/webauthn/credentials/{id} (step-up gated by the route): removes one of the caller's own
// passkeys. Another user's passkey id is answered exactly like an unknown one (404), so ids reveal nothing.
import type { Db } from '../db';
import { AppError } from '../errors';
import { recordAudit } from '../audit/record-audit';
import type { Principal } from './principal';

export async function removePasskey(
  deps: { db: Db },
  input: { principal: Principal; credentialId: string; correlationId: string },
): Promise<void> {
  const { principal, credentialId, correlationId } = input;
  const entry = {
    action: 'passkey.remove',
    correlationId,
    userId: principal.userId,
    orgId: principal.orgId,
    clinicId: principal.clinicId,
    detail: { credentialId },
  };
  const removed = await deps.db.$transaction(async (tx) => {
    const { count } = await tx.webAuthnCredential.deleteMany({ where: { id: credentialId, userId: principal.userId } });
    if (count === 1) await recordAudit(tx, { ...entry, outcome: 'success' });
    return count === 1;
  });
  if (!removed) {
    await recordAudit(deps.db, { ...entry, outcome: 'refused', detail: { credentialId, reason: 'not-found' } });
    throw new AppError('NOT_FOUND', 'No such passkey');
  }
}
