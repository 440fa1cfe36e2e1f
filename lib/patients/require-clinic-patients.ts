// The one patient-scope check: patient-touching work needs every patient to be enrolled in the caller's clinic.
// A patient of another clinic and one that does not exist get the same 403 and the same message (DECISIONS.md:
// no existence oracle), whether the check is this query or part of a larger statement (the PHI access log).
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

/**
 * The clinic's patients by id (duplicate ids collapse to one).
 * @throws OUT_OF_SCOPE (403) when any id is not a patient of `clinicId`.
 */
export async function requireClinicPatients(
  db: Db,
  clinicId: string,
  patientIds: readonly string[],
): Promise<Map<string, ClinicPatient>> {
  const unique = [...new Set(patientIds)];
  const rows = await db.patient.findMany({
    where: { clinicId, id: { in: unique } },
    select: {
      id: true,
      firstName: true,
      lastName: true,
      birthDate: true,
      coverageMemberId: true,
      coveragePayerId: true,
      coveragePayerName: true,
    },
  });
  if (rows.length !== unique.length) refuseOutOfClinic(clinicId, unique.length - rows.length, unique.length);
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The refusal itself, for a scope check made another way (a statement that counts the patients it found in the
 * clinic, a read inside a transaction). `missing` of `requested` distinct ids go to the log, never the body.
 * @throws OUT_OF_SCOPE (403), always.
 */
export function refuseOutOfClinic(clinicId: string, missing: number, requested: number): never {
  throw new AppError('OUT_OF_SCOPE', 'The patient is not enrolled in your clinic', {
    cause: new Error(`${missing} of ${requested} patient ids are not in clinic ${clinicId}`),
  });
}
