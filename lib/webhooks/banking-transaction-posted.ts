// banking.transaction.posted: the bank reports a movement on the FBO account's rail. Records the RailPosting
// (keyed by the bank's transactionId) that nightly reconciliation compares with the ledger. A credit whose
// railReference is a posted 835's TRN02 is that remittance's deposit: when the amounts agree it is reassociated
// in the same transaction (lib/remittances/reassociate.ts); otherwise reconciliation raises the variance. A debit
// whose railReference is a released payout batch's trace number is the bank's confirmation of that batch
// (lib/payouts/confirm-batch.ts).
// A clinic's postings of one UTC day are capped in total so reconciliation's rail figure stays a safe integer.
import { z } from 'zod';
import type { Prisma } from '../db';
import { amountTooLargeMessage, MAX_AMOUNT_CENTS, MAX_RAIL_DAY_CENTS } from '../money/cents';
import { reassociate } from '../remittances/reassociate';
import { confirmPayoutBatch } from '../payouts/confirm-batch';
import { applied, defineEffect, recorded, rejected } from './event-effect';

export const BankingTransactionPostedData = z.object({
  transactionId: z.string().min(1).max(200),
  amountCents: z
    .number()
    .int('amountCents must be an integer number of cents')
    // Zero is the bank's confirmation of a prenote-only payout batch (DECISIONS "Money out").
    .nonnegative()
    .max(MAX_AMOUNT_CENTS, amountTooLargeMessage('amountCents')),
  /** credit: money into the FBO account; debit: money out of it. */
  direction: z.enum(['credit', 'debit']),
  postedAt: z.iso.datetime({ offset: true, message: 'postedAt must be an ISO-8601 timestamp' }),
  railReference: z.string().min(1).max(200),
});

// Serialises one clinic's rail postings (and checks the clinic exists) for the rest of the delivery's
// transaction, so the day total read next cannot be outdated by a concurrent posting before this one commits.
// NO KEY UPDATE: rows that merely reference the clinic are not blocked.
const LOCK_CLINIC = 'SELECT "id" FROM "Clinic" WHERE "id" = $1 FOR NO KEY UPDATE';
const DAY_TOTAL = `SELECT COALESCE(SUM("amountCents"), 0)::bigint AS "cents" FROM "RailPosting"
  WHERE "clinicId" = $1 AND "postedAt" >= $2 AND "postedAt" < $3`;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Whether the clinic's rail postings of that UTC day, this one included, stay within MAX_RAIL_DAY_CENTS in
 * absolute value: reconciliation reports their net per (clinic, day), and any number of them may arrive, so
 * the total is capped where they are written (lib/money/cents.ts says why half the safe sum).
 */
async function fitsDayTotal(
  tx: Prisma.TransactionClient,
  clinicId: string,
  postedAt: Date,
  amountCents: bigint,
): Promise<boolean> {
  const from = Math.floor(postedAt.getTime() / DAY_MS) * DAY_MS;
  const [day] = await tx.$queryRawUnsafe<{ cents: bigint }[]>(
    DAY_TOTAL,
    clinicId,
    new Date(from),
    new Date(from + DAY_MS),
  );
  return BigInt(day?.cents ?? 0n) + amountCents <= BigInt(MAX_RAIL_DAY_CENTS);
}

export const bankingTransactionPosted = defineEffect({
  receiver: 'banking',
  data: BankingTransactionPostedData,
  async apply(tx, { clinicId, data, correlationId }) {
    const clinic = await tx.$queryRawUnsafe<{ id: string }[]>(LOCK_CLINIC, clinicId);
    if (clinic.length === 0) return rejected('unknown clinic');
    const existing = await tx.railPosting.findUnique({ where: { id: data.transactionId }, select: { clinicId: true } });
    if (existing)
      return existing.clinicId === clinicId
        ? recorded('rail posting already recorded')
        : rejected('rail posting belongs to another clinic');
    const postedAt = new Date(data.postedAt);
    const amountCents = BigInt(data.amountCents);
    if (!(await fitsDayTotal(tx, clinicId, postedAt, amountCents)))
      return rejected("the day's rail postings exceed what reconciliation can total");
    const { count } = await tx.railPosting.createMany({
      data: [
        {
          id: data.transactionId,
          clinicId,
          amountCents,
          direction: data.direction,
          postedAt,
          railReference: data.railReference,
        },
      ],
      skipDuplicates: true,
    });
    if (count !== 1) return recorded('rail posting already recorded');
    if (data.direction === 'credit')
      await reassociate(tx, { clinicId, traceNumber: data.railReference, correlationId });
    else
      await confirmPayoutBatch(tx, { clinicId, traceNumber: data.railReference, amountCents, postedAt, correlationId });
    return applied();
  },
});
