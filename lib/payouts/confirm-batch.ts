// The bank's confirmation of a released batch: a banking.transaction.posted debit whose railReference is the
// batch's trace number. In the webhook's transaction, one conditional update moves the batch from `released` to
// `confirmed` (a re-delivery or a second posting finds it confirmed and changes nothing); every instruction in
// it moves SIGNED → DISBURSED exactly once (conditional again), and a prenote carried in it verifies the clinic's
// payout account. The amount the bank posted is kept: reconciliation compares it with the batch total.
import type { Prisma } from '../db';

const CONFIRM = `UPDATE "PayoutBatch" SET "status" = 'confirmed', "confirmedAt" = $3, "confirmedCents" = $4::bigint
  WHERE "clinicId" = $1 AND "traceNumber" = $2 AND "status" = 'released' RETURNING "id"`;
const DISBURSE = `UPDATE "SettlementInstruction" i
  SET "status" = 'DISBURSED', "railReference" = e."traceNumber", "disbursedAt" = $3,
      "paidAmountCents" = i."advanceAmountCents", "updatedAt" = $3
  FROM "PayoutEntry" e
  WHERE e."batchId" = $1 AND e."instructionId" = i."id" AND i."clinicId" = $2 AND i."status" = 'SIGNED'
  RETURNING i."id"`;

/** Whether the posting confirmed a batch now (false: no released batch has that trace). */
export async function confirmPayoutBatch(
  tx: Prisma.TransactionClient,
  input: { clinicId: string; traceNumber: string; amountCents: bigint; postedAt: Date },
): Promise<{ batchId: string; disbursedInstructionIds: string[] } | null> {
  const [confirmed] = await tx.$queryRawUnsafe<{ id: string }[]>(
    CONFIRM,
    input.clinicId,
    input.traceNumber,
    input.postedAt,
    input.amountCents,
  );
  if (!confirmed) return null;
  const disbursed = await tx.$queryRawUnsafe<{ id: string }[]>(DISBURSE, confirmed.id, input.clinicId, input.postedAt);
  await tx.payoutAccount.updateMany({
    where: { clinicId: input.clinicId, prenoteBatchId: confirmed.id, verifiedAt: null },
    data: { verifiedAt: input.postedAt },
  });
  return { batchId: confirmed.id, disbursedInstructionIds: disbursed.map((row) => row.id) };
}
