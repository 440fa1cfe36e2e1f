// PUT /api/patients/{id}/coverage's domain: staff replace a patient's primary or secondary coverage on file (payer,
// member id, group number), typically after a verify answered `coverageOnFile: mismatch`. The claims precondition compares
// checks with the coverage on file as it is at submit time, so a change here invalidates earlier checks of the
// old coverage. The change and its audit row are one transaction; the audit names no member id (PHI).
import { z } from 'zod';
import type { Clock } from '../clock';
import type { Db } from '../db';
import { recordAudit } from '../audit/record-audit';
import { canonicalId } from '../eligibility/coverage-on-file';
import { findPayerName } from '../eligibility/payer-directory';
import { MemberId, PayerId, x12Text } from '../eligibility/x12-fields';
import { refuseOutOfClinic } from './require-clinic-patients';

export const PatientParams = z.object({ id: z.string().trim().min(1).max(200) });

/** A PUT replaces the whole coverage on file: an absent groupNumber clears the one on file. */
export const CoverageBody = z.object({
  payerId: PayerId,
  memberId: MemberId,
  // 2100C REF*6P: REF02 is 1..50 characters.
  groupNumber: x12Text('groupNumber', 50).optional(),
  /** Which coverage this is (DECISIONS "Claim lifecycle"): the primary (default) or the secondary on file. */
  rank: z.enum(['primary', 'secondary']).default('primary'),
});
export type CoverageBody = z.infer<typeof CoverageBody>;

export const CoverageView = z.object({
  patientId: z.string(),
  rank: z.enum(['primary', 'secondary']),
  payerId: z.string(),
  /** The payer's name: kept when the payer id is unchanged, else the directory's name (null when not listed). */
  payerName: z.string().nullable(),
  memberId: z.string(),
  groupNumber: z.string().nullable(),
  updatedAt: z.iso.datetime(),
});
export type CoverageView = z.infer<typeof CoverageView>;

export type CoverageChange = z.input<typeof CoverageBody> & {
  patientId: string;
  clinicId: string;
  orgId: string;
  userId: string;
  correlationId: string;
};

/**
 * Replaces the coverage on file of a patient of the caller's clinic and records it in the audit log.
 * @throws OUT_OF_SCOPE (403) for a patient of another clinic or none at all (the same answer: no existence
 *   oracle); nothing changes then and the refusal is audited.
 */
export async function updateCoverage(deps: { db: Db; clock: Clock }, change: CoverageChange): Promise<CoverageView> {
  const { db } = deps;
  const who = {
    correlationId: change.correlationId,
    userId: change.userId,
    orgId: change.orgId,
    clinicId: change.clinicId,
  };
  const rank = change.rank ?? 'primary';
  const columns = COLUMNS[rank];
  const updated = await db.$transaction(async (tx) => {
    const row = await tx.patient.findFirst({
      where: { id: change.patientId, clinicId: change.clinicId },
      select: {
        [columns.payerId]: true,
        [columns.payerName]: true,
        [columns.memberId]: true,
        [columns.groupNumber]: true,
      },
    });
    if (!row) return null;
    const before = row as unknown as Record<string, string | null>;
    const beforePayerId = before[columns.payerId] ?? null;
    const samePayer = beforePayerId !== null && canonicalId(beforePayerId) === canonicalId(change.payerId);
    const payerName = samePayer ? (before[columns.payerName] ?? null) : findPayerName(change.payerId);
    const groupNumber = change.groupNumber ?? null;
    const patient = await tx.patient.update({
      where: { id: change.patientId },
      data: {
        [columns.payerId]: change.payerId,
        [columns.payerName]: payerName,
        [columns.memberId]: change.memberId,
        [columns.groupNumber]: groupNumber,
      },
      select: { id: true, updatedAt: true },
    });
    await recordAudit(tx, {
      ...who,
      action: 'patients.coverage.update',
      outcome: 'success',
      detail: {
        patientId: change.patientId,
        rank,
        // Which parts changed, never their values: member and group numbers are PHI.
        payerChanged: !samePayer,
        memberIdChanged: before[columns.memberId] !== change.memberId,
        groupNumberChanged: before[columns.groupNumber] !== groupNumber,
      },
    });
    return { ...patient, payerName, groupNumber };
  });
  if (!updated) {
    await recordAudit(db, {
      ...who,
      action: 'patients.coverage.update',
      outcome: 'refused',
      detail: { patientId: change.patientId, reason: 'not-in-clinic' },
    });
    refuseOutOfClinic(change.clinicId, 1, 1);
  }
  return {
    patientId: updated.id,
    rank,
    payerId: change.payerId,
    payerName: updated.payerName,
    memberId: change.memberId,
    groupNumber: updated.groupNumber,
    updatedAt: updated.updatedAt.toISOString(),
  };
}

/** The Patient columns of each rank's coverage. */
const COLUMNS = {
  primary: {
    payerId: 'coveragePayerId',
    payerName: 'coveragePayerName',
    memberId: 'coverageMemberId',
    groupNumber: 'coverageGroupNumber',
  },
  secondary: {
    payerId: 'secondaryPayerId',
    payerName: 'secondaryPayerName',
    memberId: 'secondaryMemberId',
    groupNumber: 'secondaryGroupNumber',
  },
} as const;
