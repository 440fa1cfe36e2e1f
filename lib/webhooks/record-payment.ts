// Writes a partner payment: the Payment row (keyed by the partner's paymentId) and, for a success, the money on
// its bill or claim and the ledger posting, in ONE statement, and only when that bill or claim belongs to the
// event's clinic. A statement that matched nothing wrote nothing; findPaymentRefusal then explains why (a
// separate, rare read). All SQL here is constant text; every value is a bound parameter.
import { randomUUID } from 'node:crypto';
import type { Db, Prisma } from '../db';
import { deliveryParams, insertDeliverySql, type DeliveryRow } from './delivery-row';
import {
  MAX_BILL_CENTS,
  MAX_CLAIM_PAID_CENTS,
  type PaymentData,
  type PaymentTarget,
  paymentTargetOf,
} from './payment-data';
import { postPaymentSql } from './post-payment';

type Kind = PaymentTarget['kind'];

// Parameters of every statement here: $1 paymentId, $2 clinicId, $3 billId, $4 claimId, $5 amountCents; for a
// success also $6 the update time, $7 the ledger transaction id, $8 correlationId (and the delivery row after).

// A bill must be able to hold the amount (paidCents is a 32-bit column: refused, never truncated); a claim
// must have been submitted (a draft or a claim still `sending` never reached a payer, so a payment naming one is
// misrouted) and able to
// hold the amount under MAX_CLAIM_PAID_CENTS, so the total GET /api/claims reports stays a safe integer.
const TARGET_QUALIFIES: Record<Kind, string> = {
  bill: `EXISTS (SELECT 1 FROM "PatientBill" b WHERE b."id" = $3 AND b."clinicId" = $2 AND b."paidCents" + $5::bigint <= ${MAX_BILL_CENTS})`,
  claim: `EXISTS (SELECT 1 FROM "Claim" c WHERE c."id" = $4 AND c."clinicId" = $2 AND c."status" NOT IN ('draft', 'sending') AND c."paidCents" + $5::bigint <= ${MAX_CLAIM_PAID_CENTS})`,
};

