// Reads a 277 in either of its two uses: the 277CA claim acknowledgment (005010X214, the answer to an 837) and
// the 277 claim status response (005010X212, the answer to a 276). Per claim (2200D/2200E): our claim id, the
// payer's, the first STC's category, status and entity, its date and amounts, and whether it means accepted.
import { X12ReadError } from './x12-read-error';

export type ClaimStatus277 = {
  /** 2200D/E TRN02 (277CA: CLM01 as sent; 277: the 276's trace) or REF*EJ (patient control number) when sent. */
  claimId: string;
  /** REF*1K. */
  payerClaimId: string | null;
  /** STC01-1, e.g. "A2". */
  statusCategory: string;
  /** STC01-2, e.g. "20". */
  statusCode: string;
  /** STC01-3, e.g. "85", when sent. */
  entityCode: string | null;
  /** STC02 as YYYY-MM-DD. */
  statusDate: string | null;
  /** STC04 in integer cents. */
  chargeCents: number | null;
  /** STC05 in integer cents. */
  paidCents: number | null;
  /** STC12 (free-form message), when sent. */
  message: string | null;
  /** See isAcceptedCategory. */
  accepted: boolean;
};

export type ClaimStatusReport = {
  /** 277CA when GS08/ST03 is 005010X214, 277 when it is 005010X212. */
  kind: '277CA' | '277';
  /** ISA13 of the 277 itself. */
  interchangeControlNumber: string;
  claims: ClaimStatus277[];
};

/**
 * Whether a status category says the payer has the claim (accepted) rather than refused it at the front end.
 * Rule (health care claim status category codes, X12 external code list 507, and the 277CA TR3 1.4.2):
 * accepted = A0, A1, A2, A5 (acknowledgments of receipt/acceptance), every F* (finalized: paid, denied, revised
 * and adjudicated claims were all accepted into adjudication first), every P* (pending in adjudication) and R*
 * (requests for information on a claim the payer holds); rejected = A3, A4, A6, A7, A8 (returned as unprocessable,
 * not found, rejected for missing or invalid information, rejected for relational field error), and E* (response
 * not possible: system status) and D0 (data search unsuccessful), which say nothing is known of the claim.
 */
export function isAcceptedCategory(category: string): boolean {
  void category;
  throw new Error('not implemented');
}

/**
 * Throws X12ReadError('unreadable') when the text is not an interchange of 277 transaction sets (005010X214 or
 * 005010X212), a 2200D/E has no TRN or STC, or an amount or date is malformed.
 */
export function read277(x12: string): ClaimStatusReport {
  void x12;
  throw new X12ReadError('unreadable', 'not implemented');
}
