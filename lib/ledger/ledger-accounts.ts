// The ledger accounts this platform posts to: the shared chart (lib/money/ledger.ts ACCOUNTS) plus the two
// accounts payments and settlement need beyond it. Names are stable once written: reconciliation and reports
// group by them.
import { ACCOUNTS } from '../money/ledger';

export const LEDGER_ACCOUNTS = {
  ...ACCOUNTS,
  /**
   * What a clinic owes back for executed settlement advances (the whole advance: residual paid out, fee
   * earned, reserve held). Repaid from the clinic's later claim payments.
   */
  settlementAdvances: 'assets:settlement-advances',
  /**
   * Money received beyond what a bill or claim still owed (an overpayment). Owed back to the payer or patient
   * until someone applies or refunds it; kept so no cent a partner reports is dropped.
   */
  unappliedPayments: 'liabilities:unapplied-payments',
} as const;
