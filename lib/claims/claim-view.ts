// A claim as the API shows it: money in integer cents (JSON numbers), dates as ISO strings, the lines and
// diagnoses it will carry in the 837P, and the payer and member id it was (or will be) sent to. It names the patient
// (name and date of birth) so billing, which works claims without patients:read, sees people rather than ids.
import { z } from 'zod';
import type { Db, Prisma } from '../db';
import { centsToNumber } from '../money/cents-to-number';
import { readPatientNames } from '../patients/patient-names';
import { NEXT_ACTIONS, type NextActionAdvice } from '../remittances/next-action';
import { claimBalanceCents } from './claim-balance';
import { CLAIMS_WITH_NEXT_ACTION, claimNextAction } from './claim-next-action';
import { CLAIM_STATUSES, type ClaimStatus } from './claim-states';
import { findLatestRemittances } from './latest-remittances';
import { claimsWithSecondaryToBill } from './claims-with-secondary-to-bill';

export { CLAIM_STATUSES };

export const ClaimLineView = z.object({
  /** LX01, from 1. */
  position: z.number().int(),
  procedureCode: z.string(),
  modifiers: z.array(z.string()),
  diagnosisPointers: z.array(z.number().int()),
  units: z.number().int(),
  chargeCents: z.number().int(),
  /** YYYY-MM-DD; null: the claim's serviceDate. */
  serviceDate: z.string().nullable(),
  paidCents: z.number().int(),
});

export const ClaimView = z.object({
  claimId: z.string(),
  patientId: z.string(),
  /** "First Last"; null only if the clinic no longer has the patient's record. */
  patientName: z.string().nullable(),
  /** YYYY-MM-DD; null as patientName. */
  patientBirthDate: z.string().nullable(),
  status: z.enum(CLAIM_STATUSES),
  totalChargeCents: z.number().int(),
  paidCents: z.number().int(),
  patientResponsibilityCents: z.number().int(),
  adjustmentCents: z.number().int(),
  /** What the clinic wrote off (POST /api/claims/{id}/write-off). */
  writtenOffCents: z.number().int(),
  /** Charge − paid − adjustments − written off − moved to the patient: what a write-off may still take. */
  balanceCents: z.number().int(),
  /** For denied and partially paid claims (else null): what to do next, by the latest remittance's codes. */
  nextAction: z.enum(NEXT_ACTIONS).nullable(),
  /** Why, in words, with the code acted on; null with nextAction. */
  nextActionReason: z.string().nullable(),
  serviceDate: z.string(),
  placeOfService: z.string(),
  diagnoses: z.array(z.string()),
  lines: z.array(ClaimLineView),
  renderingNpi: z.string().nullable(),
  /** The coverage the claim was sent to; null until it is submitted. */
  payerId: z.string().nullable(),
  payerName: z.string().nullable(),
  memberId: z.string().nullable(),
  /** Why the claim is in its state, in words (a 999 or 277CA rejection, a denial). */
  statusReason: z.string().nullable(),
  idempotencyKey: z.string().nullable(),
  submittedAt: z.string().nullable(),
  createdAt: z.string(),
  /** CLM05-3 (DECISIONS "Claim lifecycle"): "1" original, "7" replacement, "8" void of replacesClaimId. */
  frequency: z.enum(['1', '7', '8']),
  replacesClaimId: z.string().nullable(),
  /** Which coverage the claim bills; a secondary names its primary claim in primaryClaimId. */
  payerRank: z.enum(['primary', 'secondary']),
  primaryClaimId: z.string().nullable(),
  /** The payer's claim control number (277CA or the 835's CLP07): REF*F8 of a replacement or void. */
  payerClaimId: z.string().nullable(),
});
export type ClaimView = z.infer<typeof ClaimView>;

type ClaimLineRow = {
  position: number;
  procedureCode: string;
  modifiers: string[];
  diagnosisPointers: number[];
  units: number;
  chargeCents: bigint;
  serviceDate: string | null;
  paidCents: bigint;
};

