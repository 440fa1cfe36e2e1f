// Posts one read, balanced 835 inside the caller's database transaction (DECISIONS "Money in"). The Remittance row
// goes first, under its unique (clinic, payer id, TRN02): a copy of the 835, even one racing this transaction,
// waits on that row and then finds it, and answers with the first posting having written nothing. The claims the
// 835 names are locked, which CLPs may post is decided under the locks (resolve-claims.ts), and the claims, their
// charge bookings and bills are read once. What every CLP posts is then decided in memory, in file order, so a
// reversal posts before the corrected claim that follows it (plan-posting.ts: charge, ledger, bill, lines, state,
// timeline, transmission, RemittanceClaim; a CLP naming no transmitted claim of the clinic is kept `unmatched`), a
// chunk of CLPs at a time with each claim's running state carried forward, and each chunk written in a handful of
// set-based statements (write-posting.ts) and dropped: memory holds one chunk's rows, and round trips grow with the
// chunks, not the CLPs. The claims' totals and bills are written once, after the last chunk. An 835 none of whose
// CLPs can post is refused (422) and writes nothing. Then, when the deposit is already there, reassociation.
import { randomUUID } from 'node:crypto';
import type { Prisma } from '../db';
import { centsToNumber } from '../money/cents-to-number';
import type { Remittance } from '../x12/read-remittance';
import { CLAIM_CHARGE_KIND, claimChargeReference } from './book-claim-charge';
import { finishPlan, planChunk, startPlan, type PostingBill } from './plan-posting';
import type { ClaimRemarks } from './read-remarks';
import { reassociate } from './reassociate';
import { recordEvent, recordEvents } from '../events/record-event';
import { claimOutcomeEvent } from './record-claim-outcome-event';
import { matchClaims, nothingToPost } from './resolve-claims';
import type { RemittanceSource } from './ingest-remittance';
import { startBatch, writeChunk, writeFinish } from './write-posting';

export type PostedRemittance = {
  remittanceId: string;
  payerId: string;
  traceNumber: string;
  paymentCents: number;
  /** True when this (payer id, TRN02) was already posted for the clinic: nothing was written. */
  duplicate: boolean;
  /** The CLPs posted to their claims. */
  claimsPosted: number;
  /** The CLPs kept as `unmatched`: they name no claim of the clinic that was sent, and posted nowhere. */
  claimsUnmatched: number;
};

export type PostRemittanceInput = {
  clinicId: string;
  x12: string;
  source: RemittanceSource;
  correlationId: string;
  remittance: Remittance;
  remarks: ClaimRemarks[];
  now: Date;
  /** CLPs planned and written at a time (POSTING_CHUNK_SIZE unless a test needs an 835 to span several chunks). */
  chunkSize?: number;
};

/**
 * CLPs per chunk: each chunk's rows (plan, JSON parameters) are written and dropped before the next is planned, so
 * what a posting holds beyond the read 835 is one chunk's rows and the per-claim running state, not every CLP's rows.
 */
export const POSTING_CHUNK_SIZE = 1_000;

const chargedClaimId = (t: { reference: string }) => t.reference.slice('claim:'.length);

const INSERT_REMITTANCE = `INSERT INTO "Remittance" ("id", "clinicId", "payerId", "payerName", "payeeNpi", "traceNumber",
    "paymentMethod", "paymentCents", "paymentDate", "providerAdjustments", "source", "x12", "correlationId", "createdAt")
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8::bigint, $9, $10::jsonb, $11, $12, $13, $14)
  ON CONFLICT ("clinicId", "payerId", "traceNumber") DO NOTHING RETURNING "id"`;
// The claims this 835 names, locked for the rest of the transaction in a fixed order (no deadlock between two
// 835s naming the same claims), so their running totals are read and written by one posting at a time.
const LOCK_CLAIMS = `SELECT "id" FROM "Claim" WHERE "clinicId" = $1 AND "id" = ANY($2::text[]) ORDER BY "id" FOR UPDATE`;
// The claims' own bills, and for a secondary claim its primary's bill (what the secondary pays comes off it).
const FIRST_BILLS = `SELECT DISTINCT ON ("claimId") "id", "claimId", "patientId", "amountCents", "paidCents" FROM "PatientBill"
  WHERE "clinicId" = $1 AND "claimId" IN (SELECT unnest($2::text[]) UNION SELECT "primaryClaimId" FROM "Claim"
    WHERE "clinicId" = $1 AND "id" = ANY($2::text[]) AND "primaryClaimId" IS NOT NULL)
  ORDER BY "claimId", "createdAt", "id"`;

