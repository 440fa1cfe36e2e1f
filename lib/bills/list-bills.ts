// The clinic's patient bills, newest first (at most 100), each with its payments: the bills screen's list. A bill a
// remittance raised for a patient's responsibility names its claim.
import { z } from 'zod';
import type { Db } from '../db';
import { centsToNumber } from '../money/cents-to-number';
import { readPatientNames } from '../patients/patient-names';

export const BillList = z.object({
  bills: z.array(
    z.object({
      billId: z.string(),
      patientId: z.string(),
      /** "First Last"; null when the patient record is gone. Billing reads bills without patients:read. */
      patientName: z.string().nullable(),
      claimId: z.string().nullable(),
      amountCents: z.number().int(),
      paidCents: z.number().int(),
      status: z.enum(['open', 'paid']),
      createdAt: z.string(),
      /** Oldest first. */
      payments: z.array(
        z.object({ paymentId: z.string(), amountCents: z.number().int(), status: z.string(), createdAt: z.string() }),
      ),
    }),
  ),
});

export async function listBills(deps: { db: Db }, input: { clinicId: string }): Promise<z.infer<typeof BillList>> {
  const bills = await deps.db.patientBill.findMany({
    where: { clinicId: input.clinicId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: 100,
  });
  const payments = bills.length
    ? await deps.db.payment.findMany({
        where: { clinicId: input.clinicId, billId: { in: bills.map((b) => b.id) } },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      })
    : [];
  const patients = await readPatientNames(
    deps.db,
    input.clinicId,
    bills.map((b) => b.patientId),
  );
  return {
    bills: bills.map((bill) => ({
      billId: bill.id,
      patientId: bill.patientId,
      patientName: patients.get(bill.patientId)?.name ?? null,
      claimId: bill.claimId,
      amountCents: bill.amountCents,
      paidCents: bill.paidCents,
      status: bill.status === 'paid' ? ('paid' as const) : ('open' as const),
      createdAt: bill.createdAt.toISOString(),
      payments: payments
        .filter((p) => p.billId === bill.id)
        .map((p) => ({
          paymentId: p.id,
          amountCents: centsToNumber(p.amountCents),
          status: p.status,
          createdAt: p.createdAt.toISOString(),
        })),
    })),
  };
}
