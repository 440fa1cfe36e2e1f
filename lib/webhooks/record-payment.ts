// Writes a partner payment: the Payment row (keyed by the partner's paymentId) and, for a success, the money on
// its bill or claim, in ONE statement, and only when that bill or claim belongs to the event's clinic. A
// statement that matched nothing wrote nothing; findPaymentRefusal then explains why (a separate, rare read).
// All SQL here is constant text; every value is a bound parameter.
import type { Prisma } from '../db';
import { MAX_BILL_CENTS, MAX_CLAIM_PAID_CENTS, type PaymentData, type PaymentTarget, paymentTargetOf } from './payment-data';

/** The target after the payment was added: what it is owed in total and what has been paid now. */
export type AppliedPayment = { owedCents: bigint; paidCents: bigint };

// $1 paymentId, $2 clinicId, $3 billId, $4 claimId, $5 amountCents.
// A bill must be able to hold the amount (paidCents is a 32-bit column: refused, never truncated); a claim
// must have been submitted (a draft never reached a payer, so a payment naming one is misrouted) and able to
// hold the amount under MAX_CLAIM_PAID_CENTS, so the total GET /api/claims reports stays a safe integer.
const TARGET_QUALIFIES: Record<PaymentTarget['kind'], string> = {
  bill: `EXISTS (SELECT 1 FROM "PatientBill" b WHERE b."id" = $3 AND b."clinicId" = $2 AND b."paidCents" + $5::bigint <= ${MAX_BILL_CENTS})`,
  claim: `EXISTS (SELECT 1 FROM "Claim" c WHERE c."id" = $4 AND c."clinicId" = $2 AND c."status" <> 'draft' AND c."paidCents" + $5::bigint <= ${MAX_CLAIM_PAID_CENTS})`,
};

// Adds the amount and sets the status from the new total in one UPDATE, under the row lock, so concurrent
// payments of one bill cannot lose an update. Partial payments accumulate; paid once paidCents reaches
// what is owed ($6 is the update time). Runs only when the CTE `payment` produced a row. The amount stays
// bigint until the row qualifies: casting the parameter itself to int would fail before the WHERE decides.
const ADD_TO_TARGET: Record<PaymentTarget['kind'], string> = {
  bill: `UPDATE "PatientBill"
    SET "paidCents" = ("paidCents" + $5::bigint)::int,
        "status" = CASE WHEN "paidCents" + $5::bigint >= "amountCents" THEN 'paid' ELSE 'open' END, "updatedAt" = $6
    WHERE "id" = $3 AND "clinicId" = $2 AND EXISTS (SELECT 1 FROM payment)
    RETURNING "amountCents"::bigint AS "owedCents", "paidCents"::bigint AS "paidCents"`,
  claim: `UPDATE "Claim"
    SET "paidCents" = "paidCents" + $5::bigint,
        "status" = CASE WHEN "paidCents" + $5::bigint >= "totalChargeCents" THEN 'paid' ELSE "status" END, "updatedAt" = $6
    WHERE "id" = $4 AND "clinicId" = $2 AND EXISTS (SELECT 1 FROM payment)
    RETURNING "totalChargeCents" AS "owedCents", "paidCents"`,
};

/** Exported for bench/webhook-ingest, which sends this exact statement directly through pg. */
export const RECORD_SUCCEEDED = (kind: PaymentTarget['kind']) => `WITH payment AS (
    INSERT INTO "Payment" ("id", "clinicId", "billId", "claimId", "amountCents", "currency", "status")
    SELECT $1, $2, $3, $4, $5::bigint, 'USD', 'succeeded' WHERE ${TARGET_QUALIFIES[kind]}
    ON CONFLICT ("id") DO NOTHING RETURNING 1
  ) ${ADD_TO_TARGET[kind]}`;

