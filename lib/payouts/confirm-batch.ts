// The bank's confirmation of a released batch: a banking.transaction.posted debit whose railReference is the
// batch's trace number. In the webhook's transaction, one conditional update moves the batch from `released` to
// `confirmed` (a re-delivery or a second posting finds it confirmed and changes nothing); every instruction in
// it moves SIGNED → DISBURSED exactly once (conditional again) and the ledger posts its disbursement exactly as
// the console's execute does (lib/settlements/execute-instruction.ts):
//   debit assets:settlement-advances advance; credit assets:fbo residual (the entry's amount);
//   credit revenue:platform-fees fee; credit liabilities:reserve reserve.
// The pools gave up the advances at release. A prenote carried in the batch verifies the clinic's payout account. The amount the bank posted is kept: reconciliation compares it with the batch total.
import type { Prisma } from '../db';
import { credit, debit, type LedgerLine } from '../ledger/build-posting';
import { LEDGER_ACCOUNTS } from '../ledger/ledger-accounts';
import { postLedgerTransaction } from '../ledger/post-ledger-transaction';
import { recordEvent } from '../events/record-event';

/** The ledger reference of an instruction's disbursement, which a return reverses. */
export const disbursementReference = (instructionId: string) => `settlement:${instructionId}`;

const CONFIRM = `UPDATE "PayoutBatch" SET "status" = 'confirmed', "confirmedAt" = $3, "confirmedCents" = $4::bigint
  WHERE "clinicId" = $1 AND "traceNumber" = $2 AND "status" = 'released' RETURNING "id"`;
const DISBURSE = `UPDATE "SettlementInstruction" i
  SET "status" = 'DISBURSED', "railReference" = e."traceNumber", "disbursedAt" = $3,
      "paidAmountCents" = i."advanceAmountCents", "updatedAt" = $3
  FROM "PayoutEntry" e
  WHERE e."batchId" = $1 AND e."instructionId" = i."id" AND i."clinicId" = $2 AND i."status" = 'SIGNED'
  RETURNING i."id", i."advanceAmountCents", i."feeCents", i."reserveCents", i."residualCents"`;

type Disbursed = {
  id: string;
  advanceAmountCents: bigint;
  feeCents: bigint;
  reserveCents: bigint;
  residualCents: bigint;
};

function disbursementLines(row: Disbursed): LedgerLine[] {
  const lines: LedgerLine[] = [debit(LEDGER_ACCOUNTS.settlementAdvances, BigInt(row.advanceAmountCents))];
  if (BigInt(row.residualCents) > 0n) lines.push(credit(LEDGER_ACCOUNTS.fbo, BigInt(row.residualCents)));
  if (BigInt(row.feeCents) > 0n) lines.push(credit(LEDGER_ACCOUNTS.feeRevenue, BigInt(row.feeCents)));
  if (BigInt(row.reserveCents) > 0n) lines.push(credit(LEDGER_ACCOUNTS.reserve, BigInt(row.reserveCents)));
  return lines;
}

/** Whether the posting confirmed a batch now (false: no released batch has that trace). */
export async function confirmPayoutBatch(
  tx: Prisma.TransactionClient,
  input: { clinicId: string; traceNumber: string; amountCents: bigint; postedAt: Date; correlationId: string },
): Promise<{ batchId: string; disbursedInstructionIds: string[] } | null> {
  const [confirmed] = await tx.$queryRawUnsafe<{ id: string }[]>(
    CONFIRM,
    input.clinicId,
    input.traceNumber,
    input.postedAt,
    input.amountCents,
  );
  if (!confirmed) return null;
  const disbursed = await tx.$queryRawUnsafe<Disbursed[]>(DISBURSE, confirmed.id, input.clinicId, input.postedAt);
  for (const row of disbursed) {
    await postLedgerTransaction(tx, {
      clinicId: input.clinicId,
      kind: 'settlement.disbursement',
      reference: disbursementReference(row.id),
      correlationId: input.correlationId,
      postedAt: input.postedAt,
      lines: disbursementLines(row),
    });
    await recordEvent(tx, {
      clinicId: input.clinicId,
      type: 'payout.disbursed',
      objectId: row.id,
      data: { instructionId: row.id, amountCents: Number(row.advanceAmountCents), railReference: input.traceNumber },
      correlationId: input.correlationId,
      at: input.postedAt,
    });
  }
  await tx.payoutAccount.updateMany({
    where: { clinicId: input.clinicId, prenoteBatchId: confirmed.id, verifiedAt: null },
    data: { verifiedAt: input.postedAt },
  });
  return { batchId: confirmed.id, disbursedInstructionIds: disbursed.map((row) => row.id) };
}
