// The three balancing rules of the 835 TR3 (005010X221A1, "Balancing"), checked in integer cents on a remittance
// as it is read. Adjustments (CAS, PLB) reduce the payment when positive and increase it when negative.
import { formatCentsAsDecimal } from '../money/cents';
import type { CasAdjustment, ClaimPayment, Remittance } from './read-remittance';
import { X12ReadError } from './x12-read-error';

/**
 * The rules checked as an 835 is read, so its claims need not be held: `claim` checks each claim as it closes, in
 * file order, and `finish` the transaction once the last has. Each throws X12ReadError('unreadable') with a one-line
 * reason naming the first rule that fails and where:
 * 1. service line: SVC02 - the line's CAS = SVC03, for every line;
 * 2. claim: CLP03 - claim CAS - every line's CAS = CLP04; and when the claim has lines, the sum of SVC03 - claim
 *    CAS = CLP04 (the lines carry the whole claim: with rule 1, this says the SVC02s add up to CLP03);
 * 3. transaction: the sum of CLP04 - the sum of PLB amounts = BPR02 (signed: a debit BPR03 D is negative).
 * Each claim's lines are checked before the claim, the transaction last.
 */
export function remittanceBalance(): {
  claim(claim: ClaimPayment): void;
  finish(remittance: Pick<Remittance, 'providerAdjustments' | 'paymentCents' | 'traceNumber'>): void;
} {
  let paidTotal = 0;
  return {
    claim(claim) {
      assertClaimBalanced(claim);
      paidTotal = add(paidTotal, claim.paidCents);
    },
    finish(remittance) {
      const providerTotal = sumOf(remittance.providerAdjustments);
      if (paidTotal - providerTotal !== remittance.paymentCents) {
        unbalanced(
          `transaction rule (sum of CLP04 - sum of PLB = BPR02) fails for trace ${JSON.stringify(remittance.traceNumber)}`,
          paidTotal,
          providerTotal,
          remittance.paymentCents,
        );
      }
    },
  };
}

function assertClaimBalanced(claim: ClaimPayment): void {
  const name = JSON.stringify(claim.claimId);
  let lineAdjustmentTotal = 0;
  let linePaidTotal = 0;
  claim.lines.forEach((line, index) => {
    const adjustmentTotal = sumOf(line.adjustments);
    if (line.chargeCents - adjustmentTotal !== line.paidCents) {
      unbalanced(
        `service line rule (SVC02 - CAS = SVC03) fails for claim ${name} line ${index + 1}`,
        line.chargeCents,
        adjustmentTotal,
        line.paidCents,
      );
    }
    lineAdjustmentTotal = add(lineAdjustmentTotal, adjustmentTotal);
    linePaidTotal = add(linePaidTotal, line.paidCents);
  });
  const claimAdjustmentTotal = sumOf(claim.adjustments);
  if (claim.chargeCents - claimAdjustmentTotal - lineAdjustmentTotal !== claim.paidCents) {
    unbalanced(
      `claim rule (CLP03 - claim and line CAS = CLP04) fails for claim ${name}`,
      claim.chargeCents,
      claimAdjustmentTotal + lineAdjustmentTotal,
      claim.paidCents,
    );
  }
  if (claim.lines.length > 0 && linePaidTotal - claimAdjustmentTotal !== claim.paidCents) {
    unbalanced(
      `claim rule (sum of SVC03 - claim CAS = CLP04) fails for claim ${name}`,
      linePaidTotal,
      claimAdjustmentTotal,
      claim.paidCents,
    );
  }
}

function sumOf(adjustments: readonly Pick<CasAdjustment, 'amountCents'>[]): number {
  let total = 0;
  for (const adjustment of adjustments) total = add(total, adjustment.amountCents);
  return total;
}

/**
 * A running sum of cents that must stay a safe integer: each amount is at most MAX_AMOUNT_CENTS, but a 64 MiB 835
 * holds enough of them to pass 2^53, where a float sum would silently round and a balancing rule could pass or
 * fail by accident. Checked at every step, the sum is exact whenever the rule is judged.
 */
function add(total: number, cents: number): number {
  const sum = total + cents;
  if (!Number.isSafeInteger(sum)) throw new X12ReadError('unreadable', 'the amounts add up past what cents can count');
  return sum;
}

/** The reason names the rule, where it fails, and its arithmetic: "200.00 - 50.00 = 150.00, not 140.00". */
function unbalanced(rule: string, fromCents: number, adjustmentCents: number, expectedCents: number): never {
  const [from, adjustment, computed, expected] = [
    fromCents,
    adjustmentCents,
    fromCents - adjustmentCents,
    expectedCents,
  ].map(formatCentsAsDecimal);
  throw new X12ReadError(
    'unreadable',
    `does not balance: ${rule}: ${from} - ${adjustment} = ${computed}, not ${expected}`,
  );
}
