// First-pass clean-claim rate (DECISIONS "Staff app, second round"): of the claims first submitted in the period
// (their first 837P out, in the clinic's zone), those the clearinghouse and payer accepted on that first
// submission: exactly one 837P ever sent, never rejected (no 277CA rejection, no 999 R sending the claim back to
// draft), and now past `sending`. A claim still waiting for its 999 counts in the denominator only. One statement.
import { z } from 'zod';
import type { Db } from '../db';
import type { Period } from './dashboard-period';

export const CleanClaimRate = z.object({
  from: z.string(),
  to: z.string(),
  submitted: z.number().int(),
  cleanOnFirstPass: z.number().int(),
  /** cleanOnFirstPass / submitted, 0..1 to four decimals; null when nothing was submitted. */
  cleanClaimRate: z.number().nullable(),
});
export type CleanClaimRate = z.infer<typeof CleanClaimRate>;

export async function readCleanClaimRate(
  deps: { db: Db },
  input: { clinicId: string; timeZone: string; period: Period },
): Promise<CleanClaimRate> {
  const { clinicId, timeZone, period } = input;
  // An aggregate without GROUP BY answers exactly one row.
  const [row = { submitted: 0n, clean: 0n }] = await deps.db.$queryRaw<{ submitted: bigint; clean: bigint }[]>`
    WITH sends AS (
      SELECT "claimId", MIN("at") AS first_at, COUNT(*) AS sends
      FROM "ClaimTransmission"
      WHERE "clinicId" = ${clinicId} AND "direction" = 'out' AND "kind" = '837P'
      GROUP BY "claimId"
    ), in_period AS (
      SELECT s.*, c."status" FROM sends s JOIN "Claim" c ON c."id" = s."claimId" AND c."clinicId" = ${clinicId}
      WHERE ((s.first_at AT TIME ZONE 'UTC') AT TIME ZONE ${timeZone})::date
        BETWEEN ${period.from}::date AND ${period.to}::date
    )
    SELECT COUNT(*) AS submitted,
      COUNT(*) FILTER (WHERE p.sends = 1 AND p."status" NOT IN ('draft', 'sending', 'rejected')
        AND NOT EXISTS (
          SELECT 1 FROM "ClaimEvent" e
          WHERE e."claimId" = p."claimId" AND e."clinicId" = ${clinicId}
            AND (e."toStatus" = 'rejected' OR (e."fromStatus" = 'sending' AND e."toStatus" = 'draft'))
        )) AS clean
    FROM in_period p`;
  const submitted = Number(row.submitted);
  const clean = Number(row.clean);
  return {
    ...period,
    submitted,
    cleanOnFirstPass: clean,
    cleanClaimRate: submitted > 0 ? Math.round((clean / submitted) * 10_000) / 10_000 : null,
  };
}
