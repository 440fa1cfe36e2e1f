// Each claim's open balance with its payer, from the ledger: what it owes in `assets:claims-receivable`, summed
// over every transaction tied to the claim (its charge and any write-off by reference `claim:<id>`, each 835 CLP
// posted to it by `remittance:<id>:<position>`, a partner payment by `payment:<id>`). A claim whose charge is not
// booked yet (submission does not book it; the first 835 does) carries its billed total. Only claims with the
// payer: sent (submitted or later), not rejected at the front end; a closed claim keeps only what its ledger says.
// A SQL fragment (a CTE named `open_claims`), so every panel reads the same balances inside its own statement.
import { Prisma } from '../db/generated/client';
import { LEDGER_ACCOUNTS } from '../ledger/ledger-accounts';
import { CLAIM_CHARGE_KIND } from '../remittances/book-claim-charge';

/** States in which an unbooked claim's billed total is still owed by the payer. */
const OWED_STATES = ['submitted', 'accepted', 'paid', 'partially_paid', 'denied', 'appealed'];
/** States whose ledger balance counts: the owed ones and `closed` (written off or settled: usually zero). */
const LEDGER_STATES = [...OWED_STATES, 'closed'];

/** `WITH ... open_claims("id", "payerId", "payerName", "serviceDate", "openCents")`: balances above zero only. */
export function openClaimsCte(clinicId: string): Prisma.Sql {
  const receivable = LEDGER_ACCOUNTS.claimsReceivable;
  return Prisma.sql`claim_ledger AS (
      SELECT c."id" AS "claimId", e."amountCents", t."kind"
      FROM "Claim" c
      JOIN "LedgerTransaction" t ON t."clinicId" = c."clinicId" AND t."reference" = 'claim:' || c."id"
      JOIN "LedgerEntry" e ON e."transactionId" = t."id" AND e."account" = ${receivable}
      WHERE c."clinicId" = ${clinicId}
    UNION ALL
      SELECT rc."claimId", e."amountCents", t."kind"
      FROM "RemittanceClaim" rc
      JOIN "LedgerTransaction" t
        ON t."clinicId" = rc."clinicId" AND t."reference" = 'remittance:' || rc."remittanceId" || ':' || rc."position"
      JOIN "LedgerEntry" e ON e."transactionId" = t."id" AND e."account" = ${receivable}
      WHERE rc."clinicId" = ${clinicId} AND rc."posting" = 'posted'
    UNION ALL
      SELECT p."claimId", e."amountCents", t."kind"
      FROM "Payment" p
      JOIN "LedgerTransaction" t ON t."clinicId" = p."clinicId" AND t."reference" = 'payment:' || p."id"
      JOIN "LedgerEntry" e ON e."transactionId" = t."id" AND e."account" = ${receivable}
      WHERE p."clinicId" = ${clinicId} AND p."claimId" IS NOT NULL
  ), claim_balances AS (
      SELECT c."id", c."payerId", c."payerName", c."serviceDate",
        COALESCE(SUM(l."amountCents"), 0)
          + CASE WHEN bool_or(l."kind" = ${CLAIM_CHARGE_KIND}) OR c."status" NOT IN (${Prisma.join(OWED_STATES)})
              THEN 0 ELSE c."totalChargeCents" END AS "openCents"
      FROM "Claim" c
      LEFT JOIN claim_ledger l ON l."claimId" = c."id"
      WHERE c."clinicId" = ${clinicId} AND c."status" IN (${Prisma.join(LEDGER_STATES)})
      GROUP BY c."id"
  ), open_claims AS (
      SELECT * FROM claim_balances WHERE "openCents" > 0
  )`;
}
