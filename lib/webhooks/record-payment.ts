// Records a partner payment (the Payment row, keyed by the partner's paymentId) only when its bill or claim
// belongs to the event's clinic, in one statement, so nothing is written for a payment that cannot apply.
// Explaining a refusal (why nothing was inserted) is a separate, rare read: findPaymentRefusal.
import type { Prisma } from '../db';
import { MAX_BILL_CENTS, type PaymentData, type PaymentTarget, paymentTargetOf } from './payment-data';

export type PaymentStatus = 'succeeded' | 'failed';

// The target must exist in the event's clinic. A bill must be able to hold the amount; a claim must have
// been submitted (a draft never reached a payer, so a payment naming one is misrouted).
const TARGET_CONDITION: Record<PaymentTarget['kind'], string> = {
  bill: `EXISTS (SELECT 1 FROM "PatientBill" b WHERE b."id" = $3 AND b."clinicId" = $2 AND b."paidCents" + $5::bigint <= ${MAX_BILL_CENTS})`,
  claim: `EXISTS (SELECT 1 FROM "Claim" c WHERE c."id" = $4 AND c."clinicId" = $2 AND c."status" <> 'draft')`,
};

/**
 * Inserts the Payment row with `status` when its target is in `clinicId` and the paymentId is new.
 * @returns true when inserted; false when the paymentId exists already or the target does not qualify.
 */
export async function insertPayment(tx: Prisma.TransactionClient, clinicId: string, data: PaymentData, status: PaymentStatus): Promise<boolean> {
  const target = paymentTargetOf(data);
  const count = await tx.$executeRawUnsafe(
    `INSERT INTO "Payment" ("id", "clinicId", "billId", "claimId", "amountCents", "currency", "status")
     SELECT $1, $2, $3, $4, $5::bigint, $6, $7 WHERE ${TARGET_CONDITION[target.kind]}
     ON CONFLICT ("id") DO NOTHING`,
    data.paymentId, clinicId, data.billId ?? null, data.claimId ?? null, BigInt(data.amountCents), data.currency, status,
  );
  return count === 1;
}

/** Why insertPayment inserted nothing: the payment exists (with its row), or the target does not qualify. */
export async function findPaymentRefusal(
  tx: Prisma.TransactionClient,
  clinicId: string,
  data: PaymentData,
): Promise<{ kind: 'payment-exists'; payment: { clinicId: string; billId: string | null; claimId: string | null; status: string; amountCents: bigint } } | { kind: 'target'; reason: string }> {
  const payment = await tx.payment.findUnique({ where: { id: data.paymentId } });
  if (payment) return { kind: 'payment-exists', payment };
  const target = paymentTargetOf(data);
  if (target.kind === 'bill') {
    const bill = await tx.patientBill.findFirst({ where: { id: target.billId, clinicId } });
    if (!bill) return { kind: 'target', reason: 'bill not found in this clinic' };
    return { kind: 'target', reason: 'amount exceeds what the bill can record' };
  }
  const claim = await tx.claim.findFirst({ where: { id: target.claimId, clinicId } });
  if (!claim) return { kind: 'target', reason: 'claim not found in this clinic' };
  return { kind: 'target', reason: 'claim has not been submitted' };
}

/**
 * A payment the partner reported as failed and now reports as succeeded (a retry under the same paymentId)
 * becomes succeeded, once, when it still names the same target and that target still qualifies.
 * @returns true when this call made the change.
 */
export async function promoteFailedPayment(tx: Prisma.TransactionClient, clinicId: string, data: PaymentData): Promise<boolean> {
  const target = paymentTargetOf(data);
  const count = await tx.$executeRawUnsafe(
    `UPDATE "Payment" SET "status" = 'succeeded', "amountCents" = $5::bigint
     WHERE "id" = $1 AND "clinicId" = $2 AND "status" = 'failed'
       AND "billId" IS NOT DISTINCT FROM $3 AND "claimId" IS NOT DISTINCT FROM $4 AND ${TARGET_CONDITION[target.kind]}`,
    data.paymentId, clinicId, data.billId ?? null, data.claimId ?? null, BigInt(data.amountCents),
  );
  return count === 1;
}
