// What a claim still has open (DECISIONS "Claim lifecycle"): charge − paid − adjustments − written off − moved to
// the patient. Because each 835 posts paid + every CAS = CLP03 against claims-receivable, this equals the claim's
// part of assets:claims-receivable: the amount a write-off may take off it.

type ClaimAmounts = {
  totalChargeCents: bigint;
  paidCents: bigint;
  adjustmentCents: bigint;
  writtenOffCents: bigint;
  patientResponsibilityCents: bigint;
};

/** Integer cents; negative only when payers paid more than was charged (an overpayment to refund). */
export function claimBalanceCents(claim: ClaimAmounts): bigint {
  return (
    claim.totalChargeCents -
    claim.paidCents -
    claim.adjustmentCents -
    claim.writtenOffCents -
    claim.patientResponsibilityCents
  );
}
