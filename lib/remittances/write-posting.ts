// Writes a posting plan (plan-posting.ts) in a handful of set-based statements inside the caller's transaction,
// whatever the number of claims: the ledger in two, the claims in one update, the claim lines in one, the bills in
// two, and the events, transmissions and remittance rows as multi-row inserts. Columns travel as array parameters
// turned back into rows by `unnest`, so a statement's text and parameter count do not grow with the 835.
import type { Prisma } from '../db';
import { postLedgerTransactions } from '../ledger/post-ledger-transaction';
import type { PostingPlan } from './plan-posting';

// statusReason is written only where a CLP decided it (the flag); the claim keeps its reason otherwise.
const UPDATE_CLAIMS = `UPDATE "Claim" AS c SET "paidCents" = u.paid, "patientResponsibilityCents" = u.patient,
    "adjustmentCents" = u.adjustment, "status" = u.status,
    "statusReason" = CASE WHEN u.set_reason THEN u.reason ELSE c."statusReason" END, "updatedAt" = $2
  FROM unnest($3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::text[], $8::boolean[], $9::text[])
    AS u(id, paid, patient, adjustment, status, set_reason, reason)
  WHERE c."id" = u.id AND c."clinicId" = $1`;
const PAY_LINES = `UPDATE "ClaimLine" AS l SET "paidCents" = l."paidCents" + u.paid
  FROM unnest($2::text[], $3::bigint[]) AS u(id, paid) WHERE l."id" = u.id AND l."clinicId" = $1`;
const CHANGE_BILLS = `UPDATE "PatientBill" AS b SET "amountCents" = u.amount, "status" = u.status, "updatedAt" = $2
  FROM unnest($3::text[], $4::int[], $5::text[]) AS u(id, amount, status) WHERE b."id" = u.id AND b."clinicId" = $1`;

export async function writePosting(
  tx: Prisma.TransactionClient,
  plan: PostingPlan,
  common: { clinicId: string; correlationId: string; now: Date },
): Promise<void> {
  const { clinicId, now } = common;
  await postLedgerTransactions(tx, { clinicId, correlationId: common.correlationId, postedAt: now }, plan.ledger);
  if (plan.claims.length > 0) {
    const { claims } = plan;
    await tx.$executeRawUnsafe(
      UPDATE_CLAIMS,
      clinicId,
      now,
      claims.map((c) => c.id),
      claims.map((c) => c.paidCents.toString()),
      claims.map((c) => c.patientResponsibilityCents.toString()),
      claims.map((c) => c.adjustmentCents.toString()),
      claims.map((c) => c.status),
      claims.map((c) => c.statusReason !== undefined),
      claims.map((c) => c.statusReason ?? null),
    );
  }
  if (plan.linePayments.size > 0) {
    const payments = [...plan.linePayments];
    await tx.$executeRawUnsafe(
      PAY_LINES,
      clinicId,
      payments.map(([id]) => id),
      payments.map(([, cents]) => cents.toString()),
    );
  }
  if (plan.newBills.length > 0) await tx.patientBill.createMany({ data: plan.newBills });
  if (plan.changedBills.length > 0) {
    const bills = plan.changedBills;
    await tx.$executeRawUnsafe(
      CHANGE_BILLS,
      clinicId,
      now,
      bills.map((b) => b.id),
      bills.map((b) => b.amountCents),
      bills.map((b) => b.status),
    );
  }
  if (plan.events.length > 0) await tx.claimEvent.createMany({ data: plan.events });
  if (plan.transmissions.length > 0) await tx.claimTransmission.createMany({ data: plan.transmissions });
  await tx.remittanceClaim.createMany({ data: plan.remittanceClaims });
}
