// The event a CLP reports (DECISIONS "Events out"): claim.paid, claim.partially_paid or claim.denied, recorded in
// the posting's transaction; a reversal or a code that changes no state reports nothing. A denial's adjustments
// that a biller must act on are its typed errors (`CARC:<group>-<reason>`).
import type { EventToRecord } from '../events/record-event';
import { describeCarc } from '../x12/carc';
import type { ClaimPayment } from '../x12/read-remittance';
import { claimOutcome, denialAdjustments } from './claim-outcome';

export function claimOutcomeEvent(input: {
  clinicId: string;
  claimId: string;
  remittanceId: string;
  claim: ClaimPayment;
  correlationId: string;
  now: Date;
}): EventToRecord | null {
  const outcome = claimOutcome(input.claim);
  if (outcome !== 'paid' && outcome !== 'partially_paid' && outcome !== 'denied') return null;
  const errors = outcome === 'paid' ? [] : denialAdjustments(input.claim);
  return {
    clinicId: input.clinicId,
    type: `claim.${outcome}`,
    objectId: input.claimId,
    data: {
      claimId: input.claimId,
      remittanceId: input.remittanceId,
      paidCents: Number(input.claim.paidCents),
      chargeCents: Number(input.claim.chargeCents),
    },
    errors: errors.map((a) => ({ code: `CARC:${a.group}-${a.reason}`, message: describeCarc(a.reason) })),
    correlationId: input.correlationId,
    at: input.now,
  };
}
