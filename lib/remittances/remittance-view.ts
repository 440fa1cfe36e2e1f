// Remittances as the billing screens read them (list and detail): integer cents, codes with their words.
import { z } from 'zod';
import type { Db } from '../db';
import { AppError } from '../errors';
import { centsToNumber } from '../money/cents-to-number';
import { readPatientNames } from '../patients/patient-names';
import type { StoredAdjustment } from './plan-posting';
import { describeClaimStatus, describeProviderAdjustment } from './remittance-words';

const Cents = z.number().int();

export const RemittanceSummary = z.object({
  id: z.string(),
  payerName: z.string(),
  payerId: z.string(),
  traceNumber: z.string(),
  paymentCents: Cents,
  /** BPR16, YYYY-MM-DD. */
  paymentDate: z.string(),
  paymentMethod: z.string(),
  claimCount: z.number().int(),
  /** CLPs kept as `unmatched`: they name no claim of the clinic that was sent, and posted nowhere. */
  unmatchedCount: z.number().int(),
  createdAt: z.string(),
  source: z.string(),
});
export const RemittanceList = z.object({ remittances: z.array(RemittanceSummary) });

const Adjustment = z.object({
  group: z.string(),
  reason: z.string(),
  amountCents: Cents,
  description: z.string(),
  /** 1-based service line of the CLP; null at claim level. */
  line: z.number().int().nullable(),
});
const Remark = z.object({ code: z.string(), description: z.string(), line: z.number().int().nullable() });

export const RemittanceClaimView = z.object({
  claimId: z.string(),
  /** posted: paid to its claim, the ledger and the bill; unmatched: kept as read, posted nowhere (a variance). */
  posting: z.enum(['posted', 'unmatched']),
  /** Why an unmatched CLP posted nowhere, in words; null when posted. */
  unmatchedReason: z.string().nullable(),
  patientId: z.string().nullable(),
  /** "First Last" of a posted claim's patient (billing reads remittances without patients:read); null as patientId. */
  patientName: z.string().nullable(),
  payerClaimId: z.string().nullable(),
  statusCode: z.string(),
  statusText: z.string(),
  chargeCents: Cents,
  paidCents: Cents,
  patientResponsibilityCents: Cents,
  adjustments: z.array(Adjustment),
  remarks: z.array(Remark),
  lines: z.array(
    z.object({
      procedureCode: z.string(),
      modifiers: z.array(z.string()),
      chargeCents: Cents,
      paidCents: Cents,
      units: z.number(),
    }),
  ),
});

export const RemittanceDetail = RemittanceSummary.extend({
  payeeNpi: z.string().nullable(),
  providerAdjustments: z.array(
    z.object({ reason: z.string(), reference: z.string().nullable(), amountCents: Cents, description: z.string() }),
  ),
  claims: z.array(RemittanceClaimView),
  /** The ledger transactions of this posting, the deposit's included once it was matched. */
  ledgerTransactionIds: z.array(z.string()),
  /** True once the bank's deposit for this trace was matched (reassociation). */
  depositMatched: z.boolean(),
});

export const RemittanceParams = z.object({ id: z.string().trim().min(1).max(200) });

