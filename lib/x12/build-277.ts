// Writes a 005010X212 277 claim status response for one claim: the sandbox payer's answer to a 276. Levels as the
// TR3's examples: 20 payer (2100A), 21 receiver (2100B), 19 provider (2100C), 22 subscriber (2100D), then the
// claim status tracking loop 2200D with TRN*2 (the 276's trace echoed), STC, REF*1K, REF*EJ, DTP*472.
// Production never builds a 277: payers do.
import { type InterchangeEnvelope } from './build-interchange';
import type { Build276Input } from './build-276';
import type { ClaimStatusInput } from './build-277ca';

export type Build277Input = InterchangeEnvelope & {
  /** The request being answered: its payer, receiver, provider, subscriber and claim are echoed. */
  request: Pick<Build276Input, 'payer' | 'receiver' | 'provider' | 'subscriber' | 'claim' | 'traceNumber'>;
  /** BHT03: our reference for this response (1..50 characters). */
  referenceId: string;
  status: {
    /** STC01, e.g. F1:65 paid, F2:85 denied, P1:20 pending, D0:35 not found. */
    status: ClaimStatusInput;
    /** STC02, YYYY-MM-DD. */
    statusDate: string;
    /** STC05: the amount paid, integer cents (finalized claims). */
    paidCents?: number;
    /** STC06: adjudication/payment date, YYYY-MM-DD. */
    paymentDate?: string;
    /** STC09: check or EFT trace number. */
    checkNumber?: string;
    /** STC12. */
    message?: string;
    /** REF*1K, when the payer has one (else the request's, when it sent one). */
    payerClaimId?: string;
  };
};

/** Throws RangeError for a value holding a delimiter, a bad date, or an amount that is not integer cents. */
export function build277(input: Build277Input): string {
  void input;
  throw new Error('not implemented');
}
