// Whether the patient has a secondary coverage on file: the one input of the next-action rules (bill_secondary)
// that the secondary-coverage work owns. Kept to this one function so wiring it is a one-file change.
import type { Db, Prisma } from '../db';

export async function hasSecondaryCoverageOnFile(
  _db: Db | Prisma.TransactionClient,
  _patient: { clinicId: string; patientId: string },
): Promise<boolean> {
  // The lead wires this to Patient.secondaryPayerId when secondary coverage lands.
  return false;
}
