// Each patient's newest eligibility checks (of any payer or service type), for the roster's changedSinceLastCheck:
// three per patient, newest first, so an answer served from an earlier check still finds the one before it.
import type { Db } from '../db';

export type RecentCheck = {
  createdAt: Date;
  status: string;
  network: string | null;
  priorAuthRequired: boolean | null;
};

const RECENT_CHECKS = `SELECT "patientId", "createdAt", "status", "network", "priorAuthRequired" FROM (
    SELECT "patientId", "createdAt", "status", "result"->>'network' AS "network",
      ("result"->>'priorAuthRequired')::boolean AS "priorAuthRequired",
      row_number() OVER (PARTITION BY "patientId" ORDER BY "createdAt" DESC, "id" DESC) AS n
    FROM "EligibilityCheck"
    WHERE "clinicId" = $1 AND "patientId" = ANY (ARRAY(SELECT jsonb_array_elements_text($2::jsonb)))
  ) AS ranked WHERE n <= 3 ORDER BY "patientId", "createdAt" DESC`;

/** @returns patient id → up to three checks, newest first (patients without a check are absent). */
export async function findRecentChecks(
  db: Db,
  clinicId: string,
  patientIds: readonly string[],
): Promise<Map<string, RecentCheck[]>> {
  const byPatient = new Map<string, RecentCheck[]>();
  if (patientIds.length === 0) return byPatient;
  const rows = await db.$queryRawUnsafe<Array<RecentCheck & { patientId: string }>>(
    RECENT_CHECKS,
    clinicId,
    JSON.stringify([...new Set(patientIds)]),
  );
  for (const { patientId, ...check } of rows) byPatient.set(patientId, [...(byPatient.get(patientId) ?? []), check]);
  return byPatient;
}
