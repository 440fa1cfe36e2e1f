// Collections per week (weeks start on Monday, in the clinic's calendar), from the ledger: payers' money is what
// each 835 put into `assets:era-clearing` (CLP04 less its PLB reductions: the 835's payment, BPR02; a reversal
// takes its money back), dated by the 835's payment date (BPR16, already a calendar date); patients' and
// partners' payments are the cash of `payment.succeeded`, dated by when they posted, in the clinic's zone. Every
// week of the period is listed, zero or not, so a chart's gaps are real.
import { z } from 'zod';
import type { Db } from '../db';
import { LEDGER_ACCOUNTS } from '../ledger/ledger-accounts';
import { DEPOSIT_KIND } from '../remittances/reassociate';
import { centsToNumber } from '../money/cents-to-number';
import type { Period } from './dashboard-period';

export const Collections = z.object({
  from: z.string(),
  to: z.string(),
  weeks: z.array(
    z.object({
      /** The Monday the week starts on (it may start before `from`). */
      weekStart: z.string(),
      payerCents: z.number().int(),
      patientCents: z.number().int(),
      totalCents: z.number().int(),
    }),
  ),
  totalCents: z.number().int(),
});
export type Collections = z.infer<typeof Collections>;

export async function readCollections(
  deps: { db: Db },
  input: { clinicId: string; timeZone: string; period: Period },
): Promise<Collections> {
  const { clinicId, timeZone, period } = input;
  const rows = await deps.db.$queryRaw<{ week: string; payer: bigint; patient: bigint }[]>`
    WITH weeks AS (
      SELECT generate_series(date_trunc('week', ${period.from}::date), date_trunc('week', ${period.to}::date),
        interval '7 days')::date AS week
    ), payer AS (
      SELECT date_trunc('week', r."paymentDate"::date)::date AS week, SUM(e."amountCents") AS cents
      FROM "Remittance" r
      JOIN "LedgerTransaction" t ON t."clinicId" = r."clinicId"
        AND (t."reference" = 'remittance:' || r."id" OR t."reference" LIKE 'remittance:' || r."id" || ':%')
        -- The deposit's reassociation moves the money on from era-clearing to the bank: not a collection.
        AND t."kind" <> ${DEPOSIT_KIND}
      JOIN "LedgerEntry" e ON e."transactionId" = t."id" AND e."account" = ${LEDGER_ACCOUNTS.eraClearing}
      WHERE r."clinicId" = ${clinicId} AND r."paymentDate"::date BETWEEN ${period.from}::date AND ${period.to}::date
      GROUP BY 1
    ), patient AS (
      SELECT date_trunc('week', (t."createdAt" AT TIME ZONE 'UTC') AT TIME ZONE ${timeZone})::date AS week,
        SUM(e."amountCents") AS cents
      FROM "LedgerTransaction" t
      JOIN "LedgerEntry" e ON e."transactionId" = t."id" AND e."account" = ${LEDGER_ACCOUNTS.cash}
      WHERE t."clinicId" = ${clinicId} AND t."kind" = 'payment.succeeded'
        AND ((t."createdAt" AT TIME ZONE 'UTC') AT TIME ZONE ${timeZone})::date
          BETWEEN ${period.from}::date AND ${period.to}::date
      GROUP BY 1
    )
    SELECT to_char(w.week, 'YYYY-MM-DD') AS week, COALESCE(payer.cents, 0) AS payer,
      COALESCE(patient.cents, 0) AS patient
    FROM weeks w LEFT JOIN payer ON payer.week = w.week LEFT JOIN patient ON patient.week = w.week
    ORDER BY w.week`;
  const weeks = rows.map((row) => {
    const payerCents = centsToNumber(row.payer);
    const patientCents = centsToNumber(row.patient);
    return { weekStart: row.week, payerCents, patientCents, totalCents: payerCents + patientCents };
  });
  return { ...period, weeks, totalCents: weeks.reduce((sum, week) => sum + week.totalCents, 0) };
}
