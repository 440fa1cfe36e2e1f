// Patient re-scoping for eligibility: every patient id must belong to the caller's clinic before any 270 is
// built. A patient of another clinic and one that does not exist get the same 403 (no existence oracle).
import type { Db } from '../db';
import { AppError } from '../errors';

export type ClinicPatient = {
  id: string;
  firstName: string;
  lastName: string;
  birthDate: string;
  coverageMemberId: string | null;
  coveragePayerId: string | null;
  coveragePayerName: string | null;
};

/** The clinic's patients by id. Throws OUT_OF_SCOPE (403) when any id is not a patient of this clinic. */
export async function requireClinicPatients(db: Db, clinicId: string, patientIds: readonly string[]): Promise<Map<string, ClinicPatient>> {
  const unique = [...new Set(patientIds)];
  const rows = await db.patient.findMany({
    where: { clinicId, id: { in: unique } },
    select: {
      id: true, firstName: true, lastName: true, birthDate: true,
      coverageMemberId: true, coveragePayerId: true, coveragePayerName: true,
    },
  });
  if (rows.length !== unique.length) {
    throw new AppError('OUT_OF_SCOPE', 'The patient is not enrolled in your clinic', {
      cause: new Error(`${unique.length - rows.length} of ${unique.length} patient ids are not in clinic ${clinicId}`),
    });
  }
  return new Map(rows.map((row) => [row.id, row]));
}
