// Reading a clinic's claim with what sending it needs (its lines, the clinic's billing provider, the patient's
// coverage on file), and the line rows a claim body becomes. Tenancy: a claim of another clinic is "No such claim"
// (404), as submit has always answered.
import type { Db, Prisma } from '../db';
import { AppError } from '../errors';
import { CLINIC_BILLING_SELECT, PATIENT_COVERAGE_SELECT } from './assemble-professional-claim';
import type { ClaimLineBody } from './claim-body';
import { CLAIM_LINES } from './claim-view';

type Reader = Db | Prisma.TransactionClient;

/** @throws NOT_FOUND (404) when the clinic has no such claim. */
export async function getClinicClaim(db: Reader, clinicId: string, claimId: string) {
  const claim = await db.claim.findFirst({ where: { id: claimId, clinicId }, include: CLAIM_LINES });
  if (!claim) throw new AppError('NOT_FOUND', 'No such claim');
  return claim;
}

export type ClinicClaim = Awaited<ReturnType<typeof getClinicClaim>>;

/** The clinic's billing provider and the patient's coverage on file, as assembleProfessionalClaim reads them. */
export async function getBillingParties(db: Reader, clinicId: string, patientId: string) {
  const [clinic, patient] = await Promise.all([
    db.clinic.findUniqueOrThrow({ where: { id: clinicId }, select: CLINIC_BILLING_SELECT }),
    db.patient.findFirstOrThrow({ where: { id: patientId, clinicId }, select: PATIENT_COVERAGE_SELECT }),
  ]);
  return { clinic, patient };
}

/** ClaimLine rows for a body's lines, numbered from 1 in the order given (LX01). */
export function toLineRows(clinicId: string, claimId: string, lines: readonly ClaimLineBody[]) {
  return lines.map((line, i) => ({
    claimId,
    clinicId,
    position: i + 1,
    procedureCode: line.procedureCode.toUpperCase(),
    modifiers: line.modifiers.map((modifier) => modifier.toUpperCase()),
    diagnosisPointers: line.diagnosisPointers,
    units: line.units,
    chargeCents: BigInt(line.chargeCents),
    serviceDate: line.serviceDate ?? null,
  }));
}

/** The sum of the lines' charges, in cents. */
export function sumOfLines(lines: readonly ClaimLineBody[]): number {
  return lines.reduce((sum, line) => sum + line.chargeCents, 0);
}

/** Diagnoses as the claim keeps them: upper case, as entered otherwise (with or without the dot). */
export function normaliseDiagnoses(diagnoses: readonly string[]): string[] {
  return diagnoses.map((code) => code.toUpperCase());
}