export type ClaimRow = {
  id: string;
  patientId: string;
  status: string;
  totalChargeCents: bigint;
  paidCents: bigint;
  patientResponsibilityCents: bigint;
  adjustmentCents: bigint;
  writtenOffCents: bigint;
  serviceDate: string;
  placeOfService: string;
  diagnoses: string[];
  renderingNpi: string | null;
  payerId: string | null;
  payerName: string | null;
  memberId: string | null;
  statusReason: string | null;
  idempotencyKey: string | null;
  submittedAt: Date | null;
  createdAt: Date;
  frequency: string;
  replacesClaimId: string | null;
  payerRank: string;
  primaryClaimId: string | null;
  payerClaimId: string | null;
  lines: ClaimLineRow[];
};

/** Prisma's include for a ClaimRow: the lines in LX order. */
export const CLAIM_LINES = { lines: { orderBy: { position: 'asc' } } } as const;

/** The views of a clinic's claims, their patients read in one query. */
export async function toClaimViews(
  db: Db | Prisma.TransactionClient,
  clinicId: string,
  rows: readonly ClaimRow[],
): Promise<ClaimView[]> {
  const patients = await readPatientNames(
    db,
    clinicId,
    rows.map((row) => row.patientId),
  );
  const advice = await findNextActions(db, clinicId, rows);
  return rows.map((row) => toClaimView(row, patients.get(row.patientId) ?? null, advice.get(row.id) ?? null));
}

/** The next action of each denied or partially paid claim among `rows`, their remittances read in one query. */
async function findNextActions(
  db: Db | Prisma.TransactionClient,
  clinicId: string,
  rows: readonly ClaimRow[],
): Promise<Map<string, NextActionAdvice>> {
  const worked = rows.filter((row) => CLAIMS_WITH_NEXT_ACTION.includes(row.status));
  const latest = await findLatestRemittances(
    db,
    clinicId,
    worked.map((row) => row.id),
  );
  const secondaryToBill = await claimsWithSecondaryToBill(db, clinicId, worked);
  const entries = worked.map(
    (row) => [row.id, claimNextAction(row, latest.get(row.id)?.adjustments, secondaryToBill.has(row.id))] as const,
  );
  return new Map(entries.filter((entry): entry is [string, NextActionAdvice] => entry[1] !== null));
}

/** One claim's view, its patient read from the clinic's records. */
export async function toClaimViewOf(
  db: Db | Prisma.TransactionClient,
  clinicId: string,
  row: ClaimRow,
): Promise<ClaimView> {
  const [view] = await toClaimViews(db, clinicId, [row]);
  return view!;
}

export function toClaimView(
  row: ClaimRow,
  patient: { name: string; birthDate: string } | null,
  advice: NextActionAdvice | null,
): ClaimView {
  return {
    claimId: row.id,
    patientId: row.patientId,
    patientName: patient?.name ?? null,
    patientBirthDate: patient?.birthDate ?? null,
    status: row.status as ClaimStatus,
    totalChargeCents: centsToNumber(row.totalChargeCents),
    paidCents: centsToNumber(row.paidCents),
    patientResponsibilityCents: centsToNumber(row.patientResponsibilityCents),
    adjustmentCents: centsToNumber(row.adjustmentCents),
    writtenOffCents: centsToNumber(row.writtenOffCents),
    balanceCents: centsToNumber(claimBalanceCents(row)),
    nextAction: advice?.nextAction ?? null,
    nextActionReason: advice?.nextActionReason ?? null,
    serviceDate: row.serviceDate,
    placeOfService: row.placeOfService,
    diagnoses: row.diagnoses,
    lines: row.lines.map((line) => ({
      position: line.position,
      procedureCode: line.procedureCode,
      modifiers: line.modifiers,
      diagnosisPointers: line.diagnosisPointers,
      units: line.units,
      chargeCents: centsToNumber(line.chargeCents),
      serviceDate: line.serviceDate,
      paidCents: centsToNumber(line.paidCents),
    })),
    renderingNpi: row.renderingNpi,
    payerId: row.payerId,
    payerName: row.payerName,
    memberId: row.memberId,
    statusReason: row.statusReason,
    idempotencyKey: row.idempotencyKey,
    submittedAt: row.submittedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    frequency: row.frequency === '7' || row.frequency === '8' ? row.frequency : '1',
    replacesClaimId: row.replacesClaimId,
    payerRank: row.payerRank === 'secondary' ? 'secondary' : 'primary',
    primaryClaimId: row.primaryClaimId,
    payerClaimId: row.payerClaimId,
  };
}
