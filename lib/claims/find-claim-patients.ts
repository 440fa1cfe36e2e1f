// GET /api/claims/patients?q=: the claim editor's patient search. Billing writes claims without patients:read, so
// this answers only what a claim needs to name its patient (id, name, date of birth) of the clinic's own patients,
// at most 20, matched by every word of `q` against the first or last name, or by the patient id itself.
import { z } from 'zod';
import type { Db } from '../db';
import { containsIgnoringCase } from '../db/text-filters';
import { patientName } from '../patients/patient-names';

export const CLAIM_PATIENTS_LIMIT = 20;

export const FindClaimPatientsQuery = z.object({
  q: z.string().trim().min(1, 'Type part of a name or a patient id').max(100),
});

export const ClaimPatientList = z.object({
  patients: z.array(
    z.object({
      patientId: z.string(),
      /** "First Last". */
      name: z.string(),
      /** YYYY-MM-DD. */
      birthDate: z.string(),
    }),
  ),
});

export async function findClaimPatients(
  deps: { db: Db },
  input: z.infer<typeof FindClaimPatientsQuery> & { clinicId: string },
): Promise<z.infer<typeof ClaimPatientList>> {
  const words = input.q.split(/\s+/).filter(Boolean).slice(0, 5);
  const rows = await deps.db.patient.findMany({
    where: {
      clinicId: input.clinicId,
      OR: [
        { id: input.q },
        {
          AND: words.map((word) => ({
            OR: [{ firstName: containsIgnoringCase(word) }, { lastName: containsIgnoringCase(word) }],
          })),
        },
      ],
    },
    select: { id: true, firstName: true, lastName: true, birthDate: true },
    orderBy: [{ lastName: 'asc' }, { firstName: 'asc' }, { id: 'asc' }],
    take: CLAIM_PATIENTS_LIMIT,
  });
  return {
    patients: rows.map((row) => ({
      patientId: row.id,
      name: patientName(row),
      birthDate: row.birthDate,
    })),
  };
}
