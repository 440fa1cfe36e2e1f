// Executing a settlement instruction: the disbursement. One conditional update moves the instruction from
// SIGNED to DISBURSED only while it is unexpired, its advance is positive, its pool (of the same clinic) is
// active and holds the advance, its encounter, if any, is cleared at the gate, and it is in no payout batch (that
// file pays it: lib/payouts). Under PostgreSQL's row lock any number of racing calls find at most one
// instruction still SIGNED, so it disburses once. In the same transaction the pool gives up the advance
// (conditionally again: it cannot go below zero) and the ledger posts it:
//   debit  assets:settlement-advances   advance   (owed back by the clinic from later claim payments)
//   credit assets:fbo                   residual  (paid out of the FBO account to the clinic on the rail)
//   credit revenue:platform-fees        fee
//   credit liabilities:reserve          reserve   (held back, owed to the clinic when released)
import { z } from 'zod';
import type { Deps } from '../deps';
import type { Prisma } from '../db';
import { AppError } from '../errors';
import { credit, debit, type LedgerLine } from '../ledger/build-posting';
import { recordEvent } from '../events/record-event';
import { recordAudit } from '../audit/record-audit';
import { LEDGER_ACCOUNTS } from '../ledger/ledger-accounts';
import { postLedgerTransaction } from '../ledger/post-ledger-transaction';
import { effectiveStatus, type InstructionView } from './instruction-view';
import { readInstruction } from './get-instruction';
import { GATE_CLEARED } from './clear-settlement-gate';

export const ExecuteInstructionBody = z.object({
  /** The rail's reference for this disbursement (e.g. the ACH trace or wire reference). */
  railReference: z.string().trim().min(1).max(200),
});

// Constant SQL; values are bound parameters.
const DISBURSE = `UPDATE "SettlementInstruction" i
  SET "status" = 'DISBURSED', "railReference" = $3, "disbursedAt" = $4, "paidAmountCents" = i."advanceAmountCents", "updatedAt" = $4
  WHERE i."id" = $1 AND i."clinicId" = $2 AND i."status" = 'SIGNED' AND i."expiresAt" > $4 AND i."advanceAmountCents" > 0
    AND NOT EXISTS (SELECT 1 FROM "PayoutEntry" e WHERE e."instructionId" = i."id")
    AND EXISTS (SELECT 1 FROM "SettlementPool" p
                WHERE p."id" = i."poolId" AND p."clinicId" = i."clinicId" AND p."status" = 'active' AND p."availableCents" >= i."advanceAmountCents")
    AND (i."encounterId" IS NULL OR EXISTS (SELECT 1 FROM "SettlementGate" g
                WHERE g."clinicId" = i."clinicId" AND g."encounterId" = i."encounterId" AND g."outcome" = '${GATE_CLEARED}'))
  RETURNING i."poolId", i."advanceAmountCents", i."feeCents", i."reserveCents", i."residualCents"`;

const TAKE_FROM_POOL = `UPDATE "SettlementPool"
  SET "availableCents" = "availableCents" - $3::bigint
  WHERE "id" = $1 AND "clinicId" = $2 AND "status" = 'active' AND "availableCents" >= $3::bigint`;

type Disbursed = {
  poolId: string;
  advanceAmountCents: bigint;
  feeCents: bigint;
  reserveCents: bigint;
  residualCents: bigint;
};

const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 15_000 };

