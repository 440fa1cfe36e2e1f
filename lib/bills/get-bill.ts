// One patient bill of the caller's clinic with what has been paid on it and the ledger transactions that
// posted those payments, so each payment's effect is visible exactly once (DECISIONS.md, Settlement and claims).
import { z } from 'zod';
import type { Db } from '../db';
import { AppError } from '../errors';

export const BillParams = z.object({ id: z.string().trim().min(1).max(200) });

export const BillView = z.object({
  billId: z.string(),
  patientId: z.string(),
  amountCents: z.number().int(),
  paidCents: z.number().int(),
  status: z.enum(['open', 'paid']),
  /** Oldest first: one per succeeded payment applied to this bill. */
  ledgerTransactionIds: z.array(z.string()),
});

/** @throws NOT_FOUND (404) unless the bill belongs to `clinicId`. */
export async function getBill(
  deps: { db: Db },
  input: { clinicId: string; billId: string },
): Promise<z.infer<typeof BillView>> {
  const { db } = deps;
  const bill = await db.patientBill.findFirst({ where: { id: input.billId, clinicId: input.clinicId } });
  if (!bill) throw new AppError('NOT_FOUND', 'No such bill');
  const payments = await db.payment.findMany({
    where: { billId: bill.id, clinicId: input.clinicId, status: 'succeeded' },
    select: { id: true },
  });
  const postings = payments.length
    ? await db.ledgerTransaction.findMany({
        where: {
          clinicId: input.clinicId,
          kind: 'payment.succeeded',
          reference: { in: payments.map((p) => `payment:${p.id}`) },
        },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        select: { id: true },
      })
    : [];
  return {
    billId: bill.id,
    patientId: bill.patientId,
    amountCents: bill.amountCents,
    paidCents: bill.paidCents,
    status: bill.status === 'paid' ? 'paid' : 'open',
    ledgerTransactionIds: postings.map((p) => p.id),
  };
}
