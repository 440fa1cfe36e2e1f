// The ledger posting of an applied payment, from the target's totals after it: cash in, the receivable down
// by what was still owed, and any excess (an overpayment) to liabilities:unapplied-payments, so no cent the
// partner reported is dropped. It is SQL so that it runs in the payment's own statement (record-payment.ts):
// a delivery is one round trip to the database. Balanced by construction (cash = receivable + unapplied);
// the deferred balance trigger checks it again at commit.
import { LEDGER_ACCOUNTS } from '../ledger/ledger-accounts';
import type { PaymentTarget } from './payment-data';

const RECEIVABLE: Record<PaymentTarget['kind'], string> = {
  bill: LEDGER_ACCOUNTS.patientReceivable,
  claim: LEDGER_ACCOUNTS.claimsReceivable,
};

/**
 * The posting as two CTEs (`ledger_transaction`, `ledger_entries`) over a CTE `target` that returned the
 * target's `owedCents` and `paidCents` after the payment; they write nothing when `target` is empty. Parameters:
 * $1 paymentId, $2 clinicId, $5 amountCents, $6 the posting time, $7 the ledger transaction id, $8 correlationId.
 * Entries are numbered `<transaction id>_1..3` in line order, as lib/ledger numbers them.
 */
export function postPaymentSql(kind: PaymentTarget['kind']): string {
  return `ledger_transaction AS (
    INSERT INTO "LedgerTransaction" ("id", "clinicId", "kind", "reference", "correlationId", "createdAt")
    SELECT $7, $2, 'payment.succeeded', 'payment:' || $1, $8, $6 FROM target
  ), ledger_entries AS (
    INSERT INTO "LedgerEntry" ("id", "transactionId", "account", "amountCents")
    SELECT $7 || '_' || ROW_NUMBER() OVER (ORDER BY line.n), $7, line.account, line.cents
    FROM target,
      LATERAL (SELECT GREATEST(LEAST(target."owedCents" - (target."paidCents" - $5::bigint), $5::bigint), 0) AS cents) AS to_receivable,
      LATERAL (VALUES
        (1, '${LEDGER_ACCOUNTS.cash}', $5::bigint),
        (2, '${RECEIVABLE[kind]}', -to_receivable.cents),
        (3, '${LEDGER_ACCOUNTS.unappliedPayments}', to_receivable.cents - $5::bigint)
      ) AS line (n, account, cents)
    WHERE line.cents <> 0
  )`;
}
