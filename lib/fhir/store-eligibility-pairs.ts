// Writes each eligibility check's CoverageEligibilityRequest / CoverageEligibilityResponse pair into the embedded
// FHIR store's table, inside the caller's statement (the check row and its pair are written together). One
// statement with one JSON parameter, like the check rows themselves: a roster writes hundreds. A pair is written
// once and never changed (the check it describes never changes), so its lastUpdated is the check's createdAt,
// which is what `created` searches read. With FHIR_STORE_URL (an external store) the pair still lands here; the
// external store does not serve it (issue #23).
import { buildEligibilityPair, type EligibilityCheckForFhir } from './eligibility-resources';
import { storedRowOf } from './embedded-fhir-store';

/** The pairs' INSERT with its one parameter (eligibilityPairRows) at `$${parameter}`, for a caller's statement. */
export const insertEligibilityPairs = (parameter: number) =>
  `INSERT INTO "FhirResource" AS f ("id", "clinicId", "source", "resourceType", "resourceId", "versionId", "lastUpdated", "contentHash", "resource", "patientRef")
  SELECT 'fr_' || gen_random_uuid(), r."clinicId", '', r."t", r."r", 1, r."at", r."h", r."j", r."p"
  FROM jsonb_to_recordset($${parameter}::jsonb) AS r("clinicId" text, "t" text, "r" text, "at" timestamp(3), "h" text, "j" jsonb, "p" text)
  ON CONFLICT ("clinicId", "source", "resourceType", "resourceId") DO NOTHING`;

/** insertEligibilityPairs' parameter for these checks (two rows each). */
export function eligibilityPairRows(checks: readonly (EligibilityCheckForFhir & { clinicId: string })[]): string {
  return JSON.stringify(
    checks.flatMap((check) => {
      const at = check.createdAt.toISOString();
      return buildEligibilityPair(check).map((resource) => ({
        clinicId: check.clinicId,
        at,
        ...storedRowOf(resource, at),
      }));
    }),
  );
}