/** Newest first, at most 100. */
export async function listRemittances(
  deps: { db: Db },
  input: { clinicId: string },
): Promise<z.infer<typeof RemittanceList>> {
  const rows = await deps.db.remittance.findMany({
    where: { clinicId: input.clinicId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: 100,
    select: {
      id: true,
      payerName: true,
      payerId: true,
      traceNumber: true,
      paymentCents: true,
      paymentDate: true,
      paymentMethod: true,
      createdAt: true,
      source: true,
      claims: { select: { posting: true } },
    },
  });
  return {
    remittances: rows.map(({ claims, ...row }) => ({
      ...row,
      paymentCents: centsToNumber(row.paymentCents),
      claimCount: claims.length,
      unmatchedCount: claims.filter((claim) => claim.posting === 'unmatched').length,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}

/** Splits the stored list (CAS, then remarks as group RARC: post-remittance.ts) into adjustments and remarks. */
export function splitAdjustments(stored: unknown): {
  adjustments: StoredAdjustment[];
  remarks: { code: string; description: string; line: number | null }[];
} {
  const all = Array.isArray(stored) ? (stored as StoredAdjustment[]) : [];
  return {
    adjustments: all.filter((a) => a.group !== 'RARC'),
    remarks: all
      .filter((a) => a.group === 'RARC')
      .map((a) => ({ code: a.reason, description: a.description, line: a.line })),
  };
}

/** @throws NOT_FOUND (404) unless the remittance is the clinic's. */
export async function getRemittance(
  deps: { db: Db },
  input: { clinicId: string; remittanceId: string },
): Promise<z.infer<typeof RemittanceDetail>> {
  const row = await deps.db.remittance.findFirst({
    where: { id: input.remittanceId, clinicId: input.clinicId },
    include: { claims: { orderBy: { position: 'asc' } } },
  });
  if (!row) throw new AppError('NOT_FOUND', 'No such remittance');
  // Only posted CLPs name a claim of the clinic; an unmatched one's id is shown as the payer wrote it.
  const claimIds = [...new Set(row.claims.filter((c) => c.posting === 'posted').map((c) => c.claimId))];
  const patientOf = new Map(
    (
      await deps.db.claim.findMany({
        where: { clinicId: input.clinicId, id: { in: claimIds } },
        select: { id: true, patientId: true },
      })
    ).map((c) => [c.id, c.patientId]),
  );
  const patients = await readPatientNames(deps.db, input.clinicId, patientOf.values());
  const deposit = await deps.db.ledgerTransaction.findFirst({
    where: { clinicId: input.clinicId, kind: 'remittance.deposit', reference: `remittance:${row.id}` },
    select: { id: true },
  });
  const providerAdjustments = Array.isArray(row.providerAdjustments)
    ? (row.providerAdjustments as { reason: string; reference: string | null; amountCents: number }[])
    : [];
  return {
    id: row.id,
    payerName: row.payerName,
    payerId: row.payerId,
    payeeNpi: row.payeeNpi,
    traceNumber: row.traceNumber,
    paymentCents: centsToNumber(row.paymentCents),
    paymentDate: row.paymentDate,
    paymentMethod: row.paymentMethod,
    claimCount: row.claims.length,
    unmatchedCount: row.claims.filter((claim) => claim.posting === 'unmatched').length,
    createdAt: row.createdAt.toISOString(),
    source: row.source,
    providerAdjustments: providerAdjustments.map((a) => ({
      reason: a.reason,
      reference: a.reference,
      amountCents: a.amountCents,
      description: describeProviderAdjustment(a.reason),
    })),
    claims: row.claims.map((claim) => {
      const patientId = claim.posting === 'posted' ? (patientOf.get(claim.claimId) ?? null) : null;
      return {
        claimId: claim.claimId,
        posting: claim.posting === 'unmatched' ? ('unmatched' as const) : ('posted' as const),
        unmatchedReason: claim.unmatchedReason,
        patientId,
        patientName: (patientId && patients.get(patientId)?.name) ?? null,
        payerClaimId: claim.payerClaimId,
        statusCode: claim.statusCode,
        statusText: describeClaimStatus(claim.statusCode),
        chargeCents: centsToNumber(claim.chargeCents),
        paidCents: centsToNumber(claim.paidCents),
        patientResponsibilityCents: centsToNumber(claim.patientResponsibilityCents),
        ...splitAdjustments(claim.adjustments),
        lines: Array.isArray(claim.lines) ? (claim.lines as z.infer<typeof RemittanceClaimView>['lines']) : [],
      };
    }),
    ledgerTransactionIds: row.ledgerTransactionIds,
    depositMatched: deposit !== null,
  };
}
