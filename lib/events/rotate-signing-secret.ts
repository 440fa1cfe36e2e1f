// POST /api/webhook-endpoints/{id}/rotate-secret (step-up): a new secret, answered once; the old one keeps
// signing beside it for 24 h so the receiver can switch without missing a delivery. Rotating again during those
// 24 h drops the oldest: only the secret being replaced stays live.
import { z } from 'zod';
import type { Deps } from '../deps';
import { requireSealKey } from '../config';
import { recordAudit } from '../audit/record-audit';
import { AppError } from '../errors';
import { newSigningSecret, sealSigningSecret, unsealSigningSecret } from './signing-secret';
import { findClinicEndpoint } from './webhook-endpoint-view';

export const PREVIOUS_SECRET_MS = 24 * 3_600_000;

export const RotatedSecret = z.object({ secret: z.string(), previousSecretExpiresAt: z.string() });

export async function rotateSigningSecret(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  input: { id: string; clinicId: string; userId: string; correlationId: string },
): Promise<z.infer<typeof RotatedSecret>> {
  const sealKey = requireSealKey(deps.config);
  const current = await findClinicEndpoint(deps.db, input);
  const secret = newSigningSecret();
  const expiresAt = new Date(deps.clock().getTime() + PREVIOUS_SECRET_MS);
  await deps.db.$transaction(async (tx) => {
    // The secret being replaced is read under the row's lock: of two rotations at once, the second replaces the
    // first's new secret (which keeps signing for 24 h) instead of both replacing the same one, which would leave
    // a secret shown to its caller that never signs.
    const [locked] = await tx.$queryRaw<{ secretSealed: string }[]>`
      SELECT "secretSealed" FROM "WebhookEndpoint" WHERE "id" = ${current.id} FOR UPDATE`;
    if (!locked) throw new AppError('NOT_FOUND', 'No such webhook endpoint'); // deleted meanwhile
    // Re-sealed as it is (same context): unsealing first proves the stored value is intact before it is kept.
    const previous = unsealSigningSecret(locked.secretSealed, sealKey, current.id);
    await tx.webhookEndpoint.update({
      where: { id: current.id },
      data: {
        secretSealed: sealSigningSecret(secret, sealKey, current.id),
        previousSecretSealed: sealSigningSecret(previous, sealKey, current.id),
        previousSecretExpiresAt: expiresAt,
      },
    });
    await recordAudit(tx, {
      action: 'webhook-endpoint.rotate-secret',
      outcome: 'success',
      correlationId: input.correlationId,
      userId: input.userId,
      clinicId: input.clinicId,
      detail: { endpointId: current.id, previousSecretExpiresAt: expiresAt.toISOString() },
    });
  });
  return { secret, previousSecretExpiresAt: expiresAt.toISOString() };
}
