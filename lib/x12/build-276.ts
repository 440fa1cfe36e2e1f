// Writes a 005010X212 276 claim status request for one claim: payer (2100A), receiver (2100B, us), provider
// (2100C, NPI), subscriber (2100D) and the claim (2200D: TRN trace, REF*1K, REF*EJ, AMT*T3, DTP*472). It does not
// send it (the clearinghouse transport does) nor choose control numbers or the time.
import { type InterchangeEnvelope } from './build-interchange';

export type Build276Input = InterchangeEnvelope & {
  /** 2100A NM1*PR with PI. */
  payer: { id: string; name: string };
  /** 2100B NM1*41 with 46 (electronic transmitter id): who asks. */
  receiver: { id: string; name: string };
  /** 2100C NM1*1P with XX. */
  provider: { npi: string; name: string };
  /** 2100D NM1*IL with MI, and DMG (birth date, sex F/M/U). */
  subscriber: {
    memberId: string;
    lastName: string;
    firstName: string;
    middleName?: string;
    /** YYYY-MM-DD. */
    birthDate: string;
    sex: 'F' | 'M' | 'U';
  };
  claim: {
    /** REF*EJ (patient control number): CLM01 as we sent it, our claim id. */
    claimId: string;
    /** REF*1K: the payer's claim control number, when known (277CA or 835). */
    payerClaimId?: string;
    /** AMT*T3: total submitted charges, integer cents. */
    totalChargeCents: number;
    /** DTP*472 service dates, YYYY-MM-DD; RD8 always (the TR3's example form). `to` defaults to `from`. */
    serviceDates: { from: string; to?: string };
  };
  /** 2200D TRN02, echoed by the 277; defaults to claim.claimId, so the answer names the claim. 1..50 characters. */
  traceNumber?: string;
};

/** Throws RangeError for a value holding a delimiter, a bad date, NPI or sex, or a charge not integer cents. */
export function build276(input: Build276Input): string {
  void input;
  throw new Error('not implemented');
}
