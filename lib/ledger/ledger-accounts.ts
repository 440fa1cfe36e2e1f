// The chart of accounts: every account name this platform posts to. Names are stored in `LedgerEntry.account`
// and stable once written: reconciliation and reports group by them. The prefix is the account class, so the
// sign of a balance reads naturally (assets carry debit balances, liabilities and revenue credit balances).
export const LEDGER_ACCOUNTS = {
  /** Money the clinic has received into its own bank account (patient and payer payments). */
  cash: 'assets:cash',
  /** What patients owe on open PatientBills; a `payment.succeeded` for a bill credits it. */
  patientReceivable: 'assets:patient-receivable',
  /** What payers owe on submitted claims; a claim payment or ERA posting credits it. */
  claimsReceivable: 'assets:claims-receivable',
  /**
   * The For-Benefit-Of bank account that holds settlement pool funds. Nightly reconciliation compares its
   * ledger balance with the FBO position and the rail (SPEC.md, Money rule 3).
   */
  fbo: 'assets:fbo',
  /**
   * What a clinic owes back for executed settlement advances (the whole advance: residual paid out, fee
   * earned, reserve held). Repaid from the clinic's later claim payments.
   */
  settlementAdvances: 'assets:settlement-advances',
  /** Settlement advances owed to the clinic under executed instructions until the rail confirms payment. */
  advancesPayable: 'liabilities:advances-payable',
  /** The part of a waterfall held back (`reserveCents`) and owed to the clinic when it is released. */
  reserve: 'liabilities:reserve',
  /**
   * Money received beyond what a bill or claim still owed (an overpayment). Owed back to the payer or patient
   * until someone applies or refunds it; kept so no cent a partner reports is dropped.
   */
  unappliedPayments: 'liabilities:unapplied-payments',
  /** The platform fee taken from a settlement waterfall (`feeCents`). */
  feeRevenue: 'revenue:platform-fees',
} as const;
