// The sandbox payer's answer to a 276 claim status request: a 005010X212 277 for the claim, from the claim's
// state as the platform knows it (passed in: the sandbox has no memory of its own). Pure.
import { build277, type Build277Input } from '../../x12/build-277';
import { read276 } from '../../x12/read-276';

/** What the sandbox payer knows of the claim; null when it has never seen it (answered D0:35, not found). */
export type KnownClaimState = {
  /** The claim's state (lib/claims): submitted, accepted, rejected, paid, partially_paid, denied, appealed, closed. */
  status: string;
  /** Integer cents. */
  chargeCents: number;
  paidCents?: number;
  /** REF*1K, when the payer assigned one. */
  payerClaimId?: string;
  /** YYYY-MM-DD: the date of the last change (STC02); defaults to the day of `now`. */
  statusDate?: string;
  /** Words for a rejection or denial, sent as STC12. */
  reason?: string;
};

export type AnswerStatusInput = {
  /** The 276 exactly as sent (build-276.ts's shape). */
  x12: string;
  now: Date;
  /** ISA13/GS06 of the 277, 1..999999999. */
  controlNumber: number;
  claim: KnownClaimState | null;
};

/**
 * The 277 text. States map to STC01: submitted → A1:19:PR (the payer acknowledges receipt); accepted and appealed
 * → P1:20 (pending, accepted for processing); rejected → A7:33:IL (rejected for invalid information, subscriber id
 * not found: the sandbox's one front-end rejection); paid, partially_paid and closed → F1:65 (finalized, paid)
 * with the amount paid; denied → F2:1 (finalized, denied: see the remittance advice); an unknown claim or any
 * other state (a draft was never sent) → D0:35 (claim not found). Throws X12ReadError when the text is not a 276 of
 * build-276.ts's shape.
 */
export function answerStatus(input: AnswerStatusInput): string {
  const request = read276(input.x12);
  const today = input.now.toISOString().slice(0, 10);
  const { claim } = input;
  const statusDate = claim?.statusDate ?? today;
  const status: Build277Input['status'] = { status: statusFor(claim?.status ?? null), statusDate };
  if (claim?.payerClaimId) status.payerClaimId = claim.payerClaimId;
  if (status.status.category === 'F1' || status.status.category === 'F2') {
    status.paidCents = claim?.paidCents ?? 0;
    status.adjudicatedDate = statusDate;
  }
  return build277({
    interchangeControlNumber: input.controlNumber,
    groupControlNumber: input.controlNumber,
    transactionControlNumber: '0001',
    // The payer answers the asker: the 276's sender and receiver swapped.
    senderId: request.receiverId,
    receiverId: request.senderId,
    usageIndicator: request.usageIndicator ?? 'P',
    createdAt: input.now,
    request,
    referenceId: `277-${input.controlNumber}`,
    status,
  });
}

function statusFor(state: string | null): Build277Input['status']['status'] {
  switch (state) {
    case 'submitted':
      return { category: 'A1', code: '19', entity: 'PR' };
    case 'accepted':
    case 'appealed':
      return { category: 'P1', code: '20' };
    case 'rejected':
      return { category: 'A7', code: '33', entity: 'IL' };
    case 'paid':
    case 'partially_paid':
    case 'closed':
      return { category: 'F1', code: '65' };
    case 'denied':
      return { category: 'F2', code: '1' };
    default:
      return { category: 'D0', code: '35' };
  }
}