// Adds the amount and sets the status from the new total in one UPDATE, under the row lock, so concurrent
// payments of one bill cannot lose an update. Partial payments accumulate; paid once paidCents reaches
// what is owed. Runs only when the CTE `payment` produced a row. The amount stays bigint until the row
// qualifies: casting the parameter itself to int would fail before the WHERE decides.
const ADD_TO_TARGET: Record<Kind, string> = {
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

// A success once `payment` (a CTE that returns a row when the Payment row was written) has run: the money on
// the target, then the ledger posting. Answers how many targets were paid: 1 or 0.
const applySucceeded = (kind: Kind, payment: string) => `WITH ${payment},
  target AS (${ADD_TO_TARGET[kind]}),
  ${postPaymentSql(kind)}
  SELECT COUNT(*)::int AS "paid" FROM target`;

const INSERT_SUCCEEDED = `INSERT INTO "Payment" ("id", "clinicId", "billId", "claimId", "amountCents", "currency", "status")
  SELECT $1, $2, $3, $4, $5::bigint, 'USD', 'succeeded'`;

const RECORD_SUCCEEDED = (kind: Kind) =>
  applySucceeded(
    kind,
    `payment AS (
    ${INSERT_SUCCEEDED} WHERE ${TARGET_QUALIFIES[kind]} ON CONFLICT ("id") DO NOTHING RETURNING 1
  )`,
  );

// The common delivery whole: the delivery row (from $9, delivery-row.ts) written only when the paymentId is
// new and the target qualifies, as this statement sees the database, and the payment only after the delivery
// row. A concurrent delivery of the same paymentId, which this statement cannot see, makes the Payment insert
// fail on its key (no ON CONFLICT on purpose), and the whole statement with it: nothing is half written.
// The hot path: prepared once per connection (lib/db.ts), so PostgreSQL does not plan it on every delivery.
const RECORD_DELIVERED_SUCCEEDED: Record<Kind, string> = {
  bill: recordDeliveredSucceeded('bill'),
  claim: recordDeliveredSucceeded('claim'),
};
function recordDeliveredSucceeded(kind: Kind): string {
  return `-- prepared: record-delivered-payment-${kind}\n${applySucceeded(
    kind,
    `delivery AS (
    ${insertDeliverySql(9, `${TARGET_QUALIFIES[kind]} AND NOT EXISTS (SELECT 1 FROM "Payment" p WHERE p."id" = $1)`)}
  ), payment AS (
    ${INSERT_SUCCEEDED} WHERE EXISTS (SELECT 1 FROM delivery) RETURNING 1
  )`,
  )}`;
}

const PROMOTE_FAILED = (kind: Kind) =>
  applySucceeded(
    kind,
    `payment AS (
    UPDATE "Payment" SET "status" = 'succeeded', "amountCents" = $5::bigint
    WHERE "id" = $1 AND "clinicId" = $2 AND "status" = 'failed'
      AND "billId" IS NOT DISTINCT FROM $3 AND "claimId" IS NOT DISTINCT FROM $4 AND ${TARGET_QUALIFIES[kind]}
    RETURNING 1
  )`,
  );

const RECORD_FAILED = (
  kind: Kind,
) => `INSERT INTO "Payment" ("id", "clinicId", "billId", "claimId", "amountCents", "currency", "status")
  SELECT $1, $2, $3, $4, $5::bigint, 'USD', 'failed' WHERE ${TARGET_QUALIFIES[kind]}
  ON CONFLICT ("id") DO NOTHING`;

const paymentParams = (clinicId: string, data: PaymentData) =>
  [data.paymentId, clinicId, data.billId ?? null, data.claimId ?? null, BigInt(data.amountCents)] as const;

/** What a success needs beyond the payment: when it happened and the correlation id its ledger posting carries. */
export type SucceededPayment = { clinicId: string; data: PaymentData; now: Date; correlationId: string };

const succeededParams = ({ clinicId, data, now, correlationId }: SucceededPayment) =>
  [...paymentParams(clinicId, data), now, `ltx_${randomUUID().replaceAll('-', '')}`, correlationId] as const;

async function paid(query: Promise<{ paid: number }[]>): Promise<boolean> {
  const [row] = await query;
  return row?.paid === 1;
}

/**
 * A new succeeded payment: inserts the Payment row, adds the amount to its bill or claim and posts the ledger.
 * @returns false when nothing was written (the paymentId exists already, or the target is not in the clinic or
 *   does not qualify).
 */
export function recordSucceededPayment(tx: Prisma.TransactionClient, payment: SucceededPayment): Promise<boolean> {
  const kind = paymentTargetOf(payment.data).kind;
  return paid(tx.$queryRawUnsafe(RECORD_SUCCEEDED(kind), ...succeededParams(payment)));
}

/**
 * A first delivery of a new succeeded payment, whole, in one statement outside any transaction: the delivery
 * row with outcome `applied`, then what {@link recordSucceededPayment} writes.
 * @returns false when nothing was written: the delivery is a duplicate, the paymentId exists already, or the
 *   target does not qualify; the caller decides which in a transaction.
 * @throws a unique violation (nothing written) when a concurrent delivery wrote the same paymentId first.
 */
export function recordDeliveredSucceededPayment(
  db: Db,
  delivery: DeliveryRow,
  payment: SucceededPayment,
): Promise<boolean> {
  const kind = paymentTargetOf(payment.data).kind;
  return paid(
    db.$queryRawUnsafe(RECORD_DELIVERED_SUCCEEDED[kind], ...succeededParams(payment), ...deliveryParams(delivery)),
  );
}

/**
 * A payment the partner reported as failed and now reports as succeeded (a retry under the same paymentId):
 * it becomes succeeded, its amount is added to the target and posted, once, when it still names the same
 * target and that target still qualifies.
 * @returns false when nothing was written.
 */
export function promoteFailedPayment(tx: Prisma.TransactionClient, payment: SucceededPayment): Promise<boolean> {
  const kind = paymentTargetOf(payment.data).kind;
  return paid(tx.$queryRawUnsafe(PROMOTE_FAILED(kind), ...succeededParams(payment)));
}

/** A failed payment: the Payment row with status failed; no money moves. @returns true when inserted. */
export async function recordFailedPayment(
  tx: Prisma.TransactionClient,
  clinicId: string,
  data: PaymentData,
): Promise<boolean> {
  return (
    (await tx.$executeRawUnsafe(RECORD_FAILED(paymentTargetOf(data).kind), ...paymentParams(clinicId, data))) === 1
  );
}

export type PaymentRefusal =
  { kind: 'payment-exists'; payment: { clinicId: string; status: string } } | { kind: 'target'; reason: string };

/** Why a payment statement wrote nothing: the paymentId exists, or the target is missing or does not qualify. */
export async function findPaymentRefusal(
  tx: Prisma.TransactionClient,
  clinicId: string,
  data: PaymentData,
): Promise<PaymentRefusal> {
  const payment = await tx.payment.findUnique({
    where: { id: data.paymentId },
    select: { clinicId: true, status: true },
  });
  if (payment) return { kind: 'payment-exists', payment };
  const target = paymentTargetOf(data);
  if (target.kind === 'bill') {
    const bill = await tx.patientBill.findFirst({ where: { id: target.billId, clinicId }, select: { id: true } });
    return {
      kind: 'target',
      reason: bill ? 'amount exceeds what the bill can record' : 'bill not found in this clinic',
    };
  }
  const claim = await tx.claim.findFirst({ where: { id: target.claimId, clinicId }, select: { status: true } });
  if (!claim) return { kind: 'target', reason: 'claim not found in this clinic' };
  return {
    kind: 'target',
    reason: claim.status === 'draft' ? 'claim has not been submitted' : 'amount exceeds what the claim can record',
  };
}
