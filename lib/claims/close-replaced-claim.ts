// When the payer accepts a replacement (frequency 7) or a void (8), the claim it acts on is done
// (DECISIONS "Claim lifecycle"): the original is `closed` with statusReason naming the replacement or the void, and
// an accepted void, which asks the payer for nothing more, is closed too. Money already posted is left alone: it
// moves only through 835s (a reversal). Runs inside the transaction that records the 277CA.
import type { Prisma } from '../db';
import { isClaimStatus, transitionClaim } from './claim-states';

export async function closeReplacedClaim(
  tx: Prisma.TransactionClient,
  input: { clinicId: string; claimId: string; correlationId: string; /** when the 277CA was recorded */ at: Date },
): Promise<void> {
  const { clinicId, claimId, correlationId, at } = input;
  const claim = await tx.claim.findFirst({
    where: { id: claimId, clinicId },
    select: { frequency: true, replacesClaimId: true },
  });
  if (!claim?.replacesClaimId || (claim.frequency !== '7' && claim.frequency !== '8')) return;
  const isVoid = claim.frequency === '8';
  const original = await tx.claim.findFirst({
    where: { id: claim.replacesClaimId, clinicId },
    select: { id: true, status: true },
  });
  if (original && isClaimStatus(original.status) && original.status !== 'closed') {
    await transitionClaim(tx, {
      clinicId,
      claimId: original.id,
      from: original.status,
      to: 'closed',
      kind: isVoid ? 'voided' : 'replaced',
      detail: isVoid ? { voidClaimId: claimId } : { replacementClaimId: claimId },
      correlationId,
      at,
      set: {
        statusReason: isVoid
          ? `Voided by claim ${claimId}, which the payer accepted`
          : `Replaced by claim ${claimId}, which the payer accepted`,
      },
    });
  }
  if (isVoid) {
    await transitionClaim(tx, {
      clinicId,
      claimId,
      from: 'accepted',
      to: 'closed',
      kind: 'void-accepted',
      detail: { voidedClaimId: claim.replacesClaimId },
      correlationId,
      at,
      set: { statusReason: `Void of claim ${claim.replacesClaimId}, accepted by the payer` },
    });
  }
}
