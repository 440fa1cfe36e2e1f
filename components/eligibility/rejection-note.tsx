// Why an answer is "unknown", in words staff can act on: the payer's reason, then the next step. For a payer
// AAA the step comes from its follow-up code (AAA04), with the payer's own wording kept beside it.
import type { Rejection } from '@/lib/eligibility/eligibility-result';

const NEXT_STEP: Record<string, string> = {
  C: 'Check the member id, name and date of birth against the insurance card, correct them and check again.',
  N: 'Do not check again; call the payer to confirm coverage.',
  P: 'Check again.',
  R: 'Check again later; if it still fails, call the payer to confirm coverage.',
  S: 'Do not check again; the payer is asking another party. Call the payer if you need an answer today.',
  W: 'Wait 30 days before checking again; call the payer to confirm coverage for this visit.',
  X: 'Wait 10 days before checking again; call the payer to confirm coverage for this visit.',
  Y: 'Do not check again; the payer will send its answer another way.',
};

export function RejectionNote({ rejection }: { rejection: Rejection }) {
  const fromPayer = rejection.loop !== null;
  const step = (fromPayer && rejection.followUpCode ? NEXT_STEP[rejection.followUpCode] : null) ?? rejection.followUp;
  return (
    <div data-testid="rejection">
      <div>
        {rejection.reason}
        {fromPayer ? <span className="muted"> (payer code {rejection.reasonCode})</span> : null}
      </div>
      {step ? (
        <div>
          <strong>Next step:</strong> {step}
          {fromPayer && rejection.followUp && step !== rejection.followUp ? (
            <span className="muted"> (payer: {rejection.followUp})</span>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