const PROMOTE_FAILED = (kind: PaymentTarget['kind']) => `WITH payment AS (
    UPDATE "Payment" SET "status" = 'succeeded', "amountCents" = $5::bigint
    WHERE "id" = $1 AND "clinicId" = $2 AND "status" = 'failed'
      AND "billId" IS NOT DISTINCT FROM $3 AND "claimId" IS NOT DISTINCT FROM $4 AND ${TARGET_QUALIFIES[kind]}
    RETURNING 1
  ) ${ADD_TO_TARGET[kind]}`;

const RECORD_FAILED = (kind: PaymentTarget['kind']) => `INSERT INTO "Payment" ("id", "clinicId", "billId", "claimId", "amountCents", "currency", "status")
  SELECT $1, $2, $3, $4, $5::bigint, 'USD', 'failed' WHERE ${TARGET_QUALIFIES[kind]}
  ON CONFLICT ("id") DO NOTHING`;

const paymentParams = (clinicId: string, data: PaymentData) =>
  [data.paymentId, clinicId, data.billId ?? null, data.claimId ?? null, BigInt(data.amountCents)] as const;

/**
 * A new succeeded payment: inserts the Payment row and adds the amount to its bill or claim.
 * @returns the target's totals after the payment, or null when nothing was written (the paymentId exists
 *   already, or the target is not in the clinic or does not qualify).
 */
export async function recordSucceededPayment(tx: Prisma.TransactionClient, clinicId: string, data: PaymentData, now: Date): Promise<AppliedPayment | null> {
  const [row] = await tx.$queryRawUnsafe<AppliedPayment[]>(RECORD_SUCCEEDED(paymentTargetOf(data).kind), ...paymentParams(clinicId, data), now);
  return row ?? null;
}

/**
 * A payment the partner reported as failed and now reports as succeeded (a retry under the same paymentId):
 * it becomes succeeded and its amount is added to the target, once, when it still names the same target and
 * that target still qualifies.
 * @returns the target's totals after the payment, or null when nothing was written.
 */
export async function promoteFailedPayment(tx: Prisma.TransactionClient, clinicId: string, data: PaymentData, now: Date): Promise<AppliedPayment | null> {
  const [row] = await tx.$queryRawUnsafe<AppliedPayment[]>(PROMOTE_FAILED(paymentTargetOf(data).kind), ...paymentParams(clinicId, data), now);
  return row ?? null;
}

/** A failed payment: the Payment row with status failed; no money moves. @returns true when inserted. */
export async function recordFailedPayment(tx: Prisma.TransactionClient, clinicId: string, data: PaymentData): Promise<boolean> {
  return (await tx.$executeRawUnsafe(RECORD_FAILED(paymentTargetOf(data).kind), ...paymentParams(clinicId, data))) === 1;
}

export type PaymentRefusal =
  | { kind: 'payment-exists'; payment: { clinicId: string; status: string } }
  | { kind: 'target'; reason: string };

/** Why a payment statement wrote nothing: the paymentId exists, or the target is missing or does not qualify. */
export async function findPaymentRefusal(tx: Prisma.TransactionClient, clinicId: string, data: PaymentData): Promise<PaymentRefusal> {
  const payment = await tx.payment.findUnique({ where: { id: data.paymentId }, select: { clinicId: true, status: true } });
  if (payment) return { kind: 'payment-exists', payment };
  const target = paymentTargetOf(data);
  if (target.kind === 'bill') {
    const bill = await tx.patientBill.findFirst({ where: { id: target.billId, clinicId }, select: { id: true } });
    return { kind: 'target', reason: bill ? 'amount exceeds what the bill can record' : 'bill not found in this clinic' };
  }
  const claim = await tx.claim.findFirst({ where: { id: target.claimId, clinicId }, select: { status: true } });
  if (!claim) return { kind: 'target', reason: 'claim not found in this clinic' };
  return { kind: 'target', reason: claim.status === 'draft' ? 'claim has not been submitted' : 'amount exceeds what the claim can record' };
}
