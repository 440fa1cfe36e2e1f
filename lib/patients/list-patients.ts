// GET /api/patients's domain: the clinic's patients found by name, date of birth or member id, at most 100,
// ordered by name. Every patient answered is a PHI read, so each is logged (purpose "patients.search") before the
// list leaves; the query is always this clinic's, so another clinic's patients are never found.
import { z } from 'zod';
import type { Clock } from '../clock';
import type { Db, Prisma } from '../db';
import { containsIgnoringCase } from '../db/text-filters';
import { recordPhiAccess } from '../audit/record-phi-access';
import { PATIENT_SUMMARY_SELECT, PatientSummary, patientSummary } from './patient-view';

const MAX_PATIENTS = 100;

export const ListPatientsQuery = z.object({
  /** Words of the name: each must appear in the first or the last name (case ignored). */
  name: z
    .string()
    .trim()
    .max(100, { error: 'Enter at most 100 characters of the name' })
    .optional()
    .transform((v) => v || undefined),
  birthDate: z.iso.date({ error: 'Enter the date of birth as on the card, e.g. 1980-01-31' }).optional(),
  /** Part of the member id (case ignored). */
  memberId: z
    .string()
    .trim()
    .max(80, { error: 'Enter at most 80 characters of the member id' })
    .optional()
    .transform((v) => v || undefined),
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${MAX_PATIENTS}` })
    .int({ error: `limit must be a whole number from 1 to ${MAX_PATIENTS}` })
    .min(1, { error: `limit must be a whole number from 1 to ${MAX_PATIENTS}` })
    .max(MAX_PATIENTS, { error: `limit must be a whole number from 1 to ${MAX_PATIENTS}` })
    .default(50),
});
export type ListPatientsQuery = z.infer<typeof ListPatientsQuery>;

export const PatientList = z.object({
  patients: z.array(PatientSummary),
  /** True when more patients matched than `limit`: narrow the search. */
  truncated: z.boolean(),
});
export type PatientList = z.infer<typeof PatientList>;

export type PatientReader = { clinicId: string; orgId: string; userId: string; correlationId: string };

export async function listPatients(
  deps: { db: Db; clock: Clock },
  reader: PatientReader,
  query: ListPatientsQuery,
): Promise<PatientList> {
  const words = query.name?.split(/\s+/).filter(Boolean) ?? [];
  const where: Prisma.PatientWhereInput = {
    clinicId: reader.clinicId,
    ...(query.birthDate && { birthDate: query.birthDate }),
    ...(query.memberId && { coverageMemberId: containsIgnoringCase(query.memberId) }),
    AND: words.map((word) => ({
      OR: [{ firstName: containsIgnoringCase(word) }, { lastName: containsIgnoringCase(word) }],
    })),
  };
  const rows = await deps.db.patient.findMany({
    where,
    select: PATIENT_SUMMARY_SELECT,
    orderBy: [{ lastName: 'asc' }, { firstName: 'asc' }, { id: 'asc' }],
    take: query.limit + 1,
  });
  const patients = rows.slice(0, query.limit);
  await recordPhiAccess(
    deps.db,
    { ...reader, purpose: 'patients.search' },
    patients.map((p) => p.id),
    deps.clock(),
  );
  return { patients: patients.map(patientSummary), truncated: rows.length > query.limit };
}
