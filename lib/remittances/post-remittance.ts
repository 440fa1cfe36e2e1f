// Posts one read, balanced 835 inside the caller's database transaction (DECISIONS "Money in"). The Remittance row
// goes first, under its unique (clinic, payer id, TRN02): a copy of the 835, even one racing this transaction,
// waits on that row and then finds it, and answers with the first posting having written nothing. Then, per CLP
// in file order (so a reversal posts before the corrected claim that follows it): the claim's charge is booked
// once, the claim's ledger transaction (remittance-ledger-lines.ts), the patient's bill, the claim's amounts,
// lines and state (claim-outcome.ts, through the claim state table), its timeline and transmission, and the
// RemittanceClaim. A CLP naming no transmitted claim of the clinic (a draft, an id the clinic does not have:
// resolve-claims.ts, decided here under the claims' locks) posts nowhere and is kept as an `unmatched`
// RemittanceClaim with its amounts; an 835 none of whose CLPs can post is refused (422) and writes nothing. Then the
// PLB posting and, when the deposit is already there, reassociation.
import { randomUUID } from 'node:crypto';
import type { Prisma } from '../db';
import { AppError } from '../errors';
import { postLedgerTransaction } from '../ledger/post-ledger-transaction';
import { MAX_AMOUNT_CENTS } from '../money/cents';
import { centsToNumber } from '../money/cents-to-number';
import { canTransition, isClaimStatus, recordClaimEvent, transitionClaim } from '../claims/claim-states';
import { describeCarc } from '../x12/carc';
import { describeRarc } from '../x12/rarc';
import type { ClaimPayment, Remittance } from '../x12/read-remittance';
import { bookClaimCharge, CLAIM_CHARGE_KIND } from './book-claim-charge';
import { claimOutcome, outcomeReason, STATUS_FOR_OUTCOME } from './claim-outcome';
import type { ClaimRemarks } from './read-remarks';
import { reassociate } from './reassociate';
import { recordEvent } from '../events/record-event';
import { recordClaimOutcomeEvent } from './record-claim-outcome-event';
import { matchClaims, nothingToPost } from './resolve-claims';
import {
  adjustmentTotals,
  claimLedgerLines,
  providerLedgerLines,
  secondaryLedgerLines,
} from './remittance-ledger-lines';
import type { RemittanceSource } from './ingest-remittance';

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
};

const INSERT_REMITTANCE = `INSERT INTO "Remittance" ("id", "clinicId", "payerId", "payerName", "payeeNpi", "traceNumber",
    "paymentMethod", "paymentCents", "paymentDate", "providerAdjustments", "source", "x12", "correlationId", "createdAt")
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8::bigint, $9, $10::jsonb, $11, $12, $13, $14)
  ON CONFLICT ("clinicId", "payerId", "traceNumber") DO NOTHING RETURNING "id"`;
// The claims this 835 names, locked for the rest of the transaction in a fixed order (no deadlock between two
// 835s naming the same claims), so their running totals are read and written by one posting at a time.
const LOCK_CLAIMS = `SELECT "id" FROM "Claim" WHERE "clinicId" = $1 AND "id" = ANY($2::text[]) ORDER BY "id" FOR UPDATE`;

/** The stored CAS and remarks of a claim: CAS claim level then each line's, then the remark codes (group RARC). */
export type StoredAdjustment = {
  group: string;
  reason: string;
  amountCents: number;
  description: string;
  /** 1-based SVC position within the CLP; null at claim level. */
  line: number | null;
};

