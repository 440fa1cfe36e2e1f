// Days in accounts receivable (DECISIONS "Staff app, second round"): open A/R / (charges of the last 90 days / 90).
// Open A/R is every claim's open balance (claim-balances.ts); the charges are the billed totals of the claims sent
// to a payer whose date of service falls in the 90 days that end today in the clinic's zone. One SQL statement;
// null when there were no charges (the ratio has no meaning).
import { z } from 'zod';
import type { Db } from '../db';
import { centsToNumber } from '../money/cents-to-number';
import { TRANSMITTED_STATES } from '../claims/claim-states';
import { Prisma } from '../db/generated/client';
import { clinicToday } from '../time/clinic-day';
import { openClaimsCte } from './claim-balances';

export const DaysInAr = z.object({
  asOf: z.string(),
  openArCents: z.number().int(),
  /** Billed charges with a date of service in the 90 days up to `asOf`. */
  charges90DaysCents: z.number().int(),
  /** Rounded to one decimal; null without charges. */
  daysInAr: z.number().nullable(),
});
export type DaysInAr = z.infer<typeof DaysInAr>;

export async function readDaysInAr(
  deps: { db: Db; clock: () => Date },
  input: { clinicId: string; timeZone: string },
): Promise<DaysInAr> {
  const asOf = clinicToday(deps.clock(), input.timeZone);
  const [row = { open: 0n, charges: 0n, days: null }] = await deps.db.$queryRaw<
    { open: bigint; charges: bigint; days: string | null }[]
  >`
    WITH ${openClaimsCte(input.clinicId)},
    open_ar AS (SELECT COALESCE(SUM("openCents"), 0) AS open FROM open_claims),
    charges AS (
      SELECT COALESCE(SUM("totalChargeCents"), 0) AS charges FROM "Claim"
      WHERE "clinicId" = ${input.clinicId} AND "status" IN (${Prisma.join([...TRANSMITTED_STATES])})
        AND "serviceDate"::date BETWEEN ${asOf}::date - 89 AND ${asOf}::date
    )
    SELECT open, charges,
      CASE WHEN charges > 0 THEN ROUND(open * 90.0 / charges, 1)::text END AS days
    FROM open_ar, charges`;
  return {
    asOf,
    openArCents: centsToNumber(row.open),
    charges90DaysCents: centsToNumber(row.charges),
    daysInAr: row.days === null ? null : Number(row.days),
  };
}
