// An ACH return (R01 insufficient funds, R03 no account, ...) of one payout entry. One conditional update marks
// the entry returned (only once, only in a released or confirmed batch); in the same transaction the
// instruction's disbursement is reversed line for line in the ledger (when the bank confirmed it first), its
// advance goes back to its pool and the instruction becomes RETURNED. A second delivery of the same return finds
// the entry already returned.
// A prenote pays no instruction, so its return names no instructionId: the railReference, its entry's trace number,
// names it. Whatever the code, the account it proved is not one the bank can credit, so the account loses its
// verification (if it is still the account that prenote proved) and the next batch carries a new prenote.
import type { Prisma } from '../db';
import { postLedgerTransaction } from '../ledger/post-ledger-transaction';
import { recordEvent } from '../events/record-event';
import { disbursementReference } from './confirm-batch';

const MARK_RETURNED = `UPDATE "PayoutEntry" e SET "returnCode" = $3, "returnedAt" = $4
  FROM "PayoutBatch" b
  WHERE e."batchId" = b."id" AND e."clinicId" = $1 AND e."instructionId" = $2 AND e."returnedAt" IS NULL
    AND b."status" IN ('released', 'confirmed') AND $5 IN (e."traceNumber", b."traceNumber")
  RETURNING e."amountCents"`;
const MARK_PRENOTE_RETURNED = `UPDATE "PayoutEntry" e SET "returnCode" = $3, "returnedAt" = $4
  FROM "PayoutBatch" b
  WHERE e."batchId" = b."id" AND e."clinicId" = $1 AND e."traceNumber" = $2 AND e."prenote"
    AND e."returnedAt" IS NULL AND b."status" IN ('released', 'confirmed')
  RETURNING e."batchId"`;
const GIVE_BACK = `UPDATE "SettlementPool" SET "availableCents" = "availableCents" + $3::bigint
  WHERE "id" = $1 AND "clinicId" = $2`;

export type ReturnOutcome = 'returned' | 'already-returned' | 'unknown-entry';

type ReturnInput = {
  clinicId: string;
  railReference: string;
  returnCode: string;
  amountCents: bigint;
  at: Date;
  correlationId: string;
};

/** A prenote's return: marks its entry once and sends the account it proved back to needing a prenote. */
async function returnPrenote(tx: Prisma.TransactionClient, input: ReturnInput): Promise<ReturnOutcome> {
  const { clinicId, railReference } = input;
  const [marked] = await tx.$queryRawUnsafe<{ batchId: string }[]>(
    MARK_PRENOTE_RETURNED,
    clinicId,
    railReference,
    input.returnCode,
    input.at,
  );
  if (!marked) {
    const entry = await tx.payoutEntry.findFirst({ where: { clinicId, traceNumber: railReference, prenote: true } });
    return entry?.returnedAt ? 'already-returned' : 'unknown-entry';
  }
  // Only while the account is still the one this prenote went to: a replaced account awaits its own prenote.
  await tx.payoutAccount.updateMany({
    where: { clinicId, prenoteBatchId: marked.batchId },
    data: { verifiedAt: null, prenoteBatchId: null },
  });
  return 'returned';
}

/** `instructionId` null: the return of a prenote, named by its entry's trace number (`railReference`). */
export async function returnPayout(
  tx: Prisma.TransactionClient,
  input: ReturnInput & { instructionId: string | null },
): Promise<ReturnOutcome> {
  if (input.instructionId === null) return returnPrenote(tx, input);
  return returnInstruction(tx, { ...input, instructionId: input.instructionId });
}

async function returnInstruction(
  tx: Prisma.TransactionClient,
  input: ReturnInput & { instructionId: string },
): Promise<ReturnOutcome> {
  const { clinicId, instructionId } = input;
  const marked = await tx.$queryRawUnsafe<{ amountCents: bigint }[]>(
    MARK_RETURNED,
    clinicId,
    instructionId,
    input.returnCode,
    input.at,
    input.railReference,
  );
  if (marked.length === 0) {
    const entry = await tx.payoutEntry.findFirst({ where: { clinicId, instructionId } });
    return entry?.returnedAt ? 'already-returned' : 'unknown-entry';
  }
  const instruction = await tx.settlementInstruction.findFirstOrThrow({ where: { id: instructionId, clinicId } });
  const disbursement = await tx.ledgerTransaction.findFirst({
    where: { clinicId, kind: 'settlement.disbursement', reference: disbursementReference(instructionId) },
    include: { entries: true },
  });
  if (disbursement)
    await postLedgerTransaction(tx, {
      clinicId,
      kind: 'settlement.return',
      reference: `settlement-return:${instructionId}:${input.returnCode}`,
      correlationId: input.correlationId,
      postedAt: input.at,
      lines: disbursement.entries.map((line) => ({ account: line.account, amountCents: -line.amountCents })),
    });
  await tx.$executeRawUnsafe(GIVE_BACK, instruction.poolId, clinicId, instruction.advanceAmountCents);
  await tx.settlementInstruction.update({
    where: { id: instructionId },
    data: { status: 'RETURNED', updatedAt: input.at },
  });
  await recordEvent(tx, {
    clinicId,
    type: 'payout.returned',
    objectId: instructionId,
    data: { instructionId, amountCents: Number(marked[0]!.amountCents), returnCode: input.returnCode },
    correlationId: input.correlationId,
    at: input.at,
  });
  return 'returned';
}
