// Each patient's newest eligibility checks (of any payer or service type), for the roster's changedSinceLastCheck:
// three per patient, newest first, so an answer served from an earlier check still finds the one before it.
import type { Db } from '../db';

export type RecentCheck = {
  createdAt: Date;
  status: string;
  network: string | null;
  priorAuthRequired: boolean | null;
};

// Each patient's three newest through the (clinicId, patientId, createdAt) index, one patient at a time: not a
// window over every check the patients ever had, filtered by `patientId = ANY(500 ids)` (see newestCachedChecks).
const RECENT_CHECKS = `SELECT asked."patientId", c."createdAt", c."status", c."network", c."priorAuthRequired"
  FROM (SELECT DISTINCT jsonb_array_elements_text($2::jsonb) AS "patientId") AS asked
  CROSS JOIN LATERAL (
    SELECT "id", "createdAt", "status", "result"->>'network' AS "network",
      ("result"->>'priorAuthRequired')::boolean AS "priorAuthRequired"
    FROM "EligibilityCheck"
    WHERE "clinicId" = $1 AND "patientId" = asked."patientId"
    ORDER BY "createdAt" DESC, "id" DESC
    LIMIT 3
  ) AS c
  ORDER BY asked."patientId", c."createdAt" DESC, c."id" DESC`;

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
