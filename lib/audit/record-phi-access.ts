// The PHI access log: which staff user read which patient's protected data, for what, under which correlation
// id. One row per patient read; written before the data leaves the building (e.g. before a 270 is sent).
import { randomUUID } from 'node:crypto';
import type { Db, Prisma } from '../db';

export type PhiAccess = {
  orgId: string;
  clinicId: string;
  userId: string;
  /** What the read was for, e.g. "eligibility.verify". */
  purpose: string;
  correlationId: string;
};

type PhiWriter = Pick<Db, '$executeRawUnsafe'> | Prisma.TransactionClient;

// One statement with one JSON parameter, whatever the number of patients: a 500-appointment roster logs its
// reads in a few milliseconds (Prisma's createMany spends ~0.3 ms of CPU per row). createdAt goes in as UTC
// ISO text, which timestamp(3) stores as the UTC wall time, as Prisma does.
const INSERT_ACCESS = `INSERT INTO "PhiAccessLog" ("id", "orgId", "clinicId", "userId", "patientId", "purpose", "correlationId", "createdAt")
  SELECT "id", "orgId", "clinicId", "userId", "patientId", "purpose", "correlationId", "createdAt"
  FROM jsonb_to_recordset($1::jsonb) AS rows("id" text, "orgId" text, "clinicId" text, "userId" text, "patientId" text,
    "purpose" text, "correlationId" text, "createdAt" timestamp(3))`;

/** One row per patient id (duplicates collapse to one). */
export async function recordPhiAccess(db: PhiWriter, access: PhiAccess, patientIds: readonly string[], now: Date = new Date()): Promise<void> {
  const unique = [...new Set(patientIds)];
  if (unique.length === 0) return;
  const createdAt = now.toISOString();
  const rows = unique.map((patientId) => ({ id: randomUUID(), ...access, patientId, createdAt }));
  await db.$executeRawUnsafe(INSERT_ACCESS, JSON.stringify(rows));
}
