// The sandbox payer's answer to a 276 claim status request: a 005010X212 277 for the claim, from the claim's
// state as the platform knows it (passed in: the sandbox has no memory of its own). Pure.

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
 * The 277 text. States map to STC01: submitted/accepted/appealed → P1:20 (pending, accepted for processing),
 * rejected → A7:21 (rejected for invalid information), paid/closed → F1:65 (finalized, paid), partially_paid →
 * F1:65 with the amount paid, denied → F2:88 (finalized, denied), unknown claim → D0:35 (not found).
 * Throws X12ReadError when the text is not a 276 of build-276.ts's shape.
 */
export function answerStatus(input: AnswerStatusInput): string {
  void input;
  throw new Error('not implemented');
}