function storedAdjustments(claim: ClaimPayment, remarks: ClaimRemarks | undefined): StoredAdjustment[] {
  const cas = (line: number | null) => (a: ClaimPayment['adjustments'][number]) => ({
    group: a.group,
    reason: a.reason,
    amountCents: a.amountCents,
    description: describeCarc(a.reason),
    line,
  });
  const remark = (line: number | null) => (code: string) => ({
    group: 'RARC',
    reason: code,
    amountCents: 0,
    description: describeRarc(code),
    line,
  });
  return [
    ...claim.adjustments.map(cas(null)),
    ...claim.lines.flatMap((l, i) => l.adjustments.map(cas(i + 1))),
    ...(remarks?.claim ?? []).map(remark(null)),
    ...(remarks?.lines ?? []).flatMap((codes, i) => codes.map(remark(i + 1))),
  ];
}

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
  // Read once for the whole 835; each CLP's posting updates its claim's row here, so a reversal and the corrected
  // claim after it (two CLPs of one claim) each start from the totals and state the one before left.
  const rows = new Map(
    (
      await tx.claim.findMany({
        where: { clinicId, id: { in: claimIds } },
        include: { lines: { orderBy: { position: 'asc' } } },
      })
    ).map((row) => [row.id, row]),
  );
  const charged = new Set(
    (
      await tx.ledgerTransaction.findMany({
        where: { clinicId, kind: CLAIM_CHARGE_KIND, reference: { in: claimIds.map((id) => `claim:${id}`) } },
        select: { reference: true },
      })
    ).map((t) => t.reference.slice('claim:'.length)),
  );
  const ledgerTransactionIds: string[] = [];
  const written: Written = { transmissions: [], remittanceClaims: [] };
  let unmatched = 0;
  for (const [index, claim] of remittance.claims.entries()) {
    const position = index + 1;
    const row = rows.get(claim.claimId);
    const reason = reasons.get(claim.claimId) ?? null;
    if (!row || reason !== null) {
      written.remittanceClaims.push({
        ...remittanceClaimRow({ remittanceId, clinicId, claim, position, remarks: input.remarks[index] }),
        posting: 'unmatched',
        unmatchedReason: reason ?? 'The claim cannot take this payment',
      });
      unmatched++;
      continue;
    }
    // A secondary claim bills the same visit again: its charge was booked with its primary's (DECISIONS "Claim
    // lifecycle"), so it is not booked twice.
    if (!charged.has(row.id) && !isSecondary(row)) {
      const charge = await bookClaimCharge(tx, { claim: row, correlationId, now, known: false });
      if (charge) ledgerTransactionIds.push(charge);
      charged.add(row.id);
    }
    const ids = await postClaim(
      tx,
      { ...input, remittanceId, claim, position, remarks: input.remarks[index], row },
      written,
    );
    ledgerTransactionIds.push(...ids);
  }
  // The rows every CLP adds, in two statements rather than two per claim.
  await tx.claimTransmission.createMany({ data: written.transmissions });
  await tx.remittanceClaim.createMany({ data: written.remittanceClaims });

  const providerLines = providerLedgerLines(remittance.providerAdjustments);
  if (providerLines.length > 0) {
    ledgerTransactionIds.push(
      await postLedgerTransaction(tx, {
        clinicId,
        kind: 'remittance.provider-adjustment',
        reference: `remittance:${remittanceId}`,
        correlationId,
        postedAt: now,
        lines: providerLines,
      }),
    );
  }
  await tx.remittance.update({ where: { id: remittanceId }, data: { ledgerTransactionIds } });
  await reassociate(tx, { clinicId, traceNumber: remittance.traceNumber, correlationId });
  const claimsPosted = remittance.claims.length - unmatched;
  await recordEvent(tx, {
    clinicId,
    type: 'remittance.posted',
    objectId: remittanceId,
    data: {
      remittanceId,
      paymentCents: remittance.paymentCents,
      claimCount: claimsPosted,
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

type ClaimRow = Prisma.ClaimGetPayload<{ include: { lines: true } }>;

type ClaimPostingInput = Omit<PostRemittanceInput, 'remarks'> & {
  remittanceId: string;
  claim: ClaimPayment;
  position: number;
  remarks: ClaimRemarks | undefined;
  /** The claim as the previous CLPs of this 835 left it; updated here. */
  row: ClaimRow;
};

type Written = {
  transmissions: Prisma.ClaimTransmissionCreateManyInput[];
  remittanceClaims: Prisma.RemittanceClaimCreateManyInput[];
};

async function postClaim(tx: Prisma.TransactionClient, input: ClaimPostingInput, written: Written): Promise<string[]> {
  const { clinicId, claim, correlationId, now, remittanceId, position, row } = input;
  const ledgerTransactionIds: string[] = [];

  const lines = isSecondary(row) ? secondaryLedgerLines(claim) : claimLedgerLines(claim);
  if (lines.length > 0) {
    ledgerTransactionIds.push(
      await postLedgerTransaction(tx, {
        clinicId,
        kind: claim.statusCode === '22' ? 'remittance.reversal' : 'remittance.claim',
        reference: `remittance:${remittanceId}:${position}`,
        correlationId,
        postedAt: now,
        lines,
      }),
    );
  }

  const { patientCents, otherCents } = adjustmentTotals(claim);
  const paidCents = row.paidCents + BigInt(claim.paidCents);
  const patientResponsibilityCents = row.patientResponsibilityCents + patientCents;
  const adjustmentCents = row.adjustmentCents + otherCents;
  for (const [name, value] of [
    ['paid', paidCents],
    ['patient responsibility', patientResponsibilityCents],
    ['adjustment', adjustmentCents],
  ] as const) {
    if (value > BigInt(MAX_AMOUNT_CENTS) || value < -BigInt(MAX_AMOUNT_CENTS)) {
      throw new AppError(
        'UNPROCESSABLE',
        `Claim ${JSON.stringify(claim.claimId)}'s ${name} total would exceed ${MAX_AMOUNT_CENTS} cents; nothing was posted`,
      );
    }
  }
  if (isSecondary(row)) {
    // What the secondary pays comes off the patient's bill for the visit (the primary's); its PR only repeats the
    // part of that bill the patient still owes, so it is not billed again.
    if (claim.paidCents !== 0)
      await movePatientResponsibility(tx, {
        clinicId,
        claimId: row.primaryClaimId!,
        patientId: row.patientId,
        patientCents: -BigInt(claim.paidCents),
      });
  } else if (patientCents !== 0n)
    await movePatientResponsibility(tx, { clinicId, claimId: row.id, patientId: row.patientId, patientCents });

  // Service lines pay the claim line with the same procedure code and modifiers, first unmatched first.
  const used = new Set<number>();
  for (const line of claim.lines) {
    const match =
      row.lines.find(
        (l) =>
          !used.has(l.position) &&
          l.procedureCode === line.procedureCode &&
          l.modifiers.join(':') === line.modifiers.join(':'),
      ) ?? row.lines.find((l) => !used.has(l.position) && l.procedureCode === line.procedureCode);
    if (!match || line.paidCents === 0) {
      if (match) used.add(match.position);
      continue;
    }
    used.add(match.position);
    await tx.claimLine.update({ where: { id: match.id }, data: { paidCents: { increment: BigInt(line.paidCents) } } });
  }

  const outcome = claimOutcome(claim);
  const reason = outcomeReason(claim, outcome);
  const set = {
    paidCents,
    patientResponsibilityCents,
    adjustmentCents,
    ...(outcome ? { statusReason: reason } : {}),
    // CLP07, the payer's claim control number: REF*F8 of a later replacement or void (DECISIONS "Claim lifecycle").
    ...(claim.payerClaimId ? { payerClaimId: claim.payerClaimId } : {}),
  };
  const detail = {
    remittanceId,
    position,
    statusCode: claim.statusCode,
    paidCents: claim.paidCents,
    patientResponsibilityCents: Number(patientCents),
    adjustmentCents: Number(otherCents),
  };
  const kind = claim.statusCode === '22' ? 'reversal' : 'payment';
  const from = row.status;
  const to = outcome ? STATUS_FOR_OUTCOME[outcome] : null;
  const moved =
    to !== null &&
    to !== from &&
    isClaimStatus(from) &&
    isClaimStatus(to) &&
    canTransition(from, to) &&
    (await transitionClaim(tx, { clinicId, claimId: row.id, from, to, kind, detail, correlationId, set, at: now }));
  await recordClaimOutcomeEvent(tx, { clinicId, claimId: row.id, remittanceId, claim, correlationId, now });
  row.paidCents = paidCents;
  row.patientResponsibilityCents = patientResponsibilityCents;
  row.adjustmentCents = adjustmentCents;
  if (moved) row.status = to;
  if (!moved) {
    // Same state (a second payment), or a state the table does not leave this way (closed): the money still posts.
    await tx.claim.updateMany({ where: { id: row.id, clinicId }, data: set });
    await recordClaimEvent(tx, {
      clinicId,
      claimId: row.id,
      kind,
      detail: to && to !== from ? { ...detail, note: `status stays ${from}` } : detail,
      correlationId,
      at: now,
    });
  }

  written.transmissions.push({
    clinicId,
    claimId: row.id,
    direction: 'in',
    kind: '835',
    controlNumber: input.remittance.traceNumber,
    x12: transmissionText(input.x12, input.remarks),
    correlationId,
    at: now,
  });
  written.remittanceClaims.push(
    remittanceClaimRow({ remittanceId, clinicId, claim, position, remarks: input.remarks }),
  );
  return ledgerTransactionIds;
}

/** A secondary claim (DECISIONS "Claim lifecycle"): it bills what its primary's 835 left to the patient. */
function isSecondary(row: { payerRank: string; primaryClaimId: string | null }): boolean {
  return row.payerRank === 'secondary' && row.primaryClaimId !== null;
}

/** The CLP as read, as the remittance keeps it (posted or unmatched alike). */
function remittanceClaimRow(input: {
  remittanceId: string;
  clinicId: string;
  claim: ClaimPayment;
  position: number;
  remarks: ClaimRemarks | undefined;
}): Prisma.RemittanceClaimCreateManyInput {
  const { claim } = input;
  return {
    remittanceId: input.remittanceId,
    clinicId: input.clinicId,
    claimId: claim.claimId,
    position: input.position,
    payerClaimId: claim.payerClaimId,
    statusCode: claim.statusCode,
    chargeCents: BigInt(claim.chargeCents),
    paidCents: BigInt(claim.paidCents),
    patientResponsibilityCents: BigInt(claim.patientResponsibilityCents),
    adjustments: storedAdjustments(claim, input.remarks),
    lines: claim.lines.map((line) => ({
      procedureCode: line.procedureCode,
      modifiers: line.modifiers,
      chargeCents: line.chargeCents,
      paidCents: line.paidCents,
      units: line.units,
    })),
  };
}

/** Up to this size each claim's transmission keeps the whole interchange; beyond it, the claim's own CLP loop. */
const WHOLE_835_PER_CLAIM_CHARS = 64 * 1024;

/**
 * What the claim's timeline keeps of the 835: the interchange exactly as received when it is small (what support
 * staff expect to see), else the claim's CLP loop as written, so a 1 MiB remittance of thousands of claims is not
 * copied once per claim (the whole text stays on the Remittance, found by the control number, TRN02).
 */
function transmissionText(x12: string, remarks: ClaimRemarks | undefined): string {
  return x12.length <= WHOLE_835_PER_CLAIM_CHARS || !remarks ? x12 : remarks.text;
}

const MAX_BILL_CENTS = 2_147_483_647n;

/** PR moves to the patient's bill for this claim (one bill per claim, created on first need; a reversal lowers it). */
async function movePatientResponsibility(
  tx: Prisma.TransactionClient,
  input: { clinicId: string; claimId: string; patientId: string; patientCents: bigint },
): Promise<void> {
  const bill = await tx.patientBill.findFirst({
    where: { clinicId: input.clinicId, claimId: input.claimId },
    orderBy: { createdAt: 'asc' },
  });
  const amount = BigInt(bill?.amountCents ?? 0) + input.patientCents;
  if (amount > MAX_BILL_CENTS) {
    throw new AppError(
      'UNPROCESSABLE',
      `The patient's bill for claim ${JSON.stringify(input.claimId)} would exceed ${MAX_BILL_CENTS} cents; nothing was posted`,
    );
  }
  const amountCents = Number(amount < 0n ? 0n : amount);
  if (!bill) {
    await tx.patientBill.create({
      data: {
        id: newId('bill'),
        clinicId: input.clinicId,
        patientId: input.patientId,
        claimId: input.claimId,
        amountCents,
        status: amountCents > 0 ? 'open' : 'paid',
      },
    });
    return;
  }
  await tx.patientBill.update({
    where: { id: bill.id },
    data: { amountCents, status: bill.paidCents >= amountCents ? 'paid' : 'open' },
  });
}
