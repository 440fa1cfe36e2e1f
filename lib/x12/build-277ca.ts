// Writes a 005010X214 277CA health care claim acknowledgment: what a clearinghouse or payer answers to an 837
// after its front-end edits, one status per claim. Levels as the TR3's examples write them: 20 information
// source (2100A), 21 information receiver (2100B), 19 billing provider (2100C), PT patient (2100D) with the
// claim's 2200D TRN, STC, REF and DTP. It writes what it is given and decides no status (the sandbox does).
import { type InterchangeEnvelope } from './build-interchange';

/** STC01: category (A1, A2, A3...), status code, and the entity the status is about (e.g. 85 billing provider). */
export type ClaimStatusInput = { category: string; code: string; entity?: string };

export type Claim277caInput = {
  /** 2200D TRN02: the patient control number, our claim id from CLM01. */
  claimId: string;
  /** 2100D NM1*QC: the patient (the subscriber when there is no 2000C), with the member id (NM109 MI). */
  patient: { lastName: string; firstName: string; middleName?: string; memberId: string };
  /** STC01. */
  status: ClaimStatusInput;
  /** STC02 (D8), YYYY-MM-DD: when the status took effect. */
  statusDate: string;
  /** STC04: the claim's total charge (CLM02), integer cents. */
  chargeCents: number;
  /** STC12: a free-form message (e.g. the reason of a rejection), when there is one. */
  message?: string;
  /** REF*1K: the payer's claim control number, when the claim was accepted and assigned one. */
  payerClaimId?: string;
  /** DTP*472: service dates, YYYY-MM-DD; `to` equal to `from` (or absent) writes a D8, else an RD8. */
  serviceDates: { from: string; to?: string };
};

export type Build277caInput = InterchangeEnvelope & {
  /** BHT03: our reference for this acknowledgment batch (1..50 characters). */
  referenceId: string;
  /** 2100A NM1*PR (PI): who acknowledges: the payer, or the clearinghouse acting for it. */
  informationSource: { id: string; name: string };
  /** 2100B NM1*41 (46): who submitted the 837 (1000A of the 837). */
  informationReceiver: { id: string; name: string };
  /** 2200A DTP*050 received date and DTP*009 process date, YYYY-MM-DD. */
  receivedDate: string;
  processedDate: string;
  /** 2100C NM1*85 with the XX NPI. */
  billingProvider: { npi: string; name: string };
  /** 2000D, one per claim, one status each. At least one. */
  claims: Claim277caInput[];
};

/** The categories the 277CA TR3 uses for an accepted claim (A1 acknowledgment/receipt, A2 accepted). */
export const ACCEPTED_277CA_CATEGORIES: ReadonlySet<string> = new Set(['A1', 'A2']);

/**
 * Writes the 2000B/2000C summaries (QTY*90/AA, AMT*YU/YY) from the claims' categories: accepted when A1/A2,
 * rejected otherwise. Throws RangeError for a value holding a delimiter, a bad date or NPI, no claims, or a
 * charge that is not non-negative integer cents.
 */
export function build277ca(input: Build277caInput): string {
  void input;
  throw new Error('not implemented');
}
