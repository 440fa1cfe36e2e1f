// Accounts receivable aging by payer (DECISIONS "Staff app, second round"): each claim's open balance
// (claim-balances.ts) in the bucket of its age, days from its date of service to today in the clinic's zone:
// 0–30, 31–60, 61–90, 91–120, over 120. Computed in one SQL statement.
import { z } from 'zod';
import type { Db } from '../db';
import { centsToNumber } from '../money/cents-to-number';
import { clinicToday } from '../time/clinic-day';
import { openClaimsCte } from './claim-balances';

const Cents = z.number().int();
const Buckets = {
  days0to30Cents: Cents,
  days31to60Cents: Cents,
  days61to90Cents: Cents,
  days91to120Cents: Cents,
  over120Cents: Cents,
  totalCents: Cents,
};

export const ArAging = z.object({
  /** Today in the clinic's zone: the day ages are counted to. */
  asOf: z.string(),
  payers: z.array(
    z.object({ payerId: z.string().nullable(), payerName: z.string(), claims: z.number().int(), ...Buckets }),
  ),
  totals: z.object({ claims: z.number().int(), ...Buckets }),
});
export type ArAging = z.infer<typeof ArAging>;

type Row = {
  payerId: string | null;
  payerName: string | null;
  claims: bigint;
  b0: bigint;
  b31: bigint;
  b61: bigint;
  b91: bigint;
  b121: bigint;
  total: bigint;
};

export async function readArAging(
  deps: { db: Db; clock: () => Date },
  input: { clinicId: string; timeZone: string },
): Promise<ArAging> {
  const asOf = clinicToday(deps.clock(), input.timeZone);
  const rows = await deps.db.$queryRaw<Row[]>`
    WITH ${openClaimsCte(input.clinicId)}, aged AS (
      SELECT *, (${asOf}::date - "serviceDate"::date) AS age FROM open_claims
    )
    SELECT "payerId", MAX("payerName") AS "payerName", COUNT(*) AS claims,
      COALESCE(SUM("openCents") FILTER (WHERE age <= 30), 0) AS b0,
      COALESCE(SUM("openCents") FILTER (WHERE age BETWEEN 31 AND 60), 0) AS b31,
      COALESCE(SUM("openCents") FILTER (WHERE age BETWEEN 61 AND 90), 0) AS b61,
      COALESCE(SUM("openCents") FILTER (WHERE age BETWEEN 91 AND 120), 0) AS b91,
      COALESCE(SUM("openCents") FILTER (WHERE age > 120), 0) AS b121,
      SUM("openCents") AS total
    FROM aged GROUP BY "payerId" ORDER BY total DESC, "payerId"`;
  const payers = rows.map((row) => ({
    payerId: row.payerId,
    payerName: row.payerName ?? row.payerId ?? 'No payer on file',
    claims: Number(row.claims),
    ...bucketsOf(row),
  }));
  const totals = { claims: 0, ...bucketsOf({ b0: 0n, b31: 0n, b61: 0n, b91: 0n, b121: 0n, total: 0n }) };
  for (const payer of payers) {
    totals.claims += payer.claims;
    for (const key of Object.keys(Buckets) as (keyof typeof Buckets)[]) totals[key] += payer[key];
  }
  return { asOf, payers, totals };
}

function bucketsOf(row: Pick<Row, 'b0' | 'b31' | 'b61' | 'b91' | 'b121' | 'total'>) {
  return {
    days0to30Cents: centsToNumber(row.b0),
    days31to60Cents: centsToNumber(row.b31),
    days61to90Cents: centsToNumber(row.b61),
    days91to120Cents: centsToNumber(row.b91),
    over120Cents: centsToNumber(row.b121),
    totalCents: centsToNumber(row.total),
  };
}