const newId = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`;

/** @throws UNPROCESSABLE (422) when a claim's running totals or the patient's bill would leave their bounds. */
export async function postRemittance(
  tx: Prisma.TransactionClient,
  input: PostRemittanceInput,
): Promise<PostedRemittance> {
  const { clinicId, remittance, correlationId, now } = input;
  const summary = {
    payerId: remittance.payerId,
    traceNumber: remittance.traceNumber,
    paymentCents: remittance.paymentCents,
  };
  const inserted = await tx.$queryRawUnsafe<{ id: string }[]>(
    INSERT_REMITTANCE,
    newId('rem'),
    clinicId,
    remittance.payerId,
    remittance.payerName,
    remittance.payeeNpi,
    remittance.traceNumber,
    remittance.paymentMethod,
    BigInt(remittance.paymentCents),
    remittance.paymentDate,
    JSON.stringify(remittance.providerAdjustments),
    input.source,
    input.x12,
    correlationId,
    now,
  );
  const remittanceId = inserted[0]?.id;
  if (!remittanceId) {
    const first = await tx.remittance.findUniqueOrThrow({
      where: {
        clinicId_payerId_traceNumber: { clinicId, payerId: remittance.payerId, traceNumber: remittance.traceNumber },
      },
      select: { id: true, paymentCents: true, claims: { select: { posting: true } } },
    });
    const unmatched = first.claims.filter((claim) => claim.posting === 'unmatched').length;
    return {
      ...summary,
      remittanceId: first.id,
      paymentCents: centsToNumber(first.paymentCents),
      duplicate: true,
      claimsPosted: first.claims.length - unmatched,
      claimsUnmatched: unmatched,
    };
  }

  const namedIds = [...new Set(remittance.claims.map((claim) => claim.claimId))];
  await tx.$queryRawUnsafe<{ id: string }[]>(LOCK_CLAIMS, clinicId, namedIds);
  // Decided under the locks, so a claim cannot change state between this check and its posting.
  const reasons = await matchClaims(tx, clinicId, namedIds);
  const claimIds = namedIds.filter((id) => reasons.get(id) === null);
  if (claimIds.length === 0) throw nothingToPost(namedIds, reasons);
  // Everything the plan starts from, read once for the whole 835 in three statements.
  const [claims, charged, bills] = await Promise.all([
    tx.claim.findMany({
      where: { clinicId, id: { in: claimIds } },
      select: {
        id: true,
        patientId: true,
        totalChargeCents: true,
        status: true,
        paidCents: true,
        patientResponsibilityCents: true,
        adjustmentCents: true,
        payerRank: true,
        primaryClaimId: true,
        lines: {
          select: { id: true, position: true, procedureCode: true, modifiers: true },
          orderBy: { position: 'asc' },
        },
      },
    }),
    tx.ledgerTransaction.findMany({
      where: { clinicId, kind: CLAIM_CHARGE_KIND, reference: { in: claimIds.map(claimChargeReference) } },
      select: { reference: true },
    }),
    // The first bill raised for each claim is the one PR moves to.
    tx.$queryRawUnsafe<PostingBill[]>(FIRST_BILLS, clinicId, claimIds),
  ]);
  const state = startPlan({
    ...input,
    remittanceId,
    reasons,
    claims,
    charged: new Set(charged.map(chargedClaimId)),
    bills,
  });
  const batch = startBatch({ clinicId, remittanceId, traceNumber: remittance.traceNumber, correlationId, now });
  const chunkSize = input.chunkSize ?? POSTING_CHUNK_SIZE;
  let unmatched = 0;
  for (let first = 0; first < remittance.claims.length; first += chunkSize) {
    const chunkClaims = remittance.claims.slice(first, first + chunkSize);
    const plan = planChunk(state, {
      claims: chunkClaims,
      remarks: input.remarks.slice(first, first + chunkSize),
      firstPosition: first + 1,
    });
    await writeChunk(tx, batch, plan);
    // plan.outcomes says what each CLP did: each posted one reports its claim's outcome to the events outbox.
    await recordEvents(
      tx,
      plan.outcomes.flatMap((o) => {
        if (o.posting !== 'posted') return [];
        const claim = chunkClaims[o.position - 1 - first]!;
        return claimOutcomeEvent({ clinicId, claimId: o.claimId, remittanceId, claim, correlationId, now }) ?? [];
      }),
    );
    unmatched += plan.outcomes.filter((o) => o.posting === 'unmatched').length;
  }
  await writeFinish(tx, batch, finishPlan(state, remittance.providerAdjustments));
  await reassociate(tx, { clinicId, traceNumber: remittance.traceNumber, correlationId });
  await recordEvent(tx, {
    clinicId,
    type: 'remittance.posted',
    objectId: remittanceId,
    data: {
      remittanceId,
      paymentCents: remittance.paymentCents,
      claimCount: remittance.claims.length - unmatched,
      traceNumber: remittance.traceNumber,
    },
    correlationId,
    at: now,
  });
  return {
    ...summary,
    remittanceId,
    duplicate: false,
    claimsPosted: remittance.claims.length - unmatched,
    claimsUnmatched: unmatched,
  };
}
