// The PHI access log: which staff user read which patient's protected data, for what, under which correlation
// id. One row per patient read; written before the data leaves the building (e.g. before a 270 is sent).
// Logging is also the last scope check: a row is only written for a patient of the caller's clinic, and a list
// with any other patient logs nothing and is refused, so a log row always names a read that was allowed.
// Resources of the clinic's FHIR store (pulled from an EHR) are not the clinic's Patient rows: their reads are
// logged by FHIR reference (`Patient/{served id}`, recordFhirPhiAccess), the store having already scoped them.
import type { Db, Prisma } from '../db';
import { refuseOutOfClinic } from '../patients/require-clinic-patients';

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
// reads in a few milliseconds (Prisma's createMany spends ~0.3 ms of CPU per row), and a single verify scopes
// and logs in one round trip. All or nothing: rows are inserted only when every one names a patient of its
// clinic. The parameter names the access once and lists the patient ids; each row's id is made in the statement.
// A parameter of one row per patient (115 KB for a roster of 500, the access repeated in each row with a UUID made
// here) took 2.5-10 ms to build and PostgreSQL 3-8 ms to plan, as it folds the text's cast into the plan; now 1.3-3
// (docs/decisions.md "Margins"). createdAt goes in as UTC ISO text, which timestamp(3) stores as the UTC wall
// time, as Prisma does.
// Exported to run inside a larger statement (a CTE with RETURNING): see eligibility's loggedCheckStore. A larger
// statement may add a `gate` of its own (SQL over its other CTEs): nothing is logged unless it holds as well, and
// may read the ids too (`jsonb_array_elements_text($1::jsonb -> 'ids')`).
const ACCESS_ROWS = `SELECT gen_random_uuid()::text AS "id", a."orgId", a."clinicId", a."userId", ids.id AS "patientId",
      a."purpose", a."correlationId", a."createdAt"
    FROM jsonb_to_record($1::jsonb) AS a("orgId" text, "clinicId" text, "userId" text, "purpose" text,
      "correlationId" text, "createdAt" timestamp(3), "ids" jsonb)
    CROSS JOIN jsonb_array_elements_text(a."ids") AS ids(id)`;

export const insertAccess = (gate = 'true') => `WITH access AS (
    ${ACCESS_ROWS}
  ), allowed AS (
    SELECT access.* FROM access JOIN "Patient" p ON p."id" = access."patientId" AND p."clinicId" = access."clinicId"
  )
  INSERT INTO "PhiAccessLog" ("id", "orgId", "clinicId", "userId", "patientId", "purpose", "correlationId", "createdAt")
  SELECT "id", "orgId", "clinicId", "userId", "patientId", "purpose", "correlationId", "createdAt" FROM allowed
  WHERE (SELECT count(*) FROM allowed) = (SELECT count(*) FROM access) AND (${gate})`;
export const INSERT_ACCESS = insertAccess();

/** The one parameter of INSERT_ACCESS and the number of rows it must insert (one per distinct id). */
export function accessParameter(access: PhiAccess, ids: readonly string[], now: Date): { json: string; count: number } {
  const unique = [...new Set(ids)];
  const { orgId, clinicId, userId, purpose, correlationId } = access;
  return {
    json: JSON.stringify({
      orgId,
      clinicId,
      userId,
      purpose,
      correlationId,
      createdAt: now.toISOString(),
      ids: unique,
    }),
    count: unique.length,
  };
}

/**
 * One row per patient id (duplicates collapse to one).
 * @throws OUT_OF_SCOPE (403) when any id is not a patient of `access.clinicId` (or does not exist); nothing is
 *   logged then.
 */
export async function recordPhiAccess(
  db: PhiWriter,
  access: PhiAccess,
  patientIds: readonly string[],
  now: Date = new Date(),
): Promise<void> {
  if (patientIds.length === 0) return;
  const logging = accessParameter(access, patientIds, now);
  const logged = await db.$executeRawUnsafe(INSERT_ACCESS, logging.json);
  if (logged !== logging.count) refuseOutOfClinic(access.clinicId, logging.count - logged, logging.count);
}

// The same rows for FHIR references: no join on Patient (a pulled patient is not a Patient row), the caller's
// store read being the clinic scope.
const INSERT_FHIR_ACCESS = `INSERT INTO "PhiAccessLog"
    ("id", "orgId", "clinicId", "userId", "patientId", "purpose", "correlationId", "createdAt")
  ${ACCESS_ROWS}`;

/**
 * One row per FHIR reference (`Patient/{id}`, duplicates collapse to one) that a FHIR read, search or bulk export
 * download of `access.clinicId` is about to return. Call it before the body is sent: a failure fails the read.
 */
export async function recordFhirPhiAccess(
  db: PhiWriter,
  access: PhiAccess,
  references: readonly string[],
  now: Date = new Date(),
): Promise<void> {
  if (references.length === 0) return;
  const logging = accessParameter(access, references, now);
  await db.$executeRawUnsafe(INSERT_FHIR_ACCESS, logging.json);
}
