// Withdrawing a batch that was built but not released before its effective entry date came. Released now, its
// file would reach the bank stale-dated (the ACH operator settles such entries at once, the same day, or the bank
// refuses them), so it can never be released; while it exists its instructions cannot go in another batch (an
// instruction is in one batch only) and its prenote holds the account as awaiting the bank. Withdrawing deletes
// it with its entries (nothing moved: pools give up advances only at release, and its file is served only once
// released), frees the account to carry a new prenote, and leaves the audit log as its record.
import type { Actor } from '../http/route';
import type { Prisma } from '../db';
import { recordAudit } from '../audit/record-audit';

export type WithdrawnBatch = { batchId: string; effectiveDate: string };

// FOR UPDATE: a release racing the withdrawal waits for it, then finds no batch (and a withdrawal waiting for a
// release finds the batch no longer `created`).
const LOCK_STALE = `SELECT "id" FROM "PayoutBatch"
  WHERE "clinicId" = $1 AND "status" = 'created' AND "effectiveDate" <= $2 AND ($3::text IS NULL OR "id" = $3)
  FOR UPDATE`;

/**
 * Withdraws the clinic's `created` batches whose effective date is `today` (New York) or earlier, or only
 * `batchId` when given. Idempotent: a batch already withdrawn, or released meanwhile, is left alone.
 */
export async function withdrawStaleBatches(
  tx: Prisma.TransactionClient,
  actor: Actor,
  input: { today: string; batchId?: string },
): Promise<WithdrawnBatch[]> {
  const { clinicId } = actor;
  const locked = await tx.$queryRawUnsafe<{ id: string }[]>(LOCK_STALE, clinicId, input.today, input.batchId ?? null);
  if (locked.length === 0) return [];
  const stale = await tx.payoutBatch.findMany({
    where: { id: { in: locked.map((row) => row.id) } },
    include: { entries: true },
  });
  for (const batch of stale) {
    await tx.payoutEntry.deleteMany({ where: { batchId: batch.id } });
    await tx.payoutBatch.delete({ where: { id: batch.id } });
    await tx.payoutAccount.updateMany({
      where: { clinicId, prenoteBatchId: batch.id },
      data: { prenoteBatchId: null },
    });
    await recordAudit(tx, {
      action: 'settlement.batch.withdraw',
      outcome: 'success',
      correlationId: actor.correlationId,
      userId: actor.userId,
      orgId: actor.orgId,
      clinicId,
      detail: {
        batchId: batch.id,
        traceNumber: batch.traceNumber,
        effectiveDate: batch.effectiveDate,
        reason: 'effective date reached before release',
        instructionIds: batch.entries.flatMap((entry) => (entry.instructionId ? [entry.instructionId] : [])),
        prenote: batch.entries.some((entry) => entry.prenote),
      },
    });
  }
  return stale.map((batch) => ({ batchId: batch.id, effectiveDate: batch.effectiveDate }));
}
