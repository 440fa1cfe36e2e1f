// banking.transaction.posted: the bank reports a movement on the FBO account's rail. Records the RailPosting
// (keyed by the bank's transactionId) that nightly reconciliation compares with the ledger. Moves no money.
import { z } from 'zod';
import { applied, defineEffect, recorded, rejected } from './event-effect';

export const BankingTransactionPostedData = z.object({
  transactionId: z.string().min(1).max(200),
  amountCents: z.number().int('amountCents must be an integer number of cents').positive().max(Number.MAX_SAFE_INTEGER),
  /** credit: money into the FBO account; debit: money out of it. */
  direction: z.enum(['credit', 'debit']),
  postedAt: z.iso.datetime({ offset: true, message: 'postedAt must be an ISO-8601 timestamp' }),
  railReference: z.string().min(1).max(200),
});

export const bankingTransactionPosted = defineEffect({
  receiver: 'banking',
  data: BankingTransactionPostedData,
  async apply(tx, { clinicId, data }) {
    const clinic = await tx.clinic.findUnique({ where: { id: clinicId }, select: { id: true } });
    if (!clinic) return rejected('unknown clinic');
    const existing = await tx.railPosting.findUnique({ where: { id: data.transactionId }, select: { clinicId: true } });
    if (existing) return existing.clinicId === clinicId ? recorded('rail posting already recorded') : rejected('rail posting belongs to another clinic');
    const { count } = await tx.railPosting.createMany({
      data: [{
        id: data.transactionId, clinicId, amountCents: BigInt(data.amountCents), direction: data.direction,
        postedAt: new Date(data.postedAt), railReference: data.railReference,
      }],
      skipDuplicates: true,
    });
    return count === 1 ? applied() : recorded('rail posting already recorded');
  },
});
