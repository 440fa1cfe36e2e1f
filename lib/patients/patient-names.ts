// How an answer names a patient: "First Last". Billing has no patients:read (issue 28), so the claim, bill, denial
// and remittance views carry the name themselves, each reading its page's patients in one query here; the
// appointment list, the claim prefill and picker and the patient statement name them the same way.
import type { Db, Prisma } from '../db';

/** "First Last" (the one name where either part is blank). */
export function patientName(patient: { firstName: string; lastName: string }): string {
  return `${patient.firstName} ${patient.lastName}`.trim();
}

/** The clinic's patients among `ids`, by id, in one query: another clinic's patient, or a gone one, is absent. */
export async function readPatientNames(
  db: Db | Prisma.TransactionClient,
  clinicId: string,
  ids: Iterable<string>,
): Promise<Map<string, { name: string; birthDate: string }>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.patient.findMany({
    where: { clinicId, id: { in: unique } },
    select: { id: true, firstName: true, lastName: true, birthDate: true },
  });
  return new Map(rows.map((row) => [row.id, { name: patientName(row), birthDate: row.birthDate }]));
}
