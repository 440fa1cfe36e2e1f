// What a CLP means for the claim's state (CLP02, "Claim Status Code", 005010X221A1 TR3):
//   1  processed as primary, 2 as secondary, 3 as tertiary,
//   19 processed as primary and forwarded, 20 as secondary and forwarded, 21 as tertiary and forwarded
//        -> paid; partially_paid when any CAS outside PR is a denial (not an expected contractual reduction);
//           denied when neither the payer nor the patient owes anything (every cent adjusted away)
//   4  denied -> denied;  23 not our claim, forwarded -> denied (the payer does not cover it)
//   22 reversal of a previous payment -> accepted (the adjudication is undone; a corrected CLP usually follows
//        in the same 835 and sets the new state)
//   25 predetermination pricing only, and any other code -> no state change (the amounts still post)
import { describeCarc } from '../x12/carc';
import type { CasAdjustment, ClaimPayment } from '../x12/read-remittance';
import { allAdjustments } from './remittance-ledger-lines';

export type ClaimOutcome = 'paid' | 'partially_paid' | 'denied' | 'reversed' | null;

const PROCESSED = new Set(['1', '2', '3', '19', '20', '21']);

/**
 * CARCs that reduce a payment as the contract or another payer expects, not as a refusal: fee schedule (45),
 * sequestration (253), prior payer (23), capitation (24), processed in excess of charges (94).
 */
const EXPECTED_REDUCTIONS = new Set(['45', '253', '23', '24', '94']);

/** Adjustments a biller must act on: not the patient's share, not an expected contractual reduction. */
export function denialAdjustments(claim: ClaimPayment): CasAdjustment[] {
  return allAdjustments(claim).filter(
    (adjustment) =>
      adjustment.group !== 'PR' && !EXPECTED_REDUCTIONS.has(adjustment.reason) && adjustment.amountCents > 0,
  );
}

export function claimOutcome(claim: ClaimPayment): ClaimOutcome {
  if (claim.statusCode === '22') return 'reversed';
  if (claim.statusCode === '4' || claim.statusCode === '23') return 'denied';
  if (!PROCESSED.has(claim.statusCode)) return null;
  if (
    claim.paidCents <= 0 &&
    claim.patientResponsibilityCents <= 0 &&
    allAdjustments(claim).every((a) => a.group !== 'PR')
  )
    return 'denied';
  return denialAdjustments(claim).length > 0 ? 'partially_paid' : 'paid';
}

/** The claim's new state for an outcome. */
export const STATUS_FOR_OUTCOME: Readonly<Record<Exclude<ClaimOutcome, null>, string>> = {
  paid: 'paid',
  partially_paid: 'partially_paid',
  denied: 'denied',
  reversed: 'accepted',
};

/** Why, in words, for Claim.statusReason: the first denial adjustment with its description. */
export function outcomeReason(claim: ClaimPayment, outcome: ClaimOutcome): string | null {
  if (outcome === 'reversed') return 'The payer reversed its previous payment (CLP02 22)';
  if (outcome !== 'denied' && outcome !== 'partially_paid') return null;
  const first = denialAdjustments(claim)[0];
  if (first) return `${first.group}-${first.reason}: ${describeCarc(first.reason)}`;
  return outcome === 'denied' ? `Denied by the payer (CLP02 ${claim.statusCode})` : null;
}