/** Why DISBURSE matched nothing, as the error SPEC.md and DECISIONS.md give for it. */
async function refusalOf(
  tx: Prisma.TransactionClient,
  clinicId: string,
  instructionId: string,
  now: Date,
): Promise<AppError> {
  const row = await tx.settlementInstruction.findFirst({ where: { id: instructionId, clinicId } });
  if (!row) return new AppError('NOT_FOUND', 'No such settlement instruction');
  const status = effectiveStatus(row, now);
  if (status === 'DRAFT') return new AppError('UNPROCESSABLE', 'The instruction is not signed');
  if (status !== 'SIGNED') return new AppError('NOT_EXECUTABLE', `The instruction is ${status} and cannot be executed`);
  if (await tx.payoutEntry.findUnique({ where: { instructionId } }))
    return new AppError('NOT_EXECUTABLE', 'The instruction is in a payout batch: the bank file pays it');
  if (row.advanceAmountCents <= 0n)
    return new AppError('NOT_EXECUTABLE', 'The instruction has no positive advance to disburse');
  const pool = await tx.settlementPool.findFirst({ where: { id: row.poolId, clinicId } });
  if (!pool || pool.status !== 'active') return new AppError('NOT_EXECUTABLE', 'The settlement pool is not active');
  if (pool.availableCents < row.advanceAmountCents)
    return new AppError('NOT_EXECUTABLE', 'The settlement pool does not hold the advance');
  if (row.encounterId !== null) {
    const gate = await tx.settlementGate.findUnique({
      where: { clinicId_encounterId: { clinicId, encounterId: row.encounterId } },
    });
    if (gate?.outcome !== GATE_CLEARED)
      return new AppError('NOT_EXECUTABLE', 'The encounter has not been cleared at the settlement gate');
  }
  return new AppError('NOT_EXECUTABLE', 'The instruction cannot be executed now');
}

/**
 * @throws NOT_FOUND (404) outside the clinic; UNPROCESSABLE (422) for an unsigned DRAFT; NOT_EXECUTABLE (409)
 *   for DISBURSED, CANCELLED or EXPIRED, a non-positive advance, an inactive or short pool, or an encounter
 *   not cleared. Nothing is written when it throws.
 */
export async function executeInstruction(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: z.infer<typeof ExecuteInstructionBody> & {
    clinicId: string;
    orgId: string;
    userId: string;
    instructionId: string;
    correlationId: string;
  },
): Promise<InstructionView> {
  const { clinicId, instructionId, correlationId } = input;
  const now = deps.clock();
  return deps.db.$transaction(async (tx) => {
    const [disbursed] = await tx.$queryRawUnsafe<Disbursed[]>(
      DISBURSE,
      instructionId,
      clinicId,
      input.railReference,
      now,
    );
    if (!disbursed) throw await refusalOf(tx, clinicId, instructionId, now);

    const taken = await tx.$executeRawUnsafe(TAKE_FROM_POOL, disbursed.poolId, clinicId, disbursed.advanceAmountCents);
    // DISBURSE saw the funds; another instruction on the same pool may have taken them since. Roll back.
    if (taken !== 1) throw new AppError('NOT_EXECUTABLE', 'The settlement pool does not hold the advance');

    const lines: LedgerLine[] = [debit(LEDGER_ACCOUNTS.settlementAdvances, BigInt(disbursed.advanceAmountCents))];
    if (BigInt(disbursed.residualCents) > 0n) lines.push(credit(LEDGER_ACCOUNTS.fbo, BigInt(disbursed.residualCents)));
    if (BigInt(disbursed.feeCents) > 0n) lines.push(credit(LEDGER_ACCOUNTS.feeRevenue, BigInt(disbursed.feeCents)));
    if (BigInt(disbursed.reserveCents) > 0n)
      lines.push(credit(LEDGER_ACCOUNTS.reserve, BigInt(disbursed.reserveCents)));
    const ledgerTransactionId = await postLedgerTransaction(tx, {
      clinicId,
      kind: 'settlement.disbursement',
      reference: `settlement:${instructionId}`,
      correlationId,
      postedAt: now,
      lines,
    });
    await recordEvent(tx, {
      clinicId,
      type: 'payout.disbursed',
      objectId: instructionId,
      data: { instructionId, amountCents: Number(disbursed.advanceAmountCents), railReference: input.railReference },
      correlationId,
      at: now,
    });
    await recordAudit(tx, {
      action: 'settlement.instruction.execute',
      outcome: 'success',
      correlationId,
      userId: input.userId,
      orgId: input.orgId,
      clinicId,
      detail: { instructionId, railReference: input.railReference, ledgerTransactionId },
    });
    return readInstruction(tx, clinicId, instructionId, now);
  }, TRANSACTION_OPTIONS);
}
