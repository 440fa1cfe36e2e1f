// The PHI access log: which staff user read which patient's protected data, for what, under which correlation
// id. One row per patient read; written before the data leaves the building (e.g. before a 270 is sent).
import type { Db, Prisma } from '../db';

export type PhiAccess = {
  orgId: string;
  clinicId: string;
  userId: string;
  /** What the read was for, e.g. "eligibility.verify". */
  purpose: string;
  correlationId: string;
};

type PhiWriter = Pick<Db, 'phiAccessLog'> | Prisma.TransactionClient;

/** One row per patient id (duplicates collapse to one). */
export async function recordPhiAccess(db: PhiWriter, access: PhiAccess, patientIds: readonly string[]): Promise<void> {
  const unique = [...new Set(patientIds)];
  if (unique.length === 0) return;
  await db.phiAccessLog.createMany({ data: unique.map((patientId) => ({ ...access, patientId })) });
}
