// Patient-touching claim work requires the patient to be enrolled in the caller's clinic. An unknown patient
// and another clinic's patient get the same answer (DECISIONS.md: no existence oracle).
import type { Db } from '../db';
import { AppError } from '../errors';

/** @throws OUT_OF_SCOPE (403) unless `patientId` is a patient of `clinicId`. */
export async function requireClinicPatient(db: Db, clinicId: string, patientId: string): Promise<void> {
  const patient = await db.patient.findFirst({ where: { id: patientId, clinicId }, select: { id: true } });
  if (!patient) throw new AppError('OUT_OF_SCOPE', 'This patient is not enrolled in your clinic');
}
