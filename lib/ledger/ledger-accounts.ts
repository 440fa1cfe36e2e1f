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
  /**
   * What payers' 835s say they paid and the bank has not yet shown: debited per claim payment (CLP04), credited
   * by PLB reductions, and cleared by the matching deposit (reassociation, TRN02 = railReference). Its balance
   * is the money in transit; a balance that stays is an ERA without its deposit.
   */
  eraClearing: 'assets:era-clearing',
  /** A claim's billed charge (CLP03 side): booked once per claim when its first remittance arrives. */
  patientServiceRevenue: 'revenue:patient-services',
  /** CAS group CO: what the payer's contract says the clinic may not bill anyone (contra-revenue). */
  contractualAdjustments: 'expenses:contractual-adjustments',
  /**
   * What the clinic itself decided not to collect on a claim (POST /api/claims/{id}/write-off, kind
   * `claim.write_off`, reference `claim:<claimId>`): debited against the claim's receivable.
   */
  claimWriteOffs: 'expenses:claim-write-offs',
  /** CAS groups OA, PI and CR: other reductions of a claim that nobody will pay. */
  otherAdjustments: 'expenses:other-adjustments',
  /** PLB L6: interest the payer added to the payment (a negative PLB amount). */
  payerInterest: 'revenue:payer-interest',
  /**
   * PLB WO, FB, 72, J1, B2...: earlier overpayments and balances the payer takes back from (or returns with) this
   * payment. Its balance is what payers have recouped at the provider level and is worked against their claims.
   */
  payerRecoupments: 'liabilities:payer-recoupments',
  /** Any other PLB reason (CS, IR, ...): provider-level adjustments in the payer's words. */
  providerAdjustments: 'expenses:provider-adjustments',
} as const;
