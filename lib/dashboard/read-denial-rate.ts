// Denial rate and the top denial reasons (DECISIONS "Staff app, second round"): of the claims whose first 835
// arrived in the period (in the clinic's zone), those that first 835 denied in full (CLP02 4 or 23, or processed
// with nothing paid and nothing owed by the patient: lib/remittances/claim-outcome.ts), and the CARCs of those
// denials outside the patient's share, in words, most claims first. One SQL statement per figure.
import { z } from 'zod';
import type { Db } from '../db';
import { Prisma } from '../db/generated/client';
import { centsToNumber } from '../money/cents-to-number';
import type { Period } from './dashboard-period';

export const DenialRate = z.object({
  from: z.string(),
  to: z.string(),
  claimsWithFirstRemittance: z.number().int(),
  deniedInFull: z.number().int(),
  /** deniedInFull / claimsWithFirstRemittance, 0..1 to four decimals; null without any first remittance. */
  denialRate: z.number().nullable(),
  topReasons: z.array(
    z.object({
      group: z.string(),
      reason: z.string(),
      /** The CARC in words. */
      description: z.string(),
      claims: z.number().int(),
      amountCents: z.number().int(),
    }),
  ),
});
export type DenialRate = z.infer<typeof DenialRate>;

const TOP_REASONS = 10;

export async function readDenialRate(
  deps: { db: Db },
  input: { clinicId: string; timeZone: string; period: Period },
): Promise<DenialRate> {
  const { clinicId, timeZone, period } = input;
  const firstRemittances = deps.db.$queryRaw<{ claims: bigint; denied: bigint }[]>`
    WITH ${firstClpCte(clinicId, timeZone, period)}
    SELECT COUNT(*) AS claims, COUNT(*) FILTER (WHERE denied) AS denied FROM first_clp`;
  const reasons = deps.db.$queryRaw<
    { group: string; reason: string; description: string | null; claims: bigint; cents: bigint }[]
  >`
    WITH ${firstClpCte(clinicId, timeZone, period)}
    SELECT a->>'group' AS "group", a->>'reason' AS reason, MAX(a->>'description') AS description,
      COUNT(DISTINCT f."claimId") AS claims, SUM((a->>'amountCents')::bigint) AS cents
    FROM first_clp f, jsonb_array_elements(f."adjustments") a
    WHERE f.denied AND a->>'group' NOT IN ('PR', 'RARC')
    GROUP BY 1, 2 ORDER BY claims DESC, cents DESC, reason LIMIT ${TOP_REASONS}`;
  const [[counts = { claims: 0n, denied: 0n }], top] = await Promise.all([firstRemittances, reasons]);
  const claims = Number(counts.claims);
  const denied = Number(counts.denied);
  return {
    ...period,
    claimsWithFirstRemittance: claims,
    deniedInFull: denied,
    denialRate: claims > 0 ? Math.round((denied / claims) * 10_000) / 10_000 : null,
    topReasons: top.map((row) => ({
      group: row.group,
      reason: row.reason,
      description: row.description ?? `CARC ${row.reason}`,
      claims: Number(row.claims),
      amountCents: centsToNumber(row.cents),
    })),
  };
}

/** `first_clp`: each claim's first posted CLP (earliest 835 received, then file order), if it came in the period. */
function firstClpCte(clinicId: string, timeZone: string, period: Period) {
  return Prisma.sql`firsts AS (
      SELECT DISTINCT ON (rc."claimId") rc."claimId", rc."statusCode", rc."paidCents",
        rc."patientResponsibilityCents", rc."adjustments", r."createdAt"
      FROM "RemittanceClaim" rc JOIN "Remittance" r ON r."id" = rc."remittanceId"
      WHERE rc."clinicId" = ${clinicId} AND rc."posting" = 'posted'
      ORDER BY rc."claimId", r."createdAt", rc."position"
    ), first_clp AS (
      SELECT *, ("statusCode" IN ('4', '23') OR ("statusCode" IN ('1', '2', '3', '19', '20', '21')
          AND "paidCents" <= 0 AND "patientResponsibilityCents" <= 0)) AS denied
      FROM firsts
      WHERE (("createdAt" AT TIME ZONE 'UTC') AT TIME ZONE ${timeZone})::date
        BETWEEN ${period.from}::date AND ${period.to}::date
    )`;
}
