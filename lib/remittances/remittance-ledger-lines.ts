// The ledger lines an 835 posts, as plain values (pure). Amounts keep the 835's sign, so a reversal (CLP02 22,
// every amount negative) posts exactly the opposite of what it names, with no special case:
//   per claim:  Dr era-clearing CLP04 (the payer's payment, until the deposit is seen)
//               Dr contractual-adjustments CAS CO, Dr patient-receivable CAS PR (moved to the patient's bill),
//               Dr other-adjustments CAS OA/PI/CR
//               Cr claims-receivable CLP03 (the charge leaves the payer's receivable)
//   Balanced by the TR3 claim rule: CLP03 = CLP04 + every CAS of the claim and its lines.
//   a secondary payer's CLP (secondaryLedgerLines): Dr era-clearing CLP04, Cr patient-receivable what the patient's
//               bill has open, Cr unapplied-payments the rest.
//   per PLB:    Dr interest / recoupments / provider adjustments, Cr era-clearing, by the PLB amount (a positive
//               PLB reduces the payment, TR3 sign convention; L6 interest is negative and credits revenue).
//   Balanced by the transaction rule: era-clearing then holds sum(CLP04) - sum(PLB) = BPR02.
import { LEDGER_ACCOUNTS } from '../ledger/ledger-accounts';
import type { LedgerLine } from '../ledger/build-posting';
import type { CasAdjustment, ClaimPayment, ProviderAdjustment } from '../x12/read-remittance';

/** The CAS of a claim and of all its lines, claim level first. */
export const allAdjustments = (claim: ClaimPayment): CasAdjustment[] => [
  ...claim.adjustments,
  ...claim.lines.flatMap((line) => line.adjustments),
];

const CAS_ACCOUNT: Readonly<Record<string, string>> = {
  CO: LEDGER_ACCOUNTS.contractualAdjustments,
  PR: LEDGER_ACCOUNTS.patientReceivable,
};

/** Sums of a claim's CAS by group, in cents: `PR` is what moves to the patient's bill. */
export function adjustmentTotals(claim: ClaimPayment): { patientCents: bigint; otherCents: bigint } {
  let patientCents = 0n;
  let otherCents = 0n;
  for (const adjustment of allAdjustments(claim)) {
    if (adjustment.group === 'PR') patientCents += BigInt(adjustment.amountCents);
    else otherCents += BigInt(adjustment.amountCents);
  }
  return { patientCents, otherCents };
}

/** Signed lines, zero totals left out; merges lines of the same account. */
function collect(entries: readonly [string, bigint][]): LedgerLine[] {
  const byAccount = new Map<string, bigint>();
  for (const [account, cents] of entries) byAccount.set(account, (byAccount.get(account) ?? 0n) + cents);
  return [...byAccount].filter(([, cents]) => cents !== 0n).map(([account, amountCents]) => ({ account, amountCents }));
}

/** The claim's posting; empty when every amount is zero (nothing to post). */
export function claimLedgerLines(claim: ClaimPayment): LedgerLine[] {
  const entries: [string, bigint][] = [[LEDGER_ACCOUNTS.eraClearing, BigInt(claim.paidCents)]];
  for (const adjustment of allAdjustments(claim)) {
    const account = CAS_ACCOUNT[adjustment.group] ?? LEDGER_ACCOUNTS.otherAdjustments;
    entries.push([account, BigInt(adjustment.amountCents)]);
  }
  entries.push([LEDGER_ACCOUNTS.claimsReceivable, -BigInt(claim.chargeCents)]);
  return collect(entries);
}

/**
 * A secondary payer's payment settles part of the patient's share the primary's posting moved to the patient
 * receivable: Dr era-clearing CLP04, Cr patient-receivable by `receivableCents` (at most what the patient's bill
 * still has open: plan-posting.ts decides), Cr unapplied-payments by the rest: money beyond what the patient owed,
 * held until someone refunds or applies it, as a patient's own overpayment is (lib/webhooks/post-payment.ts). A
 * reversal (negative CLP04, negative `receivableCents`) takes back the same way. The charge, the primary's
 * settlement (OA-23) and the share left to the patient (PR) were booked with the primary, so they post nothing again.
 */
export function secondaryLedgerLines(claim: ClaimPayment, split: { receivableCents: bigint }): LedgerLine[] {
  const paid = BigInt(claim.paidCents);
  return collect([
    [LEDGER_ACCOUNTS.eraClearing, paid],
    [LEDGER_ACCOUNTS.patientReceivable, -split.receivableCents],
    [LEDGER_ACCOUNTS.unappliedPayments, split.receivableCents - paid],
  ]);
}

const PLB_INTEREST = new Set(['L6', 'L3']);
// Reductions that take back earlier money or carry a balance: overpayment recovery, forward balance, authorized
// return, non-reimbursable (TR3 PLB03-1 codes).
const PLB_RECOUPMENT = new Set(['WO', 'FB', '72', 'J1', 'B2', 'B3', 'AP', 'E3', 'IS', 'IR', 'OB', 'RA']);

export function providerAdjustmentAccount(reason: string): string {
  if (PLB_INTEREST.has(reason)) return LEDGER_ACCOUNTS.payerInterest;
  if (PLB_RECOUPMENT.has(reason)) return LEDGER_ACCOUNTS.payerRecoupments;
  return LEDGER_ACCOUNTS.providerAdjustments;
}

/** The 835's provider-level posting; empty when there is no PLB or its amounts cancel out per account. */
export function providerLedgerLines(adjustments: readonly ProviderAdjustment[]): LedgerLine[] {
  const entries: [string, bigint][] = [];
  for (const adjustment of adjustments) {
    entries.push([providerAdjustmentAccount(adjustment.reason), BigInt(adjustment.amountCents)]);
    entries.push([LEDGER_ACCOUNTS.eraClearing, -BigInt(adjustment.amountCents)]);
  }
  return collect(entries);
}
